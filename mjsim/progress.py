"""A small progress bar for long runs: on a terminal only, on standard error."""

from __future__ import annotations

import sys
import time


class Progress:
    """``update(n)`` adds ``n`` done items; the bar redraws at most ten times a second."""

    def __init__(self, total: int, label: str = "hands", stream=None, enabled: bool | None = None):
        self.total = max(1, int(total))
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.done = 0
        self.start = time.perf_counter()
        self._last = 0.0

    def update(self, n: int) -> None:
        self.done += int(n)
        now = time.perf_counter()
        if self.enabled and (now - self._last > 0.1 or self.done >= self.total):
            self._last = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        share = min(1.0, self.done / self.total)
        width = 30
        bar = "#" * int(share * width) + "-" * (width - int(share * width))
        rate = self.done / max(now - self.start, 1e-9)
        self.stream.write(f"\r[{bar}] {share:6.1%} {self.done:,}/{self.total:,} {self.label} {rate:,.0f}/s")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self._draw(time.perf_counter())
            self.stream.write("\n")
            self.stream.flush()
