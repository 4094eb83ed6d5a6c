"""推倒胡 through the engine: TDH-V payments, TDH-K kong money, TDH-M horses (scripted and statistical).

Amounts are worked out by hand from rules/tuidaohu.md; seats are absolute,
the dealer is seat 0 (offsets: seat 1 下家, seat 2 对家, seat 3 上家).
"""

import numpy as np
import pytest
from simtools import ScriptedHand

from mjsim import ruleset
from mjsim.sim.constants import DISCARD
from mjsim.sim.runner import play_sessions, seat_policies
from mjsim.sim.state import C_HORSE, C_KONG

Q = ruleset("tuidaohu")
G = ruleset("tuidaohu_ghost")
NEUTRAL = {2: "147m258p369s1234z", 3: "147p258s369m5667z"}


def q_self_draw(horses="", rules=Q):
    """Seat 1 self-draws a small hand (2 a share, TDH-V3 [Q])."""
    return ScriptedHand(
        rules, {0: "19m578p19s234577z5m", 1: "123m456p789s34s11z", **NEUTRAL}, draws="2s", horses=horses
    )


def test_tdh_v3_small_self_draw_each_pays_two():
    row = q_self_draw().play({0: ["discard 5m"], 1: ["win"]})
    assert row["patterns"] == [["small_hand"]] and row["fan"] == [1]
    assert list(row["net"]) == [-2, 6, -2, -2]


@pytest.mark.parametrize(
    "horses, net, horse_net",
    [
        # TDH-M4: a horse on the winner (2m -> 下家): the dealer wins what seat 1 wins, its own payment vanishes
        ("2m", [2, 6, -4, -4], [4, 0, -2, -2]),
        # a horse on the dealer (1m): the dealer's own transfers count twice
        ("1m", [-4, 8, -2, -2], [-2, 2, 0, 0]),
        # a horse on a loser (4m -> 上家): the dealer loses what seat 3 loses
        ("4m", [-4, 8, -2, -2], [-2, 2, 0, 0]),
        # several horses apply once each
        ("2m4m", [0, 8, -4, -4], [2, 2, -2, -2]),
        # honours: 中 -> dealer (TDH-M3 order 东南西北中发白)
        ("7z", [-4, 8, -2, -2], [-2, 2, 0, 0]),
    ],
)
def test_tdh_m4_dealer_horses(horses, net, horse_net):
    row = q_self_draw(horses).play({0: ["discard 5m"], 1: ["win"]})
    assert list(row["net"]) == net
    assert list(row["net_horse"]) == horse_net
    assert "".join(row["horses"]) == horses


def test_tdh_m4_horse_on_a_kong_maker_mirrors_kong_money():
    # seat 2 declares a concealed kong (TDH-K1: each other pays 2, settled at the end since someone wins);
    # the horse 3m points at seat 2: the dealer also collects seat 2's kong money and pays its win share
    hand = ScriptedHand(
        Q,
        {0: "19m578p19s234577z5m", 1: "123m456p789s34s11z", 2: "1111p258s369m1234z", 3: "147s258m369p5667z"},
        draws="8m9p6p9s2s",
        back="3p",
        horses="3m",
    )
    row = hand.play({0: ["discard 5m"], 2: ["ckong 1p"], 1: ["win"]})
    assert row["winners"] == [1]
    assert list(row["net_kong"]) == [-2, -2, 6, -2]
    assert list(row["net_horse"]) == [2, 0, 0, -2]
    assert list(row["net"]) == [-2, 4, 4, -6]
    assert row["transfers"][C_KONG].sum() == 6 and row["transfers"][C_HORSE].sum() == 6


def test_tdh_k2_no_kong_money_on_a_drawn_hand():
    hand = ScriptedHand(
        Q,
        {0: "19m578p19s234577z5m", 1: "147m258p369s1234z", 2: "1111p258s369m1346z", 3: "147s258m369p5567z"},
        back="3p",
    )
    row = hand.play({2: ["ckong 1p"]})
    assert row["winners"] == [] and np.all(row["net"] == 0)


