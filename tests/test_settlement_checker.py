"""Every logged transfer re-settled by the independent checker (tests/checker), row by row (C-M1).

The checker is written from the rules reference and shares no code with the
engine's settlement; here it re-settles simulated hands of every preset (and
of the settlement options) from the logged facts and must give each row's
``net_win``, ``net_liability``, ``net_kong``, ``net_horse``, ``net_penalty``
and ``net``, plus its fan (units in 推倒胡), liable seat, 杠上开花 feeder and horse seats.
A few hundred hands per case run in the normal suite, thousands in the
``slow`` test (``pytest -m slow``).
"""

import pytest
from checker.scripted import logged_row
from checker.settlement import COMPONENTS, settle
from test_sim_special_rules import (
    dragon_position,
    kong_flower_position,
    robbed_kong_position,
    triple_win_position,
    twelve_tile_position,
)

from mjsim import ruleset
from mjsim.io.dataset import read_hands
from mjsim.sim.parallel import RunSpec, simulate

POLICIES = ("efficiency;value;defensive;random",)
PRESETS = [
    "jipinghu", "jipinghu_5fan", "jipinghu_5fan_min1", "jipinghu_5fan_min3",
    "tuidaohu", "tuidaohu_dianpao", "tuidaohu_ghost",
]  # fmt: skip
# settlement options beside the presets' readings: (preset, options)
OPTION_CASES = [
    ("jipinghu", {"discard_pays_all": True}),  # JPH-M2 包三家
    ("jipinghu_5fan", {"liability_first_only": False, "cap": 4}),  # JPH-S4 without 包先不包后; JPH-F4 cap sweep
    ("jipinghu", {"liability_twelve_tiles": False, "liability_kong_flower": False}),  # JPH-S6 switches
    ("tuidaohu", {"horses": "winner"}),  # TDH-M6: winner horses with the dealer-offset mapping
    ("tuidaohu_dianpao", {"kong_settle": "immediate"}),  # TDH-K2 [G] timing in the [D] engine
    ("tuidaohu_ghost", {"wild_scheme": "flip_next"}),  # TDH-G1 flip
    ("tuidaohu_ghost", {"horses": "dealer", "horse_mapping": "dealer_offset"}),  # TDH-M6: dealer horses
]
# the house options of issue 10 (C-P7, C-W5, TDH-H) that bear on settlement or on what is settled
HOUSE_CASES = [
    ("jipinghu", {"follow_dealer": 1}),  # C-P7 跟庄
    ("tuidaohu", {"follow_dealer": 2}),
    ("tuidaohu_ghost", {"follow_dealer": 1}),
    ("jipinghu_5fan", {"dead_wall": 14}),  # C-W5 留牌
    ("tuidaohu", {"horses_on_kongs": False}),  # TDH-H1 马跟杠 off, dealer horses
    ("tuidaohu_ghost", {"winner_horses_on_kongs": True}),  # TDH-H1, winner horses
    ("tuidaohu_ghost", {"winner_horse_value": "base"}),  # TDH-H2 马跟底分
    ("tuidaohu_ghost", {"winner_horse_scheme": "one_horse"}),  # TDH-H3 爆炸马
    ("tuidaohu_ghost", {"seven_pairs_multiplier": 2}),  # TDH-H4 七对加倍
    ("tuidaohu", {"kong_flower_multiplier": 2, "robbed_kong_multiplier": 3}),  # TDH-H5
    ("tuidaohu_dianpao", {"kong_flower_multiplier": 3, "robbed_kong_multiplier": 2}),
    ("tuidaohu_ghost", {"wild_scheme": "flip_two"}),  # TDH-H6 双鬼
    ("tuidaohu_ghost", {"ghost_as_itself_counts_as_no_ghost": True}),  # TDH-H7
    ("tuidaohu_ghost", {"full_ghosts_horses": False, "wild_scheme": "flip_two"}),  # TDH-H8 (满鬼 is common with 双鬼)
    ("tuidaohu", {"orphans_rob_concealed_kong": True}),  # TDH-H9
    ("tuidaohu_ghost", {"winner_horses_from": "winner"}),  # TDH-H10
    ("tuidaohu", {"horse_settlement": "net"}),  # TDH-M4 net, TDH-H11
    ("tuidaohu_dianpao", {"horse_settlement": "net"}),
    ("jipinghu", {"triple_win_pays_all": True}),  # JPH-S1 option (JPH-H1)
    ("jipinghu", {"liability_precedence": "limit", "liability_once_across_rules": True}),  # JPH-S5a options
    ("jipinghu_5fan_min3", {"liability_once_across_rules": True}),  # more limit hands, more JPH-S5 triggers
    ("jipinghu_5fan", {"nine_gates_wait": "shape", "first_turn_ends_on_concealed_kong": True}),  # JPH-F2 options
]
CASES = [(p, {}) for p in PRESETS] + OPTION_CASES + HOUSE_CASES
HANDS = 800
SLOW_HANDS = 2_000


def _case_id(case):
    preset, options = case
    return "-".join([preset] + [f"{k}={v}" for k, v in options.items()])


def _logged_rows(preset, options, hands, seed, directory):
    rules = ruleset(preset, **options)
    simulate(RunSpec(rules, POLICIES, hands, session_length=8, seed=seed), directory, progress=False)
    return rules, read_hands(directory).to_dicts()


