"""Start-up: how long a user waits before mjsim does anything (targets: ``import mjsim``, ``mjsim rules``
and ``mjsim score`` under 0.3 s; a first simulation on an empty cache compiles in under 30 s of CPU).

Every figure is a whole fresh process, timed from outside (wall seconds, median of ``--repeat`` runs),
printed beside the bare interpreter (``python -c pass``) measured in the same run.  The compile figure is
the CPU seconds (user + system) of a small ``mjsim simulate`` on an empty cache minus the same command
once the cache is warm, both in this run.

    python benchmarks/startup.py [--repeat 7] [--skip-compile]
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from reference import exit_status, verdict

SCORE = ["score", "123m456p789s234m11z", "--ruleset", "jipinghu", "--self-draw"]
SIMULATE = ["simulate", "--ruleset", "jipinghu", "--hands", "200", "--policy", "efficiency", "--seed", "1",
            "--workers", "1", "--quiet", "--overwrite"]  # fmt: skip
START_TARGET = 0.3
COMPILE_TARGET = 30.0


def wall(command, repeat, env=None):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cpu(command, env):
    """User + system seconds of the child processes ``command`` ran."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, capture_output=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--skip-compile", action="store_true", help="leave out the empty-cache compile (minutes)")
    args = parser.parse_args()
    python = [sys.executable]
    mjsim = [sys.executable, "-m", "mjsim.cli"]
    wall(mjsim + ["rules"], 1)  # the hand tables and byte-code caches exist, as for a user's second command
    bare = wall(python + ["-c", "pass"], args.repeat)
    print(f"reference: bare interpreter (python -c pass) {bare:.3f} s, median of {args.repeat}")
    for label, command in [
        ("import mjsim", python + ["-c", "import mjsim"]),
        ("mjsim rules", mjsim + ["rules"]),
        ("mjsim score", mjsim + SCORE),
    ]:
        seconds = wall(command, args.repeat)
        judged = verdict(seconds < START_TARGET, f"{label} < {START_TARGET} s")
        print(f"{label:13} {seconds:.3f} s = {seconds / bare:.1f}x the bare interpreter "
              f"(target < {START_TARGET} s: {judged})")  # fmt: skip
    if args.skip_compile:
        return
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env["MJSIM_CACHE_DIR"] = cache
        command = mjsim + SIMULATE + ["--out", out]
        cold = cpu(command, env)
        warm = cpu(command, env)
    compile_seconds = cold - warm
    judged = verdict(compile_seconds < COMPILE_TARGET, f"compiling < {COMPILE_TARGET:g} s of CPU")
    print(f"first simulate on an empty cache: {cold:.1f} s CPU; the same warm: {warm:.1f} s (reference); "
          f"compiling: {compile_seconds:.1f} s CPU (target < {COMPILE_TARGET:g} s: {judged})")  # fmt: skip


if __name__ == "__main__":
    main()
    raise SystemExit(exit_status())
