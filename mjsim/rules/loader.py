"""Load rulesets from TOML: the bundled presets (``presets/*.toml``) and house files.

A ruleset file holds option names as top-level keys (see
:mod:`mjsim.rules.options`; tables such as ``[fan]`` for table options), plus:

* ``extends = "jipinghu_5fan"`` — start from a preset (or, for a value ending
  in ``.toml`` or holding a ``/``, from another file, relative to this one) and
  state only the differences;
* ``name`` — optional, defaults to the file stem;
* ``cap = "none"`` — no cap.

What a file inherits through ``extends``:

* ``name`` and ``description`` never (they describe the file, not the rules);
* scalar and list options are replaced by the file's value;
* table options merge key by key: a key given replaces the parent's value,
  a value ``"none"`` removes the key, and a pattern given in ``fan`` leaves the
  inherited ``limit_fan`` (and the reverse), so a file can move a pattern
  between ordinary and limit (JPH-F1, JPH-F2) by naming it once.

Errors are ``ValueError`` prefixed with the file (or preset) they come from.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path

from mjsim.rules.options import OPTIONS
from mjsim.rules.ruleset import IDENTITY, Ruleset, check_option_names, unknown_message

PRESETS = resources.files("mjsim.rules") / "presets"
"""Directory of the bundled preset files."""
MAX_FILE_BYTES = 1 << 20
"""The largest ruleset file read (a house file is a few kilobytes)."""


def preset_names() -> list[str]:
    """Names of the bundled presets, sorted."""
    return sorted(p.name.removesuffix(".toml") for p in PRESETS.iterdir() if p.name.endswith(".toml"))


@cache
def load_preset(name: str) -> Ruleset:
    """The bundled preset ``name`` (cached: rulesets are immutable)."""
    text, origin, base = _source(name, None)
    return _build(text, origin, base, default_name=name)


def load_file(path: str | os.PathLike) -> Ruleset:
    """A house ruleset file; its name defaults to the file stem."""
    text, origin, base = _source(os.fspath(path), None, force_path=True)
    return _build(text, origin, base, default_name=Path(path).stem)


def loads(text: str, name: str = "custom", base_dir: str | os.PathLike | None = None) -> Ruleset:
    """A ruleset from TOML text (``name`` unless the text sets one; ``base_dir`` resolves a relative ``extends``)."""
    return _build(text, "<toml text>", Path(base_dir) if base_dir else None, default_name=name)


def ruleset(name_or_path, /, **overrides) -> Ruleset:
    """A preset by name, or a house ruleset by path, with validated option overrides.

    >>> ruleset("jipinghu_5fan", cap=3).cap
    3

    An unknown preset name raises ``ValueError`` listing the presets; an
    unknown override raises ``ValueError`` listing the options.
    """
    if isinstance(name_or_path, Ruleset):
        base = name_or_path
    elif _is_path(name_or_path):
        base = load_file(name_or_path)
    elif isinstance(name_or_path, str):
        base = load_preset(name_or_path)
    else:
        raise TypeError(f"expected a Ruleset, a preset name or a path to a .toml file, got {name_or_path!r}")
    return base.replace(**overrides) if overrides else base


# ---------------------------------------------------------------------------


def _is_path(ref) -> bool:
    if isinstance(ref, os.PathLike):
        return True
    return isinstance(ref, str) and (ref.endswith(".toml") or "/" in ref or os.sep in ref)


def _source(ref: str, base_dir: Path | None, force_path: bool = False) -> tuple[str, str, Path | None]:
    """(TOML text, origin label for errors, directory for relative ``extends``) of a preset name or path."""
    if force_path or _is_path(ref):
        # Resolved, so that the cycle check sees one spelling per file.
        path = (Path(ref) if base_dir is None else base_dir / ref).resolve()
        try:
            if path.exists() and not path.is_file():  # a directory, /dev/zero or a pipe: never read (could hang)
                raise ValueError(f"ruleset file {str(path)!r} is not a regular file; give a .toml file")
            if path.exists() and path.stat().st_size > MAX_FILE_BYTES:
                raise ValueError(f"ruleset file {str(path)!r} is larger than {MAX_FILE_BYTES:,} bytes; is it one?")
            return path.read_text(encoding="utf-8"), str(path), path.parent
        except OSError as err:
            raise ValueError(f"cannot read ruleset file {str(path)!r}: {err.strerror or err}") from None
        except UnicodeDecodeError as err:
            raise ValueError(
                f"ruleset file {str(path)!r} is not UTF-8 text: {err.reason} at byte {err.start}"
            ) from None
    names = preset_names()
    if ref not in names:
        raise ValueError(unknown_message("preset", ref, names) + " (or give a path to a house .toml file)")
    return (PRESETS / f"{ref}.toml").read_text(encoding="utf-8"), f"preset {ref!r}", None


def _build(text: str, origin: str, base_dir: Path | None, default_name: str) -> Ruleset:
    values = _values(text, origin, base_dir, chain=())
    values.setdefault("name", default_name)
    try:
        return Ruleset.from_dict(values)
    except ValueError as err:
        raise ValueError(f"{origin}: {err}") from None


def _values(text: str, origin: str, base_dir: Path | None, chain: tuple[str, ...]) -> dict:
    """Option values of one file, with its ``extends`` chain applied (not yet validated)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{origin}: invalid TOML: {err}") from None
    parent_ref = data.pop("extends", None)
    try:
        check_option_names(data, "option")
    except ValueError as err:
        raise ValueError(f"{origin}: {err} (and 'extends')") from None
    parent: dict = {}
    if parent_ref is not None:
        if not isinstance(parent_ref, str):
            raise ValueError(f"{origin}: 'extends' = {parent_ref!r}: expected a preset name or a .toml path")
        try:
            parent_text, parent_origin, parent_base = _source(parent_ref, base_dir)
        except ValueError as err:
            raise ValueError(f"{origin}: 'extends' = {parent_ref!r}: {err}") from None
        if parent_origin in chain or parent_origin == origin:
            cycle = " -> ".join((*chain, origin, parent_origin))
            raise ValueError(f"{origin}: 'extends' = {parent_ref!r} makes a cycle: {cycle}")
        parent = _values(parent_text, parent_origin, parent_base, (*chain, origin))
        for key in IDENTITY:
            parent.pop(key, None)
    return _merge(parent, data)


def _merge(parent: dict, child: dict) -> dict:
    """``child`` over ``parent`` by the inheritance rules of the module docstring."""
    merged = dict(parent)
    for key, value in child.items():
        inherited = parent.get(key)
        if OPTIONS[key].kind == "table" and isinstance(value, Mapping):
            table = {**inherited, **value} if isinstance(inherited, Mapping) else dict(value)
            merged[key] = {k: v for k, v in table.items() if v != "none"}
        else:
            merged[key] = value
    # JPH-F1/F2: naming a pattern in one table moves it out of the other, inherited table.
    for here, there in (("fan", "limit_fan"), ("limit_fan", "fan")):
        named = child.get(here)
        if isinstance(named, Mapping) and isinstance(merged.get(there), Mapping):
            moved = {k for k, v in named.items() if v != "none"}
            own_there = child.get(there) if isinstance(child.get(there), Mapping) else {}
            merged[there] = {k: v for k, v in merged[there].items() if k not in moved or k in own_there}
    return merged
