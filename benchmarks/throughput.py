"""Simulator throughput and memory, beside riichienv measured in the same run (targets: 鸡平胡 with four
efficiency seats and logs written on 2 workers >= 25x riichienv's random agents on one core; 2 workers >= 1.7x
one; peak memory < 2 GiB for a 1,000,000-hand run; 推倒胡 within 20% of the 鸡平胡 figure; 血战到底 per
discard within 20% of 鸡平胡: ``--compare xuezhan``, ratio >= 0.80; 水头 per discard at least half of
鸡平胡's: ``--compare shuitou``, ratio >= 0.50; ``--families``: every family and the expert policy, each
as a ratio to riichienv, no lower than the last figures in benchmarks/README.md).

Each figure is a whole `mjsim simulate` run in a fresh process (numba caches
warmed first), timed from outside, with the peak resident memory of the
process tree.  References measured in the same run: the same simulation on
one worker (what the second core adds) and, with ``--compare``, a second
ruleset on the same seed and sizes, per hand and per turn (discard), since
rulesets differ in how long their hands last.

    python benchmarks/throughput.py [--hands 200000] [--ruleset jipinghu] [--compare tuidaohu] [--families] [--million]
"""

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq
from reference import ratio_text, reference_line, riichienv_hands_per_second


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
RIICHIENV_TARGET = 25.0  # 鸡平胡, four efficiency seats, 2 workers, against riichienv's random agents on one core
SCALING_TARGET = 1.7  # 2 workers against 1
FAMILIES = ("tuidaohu", "xuezhan", "shuitou")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="hands per timed run")
    parser.add_argument("--ruleset", default="jipinghu")
    parser.add_argument("--compare", metavar="RULESET", help="also time this ruleset on 2 workers; print ratios")
    parser.add_argument("--families", action="store_true",
                        help="also time every other family and the expert policy on 2 workers")  # fmt: skip
    parser.add_argument("--million", action="store_true", help="also run 1,000,000 hands on 2 workers (memory)")
    args = parser.parse_args()
    others = [args.compare] if args.compare else []
    if args.families:
        others += [name for name in FAMILIES if name not in others]
    for name in [args.ruleset, *others]:
        run(2_000, 2, ruleset=name)  # compile and cache every kernel in the workers
    if args.families:
        run(400, 2, policy="expert", ruleset=args.ruleset)
    before = riichienv_hands_per_second()
    print(f"ruleset {args.ruleset}, four efficiency seats, Parquet logs written, whole process timed")
    one, s1, m1, _ = run(args.hands, 1, ruleset=args.ruleset)
    two, s2, m2, turns = run(args.hands, 2, ruleset=args.ruleset)
    after = riichienv_hands_per_second()
    reference = None if before is None else (before + after) / 2
    if reference is not None:
        print(f"reference: riichienv, random agents, one core: {reference:,.0f} hands/s "
              f"(mean of {before:,.0f} before and {after:,.0f} after the {args.ruleset} runs)")  # fmt: skip
    else:
        print(reference_line(None))
    print(f"1 worker : {one:9,.0f} hands/s{ratio_text(one, reference)}  "
          f"({args.hands:,} hands in {s1:.1f} s, peak RSS {m1:,.0f} MiB)")  # fmt: skip
    print(f"2 workers: {two:9,.0f} hands/s{ratio_text(two, reference, RIICHIENV_TARGET)}  "
          f"({args.hands:,} hands in {s2:.1f} s, peak RSS {m2:,.0f} MiB; "
          f"{turns / s2:,.0f} discards/s, {turns / args.hands:.1f} a hand)")  # fmt: skip
    verdict = "met" if two / one >= SCALING_TARGET else "NOT met"
    print(f"ratio 2 workers / 1 worker: {two / one:.2f} (target >= {SCALING_TARGET}: {verdict})")
    for name in others:
        other, s3, m3, other_turns = run(args.hands, 2, ruleset=name)
        per_discard = (other_turns / s3) / (turns / s2)
        target = PER_DISCARD_TARGET.get(name, 0.80)
        print(f"{name}, 2 workers: {other:,.0f} hands/s{ratio_text(other, reference)} ({s3:.1f} s, "
              f"peak RSS {m3:,.0f} MiB; {other_turns / s3:,.0f} discards/s, {other_turns / args.hands:.1f} a hand); "
              f"against {args.ruleset}: {other / two:.2f} per hand, {per_discard:.2f} per discard "
              f"(target >= {target:.2f})")  # fmt: skip
    if args.families:
        expert, s4, _, _ = run(args.hands // 20, 2, policy="expert", ruleset=args.ruleset)
        print(f"expert x4, {args.ruleset}, 2 workers: {expert:,.0f} hands/s{ratio_text(expert, reference)} "
              f"({args.hands // 20:,} hands in {s4:.1f} s)")  # fmt: skip
    rnd, _, _, _ = run(args.hands // 4, 2, policy="random", ruleset=args.ruleset)
    print(f"random seats, 2 workers: {rnd:,.0f} hands/s{ratio_text(rnd, reference)}")
    if args.million:
        rate, seconds, peak, _ = run(1_000_000, 2, ruleset=args.ruleset)
        print(
            f"1,000,000 hands on 2 workers: {rate:,.0f} hands/s, {seconds:.0f} s, peak RSS {peak:,.0f} MiB "
            "(target < 2,048 MiB)"
        )


if __name__ == "__main__":
    main()
