"""Every logged 血战 transfer re-settled by the independent checker (tests/checker/settlement_xz.py), row by row.

The checker is written from rules/xuezhan.md and shares no code with the
engine's settlement; here it re-settles simulated hands of every playable XZ
preset and of the settlement house options, and must give each row's
``net_win``, ``net_kong``, ``net_penalty`` and ``net`` and each winner's fan.
A few hundred hands per case run in the normal suite, thousands in the
``slow`` test (``pytest -m slow``).  Two scripted positions, worked by hand
from the rules text, check the checker itself on 呼叫转移 and on the
end-of-wall rules.
"""

import pytest
from checker.scripted import logged_row
from checker.settlement_xz import COMPONENTS, settle
from simtools import ScriptedHand
from test_settlement_checker import _case_id, _logged_rows
from test_settlement_checker import _check_rows as check_rows

from mjsim import ruleset

PRESETS = ["xuezhan", "xuezhan_cap3", "xuezhan_dingque", "xueliu"]
OPTION_CASES = [
    ("xuezhan", {"call_transfer_multiple": "split"}),  # XZ-M4, the split reading
    ("xuezhan", {"call_transfer": False, "tax_refund": False}),  # XZ-M4 and XZ-E3 switched off
    ("xuezhan_cap3", {"call_transfer_multiple": "split"}),
    ("xuezhan", {"kong_flower_from_discard": "self_draw"}),  # XZ-H6 点杠花 as a self-draw
    # XZ-H3 自摸加底 / 自摸加番: not for a 点杠花 the discarder pays alone (XZ-H6 default), with XZ-H6 self_draw too
    ("xuezhan", {"self_draw_bonus": "base"}),
    ("xuezhan", {"self_draw_bonus": "fan"}),
    ("xueliu", {"self_draw_bonus": "fan"}),
    ("xuezhan", {"self_draw_bonus": "base", "kong_flower_from_discard": "self_draw"}),
    ("xuezhan", {"self_draw_bonus": "fan", "kong_flower_from_discard": "self_draw"}),
    ("xuezhan_cap3", {"self_draw_bonus": "fan", "kong_flower_from_discard": "self_draw"}),
    ("xuezhan", {"concealed_and_middle": True}),  # XZ-H4 门清中张
    ("xuezhan", {"extra_patterns": True}),  # XZ-H5
    ("xuezhan", {"heavenly_earthly": False}),  # XZ-H8
    ("xuezhan", {"kong_pay_discard": 3, "kong_pay_added": 2, "kong_pay_concealed": 4}),  # XZ-M3 amounts
    ("xuezhan", {"flower_pig_penalty": 32}),  # XZ-E1 amount
]
CASES = [(p, {}) for p in PRESETS] + OPTION_CASES
HANDS = 600
SLOW_HANDS = 2_000


def _facts(row):
    keys = ["hand_id", "seed", "dealer", "winners", "win_kind", "win_from", "win_turn", "win_in_play", "after_kong",
            "fan", "patterns", "win_hands", "win_melds", "kongs", "kong_in_play", "kong_turns", "exhausted", "end_state",
            "ready_fan"]  # fmt: skip
    return {k: row[k] for k in keys if k in row}


def _differences(row, rules) -> dict:
    """What the checker and the log disagree on for one row ({} when they agree)."""
    try:
        found = settle(row, rules)
    except AssertionError as error:  # a logged fact the checker found inconsistent with the rules
        return {"checker": str(error)}
    mine = {f"net_{c}": found.net(c) for c in COMPONENTS} | {"net": found.net(), "fan": found.fan}
    logged = {k: list(row[k]) for k in mine}
    differ = {k: (mine[k], logged[k]) for k in mine if mine[k] != logged[k]}
    for k in ("net_kong", "net"):  # an XZ-M4 split remainder may go either way: the rules text gives no rounding
        if k in differ and all(abs(a - b) <= r for a, b, r in zip(mine[k], logged[k], found.rounding)):
            del differ[k]
    return differ


def _check_rows(rules, rows):
    """The other families' row comparison with the 血战 checker's differences and facts."""
    check_rows(rules, rows, _differences, _facts)


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_xz_checker_resettles_every_logged_row(case, tmp_path):
    rules, rows = _logged_rows(*case, HANDS, 31, tmp_path)
    assert len(rows) == HANDS
    assert sum(1 for row in rows if row["exhausted"]) > HANDS // 10  # the end-of-wall rules (XZ-E) are reached
    assert sum(1 for row in rows if row["kongs"]) > HANDS // 10  # and kong income (XZ-M3)
    _check_rows(rules, rows)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_xz_checker_resettles_thousands_of_rows(case, tmp_path):
    rules, rows = _logged_rows(*case, SLOW_HANDS, 97, tmp_path)
    assert len(rows) == SLOW_HANDS
    _check_rows(rules, rows)


# ---- two positions worked by hand from the rules text ----------------------------------------------------------

