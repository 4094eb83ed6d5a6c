"""The numpy hand-evaluation kernels that ``mjsim.hand`` shipped before its compiled ones, kept as a reference.

An independent implementation of ``is_win`` / ``shanten`` / ``winning_tiles``
over the same lookup tables (:mod:`mjsim.hand.tables`), vectorised over the
batch instead of looping over hands: the four components' codes come from a
matrix product, the tables are gathered, standard shanten is a min-plus over
``(sets, pair)`` of whole arrays, seven pairs and thirteen orphans read the
tables' packed counting facts (``FEATURE_BITS``), and a wild-free standard
win reads the ``complete`` fact rather than the wild-tile table.  It takes
``(B, 34)`` counts (already valid) and form names as the public API does;
input checking is left to the API.  tests/test_hand_batch.py holds the
compiled API to it exactly.
"""

from __future__ import annotations

import numpy as np

from mjsim.hand.tables import FEATURE_BITS, UNREACHABLE, load_tables

FORMS = ("standard", "seven_pairs", "seven_pairs_distinct", "thirteen_orphans")
_ALL = ("standard", "seven_pairs", "thirteen_orphans")

_COMPONENT_WEIGHTS = np.zeros((34, 4), dtype=np.float32)
for _suit in range(3):
    _COMPONENT_WEIGHTS[_suit * 9 : _suit * 9 + 9, _suit] = 5.0 ** np.arange(8, -1, -1)
_COMPONENT_WEIGHTS[27:34, 3] = 5.0 ** np.arange(6, -1, -1)


def _forms(form) -> tuple[str, ...]:
    names = (form,) if isinstance(form, str) else tuple(form)
    if names == ("all",):
        return _ALL
    assert all(name in FORMS for name in names), names
    return names


def _wilds(wilds, batch: int) -> np.ndarray:
    if wilds is None:
        return np.zeros(batch, dtype=np.int16)
    return np.broadcast_to(np.asarray(wilds), (batch,)).astype(np.int16)


def component_codes(counts: np.ndarray) -> np.ndarray:
    """Base-5 codes ``(B, 4)`` of the three suits and the honours (exact in float32: codes stay below 2**24)."""
    return (counts.astype(np.float32) @ _COMPONENT_WEIGHTS).astype(np.int32)


def _features(codes: np.ndarray) -> np.ndarray:
    suit, honour = load_tables()
    return np.concatenate([suit.features[codes[:, :3]], honour.features[codes[:, 3:]]], axis=1)


def _field(features: np.ndarray, name: str) -> np.ndarray:
    shift, width = FEATURE_BITS[name]
    return (features >> np.uint32(shift)) & np.uint32((1 << width) - 1)


def _summed(features: np.ndarray, name: str) -> np.ndarray:
    return _field(features, name).sum(axis=1, dtype=np.int16)


def _standard_win(codes, features, wilds):
    if not wilds.any():
        complete = _field(features, "complete").all(axis=1)
        return complete & (_summed(features, "has_pair") == 1)
    suit, honour = load_tables()
    need = np.concatenate([suit.exact[codes[:, :3]], honour.exact[codes[:, 3:]]], axis=1).astype(np.int16)
    no_pair = need[:, :, 0].sum(axis=1)
    best = no_pair + 2  # two wilds as the pair
    for comp in range(4):
        best = np.minimum(best, no_pair - need[:, comp, 0] + need[:, comp, 1])
    return best <= wilds


def _seven_pairs_win(features, total, wilds, distinct):
    ok = (total == 14) & (_summed(features, "odd_counts") <= wilds)
    if distinct:
        ok &= _field(features, "at_most_two").all(axis=1)
    return ok


def _orphans_win(features, total, wilds):
    missing = 13 - _summed(features, "orphan_kinds")
    doubled = _summed(features, "orphan_pair_kinds")
    shape_ok = _field(features, "orphans_only").all(axis=1) & ~_field(features, "orphan_over_two").any(axis=1)
    return shape_ok & (doubled <= 1) & (total == 14) & (missing + (doubled == 0) <= wilds)


def is_win(counts, form="all", wilds=None) -> np.ndarray:
    arr = np.asarray(counts, dtype=np.int8).reshape(-1, 34)
    w = _wilds(wilds, arr.shape[0])
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
    return result


def _min_plus(a, b, max_sets):
    out = np.full((a.shape[0], max_sets + 1, 2), UNREACHABLE * 4, dtype=np.int16)
    for m1 in range(max_sets + 1):
        for m2 in range(max_sets + 1 - m1):
            m = m1 + m2
            out[:, m, 0] = np.minimum(out[:, m, 0], a[:, m1, 0] + b[:, m2, 0])
            out[:, m, 1] = np.minimum(out[:, m, 1], a[:, m1, 1] + b[:, m2, 0])
            out[:, m, 1] = np.minimum(out[:, m, 1], a[:, m1, 0] + b[:, m2, 1])
    return out


def _standard_shanten(codes, sets_needed):
    suit, honour = load_tables()
    top = int(sets_needed.max()) if sets_needed.size else 0
    need = [suit.partial[codes[:, s], : top + 1].astype(np.int16) for s in range(3)]
    need.append(honour.partial[codes[:, 3], : top + 1].astype(np.int16))
    combined = _min_plus(_min_plus(need[0], need[1], top), _min_plus(need[2], need[3], top), top)
    return combined[np.arange(codes.shape[0]), sets_needed, 1] - 1


def _seven_pairs_shanten(features, distinct):
    if distinct:
        kinds = _summed(features, "kinds")
        return 6 - _summed(features, "pair_kinds") + np.maximum(0, 7 - kinds)
    return 6 - np.minimum(7, _summed(features, "pairs_with_quads"))


def _orphans_shanten(features):
    has_pair = _summed(features, "orphan_pair_kinds") > 0
    return 13 - _summed(features, "orphan_kinds") - has_pair


def shanten(counts, form="all") -> np.ndarray:
    """Hands must hold 3n+1 or 3n+2 tiles, at most 17 (not checked here)."""
    arr = np.asarray(counts, dtype=np.int8).reshape(-1, 34)
    total = arr.sum(axis=1, dtype=np.int16)
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
    return result


def winning_tiles(counts, form="all", wilds=None) -> np.ndarray:
    arr = np.asarray(counts, dtype=np.int8).reshape(-1, 34)
    batch = arr.shape[0]
    candidates = np.repeat(arr, 34, axis=0)
    candidates[np.arange(batch * 34), np.tile(np.arange(34), batch)] += 1
    w = np.repeat(_wilds(wilds, batch), 34)
    fits = candidates.max(axis=1) <= 4
    wins = np.zeros(batch * 34, dtype=bool)
    wins[fits] = is_win(candidates[fits], form=form, wilds=w[fits])
    return wins.reshape(batch, 34)
