"""The rule advisor's result in words: the summary that opens the page, and the table as text.

Every sentence is generated from :class:`mjsim.analysis.advise.Advice`: the Pareto front, the smallest
spread and the smallest dealer's edge, whom each ties with, is told from on the same walls although the
intervals overlap, or cannot be told from (and roughly how many hands would tell), and a closing word.
"""

from __future__ import annotations

import math

import polars as pl

from mjsim.analysis.advise import Advice, Separation, best_and_overlapping, silent_options
from mjsim.analysis.headline import SHARES, Change, hands_text

CONTENDERS_SHOWN = 3  # combinations named as not separable from the best, before "and N more"


def digits_for(half_width: float) -> int:
    """Decimals that show a 95% interval's half-width to two significant figures (0 to 4)."""
    if not half_width > 0 or not math.isfinite(half_width):
        return 2
    return int(min(4, max(0, 1 - math.floor(math.log10(half_width)))))


def value_text(name: str, x: float, lo: float, hi: float, digits: int | None = None) -> str:
    """``"12.3 [11.9, 12.8]"``, shares as percentages, signed for the dealer's edge; n/a for NaN."""
    if x is None or not math.isfinite(x):
        return "n/a"
    scale, unit = (100.0, "%") if name in SHARES else (1.0, "")
    digits = digits_for(scale * (hi - lo) / 2) if digits is None else digits
    sign = "+" if name == "dealer_edge" else ""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return f"{scale * x:{sign}.{digits}f}{unit}"
    return f"{scale * x:{sign}.{digits}f}{unit} [{scale * lo:{sign}.{digits}f}, {scale * hi:{sign}.{digits}f}]"


def column_digits(table: pl.DataFrame, name: str) -> int:
    """One number of decimals for a whole column: enough for its narrowest interval."""
    scale = 100.0 if name in SHARES else 1.0
    widths = ((table[f"{name}_high"] - table[f"{name}_low"]) * scale / 2).drop_nans().drop_nulls()
    widths = widths.filter(widths > 0)
    return digits_for(float(widths.min())) if widths.len() else 2


def _hands(n: int | None) -> str:
    if n is None:
        return "no sample size would (the estimates are equal)"
    return f"{hands_text(n)} would"


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


AXES = {  # how the words name each Pareto axis: the measure, the better end, what a house gets there
    "sd_hand": ("spread", "calmer", "the calmest game"),
    "abs_dealer_edge": ("dealer's edge", "more even", "the most even seats"),
}


def _q(label: str) -> str:
    """A combination named in a sentence: quoted, since its label holds commas ("cap=3, liability=on")."""
    return f'"{label}"'


def _sorted_out(seps: list[Separation]) -> tuple[list[str], list[Separation], list[Separation]]:
    """The overlapping combinations that pay the same in every hand, those the paired change separates, and
    those the sample cannot separate (all of them where the runs are not on the same walls)."""
    ties = [_q(s.other) for s in seps if s.change is not None and s.change.identical]
    told = [s for s in seps if s.change is not None and not s.change.identical and s.change.resolved]
    untold = [s for s in seps if _q(s.other) not in ties and s not in told]
    return ties, told, untold


def _some(items: list[str], shown: int = CONTENDERS_SHOWN) -> str:
    """The first ``shown`` items and how many more: "a, b and 4 more"."""
    return _join(items[:shown] + ([f"{len(items) - shown} more"] if len(items) > shown else []))


def _change_text(axis: str, c: Change) -> str:
    """The paired change from the best to another, e.g. "+1.3% spread, x1.013 [1.004, 1.060]"."""
    if axis == "sd_hand":
        return f"{100 * (c.estimate - 1):+.1f}% spread, x{c.estimate:.3f} [{c.ci_low:.3f}, {c.ci_high:.3f}]"
    d = digits_for((c.ci_high - c.ci_low) / 2)
    return f"edge {c.estimate:+.{d}f} [{c.ci_low:+.{d}f}, {c.ci_high:+.{d}f}] points a hand further from even"


