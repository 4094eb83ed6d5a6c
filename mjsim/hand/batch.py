"""Compiled (numba) batch kernels behind :func:`mjsim.hand.is_win`, :func:`~mjsim.hand.shanten` and
:func:`~mjsim.hand.winning_tiles`.

Each kernel loops over a ``(B, 34)`` int8 batch, one hand at a time, reading
the lookup tables of :mod:`mjsim.hand.tables` (passed in as arrays):

- standard form: the base-5 code of each suit and of the honours indexes
  ``partial`` (shanten: a min-plus over ``(sets, pair)`` of the four
  components' need vectors, unrolled into registers for the four sets of a
  13/14-tile hand) or ``exact`` (a win: the fewest wild tiles that use every
  held tile in sets plus one pair; without wilds, only once the components'
  tile counts allow it: none of 3n+1 tiles, exactly one of 3n+2);
- seven pairs and thirteen orphans: counted from the 34 counts directly,
  without branches;
- winning tiles: the hand's needs and counts are read once, and each added
  tile changes one component (one table read) and one count.

The checking and the conversion to the one signature each kernel compiles
for (int8 counts, int16 wilds, C order, writeable) are done by
:mod:`mjsim.hand.kernels`, which imports this module on first use so that
``import mjsim.hand`` stays free of numba.  Form bits here are this module's
own (``STANDARD | SEVEN_PAIRS | ...``), not those of :mod:`mjsim.hand.fast`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mjsim.hand.fast import is_orphan, tile_weight
from mjsim.hand.tables import load_tables

STANDARD, SEVEN_PAIRS, SEVEN_PAIRS_DISTINCT, THIRTEEN_ORPHANS = 1, 2, 4, 8
FORM_BITS = {
    "standard": STANDARD,
    "seven_pairs": SEVEN_PAIRS,  # four equal tiles count as two pairs
    "seven_pairs_distinct": SEVEN_PAIRS_DISTINCT,
    "thirteen_orphans": THIRTEEN_ORPHANS,
}
_SPECIAL = SEVEN_PAIRS | SEVEN_PAIRS_DISTINCT | THIRTEEN_ORPHANS
NO_VALUE = 99  # shanten when no allowed form applies
MAX_TILES = 17  # five sets and a pair: the largest hand the tables serve for shanten


def tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(suit_partial, honour_partial, suit_exact, honour_exact)`` as the kernels read them."""
    suit, honour = load_tables()
    return suit.partial, honour.partial, suit.exact, honour.exact


