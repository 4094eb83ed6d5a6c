"""Rule variants for a comparison: simulate them on the same seeds, or re-settle where play is unchanged.

``run_variants`` takes base rulesets and ``--vary`` axes (``cap=3,5,none``,
``liability=on,off``, ``horses=none,dealer``), builds every combination, and
produces one run directory per variant.  The first variant of each base is
simulated; a variant whose options differ from it only in settlement is
re-settled from its hands (exact, and paired hand by hand); any other is
simulated with the same root seed — the same walls and the same random
streams hand by hand (common random numbers), so differences are paired.
With ``duplicate`` each variant is also played from the four seat
rotations of the policies (duplicate seating), so a policy plays every
seat's tiles of every wall.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from mjsim.analysis.resettle import play_changes, resettle
from mjsim.io.dataset import read_run_info, scan_hands, write_table_run
from mjsim.io.runs import MANIFEST, STAGED_MANIFEST
from mjsim.io.store import RunStore
from mjsim.rules import OPTIONS, Ruleset, ruleset

# --vary shorthands that set several options at once
ALIASES = {
    "liability": ("liability_kong_flower", "liability_robbed_kong", "liability_twelve_tiles",
                  "liability_limit_hands"),
}  # fmt: skip
SWITCH_WORDS = {"on": True, "off": False, "true": True, "false": False}


@dataclass(frozen=True)
class Variant:
    label: str
    ruleset: Ruleset
    base_label: str  # the simulated variant it can be re-settled from ("" for itself)
    group: str  # variants of one comparison question; differences are taken within a group
    # For adapted play: the simulated variant whose rule change this re-settled one applies mechanically to
    # the base hands ("" otherwise).  Simulated minus re-settled is the behavioural part of the effect.
    mechanical_of: str = ""


MECHANICAL = "~resettled"  # label suffix of a variant's mechanical counterpart


def options_read(policies) -> frozenset[str]:
    """The ruleset options any seated policy reads (``Policy.reads``): a change to one changes play."""
    from mjsim.sim.runner import seat_policies

    return frozenset().union(*(policy.reads for policy in seat_policies(tuple(policies)).policies))


def changed_options(a: Ruleset, b: Ruleset) -> set[str]:
    x, y = a.to_dict(), b.to_dict()
    return {k for k in x if x[k] != y[k] and k not in ("name", "description")}


def parse_vary(text: str) -> tuple[str, list]:
    """``"cap=3,5,none"`` -> ("cap", [3, 5, None]); values are read by the option's kind
    (on/off for switches, none for no cap, numbers for numbers, text for choices)."""
    if "=" not in text:
        raise ValueError(f"--vary {text!r} must be OPTION=VALUE,VALUE,... e.g. cap=3,5,none or liability=on,off")
    name, _, values = text.partition("=")
    name = name.strip()
    kind = "bool" if name in ALIASES else (OPTIONS[name].kind if name in OPTIONS else "str")
    parsed = [_read_value(raw.strip(), kind) for raw in values.split(",")]
    if not parsed or any(v == "" for v in parsed):
        raise ValueError(f"--vary {text!r} lists no values")
    return name, parsed


def _read_value(raw: str, kind: str):
    word = raw.lower()
    if kind == "bool" and word in SWITCH_WORDS:
        return SWITCH_WORDS[word]
    if kind == "cap" and word == "none":
        return None
    if kind in ("int", "cap") and re.fullmatch(r"-?\d+", raw):
        return int(raw)
    return raw  # the ruleset's validation names a value that does not fit


def _overrides(name: str, value) -> dict:
    if name in ALIASES:
        if not isinstance(value, bool):
            raise ValueError(f"--vary {name}= takes on/off, got {value!r}")
        return {option: value for option in ALIASES[name]}
    return {name: value}


def _value_text(value) -> str:
    if value is True or value is False or value is None:
        return {True: "on", False: "off", None: "none"}[value]
    return str(value)


def build_variants(
    rulesets: list[str], varies: list[str], group: str | None = None, policies=("efficiency",)
) -> list[Variant]:
    """Every base ruleset crossed with every combination of the --vary values (validated).

    All variants share one comparison group (differences against the first),
    named ``group`` or after the first ruleset.  A variant is re-settled from
    an earlier simulated one only where play is unchanged *and* no seated
    policy (``policies``) reads an option it changes; a variant simulated only
    because a policy reads its change also gets a re-settled counterpart
    (``LABEL~resettled``), so the comparison can split its effect into a
    mechanical and a behavioural part (adapted play)."""
    group = group or rulesets[0]
    reads = options_read(policies)
    axes = [parse_vary(v) for v in varies]
    variants = []
    for name in rulesets:
        base = ruleset(name)
        combos = list(itertools.product(*[[(axis, v) for v in values] for axis, values in axes])) or [()]
        for combo in combos:
            overrides = {}
            for axis, value in combo:
                overrides |= _overrides(axis, value)
            rules = base.replace(**overrides)
            label = base.name + "".join(f"-{axis}={_value_text(v)}" for axis, v in combo)
            # re-settle from an earlier simulated variant that plays the same way for these players, else simulate
            same_play = [v for v in variants if not v.base_label and not play_changes(v.ruleset, rules)]
            source = next((v.label for v in same_play if not changed_options(v.ruleset, rules) & reads), "")
            variants.append(Variant(label, rules, source, group))
            if not source and same_play:
                variants.append(Variant(label + MECHANICAL, rules, same_play[0].label, group, mechanical_of=label))
    labels = [v.label for v in variants]
    if len(set(labels)) != len(labels):
        raise ValueError(f"two variants have the same label: {labels}")
    return variants


def directory_name(label: str) -> str:
    """The directory a variant's run goes in: its label with every character that could leave ``--out``
    or confuse a terminal (``/``, ``\\``, ``..``, control characters, a leading dot) made ``_``."""
    safe = "".join(
        "_" if ch in "/\\:" or unicodedata.category(ch).startswith(("C", "Z")) and ch != " " else ch for ch in label
    )
    safe = re.sub(r"\.{2,}", "_", safe).strip().lstrip(".") or "_"
    return safe.replace(" ", "_")


def write_resettled(base_dir: Path, variant: Variant, out_dir: Path, label: str, overwrite: bool = False) -> None:
    """A run directory holding ``base_dir``'s hands settled again under ``variant.ruleset``."""
    hands = scan_hands(base_dir).sort("hand_id").collect()
    again = resettle(base_dir, variant.ruleset).sort("hand_id")
    replaced = [c for c in again.columns if c not in ("run_id", "hand_id")]
    again = again.cast({c: hands.schema[c] for c in replaced})  # the log's own types (e.g. nets as Array(4))
    merged = hands.drop(replaced).join(again.drop("run_id"), on="hand_id").select(hands.columns)
    merged = merged.with_columns(
        pl.lit(variant.ruleset.name).alias("ruleset"), pl.lit(variant.ruleset.content_hash).alias("ruleset_hash")
    )
    info = {k: v for k, v in read_run_info(base_dir).items() if k not in ("state", "chunks", "chunks_total")}
    info |= {
        "ruleset": variant.ruleset.name,
        "ruleset_hash": variant.ruleset.content_hash,
        "ruleset_toml": variant.ruleset.to_toml(),
        "label": label,
        "method": "re-settled",
        "resettled_from": str(base_dir),
    }
    write_table_run(out_dir, merged.to_arrow(), info, overwrite=overwrite)


