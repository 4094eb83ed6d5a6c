"""The inputs and the output of one scored win: held tiles, the win situation, the score.

:func:`read_hand` and :func:`read_win` turn ``score_hand``'s arguments into a
checked :class:`Hand` and :class:`Win`, raising ``ValueError`` with the reason
(and the rule ID) for anything that cannot be a win under the ruleset.  The
ruleset is kept apart from the situation, as in the design notes.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral

import numpy as np

from mjsim.tiles import (
    EAST,
    FIRST_FLOWER,
    N_KINDS,
    Meld,
    check_tile_set,
    counts_of,
    parse_melds,
    parse_tiles,
    tile_name,
)


class Rejected(ValueError):
    """One reading of a hand is not a win under the ruleset (e.g. below the minimum fan)."""


@dataclass(frozen=True)
class HandScore:
    """The value of one win (see ``score_hand``).

    ``fan``: jipinghu/xuezhan fan after bonuses, raises and cap; tuidaohu units; shuitou the total 台
    after doubling (SHT-T3), the same number as ``points``.
    ``patterns``: pattern and bonus ids of the rules reference, repeated per occurrence.
    ``points``: what ONE ordinary payer pays, base 1.
    ``fan_detail``: (id, fan or units) per pattern, in the order of ``patterns``.
    ``limit``: a jipinghu limit hand (爆胡以外, JPH-F2).
    ``capped_from``: the fan before the cap when the cap lowered it, else None.
    ``base_tai``: shuitou only (SHT-T1), the base 台 of the chosen reading; None for other families.
    ``assignment``: shuitou only (SHT-T4), what each held 财神 stood for, in the order of the held
    财神 kinds (tile notation, or ``"set"`` for the three of a 财神汇); () for other families.
    """

    fan: int
    patterns: tuple[str, ...]
    points: int
    fan_detail: tuple[tuple[str, int], ...]
    limit: bool = False
    capped_from: int | None = None
    base_tai: int | None = None
    assignment: tuple[str, ...] = ()


@dataclass(frozen=True)
class Hand:
    """The winner's tiles: concealed counts (wild tiles apart), wilds held, melds, the winning tile."""

    concealed: np.ndarray  # (34,) int8, wild tiles not included
    wilds: int
    wild_kinds: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    wild_held: tuple[int, ...] = ()  # the wild tiles held, by kind (C-J2: their own face values)

    @property
    def win_is_wild(self) -> bool:
        return self.win_tile in self.wild_kinds

    @property
    def claimed_melds(self) -> tuple[Meld, ...]:
        """Chows, pungs and exposed kongs: sets made with another player's discard."""
        return tuple(m for m in self.melds if m.kind != "ckong")

    @property
    def n_tiles(self) -> int:
        return int(self.concealed.sum()) + self.wilds


@dataclass(frozen=True)
class Win:
    """How the hand was won: win kind, seat and round, special situations."""

    self_draw: bool = False
    seat: int = 1
    round_wind: int = 0
    kong_replacement: bool = False
    robbed_kong: bool = False
    last_tile: bool = False
    first_turn: bool = False
    discard_winners: int = 1
    after_kong_discard: bool = False
    kong_from_discard: bool = False  # the kong a kong-replacement win follows was made from a discard (直杠)

    @property
    def discard(self) -> bool:
        """A win on another player's discard (a robbed kong is not one, JPH-S3, TDH-S1)."""
        return not self.self_draw and not self.robbed_kong

    @property
    def paid_as_self_draw(self) -> bool:
        """Self-draw, kong replacement or robbed kong: every other player pays (JPH-S2/S3, TDH-S1)."""
        return self.self_draw or self.robbed_kong

    @property
    def seat_wind_tile(self) -> int:
        return EAST + self.seat  # C-S2: offset 0 东, 1 南, 2 西, 3 北

    @property
    def round_wind_tile(self) -> int:
        return EAST + self.round_wind


def _tile_ids(value, what: str) -> list[int]:
    if isinstance(value, str):
        return parse_tiles(value)
    try:
        items = list(value)
    except TypeError:
        raise ValueError(f"{what} must be tile notation or a sequence of tile ids, got {value!r}") from None
    odd = next((t for t in items if isinstance(t, (bool, np.bool_)) or not isinstance(t, Integral)), None)
    if odd is not None:  # never truncate 0.5 to 1m
        raise ValueError(f"{what} holds {odd!r}: tile ids are whole numbers 0..41 (or write notation, e.g. '5z')")
    tiles = [int(t) for t in items]
    if any(not 0 <= t < FIRST_FLOWER + 8 for t in tiles):
        raise ValueError(f"{what} holds a tile id outside 0..41: {tiles}")
    return tiles


