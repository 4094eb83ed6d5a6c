"""Simulator throughput and memory (targets: >= 10,000 鸡平胡 hands/s on 2 cores, 4 efficiency seats, logs
written; peak memory < 2 GiB for a 1,000,000-hand run; 推倒胡 within 20% of the 鸡平胡 figure; 血战到底 per
discard within 20% of 鸡平胡: ``--compare xuezhan``, ratio >= 0.80; 水头 per discard at least half of
鸡平胡's: ``--compare shuitou``, ratio >= 0.50).

Each figure is a whole `mjsim simulate` run in a fresh process (numba caches
warmed first), timed from outside, with the peak resident memory of the
process tree.  References measured in the same run: the same simulation on
one worker (what the second core adds) and, with ``--compare``, a second
ruleset on the same seed and sizes, per hand and per turn (discard), since
rulesets differ in how long their hands last.

    python benchmarks/throughput.py [--hands 200000] [--ruleset jipinghu] [--compare tuidaohu] [--million]
"""

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq


def run(hands, workers, policy="efficiency", ruleset="jipinghu"):
    """Whole-process figures of one ``mjsim simulate`` run: hands/s, seconds, peak MiB, discards made."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [sys.executable, "-m", "mjsim.cli", "simulate", "--ruleset", ruleset, "--hands", str(hands),
               "--policy", policy, "--seed", "1", "--workers", str(workers), "--out", out]  # fmt: skip
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        seconds = time.perf_counter() - start
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        turns = sum(pq.read_table(part, columns=["turns"])["turns"].to_numpy().sum()
                    for part in Path(out).glob("part-*.parquet"))  # fmt: skip
    return hands / seconds, seconds, max(peak_kib, before) / 1024, int(turns)


PER_DISCARD_TARGET = {"xuezhan": 0.80, "xueliu": 0.80, "shuitou": 0.50}  # other rulesets: within 20%


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="hands per timed run")
    parser.add_argument("--ruleset", default="jipinghu")
    parser.add_argument("--compare", metavar="RULESET", help="also time this ruleset on 2 workers; print ratios")
    parser.add_argument("--million", action="store_true", help="also run 1,000,000 hands on 2 workers (memory)")
    args = parser.parse_args()
    for name in [args.ruleset] + ([args.compare] if args.compare else []):
        run(2_000, 2, ruleset=name)  # compile and cache every kernel in the workers
    print(f"ruleset {args.ruleset}, four efficiency seats, Parquet logs written, whole process timed")
    one, s1, m1, _ = run(args.hands, 1, ruleset=args.ruleset)
    print(f"1 worker : {one:9,.0f} hands/s  ({args.hands:,} hands in {s1:.1f} s, peak RSS {m1:,.0f} MiB)")
    two, s2, m2, turns = run(args.hands, 2, ruleset=args.ruleset)
    print(f"2 workers: {two:9,.0f} hands/s  ({args.hands:,} hands in {s2:.1f} s, peak RSS {m2:,.0f} MiB; "
          f"{turns / s2:,.0f} discards/s, {turns / args.hands:.1f} a hand)")  # fmt: skip
    print(f"ratio 2 workers / 1 worker: {two / one:.2f}; target 10,000 hands/s: {two / 10_000:.2f} of it")
    if args.compare:
        other, s3, m3, other_turns = run(args.hands, 2, ruleset=args.compare)
        print(f"{args.compare}, 2 workers: {other:,.0f} hands/s ({s3:.1f} s, peak RSS {m3:,.0f} MiB; "
              f"{other_turns / s3:,.0f} discards/s, {other_turns / args.hands:.1f} a hand)")  # fmt: skip
        per_discard = (other_turns / s3) / (turns / s2)
        target = PER_DISCARD_TARGET.get(args.compare, 0.80)
        print(f"ratio {args.compare} / {args.ruleset}: {other / two:.2f} per hand, {per_discard:.2f} per discard "
              f"(target >= {target:.2f}); against the 10,000 hands/s figure: {other / 10_000:.2f}")  # fmt: skip
    rnd, _, _, _ = run(args.hands // 4, 2, policy="random", ruleset=args.ruleset)
    print(f"random seats, 2 workers: {rnd:,.0f} hands/s (for comparison with other engines' random-agent figures)")
    if args.million:
        rate, seconds, peak, _ = run(1_000_000, 2, ruleset=args.ruleset)
        print(
            f"1,000,000 hands on 2 workers: {rate:,.0f} hands/s, {seconds:.0f} s, peak RSS {peak:,.0f} MiB "
            "(target < 2,048 MiB)"
        )


if __name__ == "__main__":
    main()
