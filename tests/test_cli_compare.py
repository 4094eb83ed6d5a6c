"""`mjsim compare`: variants simulated or re-settled on the same walls, paired table, report; `mjsim report`."""

import json

import numpy as np
import polars as pl
import pytest

from mjsim.analysis.variants import build_variants, parse_vary
from mjsim.cli import main
from mjsim.io import read_hands, read_run_info


def test_parse_vary_values():
    assert parse_vary("cap=3,5,none") == ("cap", [3, 5, None])
    assert parse_vary("liability=on,off") == ("liability", [True, False])
    assert parse_vary("horses=none,dealer") == ("horses", ["none", "dealer"])
    assert parse_vary("min_fan=0,1") == ("min_fan", [0, 1])
    with pytest.raises(ValueError, match="OPTION=VALUE"):
        parse_vary("cap")


def test_variants_resettle_what_only_changes_settlement_and_simulate_the_rest():
    variants = build_variants(["jipinghu"], ["liability=on,off", "min_fan=0,1"])
    sources = {v.label: v.base_label for v in variants}
    assert sources == {
        "jipinghu-liability=on-min_fan=0": "",
        "jipinghu-liability=on-min_fan=1": "",  # JPH-P4 changes who may win: simulated
        "jipinghu-liability=off-min_fan=0": "jipinghu-liability=on-min_fan=0",
        "jipinghu-liability=off-min_fan=1": "jipinghu-liability=on-min_fan=1",
    }
    off = next(v for v in variants if v.label == "jipinghu-liability=off-min_fan=0").ruleset
    assert not off.liability_twelve_tiles and not off.liability_kong_flower


def test_bad_vary_option_is_named():
    with pytest.raises(ValueError, match="nosuch"):
        build_variants(["jipinghu"], ["nosuch=1,2"])


@pytest.mark.slow
def test_cli_compare_end_to_end(tmp_path, capsys):
    out = tmp_path / "cmp"
    code = main(["compare", "--ruleset", "jipinghu", "--vary", "cap=3,5", "--vary", "min_fan=0,1", "--hands", "400",
                 "--workers", "1", "--seed", "3", "--out", str(out)])  # fmt: skip
    assert code == 0
    text = capsys.readouterr().out
    assert "re-settled from jipinghu-cap=3-min_fan=0" in text
    manifest = json.loads((out / "comparison.json").read_text())
    methods = {e["variant"]: e["method"] for e in manifest}
    assert methods["jipinghu-cap=5-min_fan=0"] == "re-settled" and methods["jipinghu-cap=3-min_fan=1"] == "simulated"
    base = read_hands(out / "jipinghu-cap=3-min_fan=0")
    five = read_hands(out / "jipinghu-cap=5-min_fan=0")
    assert base["hand_id"].to_list() == five["hand_id"].to_list()  # the same hands, paired
    assert base["winners"].to_list() == five["winners"].to_list()
    assert read_run_info(out / "jipinghu-cap=5-min_fan=0")["method"] == "re-settled"
    nets = np.array(five["net"].to_list())
    assert np.all(nets.sum(axis=1) == 0)
    table = pl.read_csv(out / "comparison.csv")
    assert table.height > 0
    resettled = table.filter(pl.col("label") == "jipinghu-cap=5-min_fan=0")
    assert resettled["paired"].to_list() == [True, True]
    # hands for a ±0.1 interval: (1.96 * diff_se * sqrt(400) / 0.1) ** 2, rounded up
    for se, need in zip(resettled["diff_se"].to_list(), resettled["hands_needed"].to_list()):
        assert need == int(np.ceil((1.96 * se * 20 / 0.1) ** 2 - 1e-9))
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "data:image/png;base64," in html
    assert main(["compare", "--hands", "400", "--out", str(out)]) == 2  # would overwrite: refused
    assert "already holds a comparison" in capsys.readouterr().err


def test_cli_report(tmp_path, capsys):
    run = tmp_path / "run"
    assert main(["simulate", "--hands", "160", "--session-length", "8", "--out", str(run), "--seed", "2"]) == 0
    capsys.readouterr()
    report = tmp_path / "r.html"
    assert main(["report", str(run), "--out", str(report)]) == 0
    assert report.exists() and "data:image/png;base64," in report.read_text(encoding="utf-8")
