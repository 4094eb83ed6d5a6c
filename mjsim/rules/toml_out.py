"""Write a ruleset's option values as TOML (the stdlib reads TOML but cannot write it).

Only the value types a ruleset holds occur: str, int, bool, None (``cap``,
written ``"none"``), lists of str and tables of str -> int.  Every option is
written, grouped by section, with its rule IDs as a comment, so the output is
also a complete, readable house file.
"""

from __future__ import annotations

from mjsim.rules.options import OPTIONS, SECTIONS

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def toml_string(text: str) -> str:
    """A TOML basic string; control characters (and DEL, which TOML forbids raw) are escaped."""
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value) -> str:
    """TOML text of one option value."""
    if value is None:
        return '"none"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_string(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as a TOML option value")


def dumps(values: dict) -> str:
    """TOML document of ``values`` (a ``Ruleset.to_dict()``); tables come last, as TOML requires."""
    lines = [f"# ruleset {values['name']}: every option written out (meanings: mjsim.rules.options)"]
    tables = []
    for section in SECTIONS:
        lines += ["", f"# {section}"]
        for option in OPTIONS.values():
            if option.section != section:
                continue
            if option.kind == "table":
                tables.append(option)
                continue
            comment = f"  # {', '.join(option.rules)}" if option.rules else ""
            lines.append(f"{option.name} = {toml_value(values[option.name])}{comment}")
    for option in tables:
        lines += ["", f"[{option.name}]  # {', '.join(option.rules)}"]
        lines += [f"{key} = {fan}" for key, fan in values[option.name].items()]
    return "\n".join(lines) + "\n"
