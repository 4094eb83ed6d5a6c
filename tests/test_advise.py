"""`mjsim advise`: the grid of option combinations, re-settled or simulated, the table, the Pareto set, the page."""

import json
import math

import numpy as np
import polars as pl
import pytest

from mjsim.analysis.advise import abs_interval, grid, pareto_front
from mjsim.analysis.resettle import play_changes
from mjsim.cli import main
from mjsim.io import read_hands

TABLE = pl.DataFrame(
    {
        "combination": ["a", "b", "c", "d", "e", "f", "g", "h"],
        "sd_hand": [10.0, 9.0, 11.0, 9.0, 12.0, 10.5, 9.0, float("nan")],
        "abs_dealer_edge": [0.5, 0.6, 0.1, 0.6, 0.05, 0.55, 0.7, 0.0],
    }
)


def test_pareto_front_of_a_hand_written_table():
    front = pareto_front(TABLE["sd_hand"], TABLE["abs_dealer_edge"])
    # b and d tie (both kept); f is beaten by a on both; g by b (same spread, larger edge); h has no spread
    assert TABLE.filter(pl.Series(front))["combination"].to_list() == ["a", "b", "c", "d", "e"]


def test_abs_interval_of_a_signed_edge():
    assert abs_interval(-0.2, -0.5, 0.1) == (0.2, 0.0, 0.5)  # the interval holds 0
    assert abs_interval(-0.3, -0.5, -0.1) == (0.3, 0.1, 0.5)
    assert abs_interval(0.3, 0.1, 0.5) == (0.3, 0.1, 0.5)


def test_grid_size_labels_and_order():
    combos = grid("jipinghu_5fan", ["cap=3,4,5", "liability=on,off", "min_fan=0,1"])
    assert len(combos) == 12
    labels = [c.label for c in combos]
    assert labels[:3] == ["cap=3, liability=on, min_fan=0", "cap=3, liability=on, min_fan=1",
                          "cap=3, liability=off, min_fan=0"]  # fmt: skip
    assert labels[-1] == "cap=5, liability=off, min_fan=1" and len(set(labels)) == 12
    last = combos[-1].variant.ruleset
    assert last.cap == 5 and last.min_fan == 1 and not last.liability_twelve_tiles and not last.liability_kong_flower


def test_grid_resettles_cap_and_liability_and_simulates_min_fan():
    combos = grid("jipinghu_5fan", ["cap=3,4,5", "liability=on,off", "min_fan=0,1"])
    simulated = [c.label for c in combos if c.method == "simulated"]
    assert simulated == ["cap=3, liability=on, min_fan=0", "cap=3, liability=on, min_fan=1"]  # JPH-P4 changes play
    by_label = {c.variant.label: c.variant.ruleset for c in combos}
    for c in combos:
        if c.variant.base_label:  # re-settled from a run that plays the same way (JPH-F4 cap, JPH-S2..S5 包)
            base = by_label[c.variant.base_label]
            assert play_changes(base, c.variant.ruleset) == [] and base.min_fan == c.variant.ruleset.min_fan
    assert play_changes(combos[0].variant.ruleset, combos[1].variant.ruleset) == ["min_fan"]
    tdh = grid("tuidaohu", ["horses=none,dealer", "self_draw_multiplier=1,2"])  # TDH-M1, TDH-V3: settlement only
    assert [c.method == "simulated" for c in tdh] == [True, False, False, False]


