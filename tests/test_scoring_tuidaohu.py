"""Golden hands for Guangdong 推倒胡 (rules/tuidaohu.md): [Q] preset ``tuidaohu``,
[D] ``tuidaohu_dianpao``, [G] ``tuidaohu_ghost``.

``fan`` is the hand value in units (TDH-V1: small 1, big 2; TDH-V4: 1 x
multipliers, 满鬼 6) and ``points`` what one payer pays (TDH-V3: x2 on a
self-draw in [Q][D], x1 on a discard win in [D]; [G] 1 unit per payer).
Expected values are worked out by hand.  Winner at seat 1 unless stated.
"""

import pytest

from mjsim.rules import ruleset
from mjsim.rules.scoring import score_hand

Q = ruleset("tuidaohu")
D = ruleset("tuidaohu_dianpao")
G = ruleset("tuidaohu_ghost")

SMALL = "123m456p789s222s55m"  # no big hand: chows and a pung in three suits


def check(rs, hand, patterns, units, points, melds=(), **situation):
    got = score_hand(rs, hand, melds=melds, **situation)
    assert (got.patterns, got.fan, got.points) == (tuple(patterns), units, points)
    assert not got.limit and got.capped_from is None
    return got


# ---- TDH-V1 small hand, TDH-V3 payments ------------------------------------------------------------


def test_TDH_V1_V3_Q_small_hand_self_draw_pays_2():
    got = check(Q, SMALL, ["small_hand"], 1, 2, self_draw=True)
    assert got.fan_detail == (("small_hand", 1),)


def test_TDH_V2_half_flush_is_a_small_hand():
    check(Q, "123m456m789m111z22z", ["small_hand"], 1, 2, self_draw=True)


def test_TDH_V3_D_discard_small_pays_1_self_draw_2():
    check(D, SMALL, ["small_hand"], 1, 1)
    check(D, SMALL, ["small_hand"], 1, 2, self_draw=True)


def test_TDH_V3_D_discard_big_pays_2_self_draw_4():
    check(D, "123m456m789m222m55m", ["full_flush"], 2, 2)
    check(D, "123m456m789m222m55m", ["full_flush"], 2, 4, self_draw=True)


def test_TDH_P2_Q_has_no_discard_wins():
    with pytest.raises(ValueError, match="TDH-P2"):
        score_hand(Q, SMALL)
    with pytest.raises(ValueError, match="TDH-P2"):
        score_hand(G, SMALL)


def test_TDH_P2_D_multiple_winners_allowed():
    check(D, SMALL, ["small_hand"], 1, 1, discard_winners=2)
    with pytest.raises(ValueError):
        score_hand(Q, SMALL, robbed_kong=True, discard_winners=2, win_tile="7s")


def test_TDH_P1_no_chow_melds():
    with pytest.raises(ValueError, match="chow"):
        score_hand(Q, "456p789s222s55m", melds=["chow:123m"], self_draw=True)


def test_TDH_S1_robbed_kong_pays_as_self_draw():
    check(Q, SMALL, ["small_hand"], 1, 2, robbed_kong=True, win_tile="7s")


def test_TDH_S2_kong_flower_is_a_normal_self_draw():
    check(Q, "123m456p789s55m", ["small_hand"], 1, 2, melds=["kong:2s"], self_draw=True, kong_replacement=True)


# ---- TDH-V2 every big hand ([Q], self-draw: 2 units x 2 = 4 per payer) --------------------------------
BIG = [
    ("heavenly", SMALL, [], {"seat": 0, "first_turn": True}),
    ("earthly", SMALL, [], {"seat": 2, "first_turn": True}),
    ("full_flush", "123m456m789m222m55m", [], {}),
    ("all_honours", "333z555z66z", ["pung:1z", "pung:2z"], {}),
    ("seven_pairs", "1122m3344p5566s77z", [], {}),
    ("seven_pairs", "1111m3344p5566s77z", [], {}),  # TDH-P4: four equal tiles are two pairs
    ("four_concealed_pungs", "111m222p333s444m55p", [], {}),
    ("four_concealed_pungs", "222p333s444m55p", ["ckong:1m"], {}),
    ("four_kongs", "55z", ["kong:1m", "kong:2p", "ckong:3s", "kong:4z"], {}),
    ("big_dragons", "555z666z777z123m99p", [], {}),
    ("little_winds", "111z222z333z44z123m", [], {}),
    ("big_winds", "222z333z444z55m", ["pung:1z"], {}),
    ("thirteen_orphans", "119m19p19s1234567z", [], {}),
]


