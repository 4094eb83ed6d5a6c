"""The compiled hand-evaluation API (``mjsim.hand``) equals the numpy reference (tests/handref.py) exactly.

handref.py is the vectorised numpy implementation the API shipped before it
was compiled: it reads the same tables but reaches every answer another way
(whole-batch gathers and min-plus, packed counting facts, no count-only
shortcuts, winning tiles by re-evaluating every one-tile extension).  Both are
run on random hands of every concealed size, near-complete hands (with and
without wild tiles), seven-pairs and orphans shapes, for every form and
combinations of forms.  Each sample is checked to hold both outcomes, so an
always-False or constant kernel fails.
"""

import handref
import numpy as np
import pytest
from handgen import as_wilds, near_complete_hands, perturb, uniform_hands

from mjsim.hand import is_win, shanten, winning_tiles
from mjsim.tiles import parse_counts

FORM_SPECS = [
    "all",
    "standard",
    "seven_pairs",
    "seven_pairs_distinct",
    "thirteen_orphans",
    ("all",),
    ("standard", "seven_pairs_distinct", "thirteen_orphans"),  # the riichi forms
    ("standard", "seven_pairs"),
    ("seven_pairs", "seven_pairs_distinct"),
    ("thirteen_orphans", "seven_pairs_distinct"),
    (),
]
SIZES = [14, 13, 11, 10, 8, 7, 5, 4, 2, 1, 17, 16]  # every concealed size after melds, and 16-tile hands


def _specials(rng, count):
    """Seven-pairs shapes (sometimes with four equal tiles) and thirteen-orphans shapes, some one swap off."""
    hands = []
    orphans = parse_counts("19m19p19s1234567z")
    for k in range(count):
        counts = np.zeros(34, dtype=np.int8)
        if k % 2:
            for kind in rng.choice(34, 7, replace=rng.random() < 0.4):
                counts[kind] = min(4, counts[kind] + 2)
        else:
            counts = orphans.astype(np.int8)
            counts[rng.choice([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33])] += 1
        if rng.random() < 0.5:
            counts = perturb(rng, counts, 1)
        hands.append(counts)
    return np.array(hands, dtype=np.int8)


@pytest.fixture(scope="module")
def samples():
    """``{tiles: hands}``: uniform hands of every size, plus near-complete and special 13/14-tile hands."""
    rng = np.random.default_rng(20260601)
    out = {size: uniform_hands(rng, 600, size=size) for size in SIZES}
    for sets in (4, 5, 3, 1):
        near = near_complete_hands(rng, 600, sets=sets, max_swaps=2, drop_share=0.5)
        for size in np.unique(near.sum(axis=1)):
            out[int(size)] = np.concatenate([out[int(size)], near[near.sum(axis=1) == size]])
    specials = _specials(rng, 400)
    for size in (13, 14):
        dropped = np.array([as_wilds(rng, h, 1) for h in specials]) if size == 13 else specials
        out[size] = np.concatenate([out[size], dropped[dropped.sum(axis=1) == size]])
    return out


@pytest.mark.parametrize("form", FORM_SPECS, ids=str)
def test_shanten_equals_the_reference(samples, form):
    values = []
    for size, hands in samples.items():
        if size % 3 == 0:
            continue
        expected = handref.shanten(hands, form=form)
        got = shanten(hands, form=form)
        assert got.dtype == np.int16 and got.shape == (len(hands),)
        bad = np.flatnonzero(got != expected)
        assert bad.size == 0, (size, [(hands[i].tolist(), expected[i], got[i]) for i in bad[:3]])
        values.append(expected)
    if form != ():
        assert len(np.unique(np.concatenate(values))) >= 5  # complete, ready and farther hands all occur


@pytest.mark.parametrize("form", FORM_SPECS, ids=str)
def test_is_win_and_winning_tiles_equal_the_reference_without_wilds(samples, form):
    wins = waits = 0
    for size, hands in samples.items():
        for wilds in (None, 0):  # no wilds at all takes another path in the reference than zero wilds per hand
            expected = handref.is_win(hands, form=form, wilds=wilds)
            got = is_win(hands, form=form, wilds=wilds)
            assert got.dtype == bool and got.shape == (len(hands),)
            bad = np.flatnonzero(got != expected)
            assert bad.size == 0, (size, wilds, [hands[i].tolist() for i in bad[:3]])
            wins += expected.sum()
        expected = handref.winning_tiles(hands, form=form)
        got = winning_tiles(hands, form=form)
        assert got.dtype == bool and got.shape == (len(hands), 34)
        bad = np.flatnonzero((got != expected).any(axis=1))
        assert bad.size == 0, (size, [hands[i].tolist() for i in bad[:3]])
        waits += expected.sum()
    if form != ():
        assert wins > 50 and waits > 100


