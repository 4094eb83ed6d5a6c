"""Property tests for ``score_hand`` over every preset (hypothesis), plus input validation.

Winning hands are built from random sets + a pair (some sets declared as
melds); they must score without error and with sane values.  Random invalid
input must always raise ``ValueError``, never another exception.  Whether a
random 14-tile hand is a win is decided by an independent implementation
(the ``mahjong`` package's Agari).
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from mahjong.agari import Agari

from mjsim.rules import preset_names, ruleset
from mjsim.rules.scoring import score_hand
from mjsim.tiles import format_tiles

SCORED = [name for name in preset_names() if ruleset(name).family != "shuitou"]
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def set_tiles(kind: str, first: int) -> list[int]:
    return [first] * 3 if kind == "pung" else [first, first + 1, first + 2]


@st.composite
def winning_hands(draw, rs):
    """(hand ids, melds, keyword situation) for a valid win under ``rs``."""
    suits = draw(st.sets(st.integers(0, 2), min_size=1, max_size=min(3, rs.max_suits)))
    wild_kind = 31 if rs.wild_scheme == "fixed" else None  # presets with a fixed wild use 5z (TDH-G1)
    kinds = [k for k in range(34) if (k < 27 and k // 9 in suits) or (k >= 27 and rs.tile_set != 108)]
    kinds = [k for k in kinds if k != wild_kind]
    choices = [("pung", k) for k in kinds] + [("chow", k) for k in kinds if k < 27 and k % 9 <= 6 and k + 2 in kinds]
    sets = [draw(st.sampled_from(choices)) for _ in range(4)]
    pair = draw(st.sampled_from(kinds))
    counts = np.zeros(34, dtype=int)
    for kind, first in sets:
        for tile in set_tiles(kind, first):
            counts[tile] += 1
    counts[pair] += 2
    assume(counts.max() <= 4)

    n_melds = draw(st.integers(0, 4))
    melds, concealed = [], [pair, pair]
    for i, (kind, first) in enumerate(sets):
        if i < n_melds and (kind == "pung" or rs.chow):
            if kind == "chow":
                melds.append("chow:" + format_tiles(set_tiles(kind, first)))
            else:
                options = ["pung", "kong", "ckong"] if counts[first] == 3 else ["pung"]
                meld = draw(st.sampled_from(options))
                counts[first] += meld != "pung"
                melds.append(f"{meld}:{format_tiles([first])}")
        else:
            concealed += set_tiles(kind, first)
    concealed = draw(st.permutations(concealed))
    if wild_kind is not None:  # ghosts stand in for some concealed tiles (C-J1)
        for i in draw(st.sets(st.integers(0, len(concealed) - 1), max_size=min(4, len(concealed)))):
            concealed[i] = wild_kind
    win_tile = draw(st.sampled_from(concealed))

    self_draw = True if not rs.discard_win else draw(st.booleans())
    has_kong = any(m.startswith(("kong", "ckong")) for m in melds)
    situation = dict(
        self_draw=self_draw,
        seat=draw(st.integers(0, 3)),
        round_wind=draw(st.integers(0, 3)),
        kong_replacement=self_draw and has_kong and draw(st.booleans()),
        last_tile=draw(st.booleans()),
    )
    if not melds and (self_draw or situation["seat"] != 0):
        situation["first_turn"] = draw(st.booleans())  # 天和/地和/人和
    if not self_draw and rs.multiple_win:
        situation["discard_winners"] = draw(st.integers(1, 3))
    return concealed, melds, win_tile, situation


@pytest.mark.parametrize("name", SCORED)
def test_winning_hands_always_score(name):
    rs = ruleset(name)

    @SETTINGS
    @given(winning_hands(rs))
    def run(example):
        hand, melds, win_tile, situation = example
        try:
            got = score_hand(rs, hand, melds=melds, win_tile=win_tile, **situation)
        except ValueError as reason:  # only the minimum-fan rule may refuse a well-formed win
            assert rs.min_fan > 0 and "JPH-P4" in str(reason)
            return
        assert got.fan >= 0 and got.points >= 1
        assert got.patterns and len(got.fan_detail) == len(got.patterns)
        assert [pid for pid, _ in got.fan_detail] == list(got.patterns)
        if rs.hand_value == "fan":
            assert got.points == 2**got.fan  # C-M2
            if rs.cap is not None and not got.limit:
                assert got.fan <= rs.cap  # JPH-F4, XZ-F3
        # the order the tiles are written in does not matter
        again = score_hand(rs, list(reversed(hand)), melds=melds, win_tile=win_tile, **situation)
        assert again == got

    run()


# ---- invalid input always raises ValueError ---------------------------------------------------------


def wall(tile_set: int) -> list[int]:
    kinds = range(27) if tile_set == 108 else range(34)
    return [k for k in kinds for _ in range(4)]


@pytest.mark.parametrize("name", ["jipinghu", "jipinghu_5fan", "xuezhan", "tuidaohu_dianpao"])
def test_random_non_winning_hands_raise_value_error(name):
    rs = ruleset(name)

    @SETTINGS
    @given(st.permutations(wall(rs.tile_set)), st.booleans())
    def run(shuffled, self_draw):
        hand = shuffled[:14]
        counts = np.bincount(hand, minlength=34)
        assume(not Agari.is_agari(counts.tolist()))
        assume(not (counts % 2 == 0).all())  # seven pairs with four equal tiles (TDH-P4, XZ-P3)
        with pytest.raises(ValueError):
            score_hand(rs, hand, self_draw=self_draw)

    run()


# each token is bad whatever is written around it
BAD_TOKENS = ["0m", "8z", "9z", "9f", "x", "5q", "1m-", "mm", " 0 "]
NOTATION = st.text(alphabet="123456789mpsz", max_size=20)
NOT_A_MELD = st.text(max_size=12).filter(lambda m: not m.startswith(("pung:", "chow:", "kong:", "ckong:")))


@SETTINGS
@given(NOTATION, st.sampled_from(BAD_TOKENS), NOTATION)
def test_bad_notation_raises_value_error(before, bad, after):
    with pytest.raises(ValueError):
        score_hand(ruleset("jipinghu"), before + bad + after, self_draw=True)


@SETTINGS
@given(st.integers(0, 33), st.lists(st.integers(0, 33), min_size=9, max_size=9))
def test_five_copies_raise_value_error(kind, others):
    hand = [kind] * 5 + others
    with pytest.raises(ValueError):
        score_hand(ruleset("jipinghu"), hand, self_draw=True)
    with pytest.raises(ValueError):
        score_hand(ruleset("jipinghu"), [kind] * 2 + others[:9], melds=[f"pung:{format_tiles([kind])}"], self_draw=True)


@SETTINGS
@given(st.lists(st.integers(0, 33), min_size=0, max_size=20).filter(lambda t: len(t) != 14), st.booleans())
def test_wrong_tile_counts_raise_value_error(hand, self_draw):
    for name in ("jipinghu", "tuidaohu", "xuezhan"):
        with pytest.raises(ValueError):
            score_hand(ruleset(name), hand, self_draw=self_draw)


@SETTINGS
@given(NOT_A_MELD, st.text(max_size=6))
def test_random_melds_and_win_tiles_raise_value_error(meld, win_tile):
    with pytest.raises(ValueError):
        score_hand(ruleset("jipinghu"), "123m456p789s55m", melds=[meld], win_tile=win_tile or None, self_draw=True)


# ---- hand-written invalid inputs -------------------------------------------------------------------------

WIN = "123m456p789s222s55m"
INVALID = [
    ("win_tile not in hand", WIN, {"win_tile": "9m"}),
    ("win_tile two tiles", WIN, {"win_tile": "55m"}),
    ("flower in hand", "123m456p789s22s55m1f", {}),
    ("13 tiles", "123m456p789s22s55m", {}),
    ("15 tiles", WIN + "1z", {}),
    ("five copies with a meld", "123m456p789s2s5m", {"melds": ["kong:2s"]}),
    ("meld count", WIN, {"melds": ["pung:1z"]}),
    ("bad meld", "123m456p789s55m", {"melds": ["pung:123m"]}),
    ("not a winning shape", "123m456p789s22s55m1z", {}),
    ("seat out of range", WIN, {"seat": 4}),
    ("round wind out of range", WIN, {"round_wind": -1}),
    ("kong replacement without a kong", WIN, {"self_draw": True, "kong_replacement": True}),
    ("kong replacement on a discard", "123m456p789s55m", {"melds": ["kong:2s"], "kong_replacement": True}),
    ("robbed kong and self-draw", WIN, {"self_draw": True, "robbed_kong": True, "win_tile": "7s"}),
    ("first turn after a claim", "123m456p789s55m", {"melds": ["pung:2s"], "first_turn": True, "self_draw": True}),
    ("dealer first turn on a discard", WIN, {"seat": 0, "first_turn": True}),
    ("four discard winners", WIN, {"discard_winners": 4}),
    ("several winners on a self-draw", WIN, {"discard_winners": 2, "self_draw": True}),
    ("kong discard on a self-draw", WIN, {"after_kong_discard": True, "self_draw": True}),
    ("hand not notation", 12345, {}),
]


@pytest.mark.parametrize("case", INVALID, ids=[c[0] for c in INVALID])
def test_invalid_inputs_raise_value_error(case):
    _, hand, kwargs = case
    with pytest.raises(ValueError):
        score_hand(ruleset("jipinghu"), hand, **kwargs)


def test_CT1_five_copies_of_a_winning_shape_rejected():
    # shapes that would win if a fifth 1m existed
    with pytest.raises(ValueError, match="C-T1"):
        score_hand(ruleset("jipinghu"), "456p789s234s11m", melds=["pung:1m"])
    with pytest.raises(ValueError, match="C-T1"):
        score_hand(ruleset("jipinghu"), [0] * 5 + [12, 13, 14, 24, 25, 26, 19, 20, 21])


def test_wild_tiles_cannot_be_melded():
    with pytest.raises(ValueError, match="C-J1"):
        score_hand(ruleset("tuidaohu_ghost"), "123m456p789s55m", melds=["pung:5z"], self_draw=True)


def test_robbing_needs_the_rule():
    with pytest.raises(ValueError, match="C-P4"):
        score_hand(ruleset("jipinghu", rob_kong=False), WIN, robbed_kong=True, win_tile="7s")


def test_shuitou_is_scored_in_tai():
    # SHT-T1 special_pair (22z, seat 1's wind) 1 + SHT-T2 self_draw 1 + hard 7 = 9, below 13: not doubled
    got = score_hand(ruleset("shuitou"), "123m456p789s111z22z333m", self_draw=True)
    assert (got.points, got.fan, got.base_tai) == (9, 9, 1)
    assert got.fan_detail == (("special_pair", 1), ("self_draw", 1), ("hard", 7))


def test_shuitou_14_tile_hand_names_the_count():
    with pytest.raises(ValueError, match="needs 17"):
        score_hand(ruleset("shuitou"), "123m456p789s234m11z", self_draw=True)


def test_hand_as_tile_ids_and_default_win_tile():
    by_text = score_hand(ruleset("jipinghu"), "123m456p789s234s55m", self_draw=True)
    by_ids = score_hand(ruleset("jipinghu"), [0, 1, 2, 12, 13, 14, 24, 25, 26, 19, 20, 21, 4, 4], self_draw=True)
    assert by_text == by_ids


ODD_VALUES = st.one_of(st.none(), st.text(max_size=3), st.floats(allow_nan=True), st.integers(-3, 6), st.booleans())


@SETTINGS
@given(ODD_VALUES, ODD_VALUES, ODD_VALUES, ODD_VALUES)
def test_odd_situation_values_raise_value_error_or_score(seat, round_wind, discard_winners, wild_kinds):
    kwargs = dict(seat=seat, round_wind=round_wind, discard_winners=discard_winners, wild_kinds=wild_kinds)
    try:
        got = score_hand(ruleset("jipinghu"), "123m456p789s234s55m", **kwargs)
    except ValueError:
        return
    assert got.points >= 1