def check_targets(variants: list[Variant], out_dir, suffixes=("",), overwrite: bool = False) -> list[Path]:
    """The run directory of every variant (and seating suffix) inside ``out_dir``; refuse to replace a run
    there without ``overwrite``, before any work starts."""
    out_dir = Path(out_dir)
    paths, seen = [], {}
    for suffix in suffixes:
        for variant in variants:
            name = directory_name(variant.label + suffix)
            if seen.get(name) == (variant.label, variant.ruleset.content_hash):
                continue  # one variant asked in several questions: one run
            if name in seen:
                raise ValueError(f"variants {seen[name][0]!r} and {variant.label!r} would share the directory {name}")
            seen[name] = (variant.label, variant.ruleset.content_hash)
            path = out_dir / name
            store = RunStore(path)
            if not overwrite and (store.exists(MANIFEST) or store.exists(STAGED_MANIFEST)):
                raise ValueError(f"{path} already holds a run; choose another --out or pass --overwrite")
            paths.append(path)
    return paths


def seatings(policies) -> list[tuple[str, str, str, str]]:
    """Balanced seating: every distinct assignment of the four seats' policies to the seats, the given one
    first — 24 for four different policies, 12, 6 or 4 where some repeat, 1 where all four are alike."""
    from mjsim.sim.runner import seat_policies

    return list(dict.fromkeys(itertools.permutations(seat_policies(tuple(policies)).specs)))


def seating_suffixes(count: int) -> list[str]:
    """The directory-name suffix of each seating's runs ("" when there is only one)."""
    return [f"-seat{r}" for r in range(count)] if count > 1 else [""]


