"""Where the money of special rules goes: 包 liabilities and horses 买马 (tidy long tables).

Statistics as in :mod:`mjsim.analysis.stats` (cluster-robust by hand,
Wilson intervals for rates, normal intervals for means).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from mjsim.analysis.metrics import (
    DEALER,
    LEVEL_TYPES,
    NON_DEALER,
    SEATS,
    check_by,
    group_levels,
    member,
    moment_aggs,
    seat_moments,
    seat_sums,
    with_seat_columns,
)
from mjsim.analysis.stats import LONG_COLUMNS, MOMENTS, Z95, finish, lazy, percentile_interval

# the win kind of the win a liable seat paid for -> the rule (JPH-S2..S5, TDH-S1/S2)
TRIGGERS = {
    "all": "all",
    "kong_replacement": "包杠",  # 杠上开花包杠, JPH-S2 / TDH-S2
    "robbed_kong": "抢杠",  # the robbed player pays, JPH-S3 / TDH-S1
    "self_draw": "包自摸",  # twelve tiles / limit hands, JPH-S4 / JPH-S5
}
LIABILITY_METRICS = ("firings", "rate", "share_of_firings", "paid_total", "paid_per_hand", "paid_mean")


def _group_values(lf, by: str) -> list[str]:
    if by == "role":
        return [DEALER, NON_DEALER]
    if by in ("offset", "seat"):
        return ["0", "1", "2", "3"]
    policies = lazy(lf).select(pl.col("policies").explode().unique()).collect().to_series()
    return sorted(policies.to_list())


def liability_table(lf, by="role") -> pl.DataFrame:
    """How often a 包 liability fires, what it moves, and who pays.

    A hand *fires* when ``liable`` is not null.  Its trigger is the kind of
    the first win that was not on a discard: ``kong_replacement`` (包杠),
    ``robbed_kong`` (抢杠) or ``self_draw`` (包自摸).  A kong-replacement win
    whose liable seat is not the one whose discard made the kong
    (``kong_from_discard``) was paid under 包自摸 and counts as ``self_draw``;
    logs without that column count every kong-replacement liability as 包杠.
    ``paid`` is what the liable seat paid for the other payers:
    ``-net_liability[liable]`` (its own share is win money).

    ``by``: "role", "offset", "seat" or "policy" of the liable seat, or None.
    Columns: trigger ("all" or the win kind), rule ("all", 包杠, 抢杠, 包自摸),
    ``liable_<by>`` (String: the group, or "all"), metric, estimate, se,
    ci_low, ci_high, n.  Metrics:

    - ``firings``: number of firing hands (n = hands);
    - ``rate``: share of hands in which it fires with the liable seat in the
      group (n = hands; Wilson);
    - ``share_of_firings``: share of the trigger's firings whose liable seat
      is in the group (n = firings; Wilson) — "from whom";
    - ``paid_total``: points paid (se = hands × se of ``paid_per_hand``);
    - ``paid_per_hand``: points paid per hand (n = hands);
    - ``paid_mean``: points paid per firing (n = firings).
    """
    groups = check_by(by, allowed=("role", "offset", "seat", "policy"), none_ok=True)
    if len(groups) > 1:
        raise ValueError("liability_table takes one grouping (or None)")
    group = groups[0] if groups else None
    hands = lazy(lf)
    offset = ((pl.col("liable").cast(pl.Int16) - pl.col("dealer").cast(pl.Int16) + 4) % 4).cast(pl.Int8)
    value = {
        None: pl.lit("all"),
        "role": pl.when(offset == 0).then(pl.lit(DEALER)).otherwise(pl.lit(NON_DEALER)),
        "offset": offset.cast(pl.String),
        "seat": pl.col("liable").cast(pl.String),
        "policy": pl.col("policies").arr.get(pl.col("liable").cast(pl.Int64), null_on_oob=True),
    }[group]
    first = pl.col("win_kind").list.eval(pl.element() != "discard").list.arg_max()
    trigger = pl.col("win_kind").list.get(first, null_on_oob=True)
    if "kong_from_discard" in hands.collect_schema().names():
        # 杠上开花 paid by the player whose discard made the kong is 包杠; by anyone else it is 包自摸
        fed = pl.col("kong_from_discard").list.get(first, null_on_oob=True)
        trigger = (
            pl.when((trigger == "kong_replacement") & (fed.fill_null(-1) != pl.col("liable")))
            .then(pl.lit("self_draw")).otherwise(trigger)
        )  # fmt: skip
    fired = hands.filter(pl.col("liable").is_not_null()).select(
        trigger.alias("trigger"),
        value.alias("group"),
        (-pl.col("net_liability").arr.get(pl.col("liable").cast(pl.Int64))).cast(pl.Float64).alias("paid"),
    )
    # every firing counts in its (trigger, group) cell and in the "all" margins (once each)
    variants = [fired, fired.with_columns(pl.lit("all").alias("trigger"))]
    if group is not None:
        variants += [fired.with_columns(pl.lit("all").alias("group")),
                     fired.with_columns(pl.lit("all").alias("trigger"), pl.lit("all").alias("group"))]  # fmt: skip
    keys = ["trigger", "group"]
    # one firing per hand: each (cell, hand) pair is a cluster with a = 1 (or the points paid)
    sums, total = pl.collect_all(
        [
            pl.concat(variants).group_by(keys).agg(
                pl.len().cast(pl.Float64).alias("_f"), pl.col("paid").sum().alias("_p"),
                (pl.col("paid") ** 2).sum().alias("_pp"),
            ),
            hands.select(pl.len().cast(pl.Float64).alias("_hands")),
        ]
    )  # fmt: skip
    hands_n = total.item()
    levels = ["all"] if group is None else ["all", *_group_values(lf, group)]
    universe = pl.DataFrame(
        {"trigger": [t for t in TRIGGERS for _ in levels], "group": [g for _ in TRIGGERS for g in levels]}
    )
    cells = universe.join(sums, on=keys, how="left").with_columns(pl.col("_f", "_p", "_pp").fill_null(0.0))
    cells = cells.join(
        cells.filter(pl.col("group") == "all").select("trigger", pl.col("_f").alias("_ft")), on="trigger"
    )
    f, p, pp, ft = pl.col("_f"), pl.col("_p"), pl.col("_pp"), pl.col("_ft")
    everything = pl.lit(hands_n)
    parts = {  # metric: (A, Saa, Sab, B (= Sbb = N: one cluster per hand or per firing), kind)
        "rate": (f, f, f, everything, "rate"),
        "share_of_firings": (f, f, f, ft, "rate"),
        "paid_per_hand": (p, pp, p, everything, "mean"),
        "paid_mean": (p, pp, p, f, "mean"),
    }
    long = []
    for metric, (a, saa, sab, b, kind) in parts.items():
        moments = cells.select(
            *keys, a.alias("A"), saa.alias("Saa"), sab.alias("Sab"), b.alias("B"), b.alias("Sbb"),
            b.cast(pl.Int64).alias("N"), pl.lit(metric).alias("metric"),
        )  # fmt: skip
        long.append(finish(moments, kind=kind).select(*keys, *LONG_COLUMNS))
    table = pl.concat(long)
    per_hand = table.filter(pl.col("metric") == "rate").select(
        *keys, pl.col("n").alias("_hands"), (pl.col("estimate") * pl.col("n")).round(0).alias("_count")
    )
    spend = table.filter(pl.col("metric") == "paid_per_hand").join(per_hand, on=keys)
    extra = [
        per_hand.select(
            *keys, pl.lit("firings").alias("metric"), pl.col("_count").alias("estimate"),
            pl.lit(None, pl.Float64).alias("se"), pl.lit(None, pl.Float64).alias("ci_low"),
            pl.lit(None, pl.Float64).alias("ci_high"), pl.col("_hands").alias("n"),
        ),
        spend.select(
            *keys, pl.lit("paid_total").alias("metric"), (pl.col("estimate") * pl.col("_hands")).alias("estimate"),
            (pl.col("se") * pl.col("_hands")).alias("se"), (pl.col("ci_low") * pl.col("_hands")).alias("ci_low"),
            (pl.col("ci_high") * pl.col("_hands")).alias("ci_high"), pl.col("_hands").alias("n"),
        ),
    ]  # fmt: skip
    table = pl.concat([table, *extra], how="vertical_relaxed")
    certain = (pl.col("metric") == "share_of_firings") & (pl.col("group") == "all") & pl.col("estimate").is_not_null()
    table = table.with_columns(  # the "all" group holds every firing by construction
        *[pl.when(certain).then(pl.lit(1.0)).otherwise(pl.col(c)).alias(c) for c in ("ci_low", "ci_high")]
    )
    t_rank = {t: i for i, t in enumerate(TRIGGERS)}
    g_rank = {g: i for i, g in enumerate(levels)}
    m_rank = {m: i for i, m in enumerate(LIABILITY_METRICS)}
    table = (
        table.with_columns(
            pl.col("trigger").replace_strict(t_rank).alias("_t"),
            pl.col("group").replace_strict(g_rank).alias("_g"),
            pl.col("metric").replace_strict(m_rank).alias("_m"),
            pl.col("trigger").replace_strict(TRIGGERS).alias("rule"),
        )
        .sort("_t", "_g", "_m")
        .select("trigger", "rule", pl.col("group").alias(f"liable_{group}"), *LONG_COLUMNS)
    )
    return table.drop("liable_None") if group is None else table


# -- horses ------------------------------------------------------------------------------------------

HORSE_METRICS = (
    "mean_net_horse", "horse_paid_rate", "var_net", "var_net_horse", "var_net_ex_horse",
    "horse_variance_share", "horses_per_hand", "hit_rate", "winner_horse_hit_rate",
)  # fmt: skip


_RAW = {
    "n": None,
    "x": "net",
    "xx": lambda s: s["net"].cast(pl.Float64) ** 2,
    "h": "net_horse",
    "hh": lambda s: s["net_horse"].cast(pl.Float64) ** 2,
    "r": lambda s: s["net"] - s["net_horse"],
    "rr": lambda s: (s["net"] - s["net_horse"]).cast(pl.Float64) ** 2,
}
_VARIANCES = ("var_net", "var_net_horse", "var_net_ex_horse", "horse_variance_share")


def _variance_moments(lf: pl.LazyFrame, groups: list[str], levels: pl.DataFrame) -> list[dict]:
    """Per group level: the population variances of net, net_horse and net - net_horse, and the
    ΣU² of each figure's influence values summed per hand (delta method, two passes)."""
    lf = with_seat_columns(lf)
    raw = lf.select(seat_sums(groups, levels, _RAW)).select(pl.all().sum()).collect().row(0, named=True)
    stats = []
    for index in range(levels.height):
        n = raw[f"n@{index}"]
        if n == 0:
            stats.append({"n": 0})
            continue
        m = {k: raw[f"{k}@{index}"] / n for k in ("x", "xx", "h", "hh", "r", "rr")}
        stats.append({
            "n": n, "mx": m["x"], "mh": m["h"], "mr": m["r"],
            "vx": max(m["xx"] - m["x"] ** 2, 0.0), "vh": max(m["hh"] - m["h"] ** 2, 0.0),
            "vr": max(m["rr"] - m["r"] ** 2, 0.0),
        })  # fmt: skip
    columns = []
    for index, (level, st) in enumerate(zip(levels.iter_rows(), stats)):
        if not st["n"]:
            continue
        inside = [member(seat, groups, level) for seat in SEATS]
        for name in _VARIANCES:
            parts = []
            for m_s, seat in zip(inside, SEATS):
                x = seat["net"].cast(pl.Float64)
                h = seat["net_horse"].cast(pl.Float64)
                dx2, dh2, dr2 = (x - st["mx"]) ** 2, (h - st["mh"]) ** 2, (x - h - st["mr"]) ** 2
                influence = {
                    "var_net": dx2 - st["vx"],
                    "var_net_horse": dh2 - st["vh"],
                    "var_net_ex_horse": dr2 - st["vr"],
                    "horse_variance_share": (
                        -(dr2 - st["vr"]) / st["vx"] + st["vr"] * (dx2 - st["vx"]) / st["vx"] ** 2
                        if st["vx"] > 0
                        else pl.lit(0.0)
                    ),
                }[name]
                parts.append(pl.when(m_s).then(influence).otherwise(0.0))
            columns.append((pl.sum_horizontal(parts) ** 2).sum().alias(f"{name}@{index}"))
        clusters = pl.sum_horizontal([m.cast(pl.Int64) for m in inside]) > 0
        columns.append(clusters.sum().alias(f"C@{index}"))
    sums = lf.select(columns).collect().row(0, named=True) if columns else {}
    for index, st in enumerate(stats):
        if st["n"]:
            st["C"] = sums[f"C@{index}"]
            st.update({f"S_{name}": sums[f"{name}@{index}"] for name in _VARIANCES})
    return stats


