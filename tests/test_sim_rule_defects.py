"""Scripted hands for the issue-10 rule defects, written from the rules' text (rules/*.md).

Seats are absolute; the dealer is seat 0 (seat s has seat wind 1z + s, the
round wind is 东).  Amounts are worked out by hand: 鸡平胡 points = 2 ** fan a
share (C-M2).  Each re-settlement check runs the logged row through
``mjsim.analysis.resettle.resettle_hands``, so the engine, the reference
scorer and re-settlement are held to the same numbers.
"""

import numpy as np
import pytest
from simtools import ScriptedHand, logged_frame

from mjsim import ruleset, score_hand
from mjsim.analysis.resettle import resettle_hands
from mjsim.sim.constants import KONG, PUNG, RESPONSE, TURN

J3 = ruleset("jipinghu")
JPH_OTHERS = {0: "19p578p19s234667z", 2: "147p258s369p1234z", 3: "2356p2356s11s567z"}


def resettled_net(row, rules) -> list[int]:
    return resettle_hands(logged_frame(row), rules, 1)["net"].to_list()[0]


def rescored(rules, row, k=0):
    """The reference scorer's view of the row's k-th win (as the conformance tests call it)."""
    kind = row["win_kind"][k]
    return score_hand(
        rules, row["win_hands"][k], melds=row["win_melds"][k], win_tile=row["win_tiles"][k],
        self_draw=kind in ("self_draw", "kong_replacement"), kong_replacement=kind == "kong_replacement",
        robbed_kong=kind == "robbed_kong", seat=(row["winners"][k] - row["dealer"]) % 4,
        round_wind=row["round_wind"], last_tile=row["last_tile"][k], first_turn=row["first_turn"][k],
        discard_winners=len(row["winners"]) if kind == "discard" else 1,
    )  # fmt: skip


# ---- JPH-F2 九莲宝灯: the 13 tiles before the win are 1112345678999 ---------------------------------------


def nine_gates_self_draw(rules, before, drawn):
    return ScriptedHand(rules, {1: before + drawn, **JPH_OTHERS}, actor=1).play({1: ["win"]})


def test_jph_f2_nine_gates_waits_on_1112345678999_and_wins_on_any_tile_of_the_suit():
    row = nine_gates_self_draw(J3, "1112345678999m", "5m")
    assert row["patterns"] == [["nine_gates"]] and row["fan"] == [6]
    assert list(row["net"]) == [-64, 192, -64, -64]  # a limit hand of 6 fan: 64 a share (JPH-M1)


def test_jph_f2_the_nine_gates_shape_won_on_another_tile_is_only_a_full_flush():
    # 1112345567899m + 9m makes 11123455678999m, but the 13 tiles before the win were not 1112345678999
    row = nine_gates_self_draw(J3, "1112345567899m", "9m")
    assert row["patterns"] == [["full_flush"]] and row["fan"] == [4]  # 清一色, a limit of 4 in [3]
    assert list(row["net"]) == [-16, 48, -16, -16]
    assert rescored(J3, row).patterns == ("full_flush",)


def test_jph_f2_nine_gates_wait_shape_reads_the_final_fourteen_tiles_alone():
    shape = ruleset("jipinghu", nine_gates_wait="shape")
    row = nine_gates_self_draw(shape, "1112345567899m", "9m")
    assert row["patterns"] == [["nine_gates"]] and list(row["net"]) == [-64, 192, -64, -64]
    # a settlement option: the seed's reading, logged, re-settles under shape to the same money, and back
    logged = nine_gates_self_draw(J3, "1112345567899m", "9m")
    assert resettled_net(logged, shape) == [-64, 192, -64, -64]
    assert resettled_net(row, J3) == [-16, 48, -16, -16]


# ---- JPH-S1 is about discards: three robbers of one added kong are three JPH-S3 wins ----------------------


def triple_rob_position(rules):
    # seat 0 adds the fourth 5m to its pung; seats 1, 2 and 3 all wait on 5m
    return ScriptedHand(
        rules,
        {0: "789m456s22z33z5m", 1: "34m678m234s567s99s", 2: "46m111p222p333p99p", 3: "46m456s789s111z99p"},
        melds={0: ["pung:5m"]},
    )


