"""Ruleset: one frozen, validated, hashable record of every rule option.

The fields are exactly the options of :data:`mjsim.rules.options.OPTIONS`
(same names, same order, defaults taken from there).  Every value is checked
in one place, :meth:`Ruleset.__post_init__`: each option against the registry
(:func:`_normalise`), then the cross-option constraints
(:func:`_check_consistency`).  Errors are ``ValueError`` naming the option, the
bad value and what is allowed.

Normal forms, so that equal rules give equal objects and hashes: list options
are tuples in the registry's order (``["last_tile", "self_draw"]`` is stored as
``("self_draw", "last_tile")``), table options are :class:`FrozenTable` in the
registry's key order, ``cap`` is an ``int`` or ``None``.

``content_hash`` identifies the *rules*: it covers every option except
``name`` and ``description``, so a house file identical to a preset hashes the
same as the preset, and ``ruleset("x", cap=3)`` hashes differently from
``ruleset("x")`` although both keep the name ``"x"``.  Compare hashes, not
names, to know whether two rulesets play alike.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import numbers
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from functools import cached_property

from mjsim.rules import toml_out
from mjsim.rules.frozen import FrozenTable
from mjsim.rules.options import OPTIONS, REQUIRED, Option
from mjsim.tiles import FIRST_FLOWER, parse_tiles, tile_set_kinds

IDENTITY = ("name", "description")
"""Options that name a ruleset but do not change its rules (excluded from content_hash)."""


def _d(name: str):
    """Field default from the registry (one source of truth for defaults)."""
    default = OPTIONS[name].default
    return FrozenTable(default) if OPTIONS[name].kind == "table" else default


@dataclass(frozen=True, kw_only=True, repr=False)
class Ruleset:
    """Every rule option of one ruleset; see :mod:`mjsim.rules.options` for meanings.

    Build one with :func:`mjsim.rules.ruleset` (preset name or TOML path), with
    :meth:`from_dict`, or directly with keyword arguments.  Immutable and
    hashable; :meth:`replace` returns a validated modified copy.
    """

    # identity
    name: str
    description: str = _d("description")
    family: str
    # table and play (C-*)
    tile_set: int = _d("tile_set")
    hand_size: int = _d("hand_size")
    chow: bool = _d("chow")
    discard_win: bool = _d("discard_win")
    multiple_win: bool = _d("multiple_win")
    win_forms: tuple[str, ...] = _d("win_forms")
    seven_pairs_quads: bool = _d("seven_pairs_quads")
    missed_win: str = _d("missed_win")
    missed_pung: bool = _d("missed_pung")
    rob_kong: bool = _d("rob_kong")
    rob_kong_own_discard: bool = _d("rob_kong_own_discard")
    kong_replacement: str = _d("kong_replacement")
    next_dealer_after_win: str = _d("next_dealer_after_win")
    next_dealer_after_draw: str = _d("next_dealer_after_draw")
    dead_wall: int = _d("dead_wall")
    follow_dealer: int = _d("follow_dealer")
    min_fan: int = _d("min_fan")
    cap: int | None = _d("cap")
    first_turn_ends_on_concealed_kong: bool = _d("first_turn_ends_on_concealed_kong")
    # jipinghu scoring (JPH-*)
    fan: FrozenTable = _d("fan")
    limit_fan: FrozenTable = _d("limit_fan")
    bonuses: tuple[str, ...] = _d("bonuses")
    kong_flower: str = _d("kong_flower")
    robbed_kong_bonus: str = _d("robbed_kong_bonus")
    triple_win_raise: bool = _d("triple_win_raise")
    discard_pays_all: bool = _d("discard_pays_all")
    triple_win_pays_all: bool = _d("triple_win_pays_all")
    liability_kong_flower: bool = _d("liability_kong_flower")
    liability_robbed_kong: bool = _d("liability_robbed_kong")
    liability_twelve_tiles: bool = _d("liability_twelve_tiles")
    liability_limit_hands: bool = _d("liability_limit_hands")
    liability_first_only: bool = _d("liability_first_only")
    liability_precedence: str = _d("liability_precedence")
    liability_once_across_rules: bool = _d("liability_once_across_rules")
    nine_gates_wait: str = _d("nine_gates_wait")
    # tuidaohu value, kongs, horses, wilds (TDH-*)
    hand_value: str = _d("hand_value")
    big_hands: tuple[str, ...] = _d("big_hands")
    small_hand_value: int = _d("small_hand_value")
    big_hand_value: int = _d("big_hand_value")
    self_draw_multiplier: int = _d("self_draw_multiplier")
    discard_multiplier: int = _d("discard_multiplier")
    earthly_rule: str = _d("earthly_rule")
    no_ghost_multiplier: int = _d("no_ghost_multiplier")
    kong_flower_multiplier: int = _d("kong_flower_multiplier")
    robbed_kong_multiplier: int = _d("robbed_kong_multiplier")
    seven_pairs_multiplier: int = _d("seven_pairs_multiplier")
    ghost_as_itself_counts_as_no_ghost: bool = _d("ghost_as_itself_counts_as_no_ghost")
    full_ghosts: bool = _d("full_ghosts")
    full_ghosts_value: int = _d("full_ghosts_value")
    full_ghosts_horses: bool = _d("full_ghosts_horses")
    orphans_rob_concealed_kong: bool = _d("orphans_rob_concealed_kong")
    kong_pay_discard: int = _d("kong_pay_discard")
    kong_pay_added: int = _d("kong_pay_added")
    kong_pay_concealed: int = _d("kong_pay_concealed")
    kong_settle: str = _d("kong_settle")
    horses: str = _d("horses")
    horse_growth: str = _d("horse_growth")
    horse_base: int = _d("horse_base")
    horse_max: int = _d("horse_max")
    horse_mapping: str = _d("horse_mapping")
    winner_horses_with_ghost: int = _d("winner_horses_with_ghost")
    winner_horses_without_ghost: int = _d("winner_horses_without_ghost")
    horse_reserve: int = _d("horse_reserve")
    horses_on_kongs: bool = _d("horses_on_kongs")
    winner_horses_on_kongs: bool = _d("winner_horses_on_kongs")
    winner_horse_value: str = _d("winner_horse_value")
    winner_horse_scheme: str = _d("winner_horse_scheme")
    winner_horses_from: str = _d("winner_horses_from")
    horse_settlement: str = _d("horse_settlement")
    wild_scheme: str = _d("wild_scheme")
    wild_tile: str = _d("wild_tile")
    # xuezhan (XZ-*)
    bloody: bool = _d("bloody")
    max_suits: int = _d("max_suits")
    declare_void: bool = _d("declare_void")
    must_win_tiles_left: int = _d("must_win_tiles_left")
    xz_fan: FrozenTable = _d("xz_fan")
    xz_additions: FrozenTable = _d("xz_additions")
    call_transfer: bool = _d("call_transfer")
    end_checks: bool = _d("end_checks")
    flower_pig_penalty: int = _d("flower_pig_penalty")
    tax_refund: bool = _d("tax_refund")
    call_transfer_multiple: str = _d("call_transfer_multiple")
    exchange_three: bool = _d("exchange_three")
    self_draw_bonus: str = _d("self_draw_bonus")
    concealed_and_middle: bool = _d("concealed_and_middle")
    extra_patterns: bool = _d("extra_patterns")
    kong_flower_from_discard: str = _d("kong_flower_from_discard")
    bloody_flow: bool = _d("bloody_flow")
    heavenly_earthly: bool = _d("heavenly_earthly")
    # shuitou (SHT-*)
    white_is_flower: bool = _d("white_is_flower")
    split_tiles_at: int = _d("split_tiles_at")
    split_kong_extra: int = _d("split_kong_extra")
    split_tiles: int = _d("split_tiles")
    caishen_same_kind: str = _d("caishen_same_kind")
    caishen_flip_flower: str = _d("caishen_flip_flower")
    double_from_tai: int = _d("double_from_tai")
    double_factor: int = _d("double_factor")
    dealer_pays_double: bool = _d("dealer_pays_double")
    settle_non_winners: bool = _d("settle_non_winners")
    liability_four_winds: bool = _d("liability_four_winds")

    def __post_init__(self) -> None:
        # The one place where values are validated and brought to normal form.
        for option in OPTIONS.values():
            object.__setattr__(self, option.name, _normalise(option, getattr(self, option.name)))
        _check_consistency(self)

    @classmethod
    def from_dict(cls, values: Mapping) -> Ruleset:
        """Build from a plain mapping (e.g. parsed TOML); unknown or missing keys raise ``ValueError``."""
        check_option_names(values, "option")
        missing = [key for key in REQUIRED if key not in values]
        if missing:
            raise ValueError(f"option {missing[0]!r} is required (allowed: {OPTIONS[missing[0]].allowed_text})")
        return cls(**values)

    def replace(self, **overrides) -> Ruleset:
        """A validated copy with some options changed; unknown names raise ``ValueError``."""
        check_option_names(overrides, "override")
        return dataclasses.replace(self, **overrides)

    def to_dict(self) -> dict:
        """Every option as plain Python data (dict tables, list lists, ``cap`` None for no cap)."""
        out = {}
        for option in OPTIONS.values():
            value = getattr(self, option.name)
            if option.kind == "table":
                value = value.to_dict()
            elif option.kind == "list":
                value = list(value)
            out[option.name] = value
        return out

    @cached_property
    def content_hash(self) -> str:
        """16 hex chars of sha256 over the canonical JSON of every option except name/description.

        Canonical JSON: sorted keys, no whitespace, ASCII escapes; lists and
        tables already in registry order.  Only str/int/bool/None values, so
        the text and hash are the same on every machine and Python version.
        """
        values = {k: v for k, v in self.to_dict().items() if k not in IDENTITY}
        text = json.dumps(values, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]

    def to_toml(self) -> str:
        """Every option as a TOML document that :func:`mjsim.rules.loads` reads back equal."""
        return toml_out.dumps(self.to_dict())

    def __repr__(self) -> str:
        return f"Ruleset(name={self.name!r}, family={self.family!r}, content_hash={self.content_hash!r})"


_FIELDS = tuple(f.name for f in fields(Ruleset))
if _FIELDS != tuple(OPTIONS):  # the registry and the dataclass must never drift apart
    raise RuntimeError(f"Ruleset fields differ from OPTIONS: {set(_FIELDS) ^ set(OPTIONS)}")


# ---------------------------------------------------------------------------
# Validation


def unknown_message(what: str, key, allowed: Iterable[str]) -> str:
    """``unknown option 'capp' (did you mean 'cap'?); allowed: ...``"""
    allowed = list(allowed)
    close = difflib.get_close_matches(str(key), allowed, n=3) if isinstance(key, str) else []
    hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
    return f"unknown {what} {key!r}{hint}; allowed: {', '.join(allowed)}"


def check_option_names(keys: Iterable, what: str = "option") -> None:
    """Raise ``ValueError`` for the first key that is not an option name."""
    for key in keys:
        if key not in OPTIONS:
            raise ValueError(unknown_message(what, key, OPTIONS))


def _fail(option: Option, value, expected: str):
    rules = f" ({', '.join(option.rules)})" if option.rules else ""
    raise ValueError(f"option {option.name!r} = {value!r}: {expected}{rules}")


def _check_int(option: Option, value, where: str | None = None) -> int:
    """An integer (never a bool) in the option's values or range; ``where`` names a table entry."""
    shown = f"{option.name}.{where}" if where else option.name  # TOML's dotted-key spelling
    rules = f" ({', '.join(option.rules)})" if option.rules else ""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        kind = "a bool is not an integer" if isinstance(value, bool) else f"got {type(value).__name__}"
        raise ValueError(f"option {shown!r} = {value!r}: expected an integer, {_range_text(option)} ({kind}){rules}")
    value = int(value)
    ok = value in option.allowed if option.allowed and option.kind == "int" else option.lo <= value <= option.hi
    if not ok:
        raise ValueError(f"option {shown!r} = {value!r}: not allowed, expected {_range_text(option)}{rules}")
    return value


