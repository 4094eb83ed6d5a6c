"""Figures of the report, each drawn from one computed table.

Every function takes a table (pandas or polars DataFrame, columns as
documented, usually built by :mod:`mjsim.report.tables`) and returns a
:class:`matplotlib.figure.Figure`.  Figures are made without ``pyplot`` (no
global state, no GUI backend; PNG output goes through Agg), and every title
states the interval drawn and the number of hands behind it.  Tables hold one
or more runs, told apart by their ``run`` column, in order of appearance.

Every figure is :data:`WIDTH` inches wide (the page's text width at 100 CSS px
an inch) with at most two panels side by side, and passes through
:func:`finish`: plain tick labels (no offset, no scientific notation), and
text the installed fonts can draw — Chinese terms next to the English where a
CJK font is installed (:func:`cjk_font`), English only where none is.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import io
import math
import re
import textwrap

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib import font_manager
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.ticker import FixedFormatter, FuncFormatter, MaxNLocator, ScalarFormatter

BIN_WIDTHS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1_000, 2_000, 5_000, 10_000, 10**9)
ROLE_COLOURS = {"dealer": "#c0392b", "non-dealer": "#2c7fb8"}
PALETTE = ("#2c7fb8", "#d95f02", "#1b9e77", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d")
OFFSET_NAMES = {"0": "dealer", "1": "dealer+1", "2": "dealer+2", "3": "dealer+3"}
WIDTH = 11.0  # inches: every figure, shown at 1,100 CSS px (html.figure_html)
DPI = 150  # of the PNG: sharp on high-density screens, shown at WIDTH * 100 px all the same

# --------------------------------------------------------------------------- fonts

# Families with Chinese glyphs, in order of preference; any other installed family whose name says CJK,
# Source Han or WenQuanYi is taken after these.
CJK_FAMILIES = (
    "Noto Sans CJK SC", "Noto Sans CJK TC", "Noto Sans CJK JP", "Noto Sans SC", "Noto Serif CJK SC",
    "Source Han Sans SC", "Source Han Sans CN", "Source Han Sans", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei",
    "SimHei", "Microsoft YaHei", "PingFang SC", "Hiragino Sans GB", "Heiti SC", "STHeiti", "AR PL UKai CN",
    "AR PL UMing CN", "Droid Sans Fallback",
)  # fmt: skip
CJK_HINTS = ("CJK", "Source Han", "WenQuanYi")

# The Chinese of the English terms the figures use: drawn beside them where a CJK font is installed.
ZH = {
    "dealer": "庄家", "non-dealer": "闲家", "win": "胡", "kong": "杠", "horse": "买马", "liability": "包",
    "penalty": "罚", "caishen": "财神", "flowers": "花", "flower pig check": "查花猪", "not-ready check": "查叫",
    "kong tax refund": "退税", "call transfer": "呼叫转移",
}  # fmt: skip
# Chinese a table may bring into a figure (run labels, groups), in English for a machine without a CJK font.
ZH_TO_ASCII = {zh: en for en, zh in ZH.items()} | {
    "闲": "non-dealer", "庄": "dealer", "包牌": "liability", "马": "horse", "分牌": "split tile", "番": "fan",
    "台": "tai", "自摸": "self-draw", "点炮": "deal-in", "鸡平胡": "jipinghu", "推倒胡": "tuidaohu",
    "血战到底": "xuezhan", "血流成河": "xueliu", "血战": "xuezhan", "水头": "shuitou", "鸡胡": "chicken",
    "平胡": "all_chows", "碰碰胡": "all_pungs", "混一色": "half_flush", "清一色": "full_flush", "混碰": "half_flush_pungs",
    "清碰": "full_flush_pungs", "混幺九": "mixed_terminals", "清幺九": "pure_terminals", "字一色": "all_honours",
    "小三元": "little_dragons", "大三元": "big_dragons", "小四喜": "little_winds", "大四喜": "big_winds",
    "九莲宝灯": "nine_gates", "十三幺": "thirteen_orphans", "七对": "seven_pairs", "天和": "heavenly",
    "地和": "earthly", "人和": "human", "门前清": "concealed", "杠上开花": "kong_flower", "抢杠": "robbed_kong",
    "海底捞月": "last_tile", "一炮多响": "triple_win",
}  # fmt: skip


def cjk_font() -> str | None:
    """The name of an installed font family with Chinese glyphs (:data:`CJK_FAMILIES` first), or None."""
    names = {entry.name for entry in font_manager.fontManager.ttflist}
    for family in CJK_FAMILIES:
        if family in names:
            return family
    return next((name for name in sorted(names) if any(hint in name for hint in CJK_HINTS)), None)


def term(english: str) -> str:
    """``english`` with its Chinese (:data:`ZH`) beside it where a CJK font is installed: 'dealer 庄家'."""
    zh = ZH.get(english)
    return f"{english} {zh}" if zh and cjk_font() else english


@functools.cache
def _glyphs(path: str) -> frozenset[int]:
    from matplotlib.ft2font import FT2Font

    return frozenset(FT2Font(path).get_charmap())


def drawable(text: str, cjk: str | None = None) -> str:
    """``text`` as the figure can draw it: as it is where ``cjk`` (a CJK font family) is given; else its
    Chinese terms in English (:data:`ZH_TO_ASCII`) and every other character the default font lacks left
    out, so that nothing is drawn as an empty box."""
    if cjk or text.isascii():
        return text
    for zh in sorted(ZH_TO_ASCII, key=len, reverse=True):
        text = text.replace(zh, f" {ZH_TO_ASCII[zh]} ")
    font = font_manager.findfont(font_manager.FontProperties(family=mpl.rcParams["font.family"]))
    glyphs = _glyphs(font)
    text = "".join(ch for ch in text if ch.isascii() or ord(ch) in glyphs)
    text = re.sub(r"\b([\w+-]+)(?: \1\b)+", r"\1", text)  # 'dealer 庄家' -> 'dealer dealer' -> 'dealer'
    text = re.sub(r"\(\s*\)", "", text)
    lines = [re.sub(r" {2,}", " ", line).strip() for line in text.split("\n")]
    lines = [re.sub(r" ([,;:)\]])", r"\1", re.sub(r"([(\[]) ", r"\1", line)) for line in lines]
    return "\n".join(lines) if any(lines) else "?"


@contextlib.contextmanager
def figure_fonts():
    """Matplotlib settings under which figures are built and rendered: the CJK font, where one is
    installed, as a fallback for the glyphs the default font lacks."""
    cjk = cjk_font()
    settings = {"font.family": [*mpl.rcParams["font.family"], cjk]} if cjk else {}
    with mpl.rc_context(settings):
        yield cjk


def drawn(build):
    """Decorator of a figure function: built under :func:`figure_fonts`, then :func:`finish`\\ ed."""

    @functools.wraps(build)
    def figure(*args, **kwargs) -> Figure:
        with figure_fonts() as cjk:
            fig = build(*args, **kwargs)
            finish(fig, cjk)
        return fig

    return figure


# --------------------------------------------------------------------------- axes


def integer_axis(axis) -> None:
    """Ticks at whole numbers only (money in points, hands played: whole numbers)."""
    axis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 2.5, 5, 10]))


def finish(fig: Figure, cjk: str | None = None) -> None:
    """What every figure gets last: every text drawable (:func:`drawable`), numeric tick labels as plain
    numbers (no offset such as '1e-17', no scientific notation), and an axis whose data agree to rounding
    error (differences of identical runs) widened around their value instead of zoomed into the noise."""
    for text in fig.findobj(Text):
        text.set_text(drawable(text.get_text(), cjk))
    for ax in fig.axes:
        for axis, set_lim in ((ax.xaxis, ax.set_xlim), (ax.yaxis, ax.set_ylim)):
            formatter = axis.get_major_formatter()
            if isinstance(formatter, FixedFormatter | FuncFormatter) and not cjk:  # tick labels given as text
                axis.set_major_formatter(FuncFormatter(lambda x, pos, f=formatter: drawable(f(x, pos))))
            if not isinstance(formatter, ScalarFormatter):
                continue
            formatter.set_useOffset(False)
            formatter.set_scientific(False)
            if axis.get_scale() != "linear":
                continue
            lo, hi = axis.get_view_interval()
            if hi - lo < 1e-9 * max(1.0, abs(lo), abs(hi)):
                centre = round((lo + hi) / 2, 9) + 0.0  # + 0.0: no '-0'
                half = 0.05 * max(1.0, abs(centre))
                set_lim(centre - half, centre + half)


def symlog_ticks(axis, least: float, most: float, linear: float) -> list[float]:
    """Ticks for a symmetric-log ``axis`` from ``least`` to ``most``, linear within ±``linear``: 0, the
    ends, and round numbers (1, 2, 5 x 10^k; powers of ten alone over many decades) spaced apart."""
    decades = math.log10(max(abs(least), abs(most), 10) / max(linear, 1))
    mantissas = (1, 2, 5) if decades <= 1.5 else (1,)
    rounds = [m * 10**k for k in range(7) for m in mantissas]
    inner = max((r for r in rounds if r <= linear), default=1)
    candidates = [0, inner, -inner] + [s * r for r in rounds if r > linear for s in (1, -1)]
    where = axis.get_transform().transform
    span = where(most) - where(least)
    ticks = [least, most]
    for tick in sorted(candidates, key=abs):
        if least <= tick <= most and all(abs(where(tick) - where(t)) > 0.09 * span for t in ticks):
            ticks.append(tick)
    return sorted(ticks)


def clip_range(values, counts, clip: float) -> tuple[float, float]:
    """The ``clip`` and ``1 - clip`` quantiles of the distribution ``counts`` over sorted ``values``."""
    values, counts = np.asarray(values), np.asarray(counts, dtype=float)
    cdf = np.cumsum(counts) / counts.sum()
    tolerance = 1e-12  # a cumulative share equal to clip up to rounding reaches the quantile
    lo = values[min(np.searchsorted(cdf, clip - tolerance), len(values) - 1)]
    hi = values[min(np.searchsorted(cdf, 1 - clip - tolerance), len(values) - 1)]
    return lo, hi


def percent(share: float) -> str:
    """'12.5%', '0.5%', '0.43%', '0.004%' (two significant figures below 1%)."""
    if share == 0 or share >= 0.01:
        return f"{share:.1%}"
    return f"{share * 100:.2g}%"


def tail_text(values, counts, lo, hi, clip: float, unit: str = "seat-hands") -> str:
    """What a clipped axis leaves out: 'x clipped at the 0.5% and 99.5% quantiles (-24 to +48); 0.4% of
    seat-hands lie beyond, down to -96 and up to +1536' (or 'full range -24 to +48')."""
    values, counts = np.asarray(values), np.asarray(counts, dtype=float)
    least, most = values.min(), values.max()
    if least >= lo and most <= hi:
        return f"full range {least:+,.0f} to {most:+,.0f}"
    beyond = counts[(values < lo) | (values > hi)].sum() / counts.sum()
    ends = [f"down to {least:+,.0f}"] if least < lo else []
    ends += [f"up to {most:+,.0f}"] if most > hi else []
    return (f"x clipped at the {percent(clip)} and {percent(1 - clip)} quantiles ({lo:+,.0f} to {hi:+,.0f}); "
            f"{percent(beyond)} of {unit} lie beyond, {' and '.join(ends)}")  # fmt: skip


