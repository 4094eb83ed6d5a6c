"""Hand-evaluation throughput on one core, against riichienv's shanten called hand by hand (target: 2x).

Prints hands per second of the compiled ``mjsim.hand`` kernels over batches
of 100,000 random hands (14 tiles, and 13 for shanten and winning tiles),
each beside the reference measured in the same run: riichienv's
``calculate_shanten`` called from Python once per hand on the same hands
(its input, lists of tile ids in 136 format, built before the timing), and
the ratio.  Target: shanten over all forms >= 2.0x riichienv.  Each figure is
the best of its repeats (ours: batches; riichienv: passes over the hands).
Also prints how often riichienv's value equals ours over the riichi forms
(standard, seven distinct pairs, thirteen orphans), the ``mahjong`` package
hand by hand, and, in fresh processes on an empty cache, the table generation
and the kernels' compile time (then their load from the cache).

riichienv is optional (``pip install riichienv``); without it the figures are
printed without that ratio.

    python benchmarks/hand_eval.py [--batches 20]
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: keep BLAS single-threaded
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from reference import exit_status, verdict  # noqa: E402

BATCH = 100_000
RIICHI_FORMS = ("standard", "seven_pairs_distinct", "thirteen_orphans")

# Run in a fresh process: table generation (or load), then each kernel's first call (compile, or load from
# the numba cache), as process CPU seconds.
_STARTUP = """
import json, time
import numpy as np
t = time.process_time()
import mjsim
imports = time.process_time() - t
t = time.process_time()
from mjsim.hand.tables import load_tables
load_tables()
tables = time.process_time() - t
t = time.process_time()
from mjsim.hand import batch, is_win, shanten, winning_tiles  # numba, if mjsim did not import it
imports += time.process_time() - t
hand = np.zeros(34, dtype=np.int8)
hand[:13] = 1
out = {"tables": tables, "import": imports}
for name, call in [("is_win", lambda: is_win(hand)), ("shanten", lambda: shanten(hand)),
                   ("winning_tiles", lambda: winning_tiles(hand))]:
    t = time.process_time()
    call()
    out[name] = time.process_time() - t
print(json.dumps(out))
"""


def random_hands(rng, count, size=14):
    keys = rng.random((count, 136)).argsort(axis=1)[:, :size] // 4
    hands = np.zeros((count, 34), dtype=np.int8)
    np.add.at(hands, (np.repeat(np.arange(count), size), keys.ravel()), 1)
    return hands


def rate(function, hands, batches):
    """Best hands per second over ``batches`` calls on the whole batch (after one warm-up call)."""
    function(hands)  # compile or load the kernel, warm the tables
    best = float("inf")
    for _ in range(batches):
        start = time.perf_counter()
        function(hands)
        best = min(best, time.perf_counter() - start)
    return hands.shape[0] / best


def as_136(hands):
    """Each hand as riichienv's input: a list of tile ids 0..135 (kind * 4 + copy)."""
    return [
        [4 * int(kind) + copy for kind in np.flatnonzero(h) for copy in range(h[kind])] for h in hands
    ]  # Python ints


def check_riichienv(calculate_shanten):
    """riichienv reads tile ids in 136 format: known hands must give their known shanten."""
    from mjsim.tiles import parse_counts

    known = {
        "123m456p789s1z222z": 0,  # ready
        "123m456p789s11z222z": -1,  # complete
        "1122334455667m": 0,  # seven pairs, ready
        "19m19p19s1234567z": 0,  # thirteen orphans, ready on any of the thirteen
        "159m159p159s1357z": 3,  # thirteen orphans, ten kinds and no pair
        "147m258p369s1234z": 6,
    }
    for hand, expected in known.items():
        got = calculate_shanten(as_136(parse_counts(hand)[None, :])[0])
        if got != expected:
            raise SystemExit(f"riichienv calculate_shanten({hand}) = {got}, expected {expected}: wrong input format?")


def per_hand_rate(function, inputs, passes=3):
    """Best calls per second of ``function`` over ``inputs``, one Python call per hand."""
    best = float("inf")
    for _ in range(passes):
        start = time.perf_counter()
        for tiles in inputs:
            function(tiles)
        best = min(best, time.perf_counter() - start)
    return len(inputs) / best


