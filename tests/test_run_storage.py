"""Runs a house can trust (issue 9): atomic and resumable runs, integrity checks, output safety, a standard dataset.

Each test provokes one way to lose or mix data — an interrupted run, a killed
overwrite, a flipped bit, a foreign part, a full disk, a hostile label — and
checks that a complete run stays correct and an incomplete one is refused or
resumed.
"""

import errno
import json
import warnings

import numpy as np
import polars as pl
import pyarrow.dataset as ds
import pytest

from mjsim import ruleset
from mjsim.analysis.variants import build_variants, directory_name, run_variants
from mjsim.cli import main
from mjsim.io import IncompleteRun, read_hands, read_run_info, scan_hands
from mjsim.io.store import RunStore
from mjsim.sim import parallel
from mjsim.sim.parallel import Interrupted, RunSpec, resume, simulate
from mjsim.sim.replay import differences_from_log

POLICIES = ("efficiency", "random", "value", "defensive")


def _spec(hands=160, rules="jipinghu", **kw):
    return RunSpec(ruleset(rules), POLICIES, hands, session_length=4, seed=11, run_id="fixed", chunk_hands=40, **kw)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted run: 160 hands in 4 chunks."""
    out = tmp_path_factory.mktemp("reference") / "run"
    simulate(_spec(), out, progress=False)
    return out


def _interrupt_at(monkeypatch, chunk_to_stop: int):
    real = parallel.run_chunk

    def stopping(spec, chunk, *args, **kwargs):
        if chunk == chunk_to_stop:
            raise KeyboardInterrupt
        return real(spec, chunk, *args, **kwargs)

    monkeypatch.setattr(parallel, "run_chunk", stopping)


def test_an_interrupted_run_is_refused_then_resumed_to_the_same_rows(tmp_path, monkeypatch, reference):
    out = tmp_path / "run"
    _interrupt_at(monkeypatch, 2)
    with pytest.raises(Interrupted, match=r"2 of 4 chunks are written; resume with `mjsim simulate --resume"):
        simulate(_spec(), out, progress=False)
    assert not list(out.rglob("*.tmp"))
    assert not list(out.glob("*.parquet"))  # nothing visible to a Parquet reader before the commit
    with pytest.raises(IncompleteRun, match=r"incomplete run: 2 of 4 chunks written \(missing 2, 3\)"):
        read_hands(out)
    with pytest.raises(IncompleteRun):
        read_run_info(out)
    with pytest.warns(UserWarning, match="incomplete run"):
        partial = read_hands(out, allow_partial=True)
    assert partial.height == 80
    monkeypatch.undo()
    info = resume(out, progress=False)
    assert info["state"] == "complete"
    assert read_hands(out).equals(read_hands(reference))  # every column, every row


def test_resume_writes_only_the_missing_chunks(tmp_path, monkeypatch):
    out = tmp_path / "run"
    _interrupt_at(monkeypatch, 3)
    with pytest.raises(Interrupted):
        simulate(_spec(), out, progress=False)
    monkeypatch.undo()
    played = []
    real = parallel.run_chunk
    monkeypatch.setattr(
        parallel, "run_chunk", lambda spec, chunk, *a, **k: played.append(chunk) or real(spec, chunk, *a, **k)
    )
    resume(out, progress=False)
    assert played == [3]


def test_a_killed_overwrite_leaves_the_old_run_whole(tmp_path, monkeypatch, reference):
    out = tmp_path / "run"
    simulate(_spec(), out, progress=False)
    before = read_hands(out)
    _interrupt_at(monkeypatch, 1)
    other = RunSpec(ruleset("jipinghu"), ("random",), 160, session_length=4, seed=99, run_id="new", chunk_hands=40)
    with pytest.raises(Interrupted):
        simulate(other, out, progress=False, overwrite=True)
    assert read_hands(out).equals(before)  # old metadata still describes old parts
    assert read_run_info(out)["run_id"] == "fixed"
    monkeypatch.undo()
    simulate(other, out, progress=False, overwrite=True)
    after = read_hands(out)
    assert after["run_id"].unique().to_list() == ["new"] and after.height == 160
    assert not (out / "_staging").exists()


def test_an_existing_or_unfinished_run_is_never_replaced_silently(tmp_path, monkeypatch):
    out = tmp_path / "run"
    simulate(_spec(hands=40), out, progress=False)
    with pytest.raises(ValueError, match="already holds a run; choose another directory or pass --overwrite"):
        simulate(_spec(hands=40), out, progress=False)
    unfinished = tmp_path / "unfinished"
    _interrupt_at(monkeypatch, 0)
    with pytest.raises(Interrupted):
        simulate(_spec(), unfinished, progress=False)
    with pytest.raises(ValueError, match="holds an unfinished run; continue it with `mjsim simulate --resume"):
        simulate(_spec(), unfinished, progress=False)
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    with pytest.raises(ValueError, match="is not empty and is not an mjsim run directory"):
        simulate(_spec(hands=40), foreign, progress=False, overwrite=True)
    assert (foreign / "notes.txt").read_text() == "keep me"


def test_a_full_disk_leaves_no_partial_or_empty_metadata(tmp_path, monkeypatch):
    out = tmp_path / "run"
    real_write = RunStore.write_bytes

    def full_disk_at_commit(self, relative, data):
        if relative == "_run.json":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(self, relative, data)

    monkeypatch.setattr(RunStore, "write_bytes", full_disk_at_commit)
    with pytest.raises(OSError, match="No space left"):
        simulate(_spec(hands=80), out, progress=False)
    assert not (out / "_run.json").exists()
    assert not list(out.rglob("*.tmp"))
    monkeypatch.undo()
    with pytest.raises(IncompleteRun):
        read_hands(out)
    resume(out, progress=False)
    assert read_hands(out).height == 80


def test_atomic_write_keeps_the_old_file_when_the_disk_fills(tmp_path, monkeypatch):
    store = RunStore(tmp_path)
    store.write_json("meta.json", {"old": True})
    import os

    def no_space(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    with pytest.raises(OSError, match=r"No space left on device: '.*meta\.json'"):
        store.write_json("meta.json", {"new": True})
    monkeypatch.undo()
    assert json.loads((tmp_path / "meta.json").read_text()) == {"old": True}
    assert [p.name for p in tmp_path.iterdir()] == ["meta.json"]


def _copy_run(source, target):
    import shutil

    shutil.copytree(source, target)
    return target


def test_a_flipped_bit_or_truncation_in_a_part_is_an_error_naming_the_file(tmp_path, reference):
    for damage in ("flip", "truncate"):
        run = _copy_run(reference, tmp_path / damage)
        part = sorted(run.glob("part-*.parquet"))[1]
        data = bytearray(part.read_bytes())
        if damage == "flip":
            data[len(data) // 2] ^= 0x10
        else:
            data = data[: len(data) - 100]
        part.write_bytes(bytes(data))
        with pytest.raises(ValueError, match=rf"{part.name} is corrupt or truncated"):
            read_hands(run)


def test_a_foreign_part_is_an_error_naming_the_file(tmp_path, reference):
    run = _copy_run(reference, tmp_path / "foreign")
    other = tmp_path / "other"
    simulate(_spec(hands=40, rules="jipinghu_5fan"), other, progress=False)
    (run / "part-00009-0000.parquet").write_bytes((other / "part-00000-0000.parquet").read_bytes())
    with pytest.raises(ValueError, match=r"part-00009-0000.parquet is not part of the run"):
        read_hands(run)
    (run / "part-00009-0000.parquet").unlink()
    (run / "part-00000-0000.parquet").write_bytes((other / "part-00000-0000.parquet").read_bytes())
    with pytest.raises(ValueError, match=r"part-00000-0000.parquet is corrupt"):
        read_hands(run)


def test_parts_carry_page_checksums_and_run_metadata(reference):
    import pyarrow.parquet as pq

    part = sorted(reference.glob("part-*.parquet"))[0]
    meta = pq.ParquetFile(part).schema_arrow.metadata
    assert meta[b"mjsim_run_id"] == b"fixed" and meta[b"mjsim_schema_version"] == b"2"
    table = pq.read_table(part, page_checksum_verification=True)
    assert table.num_rows == 40


def test_the_run_directory_is_a_standard_parquet_dataset(reference):
    import duckdb

    expected = read_hands(reference)
    assert ds.dataset(str(reference)).to_table().num_rows == 160
    assert pl.scan_parquet(f"{reference}/*.parquet").select(pl.len()).collect().item() == 160
    count = duckdb.sql(f"select count(*), sum(turns) from read_parquet('{reference}/*.parquet')").fetchall()[0]
    assert count == (160, expected["turns"].sum())


def test_runs_of_different_schema_versions_read_together(tmp_path, reference):
    legacy = tmp_path / "legacy"
    legacy.mkdir()
    old = read_hands(reference).drop("wall_left").with_columns(pl.lit("old").alias("run_id"))
    old.write_parquet(legacy / "part-00000-0000.parquet")
    (legacy / "run.json").write_text(json.dumps({"schema_version": 1, "ruleset": "jipinghu"}))
    both = read_hands(reference, legacy)
    assert both.height == 320
    assert both.filter(pl.col("run_id") == "old")["wall_left"].null_count() == 160
    assert both.filter(pl.col("run_id") == "fixed")["wall_left"].null_count() == 0
    future = _copy_run(reference, tmp_path / "future")
    meta = json.loads((future / "_run.json").read_text())
    (future / "_run.json").write_text(json.dumps(meta | {"schema_version": 99}))
    with pytest.raises(ValueError, match="schema version 99; this mjsim reads versions up to 2"):
        read_hands(future)


def test_the_same_run_twice_is_refused(reference):
    with pytest.raises(ValueError, match="given twice"):
        scan_hands(reference, reference)


def test_metadata_records_the_code_and_the_backend(reference):
    import mjsim

    info = read_run_info(reference)
    assert info["mjsim_version"] == mjsim.code_version() and "+src." in info["mjsim_version"]
    assert info["backend"] == {"kind": "local", "workers": 1}
    assert read_hands(reference)["mjsim_version"].unique().to_list() == [mjsim.code_version()]


# ---- output safety -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "label, name",
    [("../victim", "__victim"), ("/etc/passwd", "_etc_passwd"), ("a\x1b[31mred", "a_[31mred"), ("..", "_"),
     ("jipinghu-cap=3", "jipinghu-cap=3"), (".hidden", "hidden"), ("鸡平胡 house", "鸡平胡_house")],
)  # fmt: skip
def test_variant_directory_names_never_leave_the_output(label, name):
    assert directory_name(label) == name


def test_a_house_file_named_to_escape_writes_only_inside_out(tmp_path):
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("do not delete")
    house = tmp_path / "house.toml"
    house.write_text('extends = "jipinghu"\nname = "../victim"\ncap = 4\n')
    out = tmp_path / "cmp" / "out"
    variants = build_variants([str(house)], ["cap=3,5"])
    run_variants(variants, ("random",), 40, session_length=4, seed=1, workers=1, out_dir=out, progress=False)
    assert sorted(p.name for p in victim.iterdir()) == ["precious.txt"]
    made = sorted(p.name for p in out.iterdir())
    assert made == ["__victim-cap=3", "__victim-cap=5", "comparison.json"]


@pytest.mark.slow
def test_compare_refuses_to_replace_a_variant_run_without_overwrite(tmp_path, capsys):
    out = tmp_path / "cmp"
    args = ["compare", "--vary", "cap=3,5", "--hands", "40", "--session-length", "4", "--workers", "1", "--out"]
    assert main([*args, str(out)]) == 0
    (out / "comparison.json").unlink()  # even without the comparison's own file, the runs are protected
    before = read_hands(out / "jipinghu-cap=3")
    assert main([*args, str(out)]) == 2
    assert "already holds a run" in capsys.readouterr().err
    assert read_hands(out / "jipinghu-cap=3").equals(before)
    assert main([*args, str(out), "--overwrite"]) == 0


def test_replay_says_when_the_log_differs():
    row = {"ruleset_hash": "h", "seed": 5, "winners": [1], "win_kind": ["discard"], "fan": [2], "win_hands": ["x"],
           "net": [-4, 4, 0, 0]}  # fmt: skip
    same = dict(row)
    assert differences_from_log(same, row, "h") == []
    assert differences_from_log(same | {"net": [0, 0, 0, 0]}, row, "h") == ["net 0 0 0 0 replayed, -4 4 0 0 logged"]
    assert "ruleset hash" in differences_from_log(same, row, "other")[0]
    assert differences_from_log(same | {"seed": 6}, row, "h") == ["seed 6 replayed, 5 logged"]
    assert differences_from_log(same | {"winners": []}, row, "h") == ["winners none replayed, 1 logged"]


def test_cli_simulate_resume_and_partial_report(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    _interrupt_at(monkeypatch, 1)
    cli = ["simulate", "--hands", "160", "--session-length", "4", "--chunk-hands", "40", "--out", str(out)]
    assert main([*cli, "--policy", "random"]) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("mjsim: interrupted:") and f"--resume {out}" in err[0]
    assert main(["report", str(out), "--out", str(tmp_path / "r.html")]) == 2
    assert "incomplete run" in capsys.readouterr().err
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["report", str(out), "--partial", "--out", str(tmp_path / "r.html")]) == 0
    monkeypatch.undo()
    assert main(["simulate", "--resume", str(out)]) == 0
    assert read_hands(out).height == 160
    assert np.all(np.array(read_hands(out)["net"].to_list()).sum(axis=1) == 0)
