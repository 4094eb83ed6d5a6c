"""The one place mjsim's version is defined, and the source hash that identifies the code that ran.

``pyproject.toml`` reads ``__version__`` from here.  A run records
``code_version()`` (``0.1.0+src.1a2b3c4d5e6f``): the release alone does not
tell two edited checkouts apart, the hash of the package's source does.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

__version__ = "0.1.0"


@lru_cache(maxsize=1)
def source_hash() -> str:
    """12 hex digits of a hash over every ``.py`` and preset file of the installed package."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".toml") and "__pycache__" not in p.parts):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def code_version() -> str:
    """The release plus the source hash, as written in every run's metadata and rows."""
    return f"{__version__}+src.{source_hash()}"
