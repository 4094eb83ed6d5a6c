"""Deterministic random numbers for compiled code: splitmix64 streams.

Every hand has a 64-bit seed; its wall and every player's random choices are
drawn from splitmix64 streams derived from that seed alone, so a hand replays
identically on any machine and under any number of workers.
``hand_seeds(root_seed, hand_ids)`` derives the hand seeds from one root
seed (through ``numpy.random.SeedSequence``, then a splitmix64 mix of the
hand id), so a hand's seed does not depend on how the run was split.
"""

import numpy as np

from mjsim.sim.borrowing import kernel, njit_borrowed

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit_borrowed
def mix64(z):
    """The splitmix64 finaliser: a bijective scramble of a uint64."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit_borrowed
def next_u64(state, i):
    """Advance stream ``state[i]`` and return its next uint64."""
    state[i] += _GOLDEN
    return mix64(state[i])


@njit_borrowed
def next_float(state, i):
    """Uniform float in [0, 1) from stream ``state[i]``."""
    return (next_u64(state, i) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit_borrowed
def next_below(state, i, n):
    """Uniform integer in [0, n) from stream ``state[i]`` (n small, bias below 2**-40)."""
    return np.int64(next_u64(state, i) % np.uint64(n))


@kernel
def stream_seed(hand_seed, stream):
    """Seed of sub-stream ``stream`` (0 wall, 1-4 seats, ...) of a hand."""
    return mix64(np.uint64(hand_seed) ^ mix64(np.uint64(stream + 1) * _GOLDEN))


def root_key(root_seed: int) -> np.uint64:
    """A 64-bit key for a run's root seed (any non-negative int)."""
    return np.random.SeedSequence(int(root_seed)).generate_state(1, dtype=np.uint64)[0]


@kernel
def _hand_seeds(key, hand_ids, out):
    for i in range(hand_ids.size):
        out[i] = mix64(key + np.uint64(hand_ids[i]) * _GOLDEN)


def hand_seeds(root_seed: int, hand_ids) -> np.ndarray:
    """The uint64 seed of each hand id under ``root_seed``."""
    ids = np.ascontiguousarray(hand_ids, dtype=np.int64)
    out = np.empty(ids.size, dtype=np.uint64)
    _hand_seeds(root_key(root_seed), ids, out)
    return out
