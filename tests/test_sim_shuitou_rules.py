"""水头 (shuitou) rules in scripted positions, one test per rule ID (rules/shuitou.md), values worked by hand.

Seats are offsets from the dealer at seat 0 unless a test says otherwise.
Hands have 16 tiles (the actor's 17th is the one it just drew).  Unless a
test gives them, no 财神 are in play and nobody holds flowers, so a winner
without 财神 scores 硬牌 +7 (SHT-T2).
"""

import numpy as np
import pytest
from simtools import ScriptedHand

from mjsim import ruleset
from mjsim.sim.constants import CHOW_LOW, PUNG, RESPONSE, WIN
from mjsim.sim.engine import TRACE_FLOWER
from mjsim.sim.state import C_BASE, C_LIABILITY, C_WIN
from mjsim.tiles import parse_tiles, tile_set_wall

SHT = ruleset("shuitou")
# plain hands that hold no pair or pung of an honour, so their base 台 is 0 (SHT-T1)
SUITED_A = "11223344m556677p89s"
SUITED_B = "5566778899m123456s"
SUITED_C = "112233445566s8899p"
# all chows and a pair: 平和 +13 and 硬牌 +7 (SHT-T2), self-drawn +1 -> 21 台, doubled (SHT-T3) -> 42
PLAIN_WIN = "123m456m789m123p456p77s"
WAITS_5P = "123m456m789m123s99s46p"  # 16 tiles waiting on 5p (kanchan)
WAITS_5P_TOO = "123m456m789m456s88s46p"


def _responses(hand, seat):
    """The legal masks ``seat`` had for answers to a discard."""
    return [mask for s, kind, mask in hand.legal_masks if s == seat and kind == RESPONSE]


def _first_answer(hand, seat):
    """``seat``'s legal mask for the position's first discard, None when it was not asked (nothing but pass)."""
    started = False
    for s, kind, mask in hand.legal_masks:
        if kind != RESPONSE:
            if started:
                return None
            continue
        started = True
        if s == seat:
            return mask
    return None


def _with_filler(hands: dict, *extra: str) -> dict:
    """``hands`` with every seat not given a 16-tile filler hand of tiles the position does not use."""
    out = dict(hands)
    for seat in range(4):
        if seat not in out:
            out[seat] = _filler([*out.values(), *extra], 16)
    return out


def _filler(used, n: int) -> str:
    """``n`` playing tiles (no flower, no 白板) that the notations ``used`` leave, low ranks first."""
    pool = [t for t in tile_set_wall(144) if t < 34 and t != 31]
    for t in (tile for text in ([used] if isinstance(used, str) else used) for tile in parse_tiles(text)):
        pool.remove(t)
    return "".join(f"{t % 9 + 1}{'mpsz'[t // 9]}" for t in sorted(pool, key=lambda t: (t % 9, t))[:n])


def test_sht_p2_a_drawn_flower_is_replaced_from_the_back_again_and_again():
    hands = _with_filler({0: SUITED_A + "1z", 1: SUITED_B, 2: SUITED_C}, "3z")
    hand = ScriptedHand(SHT, hands, draws="1f", back="2f5z3z")
    row = hand.play({0: ["discard 1z"], 1: ["discard 3z"]})
    # seat 1 drew 1f, its replacement 2f, then 白板 (a flower here, SHT-P1), then 3z, which it threw
    assert row["flowers"][1].startswith("12") and "5z" in row["flowers"][1]  # later draws may add more
    flowers = [(int(s), int(t)) for s, a, t in row["trace"] if a == TRACE_FLOWER]
    first = flowers.index((1, 34))
    assert flowers[first : first + 3] == [(1, 34), (1, 35), (1, 31)]


