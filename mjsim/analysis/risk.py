"""Session risk: each seat's cumulative net over a session, its losses and drawdowns (tidy long tables).

A *path* is one seat's sequence of nets over one session (``run_id,
session``), in ``hand_in_session`` order; its cumulative net starts at 0.
Its *drawdown* is the largest fall from a running peak (the start, 0,
included) to a later low: ``max_t (max(0, max_{s≤t} C_s) - C_t)``.
Standard errors are clustered by session (the four seats of a session are
not independent); see :mod:`mjsim.analysis.stats`.

The running sums are window functions over each session on the hand frame
(four seat columns, not four rows per hand); the tables then work on one
row per session and seat (:func:`session_risk`) or on sums per hand index
and value histograms (:func:`cumulative_paths`).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from mjsim.analysis.metrics import LEVEL_TYPES, check_by, group_levels, histogram_stats, member, seat_rows
from mjsim.analysis.stats import (
    ALL,
    LONG_COLUMNS,
    MOMENTS,
    SESSION,
    dense_moments,
    finish,
    lazy,
    moment_aggs,
    order_long,
    qname,
    value_rows,
    wide_to_moments,
)  # fmt: skip

PATH = ("run_id", "session", "seat")
QUANTILES = (0.01, 0.05, 0.5, 0.95, 0.99)
FAN_QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def session_paths(lf, session_length: int | None = None) -> pl.LazyFrame:
    """One row per hand and seat with the seat's running figures over its session.

    Columns: run_id, session, hand_in_session, seat, policy, net, cum
    (cumulative net after this hand), drawdown (running peak, 0 included,
    minus cum).  With ``session_length`` only the first that many hands of
    each session count, and only sessions that have all of them.
    """
    rows = seat_rows(lf).select("run_id", "session", "hand_in_session", "seat", "policy", "net")
    if session_length is not None:
        if session_length < 1:
            raise ValueError(f"session_length must be at least 1, got {session_length}")
        rows = rows.filter(pl.col("hand_in_session") < session_length).filter(pl.len().over(PATH) == session_length)
    order = "hand_in_session"
    return rows.with_columns(pl.col("net").cum_sum().over(PATH, order_by=order).alias("cum")).with_columns(
        (pl.col("cum").cum_max().over(PATH, order_by=order).clip(lower_bound=0) - pl.col("cum")).alias("drawdown")
    )


def _groups(by) -> list[str]:
    return check_by(by, allowed=("seat", "policy"), none_ok=True)


def _seat_paths(lf, session_length: int | None) -> pl.LazyFrame:
    """The hand frame with each seat's running figures: ``net{s}``, ``cum{s}``, ``dd{s}`` (s = 0-3)."""
    hands = lazy(lf).select(
        *SESSION, "hand_in_session", "policies", *[pl.col("net").arr.get(s).alias(f"net{s}") for s in range(4)]
    )
    if session_length is not None:
        if session_length < 1:
            raise ValueError(f"session_length must be at least 1, got {session_length}")
        hands = hands.filter(pl.col("hand_in_session") < session_length).filter(
            pl.len().over(SESSION) == session_length
        )
    window = dict(partition_by=list(SESSION), order_by="hand_in_session")
    hands = hands.with_columns(pl.col(f"net{s}").cum_sum().over(**window).alias(f"cum{s}") for s in range(4))
    return hands.with_columns(
        (pl.col(f"cum{s}").cum_max().over(**window).clip(lower_bound=0) - pl.col(f"cum{s}")).alias(f"dd{s}")
        for s in range(4)
    )


def _path_seat(s: int) -> dict[str, pl.Expr]:
    return {"seat": pl.lit(s, pl.Int8), "policy": pl.col("policies").arr.get(s)}


