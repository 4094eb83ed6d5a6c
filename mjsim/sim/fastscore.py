"""Compiled batch-path scorer: the same rules as ``mjsim.rules.scoring``, on counts.

The simulator scores wins (and checks the minimum fan before a win is legal)
inside compiled code, so it cannot call the readable reference scorer.  This
module re-derives each pattern from tile counts — in a complete standard hand
an honour with three or more tiles is a pung, a hand whose concealed counts
are all 0, 2 or 3 (one pair) reads as all pungs, and only "all chows" needs
a decomposition search — and a differential test checks it against the
reference on many simulated and generated hands.

Pattern ids are the rules reference's; ``PATTERN_IDS`` fixes their order for
the count vectors the engine logs.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from mjsim.sim.constants import MELD_CHOW, MELD_CKONG, MELD_KONG, MELD_PUNG

PATTERN_IDS = (
    # JPH-F1 ordinary, JPH-F2 limit (a ruleset says which table holds each)
    "chicken", "all_chows", "all_pungs", "half_flush", "half_flush_pungs", "full_flush", "full_flush_pungs",
    "mixed_terminals", "little_dragons", "little_winds", "all_honours", "pure_terminals", "big_dragons",
    "big_winds", "nine_gates", "thirteen_orphans", "heavenly", "earthly", "human",
    # JPH-F3 bonuses and JPH-S1..S3 specials
    "self_draw", "seat_wind", "round_wind", "dragon_pung", "concealed", "last_tile", "kong_flower",
    "robbed_kong", "triple_win",
)  # fmt: skip
N_PATTERNS = len(PATTERN_IDS)
P = {name: i for i, name in enumerate(PATTERN_IDS)}
# index constants of PATTERN_IDS, readable inside compiled code
(
    I_CHICKEN,
    I_ALL_CHOWS,
    I_ALL_PUNGS,
    I_HALF_FLUSH,
    I_HALF_FLUSH_PUNGS,
    I_FULL_FLUSH,
    I_FULL_FLUSH_PUNGS,
    I_MIXED_TERMINALS,
    I_LITTLE_DRAGONS,
    I_LITTLE_WINDS,
    I_ALL_HONOURS,
    I_PURE_TERMINALS,
    I_BIG_DRAGONS,
    I_BIG_WINDS,
    I_NINE_GATES,
    I_THIRTEEN_ORPHANS,
    I_HEAVENLY,
    I_EARTHLY,
    I_HUMAN,
    I_SELF_DRAW,
    I_SEAT_WIND,
    I_ROUND_WIND,
    I_DRAGON_PUNG,
    I_CONCEALED,
    I_LAST_TILE,
    I_KONG_FLOWER,
    I_ROBBED_KONG,
    I_TRIPLE_WIN,
) = range(N_PATTERNS)
_LIMIT_ORDER = np.array([P[n] for n in PATTERN_IDS[:19] if n != "chicken"], dtype=np.int64)
_BONUS_ORDER = np.array([P[n] for n in ("self_draw", "seat_wind", "round_wind", "dragon_pung", "concealed",
                                        "last_tile")], dtype=np.int64)

# win situation bits
SELF_DRAW = 1
KONG_REPLACEMENT = 2
ROBBED_KONG = 4
LAST_TILE = 8
FIRST_TURN = 16

NOT_A_WIN = -1
BELOW_MIN_FAN = -2


class ScoreParams(NamedTuple):
    """A ruleset's scoring tables as arrays indexed by ``PATTERN_IDS``."""

    ordinary_fan: np.ndarray  # int64 (N_PATTERNS,): fan, or -1 when the pattern is not ordinary
    limit_fan: np.ndarray  # int64 (N_PATTERNS,): fan, or -1 when not a limit pattern
    bonus_on: np.ndarray  # bool (N_PATTERNS,)
    cap: int  # -1 = no cap
    min_fan: int
    kong_flower_plus_one: bool  # JPH-S2 [5]; else raise to the cap [3]
    robbed_as_kong_flower: bool  # JPH-S3 [3]
    triple_win_raise: bool  # JPH-S1


def score_params(ruleset) -> ScoreParams:
    """The compiled scorer's view of a jipinghu-family ``Ruleset``."""
    ordinary = np.full(N_PATTERNS, -1, np.int64)
    limit = np.full(N_PATTERNS, -1, np.int64)
    for name, fan in ruleset.fan.items():
        ordinary[P[name]] = fan
    for name, fan in ruleset.limit_fan.items():
        limit[P[name]] = fan
    bonus = np.zeros(N_PATTERNS, np.bool_)
    for name in ruleset.bonuses:
        bonus[P[name]] = True
    return ScoreParams(
        ordinary, limit, bonus, -1 if ruleset.cap is None else ruleset.cap, ruleset.min_fan,
        ruleset.kong_flower == "plus_one", ruleset.robbed_kong_bonus == "as_kong_flower", ruleset.triple_win_raise,
    )  # fmt: skip


