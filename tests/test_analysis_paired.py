"""Paired differences, hands needed and run comparisons, against figures worked out by hand."""

from __future__ import annotations

import math

import polars as pl
import pytest
from test_analysis_metrics import HANDS, NETS, Z, cluster_se, make_hands, mean, sd

from mjsim.analysis import compare_table, hands_needed, paired_difference, same_hands, seat_rows, seat_table

APPROX = dict(rel=1e-9, abs=1e-12)


def corr(xs, ys):
    mx, my = mean(xs), mean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy)


def test_paired_difference_by_hand():
    a = pl.DataFrame({"hand_id": [0, 1, 2, 3], "x": [1.0, 2.0, 3.0, 4.0]})
    b = pl.DataFrame({"hand_id": [3, 9, 1, 0, 2], "x": [5.0, 7.0, 2.0, 0.0, 1.0]})  # shuffled, one extra hand
    result = paired_difference(a, b, value="x")
    assert result.columns == ["metric", "estimate", "se", "ci_low", "ci_high", "n", "clusters", "mean_a", "mean_b",
                              "corr", "se_per_hand"]  # fmt: skip
    row = result.row(0, named=True)
    d = [1.0, 0.0, 2.0, -1.0]
    assert row["metric"] == "x" and row["n"] == 4 and row["clusters"] == 4
    assert row["estimate"] == pytest.approx(0.5, **APPROX)
    assert row["se"] == pytest.approx(sd(d) / 2, **APPROX)
    assert row["se"] == pytest.approx(math.sqrt(5 / 3) / 2, **APPROX)
    assert row["ci_low"] == pytest.approx(0.5 - Z * sd(d) / 2, **APPROX)
    assert row["ci_high"] == pytest.approx(0.5 + Z * sd(d) / 2, **APPROX)
    assert row["mean_a"] == pytest.approx(2.5) and row["mean_b"] == pytest.approx(2.0)
    assert row["corr"] == pytest.approx(corr([1, 2, 3, 4], [0, 2, 1, 5]), **APPROX)
    assert row["se_per_hand"] == pytest.approx(sd(d), **APPROX)


def test_identical_inputs_give_exactly_zero():
    lf = make_hands(HANDS).lazy()
    hands = lf.select("hand_id", pl.col("net").arr.get(0).alias("net0"))
    row = paired_difference(hands, hands, value="net0").row(0, named=True)
    assert row["estimate"] == 0.0 and row["se"] == 0.0
    assert row["ci_low"] == 0.0 and row["ci_high"] == 0.0
    assert row["corr"] == pytest.approx(1.0)
    rows = seat_rows(lf)
    by_role = paired_difference(rows, rows, key=["hand_id", "seat"], value="net", by="role")
    assert by_role["estimate"].to_list() == [0.0, 0.0] and by_role["se"].to_list() == [0.0, 0.0]
    assert by_role["n"].to_list() == [6, 18] and by_role["clusters"].to_list() == [6, 6]


def test_paired_difference_clusters_seats_of_a_hand():
    lf = make_hands(HANDS).lazy()
    doubled = make_hands([{**h, "net": [2 * x for x in h.get("net", [0, 0, 0, 0])]} for h in HANDS]).lazy()
    result = paired_difference(seat_rows(doubled), seat_rows(lf), key=["hand_id", "seat"], value="net", by="role")
    # dealer: one row per hand, d = net; non-dealers: three rows per hand whose sum is minus the dealer's net
    dealer_net = [0, 12, 0, 0, -24, 0]
    dealer = result.filter(pl.col("role") == "dealer").row(0, named=True)
    assert dealer["estimate"] == pytest.approx(mean(dealer_net), **APPROX)
    assert dealer["se"] == pytest.approx(sd(dealer_net) / math.sqrt(6), **APPROX)
    other = result.filter(pl.col("role") == "non-dealer").row(0, named=True)
    assert other["estimate"] == pytest.approx(12 / 18, **APPROX)
    assert other["se"] == pytest.approx(cluster_se([-x for x in dealer_net], [3] * 6), **APPROX)
    assert other["se_per_hand"] == pytest.approx(other["se"] * math.sqrt(6), **APPROX)
    # without clustering every (hand, seat) pair is its own unit
    flat = paired_difference(seat_rows(doubled), seat_rows(lf), key=["hand_id", "seat"], value="net", cluster=None)
    every = [x for s in range(4) for x in NETS[s]]
    assert flat["estimate"].item() == pytest.approx(0, abs=1e-12)
    assert flat["se"].item() == pytest.approx(sd(every) / math.sqrt(24), **APPROX)
    # an expression as the value
    expr = paired_difference(doubled, lf, value=pl.col("net").arr.get(3).alias("seat3"))
    assert expr["metric"].item() == "seat3" and expr["estimate"].item() == pytest.approx(mean(NETS[3]))


def test_hands_needed():
    assert hands_needed(10, 1) == math.ceil((Z * 10) ** 2) == 385
    assert hands_needed(10, 2) == math.ceil((Z * 5) ** 2) == 97
    assert list(hands_needed([10, 1], 1)) == [385, 4]
    assert hands_needed(0, 1) == 0
    with pytest.raises(ValueError):
        hands_needed(1, 0)


def _scaled(factor, seed_offset=0, run_id="run-b"):
    rows = [{**h, "net": [factor * x for x in h.get("net", [0, 0, 0, 0])]} for h in HANDS]
    frame = make_hands(rows, run_id=run_id)
    return frame.with_columns(pl.col("seed") + seed_offset).lazy()