def session_risk(lf, session_length: int | None = None, loss_threshold: float | Sequence[float] = 0.0, by="seat",
                 quantiles: Sequence[float] = QUANTILES) -> pl.DataFrame:  # fmt: skip
    """Each seat's result over whole sessions: distribution, chance of a big loss, worst drawdown.

    ``by``: "seat" (absolute), "policy", or None (every path together).
    ``loss_threshold`` X (one number or several): the loss and drawdown
    probabilities use it.  Columns: the ``by`` column, metric, threshold
    (X for ``p_loss``/``p_drawdown``, else null), estimate, se, ci_low,
    ci_high, n (paths).  Metrics:

    - ``sessions`` (distinct sessions), ``hands_per_session`` (mean);
    - ``mean_cum_net`` (normal interval), ``sd_cum_net``, quantiles
      ``cum_net_q01`` ... of the cumulative net at the end of the session,
      ``min_cum_net``;
    - ``p_loss``: P(cumulative net < -X) (Wilson);
    - ``mean_drawdown`` (normal interval), ``sd_drawdown``, quantiles
      ``drawdown_q01`` ..., ``max_drawdown``;
    - ``p_drawdown``: P(drawdown > X) (Wilson).
    """
    groups = _groups(by)
    single = isinstance(loss_threshold, int | float)
    thresholds = [float(loss_threshold)] if single else [float(x) for x in loss_threshold]
    keys = groups or [ALL]
    per_session = _seat_paths(lf, session_length).group_by(SESSION).agg(
        pl.len().alias("hands"), pl.col("policies").first(),
        *[pl.col(f"net{s}").sum().cast(pl.Float64).alias(f"final{s}") for s in range(4)],
        *[pl.col(f"dd{s}").max().cast(pl.Float64).alias(f"dd{s}") for s in range(4)],
    )  # fmt: skip
    per_path = pl.concat(
        [
            per_session.select(
                *SESSION,
                "hands",
                *[e.alias(k) for k, e in _path_seat(s).items() if k in groups],
                pl.col(f"final{s}").alias("final"),
                pl.col(f"dd{s}").alias("dd"),
            )  # fmt: skip
            for s in range(4)
        ]
    )
    if not groups:
        per_path = per_path.with_columns(pl.lit(0, pl.Int8).alias(ALL))
    specs = {"mean_cum_net": (pl.col("final"), None, "mean"), "mean_drawdown": (pl.col("dd"), None, "mean")}
    for i, x in enumerate(thresholds):
        specs[f"p_loss@{i}"] = (pl.col("final") < -x, None, "rate")
        specs[f"p_drawdown@{i}"] = (pl.col("dd") > x, None, "rate")
    cum_q = {f"cum_net_{qname(q)}": pl.col("final").quantile(q, interpolation="linear") for q in quantiles}
    dd_q = {f"drawdown_{qname(q)}": pl.col("dd").quantile(q, interpolation="linear") for q in quantiles}
    plain = {
        "hands_per_session": pl.col("hands").cast(pl.Float64).mean(),
        "sd_cum_net": pl.col("final").std(), **cum_q, "min_cum_net": pl.col("final").min(),
        "sd_drawdown": pl.col("dd").std(), **dd_q, "max_drawdown": pl.col("dd").max(),
    }  # fmt: skip
    shape = per_path.group_by(keys).agg(pl.len().alias("_paths"), *[e.alias(m) for m, e in plain.items()])
    wide, shape = pl.collect_all([dense_moments(per_path, keys, SESSION, specs), shape])
    long = finish(wide_to_moments(wide, keys, specs))
    sessions = wide.select(
        *keys, pl.col("mean_cum_net__N").alias("sessions"), pl.col("mean_cum_net__B").alias("_paths")
    )
    long = pl.concat(
        [long, value_rows(sessions, keys, ["sessions"], n="_paths"), value_rows(shape, keys, plain, n="_paths")],
        how="vertical_relaxed",
    )
    index = pl.col("metric").str.extract(r"@(\d+)$").cast(pl.Int64)
    long = long.with_columns(
        pl.when(index.is_not_null()).then(index.replace_strict(dict(enumerate(thresholds)), default=None))
        .cast(pl.Float64).alias("threshold"),
        pl.col("metric").str.replace(r"@\d+$", ""),
    )  # fmt: skip
    names = ["sessions", "hands_per_session", "mean_cum_net", "sd_cum_net", *cum_q, "min_cum_net", "p_loss",
             "mean_drawdown", "sd_drawdown", *dd_q, "max_drawdown", "p_drawdown"]  # fmt: skip
    table = order_long(long.sort("threshold", nulls_last=False), keys, names, extra=()).select(
        *keys, "metric", "threshold", *LONG_COLUMNS[1:]
    )
    return table.drop(ALL) if not groups else table


