"""Hand logs: the Parquet schema (one documented module), run directories, and dataset writing/reading."""

from mjsim.io.dataset import DatasetWriter, read_hands, read_run_info, scan_hands, write_table_run
from mjsim.io.runs import IncompleteRun, RunView, RunWriter
from mjsim.io.schema import COLUMNS, SCHEMA_VERSION, arrow_schema

__all__ = [
    "COLUMNS",
    "SCHEMA_VERSION",
    "DatasetWriter",
    "IncompleteRun",
    "RunView",
    "RunWriter",
    "arrow_schema",
    "read_hands",
    "read_run_info",
    "scan_hands",
    "write_table_run",
]
