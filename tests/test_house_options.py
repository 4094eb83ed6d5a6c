"""House options of 推倒胡 and 鸡平胡 (TDH-H1..H11, C-W5 留牌, C-P7 跟庄): worked examples.

Every amount is worked out by hand from rules/tuidaohu.md and rules/common.md; seats are absolute and the
dealer is seat 0 (seat 1 下家, seat 2 对家, seat 3 上家).  A share of a [Q] self-draw is 2 × hand value; a [G]
share is 1 unit × 2 无鬼 × 2 杠开 (TDH-V4).
"""

import numpy as np
import pytest
from simtools import ScriptedHand

from mjsim import ruleset, score_hand
from mjsim.sim import engine
from mjsim.sim.constants import DISCARD, PUNG
from mjsim.sim.engine import TRACE_DRAW, TRACE_EXHAUSTED
from mjsim.sim.settle import settle_dealer_horses
from mjsim.sim.state import C_HORSE, C_WIN, allocate_state, engine_params
from mjsim.tiles import parse_tiles, tile_set_wall

Q = ruleset("tuidaohu")
G = ruleset("tuidaohu_ghost")
J = ruleset("jipinghu")
NEUTRAL = {2: "147m258p369s1234z", 3: "147p258s369m5667z"}


# ---- C-W5 留牌 ------------------------------------------------------------------------------------------------


def kong_at_the_wall_end(rules):
    """The dealer konges 9999p with two tiles left: 8p at the front, 2s at the back (its replacement)."""
    hand = ScriptedHand(
        rules,
        {0: "9999p258s369m2346z", 1: "123m456p789s34s11z", **NEUTRAL},
        draws="8p",
        back="2s",
        wall_ends_after_draws=True,
    )
    row = hand.play({0: ["ckong 9p"]})
    return [tuple(e) for e in row["trace"].tolist()]


def test_c_w5_dead_wall_the_kong_replacement_counts_as_a_draw():
    # with 留牌 1, two tiles left are one drawable: the replacement takes it, and 下家 cannot draw the 8p
    events = kong_at_the_wall_end(Q.replace(dead_wall=1))
    assert (0, TRACE_DRAW, parse_tiles("2s")[0]) in events
    assert not any(seat == 1 and action == TRACE_DRAW for seat, action, _ in events)
    assert events[-1][:2] == (1, TRACE_EXHAUSTED)
    # without it 下家 draws the 8p and 对家 finds the wall empty
    events = kong_at_the_wall_end(Q)
    assert (1, TRACE_DRAW, parse_tiles("8p")[0]) in events
    assert events[-1][:2] == (2, TRACE_EXHAUSTED)


def test_c_w5_dead_wall_a_winning_draw_kept_back_is_never_drawn():
    position = dict(draws="2s", wall_ends_after_draws=True)
    hands = {0: "19m578p19s234577z5m", 1: "123m456p789s34s11z", **NEUTRAL}
    row = ScriptedHand(Q, hands, **position).play({0: ["discard 5m"], 1: ["win"]})
    assert row["winners"] == [1]
    row = ScriptedHand(Q.replace(dead_wall=1), hands, **position).play({0: ["discard 5m"]})
    assert row["winners"] == [] and row["wall_left"] == 0 and np.all(row["net"] == 0)


# ---- C-P7 跟庄 ------------------------------------------------------------------------------------------------

FOLLOW_HANDS = {0: "19m578p19s234577z5m", 1: "479m258p369s1234z", 2: "369m147p258s1256z", 3: "259m369p147s3466z"}


def first_go_around(rules, last_discard="discard 9m"):
    """Each player's first discard is 9m (the last one's as given); the wall then runs out."""
    hand = ScriptedHand(rules, FOLLOW_HANDS, draws="1p2p3p", first_go_around=True, wall_ends_after_draws=True)
    return hand.play({0: ["discard 9m"], 1: ["discard 9m"], 2: ["discard 9m"], 3: [last_discard]})


@pytest.mark.parametrize("rules", [Q, J], ids=["tuidaohu", "jipinghu"])
def test_c_p7_follow_dealer_the_dealer_pays_each_other_player(rules):
    row = first_go_around(rules.replace(follow_dealer=2))
    assert row["followed_dealer"] and row["winners"] == []  # a drawn hand: 跟庄 is paid whatever the result
    assert list(row["net"]) == [-6, 2, 2, 2] and list(row["net_penalty"]) == [-6, 2, 2, 2]
    row = first_go_around(rules)  # the fact is logged with the option off too (re-settlement reads it)
    assert row["followed_dealer"] and np.all(row["net"] == 0)


