"""Where numba keeps mjsim's compiled kernels: a user cache directory keyed by the source code.

numba invalidates a cached function when its own file changes, but not when
a function it calls from another module does, so an edited scorer could
silently run stale inside a cached engine.  Keying the directory by a hash
of the source files of the compiled packages makes any edit there start
from a clean cache; the
directory sits beside the hand tables (``MJSIM_CACHE_DIR``, else the user
cache dir).  An explicit ``NUMBA_CACHE_DIR`` is respected.

It also sets numba's optimisation level (:data:`DEFAULT_OPT`) unless the user
has.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from mjsim.cache import cache_dir

COMPILED_PACKAGES = ("hand", "sim", "agents")  # the packages holding @njit code
# Pure-Python drivers in those packages that compiled code never reads: editing them must not
# throw away a minute of compiled kernels.
DRIVER_MODULES = frozenset(
    {
        "sim/backends.py",
        "sim/compile_notice.py",
        "sim/parallel.py",
        "sim/replay.py",
        "sim/runner.py",
        "sim/supported.py",
        "sim/warmup.py",
    }
)


# LLVM's optimisation level for compiled code that is not hot (numba's ``NUMBA_OPT``, 3 by default): at 1
# the engine compiles in about 0.8x the CPU and runs from the cache take no longer (benchmarks/README.md).
# The policies and the hand API keep LLVM's passes at 3 (``mjsim.sim.optimise_once.HOT_PACKAGES``).
DEFAULT_OPT = "1"


def source_key() -> str:
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent
    for path in sorted(p for package in COMPILED_PACKAGES for p in (root / package).rglob("*.py")):
        if path.relative_to(root).as_posix() in DRIVER_MODULES:
            continue
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def configure() -> None:
    """Point numba's cache at the keyed directory and set its optimisation level, without importing numba
    (``import mjsim`` stays cheap).

    numba reads ``NUMBA_CACHE_DIR`` and ``NUMBA_OPT`` when it is first imported, so the variables are set
    here (worker processes inherit them); if numba is already loaded its config is set directly.  A user's
    own ``NUMBA_OPT`` is obeyed, and code compiled at another level is kept in a directory of its own.
    """
    numba = sys.modules.get("numba")
    if not os.environ.get("NUMBA_OPT"):
        os.environ["NUMBA_OPT"] = DEFAULT_OPT
        if numba is not None:
            numba.config.OPT = numba.config._OptLevel(int(DEFAULT_OPT))
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    directory = str(cache_dir() / f"numba-{source_key()}-opt{os.environ['NUMBA_OPT']}")
    if numba is not None:
        numba.config.CACHE_DIR = directory
    else:
        os.environ["NUMBA_CACHE_DIR"] = directory
