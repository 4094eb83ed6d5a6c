"""Scripted hands that force each 鸡平胡 special rule and check every transfer (JPH-M, JPH-S, JPH-P3).

Positions are written in tile notation; amounts are worked out by hand from
rules/jipinghu.md (points = 2 ** fan per share, C-M2).  Seats are absolute;
the dealer is seat 0, so seat s has seat wind 1z + s and the round wind is 东.
"""

import numpy as np
from simtools import ScriptedHand

from mjsim import ruleset
from mjsim.sim.constants import AKONG, RESPONSE
from mjsim.sim.engine import TRACE_DRAW
from mjsim.sim.state import C_LIABILITY, C_WIN

J3 = ruleset("jipinghu")
J5 = ruleset("jipinghu_5fan")

SEAT1_WAITS_25M = "34m678m234s567s99s"  # all chows, waits on 2m or 5m


def robbed_kong_position(rules):
    return ScriptedHand(
        rules,
        {0: "123p456p11z22z5m", 1: SEAT1_WAITS_25M, 2: "111s222s333s444s5s", 3: "19m1234678p3344z"},
        melds={0: ["pung:5m"]},
    )


def test_jph_s3_robbing_a_kong_counts_as_self_draw_raised_to_the_cap_and_the_robbed_pays_all():
    row = robbed_kong_position(J3).play({0: ["akong 5m"], 1: ["win"]})
    assert row["winners"] == [1] and row["win_kind"] == ["robbed_kong"]
    # all_chows 1 + self_draw 1 = 2, raised to the cap 3 (JPH-S3 [3]) -> 8 points a share
    assert row["fan"] == [3]
    assert sorted(row["patterns"][0]) == ["all_chows", "robbed_kong", "self_draw"]
    assert row["liable"] == 0 and row["discarder"] == 0
    assert row["transfers"][C_WIN, 0, 1] == 8 and row["transfers"][C_LIABILITY, 0, 1] == 16
    assert list(row["net"]) == [-24, 24, 0, 0]


def test_jph_s3_five_fan_edition_robbed_kong_has_no_extra_fan():
    row = robbed_kong_position(J5).play({0: ["akong 5m"], 1: ["win"]})
    # all_chows 1 + self_draw 1 + concealed 1 = 3 (no +1 for the rob, JPH-S3 [5])
    assert row["fan"] == [3] and sorted(row["patterns"][0]) == ["all_chows", "concealed", "self_draw"]
    assert list(row["net"]) == [-24, 24, 0, 0]


def test_jph_s6_robbed_kong_liability_switched_off_means_three_payers():
    row = robbed_kong_position(ruleset("jipinghu", liability_robbed_kong=False)).play({0: ["akong 5m"], 1: ["win"]})
    assert row["liable"] is None
    assert list(row["net"]) == [-8, 24, -8, -8]


def test_c_p4_no_rob_completes_the_added_kong_and_draws_from_the_back():
    hand = robbed_kong_position(J3)
    wall_back = int(hand.state.wall[0, hand.state.back[0]])
    row = hand.play({0: ["akong 5m"], 1: ["pass"]})
    events = [tuple(e) for e in row["trace"].tolist()]
    assert events[1] == (0, AKONG + 4, 4)  # seat 0 adds 5m to its pung
    assert events[2] == (0, TRACE_DRAW, wall_back)  # and draws the replacement from the back (C-W3)
    assert hand.state.n_kongs[0] == 1


def twelve_tile_position(rules):
    return ScriptedHand(
        rules,
        {
            0: "289m278p2589s3467z",
            1: "45m77z",
            2: "66m88m",
            3: "1357m1357p1357s3z",
        },
        melds={1: ["pung:1z", "pung:9p", "chow:123s"], 2: ["pung:2z", "pung:9s", "chow:456p"]},
        draws="1p9p3s1m7s2z6m",
    )


