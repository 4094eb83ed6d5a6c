"""Pingyang 水头 scoring (rules/shuitou.md SHT-T1..T4), the readable reference.

The independent reference for the compiled scorer: it imports nothing from
``mjsim.sim``.  It follows the project's readings of the rules
(``docs/shuitou_readings.md``), restated here by rule ID:

- SHT-P1/T1: flower groups red 1f-4f, black 5f-8f and 白板 5z (4 copies) when
  ``white_is_flower`` (then 5z is never held).  Special kinds: the seat wind
  (1z + seat), 发 6z and 中 7z.
- SHT-P3: 0, 1 or 2 财神 kinds.  ``flip_two_kinds``: two kinds, 3 copies of
  each in play; one kind given means both turned tiles named it
  (``caishen_same_kind = one_kind``), 2 copies in play.  ``flip_kind``: one
  kind, 3 copies.  A held 财神 is written as its own kind; 财神 never sit in
  melds; a 财神 may stand for any kind (no four-copy limit).
- SHT-T1 base 台 (per occurrence): ``caishen`` per suited 财神 kind held 2/5/8,
  ``caishen_honour`` per honour 财神 kind 3/7/11; ``flowers`` per group held
  2/3/5/8; ``kong`` per declared kong 3 exposed / 4 concealed, 4 / 5 of a
  special kind; ``special_pung`` +1 per exposed pung meld or concealed triplet
  of the reading of a special kind (kongs never); ``special_pair`` +1 for the
  reading's pair of a special kind.
- Non-winners (:func:`base_tai`): caishen + flowers + kongs + exposed special
  pungs, and for each special kind that is not a 财神 kind with c concealed
  copies: +1 if c >= 2; the kinds with c == 1 get +1 each while 财神 last to
  pair them (+min(such kinds, 财神 held)).
- SHT-T2 winner 台: ``self_draw`` +1 (自摸, kong replacement, 分牌); ``heavenly``
  +13 (dealer, self-draw, first turn); ``earthly`` +13 (non-dealer, discard
  win, first turn); ``hard`` +7 (no 财神 held); ``plain`` +13 (no 财神, no
  flower, no pung/kong meld, no concealed triplet); ``all_honours`` +26;
  ``full_flush`` +13; ``half_flush`` +7; ``all_pungs`` +7 (no chow);
  ``four_winds`` +13 (1z-4z each in a set or the pair); ``kong_flower`` 7 / 8
  for the last kong exposed / concealed, +1 when it is 中 or the seat wind;
  ``robbed_kong`` +3; ``caishen_set`` +7 (three held 财神 as one set of their
  own, neutral for flushes, all_honours, four_winds, not a chow); ``kill_pig``
  13 / 30 / 100 for 4 / 5 / 6 财神 held with three of one kind, or 13 for both
  copies of a one-kind 财神; ``split_tile_win`` +3.  Everything that applies
  adds up; 财神 count as what they stand for.
- SHT-T3/T4: total = base + winner 台, times ``double_factor`` when it is at
  least ``double_from_tai``; the reading with the highest total, then the
  highest base 台, is the one scored.

Readings of this module beyond the spec (the compiled scorer should match them):

- 财神汇: any three held 财神 tiles, of one kind or of two kinds.
- A 财神 stands only for kinds of the tile set that are playing tiles: never
  for 白板 5z when ``white_is_flower`` (5z is then a flower, not a tile kind
  of a hand).
- Among readings of equal total and base, the first in the order (no 财神汇
  before 财神汇, then sets, pair and stand-ins sorted by tile id) is reported;
  only ``assignment`` can tell such readings apart.
- ``assignment`` pairs stand-ins with held 财神 thus: a 财神汇 is the three
  held copies of one kind when there are (the first such kind), else the
  first three held; then a held 财神 whose own kind is among the stand-ins
  keeps its face value (C-J2); then the other stand-ins in tile order, each to
  the next held 财神 in the order of the held kinds.
- No 财神 kinds given means no 财神 in play (every tile its own face value).
  Under ``caishen_same_kind = turn_again`` the indicators always name two
  kinds, so one kind given is an error.
- The situation: a kong-replacement or 分牌 win is a self-draw whatever
  ``self_draw`` says; a robbed kong cannot be self-drawn, a kong replacement
  or a 分牌, nor a 分牌 a kong replacement.  ``first_turn`` scores only the
  two cases above and is otherwise ignored (never an error); a robbed kong is
  not a discard win, so never ``earthly``.  A robbed tile is never a 财神 and
  the winner holds only that copy (C-P4).  A 财神 in the hand is held however
  it came (a discarded 财神 won on counts as one).
- 白板 5z is never a special kind, also under ``white_is_flower = false`` (the
  spec names the seat wind, 发 and 中 only).
- A flower costs 平和 (plain needs no flower), so the first flower can lower
  a plain hand's total (20 -> 40 becomes 2 + 7 = 9).

Enumeration (SHT-T4 "every assignment"): all decompositions of the concealed
tiles into sets + one pair, each held 财神 either joined to real tiles (the
kinds it stands for are then forced by them) or in a group of 财神 alone, and
the 财神汇 reading.  No 台 depends on the rank of a suited tile, so a group of
财神 alone that stands for suited tiles is tried once per suit (as the pung 1-1-1,
the chow 1-2-3, the pair 1-1); honour kinds are tried one by one.  Every other
assignment scores the same as one of these.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from numbers import Integral

import numpy as np

from mjsim.tiles import (
    EAST,
    FIRST_FLOWER,
    GREEN,
    HONOUR_BASE,
    N_KINDS,
    RED,
    WHITE,
    WINDS,
    Meld,
    check_tile_set,
    format_counts,
    parse_melds,
    parse_tiles,
    tile_name,
    tile_set_kinds,
)

from .context import HandScore, _one_tile, _tile_ids

__all__ = ["BASE_IDS", "WINNER_IDS", "base_tai", "score_hand"]

# SHT-T1 values
CAISHEN_TAI = {1: 2, 2: 5, 3: 8}  # suited 财神 kind, by copies held
CAISHEN_HONOUR_TAI = {1: 3, 2: 7, 3: 11}  # honour 财神 kind
FLOWER_GROUP_TAI = {1: 2, 2: 3, 3: 5, 4: 8}  # per flower group, by tiles of the group
KONG_TAI = {"kong": 3, "ckong": 4}  # exposed, concealed; +1 of a special kind
# SHT-T2 values
KILL_PIG_TAI = {4: 13, 5: 30, 6: 100}
KONG_FLOWER_TAI = {"kong": 7, "ckong": 8}  # +1 of 中 or the seat wind

BASE_IDS = ("caishen", "caishen_honour", "flowers", "kong", "special_pung", "special_pair")
"""SHT-T1 ids, in the order a score lists them."""
WINNER_IDS = (
    "self_draw",
    "heavenly",
    "earthly",
    "hard",
    "plain",
    "all_honours",
    "full_flush",
    "half_flush",
    "all_pungs",
    "four_winds",
    "kong_flower",
    "robbed_kong",
    "caishen_set",
    "kill_pig",
    "split_tile_win",
)
"""SHT-T2 ids, in the order a score lists them."""

RED_FLOWERS = tuple(range(FIRST_FLOWER, FIRST_FLOWER + 4))  # 春夏秋冬 1f-4f
BLACK_FLOWERS = tuple(range(FIRST_FLOWER + 4, FIRST_FLOWER + 8))  # 梅兰菊竹 5f-8f
SCHEMES = ("flip_two_kinds", "flip_kind", "none")  # SHT-P3, SHT-H2 (none: a house without 财神)


# ---- the checked input ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tiles:
    """One player's tiles: concealed counts without the 财神, the held 财神, melds and flowers."""

    concealed: tuple[int, ...]  # 34 counts, 财神 kinds at 0
    wild_held: tuple[int, ...]  # the held 财神 tiles by kind, sorted
    wild_kinds: tuple[int, ...]  # the 财神 kinds in play, sorted
    in_play: int  # copies of each 财神 kind in play (3, or 2 when both indicators named one kind)
    melds: tuple[Meld, ...]
    flowers: tuple[int, ...]  # flower ids 34-41 and 5z (白板) under white_is_flower

    @property
    def n_wilds(self) -> int:
        return len(self.wild_held)


