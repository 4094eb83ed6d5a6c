"""The policies' ukeire (:mod:`mjsim.agents.shape`) against a brute force over the public shanten API, and
the ``draw_lowers`` bits of the shape table it reads (:mod:`mjsim.hand.tables`).

Ukeire of a discard = the unseen tiles (four minus those in sight) of every kind whose draw lowers the
shanten of the hand after that discard; the efficiency rule breaks shanten ties by it.
"""

import numpy as np
import pytest

from mjsim.agents.base import shape_table
from mjsim.agents.shape import (
    R_AUX,
    R_MASK,
    R_TIE,
    analyse,
    discard_shanten,
    draw_lowers,
    new_work,
    start_ukeire,
    ukeire_marked,
)
from mjsim.hand import shanten
from mjsim.hand import tables as hand_tables
from mjsim.tiles import parse_tiles

FORM_BITS = {"standard": 1, "all": 7}  # bits as mjsim.hand.fast.shanten_of: 1 standard, 2 seven pairs, 4 orphans


def counts(text):
    return np.bincount(parse_tiles(text), minlength=34).astype(np.int8)


def suit_code(text):
    """Base-5 code of a one-suit hand (rank 1 the most significant digit), the shape table's row."""
    held = counts(text)[:9]
    return int(sum(int(held[r]) * 5 ** (8 - r) for r in range(9)))


def entry(sets, pairs):
    return 1 << (2 * sets + pairs)


def test_draw_lowers_of_written_suits():
    T = shape_table()
    # 13m: a 2m completes the chow 123m (1 set: need 1 -> 0), a 1m or 3m makes a pair (need 1 -> 0)
    assert draw_lowers(T, suit_code("13m"), 1) & entry(1, 0)
    assert not draw_lowers(T, suit_code("13m"), 1) & entry(0, 1)
    assert draw_lowers(T, suit_code("13m"), 0) & entry(0, 1)
    assert draw_lowers(T, suit_code("13m"), 2) & entry(0, 1)
    # a far 9m helps neither the chow nor a pair; nothing lowers the empty target (need 0)
    assert not draw_lowers(T, suit_code("13m"), 8) & (entry(1, 0) | entry(0, 1) | entry(0, 0))
    # four 5m held: no fifth copy to draw
    assert draw_lowers(T, suit_code("5555m"), 4) == 0
    # honours: a second 東 makes the pair, a 南 does not
    east = 5**9 + 5**6  # one 東: honour rows follow the suit rows, 東 the most significant digit
    assert draw_lowers(T, east, 0) & entry(0, 1)
    assert not draw_lowers(T, east, 1) & entry(0, 1)


def test_one_more_tile_lowers_each_need_by_at_most_one():
    # ukeire_marked reads the need after a draw off these bits alone: it must never fall by two
    partial = hand_tables.joint_partial()
    for first, digits in ((0, 9), (5**9, 7)):  # every suit code, then every honour code
        codes = np.arange(5**digits)
        for rank in range(digits):
            step = 5 ** (digits - 1 - rank)
            room = first + codes[(codes // step) % 5 < 4]
            fall = partial[room].astype(np.int16) - partial[room + step]
            assert fall.min() >= 0 and fall.max() <= 1, (digits, rank)


def brute_ukeire(hand, visible, discard, form):
    """Unseen tiles whose draw lowers the shanten of ``hand`` minus ``discard`` (public API, every kind)."""
    rest = hand.copy()
    rest[discard] -= 1
    draws = [k for k in range(34) if visible[k] < 4]
    after = np.repeat(rest[None, :], len(draws), axis=0)
    after[np.arange(len(draws)), draws] += 1
    lowered = shanten(after, form=form) < shanten(rest, form=form)
    return int(sum(4 - visible[k] for k, low in zip(draws, lowered, strict=True) if low))


@pytest.mark.parametrize("form", ["standard", "all"])
def test_ukeire_of_every_discard_matches_a_brute_force(form):
    T = shape_table()
    W = new_work()
    rng = np.random.default_rng(11 if form == "standard" else 12)
    compared = 0
    for _ in range(300):
        wall = rng.permutation(136) // 4
        hand = np.bincount(wall[:14], minlength=34).astype(np.int8)
        if form == "all" and rng.random() < 0.5:  # pair-rich hands, so seven pairs is often the best form
            kinds = rng.choice(34, 7, replace=False)
            hand = np.bincount(np.concatenate([np.repeat(kinds[:6], 2), kinds[6:], kinds[:1]]), minlength=34)
            hand = hand.astype(np.int8)
        visible = hand + np.bincount(wall[14 : 14 + rng.integers(0, 50)], minlength=34).astype(np.int8)
        visible = np.minimum(visible, 4).astype(np.int8)
        H = hand[None, :]
        V = visible[None, :]
        special = form == "all"
        analyse(H, 0, 4, T, W)
        W[R_MASK, :] = hand > 0
        discard_shanten(H, 0, 4, special, FORM_BITS[form], T, W)
        W[R_TIE, :] = hand > 0  # every discard, not only the tied ones
        start_ukeire(H, 0, V, 0, 4, special, FORM_BITS[form], T, W)
        ukeire_marked(H, 0, V, 0, 4, special, FORM_BITS[form], T, W)
        for d in np.flatnonzero(hand):
            assert W[R_AUX, d] == brute_ukeire(hand, visible, d, form), (hand.tolist(), int(d))
            compared += 1
    assert compared > 2000
