"""Scripted 推倒胡 hands whose every transfer is worked out by hand from rules/tuidaohu.md.

Each hand is played by the real engine (tests/simtools.py) and its nets are
compared with literals; the independent checker (tests/checker) must give
the same literals from the logged row.  Seats are absolute and the dealer is
seat 0 (seat 1 下家, seat 2 对家, seat 3 上家).  [Q] self-draw shares are
2 × hand value (TDH-V3), a small hand is 1 unit (TDH-V1).
"""

import pytest
from checker.scripted import logged_row
from checker.settlement import COMPONENTS, settle
from simtools import ScriptedHand

from mjsim import ruleset
from mjsim.sim.constants import DISCARD, RESPONSE, TURN
from mjsim.tiles import parse_tiles

Q = ruleset("tuidaohu")
Q_NO_HORSES = ruleset("tuidaohu", horses="none")  # TDH-M6: kong money alone
D = ruleset("tuidaohu_dianpao")
G = ruleset("tuidaohu_ghost")


def assert_nets(row: dict, rules, **expected):
    """The logged nets and the checker's nets both equal the hand-worked ``expected`` (net_win=[...], net=[...])."""
    logged = {name: list(row[name]) for name in expected}
    assert logged == expected
    found = settle(logged_row(row), rules)
    mine = {name: (found.net() if name == "net" else found.net(name.removeprefix("net_"))) for name in expected}
    assert mine == expected
    assert found.net() == list(row["net"]) and all(found.net(c) == list(row[f"net_{c}"]) for c in COMPONENTS)


# ---- TDH-K1: added and discard kong money, paid at the end because someone won (TDH-K2 [Q]) ------------------


def added_and_discard_kongs(rules, horses=""):
    """Seat 3 kongs seat 0's 7s (放杠), seat 2 adds 9p to its pung (补杠), then seat 1 self-draws 2s (small hand)."""
    return ScriptedHand(
        rules,
        {
            0: "19m578p19s234577z7s",
            1: "123m456p789m34s11z",
            2: "147m2589p369s",
            3: "258m369m147p777s6z",
        },
        melds={2: ["pung:9p"]},
        draws="8s6s3p6p2p2s",
        back="4s8p",
        horses=horses,
    )


KONG_SCRIPT = {0: ["discard 7s"], 3: ["kong"], 2: ["akong 9p"], 1: ["win"]}


def test_tdh_k1_added_and_discard_kong_money_in_tuidaohu():
    row = added_and_discard_kongs(Q_NO_HORSES).play(KONG_SCRIPT)
    assert row["winners"] == [1] and row["win_kind"] == ["self_draw"] and row["patterns"] == [["small_hand"]]
    assert row["kongs"] == ["3:discard:0", "2:added:-1"]
    # win: each other pays 2 to seat 1; kongs: seat 0 pays 3 to seat 3 (放杠), seats 0, 1, 3 pay 1 each to seat 2
    assert_nets(
        row, Q_NO_HORSES,
        net_win=[-2, 6, -2, -2],
        net_kong=[-3 - 1, -1, 3, 3 - 1],
        net_horse=[0, 0, 0, 0],
        net_liability=[0, 0, 0, 0],
        net=[-6, 5, 1, 0],
    )  # fmt: skip


def test_tdh_m4_a_horse_on_the_discard_konger_mirrors_what_it_received_and_paid():
    # horse 4m -> 上家 = seat 3 (TDH-M3).  Seat 3 received 3 from the dealer (mirrored dealer-to-dealer: vanishes);
    # it paid 2 to seat 1 (win) and 1 to seat 2 (added kong): the dealer pays those once more (TDH-M4)
    row = added_and_discard_kongs(Q, horses="4m").play(KONG_SCRIPT)
    assert row["horse_seats"] == [3]
    assert_nets(row, Q, net_kong=[-4, -1, 3, 2], net_horse=[-3, 2, 1, 0], net=[-9, 7, 2, 0])


# ---- TDH-S2: 杠上开花包杠 in the 推倒胡 engine -------------------------------------------------------------------


def test_tdh_s2_kong_flower_on_a_discard_kong_the_discarder_pays_all_three_shares():
    # seat 2 discards 9s, seat 1 kongs it (999s) and wins on the replacement 1z (pair): a small self-draw,
    # 2 a share, all three shares (6) from seat 2 (TDH-S2); seat 2 also pays the 放杠 3 (TDH-K1).
    # Horse 2m -> 下家 = seat 1: seat 1 received 2 + 4 + 3 from seat 2, who pays the dealer 9 more (TDH-M4).
    hand = ScriptedHand(
        Q,
        {
            0: "19m578p18s234577z5m",
            1: "123m456p789m999s1z",
            2: "147m258p369s1234z",
            3: "147p258s369m5667z",
        },
        draws="2p3p",
        back="1z",
        horses="2m",
    )
    row = hand.play({0: ["discard 5m"], 2: ["discard 9s"], 1: ["kong", "win"]})
    assert row["winners"] == [1] and row["win_kind"] == ["kong_replacement"] and row["liable"] == 2
    assert row["kongs"] == ["1:discard:2"] and row["kong_from_discard"] == [2]
    assert_nets(
        row, Q,
        net_win=[0, 2, -2, 0],
        net_liability=[0, 4, -4, 0],
        net_kong=[0, 3, -3, 0],
        net_horse=[9, 0, -9, 0],
        net=[9, 9, -18, 0],
    )  # fmt: skip