def ghost_win(horses, winner_hand="123m456p789s34s11z", draw="2s"):
    return ScriptedHand(G, {0: "19m578p19s234677z5m", 1: winner_hand, **NEUTRAL}, draws=draw, horses=horses).play(
        {0: ["discard 5m"], 1: ["win"]}
    )


def test_tdh_m5_winner_horses_without_hits():
    # no ghost in the hand: 1 unit x2 无鬼 = 2 a share (TDH-V4); 6 horses, none on 下家 (TDH-M5 mapping)
    row = ghost_win("1m3m4m5m7m8m")
    assert sorted(row["patterns"][0]) == ["no_ghost", "small_hand"] and row["fan"] == [2]
    assert row["horse_hits"] == 0 and len(row["horses"]) == 6
    assert list(row["net"]) == [-2, 6, -2, -2] and list(row["net_horse"]) == [0, 0, 0, 0]


def test_tdh_m5_winner_horses_with_hits_pay_value_times_one_plus_hits():
    # 2m 6m 2p 中 point at 下家 (the winner, seat 1): 4 hits -> each payer pays 2 x (1 + 4) = 10
    row = ghost_win("26m2p7z1s3s")
    assert row["horse_hits"] == 4 and row["horse_seats"] == [1, 1, 1, 1, 0, 2]
    assert list(row["net"]) == [-10, 30, -10, -10]
    assert list(row["net_horse"]) == [-8, 24, -8, -8]


def test_tdh_m5_a_ghost_in_the_hand_buys_four_horses():
    # the winner holds 白 (ghost, 5z) as the pair's partner: 1 unit, no 无鬼; 4 horses: 2m 6m hit, 1s 3s miss
    row = ghost_win("26m1s3s2p7z", winner_hand="123m456p789s34s15z", draw="2s")
    assert row["patterns"] == [["small_hand"]] and row["fan"] == [1]
    assert len(row["horses"]) == 4 and row["horse_hits"] == 2
    assert list(row["net"]) == [-3, 9, -3, -3]


def test_tdh_m3_one_dealer_horse_points_at_each_seat_as_often_as_its_tiles():
    # 44 tiles point at the dealer, 32 at 下家, 32 at 对家, 28 at 上家; chi-square, 3 degrees of freedom
    offsets = []
    for chunk in play_sessions(Q, seat_policies("efficiency"), seed=77, first_session=0, end_session=6000):
        for seats, dealer in zip(chunk["horse_seats"], chunk["dealer"]):
            offsets.append((seats[0] - dealer) % 4)
    observed = np.bincount(offsets, minlength=4)
    expected = len(offsets) * np.array([44, 32, 32, 28]) / 136
    chi2 = ((observed - expected) ** 2 / expected).sum()
    assert len(offsets) == 6000
    assert chi2 < 11.34  # the 1% point of chi-square with 3 degrees of freedom


@pytest.mark.parametrize("preset", ["tuidaohu", "tuidaohu_dianpao"])
def test_tdh_m2_horse_count_follows_the_streak(preset):
    rules = ruleset(preset)
    cols = {}
    for chunk in play_sessions(rules, seat_policies("efficiency"), seed=3, first_session=0, end_session=60,
                               session_length=12):  # fmt: skip
        for k, v in chunk.items():
            cols.setdefault(k, []).extend(list(v))
    order = np.argsort(cols["hand_id"])
    hands = [{k: cols[k][i] for k in cols} for i in order]
    grown = 0
    for prev, cur in zip(hands, hands[1:]):
        if cur["session"] != prev["session"]:
            assert len(cur["horses"]) == 1
            continue
        if cur["dealer"] != prev["dealer"]:
            expected = 1  # TDH-M2: losing the deal resets the count
        else:
            kind = prev["win_kind"][prev["winners"].index(prev["dealer"])]
            step = 2 if (preset == "tuidaohu_dianpao" and kind != "discard") else 1
            expected = min(4, len(prev["horses"]) + step)
            grown += 1
        assert len(cur["horses"]) == expected
        assert cur["dealer"] == (prev["winners"][0] if prev["winners"] else (prev["dealer"] + 1) % 4)  # TDH-P5
    assert grown > 20


