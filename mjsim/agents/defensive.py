"""The ``defensive`` policy: efficiency until a visible threat, then fold safely (``late_wall``, ``fold_shanten``).

A threat is an opponent with three or more declared melds, or fewer than
``late_wall`` tiles left in the wall (then every opponent counts).  Under a
threat, with shanten at least ``fold_shanten``, the policy folds: it never
claims, and discards the safest tile — first tiles every threatening
opponent discarded themselves, then kinds with three or four copies
visible, honours with several visible, terminals — keeping its shape only
as the last tie-break.  It still wins when it can.

Always (folding or not), when another tile is available it does not feed
a liability claim: a tile an opponent with three exposed melds could pung
or kong for a fourth (JPH-S4, when ``rules.liability_twelve_tiles``), the
fourth wind to three exposed wind pungs or the third dragon to two
exposed dragon pungs (JPH-S5, always: a limit hand either way).

Wild tiles (C-J1) are judged as in ``efficiency`` and kept: neither the
efficient play nor the fold discards a wild while another tile is legal.
"""

import numpy as np

from mjsim.agents.base import (
    RULE_FORMS,
    RULE_LIAB_TWELVE,
    Policy,
    new_actions,
    param_array,
    rules_array,
    shape_table,
)
from mjsim.agents.efficiency import (
    clamp_sets,
    efficient_response,
    efficient_turn,
    pick_tied,
    waiting_shanten,
    wild_turn,
    wilds_of_row,
)
from mjsim.agents.legal import checked, uniform_legal
from mjsim.agents.shape import (
    BIG,
    R_INFO,
    R_MASK,
    R_SAFE,
    R_SH,
    R_TIE,
    analyse,
    discard_shanten,
    new_work,
    special_on,
    special_shanten,
)
from mjsim.sim.borrowing import kernel, njit_borrowed
from mjsim.sim.constants import DISCARD, PASS, RESPONSE, TURN, WIN

LIABLE_LIMIT = 2  # JPH-S5: feeds a limit hand (fourth wind, third dragon)
LIABLE_FOURTH_SET = 1  # JPH-S4: could complete an opponent's fourth exposed set


@njit_borrowed
def threats(i, meld_count, wall_left, late_wall):
    """Bit r (1..3) set for each threatening opponent; all three when the wall is late."""
    bits = 0
    for r in range(1, 4):
        if meld_count[i, r] >= 3:
            bits |= 1 << r
    if wall_left[i] < late_wall:
        bits = 0b1110
    return bits


@njit_borrowed
def liability_level(i, t, meld_count, exposed, visible, twelve_tiles):
    """How badly discarding kind ``t`` could make this player liable (0 safe .. LIABLE_LIMIT)."""
    unseen = 4 - visible[i, t]
    level = 0
    for r in range(1, 4):
        if t >= 27 and unseen >= 1:
            winds = 0
            dragons = 0
            for w in range(27, 31):
                winds += 1 if exposed[i, r, w] >= 3 else 0
            for g in range(31, 34):
                dragons += 1 if exposed[i, r, g] >= 3 else 0
            if exposed[i, r, t] < 3 and ((t < 31 and winds >= 3) or (t >= 31 and dragons >= 2)):
                level = max(level, LIABLE_LIMIT)
        if twelve_tiles and meld_count[i, r] == 3 and unseen >= 2:
            level = max(level, LIABLE_FOURTH_SET)
    return level


@njit_borrowed
def safety(i, t, bits, discards, visible):
    """Larger is safer: genbutsu against each threat, then no-chance kinds, honours, terminals."""
    score = 0
    for r in range(1, 4):
        if (bits >> r) & 1 and discards[i, r, t] > 0:
            score += 1000  # the threat discarded it and cannot win on it (furiten)
    seen = visible[i, t]
    if seen >= 3:
        score += 300
    if t >= 27:
        score += 200 if seen >= 2 else 60
    else:
        rank = t % 9
        if rank == 0 or rank == 8:
            score += 100
        elif rank == 1 or rank == 7:
            score += 30
    return score + 10 * seen


@njit_borrowed
def mark_liability(i, hand, hi, meld_count, exposed, visible, legal, twelve_tiles, W):
    """``W[R_MASK]`` = legal discards held in ``hand[hi]`` of the lowest liability level; ``W[R_SAFE]`` =
    the levels."""
    low = BIG
    for t in range(34):
        W[R_MASK, t] = 0
        if legal[i, DISCARD + t] and hand[hi, t] > 0:
            W[R_SAFE, t] = liability_level(i, t, meld_count, exposed, visible, twelve_tiles)
            low = min(low, W[R_SAFE, t])
    for t in range(34):
        if legal[i, DISCARD + t] and hand[hi, t] > 0 and W[R_SAFE, t] == low:
            W[R_MASK, t] = 1
    return low < BIG


@njit_borrowed
def fold_discard(i, hand, hi, sets, melds, bits, discards, visible, forms, rng, T, W):
    """The safest discard in ``W[R_MASK]`` (kinds held in ``hand[hi]``), shape (shanten after it) as the
    tie-break."""
    analyse(hand, hi, sets, T, W)
    special = special_on(forms, sets, melds)
    discard_shanten(hand, hi, sets, special, forms, T, W)
    top = -1
    for t in range(34):
        if W[R_MASK, t]:
            W[R_SAFE, t] = safety(i, t, bits, discards, visible)
            top = max(top, W[R_SAFE, t])
    low = BIG
    for t in range(34):
        if W[R_MASK, t] and W[R_SAFE, t] == top:
            low = min(low, W[R_SH, t])
    for t in range(34):
        W[R_TIE, t] = 1 if W[R_MASK, t] and W[R_SAFE, t] == top and W[R_SH, t] == low else 0
    return DISCARD + pick_tied(i, rng, W)


