"""Per-suit lookup tables behind the hand-evaluation kernels.

A suit's nine counts (each 0-4) are one base-5 number, its *code*
``sum(count[r] * 5**(8 - r))`` — rank 1 is the most significant digit, so a
code array reshaped to ``(5,) * 9`` has rank ``r`` on axis ``r``.  The seven
honours use the same scheme with seven digits.  For every code the generator
stores, for ``m`` sets (0-5, enough for 16-tile hands) and ``p`` pairs (0-1):

``partial[code, m, p]``
    the fewest tiles that must be *added* so that the suit's tiles contain
    ``m`` sets and ``p`` pairs, leftovers allowed (the shanten building block);
``exact[code, p]``
    the fewest tiles to add so that *every* tile of the suit is used in sets
    plus ``p`` pairs, any number of sets (the wild-tile building block: a wild
    tile can be any added tile).

Derived from ``partial``, for the policies (:mod:`mjsim.agents.shape`):

``draw_lowers[code, r]``
    the entries of ``partial[code]`` (flattened, bit ``2 m + p``) that one
    more tile of rank ``r`` lowers; 0 when the suit already holds four.
    Adding a tile lowers an entry by at most one, so these bits say exactly
    how the vector moves.

The policies read both from one *shape table* (:func:`shape_table`), a
32-byte row per code, so a row never straddles two cache lines.

Both are computed for targets that hold at most four copies of a kind, so a
wait on a fifth copy never counts (the exact shanten definition).  The
generator works on whole lattices at once: target sets are built by shifting
boolean arrays, and the "tiles to add" distance is separable over the nine
axes, so one 1-D transform per axis gives it exactly.

Tables are cached under ``MJSIM_CACHE_DIR``, else the platform's user cache
directory (``platformdirs``: ``~/.cache/mjsim`` or ``$XDG_CACHE_HOME/mjsim`` on
Linux) as one file that every process memory-maps read-only, so parallel workers
share one copy (about 104 MB) in memory and in the CPU's cache.  The tables are
pinned by a checksum test; a stale or corrupt cache file is regenerated.  A file is
hashed once: a stamp beside it records the size, modification time and inode it had when
its checksum last held, and a process finding them unchanged skips the hash (0.15 s and a
100 MB read at every start of a worker).
"""

from __future__ import annotations

import hashlib
import mmap
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from mjsim.cache import cache_dir

MAX_SETS = 5
UNREACHABLE = 60
"""Stand-in for 'impossible'; four of them still fit in uint8 arithmetic."""
TABLE_VERSION = 4  # 4: with draw_lowers (3: one memory-mapped file, 2: an .npz)

FEATURE_BITS = {
    # name: (first bit, width) of the per-code counting facts that seven pairs,
    # thirteen orphans and the fast winning check read in one gather
    "complete": (0, 1),
    "has_pair": (1, 1),
    "at_most_two": (2, 1),  # every count <= 2
    "orphans_only": (3, 1),  # no tile outside terminals (suits) — always true for honours
    "odd_counts": (4, 4),  # kinds held an odd number of times
    "pairs_with_quads": (8, 5),  # sum of count // 2
    "kinds": (13, 4),  # kinds held at least once
    "pair_kinds": (17, 4),  # kinds held at least twice
    "orphan_kinds": (21, 3),  # terminal/honour kinds held
    "orphan_pair_kinds": (24, 3),  # terminal/honour kinds held at least twice
    "orphan_over_two": (27, 1),  # some terminal/honour held more than twice
}


@dataclass(frozen=True)
class SuitTables:
    """Tables for one kind of component (a suit, or the honours)."""

    partial: np.ndarray  # (5**digits, MAX_SETS + 1, 2) uint8
    exact: np.ndarray  # (5**digits, 2) uint8
    tile_count: np.ndarray  # (5**digits,) uint8
    features: np.ndarray  # (5**digits,) uint32: counting facts packed by FEATURE_BITS


