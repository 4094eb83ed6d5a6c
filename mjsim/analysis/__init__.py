"""Analysis of hand logs (polars, lazy over Parquet run directories)."""

from mjsim.analysis.summary import format_summary, run_summary

__all__ = ["format_summary", "run_summary"]