@dataclass(frozen=True)
class Situation:
    """How the hand was won."""

    seat: int = 1
    self_draw: bool = False
    kong_replacement: bool = False
    robbed_kong: bool = False
    first_turn: bool = False
    split_tile: bool = False

    @property
    def drew_itself(self) -> bool:
        """自摸, a kong replacement or a 分牌 tile (spec SHT-T2 self_draw)."""
        return self.self_draw or self.kong_replacement or self.split_tile

    @property
    def dealer(self) -> bool:
        return self.seat == 0


@dataclass(frozen=True)
class Reading:
    """One reading of the concealed tiles: sets, the pair, what the 财神 stand for, the 财神汇.

    ``sets`` holds ``("pung", tile)`` or ``("chow", first tile)``, sorted; ``wild_as`` the
    kinds the 财神 outside a 财神汇 stand for, sorted.
    """

    sets: tuple[tuple[str, int], ...]
    pair: int
    wild_as: tuple[int, ...]
    caishen_set: bool = False

    def sort_key(self) -> tuple:
        return (self.caishen_set, self.sets, self.pair, self.wild_as)


def special_kinds(seat: int) -> tuple[int, int, int]:
    """SHT-T1 special kinds: the seat wind (C-S2), 发 and 中."""
    return (EAST + seat, GREEN, RED)