def _shift_or(target: np.ndarray, source: np.ndarray, axes_steps: dict[int, int]) -> None:
    """``target[x + step] |= source[x]`` along the given axes, inside the 0..4 box."""
    src, dst = [slice(None)] * source.ndim, [slice(None)] * source.ndim
    for axis, step in axes_steps.items():
        src[axis] = slice(0, 5 - step)
        dst[axis] = slice(step, 5)
    target[tuple(dst)] |= source[tuple(src)]


def _add_one_set(lattice: np.ndarray, chows: bool) -> np.ndarray:
    out = np.zeros_like(lattice)
    for rank in range(lattice.ndim):
        _shift_or(out, lattice, {rank: 3})
        if chows and rank + 2 < lattice.ndim:
            _shift_or(out, lattice, {rank: 1, rank + 1: 1, rank + 2: 1})
    return out


def _add_pair(lattice: np.ndarray) -> np.ndarray:
    out = np.zeros_like(lattice)
    for rank in range(lattice.ndim):
        _shift_or(out, lattice, {rank: 2})
    return out


def _targets(digits: int, chows: bool) -> list[list[np.ndarray]]:
    """``targets[m][p]``: boolean lattice of hands that are exactly m sets + p pairs."""
    empty = np.zeros((5,) * digits, dtype=bool)
    empty[(0,) * digits] = True
    sets_only = [empty]
    for _ in range(MAX_SETS):
        sets_only.append(_add_one_set(sets_only[-1], chows))
    return [[lattice, _add_pair(lattice)] for lattice in sets_only]


def _along(lattice: np.ndarray, axis: int) -> np.ndarray:
    """A view of a C-ordered ``(5,) * digits`` lattice as ``(before, 5, after)``, ``axis`` in the middle: each
    step along it is one contiguous slab (moving the axis first made numpy walk it with large strides)."""
    return lattice.reshape(5**axis, 5, -1)


def _tiles_to_add(target: np.ndarray) -> np.ndarray:
    """For every hand H: min over targets T of sum(max(0, T - H)) (leftovers allowed)."""
    dist = np.where(target, 0, UNREACHABLE).astype(np.uint8)  # at most UNREACHABLE + 4: fits in a byte
    for axis in range(dist.ndim):
        along = _along(dist, axis)
        best_below = along.copy()  # a target digit <= h costs nothing
        for h in range(1, 5):
            np.minimum(best_below[:, h], best_below[:, h - 1], out=best_below[:, h])
        for h in range(3, -1, -1):  # a target digit t > h costs t - h added tiles
            np.minimum(along[:, h], along[:, h + 1] + 1, out=along[:, h])
        np.minimum(along, best_below, out=along)
    return np.minimum(dist, UNREACHABLE)


def _contained_in(target: np.ndarray) -> np.ndarray:
    """Boolean lattice of hands H with H <= T for some target T (down-closure)."""
    out = target.copy()
    for axis in range(out.ndim):
        along = _along(out, axis)
        for h in range(3, -1, -1):
            along[:, h] |= along[:, h + 1]
    return out


