"""Issue 9 item 4: a run's rows never depend on how it is split.

The same seed is played with different chunk sizes (``chunk_rows``), tables
per batch (``tables``), chunk boundaries and worker counts
(``mjsim.sim.parallel.simulate`` with one and two workers), for a 鸡平胡 and a
推倒胡 dealer-horse preset in sessions of four hands, and every column is
compared row by row (sorted by hand_id).  Tables are reused across sessions
when there are fewer tables than sessions, so state a hand leaves behind
would show up here.
"""

import polars as pl
import pyarrow as pa
import pytest
from quick import first_quick

from mjsim import ruleset
from mjsim.io import read_hands
from mjsim.io.runs import read_manifest
from mjsim.sim.parallel import RunSpec, simulate
from mjsim.sim.runner import play_sessions, seat_policies

PRESETS = first_quick(["jipinghu", "tuidaohu"])  # tuidaohu: dealer horses (TDH-M1)
HANDS, SESSION_LENGTH, SEED = 800, 4, 17
POLICIES = "efficiency;value;defensive;efficiency"


def _played(preset, tables, chunk_rows) -> pl.DataFrame:
    chunks = play_sessions(
        ruleset(preset), seat_policies(POLICIES), seed=SEED, first_session=0, end_session=HANDS // SESSION_LENGTH,
        session_length=SESSION_LENGTH, tables=tables, chunk_rows=chunk_rows, as_arrow=True,
    )  # fmt: skip
    # each chunk is read out before the next: its Arrow arrays may share the engine's record buffers
    rows = [row for columns in chunks for row in pa.table(columns).to_pylist()]
    return pl.DataFrame(rows, infer_schema_length=None).sort("hand_id")


def _simulated(preset, out, workers, on_tail=None, **spec_options) -> pl.DataFrame:
    spec = RunSpec(ruleset(preset), (POLICIES,), HANDS, session_length=SESSION_LENGTH, seed=SEED, run_id="split",
                   **spec_options)  # fmt: skip
    simulate(spec, out, workers=workers, progress=False, on_tail=on_tail)
    return read_hands(out).sort("hand_id")


def _assert_same_rows(a: pl.DataFrame, b: pl.DataFrame, what: str) -> None:
    assert a.columns == b.columns and a.height == b.height == HANDS, what
    for column in a.columns:
        left, right = a[column].to_list(), b[column].to_list()
        differ = [i for i, (x, y) in enumerate(zip(left, right)) if x != y]
        assert not differ, (
            f"{what}: column {column} differs in {len(differ)} rows, first hand {a['hand_id'][differ[0]]}"
        )


@pytest.mark.parametrize("preset", PRESETS)
def test_rows_do_not_depend_on_tables_or_chunk_rows(preset):
    whole = _played(preset, tables=64, chunk_rows=HANDS)
    _assert_same_rows(whole, _played(preset, tables=5, chunk_rows=37), f"{preset}: 5 tables, chunks of 37 rows")
    _assert_same_rows(whole, _played(preset, tables=200, chunk_rows=250), f"{preset}: a table per session")


@pytest.mark.parametrize("preset", PRESETS)
def test_rows_do_not_depend_on_chunk_boundaries_or_workers(preset, tmp_path):
    one = _simulated(preset, tmp_path / "one", workers=1)
    tails = []
    two = _simulated(preset, tmp_path / "two", workers=2, on_tail=lambda: tails.append(1), chunk_hands=HANDS // 4)
    assert len(read_manifest(tmp_path / "two")["chunks"]) == 4  # four chunks, on two workers
    assert tails == [1]  # the caller's work for the run's tail, once
    _assert_same_rows(one, two, f"{preset}: one chunk on one worker vs four chunks on two")
    # and the run's rows are the rows of a single-process loop with few tables
    few = _played(preset, tables=5, chunk_rows=37)
    _assert_same_rows(one.select(few.columns), few, f"{preset}: simulate vs 5 tables")