def test_c_p7_one_other_kind_among_the_first_four_discards_is_no_follow():
    row = first_go_around(Q.replace(follow_dealer=2), last_discard="discard 2m")
    assert not row["followed_dealer"] and np.all(row["net"] == 0)


def test_c_p7_a_claim_before_the_fourth_discard_ends_the_follow():
    # 对家 pungs the dealer's 9m, then 上家 and the dealer discard 9m: not four first discards before a claim
    hands = {0: "19m578p19s234577z5m", 1: "147m258p369s1234z", 2: "99m147p258s12566z", 3: "259m369p147s3466z"}
    hand = ScriptedHand(Q.replace(follow_dealer=2), hands, draws="1p2p", first_go_around=True,
                        wall_ends_after_draws=True)  # fmt: skip
    row = hand.play({0: ["discard 9m"], 2: ["pung", "discard 1p"], 3: ["discard 9m"]})
    events = [tuple(e) for e in row["trace"].tolist()]
    assert (2, PUNG, parse_tiles("9m")[0]) in events and (3, DISCARD + parse_tiles("9m")[0], 8) in events
    assert not row["followed_dealer"] and np.all(row["net_penalty"] == 0)


# ---- TDH-H1 马跟杠, TDH-H11 horse_settlement ------------------------------------------------------------------


def q_kong_and_win(rules):
    """Seat 2 konges 1p concealed (each other pays 2, TDH-K1); seat 1 self-draws a small hand (2 a share);
    the dealer's horse 3m points at seat 2 (TDH-M3)."""
    hand = ScriptedHand(
        rules,
        {0: "19m578p19s234577z5m", 1: "123m456p789s34s11z", 2: "1111p258s369m1346z", 3: "147s258m369p5567z"},
        draws="8m9p6p9s2s",
        back="3p",
        horses="3m",
    )
    return hand.play({0: ["discard 5m"], 2: ["ckong 1p"], 1: ["win"]})


def test_tdh_h1_dealer_horses_off_kongs_mirror_the_win_money_only():
    row = q_kong_and_win(Q.replace(horses_on_kongs=False))
    assert list(row["net_kong"]) == [-2, -2, 6, -2]
    # seat 2 paid 2 to seat 1: the dealer pays seat 1 2 more; seat 2's kong money is not mirrored
    assert list(row["net_horse"]) == [-2, 2, 0, 0]
    assert list(row["net"]) == [-6, 6, 4, -4]
    assert list(q_kong_and_win(Q)["net_horse"]) == [2, 0, 0, -2]  # TDH-M4 default: kongs mirrored too


def g_kong_flower_win(rules, horses="26m2p7z1s3s"):
    """Seat 1 konges 8888m concealed (2 from each other at once, TDH-K2 [G]) and wins on the replacement
    2s: 1 x2 无鬼 x2 杠开 = 4 a share; 6 horses, 2m 6m 2p 中 on 下家 = 4 hits (TDH-M5)."""
    hand = ScriptedHand(
        rules, {0: "19m578p19s234677z", 1: "8888m456p789s34s11z", **NEUTRAL}, actor=1, back="2s", horses=horses
    )
    return hand.play({1: ["ckong 8m", "win"]})


def test_tdh_h1_winner_horses_on_kongs_multiply_the_kong_money():
    row = g_kong_flower_win(G)
    assert row["fan"] == [4] and row["horse_hits"] == 4
    assert list(row["net"]) == [-22, 66, -22, -22]  # each payer: 4 win + 4 x 4 horses + 2 kong
    row = g_kong_flower_win(G.replace(winner_horses_on_kongs=True))
    assert list(row["net_horse"]) == [-24, 72, -24, -24]  # (4 + 2 kong) x 4 hits
    assert list(row["net"]) == [-30, 90, -30, -30]


def exposed_kong_then_win(rules):
    """Seat 2 konges seat 3's 1p (kong_pay_discard 2: seat 3 pays 2); seat 1 then self-draws (2 a share).
    Seat 2 ends even: +2 kong, -2 win.  The dealer's horse 3m points at seat 2."""
    hand = ScriptedHand(
        rules,
        {0: "19m578p19s234577z", 1: "123m456p789s34s11z", 2: "111p258s369m1346z", 3: "147s258m369p5567z1p"},
        actor=3,
        draws="8m9p2s",
        back="3p",
        horses="3m",
    )
    return hand.play({3: ["discard 1p"], 2: ["kong"], 1: ["win"]})


