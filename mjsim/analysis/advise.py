"""A rule advisor: every combination of a few options, its headline measures, and the Pareto set.

A house owner settling the rules names the options in question and their
candidate values (``cap=3,4,5``, ``liability=on,off``).  :func:`grid` builds
every combination with :func:`mjsim.analysis.variants.build_variants` (which
decides which are simulated and which re-settled from the same hands, all on
one seed and so on the same walls); :func:`advise` measures each run with
:mod:`mjsim.analysis.headline` into one table and marks the combinations that
no other beats on both spread (sd of a player's net per hand) and the
dealer's edge (its size: nearer zero is better); :func:`summary_text` words
the result.
"""

from __future__ import annotations

import difflib
import itertools
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import polars as pl

from mjsim.analysis.headline import (
    Change,
    RunHands,
    abs_difference,
    compare_runs,
    load_hands,
    loss_threshold,
    run_measures,
)
from mjsim.analysis.resettle import play_changes
from mjsim.analysis.variants import (
    ALIASES,
    Variant,
    _value_text,
    build_variants,
    changed_options,
    check_targets,
    directory_name,
    options_read,
    parse_vary,
    run_variants,
    save_manifest,
    write_resettled,
)
from mjsim.io.dataset import read_run_info, scan_hands
from mjsim.rules import OPTIONS

# The measures of the advice table, in its order (names as in mjsim.analysis.headline)
TABLE_MEASURES = ("dealer_edge", "seat_gap", "sd_hand", "sd_session", "p_session_loss", "hand_length",
                  "drawn_rate", "limit_rate")  # fmt: skip
SHARES = frozenset({"p_session_loss", "drawn_rate", "limit_rate"})
# The two axes of the Pareto set, both smaller-is-better
PARETO = ("sd_hand", "abs_dealer_edge")
CONTENDERS_SHOWN = 3  # combinations named as not separable from the best, before "and N more"


@dataclass(frozen=True)
class Combination:
    """One point of the grid: its option values (as written on the command line) and its variant."""

    options: tuple[tuple[str, str], ...]  # (option, value text), in --consider order
    variant: Variant

    @property
    def label(self) -> str:
        """``"cap=3, liability=on, min_fan=1"``: how the page names it."""
        return ", ".join(f"{k}={v}" for k, v in self.options)

    @property
    def method(self) -> str:
        """How it is (to be) made: simulated, or re-settled from another variant's hands."""
        return f"re-settled from {self.variant.base_label}" if self.variant.base_label else "simulated"


def grid(ruleset: str, considers: list[str], policies=("efficiency",)) -> list[Combination]:
    """Every combination of the ``considers`` values (``OPTION=V1,V2``, as ``compare --vary``), first value
    of each option first.  Each is simulated or re-settled as :func:`build_variants` decides."""
    if not considers:
        raise ValueError("give at least one --consider OPTION=V1,V2,... (e.g. cap=3,5 or liability=on,off)")
    axes = [_consider(lambda text=text: parse_vary(text)) for text in considers]
    names = [name for name, _ in axes]
    for (name, values), text in zip(axes, considers, strict=True):
        if name not in OPTIONS and name not in ALIASES or name in ("name", "description", "family"):
            close = difflib.get_close_matches(name, [*OPTIONS, *ALIASES], n=3)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise ValueError(f"--consider {text!r}: {name!r} is not a ruleset option{hint}; `mjsim rules {ruleset}` "
                             "and docs/options.md list them")  # fmt: skip
        if names.count(name) > 1:
            raise ValueError(f"--consider names {name} twice; list its values once, e.g. {name}=V1,V2")
        shown = [_value_text(v) for v in values]
        if len(set(shown)) < len(shown):
            raise ValueError(f"--consider {text!r} lists a value twice: give each value once")
    # the adapted-play counterparts (LABEL~resettled) split an effect in two; an advisor needs only the played rules
    variants = [v for v in _consider(lambda: build_variants([ruleset], considers, group="advise", policies=policies))
                if not v.mechanical_of]  # fmt: skip
    combos = list(itertools.product(*[[(name, _value_text(v)) for v in values] for name, values in axes]))
    if len(combos) < 2:
        raise ValueError(f"--consider {' '.join(considers)} makes one combination only: give an option two or more "
                         "values to choose between (e.g. cap=3,5)")  # fmt: skip
    if len(combos) != len(variants):  # build_variants crosses the axes in the same order; guard the pairing
        raise RuntimeError(f"{len(combos)} combinations but {len(variants)} variants")
    return [Combination(tuple(c), v) for c, v in zip(combos, variants, strict=True)]


