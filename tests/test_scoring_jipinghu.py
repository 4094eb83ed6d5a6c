"""Golden hands for Guangdong 鸡平胡 (rules/jipinghu.md), both editions: [3] preset
``jipinghu`` (cap 3) and [5] preset ``jipinghu_5fan`` (cap 5, 门前清).

Every expected value is worked out by hand from the rules reference.  Unless a
case says otherwise the winner sits at seat 1 (南, seat wind 2z), the round is
东 (1z) and the win is on a discard; points are per payer = 2**fan (C-M2).
"""

import pytest

from mjsim.rules import ruleset
from mjsim.rules.scoring import HandScore, score_hand

J3 = ruleset("jipinghu")
J5 = ruleset("jipinghu_5fan")

# A chicken hand in three suits with one exposed pung, so that [5] gives no 门前清.
CHICKEN = "123m456p789s55m"
CHICKEN_MELDS = ["pung:2s"]


def check(rs, hand, expected, melds=(), **situation):
    """Score and compare with (patterns, fan[, limit[, capped_from]]); points must be 2**fan."""
    patterns, fan, *rest = expected
    limit = rest[0] if rest else False
    capped_from = rest[1] if len(rest) > 1 else None
    got = score_hand(rs, hand, melds=melds, **situation)
    assert isinstance(got, HandScore)
    assert (got.patterns, got.fan, got.limit, got.capped_from) == (patterns, fan, limit, capped_from)
    assert got.points == 2**fan
    assert [pid for pid, _ in got.fan_detail] == list(patterns)
    return got


# ---- JPH-F1 ordinary patterns ----------------------------------------------------------------
# (id, hand, melds, situation, [3] expected, [5] expected)
F1 = [
    ("chicken", CHICKEN, CHICKEN_MELDS, {}, (("chicken",), 0), (("chicken",), 0)),
    ("chicken-concealed", "123m456p789s222s55m", [], {}, (("chicken",), 0), (("chicken", "concealed"), 1)),
    ("all_chows", "456p234s789s55m", ["chow:123m"], {}, (("all_chows",), 1), (("all_chows",), 1)),
    ("all_chows-concealed", "123m456p234s789s55m", [], {}, (("all_chows",), 1), (("all_chows", "concealed"), 2)),
    ("all_chows-dragon-pair", "456p234s789s77z", ["chow:123m"], {}, (("all_chows",), 1), (("all_chows",), 1)),
    ("all_pungs", "333s444m55p", ["pung:1m", "pung:2p"], {}, (("all_pungs",), 2), (("all_pungs",), 3)),
    ("all_pungs-concealed", "111m222p333s444m55p", [], {}, (("all_pungs",), 2), (("all_pungs", "concealed"), 4)),
    ("half_flush", "123m456m678m99m", ["pung:4z"], {}, (("half_flush",), 2), (("half_flush",), 3)),
    (
        "half_flush+all_chows",
        "123m456m789m77z",
        ["chow:234m"],
        {},
        (("all_chows", "half_flush"), 3),
        (("all_chows", "half_flush"), 4),
    ),
    (
        "half_flush+all_chows-concealed",
        "123m456m789m234m77z",
        [],
        {},
        (("all_chows", "half_flush"), 3),
        (("all_chows", "half_flush", "concealed"), 5),
    ),
    (
        "half_flush_pungs",
        "555m888m33z",
        ["pung:2m", "pung:4z"],
        {},
        (("half_flush_pungs",), 4, True),
        (("half_flush_pungs",), 5),
    ),
    (
        "half_flush_pungs-concealed",
        "222m555m888m444z33z",
        [],
        {},
        (("half_flush_pungs",), 4, True),
        (("half_flush_pungs", "concealed"), 5, False, 6),
    ),
    ("full_flush", "123m456m789m55m", ["pung:2m"], {}, (("full_flush",), 4, True), (("full_flush",), 5)),
    (
        "full_flush+all_chows",
        "123m456m789m234m55m",
        [],
        {},
        (("full_flush",), 4, True),
        (("all_chows", "full_flush", "concealed"), 5, False, 7),
    ),
]


@pytest.mark.parametrize("case", F1, ids=[c[0] for c in F1])
def test_JPH_F1_ordinary_patterns_edition_3(case):
    _, hand, melds, situation, exp3, _ = case
    check(J3, hand, exp3, melds, **situation)


@pytest.mark.parametrize("case", F1, ids=[c[0] for c in F1])
def test_JPH_F1_ordinary_patterns_edition_5(case):
    _, hand, melds, situation, _, exp5 = case
    check(J5, hand, exp5, melds, **situation)