def test_tdh_h11_net_horse_settlement_a_seat_that_broke_even_moves_nothing():
    rules = Q.replace(kong_pay_discard=2)
    row = exposed_kong_then_win(rules)
    assert list(row["net_kong"]) == [0, 0, 2, -2] and list(row["net_win"]) == [-2, 6, -2, -2]
    # transfers (TDH-M4): seat 3 pays the dealer the 2 it paid seat 2; the dealer pays seat 1 the 2 seat 2 paid
    assert list(row["net_horse"]) == [0, 2, 0, -2]
    row = exposed_kong_then_win(rules.replace(horse_settlement="net"))  # 如果是平则不用计算输赢
    assert list(row["net_horse"]) == [0, 0, 0, 0] and list(row["net"]) == [-2, 6, 0, -4]


def net_horse(transfers, seat, **options):
    """Horse money of one dealer horse on ``seat`` (dealer 0) over the given win transfers (payer, payee, pts)."""
    st = allocate_state(1)
    for payer, payee, points in transfers:
        st.transfers[0, C_WIN, payer, payee] += points
    st.n_horses[0] = 1
    st.horse_seats[0, 0] = seat
    settle_dealer_horses(st, engine_params(Q.replace(**options)), 0)
    horse = st.transfers[0, C_HORSE]
    return (horse.sum(axis=0) - horse.sum(axis=1)).tolist()


def test_tdh_h11_net_horse_settlement_splits_in_proportion_by_largest_remainder():
    # seat 1 (the horse) took 2 from seat 2 and 2 from seat 3 and paid the dealer 1: net +3 over seats 2 and 3
    # in proportion 2:2 = 1.5 each; whole points: 1 each, the point left to seat 2 (first in turn from seat 1)
    flows = [(2, 1, 2), (3, 1, 2), (1, 0, 1)]
    assert net_horse(flows, 1, horse_settlement="net") == [3, 0, -2, -1]
    assert net_horse(flows, 1) == [4, 0, -2, -2]  # transfers: the 1 seat 1 paid the dealer vanishes
    # a losing horse seat: seat 3 paid seat 1 3 and seat 2 1 (net -4): the dealer pays 3 and 1
    assert net_horse([(3, 1, 3), (3, 2, 1)], 3, horse_settlement="net") == [-4, 3, 1, 0]


# ---- TDH-H2 马跟底分, TDH-H3 爆炸马, TDH-H10, TDH-H8 -------------------------------------------------------------


def ghost_win(rules, horses, winner_hand="123m456p789s34s11z", draw="2s"):
    """The dealer discards 5m, seat 1 self-draws: with no ghost 2 a share (1 x2 无鬼), 6 winner horses."""
    hand = ScriptedHand(rules, {0: "19m578p19s234677z5m", 1: winner_hand, **NEUTRAL}, draws=draw, horses=horses)
    return hand.play({0: ["discard 5m"], 1: ["win"]})


def test_tdh_h2_winner_horse_value_base_each_hit_pays_one_unit():
    row = ghost_win(G, "26m2p7z1s3s")  # 4 hits: each payer 2 x (1 + 4) = 10
    assert list(row["net"]) == [-10, 30, -10, -10]
    row = ghost_win(G.replace(winner_horse_value="base"), "26m2p7z1s3s")  # 2 + 1 x 4 = 6
    assert row["horse_hits"] == 4 and list(row["net_horse"]) == [-4, 12, -4, -4]
    assert list(row["net"]) == [-6, 18, -6, -6]


@pytest.mark.parametrize("horses, hits", [("7m1s2s3s4s5s", 7), ("1z7m2s3s4s5s", 10), ("9p7m2s3s4s5s", 9)])
def test_tdh_h3_one_horse_its_rank_is_the_hits(horses, hits):
    row = ghost_win(G.replace(winner_horse_scheme="one_horse"), horses)
    assert row["horses"] == [horses[:2]] and row["horse_hits"] == hits
    assert list(row["net_horse"]) == [-2 * hits, 6 * hits, -2 * hits, -2 * hits]  # 2 a share x hits


def test_tdh_h10_winner_horses_counted_from_the_winner():
    # from the dealer none of 1m 3m 4m 5m 7m 8m points at 下家; from the winner (seat 1) 1m and 5m do
    assert ghost_win(G, "1m3m4m5m7m8m")["horse_hits"] == 0
    row = ghost_win(G.replace(winner_horses_from="winner"), "1m3m4m5m7m8m")
    assert row["horse_seats"] == [1, 3, 0, 1, 3, 0] and row["horse_hits"] == 2
    assert list(row["net"]) == [-6, 18, -6, -6]  # 2 x (1 + 2) a share


