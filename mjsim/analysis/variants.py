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
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from mjsim.analysis.resettle import play_changes, resettle
from mjsim.io.dataset import RUN_INFO, read_run_info, scan_hands, write_run_info
from mjsim.rules import OPTIONS, Ruleset, ruleset
from mjsim.sim.runner import split_policy_specs

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


def build_variants(rulesets: list[str], varies: list[str], group: str | None = None) -> list[Variant]:
    """Every base ruleset crossed with every combination of the --vary values (validated).

    All variants share one comparison group (differences against the first),
    named ``group`` or after the first ruleset."""
    group = group or rulesets[0]
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
            # re-settle from an earlier simulated variant that plays the same way, else simulate
            source = next((v.label for v in variants if not v.base_label and not play_changes(v.ruleset, rules)), "")
            variants.append(Variant(label, rules, source, group))
    labels = [v.label for v in variants]
    if len(set(labels)) != len(labels):
        raise ValueError(f"two variants have the same label: {labels}")
    return variants


def write_resettled(base_dir: Path, variant: Variant, out_dir: Path, label: str) -> None:
    """A run directory holding ``base_dir``'s hands settled again under ``variant.ruleset``."""
    hands = scan_hands(base_dir).sort("hand_id").collect()
    again = resettle(base_dir, variant.ruleset).sort("hand_id")
    replaced = [c for c in again.columns if c not in ("run_id", "hand_id")]
    again = again.cast({c: hands.schema[c] for c in replaced})  # the log's own types (e.g. nets as Array(4))
    merged = hands.drop(replaced).join(again.drop("run_id"), on="hand_id").select(hands.columns)
    merged = merged.with_columns(
        pl.lit(variant.ruleset.name).alias("ruleset"), pl.lit(variant.ruleset.content_hash).alias("ruleset_hash")
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    merged.write_parquet(out_dir / "part-00000-0000.parquet")
    info = read_run_info(base_dir)
    info |= {
        "ruleset": variant.ruleset.name,
        "ruleset_hash": variant.ruleset.content_hash,
        "ruleset_toml": variant.ruleset.to_toml(),
        "label": label,
        "method": "re-settled",
        "resettled_from": str(base_dir),
    }
    info.pop("schema_version", None)
    write_run_info(out_dir, info)


def rotate(policies: tuple[str, ...], r: int) -> tuple[str, ...]:
    """Duplicate seating: the policy of seat s moves to seat (s + r) % 4 (one policy for every seat, or four)."""
    seats = split_policy_specs(policies)
    if len(seats) not in (1, 4):
        raise ValueError(f"duplicate seating rotates four seats: give one policy or four, got {len(seats)}: {seats}")
    seats = seats * 4 if len(seats) == 1 else seats
    return tuple(seats[(s - r) % 4] for s in range(4))


def run_variants(
    variants: list[Variant],
    policies,
    hands: int,
    *,
    session_length: int,
    seed: int,
    workers: int,
    out_dir,
    duplicate: bool = False,
    progress: bool | None = None,
) -> list[dict]:
    """Simulate or re-settle every variant into ``out_dir/LABEL[-rotR]``; return the manifest entries."""
    from mjsim.sim.parallel import RunSpec, simulate

    out_dir = Path(out_dir)
    rotations = range(4) if duplicate else range(1)
    entries = []
    for r in rotations:
        seat_specs = rotate(tuple(policies), r) if duplicate else tuple(policies)
        suffix = f"-rot{r}" if duplicate else ""
        done = {}
        for variant in variants:
            path = out_dir / (variant.label + suffix)
            if path.exists():
                shutil.rmtree(path)  # the caller confirmed this directory may be replaced
            if variant.base_label:
                write_resettled(done[variant.base_label], variant, path, variant.label + suffix)
                method = "re-settled"
            else:
                spec = RunSpec(variant.ruleset, seat_specs, hands, session_length=session_length, seed=seed)
                simulate(spec, path, workers=workers, progress=progress)
                info = read_run_info(path)
                info.pop("schema_version", None)
                write_run_info(path, info | {"label": variant.label + suffix, "method": "simulated"})
                method = "simulated"
            done[variant.label] = path
            entries.append(
                {
                    "label": variant.label + suffix,
                    "variant": variant.label,
                    "group": variant.group + suffix,
                    "rotation": r,
                    "path": str(path),
                    "method": method,
                    "ruleset_hash": variant.ruleset.content_hash,
                }
            )
    save_manifest(out_dir, entries)
    return entries


def comparison_table(
    entries: list[dict], metric: str = "mean_net", by: str = "role", precision: float = 0.1
) -> pl.DataFrame:
    """Per variant: ``metric`` by ``by`` with its interval, and the difference to the first variant of its
    group (paired hand by hand where both played the same hands), with ``hands_needed``: the hands each
    variant would need for a 95% interval of half-width ``precision`` on that difference."""
    from mjsim.analysis.paired import compare_table, hands_needed

    tables = []
    for group in dict.fromkeys(e["group"] for e in entries):
        runs = {e["label"]: scan_hands(e["path"]) for e in entries if e["group"] == group}
        table = compare_table(runs, metric=metric, by=by)
        hands = next(iter(runs.values())).select(pl.len()).collect().item()
        per_hand = (table["diff_se"].fill_null(float("nan")) * hands**0.5).to_numpy()
        needed = [None if per_hand[i] != per_hand[i] else int(hands_needed(per_hand[i], precision))
                  for i in range(table.height)]  # fmt: skip
        tables.append(
            table.with_columns(pl.lit(group).alias("group"), pl.Series("hands_needed", needed, dtype=pl.Int64))
        )
    return pl.concat(tables, how="vertical_relaxed")


def format_comparison(table: pl.DataFrame, precision: float = 0.1) -> str:
    """The comparison as aligned text: estimate [95% CI] and the difference to the group's first variant."""
    key = [c for c in table.columns if c not in ("label", "group", "metric", "estimate", "se", "ci_low", "ci_high",
                                                 "n", "reference", "diff", "diff_se", "diff_ci_low", "diff_ci_high",
                                                 "paired", "hands_needed")]  # fmt: skip
    lines = [f"{'variant':<34} {' '.join(key):<11} {'mean net [95% CI]':<27} difference to the first [95% CI]"]
    for row in table.iter_rows(named=True):
        est = f"{row['estimate']:+.3f} [{row['ci_low']:+.3f}, {row['ci_high']:+.3f}]"
        diff = ""
        if row["diff"] is not None and row["label"] != row["reference"]:
            diff = f"{row['diff']:+.3f} [{row['diff_ci_low']:+.3f}, {row['diff_ci_high']:+.3f}]"
            diff += " paired" if row["paired"] else " unpaired"
            if row["hands_needed"] is not None:
                diff += f"; {row['hands_needed']:,} hands for ±{precision:g}"
        lines.append(f"{row['label']:<34} {' '.join(str(row[k]) for k in key):<11} {est:<27} {diff}")
    return "\n".join(lines)


def label_of(run_dir) -> str:
    info = read_run_info(run_dir)
    return info.get("label") or info["ruleset"]


def save_manifest(out_dir: Path, entries: list[dict]) -> None:
    (out_dir / "comparison.json").write_text(json.dumps(entries, indent=2, ensure_ascii=False), encoding="utf-8")


__all__ = [
    "ALIASES",
    "RUN_INFO",
    "Variant",
    "build_variants",
    "label_of",
    "parse_vary",
    "rotate",
    "run_variants",
    "save_manifest",
    "write_resettled",
]