def run_variants(
    variants: list[Variant], policies, hands: int, *, session_length: int, seed: int, workers: int, out_dir,
    duplicate: bool = False, progress: bool | None = None, overwrite: bool = False, scheduler=None,
) -> list[dict]:  # fmt: skip
    """Simulate or re-settle every variant into ``out_dir/LABEL[-seatS]``; return the manifest entries.

    ``duplicate``: play every wall in every distinct seating of the policies (:func:`seatings`).
    Nothing is written outside ``out_dir``, and an existing run there is replaced only with ``overwrite``.
    A variant listed again (same label and ruleset) in another group is run once; each group gets an entry."""
    from mjsim.sim.parallel import RunSpec, simulate

    out_dir = Path(out_dir)
    comparison = RunStore(out_dir)
    if comparison.kind() in ("file", "other"):
        raise ValueError(f"{out_dir} is a file, not a directory: choose a directory for the comparison")
    arrangements = seatings(policies) if duplicate else [tuple(policies)]
    suffixes = seating_suffixes(len(arrangements))
    check_targets(variants, out_dir, suffixes, overwrite)
    entries = []
    for r, (seat_specs, suffix) in enumerate(zip(arrangements, suffixes)):
        done = {}
        for variant in variants:
            label = variant.label + suffix
            path = out_dir / directory_name(label)
            if variant.label in done:  # the same variant in another question's group: its run is shared
                method = next(e["method"] for e in entries if e["label"] == label)
            elif variant.base_label:
                write_resettled(done[variant.base_label], variant, path, label, overwrite=overwrite)
                method = "re-settled"
            else:
                spec = RunSpec(variant.ruleset, tuple(seat_specs), hands, session_length=session_length, seed=seed)
                simulate(spec, path, workers=workers, progress=progress, overwrite=overwrite, scheduler=scheduler,
                         extra_info={"label": label, "method": "simulated"})  # fmt: skip
                method = "simulated"
            done[variant.label] = path
            entries.append({"label": label, "variant": variant.label, "group": variant.group, "seating": r,
                            "seatings": len(arrangements), "path": str(path), "method": method,
                            "mechanical_of": variant.mechanical_of,
                            "ruleset_hash": variant.ruleset.content_hash})  # fmt: skip
    save_manifest(out_dir, entries)
    return entries


def pooled_runs(paths) -> pl.LazyFrame:
    """The hands of one variant's runs, one per seating in seating order, with a ``seating`` column
    (rows pair within a seating)."""
    scans = [scan_hands(p).with_columns(pl.lit(i, pl.Int32).alias("seating")) for i, p in enumerate(paths)]
    return scans[0] if len(scans) == 1 else pl.concat(scans, how="vertical_relaxed")


def _pooled(entries: list[dict], variant: str) -> pl.LazyFrame:
    """A variant's hands over all its seatings (:func:`pooled_runs`)."""
    runs = sorted((e for e in entries if e["variant"] == variant), key=lambda e: e["seating"])
    return pooled_runs([e["path"] for e in runs])


def comparison_table(
    entries: list[dict], metric: str = "mean_net", by: str | None = None, precision: float = 0.1
) -> pl.DataFrame:
    """Per variant: ``metric`` by ``by`` with its interval, and the difference to the first variant of its
    group (paired hand by hand where both played the same hands), with ``hands_needed``: the walls each
    variant would need for a 95% interval of half-width ``precision`` on that difference.

    Variants played in several seatings (balanced seating) are pooled over their seatings: rows pair
    within a seating and every standard error clusters by wall.  ``by`` defaults to the seats' policy
    under balanced seating and to the role otherwise."""
    from mjsim.analysis.paired import compare_table, hands_needed

    pooled = max(e.get("seatings", 1) for e in entries) > 1
    by = by or ("policy" if pooled else "role")
    keys, cluster = (("seating", "hand_id"), "seed") if pooled else (("hand_id",), None)
    tables = []
    for group in dict.fromkeys(e["group"] for e in entries):
        members = [e for e in entries if e["group"] == group]
        runs = {v: _pooled(members, v) for v in dict.fromkeys(e["variant"] for e in members)}
        table = compare_table(runs, metric=metric, by=by, keys=keys, cluster=cluster)
        walls = next(iter(runs.values())).select(pl.col("seed").n_unique()).collect().item()
        per_wall = (table["diff_se"].fill_null(float("nan")) * walls**0.5).to_numpy()
        needed = [None if per_wall[i] != per_wall[i] else int(hands_needed(per_wall[i], precision))
                  for i in range(table.height)]  # fmt: skip
        tables.append(
            table.with_columns(pl.lit(group).alias("group"), pl.Series("hands_needed", needed, dtype=pl.Int64))
        )
    return pl.concat(tables, how="vertical_relaxed")


SPLIT_PARTS = ("total", "mechanical", "behavioural")