def full_ghosts(rules):
    """The dealer holds all four 白 (满鬼, 6 a share, TDH-V4); 4 horses (a ghost held): 1m 5m 9m hit."""
    hand = ScriptedHand(
        rules,
        {0: "19m578p19s23455557z", 1: "123m456p789s34s11z", 2: NEUTRAL[2], 3: "147p258s369m1667z"},
        horses="1m5m9m2m3m4m",
    )
    return hand.play({0: ["win"]})


def test_tdh_h8_full_ghosts_horses():
    row = full_ghosts(G)
    assert row["patterns"] == [["full_ghosts"]] and row["horse_hits"] == 3
    assert list(row["net"]) == [72, -24, -24, -24]  # 6 x (1 + 3)
    row = full_ghosts(G.replace(full_ghosts_horses=False))
    assert row["horses"] == [] and row["horse_hits"] == 0
    assert list(row["net"]) == [18, -6, -6, -6]


# ---- TDH-H4 七对加倍, TDH-H5 杠开加倍 / 抢杠加倍, TDH-H7 鬼牌归位算无鬼 -----------------------------------------------

NO_HITS = "3p3p4p4p8p8p"  # 对家, 上家 (TDH-M5)


def reference(rules, hand, **situation):
    score = score_hand(rules, hand, **situation)
    return score.fan, sorted(score.patterns)


