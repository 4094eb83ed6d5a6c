"""Compiled hand-shape helpers shared by the policies: need vectors, discard shanten, ukeire.

A hand's concealed tiles split into four components (three suits, honours);
the lookup table gives, per component code, the *need vector*
``need[2 m + p]`` = fewest tiles to add for ``m`` sets and ``p`` pairs
(:mod:`mjsim.hand.tables`).  The need of a whole hand is the min-plus
convolution of its four vectors read at (sets, 1); shanten = need - 1.

A decision evaluates many hands that differ from the held one by a tile or
two, so :func:`analyse` convolves the components once and keeps, per
component, the convolution of the *other three* (``OTH``): a discard that
only touches component ``c`` then costs one table row and one close (about
ten additions).  Vectors closed against many candidates are stored
*reversed* (``rev[2 m + p] = v[sets - m, 1 - p]``) so a close is one
elementwise add-and-min.

Ukeire (:func:`ukeire_marked`) needs no table read per (discard, draw) pair:
adding a tile lowers each entry of its component's vector by at most one,
so a draw lowers the need exactly when it lowers an entry that is *tight*
(on an optimal split) after the discard.  The entries each draw lowers are
a bitmask the table row holds (:func:`draw_lowers`); the tight entries are
found once per (discard, component).

Performance notes (why the signatures look like this): every helper takes
plain 2-D arrays plus row indices — the work array ``W`` (int64, rows
below), the hand ``hand[hi]`` and ``vis[vi]`` — never a tuple of arrays,
an array view or an array-valued expression, because numba reference-counts
each of those with atomic operations, which cost more than the arithmetic;
and they compile with :func:`~mjsim.sim.borrowing.njit_borrowed` (no counts at all).
The suit and honour tables are one array ``T`` (honour rows after the
5**9 suit rows); the honour code kept in ``W[R_INFO, 3]`` already includes that offset.
Each row also holds, per drawn rank, the entries one more tile lowers
(:func:`draw_lowers`; ``T`` is :func:`mjsim.hand.tables.shape_table`).

Wild tiles (C-J1, :func:`load_wilds`): a hand holding ``w`` wilds is analysed
without them (the wild kinds zeroed) and every shanten here stays in *raw
units* — the value for the non-wild tiles alone.  For the standard form the
true shanten is raw - w (a wild stands for any missing tile; the need of the
non-wild part is always at least w, so no floor is needed); seven pairs and
thirteen orphans can be over-satisfied, so :func:`special_shanten` clamps
its raw value at ``floor + w`` (floor -1 for a complete-size hand, 0 for a
waiting one).  One decision shares one ``w``, so comparisons in raw units
are exact.  Wild kinds are never draw candidates for ukeire; each unseen
wild instead adds to every discard's ukeire (a drawn wild always improves).
"""

from __future__ import annotations

import numpy as np

from mjsim.hand.tables import SHAPE_LOWERS
from mjsim.sim.borrowing import kernel, njit_borrowed

BIG = 99
MAX_SETS = 5
NV = 2 * (MAX_SETS + 1)  # entries of a flat need vector
HONOUR_OFFSET = 5**9  # first honour row of T
WEIGHT = np.array([5 ** (8 - t % 9) for t in range(27)] + [5 ** (33 - t) for t in range(27, 34)], np.int64)
"""How much one tile of kind t adds to its component's base-5 code."""

# rows of W: need-vector slots (columns 0..NV-1) ...
S_VEC = 0  # 4: need vector per component of the analysed hand
S_PAIR = 4  # 6: convolution of two components, by pair index (PAIR_MEMBERS)
S_OTH = 10  # 4: reversed convolution of the other three components
S_REST = 14  # 4: reversed, per draw component: the hand after a discard without that component
S_TMP = 18  # 2: work vectors
S_CACHE = 20  # 34: ukeire cache, a component's vector after a discard
# ... and per-kind rows (columns 0..33)
R_INFO = 54  # 0..3 component codes, 4 kinds held, 5..10 pair slot current, 11..14 draw candidates per component,
#              15..19 seven-pairs / orphans counts of the analysed hand (see special_shanten),
#              20..23 per component the vector entries some draw candidate lowers,
#              24 wild tiles held (w), 25 tiles in the analysed (non-wild) hand, 26 unseen wild tiles,
#              27..30 per component the wild kinds (bits by rank), 31 wild state set (see load_wilds),
#              32..33 the value policy's pung counts (value.pung_counts)
R_HELD = 55  # kinds held, ascending (R_INFO[4] of them)
R_SH = 56  # shanten after discarding kind t (BIG: not a candidate)
R_DK = 57  # 4 rows: draw candidates of each component
R_IMASK = 61  # entries of its component's vector a draw of kind t lowers
R_CACHE_C = 62  # ukeire cache: component of entry e (-1 ends the list) ...
R_CACHE_U = 63  # ... and its ukeire from the other components
R_TIE = 64  # discards still tied in a tie-break (0/1)
R_MASK = 65  # discard kinds a policy may choose (0/1)
R_EVERY = 66  # all ones
R_AUX = 67  # per-kind integer score (ukeire of the tied discards)
R_SAFE = 68  # per-kind integer score (defensive safety, value ranks)
N_W = 70

