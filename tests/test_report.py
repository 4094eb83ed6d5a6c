"""The report: figures drawn from hand-made tables, and the HTML page of real small runs."""

from __future__ import annotations

import base64
import re
import warnings
from html import unescape
from html.parser import HTMLParser

import matplotlib as mpl
import numpy as np
import pandas as pd
import polars as pl
import pytest
from matplotlib import font_manager
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator, ScalarFormatter

import mjsim
from mjsim.analysis import metrics, rule_table, run_summary, shuitou_dealer_edge_table, split_table
from mjsim.io.dataset import scan_hands
from mjsim.report import figures as F
from mjsim.report import html as H
from mjsim.report import load_runs, report_tables, write_report
from mjsim.report import tables as T
from mjsim.report.build import _liability_parts
from mjsim.sim.parallel import RunSpec, simulate


def _title(fig) -> str:
    return fig._suptitle.get_text() if fig._suptitle else ""


def _bars(ax):
    return [p for p in ax.patches if p.__class__.__name__ == "Rectangle"]


# --------------------------------------------------------------------------- figures from hand-made tables


def test_pattern_figure_bar_lengths_are_the_rates():
    table = pd.DataFrame({
        "run": ["a", "a", "a", "b", "b"],
        "pattern": ["chicken", "all_chows", "self_draw", "chicken", "half_flush"],
        "count": [60, 30, 20, 50, 5], "wins": [100, 100, 100, 90, 90],
        "rate": [0.6, 0.3, 0.2, 50 / 90, 5 / 90], "hands": [123] * 3 + [456] * 2,
    })  # fmt: skip
    table["lo"], table["hi"] = T.wilson(table["count"], table["wins"])
    fig = F.pattern_figure(table)
    assert len(fig.axes) == 1
    widths = sorted(round(p.get_width(), 9) for p in _bars(fig.axes[0]))
    assert widths == sorted(round(x, 9) for x in table["rate"])
    assert "123 hands" in _title(fig) and "456 hands" in _title(fig)
    assert "Wilson 95%" in _title(fig)


def test_pattern_figure_accepts_polars_and_keeps_the_top_patterns():
    table = pl.DataFrame({
        "run": ["a"] * 4, "pattern": ["p1", "p2", "p3", "p4"], "count": [4, 3, 2, 1], "wins": [10] * 4,
        "rate": [0.4, 0.3, 0.2, 0.1], "lo": [0.3, 0.2, 0.1, 0.0], "hi": [0.5, 0.4, 0.3, 0.2], "hands": [77] * 4,
    })  # fmt: skip
    fig = F.pattern_figure(table, top=2)
    assert sorted(p.get_width() for p in _bars(fig.axes[0])) == [0.3, 0.4]
    ax = fig.axes[0]
    where = dict(zip([t.get_text() for t in ax.get_yticklabels()], ax.get_yticks(), strict=True))
    assert set(where) == {"p1", "p2"} and where["p1"] > where["p2"]  # most frequent on top
    assert "77 hands" in _title(fig)


def _components(run="r", hands=321):
    rows = []
    for role, base in (("dealer", 0.3), ("non-dealer", -0.1)):
        for i, component in enumerate(["net", "win", "kong", "horse", "liability", "penalty"]):
            mean = 0.0 if component in ("kong", "penalty") else base / (i + 1)
            present = component not in ("kong", "penalty")
            rows.append({"run": run, "role": role, "component": component, "mean": mean, "lo": mean - 0.05,
                         "hi": mean + 0.05, "present": present, "hands": hands})  # fmt: skip
    return pd.DataFrame(rows)


def test_component_figure_drops_absent_components_and_says_so():
    table = _components()
    fig = F.component_figure(table)
    assert len(fig.axes) == 1
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["net", "win", "horse", "liability"]
    shown = table[table["present"]]
    assert sorted(round(p.get_height(), 9) for p in _bars(ax)) == sorted(round(x, 9) for x in shown["mean"])
    assert "none: kong, penalty" in ax.get_title()
    assert "321 hands" in ax.get_title() and "321 hands" in _title(fig)
    assert "95% CI" in _title(fig)


def test_component_figure_one_axes_per_run():
    fig = F.component_figure(pd.concat([_components("a", 100), _components("b", 200)]))
    assert len(fig.axes) == 2
    assert "100 hands" in _title(fig) and "200 hands" in _title(fig)


def _seat_rows(run, hands, by, groups, values):
    return pd.DataFrame({
        "run": run, "by": by, "group": groups, "hands": hands, "mean_net": values,
        "mean_net_lo": np.array(values) - 0.1, "mean_net_hi": np.array(values) + 0.1,
    })  # fmt: skip