@pytest.mark.parametrize("form", FORM_SPECS, ids=str)
def test_wilds_equal_the_reference(samples, form):
    """Wild tiles 0..8, per hand and as one number: real tiles of the samples turned into wilds."""
    rng = np.random.default_rng(len(str(form)))
    wins = waits = 0
    for size, hands in samples.items():
        wilds = rng.integers(0, 9, len(hands))
        wilds = np.minimum(wilds, hands.sum(axis=1))
        real = np.array([as_wilds(rng, h, w) for h, w in zip(hands, wilds)])
        for w in (wilds, wilds.astype(np.uint8), int(wilds[0]), 8):
            expected = handref.is_win(real, form=form, wilds=w)
            bad = np.flatnonzero(is_win(real, form=form, wilds=w) != expected)
            assert bad.size == 0, (size, [(real[i].tolist(), np.broadcast_to(w, len(real))[i]) for i in bad[:3]])
            wins += expected.sum()
        expected = handref.winning_tiles(real, form=form, wilds=wilds)
        bad = np.flatnonzero((winning_tiles(real, form=form, wilds=wilds) != expected).any(axis=1))
        assert bad.size == 0, (size, [(real[i].tolist(), wilds[i]) for i in bad[:3]])
        waits += expected.sum()
    if form != ():
        assert wins > 100 and waits > 100


def test_one_hand_gives_python_values_equal_to_its_batch_row(samples):
    hands = np.concatenate([samples[14][::40], samples[13][::40], samples[17][::40]])
    wilds = np.arange(len(hands)) % 3
    batch_win = is_win(hands, form="all", wilds=wilds)
    batch_shanten = shanten(hands, form="all")
    batch_waits = winning_tiles(hands, form="all", wilds=wilds)
    for hand, w, win, value, waits in zip(hands, wilds, batch_win, batch_shanten, batch_waits):
        one_win = is_win(hand, form="all", wilds=int(w))
        one_value = shanten(hand.tolist(), form="all")
        one_waits = winning_tiles(hand, form="all", wilds=w)
        assert type(one_win) is bool and one_win == win
        assert type(one_value) is int and one_value == value
        assert one_waits.dtype == bool and one_waits.shape == (34,) and np.array_equal(one_waits, waits)
    assert handref.is_win(hands, wilds=wilds).any() and not handref.is_win(hands, wilds=wilds).all()


def test_any_layout_and_dtype_of_counts_gives_the_same_answers(samples):
    hands = samples[14][:200]
    expected = handref.shanten(hands)
    wide = np.zeros((len(hands), 68), dtype=np.int64)
    wide[:, ::2] = hands
    frozen = hands.copy()
    frozen.flags.writeable = False
    for variant in (hands.astype(float), hands.astype(np.int32), wide[:, ::2], np.asfortranarray(hands), frozen):
        assert np.array_equal(shanten(variant), expected)
        assert np.array_equal(is_win(variant, wilds=1), handref.is_win(hands, wilds=1))
        assert np.array_equal(winning_tiles(variant[:, :]), handref.winning_tiles(hands))


def test_an_empty_batch_gives_empty_answers():
    empty = np.zeros((0, 34), dtype=np.int8)
    for result, dtype, shape in [
        (is_win(empty), bool, (0,)),
        (is_win(empty, wilds=np.zeros(0, dtype=int)), bool, (0,)),
        (shanten(empty), np.int16, (0,)),
        (winning_tiles(empty, wilds=2), bool, (0, 34)),
    ]:
        assert result.dtype == dtype and result.shape == shape


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: shanten(parse_counts("111222333444m555s666p7p")), "at most 17 tiles, got 19"),
        (lambda: shanten(np.stack([parse_counts("1m"), parse_counts("111m")])), "a hand of 3 tiles"),
        (lambda: shanten(parse_counts("111m"), form="pairs"), "a hand of 3 tiles"),  # tile counts come first
        (lambda: shanten(parse_counts("1m"), form="pairs"), "form 'pairs'"),
        (lambda: shanten(parse_counts("1m"), form=("all", "standard")), "form 'all'"),
        (lambda: is_win(parse_counts("11m"), wilds=-1), "wilds must lie in 0..8"),
        (lambda: winning_tiles(parse_counts("1m"), wilds=9), "wilds must lie in 0..8"),
        (lambda: winning_tiles(np.zeros((2, 34)), form="pair"), "form 'pair'"),
        (lambda: winning_tiles(np.zeros((2, 35))), "shape"),
    ],
)
def test_bad_input_raises(call, message):
    with pytest.raises(ValueError, match=message):
        call()
