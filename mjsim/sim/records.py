"""Finished hands as columnar arrays: the engine appends, the runner flushes.

``HandRecords`` is the compiled engine's output buffer (one row per hand).
Two readers turn a filled prefix into the log's vocabulary (tile notation,
pattern ids, win kind names):

``arrow_columns``
    whole columns at once, as Arrow arrays built from the numpy buffers
    (offsets and takes, no Python object per value): what runs write;
``rows_to_columns``
    the readable reference, row by row into Python lists and numpy arrays:
    what replay and the tests read, and what the tests compare the Arrow
    columns with.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
import pyarrow as pa

from mjsim.io.schema import COLUMNS
from mjsim.sim.constants import KONG_KIND_NAMES, MAX_MELDS, MELD_NAMES, WIN_KIND_NAMES
from mjsim.sim.fastscore import AFTER_KONG, FIRST_TURN, LAST_TILE, N_PATTERNS, PATTERN_IDS
from mjsim.sim.observation import FAMILY_IDS
from mjsim.sim.state import (
    COMPONENT_NAMES,
    END_STATE_NAMES,
    MAX_HORSES,
    MAX_KONGS,
    MAX_WINS,
    N_COMPONENTS,
    N_FLOWER_SLOTS,
    N_XZ_RULES,
    WHITE_SLOT,
    XZ_RULE_NAMES,
)
from mjsim.tiles import format_counts, tile_name

XUEZHAN, SHUITOU = FAMILY_IDS["xuezhan"], FAMILY_IDS["shuitou"]


class HandRecords(NamedTuple):
    count: np.ndarray  # int64 (1,): rows filled
    hand_id: np.ndarray  # int64 (R,)
    seed: np.ndarray  # uint64 (R,)
    session: np.ndarray  # int64 (R,)
    hand_in_session: np.ndarray  # int32 (R,)
    dealer: np.ndarray  # int8 (R,)
    round_wind: np.ndarray  # int8 (R,)
    streak: np.ndarray  # int16 (R,)
    turns: np.ndarray  # int16 (R,)
    wall_left: np.ndarray  # int16 (R,)
    n_winners: np.ndarray  # int8 (R,)
    winners: np.ndarray  # int8 (R, W)
    win_kind: np.ndarray  # int8 (R, W)
    fan: np.ndarray  # int16 (R, W)
    win_flags: np.ndarray  # int8 (R, W)
    patterns: np.ndarray  # int8 (R, W, N_PATTERNS)
    win_hand: np.ndarray  # int8 (R, W, 34)
    win_melds: np.ndarray  # int8 (R, W, MAX_MELDS, 2)
    discarder: np.ndarray  # int8 (R,)
    liable: np.ndarray  # int8 (R,)
    nets: np.ndarray  # int64 (R, N_COMPONENTS, 4): per component, per absolute seat
    wild: np.ndarray  # int8 (R, 2): wild kinds, -1 none
    n_horses: np.ndarray  # int8 (R,)
    horse_tiles: np.ndarray  # int8 (R, MAX_HORSES)
    horse_seats: np.ndarray  # int8 (R, MAX_HORSES)
    horse_hits: np.ndarray  # int8 (R,)
    horse_pool: np.ndarray  # int8 (R, MAX_HORSES)
    horse_pool_free: np.ndarray  # int8 (R,)
    win_kong_from: np.ndarray  # int8 (R, W)
    win_tile: np.ndarray  # int8 (R, W)
    twelve_feeder: np.ndarray  # int8 (R, 4)
    twelve_turn: np.ndarray  # int16 (R, 4)
    limit_feeder: np.ndarray  # int8 (R, 4)
    limit_turn: np.ndarray  # int16 (R, 4)
    followed_dealer: np.ndarray  # bool (R,)
    n_kongs: np.ndarray  # int8 (R,)
    kong_seat: np.ndarray  # int8 (R, MAX_KONGS)
    kong_kind: np.ndarray  # int8 (R, MAX_KONGS)
    kong_from: np.ndarray  # int8 (R, MAX_KONGS)
    kong_in_play: np.ndarray  # int8 (R, MAX_KONGS): bit per seat in play when the kong was made
    kong_turn: np.ndarray  # int16 (R, MAX_KONGS): the discard count when the kong was made
    win_from: np.ndarray  # int8 (R, W): discarder or robbed player of each win, -1 self-draw
    win_turn: np.ndarray  # int16 (R, W): discard count at each win
    win_in_play: np.ndarray  # int8 (R, W): bit per seat in play at each win
    exhausted: np.ndarray  # bool (R,): the hand ended on an empty wall
    end_state: np.ndarray  # int8 (R, 4): XZ-E state per seat (END_STATE_NAMES), -1 outside 血战
    ready_fan: np.ndarray  # int16 (R, 4): XZ-E2 best fan of a ready seat, -1
    void_suit: np.ndarray  # int8 (R, 4): XZ-H2 declared void suit, -1 none
    exchange_tiles: np.ndarray  # int8 (R, 4, 3): XZ-H1 tiles each seat passed, -1 none
    exchange_dir: np.ndarray  # int8 (R,): XZ-H1 receiving offset 1..3, 0 no exchange
    xz_moves: np.ndarray  # int64 (R, N_XZ_RULES, 4): nets of 呼叫转移, 退税, 查花猪, 查叫
    family: np.ndarray  # int8 (R,): observation.FAMILY_IDS of the ruleset (family-only columns are null elsewhere)
    flowers: np.ndarray  # int8 (R, 4, N_FLOWER_SLOTS): SHT-P2 flowers set aside per seat
    base_tai: np.ndarray  # int16 (R, 4): SHT-T1 base 台 per seat
    split_tiles: np.ndarray  # int8 (R, 4): SHT-P7 分牌 tiles in the order dealt, -1 none
    split_win: np.ndarray  # bool (R,)
    end_hands: np.ndarray  # int8 (R, 4, 34): every seat's concealed tiles as the hand ended
    end_melds: np.ndarray  # int8 (R, 4, MAX_MELDS, 2): every seat's melds as the hand ended
    four_winds_feeder: np.ndarray  # int8 (R,): SHT-M3 fact, -1 none


def allocate_records(capacity: int, max_wins: int = MAX_WINS) -> HandRecords:
    """Zeroed records for ``capacity`` hands of up to ``max_wins`` wins (W, ``state.win_slots``)."""
    r = capacity
    w = max_wins
    return HandRecords(
        count=np.zeros(1, np.int64),
        hand_id=np.zeros(r, np.int64),
        seed=np.zeros(r, np.uint64),
        session=np.zeros(r, np.int64),
        hand_in_session=np.zeros(r, np.int32),
        dealer=np.zeros(r, np.int8),
        round_wind=np.zeros(r, np.int8),
        streak=np.zeros(r, np.int16),
        turns=np.zeros(r, np.int16),
        wall_left=np.zeros(r, np.int16),
        n_winners=np.zeros(r, np.int8),
        winners=np.zeros((r, w), np.int8),
        win_kind=np.zeros((r, w), np.int8),
        fan=np.zeros((r, w), np.int16),
        win_flags=np.zeros((r, w), np.int8),
        patterns=np.zeros((r, w, N_PATTERNS), np.int8),
        win_hand=np.zeros((r, w, 34), np.int8),
        win_melds=np.zeros((r, w, MAX_MELDS, 2), np.int8),
        discarder=np.zeros(r, np.int8),
        liable=np.zeros(r, np.int8),
        nets=np.zeros((r, N_COMPONENTS, 4), np.int64),
        wild=np.zeros((r, 2), np.int8),
        n_horses=np.zeros(r, np.int8),
        horse_tiles=np.zeros((r, MAX_HORSES), np.int8),
        horse_seats=np.zeros((r, MAX_HORSES), np.int8),
        horse_hits=np.zeros(r, np.int8),
        horse_pool=np.zeros((r, MAX_HORSES), np.int8),
        horse_pool_free=np.zeros(r, np.int8),
        win_kong_from=np.zeros((r, w), np.int8),
        win_tile=np.zeros((r, w), np.int8),
        twelve_feeder=np.zeros((r, 4), np.int8),
        twelve_turn=np.zeros((r, 4), np.int16),
        limit_feeder=np.zeros((r, 4), np.int8),
        limit_turn=np.zeros((r, 4), np.int16),
        followed_dealer=np.zeros(r, np.bool_),
        n_kongs=np.zeros(r, np.int8),
        kong_seat=np.zeros((r, MAX_KONGS), np.int8),
        kong_kind=np.zeros((r, MAX_KONGS), np.int8),
        kong_from=np.zeros((r, MAX_KONGS), np.int8),
        kong_in_play=np.zeros((r, MAX_KONGS), np.int8),
        kong_turn=np.zeros((r, MAX_KONGS), np.int16),
        win_from=np.zeros((r, w), np.int8),
        win_turn=np.zeros((r, w), np.int16),
        win_in_play=np.zeros((r, w), np.int8),
        exhausted=np.zeros(r, np.bool_),
        end_state=np.zeros((r, 4), np.int8),
        ready_fan=np.zeros((r, 4), np.int16),
        void_suit=np.zeros((r, 4), np.int8),
        exchange_tiles=np.zeros((r, 4, 3), np.int8),
        exchange_dir=np.zeros(r, np.int8),
        xz_moves=np.zeros((r, N_XZ_RULES, 4), np.int64),
        family=np.zeros(r, np.int8),
        flowers=np.zeros((r, 4, N_FLOWER_SLOTS), np.int8),
        base_tai=np.zeros((r, 4), np.int16),
        split_tiles=np.zeros((r, 4), np.int8),
        split_win=np.zeros(r, np.bool_),
        end_hands=np.zeros((r, 4, 34), np.int8),
        end_melds=np.zeros((r, 4, MAX_MELDS, 2), np.int8),
        four_winds_feeder=np.zeros(r, np.int8),
    )


@lru_cache(maxsize=1 << 16)
def _component_text(raw: bytes, letter: str) -> str:
    digits = "".join(str(rank + 1) * count for rank, count in enumerate(raw))
    return digits + letter if digits else ""


def hand_text(counts: np.ndarray) -> str:
    """Tile notation of a 34-count vector (cached per suit: the logs format many hands)."""
    raw = counts.astype(np.uint8).tobytes()
    return (
        _component_text(raw[0:9], "m") + _component_text(raw[9:18], "p") + _component_text(raw[18:27], "s")
        + _component_text(raw[27:34], "z")
    )  # fmt: skip


_MELD_TEXT = {}


def _meld_text(kind: int, tile: int) -> str:
    key = (kind, tile)
    if key not in _MELD_TEXT:
        if MELD_NAMES[kind] == "chow":
            _MELD_TEXT[key] = f"chow:{format_counts(np.bincount([tile, tile + 1, tile + 2], minlength=34))}"
        else:
            _MELD_TEXT[key] = f"{MELD_NAMES[kind]}:{tile_name(int(tile))}"
    return _MELD_TEXT[key]


def meld_strings(melds: np.ndarray) -> list[str]:
    """C-T5 meld notation for one winner's (MAX_MELDS, 2) kind/tile rows."""
    out = []
    for kind, tile in melds.tolist():
        if kind == 0:
            break
        out.append(_meld_text(kind, tile))
    return out