# pair index of components {a, b}: 0 {0,1}, 1 {2,3}, 2 {0,2}, 3 {1,3}, 4 {0,3}, 5 {1,2};
# PAIR_REST[a, b] is the pair index of the two components other than a and b
PAIR_REST = np.array([[-1, 1, 3, 5], [1, -1, 4, 2], [3, 4, -1, 0], [5, 2, 0, -1]], np.int64)
PAIR_MEMBERS = np.array([[0, 1], [2, 3], [0, 2], [1, 3], [0, 3], [1, 2]], np.int64)
ORPHAN_BITS = np.array([0b100000001, 0b100000001, 0b100000001, 0b1111111], np.int64)  # per component


@kernel
def new_work():
    """A fresh work array (one per kernel call)."""
    W = np.zeros((N_W, 34), np.int64)
    W[R_EVERY, :] = 1
    return W


@njit_borrowed
def load_wilds(hand, i, wild, vis, G, W):
    """Prepare row ``i`` for its wild kinds (C-J1).  Without any: False (clearing what an earlier row
    left, so rows without wilds run exactly as before).  Else True, with ``G[0]`` = ``hand[i]`` minus
    its wild tiles (the hand the helpers then analyse) and ``W[R_INFO, 24..31]`` the wild tiles held,
    unseen wilds and the wild kinds per component."""
    found = False
    for t in range(34):
        if wild[i, t]:
            found = True
            break
    if not found:
        if W[R_INFO, 31]:
            for k in range(24, 32):
                W[R_INFO, k] = 0
        return False
    w = 0
    unseen = 0
    for c in range(4):
        W[R_INFO, 27 + c] = 0
    for t in range(34):
        if wild[i, t]:
            w += hand[i, t]
            unseen += max(0, 4 - vis[i, t])
            G[0, t] = 0
            c = t // 9
            W[R_INFO, 27 + c] |= 1 << (t - 9 * c)
        else:
            G[0, t] = hand[i, t]
    W[R_INFO, 24] = w
    W[R_INFO, 26] = unseen
    W[R_INFO, 31] = 1
    return True


@njit_borrowed
def draw_lowers(T, code, r):
    """Bits ``2 m + p`` of row ``code``'s vector that one more tile of rank ``r`` lowers (by one each)."""
    return np.int64(T[code, SHAPE_LOWERS + 2 * r]) | np.int64(T[code, SHAPE_LOWERS + 2 * r + 1]) << 8


@njit_borrowed
def load(W, slot, T, code):
    """Slot ``slot`` = table row ``code`` (all NV entries: fixed-length loops compile to straight-line
    code, which matters more here than skipping the entries beyond the sets needed)."""
    for j in range(NV):
        W[slot, j] = T[code, j]


@njit_borrowed
def _convolve_upto(W, a, b, out, top):
    for j in range(2 * top + 2):
        W[out, j] = BIG
    for m1 in range(top + 1):
        a0 = W[a, 2 * m1]
        a1 = W[a, 2 * m1 + 1]
        for m2 in range(top + 1 - m1):
            m = m1 + m2
            b0 = W[b, 2 * m2]
            W[out, 2 * m] = min(W[out, 2 * m], a0 + b0)
            W[out, 2 * m + 1] = min(W[out, 2 * m + 1], a1 + b0, a0 + W[b, 2 * m2 + 1])


@njit_borrowed
def convolve(W, a, b, out, sets):
    """Min-plus of slots ``a`` and ``b`` into slot ``out`` for m = 0..sets (entries above may be stale).
    The two constant bounds let the compiler unroll the loops (a 13- and a 16-tile hand)."""
    if sets <= 4:
        _convolve_upto(W, a, b, out, 4)
    else:
        _convolve_upto(W, a, b, out, MAX_SETS)


