"""The ``efficiency`` policy: fastest way to a ready hand (shanten, then ukeire).

TURN: win when legal; otherwise discard the kind that minimises shanten,
ties broken by ukeire (unseen tiles that lower the shanten after the
discard), then by discarding honours before terminals before middle tiles,
then at random; a concealed or added kong is declared when it does not
raise the shanten.  RESPONSE: win when legal; kong when it does not raise
the shanten, pung or chow when it lowers it (after the best discard that
follows), else pass.

Wild tiles (C-J1, ``obs.wild``): the hand is judged without its wilds,
each counting as a wild (shanten = need of the other tiles - wilds - 1;
ukeire over the other kinds, plus every unseen wild), so a wild is never
thrown away while another tile may be discarded (:func:`wild_turn`), and
claims never use one.

The helpers here (:func:`efficient_turn`, :func:`efficient_response`,
:func:`break_ties`, :func:`claim_shanten`, :func:`wild_turn`) are shared
with the ``defensive`` and ``value`` policies.
"""

import numpy as np

from mjsim.agents.base import Policy, new_actions, shape_table
from mjsim.agents.legal import checked, uniform_legal
from mjsim.agents.shape import (
    BIG,
    R_AUX,
    R_EVERY,
    R_INFO,
    R_MASK,
    R_SH,
    R_TIE,
    analyse,
    discard_shanten,
    hand_shanten,
    kong_shanten,
    load_wilds,
    new_work,
    removal_shanten,
    special_on,
    special_shanten,
    start_ukeire,
    terminal_rank,
    ukeire_marked,
)
from mjsim.sim.borrowing import kernel, njit_borrowed
from mjsim.sim.constants import (
    AKONG,
    CHOW_HIGH,
    CHOW_LOW,
    CHOW_MID,
    CKONG,
    DISCARD,
    KONG,
    PASS,
    PUNG,
    RESPONSE,
    TURN,
    WIN,
)
from mjsim.sim.rng import next_below


@njit_borrowed
def pick_tied(i, rng, W):
    """A uniformly random kind among ``W[R_TIE] == 1`` (-1 if none)."""
    n = 0
    for t in range(34):
        n += W[R_TIE, t]
    if n == 0:
        return -1
    k = next_below(rng, i, n) if n > 1 else 0
    for t in range(34):
        if W[R_TIE, t]:
            if k == 0:
                return t
            k -= 1
    return -1


@njit_borrowed
def break_ties(i, hand, hi, vis, vi, sets, special, forms, rng, T, W):
    """Among the discards marked in ``W[R_TIE]`` (equal shanten), the one with the widest ukeire, then
    honours > terminals > middle tiles, then uniform (hand analysed)."""
    n = 0
    last = -1
    for t in range(34):
        if W[R_TIE, t]:
            n += 1
            last = t
    if n <= 1:
        return last
    start_ukeire(hand, hi, vis, vi, sets, special, forms, T, W)
    top = ukeire_marked(hand, hi, vis, vi, sets, special, forms, T, W)
    top_rank = -1
    for t in range(34):
        if W[R_TIE, t]:
            if W[R_AUX, t] < top:
                W[R_TIE, t] = 0
            else:
                top_rank = max(top_rank, terminal_rank(t))
    for t in range(34):
        if W[R_TIE, t] and terminal_rank(t) < top_rank:
            W[R_TIE, t] = 0
    return pick_tied(i, rng, W)


@njit_borrowed
def mask_legal_discards(legal, i, W):
    """``W[R_MASK]`` = the legal discards of row ``i``."""
    for t in range(34):
        W[R_MASK, t] = 1 if legal[i, DISCARD + t] else 0