def test_run_grid_simulates_what_the_log_refuses_to_resettle(tmp_path, monkeypatch):
    """TDH-M6: dealer horses set aside back tiles a horses=none hand may have drawn; the log refuses, so that
    combination is simulated on the same seed, and the next one is re-settled from it instead."""
    import mjsim.analysis.advise as advise_module

    simulated, resettled = [], []

    def fake_run(variants, policies, hands, **kw):
        simulated.extend(v.label for v in variants)
        return [{"label": v.label, "variant": v.label, "group": v.group, "seating": 0, "seatings": 1,
                 "path": str(tmp_path / v.label), "method": "simulated", "mechanical_of": "",
                 "ruleset_hash": v.ruleset.content_hash} for v in variants]  # fmt: skip

    def fake_resettle(base_dir, variant, out_dir, label, overwrite=False):
        if variant.ruleset.horses == "dealer" and "horses=none" in str(base_dir):
            raise ValueError("hand 1: the new horse scheme sets aside 1 back tiles; re-simulate instead (...)")
        resettled.append((label, base_dir.name))

    monkeypatch.setattr(advise_module, "run_variants", fake_run)
    monkeypatch.setattr(advise_module, "write_resettled", fake_resettle)
    said = []
    combos = grid("tuidaohu", ["horses=none,dealer", "self_draw_multiplier=1,2"])
    made, entries = advise_module.run_grid(combos, ("efficiency",), 64, session_length=8, seed=0, workers=1,
                                           out_dir=tmp_path, say=said.append)  # fmt: skip
    none1, none2, dealer1, dealer2 = (f"tuidaohu-horses={h}-self_draw_multiplier={m}"
                                      for h, m in (("none", 1), ("none", 2), ("dealer", 1), ("dealer", 2)))  # fmt: skip
    assert simulated == [none1, dealer1]
    assert resettled == [(none2, none1), (dealer2, dealer1)]
    assert [m.method for m in made] == ["simulated", f"re-settled from {none1}", "simulated",
                                        f"re-settled from {dealer1}"]  # fmt: skip
    assert [e["method"] for e in entries] == ["simulated", "re-settled", "simulated", "re-settled"]
    assert any("horses=dealer, self_draw_multiplier=1: simulated instead" in line for line in said)
    assert all("re-simulate" not in line for line in said)


@pytest.mark.parametrize(
    "considers, words",
    [
        (["nosuch=1,2"], "'nosuch' is not a ruleset option"),
        (["cap=abc"], "'abc'"),
        (["cap=3,3"], "lists a value twice"),
        (["cap=3", "cap=5"], "names cap twice"),
        (["liability=maybe"], "--consider liability= takes on/off"),
        (["cap"], "--consider 'cap' must be OPTION=VALUE"),
        (["cap=3"], "one combination only"),
    ],
)
def test_bad_considers_are_named(considers, words):
    with pytest.raises(ValueError, match=words):
        grid("jipinghu", considers)


def test_cli_advise_end_to_end(tmp_path, capsys):
    out = tmp_path / "adv"
    args = ["advise", "--ruleset", "jipinghu", "--consider", "cap=3,5", "--hands", "64", "--workers", "1", "-q",
            "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "cap=3: simulated" in text and "cap=5: re-settled from jipinghu-cap=3" in text
    assert 'Smallest spread: "cap=' in text and "Smallest dealer's edge: \"cap=" in text
    methods = {e["variant"]: e["method"] for e in json.loads((out / "comparison.json").read_text())}
    assert methods == {"jipinghu-cap=3": "simulated", "jipinghu-cap=5": "re-settled"}
    table = pl.read_csv(out / "advice.csv")
    assert table["combination"].to_list() == ["cap=3", "cap=5"]
    for m in ("dealer_edge", "seat_gap", "sd_hand", "sd_session", "p_session_loss", "hand_length", "drawn_rate",
              "limit_rate", "abs_dealer_edge"):  # fmt: skip
        est, lo, hi = table[m].to_numpy(), table[f"{m}_low"].to_numpy(), table[f"{m}_high"].to_numpy()
        assert np.all(np.isfinite(est)) and np.all((lo <= est + 1e-12) & (est <= hi + 1e-12)), m
    # known answers from the hand logs themselves: spread, dealer's edge, hand length, drawn rate
    for label, run in (("cap=3", "jipinghu-cap=3"), ("cap=5", "jipinghu-cap=5")):
        hands = read_hands(out / run)
        net = np.array(hands["net"].to_list(), dtype=float)
        dealer = hands["dealer"].to_numpy()
        rows = np.arange(len(dealer))
        others = (net.sum(axis=1) - net[rows, dealer]) / 3
        row = table.row(table["combination"].to_list().index(label), named=True)
        assert row["sd_hand"] == pytest.approx(net.std())
        assert row["dealer_edge"] == pytest.approx(net[rows, dealer].mean() - others.mean())
        assert row["hand_length"] == pytest.approx(hands["turns"].mean())
        assert row["drawn_rate"] == pytest.approx((hands["winners"].list.len() == 0).mean())
    assert table["hand_length"][0] == table["hand_length"][1]  # re-settled: the same hands, played the same way
    assert table["loss_threshold"].n_unique() == 1
    front = table.filter(pl.col("pareto"))
    assert 1 <= front.height <= 2
    html = (out / "advice.html").read_text(encoding="utf-8")
    assert "data:image/png;base64," in html and "Pareto" in html and "cap=5" in html
    assert (out / "advice.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(args) == 2  # would replace the advice: refused
    assert "already holds advice" in capsys.readouterr().err
    assert not math.isnan(table["limit_rate"][0])  # jipinghu has a cap: the limit rate is measured
