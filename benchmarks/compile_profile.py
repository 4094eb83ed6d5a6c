"""Where a first run's compile goes, function by function (the 30 s target is `startup.py`'s; this says why).

One warm-up part (``mjsim.sim.warmup``: ``engine`` for the given families' build, or ``policies`` for the
given policy specs) is built
in a fresh process on an empty cache while numba's compile and LLVM-lock events are recorded.  It prints
the part's CPU, the number of compiles, the time LLVM held its lock (optimising and emitting machine
code), the functions with the largest exclusive time (their own typing, lowering and LLVM, without the
compiles of their callees), and how often the machine code is duplicated: the bytes of every cached
object over the largest one's.  numba optimises and emits each compiled function together with every
callee linked into it, so each object holds its function's whole closure.  The reference measured in
the same run is the same part in a second fresh process, loading what the first one cached.  It judges
no target (the whole first run's is `startup.py`'s), so it exits 0.

    python benchmarks/compile_profile.py [--part engine] [--family jipinghu] [--policies efficiency] [--top 15]
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def build(part: str, policies: str, family: str) -> dict:
    """Build ``part`` in this process, recording numba's events; the figures as a JSON-able dict."""
    from numba.core import event

    from mjsim.sim.warmup import compile_part

    events = []

    class Recorder(event.Listener):
        def on_start(self, ev):
            events.append((time.perf_counter(), ev.kind, True, ev.data))

        def on_end(self, ev):
            events.append((time.perf_counter(), ev.kind, False, ev.data))

    recorder = Recorder()
    event.register("numba:compile", recorder)
    event.register("numba:llvm_lock", recorder)
    started = time.process_time()
    compile_part(part, policies if part == "policies" else [family])
    cpu = time.process_time() - started
    exclusive, llvm, compiles = collections.Counter(), collections.Counter(), collections.Counter()
    stack, last, lock_taken = [], None, None
    for stamp, kind, is_start, data in events:
        if kind == "numba:compile":
            if stack:
                exclusive[stack[-1]] += stamp - last
            if is_start:
                function = data["dispatcher"].py_func
                stack.append(f"{function.__module__}.{function.__qualname__}")
                compiles[stack[-1]] += 1
            else:
                stack.pop()
            last = stamp
        elif is_start:
            lock_taken = stamp
        elif stack:
            llvm[stack[-1]] += stamp - lock_taken
    top = [(name, seconds, llvm[name], compiles[name]) for name, seconds in exclusive.most_common()]
    return {"cpu": cpu, "compiles": sum(compiles.values()), "llvm": sum(llvm.values()), "functions": top}


def in_fresh_process(part: str, policies: str, family: str, cache: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["MJSIM_CACHE_DIR"] = cache
    command = [sys.executable, __file__, "--part", part, "--policies", policies, "--family", family, "--child"]
    return json.loads(subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("engine", "policies"), default="engine")
    parser.add_argument(
        "--policies",
        default="efficiency",
        help="the policy specs of --part policies, as `mjsim simulate --policy` reads them",
    )
    parser.add_argument(
        "--family",
        default="jipinghu",
        help="--part engine: the build of this ruleset family's group (mjsim.sim.families)",
    )
    parser.add_argument("--top", type=int, default=15, help="how many functions to list")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(build(args.part, args.policies, args.family)))
        return
    with tempfile.TemporaryDirectory() as cache:
        cold = in_fresh_process(args.part, args.policies, args.family, cache)
        warm = in_fresh_process(args.part, args.policies, args.family, cache)
        objects = [path.stat().st_size for path in Path(cache).rglob("*.nbc")]
    what = f"engine ({args.family}'s build)" if args.part == "engine" else f"policies {args.policies}"
    print(f"warm-up part {what}, empty cache: {cold['cpu']:.1f} s CPU, {cold['compiles']} compiles, LLVM lock held "
          f"{cold['llvm']:.1f} s ({cold['llvm'] / cold['cpu']:.0%}); the same part warm (reference): "
          f"{warm['cpu']:.2f} s CPU, {cold['cpu'] / warm['cpu']:.0f}x")  # fmt: skip
    print(f"cached objects: {len(objects)} files, {sum(objects) / 1e6:.1f} MB; the largest {max(objects) / 1e6:.2f} MB; "
          f"duplication (all / largest) {sum(objects) / max(objects):.1f}x")  # fmt: skip
    print(f"{'exclusive s':>11} {'LLVM s':>7} {'compiles':>8}  function")
    for name, seconds, llvm, compiles in cold["functions"][: args.top]:
        print(f"{seconds:11.2f} {llvm:7.2f} {compiles:8d}  {name}")


if __name__ == "__main__":
    main()
