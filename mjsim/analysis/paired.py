"""Paired comparisons of runs played on the same seeds (common random numbers).

Two runs with the same root seed deal the same walls to hands with the same
``hand_id`` (the hand seed depends only on the root seed and the hand id),
so a per-hand figure of one run can be differenced with the other's hand by
hand: the noise both share cancels and the difference's standard error is
far below that of two independent runs.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from mjsim.analysis.metrics import (
    NET_COLUMNS,
    ROW_MEANS,
    check_by,
    group_levels,
    long_moments,
    member,
    moment_aggs,
    seat_exprs,
    seat_table,
    with_seat_columns,
)
from mjsim.analysis.stats import Z95, as_list, finish, lazy

PAIRED_COLUMNS = (
    "metric", "estimate", "se", "ci_low", "ci_high", "n", "clusters", "mean_a", "mean_b", "corr", "se_per_hand",
)  # fmt: skip


def paired_difference(a, b, key="hand_id", value="net", by=None, cluster="auto") -> pl.DataFrame:
    """Mean of ``value`` in ``a`` minus ``value`` in ``b``, paired row by row on ``key``.

    ``a``, ``b``: frames (lazy or not) with the ``key`` column(s) and
    ``value`` (a column name or an expression evaluated in each).  Rows are
    matched by an inner join on ``key`` (a column or a list, e.g.
    ``["hand_id", "seat"]``); ``by`` columns, taken from ``a``, split the
    result into groups.  ``cluster``: the column(s) whose rows are treated as
    one correlated unit; "auto" is ``hand_id`` when it is in ``key``
    (several seats of one hand), else every pair is its own unit; None:
    every pair.

    Columns: the ``by`` column(s), metric (the value's name), estimate (mean
    difference a - b), se (cluster-robust), ci_low, ci_high (normal 95%), n
    (pairs), clusters, mean_a, mean_b, corr (Pearson correlation of the
    paired values), se_per_hand (``se · √clusters``: the standard deviation
    of one unit's difference, for :func:`hands_needed`).  Identical inputs
    give exactly 0 difference and 0 se.
    """
    keys = as_list(key)
    groups = as_list(by)
    if isinstance(value, str):
        name, expr = value, pl.col(value)
    else:
        name, expr = value.meta.output_name(), value
    if cluster == "auto":
        units = ["hand_id"] if "hand_id" in keys and len(keys) > 1 else []
    else:
        units = as_list(cluster)
    left = lazy(a).select(*keys, *[g for g in groups if g not in keys], expr.cast(pl.Float64).alias("_va"))
    right = lazy(b).select(*keys, expr.cast(pl.Float64).alias("_vb"))
    joined = left.join(right, on=keys, how="inner").with_columns((pl.col("_va") - pl.col("_vb")).alias("_d"))
    if not units:
        joined = joined.with_row_index("_unit")
        units = ["_unit"]
    per_unit = joined.group_by(*groups, *units).agg(
        pl.col("_d").sum().alias("_a"), pl.len().cast(pl.Float64).alias("_b")
    )
    aggs = moment_aggs("_a", "_b")
    moments = per_unit.group_by(groups).agg(aggs) if groups else per_unit.select(aggs)
    extra_aggs = [
        pl.col("_va").mean().alias("mean_a"),
        pl.col("_vb").mean().alias("mean_b"),
        pl.corr("_va", "_vb").alias("corr"),
    ]
    extra = joined.group_by(groups).agg(extra_aggs) if groups else joined.select(extra_aggs)
    moments, extra = pl.collect_all([moments, extra])
    table = finish(moments.with_columns(pl.col("N").alias("clusters")), kind="mean")
    table = table.join(extra, on=groups, how="left") if groups else pl.concat([table, extra], how="horizontal")
    table = table.with_columns(
        pl.lit(name).alias("metric"),
        (pl.col("se") * pl.col("clusters").cast(pl.Float64).sqrt()).alias("se_per_hand"),
    )
    if groups:
        table = table.sort(groups)
    return table.select(*groups, *PAIRED_COLUMNS)


def hands_needed(se_per_hand, target_halfwidth, z: float = Z95):
    """Hands (units) for a 95% interval of half-width ``target_halfwidth``: ``ceil((z·σ/h)²)``.

    ``se_per_hand`` is the standard deviation of one hand's figure (the
    ``se_per_hand`` of :func:`paired_difference`, or ``sd`` for one run).
    Scalars give an int, arrays an int array.
    """
    sigma = np.asarray(se_per_hand, dtype=float)
    half = np.asarray(target_halfwidth, dtype=float)
    if np.any(half <= 0):
        raise ValueError("target_halfwidth must be positive")
    n = np.ceil((z * sigma / half) ** 2 - 1e-9).astype(np.int64)
    return int(n) if n.ndim == 0 else n


# -- comparing runs ------------------------------------------------------------------------------------

COMPARE_COLUMNS = ("reference", "diff", "diff_se", "diff_ci_low", "diff_ci_high", "paired")


def same_hands(a, b, keys: Sequence[str] = ("hand_id",)) -> bool:
    """Whether two hand logs hold the same hands: unique ``keys`` (hand ids; with pooled seatings
    ``("seating", "hand_id")``), the same ones, with the same seeds."""
    keys = list(keys)
    left = lazy(a).select(*keys, "seed")
    right = lazy(b).select(*keys, pl.col("seed").alias("seed_b"))
    unique = pl.struct(keys).n_unique().alias("u")
    counts = pl.collect_all(
        [
            left.select(pl.len().alias("n"), unique),
            right.select(pl.len().alias("n"), unique),
            left.join(right, on=keys, how="inner").select(
                pl.len().alias("n"), (pl.col("seed") == pl.col("seed_b")).all().alias("same")
            ),
        ]
    )
    (na, ua), (nb, ub), (nj, same) = (c.row(0) for c in counts)
    return na == ua == nb == ub == nj and na > 0 and bool(same)


def same_seating(a, b, keys: Sequence[str] = ("hand_id",)) -> bool:
    """Whether every matched hand has the same policy at each seat in both logs (so rows pair by policy)."""
    keys = list(keys)
    joined = (
        lazy(a)
        .select(*keys, "policies")
        .join(lazy(b).select(*keys, pl.col("policies").alias("policies_b")), on=keys, how="inner")
    )
    return bool(joined.select((pl.col("policies") == pl.col("policies_b")).all()).collect().item())


def compare_table(runs: dict, metric="mean_net", by="role", keys=("hand_id",), cluster=None) -> pl.DataFrame:
    """:func:`~mjsim.analysis.metrics.seat_table` of several runs, stacked, with differences to the first.

    ``runs``: ``{label: LazyFrame}`` (the first is the reference); ``metric``:
    a seat-table metric, a list of them, or None for all; ``by`` as in
    ``seat_table``.  Columns: label, the ``by`` column(s), metric, estimate,
    se, ci_low, ci_high, n, reference (the first label), diff (estimate minus
    the reference's), diff_se, diff_ci_low, diff_ci_high (normal 95%), paired.

    The difference is *paired* (:func:`paired_difference`, clustered by hand)
    when both runs hold the same hands (:func:`same_hands`), ``by`` is one of
    "seat", "role", "offset" or "policy" (the last where every hand seats the
    same policies in both, :func:`same_seating`) and the metric is a per-row mean (``win_rate``,
    ``deal_in_rate``, ``draw_rate``, ``mean_net``, ``mean_net_*``): rows are
    matched on (hand_id, seat) for "seat", on (hand_id, offset) for "role" and
    "offset".  Otherwise it is unpaired, ``diff_se = √(se² + se_ref²)``, or
    null where the metric has no se.  The reference's own rows have null
    differences.

    Runs that pool several seatings of the same walls (balanced seating)
    pass ``keys=("seating", "hand_id")`` and ``cluster="seed"``: rows pair
    within a seating and the standard errors cluster by wall.
    """
    if not runs:
        raise ValueError("compare_table needs at least one run")
    groups = check_by(by)
    wanted = None if metric is None else as_list(metric)
    labels = list(runs)
    tables = {}
    for label, lf in runs.items():
        table = seat_table(lf, by, cluster=cluster)
        if wanted is not None:
            unknown = set(wanted) - set(table["metric"].unique())
            if unknown:
                raise ValueError(f"unknown seat_table metric(s): {', '.join(sorted(unknown))}")
            table = table.filter(pl.col("metric").is_in(wanted))
        tables[label] = table.with_columns(pl.lit(label).alias("label"))
    reference = labels[0]
    ref_table = tables[reference]
    out = [_with_nulls(ref_table, reference)]
    pairable_by = len(groups) == 1 and groups[0] in ("seat", "role", "offset", "policy")
    for label in labels[1:]:
        table = tables[label]
        joined = table.join(
            ref_table.select(*groups, "metric", pl.col("estimate").alias("_ref"), pl.col("se").alias("_ref_se")),
            on=[*groups, "metric"], how="left", nulls_equal=True,
        ).with_columns(
            pl.lit(reference).alias("reference"),
            (pl.col("estimate") - pl.col("_ref")).alias("diff"),
            (pl.col("se") ** 2 + pl.col("_ref_se") ** 2).sqrt().alias("diff_se"),
            pl.lit(False).alias("paired"),
        )  # fmt: skip
        pairable = [m for m in table["metric"].unique().to_list() if m in ROW_MEANS]
        pairs = pairable_by and pairable and same_hands(runs[label], runs[reference], keys)
        if pairs and groups[0] == "policy":
            pairs = same_seating(runs[label], runs[reference], keys)
        if pairs:
            paired = _paired_rows(runs[label], runs[reference], groups, pairable, keys, cluster)
            found = pl.col("_p_diff").is_not_null()
            joined = joined.join(paired, on=[*groups, "metric"], how="left").with_columns(
                pl.when(found).then(pl.col("_p_diff")).otherwise(pl.col("diff")).alias("diff"),
                pl.when(found).then(pl.col("_p_se")).otherwise(pl.col("diff_se")).alias("diff_se"),
                found.alias("paired"),
            ).drop("_p_diff", "_p_se")  # fmt: skip
        joined = joined.with_columns(
            (pl.col("diff") - Z95 * pl.col("diff_se")).alias("diff_ci_low"),
            (pl.col("diff") + Z95 * pl.col("diff_se")).alias("diff_ci_high"),
        ).drop("_ref", "_ref_se")
        out.append(joined)
    columns = ["label", *groups, "metric", "estimate", "se", "ci_low", "ci_high", "n", *COMPARE_COLUMNS]
    return pl.concat([t.select(columns) for t in out], how="vertical_relaxed")


def _with_nulls(table: pl.DataFrame, reference: str) -> pl.DataFrame:
    return table.with_columns(
        pl.lit(reference).alias("reference"),
        *[pl.lit(None, pl.Float64).alias(c) for c in ("diff", "diff_se", "diff_ci_low", "diff_ci_high")],
        pl.lit(None, pl.Boolean).alias("paired"),
    )


_PAIR_COLUMNS = ("dealer", "winners", "discarder", "win_kind", "fan", "liable", "policies", *NET_COLUMNS)


def _paired_rows(lf, ref, groups: Sequence[str], metrics: Sequence[str], keys=("hand_id",), cluster=None):
    """Paired differences of per-row means, hand by hand: for each group level the per-hand sum over its
    seats in ``lf`` minus that in ``ref`` (rows matched on (hand, seat) or (hand, offset)), clustered by hand
    (or by ``cluster``, e.g. the wall ``seed``)."""
    groups, keys = list(groups), list(keys)
    left = lazy(lf).select(*keys, "seed", *_PAIR_COLUMNS)
    right = lazy(ref).select(*keys, *[pl.col(c).alias(f"{c}_b") for c in _PAIR_COLUMNS])
    joined = with_seat_columns(with_seat_columns(left.join(right, on=keys, how="inner")), "_b")
    seats_a = [seat_exprs(s) for s in range(4)]
    seats_b = [seat_exprs(s, "_b") for s in range(4)]
    levels = group_levels(lf, groups)
    specs = {m: (ROW_MEANS[m][0], None, "mean") for m in metrics}
    columns = []
    for index, level in enumerate(levels.iter_rows()):
        in_a = [member(seat, groups, level) for seat in seats_a]
        in_b = [member(seat, groups, level) for seat in seats_b]
        rows = pl.sum_horizontal([m.cast(pl.Float64) for m in in_a])
        for metric, (value, _, _) in specs.items():
            ours = pl.sum_horizontal([pl.when(m).then(s[value].cast(pl.Float64)).otherwise(0.0)
                                      for m, s in zip(in_a, seats_a)])  # fmt: skip
            theirs = pl.sum_horizontal([pl.when(m).then(s[value].cast(pl.Float64)).otherwise(0.0)
                                        for m, s in zip(in_b, seats_b)])  # fmt: skip
            columns += [(ours - theirs).alias(f"a:{metric}@{index}"), rows.alias(f"b:{metric}@{index}")]
    aggs = [
        x
        for index in range(levels.height)
        for m in specs
        for x in moment_aggs(f"a:{m}@{index}", f"b:{m}@{index}", f"{m}@{index}__")
    ]
    per_unit = joined.select(columns)
    if cluster is not None:
        per_unit = joined.select(cluster, *columns).group_by(cluster).agg(pl.exclude(cluster).sum())
    wide = per_unit.select(aggs).collect()
    result = finish(long_moments(wide, groups, levels, specs))
    return result.select(*groups, "metric", pl.col("estimate").alias("_p_diff"), pl.col("se").alias("_p_se"))
