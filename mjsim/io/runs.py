"""A run directory's life: built in a staging area, committed whole, verified on every read.

Layout of a complete run ``DIR``::

    DIR/_run.json                     metadata and manifest: every part with its rows, bytes and sha256
    DIR/part-CCCCC-KKKK.parquet       the hands of chunk C (flush K), Parquet with page checksums

Parquet readers skip names starting with ``_``, so ``DIR`` opens directly
with ``pyarrow.dataset.dataset(DIR)``, ``polars.scan_parquet(DIR + "/*.parquet")``
or DuckDB's ``read_parquet``.

While a run is written, nothing but ``DIR/_staging/`` changes:

    DIR/_staging/_run.json            the manifest of the run being built (chunks done so far)
    DIR/_staging/<attempt>/part-...   parts written by one attempt (a first run or one resume)

The parent process alone updates the manifest (write, fsync, rename), after a
chunk's parts are all on disk.  Each attempt writes into its own directory, so
a worker left running by a killed parent can never mix its parts into a later
attempt.  ``commit`` then swaps the staged run in: ``_run.json`` says
``committing`` while parts move, ``complete`` after — a killed commit is
refused by readers and finished by ``--resume``, and old metadata never
describes new parts.
"""

from __future__ import annotations

import re
import uuid
import warnings

from mjsim.io.schema import SCHEMA_VERSION
from mjsim.io.store import RunStore

MANIFEST = "_run.json"
STAGING = "_staging"
LEGACY_INFO = "run.json"  # schema version 1: metadata beside the parts, no manifest
STAGED_MANIFEST = f"{STAGING}/{MANIFEST}"  # the manifest of the run being built
PART_NAME = re.compile(r"part-\d{5}-\d{4}\.parquet")


class IncompleteRun(ValueError):
    """The directory holds a run that was not finished (read it with ``allow_partial=True``)."""


def _chunk_summary(chunks: dict, total: int) -> str:
    missing = [i for i in range(total) if str(i) not in chunks]
    shown = ", ".join(str(i) for i in missing[:8]) + (", ..." if len(missing) > 8 else "")
    return f"{len(chunks)} of {total} chunks written (missing {shown})"


# ---- writing ---------------------------------------------------------------------------------------------


class RunWriter:
    """Build one run in ``DIR/_staging`` and commit it; ``resume`` continues the staged run instead."""

    def __init__(self, location, info: dict | None = None, chunks_total: int = 1, *, overwrite=False, resume=False):
        self.store = RunStore(location)
        self._check_target(overwrite, resume)
        if resume:
            self.manifest = self.store.read_json(STAGED_MANIFEST)
        else:
            self.store.remove_tree(STAGING)  # an earlier unfinished attempt (our own files)
            self.manifest = {
                "schema_version": SCHEMA_VERSION,
                "state": "running",
                **(info or {}),
                "chunks_total": chunks_total,
                "chunks": {},
            }
        self.attempt = uuid.uuid4().hex[:8]
        self.store.makedirs(self.attempt_dir)
        if not resume:
            self._save_staged()

    @property
    def attempt_dir(self) -> str:
        return f"{STAGING}/{self.attempt}"

    @property
    def info(self) -> dict:
        return self.manifest

    def done_chunks(self) -> set[int]:
        return {int(c) for c in self.manifest["chunks"]}

    def rows_done(self) -> int:
        return sum(c["rows"] for c in self.manifest["chunks"].values())

    def _check_target(self, overwrite: bool, resume: bool) -> None:
        store = self.store
        kind = store.kind()
        if kind in ("file", "other"):
            raise ValueError(f"{store} is a file, not a directory: choose a directory for the run")
        if resume:
            if store.exists(MANIFEST) and store.read_json(MANIFEST).get("state") == "committing":
                return
            if not store.exists(STAGED_MANIFEST):
                what = "is complete" if store.exists(MANIFEST) else "holds no unfinished mjsim run"
                raise ValueError(f"{store} {what}: nothing to resume")
            return
        if store.exists(MANIFEST) or store.exists(LEGACY_INFO):
            if not overwrite:
                raise ValueError(f"{store} already holds a run; choose another directory or pass --overwrite")
        elif store.exists(STAGED_MANIFEST):
            if not overwrite:
                raise ValueError(
                    f"{store} holds an unfinished run; continue it with `mjsim simulate --resume {store}` "
                    "or pass --overwrite to start again"
                )
        else:
            foreign = [n for n in store.listdir() if n != STAGING]
            if foreign:
                raise ValueError(
                    f"{store} is not empty and is not an mjsim run directory (it holds {foreign[0]!r}); "
                    "choose a new or empty directory"
                )
        store.makedirs()

    def _save_staged(self) -> None:
        self.store.write_json(STAGED_MANIFEST, self.manifest)

    def record_chunk(self, chunk: int, parts: list[dict]) -> None:
        """Chunk ``chunk`` is on disk as ``parts`` (written in this attempt's directory): note it atomically."""
        self.manifest["chunks"][str(chunk)] = {
            "rows": sum(p["rows"] for p in parts),
            "parts": [{**p, "dir": self.attempt_dir} for p in parts],
        }
        self._save_staged()

    def clean_attempt(self) -> None:
        """Remove the temporary files of this attempt (an interrupted write); finished parts stay for --resume."""
        for name in self.store.listdir(self.attempt_dir):
            if name.endswith(".tmp"):
                self.store.remove(f"{self.attempt_dir}/{name}")
        self.store.remove_tree(f"{self.attempt_dir}/progress")

    def missing(self) -> list[int]:
        done = self.done_chunks()
        return [i for i in range(self.manifest["chunks_total"]) if i not in done]

    def commit(self, extra: dict | None = None) -> dict:
        """Swap the staged run in as the run of the directory; return its final metadata."""
        store = self.store
        if store.exists(MANIFEST) and store.read_json(MANIFEST).get("state") == "committing":
            final = store.read_json(MANIFEST)  # finishing a commit that was interrupted
        else:
            if self.missing():
                raise IncompleteRun(f"{store}: cannot commit, {_chunk_summary(self.manifest['chunks'], 1)}")
            final = {**self.manifest, **(extra or {}), "state": "committing"}
            store.write_json(MANIFEST, final)
        new_names = {p["name"] for chunk in final["chunks"].values() for p in chunk["parts"]}
        for name in store.listdir():
            if (PART_NAME.fullmatch(name) and name not in new_names) or name == LEGACY_INFO:
                store.remove(name)  # the replaced run's parts and metadata
        for chunk in final["chunks"].values():
            for part in chunk["parts"]:
                staged = f"{part.pop('dir')}/{part['name']}" if "dir" in part else None
                if staged and store.exists(staged):
                    store.move(staged, part["name"])
        final["state"] = "complete"
        store.write_json(MANIFEST, final)
        store.remove_tree(STAGING)
        return final