def test_jph_s1_three_robbers_of_one_kong_are_three_robbed_kong_wins_not_a_triple_win():
    rules = ruleset("jipinghu", robbed_kong_bonus="self_draw_only")
    row = triple_rob_position(rules).play({0: ["akong 5m"], 1: ["win"], 2: ["win"], 3: ["win"]})
    assert row["winners"] == [1, 2, 3] and row["win_kind"] == ["robbed_kong"] * 3
    # JPH-S3 with the rob as self-draw only: all_chows 1 / all_chows 1 / round wind 1, each + self_draw 1 = 2 fan,
    # no 一炮三响 raise; the robbed seat 0 pays each robber's three shares of 4
    assert row["fan"] == [2, 2, 2] and not any("triple_win" in p for p in row["patterns"])
    assert list(row["net"]) == [-36, 12, 12, 12] and row["liable"] == 0
    # the reference scorer and re-settlement see the same three wins
    for k in range(3):
        score = rescored(rules, row, k)
        assert (score.fan, sorted(score.patterns)) == (row["fan"][k], sorted(row["patterns"][k]))
    assert resettled_net(row, rules) == [-36, 12, 12, 12]


def test_jph_s3_three_robbers_each_get_the_kong_flower_minimum_in_the_three_fan_edition():
    row = triple_rob_position(J3).play({0: ["akong 5m"], 1: ["win"], 2: ["win"], 3: ["win"]})
    assert row["fan"] == [3, 3, 3] and all("robbed_kong" in p and "triple_win" not in p for p in row["patterns"])
    assert list(row["net"]) == [-72, 24, 24, 24]


def triple_discard_position(rules):
    return ScriptedHand(
        rules,
        {0: "19m578p19s234567z5m", 1: "34m678m234s567s99s", 2: "111p222p333p678p5m", 3: "46m456s789s111z99p"},
    )


def test_jph_s1_triple_win_pays_all_the_discarder_pays_each_winner_three_shares():
    pays_all = ruleset("jipinghu", triple_win_pays_all=True)
    row = triple_discard_position(pays_all).play({0: ["discard 5m"], 1: ["win"], 2: ["win"], 3: ["win"]})
    assert row["fan"] == [3, 3, 3]  # raised to the cap (JPH-S1 [3]): 8 a share, three shares a winner
    assert list(row["net"]) == [-72, 24, 24, 24]
    # a settlement option: the default's log re-settles to the same money
    logged = triple_discard_position(J3).play({0: ["discard 5m"], 1: ["win"], 2: ["win"], 3: ["win"]})
    assert list(logged["net"]) == [-24, 8, 8, 8]
    assert resettled_net(logged, pays_all) == [-72, 24, 24, 24]


def test_jph_s1_triple_win_pays_all_leaves_two_winners_at_one_share():
    pays_all = ruleset("jipinghu", triple_win_pays_all=True)
    row = triple_discard_position(pays_all).play({0: ["discard 5m"], 1: ["win"], 2: ["win"], 3: ["pass"]})
    assert list(row["net"]) == [-4, 2, 2, 0]


# ---- JPH-F2 / TDH-V2 first go-around: a concealed kong is not a claim ---------------------------------


def dealer_konged_position(rules, back):
    """The hand's start: the dealer holds four 7z (a concealed kong to declare); seat 1 waits on 2s or 5s."""
    return ScriptedHand(
        rules,
        {0: "19m58p19s2345z7777z", 1: "123m456p789s34s11z", 2: "147p258s369m1234z", 3: "147s258m369p5566z"},
        first_go_around=True,
        draws="2s",
        back=back,
    )


def test_jph_f2_earthly_win_after_the_dealers_concealed_kong():
    row = dealer_konged_position(J3, "8m").play({0: ["ckong 7z", "discard 8m"], 1: ["win"]})
    assert row["patterns"] == [["earthly"]] and row["fan"] == [6] and row["first_turn"] == [True]
    assert list(row["net"]) == [-64, 192, -64, -64]  # JPH-M3: 地和 is paid by all three


def test_jph_f2_human_win_on_the_dealers_first_discard_after_its_concealed_kong():
    row = dealer_konged_position(J3, "2s").play({0: ["ckong 7z", "discard 2s"], 1: ["win"]})
    assert row["patterns"] == [["human"]] and row["win_kind"] == ["discard"]
    assert list(row["net"]) == [-64, 64, 0, 0]  # JPH-M3: 人和 is paid by the dealer alone


def test_jph_f2_first_turn_ends_on_concealed_kong_option():
    rules = ruleset("jipinghu", first_turn_ends_on_concealed_kong=True)
    row = dealer_konged_position(rules, "8m").play({0: ["ckong 7z", "discard 8m"], 1: ["win"]})
    # no 地和: all_chows 1 + self_draw 1 = 2 fan, 4 a share
    assert row["first_turn"] == [False] and sorted(row["patterns"][0]) == ["all_chows", "self_draw"]
    assert list(row["net"]) == [-4, 12, -4, -4]


