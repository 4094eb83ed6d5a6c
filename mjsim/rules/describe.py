"""Plain-text views of presets and rulesets for the CLI (``mjsim rules`` / ``mjsim rules NAME``)."""

from __future__ import annotations

from mjsim.rules.loader import load_preset, preset_names
from mjsim.rules.options import OPTIONS, SECTIONS, format_value
from mjsim.rules.ruleset import Ruleset


def describe_presets() -> str:
    """One line per preset: name, family, cap, min fan, description."""
    rows = [("preset", "family", "cap", "min fan", "description")]
    for name in preset_names():
        rs = load_preset(name)
        rows.append((name, rs.family, format_value(rs.cap), str(rs.min_fan), rs.description))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    return (
        "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths)) + "  " + row[4] for row in rows)
        + "\n"
    )


def describe_ruleset(rs: Ruleset) -> str:
    """Every option of ``rs``: value, meaning and rule IDs; ``*`` marks values that differ from the default."""
    lines = [f"{rs.name}: family {rs.family}, content_hash {rs.content_hash}"]
    if rs.description:
        lines.append(f"  {rs.description}")
    lines.append("  (* = differs from the option's default)")
    for section in SECTIONS:
        if section == "identity":
            continue
        lines += ["", f"[{section}]"]
        for option in OPTIONS.values():
            if option.section != section:
                continue
            value = getattr(rs, option.name)
            mark = "*" if value != option.default else " "
            rules = f" ({', '.join(option.rules)})" if option.rules else ""
            lines.append(f"{mark} {option.name} = {format_value(value)}")
            lines.append(f"      {option.meaning}{rules}")
    return "\n".join(lines) + "\n"