def _tile_list(value, what: str) -> list[int]:
    """Tile ids from notation ("3m7z"), one id, or a sequence of notation strings / ids."""
    if value is None:
        return []
    if isinstance(value, str):
        return parse_tiles(value)
    if isinstance(value, Integral) and not isinstance(value, bool):
        return [_one_tile(int(value), what)]
    try:
        items = list(value)
    except TypeError:
        raise ValueError(f"{what} must be tiles such as ['3m', '7z'], got {value!r}") from None
    tiles = []
    for item in items:
        tiles += parse_tiles(item) if isinstance(item, str) else [_one_tile(item, what)]
    return tiles


def _seat(seat) -> int:
    if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, Integral) or not 0 <= seat <= 3:
        raise ValueError(f"seat must be an offset 0-3 from the dealer (C-S1), got {seat!r}")
    return int(seat)


def read_wild_kinds(rules, wilds) -> tuple[tuple[int, ...], int]:
    """The 财神 kinds (SHT-P3) and the copies of each in play; ``ValueError`` for kinds the scheme cannot turn up."""
    kinds = tuple(sorted(set(_tile_list(wilds, "wilds"))))
    for kind in kinds:
        if kind >= FIRST_FLOWER or (kind == WHITE and rules.white_is_flower):
            raise ValueError(
                f"财神 kind {tile_name(kind)} is a flower (SHT-P1): a turned flower is set aside and another tile "
                "turned, so 财神 kinds are playing tiles (SHT-P3)"
            )
    scheme = rules.wild_scheme
    if scheme not in SCHEMES:
        raise ValueError(f"shuitou scores 财神 under wild_scheme {list(SCHEMES)}, not {scheme!r} (SHT-P3, SHT-H2)")
    most = {"flip_two_kinds": 2, "flip_kind": 1, "none": 0}[scheme]
    if len(kinds) > most:
        names = [tile_name(k) for k in kinds]
        raise ValueError(f"wilds {names}: wild_scheme {scheme} names at most {most} 财神 kinds (SHT-P3, SHT-H2)")
    if scheme == "flip_two_kinds" and len(kinds) == 1:
        if rules.caishen_same_kind != "one_kind":
            raise ValueError(
                f"wilds [{tile_name(kinds[0])!r}]: with caishen_same_kind = {rules.caishen_same_kind} the two "
                "indicators always name two 财神 kinds; give both (SHT-P3, SHT-H2)"
            )
        return kinds, 2  # SHT-P3: both turned tiles of one kind, two copies left in play
    return kinds, 3


def read_flowers(rules, flowers) -> tuple[int, ...]:
    """The flowers set aside (SHT-P1): 1f-8f once each, 5z up to four times under white_is_flower."""
    tiles = _tile_list(flowers, "flowers")
    for tile in tiles:
        if tile == WHITE and not rules.white_is_flower:
            raise ValueError(
                "flowers holds 5z, but white_is_flower is false: 白板 is a dragon, held in the hand (SHT-H1)"
            )
        if tile < FIRST_FLOWER and tile != WHITE:
            raise ValueError(
                f"flowers holds {tile_name(tile)}, which is not a flower: flowers are 1f-8f"
                + (" and 5z (白板, SHT-P1)" if rules.white_is_flower else "")
            )
    check_tile_set([t for t in tiles if t >= FIRST_FLOWER], rules.tile_set, what=f"flowers {flowers!r}")
    copies = np.bincount(np.asarray(tiles, dtype=np.int64), minlength=FIRST_FLOWER + 8)
    for tile, count in enumerate(copies):
        if count > (4 if tile == WHITE else 1):
            raise ValueError(
                f"flowers holds {count} copies of {tile_name(tile)}; only {4 if tile == WHITE else 1} exist"
            )
    return tuple(sorted(tiles))


