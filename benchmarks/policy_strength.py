"""Strength, realism and speed of the ``expert`` policy (issue 11 item 2).

1. Balanced seating: on each preset, the expert in one seat against three
   seats of ``efficiency``, ``value`` or ``defensive``, every seating of those
   four (the 24 permutations, of which 4 differ) on the same walls (same seed).
   Prints the expert seat's EV per hand (net points) with a 95% interval
   over walls (each wall's mean over its seatings is one observation), and
   the deal-ins per hand of the expert seat and of one opponent seat.
2. Four expert seats (and four ``efficiency`` seats for comparison): drawn
   rate, win and deal-in per player-hand, self-draw share of wins, and the
   win shares of 清一色 (full flush), 混一色 (half flush) and 碰碰胡 (all pungs),
   beside the public human references (strong human riichi play: deal-in 0.125
   and win 0.211 per player-hand; 清一色 0.52% of wins) — for comparison, not
   for tuning to.
3. Speed: four expert seats on 2 worker processes, hands per second, and the
   riichienv reference (a Rust riichi engine, random agents, one core) when
   ``riichienv`` is installed (``pip install riichienv``; not a dependency of
   mjsim — the row is skipped without it).

    python benchmarks/policy_strength.py [--walls 200] [--presets jipinghu,tuidaohu_ghost] [--speed-hands 400]
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import itertools  # noqa: E402
import multiprocessing  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

PRESETS = ("jipinghu", "jipinghu_5fan", "jipinghu_5fan_min3", "tuidaohu", "tuidaohu_dianpao", "tuidaohu_ghost")
OPPONENTS = ("efficiency", "value", "defensive")
HUMAN = {"deal_in": 0.125, "win": 0.211, "full_flush_share": 0.0052}
FULL_FLUSH = {"full_flush", "full_flush_pungs"}
HALF_FLUSH = {"half_flush", "half_flush_pungs"}
ALL_PUNGS = {"all_pungs", "half_flush_pungs", "full_flush_pungs"}


def play(preset, specs, walls, seed):
    """Columns of ``walls`` one-hand sessions with seat policies ``specs`` (sorted by hand id)."""
    import mjsim
    from mjsim.sim.runner import play_sessions, seat_policies

    rows = list(play_sessions(mjsim.ruleset(preset), seat_policies(list(specs)), seed=seed, first_session=0,
                              end_session=walls, tables=min(walls, 1024)))  # fmt: skip
    cols = {key: [v for part in rows for v in part[key]] for key in ("hand_id", "winners", "discarder", "win_kind",
                                                                     "patterns")}  # fmt: skip
    cols["net"] = np.concatenate([np.asarray(part["net"]) for part in rows])
    order = np.argsort(np.array(cols["hand_id"]))
    return {key: (value[order] if isinstance(value, np.ndarray) else [value[k] for k in order])
            for key, value in cols.items()}  # fmt: skip


def deal_ins(cols, seat):
    """Hands in which ``seat`` dealt in (its discard, or its robbed kong, was won on)."""
    return sum(1 for d, kinds in zip(cols["discarder"], cols["win_kind"]) if d == seat and kinds and
               kinds[0] in ("discard", "robbed_kong"))  # fmt: skip


def balanced(preset, opponent, walls, seed):
    """(mean, half-width of the 95% interval) of the expert seat's net per hand, and deal-ins per hand of
    the expert seat and of the opponent seats, over every distinct seating."""
    seatings = sorted(set(itertools.permutations(["expert", opponent, opponent, opponent])))
    per_wall = np.zeros(walls)
    expert_in = 0
    other_in = 0
    for seating in seatings:
        cols = play(preset, seating, walls, seed)
        seat = seating.index("expert")
        per_wall += cols["net"][:, seat]
        expert_in += deal_ins(cols, seat)
        other_in += sum(deal_ins(cols, s) for s in range(4) if s != seat) / 3
    per_wall /= len(seatings)
    half = 1.96 * per_wall.std(ddof=1) / np.sqrt(walls)
    hands = walls * len(seatings)
    return per_wall.mean(), half, expert_in / hands, other_in / hands


def realism(preset, policy, walls, seed):
    """Drawn rate, win and deal-in per player-hand, self-draw share, and pattern shares of wins."""
    cols = play(preset, [policy] * 4, walls, seed)
    hands = len(cols["hand_id"])
    wins = [(kind, set(p)) for kinds, pats in zip(cols["win_kind"], cols["patterns"]) for kind, p in zip(kinds, pats)]
    n = max(1, len(wins))
    drawn = sum(1 for w in cols["winners"] if len(w) == 0) / hands
    dealt = sum(deal_ins(cols, s) for s in range(4)) / (4 * hands)
    return {
        "drawn": drawn,
        "win": len(wins) / (4 * hands),
        "deal_in": dealt,
        "self_draw": sum(1 for kind, _ in wins if kind in ("self_draw", "kong_replacement")) / n,
        "full_flush": sum(1 for _, p in wins if p & FULL_FLUSH) / n,
        "half_flush": sum(1 for _, p in wins if p & HALF_FLUSH) / n,
        "all_pungs": sum(1 for _, p in wins if p & ALL_PUNGS) / n,
    }


def _speed_part(args):
    preset, first, end = args
    import mjsim
    from mjsim.sim.runner import play_sessions, seat_policies

    return sum(len(part["hand_id"]) for part in play_sessions(mjsim.ruleset(preset), seat_policies("expert"), seed=3,
                                                               first_session=first, end_session=end, tables=256))  # fmt: skip


def expert_speed(preset, hands):
    """Hands per second of four expert seats on 2 worker processes (after a warm-up in each)."""
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2) as pool:
        pool.map(_speed_part, [(preset, 0, 4), (preset, 4, 8)])  # compile / load the kernels
        start = time.perf_counter()
        done = sum(pool.map(_speed_part, [(preset, 0, hands // 2), (preset, hands // 2, hands)]))
        return done / (time.perf_counter() - start)


def riichienv_speed(hands):
    """Hands per second of riichienv with uniformly random legal actions on one core (one round per
    ``reset``, counted by its (round, repeat) states), or None when it is not installed."""
    try:
        import riichienv
    except ImportError:
        return None
    import random

    env = riichienv.RiichiEnv()
    rng = random.Random(0)
    played = 0
    start = time.perf_counter()
    for _ in range(hands):
        observations = env.reset()
        rounds = set()
        while not env.done():
            rounds.add((env.kyoku_idx, env.honba))
            actions = {seat: rng.choice(o.legal_actions()) for seat, o in observations.items()}
            observations = env.step(actions)
        played += len(rounds)
    return played / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--walls", type=int, default=200, help="walls per seating (the issue asks >= 10,000)")
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--opponents", default=",".join(OPPONENTS))
    parser.add_argument("--speed-hands", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--skip", default="", help="comma list of parts to skip: balanced,realism,speed")
    args = parser.parse_args()
    presets = [p for p in args.presets.split(",") if p]
    skip = set(args.skip.split(","))
    if "balanced" not in skip:
        print(f"# balanced seating: expert seat EV per hand, {args.walls} walls x every seating")
        print(f"{'preset':22} {'opponent':11} {'EV/hand':>9} {'95% CI':>19} {'deal-in expert':>15} {'deal-in opp':>12}")
        for preset in presets:
            for opponent in args.opponents.split(","):
                mean, half, mine, theirs = balanced(preset, opponent, args.walls, args.seed)
                interval = f"[{mean - half:+.3f}, {mean + half:+.3f}]"
                print(f"{preset:22} {opponent:11} {mean:+9.3f} {interval:>19} {mine:15.3f} {theirs:12.3f}", flush=True)
    if "realism" not in skip:
        print(f"\n# four seats of one policy, {args.walls} walls (human riichi reference: win {HUMAN['win']}, "
              f"deal-in {HUMAN['deal_in']} per player-hand, 清一色 {HUMAN['full_flush_share']:.2%} of wins)")  # fmt: skip
        print(f"{'preset':22} {'policy':11} {'drawn':>6} {'win':>6} {'deal-in':>8} {'self-draw':>9} {'清一色':>7} "
              f"{'混一色':>7} {'碰碰胡':>7}")  # fmt: skip
        for preset in presets:
            for policy in ("expert", "efficiency"):
                r = realism(preset, policy, args.walls, args.seed)
                print(f"{preset:22} {policy:11} {r['drawn']:6.1%} {r['win']:6.3f} {r['deal_in']:8.3f} "
                      f"{r['self_draw']:9.1%} {r['full_flush']:7.2%} {r['half_flush']:7.2%} {r['all_pungs']:7.2%}",
                      flush=True)  # fmt: skip
    if "speed" not in skip:
        print("\n# speed")
        for preset in presets[:2]:
            print(f"expert x4, 2 workers, {preset}: {expert_speed(preset, args.speed_hands):,.0f} hands/s", flush=True)
        try:
            reference = riichienv_speed(200)
        except Exception as error:  # an API this script does not know: say so, keep the other figures
            print(f"riichienv: could not be driven ({type(error).__name__}: {error}); row skipped")
            return
        if reference is None:
            print("riichienv: not installed, row skipped (pip install riichienv to measure the reference)")
        else:
            print(f"riichienv, random agents, one core: {reference:,.0f} hands/s")


if __name__ == "__main__":
    main()
