"""Compiled helpers on legal masks: a uniform legal choice, the last-resort legality guard, the
two-suit discipline every policy keeps under 缺一门, and the common 换三张 / 定缺 choices."""

from mjsim.sim.borrowing import njit_borrowed
from mjsim.sim.constants import CKONG, DISCARD, EXCHANGE, KONG, N_ACTIONS, PUNG, TURN, VOID, VOID_SUIT
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
def two_suit_legal(hand, exposed, decision, target, declared, legal, allowed):
    """Every policy's discipline under 缺一门 (XZ-P2, ``max_suits`` 2): ``allowed`` is ``legal`` less the
    actions that keep the void suit (the ``declared`` one under 定缺, else :func:`void_suit`): while it
    holds any, only its tiles are discarded and none is konged; no pung or kong of it is claimed.  A row
    left with no action keeps ``legal``; the choices before play (换三张, 定缺) are left as they are."""
    for i in range(legal.shape[0]):
        for a in range(N_ACTIONS):
            allowed[i, a] = legal[i, a]
        if decision[i] >= EXCHANGE:
            continue
        c = declared[i] if declared[i] >= 0 else void_suit(hand, exposed, i)
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


@njit_borrowed
def _connections(hand, i, t):
    """How much tile ``t`` of row ``i``'s hand works with the rest: copies of it (pairs, pungs) count
    double, neighbours one and two steps away in its suit once."""
    base = 9 * (t // 9)
    links = 2 * (hand[i, t] - 1)
    for d in (-2, -1, 1, 2):
        u = t + d
        if base <= u < base + 9:
            links += min(hand[i, u], 1)
    return links


@njit_borrowed
def _suit_links(hand, i, c):
    links = 0
    for t in range(9 * c, 9 * c + 9):
        if hand[i, t] > 0:
            links += hand[i, t] * _connections(hand, i, t)
    return links


@njit_borrowed
def setup_choice(hand, decision, legal, chosen):
    """The common choices before play, in ``chosen`` (one action per row).

    定缺 (XZ-H2, decision ``VOID``): the suit with the fewest tiles, ties to the one whose tiles work
    together least.  换三张 (XZ-H1, ``EXCHANGE``): the first pick comes from the legal suit with the fewest
    tiles (the one most likely to be played out); each pick is that suit's tile that works with the rest
    least, so what is passed is what the hand needs least."""
    for i in range(legal.shape[0]):
        best = -1
        best_key = 1 << 30
        if decision[i] == VOID:
            for c in range(3):
                held = 0
                for t in range(9 * c, 9 * c + 9):
                    held += hand[i, t]
                key = 1000 * held + _suit_links(hand, i, c)
                if legal[i, VOID_SUIT + c] and key < best_key:
                    best, best_key = VOID_SUIT + c, key
        else:
            c = 0
            suit_key = 1 << 30
            for suit in range(3):
                held = 0
                offered = False
                for t in range(9 * suit, 9 * suit + 9):
                    held += hand[i, t]
                    offered = offered or legal[i, DISCARD + t]
                key = 1000 * held + _suit_links(hand, i, suit)
                if offered and key < suit_key:
                    c, suit_key = suit, key
            for t in range(9 * c, 9 * c + 9):
                if legal[i, DISCARD + t]:
                    edge = min(t - 9 * c, 9 * c + 8 - t)  # middle tiles connect more: pass ends first
                    key = 10 * _connections(hand, i, t) + edge
                    if key < best_key:
                        best, best_key = DISCARD + t, key
        chosen[i] = best