def build_tables(digits: int, chows: bool) -> SuitTables:
    """Generate the tables for a component of ``digits`` ranks (9 suited, 7 honours)."""
    size = 5**digits
    code_digits = np.indices((5,) * digits, dtype=np.uint8).reshape(digits, size)  # bytes: 8x less to walk
    tile_count = code_digits.sum(axis=0, dtype=np.int16)
    targets = _targets(digits, chows)
    partial = np.empty((size, MAX_SETS + 1, 2), dtype=np.uint8)
    exact = np.full((size, 2), UNREACHABLE, dtype=np.int16)
    for m in range(MAX_SETS + 1):
        for p in range(2):
            partial[:, m, p] = _tiles_to_add(targets[m][p]).reshape(size)
            fits = _contained_in(targets[m][p]).reshape(size)
            need = np.int16(3 * m + 2 * p) - tile_count
            np.minimum(exact[:, p], need, out=exact[:, p], where=fits & (need >= 0))
    has_pair = tile_count % 3 == 2
    own_need = np.where(has_pair, exact[:, 1], exact[:, 0])
    complete = (tile_count % 3 != 1) & (own_need == 0)
    orphan_ranks = [0, digits - 1] if chows else list(range(digits))
    orphan_digits = code_digits[orphan_ranks]
    facts = {
        "complete": complete,
        "has_pair": has_pair,
        "at_most_two": (code_digits <= 2).all(axis=0),
        "orphans_only": tile_count == orphan_digits.sum(axis=0),
        "odd_counts": (code_digits & 1).sum(axis=0, dtype=np.uint32),
        "pairs_with_quads": (code_digits >> 1).sum(axis=0, dtype=np.uint32),
        "kinds": (code_digits >= 1).sum(axis=0, dtype=np.uint32),
        "pair_kinds": (code_digits >= 2).sum(axis=0, dtype=np.uint32),
        "orphan_kinds": (orphan_digits >= 1).sum(axis=0, dtype=np.uint32),
        "orphan_pair_kinds": (orphan_digits >= 2).sum(axis=0, dtype=np.uint32),
        "orphan_over_two": (orphan_digits > 2).any(axis=0),
    }
    features = np.zeros(size, dtype=np.uint32)
    for name, (shift, _width) in FEATURE_BITS.items():
        features |= facts[name].astype(np.uint32) << np.uint32(shift)
    return SuitTables(
        partial=partial,
        exact=np.minimum(exact, UNREACHABLE).astype(np.uint8),
        tile_count=tile_count.astype(np.uint8),
        features=features,
    )


def build_draw_lowers(partial: np.ndarray, digits: int) -> np.ndarray:
    """``draw_lowers`` (module docstring) of one component's ``partial`` table: ``(5**digits, 9)`` uint16,
    columns beyond ``digits`` zero."""
    size = 5**digits
    entries = partial.reshape(size, -1)  # 12 entries: two bytes of bits
    lowers = np.zeros((size, 9), np.uint16)
    for rank in range(digits):
        before, after = 5**rank, 5 ** (digits - 1 - rank)
        by_count = entries.reshape(before, 5, after, -1)  # axis 1: the count of this rank
        lowered = np.zeros((before, 4, after, 16), bool)  # 16 bits a code, so the packing runs flat (3x faster)
        np.less(by_count[:, 1:], by_count[:, :-1], out=lowered[..., :12])  # one more tile, from a count of 0..3
        bits = np.packbits(lowered.reshape(-1), bitorder="little").view("<u2")  # entry j is bit j
        lowers.reshape(before, 5, after, 9)[:, :4, :, rank] = bits.reshape(before, 4, after)
    return lowers


SHAPE_COLUMNS = 32
SHAPE_LOWERS = 2 * (MAX_SETS + 1)
"""Shape table columns: ``partial`` flattened (12 bytes), then ``draw_lowers`` per rank in two bytes
(low, high) from column SHAPE_LOWERS, then padding."""
_LOWERS_END = SHAPE_LOWERS + 2 * 9  # two bytes for each of nine ranks


def build_shape_table(joint: np.ndarray, lowers: np.ndarray) -> np.ndarray:
    """The policies' ``(rows, SHAPE_COLUMNS)`` uint8 table from the joint partial and draw_lowers tables."""
    table = np.zeros((joint.shape[0], SHAPE_COLUMNS), np.uint8)
    table[:, :SHAPE_LOWERS] = joint
    table[:, SHAPE_LOWERS:_LOWERS_END:2] = lowers & 0xFF
    table[:, SHAPE_LOWERS + 1 : _LOWERS_END : 2] = lowers >> 8
    return table


def _cache_file() -> Path:
    return cache_dir() / f"hand-tables-v{TABLE_VERSION}.bin"


