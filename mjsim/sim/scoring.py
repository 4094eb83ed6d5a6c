"""Everything the compiled engine needs to score a win: the family scorers' tables and the hand tables."""

from __future__ import annotations

from numba.experimental import structref

from mjsim.hand.fast import hand_tables, is_win_counts
from mjsim.sim.borrowing import kernel, njit_borrowed
from mjsim.sim.fastscore import NOT_A_WIN, score_jipinghu, score_params
from mjsim.sim.fastscore_sht import score_shuitou, sht_params
from mjsim.sim.fastscore_tdh import score_tuidaohu, tdh_params
from mjsim.sim.fastscore_xz import score_xuezhan, xz_params
from mjsim.sim.state import ArraysStructType, register_arrays_struct


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


structref.define_proxy(Scoring, ScoringType, ["jph", "tdh", "xz", "sht", "tables"])


def scoring(ruleset) -> Scoring:
    return _new_scoring(
        score_params(ruleset), tdh_params(ruleset), xz_params(ruleset), sht_params(ruleset), hand_tables()
    )


@kernel
def _new_scoring(jph, tdh, xz, sht, tables):
    """Build the struct in compiled code (cached), not with ``Scoring(...)`` from Python, which compiles
    the proxy's constructor again in every process."""
    return Scoring(jph, tdh, xz, sht, tables)


@njit_borrowed
def score_win(
    family,
    forms,
    quads,
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
    the minimum fan).  ``real``: concealed non-wild tiles incl. the winning tile; ``wilds``: wild tiles held;
    ``held``: every concealed tile, wilds at face value (TDH-H7, SHT-T1 财神 counts); ``ctx``: the 水头
    scorer's context (flowers, 财神 kinds; :mod:`mjsim.sim.fastscore_sht`), unread by the other families."""
    return score_parts(family, forms, quads, sc.jph, sc.tdh, sc.xz, sc.sht, sc.tables, real, wilds, held, win_tile,
                       meld_kind, meld_tile, n_melds, flags, seat_offset, round_wind, discard_winners, found, scratch,
                       ctx)  # fmt: skip


@njit_borrowed
def score_parts(family, forms, quads, jph, tdh, xz, sht, tb, real, wilds, held, win_tile, meld_kind, meld_tile, n_melds,
                flags, seat_offset, round_wind, discard_winners, found, scratch, ctx):  # fmt: skip
    """:func:`score_win` with the scorer's tables given apart (``Scoring``'s ``jph``, ``tdh``, ``xz``, ``sht``,
    ``tables``), for the borrowing helpers (a struct reference needs reference counting)."""
    if family == 0:
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
    if family == 3:
        return score_shuitou(real, wilds, held, meld_kind, meld_tile, n_melds, flags, seat_offset, sht, tb, found, ctx)
    if family == 2:
        if wilds > 0:
            return NOT_A_WIN  # 血战 has no wild tiles (108 suit tiles)
        return score_xuezhan(real, win_tile, meld_kind, meld_tile, n_melds, flags, seat_offset, xz, tb, found)
    return score_tuidaohu(real, wilds, held, win_tile, meld_kind, meld_tile, n_melds, flags, seat_offset, tdh, tb,
                          found, scratch)  # fmt: skip
