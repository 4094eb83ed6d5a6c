"""The user cache directory mjsim keeps generated hand tables and compiled kernels in."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_cache_dir


def cache_dir() -> Path:
    """``MJSIM_CACHE_DIR``, else the platform's user cache dir."""
    if os.environ.get("MJSIM_CACHE_DIR"):
        return Path(os.environ["MJSIM_CACHE_DIR"])
    return Path(user_cache_dir("mjsim", appauthor=False))
