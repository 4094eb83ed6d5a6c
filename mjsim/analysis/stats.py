"""The statistics every analysis table shares: cluster-robust ratio estimates and their intervals.

Every rate and mean in :mod:`mjsim.analysis` is a *ratio* ``R = A / B``
over clusters ``c`` (a hand, or a session for session figures): ``a_c`` sums
the numerator over the rows of the cluster (wins, points, ...), ``b_c`` the
denominator (rows, wins, horses, ...), ``A = Σ a_c`` and ``B = Σ b_c``.
Only clusters with ``b_c > 0`` count (``N`` of them).  Its standard error is
the cluster-robust (linearised) one::

    se² = N / (N - 1) · Σ_c (a_c - R·b_c)² / B²

It allows for the seats of one hand not being independent (the three
non-dealers' nets sum to minus the dealer's).  With one row per cluster and
``b = 1`` it is the textbook ``s / √N`` (``s`` with ``N - 1``), and for a
rate ``√(p(1-p)/(N-1))``.  It is computed from the five sums ``A, B,
Σa², Σab, Σb²`` so that one lazy aggregation pass suffices, and clusters
with ``a_c = 0`` can be left out of the numerator sums (sparse tables).
When a cluster is one row of the hand log, ``a_c`` and ``b_c`` are row
expressions and no group-by on the cluster is needed at all.

Intervals (95%, ``Z95``): a mean gets ``R ± z·se``; a rate (``kind ==
"rate"``) gets the Wilson score interval with the effective sample size
``p(1-p)/se²`` (the row count corrected for the clustering); when ``p`` is 0
or 1 the number of clusters ``N`` is used instead, and when ``se`` is 0 with
``0 < p < 1`` (the rate is fixed by construction) the interval is ``[p, p]``.

Tables are *tidy and long*: one row per group and metric, with the columns
``metric, estimate, se, ci_low, ci_high, n`` (``n``: rows behind the
estimate, ``B`` for a ratio).  Figures with no standard error (quantiles,
standard deviations, counts) have ``se``/``ci_*`` null.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence

import numpy as np
import polars as pl

Z95 = 1.959963984540054
HAND = ("run_id", "hand_id")  # the cluster of per-hand figures
SESSION = ("run_id", "session")  # the cluster of per-session figures
ALL = "_all"  # the dummy group column of ungrouped tables
LONG_COLUMNS = ("metric", "estimate", "se", "ci_low", "ci_high", "n")
MOMENTS = ("A", "B", "Saa", "Sab", "Sbb", "N")


def lazy(frame) -> pl.LazyFrame:
    """A LazyFrame of hands from a LazyFrame, a DataFrame or a run directory."""
    if isinstance(frame, pl.LazyFrame):
        return frame
    if isinstance(frame, pl.DataFrame):
        return frame.lazy()
    if isinstance(frame, (str, os.PathLike)):
        from mjsim.io.dataset import scan_hands

        return scan_hands(frame)
    raise TypeError(
        f"expected hands as a polars LazyFrame or DataFrame, or a run directory; got {type(frame).__name__}"
    )


def as_list(columns) -> list[str]:
    if columns is None:
        return []
    return [columns] if isinstance(columns, str) else list(columns)


def qname(q: float) -> str:
    """The metric name of quantile ``q``: 0.05 -> q05, 0.5 -> q50, 0.025 -> q2.5."""
    text = f"{q * 100:g}"
    return "q" + (text if "." in text else text.zfill(2))


# -- ratio moments --------------------------------------------------------------------------------


def moment_aggs(a: str, b: str, prefix: str = "") -> list[pl.Expr]:
    """Aggregations of per-cluster columns ``a`` and ``b`` into the five sums and ``N``."""
    fa, fb = pl.col(a).cast(pl.Float64), pl.col(b).cast(pl.Float64)
    return [
        fa.sum().alias(f"{prefix}A"),
        fb.sum().alias(f"{prefix}B"),
        (fa * fa).sum().alias(f"{prefix}Saa"),
        (fa * fb).sum().alias(f"{prefix}Sab"),
        (fb * fb).sum().alias(f"{prefix}Sbb"),
        (fb > 0).sum().cast(pl.Int64).alias(f"{prefix}N"),
    ]


def dense_moments(rows: pl.LazyFrame, groups: Sequence[str], cluster: Sequence[str], specs: dict) -> pl.LazyFrame:
    """Per group, the ratio moments of each ``metric: (numerator, denominator, kind)`` in ``specs``.

    ``rows`` has one row per observation; numerator and denominator are
    row expressions summed per cluster (denominator None: the row count).  Returns one row per group with columns
    ``{metric}__A`` ... ``{metric}__N``.
    """
    groups, cluster = list(groups), list(cluster)
    per_cluster = rows.group_by(*groups, *cluster).agg(
        *[e.cast(pl.Float64).sum().alias(f"{m}__a") for m, (e, _, _) in specs.items()],
        *[
            (pl.len() if d is None else d.cast(pl.Float64).sum()).cast(pl.Float64).alias(f"{m}__b")
            for m, (_, d, _) in specs.items()
        ],
    )
    aggs = [x for m in specs for x in moment_aggs(f"{m}__a", f"{m}__b", f"{m}__")]
    return per_cluster.group_by(*groups).agg(aggs) if groups else per_cluster.select(aggs)


# -- finishing: estimates, standard errors, intervals ---------------------------------------------


def wide_to_moments(wide: pl.DataFrame, groups: Sequence[str], specs: dict) -> pl.DataFrame:
    """Long rows ``groups, metric, kind, A..N`` from the wide output of :func:`dense_moments`."""
    frames = [
        wide.select(
            *groups,
            pl.lit(m).alias("metric"),
            pl.lit(kind).alias("kind"),
            *[pl.col(f"{m}__{x}").alias(x) for x in MOMENTS],
        )  # fmt: skip
        for m, (_, _, kind) in specs.items()
    ]
    return pl.concat(frames, how="vertical_relaxed")


def finish(moments: pl.DataFrame | pl.LazyFrame, kind: str | None = None) -> pl.DataFrame | pl.LazyFrame:
    """Add ``estimate se ci_low ci_high n`` to rows of ratio moments (and drop the moments).

    ``kind`` is "rate" or "mean"; without it each row's ``kind`` column says.
    """
    if kind is not None:
        moments = moments.with_columns(pl.lit(kind).alias("kind"))
    z = Z95
    r = pl.col("A") / pl.col("B")
    resid = pl.max_horizontal(pl.col("Saa") - 2 * r * pl.col("Sab") + r * r * pl.col("Sbb"), pl.lit(0.0))
    var = pl.col("N") / (pl.col("N") - 1) * resid / (pl.col("B") ** 2)
    out = moments.with_columns(
        pl.when(pl.col("B") > 0).then(r).alias("estimate"),
        pl.when((pl.col("B") > 0) & (pl.col("N") > 1)).then(var.sqrt()).alias("se"),
    )
    p, se = pl.col("estimate"), pl.col("se")
    neff = pl.when((p > 0) & (p < 1) & (se > 0)).then(p * (1 - p) / (se * se)).otherwise(pl.col("N").cast(pl.Float64))
    centre = (p + z * z / (2 * neff)) / (1 + z * z / neff)
    half = z * (p * (1 - p) / neff + z * z / (4 * neff * neff)).sqrt() / (1 + z * z / neff)
    fixed = (se == 0) & (p > 0) & (p < 1)
    is_rate = pl.col("kind") == "rate"
    out = out.with_columns(
        pl.when(se.is_null()).then(None)
        .when(is_rate & (fixed | (p == 0))).then(p)
        .when(is_rate).then(pl.max_horizontal(centre - half, pl.lit(0.0)))
        .otherwise(p - z * se).alias("ci_low"),
        pl.when(se.is_null()).then(None)
        .when(is_rate & (fixed | (p == 1))).then(p)
        .when(is_rate).then(pl.min_horizontal(centre + half, pl.lit(1.0)))
        .otherwise(p + z * se).alias("ci_high"),
        pl.col("B").round(0).cast(pl.Int64).alias("n"),
    )  # fmt: skip
    return out.drop(*MOMENTS, "kind")


def value_rows(wide: pl.DataFrame, groups: Sequence[str], metrics: Iterable[str], n: str | None = None) -> pl.DataFrame:
    """Long rows (``estimate`` only, ``se``/``ci`` null) of plain figures held as wide columns."""
    frames = [
        wide.select(
            *groups,
            pl.lit(m).alias("metric"),
            pl.col(m).cast(pl.Float64).alias("estimate"),
            pl.lit(None, pl.Float64).alias("se"),
            pl.lit(None, pl.Float64).alias("ci_low"),
            pl.lit(None, pl.Float64).alias("ci_high"),
            (pl.col(n).cast(pl.Int64) if n else pl.lit(None, pl.Int64)).alias("n"),
        )  # fmt: skip
        for m in metrics
    ]
    return pl.concat(frames, how="vertical_relaxed")


def order_long(frame: pl.DataFrame, groups: Sequence[str], metrics: Sequence[str],
               extra: Sequence[str] = ()) -> pl.DataFrame:  # fmt: skip
    """Sort long rows by group, then by the given metric order; keep the standard column order."""
    rank = {m: i for i, m in enumerate(metrics)}
    frame = frame.with_columns(pl.col("metric").replace_strict(rank, default=len(rank)).alias("_rank"))
    groups = list(groups)
    frame = frame.sort([*groups, "_rank"], maintain_order=True, nulls_last=True)
    rest = [c for c in frame.columns if c not in (*groups, *LONG_COLUMNS, "_rank", *extra)]
    return frame.select(*groups, *extra, *LONG_COLUMNS, *rest)


def pivot_metrics(table: pl.DataFrame, values: str = "estimate") -> pl.DataFrame:
    """A long table made wide: one column per metric holding ``values`` (estimate, se, ...).

    With several thresholds (``session_risk``) only the first ``p_loss``/``p_drawdown`` is kept.
    """
    index = [c for c in table.columns if c not in (*LONG_COLUMNS, "threshold")]
    return table.pivot(on="metric", index=index or None, values=values, aggregate_function="first")


def percentile_interval(replicates: np.ndarray) -> tuple[float, float, float]:
    """Standard error and 95% percentile interval of bootstrap replicates."""
    reps = replicates[np.isfinite(replicates)]
    if reps.size < 2:
        return math.nan, math.nan, math.nan
    low, high = np.quantile(reps, [0.025, 0.975])
    return float(reps.std(ddof=1)), float(low), float(high)