@njit(cache=True)
def _chows_only(counts):
    """Whether concealed ``counts`` split into chows + one pair (平胡's concealed part)."""
    for pair in range(34):
        if counts[pair] < 2:
            continue
        rest = counts.copy()
        rest[pair] -= 2
        ok = True
        for t in range(27, 34):
            if rest[t]:
                ok = False
        for suit in range(3):
            if not ok:
                break
            base = suit * 9
            for r in range(9):
                c = rest[base + r]
                if c == 0:
                    continue
                if r > 6 or rest[base + r + 1] < c or rest[base + r + 2] < c:
                    ok = False
                    break
                rest[base + r] = 0
                rest[base + r + 1] -= c
                rest[base + r + 2] -= c
        if ok:
            return True
    return False


@njit(cache=True)
def _pungs_only(concealed):
    pairs = 0
    for t in range(34):
        c = concealed[t]
        if c == 1 or c == 4:
            return False
        if c == 2:
            pairs += 1
    return pairs == 1


@njit(cache=True)
def _is_orphans(concealed, n_melds):
    if n_melds:
        return False
    pair = 0
    for t in range(34):
        c = concealed[t]
        orphan = t >= 27 or t % 9 == 0 or t % 9 == 8
        if orphan:
            if c == 0 or c > 2:
                return False
            if c == 2:
                pair += 1
        elif c:
            return False
    return pair == 1