def test_seat_effects_figure_bars_are_the_means():
    table = pd.concat([
        _seat_rows("a", 999, "offset", ["0", "1", "2", "3"], [0.3, -0.1, -0.1, -0.1]),
        _seat_rows("a", 999, "seat", ["0", "1", "2", "3"], [0.05, -0.05, 0.02, -0.02]),
    ])  # fmt: skip
    fig = F.seat_effects_figure(table)
    assert len(fig.axes) == 2
    offsets, seats = fig.axes
    assert [round(p.get_height(), 9) for p in _bars(offsets)] == [0.3, -0.1, -0.1, -0.1]
    assert [round(p.get_height(), 9) for p in _bars(seats)] == [0.05, -0.05, 0.02, -0.02]
    assert [t.get_text() for t in offsets.get_xticklabels()][0] == "dealer"
    assert "999 hands" in _title(fig) and "95% CI" in _title(fig)


def test_fan_chart_draws_the_median_from_zero():
    hands = np.arange(1, 5)
    table = pd.DataFrame({
        "run": "s", "hand": hands, "paths": 40, "hands": 160,
        "q05": -3.0 * hands, "q25": -1.0 * hands, "q50": 0.5 * hands, "q75": 1.0 * hands, "q95": 3.0 * hands,
    })  # fmt: skip
    fig = F.fan_chart_figure(table)
    assert len(fig.axes) == 1
    median = fig.axes[0].get_lines()[0]
    assert list(median.get_xdata()) == [0, 1, 2, 3, 4]
    assert list(median.get_ydata()) == [0.0, 0.5, 1.0, 1.5, 2.0]
    assert "160 hands" in _title(fig) and "40 seat-sessions" in fig.axes[0].get_title()
    two = F.fan_chart_figure(pd.concat([table, table.assign(run="t", hands=80)]))
    assert len(two.axes) == 2 and "80 hands" in _title(two)


def test_payout_figure_masses_and_cdf():
    table = pd.DataFrame({
        "run": "p", "role": ["dealer"] * 3 + ["non-dealer"] * 3, "net": [-2, 0, 6, -2, 0, 2],
        "count": [2, 1, 1, 6, 3, 3], "hands": 4,
    })  # fmt: skip
    fig = F.payout_figure(table)
    assert len(fig.axes) == 2
    masses = sorted(round(p.get_height(), 9) for p in _bars(fig.axes[0]))
    assert masses == sorted([0.5, 0.25, 0.25, 0.5, 0.25, 0.25])
    cdf = fig.axes[1].get_lines()[0]
    assert list(cdf.get_ydata()) == [0.5, 0.75, 1.0]
    assert "4 hands" in _title(fig)


def test_spread_figure_bars_are_the_sds():
    table = pd.DataFrame({
        "run": ["x", "x", "x", "x"], "role": ["dealer", "dealer", "non-dealer", "non-dealer"],
        "measure": ["net", "net without horse"] * 2, "sd": [6.0, 4.0, 5.0, 3.5], "hands": 250,
    })  # fmt: skip
    table["lo"], table["hi"] = table["sd"] - 0.2, table["sd"] + 0.2
    fig = F.spread_figure(table)
    assert len(fig.axes) == 2
    assert [p.get_height() for p in _bars(fig.axes[0])] == [6.0, 4.0]
    assert [p.get_height() for p in _bars(fig.axes[1])] == [5.0, 3.5]
    assert "250 hands" in _title(fig)


def test_fan_figure_bars_are_the_shares():
    table = pd.DataFrame({
        "run": ["a", "a", "a", "b", "b"], "fan": [0, 1, 3, 0, 5], "share": [0.5, 0.3, 0.2, 0.9, 0.1],
        "wins": [10, 10, 10, 20, 20], "hands": [30, 30, 30, 60, 60],
    })  # fmt: skip
    table["lo"], table["hi"] = table["share"] - 0.05, table["share"] + 0.05
    fig = F.fan_figure(table)
    assert len(fig.axes) == 1
    heights = sorted(round(p.get_height(), 9) for p in _bars(fig.axes[0]) if not np.isnan(p.get_height()))
    assert heights == sorted(table["share"])
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["0", "1", "3", "5"]
    assert "a: 30 hands; b: 60 hands" in _title(fig) and "Wilson 95%" in _title(fig)


def test_compare_figure_points_are_the_differences():
    table = pd.DataFrame({
        "label": ["ref", "ref", "x", "x", "y", "y"], "group": ["dealer", "non-dealer"] * 3,
        "metric": "mean_net", "reference": "ref", "diff": [None, None, 0.5, -0.2, 0.1, 0.0],
        "paired": [None, None, True, True, False, False], "hands": 400,
    })  # fmt: skip
    table["diff_lo"], table["diff_hi"] = table["diff"] - 0.1, table["diff"] + 0.1
    table = pd.concat([table, table.assign(metric="win_rate")])
    fig = F.compare_figure(table)
    assert len(fig.axes) == 2
    xs = [line.get_xdata()[0] for line in fig.axes[0].get_lines() if line.get_marker() == "o"]
    assert xs == [0.5, -0.2, 0.1, 0.0]
    assert "400 hands per run" in _title(fig) and "95% CI" in _title(fig)


