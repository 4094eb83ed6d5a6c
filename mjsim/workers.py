"""How many worker processes a run may use: a whole number of 1 or more, or -1 for one per available core."""

from __future__ import annotations

import os
from numbers import Integral

ALLOWED = "1 or more, or -1 for every core"


def check_workers(workers) -> None:
    """``TypeError`` unless ``workers`` is a whole number, ``ValueError`` unless it is ≥ 1 or -1."""
    if isinstance(workers, bool) or not isinstance(workers, Integral):
        raise TypeError(f"workers must be a whole number ({ALLOWED}), got {workers!r}")
    if workers < 1 and workers != -1:
        raise ValueError(f"workers must be {ALLOWED}; got {workers}")


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def resolve_workers(workers) -> int:
    """The number of processes ``workers`` asks for (checked; -1 is every available core)."""
    check_workers(workers)
    return available_cores() if workers == -1 else int(workers)
