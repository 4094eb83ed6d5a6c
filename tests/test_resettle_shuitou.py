"""Re-settlement of the 水头 settlement-only options (SHT-H3 doubling, SHT-H4 dealer doubles, SHT-H5 the
non-winners' base 台, SHT-M3 包牌): a run re-settled under its own options reproduces every logged net; under
another option it equals a run simulated under it on the same seeds (``efficiency`` seats read none of these
options, so play is the same); options that change play are refused; ``mjsim compare`` re-settles them.
"""

import json

import numpy as np
import polars as pl
import pytest

from mjsim import resettle, ruleset
from mjsim.analysis.resettle import SETTLEMENT_OPTIONS, resettle_hands
from mjsim.analysis.variants import options_read
from mjsim.cli import main
from mjsim.io import read_hands, read_run_info
from mjsim.io.dataset import scan_hands
from mjsim.sim.parallel import RunSpec, simulate

HANDS = 1200
NET_COLUMNS = ["net", "net_win", "net_kong", "net_horse", "net_liability", "net_penalty", "net_base"]
PLAY_COLUMNS = ["winners", "discarder", "win_kind", "win_hands", "win_melds", "base_tai", "flowers", "wilds"]
LOGS = {  # the preset, and one where many hands reach 分牌 (SHT-P7: a win on one scores split_tile_win)
    "shuitou": {},
    "split": {"split_tiles_at": 60},
}
CASES = [
    ("shuitou", {"dealer_pays_double": False}),
    ("shuitou", {"settle_non_winners": False}),
    ("shuitou", {"liability_four_winds": False}),
    ("shuitou", {"double_from_tai": 10}),
    ("shuitou", {"double_factor": 3}),
    ("split", {"double_from_tai": 20, "double_factor": 1, "dealer_pays_double": False}),
]


def _run(path, rules, hands=HANDS):
    simulate(RunSpec(rules, ("efficiency",), hands, session_length=6, seed=41), path, workers=1, progress=False)
    return path


@pytest.fixture(scope="module")
def logged_runs(tmp_path_factory):
    return {name: _run(tmp_path_factory.mktemp(name), ruleset("shuitou", **o)) for name, o in LOGS.items()}


def _frame(frame):
    return frame.sort("hand_id")


def _assert_same(a, b, columns):
    for column in columns:
        assert np.array_equal(np.array(a[column].to_list()), np.array(b[column].to_list())), column
    assert a["fan"].to_list() == b["fan"].to_list()
    assert a["patterns"].to_list() == b["patterns"].to_list()
    assert a["liable"].to_list() == b["liable"].to_list()


@pytest.mark.parametrize("name", LOGS)
def test_resettling_under_the_logged_options_reproduces_every_net(logged_runs, name):
    logged = _frame(read_hands(logged_runs[name]))
    again = _frame(resettle(logged_runs[name]))
    assert again.height == logged.height == HANDS
    _assert_same(again, logged, NET_COLUMNS)
    assert np.array(logged["net_base"].to_list()).any()  # SHT-M2 money is there to reproduce
    if name == "split":  # the SPLIT_TILE flag is read from the log (split_tile_win +3 台)
        assert logged["split_win"].sum() > 0
        assert any("split_tile_win" in p for hand in logged["patterns"].to_list() for p in hand)


@pytest.mark.parametrize("name, options", CASES, ids=lambda x: x if isinstance(x, str) else ",".join(x))
def test_resettling_a_shuitou_option_equals_simulating_under_it(logged_runs, tmp_path, name, options):
    assert set(options) <= SETTLEMENT_OPTIONS
    assert not set(options) & options_read(("efficiency",))  # the seats play the same under either option
    logged = _frame(read_hands(logged_runs[name]))
    again = _frame(resettle(logged_runs[name], **options))
    played = _frame(read_hands(_run(tmp_path, ruleset("shuitou", **LOGS[name], **options))))
    for column in PLAY_COLUMNS:  # play was the same
        assert played[column].to_list() == logged[column].to_list(), column
    _assert_same(again, played, NET_COLUMNS)
    if "liability_four_winds" in options:  # no shown 四风会齐 won on a wind here; see the test below
        return
    assert any(not np.array_equal(np.array(logged[c].to_list()), np.array(again[c].to_list())) for c in NET_COLUMNS)


