"""Compiled 推倒胡 scorer (TDH-V1..V4): hand value in units, on counts, like the reference.

Readings compared (as ``mjsim.rules.scoring.tuidaohu``): sets + pair read as
all pungs (四暗刻 possible) or otherwise, seven pairs, thirteen orphans, and
满鬼 (four ghosts); the best by points, then units, then the number of big
hands shown.  With wild tiles the value does not depend on the reading in
the ghost edition (TDH-V4); big hands together with wild tiles are not
supported here (the runner refuses such a ruleset), since the best wild
assignment would need a search.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mjsim.hand.fast import form_bits, is_win_counts
from mjsim.sim.borrowing import njit_borrowed, stack_array
from mjsim.sim.constants import MELD_CHOW, MELD_CKONG, MELD_KONG
from mjsim.sim.fastscore import (
    FIRST_TURN,
    I_ALL_HONOURS,
    I_BIG_DRAGONS,
    I_BIG_WINDS,
    I_EARTHLY,
    I_FOUR_CONCEALED_PUNGS,
    I_FOUR_KONGS,
    I_FULL_FLUSH,
    I_FULL_GHOSTS,
    I_HEAVENLY,
    I_KONG_FLOWER,
    I_LITTLE_WINDS,
    I_NO_GHOST,
    I_ROBBED_KONG,
    I_SEVEN_PAIRS,
    I_SMALL_HAND,
    I_THIRTEEN_ORPHANS,
    KONG_REPLACEMENT,
    N_PATTERNS,
    NOT_A_WIN,
    ROBBED_KONG,
    SELF_DRAW,
    SHAPE_ALL_PUNGS,
    P,
    _is_orphans,
    _is_seven_pairs,
    standard_shapes,
)  # fmt: skip

# TDH-V2 order of the big hands (the reference's BIG_HANDS)
BIG_ORDER = np.array([P[n] for n in ("heavenly", "earthly", "full_flush", "all_honours", "seven_pairs",
                                     "four_concealed_pungs", "four_kongs", "big_dragons", "little_winds",
                                     "big_winds", "thirteen_orphans")], dtype=np.int64)  # fmt: skip


class TdhParams(NamedTuple):
    big_on: np.ndarray  # bool (N_PATTERNS,): the ruleset's big hands (TDH-V2)
    ghost_multipliers: bool  # TDH-V4 value scheme, else small/big (TDH-V1)
    small_value: int
    big_value: int
    self_draw_multiplier: int
    discard_multiplier: int
    earthly_first_self_draw: bool  # TDH-V2 interpretation; else a win on the dealer's first discard
    no_ghost_multiplier: int
    kong_flower_multiplier: int
    robbed_kong_multiplier: int  # TDH-H5
    seven_pairs_multiplier: int  # TDH-H4
    ghost_as_itself: bool  # TDH-H7: face-value readings of the ghosts count as 无鬼
    full_ghosts: bool
    full_ghosts_value: int
    forms: int  # shanten/win form bits (1 standard, 2 seven pairs, 4 thirteen orphans, 8 distinct pairs)
    quads_as_two_pairs: bool
    max_suits: int


def tdh_params(ruleset) -> TdhParams:
    big = np.zeros(N_PATTERNS, np.bool_)
    for name in ruleset.big_hands:
        big[P[name]] = True
    forms = form_bits(ruleset)
    return TdhParams(
        big, ruleset.hand_value == "ghost_multipliers", ruleset.small_hand_value, ruleset.big_hand_value,
        ruleset.self_draw_multiplier, ruleset.discard_multiplier, ruleset.earthly_rule == "first_self_draw",
        ruleset.no_ghost_multiplier, ruleset.kong_flower_multiplier, ruleset.robbed_kong_multiplier,
        ruleset.seven_pairs_multiplier, ruleset.ghost_as_itself_counts_as_no_ghost, ruleset.full_ghosts,
        ruleset.full_ghosts_value,
        forms, ruleset.seven_pairs_quads, ruleset.max_suits,
    )  # fmt: skip


@njit_borrowed
def _reading_bigs(reading_has, params, found):
    """Fill ``found`` with the reading's big hands (TDH-V2 order); return how many."""
    n = 0
    for j in range(BIG_ORDER.size):
        pid = BIG_ORDER[j]
        if reading_has[pid] and params.big_on[pid]:
            found[pid] = 1
            n += 1
    return n


