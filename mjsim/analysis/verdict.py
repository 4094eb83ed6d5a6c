"""Rule questions and their answers in plain words, generated from the headline measures.

A comparison asks one question per varied option or preset pair: "what does
the alternative ruleset change against the reference?".  :func:`answer`
measures both runs (:mod:`mjsim.analysis.headline`) and words the answer:
a short verdict, then each measure that moved (with its 95% interval), then
what the sample cannot tell and how many hands would.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from mjsim.analysis.headline import WORDS, Change, compare_runs, hands_text, load_hands
from mjsim.analysis.variants import pooled_runs
from mjsim.io.dataset import read_run_info

SHOWN_OPTIONS = 4  # options named in a question's title before "and N more"


@dataclass
class Question:
    """One rule question: the alternative run against the reference run."""

    reference: str  # labels
    alternative: str
    reference_dirs: list[Path]  # one run directory per seating (balanced seating), pooled
    alternative_dirs: list[Path]
    method: str = "simulated"  # how the alternative was made: "re-settled" or "simulated"
    group: str = ""
    title: str = ""
    changes: list[Change] = field(default_factory=list)
    threshold: float = 0.0
    session_length: int = 0
    hands: int = 0
    paired: bool = False
    across: str = ""  # with a policy panel: whether the answer holds for every player type

    @property
    def by_name(self) -> dict[str, Change]:
        return {c.measure: c for c in self.changes}


def _options(info: dict) -> dict:
    try:
        return tomllib.loads(info.get("ruleset_toml", ""))
    except tomllib.TOMLDecodeError:
        return {}


def _show(value) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, dict):
        return "a different table"
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]" if len(value) <= 4 else f"{len(value)} entries"
    return str(value)


def differing_options(reference: dict, alternative: dict) -> list[tuple[str, object, object]]:
    """The options two rulesets set differently, as (name, reference value, alternative value)."""
    keys = [k for k in dict.fromkeys([*reference, *alternative]) if k not in ("name", "description")]
    return [(k, reference.get(k), alternative.get(k)) for k in keys if reference.get(k) != alternative.get(k)]


def question_title(ref_info: dict, alt_info: dict, ref_label: str, alt_label: str) -> str:
    """What the question asks, e.g. "cap 5 instead of 3 (in jipinghu)" or, for two presets, the alternative
    edition against the reference with the options they differ in."""
    ref, alt = _options(ref_info), _options(alt_info)
    diffs = differing_options(ref, alt)
    shown = "; ".join(f"{k} {_show(b)} instead of {_show(a)}" for k, a, b in diffs[:SHOWN_OPTIONS])
    more = f"; and {len(diffs) - SHOWN_OPTIONS} more options" if len(diffs) > SHOWN_OPTIONS else ""
    if ref.get("name") == alt.get("name"):
        return f"{shown}{more} (in {ref.get('name', ref_label)})" if diffs else f"{alt_label} against {ref_label}"
    describe = lambda o, label: f"{label} ({o['description']})" if o.get("description") else label  # noqa: E731
    return (
        f"{describe(alt, alt_label)} instead of {describe(ref, ref_label)}: {len(diffs)} options differ ({shown}{more})"
    )


def answer(question: Question, seed: int = 0) -> Question:
    """Measure the question's two runs and fill in its changes (paired when both hold the same hands)."""
    ref_info, alt_info = read_run_info(question.reference_dirs[0]), read_run_info(question.alternative_dirs[0])
    ref_lf, alt_lf = pooled_runs(question.reference_dirs), pooled_runs(question.alternative_dirs)
    return answer_frames(question, ref_lf, alt_lf, ref_info, alt_info, seed)


def answer_frames(question: Question, ref_lf, alt_lf, ref_info: dict, alt_info: dict, seed: int = 0) -> Question:
    """:func:`answer` on given hand logs (lazy frames, pooled over seatings with a ``seating`` column)."""
    ref = load_hands(ref_lf, ref_info)
    paired = ref_info.get("seed") == alt_info.get("seed") and ref_info.get("hands") == alt_info.get("hands")
    alt = load_hands(alt_lf, alt_info, ref.session_ids if paired else None)
    paired = paired and ref.hands == alt.hands and bool((ref.key == alt.key).all())
    question.changes, question.threshold = compare_runs(ref, alt, paired, seed=seed)
    question.paired, question.hands = paired, ref.hands
    question.session_length = int(ref_info.get("session_length") or 0)
    question.title = question.title or question_title(ref_info, alt_info, question.reference, question.alternative)
    return question


# --- wording ------------------------------------------------------------------------------------------------


def _num(x: float, digits: int = 2, sign: bool = False) -> str:
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%" if abs(x) >= 0.001 or x == 0 else f"{100 * x:.2f}%"


