"""血战到底 in the simulator (rules/xuezhan.md): invariants over simulated hands of every playable XZ preset.

Each checks a rule from the row's facts, not from the engine's settlement:
XZ-P2 (no win with three suits), XZ-P4 (at most three winners, each once, the
hand ends at the third win or an empty wall), XZ-M5 (a later self-draw is paid
only by the players still in), XZ-E1 (every 花猪 pays 16 to each non-花猪),
XZ-E2/E3 (end-of-wall money only on an empty wall), XZ-P7 (the next dealer), XZ-H1 换三张 (three tiles
of one suit passed by every seat), XZ-H2 定缺 (a declared suit, discarded first and never in a win) and
XZ-H7 血流成河 (winners stay in and win again; the hand ends on an empty wall).
Zero-sum nets, components and re-scoring run in tests/test_sim_conformance.py.
"""

import numpy as np
import pytest
from simtools import ScriptedHand
from test_sim_conformance import COMPONENTS, _simulate, assert_wins_rescore

from mjsim import ruleset
from mjsim.sim.constants import DISCARD, RESPONSE, TURN, WIN
from mjsim.tiles import parse_meld, parse_tiles

PRESETS = ["xuezhan", "xuezhan_cap3", "xuezhan_dingque", "xueliu"]
POLICIES = ["efficiency", "value", "defensive", "random", "expert"]
HANDS = 200


@pytest.fixture(scope="module", params=[(p, q) for p in PRESETS for q in POLICIES], ids=lambda x: f"{x[0]}-{x[1]}")
def run(request):
    preset, policy = request.param
    return ruleset(preset), policy, _simulate(ruleset(preset), policy, hands=HANDS, seed=17)