# ---- ghosts, 过手, robbing restrictions ------------------------------------------------------------------------

D = ruleset("tuidaohu_dianpao")


def test_tdh_v4_full_ghosts_is_an_instant_win_worth_six():
    hand = ScriptedHand(G, {0: "19m578p19s23455557z", 1: "123m456p789s34s11z", 2: NEUTRAL[2], 3: "147p258s369m1667z"})
    row = hand.play({0: ["win"]})
    assert row["patterns"] == [["full_ghosts"]] and row["fan"] == [6]
    assert list(row["net"]) == [18, -6, -6, -6]


def test_tdh_g1_ghost_tiles_cannot_be_punged_or_konged():
    hand = ScriptedHand(G, {0: "19m578p19s234677z5z", 1: "123m456p789s34s55z", **NEUTRAL}, draws="9m")
    hand.play({0: ["discard 5z"]})
    assert not any(seat == 1 and decision != 0 for seat, decision, _, _ in hand.decisions)  # no answer asked


def test_tdh_g1_flip_scheme_turns_a_tile_and_the_next_kind_is_wild():
    rules = ruleset("tuidaohu_ghost", wild_scheme="flip_next")
    chunk = next(play_sessions(rules, seat_policies("efficiency"), seed=5, first_session=0, end_session=200))
    wilds = [w[0] for w in chunk["wilds"]]
    assert len(set(wilds)) > 10  # the wild kind changes from hand to hand


def test_tdh_p3_a_passed_discard_win_blocks_every_discard_win_until_the_next_draw():
    hand = ScriptedHand(
        D,
        {0: "19m578p19s234577z2s", 1: "123m456p789s34s11z", 2: "147m258p369s1234z", 3: "147p258s369m5667z5s"},
        actor=3,
    )
    # 2s and 5s both complete seat 1's hand; it passes 3's 5s, then may not win on 0's 2s (过手: any tile)
    row = hand.play({3: ["discard 5s"], 1: ["pass"], 0: ["discard 2s"]})
    seat1 = [(decision, legal) for s, decision, _, legal in hand.decisions if s == 1]
    assert seat1[0] == (1, True)  # offered the 5s, passed
    assert seat1[1][0] == 0  # its next decision is its own turn: 0's 2s brought no offer
    events = [tuple(e) for e in row["trace"].tolist()]
    assert (0, DISCARD + 19, 19) in events  # seat 0 did discard 2s (tile 19) while seat 1 was blocked


def test_tdh_v3_dianpao_discard_win_is_one_unit_from_the_discarder():
    hand = ScriptedHand(
        D,
        {0: "19m578p19s234577z2s", 1: "123m456p789s34s11z", 2: "147m258p369s1234z", 3: "147p258s369m5667z5s"},
        actor=3,
    )
    row = hand.play({3: ["discard 5s"], 1: ["win"]})
    assert row["win_kind"] == ["discard"] and list(row["net"]) == [0, 1, 0, -1]


def test_tdh_s1_no_robbing_a_kong_of_a_tile_one_discarded():
    # seat 1 discarded 5m earlier (rob_kong_own_discard = false in the presets): it may not rob seat 0's 5m
    position = lambda: ScriptedHand(  # noqa: E731
        Q,
        {0: "123p456p11z22z5m", 1: "34m678m234s567s99s", 2: "111s222s333s444s5s", 3: "19m1234678p3344z"},
        melds={0: ["pung:5m"]},
    )
    hand = position()
    hand.state.discarded_kinds[0, 1] = 1 << 4  # seat 1 has discarded a 5m this hand
    row = hand.play({0: ["akong 5m"]})
    assert row["winners"] != [1]
    assert not any(seat == 1 and decision == 2 for seat, decision, _, _ in hand.decisions)
    allowed = position()
    row = allowed.play({0: ["akong 5m"], 1: ["win"]})
    assert row["win_kind"] == ["robbed_kong"] and row["liable"] == 0
    assert list(row["net"]) == [-6, 6, 0, 0]  # TDH-S1: the robbed player pays all three shares of 2
