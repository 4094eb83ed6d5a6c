"""The report's opening section: each rule question asked, its answer in plain words, and the measures."""

from __future__ import annotations

from html import escape

from mjsim.analysis.headline import MEASURES
from mjsim.analysis.verdict import Question, answer_text
from mjsim.report import html as H

UNITS = {m[0]: (m[1], m[2]) for m in MEASURES}
SHARE_MEASURES = frozenset({"p_session_loss", "drawn_rate", "limit_rate", "changed_rate"})


def _value(name: str, x: float) -> str:
    if x != x:
        return "—"
    if name in SHARE_MEASURES:
        return f"{100 * x:.2f}%"
    return f"{x:+.3f}" if name.startswith(("mean_", "dealer_edge")) else f"{x:.3f}"


def _change(q: Question, c) -> str:
    if c.identical:
        return "unchanged in every hand"
    if c.kind == "ratio":
        text = f"x{c.estimate:.2f} [{c.ci_low:.2f}, {c.ci_high:.2f}]"
    elif c.measure in SHARE_MEASURES:
        text = f"{100 * c.estimate:+.2f} [{100 * c.ci_low:+.2f}, {100 * c.ci_high:+.2f}] pp"
    else:
        text = f"{c.estimate:+.3f} [{c.ci_low:+.3f}, {c.ci_high:+.3f}]"
    return text


def _verdict(c) -> str:
    if c.identical:
        return "same"
    if c.resolved:
        return "changed"
    return f"cannot tell (about {float(f'{c.hands_needed:.2g}'):,.0f} hands would)" if c.hands_needed else "cannot tell"


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
    parts = []
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
