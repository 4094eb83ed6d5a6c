"""The advisor's page: the summary in words, the table of combinations, and spread against dealer's edge.

:func:`write_advice` writes ``advice.csv`` (the table), ``advice.png`` (the
figure) and ``advice.html`` (self-contained: the figure embedded) for an
:class:`mjsim.analysis.advise.Advice`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from mjsim.analysis.advise import TABLE_MEASURES, Advice
from mjsim.analysis.advise_words import column_digits, summary_text, value_text
from mjsim.report import html as H
from mjsim.report.figures import png_bytes, wrap

POINT, FRONT = "#2c7fb8", "#d95f02"
COLUMNS = {
    "dealer_edge": "dealer's edge (points a hand)",
    "seat_gap": "seat gap (points a hand)",
    "sd_hand": "spread per hand (sd, points)",
    "sd_session": "spread per session (sd, points)",
    "p_session_loss": "P(lose more than T in a session)",
    "hand_length": "hand length (discards)",
    "drawn_rate": "drawn hands",
    "limit_rate": "limit hands (paid at the cap)",
}


def _errors(value, lo, hi) -> np.ndarray:
    value, lo, hi = (np.asarray(a, dtype=float) for a in (value, lo, hi))
    return np.nan_to_num(np.vstack([value - lo, hi - value]).clip(min=0))


def _groups(pixels: np.ndarray, front: np.ndarray, near: float = 10.0) -> list[list[int]]:
    """Points whose markers touch (within ``near`` pixels) and share their Pareto status, as groups labelled
    once ("3, 4"): equal or nearly equal points would otherwise print their numbers on top of each other."""
    groups: list[list[int]] = []
    for i in range(len(pixels)):
        for g in groups:
            if front[g[0]] == front[i] and np.hypot(*(pixels[i] - pixels[g[0]])) <= near:
                g.append(i)
                break
        else:
            groups.append([i])
    return groups


def _overlaps(box, boxes, gap: float = 4.0) -> bool:
    """Whether ``box`` comes within ``gap`` pixels of any of ``boxes`` (so that "9" and "11" never read "911")."""
    return any(box[0] < b[2] + gap and b[0] < box[2] + gap and box[1] < b[3] + gap and b[1] < box[3] + gap
               for b in boxes)  # fmt: skip


def _label_points(fig: Figure, ax, x: np.ndarray, y: np.ndarray, front: np.ndarray, fontsize: float = 10.5) -> None:
    """Number every point (its row in the table), each label put where it covers no marker and no other
    label: tried above-right, below-right, above-left and below-left of it, then the same further out, where
    a leader line joins it to its point."""
    fig.draw_without_rendering()  # the constrained layout fixes the axes, so data map to final pixels
    pixels = ax.transData.transform(np.column_stack([x, y]))
    frame = ax.get_window_extent()
    scale = fig.dpi / 72  # pixels a point
    markers = [(px - 6, py - 6, px + 6, py + 6) for px, py in pixels]
    labels: list[tuple] = []
    for g in _groups(pixels, front):
        text = ", ".join(str(i + 1) for i in g)
        w, h = 0.62 * fontsize * len(text), 1.15 * fontsize  # the label's size in points (roughly)
        px, py = pixels[g].mean(axis=0)
        spots = []
        for r in range(4):  # right, below-right, left, below-left; then the same further out
            spots += [(6 + 6 * r, 4 + 14 * r), (6 + 6 * r, -4 - h - 14 * r), (-6 - w - 6 * r, 4 + 14 * r),
                      (-6 - w - 6 * r, -4 - h - 14 * r)]  # fmt: skip
        boxes = [(px + dx * scale, py + dy * scale, px + (dx + w) * scale, py + (dy + h) * scale) for dx, dy in spots]
        inside = [frame.x0 <= b[0] and b[2] <= frame.x1 and frame.y0 <= b[1] and b[3] <= frame.y1 for b in boxes]
        free = [inside[k] and not _overlaps(b, markers, 0) and not _overlaps(b, labels) for k, b in enumerate(boxes)]
        tried = next((k for k, ok in enumerate(free) if ok), 0)
        (dx, dy), box = spots[tried], boxes[tried]
        labels.append(box)
        on = bool(front[g].any())
        far = tried >= 4  # moved away from its point: a leader line says whose it is
        ax.annotate(text, (x[g].mean(), y[g].mean()), xytext=(dx, dy), textcoords="offset points",
                    fontsize=fontsize, fontweight="bold" if on else "normal", color=FRONT if on else "#222",
                    va="bottom", ha="left", zorder=5,
                    arrowprops=dict(arrowstyle="-", color="#888", lw=0.7, shrinkA=0, shrinkB=4) if far else None)  # fmt: skip


def advice_figure(advice: Advice) -> Figure:
    """Spread per hand against the size of the dealer's edge, one numbered point per combination with its
    95% intervals as whiskers, the Pareto front highlighted and joined; the key names every number."""
    t = advice.table
    x, y = t["abs_dealer_edge"].to_numpy(), t["sd_hand"].to_numpy()
    xerr = _errors(x, t["abs_dealer_edge_low"].to_numpy(), t["abs_dealer_edge_high"].to_numpy())
    yerr = _errors(y, t["sd_hand_low"].to_numpy(), t["sd_hand_high"].to_numpy())
    front = t["pareto"].to_numpy()
    rows = len(t)
    key_font = 10 if rows <= 16 else 8
    entries = [f"{'*' if on else ' '}{i + 1:>2}  {label}" for i, (label, on) in enumerate(zip(t["combination"], front))]
    # the key as wide as its longest entry (monospace: 0.6 em a character), the plot beside it 7.5 in wide
    key_width = max(2.5, 0.62 * key_font / 72 * max(len(e) for e in entries) + 0.2)
    fig = Figure(figsize=(7.5 + key_width + 0.6, 6.5), layout="constrained")
    ax, key = fig.subplots(1, 2, width_ratios=[7.5, key_width])
    for mask, colour, size, name in ((~front, POINT, 6, "other combinations"), (front, FRONT, 9, "Pareto front")):
        if mask.any():
            ax.errorbar(x[mask], y[mask], xerr=xerr[:, mask], yerr=yerr[:, mask], fmt="o", color=colour,
                        ecolor=to_rgba(colour, 0.45), markersize=size, capsize=3, elinewidth=1, label=name, zorder=3 if mask is front else 2)  # fmt: skip
    order = np.flatnonzero(front)[np.argsort(x[front], kind="stable")]
    ax.plot(x[order], y[order], "-", color=FRONT, linewidth=1.6, alpha=0.8, zorder=2)
    xspan = max(np.nanmax(x + xerr[1]) - np.nanmin(x - xerr[0]), 1e-9)
    yspan = max(np.nanmax(y + yerr[1]) - np.nanmin(y - yerr[0]), 1e-9)
    ax.set_xlim(left=max(0.0, np.nanmin(x - xerr[0]) - 0.08 * xspan), right=np.nanmax(x + xerr[1]) + 0.12 * xspan)
    ax.set_ylim(np.nanmin(y - yerr[0]) - 0.08 * yspan, np.nanmax(y + yerr[1]) + 0.12 * yspan)
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(MaxNLocator(nbins=7, steps=[1, 2, 2.5, 5, 10]))
        axis.get_major_formatter().set_useOffset(False)  # values as they are, never "+1.2e1"
        axis.get_major_formatter().set_scientific(False)
    ax.tick_params(labelsize=10)
    ax.set_xlabel("size of the dealer's edge |dealer edge|, points a hand (smaller: more even seats)", fontsize=10.5)
    ax.set_ylabel("spread: sd of a player's net per hand, points (smaller: calmer)", fontsize=10.5)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=10, loc="upper right", framealpha=0.8)
    ax.set_title(wrap(f"{advice.ruleset}: spread against dealer's edge, 95% intervals; "
                      f"{advice.hands:,} hands per combination; lower left is better", 80), fontsize=11.5)  # fmt: skip
    _label_points(fig, ax, x, y, front)
    key.set_axis_off()
    key.set_title("combinations (* Pareto front)", fontsize=11.5, loc="left")
    step = min(0.075, 0.95 / max(rows, 1))
    for i, (entry, on) in enumerate(zip(entries, front, strict=True)):
        key.text(0.0, 0.97 - i * step, entry, transform=key.transAxes, va="top", family="monospace",
                 fontsize=key_font, color=FRONT if on else "#222", fontweight="bold" if on else "normal")  # fmt: skip
    return fig


def table_rows(advice: Advice) -> tuple[list[dict], list[str]]:
    """The advice table as display rows (estimate [95% interval] in each cell) and its columns."""
    t = advice.table
    heads = {m: COLUMNS[m].replace(" T ", f" {advice.threshold:g} ") for m in TABLE_MEASURES}
    digits = {m: column_digits(t, m) for m in TABLE_MEASURES}
    rows = []
    for i, row in enumerate(t.iter_rows(named=True), 1):
        shown = {"#": i, "combination": row["combination"], "Pareto": "yes" if row["pareto"] else ""}
        for m in TABLE_MEASURES:
            shown[heads[m]] = value_text(m, row[m], row[f"{m}_low"], row[f"{m}_high"], digits[m])
        shown["made"] = row["method"]
        rows.append(shown)
    return rows, ["#", "combination", "Pareto", *heads.values(), "made"]


def advice_html(advice: Advice, figure: Figure) -> str:
    rows, columns = table_rows(advice)
    words = summary_text(advice)
    session = f"{advice.session_length}-hand session" if advice.session_length > 1 else "session"
    sections = [
        {
            "heading": "In short",
            "parts": [f"<p><strong>{H.escape(words[0])}</strong></p>"] + [H.paragraph(line) for line in words[1:]],
        },  # fmt: skip
        {
            "heading": "Every combination",
            "intro": (
                "Each measure with its 95% interval (a bootstrap of whole sessions, the same sessions for every "
                "combination). Dealer's edge: the dealer's mean net minus the mean of the other three seats; seat gap: "
                "the widest gap between two non-dealer seats' mean nets; spread: the sd of one seat's net; "
                f"P(lose more than {advice.threshold:g}): the share of seat-sessions ({session}s) losing more than "
                f"{advice.threshold:g} points, one threshold for all (a round number near twice the first "
                "combination's session sd); limit hands: a winner paid at the cap (n/a without a cap). Pareto: no "
                "other combination has both a smaller spread per hand and a smaller |dealer edge|."
            ),
            "parts": [H.table_html(rows, columns, "advice", label_columns=2)],
        },  # fmt: skip
        {
            "heading": "Spread against the dealer's edge",
            "parts": [
                H.figure_html(
                    figure,
                    (
                        "Each combination's spread per hand against the size of its dealer's edge, with 95% intervals; the "
                        "Pareto front (orange) is joined. The numbers are the rows of the table."
                    ),
                    "advice",
                )
            ],
        },  # fmt: skip
    ]
    return H.render_html(f"Rule advice: {advice.ruleset}", sections)


def write_advice(advice: Advice, out_dir) -> dict[str, Path]:
    """``advice.csv``, ``advice.png`` and ``advice.html`` in ``out_dir``; returns their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {name: out / f"advice.{name}" for name in ("csv", "png", "html")}
    advice.table.write_csv(paths["csv"])
    figure = advice_figure(advice)
    paths["png"].write_bytes(png_bytes(figure, dpi=110))
    paths["html"].write_text(advice_html(advice, figure), encoding="utf-8")
    return paths


__all__ = ["advice_figure", "advice_html", "table_rows", "write_advice"]