# --------------------------------------------------------------------------- tables and titles


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


def identical_runs(table: pd.DataFrame, columns) -> list[list[str]]:
    """The runs of ``table`` grouped by identical rows in ``columns`` (order of rows aside), each group in
    order of appearance, the groups in the order of their first run."""
    columns = [c for c in columns if c in table]
    groups: dict[str, list[str]] = {}
    for run in runs_of(table):
        part = table.loc[table["run"].astype(str) == run, columns]
        key = part.sort_values(columns).to_json(orient="values", double_precision=15)
        groups.setdefault(key, []).append(run)
    return list(groups.values())


def merged_label(runs: list[str], same_hands: dict | None, what: str) -> str:
    """For runs drawn once: '(= b, c: same hands, same patterns)' — 'same hands' where ``same_hands``
    (run -> where its hands come from) gives them one source; '' for a run drawn for itself."""
    if len(runs) < 2:
        return ""
    sources = {(same_hands or {}).get(run) for run in runs}
    same = "same hands, " if len(sources) == 1 and None not in sources else ""
    return f"(= {', '.join(runs[1:])}: {same}same {what})"


def wrap(text: str, width: int = 60) -> str:
    """``text`` broken into lines of at most ``width`` characters (existing line breaks kept)."""
    return "\n".join(textwrap.fill(line, width, break_on_hyphens=False) for line in text.split("\n"))