def _suits(hand: str, melds: list[str]) -> set[int]:
    tiles = parse_tiles(hand) + [t for m in melds for t in parse_meld(m).tiles]
    return {t // 9 for t in tiles}


def test_c_m1_every_policy_nets_sum_to_zero_components_add_up_and_wins_rescore(run):
    """C-M1 for every XZ preset and policy: nets sum to zero, the components make the net, and every logged
    win re-scores with the reference scorer to its logged fan and patterns."""
    rules, policy, cols = run
    net = np.array(cols["net"])
    assert np.all(net.sum(axis=1) == 0)
    assert np.array_equal(sum(np.array(cols[c]) for c in COMPONENTS), net)
    checked = assert_wins_rescore(rules, cols)
    assert checked > (0 if policy == "random" else HANDS)


def test_xz_p2_every_win_holds_at_most_two_suits(run):
    _, _, cols = run
    for hands, melds in zip(cols["win_hands"], cols["win_melds"]):
        for hand, meld in zip(hands, melds):
            assert len(_suits(hand, meld)) <= 2, (hand, meld)


def test_xz_p4_at_most_three_winners_each_once_and_the_hand_ends_at_the_third(run):
    """XZ-P4 血战到底; under XZ-H7 血流成河 winners stay in, may win again, and only an empty wall ends it."""
    rules, policy, cols = run
    for winners, exhausted, states in zip(cols["winners"], cols["exhausted"], cols["end_state"]):
        assert [s for s in range(4) if states[s] == "won"] == sorted(set(winners))
        if rules.bloody_flow:
            assert exhausted
        else:
            assert len(winners) <= 3 and len(set(winners)) == len(winners)
            assert exhausted or len(winners) == 3  # a hand ends at the third win or on an empty wall
    if policy != "random":  # competent seats finish most hands with three winners (win again in 血流)
        if rules.bloody_flow:
            assert np.mean([len(w) > len(set(w)) for w in cols["winners"]]) > 0.4
        else:
            assert np.mean([len(w) == 3 for w in cols["winners"]]) > 0.4


def test_xz_h7_a_flow_winner_wins_again_only_on_a_self_draw_or_the_one_tile_that_completes_its_locked_hand(run):
    """XZ-H7 (interpretation): after winning, a seat's hand is locked (its winning tile set aside), so each
    of its later wins is on the same waiting hand: the logged hands before the winning tile agree."""
    rules, policy, cols = run
    repeats = 0
    for hands, winners, tiles in zip(cols["win_hands"], cols["winners"], cols["win_tiles"]):
        before = {}
        for hand, seat, tile in zip(hands, winners, tiles):
            held = sorted(parse_tiles(hand))
            held.remove(parse_tiles(tile)[0])
            if seat in before:
                assert rules.bloody_flow and before[seat] == held
                repeats += 1
            before[seat] = held
    if rules.bloody_flow and policy != "random":
        assert repeats > len(cols["hand_id"]) // 4


def test_xz_m5_a_later_self_draw_is_paid_by_the_players_still_in(run):
    rules, _, cols = run
    for i, winners in enumerate(cols["winners"]):
        for k, w in enumerate(winners):
            in_play = cols["win_in_play"][i][k]
            earlier = {winners[j] for j in range(k) if cols["win_turn"][i][j] < cols["win_turn"][i][k]}
            assert in_play >> w & 1, "the winner was in play"
            if rules.bloody_flow:  # XZ-H7: nobody leaves play
                assert in_play == 15
            else:
                assert all(not (in_play >> e & 1) for e in earlier), "an earlier winner has left play"
            if cols["win_kind"][i][k] in ("self_draw", "kong_replacement"):
                assert cols["win_from"][i][k] == -1
            else:
                assert cols["win_from"][i][k] in range(4) and cols["win_from"][i][k] != w


def test_xz_h1_every_seat_passes_three_tiles_of_one_suit_in_one_direction(run):
    rules, _, cols = run
    for passed, offset in zip(cols["passed_tiles"], cols["pass_offset"]):
        if not rules.exchange_three:
            assert passed is None and offset is None
            continue
        assert offset in (1, 2, 3)
        for text in passed:
            tiles = parse_tiles(text)
            assert len(tiles) == 3 and len({t // 9 for t in tiles}) == 1 and max(tiles) < 27, text


def test_xz_h2_a_declared_void_suit_is_never_in_a_win(run):
    rules, _, cols = run
    for i, void in enumerate(cols["void_suits"]):
        void = list(void)
        if not rules.declare_void:
            assert void == [-1] * 4
            continue
        assert all(v in (0, 1, 2) for v in void)
        for seat, hand, melds in zip(cols["winners"][i], cols["win_hands"][i], cols["win_melds"][i]):
            assert void[seat] not in _suits(hand, melds), (hand, melds, void[seat])


def test_xz_sub_components_add_up_to_kong_and_penalty_money(run):
    """net_call_transfer and net_tax_refund are parts of net_kong; net_flower_pig and net_not_ready make
    net_penalty (XZ-M4, XZ-E1..E3); each part is zero-sum."""
    _, _, cols = run
    for i in range(len(cols["hand_id"])):
        pig, not_ready = np.asarray(cols["net_flower_pig"][i]), np.asarray(cols["net_not_ready"][i])
        assert np.array_equal(pig + not_ready, np.asarray(cols["net_penalty"][i]))
        for part in ("net_call_transfer", "net_tax_refund", "net_flower_pig", "net_not_ready"):
            assert sum(cols[part][i]) == 0, part
        if not cols["exhausted"][i]:
            assert not np.any(cols["net_tax_refund"][i]) and not np.any(pig) and not np.any(not_ready)


def test_xz_e1_every_flower_pig_pays_sixteen_to_each_non_pig(run):
    rules, _, cols = run
    pigs_seen = 0
    for i, states in enumerate(cols["end_state"]):
        if not cols["exhausted"][i]:
            assert not np.any(cols["net_penalty"][i]), "end-of-wall money without an empty wall"
            continue
        pigs = [s for s in range(4) if states[s] == "flower_pig"]
        pigs_seen += len(pigs)
        ready = [s for s in range(4) if states[s] == "ready"]
        not_ready = [s for s in range(4) if states[s] == "not_ready"]
        expected = np.zeros(4, np.int64)
        for pig in pigs:
            for other in range(4):
                if states[other] != "flower_pig":
                    expected[pig] -= rules.flower_pig_penalty
                    expected[other] += rules.flower_pig_penalty
        for payer in not_ready:  # XZ-E2 查叫 at each ready player's logged best value
            for r in ready:
                value = 2 ** cols["ready_fan"][i][r]
                expected[payer] -= value
                expected[r] += value
        assert np.array_equal(np.asarray(cols["net_penalty"][i]), expected), (cols["hand_id"][i], states)
        for s in range(4):
            assert (cols["ready_fan"][i][s] >= 0) == (states[s] == "ready")


def test_xz_p7_first_winner_deals_next_and_a_drawn_hand_keeps_the_dealer():
    rules = ruleset("xuezhan")
    cols = _simulate(rules, "efficiency", hands=240, seed=23, session_length=4)
    order = np.lexsort((cols["hand_in_session"], cols["session"]))
    checked = 0
    for a, b in zip(order, order[1:]):
        if cols["session"][a] != cols["session"][b]:
            continue
        winners = cols["winners"][a]
        if not winners:
            expected = cols["dealer"][a]  # 荒庄不下庄
        else:
            first = [k for k in range(len(winners)) if cols["win_turn"][a][k] == cols["win_turn"][a][0]
                     and cols["win_from"][a][k] == cols["win_from"][a][0] and cols["win_kind"][a][k] == "discard"]  # fmt: skip
            expected = cols["win_from"][a][0] if len(first) > 1 else winners[0]  # 一炮多响: the discarder
        assert cols["dealer"][b] == expected
        checked += 1
    assert checked > 100


# ---- scripted positions --------------------------------------------------------------------------------------

CALL_TRANSFER_POSITION = dict(
    hands={0: "13m5m468p2468s9999p", 1: "123m456m678p234p5m", 2: "234m678m345p678p5m", 3: "123456789s1122s"},
    draws="1s",
)


def _call_transfer_hand(rules):
    position = ScriptedHand(rules, **CALL_TRANSFER_POSITION)
    return position.play({0: ["ckong 9p", "discard 5m"], 1: ["win"], 2: ["win"]})


@pytest.mark.parametrize("multiple, share", [("each", 6), ("split", 3)])
def test_xz_m4_call_transfer_with_two_winners_on_the_discard_after_a_kong(multiple, share):
    """Seat 0 makes a concealed kong (XZ-M3: 2 from each of the three in play), then discards 5m, won by
    seats 1 and 2 (一炮多响).  Each win is 杠上炮 (XZ-F2 +1 fan: 2 points from the discarder), and the
    kong's 6 units pass to the winners (XZ-M4): 6 to each (the seed), or 3 each when split."""
    row = _call_transfer_hand(ruleset("xuezhan", call_transfer_multiple=multiple))
    win, kong = row["transfers"][0], row["transfers"][1]
    assert row["winners"][:2] == [1, 2] and row["win_from"][:2] == [0, 0] and row["after_kong"][:2] == [True, True]
    assert [sorted(p) for p in row["patterns"][:2]] == [["basic", "kong_discard"]] * 2 and row["fan"][:2] == [1, 1]
    assert (win[0, 1], win[0, 2]) == (2, 2)  # XZ-M1: the discarder pays each winner
    assert (kong[1, 0], kong[2, 0], kong[3, 0]) == (2, 2, 2)  # XZ-M3 下雨
    assert (kong[0, 1], kong[0, 2]) == (share, share)  # XZ-M4 呼叫转移
    assert row["end_state"][1] == row["end_state"][2] == "won"  # XZ-P4: they left play; the others played on
    assert row["turns"] > 8


def test_xz_m4_no_call_transfer_when_switched_off():
    row = _call_transfer_hand(ruleset("xuezhan", call_transfer=False))
    assert (row["transfers"][1][0, 1], row["transfers"][1][0, 2]) == (0, 0)


def test_xz_p6_in_the_last_four_tiles_a_possible_win_is_compulsory():
    """Seat 1 waits on 5m and draws it with one tile left; seat 3 (123456789s1122s, waiting on 9s among
    others) is then offered seat 2's discard of the last tile, 9s: each win is the only legal action."""
    hands = {0: "13m468p2468s9999p9m", 1: "123m456m678p234p5m", 2: "234m678m345p678p6s", 3: "123456789s1122s"}
    position = ScriptedHand(ruleset("xuezhan"), hands, draws="5m9s", wall_ends_after_draws=True)
    row = position.play({})
    assert row["winners"] == [1, 3] and row["win_kind"] == ["self_draw", "discard"]
    for winner in (1, 3):
        forced = [mask for seat, _, mask in position.legal_masks if seat == winner and mask[WIN]]
        assert forced and all(mask.sum() == 1 for mask in forced)


def test_xz_m4_call_transfer_moves_the_kong_made_right_before_the_discard_not_a_later_one():
    """Seat 0 kongs 9p (concealed: 2 from each of three, 6 units), discards 5m and seat 1 wins on it (杠上炮):
    those 6 pass to seat 1.  Seat 0 then kongs 8s while seats 0, 2 and 3 are in play (2 each from seats 2 and
    3, 4 units), which stays with seat 0.  Kong nets by hand: seat 0 +6 -6 +4 = +4, seat 1 -2 +6 = +4,
    seats 2 and 3 -2 -2 = -4 each."""
    hands = {0: "13m5m2468p888s9999p", 1: "123m456m678p234p5m", 2: "24799m1357p3579s", 3: "1122334455667s"}
    position = ScriptedHand(ruleset("xuezhan", tax_refund=False), hands, draws="1s6m8m8s1p", wall_ends_after_draws=True)
    row = position.play({0: ["ckong 9p", "discard 5m", "ckong 8s"], 1: ["win"]})
    assert row["winners"][0] == 1 and row["after_kong"][0]
    assert [k.split(":")[0] for k in row["kongs"]] == ["0", "0"]
    assert list(row["net_kong"]) == [4, 4, -4, -4]
    assert list(row["net_call_transfer"]) == [-6, 6, 0, 0]


@pytest.mark.parametrize("bonus, fan, paid", [("none", 3, 8), ("base", 3, 8), ("fan", 3, 8)])
def test_xz_h3_no_self_draw_bonus_on_a_kong_flower_the_discarder_pays_alone(bonus, fan, paid):
    """Seat 1 kongs seat 0's 7m and wins on the replacement 5p: 123p 456p 789p 55p + kong 7m, 平胡 0 fan, 直杠
    +1, 杠上花 after an exposed kong +2 (XZ-F2): 3 fan, 8 units.  Under XZ-H6's default the discarder of the
    konged tile pays alone (XZ-M2), and by the seed (和牌规则 3: 自摸, not 引杠) neither 自摸加底 nor 自摸加番
    applies: the same fan and payment whatever ``self_draw_bonus`` says."""
    hands = {0: "123456m2468p135s7m", 1: "777m123p456p789p5p", 2: "112233m446699s1p", 3: "99m1133667788s2p"}
    row = ScriptedHand(ruleset("xuezhan", self_draw_bonus=bonus), hands, draws="5p").play(
        {0: ["discard 7m"], 1: ["kong", "win"]}
    )
    assert row["winners"][0] == 1 and row["win_kind"][0] == "kong_replacement"
    assert row["fan"][0] == fan and "self_draw" not in row["patterns"][0]
    assert row["transfers"][0][0, 1] == paid and row["transfers"][0].sum() == paid


# XZ-P5 过水: seat 1 (11123m 456p 789p 55p) waits on 4m (111m 234m, 平胡 0 fan) or 1m (1111m 23m as 111m 123m,
# +1 根: 1 fan).  Seat 2 discards one of them, seat 1 passes; seat 3 then draws and discards the other before
# seat 1 draws again.
MISSED_WIN_HANDS = {0: "3579m2468p13579s", 1: "11123m456p789p55p", 2: "5689m1368p24689s", 3: "2468m13579p2468s"}


def _missed_win(passed: str, then: str, seat_one: list[str]):
    """Play the position; return the row, whether seat 1 was offered the first win, and seat 1's answer
    to seat 3's discard of ``then`` (None when it was not asked: no claim and no win was open to it)."""
    hands = MISSED_WIN_HANDS | {2: MISSED_WIN_HANDS[2] + passed}
    position = ScriptedHand(ruleset("xuezhan"), hands, actor=2, draws=then)
    row = position.play({2: [f"discard {passed}"], 1: seat_one})
    decisions = position.decisions  # (seat, decision, action, win legal)
    first = decisions[1]
    assert first[:2] == (1, RESPONSE) and decisions[2][:3] == (3, TURN, DISCARD + parse_tiles(then)[0])
    answer = decisions[3] if decisions[3][:2] == (1, RESPONSE) else None
    return row, first[3], answer


def test_xz_p5_after_passing_a_win_a_discard_win_worth_more_fan_is_allowed():
    row, offered, answer = _missed_win("4m", "1m", ["pass", "win"])
    assert offered and answer == (1, RESPONSE, WIN, True)
    assert row["winners"][0] == 1 and row["win_tiles"][0] == "1m" and row["win_from"][0] == 3
    assert row["fan"][0] == 1 and sorted(row["patterns"][0]) == ["basic", "root"]


def test_xz_p5_after_passing_a_win_a_discard_win_worth_no_more_is_refused_until_the_own_draw():
    row, offered, answer = _missed_win("1m", "4m", ["pass"])
    assert offered and answer is None  # 1m (1 fan) passed: 4m (0 fan) is worth no more, so it is not offered
    wins = zip(row["winners"], row["win_tiles"], row["win_from"])
    assert (1, "4m", 3) not in [(int(w), t, int(f)) for w, t, f in wins]


def test_xz_e3_a_flower_pig_returns_its_kong_income_and_pays_sixteen_to_each_non_pig():
    """Seat 0 kongs 9p (XZ-M3: 2 from each of seats 1, 2, 3) and ends the wall holding three suits, as does
    seat 2: both are 花猪.  XZ-E1: each pays 16 to seats 1 and 3 (the non-花猪): flower_pig = [-32, 32, -32,
    32].  XZ-E2: seats 1 and 3 are ready and nobody is merely not ready, so no 查叫.  XZ-E3: seat 0, a 花猪, is
    not ready and returns its 6: tax_refund = [-6, 2, 2, 2], kong = [0, 0, 0, 0]."""
    hands = {0: "13579m2468p9999p7s", 1: "111m222m333m444p5p", 2: "468m357p1357999s", 3: "1122334455667s"}
    row = ScriptedHand(ruleset("xuezhan"), hands, draws="2m6m8m9m", wall_ends_after_draws=True).play({0: ["ckong 9p"]})
    assert row["winners"] == [] and row["exhausted"]
    assert list(row["end_state"]) == ["flower_pig", "ready", "flower_pig", "ready"]
    assert list(row["net_flower_pig"]) == [-32, 32, -32, 32]
    assert list(row["net_not_ready"]) == [0, 0, 0, 0]
    assert list(row["net_tax_refund"]) == [-6, 2, 2, 2]
    assert list(row["net_kong"]) == [0, 0, 0, 0]
    assert list(row["net"]) == [-32, 32, -32, 32]