# ---- reading ---------------------------------------------------------------------------------------------

_VERIFIED: dict[tuple, bool] = {}  # (location, part, stamp) already checked against its sha256 in this process


class RunView:
    """A run directory opened for reading: its metadata and its verified part files."""

    def __init__(self, location, allow_partial: bool = False):
        self.store = RunStore(location)
        store = self.store
        if store.kind() != "dir":
            raise ValueError(f"{store} is not an mjsim run directory (it does not exist or is not a directory)")
        if store.exists(MANIFEST):
            self.info = store.read_json(MANIFEST)
            if self.info.get("state") != "complete":
                raise IncompleteRun(
                    f"{store} was interrupted while its run was being committed; "
                    f"finish it with `mjsim simulate --resume {store}`"
                )
            self.parts = [p["name"] for c in _in_order(self.info["chunks"]) for p in c["parts"]]
            self._check_parts(self.info)
        elif store.exists(LEGACY_INFO):
            self.info = store.read_json(LEGACY_INFO)
            self.parts = [n for n in store.listdir() if PART_NAME.fullmatch(n)]
            if not self.parts:
                raise ValueError(f"{store} holds no hand logs (part-*.parquet)")
        elif store.exists(STAGED_MANIFEST):
            self.info = store.read_json(STAGED_MANIFEST)
            summary = _chunk_summary(self.info["chunks"], self.info["chunks_total"])
            if not allow_partial:
                raise IncompleteRun(
                    f"{store} is an incomplete run: {summary}; resume it with `mjsim simulate --resume {store}` "
                    "or read what is there with --partial (allow_partial=True)"
                )
            warnings.warn(f"reading an incomplete run: {store}: {summary}", stacklevel=3)
            self.parts = [f"{p['dir']}/{p['name']}" for c in _in_order(self.info["chunks"]) for p in c["parts"]]
            self._check_parts(self.info)
        else:
            raise ValueError(f"{store} is not an mjsim run directory: {MANIFEST} is missing")
        version = self.info.get("schema_version", 1)
        if not isinstance(version, int) or version > SCHEMA_VERSION:
            raise ValueError(
                f"{store} was written with hand-log schema version {version}; this mjsim reads versions up to "
                f"{SCHEMA_VERSION}: upgrade mjsim"
            )
        self.schema_version = version

    def _check_parts(self, info: dict) -> None:
        """Every listed part is there with its recorded size and sha256; no unlisted part sits beside them."""
        store = self.store
        listed = {}
        for chunk in info["chunks"].values():
            for part in chunk["parts"]:
                path = (
                    f"{part['dir']}/{part['name']}" if "dir" in part and info["state"] != "complete" else part["name"]
                )
                listed[path] = part
        for path, part in listed.items():
            if not store.exists(path):
                raise ValueError(f"{store.path(path)} is missing: the run is damaged (re-simulate it)")
            stamp = (str(store), path, store.stamp(path))
            if stamp in _VERIFIED:
                continue
            if store.size(path) != part["bytes"] or store.sha256(path) != part["sha256"]:
                raise ValueError(
                    f"{store.path(path)} is corrupt or truncated (its checksum differs from the run's manifest); "
                    "re-simulate the run"
                )
            _VERIFIED[stamp] = True
        if info.get("state") == "complete":
            for name in store.listdir():
                if name.endswith(".parquet") and name not in listed:
                    raise ValueError(
                        f"{store.path(name)} is not part of the run in {store} (a foreign file); move it away"
                    )

    def part_paths(self) -> list[str]:
        return [self.store.path(p) for p in self.parts]


def _in_order(chunks: dict) -> list[dict]:
    return [chunks[k] for k in sorted(chunks, key=int)]


def read_manifest(location) -> dict:
    """The metadata of a complete run, or of the staged one (for ``--resume``)."""
    store = RunStore(location)
    if store.exists(MANIFEST):
        return store.read_json(MANIFEST)
    if store.exists(STAGED_MANIFEST):
        return store.read_json(STAGED_MANIFEST)
    raise ValueError(f"{store} is not an mjsim run directory: {MANIFEST} is missing")
