"""Sichuan 血战到底 / 血流成河 figures: wins per hand, win order, end-of-wall rules, money shares, dealer edge.

Every table is tidy and long (``metric, estimate, se, ci_low, ci_high, n``,
see :mod:`mjsim.analysis.stats`), clustered by hand (``run_id, hand_id``),
and split by ``by``: "run_id", "ruleset", "ruleset_hash" or a list of them
(default ``("run_id", "ruleset")``: one block of rows per run, so several
scanned runs compare side by side), or None to pool every hand.

Definitions:

- a hand's *wins* are the entries of ``winners`` (in win order; in 血流成河,
  XZ-H7, a seat may repeat); the *k-th win* is entry k (1-based).  A
  multiple win on one discard (一炮多响) is several wins at the same turn, in
  logged order;
- *self-drawn*: ``win_kind`` ``self_draw`` or ``kong_replacement``, as in
  :mod:`mjsim.analysis.metrics`;
- a seat's *win order* is 1 + the number of other seats whose first win came
  before its own first win, 0 when it never won in the hand (血流: a seat's
  first win orders it);
- the *money moved* by a net column in a hand is the sum of its positive
  entries (``Σ|x| / 2``: every column sums to zero over the seats); a seat
  that both pays and receives under one column counts only its balance;
- a rule *fires* in a hand when its column moves money there: 查花猪
  ``net_flower_pig`` (XZ-E1), 查叫 ``net_not_ready`` (XZ-E2), 退税
  ``net_tax_refund`` (XZ-E3) and 呼叫转移 ``net_call_transfer`` (XZ-M4, during
  play).  These columns are null outside the 血战 family; such hands are left
  out of the rule figures (a group with none has no rows).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from mjsim.analysis.metrics import COMPONENTS, SELF_DRAWN, check_by
from mjsim.analysis.stats import (
    ALL,
    HAND,
    LONG_COLUMNS,
    dense_moments,
    finish,
    lazy,
    moment_aggs,
    order_long,
    value_rows,
    wide_to_moments,
)  # fmt: skip

RUN = ("run_id", "ruleset")
BY = ("run_id", "ruleset", "ruleset_hash")
# rule -> (its column, 中文 name, rule id); 呼叫转移 is settled during play, the others at an empty wall
RULES = {
    "flower_pig": ("net_flower_pig", "查花猪", "XZ-E1"),
    "not_ready": ("net_not_ready", "查叫", "XZ-E2"),
    "tax_refund": ("net_tax_refund", "退税", "XZ-E3"),
    "call_transfer": ("net_call_transfer", "呼叫转移", "XZ-M4"),
}
PARTS = {"call_transfer": "kong", "tax_refund": "kong", "flower_pig": "penalty", "not_ready": "penalty"}


def _keys(by) -> list[str]:
    return check_by(by, allowed=BY, none_ok=True)


def _hand_table(lf, groups: list[str], specs: dict, extra: Sequence[str] = ()) -> pl.DataFrame:
    """Long ratio moments, finished, of hand-level ``specs`` (``metric: (a, b, kind)`` row expressions).

    A hand is one row and one cluster, so its ``a`` and ``b`` are row
    expressions and only their sums are aggregated (no group-by on the hand).
    ``extra``: columns of the frame kept as group keys beside ``groups``.
    """
    keys = [*(groups or [ALL]), *extra]
    frame = lazy(lf)
    if not groups:
        frame = frame.with_columns(pl.lit(0, pl.Int8).alias(ALL))
    columns = [
        *[a.cast(pl.Float64).alias(f"{m}__a") for m, (a, _, _) in specs.items()],
        *[b.cast(pl.Float64).alias(f"{m}__b") for m, (_, b, _) in specs.items()],
    ]
    aggs = [x for m in specs for x in moment_aggs(f"{m}__a", f"{m}__b", f"{m}__")]
    wide = frame.select(*keys, *columns).group_by(keys).agg(aggs).collect()
    return finish(wide_to_moments(wide, keys, specs))


def _done(table: pl.DataFrame, groups: list[str], metrics: Sequence[str], outer: Sequence[str] = (),
          inner: Sequence[str] = ()) -> pl.DataFrame:  # fmt: skip
    """Sorted long rows: by group, ``outer`` columns, the metric order, then ``inner`` columns (nulls first)."""
    keys = groups or [ALL]
    if inner:
        table = table.sort(*inner, nulls_last=False)
    table = order_long(table, [*keys, *outer], metrics, extra=inner)
    return table.drop(ALL) if not groups else table


# -- wins per hand ------------------------------------------------------------------------------------


def wins_table(lf, by=RUN) -> pl.DataFrame:
    """Wins per hand: their mean and their distribution.

    Columns: the ``by`` columns, metric, wins (the count for ``p_wins``, else
    null), estimate, se, ci_low, ci_high, n (hands).  Metrics: ``mean_wins``
    (wins per hand, normal interval) and one ``p_wins`` row per count 0, 1,
    ... up to the group's most (at least 3): the share of hands with exactly that
    many wins (Wilson).  In 血战到底 a hand has at most three wins (XZ-P4); in
    血流成河 (XZ-H7) a seat's every win counts.
    """
    groups = _keys(by)
    wins = pl.col("winners").list.len()
    top = max(int(lazy(lf).select(wins.max()).collect().item() or 0), 3)
    specs = {"mean_wins": (wins, pl.lit(1.0), "mean")}
    specs |= {f"p_wins@{k}": (wins == k, pl.lit(1.0), "rate") for k in range(top + 1)}
    table = _hand_table(lf, groups, specs)
    count = pl.col("metric").str.extract(r"@(\d+)$").cast(pl.Int64)
    table = table.with_columns(count.alias("wins"), pl.col("metric").str.replace(r"@\d+$", ""))
    # counts above a group's own most (and above 3) are left out: a 血战 run beside a 血流 one stops at 3
    keys = groups or [ALL]
    most = pl.col("wins").filter(pl.col("estimate") > 0).max().over(keys)
    table = table.filter(pl.col("wins").is_null() | (pl.col("wins") <= pl.max_horizontal(most.fill_null(0), 3)))
    table = _done(table, groups, ["mean_wins", "p_wins"], inner=("wins",))
    return table.select(*groups, "metric", "wins", *LONG_COLUMNS[1:])


def win_order_table(lf, by=RUN) -> pl.DataFrame:
    """Per win order (1st, 2nd, 3rd, ... win of a hand): how often it happens, when, and how.

    Columns: the ``by`` columns, win_order (Int8, from 1), metric, estimate,
    se, ci_low, ci_high, n.  Metrics: ``reached`` (share of hands with at
    least that many wins; n = hands; Wilson), ``mean_win_turn`` (mean
    ``win_turn``, the discard count at the win; n = wins; normal interval) and
    ``self_draw_share`` (share of those wins self-drawn; n = wins; Wilson).
    A hand holds at most one k-th win, so hands are the clusters here too.
    """
    groups = _keys(by)
    frame = lazy(lf)
    top = int(frame.select(pl.col("winners").list.len().max()).collect().item() or 0)
    wins = pl.col("winners").list.len()
    specs = {}
    for k in range(1, top + 1):
        has = wins >= k
        turn = pl.col("win_turn").list.get(k - 1, null_on_oob=True)
        kind = pl.col("win_kind").list.get(k - 1, null_on_oob=True)
        specs[f"reached@{k}"] = (has, pl.lit(1.0), "rate")
        specs[f"mean_win_turn@{k}"] = (pl.when(has).then(turn).otherwise(0), has, "mean")
        specs[f"self_draw_share@{k}"] = ((has & kind.is_in(SELF_DRAWN)).fill_null(False), has, "rate")
    if not specs:
        empty = {g: pl.String for g in groups} | {"win_order": pl.Int8, "metric": pl.String}
        return pl.DataFrame(schema=empty | {c: pl.Float64 for c in LONG_COLUMNS[1:-1]} | {"n": pl.Int64})
    table = _hand_table(frame, groups, specs)
    order = pl.col("metric").str.extract(r"@(\d+)$").cast(pl.Int8)
    table = table.with_columns(order.alias("win_order"), pl.col("metric").str.replace(r"@\d+$", ""))
    keys = [*(groups or [ALL]), "win_order"]
    seen = table.filter((pl.col("metric") == "self_draw_share") & (pl.col("n") > 0)).select(keys)
    table = table.join(seen, on=keys, how="semi")  # orders the group never reached have no rows
    return _done(table, groups, ["reached", "mean_win_turn", "self_draw_share"], outer=("win_order",))


# -- end-of-wall rules and 呼叫转移 ----------------------------------------------------------------


def moved(column: str) -> pl.Expr:
    """The money a net column moves in a hand: the sum of its positive entries (null where it is null)."""
    return pl.col(column).arr.eval(pl.element().clip(lower_bound=0)).arr.sum()


RULE_METRICS = ("firings", "rate", "moved_per_hand", "moved_per_firing")


def rule_table(lf, by=RUN) -> pl.DataFrame:
    """How often 查花猪, 查叫, 退税 (at an empty wall, XZ-E1..E3) and 呼叫转移 (in play, XZ-M4) fire, and what they move.

    Columns: the ``by`` columns, rule (flower_pig, not_ready, tax_refund,
    call_transfer), name (中文), rule_id, metric, estimate, se, ci_low,
    ci_high, n.  Metrics, over the hands that log the rule's column (血战
    hands):

    - ``firings``: hands in which it moved money (n = hands);
    - ``rate``: their share of hands (n = hands; Wilson);
    - ``moved_per_hand``: money it moved per hand, firing or not (n = hands);
    - ``moved_per_firing``: money it moved per firing hand (n = firings).

    Money moved is the sum of the positive entries of the rule's column
    (what the receivers got, see the module docstring).
    """
    groups = _keys(by)
    specs = {}
    for rule, (column, _, _) in RULES.items():
        logged = pl.col(column).is_not_null()
        money = moved(column).fill_null(0)
        fired = logged & (money > 0)
        specs[f"rate@{rule}"] = (fired, logged, "rate")
        specs[f"moved_per_hand@{rule}"] = (money, logged, "mean")
        specs[f"moved_per_firing@{rule}"] = (money, fired, "mean")
    table = _hand_table(lf, groups, specs)
    table = table.with_columns(
        pl.col("metric").str.extract(r"@(\w+)$").alias("rule"), pl.col("metric").str.replace(r"@\w+$", "")
    )
    keys = [*(groups or [ALL]), "rule"]
    logged = table.filter((pl.col("metric") == "rate") & (pl.col("n") > 0))
    table = table.join(logged.select(keys), on=keys, how="semi")  # no 血战 hand, no row
    counts = logged.with_columns((pl.col("estimate") * pl.col("n")).round(0).alias("_firings"))
    table = pl.concat([table, value_rows(counts, keys, ["_firings"], n="n").with_columns(
        pl.lit("firings").alias("metric"))], how="diagonal_relaxed")  # fmt: skip
    rank = {r: i for i, r in enumerate(RULES)}
    table = table.with_columns(
        pl.col("rule").replace_strict({r: v[1] for r, v in RULES.items()}).alias("name"),
        pl.col("rule").replace_strict({r: v[2] for r, v in RULES.items()}).alias("rule_id"),
        pl.col("rule").replace_strict(rank).alias("_rule"),
    )
    table = _done(table, groups, RULE_METRICS, outer=("_rule",))
    return table.select(*groups, "rule", "name", "rule_id", *LONG_COLUMNS)


# -- money shares ---------------------------------------------------------------------------------


def money_share_table(lf, by=RUN) -> pl.DataFrame:
    """Each component's share of the money moved: kong income against win payments and penalties.

    The *gross transfers* of a hand are the money moved (sum of positive
    entries) by each component of net — ``net_win``, ``net_kong``,
    ``net_horse``, ``net_liability``, ``net_penalty`` — added up; they exceed
    the money moved by ``net`` itself wherever a seat's components offset
    (a winner who paid for a kong).  A component's ``share`` is the money it
    moved over the gross transfers, summed over the hands (a ratio, clustered
    by hand; normal interval): the five shares add up to 1.  The 血战 parts
    (呼叫转移 and 退税 inside ``net_kong``, 查花猪 and 查叫 inside
    ``net_penalty``) get the money their own column moved over the same gross
    transfers, over the hands that log them; parts netted inside one seat's
    component need not add up to the component's share.

    Columns: the ``by`` columns, component (win, kong, horse, liability,
    penalty, then call_transfer, tax_refund, flower_pig, not_ready, and "all"
    for the gross transfers), part_of ("kong" / "penalty" for the parts, else
    null), metric, estimate, se, ci_low, ci_high, n (hands).  Metrics:
    ``share`` (not for "all") and ``moved_per_hand`` (mean money moved per
    hand, normal interval).
    """
    groups = _keys(by)
    parts = [c.removeprefix("net_") for c in COMPONENTS]
    gross = pl.sum_horizontal([moved(c) for c in COMPONENTS])
    one = pl.lit(1.0)
    specs = {"moved_per_hand@all": (gross, one, "mean")}
    for part in parts:
        specs[f"share@{part}"] = (moved(f"net_{part}"), gross, "mean")
        specs[f"moved_per_hand@{part}"] = (moved(f"net_{part}"), one, "mean")
    for rule, (column, _, _) in RULES.items():
        logged = pl.col(column).is_not_null()
        specs[f"share@{rule}"] = (moved(column).fill_null(0), pl.when(logged).then(gross).otherwise(0), "mean")
        specs[f"moved_per_hand@{rule}"] = (moved(column).fill_null(0), logged, "mean")
    table = _hand_table(lf, groups, specs)
    table = table.with_columns(
        pl.col("metric").str.extract(r"@(\w+)$").alias("component"), pl.col("metric").str.replace(r"@\w+$", "")
    )
    keys = [*(groups or [ALL]), "component"]
    logged = table.filter((pl.col("metric") == "moved_per_hand") & (pl.col("n") > 0))
    table = table.join(logged.select(keys), on=keys, how="semi")
    # a share's n is the hands behind it, not the sum of their gross transfers
    table = table.drop("n").join(logged.select(*keys, "n"), on=keys)
    rank = {c: i for i, c in enumerate([*parts, *RULES, "all"])}
    table = table.with_columns(
        pl.col("component").replace_strict(PARTS, default=None).alias("part_of"),
        pl.col("component").replace_strict(rank).alias("_c"),
    )
    table = _done(table, groups, ["share", "moved_per_hand"], outer=("_c",))
    return table.select(*groups, "component", "part_of", *LONG_COLUMNS)


# -- net by win order -----------------------------------------------------------------------------

ORDER_METRICS = ("mean_net", "mean_net_win", "mean_net_kong", "mean_net_penalty")


def _first_win(seat: int) -> pl.Expr:
    """Position of the seat's first win in ``winners`` (a large number when it did not win)."""
    won = pl.col("winners").list.contains(seat)
    position = pl.col("winners").list.eval(pl.element() == seat).list.arg_max()
    return pl.when(won).then(position).otherwise(1_000).cast(pl.Int32)