@njit_borrowed
def convolve_rev(W, a, b, out, sets):
    """Min-plus of slots ``a`` and ``b``, stored reversed for ``sets`` into ``out``:
    ``out[2 m + p] = conv[sets - m, 1 - p]``, BIG beyond m = sets (so closes need no bounds)."""
    convolve(W, a, b, S_TMP + 1, sets)
    for j in range(NV):
        m = j >> 1
        src = 2 * (sets - m) + 1 - (j & 1)
        W[out, j] = W[S_TMP + 1, src] if m <= sets else BIG


@njit_borrowed
def close_rev(W, a, r):
    """Need of the hand whose parts have vector slot ``a`` and reversed slot ``r``."""
    best = BIG
    for j in range(NV):
        best = min(best, W[a, j] + W[r, j])
    return best


@njit_borrowed
def close_tab(T, code, W, r):
    """Like :func:`close_rev` with the first part a table row."""
    best = BIG
    for j in range(NV):
        best = min(best, np.int64(T[code, j]) + W[r, j])
    return best


@njit_borrowed
def analyse(hand, hi, sets, T, W):
    """Codes, need vectors, (reversed) other-three convolutions and held kinds of ``hand[hi]``."""
    n = 0
    total = 0
    pairs_q = 0  # seven pairs, four of a kind = two pairs
    pairs_d = 0  # seven pairs, distinct kinds
    orphan_kinds = 0
    orphan_pairs = 0
    for c in range(4):
        start = 9 * c
        length = 9 if c < 3 else 7
        code = 0
        for r in range(length):
            k = hand[hi, start + r]
            code = code * 5 + k
            W[R_HELD, n] = start + r
            n += 1 if k > 0 else 0
            total += k
            pairs_q += k // 2
            pairs_d += 1 if k >= 2 else 0
            orphan = c == 3 or r == 0 or r == 8
            orphan_kinds += 1 if orphan and k >= 1 else 0
            orphan_pairs += 1 if orphan and k >= 2 else 0
        W[R_INFO, c] = code + (HONOUR_OFFSET if c == 3 else 0)
        load(W, S_VEC + c, T, W[R_INFO, c])
    W[R_INFO, 4] = n
    W[R_INFO, 15] = pairs_q
    W[R_INFO, 16] = pairs_d
    W[R_INFO, 17] = n
    W[R_INFO, 18] = orphan_kinds
    W[R_INFO, 19] = orphan_pairs
    W[R_INFO, 25] = total
    for k in range(6):
        W[R_INFO, 5 + k] = 0
    convolve(W, S_VEC + 0, S_VEC + 1, S_PAIR + 0, sets)
    convolve(W, S_VEC + 2, S_VEC + 3, S_PAIR + 1, sets)
    W[R_INFO, 5] = 1
    W[R_INFO, 6] = 1
    convolve_rev(W, S_VEC + 1, S_PAIR + 1, S_OTH + 0, sets)
    convolve_rev(W, S_VEC + 0, S_PAIR + 1, S_OTH + 1, sets)
    convolve_rev(W, S_PAIR + 0, S_VEC + 3, S_OTH + 2, sets)
    convolve_rev(W, S_PAIR + 0, S_VEC + 2, S_OTH + 3, sets)


@njit_borrowed
def held_need(W, sets):
    """Need of the analysed hand itself (``sets`` sets + a pair)."""
    return close_rev(W, S_VEC + 3, S_OTH + 3)


@njit_borrowed
def hand_shanten(hand, hi, sets, T, W):
    """Standard-form shanten of ``hand[hi]`` for ``sets`` sets + a pair (re-analyses ``W``)."""
    analyse(hand, hi, sets, T, W)
    return held_need(W, sets) - 1


@njit_borrowed
def pair_slot(W, k, sets):
    """Slot of the convolution of the two components of pair index ``k`` (computed on first use)."""
    if W[R_INFO, 5 + k] == 0:
        convolve(W, S_VEC + PAIR_MEMBERS[k, 0], S_VEC + PAIR_MEMBERS[k, 1], S_PAIR + k, sets)
        W[R_INFO, 5 + k] = 1
    return S_PAIR + k


@njit_borrowed
def special_on(forms, sets, own_melds):
    """Whether seven pairs / thirteen orphans can still be made (a concealed 4-set hand)."""
    return (forms & 6) != 0 and sets == 4 and own_melds == 0