@njit(cache=True)
def score_jipinghu(concealed, meld_kind, meld_tile, n_melds, flags, seat_offset, round_wind, discard_winners,
                   params, found):
    """Fan of a win under JPH-F/JPH-S, or NOT_A_WIN / BELOW_MIN_FAN.

    ``concealed``: the winner's concealed counts incl. the winning tile; melds
    as kind/tile arrays.  ``found`` (int8, N_PATTERNS) receives the count of
    each pattern id the reference scorer would list.  The caller has checked
    the shape is complete (standard or thirteen orphans).
    """
    found[:] = 0
    total = concealed.astype(np.int64)
    any_chow_meld = False
    claimed = False
    for i in range(n_melds):
        kind = meld_kind[i]
        tile = meld_tile[i]
        if kind == MELD_CHOW:
            any_chow_meld = True
            claimed = True
            for k in range(3):
                total[tile + k] += 1
        else:
            total[tile] += 3  # a kong reads as a set of its kind, like a pung
            if kind == MELD_PUNG or kind == MELD_KONG:
                claimed = True
    orphans = _is_orphans(concealed, n_melds)
    suits = 0
    for s in range(3):
        for r in range(9):
            if total[s * 9 + r]:
                suits |= 1 << s
                break
    honours = False
    only_terminals_honours = True
    only_terminals = True
    for t in range(34):
        if total[t] == 0:
            continue
        is_honour = t >= 27
        is_terminal = (not is_honour) and (t % 9 == 0 or t % 9 == 8)
        if is_honour:
            honours = True
            only_terminals = False
        elif not is_terminal:
            only_terminals_honours = False
            only_terminals = False
    n_suits = (suits & 1) + ((suits >> 1) & 1) + ((suits >> 2) & 1)
    has = np.zeros(N_PATTERNS, np.bool_)
    standard = not orphans
    pungs = standard and (not any_chow_meld) and _pungs_only(concealed)
    chows = False
    if standard:
        chows = True
        for i in range(n_melds):
            if meld_kind[i] != MELD_CHOW:
                chows = False
        if chows:
            chows = _chows_only(concealed)
    dragon_pungs = 0
    wind_pungs = 0
    dragon_pair = False
    wind_pair = False
    if standard:
        for t in range(27, 34):
            if total[t] >= 3:
                if t >= 31:
                    dragon_pungs += 1
                else:
                    wind_pungs += 1
            elif total[t] == 2:
                if t >= 31:
                    dragon_pair = True
                else:
                    wind_pair = True
    self_draw = (flags & SELF_DRAW) != 0
    robbed = (flags & ROBBED_KONG) != 0
    has[I_ALL_PUNGS] = pungs
    has[I_HALF_FLUSH] = n_suits == 1 and honours
    has[I_FULL_FLUSH] = n_suits == 1 and not honours
    has[I_HALF_FLUSH_PUNGS] = has[I_HALF_FLUSH] and pungs
    has[I_FULL_FLUSH_PUNGS] = has[I_FULL_FLUSH] and pungs
    has[I_MIXED_TERMINALS] = only_terminals_honours and honours and n_suits > 0
    has[I_LITTLE_DRAGONS] = dragon_pungs == 2 and dragon_pair
    has[I_LITTLE_WINDS] = wind_pungs == 3 and wind_pair
    has[I_ALL_HONOURS] = n_suits == 0
    has[I_PURE_TERMINALS] = only_terminals
    has[I_BIG_DRAGONS] = dragon_pungs == 3
    has[I_BIG_WINDS] = wind_pungs == 4
    if n_melds == 0 and standard and n_suits == 1 and not honours:
        base = 0 if suits == 1 else (9 if suits == 2 else 18)
        extra = 0
        nine = True
        for r in range(9):
            need = 3 if (r == 0 or r == 8) else 1
            if concealed[base + r] < need:
                nine = False
            extra += concealed[base + r] - need
        has[I_NINE_GATES] = nine and extra == 1
    has[I_THIRTEEN_ORPHANS] = orphans
    first = (flags & FIRST_TURN) != 0
    has[I_HEAVENLY] = first and seat_offset == 0 and self_draw
    has[I_EARTHLY] = first and seat_offset != 0 and self_draw
    has[I_HUMAN] = first and seat_offset != 0 and not self_draw and not robbed
    # JPH-F1: a combined pattern replaces its parts
    if has[I_HALF_FLUSH_PUNGS]:
        has[I_HALF_FLUSH] = False
        has[I_ALL_PUNGS] = False
    if has[I_FULL_FLUSH_PUNGS]:
        has[I_FULL_FLUSH] = False
        has[I_ALL_PUNGS] = False
    # the best reading: all pungs outscores all chows in every edition, so a
    # hand that reads both ways keeps the pungs (JPH-F1)
    if not has[I_ALL_PUNGS] and not has[I_HALF_FLUSH_PUNGS] and not has[I_FULL_FLUSH_PUNGS]:
        has[I_ALL_CHOWS] = chows

    best_limit = -1
    best_fan = -1
    for j in range(_LIMIT_ORDER.size):
        pid = _LIMIT_ORDER[j]
        if has[pid] and params.limit_fan[pid] > best_fan:
            best_fan = params.limit_fan[pid]
            best_limit = pid
    if best_limit >= 0:  # JPH-F2: the largest limit pattern alone
        if best_fan < params.min_fan:
            return BELOW_MIN_FAN
        found[best_limit] = 1
        return best_fan

    fan = 0
    any_pattern = False
    for pid in range(N_PATTERNS):
        if has[pid] and params.ordinary_fan[pid] >= 0:
            found[pid] = 1
            fan += params.ordinary_fan[pid]
            any_pattern = True
    if not any_pattern:
        found[I_CHICKEN] = 1
        fan += max(params.ordinary_fan[I_CHICKEN], 0)
    # JPH-F3 bonuses
    paid_as_self_draw = self_draw or robbed
    counts_b = np.zeros(N_PATTERNS, np.int64)
    counts_b[I_SELF_DRAW] = 1 if paid_as_self_draw else 0
    seat_wind = 27 + seat_offset
    round_tile = 27 + round_wind
    counts_b[I_SEAT_WIND] = 1 if (standard and total[seat_wind] >= 3) else 0
    counts_b[I_ROUND_WIND] = 1 if (standard and total[round_tile] >= 3) else 0
    counts_b[I_DRAGON_PUNG] = dragon_pungs
    counts_b[I_CONCEALED] = 0 if claimed else 1
    counts_b[I_LAST_TILE] = 1 if ((flags & LAST_TILE) != 0 and self_draw) else 0
    for j in range(_BONUS_ORDER.size):
        pid = _BONUS_ORDER[j]
        if params.bonus_on[pid] and counts_b[pid] > 0:
            found[pid] = counts_b[pid]
            fan += counts_b[pid]
    # JPH-S1..S3
    raise_to_cap = False
    if (flags & KONG_REPLACEMENT) != 0:
        found[I_KONG_FLOWER] = 1
        if params.kong_flower_plus_one:
            fan += 1
        else:
            raise_to_cap = True
    if robbed and params.robbed_as_kong_flower:
        found[I_ROBBED_KONG] = 1
        if params.kong_flower_plus_one:
            fan += 1
        else:
            raise_to_cap = True
    if discard_winners == 3 and params.triple_win_raise:
        found[I_TRIPLE_WIN] = 1
        raise_to_cap = True
    if fan < params.min_fan:  # JPH-P4: after bonuses, before cap and raises
        return BELOW_MIN_FAN
    if params.cap >= 0:
        fan = min(fan, params.cap)  # JPH-F4
        if raise_to_cap:
            fan = max(fan, params.cap)
    return fan
