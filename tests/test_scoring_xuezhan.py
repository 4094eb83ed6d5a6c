"""Golden hands for Sichuan 血战到底 (rules/xuezhan.md), presets ``xuezhan`` and ``xuezhan_cap3``.

fan = the highest XZ-F1 pattern + XZ-F2 additions, capped by XZ-F3; points per
payer = 2**fan.  Expected values worked out by hand.  Winner at seat 1, win on
a discard, unless a case says otherwise.
"""

import pytest

from mjsim.rules import ruleset
from mjsim.rules.scoring import score_hand

XZ = ruleset("xuezhan")
CAP3 = ruleset("xuezhan_cap3")

BASIC = "123m456m789p234p55m"


def check(rs, hand, patterns, fan, melds=(), capped_from=None, **situation):
    got = score_hand(rs, hand, melds=melds, **situation)
    assert (got.patterns, got.fan, got.points, got.capped_from) == (tuple(patterns), fan, 2**fan, capped_from)
    assert sum(f for _, f in got.fan_detail) == (capped_from if capped_from is not None else fan)
    return got


# ---- XZ-F1 every pattern ------------------------------------------------------------------------------------------
F1 = [
    ("basic", BASIC, {}, 0),
    ("all_pungs", "111m222m333p444p55m", {}, 1),
    ("full_flush", "123m456m789m234m55m", {}, 2),
    ("seven_pairs", "1133m5577m2244p99p", {}, 2),
    ("terminal_sets", "123m789m123p999p11m", {}, 2),
    ("full_flush_pungs", "111m333m555m777m99m", {}, 3),
    ("two_five_eight_pungs", "222m555m888m222p55p", {}, 3),
    ("full_flush_seven_pairs", "11335577992288m", {}, 4),  # also 123 123 789 789 55: 清一色 2 only
    ("dragon_seven_pairs", "1111m3355m2244p99p", {}, 4),  # its one four-of-a-kind is part of the pattern
    ("full_flush_terminal_sets", "123m123m123m789m99m", {}, 4),  # chows reading; pungs reading is 清一色 2
    ("full_flush_dragon_seven_pairs", "11112233557799m", {}, 5),
    ("heavenly", BASIC, {"seat": 0, "first_turn": True, "self_draw": True}, 5),
    ("earthly", BASIC, {"seat": 3, "first_turn": True, "self_draw": True}, 5),
]


@pytest.mark.parametrize("case", F1, ids=[c[0] for c in F1])
def test_XZ_F1_patterns(case):
    pid, hand, situation, fan = case
    got = check(XZ, hand, [pid], fan, **situation)
    assert got.fan_detail == ((pid, fan),)


def test_XZ_F1_the_highest_pattern_only():
    # 天胡 on a full flush: 5, not 5 + 2
    check(XZ, "123m456m789m234m55m", ["heavenly"], 5, seat=0, first_turn=True, self_draw=True)
    # 清对 3, not 清一色 2 + 对对胡 1 + ...
    check(XZ, "111m333m555m777m99m", ["full_flush_pungs"], 3, self_draw=True)


# ---- XZ-F2 additions ------------------------------------------------------------------------------------------------


def test_XZ_F2_root():
    check(XZ, "111m123m456p789p55p", ["basic", "root"], 1)


def test_XZ_F2_two_roots():
    check(XZ, "111m123m444p456p99p", ["basic", "root", "root"], 2)


def test_XZ_F2_root_from_a_pung_meld_and_the_fourth_tile_concealed():
    check(XZ, "123m789m456p11m", ["basic", "root"], 1, melds=["pung:5p"])


def test_XZ_F2_declared_kong_is_not_a_root_direct_kong():
    check(XZ, "123m789m456p11m", ["basic", "direct_kong"], 1, melds=["kong:3p"])


def test_XZ_F2_concealed_kong():
    check(XZ, "123m789m456p11m", ["basic", "concealed_kong"], 2, melds=["ckong:3p"])