def win_orders() -> list[pl.Expr]:
    """Per absolute seat, its win order in the hand (1 = first to win, ...; 0 = never won), as expressions
    on the hand frame.  In 血流成河 (XZ-H7) a seat's repeat wins do not move it."""
    first = [_first_win(s) for s in range(4)]
    out = []
    for s in range(4):
        earlier = pl.sum_horizontal([(first[t] < first[s]).cast(pl.Int8) for t in range(4) if t != s])
        out.append(pl.when(first[s] < 1_000).then(earlier + 1).otherwise(0).cast(pl.Int8))
    return out


def net_by_win_order(lf, by=RUN) -> pl.DataFrame:
    """Mean net per hand of the first, second, third (fourth) seat to win, and of the seats that never won.

    Rows are (hand, seat) pairs; a seat's order is its first win's (see
    :func:`win_orders`).  Columns: the ``by`` columns, win_order (Int8: 1, 2,
    ..., 0 = never won), metric, estimate, se, ci_low, ci_high, n (seat-hands
    in the class).  Metrics: ``mean_net`` and its parts ``mean_net_win``,
    ``mean_net_kong``, ``mean_net_penalty`` (normal intervals, clustered by
    hand: the never-won seats of one hand are one cluster).  The means
    weighted by n add up to the total net, 0.
    """
    groups = _keys(by)
    keys = groups or [ALL]
    frame = lazy(lf)
    if not groups:
        frame = frame.with_columns(pl.lit(0, pl.Int8).alias(ALL))
    orders = win_orders()
    values = ("net", "net_win", "net_kong", "net_penalty")
    seats = pl.concat([
        frame.select(*dict.fromkeys([*keys, *HAND]), orders[s].alias("win_order"),
                     *[pl.col(v).arr.get(s).cast(pl.Float64).alias(v) for v in values])
        for s in range(4)
    ])  # fmt: skip
    specs = {f"mean_{v}": (pl.col(v), None, "mean") for v in values}
    cluster = [c for c in HAND if c not in keys]  # run_id as a group already splits the clusters by run
    wide = dense_moments(seats, [*keys, "win_order"], cluster, specs).collect()
    table = finish(wide_to_moments(wide, [*keys, "win_order"], specs))
    rank = pl.when(pl.col("win_order") == 0).then(100).otherwise(pl.col("win_order"))
    table = table.with_columns(rank.alias("_o")).filter(pl.col("n") > 0)
    table = _done(table, groups, ORDER_METRICS, outer=("_o",))
    return table.select(*groups, "win_order", *LONG_COLUMNS)


