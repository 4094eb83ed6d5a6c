"""The engine's per-hand compiled functions (``mjsim.hand.fast``) agree with the public batch API.

``shanten_of``, ``is_win_counts`` and ``standard_wilds_needed`` read the same
tables as ``mjsim.hand.is_win`` / ``shanten`` (themselves held to the numpy
reference and the ``mahjong`` package), one hand at a time and with the
engine's form bits; every combination of forms a ruleset can ask for
(:func:`mjsim.hand.fast.form_bits`) is compared on random and near-complete
hands of several sizes, with wild tiles for the winning check.
"""

import numpy as np
import pytest
from handgen import FORM_NAMES, as_wilds, near_complete_hands, uniform_hands

from mjsim.hand import is_win, shanten
from mjsim.hand.fast import hand_tables, is_win_counts, shanten_of, standard_wilds_needed


@pytest.fixture(scope="module")
def hands():
    rng = np.random.default_rng(31)
    parts = [uniform_hands(rng, 300, size=size) for size in (14, 13, 11, 8, 5, 2, 17)]
    parts += [near_complete_hands(rng, 600, max_swaps=2), near_complete_hands(rng, 200, sets=5, max_swaps=1)]
    return np.concatenate(parts)


@pytest.mark.parametrize("bits", sorted(FORM_NAMES))
def test_shanten_of_equals_the_api(hands, bits):
    tb = hand_tables()
    hands = hands[hands.sum(axis=1) % 3 != 0]
    expected = shanten(hands, form=FORM_NAMES[bits])
    got = [shanten_of(h, int(h.sum()), bits, tb.suit_partial, tb.honour_partial) for h in hands]
    assert np.array_equal(got, expected)
    assert (expected == -1).any() and (expected >= 2).any()


@pytest.mark.parametrize("bits", sorted(FORM_NAMES))
def test_is_win_counts_equals_the_api(hands, bits):
    tb = hand_tables()
    rng = np.random.default_rng(bits)
    wilds = np.minimum(rng.integers(0, 9, len(hands)) * (rng.random(len(hands)) < 0.5), hands.sum(axis=1))
    real = np.array([as_wilds(rng, h, w) for h, w in zip(hands, wilds)])
    expected = is_win(real, form=FORM_NAMES[bits], wilds=wilds)
    quads = not bits & 8
    tables = (tb.suit_exact, tb.honour_exact, tb.suit_features, tb.honour_features)
    got = [is_win_counts(h, int(h.sum()), int(w), bits, quads, *tables) for h, w in zip(real, wilds)]
    assert np.array_equal(got, expected)
    assert expected[wilds == 0].any() and expected[wilds > 0].any() and not expected.all()


def test_standard_wilds_needed_is_the_fewest_wilds_that_win(hands):
    tb = hand_tables()
    for h in hands[:1500]:
        need = standard_wilds_needed(h, tb.suit_exact, tb.honour_exact)
        n = int(h.sum())
        for w in range(9):
            if (n + w) % 3 == 2:
                assert is_win(h, form="standard", wilds=w) == (need <= w), (h.tolist(), w, need)
