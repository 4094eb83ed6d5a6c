"""Seat, pattern and fan tables over hand logs (polars, lazy; statistics in :mod:`mjsim.analysis.stats`).

Definitions (per (hand, seat) row unless said otherwise):

- ``won``: the seat is among the hand's winners (alone or with others);
- ``self_drawn``: it won from the wall — ``self_draw`` or ``kong_replacement``
  (a robbed kong is paid like a self-draw but won on another's tile, so it
  is not counted);
- ``dealt_in``: its discard (or robbed kong) was won on (``discarder``);
  once per hand, even when several players won on it;
- ``drawn``: nobody won the hand;
- ``role``: ``"dealer"`` or ``"non-dealer"``; ``offset``: seats after the
  dealer in turn order, 0 dealer, 1 下家, 2 对家, 3 上家;
- ``policy``: the seat's policy spec string.

All tables are tidy and long (see :mod:`mjsim.analysis.stats` for the
columns, standard errors and intervals); clusters are hands
(``run_id, hand_id``), so several runs can be scanned together.

Scale.  A hand is one row of the log, so the per-hand (cluster) sums a
group needs are computed row by row on the hand frame — the four seats are
four expressions, not four rows — and only the sums of those, and value
histograms for quantiles, are aggregated: memory does not grow with the
number of hands.  Only the few hands with several winners go through a
group-by on the hand.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import polars as pl

from mjsim.analysis.stats import (
    ALL,
    HAND,
    LONG_COLUMNS,
    MOMENTS,
    finish,
    lazy,
    moment_aggs,
    order_long,
    qname,
    value_rows,
)  # fmt: skip

SELF_DRAWN = ("self_draw", "kong_replacement")
NET_COLUMNS = ("net", "net_win", "net_kong", "net_horse", "net_liability", "net_penalty")
COMPONENTS = NET_COLUMNS[1:]
GROUPINGS = ("seat", "role", "policy", "offset")
DEALER, NON_DEALER = "dealer", "non-dealer"
QUANTILES = (0.01, 0.05, 0.5, 0.95, 0.99)


def _role(offset: pl.Expr) -> pl.Expr:
    return pl.when(offset == 0).then(pl.lit(DEALER)).otherwise(pl.lit(NON_DEALER))


def _offset(seat: pl.Expr) -> pl.Expr:
    return ((seat.cast(pl.Int16) - pl.col("dealer").cast(pl.Int16) + 4) % 4).cast(pl.Int8)


def seat_rows(lf) -> pl.LazyFrame:
    """One row per hand and absolute seat (four per hand).

    Columns: run_id, hand_id, session, hand_in_session, round_wind, streak,
    dealer, seat (Int8), offset (Int8, 0 = dealer), role ("dealer" /
    "non-dealer"), policy, won, win_kind (the seat's, else null),
    self_drawn, fan (the seat's, else null), dealt_in, drawn, liable (the seat
    paid a 包 liability), and net, net_win, net_kong, net_horse,
    net_liability, net_penalty (the seat's Int64 entries).
    """
    kinds, fans = [], []
    for seat in range(4):
        won = pl.col("winners").list.contains(seat)
        position = pl.col("winners").list.eval(pl.element() == seat).list.arg_max()
        kinds.append(pl.when(won).then(pl.col("win_kind").list.get(position, null_on_oob=True)))
        fans.append(pl.when(won).then(pl.col("fan").list.get(position, null_on_oob=True)))
    exploded = ["seat", "policy", "win_kind", "fan", *NET_COLUMNS]
    return (
        lazy(lf)
        .select(
            "run_id",
            "hand_id",
            "session",
            "hand_in_session",
            "round_wind",
            "streak",
            "dealer",
            "winners",
            "discarder",
            pl.col("liable").alias("_liable"),
            pl.int_ranges(0, 4, dtype=pl.Int8).alias("seat"),
            pl.col("policies").alias("policy"),
            pl.concat_list(kinds).alias("win_kind"),
            pl.concat_list(fans).alias("fan"),
            *NET_COLUMNS,
        )  # fmt: skip
        .explode(exploded)
        .with_columns(_offset(pl.col("seat")).alias("offset"))
        .select(
            "run_id",
            "hand_id",
            "session",
            "hand_in_session",
            "round_wind",
            "streak",
            "dealer",
            "seat",
            "offset",
            _role(pl.col("offset")).alias("role"),
            "policy",
            pl.col("winners").list.contains(pl.col("seat")).alias("won"),
            "win_kind",
            pl.col("win_kind").is_in(SELF_DRAWN).fill_null(False).alias("self_drawn"),
            "fan",
            (pl.col("discarder") == pl.col("seat")).fill_null(False).alias("dealt_in"),
            (pl.col("winners").list.len() == 0).alias("drawn"),
            (pl.col("_liable") == pl.col("seat")).fill_null(False).alias("liable"),
            *NET_COLUMNS,
        )  # fmt: skip
    )


def win_rows(lf) -> pl.LazyFrame:
    """One row per win (a hand with two winners has two).

    Columns: run_id, hand_id, session, hand_in_session, dealer, seat (the
    winner), offset, role, policy, win_kind, fan, patterns (the win's pattern
    ids, each once), discarder, liable (the hand's liable seat or null).
    """
    return (
        lazy(lf)
        .select(
            "run_id",
            "hand_id",
            "session",
            "hand_in_session",
            "dealer",
            "policies",
            "discarder",
            "liable",
            pl.col("winners").alias("seat"),
            "win_kind",
            "fan",
            "patterns",
        )  # fmt: skip
        .explode("seat", "win_kind", "fan", "patterns")
        .filter(pl.col("seat").is_not_null())
        .with_columns(_offset(pl.col("seat")).alias("offset"))
        .select(
            "run_id",
            "hand_id",
            "session",
            "hand_in_session",
            "dealer",
            "seat",
            "offset",
            _role(pl.col("offset")).alias("role"),
            pl.col("policies").arr.get(pl.col("seat")).alias("policy"),
            "win_kind",
            "fan",
            pl.col("patterns").list.unique(maintain_order=True),
            "discarder",
            "liable",
        )  # fmt: skip
    )


def check_by(by, allowed=GROUPINGS, none_ok: bool = False) -> list[str]:
    if by is None:
        if none_ok:
            return []
        raise ValueError(f"by must be one of {', '.join(allowed)}")
    groups = [by] if isinstance(by, str) else list(by)
    bad = [g for g in groups if g not in allowed]
    if bad or not (groups or none_ok):
        raise ValueError(f"by must be one of {', '.join(allowed)} (or a list of them), got {by!r}")
    return groups


# -- per-seat expressions on the hand frame ---------------------------------------------------------

LEVEL_TYPES = {"seat": pl.Int8, "offset": pl.Int8, "role": pl.String, "policy": pl.String}


_PER_WIN = ("self_drawn", "fan")  # the seat's entries of per-winner lists: computed once, as columns


def _per_win_exprs(seat: int, suffix: str = "") -> dict[str, pl.Expr]:
    c = lambda name: pl.col(name + suffix)  # noqa: E731
    won = c("winners").list.contains(seat)
    position = c("winners").list.eval(pl.element() == seat).list.arg_max()
    kind = pl.when(won).then(c("win_kind").list.get(position, null_on_oob=True))
    return {
        "self_drawn": kind.is_in(SELF_DRAWN).fill_null(False),
        "fan": pl.when(won).then(c("fan").list.get(position, null_on_oob=True)).otherwise(0),
    }


def with_seat_columns(lf, suffix: str = "") -> pl.LazyFrame:
    """The hand frame with the per-winner entries :func:`seat_exprs` refers to (unused ones are pruned)."""
    return lazy(lf).with_columns(
        e.alias(f"_{name}{seat}{suffix}") for seat in range(4) for name, e in _per_win_exprs(seat, suffix).items()
    )


def seat_exprs(seat: int, suffix: str = "") -> dict[str, pl.Expr]:
    """The :func:`seat_rows` columns of absolute seat ``seat`` as expressions on the hand frame
    (prepared by :func:`with_seat_columns`).

    ``suffix`` names the columns of a second run joined alongside (``net_b`` ...).
    """
    c = lambda name: pl.col(name + suffix)  # noqa: E731
    offset = ((seat - c("dealer").cast(pl.Int16) + 4) % 4).cast(pl.Int8)
    return {
        "seat": pl.lit(seat, pl.Int8),
        "offset": offset,
        "role": _role(offset),
        "policy": c("policies").arr.get(seat),
        "won": c("winners").list.contains(seat),
        **{name: pl.col(f"_{name}{seat}{suffix}") for name in _PER_WIN},
        "dealt_in": (c("discarder") == seat).fill_null(False),
        "drawn": c("winners").list.len() == 0,
        "liable": (c("liable") == seat).fill_null(False),
        **{name: c(name).arr.get(seat) for name in NET_COLUMNS},
    }


SEATS = tuple(seat_exprs(s) for s in range(4))


def group_levels(lf, groups: Sequence[str]) -> pl.DataFrame:
    """Every combination of the group values (policies: those in the data), one row each."""
    values = {"seat": [0, 1, 2, 3], "offset": [0, 1, 2, 3], "role": [DEALER, NON_DEALER]}
    if "policy" in groups:
        found = lazy(lf).select(pl.col("policies").explode().unique()).collect().to_series()
        values["policy"] = sorted(found.drop_nulls().to_list())
    rows = list(itertools.product(*[values[g] for g in groups]))
    return pl.DataFrame(rows, schema={g: LEVEL_TYPES[g] for g in groups}, orient="row")


def member(seat: dict[str, pl.Expr], groups: Sequence[str], level: Sequence) -> pl.Expr:
    """Whether a seat (its expressions) belongs to the group level (values of ``groups``)."""
    test = pl.lit(True)
    for g, v in zip(groups, level):
        test = test & (seat[g] == v)
    return test


def member_of_row(seat: dict[str, pl.Expr], groups: Sequence[str]) -> pl.Expr:
    """Whether a seat belongs to the group held in the frame's ``groups`` columns."""
    test = pl.lit(True)
    for g in groups:
        test = test & (seat[g] == pl.col(g))
    return test


Value = str | Callable[[dict], pl.Expr]


def _value(value: Value, seat: dict) -> pl.Expr:
    return (seat[value] if isinstance(value, str) else value(seat)).cast(pl.Float64)


def seat_sums(groups: Sequence[str], levels: pl.DataFrame, values: dict[str, Value], seats=SEATS) -> list[pl.Expr]:
    """Per hand and group level, the sum of each value over the level's seats: columns ``{name}@{level}``.

    A value None sums 1 per seat (the level's row count in the hand).
    """
    out = []
    for index, level in enumerate(levels.iter_rows()):
        inside = [member(seat, groups, level) for seat in seats]
        for name, value in values.items():
            parts = [
                m.cast(pl.Float64) if value is None else pl.when(m).then(_value(value, seat)).otherwise(0.0)
                for m, seat in zip(inside, seats)
            ]
            out.append(pl.sum_horizontal(parts).alias(f"{name}@{index}"))
    return out


def moments_by_level(per_hand: pl.LazyFrame, levels: pl.DataFrame, specs: dict) -> pl.LazyFrame:
    """Aggregate per-hand columns ``a:{metric}@{level}``, ``b:{metric}@{level}`` into ratio moments."""
    aggs = [
        x
        for index in range(levels.height)
        for m in specs
        for x in moment_aggs(f"a:{m}@{index}", f"b:{m}@{index}", f"{m}@{index}__")
    ]
    return per_hand.select(aggs)


def long_moments(wide: pl.DataFrame, groups: Sequence[str], levels: pl.DataFrame, specs: dict) -> pl.DataFrame:
    """Long rows ``groups, metric, kind, A..N`` from :func:`moments_by_level`'s one wide row."""
    row = wide.row(0, named=True)
    records = []
    for index, level in enumerate(levels.iter_rows()):
        for m, (_, _, kind) in specs.items():
            prefix = f"{m}@{index}__"
            records.append({
                **dict(zip(groups, level)), "metric": m, "kind": kind,
                **{x: row[prefix + x] for x in MOMENTS},
            })  # fmt: skip
    schema = {**{g: LEVEL_TYPES[g] for g in groups}, "metric": pl.String, "kind": pl.String,
              "A": pl.Float64, "B": pl.Float64, "Saa": pl.Float64, "Sab": pl.Float64, "Sbb": pl.Float64,
              "N": pl.Int64}  # fmt: skip
    return pl.DataFrame(records, schema=schema)


def ratio_specs_sums(specs: dict) -> dict[str, Value]:
    """The per-seat values behind ratio specs: ``a:{metric}`` numerators, ``b:{metric}`` denominators."""
    values = {}
    for m, (num, den, _) in specs.items():
        values[f"a:{m}"] = num
        values[f"b:{m}"] = den
    return values


def seat_moments(
    lf, groups: Sequence[str], specs: dict, levels: pl.DataFrame | None = None, cluster: str | None = None
) -> pl.DataFrame:
    """Long ratio moments (``groups, metric, kind, A B Saa Sab Sbb N``) of seat-level ratio ``specs``.

    ``specs``: ``metric: (numerator, denominator, kind)`` with per-seat values
    (a :func:`seat_exprs` key or a function of the seat's expressions;
    denominator None: the row count), clustered by hand — or, with
    ``cluster="seed"``, by wall: rows of runs that played the same walls
    (seatings, variants on one seed) are one correlated unit.
    """
    groups = list(groups)
    levels = group_levels(lf, groups) if levels is None else levels
    sums = seat_sums(groups, levels, ratio_specs_sums(specs))
    if cluster is None:
        per_hand = with_seat_columns(lf).select(sums)
    else:
        per_hand = with_seat_columns(lf).select(cluster, *sums).group_by(cluster).agg(pl.exclude(cluster).sum())
    wide = moments_by_level(per_hand, levels, specs).collect()
    return long_moments(wide, groups, levels, specs)


def seat_values(lf, groups: Sequence[str], value: str) -> pl.LazyFrame:
    """Only the ``groups`` columns and one value of :func:`seat_rows` (four light selects, no explode)."""
    hands = with_seat_columns(lf)
    return pl.concat(
        [hands.select(*[SEATS[s][g].alias(g) for g in groups], SEATS[s][value].alias(value)) for s in range(4)]
    )


# -- distributions from value histograms ---------------------------------------------------------------


def histogram_stats(freq: pl.LazyFrame, groups: Sequence[str], value: str, quantiles: Sequence[float],
                    prefix: str = "") -> pl.LazyFrame:  # fmt: skip
    """Per group, from a histogram (``groups, value, _c`` = count): ``_rows``, ``sd`` (ddof 1),
    ``skewness`` (m3 / m2^1.5), quantiles (linear interpolation, as numpy's default), ``min``, ``max``."""
    groups = list(groups)
    v = pl.col(value).cast(pl.Float64)
    c = pl.col("_c").cast(pl.Float64)
    freq = freq.with_columns(pl.col("_c").cum_sum().over(groups, order_by=value).alias("_cum"))
    n = c.sum()
    centre = (c * v).sum() / n
    m2 = (c * (v - centre) ** 2).sum() / n
    m3 = (c * (v - centre) ** 3).sum() / n

    def quantile(q: float) -> pl.Expr:
        position = (n - 1) * q
        low = position.floor()
        below = v.filter(pl.col("_cum") > low).min()
        above = v.filter(pl.col("_cum") > low + 1).min().fill_null(below)
        return below + (position - low) * (above - below)

    return freq.group_by(groups).agg(
        n.cast(pl.Int64).alias("_rows"),
        (m2 * n / (n - 1)).sqrt().alias(f"{prefix}sd"),
        (m3 / m2**1.5).alias(f"{prefix}skewness"),
        *[quantile(q).alias(f"{prefix}{qname(q)}") for q in quantiles],
        v.min().alias(f"{prefix}min"),
        v.max().alias(f"{prefix}max"),
    )


# -- seat table ------------------------------------------------------------------------------------

SEAT_METRICS = (
    "hands", "win_rate", "self_draw_share", "deal_in_rate", "draw_rate", "mean_fan",
    "mean_net", "sd_net", *(qname(q) for q in QUANTILES), "skewness",
    *(f"mean_{c}" for c in COMPONENTS),
)  # fmt: skip

# row-level means: metric -> (seat value, kind); the paired comparisons use the same values
ROW_MEANS = {
    "win_rate": ("won", "rate"),
    "deal_in_rate": ("dealt_in", "rate"),
    "draw_rate": ("drawn", "rate"),
    "mean_net": ("net", "mean"),
    **{f"mean_{c}": (c, "mean") for c in COMPONENTS},
}
SEAT_SPECS = {
    **{m: (value, None, kind) for m, (value, kind) in ROW_MEANS.items()},
    "self_draw_share": ("self_drawn", "won", "rate"),
    "mean_fan": ("fan", "won", "mean"),
}


def seat_table(lf, by="seat", cluster: str | None = None, metrics: Sequence[str] = SEAT_METRICS) -> pl.DataFrame:
    """Per group of seats: rates, mean and distribution of net per hand.

    ``by``: "seat" (absolute), "role" (dealer / non-dealer), "policy" (the
    seat's policy spec), "offset" (seats after the dealer, 0-3), or a list of
    them.  Rows are (hand, seat) pairs (:func:`seat_rows`) in the group.

    Columns: the ``by`` column(s), metric, estimate, se, ci_low, ci_high, n.
    Metrics: ``hands`` (distinct hands with a row in the group; n = rows),
    ``win_rate``, ``self_draw_share`` (of the group's wins; n = wins),
    ``deal_in_rate``, ``draw_rate`` (rates per row, Wilson interval),
    ``mean_fan`` (per win), ``mean_net`` (points per hand, normal interval),
    ``sd_net`` (ddof 1), quantiles ``q01 q05 q50 q95 q99`` of net (linear
    interpolation), ``skewness`` (m3 / m2^1.5, population moments), and
    ``mean_net_win`` ... ``mean_net_penalty`` (the parts of ``mean_net``).
    Groups with no row (a policy never in a seat) are left out.  ``cluster="seed"`` clusters the standard
    errors by wall instead of by hand (tables pooling runs on the same walls).  ``metrics``: only these
    (of ``SEAT_METRICS``), computed alone (the end-of-run summary asks for six).
    """
    groups = check_by(by)
    unknown = [m for m in metrics if m not in SEAT_METRICS]
    if unknown:
        raise ValueError(f"unknown seat metric {unknown[0]!r}: choose from {', '.join(SEAT_METRICS)}")
    lf = lazy(lf)
    specs = {m: spec for m, spec in SEAT_SPECS.items() if m in metrics or m == "mean_net"}  # mean_net: the rows
    moments = seat_moments(lf, groups, specs, cluster=cluster)
    moments = moments.join(moments.filter((pl.col("metric") == "mean_net") & (pl.col("B") > 0)).select(groups),
                           on=groups, how="semi")  # fmt: skip
    long = finish(moments).filter(pl.col("metric").is_in(list(metrics)))
    rows = moments.filter(pl.col("metric") == "mean_net").select(
        *groups, pl.col("N").alias("hands"), pl.col("B").alias("_rows")
    )
    plain = [value_rows(rows, groups, ["hands"], n="_rows")] if "hands" in metrics else []
    quantiles = [q for q in QUANTILES if qname(q) in metrics]
    shape_metrics = [m for m in ("sd_net", *(qname(q) for q in quantiles), "skewness") if m in metrics]
    if shape_metrics:
        freq = seat_values(lf, groups, "net").group_by(*groups, "net").agg(pl.len().alias("_c"))
        shape = histogram_stats(freq, groups, "net", quantiles).rename({"sd": "sd_net"}).collect()
        plain.append(value_rows(shape, groups, shape_metrics, n="_rows"))
    return order_long(pl.concat([long, *plain], how="vertical_relaxed"), groups, SEAT_METRICS)


# -- patterns and fan ------------------------------------------------------------------------------


def _win_items(lf, groups: list[str], item: str) -> pl.LazyFrame:
    """One row per win and item (a pattern id, each once per win; or the win's fan), with the
    winner's group columns, ``_k`` (the hand's wins) and ``_bh`` (seats of the winner's group in the
    hand; 1 when ungrouped)."""
    column = "patterns" if item == "pattern" else "fan"
    wins = (
        lazy(lf)
        .select(
            *HAND,
            "dealer",
            "policies",
            pl.col("winners").alias("_seat"),
            pl.col("winners").list.len().alias("_k"),
            column,
        )  # fmt: skip
        .explode("_seat", column)
        .filter(pl.col("_seat").is_not_null())
    )
    offset = ((pl.col("_seat").cast(pl.Int16) - pl.col("dealer").cast(pl.Int16) + 4) % 4).cast(pl.Int8)
    values = {
        "seat": pl.col("_seat").cast(pl.Int8), "offset": offset, "role": _role(offset),
        "policy": pl.col("policies").arr.get(pl.col("_seat").cast(pl.Int64)),
    }  # fmt: skip
    wins = wins.with_columns(*[values[g].alias(g) for g in groups])
    if groups:
        same_group = [member_of_row(s, groups).cast(pl.Int64) for s in SEATS]
        wins = wins.with_columns(pl.sum_horizontal(same_group).alias("_bh"))
    else:
        wins = wins.with_columns(pl.lit(1, pl.Int64).alias("_bh"))
    if item == "pattern":
        wins = wins.with_columns(pl.col("patterns").list.unique()).explode("patterns").rename({"patterns": "pattern"})
    return wins.filter(pl.col(item).is_not_null()).select(*HAND, *groups, item, "_k", "_bh")


def _item_moments(lf, groups: list[str], item: str, per_hand: bool) -> pl.DataFrame:
    """Ratio moments per group and item: per win, or per (hand, seat) row (per hand when ungrouped).

    Hands with one win are their own cluster with ``a = 1`` per item of the
    win; the rarer hands with several wins are summed per hand first.
    """
    keys = groups or [ALL]
    items = _win_items(lf, groups, item)
    if not groups:
        items = items.with_columns(pl.lit(0, pl.Int8).alias(ALL))
    count = pl.len().cast(pl.Float64)
    single = items.filter(pl.col("_k") == 1).group_by(*keys, item).agg(
        count.alias("A"), count.alias("Saa"),
        (pl.col("_bh").cast(pl.Float64).sum() if per_hand else count).alias("Sab"),  # b = 1 per win
    )  # fmt: skip
    multi = items.filter(pl.col("_k") > 1)
    per_cluster = multi.group_by(*HAND, *keys, item).agg(pl.len().alias("_a"), pl.col("_bh").first())
    if per_hand:
        a = pl.min_horizontal(pl.col("_a"), pl.col("_bh")).cast(pl.Float64)
        b = pl.col("_bh").cast(pl.Float64)
        several = per_cluster.select(*keys, item, a.alias("_a"), b.alias("_b"))
    else:
        # the group's wins in the hand (one "fan" item per win)
        group_wins = _win_items(lf, groups, "fan")
        if not groups:
            group_wins = group_wins.with_columns(pl.lit(0, pl.Int8).alias(ALL))
        group_wins = group_wins.filter(pl.col("_k") > 1).group_by(*HAND, *keys).agg(pl.len().alias("_b"))
        several = per_cluster.join(group_wins, on=[*HAND, *keys], how="left").select(
            *keys, item, pl.col("_a").cast(pl.Float64), pl.col("_b").cast(pl.Float64)
        )
    several = several.group_by(*keys, item).agg(
        pl.col("_a").sum().alias("A"), (pl.col("_a") ** 2).sum().alias("Saa"),
        (pl.col("_a") * pl.col("_b")).sum().alias("Sab"),
    )  # fmt: skip
    nums = pl.concat([single, several]).group_by(*keys, item).agg(pl.col("A", "Saa", "Sab").sum())
    # denominators per group level, from the hand frame
    levels = group_levels(lf, groups)
    if groups:
        den_value = None if per_hand else "won"
        den = seat_moments(lf, groups, {"_": (den_value, den_value, "rate")}, levels)
    else:
        ones = lazy(lf).select(pl.len().cast(pl.Float64).alias("B"))
        if per_hand:
            hands = ones.collect().item()
            den = pl.DataFrame({ALL: [0], "B": [hands], "Sbb": [hands], "N": [int(hands)]},
                               schema={ALL: pl.Int8, "B": pl.Float64, "Sbb": pl.Float64, "N": pl.Int64})  # fmt: skip
        else:
            k = pl.col("winners").list.len().cast(pl.Float64)
            den = lazy(lf).select(
                pl.lit(0, pl.Int8).alias(ALL), k.sum().alias("B"), (k * k).sum().alias("Sbb"),
                (k > 0).sum().cast(pl.Int64).alias("N"),
            ).collect()  # fmt: skip
    den = den.select(*keys, "B", "Sbb", "N")
    nums = nums.collect()
    universe = nums.select(item).unique()
    return (
        den.join(universe, how="cross")
        .join(nums, on=[*keys, item], how="left")
        .with_columns(pl.col("A", "Saa", "Sab").fill_null(0.0))
        .filter(pl.col("B") > 0)
        .select(*keys, item, *MOMENTS)
    )


def pattern_table(lf, by=None) -> pl.DataFrame:
    """How often each pattern (and bonus) id is in a winning hand, per hand and per win.

    ``by``: None, or "seat" / "role" / "policy" / "offset" of the winner.
    Columns: the ``by`` column(s), pattern, metric, count, estimate, se,
    ci_low, ci_high, n.  Metrics: ``per_win`` — share of wins holding the
    pattern (n = wins); ``per_hand`` — without ``by``, share of hands in
    which some winner held it (n = hands), with ``by``, share of the group's
    (hand, seat) rows in which that seat won holding it (n = rows).  Rates,
    Wilson intervals, clustered by hand.  ``count`` is the numerator.  Every
    pattern seen anywhere gets a row in every group (zero where unseen).
    """
    groups = check_by(by, none_ok=True)
    keys = groups or [ALL]
    lf = lazy(lf)
    parts = [
        _item_moments(lf, groups, "pattern", per_hand=True).with_columns(pl.lit("per_hand").alias("metric")),
        _item_moments(lf, groups, "pattern", per_hand=False).with_columns(pl.lit("per_win").alias("metric")),
    ]
    moments = pl.concat(parts, how="vertical_relaxed").with_columns(pl.col("A").round(0).cast(pl.Int64).alias("count"))
    table = finish(moments, kind="rate")
    order = table.filter(pl.col("metric") == "per_win").group_by("pattern").agg(pl.col("count").sum().alias("_total"))
    table = (
        table.join(order, on="pattern", how="left")
        .sort([*keys, "_total", "pattern", "metric"], descending=[*[False] * len(keys), True, False, False])
        .select(*keys, "pattern", "metric", "count", *LONG_COLUMNS[1:])
    )
    return table.drop(ALL) if not groups else table


def fan_table(lf, by=None) -> pl.DataFrame:
    """The distribution of fan (per win, after bonuses and cap; units in 推倒胡).

    ``by``: None, or "seat" / "role" / "policy" / "offset" of the winner.
    Columns: the ``by`` column(s), fan, metric ("share"), count (wins with
    that fan), estimate (their share of the group's wins), se, ci_low,
    ci_high (Wilson, clustered by hand), n (the group's wins), cum_share
    (share of wins with at most that fan).  Every fan value seen anywhere
    gets a row in every group with wins.
    """
    groups = check_by(by, none_ok=True)
    keys = groups or [ALL]
    moments = _item_moments(lazy(lf), groups, "fan", per_hand=False).with_columns(
        pl.col("A").round(0).cast(pl.Int64).alias("count"), pl.lit("share").alias("metric")
    )
    table = finish(moments, kind="rate").sort(*keys, "fan")
    table = table.with_columns(
        (pl.col("count").cum_sum().over(keys) / pl.col("n").cast(pl.Float64)).alias("cum_share")
    ).select(*keys, "fan", "metric", "count", *LONG_COLUMNS[1:], "cum_share")
    return table.drop(ALL) if not groups else table