def run_grid(
    combinations: list[Combination], policies, hands: int, *, session_length: int, seed: int, workers: int, out_dir,
    overwrite: bool = False, say=print,
) -> tuple[list[Combination], list[dict]]:  # fmt: skip
    """Simulate and re-settle every combination into ``out_dir`` (:func:`run_variants`, one seed: the same
    walls); return the combinations as made and the manifest entries.

    Whether a log can be re-settled is partly known only from its hands: a horse scheme may set aside only
    back tiles the logged hands never drew (TDH-M6), so horses=none -> dealer is refused where a hand drew
    the wall to its end.  Such a combination is re-settled from an earlier one that plays the same way and
    where the log allows it, else simulated on the same seed (``say`` tells which)."""
    out = Path(out_dir)
    check_targets([c.variant for c in combinations], out, overwrite=overwrite)
    reads = options_read(policies)
    run = dict(session_length=session_length, seed=seed, workers=workers, out_dir=out, overwrite=overwrite)
    first = [c.variant for c in combinations if not c.variant.base_label]
    entries = {e["variant"]: e for e in run_variants(first, policies, hands, **run)}
    made = []
    for c in combinations:
        v = c.variant
        if v.base_label:
            same_play = [m.variant for m in made if not m.variant.base_label and m.variant.label != v.base_label
                         and not play_changes(m.variant.ruleset, v.ruleset)
                         and not changed_options(m.variant.ruleset, v.ruleset) & reads]  # fmt: skip
            refusals = []
            for source in [v.base_label, *(m.label for m in same_play)]:
                try:
                    write_resettled(Path(entries[source]["path"]), v, out / directory_name(v.label), v.label,
                                    overwrite=overwrite)  # fmt: skip
                except ValueError as refused:
                    refusals.append(f"{source}: {str(refused).split('; re-simulate')[0]}")  # the rest names compare
                    continue
                v = replace(v, base_label=source)
                entries[v.label] = {**entries[source], "label": v.label, "variant": v.label, "method": "re-settled",
                                    "path": str(out / directory_name(v.label)),
                                    "ruleset_hash": v.ruleset.content_hash}  # fmt: skip
                if refusals:
                    say(f"  {c.label}: re-settled from {source} instead (refused by {'; '.join(refusals)})")
                break
            else:
                v = replace(v, base_label="")
                say(f"  {c.label}: simulated instead, on the same seed (re-settling refused by {'; '.join(refusals)})")
                entries[v.label] = run_variants([v], policies, hands, **run)[0]
        made.append(replace(c, variant=v))
    listed = [entries[c.variant.label] for c in made]
    save_manifest(out, listed)
    return made, listed


def _consider(make):
    """``make()``, its errors naming --consider (the option syntax and checks are compare's --vary)."""
    try:
        return make()
    except ValueError as error:
        raise ValueError(str(error).replace("--vary", "--consider")) from None


