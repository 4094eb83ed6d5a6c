"""Compiled helpers on legal masks: a uniform legal choice and the last-resort legality guard."""

from mjsim.sim.borrowing import njit_borrowed
from mjsim.sim.constants import N_ACTIONS
from mjsim.sim.rng import next_below


@njit_borrowed
def uniform_legal(legal, i, rng):
    """A uniformly random legal action of row ``i`` (-1 if none is legal)."""
    n = 0
    for a in range(N_ACTIONS):
        if legal[i, a]:
            n += 1
    if n == 0:
        return -1
    k = next_below(rng, i, n) if n > 1 else 0
    for a in range(N_ACTIONS):
        if legal[i, a]:
            if k == 0:
                return a
            k -= 1
    return -1


@njit_borrowed
def checked(legal, i, action, rng):
    """``action`` if legal in row ``i``, else a uniform legal action (a policy bug must not stall a hand)."""
    if 0 <= action < N_ACTIONS and legal[i, action]:
        return action
    return uniform_legal(legal, i, rng)