def adapted_play_split(entries: list[dict], by: str | None = None) -> pl.DataFrame | None:
    """For each variant simulated because a seated policy reads its change (adapted play), its effect on
    mean net against the group's first variant, split into parts, each paired on the same walls:

    - ``mechanical``: the base hands re-settled under the variant, minus the base;
    - ``behavioural``: the variant as played, minus the base hands re-settled under it;
    - ``total``: the variant as played, minus the base (the sum of the two).

    Columns: variant, part, the ``by`` column, diff, diff_se, diff_ci_low, diff_ci_high.  None when no
    variant needed the split."""
    from mjsim.analysis.paired import compare_table

    pooled = max(e.get("seatings", 1) for e in entries) > 1
    by = by or ("policy" if pooled else "role")
    keys, cluster = (("seating", "hand_id"), "seed") if pooled else (("hand_id",), None)
    columns = [by, "diff", "diff_se", "diff_ci_low", "diff_ci_high"]
    rows = []
    for mechanical in dict.fromkeys(e["variant"] for e in entries if e.get("mechanical_of")):
        member = next(e for e in entries if e["variant"] == mechanical)
        played = member["mechanical_of"]
        base = next(e["variant"] for e in entries if e["group"] == member["group"])
        runs = {name: _pooled(entries, name) for name in (base, mechanical, played)}
        for part, (ref, other) in zip(SPLIT_PARTS, ((base, played), (base, mechanical), (mechanical, played))):
            table = compare_table({ref: runs[ref], other: runs[other]}, by=by, keys=keys, cluster=cluster)
            table = table.filter((pl.col("label") == other) & (pl.col("metric") == "mean_net"))
            rows.append(table.select(pl.lit(played).alias("variant"), pl.lit(part).alias("part"), *columns))
    return pl.concat(rows, how="vertical_relaxed") if rows else None


def format_split(split: pl.DataFrame) -> str:
    """The adapted-play split as aligned text."""
    by = split.columns[2]
    lines = [f"{'variant':<34} {'part':<12} {by:<11} mean net difference to the first [95% CI]"]
    for row in split.iter_rows(named=True):
        diff = f"{row['diff']:+.3f} [{row['diff_ci_low']:+.3f}, {row['diff_ci_high']:+.3f}]"
        lines.append(f"{row['variant']:<34} {row['part']:<12} {row[by]!s:<11} {diff}")
    return "\n".join(lines)


def format_comparison(table: pl.DataFrame, precision: float = 0.1) -> str:
    """The comparison as aligned text: estimate [95% CI] and the difference to the group's first variant."""
    key = [c for c in table.columns if c not in ("label", "group", "metric", "estimate", "se", "ci_low", "ci_high",
                                                 "n", "reference", "diff", "diff_se", "diff_ci_low", "diff_ci_high",
                                                 "paired", "hands_needed")]  # fmt: skip
    lines = [f"{'variant':<34} {' '.join(key):<11} {'mean net [95% CI]':<27} difference to the first [95% CI]"]
    groups = table["group"].unique(maintain_order=True).to_list() if "group" in table.columns else []
    group = None
    for row in table.iter_rows(named=True):
        if len(groups) > 1 and row["group"] != group:
            group = row["group"]
            lines.append(f"-- {group}: against {row['reference']}")
        est = f"{row['estimate']:+.3f} [{row['ci_low']:+.3f}, {row['ci_high']:+.3f}]"
        diff = ""
        if row["diff"] is not None and row["label"] != row["reference"]:
            diff = f"{row['diff']:+.3f} [{row['diff_ci_low']:+.3f}, {row['diff_ci_high']:+.3f}]"
            diff += " paired" if row["paired"] else " unpaired"
            if row["hands_needed"] is not None:
                diff += f"; {row['hands_needed']:,} hands for ±{precision:g}"
        lines.append(f"{row['label']:<34} {' '.join(str(row[k]) for k in key):<11} {est:<27} {diff}")
    return "\n".join(lines)


def comparison_groups(entries: list[dict]) -> list[list[str]]:
    """The labels of each comparison group's runs (first seating), the group's reference first."""
    shown = [e for e in entries if e.get("seating", 0) == 0]
    return [list(dict.fromkeys(e["label"] for e in shown if e["group"] == g))
            for g in dict.fromkeys(e["group"] for e in shown)]  # fmt: skip


def unique_runs(entries: list[dict]) -> list[dict]:
    """The entries of the first seating, one per run directory (a run shared by several groups once)."""
    return list({e["path"]: e for e in entries if e.get("seating", 0) == 0}.values())


def label_of(run_dir) -> str:
    info = read_run_info(run_dir)
    return info.get("label") or info["ruleset"]


def save_manifest(out_dir: Path, entries: list[dict]) -> None:
    """``comparison.json``: the variants' labels, groups and run directories (written atomically)."""
    RunStore(out_dir).write_json("comparison.json", entries)


__all__ = [
    "ALIASES",
    "Variant",
    "adapted_play_split",
    "build_variants",
    "check_targets",
    "comparison_groups",
    "directory_name",
    "format_split",
    "options_read",
    "label_of",
    "parse_vary",
    "pooled_runs",
    "seating_suffixes",
    "seatings",
    "unique_runs",
    "run_variants",
    "save_manifest",
    "write_resettled",
]