@njit_borrowed
def _kind_change(u, old, new):
    """How the five seven-pairs / orphans counts (``W[R_INFO, 15:20]``) move when kind ``u`` goes from
    ``old`` to ``new`` copies: pairs (quads as two), pair kinds, kinds, orphan kinds, orphan pair kinds."""
    orphan = u >= 27 or u % 9 == 0 or u % 9 == 8
    pairs = new // 2 - old // 2
    pair_kinds = (1 if new >= 2 else 0) - (1 if old >= 2 else 0)
    kinds = (1 if new >= 1 else 0) - (1 if old >= 1 else 0)
    return pairs, pair_kinds, kinds, kinds if orphan else 0, pair_kinds if orphan else 0


@njit_borrowed
def _special_value(forms, pairs, pair_kinds, kinds, orphan_kinds, orphan_pairs, wilds, n_tiles):
    """Seven-pairs / thirteen-orphans shanten (raw units, see the module notes) from the five counts."""
    best = BIG
    if forms & 2:
        if forms & 8:
            best = 6 - pair_kinds + max(0, 7 - kinds)
        else:
            best = 6 - min(7, pairs)
    if forms & 4:
        best = min(best, 13 - orphan_kinds - (1 if orphan_pairs > 0 else 0))
    if wilds > 0:  # raw units: the true value raw - w cannot go below -1 (complete size) or 0 (waiting)
        best = max(best, wilds + (-1 if n_tiles % 3 == 2 else 0))
    return best


@njit_borrowed
def special_after(forms, counts, out_kind, out_held, in_kind, in_held):
    """Seven-pairs / orphans shanten of the analysed hand minus ``out_kind`` plus ``in_kind`` (-1: none),
    holding ``out_held`` / ``in_held`` copies of them; ``counts`` = the tuple of :func:`special_counts`.

    Scalars only, so the loops over (discard, draw) pairs call it without touching any array."""
    pairs, pair_kinds, kinds, orphan_kinds, orphan_pairs, wilds, n_tiles = counts
    if out_kind == in_kind:
        out_kind = in_kind = -1
    if out_kind >= 0:
        a, b, c, d, e = _kind_change(out_kind, out_held, out_held - 1)
        pairs, pair_kinds, kinds, orphan_kinds, orphan_pairs = (
            pairs + a, pair_kinds + b, kinds + c, orphan_kinds + d, orphan_pairs + e)  # fmt: skip
        n_tiles -= 1
    if in_kind >= 0:
        a, b, c, d, e = _kind_change(in_kind, in_held, in_held + 1)
        pairs, pair_kinds, kinds, orphan_kinds, orphan_pairs = (
            pairs + a, pair_kinds + b, kinds + c, orphan_kinds + d, orphan_pairs + e)  # fmt: skip
        n_tiles += 1
    return _special_value(forms, pairs, pair_kinds, kinds, orphan_kinds, orphan_pairs, wilds, n_tiles)


@njit_borrowed
def special_counts(W):
    """The analysed hand's seven-pairs / orphans counts, wild tiles held and tile count (all wilds
    included), read once per decision for :func:`special_after`."""
    wilds = W[R_INFO, 24]
    return (W[R_INFO, 15], W[R_INFO, 16], W[R_INFO, 17], W[R_INFO, 18], W[R_INFO, 19], wilds,
            W[R_INFO, 25] + wilds)  # fmt: skip


@njit_borrowed
def special_shanten(hand, hi, forms, out_kind, in_kind, W):
    """Seven-pairs / thirteen-orphans shanten of the analysed ``hand[hi]`` minus ``out_kind`` plus
    ``in_kind`` (-1: none), from the counts :func:`analyse` keeps (forms bits as
    :func:`mjsim.hand.fast.shanten_of`; 8: seven pairs of distinct kinds only)."""
    out_held = hand[hi, out_kind] if out_kind >= 0 else 0
    in_held = hand[hi, in_kind] if in_kind >= 0 else 0
    return special_after(forms, special_counts(W), out_kind, out_held, in_kind, in_held)


@njit_borrowed
def removal_shanten(sets, t, T, W):
    """Standard shanten of the analysed hand minus one ``t`` (a discard, or an added kong)."""
    c = t // 9
    return close_tab(T, W[R_INFO, c] - WEIGHT[t], W, S_OTH + c) - 1


@njit_borrowed
def kong_shanten(sets, t, T, W):
    """Shanten after a concealed kong of ``t`` (four held): one set fewer, a replacement draw to come."""
    c = t // 9
    code = W[R_INFO, c] - 4 * WEIGHT[t]
    best = BIG
    for j in range(2 * sets):  # one set fewer: the reversed vector read two entries on
        best = min(best, np.int64(T[code, j]) + W[S_OTH + c, j + 2])
    return best - 1


