"""Where a run's files live: one object that writes, moves and deletes them, and only inside the run's directory.

A ``RunStore`` is a directory on the local disk (written with fsync, so a
crash or a full disk never leaves a half-written file under its final name)
or on any pyarrow or fsspec filesystem named by a URL (``s3://bucket/run``,
``memory://run``, ...), for runs whose workers share a filesystem.  Every
path it is given is relative to the root and is refused if it would leave it,
so nothing outside the directory the user named is ever written or deleted.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import uuid
from pathlib import Path, PurePosixPath

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq


def _is_url(location: str) -> bool:
    return "://" in location and not location.startswith("file://")


def resolve_location(location) -> tuple[pafs.FileSystem | None, str]:
    """``(None, absolute local path)`` or ``(filesystem, path on it)`` for a path, a URL or a pair."""
    if isinstance(location, tuple):
        return location
    if isinstance(location, os.PathLike):
        location = os.fspath(location)
    if not isinstance(location, str):
        raise TypeError(f"a run directory is a path or a filesystem URL, got {type(location).__name__}")
    if location.strip() == "":
        raise ValueError("the run directory is empty ('')")
    if location.startswith("file://"):
        location = location[len("file://") :]
    if not _is_url(location):
        return None, str(Path(location).absolute())
    try:
        return pafs.FileSystem.from_uri(location)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, ValueError):
        pass
    try:
        import fsspec
        from pyarrow.fs import FSSpecHandler, PyFileSystem
    except ImportError as error:  # pragma: no cover - fsspec ships with the [dask] extra
        raise ValueError(f"{location}: this filesystem URL needs fsspec (pip install 'mjsim[dask]')") from error
    try:
        fs, path = fsspec.core.url_to_fs(location)
    except (ValueError, ImportError) as error:
        raise ValueError(f"{location}: not a filesystem URL fsspec knows ({error})") from error
    return PyFileSystem(FSSpecHandler(fs)), path


class RunStore:
    """The files of one run directory, addressed by paths relative to its root."""

    def __init__(self, location):
        self.filesystem, self.root = resolve_location(location)
        self.location = location if isinstance(location, str) and _is_url(location) else self.root

    @property
    def local(self) -> bool:
        return self.filesystem is None

    def __str__(self) -> str:
        return str(self.location)

    def path(self, relative: str = "") -> str:
        """The full path of ``relative``, refusing anything that would leave the root."""
        parts = PurePosixPath(relative).parts
        if relative.startswith("/") or any(p in ("..", "") for p in parts) or "\\" in relative:
            raise ValueError(f"{relative!r} is not a path inside the run directory {self.location}")
        return self.root if not parts else f"{self.root.rstrip('/')}/{'/'.join(parts)}"

    # ---- looking -------------------------------------------------------------------------------------------

    def kind(self, relative: str = "") -> str:
        """``"dir"``, ``"file"`` or ``"none"`` (and ``"other"`` for a device or socket)."""
        path = self.path(relative)
        if self.local:
            if os.path.isdir(path):
                return "dir"
            if os.path.isfile(path):
                return "file"
            return "other" if os.path.lexists(path) else "none"
        info = self.filesystem.get_file_info(path)
        return {pafs.FileType.Directory: "dir", pafs.FileType.File: "file"}.get(info.type, "none")

    def exists(self, relative: str) -> bool:
        return self.kind(relative) != "none"

    def listdir(self, relative: str = "") -> list[str]:
        """Names directly inside ``relative`` (empty when it does not exist)."""
        if self.kind(relative) != "dir":
            return []
        path = self.path(relative)
        if self.local:
            return sorted(os.listdir(path))
        infos = self.filesystem.get_file_info(pafs.FileSelector(path, recursive=False))
        return sorted(PurePosixPath(i.path).name for i in infos)

    def size(self, relative: str) -> int:
        path = self.path(relative)
        if self.local:
            return os.stat(path).st_size
        return self.filesystem.get_file_info(path).size

    def stamp(self, relative: str) -> tuple:
        """What identifies a file's current content cheaply (size and modification time)."""
        path = self.path(relative)
        if self.local:
            st = os.stat(path)
            return (st.st_size, st.st_mtime_ns, st.st_ino)
        info = self.filesystem.get_file_info(path)
        return (info.size, info.mtime_ns)

    # ---- reading -------------------------------------------------------------------------------------------

    def read_bytes(self, relative: str) -> bytes:
        path = self.path(relative)
        if self.local:
            return Path(path).read_bytes()
        with self.filesystem.open_input_stream(path) as stream:
            return stream.read()

    def read_json(self, relative: str) -> dict:
        data = self.read_bytes(relative)
        try:
            value = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ValueError(
                f"{self.path(relative)} is not valid JSON ({error}); the run's metadata is damaged"
            ) from None
        if not isinstance(value, dict):
            raise ValueError(f"{self.path(relative)} does not hold an mjsim run's metadata")
        return value

    def sha256(self, relative: str) -> str:
        digest = hashlib.sha256()
        path = self.path(relative)
        if self.local:
            with open(path, "rb") as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
        else:
            digest.update(self.read_bytes(relative))
        return digest.hexdigest()

    # ---- writing -------------------------------------------------------------------------------------------

    def makedirs(self, relative: str = "") -> None:
        path = self.path(relative)
        if self.local:
            os.makedirs(path, exist_ok=True)
        else:
            self.filesystem.create_dir(path, recursive=True)

    def write_bytes(self, relative: str, data: bytes) -> None:
        """Write ``data`` under ``relative`` atomically: a temporary name, flushed to disk, then renamed.

        A failure (a full disk) removes the temporary file and leaves any
        earlier file under that name as it was."""
        final = self.path(relative)
        partial = f"{final}.{uuid.uuid4().hex[:8]}.tmp"
        try:
            if self.local:
                with open(partial, "wb") as handle:
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(partial, final)
                _fsync_dir(os.path.dirname(final))
            else:
                with self.filesystem.open_output_stream(partial) as stream:
                    stream.write(data)
                self.filesystem.move(partial, final)
        except OSError as error:
            self._remove_quietly(partial)
            if error.filename is None:  # name the file, so the one-line error says where the disk filled
                raise OSError(error.errno, error.strerror, final) from None
            raise
        except BaseException:
            self._remove_quietly(partial)
            raise

    def write_json(self, relative: str, value) -> None:
        self.write_bytes(relative, json.dumps(value, indent=2, ensure_ascii=False).encode("utf-8"))

    def write_table(self, relative: str, table: pa.Table) -> dict:
        """Write ``table`` as Parquet (zstd, page checksums) atomically; return its name, rows, bytes and sha256."""
        sink = io.BytesIO()
        pq.write_table(table, sink, compression="zstd", write_page_checksum=True)
        data = sink.getvalue()
        self.write_bytes(relative, data)
        return {
            "name": PurePosixPath(relative).name,
            "rows": table.num_rows,
            "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
        }

    def move(self, source: str, target: str) -> None:
        src, dst = self.path(source), self.path(target)
        if self.local:
            os.replace(src, dst)
            _fsync_dir(os.path.dirname(dst))
        else:
            self.filesystem.move(src, dst)

    def remove(self, relative: str) -> None:
        path = self.path(relative)
        if self.local:
            os.remove(path)
        else:
            self.filesystem.delete_file(path)

    def remove_tree(self, relative: str) -> None:
        """Delete the directory ``relative`` (inside the root, never the root itself) and all it holds."""
        if not PurePosixPath(relative).parts:
            raise ValueError("refusing to delete a run directory's root")
        path = self.path(relative)
        if self.kind(relative) != "dir":
            return
        if self.local:
            import shutil

            shutil.rmtree(path, ignore_errors=True)
        else:
            self.filesystem.delete_dir(path)

    def _remove_quietly(self, path: str) -> None:
        try:
            if self.local:
                os.remove(path)
            else:
                self.filesystem.delete_file(path)
        except (OSError, pa.ArrowException):
            pass


def _fsync_dir(path: str) -> None:
    """Make a rename in ``path`` durable (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
