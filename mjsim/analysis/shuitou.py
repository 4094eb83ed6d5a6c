"""Pingyang 水头 (shuitou) figures: the dealer's edge, what 财神 and flowers are worth, 分牌, money shares.

Every table is tidy and long (``metric, estimate, se, ci_low, ci_high, n``,
see :mod:`mjsim.analysis.stats`), split by ``by``: "run_id", "ruleset",
"ruleset_hash" or a list of them (default ``("run_id", "ruleset")``: one
block of rows per run), or None to pool every hand.  Standard errors are
clustered by ``cluster``: "session" (default, ``run_id, session``: in 水头 the
dealer keeps the deal while winning, SHT-P8, so the hands of a session are
not independent) or "hand" (``run_id, hand_id``).

Only 水头 logs are accepted: a hand whose 水头 columns (``base_tai``,
``flowers``, ...) are null, or a log written before they existed, is refused
with a one-line error.

Definitions:

- the *money moved* by a net column in a hand is the sum of its positive
  entries (what its receivers got, :func:`mjsim.analysis.xuezhan.moved`);
  the *gross transfers* add it up over every component of net: ``net_win``
  (SHT-M1), ``net_base`` (the non-winners' pairwise base-台 settlement,
  SHT-M2), ``net_liability`` (包牌, SHT-M3) and the others (``net_kong``,
  ``net_horse``, ``net_penalty``: zero in every 水头 ruleset);
- a seat's *财神 held* are the copies of the hand's wild kinds (``wilds``)
  in its concealed tiles as the hand ended (``end_hands``; a winner's include
  the winning tile; 财神 are never melded, SHT-P4);
- a seat's *flowers* are those it set aside (``flowers``, SHT-P2); its
  *flower groups* are how many of the three groups — red 1f-4f, black 5f-8f,
  白板 5z (SHT-P1) — it holds at least one of;
- a hand *reaches 分牌* when 分牌 tiles were dealt (``split_tiles`` not
  empty, SHT-P7) and is *decided by 分牌* when it was won on one
  (``split_win``).

Values by 财神 or flowers held are associations over seat-hands, not causal
effects: a seat that ends with 财神 also wins more often (that is part of what
they are worth), and the 财神 a seat ends with depend on how it played.
Flowers are drawn at random and replaced from the wall, so their value is
close to what dealing a seat one more flower does.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from mjsim.analysis.metrics import check_by
from mjsim.analysis.stats import (
    ALL,
    HAND,
    LONG_COLUMNS,
    SESSION,
    Z95,
    finish,
    lazy,
    moment_aggs,
    order_long,
    wide_to_moments,
)  # fmt: skip
from mjsim.analysis.xuezhan import moved

RUN = ("run_id", "ruleset")
BY = ("run_id", "ruleset", "ruleset_hash")
CLUSTERS = {"session": SESSION, "hand": HAND}
SHUITOU_COLUMNS = ("base_tai", "flowers", "end_hands", "split_tiles", "split_win", "net_base")
# the components of net, in the order the tables show them; "other" pools kong, horse and penalty (zero in 水头)
PARTS = {"win": ("net_win",), "base": ("net_base",), "liability": ("net_liability",),
         "other": ("net_kong", "net_horse", "net_penalty")}  # fmt: skip
EDGE_PARTS = {"net": ("net",), "win": ("net_win",), "base": ("net_base",), "liability": ("net_liability",)}
FLOWER_GROUPS = {"red": "1f-4f", "black": "5f-8f", "white": "5z"}


# -- input checks and grouping ----------------------------------------------------------------------


def _keys(by) -> list[str]:
    return check_by(by, allowed=BY, none_ok=True)


def _cluster(cluster) -> tuple[str, ...]:
    if cluster not in CLUSTERS:
        raise ValueError(f"cluster must be 'session' or 'hand', got {cluster!r}")
    return CLUSTERS[cluster]


def shuitou_hands(lf) -> pl.LazyFrame:
    """The hands as a LazyFrame, refused with a one-line ``ValueError`` unless every hand is a 水头 hand.

    A 水头 hand logs ``base_tai``, ``flowers``, ``end_hands``, ``split_tiles``
    and ``split_win`` (null in the other families' hands); an empty log is refused too.
    """
    frame = lazy(lf)
    names = frame.collect_schema().names()
    missing = [c for c in (*SHUITOU_COLUMNS, "wilds", "session", "net") if c not in names]
    if missing:
        raise ValueError(f"not a 水头 (shuitou) hand log: it has no {', '.join(missing)} column(s)")
    bad = pl.any_horizontal([pl.col(c).is_null() for c in SHUITOU_COLUMNS])
    total, other, rulesets = frame.select(
        pl.len(), bad.sum(), pl.col("ruleset").filter(bad).unique().sort().head(3).implode()
    ).collect().row(0)  # fmt: skip
    if total == 0:
        raise ValueError("no hands: a 水头 (shuitou) table needs at least one hand")
    if other:
        raise ValueError(
            f"not a 水头 (shuitou) hand log: {other:,} of {total:,} hands have no 水头 columns (ruleset "
            f"{', '.join(map(str, rulesets))}); pass only runs of the shuitou family"
        )
    return frame


def _prepare(lf, by, cluster) -> tuple[pl.LazyFrame, list[str], list[str], list[str]]:
    """The checked frame (with the dummy group column when ungrouped), the groups, the group keys and the
    cluster columns that are not already group keys."""
    groups = _keys(by)
    unit = _cluster(cluster)
    frame = shuitou_hands(lf)
    keys = groups or [ALL]
    if not groups:
        frame = frame.with_columns(pl.lit(0, pl.Int8).alias(ALL))
    return frame, groups, keys, [c for c in unit if c not in keys]


def _moments(frame: pl.LazyFrame, keys: list[str], unit: list[str], specs: dict, extra=()) -> pl.DataFrame:
    """Finished long rows of hand-level ``specs`` (``metric: (a, b, kind)`` row expressions), the rows of a
    cluster summed first."""
    columns = [
        *[a.cast(pl.Float64).alias(f"{m}__a") for m, (a, _, _) in specs.items()],
        *[b.cast(pl.Float64).alias(f"{m}__b") for m, (_, b, _) in specs.items()],
    ]
    per_cluster = frame.select(*keys, *unit, *extra, *columns).group_by(*keys, *unit, *extra).agg(pl.all().sum())
    aggs = [x for m in specs for x in moment_aggs(f"{m}__a", f"{m}__b", f"{m}__")]
    wide = per_cluster.group_by(*keys, *extra).agg(aggs).collect()
    return finish(wide_to_moments(wide, [*keys, *extra], specs))


def _done(table: pl.DataFrame, groups: list[str], metrics: Sequence[str], outer: Sequence[str] = ()) -> pl.DataFrame:
    table = order_long(table, [*(groups or [ALL]), *outer], metrics)
    return table.drop(ALL) if not groups else table


def _moved(columns: Sequence[str]) -> pl.Expr:
    return pl.sum_horizontal([moved(c).fill_null(0) for c in columns])


def _gross() -> pl.Expr:
    return _moved([c for part in PARTS.values() for c in part])


# -- the dealer's edge ----------------------------------------------------------------------------

DEALER_METRICS = ("dealer_mean_net", "non_dealer_mean_net", "dealer_edge")


def dealer_edge_table(lf, by=RUN, cluster="session") -> pl.DataFrame:
    """The dealer's mean net per hand, the non-dealers', and the dealer's edge, in total and by component.

    ``dealer_edge`` is the mean over hands of the dealer's net minus the mean
    net of the three others in the same hand (with nets summing to zero, 4/3
    of the dealer's mean).  ``component``: "net" (the whole), "win" (SHT-M1
    win payments), "base" (SHT-M2, the non-winners' base-台 settlement) and
    "liability" (SHT-M3 包牌); the components add up to "net" (水头 has no
    kong, horse or penalty money).  Under ``dealer_pays_double`` (SHT-H4)
    every payment to or from the dealer counts twice: comparing a run with
    it off on the same walls (same seed) measures how much of the edge the
    doubling makes.

    Columns: the ``by`` columns, component, metric, estimate, se, ci_low,
    ci_high, n (hands; seat-hands for the non-dealers).  Normal intervals,
    clustered by ``cluster``.
    """
    frame, groups, keys, unit = _prepare(lf, by, cluster)
    dealer = pl.col("dealer").cast(pl.Int64)
    one, three = pl.lit(1.0), pl.lit(3.0)
    specs = {}
    for part, (column,) in EDGE_PARTS.items():
        nets = [pl.col(column).arr.get(s).cast(pl.Float64) for s in range(4)]
        mine = pl.sum_horizontal([pl.when(dealer == s).then(n).otherwise(0.0) for s, n in enumerate(nets)])
        others = pl.sum_horizontal(nets) - mine
        specs[f"dealer_mean_net@{part}"] = (mine, one, "mean")
        specs[f"non_dealer_mean_net@{part}"] = (others, three, "mean")
        specs[f"dealer_edge@{part}"] = (mine - others / 3, one, "mean")
    table = _split_metric(_moments(frame, keys, unit, specs), "component", list(EDGE_PARTS))
    table = _done(table, groups, DEALER_METRICS, outer=("_rank",))
    return table.select(*groups, "component", *LONG_COLUMNS)


def _split_metric(table: pl.DataFrame, name: str, order: list[str]) -> pl.DataFrame:
    """``metric@part`` into the metric and a ``name`` column; ``_rank`` orders the parts."""
    part = pl.col("metric").str.extract(r"@(\w+)$")
    table = table.with_columns(part.alias(name), pl.col("metric").str.replace(r"@\w+$", ""))
    return table.with_columns(pl.col(name).replace_strict({p: i for i, p in enumerate(order)}).alias("_rank"))


# -- money shares ---------------------------------------------------------------------------------

MONEY_METRICS = ("share", "to_win", "moved_per_hand", "moved_per_won_hand", "fires")


def money_share_table(lf, by=RUN, cluster="session") -> pl.DataFrame:
    """Win money against the non-winners' settlement and 包牌: each component's money and its share.

    Components (the ``component`` column): "win" (``net_win``, SHT-M1),
    "base" (``net_base``, SHT-M2), "liability" (``net_liability``, SHT-M3),
    "other" (kong, horse and penalty money: zero in 水头) and "all" (the
    gross transfers, their sum).  Metrics, each a ratio over the hands
    (normal intervals unless said):

    - ``share``: the component's money over the gross transfers (the four
      components' shares add up to 1; not for "all");
    - ``to_win``: the component's money per unit of win money (1 for "win";
      for "base": how large the non-winner settlement is next to the win);
    - ``moved_per_hand``: money moved per hand; ``moved_per_won_hand``: per
      hand with a winner (a drawn hand settles nothing, SHT-M4);
    - ``fires``: share of the hands with a winner in which the component
      moves money (Wilson).

    Columns: the ``by`` columns, component, metric, estimate, se, ci_low,
    ci_high, n (hands; won hands for ``moved_per_won_hand`` and ``fires``).
    """
    frame, groups, keys, unit = _prepare(lf, by, cluster)
    gross = _gross()
    win = _moved(PARTS["win"])
    won = pl.col("winners").list.len() > 0
    one = pl.lit(1.0)
    specs = {}
    for part, columns in [*PARTS.items(), ("all", None)]:
        money = gross if columns is None else _moved(columns)
        if columns is not None:
            specs[f"share@{part}"] = (money, gross, "mean")
        specs[f"to_win@{part}"] = (money, win, "mean")
        specs[f"moved_per_hand@{part}"] = (money, one, "mean")
        specs[f"moved_per_won_hand@{part}"] = (money, won, "mean")
        specs[f"fires@{part}"] = (won & (money > 0), won, "rate")
    table = _moments(frame, keys, unit, specs)
    hands = table.filter(pl.col("metric") == "moved_per_hand@all").select(*keys, pl.col("n").alias("_hands"))
    ratio = pl.col("metric").str.starts_with("share@") | pl.col("metric").str.starts_with("to_win@")
    # a ratio's n is the hands behind it, not the sum of its denominators
    table = table.join(hands, on=keys).with_columns(pl.when(ratio).then(pl.col("_hands")).otherwise(pl.col("n"))
                                                    .alias("n")).drop("_hands")  # fmt: skip
    table = _split_metric(table, "component", [*PARTS, "all"])
    table = _done(table, groups, MONEY_METRICS, outer=("_rank",))
    return table.select(*groups, "component", *LONG_COLUMNS)


# -- 分牌 ------------------------------------------------------------------------------------------

SPLIT_METRICS = ("reached", "decided", "decided_when_reached", "drawn", "share_of_wins", "money_share",
                 "mean_tai_split_win", "mean_tai_other_win")  # fmt: skip


def split_table(lf, by=RUN, cluster="session") -> pl.DataFrame:
    """How often a hand reaches 分牌 (SHT-P7), how often 分牌 decides it, and what those wins are worth.

    Metrics (rates: Wilson; means: normal intervals):

    - ``reached``: share of hands in which 分牌 tiles were dealt (n = hands);
    - ``decided``: share of hands won on a 分牌 tile (n = hands);
    - ``decided_when_reached``: share of the 分牌 hands won on one (the
      others are drawn; n = 分牌 hands);
    - ``drawn``: share of hands nobody won (n = hands);
    - ``share_of_wins``: share of the wins made on a 分牌 tile (n = wins);
    - ``money_share``: the gross transfers of hands won on a 分牌 tile over
      those of every hand (n = hands);
    - ``mean_tai_split_win`` / ``mean_tai_other_win``: the winner's total 台
      (``fan``, after doubling) of a win on a 分牌 tile / of any other win
      (n = wins).

    Columns: the ``by`` columns, metric, estimate, se, ci_low, ci_high, n.
    """
    frame, groups, keys, unit = _prepare(lf, by, cluster)
    reached = pl.col("split_tiles").list.len() > 0
    decided = pl.col("split_win").fill_null(False)
    won = pl.col("winners").list.len() > 0
    other = won & ~decided
    tai = pl.col("fan").list.first().cast(pl.Float64).fill_null(0.0)
    one = pl.lit(1.0)
    specs = {
        "reached": (reached, one, "rate"),
        "decided": (decided, one, "rate"),
        "decided_when_reached": (decided & reached, reached, "rate"),
        "drawn": (~won, one, "rate"),
        "share_of_wins": (decided, won, "rate"),
        "money_share": (pl.when(decided).then(_gross()).otherwise(0), _gross(), "mean"),
        "mean_tai_split_win": (pl.when(decided).then(tai).otherwise(0.0), decided, "mean"),
        "mean_tai_other_win": (pl.when(other).then(tai).otherwise(0.0), other, "mean"),
    }
    table = _moments(frame, keys, unit, specs)
    hands = table.filter(pl.col("metric") == "drawn").select(*keys, pl.col("n").alias("_hands"))
    table = table.join(hands, on=keys).with_columns(
        pl.when(pl.col("metric") == "money_share").then(pl.col("_hands")).otherwise(pl.col("n")).alias("n")
    ).drop("_hands")  # fmt: skip
    return _done(table, groups, SPLIT_METRICS)


# -- what a 财神 or a flower is worth -----------------------------------------------------------------

VALUE_METRICS = ("share", "win_rate", "mean_base_tai", "mean_net", "mean_net_base", "value")
SLOPES = {"caishen": "net_per_caishen", "flowers": "net_per_flower", "groups": "net_per_group"}


def _count_kind(hand: pl.Expr, kind: pl.Expr) -> pl.Expr:
    """Copies of ``kind`` ("5m", "1z") in a hand in tile notation ("1255m789p11z"); 0 where kind is null."""
    suit, rank = kind.str.slice(1, 1), kind.str.slice(0, 1)
    ranks = pl.coalesce([pl.when(suit == s).then(hand.str.extract(rf"(\d+){s}")) for s in "mpsz"])
    return ranks.str.count_matches(rank, literal=True).fill_null(0).cast(pl.Int32)


def caishen_held(seat: int, kinds: int = 2) -> pl.Expr:
    """The 财神 a seat held as the hand ended: copies of the wild kinds in its ``end_hands`` entry."""
    hand = pl.col("end_hands").arr.get(seat)
    wilds = pl.col("wilds").list.unique(maintain_order=True)
    return pl.sum_horizontal([_count_kind(hand, wilds.list.get(k, null_on_oob=True)) for k in range(kinds)])


def flower_counts(seat: int) -> dict[str, pl.Expr]:
    """A seat's flowers set aside by group: red 1f-4f, black 5f-8f, white 5z (``flowers`` as "13f55z")."""
    text = pl.col("flowers").arr.get(seat)
    f = text.str.extract(r"(\d+)f").fill_null("")
    z = text.str.extract(r"(\d+)z").fill_null("")
    return {
        "red": f.str.count_matches("[1-4]").cast(pl.Int32),
        "black": f.str.count_matches("[5-8]").cast(pl.Int32),
        "white": z.str.len_chars().cast(pl.Int32),
    }


def _seat_rows(frame: pl.LazyFrame, keys: list[str], unit: list[str], level) -> pl.LazyFrame:
    """One row per hand and seat: the group keys, cluster, ``level`` (``level(seat)``) and the seat's figures."""
    won = pl.col("winners").list
    return pl.concat([
        frame.select(
            *keys, *unit, level(s).cast(pl.Int64).alias("level"),
            pl.col("net").arr.get(s).cast(pl.Float64).alias("net"),
            pl.col("net_base").arr.get(s).cast(pl.Float64).alias("net_base"),
            pl.col("base_tai").arr.get(s).cast(pl.Float64).alias("base_tai"),
            won.contains(s).cast(pl.Float64).alias("won"),
        )
        for s in range(4)
    ])  # fmt: skip


def _moment_rows(part: pl.DataFrame, keys: list[str], a: str, b: str) -> pl.DataFrame:
    return part.group_by(keys).agg(moment_aggs(a, b))


def _value_table(lf, by, cluster, level, name: str, top: int | None) -> pl.DataFrame:
    """Seat-hands by ``level`` (an expression per seat): see :func:`caishen_value_table`."""
    if top is not None and (not isinstance(top, int) or isinstance(top, bool) or top < 1):
        raise ValueError(f"top must be a positive whole number or None, got {top!r}")
    frame, groups, keys, unit = _prepare(lf, by, cluster)
    rows = _seat_rows(frame, keys, unit, level)
    if top is not None:
        rows = rows.with_columns(pl.col("level").clip(upper_bound=top))
    cells = rows.group_by(*keys, *unit, "level").agg(
        pl.len().cast(pl.Float64).alias("rows"), *[pl.col(c).sum() for c in ("net", "net_base", "base_tai", "won")],
        (pl.col("level") * pl.col("net")).sum().alias("xy"),
    ).collect()  # fmt: skip
    clusters = cells.group_by(*keys, *unit).agg(
        pl.col("rows").sum().alias("all"), pl.col("net").sum().alias("sy"),
        (pl.col("level") * pl.col("rows")).sum().cast(pl.Float64).alias("sx"),
        (pl.col("level") ** 2 * pl.col("rows")).sum().cast(pl.Float64).alias("sxx"), pl.col("xy").sum().alias("sxy"),
    )  # fmt: skip
    levels = sorted(cells["level"].unique().to_list())
    means = {"win_rate": ("won", "rate"), "mean_base_tai": ("base_tai", "mean"), "mean_net": ("net", "mean"),
             "mean_net_base": ("net_base", "mean")}  # fmt: skip
    moments, wide = [], {}
    for k in levels:
        part = clusters.join(cells.filter(pl.col("level") == k), on=[*keys, *unit], how="left").with_columns(
            pl.col("rows", "net", "net_base", "base_tai", "won").fill_null(0.0))  # fmt: skip
        wide[k] = part
        share = _moment_rows(part, keys, "rows", "all").with_columns(pl.lit("share").alias("metric"),
                                                                      pl.lit("rate").alias("kind"))  # fmt: skip
        moments.append(share.with_columns(pl.lit(k).alias("level")))
        for metric, (value, kind) in means.items():
            m = _moment_rows(part, keys, value, "rows")
            moments.append(m.with_columns(pl.lit(metric).alias("metric"), pl.lit(kind).alias("kind"),
                                          pl.lit(k).alias("level")))  # fmt: skip
    table = finish(pl.concat(moments, how="diagonal_relaxed").filter(pl.col("B") > 0))
    extra = [_difference(wide[k], wide[0], keys, unit, k) for k in levels if k > 0 and 0 in wide]
    extra.append(_slope(clusters, keys, SLOPES[name]))
    table = pl.concat([table, *extra], how="diagonal_relaxed")
    rank = pl.col("level").fill_null(10_000)
    table = table.with_columns(rank.alias("_rank")).sort("_rank", nulls_last=True)
    table = _done(table, groups, VALUE_METRICS, outer=("_rank",))
    return table.select(*groups, pl.col("level").cast(pl.Int64).alias(name), *LONG_COLUMNS)


def _difference(high: pl.DataFrame, low: pl.DataFrame, keys: list[str], unit: list[str], level: int) -> pl.DataFrame:
    """``value``: mean net at ``level`` minus mean net at none, from the same clusters (linearised se)."""
    on = [*keys, *unit]
    both = high.select(*on, pl.col("net").alias("a1"), pl.col("rows").alias("b1")).join(
        low.select(*on, pl.col("net").alias("a0"), pl.col("rows").alias("b0")), on=on)  # fmt: skip
    both = both.filter((pl.col("b1") > 0) | (pl.col("b0") > 0))
    r1 = (pl.col("a1").sum() / pl.col("b1").sum()).over(keys)
    r0 = (pl.col("a0").sum() / pl.col("b0").sum()).over(keys)
    u = (pl.col("a1") - r1 * pl.col("b1")) / pl.col("b1").sum().over(keys) - (
        pl.col("a0") - r0 * pl.col("b0")) / pl.col("b0").sum().over(keys)  # fmt: skip
    out = both.with_columns(u.alias("u"), r1.alias("r1"), r0.alias("r0")).group_by(keys).agg(
        (pl.col("r1").first() - pl.col("r0").first()).alias("estimate"),
        pl.len().alias("N"), (pl.col("u") ** 2).sum().alias("uu"), pl.col("b1").sum().alias("n"),
        ((pl.col("b1") > 0).sum() > 1).alias("ok"), (pl.col("b1").sum() > 0).alias("_any"),
    )  # fmt: skip
    # one cluster at the level: no se (as for a mean of one cluster)
    out = out.filter(pl.col("_any")).with_columns(pl.when(pl.col("ok")).then(pl.col("uu")).alias("uu")).drop("_any")
    return _normal(out, "value", level)


def _slope(clusters: pl.DataFrame, keys: list[str], metric: str) -> pl.DataFrame:
    """Least-squares slope of a seat's net on its count, with the cluster-robust (sandwich) se."""
    g = pl.col
    n = g("all").sum().over(keys)
    xbar, ybar = g("sx").sum().over(keys) / n, g("sy").sum().over(keys) / n
    sxx = g("sxx").sum().over(keys) - n * xbar**2
    beta = (g("sxy").sum().over(keys) - n * xbar * ybar) / sxx
    centred = g("sxy") - xbar * g("sy") - ybar * g("sx") + g("all") * xbar * ybar
    spread = g("sxx") - 2 * xbar * g("sx") + g("all") * xbar**2
    u = (centred - beta * spread) / sxx
    out = clusters.with_columns(beta.alias("beta"), u.alias("u"), sxx.alias("_sxx")).group_by(keys).agg(
        g("beta").first().alias("estimate"), pl.len().alias("N"), (g("u") ** 2).sum().alias("uu"),
        g("all").sum().alias("n"), (g("_sxx").first() > 0).alias("ok"),
    )  # fmt: skip
    out = out.with_columns(pl.when(g("ok")).then(g("estimate")).alias("estimate"))
    return _normal(out, metric, None)


def _normal(out: pl.DataFrame, metric: str, level) -> pl.DataFrame:
    """Long rows with the normal interval from ``uu`` (the sum of squared cluster influences) and ``N``."""
    se = pl.when((pl.col("N") > 1) & pl.col("estimate").is_not_null() & pl.col("uu").is_not_null()).then(
        (pl.col("N") / (pl.col("N") - 1) * pl.col("uu")).sqrt())  # fmt: skip
    out = out.with_columns(se.alias("se"))
    return out.select(
        pl.exclude("N", "uu", "ok", "estimate", "se", "n"),
        pl.lit(metric).alias("metric"), pl.lit(level, pl.Int64).alias("level"), "estimate", "se",
        (pl.col("estimate") - Z95 * pl.col("se")).alias("ci_low"),
        (pl.col("estimate") + Z95 * pl.col("se")).alias("ci_high"),
        pl.col("n").round(0).cast(pl.Int64),
    )  # fmt: skip


def caishen_value_table(lf, by=RUN, cluster="session", top: int | None = None) -> pl.DataFrame:
    """What a 财神 is worth: a seat's figures per hand by the 财神 it held as the hand ended.

    Rows are (hand, seat) pairs; ``caishen`` is the count held (see the
    module docstring; counts above ``top`` count as ``top``, "top or more").
    Metrics per count:

    - ``share``: share of seat-hands ending with that many (Wilson; n = all seat-hands);
    - ``win_rate``: share of them that won (Wilson);
    - ``mean_base_tai``: mean base 台 (SHT-T1; the 财神 count 2 / 5 / 8, honours 3 / 7 / 11);
    - ``mean_net``, ``mean_net_base``: mean net per hand and its SHT-M2 part (points);
    - ``value``: ``mean_net`` minus ``mean_net`` of the seats that held none
      (counts from 1; its se from the two means' joint linearisation over clusters).

    And one row with ``caishen`` null: ``net_per_caishen``, the
    least-squares slope of a seat's net on its count (points per 财神,
    cluster-robust se).  Columns: the ``by`` columns, caishen, metric,
    estimate, se, ci_low, ci_high, n (seat-hands behind the figure).
    Rates get Wilson intervals, the rest normal ones, clustered by ``cluster``.
    """
    return _value_table(lf, by, cluster, caishen_held, "caishen", top)


def flower_value_table(lf, by=RUN, cluster="session", count="flowers", top: int | None = None) -> pl.DataFrame:
    """What a flower is worth: a seat's figures per hand by the flowers it set aside.

    ``count``: "flowers" (how many it set aside) or "groups" (how many of the
    three flower groups, red 1f-4f, black 5f-8f and 白板 5z, it holds any of;
    each group held scores 2 / 3 / 5 / 8 台 for 1 / 2 / 3 / 4 of its tiles, SHT-T1).
    The metrics are those of :func:`caishen_value_table`, the count column
    is named after ``count``, and the slope row is ``net_per_flower`` or
    ``net_per_group``.
    """
    if count == "flowers":
        level = lambda s: pl.sum_horizontal(flower_counts(s).values())  # noqa: E731
    elif count == "groups":
        level = lambda s: pl.sum_horizontal([(c > 0).cast(pl.Int32) for c in flower_counts(s).values()])  # noqa: E731
    else:
        raise ValueError(f"count must be 'flowers' or 'groups', got {count!r}")
    return _value_table(lf, by, cluster, level, count, top)
