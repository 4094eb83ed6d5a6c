"""Simulator throughput and memory, beside riichienv measured in the same run (targets: 鸡平胡 with four
efficiency seats and logs written on 2 workers >= 25x riichienv's random agents on one core; 2 workers >= 1.7x
one; peak memory < 2 GiB for a 1,000,000-hand run; 推倒胡 within 20% of the 鸡平胡 figure; 血战到底 per
discard within 20% of 鸡平胡: ``--compare xuezhan``, ratio >= 0.80; 水头 per discard at least half of
鸡平胡's: ``--compare shuitou``, ratio >= 0.50; ``--families``: every family and the expert policy, each
as a ratio to riichienv, no lower than the last figures in benchmarks/README.md).

Each figure is a whole `mjsim simulate` run in a fresh process (numba caches
warmed first), timed from outside, with the peak resident memory of the
process tree, and riichienv measured just before and just after it: the
machine's speed moves by 20-50% within minutes, so each run is a ratio to its
own reference, and figures of two runs are compared in riichienv's units.
References measured in the same run: the same simulation on one worker (what
the second core adds) and, with ``--compare``, a second ruleset on the same
seed and sizes, per hand and per turn (discard), since rulesets differ in how
long their hands last.

    python benchmarks/throughput.py [--hands 200000] [--ruleset jipinghu] [--compare tuidaohu] [--families] [--million]
"""

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import pyarrow.parquet as pq
from reference import exit_status, ratio_text, reference_line, riichienv_hands_per_second, verdict


class Timed(NamedTuple):
    """One whole ``mjsim simulate`` run and riichienv's rate measured just before and just after it."""

    hands: int
    seconds: float
    peak_mib: float
    discards: int
    reference: float | None  # riichienv hands/s, the mean of the two around this run

    @property
    def rate(self) -> float:
        return self.hands / self.seconds

    def relative(self) -> float:
        """Hands/s in riichienv's units (or plain hands/s without riichienv): drift between runs cancels."""
        return self.rate / (self.reference or 1.0)

    def relative_discards(self) -> float:
        """Discards/s in riichienv's units, as :meth:`relative`."""
        return self.discards / self.seconds / (self.reference or 1.0)


def run(hands, workers, policy="efficiency", ruleset="jipinghu", bracket=True) -> Timed:
    """Whole-process figures of one ``mjsim simulate`` run, bracketed by riichienv (``bracket``): the
    machine's speed moves by 20-50% within minutes, so each run gets its own reference."""
    before = riichienv_hands_per_second(REFERENCE_HANDS) if bracket else None
    with tempfile.TemporaryDirectory() as out:
        cmd = [sys.executable, "-m", "mjsim.cli", "simulate", "--ruleset", ruleset, "--hands", str(hands),
               "--policy", policy, "--seed", "1", "--workers", str(workers), "--out", out]  # fmt: skip
        peak_before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        seconds = time.perf_counter() - start
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        turns = sum(pq.read_table(part, columns=["turns"])["turns"].to_numpy().sum()
                    for part in Path(out).glob("part-*.parquet"))  # fmt: skip
    reference = None if before is None else (before + riichienv_hands_per_second(REFERENCE_HANDS)) / 2
    return Timed(hands, seconds, max(peak_kib, peak_before) / 1024, int(turns), reference)


def reference_text(timed: Timed) -> str:
    return "" if timed.reference is None else f"; riichienv around it {timed.reference:,.0f} hands/s"