# -- the dealer's edge ----------------------------------------------------------------------------

DEALER_METRICS = ("dealer_mean_net", "non_dealer_mean_net", "dealer_edge")


def dealer_edge_table(lf, by=RUN) -> pl.DataFrame:
    """The dealer's mean net per hand, the non-dealers', and the difference (the dealer's edge).

    ``dealer_mean_net`` and ``non_dealer_mean_net`` are :func:`mjsim.analysis.metrics.seat_table`'s
    ``mean_net`` by role (rows in the role, clustered by hand); ``dealer_edge``
    is the mean over hands of the dealer's net minus the non-dealers' mean net
    in the same hand, a paired difference (with nets summing to zero it is
    4/3 of the dealer's mean).  Columns: the ``by`` columns, metric, estimate,
    se, ci_low, ci_high, n (hands; seat-hands for the non-dealers).  Normal
    intervals, clustered by hand.
    """
    groups = _keys(by)
    nets = [pl.col("net").arr.get(s).cast(pl.Float64) for s in range(4)]
    dealer = pl.col("dealer").cast(pl.Int64)
    mine = pl.sum_horizontal([pl.when(dealer == s).then(n).otherwise(0.0) for s, n in enumerate(nets)])
    others = pl.sum_horizontal(nets) - mine
    one = pl.lit(1.0)
    specs = {
        "dealer_mean_net": (mine, one, "mean"),
        "non_dealer_mean_net": (others, pl.lit(3.0), "mean"),
        "dealer_edge": (mine - others / 3, one, "mean"),
    }
    return _done(_hand_table(lf, groups, specs), groups, DEALER_METRICS)