def cumulative_paths(lf, by="seat", session_length: int | None = None,
                     quantiles: Sequence[float] = FAN_QUANTILES) -> pl.DataFrame:  # fmt: skip
    """Cumulative net by hands played, for fan charts.

    ``by``: "seat", "policy" or None.  Columns: the ``by`` column,
    hand_in_session, hands_played (= hand_in_session + 1), metric, estimate,
    se, ci_low, ci_high, n (paths that reached that hand).  Metrics:
    ``mean`` (normal interval, clustered by session), ``sd``, and one
    ``q05``/``q25``/... per quantile (linear interpolation) of the
    cumulative net after that hand.
    """
    groups = _groups(by)
    keys = groups or [ALL]
    lf = lazy(lf)
    frame = _seat_paths(lf, session_length)
    levels = group_levels(lf, groups)
    level_rows = list(levels.iter_rows()) if groups else [()]
    seats = [_path_seat(s) for s in range(4)]
    columns = []
    for index, level in enumerate(level_rows):  # per session and hand: the level's paths summed
        inside = [member(seat, groups, level) for seat in seats]
        cums = [pl.when(m).then(pl.col(f"cum{s}").cast(pl.Float64)).otherwise(0.0) for s, m in enumerate(inside)]
        a = pl.sum_horizontal(cums)
        b = pl.sum_horizontal([m.cast(pl.Float64) for m in inside])
        columns += [a.alias(f"a@{index}"), b.alias(f"b@{index}")]
    aggs = [x for index in range(len(level_rows)) for x in moment_aggs(f"a@{index}", f"b@{index}", f"{index}__")]
    moments = frame.select("hand_in_session", *columns).group_by("hand_in_session").agg(aggs)
    paths = pl.concat(
        [
            frame.select(
                "hand_in_session",
                *[e.alias(k) for k, e in seats[s].items() if k in groups],
                pl.col(f"cum{s}").alias("cum"),
            )  # fmt: skip
            for s in range(4)
        ]
    )
    if not groups:
        paths = paths.with_columns(pl.lit(0, pl.Int8).alias(ALL))
    freq = paths.group_by(*keys, "hand_in_session", "cum").agg(pl.len().alias("_c"))
    shape = histogram_stats(freq, [*keys, "hand_in_session"], "cum", quantiles)
    moments, shape = pl.collect_all([moments, shape])
    records = []
    level_values = [dict(zip(groups, level)) if groups else {ALL: 0} for level in level_rows]
    for row in moments.iter_rows(named=True):
        for index, values in enumerate(level_values):
            records.append({**values, "hand_in_session": row["hand_in_session"], "metric": "mean", "kind": "mean",
                            **{x: row[f"{index}__{x}"] for x in MOMENTS}})  # fmt: skip
    schema = {**({g: LEVEL_TYPES[g] for g in groups} if groups else {ALL: pl.Int8}),
              "hand_in_session": moments.schema["hand_in_session"], "metric": pl.String, "kind": pl.String,
              **{x: pl.Float64 for x in MOMENTS[:-1]}, "N": pl.Int64}  # fmt: skip
    mean = finish(pl.DataFrame(records, schema=schema).filter(pl.col("B") > 0))
    plain = ["sd", *(qname(q) for q in quantiles)]
    long = pl.concat(
        [mean, value_rows(shape, [*keys, "hand_in_session"], plain, n="_rows")], how="vertical_relaxed"
    ).with_columns((pl.col("hand_in_session") + 1).alias("hands_played"))
    table = order_long(long, [*keys, "hand_in_session"], ["mean", *plain], extra=("hands_played",))
    return table.drop(ALL) if not groups else table