@njit_borrowed
def discard_shanten(hand, hi, sets, special, forms, T, W):
    """Shanten after each held discard with ``W[R_MASK]`` set into ``W[R_SH]`` (BIG elsewhere);
    returns the best.  ``hand[hi]`` holds 3 * sets + 2 tiles and is analysed."""
    best = BIG
    counts = special_counts(W)
    for t in range(34):
        W[R_SH, t] = BIG
    for e in range(W[R_INFO, 4]):
        t = W[R_HELD, e]
        if W[R_MASK, t] == 0:
            continue
        c = t // 9
        s = close_tab(T, W[R_INFO, c] - WEIGHT[t], W, S_OTH + c) - 1
        if special:
            s = min(s, special_after(forms, counts, t, hand[hi, t], -1, 0))
        W[R_SH, t] = s
        best = min(best, s)
    return best


@njit_borrowed
def start_ukeire(hand, hi, vis, vi, sets, special, forms, T, W):
    """Prepare :func:`ukeire_marked` for one decision (hand analysed): the draw candidates — kinds within two
    ranks of a held suited tile, held honours, orphans when thirteen orphans counts, every kind when
    wilds are held, never a wild kind or a kind with no unseen copy — and the vector entries each draw
    lowers (read from ``T``, :func:`draw_lowers`)."""
    for c in range(4):
        start = 9 * c
        length = 9 if c < 3 else 7
        held = 0
        out = 0
        for r in range(length):
            held |= (1 if hand[hi, start + r] > 0 else 0) << r
            out |= (1 if vis[vi, start + r] >= 4 or hand[hi, start + r] >= 4 else 0) << r
        out |= W[R_INFO, 27 + c]  # wild kinds: counted apart (W[R_INFO, 26])
        near = held
        if c < 3:
            near = (held | held << 1 | held << 2 | held >> 1 | held >> 2) & 0x1FF
        if special and forms & 4:
            near |= ORPHAN_BITS[c]
        if W[R_INFO, 24] > 0:  # a wild can pair any lone tile drawn: every kind may help
            near = (1 << length) - 1
        near &= ~out
        n = 0
        lowered = 0
        for r in range(length):
            if (near >> r) & 1:
                k = start + r
                W[R_DK + c, n] = k
                n += 1
                bits = draw_lowers(T, W[R_INFO, c], r)
                W[R_IMASK, k] = bits
                lowered |= bits
        W[R_INFO, 11 + c] = n
        W[R_INFO, 20 + c] = lowered


@njit_borrowed
def _tight_bits(sets, c, x, goal, W):
    """Entries of component ``x``'s vector that are tight (lie on an optimal split) for the hand after a
    discard from component ``c`` (that component's vector in S_TMP) whose need is ``goal``.

    Only entries some draw lowers (``W[R_INFO, 20 + x]``) are checked; each check is one entry of the
    convolution of the discard's component with the remaining pair of components.
    """
    ps = pair_slot(W, PAIR_REST[c, x], sets)
    lowered = W[R_INFO, 20 + x]
    tight = 0
    for m in range(sets + 1):
        mm = sets - m
        for p in range(2):
            j = 2 * m + p
            if not (lowered >> j) & 1 or W[S_VEC + x, j] > goal:
                continue
            r = BIG
            if p == 1:  # the pair lies elsewhere
                for a in range(mm + 1):
                    r = min(r, W[S_TMP, 2 * a] + W[ps, 2 * (mm - a)])
            else:
                for a in range(mm + 1):
                    r = min(r, W[S_TMP, 2 * a + 1] + W[ps, 2 * (mm - a)], W[S_TMP, 2 * a] + W[ps, 2 * (mm - a) + 1])
            if W[S_VEC + x, j] + r == goal:
                tight |= 1 << j
    return tight