@pytest.mark.parametrize(
    "winner_hand, units, patterns",
    [
        ("1133m5577p99s112z", 6, ["no_ghost", "seven_pairs", "small_hand"]),  # 1 x2 无鬼 x3 七对
        ("1133m5577p99s125z", 3, ["seven_pairs", "small_hand"]),  # the ghost 白 pairs the 2z: x3 only
    ],
)
def test_tdh_h4_seven_pairs_multiplier(winner_hand, units, patterns):
    rules = G.replace(seven_pairs_multiplier=3)
    row = ghost_win(rules, NO_HITS, winner_hand=winner_hand, draw="2z")
    assert row["fan"] == [units] and sorted(row["patterns"][0]) == patterns
    assert list(row["net"]) == [-units, 3 * units, -units, -units]
    tiles = winner_hand + " 2z"
    assert reference(rules, tiles.replace(" ", ""), win_tile="2z", self_draw=True) == (units, patterns)
    assert ghost_win(G, NO_HITS, winner_hand=winner_hand, draw="2z")["fan"] == [units // 3]  # off: 1 = no factor


def q_kong_flower(rules):
    """Seat 1 konges 8888m concealed and wins on the replacement 2s: a small hand (TDH-S2: a normal self-draw)."""
    hand = ScriptedHand(rules, {0: "19m578p19s234577z", 1: "8888m456p789s34s11z", **NEUTRAL}, actor=1, back="2s")
    return hand.play({1: ["ckong 8m", "win"]})


def test_tdh_h5_kong_flower_multiplier_on_small_big_hands():
    row = q_kong_flower(Q)
    assert row["fan"] == [1] and list(row["net"]) == [-4, 12, -4, -4]  # 2 win + 2 kong a payer
    rules = Q.replace(kong_flower_multiplier=2)
    row = q_kong_flower(rules)
    assert row["fan"] == [2] and sorted(row["patterns"][0]) == ["kong_flower", "small_hand"]
    assert list(row["net_win"]) == [-4, 12, -4, -4] and list(row["net"]) == [-6, 18, -6, -6]
    assert reference(rules, "456p789s234s11z", melds=["ckong:8m"], win_tile="2s", self_draw=True,
                     kong_replacement=True) == (2, ["kong_flower", "small_hand"])  # fmt: skip


def test_tdh_h5_robbed_kong_multiplier():
    rules = Q.replace(robbed_kong_multiplier=3)
    hand = ScriptedHand(
        rules,
        {0: "123p456p11z22z5m", 1: "34m678m234s567s99s", 2: "111s222s333s444s5s", 3: "19m1234678p3344z"},
        melds={0: ["pung:5m"]},
    )
    row = hand.play({0: ["akong 5m"], 1: ["win"]})
    assert row["win_kind"] == ["robbed_kong"] and row["fan"] == [3]
    assert sorted(row["patterns"][0]) == ["robbed_kong", "small_hand"]
    assert list(row["net"]) == [-18, 18, 0, 0]  # TDH-S1: the robbed player pays all three shares of 2 x 3
    assert reference(rules, "34m5m678m234s567s99s", win_tile="5m", robbed_kong=True) == (
        3, ["robbed_kong", "small_hand"],
    )  # fmt: skip


@pytest.mark.parametrize(
    "winner_hand, on, off",
    [
        ("123m456p789s34s55z", 2, 1),  # the two 白 are the pair at face value: 无鬼 x2 with the option
        ("123m456p789s34s15z", 1, 1),  # the 白 must stand for 东: a ghost is used
    ],
)
def test_tdh_h7_ghost_as_itself_counts_as_no_ghost(winner_hand, on, off):
    rules = G.replace(ghost_as_itself_counts_as_no_ghost=True)
    row = ghost_win(rules, "1m3m4m5m7m8m", winner_hand=winner_hand)
    assert row["fan"] == [on] and list(row["net"]) == [-on, 3 * on, -on, -on]
    assert len(row["horses"]) == 4  # a ghost tile is still held: 4 horses (TDH-M5)
    assert ghost_win(G, "1m3m4m5m7m8m", winner_hand=winner_hand)["fan"] == [off]
    fan, _ = reference(rules, winner_hand + "2s", win_tile="2s", self_draw=True)
    assert fan == on


# ---- TDH-H9 十三幺抢暗杠, TDH-H6 双鬼 ------------------------------------------------------------------------------

ORPHANS = {0: "9999m234566p2345s", 1: "11m19p19s1234567z", 2: NEUTRAL[2], 3: "147p258s368m5667z"}


def test_tdh_h9_thirteen_orphans_robs_a_concealed_kong():
    row = ScriptedHand(Q.replace(orphans_rob_concealed_kong=True), ORPHANS).play({0: ["ckong 9m"], 1: ["win"]})
    assert row["win_kind"] == ["robbed_kong"] and row["patterns"] == [["thirteen_orphans"]]
    # a big hand, 2 units; 2 x 2 a share, all three paid by the robbed player (TDH-S1); the kong pays nothing
    assert row["liable"] == 0 and list(row["net"]) == [-12, 12, 0, 0] and row["kongs"] == []
    hand = ScriptedHand(Q, ORPHANS)
    row = hand.play({0: ["ckong 9m"]})  # default: a concealed kong cannot be robbed (C-P4)
    assert row["kongs"][0] == "0:concealed:-1"
    assert not any(seat == 1 and decision == 2 for seat, decision, _, _ in hand.decisions)


def test_tdh_h9_only_thirteen_orphans_may_rob_a_concealed_kong():
    # seat 2 waits on 6m or 9m (78m) in a standard hand: a standard hand cannot rob a concealed kong
    hands = {0: "9999m234566s2345s", 1: "147m258p369s1234z", 2: "123p456p789p11z78m", 3: ORPHANS[3]}
    hand = ScriptedHand(Q.replace(orphans_rob_concealed_kong=True), hands)
    row = hand.play({0: ["ckong 9m"]})
    assert row["kongs"] == ["0:concealed:-1"]
    assert not any(decision == 2 for _, decision, _, _ in hand.decisions)


def flipped(rules, backs):
    """Deal a wall whose last tiles (the back) are ``backs``, the very last first; return (wild, turned)."""
    wall = list(tile_set_wall(136))
    for k, tile in enumerate(parse_tiles(backs)):
        wall.remove(tile)
        wall.insert(len(wall) - k, tile)
    st = allocate_state(1)
    engine.deal_wall(st, engine_params(rules), 0, np.array(wall, np.int8))
    return sorted(int(t) for t in st.wild[0] if t >= 0), [int(t) for t in st.turned[0]]


def test_tdh_h6_two_turned_tiles_name_two_ghost_kinds():
    rules = G.replace(wild_scheme="flip_two")
    # 9m -> 1m; 中 -> 白 (dragons 白 发 中 round, TDH-G1)
    assert flipped(rules, "9m7z") == (sorted(parse_tiles("1m5z")), parse_tiles("9m7z"))
    # equal successors give one kind
    assert flipped(rules, "4s4s")[0] == parse_tiles("5s")
    assert flipped(G.replace(wild_scheme="flip_next"), "9m7z")[0] == parse_tiles("1m")


def test_tdh_h9_needs_robbing_and_thirteen_orphans():
    with pytest.raises(ValueError, match="orphans_rob_concealed_kong.*rob_kong"):
        Q.replace(orphans_rob_concealed_kong=True, rob_kong=False)
    with pytest.raises(ValueError, match="orphans_rob_concealed_kong.*win_forms"):
        Q.replace(orphans_rob_concealed_kong=True, win_forms=["standard", "seven_pairs"])
