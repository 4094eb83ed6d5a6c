"""Every logged 水头 transfer re-settled by the independent checker (tests/checker/settlement_sht.py), row by row.

The checker is written from rules/shuitou.md and shares no code with the
engine's scorer or settlement; here it re-settles simulated hands of the
``shuitou`` preset and of each settlement and tile option, and must give each
row's ``net_win``, ``net_liability``, ``net_base`` and ``net``, the winner's
total 台 (``fan``), every seat's base 台 (``base_tai``), the SHT-M3 fact
(``four_winds_feeder``) and the liable seat.  A few hundred hands per case
run in the normal suite, thousands in the ``slow`` tests (``pytest -m slow``).

Four rows worked by hand from the rules text check the checker itself: a
dealer win, a non-dealer win doubled for 13+ with the dealer paying double,
a 包牌 win (SHT-M3, too rare in simulation: also played through the engine
from a scripted position) and a drawn hand.
"""

import pytest
from checker.scripted import logged_row
from checker.settlement import tiles_of
from checker.settlement_sht import COMPONENTS, settle
from simtools import ScriptedHand
from test_settlement_checker import _check_rows as check_rows

from mjsim import base_tai, ruleset, score_hand
from mjsim.io.dataset import read_hands
from mjsim.sim.parallel import RunSpec, simulate
from mjsim.tiles import parse_tiles

EFFICIENT = "efficiency;efficiency;efficiency;random"  # random seats win rarely; one keeps the losers' hands varied
OPTION_CASES = [
    {},  # the preset
    {"dealer_pays_double": False},  # SHT-H4
    {"settle_non_winners": False},  # SHT-H5
    {"liability_four_winds": False},  # SHT-M3 off
    {"double_from_tai": 10, "double_factor": 3},  # SHT-H3
    {"wild_scheme": "flip_kind"},  # SHT-H2: one 财神 kind, three copies
    {"white_is_flower": False},  # SHT-H1: 白板 a dragon
    {"split_tiles": 0},  # SHT-H6: no 分牌
]
CASES = [(EFFICIENT, options) for options in OPTION_CASES] + [("random", {})]  # random play: mostly drawn (SHT-M4)
HANDS = 600
SLOW_HANDS = 3_000
LOGGED_COMPONENTS = ("net_win", "net_kong", "net_horse", "net_liability", "net_penalty", "net_base")


def _case_id(case):
    policy, options = case
    return "-".join([policy.replace(";", "+")] + [f"{k}={v}" for k, v in options.items()])


def _logged_rows(policy, options, hands, seed, directory):
    rules = ruleset("shuitou", **options)
    simulate(RunSpec(rules, policy, hands, session_length=8, seed=seed), directory, progress=False)
    return rules, read_hands(directory).to_dicts()


def _facts(row):
    keys = ["hand_id", "seed", "dealer", "winners", "win_kind", "win_from", "win_tiles", "fan", "patterns",
            "win_hands", "win_melds", "first_turn", "split_win", "wilds", "flowers", "base_tai", "four_winds_feeder",
            "liable", "kongs", "end_hands", "end_melds"]  # fmt: skip
    return {k: row[k] for k in keys if k in row}


def _differences(row, rules) -> dict:
    """What the checker and the log disagree on for one row ({} when they agree)."""
    try:
        found = settle(row, rules)
    except AssertionError as error:  # a logged fact the checker found inconsistent with the rules text
        return {"checker": str(error)}
    mine = {f"net_{c}": found.net(c) for c in COMPONENTS} | {"net": found.net(), "fan": found.fan}
    mine |= {"base_tai": found.base_tai, "four_winds_feeder": found.four_winds_feeder, "liable": found.liable}
    logged = {k: (list(row[k]) if isinstance(row[k], list | tuple) else row[k]) for k in mine}
    differ = {k: (mine[k], logged[k]) for k in mine if mine[k] != logged[k]}
    parts = [sum(row[c][s] for c in LOGGED_COMPONENTS) for s in range(4)]
    if parts != list(row["net"]) or sum(row["net"]):  # C-M1: the logged components add up to a zero-sum net
        differ["logged net"] = (parts, list(row["net"]))
    return differ