def test_jph_f2_earthly_win_on_the_replacement_for_the_winners_own_first_concealed_kong():
    hand = ScriptedHand(
        J3,
        {0: "19m578p19s234566z5m", 1: "123m456p78s11z777z", 2: "147p258s369m1234z", 3: "147s258m369p1356z"},
        first_go_around=True,
        draws="7z",
        back="9s",
    )
    row = hand.play({0: ["discard 5m"], 1: ["ckong 7z", "win"]})
    assert row["win_kind"] == ["kong_replacement"] and row["win_melds"] == [["ckong:7z"]]
    assert row["patterns"] == [["earthly"]] and row["first_turn"] == [True]
    assert list(row["net"]) == [-64, 192, -64, -64]
    score = rescored(J3, row)  # the reference scorer accepts a first-turn win with a concealed kong
    assert (score.fan, score.patterns) == (6, ("earthly",))
    with_option = ruleset("jipinghu", first_turn_ends_on_concealed_kong=True)
    with pytest.raises(ValueError, match="first_turn_ends_on_concealed_kong"):
        rescored(with_option, row)


def test_tdh_v2_earthly_big_hand_after_the_dealers_concealed_kong():
    q = ruleset("tuidaohu")
    row = dealer_konged_position(q, "8m").play({0: ["ckong 7z", "discard 8m"], 1: ["win"]})
    # 地胡 [Q]: a big hand, 2 units x 2 from each of three (TDH-V3); the concealed kong: 2 from each (TDH-K1)
    assert row["patterns"] == [["earthly"]] and row["fan"] == [2]
    assert list(row["net"]) == [-4 + 6, 12 - 2, -4 - 2, -4 - 2]
    ended = ruleset("tuidaohu", first_turn_ends_on_concealed_kong=True)
    row = dealer_konged_position(ended, "8m").play({0: ["ckong 7z", "discard 8m"], 1: ["win"]})
    assert row["patterns"] == [["small_hand"]] and list(row["net"]) == [-2 + 6, 6 - 2, -2 - 2, -2 - 2]


# ---- C-P3: the last discard of the wall may be claimed by pung or chow --------------------------------------


def last_discard_position(seat1):
    """Seat 0 has drawn the wall's last tile and discards 5z; seat 1 may pung it, then discards 2m,
    which seat 2 (all chows, waiting on 2m or 5m) may win on."""
    return ScriptedHand(
        J3,
        {0: "19m578p19s234667z5z", 1: seat1, 2: "34m678m234s567s99s", 3: "147m258p369s1234z"},
        wall_ends_after_draws=True,
    )


def _answers(hand, seat):
    return [mask for s, decision, mask in hand.legal_masks if s == seat and decision == RESPONSE]


def test_c_p3_a_pung_on_the_last_discard_and_a_win_on_the_claimers_discard():
    hand = last_discard_position("147p258s369p2m4z55z")
    row = hand.play({0: ["discard 5z"], 1: ["pung", "discard 2m"], 2: ["win"]})
    assert row["winners"] == [2] and row["discarder"] == 1 and row["wall_left"] == 0
    assert list(row["net"]) == [0, -2, 2, 0]  # all_chows 1 fan, one share from the discarder (JPH-M2)


def test_c_p3_no_exposed_kong_on_the_last_discard_and_an_unclaimed_last_discard_draws_the_hand():
    hand = last_discard_position("147p258s369p2m555z")
    row = hand.play({0: ["discard 5z"], 1: ["pung", "discard 2m"], 2: ["pass"]})
    first_answer = _answers(hand, 1)[0]
    assert first_answer[PUNG] and not first_answer[KONG]  # a kong would need a replacement tile
    assert row["winners"] == [] and row["wall_left"] == 0 and np.all(row["net"] == 0)


# ---- TDH-P3 过手 [D]: only the player's own next draw lifts the block -------------------------------------

D = ruleset("tuidaohu_dianpao")


def _seat_decisions(hand, seat):
    return [(decision, win_legal) for s, decision, _, win_legal in hand.decisions if s == seat]


def pung_over_win_position(rules):
    # seat 3 discards 5s: seat 1 (123m456p789s11z55s) may win on it or pung it
    return ScriptedHand(
        rules,
        {0: "19m578p19s234577z", 1: "123m456p789s11z55s", 2: "147m258p369s1234z", 3: "147p258s369m5667z5s"},
        actor=3,
        draws="1p9m2z3z",
    )


