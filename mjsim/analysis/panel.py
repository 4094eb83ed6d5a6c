"""Policy panels: is a rule's effect the same for every kind of player?

A *panel* is a named set of player types (policy specs), defined as data: a
TOML table ``[panels.NAME]`` with a ``description`` and ``members`` (label =
policy spec), in ``mjsim/analysis/panels.toml`` (the built-in ``default``)
or a file of the user's.  ``run_panel`` plays every variant with each member
at all four seats — plus one mixed table seating the first four members — on
the same walls, and ``panel_effects`` reports each rule effect per member and
as a range over the panel, flagging effects whose sign differs.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import polars as pl

from mjsim.analysis.variants import Variant, build_variants, comparison_table, directory_name, run_variants

MIXED = "mixed"


@dataclass(frozen=True)
class Panel:
    name: str
    description: str
    members: dict[str, str]  # label -> policy spec

    def tables(self) -> dict[str, tuple[str, ...]]:
        """Every table the panel plays: each member at all four seats, then the mixed table."""
        tables = {label: (spec,) for label, spec in self.members.items()}
        specs = list(self.members.values())
        tables[MIXED] = tuple((specs * 4)[:4])
        return tables


def _panels_in(text: str, source: str) -> dict:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{source} is not valid TOML: {error}") from None
    panels = data.get("panels")
    if not isinstance(panels, dict) or not panels:
        raise ValueError(f"{source} defines no [panels.NAME] table")
    return panels


def builtin_panels() -> dict:
    return _panels_in(resources.files("mjsim.analysis").joinpath("panels.toml").read_text("utf-8"), "panels.toml")


def load_panel(name_or_path: str) -> Panel:
    """A built-in panel by name, or the only (or ``FILE.toml:NAME``) panel of a TOML file."""
    from mjsim.agents import parse_policy

    if not isinstance(name_or_path, str) or not name_or_path:
        raise ValueError(f"a panel is a built-in name or a TOML file, got {name_or_path!r}")
    path_text, _, wanted = name_or_path.partition(".toml:")
    if name_or_path.endswith(".toml") or wanted:
        path = Path(path_text if wanted else name_or_path[: -len(".toml")]).with_suffix(".toml")
        if not path.is_file():
            raise ValueError(f"panel file {path} does not exist")
        panels = _panels_in(path.read_text(encoding="utf-8"), str(path))
        if not wanted:
            if len(panels) != 1:
                raise ValueError(f"{path} defines panels {', '.join(panels)}: name one as {path}:NAME")
            wanted = next(iter(panels))
    else:
        panels, wanted = builtin_panels(), name_or_path
    if wanted not in panels:
        raise ValueError(f"unknown panel {wanted!r}; panels: {', '.join(sorted(panels))}")
    entry = panels[wanted]
    members = entry.get("members") if isinstance(entry, dict) else None
    if not isinstance(members, dict) or len(members) < 2:
        raise ValueError(f"panel {wanted!r} needs a members table with at least two player types")
    for label, spec in members.items():
        if label == MIXED or directory_name(label) != label:
            raise ValueError(f"panel member label {label!r} must be a plain name (letters, digits, - and _)")
        parse_policy(spec)  # a bad spec is an error naming it, before any run starts
    return Panel(wanted, str(entry.get("description", "")), dict(members))


def run_panel(
    rulesets: list[str], varies: list[str], panel: Panel, hands: int, *, session_length: int, seed: int,
    workers: int, out_dir, duplicate: bool = False, progress: bool | None = None, overwrite: bool = False,
    scheduler=None,
) -> dict[str, list[dict]]:  # fmt: skip
    """Every variant played by each panel table on the same seed, into ``out_dir/TABLE/``; the entries
    of each table (as :func:`~mjsim.analysis.variants.run_variants` returns them)."""
    out_dir = Path(out_dir)
    results = {}
    for table, policies in panel.tables().items():
        variants: list[Variant] = build_variants(rulesets, varies, policies=policies)
        results[table] = run_variants(
            variants, policies, hands, session_length=session_length, seed=seed, workers=workers,
            out_dir=out_dir / table, duplicate=duplicate, progress=progress, overwrite=overwrite, scheduler=scheduler,
        )  # fmt: skip
    return results


def panel_effects(results: dict[str, list[dict]], metric: str = "mean_net", by: str = "role") -> pl.DataFrame:
    """Each variant's effect (difference to its group's first variant, paired) per panel table, and over the
    panel: the lowest and highest effect with their intervals, and whether the sign differs.

    Columns: variant, the ``by`` column, then per table ``TABLE`` (the difference) and ``TABLE_low`` /
    ``TABLE_high`` (its 95% interval), then ``lowest``, ``highest``, ``sign_differs`` (point estimates on
    both sides of zero) and ``sign_differs_clearly`` (some interval above zero and another below)."""
    keys = ["label", by]
    frames = []
    for table, entries in results.items():
        plain = [e for e in entries if not e["variant"].endswith("~resettled")]
        compared = comparison_table(plain, metric=metric, by=by)
        compared = compared.filter((pl.col("metric") == metric) & pl.col("diff").is_not_null())
        frames.append(
            compared.select(
                *keys,
                pl.col("diff").alias(table),
                pl.col("diff_ci_low").alias(f"{table}_low"),
                pl.col("diff_ci_high").alias(f"{table}_high"),
            )  # fmt: skip
        )
    wide = frames[0]
    for frame in frames[1:]:
        wide = wide.join(frame, on=keys, how="full", coalesce=True)
    tables = list(results)
    members = [t for t in tables if t != MIXED]
    lows = pl.concat_list([pl.col(f"{t}_low") for t in members])
    highs = pl.concat_list([pl.col(f"{t}_high") for t in members])
    values = pl.concat_list([pl.col(t) for t in members])
    return wide.rename({"label": "variant"}).with_columns(
        values.list.min().alias("lowest"),
        values.list.max().alias("highest"),
        ((values.list.min() < 0) & (values.list.max() > 0)).alias("sign_differs"),
        ((highs.list.min() < 0) & (lows.list.max() > 0)).alias("sign_differs_clearly"),
    )


def format_panel(effects: pl.DataFrame, by: str = "role") -> str:
    """The panel's effects as aligned text: the range over the members, then each table's effect."""
    tables = [c for c in effects.columns if c not in ("variant", by, "lowest", "highest", "sign_differs",
              "sign_differs_clearly") and not c.endswith(("_low", "_high"))]  # fmt: skip
    lines = [f"{'variant':<30} {by:<11} {'range over the panel':<22} " + " ".join(f"{t:>16}" for t in tables)]
    for row in effects.iter_rows(named=True):
        flag = "  SIGN DIFFERS" if row["sign_differs_clearly"] else ("  sign differs?" if row["sign_differs"] else "")
        span = f"{row['lowest']:+.3f} .. {row['highest']:+.3f}"
        cells = " ".join(f"{row[t]:>+16.3f}" if row[t] is not None else f"{'':>16}" for t in tables)
        lines.append(f"{row['variant']:<30} {row[by]!s:<11} {span:<22} {cells}{flag}")
    return "\n".join(lines)
