"""Hand logs as Parquet parts of a run directory (see ``mjsim.io.runs`` for the layout); reading them back.

Parts are named by chunk, never by worker (``part-CCCCC-KKKK.parquet``, flush
``K`` of chunk ``C``), so the same run gives the same files whatever the number
of workers.  Each part carries the schema version and run id as Parquet
key-value metadata, and page checksums.  Readers verify every part against the
run's manifest, check the schema version, and read runs of different schema
versions together (a column an older run lacks reads as null).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyarrow as pa

from mjsim.io.runs import RunView, RunWriter
from mjsim.io.schema import SCHEMA_VERSION, arrow_schema

if TYPE_CHECKING:
    import polars as pl

# polars is imported by the readers only: a worker process that writes parts never loads it (0.13 s).

RUN_CONSTANTS = ("run_id", "ruleset", "ruleset_hash", "mjsim_version")  # one value for every row of a run


class DatasetWriter:
    """Write the record columns of one run chunk as Parquet parts into an attempt directory of ``store``."""

    def __init__(self, store, directory: str, chunk: int, constants: dict, before_write=None):
        self.store = store
        self.directory = directory
        self.chunk = chunk
        self.constants = constants  # run_id, ruleset, ruleset_hash, mjsim_version, policies
        self.before_write = before_write  # called before each part is written (a worker checks its parent)
        self.parts: list[dict] = []
        self.rows = 0

    def write(self, columns: dict) -> dict:
        """Write one part: ``columns`` maps every per-hand column to Arrow arrays (or lists/numpy arrays)."""
        n = len(columns["hand_id"])
        table = log_table(columns, self.constants, n)
        table = table.replace_schema_metadata(
            {
                **table.schema.metadata,
                b"mjsim_run_id": self.constants["run_id"].encode(),
                b"mjsim_chunk": b"%d" % self.chunk,
            }
        )
        if self.before_write is not None:
            self.before_write()
        name = f"part-{self.chunk:05d}-{len(self.parts):04d}.parquet"
        part = self.store.write_table(f"{self.directory}/{name}", table)
        self.parts.append(part)
        self.rows += n
        return part


def log_table(columns: dict, constants: dict, n: int) -> pa.Table:
    """The log's Arrow table from record columns plus the run's constant columns."""
    filled = {name: [constants[name]] * n for name in RUN_CONSTANTS}
    filled["policies"] = [list(constants["policies"])] * n
    schema = arrow_schema()
    arrays = [_as_arrow(filled[f.name] if f.name in filled else columns[f.name], f.type) for f in schema]
    return pa.Table.from_arrays(arrays, schema=schema)


def _as_arrow(values, dtype: pa.DataType) -> pa.Array:
    if isinstance(values, pa.Array | pa.ChunkedArray):
        return values if values.type == dtype else values.cast(dtype)
    return pa.array(values.tolist() if hasattr(values, "tolist") else values, dtype)


def write_table_run(directory, table: pa.Table, info: dict, *, overwrite: bool = False) -> dict:
    """A complete run holding ``table`` as one part (re-settled runs): staged, verified and committed like any run."""
    writer = RunWriter(directory, info, 1, overwrite=overwrite)
    table = table.cast(arrow_schema()).replace_schema_metadata(
        {**arrow_schema().metadata, b"mjsim_run_id": str(info.get("run_id", "")).encode(), b"mjsim_chunk": b"0"}
    )
    part = writer.store.write_table(f"{writer.attempt_dir}/part-00000-0000.parquet", table)
    writer.record_chunk(0, [part])
    return writer.commit()


def read_run_info(directory, allow_partial: bool = False) -> dict:
    """The metadata of a run (``_run.json``); an incomplete run is refused unless ``allow_partial``."""
    return RunView(directory, allow_partial=allow_partial).info


def part_files(directory, allow_partial: bool = False) -> list[str]:
    return RunView(directory, allow_partial=allow_partial).part_paths()


def _scan_run(view: RunView) -> pl.LazyFrame:
    import polars as pl

    if view.store.local:
        frame = pl.scan_parquet(view.part_paths())
    else:
        import pyarrow.dataset as ds

        dataset = ds.dataset([view.store.path(p) for p in view.parts], filesystem=view.store.filesystem)
        frame = pl.scan_pyarrow_dataset(dataset)
    if view.schema_version == SCHEMA_VERSION:
        return frame
    present = set(frame.collect_schema().names())
    current = pl.from_arrow(arrow_schema().empty_table()).schema
    missing = [pl.lit(None, dtype=dtype).alias(name) for name, dtype in current.items() if name not in present]
    return frame.with_columns(missing).select(list(current))


def scan_hands(*directories, allow_partial: bool = False) -> pl.LazyFrame:
    """A lazy polars scan over the hand logs of one or more run directories (each verified first)."""
    if not directories:
        raise TypeError("scan_hands needs at least one run directory")
    views = [RunView(d, allow_partial=allow_partial) for d in directories]
    seen = {}
    for d, view in zip(directories, views):
        key = str(view.store)
        if key in seen:
            raise ValueError(f"the run directory {d} is given twice: its hands would be read twice")
        seen[key] = d
    frames = [_scan_run(view) for view in views]
    if len(frames) == 1:
        return frames[0]
    import polars as pl

    return pl.concat(frames, how="diagonal_relaxed")


def read_hands(*directories, allow_partial: bool = False) -> pl.DataFrame:
    """Every hand of the runs, sorted by run and hand id."""
    return scan_hands(*directories, allow_partial=allow_partial).sort("run_id", "hand_id").collect()