_FIELDS = ("partial", "exact", "tile_count", "features")
_SUIT_CODES, _HONOUR_CODES = 5**9, 5**7
_ALIGN = 64  # each array starts on a cache line
_CHECKSUM_BYTES = 64  # the hex sha256, at the end of the file


@dataclass(frozen=True)
class _Layout:
    """Where each array lies in the cache file: the joint partial table first (suit rows, then honour rows,
    :func:`joint_partial`), the policies' :func:`shape_table`, then the suit and honour ``exact``,
    ``tile_count`` and ``features`` arrays."""

    name: str
    dtype: type
    shape: tuple[int, ...]
    offset: int


def _layout() -> tuple[list[_Layout], int]:
    entries = [
        ("joint_partial", np.uint8, (_SUIT_CODES + _HONOUR_CODES, 2 * (MAX_SETS + 1))),
        ("shape_table", np.uint8, (_SUIT_CODES + _HONOUR_CODES, SHAPE_COLUMNS)),
    ]
    for field, dtype, row in (("exact", np.uint8, (2,)), ("tile_count", np.uint8, ()), ("features", np.uint32, ())):
        for prefix, codes in (("suit", _SUIT_CODES), ("honour", _HONOUR_CODES)):
            entries.append((f"{prefix}_{field}", dtype, (codes, *row)))
    layout = []
    offset = 0
    for name, dtype, shape in entries:
        layout.append(_Layout(name, dtype, shape, offset))
        size = int(np.prod(shape)) * np.dtype(dtype).itemsize
        offset += -(-size // _ALIGN) * _ALIGN
    return layout, offset


def table_checksum(suit: SuitTables, honours: SuitTables) -> str:
    """sha256 over every table array, in a fixed order (pinned by a test)."""
    digest = hashlib.sha256()
    for tables in (suit, honours):
        for field in _FIELDS:
            digest.update(_bytes_of(getattr(tables, field)))
    return digest.hexdigest()


def _file_checksum(suit: SuitTables, honours: SuitTables, shape: np.ndarray) -> str:
    """What the cache file stores at its end: sha256 over :func:`table_checksum` and the derived shape table."""
    digest = hashlib.sha256(table_checksum(suit, honours).encode())
    digest.update(_bytes_of(shape))
    return digest.hexdigest()


def _bytes_of(array: np.ndarray) -> memoryview:
    """The array's bytes in C order, without a copy when it is contiguous already (the mapped file's are)."""
    return memoryview(np.ascontiguousarray(array)).cast("B")


def _stamp_file(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def _identity(path: Path) -> str:
    """What changes whenever the file is rewritten or edited: its size, modification time and inode."""
    status = os.stat(path)
    return f"{status.st_size} {status.st_mtime_ns} {status.st_ino}"


def _stamped(path: Path) -> bool:
    """Whether the stamp beside ``path`` says its checksum held for the file as it is now."""
    try:
        return _stamp_file(path).read_text() == _identity(path)
    except (OSError, UnicodeDecodeError):
        return False


def _stamp(path: Path) -> None:
    """Record that ``path``'s checksum holds, for later processes (:func:`_stamped`); best effort."""
    try:
        partial_path = _stamp_file(path).with_suffix(f".{os.getpid()}.tmp")
        partial_path.write_text(_identity(path))
        os.replace(partial_path, _stamp_file(path))
    except OSError:
        pass  # a read-only cache only costs the hash next time


def _joint(suit: SuitTables, honours: SuitTables) -> tuple[np.ndarray, np.ndarray]:
    """The joint partial table and the shape table (suit rows, then honour rows)."""
    joint = np.concatenate([suit.partial.reshape(_SUIT_CODES, -1), honours.partial.reshape(_HONOUR_CODES, -1)])
    lowers = np.concatenate([build_draw_lowers(suit.partial, 9), build_draw_lowers(honours.partial, 7)])
    return joint, build_shape_table(joint, lowers)


def _save(path: Path, suit: SuitTables, honours: SuitTables) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    layout, size = _layout()
    joint, shape = _joint(suit, honours)
    arrays = {"joint_partial": joint, "shape_table": shape}
    for field in _FIELDS[1:]:
        arrays[f"suit_{field}"] = getattr(suit, field)
        arrays[f"honour_{field}"] = getattr(honours, field)
    buffer = np.zeros(size + _CHECKSUM_BYTES, np.uint8)
    for entry in layout:
        data = np.ascontiguousarray(arrays[entry.name], dtype=entry.dtype).reshape(entry.shape)
        buffer[entry.offset : entry.offset + data.nbytes] = data.reshape(-1).view(np.uint8)
    buffer[size:] = np.frombuffer(_file_checksum(suit, honours, shape).encode(), np.uint8)
    partial_path = path.with_suffix(f".{os.getpid()}.tmp")
    buffer.tofile(partial_path)
    os.replace(partial_path, path)  # atomic: parallel workers never read half a file


_Loaded = tuple[SuitTables, SuitTables, np.ndarray, np.ndarray]  # suit, honours, joint partial, shape table


def _load(path: Path) -> _Loaded | None:
    """The tables memory-mapped read-only from ``path`` (worker processes share one copy of the pages),
    or None when the file is missing, the wrong size or fails its checksum (checked unless stamped)."""
    layout, size = _layout()
    try:
        with open(path, "rb") as file:
            mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # ValueError: an empty file cannot be mapped
        return None
    if len(mapped) != size + _CHECKSUM_BYTES:
        return None
    arrays = {e.name: np.frombuffer(mapped, e.dtype, int(np.prod(e.shape)), e.offset).reshape(e.shape) for e in layout}
    joint = arrays["joint_partial"]
    shape = arrays["shape_table"]
    partial = {
        "suit": joint[:_SUIT_CODES].reshape(_SUIT_CODES, MAX_SETS + 1, 2),
        "honour": joint[_SUIT_CODES:].reshape(_HONOUR_CODES, MAX_SETS + 1, 2),
    }
    suit, honours = (
        SuitTables(partial[prefix], *(arrays[f"{prefix}_{field}"] for field in _FIELDS[1:]))
        for prefix in ("suit", "honour")
    )
    if not _stamped(path):
        if mapped[size:].decode(errors="replace") != _file_checksum(suit, honours, shape):
            return None
        _stamp(path)
    return suit, honours, joint, shape


@lru_cache(maxsize=1)
def _loaded() -> _Loaded:
    path = _cache_file()
    loaded = _load(path)
    if loaded is None:
        suit, honours = build_tables(9, chows=True), build_tables(7, chows=False)
        try:
            _save(path, suit, honours)
            loaded = _load(path)
        except OSError:
            pass  # a read-only cache only costs regeneration next time
        if loaded is None:  # read-only like the mapped tables, so the kernels see the same array types
            joint, shape = _joint(suit, honours)
            for array in (joint, shape, *vars(suit).values(), *vars(honours).values()):
                array.flags.writeable = False
            loaded = suit, honours, joint, shape
    return loaded


def load_tables() -> tuple[SuitTables, SuitTables]:
    """The (suit, honour) tables: memory-mapped from the cache, or generated and cached.  Read-only."""
    suit, honours, _, _ = _loaded()
    return suit, honours


def joint_partial() -> np.ndarray:
    """The suit and honour ``partial`` tables as one read-only ``(5**9 + 5**7, 12)`` uint8 array (suit rows
    first), the rows the hand-evaluation kernels read; ``load_tables``'s ``partial`` arrays are views of it."""
    return _loaded()[2]


def shape_table() -> np.ndarray:
    """The policies' read-only ``(5**9 + 5**7, SHAPE_COLUMNS)`` uint8 table, rows as :func:`joint_partial`:
    each row's ``partial`` entries, then its ``draw_lowers`` (module docstring; ``SHAPE_LOWERS``)."""
    return _loaded()[3]