def test_jph_s4_twelve_tiles_makes_the_feeder_liable_only_for_the_first_player():
    # seat 0 feeds seat 1's fourth set (liable), then seat 2's fourth set (包先不包后: not liable);
    # seat 2 then self-draws 6m and is paid normally
    row = twelve_tile_position(J3).play(
        {0: ["discard 7z", "discard 8m"], 1: ["pung", "discard 4m"], 2: ["pung", "discard 6m", "win"]}
    )
    assert row["winners"] == [2] and row["win_kind"] == ["self_draw"]
    # chicken + self_draw 1 (2z is neither seat 2's wind 西 nor the round wind 东) -> 2 points a share
    assert row["fan"] == [1]
    assert row["liable"] is None
    assert list(row["net"]) == [-2, -2, 6, -2]


def test_jph_s4_without_first_only_the_feeder_is_liable_for_both():
    rules = ruleset("jipinghu", liability_first_only=False)
    row = twelve_tile_position(rules).play(
        {0: ["discard 7z", "discard 8m"], 1: ["pung", "discard 4m"], 2: ["pung", "discard 6m", "win"]}
    )
    assert row["liable"] == 0
    assert list(row["net"]) == [-6, 0, 6, 0]
    assert row["transfers"][C_LIABILITY, 0, 2] == 4


def test_jph_s4_liable_feeder_pays_all_three_shares_of_the_self_draw():
    position = ScriptedHand(
        J3,
        {0: "289m278p2589s3467z", 1: "45m77z", 2: "1346m1378p2468s", 3: "1357m1357p1357s3z"},
        melds={1: ["pung:1z", "pung:9p", "chow:123s"]},
        draws="2p8s3s5m",
    )
    row = position.play({0: ["discard 7z"], 1: ["pung", "discard 4m", "win"]})
    # seat 1: chicken + round wind 东 pung 1 + 中 pung 1 + self_draw 1 = 3 -> 8 a share, seat 0 pays 24
    assert row["winners"] == [1] and row["fan"] == [3]
    assert sorted(row["patterns"][0]) == ["chicken", "dragon_pung", "round_wind", "self_draw"]
    assert row["liable"] == 0
    assert list(row["net"]) == [-24, 24, 0, 0]
    assert row["transfers"][C_WIN, 0, 1] == 8 and row["transfers"][C_LIABILITY, 0, 1] == 16


def test_jph_s4_a_discard_win_after_twelve_tiles_is_paid_normally():
    position = ScriptedHand(
        J3,
        {0: "289m278p2589s3467z", 1: "45m77z", 2: "1346m1378p2468s", 3: "1357m1357p1357s3z"},
        melds={1: ["pung:1z", "pung:9p", "chow:123s"]},
        draws="2p8s3s",
    )
    row = position.play({0: ["discard 7z"], 1: ["pung", "discard 4m", "win"], 3: ["discard 5m"]})
    # seat 3 discards 5m: chicken + round wind 1 + 中 1 = 2 fan -> seat 3 alone pays 4
    assert row["win_kind"] == ["discard"] and row["discarder"] == 3 and row["fan"] == [2]
    assert row["liable"] is None
    assert list(row["net"]) == [0, 4, 0, -4]


def dragon_position(rules):
    return ScriptedHand(
        rules,
        {0: "289m278p2589s3467z", 1: "77z234m55p", 2: "1346m1379p2468s", 3: "1357m1357p1357s3z"},
        melds={1: ["pung:5z", "pung:6z"]},
        draws="2p9p3s5p",
    )


def test_jph_s5_feeding_the_third_dragon_makes_the_feeder_liable_for_the_limit_hand():
    row = dragon_position(J3).play({0: ["discard 7z"], 1: ["pung", "discard 5p", "win"]})
    # 大三元 big_dragons, a limit hand of 6 fan in [3] -> 64 a share; seat 0 pays all 192
    assert row["patterns"] == [["big_dragons"]] and row["fan"] == [6]
    assert row["liable"] == 0
    assert list(row["net"]) == [-192, 192, 0, 0]


def test_jph_s6_limit_hand_liability_switch():
    row = dragon_position(ruleset("jipinghu", liability_limit_hands=False)).play(
        {0: ["discard 7z"], 1: ["pung", "discard 5p", "win"]}
    )
    assert row["liable"] is None
    assert list(row["net"]) == [-64, 192, -64, -64]


