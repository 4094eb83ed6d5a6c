"""Re-settlement of the 血战 settlement-only options (XZ-F3 cap, XZ-M3 kong amounts, XZ-M4 呼叫转移, XZ-E1 花猪
penalty, XZ-H3 自摸加底 / 加番, XZ-H6 点杠花): the hands of one run re-settled under an option equal a run
simulated under it on the same seeds (``efficiency`` seats play the same whatever a hand is worth), and the
money does change somewhere, so each comparison means something.
"""

import numpy as np
import pytest

from mjsim import resettle, ruleset
from mjsim.analysis.resettle import SETTLEMENT_OPTIONS
from mjsim.io import read_hands
from mjsim.sim.parallel import RunSpec, simulate

HANDS = 600
NET_COLUMNS = ["net", "net_win", "net_kong", "net_penalty", "net_call_transfer", "net_tax_refund", "net_flower_pig",
               "net_not_ready"]  # fmt: skip
CASES = [
    ("xuezhan", {"cap": 3}),
    ("xuezhan", {"cap": 2, "self_draw_bonus": "fan"}),
    ("xuezhan", {"self_draw_bonus": "base"}),
    ("xuezhan", {"kong_flower_from_discard": "self_draw"}),
    ("xuezhan", {"kong_pay_discard": 4, "kong_pay_added": 2, "kong_pay_concealed": 3}),
    ("xuezhan", {"call_transfer_multiple": "split", "flower_pig_penalty": 8, "kong_pay_concealed": 1}),  # rare alone
    ("xuezhan", {"tax_refund": False, "call_transfer": False}),
    ("xuezhan_cap3", {"cap": 2}),
    ("xueliu", {"cap": 4, "self_draw_bonus": "base"}),
]


def _run(path, rules):
    simulate(RunSpec(rules, ("efficiency",), HANDS, session_length=6, seed=41), path, workers=1, progress=False)
    return path


@pytest.fixture(scope="module")
def logged_runs(tmp_path_factory):
    return {p: _run(tmp_path_factory.mktemp(p), ruleset(p)) for p in {preset for preset, _ in CASES}}


def _nets(frame):
    frame = frame.sort("hand_id")
    return {c: np.array(frame[c].to_list()) for c in NET_COLUMNS} | {"fan": frame["fan"].to_list()}


@pytest.mark.parametrize("preset, options", CASES, ids=lambda x: x if isinstance(x, str) else ",".join(x))
def test_resettling_a_xuezhan_option_equals_simulating_under_it(logged_runs, tmp_path, preset, options):
    assert set(options) <= SETTLEMENT_OPTIONS
    logged = _nets(read_hands(logged_runs[preset]))
    again = _nets(resettle(logged_runs[preset], **options))
    played = _nets(read_hands(_run(tmp_path, ruleset(preset, **options))))
    for column in NET_COLUMNS + ["fan"]:
        assert np.array_equal(np.array(again[column], dtype=object), np.array(played[column], dtype=object)), column
    assert not np.array_equal(logged["net"], again["net"]), "the option changed no hand's money"


def test_resettling_unchanged_gives_the_logged_nets(logged_runs):
    for preset in ("xuezhan", "xueliu"):
        logged = _nets(read_hands(logged_runs[preset]))
        again = _nets(resettle(logged_runs[preset]))
        for column in NET_COLUMNS + ["fan"]:
            assert np.array_equal(np.array(again[column], dtype=object), np.array(logged[column], dtype=object))


def test_a_higher_cap_than_a_logged_capped_ready_value_is_refused(logged_runs):
    """XZ-E2: under cap 3 a ready hand's 查叫 value of 3 fan may stand for more; the log cannot say how much."""
    with pytest.raises(ValueError, match=r"查叫 value sits at the logged cap 3.*re-simulate"):
        resettle(logged_runs["xuezhan_cap3"], cap=None)


@pytest.mark.parametrize("option, value", [("concealed_and_middle", True), ("extra_patterns", True),
                                           ("declare_void", True), ("bloody_flow", True)])  # fmt: skip
def test_options_that_change_play_or_unlogged_values_are_refused(logged_runs, option, value):
    with pytest.raises(ValueError, match=f"{option} changes how the hands are played"):
        resettle(logged_runs["xuezhan"], **{option: value})