def suptitle(fig: Figure, text: str, table: pd.DataFrame) -> None:
    """The figure title: what is drawn and its interval, then the hand counts on a second line."""
    width = int(fig.get_figwidth() * 11)  # characters of 11 pt a line holds
    fig.suptitle(wrap(f"{text}\n{hands_text(table)}", width), fontsize=11)


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _figure(height: float, width: float = WIDTH) -> Figure:
    return Figure(figsize=(width, height), layout="constrained")


def _panels(fig: Figure, n: int, **kwargs) -> list:
    """``n`` axes, two to a row (one where ``n`` is 1); a spare cell of the last row is left empty."""
    cols = 1 if n == 1 else 2
    axes = fig.subplots(math.ceil(n / cols), cols, squeeze=False, **kwargs).ravel()
    for spare in axes[n:]:
        spare.set_visible(False)
    return list(axes[:n])


def _alike(spans) -> bool:
    """Whether panels of these data spans share one y scale: where no span is over 4 times another (variants
    of one ruleset), so that bars and bands compare across panels; a run of larger stakes would flatten the
    others."""
    return min(spans) > 0 and max(spans) / min(spans) <= 4


def _errors(values, lo, hi) -> np.ndarray:
    values, lo, hi = (np.asarray(x, dtype=float) for x in (values, lo, hi))
    return np.nan_to_num(np.vstack([values - lo, hi - values]).clip(min=0))


def png_bytes(fig: Figure, dpi: int = DPI) -> bytes:
    """The figure as PNG (rendered with Agg)."""
    buffer = io.BytesIO()
    with figure_fonts():
        fig.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


