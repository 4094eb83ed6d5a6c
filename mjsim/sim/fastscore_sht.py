"""Compiled 水头 (shuitou) scorer: 台 on counts (SHT-T1..T4), like the reference.

The reference (``mjsim.rules.scoring.shuitou``) tries every 财神 assignment
and every reading of the hand.  Here one search does the same work: it takes
the lowest kind that still holds a real tile and puts it in a pung, the
pair or one of the three chows through it, filling the gaps with 财神
(which real tile of a kind sits in which group never matters, so reals are
used first).  The 财神 left when every real tile is placed form sets and a
pair of their own: a 财神汇 (SHT-T2 ``caishen_set``) or a pung or pair of
any kind, of which only the class matters (a special kind, a wind, an
honour, a suit).  Each finished reading is scored and the best kept: the
highest total, then the highest base 台.  The whole search runs only for a
hand that the wild-tile tables say is a win.

Context the engine passes in ``ctx`` (int64, ``CTX_LEN``): the flower groups
held (``CTX_FLOWERS`` red, black, 白板), the 财神 kinds (``CTX_WILDS``, -1
none), whether the one 财神 kind has only two copies in play
(``CTX_ONE_KIND_PAIR``, SHT-T2 杀猪), and, out, the chosen reading's base 台
(``CTX_BASE``).  Readings shared with the reference are in
``docs/shuitou_readings.md``, restated in the reference module's docstring.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mjsim.hand.fast import standard_wilds_needed
from mjsim.sim.borrowing import njit_borrowed, stack_array
from mjsim.sim.constants import MELD_CHOW, MELD_CKONG, MELD_KONG, MELD_PUNG
from mjsim.sim.fastscore import FIRST_TURN, KONG_REPLACEMENT, N_PATTERNS, NOT_A_WIN, ROBBED_KONG, SELF_DRAW, P

SPLIT_TILE = 64  # win situation bit: a win on a 分牌 tile (SHT-P7)

CTX_LEN = 8
CTX_FLOWERS = 0  # 0..2: tiles held of the red, black and 白板 flower groups
CTX_WILDS = 3  # 3, 4: the 财神 kinds, -1 none
CTX_ONE_KIND_PAIR = 5  # 1: one 财神 kind with two copies in play (both turned tiles of one kind)
CTX_BASE = 6  # out: base 台 of the chosen reading

# SHT-T1 values
CAISHEN_SUITED = np.array([0, 2, 5, 8], np.int64)
CAISHEN_HONOUR = np.array([0, 3, 7, 11], np.int64)
FLOWER_GROUP = np.array([0, 2, 3, 5, 8], np.int64)
KONG_EXPOSED, KONG_CONCEALED, KONG_SPECIAL_EXTRA = 3, 4, 1
# SHT-T2 values
SELF_DRAW_TAI, HEAVENLY_TAI, EARTHLY_TAI, HARD_TAI, PLAIN_TAI = 1, 13, 13, 7, 13
ALL_HONOURS_TAI, FULL_FLUSH_TAI, HALF_FLUSH_TAI, ALL_PUNGS_TAI, FOUR_WINDS_TAI = 26, 13, 7, 7, 13
KONG_FLOWER_EXPOSED, KONG_FLOWER_CONCEALED, ROBBED_KONG_TAI, CAISHEN_SET_TAI, SPLIT_TAI = 7, 8, 3, 7, 3
KILL_PIG_TAI = np.array([0, 0, 0, 0, 13, 30, 100], np.int64)

GREEN, RED = 32, 33
# PATTERN_IDS indices of the 台 ids (module constants, so compiled code reads them)
I_ALL_HONOURS = P["all_honours"]
I_ALL_PUNGS = P["all_pungs"]
I_CAISHEN = P["caishen"]
I_CAISHEN_HONOUR = P["caishen_honour"]
I_CAISHEN_SET = P["caishen_set"]
I_EARTHLY = P["earthly"]
I_FLOWERS = P["flowers"]
I_FOUR_WINDS = P["four_winds"]
I_FULL_FLUSH = P["full_flush"]
I_HALF_FLUSH = P["half_flush"]
I_HARD = P["hard"]
I_HEAVENLY = P["heavenly"]
I_KILL_PIG = P["kill_pig"]
I_KONG = P["kong"]
I_KONG_FLOWER = P["kong_flower"]
I_PLAIN = P["plain"]
I_ROBBED_KONG = P["robbed_kong"]
I_SELF_DRAW = P["self_draw"]
I_SPECIAL_PAIR = P["special_pair"]
I_SPECIAL_PUNG = P["special_pung"]
I_SPLIT_TILE_WIN = P["split_tile_win"]

# the search's best reading: B_TOTAL, B_BASE, then the reading facts the patterns are read from
B_TOTAL, B_BASE, B_SPECIAL_PUNGS, B_SPECIAL_PAIR, B_CHOW, B_TRIPLET, B_SUITS, B_HONOUR, B_WINDS, B_SET = range(10)
N_BEST = 10
# facts of the hand that no reading changes, worked out once per score
F_BASE, F_WINNER, F_SUITS, F_HONOUR, F_WINDS, F_CHOW, F_PLAIN_OK, F_SEAT_WIND, F_WHITE_OK, F_THRESHOLD, F_FACTOR = (
    range(11)
)
N_FIXED = 11


class ShtParams(NamedTuple):
    """A ruleset's 水头 scoring scalars (SHT-T3, SHT-H3)."""

    double_from: int
    double_factor: int
    white_is_flower: bool


