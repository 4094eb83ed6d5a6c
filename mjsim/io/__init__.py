"""Hand logs: the Parquet schema (one documented module) and dataset writing/reading."""

from mjsim.io.dataset import DatasetWriter, read_hands, read_run_info
from mjsim.io.schema import COLUMNS, SCHEMA_VERSION, arrow_schema

__all__ = ["COLUMNS", "SCHEMA_VERSION", "DatasetWriter", "arrow_schema", "read_hands", "read_run_info"]
