"""Batched hand evaluation: winning check, shanten, winning tiles.

Every function takes a count array of shape ``(34,)`` or ``(B, 34)`` (concealed
tiles only; exposed melds are left out, so a hand with ``k`` melds holds
``3 * (4 - k) + 1`` or ``+ 2`` tiles, and a 16-tile hand one set more) and
works on the whole batch with a handful of numpy operations: the four
components' codes come from one small matrix product (exact in float32, codes
stay below 2**24), the tables of :mod:`mjsim.hand.tables` are gathered, and
the components are combined by a min-plus over ``(sets, pair)``.

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

from mjsim.hand.tables import FEATURE_BITS, MAX_SETS, UNREACHABLE, load_tables
from mjsim.tiles import N_KINDS

FORMS = ("standard", "seven_pairs", "seven_pairs_distinct", "thirteen_orphans")
_ALL = ("standard", "seven_pairs", "thirteen_orphans")
MAX_WILDS = 8
MAX_TILES = 3 * MAX_SETS + 2

_COMPONENT_WEIGHTS = np.zeros((N_KINDS, 4), dtype=np.float32)
for _suit in range(3):
    _COMPONENT_WEIGHTS[_suit * 9 : _suit * 9 + 9, _suit] = 5.0 ** np.arange(8, -1, -1)
_COMPONENT_WEIGHTS[27:34, 3] = 5.0 ** np.arange(6, -1, -1)


def _as_batch(counts) -> tuple[np.ndarray, bool]:
    """Validate counts and return them as ``(B, 34)`` int8 plus whether input was one hand."""
    arr = np.asarray(counts)
    single = arr.ndim == 1
    if single:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] != N_KINDS:
        raise ValueError(f"counts must have shape (34,) or (B, 34), got {np.shape(counts)}")
    if arr.dtype != np.int8:
        if arr.size and (arr.min() < 0 or arr.max() > 4):
            raise ValueError("counts must lie in 0..4 for every tile kind")
        arr = arr.astype(np.int8)
    elif arr.size and (arr.min() < 0 or arr.max() > 4):
        raise ValueError("counts must lie in 0..4 for every tile kind")
    return arr, single


def _forms(form) -> tuple[str, ...]:
    names = (form,) if isinstance(form, str) else tuple(form)
    if names == ("all",):
        return _ALL
    for name in names:
        if name not in FORMS:
            raise ValueError(f"form {name!r} is not one of {['all', *FORMS]}")
    return names


def component_codes(counts: np.ndarray) -> np.ndarray:
    """Base-5 codes ``(B, 4)`` of the three suits and the honours."""
    return (counts.astype(np.float32) @ _COMPONENT_WEIGHTS).astype(np.int32)


def _wilds_array(wilds, batch: int) -> np.ndarray:
    if wilds is None:
        return np.zeros(batch, dtype=np.int16)
    w = np.broadcast_to(np.asarray(wilds), (batch,)).astype(np.int16)
    if w.size and (w.min() < 0 or w.max() > MAX_WILDS):
        raise ValueError(f"wilds must lie in 0..{MAX_WILDS}, got {np.unique(w).tolist()}")
    return w


def _features(codes: np.ndarray) -> np.ndarray:
    """Per-component counting facts ``(B, 4)`` uint32 (see ``FEATURE_BITS``)."""
    suit, honour = load_tables()
    return np.concatenate([suit.features[codes[:, :3]], honour.features[codes[:, 3:]]], axis=1)


def _field(features: np.ndarray, name: str) -> np.ndarray:
    shift, width = FEATURE_BITS[name]
    return (features >> np.uint32(shift)) & np.uint32((1 << width) - 1)


def _summed(features: np.ndarray, name: str) -> np.ndarray:
    return _field(features, name).sum(axis=1, dtype=np.int16)


def _standard_win(codes: np.ndarray, features: np.ndarray, wilds: np.ndarray) -> np.ndarray:
    if not wilds.any():
        complete = _field(features, "complete").all(axis=1)
        return complete & (_summed(features, "has_pair") == 1)
    # Each component completes its own tiles with the fewest wilds; the pair
    # sits in one component or is made of two wilds; spare wilds form sets.
    suit, honour = load_tables()
    need = np.concatenate([suit.exact[codes[:, :3]], honour.exact[codes[:, 3:]]], axis=1)
    need = need.astype(np.int16)  # (B, 4 components, pair 0/1)
    no_pair = need[:, :, 0].sum(axis=1)
    best = no_pair + 2  # two wilds as the pair
    for comp in range(4):
        best = np.minimum(best, no_pair - need[:, comp, 0] + need[:, comp, 1])
    return best <= wilds


def _seven_pairs_win(features: np.ndarray, total: np.ndarray, wilds: np.ndarray, distinct: bool) -> np.ndarray:
    ok = (total == 14) & (_summed(features, "odd_counts") <= wilds)  # a wild pairs each odd count
    if distinct:
        ok &= _field(features, "at_most_two").all(axis=1)
    return ok


def _orphans_win(features: np.ndarray, total: np.ndarray, wilds: np.ndarray) -> np.ndarray:
    missing = 13 - _summed(features, "orphan_kinds")
    doubled = _summed(features, "orphan_pair_kinds")
    shape_ok = _field(features, "orphans_only").all(axis=1) & ~_field(features, "orphan_over_two").any(axis=1)
    return shape_ok & (doubled <= 1) & (total == 14) & (missing + (doubled == 0) <= wilds)


def is_win(counts, form="all", wilds=None):
    """Whether each hand is complete in one of the forms.

    ``wilds`` is the number of wild tiles per hand (0-8, scalar or ``(B,)``),
    *not* included in ``counts``; a wild stands for any tile, as long as no
    kind exceeds four copies in the completed concealed hand.
    Returns a bool array ``(B,)`` (or a bool for one hand).
    """
    arr, single = _as_batch(counts)
    w = _wilds_array(wilds, arr.shape[0])
    total = arr.sum(axis=1, dtype=np.int16) + w
    codes = component_codes(arr)
    features = _features(codes)
    result = np.zeros(arr.shape[0], dtype=bool)
    for name in _forms(form):
        if name == "standard":
            result |= (total % 3 == 2) & _standard_win(codes, features, w)
        elif name in ("seven_pairs", "seven_pairs_distinct"):
            result |= _seven_pairs_win(features, total, w, distinct=name == "seven_pairs_distinct")
        else:
            result |= _orphans_win(features, total, w)
    return bool(result[0]) if single else result


def _min_plus(a: np.ndarray, b: np.ndarray, max_sets: int) -> np.ndarray:
    """Combine two ``(B, sets, 2)`` need arrays: fewest tiles for m sets, p pairs in total."""
    out = np.full((a.shape[0], max_sets + 1, 2), UNREACHABLE * 4, dtype=np.int16)
    for m1 in range(max_sets + 1):
        for m2 in range(max_sets + 1 - m1):
            m = m1 + m2
            out[:, m, 0] = np.minimum(out[:, m, 0], a[:, m1, 0] + b[:, m2, 0])
            out[:, m, 1] = np.minimum(out[:, m, 1], a[:, m1, 1] + b[:, m2, 0])
            out[:, m, 1] = np.minimum(out[:, m, 1], a[:, m1, 0] + b[:, m2, 1])
    return out


def _standard_shanten(codes: np.ndarray, sets_needed: np.ndarray) -> np.ndarray:
    suit, honour = load_tables()
    top = int(sets_needed.max()) if sets_needed.size else 0
    need = [suit.partial[codes[:, s], : top + 1].astype(np.int16) for s in range(3)]
    need.append(honour.partial[codes[:, 3], : top + 1].astype(np.int16))
    combined = _min_plus(_min_plus(need[0], need[1], top), _min_plus(need[2], need[3], top), top)
    # tiles still to add to reach a complete hand, minus one: distance to ready
    return combined[np.arange(codes.shape[0]), sets_needed, 1] - 1


def _seven_pairs_shanten(features: np.ndarray, distinct: bool) -> np.ndarray:
    if distinct:  # the formula of the common riichi libraries, so they can be cross-checked
        kinds = _summed(features, "kinds")
        return 6 - _summed(features, "pair_kinds") + np.maximum(0, 7 - kinds)
    return 6 - np.minimum(7, _summed(features, "pairs_with_quads"))


def _orphans_shanten(features: np.ndarray) -> np.ndarray:
    has_pair = _summed(features, "orphan_pair_kinds") > 0
    return 13 - _summed(features, "orphan_kinds") - has_pair


def shanten(counts, form="all"):
    """Distance to ready (0 = ready 听牌, -1 = complete) for each hand.

    Hands must hold ``3n + 1`` or ``3n + 2`` tiles (n sets to make).  The
    value is the fewest tile exchanges to reach a ready hand, counting only
    hands that hold at most four copies of a kind.  Seven pairs and thirteen
    orphans apply to 13/14-tile hands only.  Returns ``int16`` ``(B,)``.
    """
    arr, single = _as_batch(counts)
    total = arr.sum(axis=1, dtype=np.int16)
    if (total % 3 == 0).any():
        bad = int(total[total % 3 == 0][0])
        raise ValueError(f"a hand of {bad} tiles has no shanten: hands hold 3n+1 or 3n+2 tiles")
    if total.max(initial=0) > MAX_TILES:
        raise ValueError(f"hands hold at most {MAX_TILES} tiles, got {int(total.max())}")
    codes = component_codes(arr)
    features = _features(codes)
    result = np.full(arr.shape[0], 99, dtype=np.int16)
    concealed_full = (total >= 13) & (total <= 14)
    for name in _forms(form):
        if name == "standard":
            value = _standard_shanten(codes, (total // 3).astype(np.intp))
        elif name in ("seven_pairs", "seven_pairs_distinct"):
            value = np.where(concealed_full, _seven_pairs_shanten(features, name == "seven_pairs_distinct"), 99)
        else:
            value = np.where(concealed_full, _orphans_shanten(features), 99)
        result = np.minimum(result, value)
    return int(result[0]) if single else result


def winning_tiles(counts, form="all", wilds=None):
    """Bool mask ``(B, 34)``: tile kinds whose addition completes each hand.

    A kind of which the hand already holds all four copies is never a winning
    tile (it cannot be drawn).
    """
    arr, single = _as_batch(counts)
    batch = arr.shape[0]
    candidates = np.repeat(arr, N_KINDS, axis=0)
    candidates[np.arange(batch * N_KINDS), np.tile(np.arange(N_KINDS), batch)] += 1
    w = np.repeat(_wilds_array(wilds, batch), N_KINDS)
    fits = candidates.max(axis=1) <= 4
    wins = np.zeros(batch * N_KINDS, dtype=bool)
    wins[fits] = is_win(candidates[fits], form=form, wilds=w[fits])
    mask = wins.reshape(batch, N_KINDS)
    return mask[0] if single else mask
