"""Compiled helpers on legal masks: a uniform legal choice, the last-resort legality guard, and the
two-suit discipline every policy keeps under 缺一门."""

from mjsim.sim.borrowing import njit_borrowed
from mjsim.sim.constants import CKONG, DISCARD, KONG, N_ACTIONS, PUNG, TURN
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


@njit_borrowed
def void_suit(hand, exposed, i):
    """The suit row ``i``'s player plays out under 缺一门 (XZ-P2): of the suits none of its melds hold, the one
    with the fewest concealed tiles (ties: the lower suit); -1 when its melds hold all three."""
    best = -1
    fewest = 99
    for c in range(3):
        melded = 0
        held = 0
        for t in range(9 * c, 9 * c + 9):
            melded += exposed[i, 0, t]
            held += hand[i, t]
        if melded == 0 and held < fewest:
            best, fewest = c, held
    return best


@njit_borrowed
def two_suit_legal(hand, exposed, decision, target, legal, allowed):
    """Every policy's discipline under 缺一门 (XZ-P2, ``max_suits`` 2): ``allowed`` is ``legal`` less the
    actions that keep the void suit (:func:`void_suit`): while it holds any, only its tiles are discarded
    and none is konged; no pung or kong of it is claimed.  A row left with no action keeps ``legal``."""
    for i in range(legal.shape[0]):
        for a in range(N_ACTIONS):
            allowed[i, a] = legal[i, a]
        c = void_suit(hand, exposed, i)
        if c < 0:
            continue
        if decision[i] == TURN:
            holds = False
            for t in range(9 * c, 9 * c + 9):
                holds = holds or hand[i, t] > 0
            for t in range(34):
                in_void = 9 * c <= t < 9 * c + 9
                if holds and not in_void:
                    allowed[i, DISCARD + t] = False
                if in_void:
                    allowed[i, CKONG + t] = False
        elif 9 * c <= target[i] < 9 * c + 9:
            allowed[i, PUNG] = False
            allowed[i, KONG] = False
        n = 0
        for a in range(N_ACTIONS):
            n += allowed[i, a]
        if n == 0:
            for a in range(N_ACTIONS):
                allowed[i, a] = legal[i, a]
