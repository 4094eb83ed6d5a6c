"""Re-settlement honours every settlement-only house option (TDH-H1..H5, H7, H8, H10, H11, C-P7).

For each option, the hands of one run re-settled under it equal a simulation played under it on the same
seeds (``efficiency`` seats play the same whatever a hand is worth), and some hand's money does change, so
the comparison means something.  Play options (C-W5, TDH-H6, TDH-H9) are refused.
"""

import numpy as np
import pytest

from mjsim import resettle, ruleset
from mjsim.analysis.resettle import SETTLEMENT_OPTIONS
from mjsim.analysis.variants import parse_vary
from mjsim.io import read_hands
from mjsim.sim.parallel import RunSpec, simulate

HANDS = 1200
NET_COLUMNS = ["net", "net_win", "net_kong", "net_horse", "net_liability", "net_penalty"]
CASES = [
    ("tuidaohu", {"horses_on_kongs": False}),
    ("tuidaohu", {"horse_settlement": "net"}),
    ("tuidaohu", {"kong_flower_multiplier": 2, "robbed_kong_multiplier": 3}),
    ("tuidaohu", {"follow_dealer": 2}),
    ("jipinghu", {"follow_dealer": 1}),
    ("tuidaohu_ghost", {"winner_horses_on_kongs": True}),
    ("tuidaohu_ghost", {"winner_horse_value": "base"}),
    ("tuidaohu_ghost", {"winner_horse_scheme": "one_horse"}),
    ("tuidaohu_ghost", {"winner_horses_from": "winner"}),
    ("tuidaohu_ghost", {"seven_pairs_multiplier": 3}),
]
# rare in play (满鬼 with horse hits; a won hand whose ghosts are a win at face value, ~1 in 2000): equality only
RARE = [
    ("tuidaohu_ghost", {"full_ghosts_horses": False}),
    ("tuidaohu_ghost", {"ghost_as_itself_counts_as_no_ghost": True}),
]


def _run(path, rules):
    simulate(RunSpec(rules, ("efficiency",), HANDS, session_length=6, seed=33), path, workers=1, progress=False)
    return path


@pytest.fixture(scope="module")
def logged_runs(tmp_path_factory):
    return {p: _run(tmp_path_factory.mktemp(p), ruleset(p)) for p in {preset for preset, _ in CASES}}


def _nets(frame):
    frame = frame.sort("hand_id")
    return {c: np.array(frame[c].to_list()) for c in NET_COLUMNS} | {"fan": frame["fan"].to_list()}


@pytest.mark.parametrize("preset, options", CASES + RARE, ids=lambda x: x if isinstance(x, str) else ",".join(x))
def test_resettling_under_a_house_option_equals_simulating_under_it(logged_runs, tmp_path, preset, options):
    assert set(options) <= SETTLEMENT_OPTIONS
    again = _nets(resettle(logged_runs[preset], **options))
    played = _nets(read_hands(_run(tmp_path, ruleset(preset, **options))))
    for column in NET_COLUMNS + ["fan"]:
        assert np.array_equal(np.array(again[column], dtype=object), np.array(played[column], dtype=object)), column
    if (preset, options) in RARE:
        return
    logged = _nets(read_hands(logged_runs[preset]))
    assert any(not np.array_equal(logged[c], again[c]) for c in NET_COLUMNS) or logged["fan"] != again["fan"]


@pytest.mark.parametrize(
    "option, value", [("dead_wall", 10), ("wild_scheme", "flip_two"), ("orphans_rob_concealed_kong", True)]
)
def test_house_options_that_change_play_are_not_resettled(logged_runs, option, value):
    preset = "tuidaohu_ghost" if option == "wild_scheme" else "tuidaohu"
    with pytest.raises(ValueError, match=f"{option}.*paired re-simulation"):
        resettle(logged_runs[preset], **{option: value})


@pytest.mark.parametrize(
    "text, expected",
    [
        ("dead_wall=0,14", ("dead_wall", [0, 14])),
        ("follow_dealer=0,1", ("follow_dealer", [0, 1])),
        ("horses_on_kongs=true,false", ("horses_on_kongs", [True, False])),
        ("horse_settlement=transfers,net", ("horse_settlement", ["transfers", "net"])),
        ("winner_horse_scheme=count,one_horse", ("winner_horse_scheme", ["count", "one_horse"])),
        ("wild_scheme=fixed,flip_two", ("wild_scheme", ["fixed", "flip_two"])),
        ("seven_pairs_multiplier=1,2", ("seven_pairs_multiplier", [1, 2])),
    ],
)
def test_house_options_parse_for_vary(text, expected):
    assert parse_vary(text) == expected
