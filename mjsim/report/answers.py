"""The report's opening section: each rule question asked, its answer in plain words, and the measures."""

from __future__ import annotations

from html import escape

from mjsim.analysis.headline import MEASURES, SHARES, hands_text
from mjsim.analysis.verdict import Question, answer_text
from mjsim.report import html as H

UNITS = {m[0]: (m[1], m[2]) for m in MEASURES}


def _value(name: str, x: float) -> str:
    if x != x:
        return "—"
    if name in SHARES:
        return f"{100 * x:.2f}%"
    return f"{x:+.3f}" if name.startswith(("mean_", "dealer_edge")) else f"{x:.3f}"


def _change(q: Question, c) -> str:
    if c.identical:
        return "unchanged in every hand"
    if c.kind == "ratio":
        text = f"x{c.estimate:.2f} [{c.ci_low:.2f}, {c.ci_high:.2f}]"
    elif c.measure in SHARES:
        text = f"{100 * c.estimate:+.2f} [{100 * c.ci_low:+.2f}, {100 * c.ci_high:+.2f}] pp"
    else:
        text = f"{c.estimate:+.3f} [{c.ci_low:+.3f}, {c.ci_high:+.3f}]"
    return text


def _verdict(c) -> str:
    if c.identical:
        return "same"
    if c.resolved:
        return "changed"
    return f"cannot tell ({hands_text(c.hands_needed)} would)" if c.hands_needed else "cannot tell"


def measures_rows(q: Question) -> list[dict]:
    """One row per headline measure: both runs' values and the change with its 95% interval."""
    rows = []
    for c in q.changes:
        if c.measure == "changed_rate":
            name, unit = "hands whose payments change", "share of hands"
            ref, alt = "—", _value(c.measure, c.estimate)
        else:
            name, unit = UNITS[c.measure]
            if c.measure == "p_session_loss":
                name = f"P(lose more than {q.threshold:g} in a session)"
            ref, alt = _value(c.measure, c.reference), _value(c.measure, c.alternative)
        rows.append({"measure": name, "unit": unit, q.reference: ref, q.alternative: alt,
                     "change [95% CI]": "—" if c.measure == "changed_rate" else _change(q, c),
                     "verdict": "fires" if c.measure == "changed_rate" else _verdict(c)})  # fmt: skip
    return rows


def answers_section(questions: list[Question]) -> dict:
    """The report section answering every question (see :mod:`mjsim.analysis.verdict`)."""
    figure = answers_figure(questions)
    parts = [H.figure_html(figure, (
        "Every question at a glance. Left: how the alternative multiplies the spread (sd) of one seat's net per "
        "hand, over a session, and of the dealer's net per hand, log axis; right: how it moves the dealer's edge, "
        "with both runs' values above the point. 95% intervals from the paired session bootstrap."), "answers")]  # fmt: skip
    figure.clear()
    for i, q in enumerate(questions, 1):
        parts.append(H.heading(f"Q{i}. {q.title}"))
        text = answer_text(q)
        parts.append(f"<p><strong>{escape(text[0])}</strong></p>")
        parts += [H.paragraph(s) for s in text[1:]]
        rows = measures_rows(q)
        parts.append(H.table_html(rows, list(rows[0]), "answers", label_columns=2))
    return {
        "heading": "Questions and answers",
        "intro": (
            "Each question compares a ruleset with the first of its group, on the same walls where the runs share "
            "them (paired). Ratios and differences carry 95% intervals from a bootstrap of whole sessions, the "
            "same sessions drawn for both runs; 'cannot tell' gives the hands each run would need to resolve an "
            "effect of the estimated size (95% interval, 80% power). Spread is the standard deviation of one "
            "seat's net; a session's loss threshold is a round number near twice the reference's session sd."
        ),
        "parts": parts,
    }


SPREAD_MEASURES = (("sd_hand", "per hand"), ("sd_session", "per session"), ("sd_dealer", "dealer, per hand"))


def answers_figure(questions: list[Question]):
    """Each question at a glance: left, how it multiplies the spread of a result (per hand, per session,
    the dealer's per hand), on a log axis around 1; right, the dealer's edge in both runs. 95% intervals."""
    from matplotlib.figure import Figure

    rows = len(questions)
    fig = Figure(figsize=(11, 1.2 + 1.1 * rows), layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=(3, 2))
    ticks, labels = [], []
    for i, q in enumerate(questions):
        y0 = (rows - 1 - i) * 4
        for j, (name, what) in enumerate(SPREAD_MEASURES):
            c = q.by_name.get(name)
            if c is None or c.kind != "ratio":
                continue
            y = y0 + 2 - j
            left.errorbar([c.estimate], [y], xerr=[[c.estimate - c.ci_low], [c.ci_high - c.estimate]], fmt="o",
                          color=("#2c7fb8", "#1b9e77", "#c0392b")[j], capsize=3)  # fmt: skip
            ticks.append(y)
            labels.append(f"Q{i + 1} {what}")
        edge = q.by_name.get("dealer_edge")
        if edge is not None:
            right.errorbar([edge.estimate], [y0 + 1], xerr=[[edge.estimate - edge.ci_low], [edge.ci_high - edge.estimate]],
                           fmt="o", color="#7570b3", capsize=3)  # fmt: skip
            right.annotate(f"{edge.reference:+.2f} -> {edge.alternative:+.2f}", (edge.estimate, y0 + 1),
                           xytext=(0, 7), textcoords="offset points", ha="center", fontsize=8)  # fmt: skip
    left.axvline(1.0, color="#555555", lw=1)
    left.set_xscale("log")
    left.xaxis.set_major_formatter(_ratio_formatter())
    left.xaxis.set_minor_formatter(_ratio_formatter(minor=True))
    left.set_yticks(ticks, labels)
    left.set_xlabel("sd of net, alternative / reference, 95% interval")
    left.set_title("Swings: x alternative / reference (x1 = no change)", fontsize=11)
    right.axvline(0.0, color="#555555", lw=1)
    right.set_yticks([(rows - 1 - i) * 4 + 1 for i in range(rows)], [f"Q{i + 1}" for i in range(rows)])
    right.set_ylim(left.get_ylim())
    right.set_xlabel("change, points a hand, 95% interval")
    right.set_title("Dealer's edge: change (0 = none)", fontsize=11)
    right.ticklabel_format(axis="x", useOffset=False, style="plain")
    return fig


def _ratio_formatter(minor: bool = False):
    from matplotlib.ticker import FuncFormatter

    shown = {0.5, 0.7, 1.5, 2, 3, 5, 7} if minor else None

    def text(x, _pos):
        if minor and round(x, 2) not in shown:
            return ""
        return f"x{x:g}"

    return FuncFormatter(text)
