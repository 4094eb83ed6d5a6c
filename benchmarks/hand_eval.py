"""Hand-evaluation throughput on one core (issue: >= 5 M is_win/s, >= 2 M shanten/s).

Prints evaluations per second for batches of 100,000 random 14-tile hands,
the first-time table generation and the cached load (each in a fresh
process), and the ratio against the `mahjong` package measured in this run.

    python benchmarks/hand_eval.py [--batches 20]
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: keep BLAS single-threaded
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

BATCH = 100_000


def random_hands(rng, count, size=14):
    keys = rng.random((count, 136)).argsort(axis=1)[:, :size] // 4
    hands = np.zeros((count, 34), dtype=np.int8)
    np.add.at(hands, (np.repeat(np.arange(count), size), keys.ravel()), 1)
    return hands


def rate(function, hands, batches):
    function(hands)  # warm the tables and caches
    start = time.perf_counter()
    for _ in range(batches):
        function(hands)
    return batches * hands.shape[0] / (time.perf_counter() - start)


def table_timings():
    code = "import time; t=time.perf_counter(); from mjsim.hand.tables import load_tables; load_tables(); print(time.perf_counter()-t)"
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, MJSIM_CACHE_DIR=cache)
        cold = float(
            subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
        )
        warm = float(
            subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
        )
    return cold, warm


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=20, help="timed batches of 100,000 hands per figure")
    args = parser.parse_args()

    from mjsim.hand import is_win, shanten

    cold, warm = table_timings()
    print(f"tables: first-time generation {cold:.2f} s, cached load {warm:.2f} s")
    hands = random_hands(np.random.default_rng(0), BATCH)
    figures = {
        "is_win standard": rate(lambda h: is_win(h, form="standard"), hands, args.batches),
        "is_win all forms": rate(lambda h: is_win(h, form="all"), hands, args.batches),
        "shanten standard": rate(lambda h: shanten(h, form="standard"), hands, args.batches),
        "shanten all forms": rate(lambda h: shanten(h, form="all"), hands, args.batches),
    }
    try:
        from mahjong.shanten import Shanten

        sample = [h.tolist() for h in hands[:20_000]]
        start = time.perf_counter()
        for h in sample:
            Shanten.calculate_shanten(h)
        reference = len(sample) / (time.perf_counter() - start)
    except ImportError:
        reference = None
    for name, value in figures.items():
        line = f"{name:<20} {value / 1e6:6.2f} M hands/s"
        if reference and name.startswith("shanten"):
            line += f"   ({value / reference:,.0f}x the mahjong package, hand by hand: {reference / 1e3:.0f} k/s)"
        print(line)
    print("targets: is_win >= 5.00 M/s, shanten >= 2.00 M/s")


if __name__ == "__main__":
    main()