def _check_rows(rules, rows):
    check_rows(rules, rows, _differences, _facts)


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_sht_checker_resettles_every_logged_row(case, tmp_path):
    rules, rows = _logged_rows(*case, HANDS, 31, tmp_path)
    assert len(rows) == HANDS
    won = [row for row in rows if row["winners"]]
    if case[0] == "random":
        assert len(won) < HANDS // 3  # SHT-M4 drawn hands, most of them after 分牌
    else:
        assert len(won) > HANDS * 9 // 10
        assert any(row["winners"][0] == row["dealer"] for row in won)  # SHT-M1 the dealer wins
        assert any(row["win_kind"][0] == "discard" for row in won)
        assert any(row["net_base"] != [0] * 4 for row in won) == rules.settle_non_winners  # SHT-M2, SHT-H5
    _check_rows(rules, rows)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_sht_checker_resettles_thousands_of_rows(case, tmp_path):
    rules, rows = _logged_rows(*case, SLOW_HANDS, 97, tmp_path)
    assert len(rows) == SLOW_HANDS
    _check_rows(rules, rows)


@pytest.mark.parametrize(
    "options",
    [{"dealer_pays_double": False}, {"double_from_tai": 14}, {"settle_non_winners": False}, {"double_factor": 3}],
    ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()),
)
def test_sht_checker_tells_rows_of_another_ruleset(options, tmp_path):
    """The comparison has teeth: preset rows re-settled under a changed payment option differ."""
    _, rows = _logged_rows(EFFICIENT, {}, HANDS, 31, tmp_path)
    wrong = ruleset("shuitou", **options)
    assert sum(1 for row in rows if _differences(row, wrong)) > HANDS // 100  # a total of exactly 13 is rare


# ---- four rows worked by hand from the rules text ---------------------------------------------------------------


def _row(**facts) -> dict:
    """A logged 水头 row from the facts written below (a drawn hand's defaults; zero nets unless given)."""
    row = dict(winners=[], win_kind=[], win_from=[], win_tiles=[], win_hands=[], win_melds=[], patterns=[], fan=[],
               first_turn=[], split_win=False, split_tiles=[], kongs=[], four_winds_feeder=None, liable=None,
               hand_id=-1, seed=0)  # fmt: skip
    row |= {c: [0, 0, 0, 0] for c in LOGGED_COMPONENTS + ("net",)}
    row |= facts
    return row


def _flower_list(text: str) -> list[str]:
    return tiles_of(text or "")


def _assert_the_engine_scores_it_so(rules, row):
    """The hand-written facts are those the engine would log: the reference scorer gives the winner's 台, ids
    and base 台, and every non-winner's base 台 (mjsim.score_hand, mjsim.base_tai)."""
    dealer, wilds = row["dealer"], row["wilds"]
    for k, seat in enumerate(row["winners"]):
        kind = row["win_kind"][k]
        score = score_hand(
            rules, row["win_hands"][k], melds=row["win_melds"][k], flowers=_flower_list(row["flowers"][seat]),
            wilds=wilds, win_tile=row["win_tiles"][k], self_draw=kind in ("self_draw", "kong_replacement"),
            seat=(seat - dealer) % 4, kong_replacement=kind == "kong_replacement",
            robbed_kong=kind == "robbed_kong", first_turn=row["first_turn"][k], split_tile=row["split_win"],
        )  # fmt: skip
        assert (score.points, score.base_tai, sorted(score.patterns)) == (
            row["fan"][k], row["base_tai"][seat], sorted(row["patterns"][k]),
        )  # fmt: skip
    for seat in (s for s in range(4) if s not in row["winners"]):
        expected = base_tai(
            rules, row["end_hands"][seat], melds=row["end_melds"][seat], flowers=_flower_list(row["flowers"][seat]),
            wilds=wilds, seat=(seat - dealer) % 4,
        )  # fmt: skip
        assert expected == row["base_tai"][seat], seat


