"""Progress bars for long work (simulation, re-settlement, reports), drawn by tqdm.

``tqdm.auto`` draws a widget in a Jupyter notebook and a text bar with an ETA
on a terminal's standard error.  A bar is shown in a notebook or on a
terminal unless ``enabled`` says otherwise, and never while the process-wide
quiet switch is on (:func:`set_quiet`, the CLI's ``--quiet``).
"""

from __future__ import annotations

import importlib.util
import sys
import warnings
import weakref
from functools import cache

_quiet = False
_open_bars: weakref.WeakSet[Progress] = weakref.WeakSet()


def set_quiet(quiet: bool = True) -> None:
    """Turn every progress bar of this process off (``True``) or back to its default (``False``)."""
    global _quiet
    _quiet = bool(quiet)


def is_quiet() -> bool:
    return _quiet


def close_all() -> None:
    """Close the bars still open (an error or Ctrl-C stopped their work), so a message starts on its own line."""
    for bar in list(_open_bars):
        bar.close()


@cache
def _bar_classes():
    """tqdm's text bar and ``tqdm.auto``'s choice, imported on the first bar (tqdm costs a tenth of a second)."""
    from tqdm.std import TqdmWarning
    from tqdm.std import tqdm as text_bar

    with warnings.catch_warnings():  # without ipywidgets tqdm.auto warns on import; the text bar is used then
        warnings.simplefilter("ignore", TqdmWarning)
        from tqdm.auto import tqdm as auto_bar
    return text_bar, auto_bar


def _in_notebook() -> bool:
    """Whether tqdm.auto chose the notebook widget (its class then derives from tqdm.notebook's)."""
    return any(cls.__module__ == "tqdm.notebook" for cls in _bar_classes()[1].__mro__)


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


class Progress:
    """``update(n)`` adds ``n`` done items of ``total``; ``close()`` ends the bar.

    ``label`` names the items (``"hands"``: "9,000/20,000 hands, 2,512 hands/s").
    ``enabled``: ``None`` shows the bar in a notebook or when ``stream``
    (default standard error) is a terminal; the quiet switch overrides it.
    """

    def __init__(self, total: int, label: str = "hands", stream=None, enabled: bool | None = None):
        self.total = max(1, int(total))
        self.label = label
        self.done = 0
        stream = stream or sys.stderr
        if enabled is None:
            enabled = _in_notebook() or _is_terminal(stream)
        self.enabled = bool(enabled) and not _quiet
        self._bar = self._open(stream) if self.enabled else None
        if self._bar is not None:
            _open_bars.add(self)

    def _open(self, stream):
        options = dict(total=self.total, unit=f" {self.label}", file=stream, mininterval=0.1, dynamic_ncols=True)
        # the widget needs ipywidgets; without it a notebook shows the text bar
        widget = _in_notebook() and stream is sys.stderr and importlib.util.find_spec("ipywidgets") is not None
        text_bar, auto_bar = _bar_classes()
        return (auto_bar if widget else text_bar)(**options)

    def update(self, n: int) -> None:
        n = int(n)
        self.done += n
        if self._bar is not None:
            self._bar.update(n)

    def note(self, text: str) -> None:
        """Show ``text`` before the bar (``""`` clears it): what the work is doing while no item finishes."""
        if self._bar is not None:
            self._bar.set_description_str(text)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
            _open_bars.discard(self)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