@njit_borrowed
def score_tuidaohu(
    concealed, wilds, held, win_tile, meld_kind, meld_tile, n_melds, flags, seat_offset, params, tb, found, scratch
):
    """Units of a win (TDH-V1..V4, TDH-H4/H5/H7), or NOT_A_WIN; ``found`` receives the pattern ids.

    ``concealed``: real (non-wild) concealed tiles incl. the winning tile;
    ``wilds``: wild tiles held; ``held``: every concealed tile, the wilds at
    their face value; ``tb``: the hand tables (for wild wins).
    """
    found[:] = 0
    if wilds == 0:
        return _score_real(concealed, win_tile, meld_kind, meld_tile, n_melds, flags, seat_offset, params, found,
                           scratch)  # fmt: skip
    n_real = 0
    for t in range(34):
        n_real += concealed[t]
    full_ghosts = params.full_ghosts and wilds >= 4
    shape = is_win_counts(concealed, n_real, wilds, params.forms, params.quads_as_two_pairs, tb.suit_exact,
                          tb.honour_exact, tb.suit_features, tb.honour_features)  # fmt: skip
    units = -1
    if shape:
        seven = (params.forms & 2) != 0 and is_win_counts(concealed, n_real, wilds, 2, params.quads_as_two_pairs,
                                                           tb.suit_exact, tb.honour_exact, tb.suit_features,
                                                           tb.honour_features)  # fmt: skip
        if params.ghost_multipliers:
            units = _ghost_units(params, wilds, flags, found, seven)
        else:
            found[I_SMALL_HAND] = 1
            units = _multiplied(params, params.small_value, flags, found, False)
    if params.ghost_as_itself:  # TDH-H7: the ghosts at face value are a reading too, one with no ghost
        face = stack_array(N_PATTERNS, np.int8)
        face[:] = 0
        face_units = _score_real(held, win_tile, meld_kind, meld_tile, n_melds, flags, seat_offset, params, face,
                                 scratch)  # fmt: skip
        if face_units > units or (face_units == units and face[I_SEVEN_PAIRS] > found[I_SEVEN_PAIRS]):
            units = face_units
            for k in range(found.size):
                found[k] = face[k]
    if units < 0 and not full_ghosts:
        return NOT_A_WIN
    if full_ghosts and params.full_ghosts_value > units:  # 满鬼 when it is worth more (ties keep the shape)
        found[:] = 0
        found[I_FULL_GHOSTS] = 1
        return params.full_ghosts_value
    return units


