"""Write runs as a directory of Parquet parts; read them back as one table.

A run directory holds ``run.json`` (the ruleset as TOML, the run's
arguments, the schema version) and ``part-CCCCC-KKKK.parquet`` files, one per
flush of chunk ``C``.  Parts are named by chunk, never by worker, so the
same run gives the same files whatever the number of workers.  Parts are
written to a temporary name and renamed, so a reader never sees half a file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from mjsim.io.schema import SCHEMA_VERSION, arrow_schema

RUN_INFO = "run.json"
RUN_CONSTANTS = ("run_id", "ruleset", "ruleset_hash", "mjsim_version")  # one value for every row of a run


class DatasetWriter:
    """Append record chunks of one run chunk as Parquet parts in ``directory``."""

    def __init__(self, directory, chunk: int, constants: dict):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.chunk = chunk
        self.constants = constants  # run_id, ruleset, ruleset_hash, mjsim_version, policies
        self.parts = 0
        self.rows = 0

    def write(self, columns: dict) -> Path:
        """Write one part: ``columns`` maps every per-hand column to Arrow arrays (or lists/numpy arrays)."""
        n = len(columns["hand_id"])
        constants = {name: [self.constants[name]] * n for name in RUN_CONSTANTS}
        constants["policies"] = [list(self.constants["policies"])] * n
        schema = arrow_schema()
        arrays = [_as_arrow(constants[f.name] if f.name in constants else columns[f.name], f.type) for f in schema]
        table = pa.Table.from_arrays(arrays, schema=schema)
        path = self.directory / f"part-{self.chunk:05d}-{self.parts:04d}.parquet"
        partial = path.with_name(path.name + f".{os.getpid()}.tmp")
        pq.write_table(table, partial, compression="zstd")
        os.replace(partial, path)
        self.parts += 1
        self.rows += n
        return path


def _as_arrow(values, dtype: pa.DataType) -> pa.Array:
    if isinstance(values, pa.Array):
        return values if values.type == dtype else values.cast(dtype)
    return pa.array(values.tolist() if hasattr(values, "tolist") else values, dtype)


def write_run_info(directory, info: dict) -> None:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    payload = {"schema_version": SCHEMA_VERSION, **info}
    (directory / RUN_INFO).write_text(json.dumps(payload, indent=2, ensure_ascii=False), encoding="utf-8")


def read_run_info(directory) -> dict:
    path = Path(directory) / RUN_INFO
    if not path.exists():
        raise ValueError(f"{directory} is not an mjsim run directory: {RUN_INFO} is missing")
    return json.loads(path.read_text(encoding="utf-8"))


def part_files(directory) -> list[Path]:
    parts = sorted(Path(directory).glob("part-*.parquet"))
    if not parts:
        raise ValueError(f"{directory} holds no hand logs (part-*.parquet)")
    return parts


def scan_hands(*directories) -> pl.LazyFrame:
    """A lazy polars scan over the hand logs of one or more run directories (each given once)."""
    resolved = [Path(d).resolve() for d in directories]
    if len(set(resolved)) < len(resolved):
        twice = next(d for d, r in zip(directories, resolved, strict=True) if resolved.count(r) > 1)
        raise ValueError(f"run directory {twice} is given twice: its hands would be counted twice")
    files = [str(p) for d in directories for p in part_files(d)]
    return pl.scan_parquet(files)


def read_hands(*directories) -> pl.DataFrame:
    """Every hand of the runs, sorted by run and hand id."""
    return scan_hands(*directories).sort("run_id", "hand_id").collect()