def pattern_list(counts: np.ndarray) -> list[str]:
    """Pattern ids, repeated by count, in PATTERN_IDS order."""
    return [PATTERN_IDS[i] for i in np.flatnonzero(counts) for _ in range(int(counts[i]))]


def rows_to_columns(records: HandRecords, n: int) -> dict[str, list | np.ndarray]:
    """The first ``n`` rows as log columns (lists per winner in win order)."""
    cols: dict[str, list | np.ndarray] = {
        "hand_id": records.hand_id[:n].copy(),
        "seed": records.seed[:n].astype(np.uint64),
        "session": records.session[:n].copy(),
        "hand_in_session": records.hand_in_session[:n].copy(),
        "dealer": records.dealer[:n].copy(),
        "round_wind": records.round_wind[:n].copy(),
        "streak": records.streak[:n].copy(),
        "turns": records.turns[:n].copy(),
        "wall_left": records.wall_left[:n].copy(),
    }
    winners, kinds, fans, patterns, hands, melds, last, first = [], [], [], [], [], [], [], []
    for row in range(n):
        k = int(records.n_winners[row])
        flags = records.win_flags[row, :k]
        last.append([bool(f & LAST_TILE) for f in flags])
        first.append([bool(f & FIRST_TURN) for f in flags])
        winners.append(records.winners[row, :k].astype(int).tolist())
        kinds.append([WIN_KIND_NAMES[x] for x in records.win_kind[row, :k]])
        fans.append(records.fan[row, :k].astype(int).tolist())
        patterns.append([pattern_list(records.patterns[row, i]) for i in range(k)])
        hands.append([hand_text(records.win_hand[row, i]) for i in range(k)])
        melds.append([meld_strings(records.win_melds[row, i]) for i in range(k)])
    discarder = records.discarder[:n].astype(np.int64)
    liable = records.liable[:n].astype(np.int64)
    cols |= {
        "winners": winners,
        "discarder": [None if d < 0 else int(d) for d in discarder],
        "win_kind": kinds,
        "fan": fans,
        "patterns": patterns,
        "win_hands": hands,
        "win_melds": melds,
        "last_tile": last,
        "first_turn": first,
        "liable": [None if x < 0 else int(x) for x in liable],
    }
    names = [tile_name(t) for t in range(42)]  # flowers too (a 水头 horse_pool may hold them)
    cols["wilds"] = [[names[k] for k in records.wild[row] if k >= 0] for row in range(n)]
    cols["horses"] = [[names[t] for t in records.horse_tiles[row, : records.n_horses[row]]] for row in range(n)]
    cols["horse_seats"] = [records.horse_seats[row, : records.n_horses[row]].astype(int).tolist() for row in range(n)]
    cols["horse_hits"] = records.horse_hits[:n].copy()
    cols["win_tiles"] = [[names[t] for t in records.win_tile[row, : records.n_winners[row]]] for row in range(n)]
    cols["horse_pool"] = [[names[t] for t in records.horse_pool[row]] for row in range(n)]
    cols["horse_pool_free"] = records.horse_pool_free[:n].copy()
    cols["kong_from_discard"] = [records.win_kong_from[row, : records.n_winners[row]].astype(int).tolist()
                                 for row in range(n)]  # fmt: skip
    cols["kongs"] = [
        [f"{s}:{KONG_KIND_NAMES[k]}:{f}" for s, k, f in zip(*(a[row, : records.n_kongs[row]].tolist() for a in (
            records.kong_seat, records.kong_kind, records.kong_from)))]
        for row in range(n)
    ]  # fmt: skip
    for name in ("twelve_feeder", "twelve_turn", "limit_feeder", "limit_turn"):
        cols[name] = getattr(records, name)[:n].astype(np.int64)
    cols["followed_dealer"] = [bool(x) for x in records.followed_dealer[:n]]
    cols["kong_in_play"] = [records.kong_in_play[row, : records.n_kongs[row]].astype(int).tolist() for row in range(n)]
    cols["kong_turns"] = [records.kong_turn[row, : records.n_kongs[row]].astype(int).tolist() for row in range(n)]
    for name in ("win_from", "win_turn", "win_in_play"):
        table = getattr(records, name)
        cols[name] = [table[row, : records.n_winners[row]].astype(int).tolist() for row in range(n)]
    cols["after_kong"] = [[bool(f & AFTER_KONG) for f in records.win_flags[row, : records.n_winners[row]]]
                          for row in range(n)]  # fmt: skip
    cols["exhausted"] = [bool(x) for x in records.exhausted[:n]]
    cols["end_state"] = [None if records.end_state[row, 0] < 0 else [END_STATE_NAMES[x] for x in records.end_state[row]]
                         for row in range(n)]  # fmt: skip
    cols["ready_fan"] = records.ready_fan[:n].astype(np.int64)
    cols["void_suits"] = records.void_suit[:n].astype(np.int64)
    exchanged = records.exchange_dir[:n] > 0
    cols["passed_tiles"] = [[hand_text(np.bincount(records.exchange_tiles[row, s], minlength=34)) for s in range(4)]
                            if exchanged[row] else None for row in range(n)]  # fmt: skip
    cols["pass_offset"] = [int(records.exchange_dir[row]) if exchanged[row] else None for row in range(n)]
    xz = records.family[:n] == XUEZHAN
    for index, name in enumerate(XZ_RULE_NAMES):
        cols[f"net_{name}"] = [records.xz_moves[row, index].tolist() if xz[row] else None
                               for row in range(n)]  # fmt: skip
    nets = records.nets[:n]
    cols["net"] = nets.sum(axis=1)
    for index, name in enumerate(("win", "kong", "horse", "liability", "penalty", "base")):
        cols[f"net_{name}"] = nets[:, index, :].copy()
    assert N_COMPONENTS == 6
    sht = records.family[:n] == SHUITOU
    cols["flowers"] = [[flower_text(records.flowers[row, s]) for s in range(4)] if sht[row] else None
                       for row in range(n)]  # fmt: skip
    cols["base_tai"] = [records.base_tai[row].tolist() if sht[row] else None for row in range(n)]
    cols["split_tiles"] = [[names[t] for t in records.split_tiles[row] if t >= 0] if sht[row] else None
                           for row in range(n)]  # fmt: skip
    cols["split_win"] = [bool(records.split_win[row]) if sht[row] else None for row in range(n)]
    cols["four_winds_feeder"] = [int(x) if ok and x >= 0 else None for x, ok in zip(records.four_winds_feeder[:n], sht)]
    cols["end_hands"] = [[hand_text(records.end_hands[row, s]) for s in range(4)] if sht[row] else None
                         for row in range(n)]  # fmt: skip
    cols["end_melds"] = [[meld_strings(records.end_melds[row, s]) for s in range(4)] if sht[row] else None
                         for row in range(n)]  # fmt: skip
    return cols