def _hands(n: int | None) -> str:
    return "" if n is None else hands_text(n)


def _session(q: Question) -> str:
    return f"{q.session_length}-hand session" if q.session_length > 1 else "session"


def clause(q: Question, c: Change) -> str:
    """One measure's change in words, with its interval (the measure must have moved or be untold)."""
    if c.measure == "p_session_loss":
        name = f"the chance of losing more than {q.threshold:g} points in an {_session(q)}"
        what = f"goes from {_pct(c.reference)} to {_pct(c.alternative)}"
        interval = f"{_num(100 * c.estimate, 1, True)} [{_num(100 * c.ci_low, 1, True)}, {_num(100 * c.ci_high, 1, True)}] percentage points"
        return f"{name} {what} ({interval})"
    if c.measure == "sd_session":
        name = f"the spread of a player's result over an {_session(q)}"
    else:
        name = WORDS.get(c.measure, c.measure)
    if c.kind == "ratio":
        return (f"multiplies {name} by {c.estimate:.2f} [{c.ci_low:.2f}, {c.ci_high:.2f}] "
                f"(sd {c.reference:.1f} -> {c.alternative:.1f} points)")  # fmt: skip
    if c.measure in ("drawn_rate", "limit_rate"):
        return (f"{name} goes from {_pct(c.reference)} to {_pct(c.alternative)} "
                f"({_num(100 * c.estimate, 2, True)} [{_num(100 * c.ci_low, 2, True)}, {_num(100 * c.ci_high, 2, True)}] "
                "percentage points)")  # fmt: skip
    digits = 1 if c.measure in ("hand_length", "drawdown") else 2
    signed = c.measure.startswith(("mean_", "dealer_edge"))  # the others are never negative
    verb = "rises" if c.estimate > 0 else "falls"
    return (f"{name} {verb} from {_num(c.reference, digits, signed)} to {_num(c.alternative, digits, signed)} "
            f"({_num(c.estimate, digits, True)} [{_num(c.ci_low, digits, True)}, {_num(c.ci_high, digits, True)}])")  # fmt: skip


HEADLINE_ORDER = ("sd_hand", "sd_session", "sd_dealer", "p_session_loss", "drawdown", "dealer_edge", "seat_gap", "hand_length",
                  "drawn_rate", "limit_rate")  # fmt: skip


def short_verdict(q: Question) -> str:
    """The answer in one sentence: riskier or safer, and whether it moves the dealer's edge."""
    c = q.by_name
    spread, edge = c.get("sd_hand"), c.get("dealer_edge")
    if spread is None or spread.identical or not spread.resolved:
        risk = "about as risky for a player"
    else:
        risk = (f"riskier for a player (swings x{spread.estimate:.2f})" if spread.estimate > 1
                else f"safer for a player (swings x{spread.estimate:.2f})")  # fmt: skip
    if edge is None or edge.identical:
        favour = "the dealer's edge is unchanged"
    elif edge.resolved:
        toward = "more" if abs(edge.alternative) > abs(edge.reference) else "less"
        favour = f"the table tilts {toward} toward {'the dealer' if edge.alternative > 0 else 'the other seats'}"
    else:
        favour = "no detectable change in the dealer's edge"
    return f"{q.alternative} is {risk}, and {favour}."


def advice(q: Question) -> str:
    """Which of the two rulesets a house should pick for small swings and for even seats, from resolved
    changes only; or that the sample cannot tell them apart, and how many hands would."""
    c = q.by_name
    choices = {}
    spread = c.get("sd_hand")
    if spread is not None and spread.resolved:
        choices["smaller swings"] = q.reference if spread.estimate > 1 else q.alternative
    edge = c.get("dealer_edge")
    if edge is not None and edge.resolved:
        choices["a smaller dealer's edge"] = (
            q.reference if abs(edge.reference) < abs(edge.alternative) else q.alternative
        )
    if len(set(choices.values())) == 1:
        return f"For a house: for {' and '.join(choices)} choose {next(iter(choices.values()))}."
    if choices:
        return "For a house: " + "; ".join(f"for {goal} choose {pick}" for goal, pick in choices.items()) + "."
    needed = [x.hands_needed for x in (spread, edge) if x is not None and x.hands_needed]
    tell = f"; {_hands(min(needed))} each would" if needed else ""
    return f"For a house: these {q.hands:,} hands cannot tell the two apart on swings or the dealer's edge{tell}."


