"""Whole runs: split the sessions into fixed chunks, play them on a backend, write and commit the run directory.

Chunks depend only on the run's size (``chunk_hands``), never on the number of
workers or the backend, and each chunk writes its own parts, so a run's rows
(and files) are the same however it is executed.  The parent process alone
records finished chunks in the staged manifest (``mjsim.io.runs``), so an
interrupted run resumes with only its missing chunks (``resume``), and the run
becomes visible to readers only when it is committed whole.
"""

from __future__ import annotations

import gc
import os
import time
import uuid
from collections.abc import Callable
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace

import mjsim
from mjsim.progress import Progress
from mjsim.sim.backends import backend_for, resolve_workers
from mjsim.sim.compile_notice import await_warm_up, noting_compiles
from mjsim.sim.supported import check_supported

# The run's storage (pyarrow, polars) and the engine (numba) are imported where they are used, not here: a
# run starts its worker processes first, so that their start-up overlaps those imports in this process.

CHUNK_HANDS = 5_000  # small enough that two workers finish together on runs of 50,000 hands and more
PROGRESS_SECONDS = 0.5  # how often a worker process reports the hands it has finished


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run; the message says what was kept and how to resume."""


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's hands (the rows depend on nothing else)."""

    ruleset: object
    policies: tuple[str, ...]
    hands: int
    session_length: int = 1
    seed: int = 0
    first_dealer: int = -1
    round_wind: int = 0
    run_id: str = ""
    chunk_hands: int = CHUNK_HANDS

    def sessions(self) -> int:
        return self.hands // self.session_length

    def chunks(self) -> list[tuple[int, int]]:
        per_chunk = max(1, self.chunk_hands // self.session_length)
        total = self.sessions()
        return [(start, min(total, start + per_chunk)) for start in range(0, total, per_chunk)]


def validate(spec: RunSpec) -> None:
    check_supported(spec.ruleset)
    for name in ("hands", "session_length", "seed", "first_dealer", "round_wind", "chunk_hands"):
        value = getattr(spec, name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an integer, got {value!r}")
    if spec.hands < 1:
        raise ValueError(f"--hands must be at least 1, got {spec.hands}")
    if spec.session_length < 1:
        raise ValueError(f"--session-length must be at least 1, got {spec.session_length}")
    if spec.hands % spec.session_length:
        raise ValueError(
            f"--hands {spec.hands} is not a multiple of --session-length {spec.session_length}: "
            "every session plays all its hands"
        )
    if spec.first_dealer not in (-1, 0, 1, 2, 3):
        raise ValueError(f"dealer must be 0-3 or random, got {spec.first_dealer}")
    if spec.round_wind not in (0, 1, 2, 3):
        raise ValueError(f"round wind must be 0-3, got {spec.round_wind}")
    if spec.seed < 0 or spec.seed >= 2**63:
        raise ValueError(f"--seed must be an integer from 0 to 2**63-1, got {spec.seed}")
    if spec.chunk_hands < 1:
        raise ValueError(f"chunk_hands must be at least 1, got {spec.chunk_hands}")


# ---- one chunk, in whatever process runs it ----------------------------------------------------------------


class _Reporter:
    """In a worker: stop at once if the parent process is gone; report finished hands now and then.

    A parent killed with ``kill -9`` cannot stop its workers, so each worker
    checks for it between table batches and before writing a part: no part is
    written after the parent is gone."""

    def __init__(self, store, progress_path: str | None, parent_pid: int | None):
        self.store, self.progress_path, self.parent_pid = store, progress_path, parent_pid
        self.hands, self._last = 0, 0.0

    def check_parent(self) -> None:
        if self.parent_pid is not None and os.getppid() != self.parent_pid:
            os._exit(3)

    def __call__(self, n: int) -> None:
        self.check_parent()
        self.hands += n
        now = time.monotonic()
        if self.progress_path is not None and now - self._last > PROGRESS_SECONDS:
            self._last = now
            self.store.write_bytes(self.progress_path, b"%d" % self.hands)


def run_chunk(spec: RunSpec, chunk: int, first: int, end: int, location, attempt_dir: str, watch=None, on_hands=None):
    """Play sessions ``[first, end)`` and write their parts in ``attempt_dir``; return the part entries.

    ``watch = (parent_pid, progress file)`` in a local worker process;
    ``on_hands(n)`` counts finished hands where the chunk runs in the caller's process."""
    from mjsim.io.dataset import DatasetWriter
    from mjsim.io.store import RunStore
    from mjsim.sim.runner import play_sessions, seat_policies

    store = RunStore(location)
    parent_pid, progress_path = watch if watch else (None, None)
    reporter = _Reporter(store, progress_path, parent_pid)
    seats = seat_policies(spec.policies)
    writer = DatasetWriter(store, attempt_dir, chunk, _constants(spec, seats.specs), reporter.check_parent)
    with old_objects_frozen():
        for columns in play_sessions(
            spec.ruleset, seats, seed=spec.seed, first_session=first, end_session=end,
            session_length=spec.session_length, first_dealer=spec.first_dealer, round_wind=spec.round_wind,
            as_arrow=True, on_hands=on_hands or reporter,
        ):  # fmt: skip
            writer.write(columns)
    return writer.parts


@contextmanager
def old_objects_frozen():
    """Keep the objects that exist before a chunk out of Python's cyclic garbage collector meanwhile.

    Otherwise every full collection during the chunk walks all of numba's,
    pyarrow's and polars' objects again (profiled: 5-10% of a run's time).
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _constants(spec: RunSpec, specs) -> dict:
    return {
        "run_id": spec.run_id,
        "ruleset": spec.ruleset.name,
        "ruleset_hash": spec.ruleset.content_hash,
        "mjsim_version": mjsim.code_version(),
        "policies": list(specs),
    }


# ---- a whole run -------------------------------------------------------------------------------------------


def _spec_info(spec: RunSpec, seats) -> dict:
    return {
        "run_id": spec.run_id,
        "ruleset": spec.ruleset.name,
        "ruleset_hash": spec.ruleset.content_hash,
        "ruleset_toml": spec.ruleset.to_toml(),
        "policies": list(seats.specs),
        "hands": spec.hands,
        "session_length": spec.session_length,
        "seed": spec.seed,
        "dealer": spec.first_dealer,
        "round_wind": spec.round_wind,
        "chunk_hands": spec.chunk_hands,
        "mjsim_version": mjsim.code_version(),
    }


def simulate(
    spec: RunSpec, out_dir, workers: int = 1, progress: bool | None = None, *, overwrite: bool = False,
    scheduler=None, extra_info: dict | None = None, on_tail: Callable[[], object] | None = None,
) -> dict:  # fmt: skip
    """Run ``spec`` into ``out_dir`` (a path or filesystem URL); return the committed run's metadata.

    ``workers``: local processes (>= 1, or -1 for every core); ``scheduler``:
    a Dask scheduler address or ``distributed.Client`` to run the chunks on a
    cluster instead (``out_dir`` must then be on a filesystem every worker
    sees).  ``overwrite`` replaces a run already in ``out_dir`` as a whole;
    ``extra_info`` is added to the run's metadata (a comparison's label).  ``on_tail`` is called once, in
    this process, when a local worker has no chunk left to play: work the caller does next (the command's
    summary imports polars) then uses a core the run leaves idle."""
    resolve_workers(workers, 1)  # a bad value is refused before anything is written
    validate(spec)
    if not spec.run_id:
        spec = replace(spec, run_id=uuid.uuid4().hex[:12])
    backend = _start_backend(spec, workers, len(spec.chunks()), scheduler)
    try:
        from mjsim.io.runs import RunWriter
        from mjsim.sim.runner import seat_policies

        seats = seat_policies(spec.policies)  # parse errors surface before any work starts
        info = _spec_info(spec, seats) | (extra_info or {})
        writer = RunWriter(out_dir, info, len(spec.chunks()), overwrite=overwrite)
    except BaseException:
        backend.close(cancel=True)
        raise
    return _execute(spec, writer, backend, progress, on_tail)


def resume(out_dir, workers: int = 1, progress: bool | None = None, *, scheduler=None) -> dict:
    """Finish an interrupted run: play only its missing chunks (the rows equal an uninterrupted run)."""
    from mjsim.io.runs import RunWriter, read_manifest
    from mjsim.rules import loads

    info = read_manifest(out_dir)
    if info.get("mjsim_version") != mjsim.code_version():
        raise ValueError(
            f"{out_dir} was started by mjsim {info.get('mjsim_version')}; this is {mjsim.code_version()}: "
            "resume it with the same code, or start again with --overwrite"
        )
    writer = RunWriter(out_dir, resume=True)
    spec = RunSpec(
        ruleset=loads(info["ruleset_toml"], name=info["ruleset"]), policies=tuple(info["policies"]),
        hands=info["hands"], session_length=info["session_length"], seed=info["seed"], first_dealer=info["dealer"],
        round_wind=info["round_wind"], run_id=info["run_id"], chunk_hands=info["chunk_hands"],
    )  # fmt: skip
    missing = len(writer.missing())
    return _execute(spec, writer, _start_backend(spec, workers, missing, scheduler) if missing else None, progress)


def _start_backend(spec: RunSpec, workers, chunks: int, scheduler):
    """The run's backend, its local workers already starting and warming up (``mjsim.sim.warmup``): one builds
    or loads the engine's kernels and another the run's policies', so that on an empty cache each kernel is
    compiled once, not once per worker."""
    backend = backend_for(workers, max(1, chunks), scheduler)
    if backend.name == "local":
        from mjsim.sim.warmup import compile_part

        backend.warm_up = [
            backend.submit(compile_part, "engine", [spec.ruleset.family]),
            backend.submit(compile_part, "policies", spec.policies),
        ]
    return backend


def _execute(spec: RunSpec, writer, backend, progress, on_tail=None) -> dict:
    chunks = spec.chunks()
    todo = [(i, *chunks[i]) for i in writer.missing()]
    bar = Progress(spec.hands, enabled=progress)
    bar.update(writer.rows_done())
    started = time.perf_counter()
    try:
        await_warm_up(getattr(backend, "warm_up", ()), bar)
        in_process = backend is not None and backend.name == "in-process"
        with noting_compiles(bar) if in_process else nullcontext():  # in this process, the first chunk compiles
            _play_chunks(spec, writer, backend, bar, todo, on_tail)
    except KeyboardInterrupt:
        if backend is not None:
            backend.close(cancel=True)
        writer.clean_attempt()
        bar.close()
        raise Interrupted(
            f"interrupted: {len(writer.done_chunks())} of {len(chunks)} chunks are written; "
            f"resume with `mjsim simulate --resume {writer.store}`"
        ) from None
    except BaseException:
        if backend is not None:
            backend.close(cancel=True)
        writer.clean_attempt()
        raise
    backend_info = backend.describe() if backend is not None else {"kind": "none"}
    if backend is not None:
        backend.close()
    bar.close()
    seconds = round(time.perf_counter() - started, 3)
    info = writer.commit({"seconds": seconds, "backend": backend_info, "workers": backend_info.get("workers", 1)})
    return info


def _play_chunks(spec: RunSpec, writer, backend, bar: Progress, todo, on_tail=None) -> None:
    """Play the chunks ``todo`` on ``backend``, each recorded in ``writer`` as it ends, counting hands into ``bar``;
    ``on_tail`` once a local worker is left without a chunk (:func:`simulate`)."""
    shown = writer.rows_done()  # hands the bar shows
    location = writer.store.location
    pending: dict = {}
    in_flight = 1 if backend is None or backend.name == "in-process" else 2 * backend.describe()["workers"] or 2
    queue = list(todo)
    while queue or pending:
        while queue and len(pending) < in_flight:
            index, first, end = queue.pop(0)
            watch = None
            if backend.name == "local":
                watch = (os.getpid(), f"{writer.attempt_dir}/progress/{index:05d}")
                writer.store.makedirs(f"{writer.attempt_dir}/progress")
            on_hands = bar.update if backend.name == "in-process" else None
            args = (spec, index, first, end, location, writer.attempt_dir, watch, on_hands)
            pending[backend.submit(run_chunk, *args)] = index
        if on_tail is not None and backend.name == "local" and not queue and len(pending) < backend.workers:
            on_tail()
            on_tail = None
        done, _ = backend.wait(set(pending), timeout=PROGRESS_SECONDS)
        for future in done:
            index = pending.pop(future)
            parts = future.result()
            writer.record_chunk(index, parts)
        if backend.name != "in-process":  # in this process the chunk counts its hands straight into the bar
            now = writer.rows_done() + (_reported(writer, pending.values()) if backend.name == "local" else 0)
            bar.update(max(0, now - shown))
            shown = max(shown, now)


def _reported(writer, chunks) -> int:
    """Hands the running chunks' workers have reported so far."""
    total = 0
    for index in chunks:
        path = f"{writer.attempt_dir}/progress/{index:05d}"
        try:
            total += int(writer.store.read_bytes(path) or 0)
        except (OSError, ValueError):
            pass
    return total