# ---- whole columns as Arrow arrays -------------------------------------------------------------------

_TILE_NAMES = pa.array([tile_name(t) for t in range(42)])
_WIN_KINDS = pa.array(list(WIN_KIND_NAMES))
_PATTERNS = pa.array(list(PATTERN_IDS))
_END_STATES = pa.array(list(END_STATE_NAMES))
_MELD_STRINGS = pa.array(
    ["" if kind == 0 or (MELD_NAMES[kind] == "chow" and tile % 9 > 6) or tile >= 34 else _meld_text(kind, tile)
     for kind in range(len(MELD_NAMES)) for tile in range(34)]
)  # fmt: skip
_KONG_STRINGS = pa.array(
    [f"{seat}:{KONG_KIND_NAMES[kind]}:{source}" for seat in range(4) for kind in range(len(KONG_KIND_NAMES))
     for source in range(-1, 4)]
)  # fmt: skip


def _ragged(values: pa.Array, lengths: np.ndarray) -> pa.ListArray:
    """A list array whose row ``i`` holds the next ``lengths[i]`` of ``values``."""
    offsets = np.zeros(lengths.size + 1, np.int32)
    np.cumsum(lengths, out=offsets[1:])
    return pa.ListArray.from_arrays(pa.array(offsets), values)