def png_data_uri(fig: Figure, dpi: int = DPI) -> str:
    """The figure as a ``data:image/png;base64,...`` URI for an ``<img>`` tag."""
    return "data:image/png;base64," + base64.b64encode(png_bytes(fig, dpi)).decode("ascii")


# --------------------------------------------------------------------------- payouts


@drawn
def payout_figure(table, clip: float = 0.005, max_bars: int = 60) -> Figure:
    """Distribution of one seat's net per hand, by role: probability mass and empirical CDF.

    ``table``: run, role, net, count (seat-hands with that net), hands.  One
    row per run: the probability of each net (bars, left), its x axis showing
    the ``clip`` to ``1 - clip`` quantiles of the run's pooled distribution
    (the row's title states what lies beyond, :func:`tail_text`; nets pooled
    in bins of a few points where that range holds more than ``max_bars``
    values), and its empirical CDF over the full range (right), linear within
    those quantiles and logarithmic beyond (symmetric log) where the tails
    reach further.
    """
    t = to_pandas(table)
    runs = runs_of(t)
    fig = _figure(3.7 * len(runs) + 0.7)
    rows = np.atleast_1d(fig.subfigures(len(runs), 1))
    for sub, run in zip(rows, runs, strict=True):
        part = t[t["run"].astype(str) == run]
        roles = list(dict.fromkeys(part["role"]))
        pooled = part.groupby("net")["count"].sum().sort_index()
        lo, hi = clip_range(pooled.index, pooled, clip)
        step = next(s for s in BIN_WIDTHS if (hi - lo + 1) / s <= max_bars)
        width = 0.8 * step / max(len(roles), 1)
        mass, cdf = sub.subplots(1, 2)
        tallest = 0.0
        for i, role in enumerate(roles):
            r = part[part["role"] == role].sort_values("net")
            n = int(r["count"].sum())
            c = ROLE_COLOURS.get(role, colour(i))
            bins = r.groupby(r["net"] // step * step)["count"].sum()  # bin [k·step, (k+1)·step - 1]
            shares = bins / n
            tallest = max(tallest, shares[(bins.index >= lo - step) & (bins.index <= hi)].max())
            mass.bar(bins.index + (step - 1) / 2 + (i - (len(roles) - 1) / 2) * width, shares, width=width,
                     color=c, label=f"{term(role)} ({n:,} seat-hands)")  # fmt: skip
            cdf.step(r["net"], r["count"].cumsum() / n, where="post", color=c, lw=1.5, label=term(role))
        mass.set_xlim(lo // step * step - 0.5, hi // step * step + step - 0.5)
        sub.suptitle(wrap(f"{run} ({hands_of(t, run):,} hands): {tail_text(pooled.index, pooled, lo, hi, clip)}",
                          110), fontsize=10)  # fmt: skip
        mass.set_title("probability of each net (clipped)" if step == 1 else
                       f"probability of the net, in bins of {step} points (clipped)", fontsize=9.5)  # fmt: skip
        mass.set_ylabel("share of seat-hands")
        mass.set_ylim(0, 1.3 * tallest)  # room for the legend above the bars
        integer_axis(mass.xaxis)
        linear = max(abs(lo), abs(hi), 1)
        least, most = pooled.index.min(), pooled.index.max()
        if least < -linear or most > linear:
            cdf.set_xscale("symlog", linthresh=linear, linscale=2)
            cdf.set_xticks(symlog_ticks(cdf.xaxis, least, most, linear))
            cdf.xaxis.set_major_formatter(ScalarFormatter())
            scale = f"full range: linear within ±{linear:,.0f}, logarithmic beyond"
        else:
            integer_axis(cdf.xaxis)
            scale = "full range"
        cdf.set_xlim(least, most)
        cdf.set_title(wrap(f"cumulative: share of seat-hands at or below x\n({scale})", 70), fontsize=9.5)
        cdf.set_ylabel("P(net <= x)")
        cdf.set_ylim(0, 1.02)
        mass.legend(fontsize=8.5, loc="upper right")
        cdf.legend(fontsize=8.5, loc="upper left")
        for ax in (mass, cdf):
            ax.set_xlabel("net of one seat in one hand (points)")
            ax.axvline(0, color="grey", lw=0.5)
    suptitle(fig, "Payout per hand by role (empirical distribution, no interval)", t)
    return fig


# --------------------------------------------------------------------------- session fan chart


@drawn
def fan_chart_figure(table) -> Figure:
    """Cumulative net of a seat over its session: median and quantile bands by hands played.

    ``table``: run, hand (hands played, from 1), paths (seat-sessions), q05,
    q25, q50, q75, q95, hands; optionally ``group`` (e.g. the policy).  With
    one group per run the 5-95% and 25-75% bands and the median are drawn;
    with several, each group's 25-75% band and median.  One axes per run, two
    to a row, sharing the y axis where the runs' scales are alike.
    """
    t = to_pandas(table)
    runs = runs_of(t)
    if "group" not in t:
        t["group"] = "all seats"
    fig = _figure(3.9 * math.ceil(len(runs) / 2) + 0.8)
    spans = [np.nanmax(np.abs(t.loc[t["run"].astype(str) == run, ["q05", "q95"]].to_numpy(dtype=float)), initial=0)
             for run in runs]  # fmt: skip
    axes = _panels(fig, len(runs), sharey=_alike(spans))
    several = False
    for k, (ax, run) in enumerate(zip(axes, runs, strict=True)):
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
        ax.set_title(wrap(f"{run}: {hands_of(t, run):,} hands, {paths:,} seat-sessions", 70), fontsize=9.5)
        ax.set_xlabel("hands played in the session")
        ax.set_ylabel("cumulative net of one seat (points)")
        ax.yaxis.set_tick_params(labelleft=True)
        integer_axis(ax.xaxis)
        integer_axis(ax.yaxis)
        if len(groups) > 1 or k == 0:
            ax.legend(fontsize=8, loc="upper left", framealpha=0.6)
    what = ("median and 25-75% band of seat paths per group" if several
            else "median and 50% / 90% bands of seat paths")  # fmt: skip
    suptitle(fig, f"Cumulative net over a session: {what} (empirical quantiles)", t)
    return fig


# --------------------------------------------------------------------------- patterns


@drawn
def pattern_figure(table, top: int = 14, same_hands: dict | None = None) -> Figure:
    """Share of wins with each pattern, with its 95% interval, runs side by side.

    ``table``: run, pattern, count, wins, rate, lo, hi, hands.  The ``top``
    patterns by their largest rate in any run are shown, most frequent on top.
    Bar lengths are ``rate``; whiskers ``lo``..``hi``.  Runs with identical
    pattern tables (settlement-only variants: the same hands paid otherwise)
    are drawn once, labelled with every run they stand for; ``same_hands``
    (run -> the source of its hands) tells whether they hold the same hands.
    """
    t = to_pandas(table)
    merged = identical_runs(t, ["pattern", "count", "wins", "rate", "lo", "hi", "hands"])
    runs = [group[0] for group in merged]
    shown = t[t["run"].astype(str).isin(runs)]
    order = shown.groupby("pattern")["rate"].max().sort_values(ascending=False).index[:top].tolist()
    parts = {run: shown[shown["run"].astype(str) == run].set_index("pattern") for run in runs}
    # one slot per (pattern, run having it), top to bottom: runs of other rulesets leave no gaps
    slots = [(pattern, i) for pattern in order for i, run in enumerate(runs) if pattern in parts[run].index]
    gap = 0.5  # between patterns, in slots
    where, y, previous = {}, 0.0, None
    for pattern, i in slots:
        y -= 1 + (gap if previous not in (None, pattern) else 0)
        where[(pattern, i)], previous = y, pattern
    fig = _figure(1.6 + 0.22 * len(slots) + 0.12 * len(order) + 0.35 * len(runs))
    ax = fig.subplots()
    for i, group in enumerate(merged):
        run = group[0]
        p = parts[run].reindex([pattern for pattern in order if (pattern, i) in where])
        ys = [where[(pattern, i)] for pattern in p.index]
        wins = int(t.loc[t["run"].astype(str) == run, "wins"].iloc[0])
        label = wrap(f"{run} ({hands_of(t, run):,} hands, {wins:,} wins) {merged_label(group, same_hands, 'patterns')}",
                     70)  # fmt: skip
        ax.barh(ys, p["rate"], height=0.8, color=colour(i), xerr=_errors(p["rate"], p["lo"], p["hi"]),
                error_kw={"lw": 0.8, "capsize": 2}, label=label)  # fmt: skip
        for yy, hi, count in zip(ys, p["hi"], p["count"], strict=True):
            ax.annotate(f"{int(count):,}", (hi, yy), xytext=(3, 0), textcoords="offset points", va="center",
                        fontsize=7.5)  # fmt: skip
    y = [np.mean([where[s] for s in where if s[0] == pattern]) for pattern in order]
    ax.set_yticks(y, order, fontsize=9)
    ax.set_xlabel("share of wins with the pattern")
    ax.set_xlim(0, 1.06)
    ax.legend(fontsize=8.5, loc="lower right")
    drawn_once = "; runs with identical patterns drawn once" if len(runs) < len(runs_of(t)) else ""
    suptitle(fig, f"Pattern frequency per win (Wilson 95% interval; at the bars: wins){drawn_once}", t)
    return fig


# --------------------------------------------------------------------------- components of net

COMPONENT_NAMES = {"base": "base (SHT-M2)"}


@drawn
def component_figure(table) -> Figure:
    """Mean net per hand and its components (win, kong, horse, liability, penalty), by role, with 95% CI.

    ``table``: run, role, component, mean, lo, hi, hands; optionally
    ``present`` (False: the component is zero in every hand of the run, and
    is left out; the axes title names it).  One axes per run, two to a row,
    sharing the y axis where the runs' scales are alike.
    """
    t = to_pandas(table)
    runs = runs_of(t)
    if "present" not in t:
        t["present"] = True
    fig = _figure(3.9 * math.ceil(len(runs) / 2) + 0.8)
    spans = [np.nanmax(np.abs(t.loc[t["run"].astype(str) == run, ["lo", "hi"]].to_numpy(dtype=float)), initial=0)
             for run in runs]  # fmt: skip
    axes = _panels(fig, len(runs), sharey=_alike(spans))
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
                   error_kw={"lw": 0.8, "capsize": 3}, label=term(role))  # fmt: skip
        ax.axhline(0, color="grey", lw=0.5)
        ax.set_xticks(x, [term(COMPONENT_NAMES.get(c, c)) for c in shown])
        note = f"\n(none: {', '.join(absent)})" if absent else ""
        ax.set_title(wrap(f"{run} ({hands_of(t, run):,} hands){note}", 70), fontsize=9.5)
        ax.set_ylabel("mean per seat per hand (points)")
        ax.yaxis.set_tick_params(labelleft=True)
        ax.legend(fontsize=8.5)
    suptitle(fig, "Net per hand and its components by role (mean, 95% CI over hands)", t)
    return fig


# --------------------------------------------------------------------------- seat and dealer effects


@drawn
def seat_effects_figure(table, value: str = "mean_net") -> Figure:
    """Mean net (or another ``value``) by seat offset from the dealer and by absolute seat, with 95% CI.

    ``table`` (a seat table): run, by ("offset", "seat", ...), group,
    ``value``, ``value_lo``, ``value_hi``, hands.  One axes per ``by`` value,
    two to a row, runs as side-by-side bars.
    """
    t = to_pandas(table)
    t["group"] = t["group"].astype(str)
    runs = runs_of(t)
    bys = sorted(dict.fromkeys(t["by"]), key=lambda by: {"offset": 0, "seat": 1}.get(by, 2))
    fig = _figure(4.2 * math.ceil(len(bys) / 2) + 0.8)
    axes = _panels(fig, len(bys))
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
        labels = [term(OFFSET_NAMES.get(g, g)) for g in groups] if by == "offset" else groups
        ax.set_xticks(x, labels)
        ax.axhline(0, color="grey", lw=0.5)
        ax.set_xlabel({"offset": "seat relative to the dealer", "seat": "absolute seat"}.get(by, by))
        ax.set_ylabel(value.replace("_", " ") + (" (points)" if value.startswith("mean_net") else ""))
        ax.set_title(f"by {by}", fontsize=9.5)
    if len(runs) > 1:
        axes[0].legend(fontsize=8.5)
    suptitle(fig, f"Seat and dealer effects: {value.replace('_', ' ')} per hand (95% CI over hands)", t)
    return fig


# --------------------------------------------------------------------------- spread


@drawn
def spread_figure(table) -> Figure:
    """Standard deviation of one seat's net per hand by role, with and without some components.

    ``table``: run, role, measure ("net", "net without horse", ...), sd, lo,
    hi (95% interval), hands.  One axes per role, two to a row; bars are runs
    x measures.
    """
    t = to_pandas(table)
    runs = runs_of(t)
    roles = list(dict.fromkeys(t["role"]))
    measures = list(dict.fromkeys(t["measure"]))
    fig = _figure(4.2 * math.ceil(len(roles) / 2) + 0.8)
    axes = _panels(fig, len(roles), sharey=True)
    width = 0.8 / max(len(measures), 1)
    for ax, role in zip(axes, roles, strict=True):
        x = np.arange(len(runs))
        for j, measure in enumerate(measures):
            r = t[(t["role"] == role) & (t["measure"] == measure)].set_index("run").reindex(runs)
            ax.bar(x + (j - (len(measures) - 1) / 2) * width, r["sd"], width=width, color=colour(j),
                   yerr=_errors(r["sd"], r["lo"], r["hi"]), error_kw={"lw": 0.8, "capsize": 3},
                   label=measure)  # fmt: skip
        ax.set_xticks(x, [wrap(r, 24) for r in runs], fontsize=8.5)
        ax.set_title(term(role), fontsize=9.5)
        ax.set_ylabel("sd of net per hand (points)")
        ax.yaxis.set_tick_params(labelleft=True)
        ax.legend(fontsize=8.5)
    suptitle(fig, "Spread of one seat's net per hand (sd, delta-method 95% CI)", t)
    return fig


# --------------------------------------------------------------------------- fan per win


@drawn
def fan_figure(table, unit: str = "fan", same_hands: dict | None = None) -> Figure:
    """Distribution of fan per win, runs side by side, with Wilson 95% intervals.

    ``table``: run, fan, share, lo, hi, wins, hands (``count`` optional).
    Bar heights are ``share``.  Runs with identical fan tables are drawn once,
    labelled with every run they stand for (see :func:`pattern_figure`).
    """
    t = to_pandas(table)
    merged = identical_runs(t, ["fan", "count", "wins", "share", "lo", "hi", "hands"])
    runs = [group[0] for group in merged]
    values = sorted(t["fan"].dropna().unique())
    fig = _figure(4.6 + 0.2 * len(runs))
    ax = fig.subplots()
    width = 0.8 / len(runs)
    x = np.arange(len(values))
    for i, group in enumerate(merged):
        run = group[0]
        r = t[t["run"].astype(str) == run].set_index("fan").reindex(values)
        wins = int(t.loc[t["run"].astype(str) == run, "wins"].iloc[0])
        ax.bar(x + (i - (len(runs) - 1) / 2) * width, r["share"], width=width, color=colour(i),
               yerr=_errors(r["share"], r["lo"], r["hi"]), error_kw={"lw": 0.8, "capsize": 2},
               label=wrap(f"{run} ({wins:,} wins) {merged_label(group, same_hands, unit)}", 80))  # fmt: skip
    ax.set_xticks(x, [str(int(v)) for v in values])
    ax.set_xlabel(f"{unit} of the win (after bonuses, raises and cap)")
    ax.set_ylabel("share of wins")
    fig.legend(fontsize=8.5, loc="outside lower center", ncols=min(len(runs), 2))  # below: bars fill the axes
    drawn_once = f"; runs with identical {unit} drawn once" if len(runs) < len(runs_of(t)) else ""
    suptitle(fig, f"{unit.capitalize()} per win (Wilson 95% interval){drawn_once}", t)
    return fig


# --------------------------------------------------------------------------- comparisons


@drawn
def compare_figure(table) -> Figure:
    """Differences to the reference run, one axes per metric (one above the other), with 95% intervals.

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
    points = max(len(t) // max(len(metrics), 1), 1)
    fig = _figure((0.9 + 0.34 * points) * max(len(metrics), 1) + 0.8)
    axes = fig.subplots(max(len(metrics), 1), 1, squeeze=False)[:, 0]
    labels = list(dict.fromkeys(t["label"]))
    for ax, metric in zip(axes, metrics, strict=False):
        part = t[t["metric"] == metric].reset_index(drop=True)
        y = np.arange(len(part))[::-1]
        for i, r in part.iterrows():
            c = colour(labels.index(r["label"]))
            paired = bool(r.get("paired", False))
            ax.errorbar(r["diff"], y[i], xerr=_errors([r["diff"]], [r["diff_lo"]], [r["diff_hi"]]), fmt="o",
                        color=c, mfc=c if paired else "white", capsize=3)  # fmt: skip
        ax.axvline(0, color="grey", lw=0.7)
        ax.locator_params(axis="x", nbins=7)
        ax.set_yticks(y, [wrap(f"{r['label']}: {term(str(r['group']))}", 60) for _, r in part.iterrows()],
                      fontsize=8.5)  # fmt: skip
        ax.set_ylim(-0.6, len(part) - 0.4)
        ax.set_title(metric.replace("_", " "), fontsize=9.5)
        ax.set_xlabel(f"difference to {part['reference'].iloc[0]}" if len(refs) == 1 else "difference")
    ref = refs[0] if len(refs) == 1 else "the reference of each comparison (" + ", ".join(refs) + ")"
    whole = to_pandas(table)
    hands = table_hands(whole)
    if len(set(hands)) == 1:
        counts = f"{hands[0]:,} hands per run"
    else:
        counts = "; ".join(f"{label}: {n:,} hands" for label, n in zip(table_labels(whole), hands, strict=True))
    fig.suptitle(wrap(f"Difference to {ref} (95% CI; filled: paired on the same hands, hollow: unpaired)\n{counts}",
                      int(fig.get_figwidth() * 11)), fontsize=11)  # fmt: skip
    return fig


def table_labels(table) -> list[str]:
    t = to_pandas(table)
    return list(dict.fromkeys(t["label"].astype(str)))


def table_hands(table) -> list[int]:
    t = to_pandas(table)
    return [int(t.loc[t["label"].astype(str) == label, "hands"].iloc[0]) for label in table_labels(t)]


# --------------------------------------------------------------------------- 血战到底

XZ_RULE_LABELS = {
    "flower_pig": ("flower pig check", "XZ-E1, wall empty"),
    "not_ready": ("not-ready check", "XZ-E2, wall empty"),
    "tax_refund": ("kong tax refund", "XZ-E3, wall empty"),
    "call_transfer": ("call transfer", "XZ-M4, in play"),
}


def xz_rule_label(rule: str) -> str:
    """'flower pig check 查花猪\\n(XZ-E1, wall empty)' (the Chinese where a CJK font is installed)."""
    name, where = XZ_RULE_LABELS.get(rule, (rule, ""))
    return f"{term(name)}\n({where})" if where else name


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
                            ha="center", va="bottom" if up else "top", fontsize=7.5)  # fmt: skip
    return x


@drawn
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
    fig = _figure(4.8)
    ax = fig.subplots()
    x = _net_bars_by_run(ax, t, t, "order", orders, runs)
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_xticks(x, orders)
    ax.set_xlabel("order of the seat's first win in the hand")
    ax.set_ylabel("mean net of the seat per hand")
    ax.margins(y=0.12)
    ax.legend(fontsize=8)
    suptitle(fig, "Net per hand by win order (mean, 95% CI over hands; at the bars: seat-hands)", t)
    return fig


@drawn
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
    fig = _figure(1.6 + 0.55 * len(rules) * max(len(runs), 1) + 0.6)
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
    axes[0].set_yticks(y, [xz_rule_label(r) for r in rules], fontsize=8.5)
    axes[0].set_xlabel("share of hands in which the rule moves money")
    axes[0].set_title("how often (Wilson 95% interval)", fontsize=9)
    axes[1].set_xlabel("money moved per hand, all hands (sum received)")
    axes[1].set_title("how much (95% CI)", fontsize=9)
    for ax in axes:
        ax.set_xlim(left=0)
        ax.margins(x=0.25)
    axes[0].legend(fontsize=8, loc="lower right")
    suptitle(fig, "Blood-war settlement rules: firing rate and money per hand (clustered by hand)", t)
    return fig


# --------------------------------------------------------------------------- 水头 (shuitou)

SHT_VALUE_PANELS = {
    "caishen": ("by {} (wild tiles) held as the hand ended", "caishen held at the end"),
    "flowers": ("by {} set aside (red, black and white-dragon groups)", "flowers set aside"),
}
SHT_MONEY_LABELS = {"win": "win payments\n(SHT-M1)", "base": "non-winner base\nsettlement (SHT-M2)",
                    "liability": "liability\n(SHT-M3)"}  # fmt: skip
SHT_EDGE_LABELS = {"net": "net", "win": "win", "base": "base\nsettlement", "liability": "liability"}


@drawn
def sht_value_figure(table) -> Figure:
    """Mean net per hand of a seat by the 财神 it held at the end and by the flowers it set aside, 95% CI.

    ``table`` (:func:`mjsim.report.tables.sht_value_table`): run, kind ("caishen", "flowers"), count,
    label, seats, mean_net, mean_net_lo, mean_net_hi, hands.  One axes per kind, runs as side-by-side
    bars; the number at a bar's whisker is its seat-hands.
    """
    t = to_pandas(table)
    runs = runs_of(t)
    kinds = [k for k in SHT_VALUE_PANELS if k in set(t["kind"])]
    fig = _figure(4.8)
    axes = fig.subplots(1, max(len(kinds), 1), squeeze=False)[0]
    for ax, kind in zip(axes, kinds, strict=False):
        part = t[t["kind"] == kind]
        labels = list(dict.fromkeys(part.sort_values("count")["label"]))
        x = _net_bars_by_run(ax, t, part, "label", labels, runs)
        title, xlabel = SHT_VALUE_PANELS[kind]
        ax.axhline(0, color="grey", lw=0.5)
        ax.set_xticks(x, labels)
        ax.set_xlabel(xlabel)
        ax.set_title(title.format(term(kind)), fontsize=9.5)
        integer_axis(ax.yaxis)
        ax.margins(y=0.12)
    axes[0].set_ylabel("mean net of the seat per hand (points)")
    axes[0].legend(fontsize=8, loc="upper left")
    suptitle(fig, "What caishen and flowers are worth: a seat's net per hand by what it held (mean, 95% CI "
             "clustered by session; at the bars: seat-hands)", t)  # fmt: skip
    return fig


@drawn
def sht_money_figure(table) -> Figure:
    """Where the 水头 money goes: money moved per won hand by component, and the dealer's edge by component.

    ``table`` (:func:`mjsim.report.tables.sht_money_table`): run, component, moved_per_won_hand (_lo, _hi),
    share, dealer_edge (_lo, _hi), hands.  Left: win payments, the non-winners' base settlement and
    liability, per hand with a winner (the number at a bar: its share of all money moved); right: the
    dealer's net minus the others' mean, per hand, in total and by component.  Runs side by side.
    """
    t = to_pandas(table)
    runs = runs_of(t)
    fig = _figure(4.8)
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
        integer_axis(ax.yaxis)
    money.legend(fontsize=8, loc="upper right")
    suptitle(fig, "Shuitou money: win payments against the non-winner settlement, and the dealer's edge "
             "(means, 95% CI clustered by session)", t)  # fmt: skip
    return fig
