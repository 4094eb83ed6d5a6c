"""The tables the report draws: the analysis tables of one run, made wide for plotting and display.

The statistics are those of :mod:`mjsim.analysis` (``metrics``, ``payments``,
``risk``, ``paired``): cluster-robust standard errors over hands (sessions
for session figures), Wilson intervals for rates, normal intervals for
means.  Their tables are tidy and long (``metric, estimate, se, ci_low,
ci_high, n``); the builders here select what a figure needs and pivot it to
one column per metric — ``m``, ``m_lo``, ``m_hi`` (the 95% interval),
``m_se`` and ``m_n`` — adding a ``run`` column (the run's label) and a
``hands`` column (the run's number of hands, for titles).  Every builder
takes one run's ``LazyFrame`` (``scan_hands``) and its label and returns a
pandas DataFrame; the report stacks the runs.

Only :func:`payout_table` (a distribution: value counts, no interval) is
computed here, from :func:`mjsim.analysis.metrics.seat_rows`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import polars as pl

from mjsim.analysis import metrics as M
from mjsim.analysis import paired as P
from mjsim.analysis import payments as PAY
from mjsim.analysis import risk as R
from mjsim.analysis import shuitou as SHT
from mjsim.analysis import xuezhan as XZ
from mjsim.analysis.stats import Z95, finish, moment_aggs, wide_to_moments

COMPONENTS = ("win", "kong", "horse", "liability", "penalty", "base")
LOSS_THRESHOLDS = (10, 25, 50)

__all__ = [
    "COMPONENTS", "LOSS_THRESHOLDS", "Z95", "component_table", "compare_runs", "fan_table", "hand_count",
    "horse_table", "liability_table", "paths_table", "pattern_table", "payout_table", "run_overview",
    "seat_table", "session_risk_table", "sht_money_table", "sht_overview", "sht_value_table", "spread_table",
    "wide", "wilson", "xz_order_table", "xz_overview", "xz_rule_table",
]  # fmt: skip


def wide(long, index) -> pd.DataFrame:
    """A tidy long analysis table made wide: per metric ``m``, columns m, m_lo, m_hi, m_se, m_n.

    ``index``: the columns identifying a row (group columns).  Metric order is kept.
    """
    frame = long.to_pandas() if isinstance(long, pl.DataFrame) else long.copy()
    index = [index] if isinstance(index, str) else list(index)
    out = None
    for metric in dict.fromkeys(frame["metric"]):
        part = frame.loc[frame["metric"] == metric, [*index, "estimate", "ci_low", "ci_high", "se", "n"]]
        part = part.rename(columns={
            "estimate": metric, "ci_low": f"{metric}_lo", "ci_high": f"{metric}_hi", "se": f"{metric}_se",
            "n": f"{metric}_n",
        })  # fmt: skip
        out = part if out is None else out.merge(part, on=index, how="outer", sort=False)
    return (out if out is not None else pd.DataFrame(columns=index)).reset_index(drop=True)


def _labelled(frame: pd.DataFrame, run: str, hands: int) -> pd.DataFrame:
    frame = frame.copy()
    frame.insert(0, "run", run)
    frame["hands"] = hands
    return frame


def hand_count(lf: pl.LazyFrame) -> int:
    return int(M.lazy(lf).select(pl.len()).collect().item())


def wilson(count, n, z: float = Z95):
    """Wilson score interval for count/n (arrays or scalars), for hand-made tables."""
    count = np.asarray(count, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = count / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


# --------------------------------------------------------------------------- seats


def seat_table(lf: pl.LazyFrame, run: str, by: str = "seat") -> pd.DataFrame:
    """:func:`mjsim.analysis.metrics.seat_table` of one grouping, wide.

    Columns: run, by, group (the group's value as text), seat_hands (rows),
    then per metric of ``seat_table`` (hands, win_rate, self_draw_share,
    deal_in_rate, draw_rate, mean_fan, mean_net, sd_net, q01..q99, skewness,
    mean_net_win..mean_net_penalty) its wide columns, and hands (the run's).
    ``hands`` here is the run's hand count; the group's distinct hands are
    ``n`` (from the ``hands`` metric).
    """
    table = wide(M.seat_table(lf, by), [by])
    table = table.rename(columns={"hands": "n", "hands_n": "seat_hands"})
    table = table.drop(columns=[c for c in table.columns if c.startswith("hands_")])
    table.insert(0, "group", table.pop(by).astype(str))
    table.insert(0, "by", by)
    return _labelled(table, run, hand_count(lf))


def run_overview(lf: pl.LazyFrame, run: str) -> pd.DataFrame:
    """One row: run, hands, sessions, draw_rate (_lo/_hi: Wilson, from the seat table), mean_fan (per
    win), mean_turns (discards per hand)."""
    plain = M.lazy(lf).select(
        pl.len().alias("hands"),
        pl.col("session").n_unique().alias("sessions"),
        pl.col("fan").explode().cast(pl.Float64).mean().alias("mean_fan"),
        pl.col("turns").cast(pl.Float64).mean().alias("mean_turns"),
    ).collect().to_pandas()  # fmt: skip
    dealer = wide(M.seat_table(lf, "role"), ["role"]).set_index("role").loc[M.DEALER]
    for c in ("draw_rate", "draw_rate_lo", "draw_rate_hi"):
        plain[c] = dealer[c]
    plain.insert(0, "run", run)
    return plain


def _base_by_role(lf: pl.LazyFrame) -> dict[str, dict]:
    """Mean ``net_base`` (水头 SHT-M2; zero elsewhere) per seat per hand by role, clustered by hand, as
    ``{role: {mean_net_base, _lo, _hi, _se}}``; empty for logs without the column."""
    if "net_base" not in M.lazy(lf).collect_schema().names():
        return {}
    dealer = pl.col("dealer").cast(pl.Int64)
    nets = [pl.col("net_base").arr.get(s).cast(pl.Float64).fill_null(0.0) for s in range(4)]
    mine = pl.sum_horizontal([pl.when(dealer == s).then(n).otherwise(0.0) for s, n in enumerate(nets)])
    columns = [mine.alias("d"), (pl.sum_horizontal(nets) - mine).alias("o"), pl.lit(1.0).alias("one"),
               pl.lit(3.0).alias("three")]  # fmt: skip
    aggs = [*moment_aggs("d", "one", f"{M.DEALER}__"), *moment_aggs("o", "three", f"{M.NON_DEALER}__")]
    moments = M.lazy(lf).select(columns).select(aggs).collect()
    specs = {M.DEALER: (None, None, "mean"), M.NON_DEALER: (None, None, "mean")}
    table = finish(wide_to_moments(moments, [], specs))
    m = "mean_net_base"
    return {r["metric"]: {m: r["estimate"], f"{m}_lo": r["ci_low"], f"{m}_hi": r["ci_high"], f"{m}_se": r["se"]}
            for r in table.iter_rows(named=True)}  # fmt: skip


def component_table(lf: pl.LazyFrame, run: str) -> pd.DataFrame:
    """Mean net per seat per hand and its components by role (from the seat table; ``base``, the 水头
    non-winners' settlement SHT-M2, from ``net_base``, clustered by hand as the others).

    Columns: run, role, component (net, win, kong, horse, liability,
    penalty, base), mean, lo, hi, present (False where the component is zero in
    every hand of the run), hands.
    """
    seats = wide(M.seat_table(lf, "role"), ["role"])
    base = _base_by_role(lf)
    rows = []
    for component in ("net", *COMPONENTS):
        metric = "mean_net" if component == "net" else f"mean_net_{component}"
        for r in seats.to_dict("records"):
            role = r["role"]
            if component == "base":
                if not base:
                    continue
                r = base[role]
            rows.append({"role": role, "component": component, "mean": r[metric],
                         "lo": r[f"{metric}_lo"], "hi": r[f"{metric}_hi"], "se": r[f"{metric}_se"]})  # fmt: skip
    table = pd.DataFrame(rows)
    zero = (table["mean"] == 0) & (table["se"].fillna(0) == 0)
    table["present"] = ~zero.groupby(table["component"]).transform("all")
    return _labelled(table.drop(columns="se"), run, hand_count(lf))


# --------------------------------------------------------------------------- distributions


def payout_table(lf: pl.LazyFrame, run: str) -> pd.DataFrame:
    """The distribution of one seat's net per hand, by role: run, role, net, count (seat-hands), hands."""
    table = (
        M.seat_rows(lf).group_by("role", "net").agg(pl.len().alias("count")).sort("role", "net").collect().to_pandas()
    )
    return _labelled(table, run, hand_count(lf))


def pattern_table(lf: pl.LazyFrame, run: str) -> pd.DataFrame:
    """Share of wins holding each pattern (``pattern_table``'s ``per_win``).

    Columns: run, pattern, count (wins with it), wins, rate, lo, hi (Wilson
    95%, clustered by hand), hands.
    """
    table = M.pattern_table(lf).filter(pl.col("metric") == "per_win").to_pandas()
    table = table.rename(columns={"estimate": "rate", "ci_low": "lo", "ci_high": "hi", "n": "wins"})
    return _labelled(table[["pattern", "count", "wins", "rate", "lo", "hi"]], run, hand_count(lf))


def fan_table(lf: pl.LazyFrame, run: str) -> pd.DataFrame:
    """Distribution of fan per win (``fan_table``): run, fan, count, wins, share, lo, hi, cum_share, hands."""
    table = M.fan_table(lf).to_pandas()
    table = table.rename(columns={"estimate": "share", "ci_low": "lo", "ci_high": "hi", "n": "wins"})
    return _labelled(table[["fan", "count", "wins", "share", "lo", "hi", "cum_share"]], run, hand_count(lf))


# --------------------------------------------------------------------------- sessions


def _path_grouping(lf: pl.LazyFrame) -> str | None:
    policies = M.lazy(lf).select(pl.col("policies").explode().n_unique()).collect().item()
    return "policy" if policies > 1 else None


def paths_table(lf: pl.LazyFrame, run: str) -> pd.DataFrame:
    """Cumulative net of a seat by hands played (``cumulative_paths``), for the fan chart.

    Grouped by policy where the seats play more than one, else one group
    "all seats" (whose mean path is zero: the nets sum to zero).  Columns:
    run, group, hand (hands played), paths (seat-sessions), mean, mean_lo,
    mean_hi, sd, q05, q25, q50, q75, q95, hands.
    """
    by = _path_grouping(lf)
    long = R.cumulative_paths(lf, by=by)
    index = [by, "hands_played"] if by else ["hands_played"]
    table = wide(long, index).rename(columns={"hands_played": "hand", "mean_n": "paths"})
    table.insert(0, "group", table.pop(by).astype(str) if by else "all seats")
    keep = ["group", "hand", "paths", "mean", "mean_lo", "mean_hi", "sd", "q05", "q25", "q50", "q75", "q95"]
    return _labelled(table[keep].sort_values(["group", "hand"]), run, hand_count(lf))


def session_risk_table(lf: pl.LazyFrame, run: str, thresholds=LOSS_THRESHOLDS) -> pd.DataFrame:
    """Whole-session results of one seat (``session_risk``, every seat together), wide.

    Columns: run, sessions, hands_per_session, mean_cum_net (+ interval),
    sd_cum_net, cum_net_q05, cum_net_q95, mean_drawdown (+ interval), and
    per threshold X: ``p_loss_X`` / ``p_drawdown_X`` (P(session net < -X),
    P(drawdown > X), Wilson, clustered by session), hands.
    """
    long = R.session_risk(lf, by=None, loss_threshold=list(thresholds)).to_pandas()
    named = long["metric"].where(long["threshold"].isna(),
                                 long["metric"] + "_" + long["threshold"].map(lambda x: f"{x:g}"))  # fmt: skip
    long = long.assign(metric=named, _row=0)
    table = wide(long, ["_row"]).drop(columns="_row")
    return _labelled(table, run, hand_count(lf))


# --------------------------------------------------------------------------- horses and liability


def horse_table(lf: pl.LazyFrame, run: str) -> pd.DataFrame:
    """Horses 买马 by role (``payments.horse_table``), wide; empty when the run has no horse.

    Columns: run, role, mean_net_horse, horse_paid_rate, var_net,
    var_net_horse, var_net_ex_horse, horse_variance_share (each with its wide
    columns), horses_per_hand and hit_rate (hand level, repeated), hands.
    """
    long = PAY.horse_table(lf, by="role")
    table = wide(long, ["role"])
    overall = table[table["role"] == "all"]
    per_role = table[table["role"] != "all"].dropna(axis=1, how="all").copy()
    for metric in ("horses_per_hand", "hit_rate"):
        for suffix in ("", "_lo", "_hi", "_n"):
            per_role[metric + suffix] = overall[metric + suffix].iloc[0] if len(overall) else np.nan
    if not (per_role["horses_per_hand"] > 0).any():
        return pd.DataFrame(columns=["run", "role", "hands"])
    return _labelled(per_role, run, hand_count(lf))


def spread_table(lf: pl.LazyFrame, run: str) -> pd.DataFrame:
    """Standard deviation of one seat's net per hand by role, with and without its horse money.

    From the variances of ``payments.horse_table`` (delta-method interval,
    clustered by hand; the sd interval is the square root of the variance
    interval).  Columns: run, role, measure ("net", "net without horse"),
    sd, lo, hi, n (seat-hands), hands.
    """
    table = wide(PAY.horse_table(lf, by="role"), ["role"])
    table = table[table["role"] != "all"]
    rows = []
    for r in table.to_dict("records"):
        for measure, metric in (("net", "var_net"), ("net without horse", "var_net_ex_horse")):
            rows.append({
                "role": r["role"], "measure": measure, "sd": math.sqrt(r[metric]),
                "lo": math.sqrt(max(r[f"{metric}_lo"], 0.0)), "hi": math.sqrt(max(r[f"{metric}_hi"], 0.0)),
                "n": r[f"{metric}_n"],
            })  # fmt: skip
    return _labelled(pd.DataFrame(rows), run, hand_count(lf))


def liability_table(lf: pl.LazyFrame, run: str) -> pd.DataFrame:
    """包 liabilities by rule and role of the liable seat (``payments.liability_table``), wide.

    One row per rule (all, 包杠, 抢杠, 包自摸) and liable role (all, dealer,
    non-dealer) that fired at least once.  Columns: run, trigger, rule,
    liable_role, firings, rate (share of hands, Wilson), share_of_firings,
    paid_mean (points the liable seat paid per firing), paid_per_hand, each
    with its wide columns; hands.  Empty when nothing fired.
    """
    table = wide(PAY.liability_table(lf, by="role"), ["trigger", "rule", "liable_role"])
    table = table[table["firings"] > 0]
    if table.empty:
        return pd.DataFrame(columns=["run", "trigger", "rule", "liable_role", "firings", "hands"])
    return _labelled(table, run, hand_count(lf))


# --------------------------------------------------------------------------- 血战到底


def _ordinal(k: int) -> str:
    return f"{k}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(k, 'th') } winner"


def xz_order_table(lf: pl.LazyFrame, run: str) -> pd.DataFrame:
    """Mean net of a seat by the order of its first win (``xuezhan.net_by_win_order``, pooled), wide.

    Columns: run, win_order (1, 2, ..., 0 = never won), order (its label:
    "1st winner" ... "never won"), seats (seat-hands), mean_net,
    mean_net_win, mean_net_kong, mean_net_penalty (each with its wide
    columns), hands.  Rows in win order, the never-won seats last.
    """
    table = wide(XZ.net_by_win_order(lf, by=None), ["win_order"])
    table["order"] = table["win_order"].map(lambda k: "never won" if k == 0 else _ordinal(int(k)))
    table["seats"] = table["mean_net_n"]
    table = table.sort_values("win_order", key=lambda k: k.replace(0, 1_000)).reset_index(drop=True)
    return _labelled(table, run, hand_count(lf))


def xz_rule_table(lf: pl.LazyFrame, run: str) -> pd.DataFrame:
    """查花猪, 查叫, 退税 and 呼叫转移 (``xuezhan.rule_table``), with each rule's share of the gross transfers
    (``xuezhan.money_share_table``), wide.

    Columns: run, rule, name, rule_id, firings, rate, moved_per_hand,
    moved_per_firing, share (each with its wide columns), hands.
    """
    rules = wide(XZ.rule_table(lf, by=None), ["rule", "name", "rule_id"])
    shares = XZ.money_share_table(lf, by=None).filter(pl.col("metric") == "share")
    shares = wide(shares.drop("part_of").rename({"component": "rule"}), ["rule"])
    table = rules.merge(shares, on="rule", how="left")
    table = table.sort_values("rule", key=lambda r: r.map(list(XZ.RULES).index)).reset_index(drop=True)
    return _labelled(table, run, hand_count(lf))


def xz_overview(lf: pl.LazyFrame, run: str) -> pd.DataFrame:
    """One row of 血战 figures: mean_wins, the shares p_wins_K (K = 0 .. the most, Wilson), kong_share
    (of the gross transfers), gross_per_hand, dealer_edge (each with its wide columns), hands."""
    wins = XZ.wins_table(lf, by=None).to_pandas()
    named = wins["metric"].where(wins["wins"].isna(), "p_wins_" + wins["wins"].map(lambda k: f"{k:.0f}"))
    parts = [wins.assign(metric=named).drop(columns="wins")]
    shares = XZ.money_share_table(lf, by=None)
    kong = shares.filter((pl.col("component") == "kong") & (pl.col("metric") == "share"))
    gross = shares.filter((pl.col("component") == "all") & (pl.col("metric") == "moved_per_hand"))
    parts.append(kong.with_columns(pl.lit("kong_share").alias("metric")).drop("component", "part_of").to_pandas())
    parts.append(gross.with_columns(pl.lit("gross_per_hand").alias("metric")).drop("component", "part_of")
                 .to_pandas())  # fmt: skip
    edge = XZ.dealer_edge_table(lf, by=None).filter(pl.col("metric") == "dealer_edge")
    parts.append(edge.to_pandas())
    long = pd.concat(parts, ignore_index=True).assign(_row=0)
    return _labelled(wide(long, ["_row"]).drop(columns="_row"), run, hand_count(lf))


# --------------------------------------------------------------------------- 水头


SHT_TOP = {"caishen": 4, "flowers": 6}  # counts from here on are pooled ("4+") in the value figure


def sht_overview(lf: pl.LazyFrame, run: str) -> pd.DataFrame:
    """One row of 水头 figures (``mjsim.analysis.shuitou``, pooled, clustered by session), each with its wide
    columns: dealer_edge and its parts dealer_edge_win, dealer_edge_base, dealer_edge_liability;
    win_share, base_share, liability_share (of the gross transfers), base_to_win (the non-winner
    settlement per unit of win money), gross_per_won_hand; split_reached, split_decided,
    split_decided_when_reached, drawn; net_per_caishen, net_per_flower, net_per_group (slopes); hands."""
    parts = []
    edge = SHT.dealer_edge_table(lf, by=None).filter(pl.col("metric") == "dealer_edge")
    named = pl.when(pl.col("component") == "net").then(pl.lit("dealer_edge")).otherwise(
        pl.lit("dealer_edge_") + pl.col("component"))  # fmt: skip
    parts.append(edge.with_columns(named.alias("metric")).drop("component"))
    money = SHT.money_share_table(lf, by=None)
    pick = (pl.col("metric") == "share") | ((pl.col("metric") == "to_win") & (pl.col("component") == "base")) | (
        (pl.col("metric") == "moved_per_won_hand") & (pl.col("component") == "all"))  # fmt: skip
    rename = {"share": pl.col("component") + "_share", "to_win": pl.lit("base_to_win"),
              "moved_per_won_hand": pl.lit("gross_per_won_hand")}  # fmt: skip
    label = pl.coalesce([pl.when(pl.col("metric") == k).then(v) for k, v in rename.items()])
    parts.append(money.filter(pick).with_columns(label.alias("metric")).drop("component"))
    split = SHT.split_table(lf, by=None).filter(pl.col("metric").is_in(["reached", "decided", "decided_when_reached",
                                                                        "drawn"]))  # fmt: skip
    parts.append(split.with_columns(pl.when(pl.col("metric") == "drawn").then(pl.col("metric"))
                                    .otherwise(pl.lit("split_") + pl.col("metric")).alias("metric")))  # fmt: skip
    for table in (SHT.caishen_value_table(lf, by=None), SHT.flower_value_table(lf, by=None),
                  SHT.flower_value_table(lf, by=None, count="groups")):  # fmt: skip
        parts.append(table.filter(pl.col("metric").str.starts_with("net_per_")).select(SHT.LONG_COLUMNS))
    long = pl.concat([p.select(SHT.LONG_COLUMNS) for p in parts], how="vertical_relaxed").to_pandas()
    return _labelled(wide(long.assign(_row=0), ["_row"]).drop(columns="_row"), run, hand_count(lf))


def sht_value_table(lf: pl.LazyFrame, run: str) -> pd.DataFrame:
    """A seat's figures per hand by the 财神 it held at the end and by the flowers it set aside
    (``caishen_value_table``, ``flower_value_table``; counts from :data:`SHT_TOP` on pooled), wide.

    Columns: run, kind ("caishen", "flowers"), count, label ("4+" for a pooled count), seats
    (seat-hands), share, win_rate, mean_net, value (each with its wide columns), hands.
    """
    frames = []
    for kind, table in (("caishen", SHT.caishen_value_table(lf, by=None, top=SHT_TOP["caishen"])),
                        ("flowers", SHT.flower_value_table(lf, by=None, top=SHT_TOP["flowers"]))):  # fmt: skip
        part = table.filter(pl.col(kind).is_not_null() & pl.col("metric").is_in(["share", "win_rate", "mean_net",
                                                                                 "value"]))  # fmt: skip
        frame = wide(part.rename({kind: "count"}), ["count"])
        frame.insert(0, "kind", kind)
        frames.append(frame)
    table = pd.concat(frames, ignore_index=True)
    table["count"] = table["count"].astype(int)
    table["seats"] = table["mean_net_n"].astype(int)
    top = table["kind"].map(SHT_TOP)
    table["label"] = [f"{c}+" if c >= t else str(c) for c, t in zip(table["count"], top, strict=True)]
    return _labelled(table, run, hand_count(lf))


def sht_money_table(lf: pl.LazyFrame, run: str) -> pd.DataFrame:
    """Per component of net (``shuitou.money_share_table`` and ``shuitou.dealer_edge_table``, pooled,
    clustered by session), wide: run, component (net, win, base, liability, other, all), share, to_win,
    moved_per_hand, moved_per_won_hand, fires, dealer_mean_net, non_dealer_mean_net, dealer_edge
    (each with its wide columns; NaN where a figure does not apply), hands."""
    money = wide(SHT.money_share_table(lf, by=None), ["component"])
    edge = wide(SHT.dealer_edge_table(lf, by=None), ["component"])
    table = edge.merge(money, on="component", how="outer", sort=False)
    order = ["net", *SHT.PARTS, "all"]
    table = table.sort_values("component", key=lambda c: c.map(order.index)).reset_index(drop=True)
    return _labelled(table, run, hand_count(lf))


# --------------------------------------------------------------------------- comparisons


COMPARE_METRICS = ("mean_net", "win_rate", "deal_in_rate")


def compare_runs(runs: dict, metrics=COMPARE_METRICS, by: str = "role") -> pd.DataFrame:
    """``paired.compare_table`` of ``{label: LazyFrame}`` (first = reference), as pandas.

    Columns: label, group (the ``by`` value as text), by, metric, estimate,
    lo, hi, n, reference, diff, diff_lo, diff_hi, paired, hands (the label's).
    """
    table = P.compare_table(runs, metric=list(metrics), by=by).to_pandas()
    table = table.rename(columns={"ci_low": "lo", "ci_high": "hi", "diff_ci_low": "diff_lo",
                                  "diff_ci_high": "diff_hi"})  # fmt: skip
    table.insert(1, "group", table.pop(by).astype(str))
    table.insert(2, "by", by)
    counts = {label: hand_count(lf) for label, lf in runs.items()}
    table["hands"] = table["label"].map(counts)
    return table