def pareto_front(x, y) -> np.ndarray:
    """True for each point that no other point beats on both ``x`` and ``y`` (smaller is better): none is
    at most as large on both and smaller on one.  Equal points are all on the front; NaN points never."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    front = ok.copy()
    for i in np.flatnonzero(ok):
        others = ok & (x <= x[i]) & (y <= y[i]) & ((x < x[i]) | (y < y[i]))
        front[i] = not others.any()
    return front


def abs_interval(value: float, lo: float, hi: float) -> tuple[float, float, float]:
    """The size |value| of a signed estimate and the interval of its size from the signed interval
    (from 0 where the interval holds 0)."""
    ends = sorted((abs(lo), abs(hi)))
    return abs(value), (0.0 if lo <= 0 <= hi else ends[0]), ends[1]


@dataclass
class Advice:
    """The advisor's result: one row per combination in ``table`` (columns: combination, the options,
    method, hands, then each of :data:`TABLE_MEASURES` with ``_low`` / ``_high`` for its 95% interval,
    abs_dealer_edge likewise, and pareto)."""

    ruleset: str
    combinations: list[Combination]
    table: pl.DataFrame
    threshold: float  # the session loss p_session_loss counts, from the first combination
    hands: int
    session_length: int
    paired: bool  # every run holds the same hands (same walls), so pairs compare hand by hand
    runs: dict[str, RunHands] = field(repr=False, default_factory=dict)
    seed: int = 0  # of the bootstrap


def advise(combinations: list[Combination], entries: list[dict], seed: int = 0) -> Advice:
    """Measure every combination's run (``entries`` from :func:`run_variants`) into the advice table.

    One session-loss threshold for all (the first combination's), and every run's sessions indexed as the
    first's, so that every bootstrap draws the same sessions of the same walls."""
    paths = {e["variant"]: e["path"] for e in entries if e.get("seating", 0) == 0}
    first_info = read_run_info(paths[combinations[0].variant.label])
    runs: dict[str, RunHands] = {}
    for c in combinations:
        path = paths[c.variant.label]
        ids = next(iter(runs.values())).session_ids if runs else None  # cluster indices as the first run's
        runs[c.label] = load_hands(scan_hands(path), read_run_info(path), ids)
    first = runs[combinations[0].label]
    threshold = loss_threshold(first)
    # how each was made, as the manifest records it, the source named by its option values
    names = {c.variant.label: c.label for c in combinations}
    methods = {e["variant"]: e["method"] for e in entries}
    made = {c.label: (f"re-settled from {names.get(c.variant.base_label, c.variant.base_label)}"
                      if methods[c.variant.label] == "re-settled" and c.variant.base_label
                      else methods[c.variant.label]) for c in combinations}  # fmt: skip
    rows = []
    for c in combinations:
        measures = {r["measure"]: r for r in run_measures(runs[c.label], threshold, seed=seed).iter_rows(named=True)}
        row = {"combination": c.label, **dict(c.options), "method": made[c.label], "hands": runs[c.label].hands}
        for name in TABLE_MEASURES:
            m = measures[name]
            row |= {name: m["estimate"], f"{name}_low": m["ci_low"], f"{name}_high": m["ci_high"]}
        edge = measures["dealer_edge"]
        size, lo, hi = abs_interval(edge["estimate"], edge["ci_low"], edge["ci_high"])
        row |= {"abs_dealer_edge": size, "abs_dealer_edge_low": lo, "abs_dealer_edge_high": hi}
        rows.append(row)
    table = pl.DataFrame(rows)
    table = table.with_columns(pl.Series("pareto", pareto_front(table[PARETO[0]], table[PARETO[1]])),
                               pl.lit(threshold).alias("loss_threshold"))  # fmt: skip
    paired = all(r.hands == first.hands and np.array_equal(r.key, first.key) for r in runs.values())
    return Advice(
        combinations[0].variant.ruleset.name, combinations, table, threshold, first.hands,
        int(first_info.get("session_length") or 0), paired, runs, seed,
    )  # fmt: skip


# --- the best on one axis and who it cannot be told from -------------------------------------------------


@dataclass(frozen=True)
class Separation:
    """The best combination on one axis against another whose 95% interval overlaps its own."""

    other: str
    change: Change | None  # the paired change, best -> other (None: the runs are not on the same walls)


def best_and_overlapping(advice: Advice, axis: str) -> tuple[str, list[Separation]]:
    """The combination with the smallest ``axis`` (sd_hand or abs_dealer_edge), and every other whose
    interval overlaps the best's, nearest first, each with its paired change from the best: for the
    spread a ratio (:func:`compare_runs`), for the dealer's edge the change in its size
    (:func:`abs_difference`)."""
    t = advice.table
    values = t[axis].to_numpy()
    best = int(np.nanargmin(values))
    best_label, best_high = t["combination"][best], t[f"{axis}_high"][best]
    order = np.argsort(values, kind="stable")
    out = []
    for i in order:
        if i == best or not t[f"{axis}_low"][int(i)] <= best_high:
            continue
        other = t["combination"][int(i)]
        change = None
        if advice.paired:
            ref, alt = advice.runs[best_label], advice.runs[other]
            if axis == "abs_dealer_edge":
                change = abs_difference(ref, alt, "dealer_edge", advice.threshold, seed=advice.seed)
            else:
                changes, _ = compare_runs(ref, alt, True, advice.threshold, seed=advice.seed)
                change = next(c for c in changes if c.measure == axis)
        out.append(Separation(other, change))
    return best_label, out


def silent_options(advice: Advice) -> list[str]:
    """The considered options whose values paid exactly the same in every hand, whatever the other options
    (an option that never fired in these hands, or that this ruleset's family does not read)."""
    combos = advice.combinations
    silent = []
    for k, name in enumerate(name for name, _ in combos[0].options):
        groups: dict[tuple, list[str]] = {}
        for c in combos:
            groups.setdefault(c.options[:k] + c.options[k + 1 :], []).append(c.label)
        if all(len(g) < 2 for g in groups.values()):
            continue  # one value only: nothing to compare
        same = all(np.array_equal(advice.runs[g[0]].net, advice.runs[o].net) for g in groups.values() for o in g[1:])
        if same and advice.paired:
            silent.append(name)
    return silent


# --- words ---------------------------------------------------------------------------------------------------


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
    rounded = float(f"{n:.2g}")
    return f"about {rounded:,.0f} hands would" if rounded < 1e9 else "more hands than is practical would"


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


__all__ = [
    "PARETO",
    "TABLE_MEASURES",
    "Advice",
    "Combination",
    "abs_interval",
    "advise",
    "best_and_overlapping",
    "format_table",
    "grid",
    "pareto_front",
    "run_grid",
    "silent_options",
    "summary_text",
]