def _variance_rows(groups: list[str], levels: pl.DataFrame, stats: list[dict]) -> pl.DataFrame:
    records = []
    for level, st in zip(levels.iter_rows(), stats):
        n = st["n"]
        if not n:
            continue
        ddof = n / (n - 1) if n > 1 else math.nan
        estimates = {
            "var_net": st["vx"] * ddof, "var_net_horse": st["vh"] * ddof, "var_net_ex_horse": st["vr"] * ddof,
            "horse_variance_share": 1 - st["vr"] / st["vx"] if st["vx"] > 0 else None,
        }  # fmt: skip
        c = st["C"]
        for name, estimate in estimates.items():
            scale = 1.0 if name == "horse_variance_share" else ddof
            se = math.sqrt(c / (c - 1) * st[f"S_{name}"]) / n * scale if c > 1 and estimate is not None else None
            records.append({
                **dict(zip(groups, level)), "metric": name, "estimate": estimate, "se": se,
                "ci_low": None if se is None else estimate - Z95 * se,
                "ci_high": None if se is None else estimate + Z95 * se, "n": int(n),
            })  # fmt: skip
    schema = {**{g: LEVEL_TYPES[g] for g in groups}, "metric": pl.String, "estimate": pl.Float64, "se": pl.Float64,
              "ci_low": pl.Float64, "ci_high": pl.Float64, "n": pl.Int64}  # fmt: skip
    return pl.DataFrame(records, schema=schema)