# Dealer seat 0 (门风 东 1z) draws 7m and wins: 456m 789m 34p+9s(财神 for 2p or 5p) 11z, shown 中 pung and 123p.
# 财神 kinds 9s and 3z (two turned tiles, three copies of each in play).
DEALER_WIN = _row(
    dealer=0, wilds=["9s", "3z"], winners=[0], win_kind=["self_draw"], win_from=[-1], win_tiles=["7m"],
    win_hands=["456789m34p9s11z"], win_melds=[["pung:7z", "chow:123p"]], first_turn=[False],
    patterns=[["self_draw", "caishen", "flowers", "flowers", "special_pung", "special_pair"]], fan=[10],
    flowers=["125f", "3f", "", "678f"], base_tai=[9, 2, 4, 8],
    end_hands=["456789m34p9s11z", "123456789m123456p1s", "234567s2345678p366z", "11223344m5566779s4z"],
    end_melds=[["pung:7z", "chow:123p"], [], [], []],
    net_win=[60, -20, -20, -20], net_base=[0, -8, -2, 10], net=[60, -28, -22, -10],
)  # fmt: skip


def test_sht_m1_dealer_win_worked_by_hand():
    """SHT-T1: 财神 9s one held 2, flowers red 1f2f (2 of the group) 3 + black 5f (1) 2, 中 pung +1, 东 pair
    (the dealer's seat wind) +1: base 9.  SHT-T2: 自摸 +1 (a 财神 held: no 硬牌).  Total 10 < 13, not doubled.
    SHT-M1: each of seats 1-3 pays the dealer 10 × 2 = 20: win = [60, -20, -20, -20].
    Non-winners' base 台 (SHT-T1): seat 1 flower 3f: 2; seat 2 财神 3z (an honour kind) 3 + 发 pair +1: 4;
    seat 3 black 678f (3 of the group) 5 + 财神 9s 2 + its seat wind 4z paired with that 财神 +1: 8.
    SHT-M2, no dealer among them: 1 pays 2 (4 - 2) to 2, 1 pays 3 (8 - 2 = 6), 2 pays 3 (8 - 4 = 4):
    base = [0, -8, 2 - 4, 10] = [0, -8, -2, 10].  net = [60, -28, -22, -10]."""
    rules = ruleset("shuitou")
    _assert_the_engine_scores_it_so(rules, DEALER_WIN)
    found = settle(DEALER_WIN, rules)
    assert (found.fan, found.base_tai) == ([10], [9, 2, 4, 8])
    assert found.transfers["win"] == [[0, 0, 0, 0], [20, 0, 0, 0], [20, 0, 0, 0], [20, 0, 0, 0]]
    assert found.net("base") == [0, -8, -2, 10] and found.net("liability") == [0] * 4
    assert found.net() == [60, -28, -22, -10]
    _check_rows(rules, [DEALER_WIN])


# Seat 2 (门风 西 3z; dealer seat 0) wins on seat 1's 8s: 444m 111p 777s 88s, shown 西 pung and an exposed 9m kong.
# 财神 kinds 2s and 5p; the winner holds none.
DOUBLED_WIN = _row(
    dealer=0, wilds=["2s", "5p"], winners=[2], win_kind=["discard"], win_from=[1], win_tiles=["8s"],
    win_hands=["444m111p77788s"], win_melds=[["pung:3z", "kong:9m"]], first_turn=[False], kongs=["2:discard:3"],
    patterns=[["kong", "special_pung", "hard", "all_pungs"]], fan=[36],
    flowers=["1234f", "", "", "5f"], base_tai=[11, 7, 4, 2],
    end_hands=["567m123678p23456s11z", "123678m345789s55p67z", "444m111p77788s", "234567m234678p3399s"],
    end_melds=[[], [], ["pung:3z", "kong:9m"], []],
    net_win=[-72, -36, 144, -36], net_base=[26, -3, 0, -23], net=[-46, -39, 144, -59],
)  # fmt: skip


