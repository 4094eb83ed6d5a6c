"""How mjsim compiles: one signature per kernel however it is called, numba only when a kernel is needed,
and the warm-up parts (issue 15)."""

import os
import subprocess
import sys

import numpy as np
import pytest
from numba import types

from mjsim.sim.borrowing import kernel, njit_borrowed
from mjsim.sim.warmup import compile_part


@njit_borrowed
def _twice(x):
    return 2 * x


@kernel
def _calls_with_literals_and_narrow_integers(small):
    return _twice(0) + _twice(7) + _twice(small[0]) + _twice(np.int16(3)) + _twice(np.uint8(5))


def test_a_kernel_called_with_literals_and_narrow_integers_compiles_once():
    # the types a call from compiled code asks for (plain numba compiles one signature for each of these five)
    for asked in (types.literal(0), types.literal(7), types.int8, types.int16, types.uint8):
        _twice.get_call_template((asked,), {})
    assert _twice.signatures == [(types.int64,)]


def test_calls_with_literals_and_narrow_integers_give_64_bit_results():
    assert _calls_with_literals_and_narrow_integers(np.array([4], np.int8)) == 2 * (0 + 7 + 4 + 3 + 5)
    assert _calls_with_literals_and_narrow_integers(np.array([127], np.int8)) == 2 * (0 + 7 + 127 + 3 + 5)