def test_sht_p4_no_pung_and_no_chow_with_a_caishen():
    # 7z and 3s are 财神: seat 1 holds 7z7z and 3s4s, seat 0 throws a 7z, then (next test) a 2s
    pung = _with_filler({0: SUITED_B + "7z", 1: "7z7z3s4s" + "123456789m111p"})
    hand = ScriptedHand(SHT, pung, wilds=["3s", "7z"])
    hand.play({0: ["discard 7z"]})
    answer = _first_answer(hand, 1)
    assert answer is None or not answer[PUNG]  # C-J1 / SHT-P4: a 财神 is never punged
    plain = ScriptedHand(SHT, pung)
    plain.play({0: ["discard 7z"]})
    assert _first_answer(plain, 1)[PUNG]  # the same position without 财神 may pung
    chow = _with_filler({0: SUITED_B + "2s", 1: "3s4s" + "123456789m11p99p1z"})
    hand = ScriptedHand(SHT, chow, wilds=["3s"])
    hand.play({0: ["discard 2s"]})
    answer = _first_answer(hand, 1)
    assert answer is None or not answer[CHOW_LOW]  # 2s-3s-4s would use the 财神 3s
    plain = ScriptedHand(SHT, chow)
    plain.play({0: ["discard 2s"]})
    assert _first_answer(plain, 1)[CHOW_LOW]


def test_sht_p4_a_passed_pung_waits_for_the_players_draw():
    # seat 2 may pung seat 0's 5m and passes; seat 1's 5m right after may not be punged (no draw between)
    seat2 = "5m5m" + "11223344p778899s"
    hands = {0: _filler([seat2, "5m", "5m"], 16) + "5m", 2: seat2}
    hand = ScriptedHand(SHT, _with_filler(hands, "5m"), draws="5m")
    row = hand.play({0: ["discard 5m"], 1: ["discard 5m"], 2: ["pass"]})
    assert _first_answer(hand, 2)[PUNG]  # the first 5m could be punged
    offered = []  # seat 2's answers with a pung offered, until its own first turn
    for seat, kind, mask in hand.legal_masks:
        if seat == 2 and kind != RESPONSE:
            break
        if seat == 2 and mask[PUNG]:
            offered.append(mask)
    assert len(offered) == 1  # the second 5m, before seat 2 drew, could not be punged (SHT-P4)
    assert not [a for s, a, _ in row["trace"] if s == 2 and a == PUNG]  # seat 2 never punged


@pytest.mark.parametrize(
    "waiting, winner",
    [((1, 2), 1), ((2, 3), 2)],  # 下家 before 对家; 对家 before 上家
)
def test_sht_p5_head_bump_only_the_first_in_turn_order_wins(waiting, winner):
    hands = {0: "5566778899m12345s6z5p", waiting[0]: WAITS_5P, waiting[1]: WAITS_5P_TOO}
    hand = ScriptedHand(SHT, _with_filler(hands))
    row = hand.play({0: ["discard 5p"], waiting[0]: ["win"], waiting[1]: ["win"]})
    could_win = {seat for seat, _, mask in hand.legal_masks if mask[WIN]}
    assert set(waiting) <= could_win  # both could win on the 5p
    assert row["winners"] == [winner]
    assert row["win_kind"] == ["discard"]


def _split_position(rules, receiver_tiles):
    """Seat 0 throws; 24 tiles are left (SHT-P7), so seats 1, 2, 3, 0 receive the next four."""
    hands = _with_filler({0: SUITED_B + "6z", 1: SUITED_C, 2: WAITS_5P_TOO}, receiver_tiles)
    used = [*hands.values(), receiver_tiles]
    return ScriptedHand(rules, hands, draws=receiver_tiles + _filler(used, 20), wall_ends_after_draws=True)


def test_sht_p7_a_split_tile_wins_with_three_tai_more():
    hand = _split_position(SHT, "7z5p1z2z")
    row = hand.play({0: ["discard 6z"]})
    assert row["split_tiles"] == ["7z", "5p"]  # seat 2 won on the second: the last two were never dealt
    assert row["winners"] == [2] and row["split_win"] and row["win_kind"] == ["self_draw"]
    # 平和 13 + 硬牌 7 + 自摸 1 + 分牌 3 = 24 台, doubled: 48; the dealer pays twice (SHT-M1)
    assert row["fan"] == [48]
    assert sorted(row["patterns"][0]) == ["hard", "plain", "self_draw", "split_tile_win"]
    assert row["net_win"].tolist() == [-96, -48, 192, -48]


