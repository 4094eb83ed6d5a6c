"""Compiled 血战到底 scorer (XZ-F1..F3, XZ-P2, XZ-H3..H5, XZ-H8): fan on counts, like the reference.

The reference (``mjsim.rules.scoring.xuezhan``) takes, in each reading of
the hand, the highest XZ-F1 pattern (ties: more additions, then the table's
order), adds the XZ-F2 and house additions, and keeps the reading with the
most points.  Here the readings that can differ are classes:

- an all-pungs reading (unique when it exists: every concealed count is a
  pung or the pair);
- a reading where every set and the pair hold a 1 or a 9 (幺九), which has a
  closed form per suit (sets 123, 789, 111, 999 and a pair 11 or 99);
- any other standard reading;
- seven pairs (no melds; four equal tiles are two pairs, XZ-P3).

Additions do not depend on the reading except through 根 in 龙七对 (its
first four-of-a-kind is part of the pattern).  Differential tests
(tests/test_fastscore_xz.py) check this against the reference.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mjsim.hand.fast import form_bits, is_standard_win
from mjsim.sim.borrowing import njit_borrowed, stack_array
from mjsim.sim.constants import MELD_CHOW, MELD_CKONG, MELD_KONG, MELD_PUNG
from mjsim.sim.fastscore import (
    AFTER_KONG,
    BELOW_MIN_FAN,
    FIRST_TURN,
    KONG_REPLACEMENT,
    N_PATTERNS,
    NOT_A_WIN,
    ROBBED_KONG,
    SELF_DRAW,
    SHAPE_ALL_CHOWS,
    SHAPE_MIXED,
    P,
    _is_seven_pairs,
    standard_shapes,
)

# XZ-F1 then XZ-H5 patterns, in the reference's order (ties keep the earlier one); the ruleset's xz_fan table
# names the first N_TABLE of them, XZ-H5 adds the rest
XZ_NAMES = (
    "basic", "all_pungs", "full_flush", "seven_pairs", "terminal_sets", "full_flush_pungs", "two_five_eight_pungs",
    "full_flush_seven_pairs", "dragon_seven_pairs", "full_flush_terminal_sets", "full_flush_dragon_seven_pairs",
    "heavenly", "earthly", "single_wait", "full_flush_single_wait", "four_kongs", "full_flush_four_kongs",
)  # fmt: skip
XZ_ORDER = np.array([P[n] for n in XZ_NAMES], dtype=np.int64)
N_XZ = XZ_ORDER.size
N_TABLE = 13
(X_BASIC, X_PUNGS, X_FLUSH, X_SEVEN, X_TERMINAL, X_FLUSH_PUNGS, X_258, X_FLUSH_SEVEN, X_DRAGON, X_FLUSH_TERMINAL,
 X_FLUSH_DRAGON, X_HEAVENLY, X_EARTHLY, X_SINGLE, X_FLUSH_SINGLE, X_KONGS, X_FLUSH_KONGS) = range(N_XZ)  # fmt: skip
EXTRA_FAN = (2, 4, 6, 8)  # XZ-H5 金钩钓, 清金钩钓, 十八罗汉, 清十八罗汉: the values public servers give them

# reading classes, in the reference's order of readings (chows before pungs, seven pairs last): a tie in
# points keeps the earlier reading's pattern
R_TERMINAL, R_OTHER, R_PUNGS, R_SEVEN = range(4)


class XzParams(NamedTuple):
    """A ruleset's 血战 scoring as arrays and scalars."""

    pattern_fan: np.ndarray  # int64 (N_XZ,): fan of XZ_ORDER[j], -1 when not scored
    # XZ-F2 additions, -1 when the table does not name them (a named 0 is still shown among the patterns)
    root: int
    exposed_kong: int  # an exposed kong (the reference reads every one as 直杠)
    concealed_kong: int
    kong_flower_exposed: int
    kong_flower_concealed: int
    kong_discard: int
    robbed_kong: int
    self_draw_fan: bool  # XZ-H3 自摸加番
    concealed_and_middle: bool  # XZ-H4
    cap: int  # -1 none (XZ-F3)
    min_fan: int
    max_suits: int  # XZ-P2
    forms: int
    quads_as_two_pairs: bool