def test_xz_order_figure_bars_are_the_means_in_win_order():
    table = pd.DataFrame({
        "run": ["a"] * 3 + ["b"] * 4, "win_order": [0, 1, 2, 1, 2, 4, 0],
        "order": ["never won", "1st winner", "2nd winner", "1st winner", "2nd winner", "4th winner", "never won"],
        "seats": [50, 30, 20, 40, 30, 10, 20], "mean_net": [-2.0, 3.0, 0.5, 4.0, 1.0, -1.0, -3.5], "hands": 25,
    })  # fmt: skip
    table["mean_net_lo"], table["mean_net_hi"] = table["mean_net"] - 0.5, table["mean_net"] + 0.5
    fig = F.xz_order_figure(table)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1st winner", "2nd winner", "4th winner", "never won"]
    heights = [p.get_height() for p in _bars(ax)]
    assert heights[:4] == [3.0, 0.5, pytest.approx(np.nan, nan_ok=True), -2.0]  # run a: no 4th winner
    assert heights[4:] == [4.0, 1.0, -1.0, -3.5]
    assert "25 hands per run" in _title(fig) and "95% CI" in _title(fig)
    assert not ax.yaxis.get_major_formatter().get_useOffset()


def test_xz_rule_figure_rates_and_money():
    table = pd.DataFrame({
        "run": "r", "rule": ["call_transfer", "flower_pig"], "rate": [0.1, 0.0], "moved_per_hand": [0.3, 0.0],
        "moved_per_firing": [3.0, np.nan], "hands": 90,
    })  # fmt: skip
    for m in ("rate", "moved_per_hand"):
        table[f"{m}_lo"], table[f"{m}_hi"] = table[m] * 0.8, table[m] * 1.2
    fig = F.xz_rule_figure(table)
    rates, money = fig.axes
    assert [p.get_width() for p in _bars(rates)] == [0.0, 0.1]  # flower pig (XZ-E1) first, on top
    assert [p.get_width() for p in _bars(money)] == [0.0, 0.3]
    notes = [t.get_text() for t in money.texts]
    assert notes == ["never fired", "3.0 per firing"]
    assert "XZ-E1" in rates.get_yticklabels()[0].get_text() and "90 hands" in _title(fig)