def triple_win_position(rules):
    return ScriptedHand(
        rules,
        {0: "19m578p19s234567z5m", 1: SEAT1_WAITS_25M, 2: "111p222p333p678p5m", 3: "46m456s789s111z99p"},
    )


def test_jph_s1_three_winners_each_raised_to_the_cap_and_paid_by_the_discarder():
    row = triple_win_position(J3).play({0: ["discard 5m"], 1: ["win"], 2: ["win"], 3: ["win"]})
    assert row["winners"] == [1, 2, 3] and row["win_kind"] == ["discard"] * 3
    assert row["fan"] == [3, 3, 3]  # 1 (all chows), 1 (all chows), 1 (round wind) -> the cap
    assert all("triple_win" in p for p in row["patterns"])
    assert list(row["net"]) == [-24, 8, 8, 8]


def test_jph_m2_discard_pays_all_variant_triples_each_share():
    row = triple_win_position(ruleset("jipinghu", discard_pays_all=True)).play(
        {0: ["discard 5m"], 1: ["win"], 2: ["win"], 3: ["win"]}
    )
    assert list(row["net"]) == [-72, 24, 24, 24]


def test_jph_p2_two_winners_are_not_raised():
    row = triple_win_position(J3).play({0: ["discard 5m"], 1: ["win"], 2: ["win"], 3: ["pass"]})
    assert row["winners"] == [1, 2] and row["fan"] == [1, 1]
    assert list(row["net"]) == [-4, 2, 2, 0]


def kong_flower_position(rules):
    return ScriptedHand(
        rules,
        {0: "19m578p19s234567z7m", 1: "777m234p567p789s5s", 2: "1356m1379p2468s", 3: "1359m1358p135s3z"},
        back="5s",
    )


def test_jph_s2_kong_flower_on_a_discard_kong_makes_the_discarder_liable():
    row = kong_flower_position(J3).play({0: ["discard 7m"], 1: ["kong", "win"]})
    # chicken + self_draw 1, raised to the cap 3 by 杠上开花 (JPH-S2 [3]); seat 0 pays all three shares
    assert row["win_kind"] == ["kong_replacement"] and row["fan"] == [3]
    assert sorted(row["patterns"][0]) == ["chicken", "kong_flower", "self_draw"]
    assert row["liable"] == 0
    assert list(row["net"]) == [-24, 24, 0, 0]


def test_jph_s2_five_fan_edition_kong_flower_adds_one():
    row = kong_flower_position(J5).play({0: ["discard 7m"], 1: ["kong", "win"]})
    assert row["fan"] == [2]  # self_draw 1 + kong_flower 1 (a claimed kong: no 门前清)
    assert list(row["net"]) == [-12, 12, 0, 0]


def test_jph_s6_kong_flower_liability_switch():
    row = kong_flower_position(ruleset("jipinghu", liability_kong_flower=False)).play(
        {0: ["discard 7m"], 1: ["kong", "win"]}
    )
    assert row["liable"] is None and list(row["net"]) == [-8, 24, -8, -8]


def missed_win_position():
    return ScriptedHand(
        J3,
        {0: "19m578p19s23456z5m", 1: SEAT1_WAITS_25M, 2: "1239p1239s4567z5m", 3: "19m45p2356s12347z5m"},
        actor=3,
        draws="8p4p",
    )


def _win_offers(hand, seat):
    return [legal for s, decision, _, legal in hand.decisions if s == seat and decision == RESPONSE]


def test_jph_p3_a_passed_win_blocks_the_same_kind_until_the_next_draw():
    hand = missed_win_position()
    # seat 3 discards 5m: seat 1 passes the win; seat 0 draws and discards 5m: seat 1 may not win (漏胡);
    # seat 1 draws (the block lifts) and discards; seat 2 draws, discards 5m: seat 1 wins
    row = hand.play({3: ["discard 5m"], 1: ["pass", "win"], 0: ["discard 5m"], 2: ["discard 5m"]})
    # seat 1 is still asked about seat 0's 5m (it could chow it), but without the win
    assert _win_offers(hand, 1) == [True, False, True]
    assert row["winners"] == [1] and row["discarder"] == 2


