"""Helpers shared by the policy tests: observations in tile notation, legal masks, one-call decisions."""

import numpy as np

from mjsim.agents import get_policy
from mjsim.sim.constants import DISCARD, N_ACTIONS, PASS, TURN
from mjsim.sim.observation import empty_observation
from mjsim.tiles import parse_counts, parse_tiles


def tile(text):
    (kind,) = parse_tiles(text)
    return kind


def observe(
    hand, decision=TURN, target=-1, target_from=-1, melds=0, seat_offset=0, round_wind=0, wall_left=60, wild=""
):
    """A one-row observation of ``hand`` (notation) with nothing else on the table yet; ``wild`` names the
    wild kinds ('' for none)."""
    obs = empty_observation(1)
    counts = parse_counts(hand)
    obs.hand[0] = counts
    obs.n_concealed[0] = counts.sum()
    obs.sets_needed[0] = 4 - melds
    obs.meld_count[0, 0] = melds
    obs.visible[0] = counts
    obs.wall_left[0] = wall_left
    obs.seat_offset[0] = seat_offset
    obs.round_wind[0] = round_wind
    obs.decision[0] = decision
    obs.target[0] = target
    obs.target_from[0] = target_from
    if decision != TURN and target >= 0:
        obs.discards[0, target_from, target] += 1
        obs.visible[0, target] += 1
    for kind in parse_tiles(wild):
        obs.wild[0, kind] = True
    return obs


def show(obs, r, river=(), melds=()):
    """Opponent ``r`` discarded the ``river`` tiles and exposed ``melds`` (pung/kong kinds or chow tiles)."""
    for text in river:
        obs.discards[0, r, tile(text)] += 1
        obs.visible[0, tile(text)] += 1
    for meld in melds:
        for kind in parse_tiles(meld):
            obs.exposed[0, r, kind] += 1
            obs.visible[0, kind] += 1
        obs.meld_count[0, r] += 1


def turn_legal(obs, extra=()):
    """Every held tile may be discarded, plus ``extra`` actions, for each observation row."""
    legal = np.zeros((obs.hand.shape[0], N_ACTIONS), dtype=bool)
    legal[:, DISCARD : DISCARD + 34] = obs.hand > 0
    legal[:, list(extra)] = True
    return legal


def response_legal(*actions):
    legal = np.zeros((1, N_ACTIONS), dtype=bool)
    legal[0, PASS] = True
    legal[0, list(actions)] = True
    return legal


def act(spec, obs, legal, rules, seed=0):
    policy, params = get_policy(spec)
    rng = np.full(obs.hand.shape[0], seed, dtype=np.uint64)
    return policy.act(obs, legal, rng, params, rules)


def discards_of(spec, obs, legal, rules, seeds):
    """The set of actions the policy takes over several random streams (ties are random)."""
    return {int(act(spec, obs, legal, rules, seed)[0]) for seed in seeds}
