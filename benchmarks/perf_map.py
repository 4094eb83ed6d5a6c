"""Run an ``mjsim`` command in this process, then name its compiled code for ``perf``.

numba's machine code lives in anonymous memory, so ``perf report`` shows it as bare addresses.  This
script runs the command, then writes ``/tmp/perf-<pid>.map`` (the file ``perf`` reads for just-in-time
code) from every compiled object numba loaded: each object's symbols and their offsets (``nm``), placed by
the address the JIT engine gives one of its own symbols.  Usage::

    perf record -F 2000 -o perf.data python benchmarks/perf_map.py simulate --ruleset jipinghu \\
        --hands 40000 --policy efficiency --workers 1 --quiet --overwrite -o /tmp/profiled
    perf report -i perf.data --no-children --sort sym

One worker only: the hands must play in this process.  Functions numba inlined into their callers show
as the caller; the names are the qualified Python names (``mjsim.agents.shape.ukeire_marked``).  The
kernels must be in the cache already (run the command once first): code compiled in this process is
named as well, but its compile then dominates the profile.
"""

from __future__ import annotations

import collections
import os
import re
import subprocess
import sys
import tempfile

from numba.core import codegen

_loaded: list[tuple[bytes, object]] = []  # (object code, codegen) of every library read from the cache
_modules: list[tuple[object, list[str]]] = []  # (JIT engine, defined function names) of every module added
_read_library = codegen.CPUCodeLibrary._unserialize.__func__
_add_module = codegen.JitEngine.add_module


def _recording_read(cls, codegen_, state):
    if state[1] == "object":
        _loaded.append((state[2][0], codegen_))
    return _read_library(cls, codegen_, state)


def _recording_add(self, module):
    _modules.append((self, [f.name for f in module.functions if not f.is_declaration]))
    return _add_module(self, module)


def python_name(symbol: str) -> str:
    """``_ZN5mjsim3sim6engine4stepB3v29...`` -> ``mjsim.sim.engine.step`` (other names unchanged)."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts, i = [], 3
    while (match := re.match(r"\d+", symbol[i:])) is not None:
        i += len(match.group())
        length = int(match.group())
        parts.append(symbol[i : i + length])
        i += length
    return ".".join(parts) or symbol


def _symbols(code: bytes) -> list[tuple[int, int, str, str]]:
    """(offset, size, nm type, name) of the functions in one object file."""
    with tempfile.NamedTemporaryFile(suffix=".o") as file:
        file.write(code)
        file.flush()
        listing = subprocess.run(["nm", "-S", "--defined-only", file.name], capture_output=True, text=True).stdout
    rows = []
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "TtWw":
            rows.append((int(fields[0], 16), int(fields[1], 16), fields[2], fields[3]))
    return rows


def map_lines() -> list[str]:
    """``start size name`` lines for every function found, as ``perf`` reads them."""
    objects = [(_symbols(code), codegen_) for code, codegen_ in _loaded]
    # an object is placed by a strong symbol no other object defines: a shared name resolves to one copy only
    strong = collections.Counter(name for symbols, _ in objects for _, _, kind, name in symbols if kind == "T")
    lines, starts = [], set()
    for symbols, codegen_ in objects:
        unique = [(offset, name) for offset, _, kind, name in symbols if kind == "T" and strong[name] == 1]
        address = codegen_._engine.get_function_address(unique[0][1]) if unique else 0
        if not address:
            continue
        base = address - unique[0][0]
        for offset, size, _, name in symbols:
            lines.append(f"{base + offset:x} {size:x} {python_name(name)}\n")
            starts.add(base + offset)
    # functions compiled in this process: their sizes are read as the distance to the next known start
    compiled = {}
    for engine, names in _modules:
        for name in names:
            address = engine._ee.get_function_address(name)
            if address and address not in starts:
                compiled[address] = name
    every = sorted(starts | set(compiled))
    for address, name in compiled.items():
        later = [a for a in every if a > address]
        size = min(later[0] - address, 1 << 20) if later else 1 << 16
        lines.append(f"{address:x} {size:x} {python_name(name)}\n")
    return lines


def main(argv: list[str]) -> int:
    codegen.CPUCodeLibrary._unserialize = classmethod(_recording_read)
    codegen.JitEngine.add_module = _recording_add
    from mjsim import cli

    status = cli.main(argv)
    lines = map_lines()
    path = f"/tmp/perf-{os.getpid()}.map"
    with open(path, "w") as file:
        file.writelines(lines)
    print(f"perf_map: {len(lines)} functions named in {path}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