@pytest.mark.parametrize("case", BIG, ids=[f"{c[0]}-{c[1]}" for c in BIG])
def test_TDH_V2_Q_big_hands(case):
    pid, hand, melds, situation = case
    got = check(Q, hand, [pid], 2, 4, melds, self_draw=True, **situation)
    assert got.fan_detail == ((pid, 2),)


def test_TDH_V1_big_hands_do_not_combine():
    # 字一色 + 四暗刻 + 大四喜: one big hand (2 units); the others are listed at 0
    got = check(Q, "111z222z333z444z55z", ["all_honours", "four_concealed_pungs", "big_winds"], 2, 4, self_draw=True)
    assert got.fan_detail == (("all_honours", 2), ("four_concealed_pungs", 0), ("big_winds", 0))


def test_TDH_V2_four_concealed_pungs_needs_no_claimed_pung():
    check(Q, "222p333s444m55p", ["small_hand"], 1, 2, melds=["pung:1m"], self_draw=True)


def test_TDH_V2_D_four_concealed_pungs_on_a_discard_only_when_it_completes_the_pair():
    check(D, "111m222p333s444m55p", ["four_concealed_pungs"], 2, 2)  # the 5p discard completes the pair
    check(D, "111m222p333s444m55p", ["small_hand"], 1, 1, win_tile="4m")  # the 4m pung would be claimed


def test_TDH_V2_earthly_rule_D_is_the_dealers_first_discard():
    check(D, SMALL, ["earthly"], 2, 2, seat=1, first_turn=True)
    # [D]: a non-dealer's first self-draw is not 地胡
    check(D, SMALL, ["small_hand"], 1, 2, seat=1, first_turn=True, self_draw=True)
    check(D, SMALL, ["heavenly"], 2, 4, seat=0, first_turn=True, self_draw=True)


def test_TDH_P4_seven_pairs_quads_option():
    with pytest.raises(ValueError, match="C-P5"):
        score_hand(ruleset("tuidaohu", seven_pairs_quads=False), "1111m3344p5566s77z", self_draw=True)


def test_TDH_V2_big_hands_and_values_come_from_the_ruleset():
    only_flush = ruleset("tuidaohu", big_hands=["full_flush"])
    check(only_flush, "1122m3344p5566s77z", ["small_hand"], 1, 2, self_draw=True)
    check(
        ruleset("tuidaohu", big_hand_value=3, self_draw_multiplier=3),
        "1122m3344p5566s77z",
        ["seven_pairs"],
        3,
        9,
        self_draw=True,
    )


# ---- C-J1 / TDH-G1 wilds choose the best reading ------------------------------------------------------
WILD_Q = ruleset("tuidaohu", wild_scheme="fixed", wild_tile="5z")


def test_CJ1_wild_reading_seven_pairs_beats_sets_and_pair():
    # 112233m445566p7z + one ghost as 7z: seven pairs (big) or 123m123m456p456p+77z (small)
    check(WILD_Q, "112233m445566p7z5z", ["seven_pairs"], 2, 4, self_draw=True)


def test_CJ1_two_wilds_choose_four_concealed_pungs():
    # 111222333m 4p 77s + two ghosts: as 4p4p -> 四暗刻 (pungs reading of 111222333m); other readings small
    check(WILD_Q, "111222333m4p77s55z", ["four_concealed_pungs"], 2, 4, self_draw=True)