def _facts(row):
    keys = ["hand_id", "seed", "dealer", "streak", "round_wind", "winners", "discarder", "win_kind", "fan",
            "patterns", "win_hands", "win_melds", "kongs", "liable", "twelve_feeder", "twelve_turn", "limit_feeder",
            "limit_turn", "wilds", "horses", "horse_seats", "horse_hits"]  # fmt: skip
    return {k: row[k] for k in keys if k in row}


def _differences(row, rules) -> dict:
    """What the checker and the log disagree on for one row ({} when they agree)."""
    try:
        found = settle(row, rules)
    except AssertionError as error:  # a fact the checker found inconsistent with the rules (e.g. horse count)
        return {"checker": str(error)}
    mine = {f"net_{c}": found.net(c) for c in COMPONENTS}
    mine |= {"net": found.net(), "fan": found.values, "liable": found.liable, "kong_from_discard": found.kong_feeders}
    if rules.horses != "none":
        mine |= {"horse_seats": found.horse_seats, "horse_hits": found.horse_hits}
    logged = {k: (list(row[k]) if isinstance(row[k], list | tuple) else row[k]) for k in mine}
    differ = {k: (mine[k], logged[k]) for k in mine if mine[k] != logged[k]}
    for k in ("net_horse", "net"):  # a whole-point rounding of a TDH-M4 net split is either way
        if k in differ and all(abs(a - b) <= r for a, b, r in zip(mine[k], logged[k], found.rounding)):
            del differ[k]
    return differ


def _check_rows(rules, rows, differences=None, facts=None):
    """Compare every row (``differences``: a checker's row comparison, this module's by default; ``facts``: what
    to show of a differing row); fail with the first few differing rows' facts, both results and the count."""
    differences, facts = differences or _differences, facts or _facts
    failures = []
    for row in rows:
        diff = differences(row, rules)
        if diff:
            failures.append(f"hand {row['hand_id']}: (checker, logged) {diff}\n  facts {facts(row)}")
    assert not failures, f"{len(failures)} of {len(rows)} rows differ ({rules.name}):\n" + "\n".join(failures[:5])


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_c_m1_checker_resettles_every_logged_row(case, tmp_path):
    rules, rows = _logged_rows(*case, HANDS, 31, tmp_path)
    assert len(rows) == HANDS
    assert sum(1 for row in rows if row["winners"]) > HANDS // 3
    _check_rows(rules, rows)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_c_m1_checker_resettles_thousands_of_rows(case, tmp_path):
    rules, rows = _logged_rows(*case, SLOW_HANDS, 97, tmp_path)
    assert len(rows) == SLOW_HANDS
    _check_rows(rules, rows)


# ---- rare paths: the scripted positions of the engine's special-rule tests, re-settled by the checker ----------
# (random play reaches 一炮三响, JPH-S5 or 包先不包后 a few times in ten thousand hands, 人和 almost never)

RARE_POSITIONS = [
    # (position builder from tests/test_sim_special_rules.py, preset, options, script)
    (twelve_tile_position, "jipinghu", {},
     {0: ["discard 7z", "discard 8m"], 1: ["pung", "discard 4m"], 2: ["pung", "discard 6m", "win"]}),  # JPH-S4 包先不包后
    (twelve_tile_position, "jipinghu", {"liability_first_only": False},
     {0: ["discard 7z", "discard 8m"], 1: ["pung", "discard 4m"], 2: ["pung", "discard 6m", "win"]}),
    (dragon_position, "jipinghu", {}, {0: ["discard 7z"], 1: ["pung", "discard 5p", "win"]}),  # JPH-S5
    (dragon_position, "jipinghu_5fan", {}, {0: ["discard 7z"], 1: ["pung", "discard 5p", "win"]}),
    (dragon_position, "jipinghu", {"liability_precedence": "limit", "liability_once_across_rules": True},
     {0: ["discard 7z"], 1: ["pung", "discard 5p", "win"]}),
    (triple_win_position, "jipinghu", {}, {0: ["discard 5m"], 1: ["win"], 2: ["win"], 3: ["win"]}),  # JPH-S1
    (triple_win_position, "jipinghu", {"discard_pays_all": True},
     {0: ["discard 5m"], 1: ["win"], 2: ["win"], 3: ["win"]}),
    (triple_win_position, "jipinghu", {"triple_win_pays_all": True},
     {0: ["discard 5m"], 1: ["win"], 2: ["win"], 3: ["win"]}),
    (triple_win_position, "jipinghu_5fan", {}, {0: ["discard 5m"], 1: ["win"], 2: ["win"], 3: ["win"]}),
    (kong_flower_position, "jipinghu", {}, {0: ["discard 7m"], 1: ["kong", "win"]}),  # JPH-S2
    (kong_flower_position, "jipinghu_5fan", {}, {0: ["discard 7m"], 1: ["kong", "win"]}),
    (robbed_kong_position, "jipinghu", {}, {0: ["akong 5m"], 1: ["win"]}),  # JPH-S3
    (robbed_kong_position, "jipinghu_5fan", {"liability_robbed_kong": False}, {0: ["akong 5m"], 1: ["win"]}),
]  # fmt: skip


def _rare_id(case):
    position, preset, options, _ = case
    return _case_id((f"{position.__name__}-{preset}", options))


@pytest.mark.parametrize("case", RARE_POSITIONS, ids=_rare_id)
def test_c_m1_checker_resettles_the_scripted_special_rule_positions(case):
    position, preset, options, script = case
    rules = ruleset(preset, **options)
    row = position(rules).play(script)
    assert row["winners"]
    _check_rows(rules, [logged_row(row)])
