"""TURN decisions per second of every policy on one core (budget: efficiency about 2 µs a decision).

Builds 100,000 realistic TURN observations — each a 14-tile hand dealt from
a freshly shuffled 136-tile wall, with the next 0-60 wall tiles spread over
the four players' discards (so ``visible`` and the ukeire counts are
plausible) — and times each policy's ``act`` on the whole batch, printing
decisions/s and the ratio to ``random``.  A ruleset with a fixed wild kind
(``tuidaohu_ghost``: 白板) marks it in ``obs.wild``, so the wild-aware path is
timed (about a third of dealt 14-tile hands hold a ghost).

    python benchmarks/policy_speed.py [--rows 100000] [--repeat 3] [--ruleset jipinghu]
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402


def wild_kind_of(ruleset) -> int:
    """The fixed wild kind of ``ruleset`` (-1: none, or one turned up per hand)."""
    from mjsim.tiles import parse_tiles

    return parse_tiles(ruleset.wild_tile)[0] if ruleset.wild_scheme == "fixed" else -1


def realistic_turns(rng, rows, wild_kind=-1):
    """TURN observations: hands and rivers dealt from shuffled walls; every held kind legal to discard
    (``wild_kind`` >= 0: marked wild in every row)."""
    from mjsim.sim.constants import DISCARD, N_ACTIONS, TURN
    from mjsim.sim.observation import empty_observation

    obs = empty_observation(rows)
    walls = rng.random((rows, 136)).argsort(axis=1) // 4
    river = rng.integers(0, 61, rows)
    for i in range(rows):
        hand = np.bincount(walls[i, :14], minlength=34)
        obs.hand[i] = hand
        seen = walls[i, 14 : 14 + river[i]]
        for j, tile in enumerate(seen):
            obs.discards[i, j % 4, tile] += 1
        obs.visible[i] = hand + obs.discards[i].sum(axis=0)
        obs.wall_left[i] = 122 - 14 - river[i]
        obs.target[i] = walls[i, 13]
    obs.n_concealed[:] = 14
    obs.sets_needed[:] = 4
    obs.decision[:] = TURN
    obs.target_from[:] = -1
    obs.seat_offset[:] = rng.integers(0, 4, rows)
    if wild_kind >= 0:
        obs.wild[:, wild_kind] = True
    legal = np.zeros((rows, N_ACTIONS), dtype=bool)
    legal[:, DISCARD : DISCARD + 34] = obs.hand > 0
    return obs, legal


def solitaire(policy, params, rules, rng, rows, turns=18, wild_kind=-1):
    """Seconds spent in ``policy.act`` over whole solo hands: every row draws from its own shuffled
    wall and discards what the policy says, while three other tiles per turn join the rivers (so the
    mix of decisions — early scattered hands, late near-ready ones — is the one a game produces)."""
    from mjsim.sim.constants import DISCARD, N_ACTIONS, TURN
    from mjsim.sim.observation import empty_observation

    obs = empty_observation(rows)
    walls = rng.random((rows, 136)).argsort(axis=1) // 4
    index = np.arange(rows)
    for tiles in walls[:, :13].T:
        np.add.at(obs.hand, (index, tiles), 1)
    obs.visible[:] = obs.hand
    obs.sets_needed[:] = 4
    obs.decision[:] = TURN
    obs.target_from[:] = -1
    if wild_kind >= 0:
        obs.wild[:, wild_kind] = True
    seeds = np.arange(rows, dtype=np.uint64)
    spent = 0.0
    position = 13
    for turn in range(turns):
        drawn = walls[:, position]
        obs.hand[index, drawn] += 1
        obs.visible[index, drawn] += 1
        obs.target[:] = drawn
        obs.n_concealed[:] = 14
        obs.wall_left[:] = 122 - 4 * turn
        legal = np.zeros((rows, N_ACTIONS), dtype=bool)
        legal[:, DISCARD : DISCARD + 34] = obs.hand > 0
        start = time.process_time()
        actions = policy.act(obs, legal, seeds, params, rules)
        spent += time.process_time() - start
        obs.hand[index, actions] -= 1
        obs.discards[index, 0, actions] += 1
        for other in range(1, 4):  # the others' discards become visible
            tile = walls[:, position + other]
            obs.discards[index, other, tile] += 1
            obs.visible[index, tile] += 1
        position += 4
    return spent / (rows * turns)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per policy (the best is kept)")
    parser.add_argument("--ruleset", default="jipinghu")
    args = parser.parse_args()

    from mjsim.agents import POLICIES
    from mjsim.rules import load_preset
    from mjsim.sim.observation import policy_rules

    ruleset = load_preset(args.ruleset)
    rules = policy_rules(ruleset)
    wild_kind = wild_kind_of(ruleset)
    obs, legal = realistic_turns(np.random.default_rng(0), args.rows, wild_kind)
    rates = {}
    for name, policy in POLICIES.items():
        params = policy.defaults()
        seeds = np.arange(args.rows, dtype=np.uint64)
        policy.act(obs, legal, seeds.copy(), params, rules)  # compile / load the cache
        best = np.inf
        for _ in range(args.repeat):
            rng = seeds.copy()
            start = time.process_time()  # CPU time: other processes on the machine do not count
            policy.act(obs, legal, rng, params, rules)
            best = min(best, time.process_time() - start)
        rates[name] = args.rows / best
    print(f"TURN decisions per second (CPU time), {args.rows:,} dealt hands, ruleset {args.ruleset}, one core")
    for name, value in rates.items():
        ratio = value / rates["random"]
        print(f"  {name:<10} {value:>12,.0f}/s  {1e6 / value:6.2f} µs/decision  ratio to random {ratio:.4f}")
    rows = max(1000, args.rows // 10)
    print(f"whole solo hands ({rows:,} rows x 18 turns: scattered early, near-ready late)")
    for name, policy in POLICIES.items():
        per = solitaire(policy, policy.defaults(), rules, np.random.default_rng(1), rows, wild_kind=wild_kind)
        print(f"  {name:<10} {1 / per:>12,.0f}/s  {1e6 * per:6.2f} µs/decision")


if __name__ == "__main__":
    main()
