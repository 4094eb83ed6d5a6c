"""Every ruleset option, documented in one place.

``OPTIONS`` maps each option name to an :class:`Option`: its kind, allowed
values or range, default, the rule IDs it implements (``/work/shared/rules``)
and a one-line meaning.  :class:`mjsim.rules.Ruleset` has exactly these
fields, in this order, and validates values against this registry; the CLI
(``mjsim rules``) and the generated options documentation render it with
:func:`options_text` and :func:`options_markdown`.

Kinds:

* ``str``    free text (identity only)
* ``bool``   true / false (an int is not a bool, nor the reverse)
* ``int``    integer in ``lo..hi``, or one of ``allowed`` when that is given
* ``cap``    integer in ``lo..hi`` or ``None`` (``"none"`` in TOML)
* ``choice`` one string of ``allowed``
* ``tile``   one playing tile in notation, e.g. ``"5z"`` (C-T5)
* ``list``   subset of ``allowed`` (stored as a tuple in ``allowed`` order)
* ``table``  mapping from keys of ``allowed`` to integers in ``lo..hi``
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

KINDS = ("str", "bool", "int", "cap", "choice", "tile", "list", "table")


@dataclass(frozen=True, eq=False)
class Option:
    """One ruleset option: what it is, what it may hold, which rules it implements."""

    name: str
    kind: str
    default: object
    rules: tuple[str, ...]
    meaning: str
    section: str
    allowed: tuple = ()
    """Choice values, list items or table keys (in canonical order), or the values of an int option."""
    lo: int | None = None
    hi: int | None = None
    """Range of an int/cap option, or of a table's values."""

    @property
    def type_text(self) -> str:
        """Type as written in the docs: ``int``, ``int or none``, ``table str->int`` ..."""
        return {
            "cap": "int or none",
            "choice": "str",
            "tile": "tile",
            "list": "list[str]",
            "table": "table str->int",
        }.get(self.kind, self.kind)

    @property
    def allowed_text(self) -> str:
        """Allowed values in words, e.g. ``0..13`` or ``back, front``."""
        if self.kind == "bool":
            return "true, false"
        if self.kind == "int":
            return ", ".join(map(str, self.allowed)) if self.allowed else f"{self.lo}..{self.hi}"
        if self.kind == "cap":
            return f"{self.lo}..{self.hi} or none"
        if self.kind == "choice":
            return ", ".join(self.allowed)
        if self.kind == "list":
            return "subset of " + ", ".join(self.allowed)
        if self.kind == "table":
            return f"keys {', '.join(self.allowed)}; values {self.lo}..{self.hi}"
        if self.kind == "tile":
            return "one tile, e.g. 5z"
        return "any text"

    @property
    def default_text(self) -> str:
        """Default as it would be written in TOML."""
        return format_value(self.default) if self.name not in REQUIRED else "(required)"


REQUIRED = ("name", "family")
"""Options with no default: a preset or house file must give them (name = file stem)."""