@njit_borrowed
def _cross_special(hand, hi, vis, vi, sets, d, standard, special, forms, W):
    """Ukeire outside ``d``'s component when seven pairs / orphans count: ``standard`` and ``special`` are
    the two shanten values after the discard (its component's vector in S_TMP).

    One draw lowers either value by at most one, so only a form whose value is the minimum can improve
    the hand: a draw counts when it lowers a tight entry of the standard form (as in
    :func:`_cross_tight`) or the special shanten, whichever of the two forms is at the minimum.
    """
    c = d // 9
    target = min(standard, special)
    counts = special_counts(W)
    held_d = hand[hi, d]
    total = 0
    for x in range(4):
        if x == c or W[R_INFO, 11 + x] == 0:
            continue
        tight = _tight_bits(sets, c, x, standard + 1, W) if standard == target else 0
        for e in range(W[R_INFO, 11 + x]):
            k = W[R_DK + x, e]
            lowers = (W[R_IMASK, k] & tight) != 0
            if not lowers and special == target:
                lowers = special_after(forms, counts, d, held_d, k, hand[hi, k]) < target
            total += (4 - vis[vi, k]) if lowers else 0
    return total


@njit_borrowed
def _cross_tight(vis, vi, sets, c, target, W):
    """Ukeire outside component ``c`` (its vector after the discard in S_TMP): a draw counts when it
    lowers an entry of its component that is tight on an optimal split of the hand after the discard."""
    total = 0
    for x in range(4):
        if x == c or W[R_INFO, 11 + x] == 0:
            continue
        tight = _tight_bits(sets, c, x, target + 1, W)
        if tight:
            for e in range(W[R_INFO, 11 + x]):
                k = W[R_DK + x, e]
                total += (4 - vis[vi, k]) if W[R_IMASK, k] & tight else 0
    return total


@njit_borrowed
def ukeire_marked(hand, hi, vis, vi, sets, special, forms, T, W):
    """``W[R_AUX, d]`` = ukeire of every discard ``d`` marked in ``W[R_TIE]``: the unseen tiles
    (4 - visible) among the draw candidates that lower the shanten of ``hand[hi]`` minus ``d``
    (hand analysed, :func:`start_ukeire` called for this decision).  Returns the largest.

    A draw from the discard's own component lowers the need exactly when it
    lowers (:func:`draw_lowers`) an entry that is tight for the hand after the discard: an
    entry moves by at most one, so no table row per draw is read.

    The cross-component part depends on ``d`` only through its component's
    vector, so it is cached per distinct vector (isolated tiles of one
    component usually share it).  One call for all discards: every call
    boundary costs numba atomic reference counts on the array arguments.
    """
    top = -1
    W[R_CACHE_C, 0] = -1
    counts = special_counts(W)
    for d in range(34):
        if W[R_TIE, d] == 0:
            continue
        c = d // 9
        code = W[R_INFO, c] - WEIGHT[d]
        load(W, S_TMP, T, code)
        need = close_rev(W, S_TMP, S_OTH + c)
        standard = need - 1
        tight = 0
        for j in range(NV):
            tight |= (1 if W[S_TMP, j] + W[S_OTH + c, j] == need else 0) << j
        special_d = special_after(forms, counts, d, hand[hi, d], -1, 0) if special else BIG
        target = min(standard, special_d)
        total = W[R_INFO, 26]  # every unseen wild improves the hand
        for e in range(W[R_INFO, 11 + c]):
            k = W[R_DK + c, e]
            s = standard - 1 if draw_lowers(T, code, k - 9 * c) & tight else standard
            if special and s >= target:
                s = min(s, special_after(forms, counts, d, hand[hi, d], k, hand[hi, k]))
            total += (4 - vis[vi, k]) if s < target else 0
        if special:  # seven pairs / orphans depend on the exact discard: no cache
            total += _cross_special(hand, hi, vis, vi, sets, d, standard, special_d, forms, W)
        else:
            e = 0
            found = False
            while W[R_CACHE_C, e] >= 0:  # entries in fill order, ended by component -1
                if W[R_CACHE_C, e] == c:
                    same = True
                    for j in range(NV):
                        if W[S_CACHE + e, j] != W[S_TMP, j]:
                            same = False
                            break
                    if same:
                        total += W[R_CACHE_U, e]
                        found = True
                        break
                e += 1
            if not found:
                cross = _cross_tight(vis, vi, sets, c, target, W)
                total += cross
                if e + 1 < 34:
                    W[R_CACHE_C, e] = c
                    W[R_CACHE_U, e] = cross
                    for j in range(NV):
                        W[S_CACHE + e, j] = W[S_TMP, j]
                    W[R_CACHE_C, e + 1] = -1
        W[R_AUX, d] = total
        top = max(top, total)
    return top


@njit_borrowed
def terminal_rank(t):
    """2 for honours, 1 for terminals, 0 for middle tiles (discard preference on ties)."""
    if t >= 27:
        return 2
    r = t % 9
    return 1 if r == 0 or r == 8 else 0