def read_tiles(rules, hand, melds=(), flowers=(), wilds=(), *, sizes: tuple[int, ...] = (2,)) -> Tiles:
    """Parse and check one player's tiles; ``ValueError`` names the bad value and what is allowed.

    ``sizes``: the allowed concealed counts over 3 x (sets - melds), i.e. (2,) for a win,
    (1, 2) for a non-winner (waiting, or on its own turn).
    """
    tiles = _tile_ids(hand, "hand")
    try:
        declared = parse_melds(() if melds is None else melds)
    except TypeError:
        raise ValueError(f"melds must be a sequence of strings such as 'pung:6z', got {melds!r}") from None
    meld_tiles = [t for m in declared for t in m.tiles]
    flower = next((t for t in tiles if t >= FIRST_FLOWER), None)
    if flower is not None:
        raise ValueError(
            f"hand {hand!r} holds flower {tile_name(flower)}: flowers are set aside, pass them as flowers=[...] (SHT-P2)"
        )
    if rules.white_is_flower and WHITE in tiles + meld_tiles:
        where = f"hand {hand!r}" if WHITE in tiles else f"melds {[str(m) for m in declared]}"
        raise ValueError(f"{where} holds 5z: 白板 is a flower under white_is_flower (SHT-P1), pass it as flowers=[...]")
    check_tile_set(tiles + meld_tiles, rules.tile_set, what=f"hand {hand!r} with melds {[str(m) for m in declared]}")
    every = np.bincount(np.asarray(tiles + meld_tiles, dtype=np.int64), minlength=N_KINDS)
    if every.max() > 4:
        kind = int(every.argmax())
        raise ValueError(f"hand and melds hold {every[kind]} copies of {tile_name(kind)}; only 4 exist (C-T1)")
    kinds, in_play = read_wild_kinds(rules, wilds)
    for meld in declared:
        wild = next((t for t in meld.tiles if t in kinds), None)
        if wild is not None:
            raise ValueError(f"meld {meld} holds 财神 {tile_name(wild)}: 财神 never sit in melds (SHT-P4)")
    for kind in kinds:
        if tiles.count(kind) > in_play:
            why = "both indicators turned it" if in_play == 2 else "its indicator is turned up"
            raise ValueError(
                f"hand holds {tiles.count(kind)} copies of 财神 {tile_name(kind)}; only {in_play} are in play "
                f"({why}, SHT-P3)"
            )
    n_sets = 5 if rules.hand_size == 16 else 4
    if len(declared) > n_sets:
        raise ValueError(f"{len(declared)} melds given; a hand holds at most {n_sets} sets (SHT-P2)")
    expected = [3 * (n_sets - len(declared)) + extra for extra in sizes]
    if len(tiles) not in expected:
        wanted = " or ".join(str(n) for n in expected)
        raise ValueError(
            f"hand {hand!r} has {len(tiles)} concealed tiles; with {len(declared)} melds a {rules.hand_size}-tile "
            f"hand needs {wanted} (SHT-P2: {n_sets} sets + 1 pair)"
        )
    counts = [0] * N_KINDS
    for tile in tiles:
        if tile not in kinds:
            counts[tile] += 1
    held = tuple(sorted(t for t in tiles if t in kinds))
    return Tiles(tuple(counts), held, kinds, in_play, declared, read_flowers(rules, flowers))


def read_situation(rules, tiles: Tiles, hand_ids, win_tile, **flags) -> Situation:
    """Check the win situation against the tiles (SHT-P4..P7, C-P4); ``ValueError`` says what contradicts."""
    seat = _seat(flags.pop("seat"))
    sit = Situation(seat=seat, **{k: bool(v) for k, v in flags.items()})
    if sit.robbed_kong and (sit.self_draw or sit.kong_replacement or sit.split_tile):
        raise ValueError("a robbed kong is won on another player's tile: not self-drawn, a kong replacement or a 分牌")
    if sit.kong_replacement and sit.split_tile:
        raise ValueError("a 分牌 tile is dealt before an ordinary draw, never a kong replacement (SHT-P7)")
    if sit.kong_replacement and not any(m.is_kong for m in tiles.melds):
        raise ValueError("kong_replacement needs the kong just made among the melds (the last kong, SHT-P6)")
    if sit.robbed_kong and not rules.rob_kong:
        raise ValueError("this ruleset does not allow robbing a kong (C-P4)")
    if not sit.drew_itself and not sit.robbed_kong and not rules.discard_win:
        raise ValueError("this ruleset has no discard wins: pass self_draw=True")
    if sit.robbed_kong:
        if win_tile in tiles.wild_kinds:
            raise ValueError(f"the robbed tile {tile_name(win_tile)} completes a pung, so it cannot be a 财神 (SHT-P4)")
        copies = list(hand_ids).count(win_tile) + sum(m.tiles.count(win_tile) for m in tiles.melds)
        if copies != 1:
            raise ValueError(
                f"robbing a kong of {tile_name(win_tile)}: the other three copies are the robbed pung, "
                "so the winner holds only the robbed one (C-P4)"
            )
    return sit


# ---- SHT-T4: every reading ----------------------------------------------------------------------------------------