PER_DISCARD_TARGET = {"xuezhan": 0.80, "xueliu": 0.80, "shuitou": 0.50}  # other rulesets: within 20%
RIICHIENV_TARGET = 25.0  # 鸡平胡, four efficiency seats, 2 workers, against riichienv's random agents on one core
SCALING_TARGET = 1.7  # 2 workers against 1
FAMILIES = ("tuidaohu", "xuezhan", "shuitou")
REFERENCE_HANDS = 600  # about a second of riichienv before and after each run


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
        run(2_000, 2, ruleset=name, bracket=False)  # compile and cache every kernel in the workers
    if args.families:
        run(400, 2, policy="expert", ruleset=args.ruleset, bracket=False)
    print(f"ruleset {args.ruleset}, four efficiency seats, Parquet logs written, whole process timed; "
          "each run between two riichienv runs (random agents, one core), its ratio to their mean")  # fmt: skip
    one = run(args.hands, 1, ruleset=args.ruleset)
    if one.reference is None:
        print(reference_line(None))
    two = run(args.hands, 2, ruleset=args.ruleset)
    print(f"1 worker : {one.rate:9,.0f} hands/s{ratio_text(one.rate, one.reference)}  "
          f"({args.hands:,} hands in {one.seconds:.1f} s, peak RSS {one.peak_mib:,.0f} MiB{reference_text(one)})")  # fmt: skip
    print(f"2 workers: {two.rate:9,.0f} hands/s{ratio_text(two.rate, two.reference, RIICHIENV_TARGET)}  "
          f"({args.hands:,} hands in {two.seconds:.1f} s, peak RSS {two.peak_mib:,.0f} MiB; "
          f"{two.discards / two.seconds:,.0f} discards/s, {two.discards / args.hands:.1f} a hand{reference_text(two)})")  # fmt: skip
    scaling = two.relative() / one.relative()
    judged = verdict(scaling >= SCALING_TARGET, f"2 workers >= {SCALING_TARGET}x one")
    print(f"ratio 2 workers / 1 worker: {scaling:.2f}, each against its own riichienv "
          f"({two.rate / one.rate:.2f} raw; target >= {SCALING_TARGET}: {judged})")  # fmt: skip
    for name in others:
        other = run(args.hands, 2, ruleset=name)
        per_hand = other.relative() / two.relative()
        per_discard = other.relative_discards() / two.relative_discards()
        target = PER_DISCARD_TARGET.get(name, 0.80)
        judged = verdict(per_discard >= target, f"{name} per discard >= {target:.2f} of {args.ruleset}")
        print(f"{name}, 2 workers: {other.rate:,.0f} hands/s{ratio_text(other.rate, other.reference)} "
              f"({other.seconds:.1f} s, peak RSS {other.peak_mib:,.0f} MiB; {other.discards / other.seconds:,.0f} "
              f"discards/s, {other.discards / args.hands:.1f} a hand{reference_text(other)}); against "
              f"{args.ruleset}: {per_hand:.2f} per hand, {per_discard:.2f} per discard (target >= {target:.2f}: {judged})")  # fmt: skip
    if args.families:
        expert = run(args.hands // 20, 2, policy="expert", ruleset=args.ruleset)
        print(f"expert x4, {args.ruleset}, 2 workers: {expert.rate:,.0f} hands/s"
              f"{ratio_text(expert.rate, expert.reference)} ({expert.hands:,} hands in {expert.seconds:.1f} s"
              f"{reference_text(expert)})")  # fmt: skip
    rnd = run(args.hands // 4, 2, policy="random", ruleset=args.ruleset)
    print(f"random seats, 2 workers: {rnd.rate:,.0f} hands/s{ratio_text(rnd.rate, rnd.reference)} "
          f"({rnd.hands:,} hands in {rnd.seconds:.1f} s{reference_text(rnd)})")  # fmt: skip
    if args.million:
        big = run(1_000_000, 2, ruleset=args.ruleset, bracket=False)
        judged = verdict(big.peak_mib < 2048, "1,000,000 hands in < 2,048 MiB")
        print(
            f"1,000,000 hands on 2 workers: {big.rate:,.0f} hands/s, {big.seconds:.0f} s, peak RSS "
            f"{big.peak_mib:,.0f} MiB (target < 2,048 MiB: {judged})"
        )


if __name__ == "__main__":
    main()
    raise SystemExit(exit_status())