# ---- JPH-F2 limit patterns: the largest alone, no bonus, no cap ------------------------------
F2 = [
    ("full_flush_pungs", "111m333m555m777m99m", {}, 5, 6),
    ("mixed_terminals", "111m999p111s333z55z", {}, 5, 6),
    ("little_dragons", "555z666z77z123m456p", {}, 5, 7),
    ("little_winds", "111z222z333z44z123m", {}, 5, 7),
    ("all_honours", "111z222z333z555z66z", {}, 6, 8),
    ("pure_terminals", "111m999m111p999p11s", {}, 6, 8),
    ("big_dragons", "555z666z777z123m99p", {}, 6, 9),
    ("big_winds", "111z222z333z444z55m", {}, 6, 9),
    ("nine_gates", "1112345678999m5m", {"self_draw": True}, 6, 9),
    ("thirteen_orphans", "119m19p19s1234567z", {"self_draw": True}, 6, 9),
    ("heavenly", "123m456p789s222s55m", {"seat": 0, "first_turn": True, "self_draw": True}, 6, 9),
    ("earthly", "123m456p789s222s55m", {"seat": 1, "first_turn": True, "self_draw": True}, 6, 9),
    ("human", "123m456p789s222s55m", {"seat": 2, "first_turn": True}, 6, 9),
]


@pytest.mark.parametrize("case", F2, ids=[c[0] for c in F2])
@pytest.mark.parametrize("edition", ["3", "5"])
def test_JPH_F2_limit_patterns(case, edition):
    pid, hand, situation, fan3, fan5 = case
    rs, fan = (J3, fan3) if edition == "3" else (J5, fan5)
    got = check(rs, hand, ((pid,), fan, True), **situation)
    assert got.fan_detail == ((pid, fan),)


def test_JPH_F2_nine_gates_is_the_thirteen_tiles_1112345678999_before_the_win():
    # seed 000: "同种牌形成1112345678999，在摸到该种牌任何一张即可胡牌"; won on 9m, the 13 before were 1112345567899m
    check(J3, "11123455678999m", (("full_flush",), 4, True), self_draw=True)
    check(J5, "11123455678999m", (("full_flush", "self_draw", "concealed"), 5, False, 7), self_draw=True)
    check(ruleset("jipinghu", nine_gates_wait="shape"), "11123455678999m", (("nine_gates",), 6, True), self_draw=True)
    for tile in "123456789":  # the pure wait wins on every tile of the suit
        check(J3, f"1112345678999m{tile}m", (("nine_gates",), 6, True))


def test_JPH_F2_thirteen_orphans_on_a_discard():
    check(J3, "19m19p19s1234567z9s", (("thirteen_orphans",), 6, True))


def test_JPH_F2_the_largest_limit_pattern_is_taken():
    # 字一色 + 大四喜 (+ 碰碰胡): [3] both 6 -> one 6-fan limit; [5] 大四喜 9 > 字一色 8
    assert score_hand(J3, "111z222z333z444z55z").fan == 6
    check(J5, "111z222z333z444z55z", (("big_winds",), 9, True))
    # 小三元 + 混一色 ordinary: the limit pattern alone
    check(J3, "555z666z77z123m456m", (("little_dragons",), 5, True))


def test_JPH_F2_limit_hands_take_no_bonuses():
    # self-draw, three dragon pungs, last tile, kong flower: still 大三元 alone
    check(
        J3,
        "555z666z123m99p",
        (("big_dragons",), 6, True),
        melds=["kong:7z"],
        self_draw=True,
        kong_replacement=True,
        last_tile=True,
    )
    check(J5, "555z666z777z123m99p", (("big_dragons",), 9, True), self_draw=True)


def test_JPH_F2_limit_hands_ignore_the_triple_win_raise_and_cap():
    check(J3, "111z222z333z444z55m", (("big_winds",), 6, True), discard_winners=3)
    check(ruleset("jipinghu", cap=None), "111z222z333z444z55m", (("big_winds",), 6, True))