def stand_in_kinds(rules) -> tuple[int, ...]:
    """Kinds a group of 财神 alone is tried as: one per suit (ranks never change a 台), every honour kind
    the tile set plays (never 5z under white_is_flower)."""
    playing = tile_set_kinds(rules.tile_set)[:N_KINDS]
    honours = tuple(k for k in range(HONOUR_BASE, N_KINDS) if playing[k] and not (k == WHITE and rules.white_is_flower))
    return (0, 9, 18) + honours


def _groups_with_lowest(counts: tuple[int, ...], wilds: int, need_pair: bool):
    """Every group holding the lowest concealed tile: (set or None, pair or None, real tiles, 财神 stand-ins).

    Which copy is real and which a 财神 standing for it does not change a reading, so a group
    takes as many real tiles as it can; a chow reaching below the lowest tile fills those places
    with 财神 (the tiles below are used up).
    """
    low = next(t for t in range(N_KINDS) if counts[t])
    if need_pair:
        real = min(counts[low], 2)
        if 2 - real <= wilds:
            yield None, low, (low,) * real, (low,) * (2 - real)
    real = min(counts[low], 3)
    if 3 - real <= wilds:
        yield ("pung", low), None, (low,) * real, (low,) * (3 - real)
    if low >= HONOUR_BASE:
        return
    for start in (low - 2, low - 1, low):
        if start < 0 or start // 9 != low // 9 or start % 9 > 6:
            continue
        members = (start, start + 1, start + 2)
        real = tuple(t for t in members if t == low or (t > low and counts[t]))
        wild = tuple(t for t in members if t not in real)
        if len(wild) <= wilds:
            yield ("chow", start), None, real, wild


def _wild_groups(wilds: int, need_pair: bool, kinds: tuple[int, ...]) -> frozenset:
    """Readings of 财神 alone: any pung or chow each and a pair, of the stand-in kinds."""
    n_sets, left = divmod(wilds - (2 if need_pair else 0), 3)
    if left or n_sets < 0:
        return frozenset()
    sets = [("pung", k) for k in kinds] + [("chow", k) for k in kinds if k < HONOUR_BASE]
    found = set()
    for chosen in combinations_with_replacement(sets, n_sets):
        stand_ins = [t for kind, first in chosen for t in ((first,) * 3 if kind == "pung" else range(first, first + 3))]
        for pair in kinds if need_pair else (None,):
            extra = [pair, pair] if pair is not None else []
            found.add((tuple(sorted(chosen)), pair, tuple(sorted(stand_ins + extra))))
    return frozenset(found)


@lru_cache(maxsize=8192)
def _split(counts: tuple[int, ...], wilds: int, need_pair: bool, kinds: tuple[int, ...]) -> frozenset:
    """Every (sets, pair, stand-ins) reading of ``counts`` plus ``wilds`` 财神 (a pair only if ``need_pair``)."""
    if not any(counts):
        return _wild_groups(wilds, need_pair, kinds)
    found = set()
    for group, pair, real, wild in _groups_with_lowest(counts, wilds, need_pair):
        rest = list(counts)
        for tile in real:
            rest[tile] -= 1
        for sets, rest_pair, rest_wild in _split(tuple(rest), wilds - len(wild), need_pair and pair is None, kinds):
            sets = tuple(sorted(sets + ((group,) if group else ())))
            found.add((sets, pair if pair is not None else rest_pair, tuple(sorted(rest_wild + wild))))
    return frozenset(found)


def readings(rules, tiles: Tiles) -> list[Reading]:
    """SHT-T4: every reading of the concealed tiles as sets + one pair, with and without a 财神汇."""
    kinds = stand_in_kinds(rules)
    found = [Reading(s, p, w) for s, p, w in _split(tiles.concealed, tiles.n_wilds, True, kinds)]
    if tiles.n_wilds >= 3:  # SHT-T2 caishen_set: three held 财神 are one set of their own
        found += [Reading(s, p, w, True) for s, p, w in _split(tiles.concealed, tiles.n_wilds - 3, True, kinds)]
    return sorted(found, key=Reading.sort_key)


# ---- the whole hand of one reading --------------------------------------------------------------------------------


def groups(tiles: Tiles, r: Reading) -> list[tuple[str, int]]:
    """(kind, tile) of every set, melds first (chow, pung, kong, ckong), then the reading's; no 财神汇."""
    return [(m.kind, m.first) for m in tiles.melds] + list(r.sets)


def hand_tiles(tiles: Tiles, r: Reading) -> list[int]:
    """Every tile of the melds and the reading, 财神 as what they stand for; a 财神汇 is left out (neutral)."""
    out = [t for m in tiles.melds for t in m.tiles]
    for kind, first in r.sets:
        out += [first] * 3 if kind == "pung" else [first, first + 1, first + 2]
    return out + [r.pair, r.pair]


