"""Re-settlement speed against simulation (target: re-settling logged hands at least 10x faster than simulating
the same hands; issue 14 item 5).

One run simulates N hands of a ruleset (four efficiency seats, 2 workers, logs written: the path of `mjsim
simulate`, ``mjsim.sim.parallel.simulate``) and re-settles those hands under a settlement change with
``mjsim.resettle`` (log read included): cap 5, and no horses for 推倒胡, the dealer's double off for 水头
(whose cap changes nothing).  Both are timed warm: a small run is simulated and re-settled first, so numba's
compile and cache loading fall outside both figures.  Each is repeated (median, and the spread); the ratio is
the reference measured in the same run.

    python benchmarks/resettle.py [--hands 20000] [--ruleset jipinghu] [--repeat 3]
"""

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from reference import exit_status, verdict

from mjsim import resettle, ruleset
from mjsim.sim.backends import resolve_workers
from mjsim.sim.parallel import RunSpec, simulate

TARGET = 10.0  # simulate / re-settle
WORKERS = 2
CHANGES = {"tuidaohu": {"cap": 5, "horses": "none"}, "shuitou": {"dealer_pays_double": False}}  # else cap 5


def spec(name, hands):
    return RunSpec(ruleset(name), ("efficiency",), hands, seed=1)


def timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def figures(seconds, hands):
    median = statistics.median(seconds)
    return (f"{median:6.2f} s median ({min(seconds):.2f}-{max(seconds):.2f} over {len(seconds)}), "
            f"{hands / median:9,.0f} hands/s")  # fmt: skip


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands simulated and re-settled")
    parser.add_argument("--ruleset", default="jipinghu")
    parser.add_argument("--repeat", type=int, default=3, help="timings of each, for the median and spread")
    args = parser.parse_args()
    change = CHANGES.get(ruleset(args.ruleset).family, {"cap": 5})
    with tempfile.TemporaryDirectory() as tmp:
        warm, run = Path(tmp) / "warm", Path(tmp) / "run"
        simulate(spec(args.ruleset, 2_000), warm, workers=WORKERS, progress=False)  # compile and load the kernels
        resettle(warm, change)
        sim, again = [], []
        for _ in range(args.repeat):  # alternately, so a load from elsewhere falls on both
            sim.append(timed(lambda: simulate(spec(args.ruleset, args.hands), run, workers=WORKERS, progress=False,
                                              overwrite=True)))  # fmt: skip
            again.append(timed(lambda: resettle(run, change)))
    chunks = len(spec(args.ruleset, args.hands).chunks())
    where = "in this process" if resolve_workers(WORKERS, chunks) == 1 else f"on {WORKERS} worker processes"
    settings = ", ".join(f"{k}={v}" for k, v in change.items())
    print(f"ruleset {args.ruleset}, {args.hands:,} hands, four efficiency seats, logs written; re-settled under "
          f"{settings}")  # fmt: skip
    print(f"simulate ({WORKERS} workers; {chunks} chunk{'s' if chunks > 1 else ''}, so {where}): "
          f"{figures(sim, args.hands)}")  # fmt: skip
    print(f"re-settle (mjsim.resettle, log read included):  {figures(again, args.hands)}")
    ratio = statistics.median(sim) / statistics.median(again)
    judged = verdict(ratio >= TARGET, f"re-settling >= {TARGET:.0f}x faster than simulating")
    print(f"ratio simulate / re-settle: {ratio:.1f} (target >= {TARGET:.0f}x: {judged})")


if __name__ == "__main__":
    main()
    raise SystemExit(exit_status())
