"""Compiled batch-path scorer: the same rules as ``mjsim.rules.scoring``, on counts.

The simulator scores wins (and checks the minimum fan before a win is legal)
inside compiled code, so it cannot call the readable reference scorer.  This
module re-derives each pattern from tile counts: most patterns are facts of
the tiles (suits, honours, terminals; in a complete standard hand an honour
with three or more tiles is a pung), and the only reading-dependent facts —
whether the sets can be all pungs, all chows or a mix — come from a small
search over the ranks that may hold a pung (``standard_shapes``).  Each
reading class (and seven pairs / thirteen orphans where the ruleset lists
them) is scored and the best kept, in the reference's order.  Differential
tests (tests/test_fastscore.py, tests/test_sim_conformance.py) check it
against the reference on generated and simulated hands.

Pattern ids are the rules reference's; ``PATTERN_IDS`` fixes their order for
the count vectors the engine logs.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mjsim.sim.borrowing import njit_borrowed, stack_array
from mjsim.sim.constants import MELD_CHOW, MELD_KONG, MELD_PUNG

PATTERN_IDS = (
    # JPH-F1 ordinary, JPH-F2 limit (a ruleset says which table holds each)
    "chicken", "all_chows", "all_pungs", "half_flush", "half_flush_pungs", "full_flush", "full_flush_pungs",
    "mixed_terminals", "little_dragons", "little_winds", "all_honours", "pure_terminals", "big_dragons",
    "big_winds", "nine_gates", "thirteen_orphans", "heavenly", "earthly", "human",
    # JPH-F3 bonuses and JPH-S1..S3 specials
    "self_draw", "seat_wind", "round_wind", "dragon_pung", "concealed", "last_tile", "kong_flower",
    "robbed_kong", "triple_win",
    # TDH-V1..V4 (推倒胡) ids not above
    "small_hand", "seven_pairs", "four_concealed_pungs", "four_kongs", "no_ghost", "full_ghosts",
    # XZ-F1, XZ-H5 (血战) ids not above
    "basic", "terminal_sets", "two_five_eight_pungs", "full_flush_seven_pairs", "dragon_seven_pairs",
    "full_flush_terminal_sets", "full_flush_dragon_seven_pairs", "single_wait", "full_flush_single_wait",
    "full_flush_four_kongs",
    # XZ-F2 additions and XZ-H4 门清中张 ids not above
    "root", "direct_kong", "concealed_kong", "kong_discard", "no_terminals",
    # SHT-T1 base 台 and SHT-T2 winner 台 (水头) ids not above
    "caishen", "caishen_honour", "flowers", "kong", "special_pung", "special_pair", "hard", "plain", "four_winds",
    "caishen_set", "kill_pig", "split_tile_win",
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
    I_SMALL_HAND,
    I_SEVEN_PAIRS,
    I_FOUR_CONCEALED_PUNGS,
    I_FOUR_KONGS,
    I_NO_GHOST,
    I_FULL_GHOSTS,
    I_BASIC,
    I_TERMINAL_SETS,
    I_TWO_FIVE_EIGHT_PUNGS,
    I_FULL_FLUSH_SEVEN_PAIRS,
    I_DRAGON_SEVEN_PAIRS,
    I_FULL_FLUSH_TERMINAL_SETS,
    I_FULL_FLUSH_DRAGON_SEVEN_PAIRS,
    I_SINGLE_WAIT,
    I_FULL_FLUSH_SINGLE_WAIT,
    I_FULL_FLUSH_FOUR_KONGS,
    I_ROOT,
    I_DIRECT_KONG,
    I_CONCEALED_KONG,
    I_KONG_DISCARD,
    I_NO_TERMINALS,
) = range(N_PATTERNS - 12)  # the 水头 ids are read by name (fastscore_sht)
_LIMIT_ORDER = np.array([P[n] for n in PATTERN_IDS[:19] if n != "chicken"], dtype=np.int64)
_BONUS_ORDER = np.array(
    [P[n] for n in ("self_draw", "seat_wind", "round_wind", "dragon_pung", "concealed", "last_tile")], dtype=np.int64
)

# win situation bits
SELF_DRAW = 1
KONG_REPLACEMENT = 2
ROBBED_KONG = 4
LAST_TILE = 8
FIRST_TURN = 16
AFTER_KONG = 32  # a discard win on the discard the discarder made right after its kong (杠上炮, XZ-F2)

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
    thirteen_orphans: bool  # JPH-P5: 十三幺 is a winning shape
    seven_pairs: bool  # seven pairs is a winning shape (not in JPH-P5; a house option)
    seven_pairs_quads: bool  # C-P5: four equal tiles are two pairs
    max_suits: int  # XZ-P2 option: most suits in a winning hand
    nine_gates_pure: bool  # JPH-F2 nine_gates_wait = pure: the 13 tiles before the win are 1112345678999


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
        "thirteen_orphans" in ruleset.win_forms, "seven_pairs" in ruleset.win_forms, ruleset.seven_pairs_quads,
        ruleset.max_suits, ruleset.nine_gates_wait == "pure",
    )  # fmt: skip


# reading classes: which shapes a standard hand can be read in (melds included)
SHAPE_ALL_PUNGS = 1  # every set a pung or kong
SHAPE_ALL_CHOWS = 2  # every set a chow
SHAPE_MIXED = 4  # chows and pungs

# the readings score_jipinghu compares
_R_ALL_PUNGS = 0
_R_ALL_CHOWS = 1
_R_MIXED = 2
_R_SEVEN_PAIRS = 3
_R_ORPHANS = 4


@njit_borrowed
def _suit_shapes(rest, base, work, candidates):
    """How one suit's counts split into sets only: bit ``2 * has_pung + has_chow`` per way, 0 if none.

    A split is fixed by the ranks that hold a pung (at most one per rank, four
    copies), the rest being chows, which are then forced from the lowest rank.
    """
    n = 0
    for r in range(9):
        if rest[base + r] >= 3:
            candidates[n] = r
            n += 1
    mask = 0
    for subset in range(1 << n):
        for r in range(9):
            work[r] = rest[base + r]
        for j in range(n):
            if (subset >> j) & 1:
                work[candidates[j]] -= 3
        chows = 0
        ok = True
        for r in range(9):
            c = work[r]
            if c == 0:
                continue
            if r > 6 or work[r + 1] < c or work[r + 2] < c:
                ok = False
                break
            work[r + 1] -= c
            work[r + 2] -= c
            chows += c
        if ok:
            mask |= 1 << ((2 if subset else 0) + (1 if chows else 0))
    return mask


@njit_borrowed
def standard_shapes(concealed, meld_pungs, meld_chows):
    """``SHAPE_*`` bits of the ways concealed counts + melds read as sets + one pair; 0 if not a standard win.

    ``meld_pungs``/``meld_chows``: whether the declared melds hold a pung or
    kong / a chow.
    """
    shapes = 0
    rest = stack_array(34, np.int64)
    work = stack_array(9, np.int64)
    candidates = stack_array(9, np.int64)
    masks = stack_array(3, np.int64)
    for pair in range(34):
        if concealed[pair] < 2:
            continue
        for t in range(34):
            rest[t] = concealed[t]
        rest[pair] -= 2
        honour_pung = False
        ok = True
        for t in range(27, 34):
            if rest[t] == 3:
                honour_pung = True
            elif rest[t] != 0:
                ok = False
        if not ok:
            continue
        for suit in range(3):
            masks[suit] = _suit_shapes(rest, 9 * suit, work, candidates)
            if masks[suit] == 0:
                ok = False
        if not ok:
            continue
        for a in range(4):
            if not (masks[0] >> a) & 1:
                continue
            for b in range(4):
                if not (masks[1] >> b) & 1:
                    continue
                for c in range(4):
                    if not (masks[2] >> c) & 1:
                        continue
                    both = a | b | c
                    pung = meld_pungs or honour_pung or (both & 2) != 0
                    chow = meld_chows or (both & 1) != 0
                    if pung and chow:
                        shapes |= SHAPE_MIXED
                    elif pung:
                        shapes |= SHAPE_ALL_PUNGS
                    elif chow:
                        shapes |= SHAPE_ALL_CHOWS
    return shapes


@njit_borrowed
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


@njit_borrowed
def _is_seven_pairs(concealed, n_melds, quads):
    if n_melds:
        return False
    pairs = 0
    for t in range(34):
        c = concealed[t]
        if c == 2 or (c == 4 and quads):
            pairs += c // 2
        elif c != 0:
            return False
    return pairs == 7


@njit_borrowed
def _score_reading(has, honour_sets, claimed, flags, discard_winners, params, found):
    """One reading's score (JPH-F1..F4, JPH-S1..S3) from its patterns ``has``.

    Returns (code, fan before the cap and raises, limit hand): code is the fan
    or BELOW_MIN_FAN (JPH-P4).  ``honour_sets``: (seat wind pung, round wind
    pung, dragon pungs) of the reading.  ``found`` receives the pattern counts.
    """
    found[:] = 0
    # JPH-F1: a combined pattern the ruleset scores replaces its parts
    if has[I_HALF_FLUSH_PUNGS] and (params.ordinary_fan[I_HALF_FLUSH_PUNGS] >= 0
                                    or params.limit_fan[I_HALF_FLUSH_PUNGS] >= 0):  # fmt: skip
        has[I_HALF_FLUSH] = False
        has[I_ALL_PUNGS] = False
    if has[I_FULL_FLUSH_PUNGS] and (params.ordinary_fan[I_FULL_FLUSH_PUNGS] >= 0
                                    or params.limit_fan[I_FULL_FLUSH_PUNGS] >= 0):  # fmt: skip
        has[I_FULL_FLUSH] = False
        has[I_ALL_PUNGS] = False

    best_limit = -1
    best_fan = -1
    for j in range(_LIMIT_ORDER.size):
        pid = _LIMIT_ORDER[j]
        if has[pid] and params.limit_fan[pid] > best_fan:
            best_fan = params.limit_fan[pid]
            best_limit = pid
    if best_limit >= 0:  # JPH-F2: the largest limit pattern alone, no bonus, no cap
        if best_fan < params.min_fan:
            return BELOW_MIN_FAN, best_fan, True
        found[best_limit] = 1
        return best_fan, best_fan, True

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
    self_draw = (flags & SELF_DRAW) != 0
    robbed = (flags & ROBBED_KONG) != 0
    for j in range(_BONUS_ORDER.size):
        pid = _BONUS_ORDER[j]
        if not params.bonus_on[pid]:
            continue
        n = 0
        if pid == I_SELF_DRAW:
            n = 1 if (self_draw or robbed) else 0  # JPH-S2/S3: kong flower, robbed kong count as self-draw
        elif pid == I_SEAT_WIND:
            n = honour_sets[0]
        elif pid == I_ROUND_WIND:
            n = honour_sets[1]
        elif pid == I_DRAGON_PUNG:
            n = honour_sets[2]
        elif pid == I_CONCEALED:
            n = 0 if claimed else 1
        elif pid == I_LAST_TILE:
            n = 1 if ((flags & LAST_TILE) != 0 and self_draw) else 0
        if n > 0:
            found[pid] = n
            fan += n
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
        return BELOW_MIN_FAN, fan, False
    before = fan
    if params.cap >= 0:
        fan = min(fan, params.cap)  # JPH-F4
        if raise_to_cap:
            fan = max(fan, params.cap)
    return fan, before, False


@njit_borrowed
def score_jipinghu(
    concealed, win_tile, meld_kind, meld_tile, n_melds, flags, seat_offset, round_wind, discard_winners, params, found
):
    """Fan of a win under JPH-F/JPH-S, or NOT_A_WIN / BELOW_MIN_FAN.

    ``concealed``: the winner's concealed counts incl. the winning tile ``win_tile``; melds
    as kind/tile arrays.  ``found`` (int8, N_PATTERNS) receives the count of
    each pattern id the reference scorer would list.

    As the reference, the hand is read every way its shape allows (sets +
    pair as all pungs, all chows or mixed; seven pairs and thirteen orphans
    where the ruleset lists them) and the best reading counts: the higher fan,
    then the higher fan before the cap and raises, then a limit hand, then
    all pungs, then all chows.  NOT_A_WIN when no shape fits (or the hand
    holds more than ``max_suits`` suits); BELOW_MIN_FAN when every reading is
    below the minimum fan (JPH-P4).
    """
    found[:] = 0
    total = stack_array(34, np.int64)
    for t in range(34):
        total[t] = concealed[t]
    meld_chows = False
    meld_pungs = False
    claimed = False
    for i in range(n_melds):
        kind = meld_kind[i]
        tile = meld_tile[i]
        if kind == MELD_CHOW:
            meld_chows = True
            claimed = True
            for k in range(3):
                total[tile + k] += 1
        else:
            meld_pungs = True
            total[tile] += 3  # a kong reads as a set of its kind, like a pung
            if kind == MELD_PUNG or kind == MELD_KONG:
                claimed = True

    shapes = standard_shapes(concealed, meld_pungs, meld_chows)
    orphans = params.thirteen_orphans and _is_orphans(concealed, n_melds)
    seven = params.seven_pairs and _is_seven_pairs(concealed, n_melds, params.seven_pairs_quads)
    if shapes == 0 and not orphans and not seven:
        return NOT_A_WIN

    # facts of the tiles, the same in every reading
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
    if n_suits > params.max_suits:  # XZ-P2 option: no reading wins
        return NOT_A_WIN
    # honour sets of a standard reading: an honour is a pung (3+) or the pair (2)
    dragon_pungs = 0
    wind_pungs = 0
    dragon_pair = False
    wind_pair = False
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
    nine = False
    if n_melds == 0 and n_suits == 1 and not honours:
        base = 0 if suits == 1 else (9 if suits == 2 else 18)
        extra = 0
        nine = True
        for r in range(9):
            need = 3 if (r == 0 or r == 8) else 1
            if concealed[base + r] < need:
                nine = False
            extra += concealed[base + r] - need
        nine = nine and extra == 1
        if nine and params.nine_gates_pure:  # JPH-F2: the extra tile of 1112345678999 is the one won on
            rank = win_tile - base
            nine = 0 <= rank < 9 and concealed[win_tile] - (3 if (rank == 0 or rank == 8) else 1) == 1

    self_draw = (flags & SELF_DRAW) != 0
    robbed = (flags & ROBBED_KONG) != 0
    first = (flags & FIRST_TURN) != 0
    has = stack_array(N_PATTERNS, np.bool_)
    has[:] = False
    honour_sets = stack_array(3, np.int64)
    honour_sets[:] = 0
    scratch = stack_array(N_PATTERNS, np.int8)
    scratch[:] = 0
    best = NOT_A_WIN
    best_before = -1
    best_limit = False
    best_reading = -1
    below = False
    for reading in range(5):
        if reading == _R_ALL_PUNGS:
            ok = (shapes & SHAPE_ALL_PUNGS) != 0
        elif reading == _R_ALL_CHOWS:
            ok = (shapes & SHAPE_ALL_CHOWS) != 0
        elif reading == _R_MIXED:
            ok = (shapes & SHAPE_MIXED) != 0
        elif reading == _R_SEVEN_PAIRS:
            ok = seven
        else:
            ok = orphans
        if not ok:
            continue
        standard = reading <= _R_MIXED
        pungs = reading == _R_ALL_PUNGS
        has[:] = False
        has[I_ALL_PUNGS] = pungs
        has[I_ALL_CHOWS] = reading == _R_ALL_CHOWS
        has[I_HALF_FLUSH] = n_suits == 1 and honours
        has[I_FULL_FLUSH] = n_suits == 1 and not honours
        has[I_HALF_FLUSH_PUNGS] = has[I_HALF_FLUSH] and pungs
        has[I_FULL_FLUSH_PUNGS] = has[I_FULL_FLUSH] and pungs
        has[I_MIXED_TERMINALS] = only_terminals_honours and honours and n_suits > 0
        has[I_ALL_HONOURS] = n_suits == 0
        has[I_PURE_TERMINALS] = only_terminals
        if standard:
            has[I_LITTLE_DRAGONS] = dragon_pungs == 2 and dragon_pair
            has[I_LITTLE_WINDS] = wind_pungs == 3 and wind_pair
            has[I_BIG_DRAGONS] = dragon_pungs == 3
            has[I_BIG_WINDS] = wind_pungs == 4
            has[I_NINE_GATES] = nine
            honour_sets[0] = 1 if total[27 + seat_offset] >= 3 else 0
            honour_sets[1] = 1 if total[27 + round_wind] >= 3 else 0
            honour_sets[2] = dragon_pungs
        else:
            honour_sets[:] = 0
        has[I_THIRTEEN_ORPHANS] = reading == _R_ORPHANS
        has[I_HEAVENLY] = first and seat_offset == 0 and self_draw
        has[I_EARTHLY] = first and seat_offset != 0 and self_draw
        has[I_HUMAN] = first and seat_offset != 0 and not self_draw and not robbed
        code, before, limit = _score_reading(has, honour_sets, claimed, flags, discard_winners, params, scratch)
        if code == BELOW_MIN_FAN:
            below = True
            continue
        better = best_reading < 0
        if not better:  # the reference's order: fan, fan before cap and raises, limit, all pungs, all chows
            if code != best:
                better = code > best
            elif before != best_before:
                better = before > best_before
            elif limit != best_limit:
                better = limit
            else:
                better = False  # an earlier reading (all pungs, then all chows) wins ties
        if better:
            best = code
            best_before = before
            best_limit = limit
            best_reading = reading
            for k in range(found.size):
                found[k] = scratch[k]
    if best_reading < 0:
        return BELOW_MIN_FAN if below else NOT_A_WIN
    return best