def test_sht_p7_no_win_on_the_split_tiles_is_a_drawn_hand_that_settles_nothing():
    hand = _split_position(SHT, "7z9p1z2z")
    row = hand.play({0: ["discard 6z"]})
    assert row["split_tiles"] == ["7z", "9p", "1z", "2z"]
    assert row["winners"] == [] and not row["split_win"]
    assert not row["net"].any()  # SHT-M4
    row = _split_position(SHT.replace(split_tiles=0), "7z5p1z2z").play({0: ["discard 6z"]})
    assert row["split_tiles"] == [] and row["winners"] == []  # SHT-H6: no 分牌, drawn at 24 tiles left


@pytest.mark.parametrize("winner", [0, 1])
def test_sht_m1_dealer_doubling_both_ways(winner):
    hands = {winner: PLAIN_WIN, 1 - winner: SUITED_B, 2: SUITED_C, 3: SUITED_A}
    hand = ScriptedHand(SHT, hands, actor=winner)
    row = hand.play({winner: ["win"]})
    assert row["fan"] == [42]  # 21 台 doubled
    if winner == 0:  # the dealer wins: each of the three pays twice
        assert row["net_win"].tolist() == [252, -84, -84, -84]
    else:  # the dealer pays twice, the others once
        assert row["net_win"].tolist() == [-84, 168, -42, -42]
    row = ScriptedHand(SHT.replace(dealer_pays_double=False), hands, actor=winner).play({winner: ["win"]})
    assert row["net_win"].tolist()[winner] == 126


def test_sht_m2_non_winners_settle_base_tai_pairwise_twice_with_the_dealer():
    # seat 1 wins; base 台: dealer 0 none = 0, seat 2 two red flowers = 3, seat 3 one black flower = 2
    hands = {0: SUITED_B, 1: PLAIN_WIN, 2: SUITED_A, 3: SUITED_C}
    hand = ScriptedHand(SHT, hands, actor=1, flowers={2: "12f", 3: "5f"})
    row = hand.play({1: ["win"]})
    assert row["base_tai"][0] == 0 and row["base_tai"][2] == 3 and row["base_tai"][3] == 2
    # (0, 2): 3 x 2 to seat 2; (0, 3): 2 x 2 to seat 3; (2, 3): 1 to seat 2
    assert row["net_base"].tolist() == [-10, 0, 7, 3]
    assert row["transfers"][C_BASE, 0, 2] == 6 and row["transfers"][C_BASE, 3, 2] == 1
    off = ScriptedHand(SHT.replace(settle_non_winners=False), hands, actor=1, flowers={2: "12f", 3: "5f"})
    assert not off.play({1: ["win"]})["net_base"].any()  # SHT-H5


@pytest.mark.parametrize("liability", [True, False])
def test_sht_m3_the_discarder_of_the_wind_a_shown_four_winds_wins_on_pays_for_all(liability):
    rules = SHT.replace(liability_four_winds=liability)
    hands = {0: SUITED_A + "4z", 1: "44z123m55p", 2: SUITED_B, 3: SUITED_C}
    melds = {1: ["pung:1z", "pung:2z", "pung:3z"]}
    hand = ScriptedHand(rules, hands, melds=melds)
    row = hand.play({0: ["discard 4z"], 1: ["win"]})
    # 南 pung (seat wind) +1; 硬牌 7 + 四风会齐 13 -> 21, doubled: 42; the dealer's share is twice
    assert row["fan"] == [42] and "four_winds" in row["patterns"][0]
    assert row["four_winds_feeder"] == 0
    if liability:
        assert row["liable"] == 0
        assert row["transfers"][C_WIN, 0, 1] == 84 and row["transfers"][C_LIABILITY, 0, 1] == 84
        assert row["net"].tolist() == [-168, 168, 0, 0]
    else:
        assert row["liable"] is None
        assert row["net"].tolist() == [-84, 168, -42, -42]


def test_sht_p3_held_caishen_count_in_a_non_winners_base_tai():
    # 3s and 7z are 财神; seat 2 holds one 3s (suited: 2 台) and two 7z (honour: 7 台) and a single 发 6z
    # that a 财神 pairs (+1): 10 台 (SHT-T1)
    hands = {0: SUITED_B, 1: PLAIN_WIN, 2: "3s7z7z6z" + "123456789m11p9p", 3: SUITED_C}
    row = ScriptedHand(SHT, hands, actor=1, wilds=["3s", "7z"]).play({1: ["win"]})
    assert row["base_tai"][2] == 10
    assert np.sum(row["net"]) == 0