def answer_text(q: Question) -> list[str]:
    """The answer as sentences: the short verdict, what changed, what is unchanged, what is untold."""
    c = q.by_name
    how = ("the same hands re-settled" if q.method == "re-settled"
           else "simulated on the same walls, paired" if q.paired else "simulated on other walls, unpaired")  # fmt: skip
    lines = [short_verdict(q)]
    fired = c.get("changed_rate")
    moved, untold, same = [], [], []
    for name in HEADLINE_ORDER:
        x = c.get(name)
        if x is None:
            continue
        if x.identical:
            same.append(WORDS[name])
        elif x.resolved:
            moved.append(clause(q, x))
        else:
            untold.append((x, clause(q, x)))
    first = f"On {q.hands:,} hands ({how})"
    if fired is not None:
        what = "the change alters the payments of" if q.method == "re-settled" else "the payments differ in"
        first += f", {what} {_pct(fired.estimate)} of hands" + (
            f" [{_pct(fired.ci_low)}, {_pct(fired.ci_high)}]" if fired.estimate > 0 else "")  # fmt: skip
    lines.append(first + ".")
    if moved:
        lines.append("It " + "; ".join(moved) + ".")
    if untold:
        detail = "; ".join(
            f"{text[:-1]}; {_hands(x.hands_needed)} would tell)" if x.hands_needed else text for x, text in untold
        )
        lines.append(
            f"The sample cannot tell whether {len(untold) == 1 and 'this changes' or 'these change'}: {detail}."
        )
    if same:
        lines.append("Unchanged in every hand: " + ", ".join(same) + ".")
    if q.across:
        lines.append(q.across)
    lines.append(advice(q))
    return lines


def holds_for_all(answers: dict[str, Question], measures=("sd_hand", "dealer_edge")) -> str:
    """Whether a question's answer holds for every player type of a panel: for each headline measure, the
    direction of every resolved change and which player types leave it unresolved."""
    out = []
    for name in measures:
        ups = [p for p, q in answers.items() if (x := q.by_name.get(name)) and x.resolved and _up(x)]
        downs = [p for p, q in answers.items() if (x := q.by_name.get(name)) and x.resolved and not _up(x)]
        open_ = [p for p in answers if p not in ups and p not in downs]
        if ups and downs:
            out.append(f"{WORDS[name]}: the answer depends on the players (up for {', '.join(ups)}; down for "
                       f"{', '.join(downs)})")  # fmt: skip
        elif ups or downs:
            way = "up" if ups else "down"
            rest = f"; not resolved for {', '.join(open_)}" if open_ else ""
            out.append(
                f"{WORDS[name]}: {way} for {'every player type' if not open_ else ', '.join(ups or downs)}{rest}"
            )
        else:
            out.append(f"{WORDS[name]}: not resolved for any player type")
    return "Across player types — " + "; ".join(out) + "."


def panel_questions(results: dict[str, list[dict]], main: str) -> list[Question]:
    """The questions answered on the ``main`` table of a panel run (``results``: entries per table), each
    saying whether its answer holds for every other table's player type."""
    answered = {table: [answer(q) for q in questions_from_entries(entries)] for table, entries in results.items()}
    members = [t for t in answered if t != main]
    for i, q in enumerate(answered[main]):
        q.across = holds_for_all({t: answered[t][i] for t in members})
    return answered[main]


def _up(c: Change) -> bool:
    return c.estimate > 1 if c.kind == "ratio" else c.estimate > 0


def questions_from_entries(entries: list[dict]) -> list[Question]:
    """One question per non-reference variant of each comparison group (pooled over its seatings;
    mechanical counterparts of adapted play left out), against the group's first variant."""
    shown = [e for e in entries if e.get("seating", 0) == 0 and not e.get("mechanical_of")]

    def dirs(group, variant):  # every seating's run of a variant, in seating order
        runs = [e for e in entries if e["group"] == group and e["variant"] == variant]
        return [Path(e["path"]) for e in sorted(runs, key=lambda e: e.get("seating", 0))]

    questions = []
    for group in dict.fromkeys(e["group"] for e in shown):
        members = [e for e in shown if e["group"] == group]
        ref = members[0]
        for alt in members[1:]:
            questions.append(Question(ref["variant"], alt["variant"], dirs(group, ref["variant"]),
                                      dirs(group, alt["variant"]), method=alt.get("method", "simulated"),
                                      group=group))  # fmt: skip
    return questions


def format_answers(questions: list[Question]) -> str:
    """Every question and its answer as terminal text."""
    lines = []
    for i, q in enumerate(questions, 1):
        lines.append(f"Q{i}. {q.title}")
        lines += [f"    {s}" for s in answer_text(q)]
    return "\n".join(lines)


__all__ = ["Question", "advice", "answer", "answer_text", "format_answers", "holds_for_all", "panel_questions", "question_title",
           "questions_from_entries", "short_verdict"]  # fmt: skip