@pytest.mark.parametrize(
    "dealer_pays_double, win, base",
    [
        # SHT-M1: the dealer pays 36 × 2, seats 1 and 3 pay 36.  SHT-M2: seat 1 pays the dealer (11 - 7) × 2 = 8,
        # seat 3 pays the dealer (11 - 2) × 2 = 18, seat 3 pays seat 1 7 - 2 = 5: base = [26, -8 + 5, 0, -23].
        (True, [-72, -36, 144, -36], [26, -3, 0, -23]),
        # SHT-H4 off: everyone pays 36; base = [4 + 9, -4 + 5, 0, -9 - 5]
        (False, [-36, -36, 108, -36], [13, 1, 0, -14]),
    ],
)
def test_sht_m1_m2_non_dealer_win_doubled_with_the_dealer_paying_double_worked_by_hand(dealer_pays_double, win, base):
    """SHT-T1: exposed kong of 9m 3, 西 pung (seat 2's wind) +1: base 4.  SHT-T2: 硬牌 (no 财神) +7, 对对和 +7.
    SHT-T3: 4 + 14 = 18 >= 13: × 2 = 36 ("(13 + X) × 2").  Non-winners (SHT-T1, never doubled): the dealer
    red 1234f (4 of the group) 8 + 财神 2s 2 + 东 pair +1: 11; seat 1 two 财神 5p 5 + its 6z and 7z singles
    each paired with one of them +2: 7; seat 3 flower 5f: 2."""
    rules = ruleset("shuitou", dealer_pays_double=dealer_pays_double)
    row = DOUBLED_WIN | {"net_win": win, "net_base": base, "net": [a + b for a, b in zip(win, base)]}
    _assert_the_engine_scores_it_so(rules, row)
    found = settle(row, rules)
    assert (found.fan, found.base_tai) == ([36], [11, 7, 4, 2])
    assert found.net("win") == win and found.net("base") == base and found.net("liability") == [0] * 4
    _check_rows(rules, [row])


# Seat 3 (门风 北 4z; dealer seat 0) shows pungs of 东 南 西 and 123m, holds 456p 4z, and wins on seat 1's 北 4z.
# 财神 kinds 9m and 8s; the winner holds none.
FOUR_WINDS = dict(
    hands={0: "234567m234567p1199s", 1: "345678m123789p8s666z4z", 2: "11223344556677s9p7z", 3: "456p4z"},
    melds={3: ["pung:1z", "pung:2z", "pung:3z", "chow:123m"]},
    flowers={0: "34f", 2: "5678f", 3: "2f"},
)
FOUR_WINDS_ROW = _row(
    dealer=0, wilds=["9m", "8s"], winners=[3], win_kind=["discard"], win_from=[1], win_tiles=["4z"],
    win_hands=["456p44z"], win_melds=[FOUR_WINDS["melds"][3]], first_turn=[False],
    patterns=[["flowers", "special_pair", "hard", "four_winds"]], fan=[46],
    flowers=["34f", "", "5678f", "2f"], base_tai=[3, 3, 8, 3], four_winds_feeder=1, liable=1,
    end_hands=["234567m234567p1199s", "345678m123789p8s666z", "11223344556677s9p7z", "456p4z"],
    end_melds=[[], [], [], FOUR_WINDS["melds"][3]],
    net_win=[0, -46, 0, 46], net_liability=[0, -138, 0, 138], net_base=[-10, -5, 15, 0], net=[-10, -189, 15, 184],
)  # fmt: skip