def _range_text(option: Option) -> str:
    if option.kind == "int" and option.allowed:
        return "one of " + ", ".join(map(str, option.allowed))
    return f"{option.lo}..{option.hi}" + (" or 'none'" if option.kind == "cap" else "")


def _normalise(option: Option, value):
    """Check one option's value against the registry and return its normal form."""
    kind = option.kind
    if kind == "bool":
        if not isinstance(value, bool):
            _fail(option, value, f"expected true or false, got {type(value).__name__}")
        return value
    if kind == "int":
        return _check_int(option, value)
    if kind == "cap":
        return None if value is None or value == "none" else _check_int(option, value)
    if kind in ("str", "choice", "tile") and not isinstance(value, str):
        _fail(option, value, f"expected a string, got {type(value).__name__}")
    if kind == "str":
        return value
    if kind == "choice":
        if value not in option.allowed:
            close = difflib.get_close_matches(value, option.allowed, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            _fail(option, value, f"expected one of {', '.join(option.allowed)}{hint}")
        return value
    if kind == "tile":
        return _check_tile(option, value)
    if kind == "list":
        return _normalise_list(option, value)
    if kind == "table":
        return _normalise_table(option, value)
    raise AssertionError(f"unknown option kind {kind!r}")


def _check_tile(option: Option, value: str) -> str:
    try:
        tiles = parse_tiles(value)
    except ValueError as err:
        _fail(option, value, f"not a tile: {err}")
    if len(tiles) != 1 or tiles[0] >= FIRST_FLOWER:
        _fail(option, value, "expected one playing tile (not a flower) in notation, e.g. '5z'")
    return value


def _normalise_list(option: Option, value) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, list | tuple):
        _fail(option, value, f"expected a list, a subset of {', '.join(option.allowed)}")
    for item in value:
        if item not in option.allowed:
            raise ValueError(f"option {option.name!r}: " + unknown_message("item", item, option.allowed))
    if len(set(value)) != len(value):
        _fail(option, value, "an item is listed twice")
    return tuple(item for item in option.allowed if item in value)