def test_jph_p3_the_block_is_per_tile_kind():
    hand = ScriptedHand(
        J3,
        {0: "19m578p19s23456z2m", 1: SEAT1_WAITS_25M, 2: "1239p1239s4567z5m", 3: "19m45p2356s12347z5m"},
        actor=3,
    )
    row = hand.play({3: ["discard 5m"], 1: ["pass", "win"], 0: ["discard 2m"]})
    assert row["winners"] == [1] and row["discarder"] == 0


def test_jph_p3_rule_off_allows_the_second_win():
    hand = ScriptedHand(
        ruleset("jipinghu", missed_win="none"),
        {0: "19m578p19s23456z5m", 1: SEAT1_WAITS_25M, 2: "1239p1239s4567z5m", 3: "19m45p2356s12347z5m"},
        actor=3,
    )
    row = hand.play({3: ["discard 5m"], 1: ["pass", "win"], 0: ["discard 5m"]})
    assert row["winners"] == [1] and row["discarder"] == 0


def test_c_w4_exhaustive_draw_settles_nothing():
    hand = ScriptedHand(
        J3, {0: "19m578p19s234567z5m", 1: "147m258p369s1234z", 2: "147p258s369m5677z", 3: "147s258m369p1256z"}
    )
    row = hand.play({})
    assert row["winners"] == [] and row["wall_left"] == 0
    assert np.all(row["net"] == 0)


# ---- JPH-F2 first-turn limit hands and JPH-M3 who pays them ----------------------------------------

COMPLETE_14 = "123m456p789s234s11z"


def test_jph_f2_heavenly_win_paid_by_all_three():
    hand = ScriptedHand(
        J3,
        {0: COMPLETE_14, 1: "147m258p369s1234z", 2: "147p258s369m5677z", 3: "147s258m369p1256z"},
        first_go_around=True,
    )
    row = hand.play({0: ["win"]})
    assert row["patterns"] == [["heavenly"]] and row["fan"] == [6] and row["first_turn"] == [True]
    assert list(row["net"]) == [192, -64, -64, -64]


def test_jph_f2_earthly_win_on_the_first_draw():
    hand = ScriptedHand(
        J3,
        {0: "19m578p19s234567z5m", 1: "123m456p789s34s11z", 2: "147p258s369m5677z", 3: "147s258m369p1256z"},
        first_go_around=True,
        draws="2s",
    )
    row = hand.play({0: ["discard 5m"], 1: ["win"]})
    assert row["patterns"] == [["earthly"]] and row["win_kind"] == ["self_draw"]
    assert list(row["net"]) == [-64, 192, -64, -64]


def test_jph_m3_human_win_on_the_dealers_first_discard_paid_by_the_dealer_alone():
    hand = ScriptedHand(
        J3,
        {0: "19m578p19s234567z2s", 1: "123m456p789s34s11z", 2: "147p258s369m5677z", 3: "147s258m369p1256z"},
        first_go_around=True,
    )
    row = hand.play({0: ["discard 2s"], 1: ["win"]})
    assert row["patterns"] == [["human"]] and row["win_kind"] == ["discard"] and row["discarder"] == 0
    assert list(row["net"]) == [-64, 64, 0, 0]


def test_jph_f3_last_tile_self_draw_scores_haidi():
    hand = ScriptedHand(
        J3,
        {0: "19m578p19s234567z5m", 1: "123m456p789s34s11z", 2: "147p258s369m5677z", 3: "147s258m369p1256z"},
        draws="2s",
        wall_ends_after_draws=True,
    )
    row = hand.play({0: ["discard 5m"], 1: ["win"]})
    # all_chows 1 + self_draw 1 + last_tile 1 = 3 (the cap) -> 8 a share
    assert row["wall_left"] == 0 and row["last_tile"] == [True]
    assert sorted(row["patterns"][0]) == ["all_chows", "last_tile", "self_draw"] and row["fan"] == [3]
    assert list(row["net"]) == [-8, 24, -8, -8]