# ---- SHT-T1 base 台 ------------------------------------------------------------------------------------------------


def caishen_tai(tiles: Tiles) -> list[tuple[str, int]]:
    """SHT-T1 caishen / caishen_honour: per 财神 kind held, by copies held (suited 2/5/8, honour 3/7/11)."""
    out = []
    for kind in tiles.wild_kinds:
        n = tiles.wild_held.count(kind)
        if n and kind >= HONOUR_BASE:
            out.append(("caishen_honour", CAISHEN_HONOUR_TAI[n]))
        elif n:
            out.append(("caishen", CAISHEN_TAI[n]))
    return out


def flower_tai(tiles: Tiles) -> list[tuple[str, int]]:
    """SHT-T1 flowers: per flower group held (red 1f-4f, black 5f-8f, 白板 5z), 1/2/3/4 tiles: 2/3/5/8."""
    out = []
    for group in (RED_FLOWERS, BLACK_FLOWERS, (WHITE,)):
        n = sum(t in group for t in tiles.flowers)
        if n:
            out.append(("flowers", FLOWER_GROUP_TAI[n]))
    return out


def kong_tai(tiles: Tiles, seat: int) -> list[tuple[str, int]]:
    """SHT-T1 kong: per declared kong, exposed 3 / concealed 4; of the seat wind, 发 or 中 4 / 5."""
    special = special_kinds(seat)
    return [("kong", KONG_TAI[m.kind] + (m.first in special)) for m in tiles.melds if m.is_kong]


def exposed_special_pung_tai(tiles: Tiles, seat: int) -> list[tuple[str, int]]:
    """SHT-T1 special_pung: +1 per exposed pung meld of a special kind (a kong has its own value)."""
    return [("special_pung", 1) for m in tiles.melds if m.kind == "pung" and m.first in special_kinds(seat)]


def concealed_special_pung_tai(r: Reading, seat: int) -> list[tuple[str, int]]:
    """SHT-T1 special_pung (winner): +1 per concealed triplet of the reading of a special kind; a 财神 may complete one."""
    return [("special_pung", 1) for kind, tile in r.sets if kind == "pung" and tile in special_kinds(seat)]


def special_pair_tai(r: Reading, seat: int) -> list[tuple[str, int]]:
    """SHT-T1 special_pair (winner): +1 when the reading's pair is of a special kind."""
    return [("special_pair", 1)] if r.pair in special_kinds(seat) else []


def winner_base_detail(tiles: Tiles, r: Reading, seat: int) -> list[tuple[str, int]]:
    """SHT-T1 base 台 of one reading of a winning hand, in the SHT-T1 table order."""
    return (
        caishen_tai(tiles)
        + flower_tai(tiles)
        + kong_tai(tiles, seat)
        + exposed_special_pung_tai(tiles, seat)
        + concealed_special_pung_tai(r, seat)
        + special_pair_tai(r, seat)
    )


def non_winner_special_tai(tiles: Tiles, seat: int) -> list[tuple[str, int]]:
    """SHT-T1 for a non-winner, who may count 财神 as any tile: per special kind that is not a 财神 kind,
    c concealed copies: c >= 2 +1 (a triplet or a pair, four still +1); c == 1 +1 while a 财神 is
    left to pair it (one kind per 财神)."""
    out, singles = [], 0
    for kind in special_kinds(seat):
        if kind in tiles.wild_kinds:
            continue
        c = tiles.concealed[kind]
        if c >= 3:
            out.append(("special_pung", 1))
        elif c == 2:
            out.append(("special_pair", 1))
        elif c == 1:
            singles += 1
    return out + [("special_pair", 1)] * min(singles, tiles.n_wilds)


def non_winner_base_detail(tiles: Tiles, seat: int) -> list[tuple[str, int]]:
    """SHT-T1 base 台 of a non-winner (spec "Non-winner")."""
    return (
        caishen_tai(tiles)
        + flower_tai(tiles)
        + kong_tai(tiles, seat)
        + exposed_special_pung_tai(tiles, seat)
        + non_winner_special_tai(tiles, seat)
    )


# ---- SHT-T2 winner 台 ----------------------------------------------------------------------------------------------


def self_draw_tai(sit: Situation) -> list[tuple[str, int]]:
    """SHT-T2 self_draw +1: 自摸, a kong replacement or a 分牌 tile."""
    return [("self_draw", 1)] if sit.drew_itself else []


