"""``may_be_win``: the engine's count-only filter before a win check must never reject a winning hand.

The oracle is the batch API ``mjsim.hand.is_win`` (itself checked against
the ``mahjong`` package in test_hand_kernels.py and against the numpy
reference in test_hand_batch.py), over random, complete and
near-complete hands of every concealed size, for each combination of forms.
"""

import numpy as np
import pytest
from handgen import FORM_NAMES, complete_hand, near_complete_hands, perturb, uniform_hands

from mjsim.hand import is_win
from mjsim.hand.fast import may_be_win
from mjsim.tiles import parse_counts


def _hands(rng, sets):
    """Random, complete and one-swap hands holding 3 * sets + 2 tiles (fewer sets: melds declared)."""
    size = 3 * sets + 2
    hands = [uniform_hands(rng, 3000, size=size)]
    complete = np.array([complete_hand(rng, sets=sets) for _ in range(1500)])
    hands += [complete, np.array([perturb(rng, h, 1) for h in complete])]
    if sets == 4:
        hands.append(near_complete_hands(rng, 1500))
        hands.append(np.array([parse_counts("11223344556677z"), parse_counts("119m19p19s1234567z")]))
    return np.concatenate([h.astype(np.int8) for h in hands])


@pytest.mark.parametrize("bits", sorted(FORM_NAMES))
@pytest.mark.parametrize("sets", [4, 3, 1])
def test_every_winning_hand_passes_the_filter(bits, sets):
    hands = _hands(np.random.default_rng(100 * bits + sets), sets)
    hands = hands[hands.sum(axis=1) == 3 * sets + 2]
    wins = is_win(hands, form=FORM_NAMES[bits] if sets == 4 else "standard")
    passed = np.array([may_be_win(h, int(h.sum()), bits) for h in hands])
    assert wins.sum() > 100  # the sample holds plenty of wins
    assert not (wins & ~passed).any()


@pytest.mark.parametrize(
    "hand, bits, expected",
    [
        ("123m456p789s11z222z", 1, True),  # a win
        ("1234m456p789s11z22z", 1, False),  # four characters: a remainder of 1 mod 3
        ("123m456p789s1z2z3z44z", 1, False),  # single honours cannot be in sets
        ("135m456p789s11z222z", 1, True),  # not a win, but the counts allow one: the full check decides
        ("11223344556677z", 2, True),  # seven pairs
        ("1122334455669m1z", 2, False),  # odd counts
        ("119m19p19s1234567z", 4, True),  # thirteen orphans
        ("129m19p19s1234567z", 4, False),  # a middle tile
    ],
)
def test_known_hands(hand, bits, expected):
    counts = parse_counts(hand).astype(np.int8)
    assert may_be_win(counts, int(counts.sum()), bits) is expected


def test_most_random_hands_are_rejected_without_the_tables():
    hands = uniform_hands(np.random.default_rng(5), 20_000)
    passed = np.array([may_be_win(h, 14, 7) for h in hands])
    assert passed.mean() < 0.25