# Seat 0 (dealer, to act) holds four 9p; seats 1 and 2 both wait on 5m alone; seat 3 holds 123456789s1122s.
# The wall holds only 1s (seat 0's kong replacement), then 3m (seat 3) and 7m (seat 0).
CALL_TRANSFER = dict(
    hands={0: "13m5m468p2468s9999p", 1: "123m456m678p234p5m", 2: "234m678m345p678p5m", 3: "123456789s1122s"},
    draws="1s3m7m",
    wall_ends_after_draws=True,
)
CALL_TRANSFER_SCRIPT = {0: ["ckong 9p", "discard 5m"], 1: ["win"], 2: ["win"]}


@pytest.mark.parametrize(
    "multiple, kong, net",
    [
        # XZ-M3 暗杠: seats 1, 2, 3 pay seat 0 two each (+6, -2, -2, -2).  XZ-M4 'each' (the seed): seat 0 pays
        # each of the two 杠上炮 winners the whole income, 6: kong = [6-12, -2+6, -2+6, -2] = [-6, 4, 4, -2].
        ("each", [-6, 4, 4, -2], [-58, 22, 22, 14]),
        # 'split': 6 over two winners, 3 each: kong = [6-6, -2+3, -2+3, -2] = [0, 1, 1, -2].
        ("split", [0, 1, 1, -2], [-52, 19, 19, 14]),
    ],
)
def test_xz_m4_call_transfer_then_a_flower_pig_worked_by_hand(multiple, kong, net):
    """呼叫转移 with two winners, then 查花猪 at the empty wall, worked from the rules text.

    Wins (XZ-F1 basic 0 + XZ-F2 杠上炮 +1 = 1 fan, 2 units; XZ-M1: the discarder pays each winner):
    win = [-4, 2, 2, 0].  After the wins seats 3 and 0 draw the last two tiles and discard them.  At the
    empty wall seat 0 holds 13m 468p 12468s, three suits: a 花猪 (XZ-E1) paying 16 to each of seats 1, 2
    (who have won) and 3: penalty = [-48, 16, 16, 16]; a 花猪 pays no 查叫 (XZ-E2), and no one else is
    not ready.  退税 (XZ-E3): seat 0's kong income has already passed to the winners, so there is nothing
    left of it to return.  net = win + kong + penalty."""
    rules = ruleset("xuezhan", call_transfer_multiple=multiple)
    row = logged_row(ScriptedHand(rules, **CALL_TRANSFER).play(CALL_TRANSFER_SCRIPT))
    assert row["winners"] == [1, 2] and row["after_kong"] == [True, True] and row["exhausted"]
    assert row["end_state"][0] == "flower_pig"
    found = settle(row, rules)
    assert found.fan == [1, 1]
    assert found.net("win") == [-4, 2, 2, 0]
    assert found.net("kong") == kong
    assert found.net("penalty") == [-48, 16, 16, 16]
    assert found.net() == net
    _check_rows(rules, [row])


# Seat 0 (dealer, to act) holds four 9p and two suits far from ready; seat 1 waits on 3p, 5p or 6p
# (111m222m333m444p5p); seat 2 holds three suits; seat 3 waits on 4s or 7s (1122334455667s).  The wall holds only
# 2m (seat 0's kong replacement), 6m, 8m and 9m, one for each seat in turn, none of them a winning tile.
END_OF_WALL = dict(
    hands={0: "13579m2468p9999p7m", 1: "111m222m333m444p5p", 2: "468m357p1357999s", 3: "1122334455667s"},
    draws="2m6m8m9m",
    wall_ends_after_draws=True,
)


def test_xz_e1_e3_flower_pig_ready_calls_and_tax_refund_worked_by_hand():
    """查花猪, 查叫 and 退税 at an empty wall with no win, worked from the rules text.

    XZ-M3: seat 0's concealed kong takes 2 from each of seats 1, 2, 3.  Each seat then discards the tile it
    draws; the wall runs out with seat 0 not ready, seats 1 and 3 ready and seat 2 a 花猪.
    XZ-E1: seat 2 pays 16 to each of seats 0, 1 and 3.
    XZ-E2: seat 0 (not ready) pays each ready player its best hand as a discard win: seat 1's best tile is 5p
    (111m 222m 333m 444p 55p 对对胡, 1 fan, 2 units; 3p or 6p make a basic hand), seat 3's is 7s (11 22 33 44
    55 66 77s 清七对, 4 fan, 16 units; 4s makes a 清一色, 2 fan).  The 花猪 pays no 查叫.
    XZ-E3: seat 0 is not ready and returns the 2 it took from each: kong = [0, 0, 0, 0].
    penalty = [16 - 2 - 16, 16 + 2, -48, 16 + 16] = [-2, 18, -48, 32]."""
    rules = ruleset("xuezhan")
    row = logged_row(ScriptedHand(rules, **END_OF_WALL).play({0: ["ckong 9p"]}))
    assert row["winners"] == [] and row["exhausted"] and row["kongs"] == ["0:concealed:-1"]
    assert list(row["end_state"]) == ["not_ready", "ready", "flower_pig", "ready"]
    assert list(row["ready_fan"]) == [-1, 1, -1, 4]  # the best values worked out above
    found = settle(row, rules)
    assert found.net("kong") == [0, 0, 0, 0]
    assert found.net("penalty") == [-2, 18, -48, 32]
    assert found.net() == [-2, 18, -48, 32]
    _check_rows(rules, [row])
