"""Compiled (numba) per-hand evaluation for the simulator and the policies.

The batch functions of :mod:`mjsim.hand.kernels` (compiled in
:mod:`mjsim.hand.batch`) are the public API; inside the simulator one hand is
evaluated at a time from compiled code with the engine's form bits, so the
same lookup tables are read here by small ``@njit`` functions.
tests/test_hand_fast.py checks ``shanten_of``, ``is_win_counts`` and
``standard_wilds_needed`` against the public API, tests/test_hand_prefilter.py
``may_be_win``.

All functions take the table arrays explicitly (``HandTables`` fields), since
numba cannot read module-level Python objects that change at run time.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mjsim.hand.tables import FEATURE_BITS, load_tables
from mjsim.sim.borrowing import njit_borrowed, stack_array

BIG = 99
_COMPLETE = FEATURE_BITS["complete"][0]
_HAS_PAIR = FEATURE_BITS["has_pair"][0]
_ODD_SHIFT, _ODD_WIDTH = FEATURE_BITS["odd_counts"]
_ORPHAN_KINDS_SHIFT, _ORPHAN_KINDS_WIDTH = FEATURE_BITS["orphan_kinds"]
_ORPHAN_PAIRS_SHIFT, _ORPHAN_PAIRS_WIDTH = FEATURE_BITS["orphan_pair_kinds"]
_ORPHANS_ONLY = FEATURE_BITS["orphans_only"][0]
_ORPHAN_OVER = FEATURE_BITS["orphan_over_two"][0]
_PAIRS_Q_SHIFT, _PAIRS_Q_WIDTH = FEATURE_BITS["pairs_with_quads"]


class HandTables(NamedTuple):
    """The arrays the compiled functions read."""

    suit_partial: np.ndarray  # (5**9, 6, 2) uint8
    honour_partial: np.ndarray  # (5**7, 6, 2) uint8
    suit_exact: np.ndarray  # (5**9, 2) uint8
    honour_exact: np.ndarray  # (5**7, 2) uint8
    suit_features: np.ndarray  # (5**9,) uint32
    honour_features: np.ndarray  # (5**7,) uint32


FORM_STANDARD, FORM_SEVEN_PAIRS, FORM_ORPHANS, FORM_DISTINCT_PAIRS = 1, 2, 4, 8


def form_bits(ruleset) -> int:
    """The ``forms`` bits of :func:`shanten_of` / :func:`is_win_counts` for a ruleset's winning shapes."""
    forms = FORM_STANDARD
    if "seven_pairs" in ruleset.win_forms:
        forms |= FORM_SEVEN_PAIRS | (0 if ruleset.seven_pairs_quads else FORM_DISTINCT_PAIRS)
    if "thirteen_orphans" in ruleset.win_forms:
        forms |= FORM_ORPHANS
    return forms


def hand_tables() -> HandTables:
    suit, honour = load_tables()
    return HandTables(suit.partial, honour.partial, suit.exact, honour.exact, suit.features, honour.features)


@njit_borrowed
def component_code(counts, start, length):
    code = 0
    for i in range(length):
        code = code * 5 + counts[start + i]
    return code


@njit_borrowed
def codes_of(counts, codes):
    """Fill ``codes[0:4]`` with the base-5 codes of the three suits and the honours."""
    codes[0] = component_code(counts, 0, 9)
    codes[1] = component_code(counts, 9, 9)
    codes[2] = component_code(counts, 18, 9)
    codes[3] = component_code(counts, 27, 7)


@njit_borrowed(inline="always")  # in the batch kernels' inner loops
def tile_weight(tile):
    """How much one tile of kind ``tile`` adds to its component's code."""
    if tile >= 27:
        return 5 ** (33 - tile)
    return 5 ** (8 - tile % 9)


@njit_borrowed(inline="always")  # in the batch kernels' inner loops
def is_orphan(t):
    """Whether kind ``t`` is a terminal or an honour (the thirteen orphans' kinds)."""
    return t >= 27 or t % 9 == 0 or t % 9 == 8


@njit_borrowed
def _need(table, code, m, p):
    return np.int32(table[code, m, p])


@njit_borrowed
def standard_need(codes, sets, suit_partial, honour_partial):
    """Fewest tiles to add for ``sets`` sets + a pair (shanten + 1), from component codes.

    A min-plus over (sets, pair) of the four components' need vectors, written
    with scalars only: this runs inside every policy decision, and array
    temporaries would cost more than the arithmetic.
    """
    best = BIG
    c0, c1, c2, c3 = codes[0], codes[1], codes[2], codes[3]
    for m0 in range(sets + 1):
        for m1 in range(sets + 1 - m0):
            for m2 in range(sets + 1 - m0 - m1):
                m3 = sets - m0 - m1 - m2
                n0 = _need(suit_partial, c0, m0, 0)
                n1 = _need(suit_partial, c1, m1, 0)
                n2 = _need(suit_partial, c2, m2, 0)
                n3 = _need(honour_partial, c3, m3, 0)
                base = n0 + n1 + n2 + n3
                if base >= best:
                    continue  # the pair only adds to the need
                v = base - n0 + _need(suit_partial, c0, m0, 1)
                v = min(v, base - n1 + _need(suit_partial, c1, m1, 1))
                v = min(v, base - n2 + _need(suit_partial, c2, m2, 1))
                v = min(v, base - n3 + _need(honour_partial, c3, m3, 1))
                best = min(best, v)
    return best