@njit_borrowed
def efficient_turn(i, hand, hi, vis, vi, sets, own_melds, legal, forms, rng, T, W):
    """Action of the efficiency rule on a TURN row, choosing discards among ``W[R_MASK]``."""
    if legal[i, WIN]:
        return WIN
    analyse(hand, hi, sets, T, W)
    best = discard_shanten(hand, hi, sets, False, forms, T, W)
    # seven pairs / orphans move by at most one per tile and a discard never lowers them: a form
    # whose value for the held hand is above the standard best cannot reach any discard's shanten
    # or its ukeire, so it is left out (each form on its own: its draw candidates cost time)
    if special_on(forms, sets, own_melds):
        if special_shanten(hand, hi, forms & 10, -1, -1, W) > best:
            forms &= ~10
        if special_shanten(hand, hi, forms & 4, -1, -1, W) > best:
            forms &= ~4
    special = special_on(forms, sets, own_melds)
    if special:
        best = discard_shanten(hand, hi, sets, True, forms, T, W)
    # a kong that keeps the shanten is free progress: one more draw (and kong money)
    kong = -1
    kong_s = BIG + 1
    for t in range(34):
        if legal[i, CKONG + t] and hand[hi, t] == 4 and sets >= 1:
            s = kong_shanten(sets, t, T, W)
            if s <= best and s < kong_s:
                kong, kong_s = CKONG + t, s
        if legal[i, AKONG + t] and hand[hi, t] >= 1:
            s = removal_shanten(sets, t, T, W)
            if s <= best and s < kong_s:
                kong, kong_s = AKONG + t, s
    if kong >= 0:
        return kong
    if best >= BIG:
        return uniform_legal(legal, i, rng)
    for t in range(34):
        W[R_TIE, t] = 1 if W[R_SH, t] == best else 0
    return DISCARD + break_ties(i, hand, hi, vis, vi, sets, special, forms, rng, T, W)


@njit_borrowed
def chow_uses(action, t):
    """The two held kinds a chow of discard ``t`` uses (-1, -1 if the shape is impossible)."""
    if t < 0 or t >= 27:
        return -1, -1
    r = t % 9
    if action == CHOW_LOW and r <= 6:
        return t + 1, t + 2
    if action == CHOW_MID and 1 <= r <= 7:
        return t - 1, t + 1
    if action == CHOW_HIGH and r >= 2:
        return t - 2, t - 1
    return -1, -1


@njit_borrowed
def claim_hand(hand, hi, action, t, H):
    """Copy ``hand[hi]`` minus the tiles claim ``action`` on ``t`` uses into ``H[0]``; False if the
    hand cannot make that claim."""
    if t < 0 or t >= 34:
        return False
    for k in range(34):
        H[0, k] = hand[hi, k]
    if action == KONG or action == PUNG:
        used = 3 if action == KONG else 2
        if hand[hi, t] < used:
            return False
        H[0, t] -= used
        return True
    a, b = chow_uses(action, t)
    if a < 0 or hand[hi, a] == 0 or hand[hi, b] == 0:
        return False
    H[0, a] -= 1
    H[0, b] -= 1
    return True


@njit_borrowed
def claim_shanten(hand, hi, sets, action, t, T, W, H):
    """Shanten after claiming ``t`` with ``action`` (PUNG/KONG/CHOW_*), after the best discard for a
    pung/chow (BIG if the hand cannot make that claim).  Leaves the claimed hand in ``H[0]``."""
    if sets < 1 or not claim_hand(hand, hi, action, t, H):
        return BIG
    if action == KONG:
        return hand_shanten(H, 0, sets - 1, T, W)
    analyse(H, 0, sets - 1, T, W)
    for k in range(34):
        W[R_MASK, k] = W[R_EVERY, k]
    return discard_shanten(H, 0, sets - 1, False, 1, T, W)


@njit_borrowed
def waiting_shanten(hand, hi, sets, own_melds, forms, T, W):
    """Shanten of a waiting (3 * sets + 1 tile) hand over the allowed forms."""
    s = hand_shanten(hand, hi, sets, T, W)
    if special_on(forms, sets, own_melds):
        s = min(s, special_shanten(hand, hi, forms, -1, -1, W))
    return s


