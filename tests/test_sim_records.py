"""The Arrow columns a run writes equal the readable row-by-row reference (``rows_to_columns``).

Runs write ``arrow_columns`` (whole columns from the numpy buffers); the
reference builds each row in Python.  They must agree value for value on
every column, over presets that exercise wins of every kind, several
winners, kongs, liabilities, wild tiles and both horse schemes.
"""

import numpy as np
import pytest

from mjsim import ruleset
from mjsim.io.schema import COLUMNS
from mjsim.sim.records import arrow_columns, flower_texts, hand_texts, rows_to_columns
from mjsim.sim.runner import play_sessions, seat_policies
from mjsim.tiles import parse_counts

RUN_CONSTANTS = {"run_id", "ruleset", "ruleset_hash", "mjsim_version", "policies"}
CASES = [
    ("jipinghu", "random", {}),
    ("jipinghu", "efficiency", {}),
    ("jipinghu_5fan", "efficiency;value;defensive;random", {}),
    ("tuidaohu", "efficiency", {}),
    ("tuidaohu_dianpao", "random", {}),
    ("tuidaohu_ghost", "value", {}),
    ("tuidaohu", "efficiency", {"horses": "winner"}),
]


def _plain(value):
    """One cell of the reference as the Python value Arrow gives back (numpy scalars and rows to lists)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def _both_readers(preset, policy, options):
    """600 hands in sessions of 4, read by ``arrow_columns`` and by ``rows_to_columns`` (same seed, same hands)."""
    seats = seat_policies(policy)
    rules = ruleset(preset, **options)
    read = []
    for as_arrow in (True, False):
        chunks = list(play_sessions(rules, seats, seed=23, first_session=0, end_session=150, session_length=4,
                                    tables=64, chunk_rows=600, as_arrow=as_arrow))  # fmt: skip
        assert len(chunks) == 1
        read.append(chunks[0])
    return read


@pytest.mark.parametrize(("preset", "policy", "options"), CASES)
def test_arrow_columns_equal_the_reference_rows(preset, policy, options):
    fast, slow = _both_readers(preset, policy, options)
    assert set(fast) == set(slow) == set(COLUMNS) - RUN_CONSTANTS
    assert len(fast["hand_id"]) == 600
    for name in fast:
        expected = [_plain(v) for v in slow[name]]
        assert fast[name].to_pylist() == expected, name


def test_the_cases_cover_what_the_columns_encode():
    # the comparison above means something only if the hands hold these features
    seen = {"several_winners": False, "kongs": False, "liable": False, "wilds": False, "horses": False,
            "melds": False, "patterns": False}  # fmt: skip
    for preset, policy, options in CASES:
        cols = _both_readers(preset, policy, options)[1]
        seen["several_winners"] |= any(len(w) > 1 for w in cols["winners"])
        seen["kongs"] |= any(cols["kongs"])
        seen["liable"] |= any(x is not None for x in cols["liable"])
        seen["wilds"] |= any(cols["wilds"])
        seen["horses"] |= any(cols["horses"])
        seen["melds"] |= any(any(m) for m in cols["win_melds"])
        seen["patterns"] |= any(any(p) for p in cols["patterns"])
    assert all(seen.values()), seen


def test_arrow_columns_of_an_empty_buffer_are_empty():
    from mjsim.sim.records import allocate_records

    cols = arrow_columns(allocate_records(4), 0)
    reference = rows_to_columns(allocate_records(4), 0)
    assert set(cols) == set(reference)
    assert all(len(v) == 0 for v in cols.values())


def test_hand_texts_write_tile_notation_row_by_row():
    hands = ["123m456p789s11z", "19m19p19s1234567z5z", "5555m", ""]
    counts = np.array([parse_counts(h) if h else np.zeros(34, np.int8) for h in hands])
    assert hand_texts(counts).to_pylist() == ["123m456p789s11z", "19m19p19s12345567z", "5555m", ""]
    assert hand_texts(counts, np.array([True, False, True, True])).to_pylist()[1] == ""


def test_flower_texts_write_flowers_then_white_dragons():
    # SHT-P1 slots: 1f..8f, then the count of 白板 set aside as flowers
    slots = np.zeros((4, 9), np.int8)
    slots[0, [0, 2]] = 1
    slots[1, 8] = 2
    slots[2, [7, 8]] = 1
    assert flower_texts(slots, np.ones(4, bool)).to_pylist() == ["13f", "55z", "8f5z", ""]