def _leading(table: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The first ``lengths[i]`` entries of each row of ``table`` (R, K), flattened in row order."""
    return table[np.arange(table.shape[1]) < lengths[:, None]]


def _fixed(table: np.ndarray) -> pa.FixedSizeListArray:
    """Rows of ``table`` (R, 4) as fixed-size int64 lists."""
    return pa.FixedSizeListArray.from_arrays(pa.array(table.astype(np.int64).ravel()), table.shape[1])


def _seat_or_null(values: np.ndarray) -> pa.Array:
    return pa.array(values.astype(np.int8), mask=values < 0)


def _texts(tokens: np.ndarray, repeats: np.ndarray) -> pa.Array:
    """Row ``i``: each of the one-character ``tokens`` repeated ``repeats[i, j]`` times, in order; a string
    array built from two numpy buffers, without a Python string per row."""
    lengths = repeats.sum(axis=1)
    offsets = np.zeros(len(repeats) + 1, np.int32)
    np.cumsum(lengths, out=offsets[1:])
    chars = np.repeat(np.broadcast_to(tokens, repeats.shape).ravel(), repeats.ravel())
    return pa.StringArray.from_buffers(len(repeats), pa.py_buffer(offsets), pa.py_buffer(chars))


_HAND_TOKENS = np.frombuffer(b"123456789m123456789p123456789s1234567z", np.uint8)  # each suit's ranks, its letter
_SUIT_SPANS = ((0, 9), (9, 18), (18, 27), (27, 34))


def hand_texts(hands: np.ndarray, keep: np.ndarray | None = None) -> pa.Array:
    """:func:`hand_text` of every row of ``hands`` (R, 34 counts) at once; ``""`` where ``keep`` is False."""
    counts = hands.astype(np.int64)
    if keep is not None:
        counts *= keep[:, None]
    parts = []
    for start, end in _SUIT_SPANS:
        suit = counts[:, start:end]
        parts += [suit, suit.any(axis=1, keepdims=True)]  # the letter follows a suit that has tiles
    return _texts(_HAND_TOKENS, np.concatenate(parts, axis=1))  # int64: the counts' type


_FLOWER_TOKENS = np.frombuffer(b"12345678f5z", np.uint8)


def flower_texts(slots: np.ndarray, keep: np.ndarray) -> pa.Array:
    """:func:`flower_text` of every row of ``slots`` (R, ``N_FLOWER_SLOTS``) at once; ``""`` where ``keep``
    is False."""
    counts = slots.astype(np.int64) * keep[:, None]
    held = counts[:, :8] > 0
    white = counts[:, WHITE_SLOT : WHITE_SLOT + 1]
    repeats = np.concatenate([held, held.any(axis=1, keepdims=True), white, white > 0], axis=1)  # int64
    return _texts(_FLOWER_TOKENS, repeats)


def flower_text(slots: np.ndarray) -> str:
    """Notation of a seat's flowers (``N_FLOWER_SLOTS`` counts: 1f..8f, then 白板), e.g. ``"13f55z"``."""
    text = "".join(str(i + 1) for i in range(8) if slots[i]) + ("f" if slots[:8].any() else "")
    return text + "5" * int(slots[WHITE_SLOT]) + ("z" if slots[WHITE_SLOT] else "")


SHUITOU_COLUMNS = ("flowers", "base_tai", "split_tiles", "split_win", "four_winds_feeder", "end_hands", "end_melds")


def _shuitou_columns(records: HandRecords, n: int) -> dict[str, pa.Array]:
    """水头's columns, null on the other families' rows: flowers, base 台, 分牌, the 包牌 fact, end hands."""
    r = slice(0, n)
    sht = records.family[r] == SHUITOU
    if not sht.any():  # the other families' rows: every column null, without a pass over the rows
        return {name: pa.nulls(n, COLUMNS[name][0]) for name in SHUITOU_COLUMNS}
    other = pa.array(~sht)
    seats = np.repeat(sht, 4)
    flowers = flower_texts(records.flowers[r].reshape(n * 4, N_FLOWER_SLOTS), seats)
    hands = hand_texts(records.end_hands[r].reshape(n * 4, 34), seats)
    melds = records.end_melds[r].reshape(n * 4, MAX_MELDS, 2).astype(np.int64)
    empty = melds[:, :, 0] == 0
    n_melds = np.where(empty.any(axis=1), empty.argmax(axis=1), MAX_MELDS)
    meld_keys = _leading(melds[:, :, 0] * 34 + melds[:, :, 1], n_melds)
    split = records.split_tiles[r].astype(np.int64)
    n_split = (split >= 0).sum(axis=1)
    return {
        "flowers": pa.FixedSizeListArray.from_arrays(flowers, 4, mask=other),
        "base_tai": pa.FixedSizeListArray.from_arrays(
            pa.array(records.base_tai[r].astype(np.int64).ravel()), 4, mask=other
        ),
        "split_tiles": pa.ListArray.from_arrays(
            pa.array(np.concatenate([[0], np.cumsum(n_split)]).astype(np.int32)),
            _TILE_NAMES.take(pa.array(split[split >= 0])),
            mask=other,
        ),
        "split_win": pa.array(records.split_win[r], mask=~sht),
        "four_winds_feeder": pa.array(records.four_winds_feeder[r], mask=~sht | (records.four_winds_feeder[r] < 0)),
        "end_hands": pa.FixedSizeListArray.from_arrays(hands, 4, mask=other),
        "end_melds": pa.FixedSizeListArray.from_arrays(
            _ragged(_MELD_STRINGS.take(pa.array(meld_keys)), n_melds), 4, mask=other
        ),
    }


def _exchange_columns(records: HandRecords, n: int) -> dict[str, pa.Array]:
    """The 换三张 columns (XZ-H1): each seat's three passed tiles and the direction; null where none passed."""
    r = slice(0, n)
    exchanged = records.exchange_dir[r] > 0
    if not exchanged.any():  # most rulesets: no pass to spell out, and 4 n empty hands not to build
        return {name: pa.nulls(n, COLUMNS[name][0]) for name in ("passed_tiles", "pass_offset")}
    passed = records.exchange_tiles[r].astype(np.int64)  # (n, 4, 3)
    counts = np.zeros((n * 4, 34), np.int8)
    np.add.at(counts, (np.repeat(np.arange(n * 4), 3), np.where(passed < 0, 0, passed).ravel()), 1)
    texts = hand_texts(counts, np.repeat(exchanged, 4))
    return {
        "passed_tiles": pa.FixedSizeListArray.from_arrays(texts, 4, mask=pa.array(~exchanged)),
        "pass_offset": pa.array(records.exchange_dir[r], mask=~exchanged),
    }


def arrow_columns(records: HandRecords, n: int) -> dict[str, pa.Array]:
    """The first ``n`` rows as Arrow columns (every log column but the run's constants)."""
    r = slice(0, n)
    n_winners = records.n_winners[r].astype(np.int64)
    per_winner = np.arange(records.winners.shape[1]) < n_winners[:, None]  # (n, W): the winner slots in use
    cols: dict[str, pa.Array] = {
        "hand_id": pa.array(records.hand_id[r]),
        "seed": pa.array(records.seed[r].astype(np.uint64)),
        "session": pa.array(records.session[r]),
        "hand_in_session": pa.array(records.hand_in_session[r]),
        "dealer": pa.array(records.dealer[r]),
        "round_wind": pa.array(records.round_wind[r]),
        "streak": pa.array(records.streak[r]),
        "winners": _ragged(pa.array(records.winners[r][per_winner]), n_winners),
        "discarder": _seat_or_null(records.discarder[r]),
        "win_kind": _ragged(_WIN_KINDS.take(pa.array(records.win_kind[r][per_winner].astype(np.int64))), n_winners),
        "fan": _ragged(pa.array(records.fan[r][per_winner]), n_winners),
    }
    # per winner, in win order: patterns (repeated by count, in PATTERN_IDS order), hands, melds
    counts = records.patterns[r][per_winner].astype(np.int64)  # (W, N_PATTERNS)
    ids = np.repeat(np.tile(np.arange(N_PATTERNS), counts.shape[0]), counts.ravel())
    cols["patterns"] = _ragged(_ragged(_PATTERNS.take(pa.array(ids)), counts.sum(axis=1)), n_winners)
    cols["win_hands"] = _ragged(hand_texts(records.win_hand[r][per_winner]), n_winners)
    cols["win_tiles"] = _ragged(_TILE_NAMES.take(pa.array(records.win_tile[r][per_winner].astype(np.int64))),
                                n_winners)  # fmt: skip
    melds = records.win_melds[r][per_winner].astype(np.int64)  # (W, MAX_MELDS, 2); a kind of 0 ends the list
    empty = melds[:, :, 0] == 0
    n_melds = np.where(empty.any(axis=1), empty.argmax(axis=1), MAX_MELDS)
    meld_keys = _leading(melds[:, :, 0] * 34 + melds[:, :, 1], n_melds)
    cols["win_melds"] = _ragged(_ragged(_MELD_STRINGS.take(pa.array(meld_keys)), n_melds), n_winners)
    flags = records.win_flags[r][per_winner]
    cols["last_tile"] = _ragged(pa.array((flags & LAST_TILE) != 0), n_winners)
    cols["first_turn"] = _ragged(pa.array((flags & FIRST_TURN) != 0), n_winners)
    cols["liable"] = _seat_or_null(records.liable[r])
    nets = records.nets[r]
    cols["net"] = _fixed(nets.sum(axis=1))
    for index, name in enumerate(COMPONENT_NAMES):
        cols[f"net_{name}"] = _fixed(nets[:, index, :])
    wild = records.wild[r].astype(np.int64)
    cols["wilds"] = _ragged(_TILE_NAMES.take(pa.array(wild[wild >= 0])), (wild >= 0).sum(axis=1))
    n_horses = records.n_horses[r].astype(np.int64)
    horse_tiles = _leading(records.horse_tiles[r].astype(np.int64), n_horses)
    cols["horses"] = _ragged(_TILE_NAMES.take(pa.array(horse_tiles)), n_horses)
    cols["horse_seats"] = _ragged(pa.array(_leading(records.horse_seats[r], n_horses)), n_horses)
    cols["horse_hits"] = pa.array(records.horse_hits[r])
    pool = records.horse_pool[r].astype(np.int64)
    cols["horse_pool"] = _ragged(_TILE_NAMES.take(pa.array(pool.ravel())), np.full(n, pool.shape[1]))
    cols["horse_pool_free"] = pa.array(records.horse_pool_free[r])
    n_kongs = records.n_kongs[r].astype(np.int64)
    kinds = len(KONG_KIND_NAMES)
    kong_keys = (records.kong_seat[r].astype(np.int64) * kinds + records.kong_kind[r]) * 5 + records.kong_from[r] + 1
    cols["kongs"] = _ragged(_KONG_STRINGS.take(pa.array(_leading(kong_keys, n_kongs))), n_kongs)
    cols["kong_from_discard"] = _ragged(pa.array(records.win_kong_from[r][per_winner]), n_winners)
    for name in ("twelve_feeder", "twelve_turn", "limit_feeder", "limit_turn"):
        cols[name] = _fixed(getattr(records, name)[r])
    cols["followed_dealer"] = pa.array(records.followed_dealer[r])
    cols["kong_in_play"] = _ragged(pa.array(_leading(records.kong_in_play[r], n_kongs)), n_kongs)
    cols["kong_turns"] = _ragged(pa.array(_leading(records.kong_turn[r], n_kongs)), n_kongs)
    for name in ("win_from", "win_turn", "win_in_play"):
        cols[name] = _ragged(pa.array(getattr(records, name)[r][per_winner]), n_winners)
    cols["after_kong"] = _ragged(pa.array((flags & AFTER_KONG) != 0), n_winners)
    cols["exhausted"] = pa.array(records.exhausted[r])
    end_state = records.end_state[r].astype(np.int64)
    known = end_state[:, 0] >= 0
    states = _END_STATES.take(pa.array(np.where(end_state < 0, 0, end_state).ravel()))
    cols["end_state"] = pa.FixedSizeListArray.from_arrays(states, 4, mask=pa.array(~known))
    cols["ready_fan"] = _fixed(records.ready_fan[r])
    cols["void_suits"] = pa.FixedSizeListArray.from_arrays(pa.array(records.void_suit[r].ravel()), 4)
    cols |= _exchange_columns(records, n)
    xz = records.family[r] == XUEZHAN
    for index, name in enumerate(XZ_RULE_NAMES):
        moves = pa.array(records.xz_moves[r][:, index, :].ravel())
        cols[f"net_{name}"] = pa.FixedSizeListArray.from_arrays(moves, 4, mask=pa.array(~xz))
    cols |= _shuitou_columns(records, n)
    cols["turns"] = pa.array(records.turns[r])
    cols["wall_left"] = pa.array(records.wall_left[r])
    return cols