@njit_borrowed
def efficient_response(i, hand, hi, sets, own_melds, legal, t, forms, T, W, H):
    """Action of the efficiency rule on a RESPONSE/ROB row."""
    if legal[i, WIN]:
        return WIN
    if not (legal[i, PUNG] or legal[i, KONG] or legal[i, CHOW_LOW] or legal[i, CHOW_MID] or legal[i, CHOW_HIGH]):
        return PASS
    s0 = waiting_shanten(hand, hi, sets, own_melds, forms, T, W)
    choice = PASS
    best = BIG
    for action in (KONG, PUNG, CHOW_LOW, CHOW_MID, CHOW_HIGH):
        if not legal[i, action]:
            continue
        s = claim_shanten(hand, hi, sets, action, t, T, W, H)
        # kong: keeping the shanten is enough (a replacement draw); pung/chow must gain
        good = s <= s0 if action == KONG else s < s0
        if good and s < best:
            choice, best = action, s
    return choice


@njit_borrowed
def clamp_sets(sets_needed, i):
    return min(max(np.int64(sets_needed[i]), 0), 5)


@njit_borrowed
def wilds_of_row(hand, i, wild, visible, G, W):
    """:func:`~mjsim.agents.shape.load_wilds` for row ``i``, inlined so that the common case (no wild
    kinds, nothing to clear) costs one scan of ``wild[i]`` and no call."""
    found = False
    for t in range(34):
        if wild[i, t]:
            found = True
            break
    if found or W[R_INFO, 31]:
        found = load_wilds(hand, i, wild, visible, G, W)
    return found


@njit_borrowed
def wild_turn(i, G, wild, legal, rng):
    """A TURN row with wild kinds (``G[0]`` = the hand without its wilds): -1 when some held non-wild
    kind is a legal discard (the policy then chooses among those — a wild is never thrown away for
    nothing); else WIN if legal, else a uniformly random legal wild discard (-1 if none)."""
    for t in range(34):
        if legal[i, DISCARD + t] and G[0, t] > 0:
            return -1
    if legal[i, WIN]:
        return WIN
    n = 0
    for t in range(34):
        if legal[i, DISCARD + t] and wild[i, t]:
            n += 1
    if n == 0:
        return -1
    k = next_below(rng, i, n) if n > 1 else 0
    for t in range(34):
        if legal[i, DISCARD + t] and wild[i, t]:
            if k == 0:
                return DISCARD + t
            k -= 1
    return -1


@kernel
def efficiency_kernel(
    hand, sets_needed, meld_count, visible, decision, target, wild, any_wild, legal, rng, forms, T, out
):
    """Fill ``out`` with the efficiency action of every row (rows with wild kinds judge ``G``, the hand
    without its wilds; ``any_wild`` False: no row has any, nothing to look at)."""
    W = new_work()
    H = np.zeros((2, 34), np.int8)
    G = np.zeros((1, 34), hand.dtype)
    for i in range(out.size):
        sets = clamp_sets(sets_needed, i)
        wilds = any_wild and wilds_of_row(hand, i, wild, visible, G, W)
        if decision[i] == TURN:
            if wilds:
                a = wild_turn(i, G, wild, legal, rng)
                if a < 0:
                    mask_legal_discards(legal, i, W)
                    a = efficient_turn(i, G, 0, visible, i, sets, meld_count[i, 0], legal, forms, rng, T, W)
            else:
                mask_legal_discards(legal, i, W)
                a = efficient_turn(i, hand, i, visible, i, sets, meld_count[i, 0], legal, forms, rng, T, W)
        elif decision[i] == RESPONSE:
            if wilds:
                a = efficient_response(i, G, 0, sets, meld_count[i, 0], legal, target[i], forms, T, W, H)
            else:
                a = efficient_response(i, hand, i, sets, meld_count[i, 0], legal, target[i], forms, T, W, H)
        else:
            a = WIN if legal[i, WIN] else PASS
        out[i] = checked(legal, i, a, rng)


def act(obs, legal, rng, params, rules):
    """Efficiency actions for the rows of ``obs`` (no parameters)."""
    out = new_actions(obs)
    efficiency_kernel(
        obs.hand,
        obs.sets_needed,
        obs.meld_count,
        obs.visible,
        obs.decision,
        obs.target,
        obs.wild,
        bool(obs.wild.any()),
        legal,
        rng,
        int(rules.forms),
        shape_table(),
        out,
    )
    return out


POLICY = Policy(name="efficiency", act=act, default_params={}, doc=__doc__.split("\n\n")[0])