def first_turn_tai(sit: Situation) -> list[tuple[str, int]]:
    """SHT-T2 heavenly +13 (the dealer's first-turn self-draw); earthly +13 (a non-dealer wins on the
    dealer's first discard).  A non-dealer's first-turn self-draw scores nothing."""
    if not sit.first_turn:
        return []
    if sit.dealer and sit.drew_itself:
        return [("heavenly", 13)]
    if not sit.dealer and not sit.drew_itself and not sit.robbed_kong:
        return [("earthly", 13)]
    return []


def hard_tai(tiles: Tiles) -> list[tuple[str, int]]:
    """SHT-T2 hard 硬牌 +7: no 财神 among the concealed tiles."""
    return [("hard", 7)] if tiles.n_wilds == 0 else []


def plain_tai(tiles: Tiles, r: Reading) -> list[tuple[str, int]]:
    """SHT-T2 plain 平和 +13: no 财神 held, no flower, no pung or kong meld, no concealed triplet."""
    no_pungs = all(m.kind == "chow" for m in tiles.melds) and all(kind == "chow" for kind, _ in r.sets)
    return [("plain", 13)] if tiles.n_wilds == 0 and not tiles.flowers and no_pungs else []


def honour_and_flush_tai(tiles: Tiles, r: Reading) -> list[tuple[str, int]]:
    """SHT-T2 all_honours +26 (honours only), full_flush +13 (one suit only), half_flush +7 (one suit and
    honours); 财神 count as what they stand for, a 财神汇 is neutral."""
    suits = {t // 9 for t in hand_tiles(tiles, r) if t < HONOUR_BASE}
    honours = any(t >= HONOUR_BASE for t in hand_tiles(tiles, r))
    if not suits:
        return [("all_honours", 26)]
    if len(suits) == 1:
        return [("half_flush", 7)] if honours else [("full_flush", 13)]
    return []


def all_pungs_tai(tiles: Tiles, r: Reading) -> list[tuple[str, int]]:
    """SHT-T2 all_pungs 对对和 +7: no chow in the reading or the melds (a 财神汇 is not one)."""
    return [("all_pungs", 7)] if all(kind != "chow" for kind, _ in groups(tiles, r)) else []


def four_winds_tai(tiles: Tiles, r: Reading) -> list[tuple[str, int]]:
    """SHT-T2 four_winds 四风会齐 +13: 1z 2z 3z 4z each in a set or the pair (财神 may stand in)."""
    present = {tile for kind, tile in groups(tiles, r) if kind != "chow"} | {r.pair}
    return [("four_winds", 13)] if set(WINDS) <= present else []


def kong_flower_tai(tiles: Tiles, sit: Situation) -> list[tuple[str, int]]:
    """SHT-T2 kong_flower 杠上开花: the last declared kong exposed 7 / concealed 8; +1 of 中 or the seat wind."""
    if not sit.kong_replacement:
        return []
    last = [m for m in tiles.melds if m.is_kong][-1]
    return [("kong_flower", KONG_FLOWER_TAI[last.kind] + (last.first in (RED, EAST + sit.seat)))]


def robbed_kong_tai(sit: Situation) -> list[tuple[str, int]]:
    """SHT-T2 robbed_kong 抢杠胡 +3."""
    return [("robbed_kong", 3)] if sit.robbed_kong else []


def caishen_set_tai(r: Reading) -> list[tuple[str, int]]:
    """SHT-T2 caishen_set 财神汇 +7: three held 财神 form a set of their own."""
    return [("caishen_set", 7)] if r.caishen_set else []


def kill_pig_tai(tiles: Tiles) -> list[tuple[str, int]]:
    """SHT-T2 kill_pig 杀猪: 4 / 5 / 6 财神 held with three of one kind 13 / 30 / 100; or both copies of a
    one-kind 财神 (two copies in play) held 13."""
    held = tiles.wild_held
    if len(held) >= 4 and any(held.count(k) == 3 for k in tiles.wild_kinds):
        return [("kill_pig", KILL_PIG_TAI[len(held)])]
    if tiles.in_play == 2 and len(held) == 2:
        return [("kill_pig", 13)]
    return []


def split_tile_tai(sit: Situation) -> list[tuple[str, int]]:
    """SHT-T2 split_tile_win +3: the win is on a 分牌 tile (SHT-P7)."""
    return [("split_tile_win", 3)] if sit.split_tile else []


def winner_detail(tiles: Tiles, r: Reading, sit: Situation) -> list[tuple[str, int]]:
    """SHT-T2 winner 台 of one reading, in the SHT-T2 table order; all that apply add up."""
    return (
        self_draw_tai(sit)
        + first_turn_tai(sit)
        + hard_tai(tiles)
        + plain_tai(tiles, r)
        + honour_and_flush_tai(tiles, r)
        + all_pungs_tai(tiles, r)
        + four_winds_tai(tiles, r)
        + kong_flower_tai(tiles, sit)
        + robbed_kong_tai(sit)
        + caishen_set_tai(r)
        + kill_pig_tai(tiles)
        + split_tile_tai(sit)
    )


# ---- SHT-T3 / T4 ----------------------------------------------------------------------------------------------------


def doubled(rules, total: int) -> int:
    """SHT-T3: a total of double_from_tai (13) or more is multiplied by double_factor (2)."""
    return total * rules.double_factor if total >= rules.double_from_tai else total


def assignment(tiles: Tiles, r: Reading) -> tuple[str, ...]:
    """What each held 财神 stood for, in the order of the held kinds (see the module docstring)."""
    held = tiles.wild_held
    out: list[str | None] = [None] * len(held)
    if r.caishen_set:  # the three of one kind when held, else the first three
        triple = next((k for k in tiles.wild_kinds if held.count(k) == 3), None)
        chosen = [i for i, k in enumerate(held) if k == triple] if triple is not None else [0, 1, 2]
        for i in chosen:
            out[i] = "set"
    stand_ins = list(r.wild_as)
    for i, kind in enumerate(held):  # C-J2: a 财神 standing for its own face keeps it
        if out[i] is None and kind in stand_ins:
            stand_ins.remove(kind)
            out[i] = tile_name(kind)
    rest = iter(tile_name(k) for k in stand_ins)
    return tuple(name if name is not None else next(rest) for name in out)


def score_reading(rules, tiles: Tiles, r: Reading, sit: Situation) -> HandScore:
    """SHT-T3: the score of one reading; ``fan`` and ``points`` the total after doubling."""
    base = winner_base_detail(tiles, r, sit.seat)
    detail = base + winner_detail(tiles, r, sit)
    total = doubled(rules, sum(v for _, v in detail))
    return HandScore(
        fan=total,
        patterns=tuple(pid for pid, _ in detail),
        points=total,
        fan_detail=tuple(detail),
        base_tai=sum(v for _, v in base),
        assignment=assignment(tiles, r),
    )


def no_win_message(rules, tiles: Tiles) -> str:
    n_sets = (5 if rules.hand_size == 16 else 4) - len(tiles.melds)
    text = format_counts(np.asarray(tiles.concealed))
    if tiles.n_wilds:
        text += " + 财神 " + " ".join(tile_name(k) for k in tiles.wild_held)
    if tiles.melds:
        text += " with melds " + ", ".join(str(m) for m in tiles.melds)
    return f"not a win: {text} is not {n_sets} sets + 1 pair (SHT-P2)"


def score_hand(
    rules,
    hand,
    melds=(),
    flowers=(),
    wilds=(),
    win_tile=None,
    self_draw: bool = False,
    seat: int = 1,
    kong_replacement: bool = False,
    robbed_kong: bool = False,
    first_turn: bool = False,
    split_tile: bool = False,
) -> HandScore:
    """Score one 水头 win (SHT-T1..T4): the best reading by total, then base 台.

    ``hand``: the concealed tiles incl. the winning tile (held 财神 as their own kind);
    ``flowers``: the flowers set aside; ``wilds``: the 财神 kinds (e.g. ``["3m", "7z"]``).
    ``ValueError`` for bad input or a hand that is not a win.
    """
    tiles = read_tiles(rules, hand, melds, flowers, wilds)
    ids = _tile_ids(hand, "hand")
    win = ids[-1] if win_tile is None else _one_tile(win_tile, "win_tile")
    if win not in ids:
        raise ValueError(f"win_tile {tile_name(win)} is not among the concealed tiles {hand!r}")
    sit = read_situation(
        rules,
        tiles,
        ids,
        win,
        seat=seat,
        self_draw=self_draw,
        kong_replacement=kong_replacement,
        robbed_kong=robbed_kong,
        first_turn=first_turn,
        split_tile=split_tile,
    )
    best, best_key = None, None
    for r in readings(rules, tiles):
        score = score_reading(rules, tiles, r, sit)
        key = (score.points, score.base_tai)  # SHT-T4: highest total, then highest base 台
        if best_key is None or key > best_key:
            best, best_key = score, key
    if best is None:
        raise ValueError(no_win_message(rules, tiles))
    return best


def base_tai(rules, hand, melds=(), flowers=(), wilds=(), seat: int = 1) -> int:
    """A non-winner's base 台 (SHT-T1, spec "Non-winner"); never doubled (SHT-M2).

    ``hand``: the concealed tiles, 3 x (5 - melds) + 1 of them, or + 2 on that seat's turn.
    """
    tiles = read_tiles(rules, hand, melds, flowers, wilds, sizes=(1, 2))
    return sum(v for _, v in non_winner_base_detail(tiles, _seat(seat)))