def test_import_mjsim_and_the_reference_scorer_load_no_numba():
    code = (
        "import sys, mjsim, mjsim.hand, mjsim.rules, mjsim.rules.scoring, mjsim.cli; "
        "print(sorted(m for m in ('numba', 'tqdm', 'polars', 'pyarrow') if m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


def test_a_run_loads_neither_the_engine_nor_its_storage_before_starting_its_workers():
    # simulate() starts the local workers first, so their start-up overlaps these imports in the parent
    code = (
        "import sys, mjsim.sim.parallel; "
        "print(sorted(m for m in ('numba', 'polars', 'pyarrow', 'mjsim.sim.engine') if m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


def test_an_unknown_warm_up_part_is_refused_by_name():
    with pytest.raises(ValueError, match=r"warm-up part 'engin' is not one of \['engine', 'policies'\]"):
        compile_part("engin")


def test_playing_a_chunk_loads_no_polars(tmp_path):
    # a worker only writes parts (pyarrow); polars is the readers' (0.13 s of every worker's start-up)
    code = (
        "import sys; from mjsim.rules import ruleset; from mjsim.sim.parallel import RunSpec, run_chunk; "
        "spec = RunSpec(ruleset=ruleset('jipinghu'), policies=('efficiency',), hands=4, run_id='r'); "
        f"parts = run_chunk(spec, 0, 0, 4, {str(tmp_path)!r}, '.'); "
        "print(len(parts), 'polars' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert done.split() == ["1", "False"]


def _pandas_after_arrow_calls():
    import numpy as np
    import pyarrow as pa

    pa.array(np.arange(3))
    pa.array(["a", "b"])
    loaded_by_arrays = "pandas" in sys.modules
    frame = pa.table({"a": [1, 2]}).to_pandas()  # a call that needs pandas still gets it
    return loaded_by_arrays, list(frame["a"])


def test_a_local_worker_builds_arrow_arrays_without_loading_pandas():
    from mjsim.sim.backends import LocalProcesses

    backend = LocalProcesses(1)
    try:
        assert backend.submit(_pandas_after_arrow_calls).result() == (False, [1, 2])
    finally:
        backend.close(cancel=True)


def test_a_local_workers_exit_skips_the_last_search_for_cycles():
    # a worker exits while the parent prints the summary; frozen objects are not searched at shutdown
    script = (
        "import atexit, gc\n"
        "from mjsim.sim.backends import _start_worker\n"
        "_start_worker()\n"
        "before = gc.get_freeze_count()\n"
        "atexit._run_exitfuncs()\n"
        "print(before, gc.get_freeze_count() > 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["0", "True"]


def _blas_threads_setting():
    return os.environ.get("OPENBLAS_NUM_THREADS")


def test_a_local_worker_starts_numpy_with_one_blas_thread():
    # OpenBLAS otherwise starts a spinning thread per core in every worker, beside the other workers' hands
    from mjsim.sim.backends import LocalProcesses

    backend = LocalProcesses(1)
    try:
        assert backend.submit(_blas_threads_setting).result() == "1"
    finally:
        backend.close(cancel=True)


_HELPER_AND_CALLERS = """
import numpy as np
from mjsim.sim.borrowing import kernel

@kernel
def helper(x):
    total = 0
    for i in range(x.shape[0]):
        total += 2 * x[i]
    if total < 0:
        raise ValueError("negative total", total)  # its arguments travel through numba's environment
    return total

@kernel(entry=True)
def entry_helper(x):
    return x.sum()

@kernel
def rows(n):
    return np.full(n, 2.5)  # boxing an array for Python needs the lowering's context (reference counting on)

@kernel
def caller(x):
    return helper(x) + entry_helper(x) + int(rows(2).sum()) - 5

@kernel
def second_caller(x):
    return 10 * helper(x)
"""

_REPORT = """
import numpy as np, mjsim._compiled_cache as cache
cache.configure()
import helpers_and_callers as k
x = np.arange(5)
print(k.caller(x), k.second_caller(x))
for f in (k.caller, k.helper, k.entry_helper):
    print(f.py_func.__name__, *sorted(type(c.library).__name__ for c in f.overloads.values()))
print("helper emitted:", *[c.library.emitted for c in k.helper.overloads.values()])
def python_wrapped():
    return [any(f.name == c.fndesc.llvm_cpython_wrapper_name and not f.is_declaration
                for f in c.library._final_module.functions) for c in k.helper.overloads.values()]
print("helper has a Python wrapper:", *python_wrapped())
for f in (k.caller, k.second_caller, k.helper):
    try:
        f(-x)
    except ValueError as e:
        print(f.py_func.__name__, "raised", e.args[0])  # numba 0.59 garbles the second argument
print("helper from Python:", k.helper(x), k.helper(x))
print("helper has a Python wrapper:", *python_wrapped())
print("array helper from Python:", k.rows(3).tolist())
"""


def test_a_helper_compiled_for_its_callers_is_optimised_and_emitted_only_inside_them(tmp_path):
    (tmp_path / "helpers_and_callers.py").write_text(_HELPER_AND_CALLERS)
    env = {**os.environ, "MJSIM_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}
    env.pop("NUMBA_CACHE_DIR", None)

    def run():
        return subprocess.run([sys.executable, "-c", _REPORT], env=env, capture_output=True, text=True, check=True)

    raised = ["caller raised negative total", "second_caller raised negative total", "helper raised negative total",
              "helper from Python: 20 20"]  # fmt: skip
    cold = run().stdout.strip().split("\n")
    assert cold[0] == f"{2 * 10 + 10} {10 * 2 * 10}"
    # the callers (compiled for Python) and the entry=True helper keep numba's library and its whole pipeline
    assert cold[1:4] == ["caller JITCodeLibrary", "helper HelperLibrary", "entry_helper JITCodeLibrary"]
    assert cold[4] == "helper emitted: False"  # two callers run it, and it has no machine code of its own
    assert cold[5] == "helper has a Python wrapper: False"  # nor the wrapper Python would call it through
    from_python = [*raised, "helper has a Python wrapper: True", "array helper from Python: [2.5, 2.5, 2.5]"]
    assert cold[6:] == from_python  # then Python calls it: wrapped and emitted on the way
    warm = run().stdout.strip().split("\n")
    assert warm[0] == cold[0]  # the callers' cached code, loaded
    assert warm[1:4] == ["caller JITCodeLibrary", "helper", "entry_helper"]  # loading a caller loads no helper
    # the helper's cached bitcode (no wrapper in it), read back, wrapped and emitted when Python asks for it
    assert warm[6:] == from_python


_HOT_AND_COLD = """
from mjsim.sim.borrowing import kernel


def hot_total(x):
    return x.sum() + 1


def cold_total(x):
    return x.sum() + 2


hot_total.__module__ = "mjsim.agents.made_up"  # as if a policy's kernel
cold_total.__module__ = "mjsim.sim.made_up"  # as if the engine's
hot_total, cold_total = kernel(hot_total), kernel(cold_total)
"""

_LEVELS = """
import numpy as np, mjsim, numba
print(int(numba.config.OPT), numba.config.CACHE_DIR.rsplit("-", 1)[1])
import hot_and_cold
for compiled in (hot_and_cold.hot_total, hot_and_cold.cold_total):
    compiled(np.arange(3))
    library = compiled.overloads[(numba.types.int64[::1],)].library
    print(compiled.py_func.__name__, type(library).__name__, getattr(library, "pass_opt", "-"))
"""


@pytest.mark.parametrize("asked, level", [(None, "1"), ("2", "2")])
def test_numba_optimises_at_level_one_unless_the_user_asks_and_the_hot_packages_at_three(tmp_path, asked, level):
    (tmp_path / "hot_and_cold.py").write_text(_HOT_AND_COLD)
    env = {**os.environ, "MJSIM_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("NUMBA_OPT", None)
    if asked:
        env["NUMBA_OPT"] = asked
    out = subprocess.run([sys.executable, "-c", _LEVELS], env=env, capture_output=True, text=True, check=True)
    lines = out.stdout.strip().split("\n")
    assert lines[0] == f"{level} opt{level}"  # code compiled at another level lives in a directory of its own
    # a policy's (or the hand API's) kernel gets LLVM's passes at level 3; the engine's keep numba's level
    assert lines[1:] == ["hot_total PassLevelLibrary 3", "cold_total JITCodeLibrary -"]