def test_png_data_uri_is_a_png():
    fig = F.spread_figure(pd.DataFrame({"run": ["x"], "role": ["dealer"], "measure": ["net"], "sd": [1.0],
                                        "lo": [0.9], "hi": [1.1], "hands": [10]}))  # fmt: skip
    uri = F.png_data_uri(fig)
    assert uri.startswith("data:image/png;base64,")
    assert base64.b64decode(uri.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"


# --------------------------------------------------------------------------- what every figure gets


def _tick_texts(axis) -> list[str]:
    return [t.get_text() for t in axis.get_ticklabels() if t.get_text()]


def _number(text: str) -> float:
    return float(text.replace("\N{MINUS SIGN}", "-").replace(",", ""))


def _plain_ticks(fig) -> None:
    """No numeric axis of ``fig`` shows an offset or scientific notation."""
    fig.draw_without_rendering()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if isinstance(axis.get_major_formatter(), ScalarFormatter):
                assert axis.get_major_formatter().get_offset() == ""
                assert not any("e" in t for t in _tick_texts(axis)), _tick_texts(axis)


def _heavy_tail(run="h"):
    """997 seat-hands between -7 and +12, one at -512 and two at +1536 (0.3% beyond the bulk)."""
    nets = list(range(-7, 13))
    counts = [50] * 19 + [47]
    rows = [{"net": n, "count": c} for n, c in zip(nets, counts, strict=True)]
    rows += [{"net": -512, "count": 1}, {"net": 1536, "count": 2}]
    return pd.DataFrame(rows).assign(run=run, role="non-dealer", hands=250).sort_values("net")


def test_payout_figure_states_the_clipped_tail():
    fig = F.payout_figure(_heavy_tail())
    mass, cdf = fig.axes
    texts = " ".join(t.get_text().replace("\n", " ") for t in fig.findobj(Text))
    assert "x clipped at the 0.5% and 99.5% quantiles (-7 to +12)" in texts
    assert "0.3% of seat-hands lie beyond, down to -512 and up to +1,536" in texts
    assert mass.get_xlim() == (-7.5, 12.5)
    assert cdf.get_xscale() == "symlog" and cdf.get_xlim() == (-512, 1536)  # the CDF shows every net
    ends = [_number(t) for t in _tick_texts(cdf.xaxis)]
    assert ends[0] == -512 and ends[-1] == 1536
    # nothing beyond the quantiles: the full range, no clipping said
    bulk = F.payout_figure(_heavy_tail().query("-100 < net < 100"))
    texts = " ".join(t.get_text() for t in bulk.findobj(Text))
    assert "full range -7 to +12" in texts and "clipped at" not in texts


def test_money_ticks_are_whole_numbers_and_plain():
    fig = F.payout_figure(_heavy_tail())
    fig.draw_without_rendering()
    mass = fig.axes[0]
    assert isinstance(mass.xaxis.get_major_locator(), MaxNLocator)
    ticks = [_number(t) for t in _tick_texts(mass.xaxis)]
    assert len(ticks) >= 3 and all(t == int(t) and "." not in s for t, s in zip(ticks, _tick_texts(mass.xaxis),
                                                                                strict=True))  # fmt: skip
    _plain_ticks(fig)
    hands = np.arange(1, 9)
    paths = pd.DataFrame({"run": "s", "hand": hands, "paths": 40, "hands": 320, "q05": -7.5 * hands,
                          "q25": -2.5 * hands, "q50": 0.0 * hands, "q75": 2.5 * hands, "q95": 7.5 * hands})  # fmt: skip
    fan = F.fan_chart_figure(paths)
    fan.draw_without_rendering()
    for axis in (fan.axes[0].xaxis, fan.axes[0].yaxis):
        assert all("." not in t for t in _tick_texts(axis)), _tick_texts(axis)
    _plain_ticks(fan)


def test_differences_at_rounding_error_get_no_offset():
    """Re-settled variants hold the same hands: their win-rate differences are zero up to 1e-17."""
    table = pd.DataFrame({
        "label": ["ref", "ref", "x", "x"], "group": ["dealer", "non-dealer"] * 2, "metric": "win_rate",
        "reference": "ref", "diff": [None, None, 1.3e-17, -0.9e-17], "paired": [None, None, True, True],
        "hands": 400,
    })  # fmt: skip
    table["diff_lo"], table["diff_hi"] = table["diff"] - 2e-17, table["diff"] + 2e-17
    fig = F.compare_figure(table)
    _plain_ticks(fig)
    ticks = [_number(t) for t in _tick_texts(fig.axes[0].xaxis)]
    assert min(ticks) < -0.01 and max(ticks) > 0.01  # widened around zero, not zoomed into the noise


def _patterns(run, counts, wins=100, hands=400):
    table = pd.DataFrame({"run": run, "pattern": ["chicken", "all_chows", "self_draw"], "count": counts,
                          "wins": wins, "hands": hands})  # fmt: skip
    table["rate"] = table["count"] / wins
    table["lo"], table["hi"] = T.wilson(table["count"], table["wins"])
    return table


def test_pattern_figure_draws_resettled_variants_once():
    same = [60, 30, 20]
    table = pd.concat([_patterns("cap=3", same), _patterns("cap=5", same), _patterns("cap=none", same),
                       _patterns("other", [50, 40, 10])])  # fmt: skip
    sources = {"cap=3": "/runs/a", "cap=5": "/runs/a", "cap=none": "/runs/a", "other": "/runs/b"}
    fig = F.pattern_figure(table, same_hands=sources)
    ax = fig.axes[0]
    assert len(_bars(ax)) == 3 * 2  # three patterns, for two distinct tables
    assert sorted(round(p.get_width(), 9) for p in _bars(ax)) == sorted([0.6, 0.3, 0.2, 0.5, 0.4, 0.1])
    legend = [t.get_text().replace("\n", " ") for t in ax.get_legend().get_texts()]
    assert legend[0].startswith("cap=3") and "(= cap=5, cap=none: same hands, same patterns)" in legend[0]
    assert legend[1].startswith("other") and "=" not in legend[1]
    assert "4,000" not in _title(fig) and "400 hands per run (4 runs)" in _title(fig)
    # identical tables of runs not known to share their hands: drawn once, without saying 'same hands'
    fig = F.pattern_figure(table[table["run"] != "other"])
    [label] = [t.get_text().replace("\n", " ") for t in fig.axes[0].get_legend().get_texts()]
    assert "(= cap=5, cap=none: same patterns)" in label and len(_bars(fig.axes[0])) == 3


def _without_cjk(entries):
    return [e for e in entries if not any(h in e.name for h in ("CJK", "Han", "WenQuanYi", "Hei", "Droid"))]


def test_cjk_font_is_used_where_installed(monkeypatch):
    real = _without_cjk(font_manager.fontManager.ttflist)
    fake = font_manager.FontEntry(fname="/nowhere/NotoSansCJK-Regular.ttc", name="Noto Sans CJK SC")
    monkeypatch.setattr(font_manager.fontManager, "ttflist", [*real, fake])
    assert F.cjk_font() == "Noto Sans CJK SC"
    assert F.term("dealer") == "dealer 庄家"
    with F.figure_fonts():
        assert list(mpl.rcParams["font.family"])[-1] == "Noto Sans CJK SC"  # the fallback for Chinese glyphs
    fig = F.component_figure(_components())
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["dealer 庄家", "non-dealer 闲家"]
    monkeypatch.setattr(font_manager.fontManager, "ttflist",
                        [*real, font_manager.FontEntry(fname="/nowhere/wqy.ttc", name="WenQuanYi Zen Hei Sharp")])  # fmt: skip
    assert F.cjk_font() == "WenQuanYi Zen Hei Sharp"


def test_without_a_cjk_font_chinese_is_put_in_english(monkeypatch):
    monkeypatch.setattr(font_manager.fontManager, "ttflist", _without_cjk(font_manager.fontManager.ttflist))
    assert F.cjk_font() is None
    assert F.term("dealer") == "dealer"
    assert F.drawable("查花猪 (XZ-E1)") == "flower pig check (XZ-E1)"
    table = _components().assign(role=lambda t: t["role"].map({"dealer": "庄家", "non-dealer": "闲家"}))
    table["run"] = "鸡平胡 庄家"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing glyph warns
        fig = F.component_figure(table)
        F.png_bytes(fig, dpi=30)
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["dealer", "non-dealer"]
    assert fig.axes[0].get_title().startswith("jipinghu dealer (321 hands)")
    assert not any(re.search("[\u3400-\u9fff]", t.get_text()) for t in fig.findobj(Text))  # no Chinese left


def test_a_missing_interval_never_reads_nan():
    liability = pd.DataFrame({
        "run": ["r"], "rule": ["包自摸"], "liable_role": ["dealer"], "firings": [1], "rate": [0.0025],
        "rate_lo": [0.0004], "rate_hi": [0.014], "paid_mean": [4.0], "paid_mean_lo": [np.nan],
        "paid_mean_hi": [np.nan], "paid_per_hand": [0.01], "paid_per_hand_lo": [np.nan],
        "paid_per_hand_hi": [np.nan], "hands": [400],
    })  # fmt: skip
    [table] = _liability_parts({"liability": liability})
    [(_, rows)] = _parse(table)
    row = dict(zip(rows[0], rows[1], strict=True))
    assert row["paid per firing ± 95% CI"] == "4.00 (one cluster: no interval)"
    assert "nan" not in table.lower()


def test_fmt_ci():
    assert H.fmt_ci(0.25, 0.2, 0.3) == "0.2500 ± 0.0500"
    assert H.fmt_ci(-0.5, -0.75, -0.25, digits=3, sign=True) == "-0.500 ± 0.250"
    assert H.fmt_ci(float("nan"), 0, 1) == "n/a"
    # one cluster: no interval, and never '± nan'
    assert H.fmt_ci(4.0, float("nan"), float("nan"), digits=2) == "4.00 (one cluster: no interval)"
    assert H.fmt_ci(4.0, None, 5.0, digits=2, sign=True) == "+4.00 (one cluster: no interval)"
    assert "nan" not in H.fmt_ci(4.0, float("-inf"), float("inf"), digits=2)
    assert H.fmt_interval(0.25, float("nan"), float("nan")) == "0.2500 (one cluster: no interval)"
    assert H.fmt_interval(float("nan"), 0.1, 0.2) == "n/a"


def test_wilson_interval():
    lo, hi = T.wilson(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-12) and 0.25 < hi < 0.35
    lo, hi = T.wilson(50, 100)
    assert lo == pytest.approx(1 - hi)


# --------------------------------------------------------------------------- real small runs


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("report_runs")
    out = {}
    for name, rules in {
        "jph": mjsim.ruleset("jipinghu"),
        "jph_noliab": mjsim.ruleset("jipinghu", liability_twelve_tiles=False, liability_limit_hands=False),
        "tdh": mjsim.ruleset("tuidaohu"),
    }.items():  # fmt: skip
        simulate(RunSpec(rules, ("efficiency",), 480, session_length=8, seed=5), base / name, progress=False)
        out[name] = base / name
    return out


def test_seat_table_agrees_with_run_summary(runs):
    summary = run_summary(runs["jph"])
    table = T.seat_table(scan_hands(runs["jph"]), "jph", "seat")
    for seat in summary["seats"]:
        row = table[table["group"] == str(seat["seat"])].iloc[0]
        assert row["win_rate"] == pytest.approx(seat["win_rate"])
        assert row["deal_in_rate"] == pytest.approx(seat["deal_in_rate"])
        assert row["mean_net"] == pytest.approx(seat["mean_net"])
        assert row["mean_net_hi"] - row["mean_net"] == pytest.approx(T.Z95 * seat["mean_net_se"])
    assert (table["n"] == summary["hands"]).all()


def test_role_table_averages_seats_within_a_hand(runs):
    table = T.seat_table(scan_hands(runs["tdh"]), "tdh", "role").set_index("group")
    # nets sum to zero: the non-dealers' mean is minus a third of the dealer's
    assert table.loc["non-dealer", "mean_net"] == pytest.approx(-table.loc["dealer", "mean_net"] / 3)
    assert table.loc["non-dealer", "seat_hands"] == 3 * table.loc["dealer", "seat_hands"]


def test_components_add_up_to_net(runs):
    table = T.component_table(scan_hands(runs["tdh"]), "tdh")
    for _role, part in table.groupby("role"):
        means = part.set_index("component")["mean"]
        assert means.drop("net").sum() == pytest.approx(means["net"])
    present = table.drop_duplicates("component").set_index("component")["present"]
    assert present["horse"] and not present["penalty"]


class _Tables(HTMLParser):
    """Every <table> of a page as a list of rows (cell texts), with the table's attributes."""

    def __init__(self):
        super().__init__()
        self.tables: list[tuple[dict, list[list[str]]]] = []
        self._cell = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append((dict(attrs), []))
        elif tag == "tr" and self.tables:
            self.tables[-1][1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def _parse(page: str) -> list[tuple[dict, list[list[str]]]]:
    parser = _Tables()
    parser.feed(page)
    return parser.tables


def _interval(text: str) -> tuple[float, float, float]:
    """'0.2560 [0.2369, 0.2751]' -> (0.256, 0.2369, 0.2751); '+0.112 ± 0.037' -> (0.112, 0.075, 0.149)."""
    m = re.fullmatch(r"([-+]?\d+\.\d+) \[([-+]?\d+\.\d+), ([-+]?\d+\.\d+)\]", text)
    if m:
        return tuple(float(x) for x in m.groups())
    value, half = (float(x) for x in text.split(" ± "))
    return value, value - half, value + half


def test_report_of_one_run(runs, tmp_path):
    out = write_report([runs["jph"]], tmp_path / "sub" / "jph.html")
    page = out.read_text(encoding="utf-8")
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(images) >= 6
    assert all(base64.b64decode(i)[:4] == b"\x89PNG" for i in images)
    assert not re.search(r'(src|href)="(?!data:)', page)  # self-contained
    assert "No horse" in page  # jipinghu has no horses: a note, not an empty chart
    tables = _parse(page)
    summaries = [(attrs, rows) for attrs, rows in tables if attrs.get("class") == "summary"]
    assert [attrs["data-run"] for attrs, _ in summaries] == ["jipinghu"]
    header, *rows = summaries[0][1]
    assert header == ["group", "hands", "seat-hands", "win rate [95% CI]", "self-draw share [95% CI]",
                      "deal-in rate [95% CI]", "mean net ± 95% CI", "sd net"]  # fmt: skip
    # every cell equals the analysis function's figure at the precision shown
    lf = scan_hands(runs["jph"])
    expected = {}
    for by in ("role", "seat"):
        for r in metrics.seat_table(lf, by).iter_rows(named=True):
            group = r[by] if by == "role" else f"seat {r[by]}"
            expected[(group, r["metric"])] = r
    assert len(rows) == 6
    for cells in rows:
        row = dict(zip(header, cells, strict=True))
        group = row["group"]
        hands = expected[(group, "hands")]
        assert int(row["hands"].replace(",", "")) == hands["estimate"]
        assert int(row["seat-hands"].replace(",", "")) == hands["n"]
        for column, metric, digits in (
            ("win rate [95% CI]", "win_rate", 4), ("self-draw share [95% CI]", "self_draw_share", 4),
            ("deal-in rate [95% CI]", "deal_in_rate", 4), ("mean net ± 95% CI", "mean_net", 3),
        ):  # fmt: skip
            e = expected[(group, metric)]
            value, lo, hi = _interval(row[column])
            tol = 1.1 * 10**-digits
            assert value == pytest.approx(e["estimate"], abs=tol)
            assert lo == pytest.approx(e["ci_low"], abs=tol) and hi == pytest.approx(e["ci_high"], abs=tol)
        assert float(row["sd net"]) == pytest.approx(expected[(group, "sd_net")]["estimate"], abs=1.1e-3)


@pytest.mark.slow
def test_report_of_three_runs_labels_and_sections(runs, tmp_path):
    out = write_report([runs["jph"], runs["jph_noliab"], runs["tdh"]], tmp_path / "three.html", title="Three runs")
    page = out.read_text(encoding="utf-8")
    assert "<title>Three runs</title>" in page
    summaries = [attrs["data-run"] for attrs, _ in _parse(page) if attrs.get("class") == "summary"]
    assert summaries[2] == "tuidaohu"
    # the two jipinghu runs are told apart by the options they differ on
    assert "liability_twelve_tiles=true" in summaries[0] and "liability_twelve_tiles=false" in summaries[1]
    classes = [attrs.get("class") for attrs, _ in _parse(page)]
    assert "horses" in classes  # tuidaohu has horses
    assert page.count("data:image/png;base64,") >= 6  # the horse spread figure too


def test_report_labels_given(runs, tmp_path):
    out = write_report([runs["jph"], runs["tdh"]], tmp_path / "l.html", labels=["A", "B"])
    summaries = [attrs["data-run"] for attrs, _ in _parse(out.read_text()) if attrs.get("class") == "summary"]
    assert summaries == ["A", "B"]
    with pytest.raises(ValueError, match="labels"):
        write_report([runs["jph"]], tmp_path / "x.html", labels=["A", "B"])
    with pytest.raises(ValueError, match="at least one"):
        write_report([], tmp_path / "x.html")


def test_report_tables_of_runs(runs):
    loaded = load_runs([runs["jph"], runs["tdh"]])
    # as a re-settled run's run.json would say, with the source written relative to another directory
    loaded[1].info |= {"method": "re-settled", "resettled_from": runs["jph"].name}
    tables = report_tables(loaded)
    assert list(tables["runs"]["hands_from"]) == [str(runs["jph"].resolve())] * 2
    assert list(tables["runs"]["method"]) == ["simulated", "re-settled"]
    assert set(tables["seats"]["by"]) == {"role", "seat", "offset"}
    assert list(tables["horses"]["run"].unique()) == ["tuidaohu"]
    assert set(tables["spread"]["measure"]) == {"net", "net without horse"}
    assert (tables["overview"]["hands"] == 480).all()
    assert set(tables["compare"]["label"]) == {"jipinghu", "tuidaohu"}
    paths = tables["paths"]
    assert set(paths["hand"]) == set(range(1, 9)) and (paths["paths"] == 60 * 4).all()
    fans = tables["fans"]
    for _, part in fans.groupby("run"):
        assert part["share"].sum() == pytest.approx(1.0)


def test_spread_is_the_root_of_the_horse_variances(runs):
    lf = scan_hands(runs["tdh"])
    spread = T.spread_table(lf, "tdh").set_index(["role", "measure"])
    rows = metrics.seat_rows(lf).collect()
    for role in ("dealer", "non-dealer"):
        net = rows.filter(pl.col("role") == role)
        assert spread.loc[(role, "net"), "sd"] == pytest.approx(net["net"].cast(pl.Float64).std())
        ex = (net["net"] - net["net_horse"]).cast(pl.Float64).std()
        assert spread.loc[(role, "net without horse"), "sd"] == pytest.approx(ex)
    assert len(rows) == 4 * 480


def test_report_of_one_hand_sessions_and_mixed_policies(tmp_path):
    """Sessions of one hand get a note instead of a fan chart; mixed policies get one path band per policy."""
    single, mixed = tmp_path / "single", tmp_path / "mixed"
    simulate(RunSpec(mjsim.ruleset("jipinghu"), ("efficiency",), 64, session_length=1, seed=3), single,
             progress=False)  # fmt: skip
    simulate(RunSpec(mjsim.ruleset("tuidaohu"), ("value", "efficiency") * 2, 64, session_length=8, seed=3), mixed,
             progress=False)  # fmt: skip
    page = write_report([single], tmp_path / "single.html").read_text(encoding="utf-8")
    assert "Sessions of one hand" in page
    tables = report_tables(load_runs([mixed]))
    assert len(set(tables["paths"]["group"])) == 2  # one per policy spec
    fig = F.fan_chart_figure(tables["paths"])
    assert len(fig.axes) == 1 and "per group" in _title(fig)


@pytest.mark.slow
def test_xuezhan_section_only_for_xuezhan_runs(runs, tmp_path):
    xz = tmp_path / "xz"
    simulate(RunSpec(mjsim.ruleset("xuezhan"), ("efficiency",), 160, session_length=8, seed=2), xz, progress=False)
    page = write_report([runs["jph"], xz], tmp_path / "both.html").read_text(encoding="utf-8")
    assert "<h2>血战到底: win order and settlement rules</h2>" in page
    assert page.count('data-figure="xz_') == 2 and "± nan" not in page
    [rows] = [rows for attrs, rows in _parse(page) if attrs.get("class") == "xuezhan"]
    header, *body = rows
    assert {r[0] for r in body} == {"xuezhan"}  # the jipinghu run has no rows
    assert [r[1] for r in body] == ["查花猪 flower pig (XZ-E1)", "查叫 not ready (XZ-E2)",
                                    "退税 kong tax refund (XZ-E3)", "呼叫转移 call transfer (XZ-M4)"]  # fmt: skip
    rules = rule_table(scan_hands(xz), by=None)
    names = ("flower_pig", "not_ready", "tax_refund", "call_transfer")
    for rule, cells in zip(names, body, strict=True):
        row = dict(zip(header, cells, strict=True))
        expected = {r["metric"]: r for r in rules.filter(pl.col("rule") == rule).iter_rows(named=True)}
        assert int(row["firings"]) == expected["firings"]["estimate"]
        value, lo, hi = _interval(row["share of hands [95% CI]"])
        assert value == pytest.approx(expected["rate"]["estimate"], abs=1.1e-4)
        assert hi == pytest.approx(expected["rate"]["ci_high"], abs=1.1e-4)
    jph_only = write_report([runs["jph"]], tmp_path / "jph.html").read_text(encoding="utf-8")
    assert "血战到底" not in jph_only and 'data-figure="xz_' not in jph_only


# --------------------------------------------------------------------------- 水头


def test_sht_value_figure_bars_are_the_means_by_count():
    table = pd.DataFrame({
        "run": "s", "kind": ["caishen"] * 3 + ["flowers"] * 2, "count": [0, 1, 4, 0, 6],
        "label": ["0", "1", "4+", "0", "6+"], "seats": [50, 30, 2, 40, 9],
        "mean_net": [-12.0, 3.0, 140.0, -9.0, 40.0], "hands": 37,
    })  # fmt: skip
    table["mean_net_lo"], table["mean_net_hi"] = table["mean_net"] - 2, table["mean_net"] + 2
    fig = F.sht_value_figure(table)
    caishen, flowers = fig.axes
    assert [p.get_height() for p in _bars(caishen)] == [-12.0, 3.0, 140.0]
    assert [t.get_text() for t in caishen.get_xticklabels()] == ["0", "1", "4+"]
    assert [p.get_height() for p in _bars(flowers)] == [-9.0, 40.0]
    assert [t.get_text() for t in flowers.texts] == ["40", "9"]  # seat-hands at the bars
    assert "37 hands" in _title(fig) and "95% CI" in _title(fig)
    ticks = caishen.get_yticks()
    assert np.allclose(ticks, np.round(ticks)) and not caishen.yaxis.get_major_formatter().get_useOffset()


def test_sht_money_figure_money_and_dealer_edge():
    table = pd.DataFrame({
        "run": "m", "component": ["net", "win", "base", "liability", "other", "all"],
        "moved_per_won_hand": [np.nan, 50.0, 14.0, 1.0, 0.0, 65.0], "share": [np.nan, 0.77, 0.215, 0.015, 0.0, np.nan],
        "dealer_edge": [3.8, 3.4, 0.4, 0.0, np.nan, np.nan], "hands": 400,
    })  # fmt: skip
    for m in ("moved_per_won_hand", "dealer_edge"):
        table[f"{m}_lo"], table[f"{m}_hi"] = table[m] - 1, table[m] + 1
    fig = F.sht_money_figure(table)
    money, edge = fig.axes
    assert [p.get_height() for p in _bars(money)] == [50.0, 14.0, 1.0]  # win, base, liability; not other or all
    assert [t.get_text() for t in money.texts] == ["77.0%", "21.5%", "1.5%"]
    assert [p.get_height() for p in _bars(edge)] == [3.8, 3.4, 0.4, 0.0]
    assert "SHT-M2" in money.get_xticklabels()[1].get_text() and "400 hands" in _title(fig)


@pytest.mark.slow
def test_shuitou_section_only_for_shuitou_runs(runs, tmp_path):
    sht = tmp_path / "sht"
    simulate(RunSpec(mjsim.ruleset("shuitou"), ("efficiency",), 160, session_length=8, seed=2), sht, progress=False)
    raw = write_report([runs["jph"], sht], tmp_path / "both.html").read_text(encoding="utf-8")
    page = unescape(raw)
    assert "<h2>水头: the dealer's edge, 财神 and flowers, 分牌</h2>" in page
    assert page.count('data-figure="sht_') == 2 and "± nan" not in page
    [rows] = [rows for attrs, rows in _parse(raw) if attrs.get("class") == "shuitou"]
    header, *body = rows
    assert [r[0] for r in body] == ["shuitou"]  # the jipinghu run has no row
    split = {r["metric"]: r for r in split_table(scan_hands(sht), by=None).iter_rows(named=True)}
    row = dict(zip(header, body[0], strict=True))
    value, lo, hi = _interval(row["hands reaching 分牌 [95% CI]"])
    assert value == pytest.approx(split["reached"]["estimate"], abs=1.1e-4)
    assert hi == pytest.approx(split["reached"]["ci_high"], abs=1.1e-4)
    edge = figures_of(shuitou_dealer_edge_table(scan_hands(sht), by=None), component="net")["dealer_edge"]
    assert f"the dealer's edge {edge['estimate']:+.2f} ± {(edge['ci_high'] - edge['ci_low']) / 2:.2f}" in page
    # the components figure of the 水头 run shows the base settlement
    components = report_tables(load_runs([sht]))["components"]
    base = components[components["component"] == "base"].set_index("role")
    assert base["present"].all()
    assert base.loc["dealer", "mean"] == pytest.approx(
        figures_of(shuitou_dealer_edge_table(scan_hands(sht), by=None, cluster="hand"), component="base")[
            "dealer_mean_net"]["estimate"])  # fmt: skip
    jph_only = write_report([runs["jph"]], tmp_path / "jph.html").read_text(encoding="utf-8")
    assert "<h2>水头" not in jph_only and 'data-figure="sht_' not in jph_only


def figures_of(table, **where) -> dict:
    part = table
    for column, value in where.items():
        part = part.filter(pl.col(column) == value)
    return {row["metric"]: row for row in part.iter_rows(named=True)}