def _one_tile(value, what: str) -> int:
    tiles = _tile_ids([value] if isinstance(value, (int, np.integer)) else value, what)
    if len(tiles) != 1:
        raise ValueError(f"{what} must be one tile, got {value!r}")
    return tiles[0]


def _wild_kinds(ruleset, wild_kinds) -> tuple[int, ...]:
    """Kinds that are wild: ``wild_kinds`` (notation such as "5z", ids, or a list) overrides;
    else the ruleset's fixed wild tile (TDH-G1); none without a wild scheme."""
    if wild_kinds is not None:
        if isinstance(wild_kinds, str):
            kinds = parse_tiles(wild_kinds)
        elif isinstance(wild_kinds, (int, np.integer)):
            kinds = [_one_tile(wild_kinds, "wild_kinds")]
        else:
            try:
                kinds = [_one_tile(k, "wild_kinds") for k in wild_kinds]
            except TypeError:
                raise ValueError(f"wild_kinds must be tiles such as '5z' or ['5z'], got {wild_kinds!r}") from None
        if any(k >= FIRST_FLOWER for k in kinds):
            raise ValueError("flowers cannot be wild kinds (C-W2)")
        return tuple(sorted(set(kinds)))
    if ruleset.wild_scheme == "none":
        return ()
    if ruleset.wild_scheme == "fixed":
        return (_one_tile(ruleset.wild_tile, "ruleset.wild_tile"),)
    raise ValueError(
        f"wild_scheme {ruleset.wild_scheme!r} turns its wild kinds up during play: pass wild_kinds=... (TDH-G1, SHT-P3)"
    )


def read_hand(ruleset, hand, melds=(), win_tile=None, wild_kinds=None) -> Hand:
    """Parse and check the winner's tiles against the ruleset; ``ValueError`` says what is wrong."""
    tiles = _tile_ids(hand, "hand")
    if not tiles:
        raise ValueError("hand is empty")
    try:
        declared = parse_melds(() if melds is None else melds)
    except TypeError:
        raise ValueError(f"melds must be a sequence of strings such as 'pung:5z', got {melds!r}") from None
    meld_tiles = [t for m in declared for t in m.tiles]
    if any(t >= FIRST_FLOWER for t in tiles):
        raise ValueError(f"hand {hand!r} holds a flower: flowers are set aside, never part of a win (C-W2)")
    check_tile_set(tiles + meld_tiles, ruleset.tile_set, what=f"hand {hand!r} with melds {[str(m) for m in declared]}")
    every = np.bincount(np.asarray(tiles + meld_tiles, dtype=np.int64), minlength=N_KINDS)
    if every.max() > 4:
        kind = int(every.argmax())
        raise ValueError(f"hand and melds hold {every[kind]} copies of {tile_name(kind)}; only 4 exist (C-T1)")
    if not ruleset.chow and any(m.kind == "chow" for m in declared):
        raise ValueError("this ruleset has no chow (TDH-P1, XZ-P1), yet a chow meld was given")
    n_sets = 5 if ruleset.hand_size == 16 else 4
    size = len(tiles) + 3 * len(declared)
    if size != 3 * n_sets + 2:
        raise ValueError(
            f"{len(tiles)} concealed tiles and {len(declared)} melds make {size} tiles (kongs count 3); "
            f"a win needs {3 * n_sets + 2} ({n_sets} sets + pair, C-P5)"
        )
    win = tiles[-1] if win_tile is None else _one_tile(win_tile, "win_tile")
    if win not in tiles:
        raise ValueError(f"win_tile {tile_name(win)} is not among the concealed tiles {hand!r}")
    wild = _wild_kinds(ruleset, wild_kinds)
    if any(t in wild for t in meld_tiles):
        raise ValueError("wild tiles cannot form declared melds (C-J1)")
    concealed = counts_of(tiles)
    n_wild = int(sum(concealed[k] for k in wild))
    held = tuple(kind for kind in sorted(set(wild)) for _ in range(int(concealed[kind])))
    for kind in wild:
        concealed[kind] = 0
    return Hand(concealed=concealed, wilds=n_wild, wild_kinds=wild, melds=declared, win_tile=win, wild_held=held)


