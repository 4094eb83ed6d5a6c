"""Helpers shared by the policy tests: legal masks and one-call policy decisions."""

import numpy as np

from mjsim.agents import get_policy
from mjsim.sim.constants import DISCARD, N_ACTIONS, PASS


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