def test_same_hands():
    a = make_hands(HANDS).lazy()
    assert same_hands(a, _scaled(2))
    assert not same_hands(a, _scaled(2, seed_offset=1))  # same ids, other seeds
    assert not same_hands(a, a.filter(pl.col("hand_id") < 5))
    assert not same_hands(pl.concat([a, a]), pl.concat([a, a]))  # hand ids not unique


def test_compare_table_paired_and_unpaired():
    a = make_hands(HANDS).lazy()
    runs = {"base": a, "double": _scaled(2), "other_seeds": _scaled(3, seed_offset=7)}
    table = compare_table(runs, metric=["mean_net", "win_rate", "q50"], by="seat")
    assert table.columns == ["label", "seat", "metric", "estimate", "se", "ci_low", "ci_high", "n", "reference",
                             "diff", "diff_se", "diff_ci_low", "diff_ci_high", "paired"]  # fmt: skip
    assert table.height == 3 * 4 * 3
    base = table.filter(pl.col("label") == "base")
    assert base["diff"].is_null().all() and (base["reference"] == "base").all()
    alone = seat_table(a, by="seat").filter(pl.col("metric").is_in(["mean_net", "win_rate", "q50"]))
    assert base.select(alone.columns).equals(alone)
    for seat in range(4):
        nets = NETS[seat]
        row = table.filter((pl.col("label") == "double") & (pl.col("seat") == seat) & (pl.col("metric") == "mean_net"))
        row = row.row(0, named=True)
        # paired on (hand_id, seat): d = 2x - x = x
        assert row["paired"] is True
        assert row["diff"] == pytest.approx(mean(nets), **APPROX)
        assert row["diff_se"] == pytest.approx(sd(nets) / math.sqrt(6), **APPROX)
        assert row["diff_ci_low"] == pytest.approx(mean(nets) - Z * sd(nets) / math.sqrt(6), **APPROX)
        win = table.filter((pl.col("label") == "double") & (pl.col("seat") == seat) & (pl.col("metric") == "win_rate"))
        assert win["diff"].item() == 0 and win["diff_se"].item() == 0 and win["paired"].item()
        q50 = table.filter((pl.col("label") == "double") & (pl.col("seat") == seat) & (pl.col("metric") == "q50"))
        assert q50["paired"].item() is False and q50["diff_se"].item() is None
        # other seeds: unpaired, se from both runs' se
        far = table.filter(
            (pl.col("label") == "other_seeds") & (pl.col("seat") == seat) & (pl.col("metric") == "mean_net")
        ).row(0, named=True)
        se_a = sd(nets) / math.sqrt(6)
        se_b = sd([3 * x for x in nets]) / math.sqrt(6)
        assert far["paired"] is False
        assert far["diff"] == pytest.approx(2 * mean(nets), **APPROX)
        assert far["diff_se"] == pytest.approx(math.sqrt(se_a**2 + se_b**2), **APPROX)


def test_compare_table_by_role_pairs_dealer_with_dealer():
    a = make_hands(HANDS).lazy()
    table = compare_table({"base": a, "double": _scaled(2)}, metric="mean_net", by="role")
    dealer = table.filter((pl.col("label") == "double") & (pl.col("role") == "dealer")).row(0, named=True)
    dealer_net = [0, 12, 0, 0, -24, 0]
    assert dealer["paired"] and dealer["diff"] == pytest.approx(mean(dealer_net), **APPROX)
    assert dealer["diff_se"] == pytest.approx(sd(dealer_net) / math.sqrt(6), **APPROX)
    other = table.filter((pl.col("label") == "double") & (pl.col("role") == "non-dealer")).row(0, named=True)
    assert other["diff_se"] == pytest.approx(cluster_se([-x for x in dealer_net], [3] * 6), **APPROX)
    same = compare_table({"x": a, "y": a}, metric=None, by="offset")
    paired = same.filter(pl.col("paired"))
    assert paired.height > 0 and (paired["diff"] == 0).all() and (paired["diff_se"] == 0).all()
    with pytest.raises(ValueError):
        compare_table({"x": a}, metric="no_such_metric")
    # by policy: paired where every hand seats the same policies in both runs, unpaired otherwise
    by_policy = compare_table({"x": a, "y": _scaled(2)}, metric="mean_net", by="policy")
    assert by_policy.filter(pl.col("label") == "y")["paired"].all()
    reseated = _scaled(2).with_columns(pl.col("policies").arr.reverse())  # A B A B -> B A B A
    unpaired = compare_table({"x": a, "y": reseated}, metric="mean_net", by="policy")
    assert not unpaired.filter(pl.col("label") == "y")["paired"].any()


def test_compare_on_simulated_runs(tmp_path):
    import mjsim
    from mjsim.io.dataset import scan_hands
    from mjsim.sim.parallel import RunSpec, simulate

    runs = {}
    for name in ("jipinghu", "jipinghu_5fan"):
        simulate(RunSpec(mjsim.ruleset(name), ("efficiency",), 400, session_length=8, seed=11), tmp_path / name,
                 workers=1, progress=False)  # fmt: skip
        runs[name] = scan_hands(tmp_path / name)
    table = compare_table(runs, metric=["mean_net", "win_rate"], by="role")
    other = table.filter(pl.col("label") == "jipinghu_5fan")
    assert other["paired"].all()  # same seed, same hand ids
    unpaired = math.sqrt(sum(table.filter((pl.col("role") == "dealer") & (pl.col("metric") == "mean_net"))["se"] ** 2))
    paired_se = other.filter((pl.col("role") == "dealer") & (pl.col("metric") == "mean_net"))["diff_se"].item()
    assert 0 <= paired_se <= unpaired  # common random numbers do not hurt here