def sht_params(ruleset) -> ShtParams:
    return ShtParams(ruleset.double_from_tai, ruleset.double_factor, ruleset.white_is_flower)


@njit_borrowed
def _special(t, seat_wind):
    """SHT-T1 special kinds: the seat wind, 发 and 中."""
    return t == seat_wind or t == GREEN or t == RED


@njit_borrowed
def _colour(t, suits, honour):
    if t < 27:
        return suits | (1 << (t // 9)), honour
    return suits, 1


@njit_borrowed
def _finish(fixed, sp, spair, chow, triplet, suits, honour, winds, caishen_set, best):
    """Score one complete reading and keep it in ``best`` if it beats it (total, then base 台)."""
    base = fixed[F_BASE] + sp + spair
    winner = fixed[F_WINNER]
    suits |= fixed[F_SUITS]
    honour |= fixed[F_HONOUR]
    winds |= fixed[F_WINDS]
    chow |= fixed[F_CHOW]
    if fixed[F_PLAIN_OK] and triplet == 0:
        winner += PLAIN_TAI
    n_suits = (suits & 1) + ((suits >> 1) & 1) + ((suits >> 2) & 1)
    if n_suits == 0 and honour:
        winner += ALL_HONOURS_TAI
    elif n_suits == 1:
        winner += HALF_FLUSH_TAI if honour else FULL_FLUSH_TAI
    if chow == 0:
        winner += ALL_PUNGS_TAI
    if winds == 15:
        winner += FOUR_WINDS_TAI
    if caishen_set:
        winner += CAISHEN_SET_TAI
    total = base + winner
    if total >= fixed[F_THRESHOLD]:
        total *= fixed[F_FACTOR]
    if total > best[B_TOTAL] or (total == best[B_TOTAL] and base > best[B_BASE]):
        best[B_TOTAL] = total
        best[B_BASE] = base
        best[B_SPECIAL_PUNGS] = sp
        best[B_SPECIAL_PAIR] = spair
        best[B_CHOW] = chow
        best[B_TRIPLET] = triplet
        best[B_SUITS] = suits
        best[B_HONOUR] = honour
        best[B_WINDS] = winds
        best[B_SET] = caishen_set


NONE = 99  # an absent group slot in _leaf
CAISHEN_SET = -1  # the class of a 财神汇


@njit_borrowed
def _wild_group(fixed, cls, sp, spair, suits, honour, winds, is_pair):
    """A group of 财神 only standing for kind class ``cls``: 0-2 a suit, 3-9 the honour 27 + (cls - 3)."""
    if cls < 3:
        return sp, spair, suits | (1 << cls), honour, winds
    t = 24 + cls
    if _special(t, fixed[F_SEAT_WIND]):
        if is_pair:
            spair += 1
        else:
            sp += 1
    if t <= 30:
        winds |= 1 << (t - 27)
    return sp, spair, suits, 1, winds


@njit_borrowed
def _classes(slot_used, first, white_ok, cls):
    """Whether class ``cls`` may fill a slot (``NONE`` only fills an unused slot)."""
    if not slot_used:
        return cls == NONE
    if cls == NONE or cls < first:
        return False
    return white_ok or cls != 31 - 24  # 白板 is a flower: no 财神 stands for it


@njit_borrowed
def _leaf(fixed, wilds, pair_used, sp, spair, chow, triplet, suits, honour, winds, best):
    """Every real tile is placed: the ``wilds`` left make sets (one 财神汇, or pungs) and, if needed, the pair."""
    if pair_used:
        if wilds % 3:
            return
        n_sets, n_pair = wilds // 3, 0
    else:
        if wilds < 2 or (wilds - 2) % 3:
            return
        n_sets, n_pair = (wilds - 2) // 3, 1
    white_ok = fixed[F_WHITE_OK] != 0
    candidates = (NONE, CAISHEN_SET, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
    for a in candidates:
        if not _classes(n_sets >= 1, CAISHEN_SET, white_ok, a):
            continue
        for b in candidates:
            # the second set's class from the first's on (order never matters), and one 财神汇 at most
            if not _classes(n_sets >= 2, max(a, 0) if a != NONE else 0, white_ok, b):
                continue
            for c in candidates:
                if not _classes(n_pair == 1, 0, white_ok, c):
                    continue
                s1, q1, u1, h1, w1 = sp, spair, suits, honour, winds
                if a != NONE and a != CAISHEN_SET:
                    s1, q1, u1, h1, w1 = _wild_group(fixed, a, s1, q1, u1, h1, w1, False)
                if b != NONE:
                    s1, q1, u1, h1, w1 = _wild_group(fixed, b, s1, q1, u1, h1, w1, False)
                if c != NONE:
                    s1, q1, u1, h1, w1 = _wild_group(fixed, c, s1, q1, u1, h1, w1, True)
                pungs = 1 if (b != NONE or (a != NONE and a != CAISHEN_SET)) else 0
                _finish(fixed, s1, q1, chow, triplet | pungs, u1, h1, w1, 1 if a == CAISHEN_SET else 0, best)


# a search frame: the lowest real kind, 财神 left, whether the pair is placed, and the reading's facts so far
S_T, S_WILDS, S_PAIR, S_SP, S_SPAIR, S_CHOW, S_TRIPLET, S_SUITS, S_HONOUR, S_WINDS = range(10)
N_FIELDS = 10
MAX_DEPTH = 8  # five sets and the pair, and the finished reading
FRAME_CELLS = MAX_DEPTH * N_FIELDS
TOOK_CELLS = MAX_DEPTH * 3


@njit_borrowed
def _search(c, wilds, fixed, best):
    """Every reading of the real tiles ``c`` with ``wilds`` 财神 (see the module docstring), scored into ``best``.

    A depth-first search with an explicit stack (numba cannot cache a recursive function): frame ``d`` puts
    the lowest real tile in one group per option (0 a pung, 1 the pair, 2-4 the chows from t - 2, t - 1, t);
    ``took[d]`` holds what the option took from ``c`` (three counts from kind ``took_low[d]``), given back
    before the next option."""
    frame = stack_array(FRAME_CELLS, np.int64)  # frame d's fields at d * N_FIELDS
    option = stack_array(MAX_DEPTH, np.int64)
    took = stack_array(TOOK_CELLS, np.int64)  # three counts per frame
    took_low = stack_array(MAX_DEPTH, np.int64)
    for i in range(FRAME_CELLS):
        frame[i] = 0
    for d in range(MAX_DEPTH):
        option[d] = 0
        took_low[d] = -1
    frame[S_WILDS] = wilds
    seat_wind = fixed[F_SEAT_WIND]
    d = 0
    while d >= 0:
        f = frame[d * N_FIELDS : (d + 1) * N_FIELDS]
        if took_low[d] >= 0:  # give back what the last option took
            for i in range(3):
                c[took_low[d] + i] += took[3 * d + i]
            took_low[d] = -1
        if option[d] == 0:
            t = f[S_T]
            while t < 34 and c[t] == 0:
                t += 1
            f[S_T] = t
            if t == 34:
                _leaf(fixed, f[S_WILDS], f[S_PAIR] != 0, f[S_SP], f[S_SPAIR], f[S_CHOW], f[S_TRIPLET], f[S_SUITS],
                      f[S_HONOUR], f[S_WINDS], best)  # fmt: skip
                d -= 1
                continue
        o = option[d]
        option[d] += 1
        if o > 4:
            option[d] = 0
            d -= 1
            continue
        t = f[S_T]
        left = f[S_WILDS]
        if o == 0:  # a pung of t
            k = min(c[t], 3)
            low, n0, n1, n2, need = t, k, 0, 0, 3 - k
        elif o == 1:  # the pair
            if f[S_PAIR]:
                continue
            k = min(c[t], 2)
            low, n0, n1, n2, need = t, k, 0, 0, 2 - k
        else:  # a chow through t: t is the lowest real tile, so the kinds below it are 财神
            if t >= 27:
                continue
            low = t - (4 - o)
            if low < t - t % 9 or low % 9 > 6:
                continue
            n0 = 1 if low >= t and c[low] > 0 else 0
            n1 = 1 if low + 1 >= t and c[low + 1] > 0 else 0
            n2 = 1 if c[low + 2] > 0 else 0
            need = 3 - n0 - n1 - n2
        if need > left:
            continue
        took_low[d] = low
        took[3 * d], took[3 * d + 1], took[3 * d + 2] = n0, n1, n2
        c[low] -= n0
        c[low + 1] -= n1
        c[low + 2] -= n2
        child = frame[(d + 1) * N_FIELDS : (d + 2) * N_FIELDS]
        for i in range(N_FIELDS):
            child[i] = f[i]
        child[S_WILDS] = left - need
        child[S_SUITS], child[S_HONOUR] = _colour(t, f[S_SUITS], f[S_HONOUR])
        if 27 <= t <= 30:
            child[S_WINDS] |= 1 << (t - 27)
        special = 1 if _special(t, seat_wind) else 0
        if o == 0:
            child[S_SP] += special
            child[S_TRIPLET] = 1
        elif o == 1:
            child[S_PAIR] = 1
            child[S_SPAIR] += special
        else:
            child[S_CHOW] = 1
        option[d + 1] = 0
        took_low[d + 1] = -1
        d += 1


@njit_borrowed
def _held_base(held, meld_kind, meld_tile, n_melds, seat_wind, ctx, found):
    """SHT-T1 base 台 every player counts alike: 财神 held per kind, flower groups, kongs and exposed pungs of a
    special kind, each occurrence counted into ``found``."""
    base = 0
    for k in range(2):  # 财神 held, per kind
        kind = ctx[CTX_WILDS + k]
        if kind >= 0 and held[kind] > 0:
            n = min(held[kind], 3)
            if kind < 27:
                base += CAISHEN_SUITED[n]
                found[I_CAISHEN] += 1
            else:
                base += CAISHEN_HONOUR[n]
                found[I_CAISHEN_HONOUR] += 1
    for g in range(3):  # flower groups
        n = ctx[CTX_FLOWERS + g]
        if n > 0:
            base += FLOWER_GROUP[min(n, 4)]
            found[I_FLOWERS] += 1
    for m in range(n_melds):
        kind = meld_kind[m]
        t = meld_tile[m]
        if kind == MELD_PUNG and _special(t, seat_wind):  # a special pung, exposed
            base += 1
            found[I_SPECIAL_PUNG] += 1
        elif kind == MELD_KONG or kind == MELD_CKONG:
            base += (KONG_EXPOSED if kind == MELD_KONG else KONG_CONCEALED) + (
                KONG_SPECIAL_EXTRA if _special(t, seat_wind) else 0
            )
            found[I_KONG] += 1
    return base


@njit_borrowed
def _fixed_facts(held, wilds, meld_kind, meld_tile, n_melds, flags, seat_offset, params, ctx, fixed, found):
    """Into ``fixed``: the 台 no reading changes (the SHT-T1 base every player counts; SHT-T2 the win
    situation), counted into ``found``, and the melds' colours, winds and chows."""
    seat_wind = 27 + seat_offset
    base = _held_base(held, meld_kind, meld_tile, n_melds, seat_wind, ctx, found)
    suits = 0
    honour = 0
    winds = 0
    chow = 0
    pung_melds = 0
    last_kong = -1
    for m in range(n_melds):
        kind = meld_kind[m]
        t = meld_tile[m]
        if kind == MELD_CHOW:
            chow = 1
            suits |= 1 << (t // 9)
            continue
        pung_melds += 1
        suits, honour = _colour(t, suits, honour)
        if 27 <= t <= 30:
            winds |= 1 << (t - 27)
        if kind == MELD_KONG or kind == MELD_CKONG:
            last_kong = m
    winner = 0
    self_draw = (flags & SELF_DRAW) != 0
    if self_draw:  # SHT-T2 自摸 (a kong replacement and a 分牌 tile are drawn too)
        winner += SELF_DRAW_TAI
        found[I_SELF_DRAW] += 1
    if flags & FIRST_TURN:
        if seat_offset == 0 and self_draw:
            winner += HEAVENLY_TAI
            found[I_HEAVENLY] += 1
        elif seat_offset != 0 and not self_draw and not flags & ROBBED_KONG:
            winner += EARTHLY_TAI
            found[I_EARTHLY] += 1
    if wilds == 0:  # SHT-T2 硬牌
        winner += HARD_TAI
        found[I_HARD] += 1
    if flags & KONG_REPLACEMENT and last_kong >= 0:  # SHT-T2 杠上开花
        t = meld_tile[last_kong]
        winner += KONG_FLOWER_EXPOSED if meld_kind[last_kong] == MELD_KONG else KONG_FLOWER_CONCEALED
        if t == RED or t == seat_wind:
            winner += 1
        found[I_KONG_FLOWER] += 1
    if flags & ROBBED_KONG:
        winner += ROBBED_KONG_TAI
        found[I_ROBBED_KONG] += 1
    most = 0  # SHT-T2 杀猪
    for k in range(2):
        kind = ctx[CTX_WILDS + k]
        if kind >= 0:
            most = max(most, held[kind])
    if (wilds >= 4 and most >= 3) or (ctx[CTX_ONE_KIND_PAIR] and wilds == 2):
        winner += KILL_PIG_TAI[min(wilds, 6)] if wilds >= 4 else KILL_PIG_TAI[4]
        found[I_KILL_PIG] += 1
    if flags & SPLIT_TILE:
        winner += SPLIT_TAI
        found[I_SPLIT_TILE_WIN] += 1
    no_flowers = ctx[CTX_FLOWERS] + ctx[CTX_FLOWERS + 1] + ctx[CTX_FLOWERS + 2] == 0
    fixed[F_BASE] = base
    fixed[F_WINNER] = winner
    fixed[F_SUITS] = suits
    fixed[F_HONOUR] = honour
    fixed[F_WINDS] = winds
    fixed[F_CHOW] = chow
    fixed[F_PLAIN_OK] = 1 if (wilds == 0 and no_flowers and pung_melds == 0) else 0
    fixed[F_SEAT_WIND] = seat_wind
    fixed[F_WHITE_OK] = 0 if params.white_is_flower else 1
    fixed[F_THRESHOLD] = params.double_from
    fixed[F_FACTOR] = params.double_factor


@njit_borrowed
def score_shuitou(real, wilds, held, meld_kind, meld_tile, n_melds, flags, seat_offset, params, tb, found, ctx):
    """The winner's total 台 (SHT-T3, after doubling) of its best reading (SHT-T4), or ``NOT_A_WIN``.

    ``real``: concealed non-财神 tiles incl. the winning tile; ``wilds``: 财神 held; ``held``: every concealed
    tile, 财神 at face value; ``ctx``: see the module docstring (``CTX_BASE`` receives the base 台)."""
    sets = 5 - n_melds
    n = 0
    for t in range(34):
        n += real[t]
    if n + wilds != 3 * sets + 2:
        return NOT_A_WIN
    if standard_wilds_needed(real, tb.suit_exact, tb.honour_exact) > wilds:
        return NOT_A_WIN
    for i in range(found.size):
        found[i] = 0
    fixed = stack_array(N_FIXED, np.int64)
    _fixed_facts(held, wilds, meld_kind, meld_tile, n_melds, flags, seat_offset, params, ctx, fixed, found)
    best = stack_array(N_BEST, np.int64)
    for i in range(N_BEST):
        best[i] = -1
    c = stack_array(36, np.int64)  # two spare kinds: a take is written over three kinds from its lowest
    for t in range(34):
        c[t] = real[t]
    c[34] = c[35] = 0
    _search(c, wilds, fixed, best)
    if best[B_TOTAL] < 0:
        return NOT_A_WIN
    found[I_SPECIAL_PUNG] += best[B_SPECIAL_PUNGS]
    found[I_SPECIAL_PAIR] += best[B_SPECIAL_PAIR]
    if fixed[F_PLAIN_OK] and best[B_TRIPLET] == 0:
        found[I_PLAIN] += 1
    suits = best[B_SUITS]
    n_suits = (suits & 1) + ((suits >> 1) & 1) + ((suits >> 2) & 1)
    if n_suits == 0 and best[B_HONOUR]:
        found[I_ALL_HONOURS] += 1
    elif n_suits == 1:
        found[I_HALF_FLUSH if best[B_HONOUR] else I_FULL_FLUSH] += 1
    if best[B_CHOW] == 0:
        found[I_ALL_PUNGS] += 1
    if best[B_WINDS] == 15:
        found[I_FOUR_WINDS] += 1
    if best[B_SET]:
        found[I_CAISHEN_SET] += 1
    ctx[CTX_BASE] = best[B_BASE]
    return best[B_TOTAL]


@njit_borrowed
def base_tai_of(hand, wilds, meld_kind, meld_tile, n_melds, seat_offset, ctx):
    """A non-winner's base 台 (SHT-T1): 财神, flowers, kongs and exposed special pungs as for a winner, and
    per special kind that is no 财神 kind, +1 for two or more concealed tiles or for one paired with a 财神
    (each 财神 pairs one kind)."""
    seat_wind = 27 + seat_offset
    unused = stack_array(N_PATTERNS, np.int8)  # the patterns a non-winner's base is made of are not logged
    base = _held_base(hand, meld_kind, meld_tile, n_melds, seat_wind, ctx, unused)
    singles = 0
    for t in (seat_wind, GREEN, RED):
        if t == ctx[CTX_WILDS] or t == ctx[CTX_WILDS + 1]:
            continue
        if hand[t] >= 2:
            base += 1
        elif hand[t] == 1:
            singles += 1
    return base + min(singles, wilds)