def test_sht_m3_the_logged_four_winds_fact_makes_the_discarder_pay_for_all(logged_runs):
    """包牌 is rare in play; give some logged discard wins the fact and re-settle them with and without it."""
    hands = scan_hands(logged_runs["shuitou"]).sort("hand_id").collect()
    fed = (pl.col("win_kind").list.first() == "discard") & (pl.col("hand_id") % 3 == 0)
    hands = hands.with_columns(
        pl.when(fed).then(pl.col("discarder")).otherwise(pl.col("four_winds_feeder")).alias("four_winds_feeder")
    )
    mask = np.array(hands.select(fed.fill_null(False)).to_series().to_list())
    assert mask.sum() > 50
    logged = read_hands(logged_runs["shuitou"]).sort("hand_id")
    on = resettle_hands(hands, ruleset("shuitou"), 6)
    off = resettle_hands(hands, ruleset("shuitou", liability_four_winds=False), 6)
    _assert_same(off, logged, NET_COLUMNS)
    paid = np.array(on["net_win"].to_list()) + np.array(on["net_liability"].to_list())
    logged_win = np.array(logged["net_win"].to_list())
    assert np.array_equal(paid[~mask], logged_win[~mask])
    assert np.array_equal(np.array(on["net_base"].to_list()), np.array(logged["net_base"].to_list()))
    rows = hands.filter(mask)
    for k, (winner, feeder) in zip(np.flatnonzero(mask), zip(rows["winners"].list.first(), rows["discarder"])):
        assert on["liable"][int(k)] == feeder
        assert paid[k, winner] == logged_win[k, winner]  # the winner is paid the same
        assert paid[k, feeder] == -logged_win[k, winner]  # all of it by the feeder
        assert all(paid[k, q] == 0 for q in range(4) if q not in (winner, feeder))
    assert np.array(on["net_liability"].to_list())[mask].any()


def test_a_log_without_the_four_winds_fact_is_refused(logged_runs):
    hands = scan_hands(logged_runs["shuitou"]).sort("hand_id").collect().drop("four_winds_feeder")
    with pytest.raises(ValueError, match="no four_winds_feeder column.*re-simulate"):
        resettle_hands(hands, ruleset("shuitou"), 6)


@pytest.mark.parametrize(
    "option, value",
    [("white_is_flower", False), ("wild_scheme", "flip_kind"), ("caishen_same_kind", "turn_again"),
     ("split_tiles_at", 30), ("split_kong_extra", 0), ("split_tiles", 0), ("hand_size", 13), ("tile_set", 136)],
)  # fmt: skip
def test_options_that_change_play_are_refused(logged_runs, option, value):
    with pytest.raises(ValueError, match=f"^{option} changes how the hands are played.*paired re-simulation"):
        resettle(logged_runs["shuitou"], **{option: value})


@pytest.mark.slow
def test_cli_compare_resettles_a_shuitou_settlement_option(tmp_path, capsys):
    out = tmp_path / "cmp"
    code = main(["compare", "--ruleset", "shuitou", "--vary", "dealer_pays_double=true,false", "--hands", "300",
                 "--session-length", "6", "--workers", "1", "--seed", "3", "--out", str(out)])  # fmt: skip
    assert code == 0
    base_label, other_label = "shuitou-dealer_pays_double=on", "shuitou-dealer_pays_double=off"
    assert f"variant {other_label}: re-settled from {base_label}" in capsys.readouterr().out
    methods = {e["variant"]: e["method"] for e in json.loads((out / "comparison.json").read_text())}
    assert methods == {base_label: "simulated", other_label: "re-settled"}
    assert read_run_info(out / other_label)["method"] == "re-settled"
    base, other = _frame(read_hands(out / base_label)), _frame(read_hands(out / other_label))
    for column in ["hand_id", "seed", *PLAY_COLUMNS, "fan"]:  # the same hands, paired
        assert base[column].to_list() == other[column].to_list(), column
    again = _frame(resettle(out / base_label, dealer_pays_double=False))
    for column in NET_COLUMNS:
        assert np.array_equal(np.array(other[column].to_list()), np.array(again[column].to_list())), column
    assert not np.array_equal(np.array(base["net"].to_list()), np.array(other["net"].to_list()))
    assert np.all(np.array(other["net"].to_list()).sum(axis=1) == 0)
    table = pl.read_csv(out / "comparison.csv").filter(pl.col("label") == other_label)
    assert table["role"].to_list() == ["dealer", "non-dealer"] and table["paired"].to_list() == [True, True]
    assert table["reference"].to_list() == [base_label] * 2