def _separation_text(axis: str, seps: list[Separation], hands: int) -> str:
    """Whom the best on ``axis`` is told from although the intervals overlap, and whom it cannot be told
    from (with the hands that would tell each); its ties are named with it (:func:`_tie_text`)."""
    ties, told, untold = _sorted_out(seps)
    if not told and not untold:
        start = "Apart from the tie, no other" if ties else "No other"
        return f"{start} combination's interval overlaps its own: these {hands:,} hands separate it from the rest."
    parts = []
    if told:
        items = [f"{_q(s.other)} ({_change_text(axis, s.change)})" for s in told]
        parts.append(f"its interval overlaps those of {_some(items)}, but on the same walls it is measurably "
                     f"{AXES[axis][1]} than {'it' if len(told) == 1 else 'each'}")  # fmt: skip
    if untold:
        items = [f"{_q(s.other)} ({_change_text(axis, s.change)}; {_hands(s.change.hands_needed)})"
                 if s.change is not None else _q(s.other) for s in untold]  # fmt: skip
        parts.append(f"the sample cannot separate it from {_some(items)}")
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def _tie_text(seps: list[Separation]) -> str:
    """ " (tied with "B", which pays exactly the same in every hand)", or nothing."""
    ties = _sorted_out(seps)[0]
    if not ties:
        return ""
    return f" (tied with {_some(ties)}, which {'pays' if len(ties) == 1 else 'pay'} exactly the same in every hand)"


def summary_text(advice: Advice) -> list[str]:
    """The page's opening, in plain words from the numbers: what was run, the Pareto front, the smallest
    spread and the smallest dealer's edge, whom the sample cannot separate them from and how many hands
    would, and a closing word for the house."""
    t = advice.table
    n = t.height
    simulated = sum(m == "simulated" for m in t["method"])
    session = f"sessions of {advice.session_length}" if advice.session_length > 1 else "one-hand sessions"
    walls = f"the same {advice.hands:,} walls" if advice.paired else f"{advice.hands:,} hands"
    lines = [
        f"{n} combinations of {advice.ruleset}, each played on {walls} ({session}): {simulated} simulated, "
        f"{n - simulated} re-settled from those hands (their options change payments, not play)."
    ]
    front = t.filter(pl.col("pareto"))["combination"].to_list()
    if len(front) == 1:
        lines.append(f"On the Pareto front alone: {_q(front[0])}. No other combination has a smaller spread or a "
                     "smaller dealer's edge.")  # fmt: skip
    else:
        lines.append(f"On the Pareto front ({len(front)} of {n}; no other combination has both a smaller spread and "
                     f"a smaller dealer's edge): {_join([_q(f) for f in front])}.")  # fmt: skip
    silent = silent_options(advice)
    if silent:
        it, its, them = ("it", "its", "it") if len(silent) == 1 else ("they", "their", "them")
        lines.append(f"{_join(silent)} changed no payment in any of these hands: {its} values tie in every "
                     f"combination ({it} never fired here, or this ruleset does not use {them}).")  # fmt: skip
    picks = {axis: best_and_overlapping(advice, axis) for axis in AXES}
    for axis, (best, seps) in picks.items():
        row = t.row(t["combination"].to_list().index(best), named=True)
        if axis == "sd_hand":
            shown = value_text("sd_hand", row["sd_hand"], row["sd_hand_low"], row["sd_hand_high"])
            session = value_text("sd_session", row["sd_session"], row["sd_session_low"], row["sd_session_high"])
            head = f"Smallest spread: {_q(best)}{_tie_text(seps)}, sd {shown} points a hand ({session} a session)."
        else:
            shown = value_text("dealer_edge", row["dealer_edge"], row["dealer_edge_low"], row["dealer_edge_high"])
            side = "gains" if row["dealer_edge"] > 0 else "loses"
            head = (f"Smallest dealer's edge: {_q(best)}{_tie_text(seps)}, {shown} points a hand (the dealer {side} that much a hand "
                    "against the mean of the other three seats).")  # fmt: skip
        lines.append(f"{head} {_separation_text(axis, seps, advice.hands)}")
    lines.append(_closing(advice, picks))
    return lines