def _whole_number(name: str, value) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    return int(value)


def read_win(ruleset, hand: Hand, **situation) -> Win:
    """Check the win situation against the ruleset and the tiles; ``ValueError`` says what contradicts.

    ``situation``: the keyword arguments of :class:`Win`; flags are read as booleans.
    """
    numbers = ("seat", "round_wind", "discard_winners")
    win = Win(**{k: _whole_number(k, v) if k in numbers else bool(v) for k, v in situation.items()})
    if win.seat not in range(4) or win.round_wind not in range(4):
        raise ValueError(f"seat and round_wind are offsets 0-3 (C-S1, C-S2), got {win.seat}, {win.round_wind}")
    if win.self_draw and win.robbed_kong:
        raise ValueError("a robbed kong is won on another player's tile, not self-drawn (C-P4): pass self_draw=False")
    if win.kong_replacement and not win.self_draw:
        raise ValueError("a win on a kong replacement tile is a self-draw (JPH-S2): pass self_draw=True")
    if win.kong_replacement and not any(m.is_kong for m in hand.melds):
        raise ValueError("kong_replacement needs the kong just made among the melds (the last kong)")
    if win.robbed_kong and not ruleset.rob_kong:
        raise ValueError("this ruleset does not allow robbing a kong (C-P4)")
    if win.robbed_kong and hand.win_is_wild:
        raise ValueError("the robbed tile completes another player's kong, so it cannot be a wild tile")
    if win.robbed_kong and _copies(hand, hand.win_tile) != 1:
        raise ValueError(
            f"robbing a kong of {tile_name(hand.win_tile)}: the other three copies are the robbed pung, "
            "so the winner holds only the robbed one (C-P4)"
        )
    if win.discard and not ruleset.discard_win:
        raise ValueError("this ruleset has no discard wins (TDH-P2): pass self_draw=True or robbed_kong=True")
    if win.discard_winners not in (1, 2, 3):
        raise ValueError(f"discard_winners must be 1, 2 or 3, got {win.discard_winners}")
    if win.discard_winners > 1 and not win.discard:
        raise ValueError("several winners (一炮多响) only on a discard (C-P2)")
    if win.discard_winners > 1 and not ruleset.multiple_win:
        raise ValueError("this ruleset lets only one player win on a discard (C-P2)")
    if win.kong_from_discard and not win.kong_replacement:
        raise ValueError(
            "kong_from_discard describes the kong a kong-replacement win follows: pass kong_replacement=True"
        )
    if win.after_kong_discard and not win.discard:
        raise ValueError("after_kong_discard (杠上炮, XZ-F2) is a win on a discard")
    ended_by = hand.melds if ruleset.first_turn_ends_on_concealed_kong else hand.claimed_melds
    if win.first_turn and ended_by:
        raise ValueError(
            "a first-turn win (天和/地和/人和) comes before any claim (JPH-F2 first go-around; a concealed kong ends "
            "it only with first_turn_ends_on_concealed_kong)"
        )
    if win.first_turn and win.seat == 0 and not win.self_draw:
        raise ValueError("the dealer's first-turn win is a self-draw on the dealt tiles (天和)")
    return win


def _copies(hand: Hand, kind: int) -> int:
    return int(hand.concealed[kind]) + sum(m.tiles.count(kind) for m in hand.melds)


def best_score(score_one, readings, *, no_win: str, rank=None) -> HandScore:
    """The best score over the readings (highest points, then fan, then fan before the cap).

    The player chooses how to read the hand and what the wilds stand for
    (C-J1).  ``score_one(reading)`` returns a HandScore or raises
    :class:`Rejected`.  With no reading at all the hand is not a win; with only
    rejected readings the first reason is raised; with none, ``no_win``.
    ``rank(reading, score)``, if given, replaces the default ordering key (a
    family that needs finer tie-breaks passes one); equal keys keep the first.
    """
    scored, reasons = [], []
    for reading in readings:
        try:
            scored.append((reading, score_one(reading)))
        except Rejected as reason:
            reasons.append(str(reason))
    if scored:
        if rank is None:
            return max((s for _, s in scored), key=lambda s: (s.points, s.fan, s.capped_from or s.fan))
        return max(scored, key=lambda rs: rank(*rs))[1]
    if reasons:
        raise ValueError(reasons[0])
    raise ValueError(no_win)
