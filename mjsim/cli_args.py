"""The CLI's argument checks: a parser whose errors are one line, and value types that say what is allowed.

Every error is ``mjsim: error: <what is wrong> (see: mjsim CMD --help)``,
raised as :class:`UsageError` so that ``mjsim.cli.main`` prints it and exits 2.
"""

from __future__ import annotations

import argparse
import math

from mjsim.sim.backends import resolve_workers


class UsageError(ValueError):
    """A command line that cannot be run: bad option, bad value, missing argument."""


class OneLineParser(argparse.ArgumentParser):
    """argparse, with an error as one line (no usage block) raised as :class:`UsageError`."""

    def error(self, message: str):
        raise UsageError(f"{message} (see: {self.prog} --help)")


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def positive_int(text: str) -> int:
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def non_negative_int(text: str) -> int:
    value = _whole_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def workers(text: str) -> int:
    """Worker processes: 1 or more, or -1 for one per core."""
    value = _whole_number(text)
    try:
        resolve_workers(value, 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be 1 or more, or -1 for every core; got {value}") from None
    return value


def positive_number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return value


def path(text: str) -> str:
    """A file or directory path: not empty (an empty path would mean the current directory)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not a path: give a file or directory name")
    return text