def startup_timings():
    """``(cold, warm)`` dicts of CPU seconds from fresh processes on one new, empty cache directory."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    with tempfile.TemporaryDirectory() as cache:
        env["MJSIM_CACHE_DIR"] = cache
        runs = [
            subprocess.run([sys.executable, "-c", _STARTUP], env=env, capture_output=True, text=True, check=True)
            for _ in range(2)
        ]
    return [json.loads(run.stdout) for run in runs]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=20, help="timed batches of 100,000 hands per figure")
    args = parser.parse_args()

    from mjsim.hand import is_win, shanten, winning_tiles

    cold, warm = startup_timings()
    kernels = ("is_win", "shanten", "winning_tiles")
    print(f"tables: first-time generation {cold['tables']:.2f} s, cached load {warm['tables']:.2f} s")
    print(
        f"kernels, CPU s on an empty cache: compile {sum(cold[k] for k in kernels):.2f} "
        f"({', '.join(f'{k} {cold[k]:.2f}' for k in kernels)}; imports with numba {cold['import']:.2f}), "
        f"from the cache {sum(warm[k] for k in kernels):.2f}"
    )

    rng = np.random.default_rng(0)
    hands = {14: random_hands(rng, BATCH, 14), 13: random_hands(rng, BATCH, 13)}
    try:
        from riichienv import calculate_shanten
    except ImportError:
        calculate_shanten = None
        print("riichienv is not importable (pip install riichienv): figures without the riichienv ratio")
    inputs = {}
    if calculate_shanten is not None:
        check_riichienv(calculate_shanten)
        for tiles, sample in hands.items():
            inputs[tiles] = as_136(sample)  # converted before any timing
            theirs = np.array([calculate_shanten(t) for t in inputs[tiles]])
            ours = shanten(sample, form=RIICHI_FORMS)
            print(
                f"riichienv calculate_shanten equals our shanten over the riichi forms on "
                f"{np.mean(theirs == ours):.4%} of {len(sample):,} {tiles}-tile hands"
            )
            for i in np.flatnonzero(theirs != ours)[:3]:
                print(f"  differs: {sample[i].tolist()} riichienv {theirs[i]} ours {ours[i]}")
    # the reference is timed before and after our figures, its best pass kept (the machine may be shared)
    reference = {tiles: per_hand_rate(calculate_shanten, calls) for tiles, calls in inputs.items()}

    wt_batches = max(2, args.batches // 5)
    figures = [  # (name, tiles, hands/s)
        ("is_win standard", 14, rate(lambda h: is_win(h, form="standard"), hands[14], args.batches)),
        ("is_win all forms", 14, rate(lambda h: is_win(h, form="all"), hands[14], args.batches)),
        ("shanten all forms", 14, rate(lambda h: shanten(h, form="all"), hands[14], args.batches)),
        ("shanten all forms", 13, rate(lambda h: shanten(h, form="all"), hands[13], args.batches)),
        ("shanten standard", 14, rate(lambda h: shanten(h, form="standard"), hands[14], args.batches)),
        ("shanten standard", 13, rate(lambda h: shanten(h, form="standard"), hands[13], args.batches)),
        ("shanten riichi forms", 14, rate(lambda h: shanten(h, form=RIICHI_FORMS), hands[14], args.batches)),
        ("winning_tiles all", 14, rate(lambda h: winning_tiles(h, form="all"), hands[14], wt_batches)),
        ("winning_tiles all", 13, rate(lambda h: winning_tiles(h, form="all"), hands[13], wt_batches)),
    ]
    for tiles, calls in inputs.items():
        reference[tiles] = max(reference[tiles], per_hand_rate(calculate_shanten, calls))

    for name, tiles, value in figures:
        line = f"{name:<21} {tiles} tiles {value / 1e6:7.2f} M hands/s"
        if tiles in reference:
            ref = reference[tiles]
            line += f"   riichienv hand by hand {ref / 1e6:5.2f} M/s   ratio {value / ref:5.2f}x"
        print(line)
    if 14 in reference:
        ratio = dict(((n, t), v) for n, t, v in figures)[("shanten all forms", 14)] / reference[14]
        print(f"target: shanten all forms >= 2.0x riichienv: {ratio:.2f}x "
              f"({verdict(ratio >= 2, 'shanten all forms >= 2x riichienv')})")  # fmt: skip

    try:
        from mahjong.shanten import Shanten
    except ImportError:
        return
    sample = [h.tolist() for h in hands[14][:10_000]]
    start = time.perf_counter()
    for h in sample:
        Shanten.calculate_shanten(h)
    mahjong_rate = len(sample) / (time.perf_counter() - start)
    ours = dict(((n, t), v) for n, t, v in figures)[("shanten all forms", 14)]
    print(
        f"the mahjong package hand by hand: {mahjong_rate / 1e3:.0f} k hands/s "
        f"(shanten all forms is {ours / mahjong_rate:,.0f}x that)"
    )


if __name__ == "__main__":
    main()
    raise SystemExit(exit_status())
