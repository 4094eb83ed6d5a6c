"""Readings of a winning hand and the shape predicates the family scorers share.

A :class:`Reading` is one way to see the whole win: the declared melds plus
one decomposition of the concealed tiles (or seven pairs, or thirteen
orphans), with every wild tile assigned a kind (C-J1).  Each predicate below
answers one question about a reading; the family modules pair them with
pattern ids in small tables, so each pattern is data plus one function.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mjsim.hand.decompose import decompositions, is_thirteen_orphans, seven_pairs_assignments
from mjsim.tiles import (
    DRAGONS,
    HONOUR_BASE,
    N_KINDS,
    TERMINALS,
    TERMINALS_AND_HONOURS,
    WINDS,
    format_counts,
    tile_set_kinds,
)

from .context import Hand, Rejected, Win


@dataclass(frozen=True)
class Group:
    """A set of the final hand: ``kind`` chow, pung or kong; ``tile`` its (first) tile.

    ``concealed``: held in the hand or a concealed kong, not a claimed meld.
    (Which concealed set a discard completes matters only to 四暗刻, which
    checks the winning tile itself.)
    """

    kind: str
    tile: int
    concealed: bool

    @property
    def is_pung(self) -> bool:
        """A pung or a kong (C-P5: a kong counts as a set)."""
        return self.kind in ("pung", "kong")


@dataclass(frozen=True, eq=False)
class Reading:
    """One way to read a win.  ``form``: standard, seven_pairs, thirteen_orphans or full_ghosts.

    ``counts`` are the kinds of the whole hand (melds included, a kong as four,
    wilds as the kinds they stand for); ``wild_as`` the kinds the wilds take.
    """

    form: str
    sets: tuple[Group, ...]
    pair: int | None
    pairs: tuple[int, ...]
    counts: np.ndarray
    wild_as: tuple[int, ...]
    hand: Hand
    win: Win


def _meld_groups(hand: Hand) -> tuple[Group, ...]:
    return tuple(Group("kong" if m.is_kong else m.kind, m.first, m.is_concealed) for m in hand.melds)


def _meld_counts(hand: Hand) -> np.ndarray:
    counts = np.zeros(N_KINDS, dtype=np.int64)
    for meld in hand.melds:
        for tile in meld.tiles:
            counts[tile] += 1
    return counts


def _wild_counts(wild_as) -> np.ndarray:
    return np.bincount(np.asarray(wild_as, dtype=np.int64), minlength=N_KINDS)[:N_KINDS]


def readings(ruleset, hand: Hand, win: Win) -> list[Reading]:
    """Every reading of the hand in the shapes the ruleset allows (C-P5, ``win_forms``).

    Wilds stand only for kinds of the ruleset's tile set (C-T4), and never for a
    fifth copy: the concealed count of a kind plus the wilds read as it is at
    most four (C-J1, the semantic of the simulator's kernels; declared melds are
    not counted, as the kernels see concealed tiles only).
    """
    allowed = tile_set_kinds(ruleset.tile_set)[:N_KINDS]
    base = hand.concealed.astype(np.int64) + _meld_counts(hand)
    melds = _meld_groups(hand)
    found = []
    for d in decompositions(hand.concealed, hand.wilds, allowed=allowed):
        concealed = tuple(Group(kind, tile, True) for kind, tile in d.sets)
        counts = base + _wild_counts(d.wild_as)
        found.append(Reading("standard", melds + concealed, d.pair, (), counts, d.wild_as, hand, win))
    if hand.melds:
        return found
    if "seven_pairs" in ruleset.win_forms:  # JPH-P5, TDH-P4, XZ-P3
        for pairs in seven_pairs_assignments(hand.concealed, hand.wilds, ruleset.seven_pairs_quads, allowed=allowed):
            counts = 2 * np.bincount(np.asarray(pairs), minlength=N_KINDS)[:N_KINDS]
            wild_as = tuple(int(k) for k in np.repeat(np.arange(N_KINDS), counts - hand.concealed))
            found.append(Reading("seven_pairs", (), None, pairs, counts, wild_as, hand, win))
    if "thirteen_orphans" in ruleset.win_forms and is_thirteen_orphans(hand.concealed, hand.wilds):
        found.append(Reading("thirteen_orphans", (), None, (), _orphan_counts(hand), (), hand, win))
    return found


def full_ghosts_reading(hand: Hand, win: Win) -> Reading:
    """满鬼 (TDH-V4): all four ghost tiles held is a win whatever the other tiles are."""
    counts = hand.concealed.astype(np.int64) + _meld_counts(hand)
    return Reading("full_ghosts", (), None, (), counts, (), hand, win)


def _orphan_counts(hand: Hand) -> np.ndarray:
    counts = hand.concealed.astype(np.int64).copy()
    for kind in TERMINALS_AND_HONOURS:
        counts[kind] = max(counts[kind], 1)  # wilds fill the missing orphans
    counts[TERMINALS_AND_HONOURS[0]] += 14 - counts.sum()  # and the duplicate if a wild is it
    return counts


def no_win_message(ruleset, hand: Hand) -> str:
    """Why a hand with no reading is not a win, naming a shape the ruleset leaves out (JPH-P5, XZ-P3)."""
    text = format_counts(hand.concealed) + (f" + {hand.wilds} wild" if hand.wilds else "")
    if hand.melds:
        text += " with melds " + ", ".join(str(m) for m in hand.melds)
    elif seven_pairs_assignments(hand.concealed, hand.wilds, True):
        if "seven_pairs" not in ruleset.win_forms:
            return f"{text}: seven pairs is not a winning shape in this ruleset (JPH-P5)"
        if not ruleset.seven_pairs_quads:
            return f"{text}: four equal tiles are not two pairs in this ruleset (C-P5)"
    elif "thirteen_orphans" not in ruleset.win_forms and is_thirteen_orphans(hand.concealed, hand.wilds):
        return f"{text}: thirteen orphans is not a winning shape in this ruleset (XZ-P3)"
    return f"{text} is not a winning hand (C-P5: sets + pair, or a special shape the ruleset lists)"


def check_suits(ruleset, r: Reading) -> None:
    """XZ-P2 缺一门: at most ``ruleset.max_suits`` suits in the whole hand."""
    if len(suits(r)) > ruleset.max_suits:
        raise Rejected(f"the hand holds {len(suits(r))} suits; at most {ruleset.max_suits} may win (XZ-P2 缺一门)")


# ---- tile facts (any form) -------------------------------------------------------------------


def kinds(r: Reading) -> list[int]:
    return [int(k) for k in np.flatnonzero(r.counts)]


def suits(r: Reading) -> set[int]:
    return {k // 9 for k in kinds(r) if k < HONOUR_BASE}


def has_honours(r: Reading) -> bool:
    return any(k >= HONOUR_BASE for k in kinds(r))


def full_flush(r: Reading) -> bool:
    """清一色: one suit, no honours."""
    return len(suits(r)) == 1 and not has_honours(r)


def half_flush(r: Reading) -> bool:
    """混一色: one suit plus honours, both present."""
    return len(suits(r)) == 1 and has_honours(r)


def all_honours(r: Reading) -> bool:
    """字一色: honours only."""
    return not suits(r)


def pure_terminals(r: Reading) -> bool:
    """清幺九: terminals (1 and 9) only."""
    return all(k in TERMINALS for k in kinds(r))


def mixed_terminals(r: Reading) -> bool:
    """混幺九: terminals and honours only, both present."""
    ks = kinds(r)
    return all(k in TERMINALS_AND_HONOURS for k in ks) and has_honours(r) and any(k in TERMINALS for k in ks)


def nine_gates(r: Reading, wait: str = "pure") -> bool:
    """九莲宝灯 (JPH-F2): no melds, 1112345678999 of one suit plus any tile of that suit.

    ``wait = "pure"`` (the seed: "同种牌形成1112345678999，在摸到该种牌任何一张即可胡牌"): the
    13 tiles before the win are 1112345678999, so the extra tile is the one won on; ``"shape"``:
    the final 14 tiles alone."""
    if r.hand.melds or r.form != "standard" or not full_flush(r):
        return False
    suit = suits(r).pop()
    extra = r.counts[9 * suit : 9 * suit + 9] - np.array([3, 1, 1, 1, 1, 1, 1, 1, 3])
    if not ((extra >= 0).all() and extra.sum() == 1):
        return False
    return wait == "shape" or extra[r.hand.win_tile - 9 * suit] == 1


# ---- forms ----------------------------------------------------------------------------------------


def thirteen_orphans(r: Reading) -> bool:
    return r.form == "thirteen_orphans"


def seven_pairs(r: Reading) -> bool:
    return r.form == "seven_pairs"


def dragon_seven_pairs(r: Reading) -> bool:
    """龙七对: seven pairs holding four equal tiles (a kind read as two pairs)."""
    return r.form == "seven_pairs" and len(set(r.pairs)) < len(r.pairs)


# ---- set facts (4 sets + pair) ------------------------------------------------------------------


def pung_kinds(r: Reading) -> list[int]:
    """Kinds of the pungs and kongs, melds included."""
    return [g.tile for g in r.sets if g.is_pung]


def all_pungs(r: Reading) -> bool:
    """碰碰胡/对对胡: every set a pung or kong."""
    return r.form == "standard" and all(g.is_pung for g in r.sets)


def all_chows(r: Reading) -> bool:
    """平胡 (JPH-F1): every set a chow; the pair is anything."""
    return r.form == "standard" and all(g.kind == "chow" for g in r.sets)


def dragon_pungs(r: Reading) -> int:
    return sum(k in DRAGONS for k in pung_kinds(r))


def wind_pungs(r: Reading) -> int:
    return sum(k in WINDS for k in pung_kinds(r))


def big_dragons(r: Reading) -> bool:
    """大三元: pungs of all three dragons."""
    return dragon_pungs(r) == 3


def little_dragons(r: Reading) -> bool:
    """小三元: pungs of two dragons + a pair of the third."""
    return dragon_pungs(r) == 2 and r.pair in DRAGONS


def big_winds(r: Reading) -> bool:
    """大四喜: pungs of all four winds."""
    return wind_pungs(r) == 4


def little_winds(r: Reading) -> bool:
    """小四喜: pungs of three winds + a pair of the fourth."""
    return wind_pungs(r) == 3 and r.pair in WINDS


def _has_terminal(g: Group) -> bool:
    if g.kind == "chow":
        return g.tile % 9 in (0, 6)  # 123 or 789
    return g.tile in TERMINALS


def terminal_sets(r: Reading) -> bool:
    """幺九/全带幺 (XZ-F1): every set and the pair contains a 1 or a 9."""
    return r.form == "standard" and r.pair in TERMINALS and all(_has_terminal(g) for g in r.sets)


def two_five_eight_pungs(r: Reading) -> bool:
    """将对 (XZ-F1): all pungs, every tile a 2, 5 or 8."""
    return all_pungs(r) and all(k < HONOUR_BASE and k % 9 in (1, 4, 7) for k in kinds(r))


def four_concealed_pungs(r: Reading) -> bool:
    """四暗刻 (TDH-V2): four concealed pungs/concealed kongs, no pung claimed.

    On a win with another player's tile (discard or robbed kong), the winning
    tile must complete the pair: a pung it completes would be claimed.
    """
    if not all_pungs(r) or not all(g.concealed for g in r.sets) or len(r.sets) < 4:
        return False
    if r.win.self_draw:
        return True
    if r.hand.win_is_wild:  # a discarded wild may be the one standing in the pair
        return r.pair in r.wild_as
    return r.pair == r.hand.win_tile


def four_kongs(r: Reading) -> bool:
    """十八罗汉 (TDH-V2): four kongs."""
    return sum(g.kind == "kong" for g in r.sets) == 4


def roots(r: Reading) -> int:
    """根 (XZ-F2): kinds with four equal tiles in hand and melds that are not a declared kong.

    A pung meld plus the fourth tile held concealed is a root too.
    """
    konged = {g.tile for g in r.sets if g.kind == "kong"}
    return sum(1 for k in kinds(r) if r.counts[k] >= 4 and k not in konged)


# ---- the situation --------------------------------------------------------------------------


def heavenly(r: Reading) -> bool:
    """天和: the dealer wins on the dealt tiles."""
    return r.win.first_turn and r.win.seat == 0 and r.win.self_draw


def first_draw_self_draw(r: Reading) -> bool:
    """地和 (JPH-F2, XZ-F1, TDH-V2 [Q]): a non-dealer self-draws on the first draw, no claim before."""
    return r.win.first_turn and r.win.seat != 0 and r.win.self_draw


def first_discard_win(r: Reading) -> bool:
    """人和 (JPH-F2) / 地胡 (TDH-V2 [D]): a non-dealer wins on the dealer's first discard."""
    return r.win.first_turn and r.win.seat != 0 and r.win.discard


def both(*tests):
    """A combined pattern: every one of ``tests`` holds."""

    def combined(r: Reading) -> bool:
        return all(test(r) for test in tests)

    return combined