def test_XZ_F2_kong_flower_after_an_exposed_kong():
    check(
        XZ,
        "123m789m456p11m",
        ["basic", "direct_kong", "kong_flower"],
        3,
        melds=["kong:3p"],
        self_draw=True,
        kong_replacement=True,
    )


def test_XZ_F2_kong_flower_after_a_concealed_kong():
    check(
        XZ,
        "123m789m456p11m",
        ["basic", "concealed_kong", "kong_flower"],
        5,
        melds=["ckong:3p"],
        self_draw=True,
        kong_replacement=True,
    )


def test_XZ_F2_kong_flower_follows_the_last_kong():
    got = check(
        XZ,
        "123m789m11m",
        ["basic", "concealed_kong", "direct_kong", "kong_flower"],
        5,
        melds=["ckong:3p", "kong:9p"],
        self_draw=True,
        kong_replacement=True,
    )
    assert got.fan_detail[-1] == ("kong_flower", 2)


def test_XZ_F2_kong_discard():
    check(XZ, BASIC, ["basic", "kong_discard"], 1, after_kong_discard=True)


def test_XZ_F2_robbed_kong():
    check(XZ, BASIC, ["basic", "robbed_kong"], 1, robbed_kong=True, win_tile="9p")


def test_XZ_F2_dragon_seven_pairs_first_root_is_in_the_pattern():
    # two four-of-a-kinds: the first belongs to 龙七对, the second is a root
    check(XZ, "1111m2222m3355p99p", ["dragon_seven_pairs", "root"], 5)


def test_XZ_F2_full_flush_dragon_seven_pairs_with_three_quads():
    # 11 11 22 22 33 33 44: 清龙七对 5 + 2 roots; the sets reading 123m x4 + 44m is 清一色 2 + 3 roots = 5
    check(XZ, "11112222333344m", ["full_flush_dragon_seven_pairs", "root", "root"], 7, self_draw=True)


def test_XZ_F2_additions_come_from_the_ruleset():
    table = dict(XZ.xz_additions, concealed_kong=3)
    check(ruleset("xuezhan", xz_additions=table), "123m789m456p11m", ["basic", "concealed_kong"], 3, melds=["ckong:3p"])


# ---- XZ-F3 cap ----------------------------------------------------------------------------------------------------


def test_XZ_F3_no_cap_by_default():
    check(XZ, "11112233557799m", ["full_flush_dragon_seven_pairs"], 5)


def test_XZ_F3_cap3_preset():
    check(CAP3, "11112233557799m", ["full_flush_dragon_seven_pairs"], 3, capped_from=5)
    check(CAP3, "1111m2222m3355p99p", ["dragon_seven_pairs", "root"], 3, capped_from=5)
    check(CAP3, "111m222m333p444p55m", ["all_pungs"], 1)


# ---- XZ-P rejections ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["xuezhan", "xuezhan_cap3", "xuezhan_dingque"])
def test_XZ_P2_three_suits_rejected(name):
    with pytest.raises(ValueError, match="XZ-P2"):
        score_hand(ruleset(name), "123m456p789s111m22m")
    with pytest.raises(ValueError, match="XZ-P2"):
        score_hand(ruleset(name), "123m456m789p11m", melds=["pung:5s"])  # the meld brings the third suit


def test_XZ_P1_no_honours_no_chow_melds():
    with pytest.raises(ValueError, match="C-T4"):
        score_hand(XZ, "123m456m789m234m11z")
    with pytest.raises(ValueError, match="chow"):
        score_hand(XZ, "456m789p234p55m", melds=["chow:123m"])


def test_XZ_P3_seven_pairs_with_four_equal_tiles_allowed():
    check(XZ, "1111m3355m2244p99p", ["dragon_seven_pairs"], 4, self_draw=True)


# ---- XZ-H house options that change the fan ---------------------------------------------------------------------


