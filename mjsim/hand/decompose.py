"""Every way to read a hand as sets and a pair (C-P5), wild tiles included (C-J1).

This is the readable per-hand reference behind the scorer and ``mjsim score``;
the simulator's fast path uses lookup tables instead and is checked against it.

A hand is a count vector over the 34 playing kinds (see :mod:`mjsim.tiles`);
wild tiles are passed apart as a number, because a wild has no kind of its
own until a decomposition assigns one (``wild_as``).  A wild may stand for any
kind (C-J1), but never for a fifth copy: in every reading the concealed count
of a kind plus the wilds standing for it is at most four (C-T1; the same
semantic as the batched kernels of :mod:`mjsim.hand.kernels`).  ``allowed``
limits the kinds a wild may stand for (for example to the kinds of the
ruleset's tile set, C-T4).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement

import numpy as np

from mjsim.tiles import HONOUR_BASE, N_KINDS, TERMINALS_AND_HONOURS

__all__ = [
    "Decomposition",
    "decompositions",
    "seven_pairs_assignments",
    "is_thirteen_orphans",
]


@dataclass(frozen=True)
class Decomposition:
    """One reading of concealed tiles as sets plus one pair.

    ``sets`` holds ``("pung", tile)`` or ``("chow", first tile)``, sorted;
    ``wild_as`` the kinds the wild tiles stand for in this reading, sorted.
    """

    sets: tuple[tuple[str, int], ...]
    pair: int
    wild_as: tuple[int, ...] = ()


def _as_counts(counts) -> tuple[int, ...]:
    array = np.asarray(counts, dtype=np.int64).reshape(-1)
    if array.size != N_KINDS or (array < 0).any():
        raise ValueError(f"counts must be {N_KINDS} non-negative numbers, got {array.tolist()}")
    return tuple(int(c) for c in array)


def _allowed_kinds(allowed) -> tuple[int, ...]:
    if allowed is None:
        return tuple(range(N_KINDS))
    mask = np.asarray(allowed)
    if mask.dtype == bool:
        return tuple(int(k) for k in np.flatnonzero(mask[:N_KINDS]))
    return tuple(sorted({int(k) for k in mask}))


def _chow_starts(kinds: tuple[int, ...]) -> tuple[int, ...]:
    """First tiles of the chows whose three kinds are all in ``kinds``."""
    present = set(kinds)
    return tuple(t for t in range(HONOUR_BASE) if t % 9 <= 6 and {t, t + 1, t + 2} <= present)


def _set_tiles(kind: str, first: int) -> tuple[int, ...]:
    return (first,) * 3 if kind == "pung" else (first, first + 1, first + 2)


def _join(group, pair, wild, rest):
    """Add one group (a set, or the pair) and its wild tiles to a partial reading.

    A partial reading is (sets, pair or None, wild_as) with sets and wild_as sorted.
    """
    sets, rest_pair, rest_wild = rest
    if group is not None:
        sets = tuple(sorted(sets + (group,)))
    return sets, pair if pair is not None else rest_pair, tuple(sorted(rest_wild + wild))


def _groups_of_lowest(counts: tuple[int, ...], wilds: int, need_pair: bool, kinds: frozenset[int]):
    """Yield every group that uses the lowest held tile: (set or None, pair or None, real tiles, wild tiles).

    Which copy of a kind is held and which is a wild standing for it does not
    change a reading (same sets, same ``wild_as``), so each group takes as many
    held tiles as it can: a pair or pung of the lowest tile takes its held
    copies first, and a chow takes held tiles above it where there are any.
    Tiles below the lowest one are used up, so a chow reaching below it fills
    those places with wilds.
    """
    low = next(t for t in range(N_KINDS) if counts[t])
    if need_pair:
        real = min(counts[low], 2)
        if 2 - real <= wilds and (real == 2 or low in kinds):
            yield None, low, (low,) * real, (low,) * (2 - real)
    real = min(counts[low], 3)
    if 3 - real <= wilds and (real == 3 or low in kinds):
        yield ("pung", low), None, (low,) * real, (low,) * (3 - real)
    if low >= HONOUR_BASE:
        return
    for start in (low - 2, low - 1, low):
        if start < 0 or start // 9 != low // 9 or start % 9 > 6:
            continue
        members = (start, start + 1, start + 2)
        real = tuple(t for t in members if t == low or (t > low and counts[t]))
        wild = tuple(t for t in members if t not in real)
        if len(wild) <= wilds and all(t in kinds for t in wild):
            yield ("chow", start), None, real, wild


@lru_cache(maxsize=4096)
def _readings(counts: tuple[int, ...], wilds: int, need_pair: bool, kinds: tuple[int, ...]) -> frozenset:
    """All readings of ``counts`` plus ``wilds`` as sets (and a pair if ``need_pair``)."""
    if not any(counts):
        return _wild_only_readings(wilds, need_pair, kinds)
    found = set()
    kind_set = frozenset(kinds)
    for group, pair, real, wild in _groups_of_lowest(counts, wilds, need_pair, kind_set):
        rest_counts = list(counts)
        for tile in real:
            rest_counts[tile] -= 1
        rest = _readings(tuple(rest_counts), wilds - len(wild), need_pair and pair is None, kinds)
        found.update(_join(group, pair, wild, r) for r in rest)
    return frozenset(found)


@lru_cache(maxsize=256)
def _wild_only_readings(wilds: int, need_pair: bool, kinds: tuple[int, ...]) -> frozenset:
    """Readings made of wilds alone: any pung or chow each, any pair (C-J1)."""
    n_sets, left = divmod(wilds - (2 if need_pair else 0), 3)
    if left or n_sets < 0:
        return frozenset()
    sets = [("pung", k) for k in kinds] + [("chow", s) for s in _chow_starts(kinds)]
    pairs = kinds if need_pair else (None,)
    found = set()
    for chosen in combinations_with_replacement(sets, n_sets):
        for pair in pairs:
            wild_as = [k for kind, first in chosen for k in _set_tiles(kind, first)]
            if pair is not None:
                wild_as += [pair, pair]
            found.add((tuple(sorted(chosen)), pair, tuple(sorted(wild_as))))
    return frozenset(found)


def decompositions(counts, wilds: int = 0, *, allowed=None) -> list[Decomposition]:
    """Every way to split ``counts`` plus ``wilds`` wild tiles into n sets and one pair (C-P5, C-J1).

    ``counts``: 34 concealed counts without the wilds; n = (tiles + wilds - 2) // 3,
    so 2-, 5-, 8-, 11-, 14- and 17-tile hands all work (melds already removed).
    ``allowed``: kinds (ids or a boolean mask) a wild may stand for; default all 34.
    A wild never makes a fifth copy: ``counts[k]`` plus the wilds standing for
    ``k`` is at most 4 in every reading (C-J1 with C-T1).
    Returns ``[]`` when there is none; readings are distinct and sorted.

    >>> from mjsim.tiles import parse_counts
    >>> [d.sets for d in decompositions(parse_counts("111222333m11z"))]
    [(('chow', 0), ('chow', 0), ('chow', 0)), (('pung', 0), ('pung', 1), ('pung', 2))]
    """
    cells = _as_counts(counts)
    if wilds < 0:
        raise ValueError(f"wilds must be >= 0, got {wilds}")
    total = sum(cells) + wilds
    if total < 2 or (total - 2) % 3:
        return []
    readings = _readings(cells, int(wilds), True, _allowed_kinds(allowed))
    # the search lets a wild take any kind; keep the readings whose tiles exist (at most 4 of a kind)
    found = [
        Decomposition(sets, pair, wild_as)
        for sets, pair, wild_as in readings
        if all(cells[k] + wild_as.count(k) <= 4 for k in set(wild_as))
    ]
    return sorted(found, key=lambda d: (d.sets, d.pair, d.wild_as))


def seven_pairs_assignments(
    counts, wilds: int = 0, quads_as_two_pairs: bool = True, *, allowed=None
) -> list[tuple[int, ...]]:
    """Every way to read 14 tiles as seven pairs (C-P5): sorted tuples of the 7 pair kinds.

    Four equal tiles are two pairs (the kind appears twice) only when
    ``quads_as_two_pairs`` (C-P5, TDH-P4, XZ-P3); otherwise the seven kinds
    differ.  A wild completes an odd count or joins another wild as a pair of
    any ``allowed`` kind (C-J1); no kind is used more than twice, so no kind
    holds more than four tiles and a wild never makes a fifth copy.
    """
    cells = _as_counts(counts)
    if sum(cells) + wilds != 14:
        return []
    per_kind = 2 if quads_as_two_pairs else 1
    kinds = _allowed_kinds(allowed)
    base: list[int] = []
    wilds_left = wilds
    for kind, count in enumerate(cells):
        pairs = (count + 1) // 2
        if pairs > per_kind or (count % 2 and kind not in kinds):
            return []
        base += [kind] * pairs
        wilds_left -= count % 2  # a wild completes an odd count
    if wilds_left < 0 or wilds_left % 2:
        return []
    room = [k for k in kinds for _ in range(per_kind - base.count(k))]
    found = {
        tuple(sorted(base + list(extra)))
        for extra in combinations_with_replacement(sorted(set(room)), wilds_left // 2)
        if all(extra.count(k) <= room.count(k) for k in set(extra))
    }
    return sorted(found)


def is_thirteen_orphans(counts, wilds: int = 0) -> bool:
    """One of each terminal and honour plus a duplicate of any of them, 14 tiles (十三幺); wilds fill gaps (C-J1).

    No kind holds more than two tiles in this shape, so a wild never makes a fifth copy.
    """
    cells = _as_counts(counts)
    if sum(cells) + wilds != 14:
        return False
    orphans = set(TERMINALS_AND_HONOURS)
    if any(count and kind not in orphans for kind, count in enumerate(cells)):
        return False
    held = [cells[k] for k in TERMINALS_AND_HONOURS]
    # at most one duplicate among held tiles; the 14-tile total fixes how many wilds fill gaps
    return max(held) <= 2 and held.count(2) <= 1