def _four_winds_row(liability: bool) -> dict:
    if liability:
        return FOUR_WINDS_ROW
    # SHT-M3 off: each pays its own share, the dealer twice: win = [-92, -46, -46, 184]
    return FOUR_WINDS_ROW | {"liable": None, "net_win": [-92, -46, -46, 184], "net_liability": [0] * 4,
                             "net": [-102, -51, -31, 184]}  # fmt: skip


@pytest.mark.parametrize("liability", [True, False])
def test_sht_m3_four_winds_liability_worked_by_hand(liability):
    """SHT-T1: flower 2f 2, 北 pair (seat 3's wind) +1: base 3.  SHT-T2: 四风会齐 +13, 硬牌 +7.  SHT-T3:
    3 + 20 = 23 >= 13: × 2 = 46.  SHT-M3 包牌: the shown pungs are three winds, the win is on a discarded wind,
    and it scores 四风会齐: seat 1 pays all.  SHT-M1 shares: the dealer's 46 × 2 = 92, seat 1's 46, seat 2's 46;
    seat 1 pays its own under win and 92 + 46 = 138 under liability: win = [0, -46, 0, 46],
    liability = [0, -138, 0, 138].  Non-winners (SHT-T1): the dealer red 34f 3; seat 1 财神 8s 2 + its 发 triplet
    +1: 3; seat 2 black 5678f 8 (its 中 single has no 财神 to pair it).  SHT-M2: dealer and seat 1 equal, nothing;
    the dealer pays seat 2 (8 - 3) × 2 = 10; seat 1 pays seat 2 5: base = [-10, -5, 15, 0].
    net = [-10, -46 - 138 - 5, 15, 46 + 138] = [-10, -189, 15, 184]."""
    rules = ruleset("shuitou", liability_four_winds=liability)
    row = _four_winds_row(liability)
    _assert_the_engine_scores_it_so(rules, row)
    found = settle(row, rules)
    assert (found.fan, found.base_tai, found.four_winds_feeder) == ([46], [3, 3, 8, 3], 1)
    assert found.liable == (1 if liability else None)
    if liability:
        assert found.transfers["liability"][1] == [0, 0, 0, 138] and found.net("win") == [0, -46, 0, 46]
    else:
        assert found.net("win") == [-92, -46, -46, 184] and found.net("liability") == [0] * 4
    assert found.net("base") == [-10, -5, 15, 0]
    _check_rows(rules, [row])


def _scripted(rules, hands, melds, flowers, wilds, actor) -> ScriptedHand:
    """A 水头 position: the 财神 kinds and each seat's flowers set by hand (slots 1f..8f, then 白板)."""
    hand = ScriptedHand(rules, hands=hands, melds=melds, dealer=0, actor=actor)
    hand.state.wild[0] = -1
    hand.state.wild[0, : len(wilds)] = parse_tiles("".join(wilds))
    hand.state.flowers[0] = 0
    for seat, text in flowers.items():
        for tile in _flower_list(text):
            slot = 8 if tile == "5z" else int(tile[0]) - 1
            hand.state.flowers[0, seat, slot] += 1
    return hand


@pytest.mark.parametrize("liability", [True, False])
def test_sht_m3_four_winds_liability_played_by_the_engine(liability):
    """The 包牌 position above played through the engine: seat 1 discards 北, seat 3 wins on it; the logged row
    has the hand-worked facts and transfers, and the checker re-settles it."""
    rules = ruleset("shuitou", liability_four_winds=liability)
    hand = _scripted(rules, FOUR_WINDS["hands"], FOUR_WINDS["melds"], FOUR_WINDS["flowers"], ["9m", "8s"], 1)
    row = logged_row(hand.play({1: ["discard 4z"], 3: ["win"]}))
    expected = _four_winds_row(liability)
    keys = ["winners", "win_kind", "win_from", "win_tiles", "win_hands", "win_melds", "fan", "flowers", "base_tai",
            "four_winds_feeder", "liable", "net_win", "net_liability", "net_base", "net"]  # fmt: skip
    assert {k: row[k] for k in keys} == {k: expected[k] for k in keys}
    assert sorted(row["patterns"][0]) == sorted(expected["patterns"][0])
    _check_rows(rules, [row])