def _pick(axis: str, best: str, seps: list[Separation]) -> str:
    """ "for the calmest game choose X", or that X only looks best and how many hands would settle it."""
    ties, _, untold = _sorted_out(seps)
    goal = AXES[axis][2]
    if not untold:
        return f"for {goal} choose {_q(best)}" + (f" (or {_join(ties)}: the same payments)" if ties else "")
    return f"for {goal}, {_q(best)} looks best, but {_untold(untold)}"


def _untold(untold: list[Separation]) -> str:
    """ "these hands cannot rule out 2 others; about 71,000 hands would separate it from "B"" (the nearest)."""
    closest = untold[0]
    tell = f"; {_hands(closest.change.hands_needed)} separate it from {_q(closest.other)}" if closest.change else ""
    return f"these hands cannot rule out {len(untold)} other{'s' if len(untold) > 1 else ''}{tell}"


def _closing(advice: Advice, picks: dict) -> str:
    t = advice.table
    (spread, spread_seps), (edge, edge_seps) = picks["sd_hand"], picks["abs_dealer_edge"]
    lowest = t.filter(pl.col("p_session_loss") == pl.col("p_session_loss").min())
    low = lowest.row(0, named=True)
    risk = value_text("p_session_loss", low["p_session_loss"], low["p_session_loss_low"], low["p_session_loss_high"])
    where = _some([_q(c) for c in lowest["combination"]], 2) + (" (equal)" if lowest.height > 1 else "")
    tail = (f" The chance of a seat losing more than {advice.threshold:g} points in a session is lowest, {risk}, "
            f"under {where}.")  # fmt: skip
    if spread == edge:
        both = f"For a house: {_q(spread)} has both the smallest spread and the smallest dealer's edge"
        caveats = [
            f"on the {AXES[a][0]} {_untold(_sorted_out(s)[2])}" for a, (_, s) in picks.items() if _sorted_out(s)[2]
        ]
        return both + (f", though {'; '.join(caveats)}" if caveats else "") + "." + tail
    return (f"For a house: {_pick('sd_hand', spread, spread_seps)}; {_pick('abs_dealer_edge', edge, edge_seps)}; "
            f"between the two, any combination on the Pareto front is a fair compromise.{tail}")  # fmt: skip


def format_table(advice: Advice) -> str:
    """The advice table as aligned text: each measure's estimate and 95% interval, Pareto marked ``*``."""
    t = advice.table
    heads = {"dealer_edge": "dealer edge", "seat_gap": "seat gap", "sd_hand": "sd/hand", "sd_session": "sd/session",
             "p_session_loss": f"P(loss>{advice.threshold:g})", "hand_length": "discards", "drawn_rate": "drawn",
             "limit_rate": "limit"}  # fmt: skip
    cells = [["", "combination", *heads.values(), "made"]]
    for row in t.iter_rows(named=True):
        cells.append(["*" if row["pareto"] else "", row["combination"],
                      *[value_text(m, row[m], row[f"{m}_low"], row[f"{m}_high"], column_digits(t, m)) for m in heads],
                      "simulated" if row["method"] == "simulated" else "re-settled"])  # fmt: skip
    widths = [max(len(r[i]) for r in cells) for i in range(len(cells[0]))]
    lines = ["  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
             for r in cells]  # fmt: skip
    return "\n".join(line.rstrip() for line in lines) + "\n* on the Pareto front (spread per hand, |dealer edge|)"


__all__ = ["column_digits", "digits_for", "format_table", "summary_text", "value_text"]