def test_CJ1_wild_makes_the_win():
    check(WILD_Q, "123m456p789s222s5m5z", ["small_hand"], 1, 2, self_draw=True)
    with pytest.raises(ValueError):
        score_hand(Q, "123m456p789s222s5m5z", self_draw=True)  # no wilds in [Q]: 5m 5z is no pair


def test_CJ1_wild_never_makes_a_fifth_copy():
    # 1111m + ghost: pung 1m + pair 1m would need a fifth 1m; C-J1 (interpretation, as the
    # simulator's kernels): a wild stands for any tile, but no kind exceeds four in the concealed hand
    with pytest.raises(ValueError, match="not a winning hand"):
        score_hand(WILD_Q, "1111m234p567p789s5z", self_draw=True)
    # the ghost as a fourth 1m is fine: 111m + 1m23m
    check(WILD_Q, "111m23m567p789s55s5z", ["small_hand"], 1, 2, self_draw=True)


def test_CJ1_wild_kinds_keyword_overrides():
    # flip scheme (TDH-G1 option): the turned-up tile decides; here 9p is wild (as 5m)
    flip = ruleset("tuidaohu", wild_scheme="flip_next")
    check(flip, "123m456p789s222s5m9p", ["small_hand"], 1, 2, self_draw=True, wild_kinds=["9p"])
    with pytest.raises(ValueError, match="wild_kinds"):
        score_hand(flip, "123m456p789s222s55m", self_draw=True)


# ---- TDH-V4 ghost edition -------------------------------------------------------------------------------------


def test_TDH_V4_G_small_hand_with_a_ghost_is_one_unit():
    got = check(G, "123m456p789s222s5m5z", ["small_hand"], 1, 1, self_draw=True)
    assert got.fan_detail == (("small_hand", 1),)


def test_TDH_V4_G_ghost_standing_for_itself_is_still_a_ghost():
    check(G, "123m456p789s222s55z", ["small_hand"], 1, 1, self_draw=True)


def test_TDH_V4_G_no_ghost_doubles():
    got = check(G, SMALL, ["small_hand", "no_ghost"], 2, 2, self_draw=True)
    assert got.fan_detail == (("small_hand", 1), ("no_ghost", 2))


def test_TDH_V4_G_kong_flower_doubles():
    check(
        G,
        "123m456p789s5m5z",
        ["small_hand", "kong_flower"],
        2,
        2,
        melds=["kong:2s"],
        self_draw=True,
        kong_replacement=True,
    )


def test_TDH_V4_G_multipliers_multiply():
    got = check(
        G,
        "123m456p789s55m",
        ["small_hand", "no_ghost", "kong_flower"],
        4,
        4,
        melds=["ckong:2s"],
        self_draw=True,
        kong_replacement=True,
    )
    assert got.fan_detail == (("small_hand", 1), ("no_ghost", 2), ("kong_flower", 2))


def test_TDH_V4_G_no_big_hands():
    check(G, "1122m3344p5566s77z", ["small_hand", "no_ghost"], 2, 2, self_draw=True)
    check(G, "111z222z333z444z11m", ["small_hand", "no_ghost"], 2, 2, self_draw=True)


def test_TDH_V4_G_full_ghosts_wins_whatever_the_shape():
    got = check(G, "13579m2468p1s5555z", ["full_ghosts"], 6, 6, self_draw=True)
    assert got.fan_detail == (("full_ghosts", 6),)


def test_TDH_V4_G_full_ghosts_takes_no_other_multiplier():
    check(G, "135m2468p5555z", ["full_ghosts"], 6, 6, melds=["kong:9s"], self_draw=True, kong_replacement=True)


def test_TDH_V4_full_ghosts_only_where_the_ruleset_has_it():
    with pytest.raises(ValueError, match="not a winning hand"):
        score_hand(ruleset("tuidaohu_ghost", full_ghosts=False), "13579m2468p1s5555z", self_draw=True)
    with pytest.raises(ValueError, match="not a winning hand"):
        score_hand(Q, "13579m2468p1s5555z", self_draw=True)
