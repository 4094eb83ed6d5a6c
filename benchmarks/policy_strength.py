"""Strength, realism and speed of the ``expert`` policy (issue 11 item 2).

1. Balanced seating: on each preset, ``expert``, ``efficiency``, ``value`` and
   ``defensive`` at one table, in all 24 seatings on the same walls (same
   seed).  Prints, per opponent, the expert seat's net minus that seat's net
   per hand with a 95% interval over walls (each wall's mean over its 24
   seatings is one observation: seatings cluster by wall), the deal-ins per
   hand of every policy, and the expert / efficiency deal-in ratio.
   Replayed positions: the same table in its four cyclic seatings, played
   through the engine while the script looks at every discard; it prints the
   share of the discards made while an opponent was really ready (its
   concealed tiles shanten 0) that an opponent won on.
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

    python benchmarks/policy_strength.py [--walls 10000] [--presets jipinghu,tuidaohu_ghost] [--speed-hands 400]
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import itertools  # noqa: E402
import multiprocessing  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from reference import exit_status, ratio_text, reference_line, riichienv_hands_per_second, verdict  # noqa: E402

PRESETS = ("jipinghu", "jipinghu_5fan", "jipinghu_5fan_min3", "tuidaohu", "tuidaohu_dianpao", "tuidaohu_ghost")
TABLE = ("expert", "efficiency", "value", "defensive")
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


def replayed_deal_ins(preset, specs, walls, seed):
    """Per seat: (discards made while an opponent was really ready, how many of those were won on).

    Plays the walls through the engine directly and looks, at every discard, at the other seats' concealed
    hands in the engine state: an opponent is really ready when its concealed tiles are shanten 0 (hands
    holding wild tiles are left out, as are robbed kongs).  A discard is dealt in when an opponent answers it
    with a win.
    """
    import mjsim
    from mjsim.hand import shanten
    from mjsim.sim import engine
    from mjsim.sim.constants import N_ACTIONS, RESPONSE, TURN, WIN
    from mjsim.sim.observation import empty_observation, policy_rules
    from mjsim.sim.records import allocate_records
    from mjsim.sim.rng import root_key
    from mjsim.sim.runner import _decide, seat_policies
    from mjsim.sim.scoring import scoring
    from mjsim.sim.state import allocate_state, engine_params

    ruleset = mjsim.ruleset(preset)
    seats = seat_policies(list(specs))
    tables = min(walls, 512)
    params = engine_params(ruleset, session_length=1, seed_key=root_key(seed))
    sc = scoring(ruleset)
    rules = policy_rules(ruleset)
    state = allocate_state(tables)
    queue = np.array([0, walls], np.int64)
    out = allocate_records(max(20_000, tables))
    rows_max = 3 * tables
    obs = empty_observation(rows_max)
    legal = np.zeros((rows_max, N_ACTIONS), np.bool_)
    row_table = np.zeros(rows_max, np.int64)
    row_seat = np.zeros(rows_max, np.int64)
    actions = np.zeros(rows_max, np.int16)
    rng_rows = np.zeros(rows_max, np.uint64)
    seat_policy = np.array(seats.groups, np.int64)
    ready_discards = np.zeros(4, np.int64)
    dealt_in = np.zeros(4, np.int64)
    pending = np.full(tables, -1, np.int64)  # the seat whose discard, made while an opponent was ready, is open
    n = 0
    while True:
        n = engine.step(state, params, sc, queue, out, obs, legal, row_table, row_seat, rng_rows, actions, n)
        out.count[0] = 0
        if n == 0:
            return ready_discards, dealt_in
        _decide(seats, seat_policy, obs, legal, rng_rows, actions, row_seat, n, rules)
        tb, seat, act, decision = row_table[:n], row_seat[:n], actions[:n], obs.decision[:n]
        won = np.zeros(tables, bool)
        np.logical_or.at(won, tb[(decision == RESPONSE) & (act == WIN)], True)
        open_tables = np.unique(tb)
        settled = open_tables[pending[open_tables] >= 0]
        np.add.at(dealt_in, pending[settled[won[settled]]], 1)
        pending[open_tables] = -1
        discarding = np.flatnonzero((decision == TURN) & (act < 34))
        if discarding.size:
            b = tb[discarding]
            s = seat[discarding]
            others = (s[:, None] + np.arange(1, 4)[None, :]) % 4
            hands = state.hands[b[:, None], others].reshape(-1, 34)
            wild = state.wild[b]
            holds_wild = np.zeros(hands.shape[0], bool)
            for k in range(wild.shape[1]):
                kind = np.repeat(wild[:, k], 3)
                holds_wild |= (kind >= 0) & (hands[np.arange(hands.shape[0]), np.maximum(kind, 0)] > 0)
            ready = (shanten(hands) == 0) & ~holds_wild
            any_ready = ready.reshape(-1, 3).any(axis=1)
            np.add.at(ready_discards, s[any_ready], 1)
            pending[b[any_ready]] = s[any_ready]


def _positions_part(args):
    preset, seating, walls, seed = args
    ready, dealt = replayed_deal_ins(preset, seating, walls, seed)
    return [ready[seating.index(p)] for p in TABLE], [dealt[seating.index(p)] for p in TABLE]


def position_rates(preset, walls, seed, pool):
    """Per policy of ``TABLE``: discards made while an opponent was really ready, and the share of them dealt
    in, over the four cyclic seatings of the table."""
    seatings = [TABLE[k:] + TABLE[:k] for k in range(4)]
    parts = pool.map(_positions_part, [(preset, seating, walls, seed) for seating in seatings])
    ready = np.sum([part[0] for part in parts], axis=0)
    dealt = np.sum([part[1] for part in parts], axis=0)
    return {p: (int(r), d / r if r else float("nan")) for p, r, d in zip(TABLE, ready, dealt)}


def deal_ins(cols, seat):
    """Hands in which ``seat`` dealt in (its discard, or its robbed kong, was won on)."""
    return sum(1 for d, kinds in zip(cols["discarder"], cols["win_kind"]) if d == seat and kinds and
               kinds[0] in ("discard", "robbed_kong"))  # fmt: skip


def _seating_part(args):
    """Per-wall net of each policy (in ``TABLE`` order) and deal-ins per policy, for one seating."""
    preset, seating, walls, seed = args
    cols = play(preset, seating, walls, seed)
    net = np.stack([cols["net"][:, seating.index(policy)] for policy in TABLE], axis=1)
    dealt = np.array([deal_ins(cols, seating.index(policy)) for policy in TABLE])
    return net, dealt


def balanced(preset, walls, seed, pool):
    """The expert against each other policy of ``TABLE``, all four at one table in every one of the 24
    seatings on the same walls: per opponent, (mean, half-width of the 95% interval) of the expert seat's
    net minus that seat's net per hand (each wall's mean over its seatings is one observation: the seatings
    of a wall are clustered), and deal-ins per hand of every policy."""
    seatings = list(itertools.permutations(TABLE))
    parts = pool.map(_seating_part, [(preset, seating, walls, seed) for seating in seatings])
    net = sum(part[0] for part in parts) / len(seatings)  # walls x policies
    dealt = sum(part[1] for part in parts) / (walls * len(seatings))
    result = {}
    for k, opponent in enumerate(TABLE[1:], start=1):
        diff = net[:, 0] - net[:, k]
        result[opponent] = (diff.mean(), 1.96 * diff.std(ddof=1) / np.sqrt(walls))
    return result, dict(zip(TABLE, dealt))


def realism(preset, policy, walls, seed):
    """Drawn rate, win and deal-in per player-hand, self-draw share, and pattern shares of wins."""
    cols = play(preset, [policy] * 4, walls, seed)
    hands = len(cols["hand_id"])
    wins = [(kind, set(p)) for kinds, pats in zip(cols["win_kind"], cols["patterns"]) for kind, p in zip(kinds, pats)]
    n = max(1, len(wins))
    drawn = sum(1 for w in cols["winners"] if len(w) == 0) / hands
    dealt = sum(deal_ins(cols, s) for s in range(4)) / (4 * hands)
    # what a deal-in costs beside what the same win costs a loser when it is self-drawn: where the discarder
    # pays no more than a share, folding saves little (the opponent may self-draw instead)
    discarder_net, loser_net = [], []
    for h, (winners, kinds, discarder) in enumerate(zip(cols["winners"], cols["win_kind"], cols["discarder"])):
        if len(winners) != 1:
            continue
        if kinds[0] == "discard":
            discarder_net.append(cols["net"][h, discarder])
        elif kinds[0] == "self_draw":
            loser_net.extend(cols["net"][h, s] for s in range(4) if s != winners[0])
    return {
        "deal_in_cost": -float(np.mean(discarder_net)) if discarder_net else float("nan"),
        "self_draw_cost": -float(np.mean(loser_net)) if loser_net else float("nan"),
        "drawn": drawn,
        "win": len(wins) / (4 * hands),
        "deal_in": dealt,
        "self_draw": sum(1 for kind, _ in wins if kind in ("self_draw", "kong_replacement")) / n,
        "full_flush": sum(1 for _, p in wins if p & FULL_FLUSH) / n,
        "half_flush": sum(1 for _, p in wins if p & HALF_FLUSH) / n,
        "all_pungs": sum(1 for _, p in wins if p & ALL_PUNGS) / n,
    }


def _speed_part(args):
    """Hands played in sessions [first, end), as a run's worker plays them (Arrow columns, the objects that
    exist before kept out of the garbage collector)."""
    preset, first, end, spec = args
    import mjsim
    from mjsim.sim.parallel import old_objects_frozen
    from mjsim.sim.runner import play_sessions, seat_policies

    with old_objects_frozen():
        return sum(len(part["hand_id"]) for part in play_sessions(
            mjsim.ruleset(preset), seat_policies(spec), seed=3, first_session=first, end_session=end, tables=256,
            as_arrow=True))  # fmt: skip


def expert_speed(preset, hands, spec):
    """Hands per second of four expert seats on 2 worker processes (after a warm-up in each)."""
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2) as pool:
        pool.map(_speed_part, [(preset, 0, 4, spec), (preset, 4, 8, spec)])  # compile / load the kernels
        start = time.perf_counter()
        done = sum(pool.map(_speed_part, [(preset, 0, hands // 2, spec), (preset, hands // 2, hands, spec)]))
        return done / (time.perf_counter() - start)


def mjsim_ruleset(preset):
    import mjsim

    return mjsim.ruleset(preset)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--walls", type=int, default=200, help="walls per seating (the issue asks >= 10,000)")
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--position-walls", type=int, default=1000, help="walls per seating for the replayed-position deal-in rate"
    )
    parser.add_argument("--speed-hands", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--skip", default="", help="comma list of parts to skip: balanced,positions,realism,speed")
    parser.add_argument("--expert", default="expert", help="the expert seat's spec (e.g. expert:aggression=4)")
    args = parser.parse_args()
    global TABLE
    if not args.expert.split(":")[0] == "expert":
        parser.error(f"--expert must be an expert spec (expert or expert:name=value,...), got {args.expert!r}")
    TABLE = (args.expert, *TABLE[1:])
    presets = [p for p in args.presets.split(",") if p]
    skip = set(args.skip.split(","))
    if "balanced" not in skip:
        print(f"# balanced seating: {', '.join(TABLE)} at one table, all 24 seatings x {args.walls} walls")
        print(f"{'preset':22} {'expert minus':12} {'per hand':>9} {'95% CI':>19}   deal-in per hand")
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(args.workers) as pool:
            for preset in presets:
                started = time.perf_counter()
                effects, dealt = balanced(preset, args.walls, args.seed, pool)
                for k, (opponent, (mean, half)) in enumerate(effects.items()):
                    interval = f"[{mean - half:+.3f}, {mean + half:+.3f}]"
                    shown = "  ".join(f"{p} {dealt[p]:.3f}" for p in TABLE) if k == 0 else ""
                    print(f"{preset:22} {opponent:12} {mean:+9.3f} {interval:>19}   {shown}", flush=True)
                speed = f"{24 * args.walls / (time.perf_counter() - started):,.0f} hands/s"
                if not mjsim_ruleset(preset).discard_win:  # only robbed kongs are dealt in: no ratio to judge
                    print(f"{preset:22} no discard wins: deal-in ratio not applicable; {speed}", flush=True)
                    continue
                ratio = dealt[TABLE[0]] / dealt["efficiency"] if dealt["efficiency"] else float("nan")
                judged = verdict(ratio <= 0.75, f"{preset}: expert deals in <= 0.75 of efficiency")
                print(f"{preset:22} deal-in expert / efficiency {ratio:.2f} (target <= 0.75: {judged}); {speed}",
                      flush=True)  # fmt: skip
    if "positions" not in skip:
        print(f"\n# replayed positions: deal-in per discard while an opponent is really ready, {args.position_walls} "
              f"walls x 4 seatings (target: expert <= half of efficiency)")  # fmt: skip
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(args.workers) as pool:
            for preset in presets:
                if not mjsim_ruleset(preset).discard_win:
                    print(f"{preset:22} no discard wins: nothing to deal in")
                    continue
                rates = position_rates(preset, args.position_walls, args.seed, pool)
                shown = "  ".join(f"{p} {rate:.3%} of {n:,}" for p, (n, rate) in rates.items())
                ratio = rates[TABLE[0]][1] / rates["efficiency"][1]
                judged = verdict(ratio <= 0.5, f"{preset}: expert deals in <= half of efficiency when ready")
                print(f"{preset:22} {shown}  expert / efficiency {ratio:.2f} (target <= 0.50: {judged})", flush=True)
    if "realism" not in skip:
        print(f"\n# four seats of one policy, {args.walls} walls (human riichi reference: win {HUMAN['win']}, "
              f"deal-in {HUMAN['deal_in']} per player-hand, 清一色 {HUMAN['full_flush_share']:.2%} of wins)")  # fmt: skip
        print(f"{'preset':22} {'policy':11} {'drawn':>6} {'win':>6} {'deal-in':>8} {'self-draw':>9} {'清一色':>7} "
              f"{'混一色':>7} {'碰碰胡':>7} {'deal-in pays':>12} {'self-draw, each loser pays':>26}")  # fmt: skip
        for preset in presets:
            for policy in (TABLE[0], "efficiency"):
                r = realism(preset, policy, args.walls, args.seed)
                print(f"{preset:22} {policy:11} {r['drawn']:6.1%} {r['win']:6.3f} {r['deal_in']:8.3f} "
                      f"{r['self_draw']:9.1%} {r['full_flush']:7.2%} {r['half_flush']:7.2%} {r['all_pungs']:7.2%} "
                      f"{r['deal_in_cost']:12.2f} {r['self_draw_cost']:26.2f}",
                      flush=True)  # fmt: skip
    if "speed" not in skip:
        print("\n# speed")
        reference = riichienv_hands_per_second(200)
        print(reference_line(reference))
        for preset in presets[:2]:
            rate = expert_speed(preset, args.speed_hands, TABLE[0])
            print(f"{TABLE[0]} x4, 2 workers, {preset}: {rate:,.0f} hands/s{ratio_text(rate, reference)}", flush=True)


if __name__ == "__main__":
    main()
    raise SystemExit(exit_status())
