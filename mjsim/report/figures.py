"""Figures of the report, each drawn from one computed table.

Every function takes a table (pandas or polars DataFrame, columns as
documented, usually built by :mod:`mjsim.report.tables`) and returns a
:class:`matplotlib.figure.Figure`.  Figures are made without ``pyplot`` (no
global state, no GUI backend; PNG output goes through Agg), and every title
states the interval drawn and the number of hands behind it.  Tables hold one
or more runs, told apart by their ``run`` column, in order of appearance.

Figure text stays ASCII: the default fonts have no CJK glyphs.
"""

from __future__ import annotations

import base64
import io
import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

ROLE_COLOURS = {"dealer": "#c0392b", "non-dealer": "#2c7fb8"}
PALETTE = ("#2c7fb8", "#d95f02", "#1b9e77", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d")
OFFSET_NAMES = {"0": "dealer", "1": "dealer+1", "2": "dealer+2", "3": "dealer+3"}


def to_pandas(table) -> pd.DataFrame:
    """A pandas copy of ``table`` (pandas or polars)."""
    if isinstance(table, pd.DataFrame):
        return table.copy()
    if hasattr(table, "to_pandas"):
        return table.to_pandas()
    return pd.DataFrame(table)


def runs_of(table: pd.DataFrame) -> list[str]:
    """Run labels in order of first appearance."""
    return list(dict.fromkeys(table["run"].astype(str)))


def hands_of(table: pd.DataFrame, run: str) -> int:
    return int(table.loc[table["run"].astype(str) == run, "hands"].iloc[0])


def hands_text(table: pd.DataFrame) -> str:
    """'4,000 hands' (one run), '4,000 hands per run' (equal runs) or 'a: 4,000 hands; b: 2,000 hands'."""
    runs = runs_of(table)
    counts = [hands_of(table, run) for run in runs]
    if len(runs) == 1:
        return f"{counts[0]:,} hands"
    if len(set(counts)) == 1:
        return f"{counts[0]:,} hands per run ({len(runs)} runs)"
    return "; ".join(f"{run}: {n:,} hands" for run, n in zip(runs, counts, strict=True))


def wrap(text: str, width: int = 60) -> str:
    """``text`` broken into lines of at most ``width`` characters (existing line breaks kept)."""
    return "\n".join(textwrap.fill(line, width) for line in text.split("\n"))


def suptitle(fig: Figure, text: str, table: pd.DataFrame) -> None:
    """The figure title: what is drawn and its interval, then the hand counts on a second line."""
    width = int(fig.get_figwidth() * 13)
    fig.suptitle(wrap(f"{text}\n{hands_text(table)}", width), fontsize=10.5)


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _figure(width: float, height: float) -> Figure:
    return Figure(figsize=(width, height), layout="constrained")


def _errors(values, lo, hi) -> np.ndarray:
    values, lo, hi = (np.asarray(x, dtype=float) for x in (values, lo, hi))
    return np.nan_to_num(np.vstack([values - lo, hi - values]).clip(min=0))


def png_bytes(fig: Figure, dpi: int = 100) -> bytes:
    """The figure as PNG (rendered with Agg)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def png_data_uri(fig: Figure, dpi: int = 100) -> str:
    """The figure as a ``data:image/png;base64,...`` URI for an ``<img>`` tag."""
    return "data:image/png;base64," + base64.b64encode(png_bytes(fig, dpi)).decode("ascii")


# --------------------------------------------------------------------------- payouts


def payout_figure(table, clip: float = 0.005) -> Figure:
    """Distribution of one seat's net per hand, by role: probability mass and ECDF.

    ``table``: run, role, net, count (seat-hands with that net), hands.  One row
    of two axes per run: the probability of each net (bars) and its empirical
    CDF.  The bar chart's x axis shows the central ``1 - 2·clip`` of the
    pooled distribution; the title gives the full range.
    """
    t = to_pandas(table)
    runs = runs_of(t)
    fig = _figure(11, 3.2 * len(runs) + 0.6)
    axes = fig.subplots(len(runs), 2, squeeze=False)
    for row, run in enumerate(runs):
        part = t[t["run"].astype(str) == run]
        roles = list(dict.fromkeys(part["role"]))
        width = 0.8 / max(len(roles), 1)
        pooled = part.groupby("net")["count"].sum().sort_index()
        cdf = pooled.cumsum() / pooled.sum()
        lo = pooled.index[np.searchsorted(cdf.to_numpy(), clip)]
        hi = pooled.index[min(np.searchsorted(cdf.to_numpy(), 1 - clip), len(pooled) - 1)]
        for i, role in enumerate(roles):
            r = part[part["role"] == role].sort_values("net")
            n = int(r["count"].sum())
            mass = r["count"] / n
            c = ROLE_COLOURS.get(role, colour(i))
            axes[row, 0].bar(r["net"] + (i - (len(roles) - 1) / 2) * width, mass, width=width, color=c,
                             label=f"{role} ({n:,} seat-hands)")  # fmt: skip
            axes[row, 1].step(r["net"], r["count"].cumsum() / n, where="post", color=c, label=role)
        axes[row, 0].set_xlim(lo - 1, hi + 1)
        axes[row, 0].set_title(
            wrap(f"{run} ({hands_of(t, run):,} hands): P(net); full range {part['net'].min():+d} to "
                 f"{part['net'].max():+d}", 70), fontsize=9)  # fmt: skip
        axes[row, 0].set_xlabel("net of one seat in one hand")
        axes[row, 0].set_ylabel("probability")
        axes[row, 0].legend(fontsize=8)
        axes[row, 1].set_title(wrap(f"{run}: empirical CDF of net", 70), fontsize=9)
        axes[row, 1].set_xlabel("net of one seat in one hand")
        axes[row, 1].set_ylabel("P(net <= x)")
        axes[row, 1].axvline(0, color="grey", lw=0.5)
        axes[row, 1].legend(fontsize=8)
    suptitle(fig, "Payout per hand by role (empirical distribution, no interval)", t)
    return fig


# --------------------------------------------------------------------------- session fan chart


def fan_chart_figure(table) -> Figure:
    """Cumulative net of a seat over its session: median and quantile bands by hands played.

    ``table``: run, hand (hands played, from 1), paths (seat-sessions), q05,
    q25, q50, q75, q95, hands; optionally ``group`` (e.g. the policy).  With
    one group per run the 5-95% and 25-75% bands and the median are drawn;
    with several, each group's 25-75% band and median.  One axes per run,
    sharing the y axis.
    """
    t = to_pandas(table)
    runs = runs_of(t)
    if "group" not in t:
        t["group"] = "all seats"
    fig = _figure(max(5.0, 4.2 * len(runs)), 4.2)
    axes = fig.subplots(1, len(runs), squeeze=False, sharey=True)[0]
    several = False
    for ax, run in zip(axes, runs, strict=True):
        part = t[t["run"].astype(str) == run]
        groups = list(dict.fromkeys(part["group"]))
        several |= len(groups) > 1
        for i, group in enumerate(groups):
            g = part[part["group"] == group].sort_values("hand")
            x = np.concatenate([[0], g["hand"].to_numpy()])

            def col(name, g=g):
                return np.concatenate([[0.0], g[name].to_numpy(dtype=float)])

            c = colour(i)
            if len(groups) == 1:
                ax.fill_between(x, col("q05"), col("q95"), color=c, alpha=0.15, lw=0, label="5-95% of paths")
                ax.fill_between(x, col("q25"), col("q75"), color=c, alpha=0.35, lw=0, label="25-75% of paths")
                ax.plot(x, col("q50"), color=c, lw=2, label="median")
            else:
                ax.fill_between(x, col("q25"), col("q75"), color=c, alpha=0.18, lw=0)
                ax.plot(x, col("q50"), color=c, lw=2, label=wrap(f"median, {group}", 40))
        paths = int(part["paths"].max())
        ax.axhline(0, color="grey", lw=0.5)
        ax.set_title(wrap(f"{run}: {hands_of(t, run):,} hands, {paths:,} seat-sessions", 50), fontsize=9)
        ax.set_xlabel("hands played in the session")
        ax.legend(fontsize=7 if len(groups) > 1 else 8, loc="upper left", framealpha=0.6)
    axes[0].set_ylabel("cumulative net of one seat")
    what = ("median and 25-75% band of seat paths per group" if several
            else "median and 50% / 90% bands of seat paths")  # fmt: skip
    suptitle(fig, f"Cumulative net over a session: {what} (empirical quantiles)", t)
    return fig


# --------------------------------------------------------------------------- patterns


def pattern_figure(table, top: int = 14) -> Figure:
    """Share of wins with each pattern, with its 95% interval, runs side by side.

    ``table``: run, pattern, count, wins, rate, lo, hi, hands.  The ``top``
    patterns by their largest rate in any run are shown, most frequent on top.
    Bar lengths are ``rate``; whiskers ``lo``..``hi``.
    """
    t = to_pandas(table)
    runs = runs_of(t)
    order = t.groupby("pattern")["rate"].max().sort_values(ascending=False).index[:top].tolist()
    fig = _figure(9, 0.9 + 0.22 * max(len(order), 1) * max(len(runs), 1) + 0.6)
    ax = fig.subplots()
    height = 0.8 / max(len(runs), 1)
    y = np.arange(len(order))[::-1]
    for i, run in enumerate(runs):
        part = t[t["run"].astype(str) == run].set_index("pattern").reindex(order)
        present = part["rate"].notna().to_numpy()
        ys = y[present] + ((len(runs) - 1) / 2 - i) * height
        p = part[present]
        wins = int(t.loc[t["run"].astype(str) == run, "wins"].iloc[0])
        label = wrap(f"{run} ({hands_of(t, run):,} hands, {wins:,} wins)", 50)
        ax.barh(ys, p["rate"], height=height, color=colour(i), xerr=_errors(p["rate"], p["lo"], p["hi"]),
                error_kw={"lw": 0.8, "capsize": 2}, label=label)  # fmt: skip
        for yy, hi, count in zip(ys, p["hi"], p["count"], strict=True):
            ax.annotate(f"{int(count):,}", (hi, yy), xytext=(3, 0), textcoords="offset points", va="center", fontsize=6)
    ax.set_yticks(y, order, fontsize=8)
    ax.set_xlabel("share of wins with the pattern")
    ax.legend(fontsize=8, loc="lower right")
    suptitle(fig, "Pattern frequency per win (Wilson 95% interval)", t)
    return fig


# --------------------------------------------------------------------------- components of net


def component_figure(table) -> Figure:
    """Mean net per hand and its components (win, kong, horse, liability, penalty), by role, with 95% CI.

    ``table``: run, role, component, mean, lo, hi, hands; optionally
    ``present`` (False: the component is zero in every hand of the run, and
    is left out; the axes title names it).  One axes per run.
    """
    t = to_pandas(table)
    runs = runs_of(t)
    if "present" not in t:
        t["present"] = True
    fig = _figure(max(5.0, 4.6 * len(runs)), 4.0)
    axes = fig.subplots(1, len(runs), squeeze=False)[0]
    for ax, run in zip(axes, runs, strict=True):
        part = t[t["run"].astype(str) == run]
        components = list(dict.fromkeys(part["component"]))
        shown = [c for c in components if part.loc[part["component"] == c, "present"].any()]
        absent = [c for c in components if c not in shown]
        roles = list(dict.fromkeys(part["role"]))
        width = 0.8 / max(len(roles), 1)
        x = np.arange(len(shown))
        for i, role in enumerate(roles):
            r = part[part["role"] == role].set_index("component").reindex(shown)
            ax.bar(x + (i - (len(roles) - 1) / 2) * width, r["mean"], width=width,
                   color=ROLE_COLOURS.get(role, colour(i)), yerr=_errors(r["mean"], r["lo"], r["hi"]),
                   error_kw={"lw": 0.8, "capsize": 3}, label=role)  # fmt: skip
        ax.axhline(0, color="grey", lw=0.5)
        ax.set_xticks(x, shown)
        note = f"\n(none: {', '.join(absent)})" if absent else ""
        ax.set_title(wrap(f"{run} ({hands_of(t, run):,} hands){note}", 55), fontsize=9)
        ax.legend(fontsize=8)
    axes[0].set_ylabel("mean per seat per hand")
    suptitle(fig, "Net per hand and its components by role (mean, 95% CI over hands)", t)
    return fig


# --------------------------------------------------------------------------- seat and dealer effects


def seat_effects_figure(table, value: str = "mean_net") -> Figure:
    """Mean net (or another ``value``) by seat offset from the dealer and by absolute seat, with 95% CI.

    ``table`` (a seat table): run, by ("offset", "seat", ...), group,
    ``value``, ``value_lo``, ``value_hi``, hands.  One axes per ``by`` value,
    runs as side-by-side bars.
    """
    t = to_pandas(table)
    t["group"] = t["group"].astype(str)
    runs = runs_of(t)
    bys = list(dict.fromkeys(t["by"]))
    fig = _figure(max(5.0, 4.8 * len(bys)), 4.0)
    axes = fig.subplots(1, len(bys), squeeze=False)[0]
    width = 0.8 / max(len(runs), 1)
    for ax, by in zip(axes, bys, strict=True):
        part = t[t["by"] == by]
        groups = list(dict.fromkeys(part["group"]))
        x = np.arange(len(groups))
        for i, run in enumerate(runs):
            r = part[part["run"].astype(str) == run].set_index("group").reindex(groups)
            ax.bar(x + (i - (len(runs) - 1) / 2) * width, r[value], width=width, color=colour(i),
                   yerr=_errors(r[value], r[f"{value}_lo"], r[f"{value}_hi"]), error_kw={"lw": 0.8, "capsize": 3},
                   label=run)  # fmt: skip
        labels = [OFFSET_NAMES.get(g, g) for g in groups] if by == "offset" else groups
        ax.set_xticks(x, labels)
        ax.axhline(0, color="grey", lw=0.5)
        ax.set_xlabel({"offset": "seat relative to the dealer", "seat": "absolute seat"}.get(by, by))
        ax.set_title(f"by {by}", fontsize=9)
        if len(runs) > 1:
            ax.legend(fontsize=8)
    axes[0].set_ylabel(value.replace("_", " "))
    suptitle(fig, f"Seat and dealer effects: {value.replace('_', ' ')} per hand (95% CI over hands)", t)
    return fig


# --------------------------------------------------------------------------- spread


def spread_figure(table) -> Figure:
    """Standard deviation of one seat's net per hand by role, with and without some components.

    ``table``: run, role, measure ("net", "net without horse", ...), sd, lo,
    hi (95% interval), hands.  One axes per role; bars are runs x measures.
    """
    t = to_pandas(table)
    runs = runs_of(t)
    roles = list(dict.fromkeys(t["role"]))
    measures = list(dict.fromkeys(t["measure"]))
    fig = _figure(max(5.0, 4.6 * len(roles)), 4.0)
    axes = fig.subplots(1, len(roles), squeeze=False, sharey=True)[0]
    width = 0.8 / max(len(measures), 1)
    for ax, role in zip(axes, roles, strict=True):
        x = np.arange(len(runs))
        for j, measure in enumerate(measures):
            r = t[(t["role"] == role) & (t["measure"] == measure)].set_index("run").reindex(runs)
            ax.bar(x + (j - (len(measures) - 1) / 2) * width, r["sd"], width=width, color=colour(j),
                   yerr=_errors(r["sd"], r["lo"], r["hi"]), error_kw={"lw": 0.8, "capsize": 3},
                   label=measure)  # fmt: skip
        ax.set_xticks(x, [wrap(r, 18) for r in runs], fontsize=8)
        ax.set_title(role, fontsize=9)
        ax.legend(fontsize=8)
    axes[0].set_ylabel("sd of net per hand")
    suptitle(fig, "Spread of one seat's net per hand (sd, delta-method 95% CI)", t)
    return fig


# --------------------------------------------------------------------------- fan per win


def fan_figure(table, unit: str = "fan") -> Figure:
    """Distribution of fan per win, runs side by side, with Wilson 95% intervals.

    ``table``: run, fan, share, lo, hi, wins, hands (``count`` optional).
    Bar heights are ``share``.
    """
    t = to_pandas(table)
    runs = runs_of(t)
    values = sorted(t["fan"].dropna().unique())
    fig = _figure(max(6.0, 0.5 * len(values) * max(len(runs), 1) + 2), 4.0)
    ax = fig.subplots()
    width = 0.8 / max(len(runs), 1)
    x = np.arange(len(values))
    for i, run in enumerate(runs):
        r = t[t["run"].astype(str) == run].set_index("fan").reindex(values)
        wins = int(t.loc[t["run"].astype(str) == run, "wins"].iloc[0])
        ax.bar(x + (i - (len(runs) - 1) / 2) * width, r["share"], width=width, color=colour(i),
               yerr=_errors(r["share"], r["lo"], r["hi"]), error_kw={"lw": 0.8, "capsize": 2},
               label=f"{run} ({wins:,} wins)")  # fmt: skip
    ax.set_xticks(x, [str(int(v)) for v in values])
    ax.set_xlabel(f"{unit} of the win (after bonuses, raises and cap)")
    ax.set_ylabel("share of wins")
    ax.legend(fontsize=8)
    suptitle(fig, f"{unit.capitalize()} per win (Wilson 95% interval)", t)
    return fig


# --------------------------------------------------------------------------- comparisons


def compare_figure(table) -> Figure:
    """Differences to the reference run, one axes per metric, with 95% intervals.

    ``table`` (from :func:`mjsim.report.tables.compare_runs`): label, group,
    metric, diff, diff_lo, diff_hi, reference, paired, hands.  Rows of the
    reference itself (null ``diff``) are skipped.  Each point is one (run,
    group); a filled marker is a paired difference (same hands), a hollow one
    unpaired.
    """
    t = to_pandas(table)
    t = t[t["diff"].notna()]
    refs = list(dict.fromkeys(t["reference"].astype(str)))
    metrics = list(dict.fromkeys(t["metric"]))
    fig = _figure(max(5.0, 4.2 * len(metrics)), 1.4 + 0.45 * max(len(t) // max(len(metrics), 1), 1))
    axes = fig.subplots(1, max(len(metrics), 1), squeeze=False, sharey=True)[0]
    for ax, metric in zip(axes, metrics, strict=False):
        part = t[t["metric"] == metric].reset_index(drop=True)
        y = np.arange(len(part))[::-1]
        for i, r in part.iterrows():
            c = colour(list(dict.fromkeys(t["label"])).index(r["label"]))
            paired = bool(r.get("paired", False))
            ax.errorbar(r["diff"], y[i], xerr=_errors([r["diff"]], [r["diff_lo"]], [r["diff_hi"]]), fmt="o",
                        color=c, mfc=c if paired else "white", capsize=3)  # fmt: skip
        ax.axvline(0, color="grey", lw=0.7)
        ax.locator_params(axis="x", nbins=5)
        ax.set_yticks(y, [wrap(f"{r['label']}: {r['group']}", 40) for _, r in part.iterrows()], fontsize=8)
        ax.set_title(metric.replace("_", " "), fontsize=9)
        ax.set_xlabel(wrap(f"difference to {part['reference'].iloc[0]}", 40) if len(refs) == 1 else "difference")
    ref = refs[0] if len(refs) == 1 else "the reference of each comparison (" + ", ".join(refs) + ")"
    whole = to_pandas(table)
    hands = table_hands(whole)
    if len(set(hands)) == 1:
        counts = f"{hands[0]:,} hands per run"
    else:
        counts = "; ".join(f"{label}: {n:,} hands" for label, n in zip(table_labels(whole), hands, strict=True))
    fig.suptitle(wrap(f"Difference to {ref} (95% CI; filled: paired on the same hands, hollow: unpaired)\n{counts}",
                      int(fig.get_figwidth() * 13)), fontsize=10.5)  # fmt: skip
    return fig


def table_labels(table) -> list[str]:
    t = to_pandas(table)
    return list(dict.fromkeys(t["label"].astype(str)))


def table_hands(table) -> list[int]:
    t = to_pandas(table)
    return [int(t.loc[t["label"].astype(str) == label, "hands"].iloc[0]) for label in table_labels(t)]


# --------------------------------------------------------------------------- 血战到底

XZ_RULE_LABELS = {
    "flower_pig": "flower pig check\n(XZ-E1, wall empty)",
    "not_ready": "not-ready check\n(XZ-E2, wall empty)",
    "tax_refund": "kong tax refund\n(XZ-E3, wall empty)",
    "call_transfer": "call transfer\n(XZ-M4, in play)",
}


def _plain_axis(axis) -> None:
    """Tick labels as plain numbers: no offset or scientific notation."""
    axis.get_major_formatter().set_useOffset(False)
    axis.get_major_formatter().set_scientific(False)


def _net_bars_by_run(ax, t, part, key, categories, runs):
    """Bars of ``mean_net`` with their 95% CI per category (``part[key]``), the runs side by side; the seat-hands
    at each whisker (``seats``).  Returns the categories' x positions."""
    width = 0.8 / max(len(runs), 1)
    x = np.arange(len(categories))
    for i, run in enumerate(runs):
        r = part[part["run"].astype(str) == run].set_index(key).reindex(categories)
        xs = x + (i - (len(runs) - 1) / 2) * width
        ax.bar(xs, r["mean_net"], width=width, color=colour(i), yerr=_errors(r["mean_net"], r["mean_net_lo"],
               r["mean_net_hi"]), error_kw={"lw": 0.8, "capsize": 3},
               label=f"{run} ({hands_of(t, run):,} hands)")  # fmt: skip
        for xx, value, lo, hi, seats in zip(xs, r["mean_net"], r["mean_net_lo"], r["mean_net_hi"], r["seats"],
                                            strict=True):  # fmt: skip
            if pd.notna(value):
                up = value >= 0
                end = (hi if up else lo) if pd.notna(hi if up else lo) else value
                ax.annotate(f"{int(seats):,}", (xx, end), xytext=(0, 3 if up else -3), textcoords="offset points",
                            ha="center", va="bottom" if up else "top", fontsize=6)  # fmt: skip
    return x


def xz_order_figure(table) -> Figure:
    """Mean net per hand of a seat by the order of its first win, with 95% CI, runs side by side.

    ``table`` (:func:`mjsim.report.tables.xz_order_table`): run, win_order,
    order (label), seats, mean_net, mean_net_lo, mean_net_hi, hands.  One bar
    per (order, run); the number above a bar's whisker is its seat-hands.
    """
    t = to_pandas(table)
    runs = runs_of(t)
    ranks = t.assign(_r=t["win_order"].where(t["win_order"] > 0, 1_000)).sort_values("_r")
    orders = list(dict.fromkeys(ranks["order"]))
    fig = _figure(min(11.0, max(7.0, 0.8 * len(orders) * max(len(runs), 1) + 2.5)), 4.2)
    ax = fig.subplots()
    x = _net_bars_by_run(ax, t, t, "order", orders, runs)
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_xticks(x, orders)
    ax.set_xlabel("order of the seat's first win in the hand")
    ax.set_ylabel("mean net of the seat per hand")
    _plain_axis(ax.yaxis)
    ax.margins(y=0.12)
    ax.legend(fontsize=8)
    suptitle(fig, "Net per hand by win order (mean, 95% CI over hands; at the bars: seat-hands)", t)
    return fig


def xz_rule_figure(table) -> Figure:
    """How often each end-of-wall rule and the call transfer fire, and the money they move per hand.

    ``table`` (:func:`mjsim.report.tables.xz_rule_table`): run, rule, rate,
    rate_lo, rate_hi (Wilson), moved_per_hand, moved_per_hand_lo,
    moved_per_hand_hi, moved_per_firing, hands.  Two axes: share of hands
    firing, money moved per hand (all hands); runs as side-by-side bars; the
    number at a money bar's end is the money moved per firing.
    """
    t = to_pandas(table)
    runs = runs_of(t)
    rules = [r for r in XZ_RULE_LABELS if r in set(t["rule"])] + [r for r in dict.fromkeys(t["rule"])
                                                                   if r not in XZ_RULE_LABELS]  # fmt: skip
    fig = _figure(11, 1.4 + 0.55 * len(rules) * max(len(runs), 1) + 0.6)
    axes = fig.subplots(1, 2, sharey=True)
    height = 0.8 / max(len(runs), 1)
    y = np.arange(len(rules))[::-1]
    for i, run in enumerate(runs):
        r = t[t["run"].astype(str) == run].set_index("rule").reindex(rules)
        ys = y + ((len(runs) - 1) / 2 - i) * height
        kw = {"height": height, "color": colour(i), "error_kw": {"lw": 0.8, "capsize": 2}}
        axes[0].barh(ys, r["rate"], xerr=_errors(r["rate"], r["rate_lo"], r["rate_hi"]), label=run, **kw)
        axes[1].barh(ys, r["moved_per_hand"], xerr=_errors(r["moved_per_hand"], r["moved_per_hand_lo"],
                     r["moved_per_hand_hi"]), **kw)  # fmt: skip
        for yy, hi, per in zip(ys, r["moved_per_hand_hi"], r["moved_per_firing"], strict=True):
            text = "never fired" if pd.isna(per) else f"{per:.1f} per firing"
            ax_end = 0.0 if pd.isna(hi) else hi
            axes[1].annotate(text, (ax_end, yy), xytext=(3, 0), textcoords="offset points", va="center", fontsize=7)
    axes[0].set_yticks(y, [XZ_RULE_LABELS.get(r, r) for r in rules], fontsize=8)
    axes[0].set_xlabel("share of hands in which the rule moves money")
    axes[0].set_title("how often (Wilson 95% interval)", fontsize=9)
    axes[1].set_xlabel("money moved per hand, all hands (sum received)")
    axes[1].set_title("how much (95% CI)", fontsize=9)
    for ax in axes:
        _plain_axis(ax.xaxis)
        ax.set_xlim(left=0)
        ax.margins(x=0.25)
    axes[0].legend(fontsize=8, loc="lower right")
    suptitle(fig, "Blood-war settlement rules: firing rate and money per hand (clustered by hand)", t)
    return fig


# --------------------------------------------------------------------------- 水头 (shuitou)

SHT_VALUE_PANELS = {
    "caishen": ("by caishen (wild tiles) held as the hand ended", "caishen held at the end"),
    "flowers": ("by flowers set aside (red, black and white-dragon groups)", "flowers set aside"),
}
SHT_MONEY_LABELS = {"win": "win payments\n(SHT-M1)", "base": "non-winner base\nsettlement (SHT-M2)",
                    "liability": "liability\n(SHT-M3)"}  # fmt: skip
SHT_EDGE_LABELS = {"net": "net", "win": "win", "base": "base\nsettlement", "liability": "liability"}


def _integer_axis(axis) -> None:
    """Whole-number ticks as plain numbers (money in points is a whole number)."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))
    _plain_axis(axis)


def sht_value_figure(table) -> Figure:
    """Mean net per hand of a seat by the 财神 it held at the end and by the flowers it set aside, 95% CI.

    ``table`` (:func:`mjsim.report.tables.sht_value_table`): run, kind ("caishen", "flowers"), count,
    label, seats, mean_net, mean_net_lo, mean_net_hi, hands.  One axes per kind, runs as side-by-side
    bars; the number at a bar's whisker is its seat-hands.
    """
    t = to_pandas(table)
    runs = runs_of(t)
    kinds = [k for k in SHT_VALUE_PANELS if k in set(t["kind"])]
    fig = _figure(11, 4.4)
    axes = fig.subplots(1, max(len(kinds), 1), squeeze=False)[0]
    for ax, kind in zip(axes, kinds, strict=False):
        part = t[t["kind"] == kind]
        labels = list(dict.fromkeys(part.sort_values("count")["label"]))
        x = _net_bars_by_run(ax, t, part, "label", labels, runs)
        title, xlabel = SHT_VALUE_PANELS[kind]
        ax.axhline(0, color="grey", lw=0.5)
        ax.set_xticks(x, labels)
        ax.set_xlabel(xlabel)
        ax.set_title(title, fontsize=9)
        _integer_axis(ax.yaxis)
        ax.margins(y=0.12)
    axes[0].set_ylabel("mean net of the seat per hand (points)")
    axes[0].legend(fontsize=8, loc="upper left")
    suptitle(fig, "What caishen and flowers are worth: a seat's net per hand by what it held (mean, 95% CI "
             "clustered by session; at the bars: seat-hands)", t)  # fmt: skip
    return fig


def sht_money_figure(table) -> Figure:
    """Where the 水头 money goes: money moved per won hand by component, and the dealer's edge by component.

    ``table`` (:func:`mjsim.report.tables.sht_money_table`): run, component, moved_per_won_hand (_lo, _hi),
    share, dealer_edge (_lo, _hi), hands.  Left: win payments, the non-winners' base settlement and
    liability, per hand with a winner (the number at a bar: its share of all money moved); right: the
    dealer's net minus the others' mean, per hand, in total and by component.  Runs side by side.
    """
    t = to_pandas(table)
    runs = runs_of(t)
    fig = _figure(11, 4.4)
    money, edge = fig.subplots(1, 2)
    width = 0.8 / max(len(runs), 1)
    parts = [c for c in SHT_MONEY_LABELS if c in set(t["component"])]
    edges = [c for c in SHT_EDGE_LABELS if c in set(t["component"])]
    for i, run in enumerate(runs):
        r = t[t["run"].astype(str) == run].set_index("component")
        offset = (i - (len(runs) - 1) / 2) * width
        m = r.reindex(parts)
        xs = np.arange(len(parts)) + offset
        money.bar(xs, m["moved_per_won_hand"], width=width, color=colour(i),
                  yerr=_errors(m["moved_per_won_hand"], m["moved_per_won_hand_lo"], m["moved_per_won_hand_hi"]),
                  error_kw={"lw": 0.8, "capsize": 3}, label=f"{run} ({hands_of(t, run):,} hands)")  # fmt: skip
        for xx, hi, share in zip(xs, m["moved_per_won_hand_hi"], m["share"], strict=True):
            if pd.notna(share):
                money.annotate(f"{share:.1%}", (xx, 0 if pd.isna(hi) else hi), xytext=(0, 3),
                               textcoords="offset points", ha="center", va="bottom", fontsize=7)  # fmt: skip
        e = r.reindex(edges)
        xs = np.arange(len(edges)) + offset
        edge.bar(xs, e["dealer_edge"], width=width, color=colour(i),
                 yerr=_errors(e["dealer_edge"], e["dealer_edge_lo"], e["dealer_edge_hi"]),
                 error_kw={"lw": 0.8, "capsize": 3})  # fmt: skip
    money.set_xticks(np.arange(len(parts)), [SHT_MONEY_LABELS[c] for c in parts], fontsize=8)
    money.set_ylabel("points moved per hand with a winner")
    money.set_title("money per won hand (at the bars: share of all money moved)", fontsize=9)
    money.set_ylim(bottom=0)
    money.margins(y=0.15)
    edge.set_xticks(np.arange(len(edges)), [SHT_EDGE_LABELS[c] for c in edges], fontsize=8)
    edge.axhline(0, color="grey", lw=0.5)
    edge.set_ylabel("dealer's net minus the others' mean (points per hand)")
    edge.set_title("the dealer's edge per hand, in total and by component", fontsize=9)
    for ax in (money, edge):
        _integer_axis(ax.yaxis)
    money.legend(fontsize=8, loc="upper right")
    suptitle(fig, "Shuitou money: win payments against the non-winner settlement, and the dealer's edge "
             "(means, 95% CI clustered by session)", t)  # fmt: skip
    return fig