@njit_borrowed
def _score_real(concealed, win_tile, meld_kind, meld_tile, n_melds, flags, seat_offset, params, found, scratch):
    """Units of a win with no wild tile among ``concealed``, or NOT_A_WIN (``found`` cleared first)."""
    found[:] = 0
    self_draw = (flags & SELF_DRAW) != 0
    paid_as_self_draw = self_draw or (flags & ROBBED_KONG) != 0
    total = scratch
    meld_pungs = False
    meld_chows = False
    kongs = 0
    claimed_pung = False
    for t in range(34):
        total[t] = concealed[t]
    for i in range(n_melds):
        kind = meld_kind[i]
        tile = meld_tile[i]
        if kind == MELD_CHOW:
            meld_chows = True
            for k in range(3):
                total[tile + k] += 1
        else:
            meld_pungs = True
            total[tile] += 3
            if kind == MELD_KONG or kind == MELD_CKONG:
                kongs += 1
            if kind != MELD_CKONG:
                claimed_pung = True
    shapes = standard_shapes(concealed, meld_pungs, meld_chows) if params.forms & 1 else 0
    seven = (params.forms & 2) != 0 and _is_seven_pairs(concealed, n_melds, params.quads_as_two_pairs)
    orphans = (params.forms & 4) != 0 and _is_orphans(concealed, n_melds)
    if shapes == 0 and not seven and not orphans:
        return NOT_A_WIN
    n_suits = 0
    honours = False
    for s in range(3):
        for r in range(9):
            if total[9 * s + r]:
                n_suits += 1
                break
    for t in range(27, 34):
        if total[t]:
            honours = True
    if n_suits > params.max_suits:
        return NOT_A_WIN
    if params.ghost_multipliers:
        return _ghost_units(params, 0, flags, found, seven)

    first = (flags & FIRST_TURN) != 0
    common = stack_array(N_PATTERNS, np.bool_)
    common[:] = False
    common[I_HEAVENLY] = first and seat_offset == 0 and self_draw
    if params.earthly_first_self_draw:
        common[I_EARTHLY] = first and seat_offset != 0 and self_draw
    else:
        common[I_EARTHLY] = first and seat_offset != 0 and not paid_as_self_draw
    common[I_FULL_FLUSH] = n_suits == 1 and not honours
    common[I_ALL_HONOURS] = n_suits == 0
    common[I_FOUR_KONGS] = kongs == 4
    best_units = -1
    best_bigs = -1
    reading = stack_array(N_PATTERNS, np.bool_)
    reading[:] = False
    candidate = stack_array(N_PATTERNS, np.int8)
    candidate[:] = 0
    for r in range(4):  # 0 all pungs, 1 other standard, 2 seven pairs, 3 thirteen orphans
        if r == 0 and not (shapes & SHAPE_ALL_PUNGS):
            continue
        if r == 1 and not (shapes & ~SHAPE_ALL_PUNGS):
            continue
        if r == 2 and not seven:
            continue
        if r == 3 and not orphans:
            continue
        for k in range(reading.size):
            reading[k] = common[k]
        if r <= 1:
            dragons = 0
            winds = 0
            wind_pair = False
            for t in range(27, 34):
                if total[t] >= 3:
                    if t >= 31:
                        dragons += 1
                    else:
                        winds += 1
                elif total[t] == 2 and t <= 30:
                    wind_pair = True
            reading[I_BIG_DRAGONS] = dragons == 3
            reading[I_LITTLE_WINDS] = winds == 3 and wind_pair
            reading[I_BIG_WINDS] = winds == 4
            if r == 0 and not claimed_pung and (self_draw or concealed[win_tile] == 2):
                reading[I_FOUR_CONCEALED_PUNGS] = True  # the winning tile of a claim completes the pair
        elif r == 2:
            reading[I_SEVEN_PAIRS] = True
        else:
            reading[I_THIRTEEN_ORPHANS] = True
        candidate[:] = 0
        bigs = _reading_bigs(reading, params, candidate)
        units = params.big_value if bigs else params.small_value
        if bigs == 0:
            candidate[I_SMALL_HAND] = 1
        if units > best_units or (units == best_units and bigs > best_bigs):
            best_units = units
            best_bigs = bigs
            for k in range(found.size):
                found[k] = candidate[k]
    return _multiplied(params, best_units, flags, found, False)  # the same factor on every reading


@njit_borrowed
def _ghost_units(params, wilds, flags, found, seven):
    """TDH-V4: 1 unit x2 无鬼 x2 杠开 (x 七对加倍 TDH-H4, x 抢杠加倍 TDH-H5); ``seven``: a seven-pairs reading."""
    found[I_SMALL_HAND] = 1
    units = params.small_value
    if wilds == 0:
        found[I_NO_GHOST] = 1
        units *= params.no_ghost_multiplier
    return _multiplied(params, units, flags, found, seven)


@njit_borrowed
def _multiplied(params, units, flags, found, seven):
    """The hand's multipliers: TDH-H4 七对加倍 and TDH-V4 杠开 (ghost multipliers), TDH-H5 杠开加倍 ([Q][D],
    listed only when on) and 抢杠加倍."""
    if params.ghost_multipliers:
        if seven and params.seven_pairs_multiplier > 1:
            found[I_SEVEN_PAIRS] = 1
            units *= params.seven_pairs_multiplier
        if (flags & KONG_REPLACEMENT) != 0:
            found[I_KONG_FLOWER] = 1
            units *= params.kong_flower_multiplier
    elif (flags & KONG_REPLACEMENT) != 0 and params.kong_flower_multiplier > 1:
        found[I_KONG_FLOWER] = 1
        units *= params.kong_flower_multiplier
    if (flags & ROBBED_KONG) != 0 and params.robbed_kong_multiplier > 1:
        found[I_ROBBED_KONG] = 1
        units *= params.robbed_kong_multiplier
    return units