def xz_params(ruleset) -> XzParams:
    """The compiled scorer's view of a 血战 ruleset (any ruleset: the tables are empty outside the family)."""
    fan = np.full(N_XZ, -1, np.int64)
    for j, name in enumerate(XZ_NAMES[:N_TABLE]):
        if name in ruleset.xz_fan:
            fan[j] = ruleset.xz_fan[name]
    if not ruleset.heavenly_earthly:  # XZ-H8
        fan[X_HEAVENLY] = fan[X_EARTHLY] = -1
    if ruleset.extra_patterns:  # XZ-H5
        fan[X_SINGLE], fan[X_FLUSH_SINGLE], fan[X_KONGS], fan[X_FLUSH_KONGS] = EXTRA_FAN
    add = ruleset.xz_additions
    return XzParams(
        fan, add.get("root", -1), add.get("direct_kong", -1), add.get("concealed_kong", -1),
        add.get("kong_flower_exposed", -1), add.get("kong_flower_concealed", -1), add.get("kong_discard", -1),
        add.get("robbed_kong", -1), ruleset.self_draw_bonus == "fan", ruleset.concealed_and_middle,
        -1 if ruleset.cap is None else ruleset.cap, ruleset.min_fan, ruleset.max_suits, form_bits(ruleset),
        ruleset.seven_pairs_quads,
    )  # fmt: skip


@njit_borrowed
def _terminal_reading(concealed):
    """Whether the concealed counts read as sets of 123 / 789 / 111 / 999 and one pair of 1s or 9s (幺九),
    with at least one chow (without one it is the all-pungs reading)."""
    pairs = 0
    chows = 0
    for t in range(27, 34):
        if concealed[t]:
            return False
    for suit in range(3):
        c = concealed[9 * suit : 9 * suit + 9]
        if c[3] or c[4] or c[5] or c[1] != c[2] or c[7] != c[6]:
            return False
        chows += c[1] + c[7]
        for rest in (c[0] - c[1], c[8] - c[7]):
            if rest == 2:
                pairs += 1
            elif rest != 0 and rest != 3:
                return False
    return pairs == 1 and chows > 0


@njit_borrowed
def _pungs_reading(concealed, meld_kind, n_melds):
    """Whether the hand reads as all pungs (every concealed count a pung or the one pair, no chow meld)."""
    for m in range(n_melds):
        if meld_kind[m] == MELD_CHOW:
            return False
    pairs = 0
    for t in range(34):
        c = concealed[t]
        if c == 2:
            pairs += 1
        elif c != 0 and c != 3:
            return False
    return pairs == 1


@njit_borrowed
def _best_pattern(applies, params, roots, common):
    """(index into XZ_ORDER, pattern fan, additions) of one reading: the highest pattern, then more
    additions, then the earlier one; ``basic`` 0 when none applies."""
    best = -1
    best_fan = -1
    best_extra = -1
    for j in range(N_XZ):
        fan = params.pattern_fan[j]
        if not applies[j] or fan < 0:
            continue
        own = roots - 1 if (j == X_DRAGON or j == X_FLUSH_DRAGON) else roots  # XZ-F2: part of 龙七对
        extra = common + max(0, params.root) * max(0, own)
        if fan > best_fan or (fan == best_fan and extra > best_extra):
            best, best_fan, best_extra = j, fan, extra
    if best < 0:
        return X_BASIC, 0, common + max(0, params.root) * roots
    return best, best_fan, best_extra