def _bootstrap_share(lf: pl.LazyFrame, groups: list[str], levels: pl.DataFrame, replicates: int,
                     seed: int) -> pl.DataFrame:  # fmt: skip
    """Cluster (hand) bootstrap of the horse variance share: se and 95% percentile interval per group."""
    raw = {k: v for k, v in _RAW.items() if k in ("n", "x", "xx", "r", "rr")}
    per_hand = with_seat_columns(lf).select(seat_sums(groups, levels, raw)).collect()
    rng = np.random.default_rng(seed)
    out = []
    for index, level in enumerate(levels.iter_rows()):
        cols = {k: per_hand[f"{k}@{index}"].to_numpy() for k in raw}
        keep = cols["n"] > 0
        cols = {k: v[keep] for k, v in cols.items()}
        size = int(keep.sum())
        if size < 2:
            continue
        reps = np.empty(replicates)
        for i in range(replicates):
            w = np.bincount(rng.integers(0, size, size), minlength=size)
            k = w @ cols["n"]
            vx = w @ cols["xx"] / k - (w @ cols["x"] / k) ** 2
            vr = w @ cols["rr"] / k - (w @ cols["r"] / k) ** 2
            reps[i] = 1 - vr / vx if vx > 0 else math.nan
        se, low, high = percentile_interval(reps)
        out.append({**dict(zip(groups, level)), "se": se, "ci_low": low, "ci_high": high})
    schema = {**{g: LEVEL_TYPES[g] for g in groups}, "se": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}
    return pl.DataFrame(out, schema=schema)


