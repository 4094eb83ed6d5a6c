"""Text for a terminal: control characters from house files and run directories shown escaped, never sent raw.

A ruleset name or description from a house TOML file can hold escape
sequences that would recolour, retitle or rewrite the user's terminal; the
CLI writes everything through :class:`EscapingWriter`, which shows such
characters as Python escapes (``\\x1b``) and keeps newlines and tabs.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides and isolates
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def escape_controls(text: str) -> str:
    """``text`` with every unsafe character written as its escape (``"\\x1b[31m"`` for ESC [31m)."""
    return _UNSAFE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def one_line(text: str) -> str:
    """``text`` escaped and on one line (for error messages)."""
    return escape_controls(" ".join(str(text).split("\n")))


class EscapingWriter:
    """A text stream that forwards to ``stream`` with :func:`escape_controls` applied to every write."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(escape_controls(text))
        return len(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)
