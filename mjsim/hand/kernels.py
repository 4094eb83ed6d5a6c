"""Batched hand evaluation: winning check, shanten, winning tiles.

Every function takes a count array of shape ``(34,)`` or ``(B, 34)`` (concealed
tiles only; exposed melds are left out, so a hand with ``k`` melds holds
``3 * (4 - k) + 1`` or ``+ 2`` tiles, and a 16-tile hand one set more), checks
it here and hands the batch to a compiled kernel of :mod:`mjsim.hand.batch`
that loops over the hands reading the tables of :mod:`mjsim.hand.tables`.
That module (and numba) is imported on the first call, not with
:mod:`mjsim.hand`.

Forms (C-P5):

``"standard"``
    ``n`` sets + one pair, ``n = tiles // 3`` (4 for 14 tiles, 5 for 17);
``"seven_pairs"``
    seven pairs, four equal tiles counting as two pairs (C-P5, TDH-P4);
``"seven_pairs_distinct"``
    seven pairs of seven different kinds (the Japanese rule, for cross-checks);
``"thirteen_orphans"``
    one of each terminal and honour plus one duplicate;
``"all"``
    standard, seven pairs and thirteen orphans.

``form`` may also be a tuple of these names.  Seven pairs and thirteen orphans
need a fully concealed 13/14-tile hand.
"""

from __future__ import annotations

import numpy as np

from mjsim.hand.tables import MAX_SETS
from mjsim.tiles import N_KINDS

FORMS = ("standard", "seven_pairs", "seven_pairs_distinct", "thirteen_orphans")
_ALL = ("standard", "seven_pairs", "thirteen_orphans")
MAX_WILDS = 8
MAX_TILES = 3 * MAX_SETS + 2


def _as_batch(counts) -> tuple[np.ndarray, bool]:
    """Validate counts and return them as C-ordered, writeable ``(B, 34)`` int8 plus whether input was one hand."""
    arr = np.asarray(counts)
    single = arr.ndim == 1
    if single:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] != N_KINDS:
        raise ValueError(f"counts must have shape (34,) or (B, 34), got {np.shape(counts)}")
    if arr.size and (arr.min() < 0 or arr.max() > 4):
        raise ValueError("counts must lie in 0..4 for every tile kind")
    # one layout for the kernels: each compiles for a single signature
    batch = np.require(arr.astype(np.int8, copy=False), requirements=("C", "W"))
    if batch is not arr and batch.size and (batch.min() < 0 or batch.max() > 4):  # e.g. NaN: never index past a table
        raise ValueError("counts must lie in 0..4 for every tile kind")
    return batch, single


def _forms(form) -> tuple[str, ...]:
    names = (form,) if isinstance(form, str) else tuple(form)
    if names == ("all",):
        return _ALL
    for name in names:
        if name not in FORMS:
            raise ValueError(f"form {name!r} is not one of {['all', *FORMS]}")
    return names


def _form_bits(form) -> int:
    from mjsim.hand.batch import FORM_BITS

    bits = 0
    for name in _forms(form):
        bits |= FORM_BITS[name]
    return bits


def _wilds_array(wilds, batch: int) -> np.ndarray:
    if wilds is None:
        return np.zeros(batch, dtype=np.int16)
    w = np.broadcast_to(np.asarray(wilds), (batch,)).astype(np.int16)
    if w.size and (w.min() < 0 or w.max() > MAX_WILDS):
        raise ValueError(f"wilds must lie in 0..{MAX_WILDS}, got {np.unique(w).tolist()}")
    return w


def is_win(counts, form="all", wilds=None):
    """Whether each hand is complete in one of the forms.

    ``wilds`` is the number of wild tiles per hand (0-8, scalar or ``(B,)``),
    *not* included in ``counts``; a wild stands for any tile, as long as no
    kind exceeds four copies in the completed concealed hand.
    Returns a bool array ``(B,)`` (or a bool for one hand).
    """
    from mjsim.hand import batch

    arr, single = _as_batch(counts)
    w = _wilds_array(wilds, arr.shape[0])
    bits = _form_bits(form)
    suit_exact, honour_exact = batch.tables()[2:]
    result = np.empty(arr.shape[0], dtype=bool)
    batch.is_win_batch(arr, w, bits, suit_exact, honour_exact, result)
    return bool(result[0]) if single else result


def shanten(counts, form="all"):
    """Distance to ready (0 = ready 听牌, -1 = complete) for each hand.

    Hands must hold ``3n + 1`` or ``3n + 2`` tiles (n sets to make).  The
    value is the fewest tile exchanges to reach a ready hand, counting only
    hands that hold at most four copies of a kind.  Seven pairs and thirteen
    orphans apply to 13/14-tile hands only.  Returns ``int16`` ``(B,)``.
    """
    from mjsim.hand import batch

    arr, single = _as_batch(counts)
    try:
        bits, form_error = _form_bits(form), None
    except (ValueError, TypeError) as error:  # raised after the tile-count checks, as they come first
        bits, form_error = 0, error
    suit_partial, honour_partial = batch.tables()[:2]
    result = np.empty(arr.shape[0], dtype=np.int16)
    first_bad, most = batch.shanten_batch(arr, bits, suit_partial, honour_partial, result)
    if first_bad >= 0:
        raise ValueError(f"a hand of {first_bad} tiles has no shanten: hands hold 3n+1 or 3n+2 tiles")
    if most > MAX_TILES:
        raise ValueError(f"hands hold at most {MAX_TILES} tiles, got {most}")
    if form_error is not None:
        raise form_error
    return int(result[0]) if single else result


def winning_tiles(counts, form="all", wilds=None):
    """Bool mask ``(B, 34)``: tile kinds whose addition completes each hand.

    A kind of which the hand already holds all four copies is never a winning
    tile (it cannot be drawn).
    """
    from mjsim.hand import batch

    arr, single = _as_batch(counts)
    w = _wilds_array(wilds, arr.shape[0])
    bits = _form_bits(form)
    suit_exact, honour_exact = batch.tables()[2:]
    mask = np.empty((arr.shape[0], N_KINDS), dtype=bool)
    batch.winning_tiles_batch(arr, w, bits, suit_exact, honour_exact, mask)
    return mask[0] if single else mask
