"""Hand logs: the Parquet schema (one documented module), run directories, and dataset writing/reading.

The names below load on first use, so that a process writing parts never imports the readers' polars.
"""

from importlib import import_module

_LAZY = {
    "DatasetWriter": "mjsim.io.dataset",
    "read_hands": "mjsim.io.dataset",
    "read_run_info": "mjsim.io.dataset",
    "scan_hands": "mjsim.io.dataset",
    "write_table_run": "mjsim.io.dataset",
    "IncompleteRun": "mjsim.io.runs",
    "RunView": "mjsim.io.runs",
    "RunWriter": "mjsim.io.runs",
    "COLUMNS": "mjsim.io.schema",
    "SCHEMA_VERSION": "mjsim.io.schema",
    "arrow_schema": "mjsim.io.schema",
}

__all__ = sorted(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mjsim.io' has no attribute {name!r}")