# ---- JPH-F3 bonuses, each one (ordinary hands) -------------------------------------------------
F3 = [
    ("self_draw", CHICKEN, CHICKEN_MELDS, {"self_draw": True}, ("chicken", "self_draw"), 1),
    ("seat_wind", CHICKEN, ["pung:2z"], {"seat": 1}, ("chicken", "seat_wind"), 1),
    ("seat_wind-dealer", CHICKEN, ["pung:1z"], {"seat": 0, "round_wind": 1}, ("chicken", "seat_wind"), 1),
    ("round_wind", CHICKEN, ["pung:1z"], {"seat": 1, "round_wind": 0}, ("chicken", "round_wind"), 1),
    (
        "seat_and_round_wind",
        CHICKEN,
        ["pung:2z"],
        {"seat": 1, "round_wind": 1},
        ("chicken", "seat_wind", "round_wind"),
        2,
    ),
    ("dragon_pung", CHICKEN, ["pung:5z"], {}, ("chicken", "dragon_pung"), 1),
    ("dragon_pung-concealed", "123m456p55m777z", ["chow:789s"], {}, ("chicken", "dragon_pung"), 1),
    ("dragon_pung-twice", "123m456p55m", ["pung:5z", "kong:7z"], {}, ("chicken", "dragon_pung", "dragon_pung"), 2),
    (
        "last_tile",
        CHICKEN,
        CHICKEN_MELDS,
        {"self_draw": True, "last_tile": True},
        ("chicken", "self_draw", "last_tile"),
        2,
    ),
    ("last_tile-discard-no-bonus", CHICKEN, CHICKEN_MELDS, {"last_tile": True}, ("chicken",), 0),
    ("other-wind-no-bonus", CHICKEN, ["pung:4z"], {"seat": 1, "round_wind": 0}, ("chicken",), 0),
]


@pytest.mark.parametrize("case", F3, ids=[c[0] for c in F3])
@pytest.mark.parametrize("rs", [J3, J5], ids=["3", "5"])
def test_JPH_F3_bonuses(case, rs):
    _, hand, melds, situation, patterns, fan = case
    check(rs, hand, (patterns, fan), melds, **situation)


def test_JPH_F3_concealed_only_in_edition_5():
    check(J3, "123m456p789s222s55m", (("chicken",), 0))
    check(J5, "123m456p789s222s55m", (("chicken", "concealed"), 1))
    check(J5, CHICKEN, (("chicken", "concealed"), 1), melds=["ckong:2s"])  # a concealed kong keeps 门前清
    check(J5, CHICKEN, (("chicken",), 0), melds=["kong:2s"])  # an exposed kong does not
    check(J5, "123m456p789s222s55m", (("chicken", "self_draw", "concealed"), 2), self_draw=True)


def test_JPH_F3_bonuses_do_not_lift_over_the_cap():
    # [3] 平胡 1 + 混一色 2 + 自摸 1 = 4 -> 3
    check(
        J3,
        "123m456m789m77z",
        (("all_chows", "half_flush", "self_draw"), 3, False, 4),
        melds=["chow:234m"],
        self_draw=True,
    )


# ---- JPH-F4 cap -----------------------------------------------------------------------------


def test_JPH_F4_cap_3():
    got = check(
        J3,
        "123m456m789m77z",
        (("all_chows", "half_flush", "self_draw"), 3, False, 4),
        melds=["chow:234m"],
        self_draw=True,
    )
    assert got.points == 8


def test_JPH_F4_cap_5():
    # 平胡 1 + 混一色 3 + 门前清 1 + 自摸 1 = 6 -> 5
    got = check(
        J5, "123m456m789m234m77z", (("all_chows", "half_flush", "self_draw", "concealed"), 5, False, 6), self_draw=True
    )
    assert got.points == 32


def test_JPH_F4_cap_is_read_from_the_ruleset():
    hand, melds = "123m456m789m77z", ["chow:234m"]
    check(ruleset("jipinghu", cap=None), hand, (("all_chows", "half_flush", "self_draw"), 4), melds, self_draw=True)
    check(
        ruleset("jipinghu", cap=2), hand, (("all_chows", "half_flush", "self_draw"), 2, False, 4), melds, self_draw=True
    )


# ---- JPH-P4 minimum fan, JPH-P5 seven pairs ------------------------------------------------------


def test_JPH_P4_min1_rejects_a_chicken_hand():
    with pytest.raises(ValueError, match="JPH-P4"):
        score_hand(ruleset("jipinghu_5fan_min1"), CHICKEN, melds=CHICKEN_MELDS)
    check(ruleset("jipinghu_5fan"), CHICKEN, (("chicken",), 0), CHICKEN_MELDS)
    check(ruleset("jipinghu_5fan_min1"), CHICKEN, (("chicken", "self_draw"), 1), CHICKEN_MELDS, self_draw=True)
    check(ruleset("jipinghu_5fan_min1"), "123m456p789s222s55m", (("chicken", "concealed"), 1))


def test_JPH_P4_min3_rejects_a_chicken_hand_with_bonuses_below_3():
    min3 = ruleset("jipinghu_5fan_min3")
    with pytest.raises(ValueError, match="JPH-P4"):
        score_hand(min3, "123m456p789s222s55m", self_draw=True)  # 鸡胡 + 自摸 + 门前清 = 2
    check(min3, "333s444m55p", (("all_pungs",), 3), ["pung:1m", "pung:2p"])
    # JPH-S2 [5] +1 counts: 自摸 1 + 门前清 1 (concealed kong) + 杠上开花 1 = 3
    check(
        min3,
        CHICKEN,
        (("chicken", "self_draw", "concealed", "kong_flower"), 3),
        ["ckong:2s"],
        self_draw=True,
        kong_replacement=True,
    )
    with pytest.raises(ValueError, match="JPH-P4"):
        score_hand(min3, CHICKEN, melds=["kong:2s"], self_draw=True, kong_replacement=True)  # 2