@njit_borrowed
def score_xuezhan(concealed, win_tile, meld_kind, meld_tile, n_melds, flags, seat_offset, params, tb, found):
    """Fan of a 血战 win (XZ-F1..F3, XZ-H3..H5, XZ-H8), or NOT_A_WIN / BELOW_MIN_FAN; ``found`` receives
    the pattern and addition counts.  ``concealed``: the concealed tiles incl. the winning tile."""
    for k in range(found.size):
        found[k] = 0
    totals = stack_array(34, np.int64)
    for t in range(34):
        totals[t] = concealed[t]
    exposed_kongs = 0
    concealed_kongs = 0
    open_sets = 0  # pungs and exposed kongs (门清 allows concealed kongs only)
    last_kong = -1
    for m in range(n_melds):
        kind = meld_kind[m]
        t = meld_tile[m]
        if kind == MELD_CHOW:
            for k in range(3):
                totals[t + k] += 1
            open_sets += 1
            continue
        totals[t] += 4 if (kind == MELD_KONG or kind == MELD_CKONG) else 3
        if kind == MELD_KONG:
            exposed_kongs += 1
            open_sets += 1
            last_kong = kind
        elif kind == MELD_CKONG:
            concealed_kongs += 1
            last_kong = kind
        elif kind == MELD_PUNG:
            open_sets += 1
    suits = 0
    terminals = False
    for t in range(34):
        if totals[t]:
            if t >= 27:
                suits |= 8
            else:
                suits |= 1 << (t // 9)
                terminals = terminals or t % 9 == 0 or t % 9 == 8
    n_suits = (suits & 1) + ((suits >> 1) & 1) + ((suits >> 2) & 1)
    if n_suits > params.max_suits:  # XZ-P2 缺一门
        return NOT_A_WIN
    standard = (params.forms & 1) != 0 and is_standard_win(concealed, tb.suit_features, tb.honour_features)
    sevens = (params.forms & 2) != 0 and _is_seven_pairs(concealed, n_melds, params.quads_as_two_pairs)
    if not standard and not sevens:
        return NOT_A_WIN
    flush = n_suits == 1 and (suits & 8) == 0
    # 根: four equal tiles that are not a declared kong (a pung meld and the fourth tile held is one)
    roots = 0
    for t in range(34):
        if totals[t] >= 4:
            roots += 1
    roots -= exposed_kongs + concealed_kongs
    # the additions every reading shares
    common = exposed_kongs * max(0, params.exposed_kong) + concealed_kongs * max(0, params.concealed_kong)
    kong_flower = -1
    if (flags & KONG_REPLACEMENT) and last_kong >= 0:  # 杠上花: by the kind of the last kong made
        kong_flower = params.kong_flower_concealed if last_kong == MELD_CKONG else params.kong_flower_exposed
        common += max(0, kong_flower)
    kong_discard = (flags & AFTER_KONG) != 0 and (flags & SELF_DRAW) == 0 and params.kong_discard >= 0
    common += params.kong_discard if kong_discard else 0
    robbed = (flags & ROBBED_KONG) != 0 and params.robbed_kong >= 0
    common += params.robbed_kong if robbed else 0
    self_draw_fan = params.self_draw_fan and (flags & SELF_DRAW) != 0
    common += 1 if self_draw_fan else 0
    concealed_hand = params.concealed_and_middle and open_sets == 0
    middle = params.concealed_and_middle and not terminals
    common += (1 if concealed_hand else 0) + (1 if middle else 0)
    first_self_draw = (flags & FIRST_TURN) != 0 and (flags & SELF_DRAW) != 0
    applies = stack_array(N_XZ, np.bool_)
    pungs = standard and _pungs_reading(concealed, meld_kind, n_melds)
    chow_melds = False
    pung_melds = False
    for m in range(n_melds):
        chow_melds = chow_melds or meld_kind[m] == MELD_CHOW
        pung_melds = pung_melds or meld_kind[m] != MELD_CHOW
    # a reading that is not all pungs (the 'other' class) exists
    others = standard and (standard_shapes(concealed, pung_melds, chow_melds) & (SHAPE_ALL_CHOWS | SHAPE_MIXED)) != 0
    terminal_melds = True
    for m in range(n_melds):
        r = meld_tile[m] % 9
        if meld_tile[m] >= 27 or not (r == 0 or r == 8 or (meld_kind[m] == MELD_CHOW and r == 6)):
            terminal_melds = False
    all_terminal = True  # every kind a 1 or a 9: the all-pungs reading is 幺九 too
    for t in range(34):
        if totals[t] and (t >= 27 or (t % 9 != 0 and t % 9 != 8)):
            all_terminal = False
    best_j = 0
    best_total = -1
    best_capped = -1
    for cls in range(4):
        if cls == R_PUNGS and not pungs:
            continue
        if cls == R_TERMINAL and not (standard and terminal_melds and _terminal_reading(concealed)):
            continue
        if cls == R_OTHER and not others:
            continue
        if cls == R_SEVEN and not sevens:
            continue
        is_pungs = cls == R_PUNGS
        is_terminal = cls == R_TERMINAL or (is_pungs and all_terminal)
        seven = cls == R_SEVEN
        dragon = False
        if seven:
            for t in range(34):
                if concealed[t] == 4:
                    dragon = True
        for j in range(N_XZ):
            applies[j] = False
        applies[X_BASIC] = True
        applies[X_PUNGS] = is_pungs
        applies[X_FLUSH] = flush
        applies[X_SEVEN] = seven
        applies[X_TERMINAL] = is_terminal
        applies[X_FLUSH_PUNGS] = flush and is_pungs
        two_five_eight = is_pungs
        if is_pungs:
            for t in range(34):
                if totals[t] and (t >= 27 or t % 9 not in (1, 4, 7)):
                    two_five_eight = False
        applies[X_258] = two_five_eight
        applies[X_FLUSH_SEVEN] = flush and seven
        applies[X_DRAGON] = dragon
        applies[X_FLUSH_TERMINAL] = flush and is_terminal
        applies[X_FLUSH_DRAGON] = flush and dragon
        applies[X_HEAVENLY] = first_self_draw and seat_offset == 0
        applies[X_EARTHLY] = first_self_draw and seat_offset != 0
        single = (not seven) and n_melds == 4
        applies[X_SINGLE] = single
        applies[X_FLUSH_SINGLE] = flush and single
        four_kongs = exposed_kongs + concealed_kongs == 4
        applies[X_KONGS] = four_kongs
        applies[X_FLUSH_KONGS] = flush and four_kongs
        j, fan, extra = _best_pattern(applies, params, roots, common)
        total = fan + extra
        capped = total if params.cap < 0 else min(params.cap, total)
        if capped > best_capped or (capped == best_capped and total > best_total):
            best_j, best_total, best_capped = j, total, capped
    if best_total < params.min_fan:
        return BELOW_MIN_FAN
    found[XZ_ORDER[best_j]] = 1
    own_roots = roots - 1 if (best_j == X_DRAGON or best_j == X_FLUSH_DRAGON) else roots
    if params.root >= 0:
        found[P_ROOT] = max(0, own_roots)
    if params.exposed_kong >= 0:
        found[P_DIRECT_KONG] = exposed_kongs
    if params.concealed_kong >= 0:
        found[P_CONCEALED_KONG] = concealed_kongs
    if kong_flower >= 0:
        found[P_KONG_FLOWER] = 1
    if kong_discard:
        found[P_KONG_DISCARD] = 1
    if robbed:
        found[P_ROBBED_KONG] = 1
    if self_draw_fan:
        found[P_SELF_DRAW] = 1
    if concealed_hand:
        found[P_CONCEALED] = 1
    if middle:
        found[P_NO_TERMINALS] = 1
    return best_capped


P_ROOT = P["root"]
P_DIRECT_KONG = P["direct_kong"]
P_CONCEALED_KONG = P["concealed_kong"]
P_KONG_FLOWER = P["kong_flower"]
P_KONG_DISCARD = P["kong_discard"]
P_ROBBED_KONG = P["robbed_kong"]
P_SELF_DRAW = P["self_draw"]
P_CONCEALED = P["concealed"]
P_NO_TERMINALS = P["no_terminals"]
assert N_PATTERNS == len(P)