# ---- TDH-K2: kong money on a drawn hand — at once in the ghost edition, none in [Q] -----------------------------


def three_kongs_then_a_draw(rules):
    """Seat 3 kongs seat 0's 6z (放杠), seat 1 adds 4s (补杠), seat 2 declares 1p (暗杠); nobody wins.

    [Q] has its dealer's one horse (3m, 对家 = seat 2, the concealed konger); [G] buys none without a winner."""
    return ScriptedHand(
        rules,
        {
            0: "19m578p19s234677z5m",
            1: "123m456p789m4s",
            2: "1111p258s369s134z",
            3: "147m258m369p6667z",
        },
        melds={1: ["pung:4s"]},
        horses="3m" if rules.horses == "dealer" else "",
    )


@pytest.mark.parametrize(
    "rules, net_kong",
    [
        # [G]: 3 from seat 0 to seat 3; 1 from each of 0, 2, 3 to seat 1; 2 from each of 0, 1, 3 to seat 2
        (G, [-3 - 1 - 2, 3 - 2, -1 + 6, 3 - 1 - 2]),
        # [Q]: a drawn hand settles no kongs (TDH-K2, TDH-S3)
        (Q, [0, 0, 0, 0]),
    ],
    ids=["ghost", "tuidaohu"],
)
def test_tdh_k2_kong_money_on_a_drawn_hand(rules, net_kong):
    row = three_kongs_then_a_draw(rules).play({0: ["discard 6z"], 3: ["kong"], 1: ["akong 4s"], 2: ["ckong 1p"]})
    assert row["winners"] == [] and row["kongs"] == ["3:discard:0", "1:added:-1", "2:concealed:-1"]
    assert_nets(row, rules, net_kong=net_kong, net_win=[0, 0, 0, 0], net_horse=[0, 0, 0, 0], net=net_kong)


# ---- TDH-P3 [D]: a passed pung blocks punging that kind until the player's own next draw -------------------------


def passed_pung_position():
    """Seat 2 holds 55m (and 33s); seat 0 discards 5m first, seat 3 holds the last 5m."""
    return ScriptedHand(
        D,
        {
            0: "19m578p19s234577z5m",
            1: "123m456p789m34s11z",
            2: "1455m258p3369s12z",
            3: "147p258s356m5667z",
        },
    )


def _responses_to(hand, discarder: int, tile: str) -> list[int]:
    """Seats asked to answer ``discarder``'s discard of ``tile`` (the decisions right after it)."""
    action = DISCARD + parse_tiles(tile)[0]
    for i, (seat, decision, chosen, _) in enumerate(hand.decisions):
        if (seat, decision, chosen) == (discarder, TURN, action):
            asked = []
            for seat_after, decision_after, _, _ in hand.decisions[i + 1 :]:
                if decision_after != RESPONSE:
                    break
                asked.append(seat_after)
            return asked
    raise AssertionError(f"seat {discarder} never discarded {tile}")


def test_tdh_p3_a_passed_pung_stays_blocked_through_a_claim_of_another_kind():
    # seat 2 passes seat 0's 5m, then pungs seat 1's 3s (a claim, not a draw), so seat 3's 5m is not offered
    hand = passed_pung_position()
    row = hand.play({0: ["discard 5m"], 2: ["pass", "pung"], 1: ["discard 3s"], 3: ["discard 5m"]})
    assert _responses_to(hand, 0, "5m") == [2]
    assert _responses_to(hand, 1, "3s") == [2]
    assert 2 not in _responses_to(hand, 3, "5m")
    assert row["winners"] == [] and list(row["net"]) == [0, 0, 0, 0]  # TDH-S3: the drawn hand settles nothing


def test_tdh_p3_the_players_own_next_draw_lifts_the_pung_block():
    hand = passed_pung_position()
    row = hand.play({0: ["discard 5m"], 2: ["pass", "pung"], 3: ["discard 5m"]})  # seat 2 draws before 3's 5m
    assert _responses_to(hand, 3, "5m") == [2]
    assert row["winners"] == [] and list(row["net"]) == [0, 0, 0, 0]