def test_XZ_H3_self_draw_bonus_fan_adds_one_on_a_self_draw_only():
    fan = ruleset("xuezhan", self_draw_bonus="fan")
    check(fan, BASIC, ["basic", "self_draw"], 1, self_draw=True)
    check(fan, BASIC, ["basic"], 0)  # a discard win: no bonus
    check(fan, "123m789m456p11m", ["basic", "direct_kong", "kong_flower", "self_draw"], 4, melds=["kong:3p"],
          self_draw=True, kong_replacement=True)  # fmt: skip
    check(ruleset("xuezhan", self_draw_bonus="base"), BASIC, ["basic"], 0, self_draw=True)  # base: paid, not fan


def test_XZ_H3_no_self_draw_fan_on_a_kong_flower_its_discarder_pays_alone():
    """XZ-M2 / XZ-H6: a 杠上花 after a direct kong paid by the konged tile's discarder alone is no 自摸 (seed
    和牌规则 3), so 自摸加番 is not added; when XZ-H6 pays it as a self-draw, it is."""
    hand, melds = "123m789m456p11m", ["kong:3p"]
    situation = dict(melds=melds, self_draw=True, kong_replacement=True, kong_from_discard=True)
    check(ruleset("xuezhan", self_draw_bonus="fan"), hand, ["basic", "direct_kong", "kong_flower"], 3, **situation)
    as_self_draw = ruleset("xuezhan", self_draw_bonus="fan", kong_flower_from_discard="self_draw")
    check(as_self_draw, hand, ["basic", "direct_kong", "kong_flower", "self_draw"], 4, **situation)
    with pytest.raises(ValueError, match="kong_from_discard.*kong_replacement=True"):
        score_hand(XZ, BASIC, self_draw=True, kong_from_discard=True)


def test_XZ_H4_concealed_and_middle():
    house = ruleset("xuezhan", concealed_and_middle=True)
    check(house, BASIC, ["basic", "concealed"], 1)  # 1m and 9p held: no 中张
    check(house, "234m456m678p234p55m", ["basic", "concealed", "no_terminals"], 2)
    check(house, "234m678p234p66p", ["basic", "no_terminals"], 1, melds=["pung:5m"])  # a pung: not 门清
    check(house, "234m678p234p66p", ["basic", "concealed_kong", "concealed", "no_terminals"], 4, melds=["ckong:5m"])


def test_XZ_H5_extra_patterns():
    house = ruleset("xuezhan", extra_patterns=True)
    four_pungs = ["pung:1m", "pung:2m", "pung:3p", "pung:4p"]
    check(house, "55m", ["single_wait"], 2, melds=four_pungs)  # 金钩钓 2 beats 对对胡 1
    check(XZ, "55m", ["all_pungs"], 1, melds=four_pungs)  # off by default
    check(house, "55m", ["full_flush_single_wait"], 4, melds=["pung:1m", "pung:2m", "pung:3m", "pung:4m"])
    kongs = ["kong:1m", "kong:2m", "kong:3p", "kong:4p"]
    check(house, "55m", ["four_kongs"] + ["direct_kong"] * 4, 10, melds=kongs)  # 十八罗汉 6 + 4 kongs
    check(house, "55m", ["full_flush_four_kongs"] + ["direct_kong"] * 4, 12,
          melds=["kong:1m", "kong:2m", "kong:3m", "kong:4m"])  # fmt: skip
    check(house, "222m555m888m22p", ["two_five_eight_pungs"], 3, melds=["pung:5p"])  # one meld: no 金钩钓


def test_XZ_H8_heavenly_earthly_switch():
    off = ruleset("xuezhan", heavenly_earthly=False)
    check(off, BASIC, ["basic"], 0, seat=0, first_turn=True, self_draw=True)
    check(off, BASIC, ["basic"], 0, seat=2, first_turn=True, self_draw=True)
    check(XZ, BASIC, ["earthly"], 5, seat=2, first_turn=True, self_draw=True)