# A drawn hand (SHT-P7: nobody won on the four 分牌).  Dealer seat 1; 财神 kinds 6m and 7z.
DRAWN = _row(
    dealer=1, wilds=["6m", "7z"], split_tiles=["9s", "1s", "2s", "3s"],
    flowers=["55z", "45f", "", ""], base_tai=[4, 8, 7, 5],
    end_hands=["123m345678p888s4z", "123456789p123s7z111z", "234m234p456789s6m6m2z6z", "111999m11899p55s"],
    end_melds=[["pung:6z"], [], [], ["ckong:3z"]], kongs=["3:concealed:-1"],
)  # fmt: skip


def test_sht_m4_drawn_hand_worked_by_hand():
    """SHT-M4: a drawn hand settles nothing, whatever the base 台.  Base 台 (SHT-T1) as logged: seat 0 (门风 北)
    白板 ×2 (a flower group, 2 tiles) 3 + shown 发 pung +1: 4; the dealer 4f and 5f (one each of red and black)
    2 + 2, 财神 7z (an honour kind) 3, 东 triplet +1: 8; seat 2 (南) two 财神 6m 5, its 南 and 发 singles paired
    with them +2: 7; seat 3 (西) concealed kong of its seat wind: 5."""
    rules = ruleset("shuitou")
    _assert_the_engine_scores_it_so(rules, DRAWN)
    found = settle(DRAWN, rules)
    assert found.base_tai == [4, 8, 7, 5] and found.fan == []
    assert all(found.net(c) == [0] * 4 for c in COMPONENTS)
    _check_rows(rules, [DRAWN])


# SHT-M3: with 西 a concealed kong 暗杠 (4 台: total (7 + 20) × 2) the shown sets hold two winds only: no 包牌
CONCEALED_WEST = {
    "win_melds": [["pung:1z", "pung:2z", "ckong:3z", "chow:123m"]],
    "patterns": [FOUR_WINDS_ROW["patterns"][0] + ["kong"]],
    "fan": [54],
    "base_tai": [3, 3, 8, 7],
}


@pytest.mark.parametrize(
    "row, change, differs",
    [
        (DEALER_WIN, {"fan": [11]}, "fan"),  # SHT-T3: the total is 10
        (DEALER_WIN, {"base_tai": [8, 2, 4, 8]}, "base_tai"),  # SHT-T1: the winner's base part is 9
        (DEALER_WIN, {"base_tai": [9, 2, 5, 8]}, "base_tai"),  # SHT-T1: seat 2's base is 4 (then M2 differs too)
        (DEALER_WIN, {"patterns": [["caishen", "flowers", "flowers", "special_pung", "special_pair"]]}, "checker"),
        (DEALER_WIN, {"patterns": [DEALER_WIN["patterns"][0] + ["hard"]]}, "checker"),  # a 财神 is held
        (DEALER_WIN, {"flowers": ["123f5f", "4f", "", "678f"]}, "fan"),  # three red flowers are 5 台, not 3
        (DOUBLED_WIN, {"net_base": [24, -3, 0, -21], "net": [-48, -39, 144, -57]}, "net_base"),  # SHT-M2 × 2
        (FOUR_WINDS_ROW, {"four_winds_feeder": None}, "four_winds_feeder"),  # SHT-M3: the condition holds
        (FOUR_WINDS_ROW, CONCEALED_WEST, "four_winds_feeder"),
    ],
)
def test_sht_checker_reports_a_changed_fact(row, change, differs):
    """Each hand-worked row with one fact changed: the checker names the difference (SHT-T1..T3, M2, M3)."""
    assert differs in _differences(row | change, ruleset("shuitou"))
