"""Tile ids, tile sets and the text notation (rules/common.md C-T).

Tile ids (C-T1..C-T3)::

    0-8    1m..9m   characters 万
    9-17   1p..9p   dots 筒
    18-26  1s..9s   bamboo 条
    27-33  1z..7z   东 南 西 北 白 发 中
    34-41  1f..8f   flowers 春 夏 秋 冬 梅 兰 菊 竹

A hand is a count vector over the 34 playing kinds (flowers are set aside,
C-W2, and never part of a hand's shape).  Notation (C-T5) is digits followed
by a suit letter, e.g. ``123m456p789s11z`` or ``1f``; melds are written
``"pung:5z"``, ``"chow:345p"``, ``"kong:9m"`` or ``"ckong:1z"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

N_KINDS = 34
"""Playing tile kinds (suits and honours); flowers are extra ids 34-41."""
N_TILE_IDS = 42
FIRST_FLOWER = 34
SUITS = "mps"
SUIT_LETTERS = "mpsz"
HONOUR_BASE = 27
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
TERMINALS = (0, 8, 9, 17, 18, 26)
TERMINALS_AND_HONOURS = TERMINALS + tuple(range(27, 34))

_RANKS_PER_LETTER = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
_OFFSET_PER_LETTER = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}
_COPIES_PER_KIND = np.array([4] * N_KINDS + [1] * 8, dtype=np.int8)

TILE_SETS = (108, 136, 144)
"""The tile sets of C-T4: suits only, suits + honours, and 136 + flowers."""


def tile_set_kinds(tile_set: int) -> np.ndarray:
    """Boolean mask over the 42 tile ids that the tile set ``tile_set`` holds (C-T4)."""
    if tile_set not in TILE_SETS:
        raise ValueError(f"tile set {tile_set!r} is not one of {list(TILE_SETS)} (C-T4)")
    mask = np.zeros(N_TILE_IDS, dtype=bool)
    mask[:27] = True
    if tile_set >= 136:
        mask[27:34] = True
    if tile_set == 144:
        mask[34:] = True
    return mask


def tile_set_wall(tile_set: int) -> np.ndarray:
    """Every physical tile of the tile set as ids (length 108, 136 or 144), sorted."""
    kinds = np.flatnonzero(tile_set_kinds(tile_set))
    return np.repeat(kinds, _COPIES_PER_KIND[kinds]).astype(np.int8)


def suit_of(tile: int) -> int:
    """0, 1, 2 for m, p, s; 3 for honours; 4 for flowers."""
    return 4 if tile >= FIRST_FLOWER else tile // 9


def rank_of(tile: int) -> int:
    """Rank 1-9 for suited tiles, 1-7 for honours, 1-8 for flowers."""
    if tile >= FIRST_FLOWER:
        return tile - FIRST_FLOWER + 1
    if tile >= HONOUR_BASE:
        return tile - HONOUR_BASE + 1
    return tile % 9 + 1


def tile_name(tile: int) -> str:
    """Notation of one tile, e.g. ``5z``."""
    if not 0 <= tile < N_TILE_IDS:
        raise ValueError(f"tile id {tile!r} is outside 0..{N_TILE_IDS - 1}")
    letter = "f" if tile >= FIRST_FLOWER else SUIT_LETTERS[min(tile // 9, 3)]
    return f"{rank_of(tile)}{letter}"


_GROUP = re.compile(r"([0-9]+)([a-zA-Z])")


def parse_tiles(text: str) -> list[int]:
    """Parse notation into tile ids, keeping the written order.

    >>> parse_tiles("123m5z")
    [0, 1, 2, 31]

    Raises ``ValueError`` naming the bad part: an unknown suit letter, a digit
    that is not a rank of that suit (0 anywhere, 8/9 for honours, 9 for
    flowers), digits with no suit letter, or more copies of a tile than exist.
    """
    if not isinstance(text, str):
        raise ValueError(f"tile notation must be a string, got {text!r}")
    compact = text.replace(" ", "")
    tiles: list[int] = []
    position = 0
    for match in _GROUP.finditer(compact):
        if match.start() != position:
            bad = compact[position : match.start()]
            raise ValueError(f"cannot read {bad!r} in {text!r}: write digits then a suit letter m/p/s/z/f")
        digits, letter = match.groups()
        if letter not in _RANKS_PER_LETTER:
            raise ValueError(f"unknown suit letter {letter!r} in {text!r}: use m, p, s, z (honours) or f (flowers)")
        top = _RANKS_PER_LETTER[letter]
        for digit in digits:
            rank = int(digit)
            if not 1 <= rank <= top:
                raise ValueError(f"{digit}{letter} in {text!r} is not a tile: {letter} ranks are 1-{top}")
            tiles.append(_OFFSET_PER_LETTER[letter] + rank - 1)
        position = match.end()
    if position != len(compact):
        raise ValueError(f"cannot read {compact[position:]!r} in {text!r}: digits need a suit letter after them")
    counts = np.bincount(np.asarray(tiles, dtype=np.int64), minlength=N_TILE_IDS)
    over = np.flatnonzero(counts > _COPIES_PER_KIND)
    if over.size:
        tile = int(over[0])
        raise ValueError(
            f"{text!r} holds {counts[tile]} copies of {tile_name(tile)}; only {_COPIES_PER_KIND[tile]} exist"
        )
    return tiles


def parse_counts(text: str, tile_set: int | None = None) -> np.ndarray:
    """Parse notation into a count vector over the 34 kinds (``int8``).

    Flowers are rejected here: a hand's shape never holds them.  With
    ``tile_set`` given, a tile that set lacks raises ``ValueError``.
    """
    tiles = parse_tiles(text)
    if tile_set is not None:
        check_tile_set(tiles, tile_set, what=repr(text))
    flowers = [t for t in tiles if t >= FIRST_FLOWER]
    if flowers:
        raise ValueError(f"{text!r} holds flower {tile_name(flowers[0])}: flowers are set aside, not held (C-W2)")
    return counts_of(tiles)


def counts_of(tiles) -> np.ndarray:
    """Count vector (34 kinds, ``int8``) of a sequence of tile ids below 34."""
    return np.bincount(np.asarray(tiles, dtype=np.int64), minlength=N_KINDS)[:N_KINDS].astype(np.int8)


def check_tile_set(tiles, tile_set: int, what: str = "hand") -> None:
    """Raise ``ValueError`` if any tile id is not in the tile set (C-T4)."""
    allowed = tile_set_kinds(tile_set)
    for tile in tiles:
        if not allowed[tile]:
            raise ValueError(f"{what} holds {tile_name(tile)}, which the {tile_set}-tile set does not have (C-T4)")


def format_tiles(tiles) -> str:
    """Notation for tile ids (any order; output grouped by suit, sorted)."""
    ids = sorted(int(t) for t in tiles)
    parts = []
    for letter in "mpszf":
        ranks = [str(rank_of(t)) for t in ids if tile_name(t)[-1] == letter]
        if ranks:
            parts.append("".join(ranks) + letter)
    return "".join(parts)


def format_counts(counts) -> str:
    """Notation for a count vector over 34 (or 42) ids."""
    counts = np.asarray(counts)
    if (counts < 0).any():
        raise ValueError(f"count vector has negative entries: {counts.tolist()}")
    return format_tiles(np.repeat(np.arange(counts.size), counts))


MELD_KINDS = ("chow", "pung", "kong", "ckong")
"""Exposed chow, exposed pung, exposed kong (明杠), concealed kong (暗杠) (C-T5)."""


@dataclass(frozen=True)
class Meld:
    """A declared set: ``kind`` in :data:`MELD_KINDS`, ``tiles`` sorted ids."""

    kind: str
    tiles: tuple[int, ...]

    @property
    def is_kong(self) -> bool:
        return self.kind in ("kong", "ckong")

    @property
    def is_concealed(self) -> bool:
        return self.kind == "ckong"

    @property
    def first(self) -> int:
        return self.tiles[0]

    def __str__(self) -> str:
        shown = format_tiles(self.tiles[:1]) if self.kind != "chow" else format_tiles(self.tiles)
        return f"{self.kind}:{shown}"


def parse_meld(text: str) -> Meld:
    """Parse ``"pung:5z"``, ``"chow:345p"``, ``"kong:9m"`` or ``"ckong:1z"`` (C-T5).

    A pung or kong may be written with one tile or in full (``"pung:555z"``).
    """
    if not isinstance(text, str) or ":" not in text:
        raise ValueError(f"meld {text!r} must be KIND:TILES with KIND one of {list(MELD_KINDS)}, e.g. 'pung:5z'")
    kind, _, body = text.partition(":")
    kind = kind.strip().lower()
    if kind not in MELD_KINDS:
        raise ValueError(f"meld kind {kind!r} in {text!r} is not one of {list(MELD_KINDS)}")
    tiles = parse_tiles(body)
    if any(t >= FIRST_FLOWER for t in tiles):
        raise ValueError(f"meld {text!r} holds a flower; flowers never form melds")
    if kind == "chow":
        tiles = sorted(tiles)
        ok = (
            len(tiles) == 3
            and tiles[0] < HONOUR_BASE
            and tiles[0] // 9 == tiles[2] // 9
            and tiles[1] == tiles[0] + 1
            and tiles[2] == tiles[0] + 2
        )
        if not ok:
            raise ValueError(f"chow {text!r} must be three consecutive tiles of one suit, e.g. 'chow:345p'")
        return Meld(kind, tuple(tiles))
    size = 3 if kind == "pung" else 4
    if len(set(tiles)) != 1 or len(tiles) not in (1, size):
        raise ValueError(f"{kind} {text!r} must be one tile kind written once or {size} times, e.g. '{kind}:5z'")
    return Meld(kind, (tiles[0],) * size)


def parse_melds(texts) -> tuple[Meld, ...]:
    """Parse a sequence of meld strings (see :func:`parse_meld`)."""
    if isinstance(texts, str):
        texts = [texts]
    return tuple(parse_meld(t) for t in texts)