@njit_borrowed
def turn_shanten(hand, hi, sets, melds, forms, T, W):
    """Shanten of the TURN hand ``hand[hi]`` (the best over its discards; raw units with wilds)."""
    analyse(hand, hi, sets, T, W)
    for t in range(34):
        W[R_MASK, t] = 1
    best = discard_shanten(hand, hi, sets, False, forms, T, W)
    if special_on(forms, sets, melds) and special_shanten(hand, hi, forms, -1, -1, W) <= best:
        best = discard_shanten(hand, hi, sets, True, forms, T, W)
    return best


@njit_borrowed
def defensive_turn(
    i,
    hand,
    hi,
    sets,
    melds,
    bits,
    meld_count,
    exposed,
    discards,
    visible,
    legal,
    fold_shanten,
    twelve,
    forms,
    rng,
    T,
    W,
):
    """Action of the defensive rule on a TURN row without a legal win (``hand[hi]``: the hand judged)."""
    # raw units: with w wilds held (W[R_INFO, 24]) the true shanten is the raw one minus w
    fold = bits != 0 and turn_shanten(hand, hi, sets, melds, forms, T, W) >= fold_shanten + W[R_INFO, 24]
    if not mark_liability(i, hand, hi, meld_count, exposed, visible, legal, twelve, W):
        return uniform_legal(legal, i, rng)  # no held kind is a legal discard: kongs only
    if fold:
        return fold_discard(i, hand, hi, sets, melds, bits, discards, visible, forms, rng, T, W)
    return efficient_turn(i, hand, hi, visible, i, sets, melds, legal, forms, rng, T, W)


@kernel
def defensive_kernel(
    hand,
    sets_needed,
    meld_count,
    exposed,
    discards,
    visible,
    wall_left,
    decision,
    target,
    wild,
    any_wild,
    legal,
    rng,
    params,
    rules,
    T,
    out,
):
    """Fill ``out`` with the defensive action of every row (params: late_wall, fold_shanten); rows with
    wild kinds judge ``G``, the hand without its wilds."""
    W = new_work()
    H = np.zeros((2, 34), np.int8)
    G = np.zeros((1, 34), hand.dtype)
    late_wall = params[0]
    fold_shanten = params[1]
    forms = rules[RULE_FORMS]
    twelve = rules[RULE_LIAB_TWELVE] != 0
    for i in range(out.size):
        sets = clamp_sets(sets_needed, i)
        melds = meld_count[i, 0]
        bits = threats(i, meld_count, wall_left, late_wall)
        wilds = any_wild and wilds_of_row(hand, i, wild, visible, G, W)
        a = -1
        if legal[i, WIN]:
            a = WIN
        elif decision[i] == TURN:
            if wilds:
                a = wild_turn(i, G, wild, legal, rng)  # only wilds to discard: one of them
                if a < 0:
                    a = defensive_turn(
                        i,
                        G,
                        0,
                        sets,
                        melds,
                        bits,
                        meld_count,
                        exposed,
                        discards,
                        visible,
                        legal,
                        fold_shanten,
                        twelve,
                        forms,
                        rng,
                        T,
                        W,
                    )
            else:
                a = defensive_turn(
                    i,
                    hand,
                    i,
                    sets,
                    melds,
                    bits,
                    meld_count,
                    exposed,
                    discards,
                    visible,
                    legal,
                    fold_shanten,
                    twelve,
                    forms,
                    rng,
                    T,
                    W,
                )
        elif decision[i] == RESPONSE:
            if wilds:
                if bits and waiting_shanten(G, 0, sets, melds, forms, T, W) >= fold_shanten + W[R_INFO, 24]:
                    a = PASS  # as below, in raw units (w wilds held)
                else:
                    a = efficient_response(i, G, 0, sets, melds, legal, target[i], forms, T, W, H)
            elif bits and waiting_shanten(hand, i, sets, melds, forms, T, W) >= fold_shanten:
                a = PASS  # claims expose the hand and give up safe tiles
            else:
                a = efficient_response(i, hand, i, sets, melds, legal, target[i], forms, T, W, H)
        else:
            a = PASS
        out[i] = checked(legal, i, a, rng)


def act(obs, legal, rng, params, rules):
    """Defensive actions for the rows of ``obs``."""
    out = new_actions(obs)
    defensive_kernel(
        obs.hand,
        obs.sets_needed,
        obs.meld_count,
        obs.exposed,
        obs.discards,
        obs.visible,
        obs.wall_left,
        obs.decision,
        obs.target,
        obs.wild,
        bool(obs.wild.any()),
        legal,
        rng,
        param_array(params, PARAMS, "defensive"),
        rules_array(rules),
        shape_table(),
        out,
    )
    return out


DEFAULTS = {"late_wall": 20.0, "fold_shanten": 1.0}
PARAMS = tuple(DEFAULTS)
POLICY = Policy(
    name="defensive",
    act=act,
    default_params=DEFAULTS,
    bounds={"late_wall": (0.0, 200.0), "fold_shanten": (0.0, 14.0)},
    doc=__doc__.split("\n\n")[0],
    reads=frozenset({"liability_twelve_tiles", "liability_limit_hands"}),  # it avoids feeding a 包 trigger
)