def test_JPH_P4_min_fan_counts_before_the_cap_and_the_raises():
    min4 = ruleset("jipinghu", min_fan=4)
    check(
        min4, "123m456m789m77z", (("all_chows", "half_flush", "self_draw"), 3, False, 4), ["chow:234m"], self_draw=True
    )
    with pytest.raises(ValueError, match="JPH-P4"):
        score_hand(min4, "123m456m789m77z", melds=["chow:234m"])  # 3
    with pytest.raises(ValueError, match="JPH-P4"):
        score_hand(ruleset("jipinghu", min_fan=1), CHICKEN, melds=CHICKEN_MELDS, discard_winners=3)


@pytest.mark.parametrize("name", ["jipinghu", "jipinghu_5fan"])
def test_JPH_P5_seven_pairs_is_not_a_win(name):
    with pytest.raises(ValueError, match="seven pairs"):
        score_hand(ruleset(name), "1122m3344p5566s77z", self_draw=True)
    with pytest.raises(ValueError, match="seven pairs"):
        score_hand(ruleset(name), "1111m3344p5566s77z", self_draw=True)


# ---- JPH-S1..S3 special wins ----------------------------------------------------------------------


def test_JPH_S1_triple_win_raises_to_the_cap_in_edition_3():
    got = check(J3, CHICKEN, (("chicken", "triple_win"), 3), CHICKEN_MELDS, discard_winners=3)
    assert got.fan_detail == (("chicken", 0), ("triple_win", 3))
    check(J3, CHICKEN, (("chicken",), 0), CHICKEN_MELDS, discard_winners=2)
    check(J3, "123m456m789m77z", (("all_chows", "half_flush", "triple_win"), 3), ["chow:234m"], discard_winners=3)


def test_JPH_S1_no_triple_win_raise_in_edition_5():
    check(J5, CHICKEN, (("chicken",), 0), CHICKEN_MELDS, discard_winners=3)


def test_JPH_S2_kong_flower_edition_3_raises_to_the_cap():
    got = check(
        J3, CHICKEN, (("chicken", "self_draw", "kong_flower"), 3), ["kong:2s"], self_draw=True, kong_replacement=True
    )
    assert got.fan_detail == (("chicken", 0), ("self_draw", 1), ("kong_flower", 2))
    assert got.points == 8


def test_JPH_S2_kong_flower_edition_5_plus_one():
    got = check(
        J5, CHICKEN, (("chicken", "self_draw", "kong_flower"), 2), ["kong:2s"], self_draw=True, kong_replacement=True
    )
    assert got.points == 4


def test_JPH_S3_robbed_kong_edition_3_counts_as_kong_flower():
    got = check(
        J3, CHICKEN, (("chicken", "self_draw", "robbed_kong"), 3), CHICKEN_MELDS, robbed_kong=True, win_tile="7s"
    )
    assert got.points == 8


def test_JPH_S3_robbed_kong_edition_5_self_draw_only():
    check(J5, CHICKEN, (("chicken", "self_draw"), 1), CHICKEN_MELDS, robbed_kong=True, win_tile="7s")


def test_JPH_S3_robbed_tile_is_the_only_copy_the_robber_holds():
    with pytest.raises(ValueError, match="C-P4"):
        score_hand(J3, CHICKEN, melds=CHICKEN_MELDS, robbed_kong=True, win_tile="5m")


# ---- best decomposition, payment per payer ---------------------------------------------------------


def test_JPH_F1_best_decomposition_all_chows_beats_pungs():
    # 111222333m: pungs (鸡胡 0 with the 456p chow) or chows (平胡 1)
    check(J3, "111222333m456p99s", (("all_chows",), 1))


def test_JPH_F1_best_decomposition_all_pungs_beats_chows():
    # 111222333m + 555p: pungs (碰碰胡 2) or chows (鸡胡 0 with the 555p pung)
    check(J3, "111222333m555p99s", (("all_pungs",), 2))
    check(J5, "111222333m555p99s", (("all_pungs", "concealed"), 4))


def test_JPH_M3_human_points_are_one_share():
    # 人和 is paid by the dealer alone, one share of 2**6
    assert score_hand(J3, "123m456p789s222s55m", seat=3, first_turn=True).points == 64