def _normalise_table(option: Option, value) -> FrozenTable:
    if not isinstance(value, Mapping):
        _fail(option, value, f"expected a table of {', '.join(option.allowed)} -> integer")
    for key, fan in value.items():
        if key not in option.allowed:
            raise ValueError(f"option {option.name!r}: " + unknown_message("key", key, option.allowed))
        _check_int(option, fan, where=key)
    return FrozenTable({key: int(value[key]) for key in option.allowed if key in value})


# Pattern ids and items that need honour tiles (C-T2), so cannot occur with tile_set 108.
_NEEDS_HONOURS = {
    "win_forms": {"thirteen_orphans"},
    "bonuses": {"seat_wind", "round_wind", "dragon_pung"},
    "fan": {"half_flush", "half_flush_pungs"},
    "limit_fan": {"half_flush_pungs", "mixed_terminals", "little_dragons", "little_winds", "all_honours",
                  "big_dragons", "big_winds", "thirteen_orphans"},
    "big_hands": {"all_honours", "big_dragons", "little_winds", "big_winds", "thirteen_orphans"},
}  # fmt: skip


def _check_consistency(rs: Ruleset) -> None:
    """Constraints between options; each error names the options involved."""
    if not rs.name:
        raise ValueError("option 'name' = '': a ruleset needs a non-empty name")
    if "standard" not in rs.win_forms:
        raise ValueError(f"option 'win_forms' = {list(rs.win_forms)!r}: must include 'standard' (C-P5)")
    both = [key for key in rs.fan if key in rs.limit_fan]
    if both:
        raise ValueError(
            f"pattern {both[0]!r} is in both 'fan' and 'limit_fan': a pattern is ordinary or limit, "
            "never both (JPH-F1, JPH-F2)"
        )
    if rs.tile_set == 108:
        for name, items in _NEEDS_HONOURS.items():
            bad = [item for item in getattr(rs, name) if item in items]
            if bad:
                raise ValueError(
                    f"option {name!r} holds {bad!r}, which needs honour tiles, but 'tile_set' = 108 has none "
                    "(C-T4): remove them or use tile_set 136/144"
                )
        if rs.white_is_flower:
            raise ValueError(
                "option 'white_is_flower' = True needs 白板 5z, but 'tile_set' = 108 has no honours (C-T4)"
            )
    if rs.wild_scheme == "fixed":
        tile = parse_tiles(rs.wild_tile)[0]
        if not tile_set_kinds(rs.tile_set)[tile]:
            raise ValueError(
                f"option 'wild_tile' = {rs.wild_tile!r}: the {rs.tile_set}-tile set has no such tile (C-T4, TDH-G1)"
            )
        if rs.white_is_flower and rs.wild_tile == "5z":
            raise ValueError("option 'wild_tile' = '5z' cannot be wild while 'white_is_flower' = True (SHT-P1)")
    if rs.bloody_flow and not rs.bloody:
        raise ValueError("option 'bloody_flow' = True (血流成河) needs 'bloody' = True (XZ-P4, XZ-H7)")
    if rs.declare_void and rs.max_suits != 2:
        raise ValueError(f"option 'declare_void' = True needs 'max_suits' = 2 (缺一门), got {rs.max_suits} (XZ-P2)")
    if rs.orphans_rob_concealed_kong and not (rs.rob_kong and "thirteen_orphans" in rs.win_forms):
        raise ValueError(
            "option 'orphans_rob_concealed_kong' = True needs 'rob_kong' = True and 'thirteen_orphans' in "
            f"'win_forms' (got rob_kong = {rs.rob_kong}, win_forms = {list(rs.win_forms)!r}) (TDH-H9, C-P4)"
        )
    if rs.horse_base > rs.horse_max:
        raise ValueError(f"option 'horse_base' = {rs.horse_base} exceeds 'horse_max' = {rs.horse_max} (TDH-M2)")
    if rs.horses == "winner":
        most = max(rs.winner_horses_with_ghost, rs.winner_horses_without_ghost)
        if most > rs.horse_reserve:
            raise ValueError(
                f"option 'horse_reserve' = {rs.horse_reserve} is below the {most} winner horses it must hold (TDH-M5)"
            )