def test_tdh_p3_punging_instead_of_a_legal_win_counts_as_passing_it():
    # seat 1 pungs 5s, discards 9s (now waiting on 6s or 9s); seat 2 discards 6s before seat 1 draws again
    script = {3: ["discard 5s"], 1: ["pung", "discard 9s"], 2: ["discard 6s"]}
    hand = pung_over_win_position(D)
    hand.play(script)
    assert _seat_decisions(hand, 1)[:3] == [(RESPONSE, True), (TURN, False), (TURN, False)]  # no offer of the 6s
    # without 过手 the same 6s is a win seat 1 is offered
    free = pung_over_win_position(ruleset("tuidaohu_dianpao", missed_win="none"))
    free.play(script)
    assert _seat_decisions(free, 1)[2] == (RESPONSE, True)


def test_tdh_p3_a_claim_does_not_lift_a_passed_win():
    # seat 1 (123m456p789s11z22z) passes a win on 3's 1z, then pungs 0's 2z (no win offered: 过手), discards 9s;
    # still no discard win (2's 6s) until seat 1's own next draw
    hand = ScriptedHand(
        D,
        {0: "19m578p19s234577z", 1: "123m456p789s11z22z", 2: "147m258p369s1234z", 3: "147p258s369m5667z1z"},
        actor=3,
        draws="3p1p9m4p3z",
    )
    hand.play({3: ["discard 1z"], 1: ["pass", "pung", "discard 9s"], 0: ["discard 2z"], 2: ["discard 6s"]})
    decisions = _seat_decisions(hand, 1)
    assert decisions[:4] == [(RESPONSE, True), (RESPONSE, False), (TURN, False), (TURN, False)]


# ---- JPH-S5a: precedence of JPH-S4 and JPH-S5 feeders, and the reach of 包先不包后 --------------------------


def feeder_of_two_position(rules):
    """Seat 0 feeds seat 2's fourth exposed set (8m, JPH-S4), then seat 1's third dragon pung (7z, JPH-S5);
    seat 1 then self-draws 大三元."""
    return ScriptedHand(
        rules,
        {0: "289m278p2589s3467z", 1: "77z234m88p", 2: "66m88m", 3: "1357m1357p1357s3z"},
        melds={1: ["pung:5z", "pung:6z"], 2: ["pung:2z", "pung:9s", "chow:456p"]},
        draws="1p9p3s2s4p8p",
    ).play({0: ["discard 8m", "discard 7z"], 1: ["pung", "discard 8p", "win"], 2: ["pung", "discard 6m"]})


def test_jph_s5a_by_default_bao_xian_bu_bao_hou_counts_within_jph_s4_only():
    row = feeder_of_two_position(J3)
    assert row["twelve_feeder"].tolist()[2] == 0 and row["limit_feeder"].tolist()[1] == 0
    assert row["patterns"] == [["big_dragons"]] and row["liable"] == 0
    assert list(row["net"]) == [-192, 192, 0, 0]  # JPH-S5: seat 0 pays all three shares of 64


def test_jph_s5a_liability_once_across_rules_frees_the_feeder_already_liable_for_another():
    across = ruleset("jipinghu", liability_once_across_rules=True)
    row = feeder_of_two_position(across)
    # seat 0's first liability was for seat 2 (JPH-S4): it is not liable for seat 1 as well
    assert row["liable"] is None and list(row["net"]) == [-64, 192, -64, -64]
    assert resettled_net(feeder_of_two_position(J3), across) == [-64, 192, -64, -64]


def test_jph_s5a_liability_precedence_first_or_limit():
    # In 13-tile play the third dragon pung is one of the four exposed sets, so the JPH-S5 claim never comes
    # after the JPH-S4 one; the facts are set by hand (seat 3 fed seat 1's fourth set at discard 5, before
    # seat 0 fed the dragon) to settle the two readings of JPH-S5a.
    row = feeder_of_two_position(J3)
    assert row["limit_turn"].tolist()[1] > 5
    row["twelve_feeder"] = np.array([-1, 3, -1, -1])
    row["twelve_turn"] = np.array([-1, 5, -1, -1])
    assert resettled_net(row, J3) == [0, 192, 0, -192]  # first: the JPH-S4 trigger came first
    assert resettled_net(row, ruleset("jipinghu", liability_precedence="limit")) == [-192, 192, 0, 0]
