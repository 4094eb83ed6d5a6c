"""A rule advisor: every combination of a few options, its headline measures, and the Pareto set.

A house owner settling the rules names the options in question and their
candidate values (``cap=3,4,5``, ``liability=on,off``).  :func:`grid` builds
every combination with :func:`mjsim.analysis.variants.build_variants` (which
decides which are simulated and which re-settled from the same hands, all on
one seed and so on the same walls); :func:`advise` measures each run with
:mod:`mjsim.analysis.headline` into one table and marks the combinations that
no other beats on both spread (sd of a player's net per hand) and the
dealer's edge (its size: nearer zero is better);
:mod:`mjsim.analysis.advise_words` words the result.
"""

from __future__ import annotations

import difflib
import itertools
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
# The two axes of the Pareto set, both smaller-is-better
PARETO = ("sd_hand", "abs_dealer_edge")


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


__all__ = [
    "PARETO",
    "TABLE_MEASURES",
    "Advice",
    "Combination",
    "abs_interval",
    "advise",
    "best_and_overlapping",
    "grid",
    "pareto_front",
    "run_grid",
    "silent_options",
]