@njit(cache=True, inline="always")
def _orphan_kind(k):
    """The ``k``-th (0-12) terminal or honour kind: 0, 8, 9, 17, 18, 26, 27, ..., 33 (a formula: a loop over
    a tuple of them runs several times slower)."""
    return k * 8 - (k // 2) * 7 if k < 6 else k + 21


@njit(cache=True, inline="always")
def _read_codes(counts, i, codes, sizes):
    """Fill ``codes[0:4]`` / ``sizes[0:4]`` with hand ``i``'s component codes and tile counts; return the
    hand's tile count."""
    total = 0
    for comp in range(4):
        start = comp * 9
        length = 7 if comp == 3 else 9
        code = 0
        size = 0
        for t in range(start, start + length):
            c = np.int64(counts[i, t])
            code = code * 5 + c
            size += c
        codes[comp] = code
        sizes[comp] = size
        total += size
    return total


@njit(cache=True, inline="always")
def _exact_need(exact, code, pair):
    return np.int64(exact[code, pair])


@njit(cache=True, inline="always")
def _special_facts(counts, i, n):
    """What seven pairs and thirteen orphans read of hand ``i`` (``n`` tiles): kinds held an odd number of
    times, the largest count, terminal/honour kinds held, of them held twice or more, their largest count,
    and tiles that are not terminals or honours.  Branch-free: random counts would mispredict branches."""
    odd = 0
    most = 0
    for t in range(34):
        c = np.int64(counts[i, t])
        odd += c & 1
        most = max(most, c)
    orphan_kinds = 0
    orphan_pairs = 0
    orphan_most = 0
    orphan_tiles = 0
    for k in range(13):
        c = np.int64(counts[i, _orphan_kind(k)])
        orphan_kinds += min(c, 1)
        orphan_pairs += min(c >> 1, 1)
        orphan_most = max(orphan_most, c)
        orphan_tiles += c
    return odd, most, orphan_kinds, orphan_pairs, orphan_most, n - orphan_tiles


@njit(cache=True)
def is_win_batch(counts, wilds, forms, suit_exact, honour_exact, out):
    """``out[i]``: whether hand ``i`` plus ``wilds[i]`` wild tiles is complete in one of ``forms``."""
    codes = np.empty(4, np.int64)
    sizes = np.empty(4, np.int64)
    for i in range(counts.shape[0]):
        w = np.int64(wilds[i])
        total = _read_codes(counts, i, codes, sizes) + w
        win = False
        if forms & STANDARD and total % 3 == 2:
            candidate = True
            if w == 0:  # sets + one pair: no suit of 3n+1 tiles, exactly one of 3n+2 (no table needed)
                twos = 0
                for comp in range(4):
                    r = sizes[comp] % 3
                    if r == 1:
                        candidate = False
                    elif r == 2:
                        twos += 1
                candidate = candidate and twos == 1
            if candidate:
                # each component completes its own tiles with the fewest wilds; the pair sits in one
                # component or is two wilds; spare wilds form sets
                no_pair = 0
                gain = 2
                for comp in range(4):
                    table = honour_exact if comp == 3 else suit_exact
                    n0 = _exact_need(table, codes[comp], 0)
                    no_pair += n0
                    gain = min(gain, _exact_need(table, codes[comp], 1) - n0)
                win = no_pair + gain <= w
        if not win and total == 14 and forms & _SPECIAL:
            odd, most, orphan_kinds, orphan_pairs, orphan_most, outside = _special_facts(counts, i, total - w)
            if forms & SEVEN_PAIRS and odd <= w:  # a wild pairs each odd count
                win = True
            if forms & SEVEN_PAIRS_DISTINCT and odd <= w and most <= 2:
                win = True
            if forms & THIRTEEN_ORPHANS and outside == 0 and orphan_most <= 2 and orphan_pairs <= 1:
                if 13 - orphan_kinds + (1 if orphan_pairs == 0 else 0) <= w:
                    win = True
        out[i] = win


@njit(cache=True, inline="always")
def _partial(table, code, m, p):
    return np.int64(table[code, m, p])


@njit(cache=True, inline="always")
def _standard_need(codes, sets, bound, suit_partial, honour_partial):
    """Fewest tiles to add for ``sets`` sets + a pair (standard shanten + 1), or ``bound`` if that is not
    more: a min-plus over ``(sets, pair)`` of the four components, pruned by the running best."""
    best = bound
    c0, c1, c2, c3 = codes[0], codes[1], codes[2], codes[3]
    for m0 in range(sets + 1):
        n0 = _partial(suit_partial, c0, m0, 0)
        if n0 >= best:
            continue
        for m1 in range(sets + 1 - m0):
            n1 = _partial(suit_partial, c1, m1, 0)
            if n0 + n1 >= best:
                continue
            for m2 in range(sets + 1 - m0 - m1):
                m3 = sets - m0 - m1 - m2
                n2 = _partial(suit_partial, c2, m2, 0)
                n3 = _partial(honour_partial, c3, m3, 0)
                base = n0 + n1 + n2 + n3
                if base >= best:
                    continue  # the pair only adds to the need
                pair = _partial(suit_partial, c0, m0, 1) - n0
                pair = min(pair, _partial(suit_partial, c1, m1, 1) - n1)
                pair = min(pair, _partial(suit_partial, c2, m2, 1) - n2)
                pair = min(pair, _partial(honour_partial, c3, m3, 1) - n3)
                best = min(best, base + pair)
    return best


@njit(cache=True)
def _row4(table, code):
    """A component's needs for 0..4 sets, without and with the pair, as two tuples (kept in registers)."""
    no_pair = (
        _partial(table, code, 0, 0),
        _partial(table, code, 1, 0),
        _partial(table, code, 2, 0),
        _partial(table, code, 3, 0),
        _partial(table, code, 4, 0),
    )
    pair = (
        _partial(table, code, 0, 1),
        _partial(table, code, 1, 1),
        _partial(table, code, 2, 1),
        _partial(table, code, 3, 1),
        _partial(table, code, 4, 1),
    )
    return no_pair, pair


@njit(cache=True)
def _mp(x, y, m):
    """``min(x[i] + y[m - i])`` over ``i``: one term of a min-plus convolution."""
    best = x[0] + y[m]
    for i in range(1, m + 1):
        best = min(best, x[i] + y[m - i])
    return best


@njit(cache=True)
def _conv4(a0, a1, b0, b1):
    """Min-plus of two components' need tuples for 0..4 sets: (without pair, with pair)."""
    no_pair = (_mp(a0, b0, 0), _mp(a0, b0, 1), _mp(a0, b0, 2), _mp(a0, b0, 3), _mp(a0, b0, 4))
    pair = (
        min(_mp(a0, b1, 0), _mp(a1, b0, 0)),
        min(_mp(a0, b1, 1), _mp(a1, b0, 1)),
        min(_mp(a0, b1, 2), _mp(a1, b0, 2)),
        min(_mp(a0, b1, 3), _mp(a1, b0, 3)),
        min(_mp(a0, b1, 4), _mp(a1, b0, 4)),
    )
    return no_pair, pair


@njit(cache=True, inline="always")
def _standard_need4(codes, suit_partial, honour_partial):
    """:func:`_standard_need` for four sets (13/14 tiles), unpruned: two min-plus convolutions of
    component pairs, then their combination, on tuples that stay in registers.  Branch-free, this is
    about twice as fast as the pruned loops, whose exits random hands mispredict.  Its helpers are left to
    LLVM to inline: inlined by numba (``inline="always"``), their many copies tripled the compile time."""
    a0, a1 = _row4(suit_partial, codes[0])
    b0, b1 = _row4(suit_partial, codes[1])
    c0, c1 = _row4(suit_partial, codes[2])
    d0, d1 = _row4(honour_partial, codes[3])
    ab0, ab1 = _conv4(a0, a1, b0, b1)
    cd0, cd1 = _conv4(c0, c1, d0, d1)
    return min(_mp(ab0, cd1, 4), _mp(ab1, cd0, 4))


@njit(cache=True)
def shanten_batch(counts, forms, suit_partial, honour_partial, out):
    """``out[i]``: shanten of hand ``i`` over ``forms`` (``NO_VALUE`` if none applies).

    Returns ``(tiles of the first hand holding 3n tiles or -1, most tiles in a hand)``; such hands and
    hands of more than ``MAX_TILES`` are left unevaluated (the caller raises).
    """
    codes = np.empty(4, np.int64)
    sizes = np.empty(4, np.int64)
    first_bad = -1
    most = 0
    for i in range(counts.shape[0]):
        n = _read_codes(counts, i, codes, sizes)
        most = max(most, n)
        if n % 3 == 0 or n > MAX_TILES:
            if n % 3 == 0 and first_bad < 0:
                first_bad = n
            out[i] = NO_VALUE
            continue
        value = NO_VALUE
        if 13 <= n <= 14 and forms & _SPECIAL:
            pairs_with_quads = 0
            kinds = 0
            pair_kinds = 0
            for t in range(34):  # branch-free: the counts are random, a branch would be mispredicted
                c = np.int64(counts[i, t])
                pairs_with_quads += c >> 1
                kinds += min(c, 1)
                pair_kinds += min(c >> 1, 1)
            orphan_kinds = 0
            orphan_pair = 0
            for k in range(13):
                c = np.int64(counts[i, _orphan_kind(k)])
                orphan_kinds += min(c, 1)
                orphan_pair |= min(c >> 1, 1)
            if forms & SEVEN_PAIRS:
                value = min(value, 6 - min(7, pairs_with_quads))
            if forms & SEVEN_PAIRS_DISTINCT:  # the common riichi libraries' formula
                value = min(value, 6 - pair_kinds + max(0, 7 - kinds))
            if forms & THIRTEEN_ORPHANS:
                value = min(value, 13 - orphan_kinds - orphan_pair)
        if forms & STANDARD:
            sets = n // 3
            if sets == 4:  # 13/14 tiles: unrolled, in registers, without branches
                need = _standard_need4(codes, suit_partial, honour_partial)
            else:
                need = _standard_need(codes, sets, value + 1, suit_partial, honour_partial)
            value = min(value, need - 1)
        out[i] = value
    return first_bad, most


@njit(cache=True)
def winning_tiles_batch(counts, wilds, forms, suit_exact, honour_exact, out):
    """``out[i, t]``: whether hand ``i`` plus one tile of kind ``t`` (and ``wilds[i]`` wilds) is complete.

    The hand's component needs and counting facts are read once; each added tile changes one component
    (one table read) and one count.
    """
    codes = np.empty(4, np.int64)
    sizes = np.empty(4, np.int64)
    need0 = np.empty(4, np.int64)
    gain = np.empty(4, np.int64)  # need with the pair - need without, per component
    others_gain = np.empty(4, np.int64)  # min(2, gain of the other components)
    for i in range(counts.shape[0]):
        w = np.int64(wilds[i])
        total = _read_codes(counts, i, codes, sizes) + 1 + w
        standard = forms & STANDARD != 0 and total % 3 == 2
        special = total == 14 and forms & _SPECIAL != 0
        no_pair = 0
        ones = 0
        twos = 0
        if standard:
            for comp in range(4):
                table = honour_exact if comp == 3 else suit_exact
                need0[comp] = _exact_need(table, codes[comp], 0)
                gain[comp] = _exact_need(table, codes[comp], 1) - need0[comp]
                no_pair += need0[comp]
                r = sizes[comp] % 3
                ones += r == 1
                twos += r == 2
            for comp in range(4):
                g = 2
                for other in range(4):
                    if other != comp:
                        g = min(g, gain[other])
                others_gain[comp] = g
        odd, most, orphan_kinds, orphan_pairs, orphan_most, outside = 0, 0, 0, 0, 0, 0
        if special:
            odd, most, orphan_kinds, orphan_pairs, orphan_most, outside = _special_facts(counts, i, total - w - 1)
            # one added tile changes one count: with more odd counts than wilds + 1, or a middle tile held,
            # no tile makes seven pairs / thirteen orphans (most random hands: no per-tile check)
            pairs_possible = odd - 1 <= w and forms & (SEVEN_PAIRS | SEVEN_PAIRS_DISTINCT) != 0
            special = pairs_possible or (outside == 0 and forms & THIRTEEN_ORPHANS != 0)
        for comp in range(4):
            start = comp * 9
            table = honour_exact if comp == 3 else suit_exact
            here = standard
            if standard and w == 0:  # the tile counts must leave no component of 3n+1 and one of 3n+2
                r = sizes[comp] % 3
                r_new = (r + 1) % 3
                here = ones - (r == 1) + (r_new == 1) == 0 and twos - (r == 2) + (r_new == 2) == 1
            for t in range(start, start + (7 if comp == 3 else 9)):
                c = np.int64(counts[i, t])
                win = False
                if c < 4:  # a fifth copy cannot be drawn
                    if here:
                        code = codes[comp] + tile_weight(t)
                        n0 = _exact_need(table, code, 0)
                        new_no_pair = no_pair - need0[comp] + n0
                        win = new_no_pair + min(others_gain[comp], _exact_need(table, code, 1) - n0) <= w
                    if not win and special:
                        new_odd = odd + (1 if c % 2 == 0 else -1)
                        if forms & SEVEN_PAIRS and new_odd <= w:
                            win = True
                        if forms & SEVEN_PAIRS_DISTINCT and new_odd <= w and max(most, c + 1) <= 2:
                            win = True
                        if forms & THIRTEEN_ORPHANS and outside == 0 and is_orphan(t):
                            kinds = orphan_kinds + (1 if c == 0 else 0)
                            pairs = orphan_pairs + (1 if c == 1 else 0)
                            if max(orphan_most, c + 1) <= 2 and pairs <= 1:
                                if 13 - kinds + (1 if pairs == 0 else 0) <= w:
                                    win = True
                out[i, t] = win
