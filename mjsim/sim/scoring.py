"""Everything the compiled engine needs to score a win: the family scorers' tables and the hand tables."""

from __future__ import annotations

from numba import types
from numba.experimental import structref

from mjsim.hand.fast import hand_tables, is_win_counts
from mjsim.sim.borrowing import inline_overload, kernel, njit_borrowed
from mjsim.sim.families import JIPINGHU, SHUITOU, TUIDAOHU, XUEZHAN, compiles_for
from mjsim.sim.fastscore import NOT_A_WIN, score_jipinghu, score_params
from mjsim.sim.fastscore_sht import score_shuitou, sht_params
from mjsim.sim.fastscore_tdh import score_tuidaohu, tdh_params
from mjsim.sim.fastscore_xz import score_xuezhan, xz_params
from mjsim.sim.state import ArraysStructType, register_arrays_struct, tuple_constructor


@register_arrays_struct
class ScoringType(ArraysStructType):
    """Numba type of :class:`Scoring`."""


class Scoring(structref.StructRefProxy):
    """The scorers' tables, passed to compiled code by reference.

    Fields: ``jph`` (鸡平胡 ``ScoreParams``, :mod:`mjsim.sim.fastscore`),
    ``tdh`` (推倒胡 ``TdhParams``, :mod:`mjsim.sim.fastscore_tdh`), ``xz`` (血战
    ``XzParams``, :mod:`mjsim.sim.fastscore_xz`), ``sht`` (水头 ``ShtParams``, :mod:`mjsim.sim.fastscore_sht`)
    and ``tables`` (the ``HandTables`` of :mod:`mjsim.hand`).  A struct
    reference rather than a NamedTuple: the engine hands it down through
    every legality check, and a NamedTuple would have its ten arrays'
    reference counts updated at each of those calls.
    """


SCORING_FIELDS = ("jph", "tdh", "xz", "sht", "tables")
structref.define_proxy(Scoring, ScoringType, list(SCORING_FIELDS))
_scoring_from = tuple_constructor(ScoringType, SCORING_FIELDS)


def scoring(ruleset) -> Scoring:
    return _new_scoring(
        score_params(ruleset), tdh_params(ruleset), xz_params(ruleset), sht_params(ruleset), hand_tables()
    )


@kernel
def _new_scoring(jph, tdh, xz, sht, tables):
    """Build the struct in compiled code (cached), not with ``Scoring(...)`` from Python, which compiles
    the proxy's constructor again in every process."""
    return _scoring_from((jph, tdh, xz, sht, tables))


@njit_borrowed
def score_win(
    p,
    sc,
    real,
    wilds,
    held,
    win_tile,
    meld_kind,
    meld_tile,
    n_melds,
    flags,
    seat_offset,
    round_wind,
    discard_winners,
    found,
    scratch,
    ctx,
):
    """Value of a win in the family's unit (fan, 推倒胡 units, 水头 台), or a negative code (not a win / below
    the minimum fan), under the engine's params ``p`` (:mod:`mjsim.sim.state`).  ``real``: concealed non-wild tiles incl. the winning tile; ``wilds``: wild tiles held;
    ``held``: every concealed tile, wilds at face value (TDH-H7, SHT-T1 财神 counts); ``ctx``: the 水头
    scorer's context (flowers, 财神 kinds; :mod:`mjsim.sim.fastscore_sht`), unread by the other families."""
    return score_parts(p, p.forms, p.quads_as_two_pairs, sc.jph, sc.tdh, sc.xz, sc.sht, sc.tables, real, wilds, held, win_tile,
                       meld_kind, meld_tile, n_melds, flags, seat_offset, round_wind, discard_winners, found, scratch,
                       ctx)  # fmt: skip


def score_parts(family, forms, quads, jph, tdh, xz, sht, tb, real, wilds, held, win_tile, meld_kind, meld_tile, n_melds,
                flags, seat_offset, round_wind, discard_winners, found, scratch, ctx):  # fmt: skip
    """:func:`score_win` with the scorer's tables given apart (``Scoring``'s ``jph``, ``tdh``, ``xz``, ``sht``,
    ``tables``), for the borrowing helpers (a struct reference needs reference counting).  ``family``: the
    family's integer, or the engine's params, whose class names the group's build (:mod:`mjsim.sim.families`):
    compiled code only, it holds the scorers of the families that build plays."""
    raise TypeError("score_parts is called from compiled code only (a numba overload, mjsim.sim.families)")


@inline_overload(score_parts)
def _score_parts_of(family, forms, quads, jph, tdh, xz, sht, tb, real, wilds, held, win_tile, meld_kind, meld_tile,
                    n_melds, flags, seat_offset, round_wind, discard_winners, found, scratch, ctx):  # fmt: skip
    # constants of the build, so numba drops (and never types) the other families' branches
    from_params = not isinstance(family, types.Integer)
    with_jipinghu = compiles_for(family, JIPINGHU)
    with_tuidaohu = compiles_for(family, TUIDAOHU)
    with_xuezhan = compiles_for(family, XUEZHAN)
    with_shuitou = compiles_for(family, SHUITOU)

    def impl(family, forms, quads, jph, tdh, xz, sht, tb, real, wilds, held, win_tile, meld_kind, meld_tile, n_melds,
             flags, seat_offset, round_wind, discard_winners, found, scratch, ctx):  # fmt: skip
        f = family.family if from_params else family
        if with_jipinghu:
            if f == JIPINGHU:
                return _score_jipinghu_win(forms, quads, jph, tb, real, wilds, win_tile, meld_kind, meld_tile, n_melds,
                                           flags, seat_offset, round_wind, discard_winners, found)  # fmt: skip
        if with_shuitou:
            if f == SHUITOU:
                return score_shuitou(real, wilds, held, meld_kind, meld_tile, n_melds, flags, seat_offset, sht, tb,
                                     found, ctx)  # fmt: skip
        if with_xuezhan:
            if f == XUEZHAN:
                if wilds > 0:
                    return NOT_A_WIN  # 血战 has no wild tiles (108 suit tiles)
                return score_xuezhan(real, win_tile, meld_kind, meld_tile, n_melds, flags, seat_offset, xz, tb, found)
        if with_tuidaohu:
            return score_tuidaohu(real, wilds, held, win_tile, meld_kind, meld_tile, n_melds, flags, seat_offset, tdh,
                                  tb, found, scratch)  # fmt: skip
        return NOT_A_WIN  # unreachable: the build holds the family it was compiled for

    return impl


@njit_borrowed(inline="always")
def _score_jipinghu_win(forms, quads, jph, tb, real, wilds, win_tile, meld_kind, meld_tile, n_melds, flags,
                        seat_offset, round_wind, discard_winners, found):  # fmt: skip
    """鸡平胡's part of :func:`score_parts`: no fan are counted unless the tiles make a complete hand."""
    if wilds > 0:
        return NOT_A_WIN  # the runner refuses wild tiles in 鸡平胡 rulesets
    n = 0
    for t in range(34):
        n += real[t]
    if not is_win_counts(real, n, 0, forms, quads, tb.suit_exact, tb.honour_exact, tb.suit_features,
                         tb.honour_features):  # fmt: skip
        return NOT_A_WIN
    return score_jipinghu(real, win_tile, meld_kind, meld_tile, n_melds, flags, seat_offset, round_wind,
                          discard_winners, jph, found)  # fmt: skip