def format_value(value) -> str:
    """Short TOML-like text of an option value (``none``, ``true``, ``[a, b]``, ``{k = 1}``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple | list):
        return "[" + ", ".join(value) + "]"
    if hasattr(value, "items"):
        return "{" + ", ".join(f"{k} = {v}" for k, v in value.items()) + "}"
    return str(value)


# ---------------------------------------------------------------------------
# Allowed keys (rule-reference pattern ids; the scorers use the same ids)

FAMILIES = ("jipinghu", "tuidaohu", "xuezhan", "shuitou")
WIN_FORMS = ("standard", "seven_pairs", "thirteen_orphans")
JPH_FAN_KEYS = ("chicken", "all_chows", "all_pungs", "half_flush", "half_flush_pungs", "full_flush")  # JPH-F1
JPH_LIMIT_KEYS = (  # JPH-F2
    "full_flush", "half_flush_pungs", "full_flush_pungs", "mixed_terminals", "little_dragons", "little_winds",
    "all_honours", "pure_terminals", "big_dragons", "big_winds", "nine_gates", "thirteen_orphans",
    "heavenly", "earthly", "human",
)  # fmt: skip
JPH_BONUSES = ("self_draw", "seat_wind", "round_wind", "dragon_pung", "concealed", "last_tile")  # JPH-F3
TDH_BIG_HANDS = (  # TDH-V2
    "heavenly", "earthly", "full_flush", "all_honours", "seven_pairs", "four_concealed_pungs", "four_kongs",
    "big_dragons", "little_winds", "big_winds", "thirteen_orphans",
)  # fmt: skip
XZ_FAN_KEYS = (  # XZ-F1
    "basic", "all_pungs", "full_flush", "seven_pairs", "terminal_sets", "full_flush_pungs",
    "two_five_eight_pungs", "full_flush_seven_pairs", "dragon_seven_pairs", "full_flush_terminal_sets",
    "full_flush_dragon_seven_pairs", "heavenly", "earthly",
)  # fmt: skip
XZ_ADDITION_KEYS = (  # XZ-F2
    "root", "added_kong", "direct_kong", "concealed_kong", "kong_flower_exposed", "kong_flower_concealed",
    "kong_discard", "robbed_kong",
)  # fmt: skip
NEXT_DEALER_AFTER_WIN = ("dealer_or_next", "winner", "first_winner")

FAN_MAX = 20
"""Upper bound of every fan value and of the cap: far above any hand in the reference."""


# ---------------------------------------------------------------------------
# The registry.  Small constructors keep each entry on one readable line.

_section = ""


def _o(name, kind, default, rules, meaning, allowed=(), lo=None, hi=None) -> Option:
    return Option(name, kind, default, tuple(rules.split()), meaning, _section, tuple(allowed), lo, hi)


def _bool(name, default, rules, meaning):
    return _o(name, "bool", default, rules, meaning)


def _int(name, lo, hi, default, rules, meaning):
    return _o(name, "int", default, rules, meaning, lo=lo, hi=hi)


def _choice(name, allowed, default, rules, meaning):
    return _o(name, "choice", default, rules, meaning, allowed=allowed)


def _list(name, allowed, default, rules, meaning):
    return _o(name, "list", tuple(default), rules, meaning, allowed=allowed)


def _table(name, keys, rules, meaning):
    return _o(name, "table", MappingProxyType({}), rules, meaning, allowed=keys, lo=0, hi=FAN_MAX)


_entries: list[Option] = []

_section = "identity"
_entries += [
    _o("name", "str", None, "", "preset name or house file stem (not part of content_hash)"),
    _o("description", "str", "", "", "one line for people (not part of content_hash)"),
    _choice("family", FAMILIES, None, "", "ruleset family: selects the scoring module"),
]

_section = "table and play (C-*)"
_entries += [
    _o(
        "tile_set",
        "int",
        136,
        "C-T4",
        "tiles in the wall: 108 suits only, 136 + honours, 144 + flowers",
        allowed=(108, 136, 144),
    ),
    _o("hand_size", "int", 13, "C-W2 SHT-P2", "tiles in a non-dealer hand (dealer one more)", allowed=(13, 16)),
    _bool("chow", True, "C-P2 TDH-P1 XZ-P1", "the discarder's 下家 may chow"),
    _bool("discard_win", True, "JPH-P1 TDH-P2", "wins on a discard allowed (false = self-draw and robbed kong only)"),
    _bool(
        "multiple_win",
        True,
        "C-P2 JPH-P2 SHT-P5",
        "several winners on one discard (一炮多响); false = first in turn order after the discarder",
    ),
    _list(
        "win_forms",
        WIN_FORMS,
        ("standard", "thirteen_orphans"),
        "JPH-P5 TDH-P4 XZ-P3",
        "winning shapes (must include standard = sets + pair)",
    ),
    _bool("seven_pairs_quads", True, "C-P5 TDH-P4 XZ-P3", "four equal (non-konged) tiles count as two pairs"),
    _choice(
        "missed_win",
        ("none", "same_kind_until_move", "any_discard_until_draw", "until_draw_unless_more_fan"),
        "same_kind_until_move",
        "C-P6 JPH-P3 TDH-P3 XZ-P5",
        "after passing a discard win: none; same kind until own next draw/claim (JPH-P3 漏胡); "
        "any discard until own draw (TDH-P3 过手); until own draw unless more fan (XZ-P5 过水)",
    ),
    _bool("missed_pung", False, "TDH-P3 SHT-P4", "passing a possible pung bars punging that kind until own next draw"),
    _bool("rob_kong", True, "C-P4 JPH-S3 TDH-S1", "added kongs (补杠) can be robbed"),
    _bool(
        "rob_kong_own_discard",
        True,
        "TDH-S1",
        "a player may rob a kong of a tile kind they discarded earlier (tuidaohu seed: false)",
    ),
    _choice("kong_replacement", ("back", "front"), "back", "C-W3 XZ-P1", "where kong replacement tiles are drawn"),
    _choice(
        "next_dealer_after_win",
        NEXT_DEALER_AFTER_WIN,
        "dealer_or_next",
        "C-X2 JPH-P6 SHT-P8 TDH-P5 XZ-P7",
        "dealer_or_next: a winning dealer keeps, else 下家; winner: the winner deals (multiple win: first from "
        "the discarder); first_winner: first winner of the hand (first win multiple: the discarder)",
    ),
    _choice(
        "next_dealer_after_draw",
        ("same", "next"),
        "same",
        "C-X2 JPH-P6 TDH-P5 XZ-P7 SHT-P7",
        "who deals after a drawn hand: same dealer or the 下家",
    ),
    _int(
        "dead_wall",
        0,
        40,
        0,
        "C-W5 JPH-H2 TDH-H11",
        "留牌: the hand is drawn when only this many drawable tiles remain (kong replacements count as draws; "
        "horse and indicator tiles are apart)",
    ),
    _int(
        "follow_dealer",
        0,
        100,
        0,
        "C-P7 JPH-H2 TDH-H11",
        "跟庄: when the first discards of all four players, before any claim, are the kind of the dealer's "
        "first discard, the dealer pays each other player this many units (penalty money; 0 = off)",
    ),
    _int("min_fan", 0, 13, 0, "JPH-P4", "起胡: minimum fan to win (after bonuses, before the cap)"),
    _o("cap", "cap", None, "JPH-F4 XZ-F3", "封顶: largest fan of an ordinary hand; none = no cap", lo=0, hi=FAN_MAX),
    _bool(
        "first_turn_ends_on_concealed_kong",
        False,
        "JPH-F2 TDH-V2 JPH-H1",
        "a concealed kong ends the first go-around (天和/地和/人和, 地胡) as a claim does; false = only a chow, "
        "pung or exposed kong from a discard ends it",
    ),
]

_section = "jipinghu scoring (JPH-F, JPH-M, JPH-S)"
_entries += [
    _table("fan", JPH_FAN_KEYS, "JPH-F1", "ordinary patterns -> fan, added together and capped; absent = not scored"),
    _table(
        "limit_fan",
        JPH_LIMIT_KEYS,
        "JPH-F2",
        "limit patterns -> fan, beyond the cap, largest one only; a pattern is in fan or limit_fan, never both",
    ),
    _list("bonuses", JPH_BONUSES, (), "JPH-F3", "+1 fan bonuses counted for ordinary hands"),
    _choice(
        "kong_flower",
        ("raise_to_cap", "plus_one"),
        "raise_to_cap",
        "JPH-S2",
        "杠上开花: raise an ordinary hand to the cap ([3]) or +1 fan ([5])",
    ),
    _choice(
        "robbed_kong_bonus",
        ("as_kong_flower", "self_draw_only"),
        "as_kong_flower",
        "JPH-S3",
        "抢杠: gets the kong_flower minimum ([3]) or counts as self-draw only ([5])",
    ),
    _bool("triple_win_raise", True, "JPH-S1", "一炮三响 raises each winner's ordinary hand to at least the cap"),
    _bool("discard_pays_all", False, "JPH-M2", "a discarder pays three shares (包三家) instead of one"),
    _bool(
        "triple_win_pays_all",
        False,
        "JPH-S1 JPH-H1",
        "一炮三响 on a discard: the discarder pays each of the three winners three shares (包三家, triple wins only)",
    ),
    _bool("liability_kong_flower", True, "JPH-S2 TDH-S2", "杠上开花包杠: the discarder of a konged tile pays all"),
    _bool("liability_robbed_kong", True, "JPH-S3 TDH-S1", "the robbed player pays all three shares"),
    _bool("liability_twelve_tiles", True, "JPH-S4", "十二张落地包自摸: feeding a fourth exposed set makes liable"),
    _bool("liability_limit_hands", True, "JPH-S5", "包自摸 for feeding the fourth wind / third dragon pung"),
    _bool("liability_first_only", True, "JPH-S4", "包先不包后: a player is liable for the first one only"),
    _choice(
        "liability_precedence",
        ("first", "limit"),
        "first",
        "JPH-S5a JPH-H1",
        "JPH-S4 and JPH-S5 feeders liable for one win: the one whose trigger came first pays, or the JPH-S5 "
        "(limit-hand) feeder",
    ),
    _bool(
        "liability_once_across_rules",
        False,
        "JPH-S5a JPH-H1",
        "包先不包后 (liability_first_only) counts JPH-S4 and JPH-S5 liabilities together, not within JPH-S4 only",
    ),
    _choice(
        "nine_gates_wait",
        ("pure", "shape"),
        "pure",
        "JPH-F2 JPH-H1",
        "九莲宝灯: the 13 concealed tiles before the win are 1112345678999 of one suit (pure, the seed), "
        "or the final 14 tiles alone have the shape (shape)",
    ),
]

_section = "tuidaohu value, kongs, horses, wilds (TDH-*)"
_entries += [
    _choice(
        "hand_value",
        ("fan", "small_big", "ghost_multipliers"),
        "fan",
        "C-M2 TDH-V1 TDH-V4",
        "how a hand is valued: 2^fan (jipinghu, xuezhan), small/big units (TDH-V1), ghost multipliers (TDH-V4)",
    ),
    _list("big_hands", TDH_BIG_HANDS, (), "TDH-V2", "hands worth big_hand_value (they do not combine)"),
    _int("small_hand_value", 1, 100, 1, "TDH-V1", "units of a small hand 小胡"),
    _int("big_hand_value", 1, 100, 2, "TDH-V1", "units of a big hand 大胡"),
    _int("self_draw_multiplier", 1, 10, 1, "TDH-V3", "each payer pays this × hand value on a self-draw ([Q][D]: 2)"),
    _int("discard_multiplier", 1, 10, 1, "TDH-V3", "the discarder pays this × hand value on a discard win"),
    _choice(
        "earthly_rule",
        ("first_self_draw", "dealer_first_discard"),
        "first_self_draw",
        "TDH-V2",
        "地胡: non-dealer self-draw on first draw with no claim before, or win on the dealer's first discard",
    ),
    _int("no_ghost_multiplier", 1, 10, 2, "TDH-V4", "× for a win with no ghost tile (无鬼)"),
    _int(
        "kong_flower_multiplier",
        1,
        10,
        1,
        "TDH-V4 TDH-H5",
        "× the hand value of a win on a kong replacement (杠开加倍; [G] 2, [Q][D] 1 = off)",
    ),
    _int("robbed_kong_multiplier", 1, 10, 1, "TDH-H5", "× the hand value of a win robbing a kong (抢杠加倍; 1 = off)"),
    _int(
        "seven_pairs_multiplier",
        1,
        10,
        1,
        "TDH-H4",
        "七对加倍 [G]: × the hand value of a seven-pairs win under ghost multipliers (1 = off; [Q][D] seven pairs "
        "is a big hand instead)",
    ),
    _bool(
        "ghost_as_itself_counts_as_no_ghost",
        False,
        "TDH-H7 C-J2",
        "鬼牌归位算无鬼: a win whose ghosts can all stand for their own face value counts as 无鬼",
    ),
    _bool("full_ghosts", False, "TDH-V4", "holding all four ghosts is an instant win (满鬼)"),
    _int("full_ghosts_value", 1, 100, 6, "TDH-V4", "units per payer of a full-ghosts win"),
    _bool("full_ghosts_horses", True, "TDH-H8 TDH-M5", "a full-ghosts (满鬼) win takes winner horses"),
    _bool(
        "orphans_rob_concealed_kong",
        False,
        "TDH-H9 C-P4",
        "十三幺抢暗杠: a thirteen-orphans hand may rob a concealed kong (paid as a robbed kong, TDH-S1)",
    ),
    _int(
        "kong_pay_discard", 0, 100, 0, "TDH-K1 XZ-M3", "exposed kong from a discard: the discarder pays (TDH 3, XZ 2)"
    ),
    _int("kong_pay_added", 0, 100, 0, "TDH-K1 XZ-M3", "added kong: each other / not-yet-won player pays (TDH 1, XZ 1)"),
    _int(
        "kong_pay_concealed",
        0,
        100,
        0,
        "TDH-K1 XZ-M3",
        "concealed kong: each other / not-yet-won player pays (TDH 2, XZ 2)",
    ),
    _choice(
        "kong_settle",
        ("end_if_won", "immediate"),
        "end_if_won",
        "TDH-K2 XZ-M3",
        "kong payments at the end only if someone won ([Q][D]), or at once ([G], xuezhan)",
    ),
    _choice(
        "horses",
        ("none", "dealer", "winner"),
        "none",
        "TDH-M1 TDH-M5 TDH-M6",
        "买马: no horses, dealer horses (TDH-M1), winner horses (TDH-M5)",
    ),
    _choice(
        "horse_growth",
        ("plus_one_per_streak", "by_win_kind"),
        "plus_one_per_streak",
        "TDH-M2",
        "dealer horses grow +1 per 连庄 ([Q]) or +2 after a self-draw, +1 after a discard win ([D])",
    ),
    _int("horse_base", 0, 8, 1, "TDH-M2", "dealer horses on a first hand as dealer"),
    _int("horse_max", 0, 8, 4, "TDH-M2", "most dealer horses"),
    _choice(
        "horse_mapping",
        ("dealer_offset", "ghost_edition"),
        "dealer_offset",
        "TDH-M3 TDH-M5",
        "which seat a horse tile points at",
    ),
    _int("winner_horses_with_ghost", 0, 8, 4, "TDH-M5", "winner horses when the winning hand holds a ghost"),
    _int("winner_horses_without_ghost", 0, 8, 6, "TDH-M5", "winner horses when it holds none"),
    _int("horse_reserve", 0, 8, 6, "TDH-M5", "tiles reserved at the back of the wall for winner horses"),
    # TDH-H1 马跟杠 is two switches, not one choice: a ruleset has dealer horses or winner horses, and the
    # seeds' readings differ between them (dealer horses mirror kongs, winner horses do not)
    _bool(
        "horses_on_kongs",
        True,
        "TDH-H1 TDH-M4",
        "马跟杠, dealer horses: a horse also mirrors the kong money its seat received and paid (one switch per "
        "horse scheme, since the seeds' readings differ: see winner_horses_on_kongs)",
    ),
    _bool(
        "winner_horses_on_kongs",
        False,
        "TDH-H1 TDH-M5",
        "马跟杠, winner horses: each hit also pays once more the kong money each payer paid the winner (the "
        "seed's 平胡 + 马数 × 平胡番数 counts win money only, hence off by default)",
    ),
    _choice(
        "winner_horse_value",
        ("hand", "base"),
        "hand",
        "TDH-H2 TDH-M5",
        "马跟底分: each winner-horse hit pays what the payer paid for the win (hand) or that with the hand "
        "value read as 1 unit (base)",
    ),
    _choice(
        "winner_horse_scheme",
        ("count", "one_horse"),
        "count",
        "TDH-H3 TDH-M5",
        "winner horses: count those on the winner's seat (count), or 爆炸马: one horse, its rank the hits "
        "(one_horse; an honour counts 10)",
    ),
    _choice(
        "winner_horses_from",
        ("dealer", "winner"),
        "dealer",
        "TDH-H10 TDH-M5",
        "winner horses point at seats counted from the dealer or from the winner",
    ),
    _choice(
        "horse_settlement",
        ("transfers", "net"),
        "transfers",
        "TDH-M4 TDH-H11",
        "dealer horses mirror each transfer of the horse's seat (transfers), or its net result spread over "
        "its counterparties in proportion (net: a seat that broke even moves nothing)",
    ),
    _choice(
        "wild_scheme",
        ("none", "fixed", "flip_next", "flip_two", "flip_two_kinds", "flip_kind"),
        "none",
        "C-J1 TDH-G1 TDH-H6 SHT-P3",
        "wild tiles: none; fixed (wild_tile); flip_next (turned tile's successor, TDH-G1); flip_two (双鬼: the "
        "successors of two turned tiles, TDH-H6); flip_two_kinds (two turned tiles each name a 财神 kind, SHT-P3); "
        "flip_kind (one turned tile names the 财神 kind, SHT-H2)",
    ),
    _o("wild_tile", "tile", "5z", "TDH-G1", "the wild kind when wild_scheme = fixed (default 白板)"),
]

_section = "xuezhan (XZ-*)"
_entries += [
    _bool("bloody", False, "XZ-P4", "血战到底: play goes on after a win until three have won"),
    _int("max_suits", 2, 3, 3, "XZ-P2", "most suits in a winning hand (2 = 缺一门)"),
    _bool("declare_void", False, "XZ-P2", "定缺: each player names a void suit after the deal (needs max_suits 2)"),
    _int("must_win_tiles_left", 0, 20, 0, "XZ-P6", "with this many tiles left a possible win must be taken (0 = off)"),
    _table("xz_fan", XZ_FAN_KEYS, "XZ-F1", "hand patterns -> fan, highest applicable one; absent = not scored"),
    _table("xz_additions", XZ_ADDITION_KEYS, "XZ-F2", "additions -> fan, added to the pattern's fan"),
    _bool("call_transfer", False, "XZ-M4", "呼叫转移: a kong's income passes to whoever wins on the konger's discard"),
    _bool("end_checks", False, "XZ-E1 XZ-E2", "查花猪 / 查叫 when the wall runs out"),
    _int("flower_pig_penalty", 0, 1000, 16, "XZ-E1", "units a 花猪 pays each non-花猪"),
    _bool("tax_refund", False, "XZ-E3", "退税: players not ready at the end return their kong income"),
    _choice(
        "call_transfer_multiple",
        ("each", "split"),
        "each",
        "XZ-M4",
        "呼叫转移 with several winners: the konger pays each winner the kong income (the seed), or splits it",
    ),
    _bool("exchange_three", False, "XZ-H1", "换三张: each player passes three tiles of one suit after the deal"),
    _choice(
        "self_draw_bonus",
        ("none", "base", "fan"),
        "none",
        "XZ-H3",
        "自摸加底 (base: +1 unit per payer) / 自摸加番 (fan: +1 fan) on a self-drawn win",
    ),
    _bool("concealed_and_middle", False, "XZ-H4", "门清中张: +1 fan concealed hand, +1 fan no 1 or 9 anywhere"),
    _bool("extra_patterns", False, "XZ-H5", "金钩钓 2, 清金钩钓 4, 十八罗汉 6, 清十八罗汉 8 fan"),
    _choice(
        "kong_flower_from_discard",
        ("discarder", "self_draw"),
        "discarder",
        "XZ-H6 XZ-M2",
        "点杠花: a 杠上花 after a direct kong is paid by the konged tile's discarder alone, or as a self-draw",
    ),
    _bool("bloody_flow", False, "XZ-H7", "血流成河: winners stay in and win again until the wall is empty"),
    _bool("heavenly_earthly", True, "XZ-H8", "天胡 / 地胡 are scored"),
]

_section = "shuitou (SHT-*)"
_entries += [
    _bool("white_is_flower", False, "SHT-P1 SHT-H1", "白板 5z is a flower (set aside and replaced)"),
    _int("split_tiles_at", 0, 60, 0, "SHT-P7 SHT-H6", "分牌 starts with this many tiles left (0 = off)"),
    _int("split_kong_extra", 0, 10, 2, "SHT-P7 SHT-H6", "tiles added to split_tiles_at per kong made"),
    _int(
        "split_tiles", 0, 4, 4, "SHT-P7 SHT-H6", "分牌 tiles dealt one a player in turn (0: the hand is drawn at once)"
    ),
    _choice(
        "caishen_same_kind",
        ("one_kind", "turn_again"),
        "one_kind",
        "SHT-P3 SHT-H2",
        "both turned tiles of one kind: one 财神 kind with two copies left (one_kind), or turn tiles until a "
        "second kind shows (turn_again)",
    ),
    _choice(
        "caishen_flip_flower",
        ("redraw",),
        "redraw",
        "SHT-P3 SHT-H2",
        "a turned flower is set aside and another tile turned",
    ),
    _int("double_from_tai", 1, 1000, 13, "SHT-T3 SHT-H3", "a winner's total of this many 台 or more is multiplied"),
    _int("double_factor", 1, 4, 2, "SHT-T3 SHT-H3", "what a total at double_from_tai or above is multiplied by"),
    _bool("dealer_pays_double", True, "SHT-M1 SHT-M2 SHT-H4", "payments to or from the dealer count twice"),
    _bool("settle_non_winners", True, "SHT-M2 SHT-H5", "the non-winners settle their base-台 differences pairwise"),
    _bool("liability_four_winds", True, "SHT-M3", "包牌: the discarder of the wind a shown 四风会齐 wins on pays all"),
]

OPTIONS: MappingProxyType[str, Option] = MappingProxyType({o.name: o for o in _entries})
"""Every option by name, in field order of :class:`mjsim.rules.Ruleset`."""

SECTIONS: tuple[str, ...] = tuple(dict.fromkeys(o.section for o in _entries))
"""Section titles in order (the docs and ``mjsim rules`` group options by them)."""

del _entries


# ---------------------------------------------------------------------------
# Rendering


def options_markdown() -> str:
    """The registry as Markdown: one table per section (the source of docs/options)."""
    lines = ["# Ruleset options", "", "Generated from `mjsim.rules.options`; rule IDs cite the rules reference.", ""]
    for section in SECTIONS:
        lines += [f"## {section}", "", "| option | type | allowed | default | rules | meaning |", "| --- " * 6 + "|"]
        for o in OPTIONS.values():
            if o.section == section:
                cells = [f"`{o.name}`", o.type_text, o.allowed_text, o.default_text, ", ".join(o.rules), o.meaning]
                lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        lines.append("")
    return "\n".join(lines)


def options_text() -> str:
    """The registry as plain text for the CLI: two lines per option, grouped by section."""
    lines = []
    for section in SECTIONS:
        lines.append(f"[{section}]")
        for o in OPTIONS.values():
            if o.section == section:
                rules = f"  ({', '.join(o.rules)})" if o.rules else ""
                lines.append(f"  {o.name}: {o.type_text} = {o.default_text}; allowed {o.allowed_text}{rules}")
                lines.append(f"      {o.meaning}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