def horse_table(lf, by="role", bootstrap: int = 0, seed: int = 0) -> pl.DataFrame:
    """Horses 买马: their money per group of seats, their share of the variance, their hit rates.

    ``by``: "role", "offset", "seat" or "policy".  Columns: ``by`` (String;
    "all" for the hand-level metrics), metric, estimate, se, ci_low, ci_high, n.

    Per group (rows are (hand, seat) pairs):

    - ``mean_net_horse``: mean horse money per hand (normal interval);
    - ``horse_paid_rate``: share of rows with a horse payment (Wilson);
    - ``var_net``, ``var_net_horse``, ``var_net_ex_horse``: variances (ddof 1)
      of net, of net_horse and of net - net_horse, delta-method se;
    - ``horse_variance_share``: ``1 - var(net - net_horse) / var(net)``, the
      share of the net's variance the horse component explains (negative if
      horses dampen it); delta-method interval, or with ``bootstrap`` = B > 0
      a hand-cluster bootstrap (B replicates, numpy ``seed``): se = sd of the
      replicates, interval = their 2.5% and 97.5% percentiles.

    Hand level (group "all"):

    - ``horses_per_hand``: mean number of horse tiles per hand;
    - ``hit_rate``: share of horses, on hands someone won, that point at a
      winner's seat (dealer horses TDH-M3: the horses that win the dealer
      money; winner horses TDH-M5: the hits); n = those horses; Wilson;
    - ``winner_horse_hit_rate``: ``Σ horse_hits / Σ horses`` on won hands,
      the logged TDH-M5 hit count (0 where horses are the dealer's).
    """
    groups = check_by(by, allowed=("role", "offset", "seat", "policy"))
    if len(groups) > 1:
        raise ValueError("horse_table takes one grouping")
    column = groups[0]
    lf = with_seat_columns(lf)
    levels = group_levels(lf, groups)
    specs = {
        "mean_net_horse": ("net_horse", None, "mean"),
        "horse_paid_rate": (lambda s: s["net_horse"] != 0, None, "rate"),
    }
    means = finish(seat_moments(lf, groups, specs, levels))
    variances = _variance_rows(groups, levels, _variance_moments(lf, groups, levels))
    # hand level: one hand, one cluster
    won = pl.col("winners").list.len() > 0
    horses = pl.col("horses").list.len().cast(pl.Float64)
    hits = pl.sum_horizontal(
        [seat["won"].cast(pl.Float64) * pl.col("horse_seats").list.eval(pl.element() == s).list.sum() for s, seat in
         enumerate(SEATS)]
    )  # fmt: skip
    hand_specs = {
        "horses_per_hand": (horses, pl.lit(1.0), "mean"),
        "hit_rate": (pl.when(won).then(hits).otherwise(0.0), pl.when(won).then(horses).otherwise(0.0), "rate"),
        "winner_horse_hit_rate": (
            pl.when(won).then(pl.col("horse_hits").cast(pl.Float64)).otherwise(0.0),
            pl.when(won).then(horses).otherwise(0.0), "rate",
        ),
    }  # fmt: skip
    per_hand = lf.select(
        *[e.cast(pl.Float64).alias(f"a:{m}@0") for m, (e, _, _) in hand_specs.items()],
        *[d.cast(pl.Float64).alias(f"b:{m}@0") for m, (_, d, _) in hand_specs.items()],
    )
    aggs = [x for m in hand_specs for x in moment_aggs(f"a:{m}@0", f"b:{m}@0", f"{m}@0__")]
    row = per_hand.select(aggs).collect().row(0, named=True)
    hand_level = finish(
        pl.DataFrame(
            [{"metric": m, "kind": kind, **{x: row[f"{m}@0__{x}"] for x in MOMENTS}}
             for m, (_, _, kind) in hand_specs.items()],
            schema={"metric": pl.String, "kind": pl.String, **{x: pl.Float64 for x in MOMENTS[:-1]}, "N": pl.Int64},
        )
    ).with_columns(pl.lit("all").alias(column))  # fmt: skip
    as_text = pl.col(column).cast(pl.String)
    table = pl.concat(
        [
            means.with_columns(as_text).select(column, *LONG_COLUMNS),
            variances.with_columns(as_text).select(column, *LONG_COLUMNS),
            hand_level.select(column, *LONG_COLUMNS),
        ],
        how="vertical_relaxed",
    )
    if bootstrap:
        boot = _bootstrap_share(lf, groups, levels, bootstrap, seed).with_columns(as_text)
        is_share = pl.col("metric") == "horse_variance_share"
        table = (
            table.join(boot, on=column, how="left", suffix="_boot")
            .with_columns(
                *[
                    pl.when(is_share).then(pl.col(f"{c}_boot")).otherwise(pl.col(c)).alias(c)
                    for c in ("se", "ci_low", "ci_high")
                ]  # fmt: skip
            )
            .select(column, *LONG_COLUMNS)
        )
    rank = {m: i for i, m in enumerate(HORSE_METRICS)}
    order = {str(v): i for i, v in enumerate(levels[column].to_list())} | {"all": levels.height}
    return (
        table.with_columns(pl.col("metric").replace_strict(rank).alias("_m"), as_text.replace_strict(order).alias("_g"))
        .sort("_g", "_m")
        .drop("_m", "_g")
    )