@njit_borrowed
def standard_shanten(counts, sets, suit_partial, honour_partial):
    """Shanten of the standard form for concealed ``counts`` needing ``sets`` sets."""
    c0 = component_code(counts, 0, 9)
    c1 = component_code(counts, 9, 9)
    c2 = component_code(counts, 18, 9)
    c3 = component_code(counts, 27, 7)
    return standard_need((c0, c1, c2, c3), sets, suit_partial, honour_partial) - 1


@njit_borrowed
def seven_pairs_shanten(counts, quads_as_two_pairs):
    pairs = 0
    kinds = 0
    for t in range(34):
        c = counts[t]
        if c >= 1:
            kinds += 1
        if quads_as_two_pairs:
            pairs += c // 2
        elif c >= 2:
            pairs += 1
    if quads_as_two_pairs:
        return 6 - min(7, pairs)
    return 6 - pairs + max(0, 7 - kinds)


@njit_borrowed
def orphans_shanten(counts):
    kinds = 0
    pair = 0
    for t in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33):
        if counts[t] >= 1:
            kinds += 1
        if counts[t] >= 2:
            pair = 1
    return 13 - kinds - pair


@njit_borrowed
def shanten_of(counts, n_tiles, forms, suit_partial, honour_partial):
    """Shanten over the allowed forms; ``forms`` bits: 1 standard, 2 seven pairs, 4 thirteen orphans,
    8 seven pairs with distinct pairs only."""
    value = BIG
    if forms & 1:
        value = standard_shanten(counts, n_tiles // 3, suit_partial, honour_partial)
    if 13 <= n_tiles <= 14:
        if forms & 2:
            value = min(value, seven_pairs_shanten(counts, (forms & 8) == 0))
        if forms & 4:
            value = min(value, orphans_shanten(counts))
    return value


@njit_borrowed
def is_standard_win(counts, suit_features, honour_features):
    """Whether concealed ``counts`` (3n+2 tiles) are n sets + one pair (no wilds)."""
    pairs = 0
    for comp in range(4):
        if comp < 3:
            f = suit_features[component_code(counts, comp * 9, 9)]
        else:
            f = honour_features[component_code(counts, 27, 7)]
        if not (f >> _COMPLETE) & 1:
            return False
        pairs += (f >> _HAS_PAIR) & 1
    return pairs == 1


@njit_borrowed
def standard_wilds_needed(counts, suit_exact, honour_exact):
    """Fewest wild tiles that complete ``counts`` into sets + one pair (C-J1)."""
    need0 = stack_array(4, np.int32)
    need1 = stack_array(4, np.int32)
    for comp in range(4):
        if comp < 3:
            code = component_code(counts, comp * 9, 9)
            need0[comp] = suit_exact[code, 0]
            need1[comp] = suit_exact[code, 1]
        else:
            code = component_code(counts, 27, 7)
            need0[comp] = honour_exact[code, 0]
            need1[comp] = honour_exact[code, 1]
    total = need0.sum()
    best = total + 2
    for comp in range(4):
        v = total - need0[comp] + need1[comp]
        best = min(best, v)
    return best


@njit_borrowed
def may_be_win(counts, n_tiles, forms):
    """A cheap necessary condition for ``is_win_counts`` with no wild tiles (no table lookups).

    The engine asks "can this seat win?" for every answer to every discard;
    most hands fail on tile counts alone (a suit whose count leaves a
    remainder of 1 mod 3, an odd count for seven pairs, a middle tile for
    thirteen orphans), so the full check runs only for the rest.  Never
    False for a winning hand (tests compare it with ``is_win_counts``).
    """
    if forms & 1 and n_tiles % 3 == 2:
        pair_groups = 0
        ok = True
        for start in (0, 9, 18):
            total = 0
            for t in range(start, start + 9):
                total += counts[t]
            r = total % 3
            if r == 1:
                ok = False
            elif r == 2:
                pair_groups += 1
        for t in range(27, 34):
            c = counts[t]
            if c == 1 or c == 4:
                ok = False
            elif c == 2:
                pair_groups += 1
        if ok and pair_groups == 1:
            return True
    if n_tiles == 14:
        if forms & 2:
            odd = 0
            for t in range(34):
                odd += counts[t] & 1
            if odd == 0:
                return True
        if forms & 4:
            middle = 0
            for t in range(27):
                if t % 9 != 0 and t % 9 != 8:
                    middle += counts[t]
            if middle == 0:
                return True
    return False


@njit_borrowed
def is_win_counts(
    counts, n_tiles, wilds, forms, quads_as_two_pairs, suit_exact, honour_exact, suit_features, honour_features
):
    """Whether concealed ``counts`` plus ``wilds`` wild tiles complete a hand in one of ``forms`` (bits as
    :func:`shanten_of`)."""
    total = n_tiles + wilds
    if forms & 1 and total % 3 == 2:
        if wilds == 0:
            if is_standard_win(counts, suit_features, honour_features):
                return True
        elif standard_wilds_needed(counts, suit_exact, honour_exact) <= wilds:
            return True
    if total == 14:
        if forms & 2:
            odd = 0
            over = False
            for t in range(34):
                odd += counts[t] & 1
                if counts[t] > 2:
                    over = True
            if odd <= wilds and (quads_as_two_pairs or not over):
                return True
        if forms & 4:
            kinds = 0
            doubled = 0
            ok = True
            for t in range(34):
                c = counts[t]
                is_orphan = t >= 27 or t % 9 == 0 or t % 9 == 8
                if c and not is_orphan:
                    ok = False
                if is_orphan:
                    if c >= 1:
                        kinds += 1
                    if c == 2:
                        doubled += 1
                    if c > 2:
                        ok = False
            if ok and doubled <= 1 and (13 - kinds) + (1 if doubled == 0 else 0) <= wilds:
                return True
    return False
