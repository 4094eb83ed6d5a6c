"""Where a run's chunks execute: this process, local worker processes (loky), or a Dask cluster.

Each backend runs ``fn(*args)`` calls and hands results back as they finish
(``wait`` returns after at most ``timeout`` seconds, so the caller can redraw
its progress bar).  Rows never depend on the backend: a chunk's hands depend
only on the run's seed.
"""

from __future__ import annotations

import atexit
import concurrent.futures as cf
import gc
import importlib.abc
import os
import signal
import sys


def resolve_workers(workers, chunks: int) -> int:
    """``workers`` >= 1, or -1 for every core; never more than there are chunks to run."""
    if isinstance(workers, bool) or not isinstance(workers, int):
        raise TypeError(f"workers must be an integer (>= 1, or -1 for every core), got {workers!r}")
    if workers == -1:
        workers = os.cpu_count() or 1
    elif workers < 1:
        raise ValueError(f"workers must be >= 1, or -1 for every core, got {workers}")
    return max(1, min(workers, chunks))


class _Done(cf.Future):
    def __init__(self, value=None, error=None):
        super().__init__()
        if error is None:
            self.set_result(value)
        else:
            self.set_exception(error)


class InProcess:
    """Run each call at once, here (one worker; errors and Ctrl-C surface directly)."""

    name = "in-process"
    local = True

    def submit(self, fn, *args):
        return _Done(fn(*args))

    def wait(self, pending, timeout):
        return set(pending), set()

    def describe(self) -> dict:
        return {"kind": "local", "workers": 1}

    def close(self, cancel: bool = False) -> None:
        pass


# No mjsim code calls BLAS, but numpy's OpenBLAS starts a thread per core at import, and they spin for
# 0.1 s of CPU: in every worker, beside the other workers' hands (a 2-worker run 0.99x with one thread).
ONE_BLAS_THREAD = {"OPENBLAS_NUM_THREADS": "1"}


def _start_worker() -> None:
    """In each new worker: leave Ctrl-C to the parent (which stops the workers and prints one line), spare
    the worker pyarrow's import of pandas, and spare its exit the last search for reference cycles."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _answer_pyarrows_pandas_probe()
    # Workers exit while the parent prints the run's summary, on the same two cores; interpreter shutdown
    # would search numba's and pyarrow's objects for cycles (0.4 s a worker).  Frozen, they are left to the
    # operating system, as the command itself does (mjsim.cli.run).
    atexit.register(gc.freeze)


class _RefusePandas(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "pandas":
            raise ModuleNotFoundError("pandas is not loaded in mjsim's worker processes", name=name)
        return None


def _answer_pyarrows_pandas_probe() -> None:
    """pyarrow's first ``pa.array()`` imports pandas (0.2 s) once, only to ask whether its input is a pandas
    object; a worker never passes one.  Answered "no pandas" while pandas is refused, the probe stays answered.
    pyarrow still imports pandas when a call needs it (``Table.to_pandas``), and so can any code."""
    if "pandas" in sys.modules:
        return
    import pyarrow as pa

    refuse = _RefusePandas()
    sys.meta_path.insert(0, refuse)
    try:
        pa.array([0])
    finally:
        sys.meta_path.remove(refuse)


class LocalProcesses:
    """loky's worker processes on this machine.

    loky itself, not the copy inside joblib: a worker started through joblib's copy imports all of joblib
    first (0.45 s from submitting to the first answer, against 0.17 s)."""

    name = "local"
    local = True

    def __init__(self, workers: int):
        from loky import get_reusable_executor

        self.workers = workers
        self.executor = get_reusable_executor(
            max_workers=workers, initializer=_start_worker, reuse=False, env=ONE_BLAS_THREAD
        )
        self.warm_up: list = []  # futures a run waits for before its first chunk (mjsim.sim.parallel)

    def submit(self, fn, *args):
        return self.executor.submit(fn, *args)

    def wait(self, pending, timeout):
        done, rest = cf.wait(pending, timeout=timeout, return_when=cf.FIRST_COMPLETED)
        return done, rest

    def describe(self) -> dict:
        return {"kind": "local", "workers": self.workers}

    def close(self, cancel: bool = False) -> None:
        # not waiting for idle workers to exit: they do so on their own (0.5 s at the end of every run)
        self.executor.shutdown(wait=cancel, kill_workers=cancel)


class DaskCluster:
    """The workers of a Dask distributed cluster (``scheduler``: an address such as ``tcp://host:8786`` or a Client)."""

    name = "dask"
    local = False

    def __init__(self, scheduler):
        try:
            from distributed import Client
        except ImportError as error:
            raise ValueError("--scheduler needs Dask distributed: pip install 'mjsim[dask]'") from error
        if isinstance(scheduler, Client):
            self.client, self.owned = scheduler, False
        else:
            try:
                self.client, self.owned = Client(scheduler, timeout="20s"), True
            except (OSError, TimeoutError, ValueError) as error:
                raise OSError(f"cannot reach the Dask scheduler {scheduler}: {error}") from error
        self.address = self.client.scheduler.address

    def submit(self, fn, *args):
        return self.client.submit(fn, *args, pure=False)

    def wait(self, pending, timeout):
        from distributed import wait

        try:
            result = wait(list(pending), timeout=timeout, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return set(), set(pending)
        return set(result.done), set(result.not_done)

    def describe(self) -> dict:
        return {"kind": "dask", "scheduler": self.address, "workers": len(self.client.scheduler_info()["workers"])}

    def close(self, cancel: bool = False) -> None:
        if self.owned:
            self.client.close()


def backend_for(workers: int, chunks: int, scheduler=None):
    """The backend for a run: Dask when ``scheduler`` is given, else local processes or this process."""
    if scheduler is not None:
        return DaskCluster(scheduler)
    n = resolve_workers(workers, chunks)
    return InProcess() if n == 1 else LocalProcesses(n)
