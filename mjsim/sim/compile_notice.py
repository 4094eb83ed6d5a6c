"""While a first run compiles the kernels, its progress bar says so and for how long, so the run does not look stuck.

On an empty cache numba compiles for a minute or more before the first hand is done.  A run on local workers
waits for their warm-up (``mjsim.sim.warmup``) before its first chunk: :func:`await_warm_up` notes a wait
longer than loading a warm cache takes.  A run in this process compiles inside its first chunk:
:func:`noting_compiles` listens to numba's compile events, which fire only on a cache miss, and a thread
keeps the note's time current while they last.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

from mjsim.progress import Progress

WARM_LOAD_SECONDS = 2.0  # a worker loads a warm cache in about 1.5 s; a longer warm-up is compiling


def compiling_note(seconds: float) -> str:
    return f"compiling the simulator, first run only: {seconds:.0f} s"


def await_warm_up(futures, bar: Progress, poll: float = 1.0, quiet_for: float = WARM_LOAD_SECONDS) -> None:
    """Wait for the workers' warm-up ``futures`` (their errors raise here); once the wait has lasted
    ``quiet_for`` seconds, the bar carries :func:`compiling_note`, cleared when the warm-up is done."""
    started = time.perf_counter()
    for future in futures:
        while True:
            try:
                future.result(timeout=poll)
                break
            except TimeoutError:
                waited = time.perf_counter() - started
                if waited >= quiet_for:
                    bar.note(compiling_note(waited))
    bar.note("")


class CompileWatch:
    """Counts the compiles in progress (told by numba's compile events) and words the note."""

    def __init__(self):
        self.depth = 0
        self.first_start: float | None = None

    def started(self) -> None:  # a cache miss: numba compiles (nested for each callee)
        self.depth += 1
        if self.first_start is None:
            self.first_start = time.perf_counter()

    def ended(self) -> None:
        self.depth -= 1

    def note(self) -> str:
        """:func:`compiling_note` with the time since the first compile while one is in progress, else ``""``."""
        if self.depth <= 0:  # started() has set first_start
            return ""
        return compiling_note(time.perf_counter() - self.first_start)


@contextmanager
def noting_compiles(bar: Progress, every: float = 1.0):
    """Within the block, the bar carries the :class:`CompileWatch` note, renewed every ``every`` seconds
    (from a thread: the compiling thread runs numba's Python code, which lets it in)."""
    if not bar.enabled:
        yield
        return
    from numba.core import event

    watch = CompileWatch()

    class Forward(event.Listener):  # numba takes only its own Listener subclasses
        def on_start(self, _event):
            watch.started()

        def on_end(self, _event):
            watch.ended()

    stop = threading.Event()

    def renew():
        shown = ""
        while not stop.wait(every):
            text = watch.note()
            if text or shown:
                bar.note(text)
            shown = text

    ticker = threading.Thread(target=renew, name="mjsim-compile-note", daemon=True)
    with event.install_listener("numba:compile", Forward()):
        ticker.start()
        try:
            yield watch
        finally:
            stop.set()
            ticker.join()
            bar.note("")
