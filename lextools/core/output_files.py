"""Files a build or an export writes: written whole or not at all, and stamped with the tools that made them."""

from __future__ import annotations

import os
import secrets
import sys
from importlib import metadata as pkg_metadata
from pathlib import Path

import icu


def atomic_write(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same directory and ``os.replace`` it into place.

    The temporary file is created like any other file (mode 0666 less the umask), not private as
    ``tempfile.mkstemp`` makes it: a lexicon is read by other users (a service account, a container's
    runtime user). ``O_EXCL`` with a random name keeps two concurrent builds apart.
    """
    tmp = write_temporary(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_temporary(path: Path, data: bytes) -> Path:
    """``data`` written whole, synced, in a temporary file beside ``path`` (``.NAME.<random>.tmp``),
    removed again if writing fails; returns its path, for ``os.replace`` into ``path``."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException as e:
        tmp.unlink(missing_ok=True)
        if isinstance(e, OSError) and e.filename is None:  # a full disk on write or fsync names no file
            raise OSError(e.errno, e.strerror, os.fspath(path)) from None
        raise
    return tmp


class Commit:
    """Files written together or not at all: each one to a temporary file first (:meth:`add`), then
    all renamed into place, in the order added (:meth:`done`). Leaving the ``with`` block by an
    error removes the temporary files, so the directory is as it was."""

    def __init__(self) -> None:
        self.pending: list[tuple[Path, Path]] = []

    def __enter__(self) -> Commit:
        return self

    def add(self, path: Path, data: bytes) -> None:
        self.pending.append((write_temporary(path, data), path))

    def done(self) -> None:
        while self.pending:
            tmp, path = self.pending[0]
            os.replace(tmp, path)
            self.pending.pop(0)

    def __exit__(self, *exc: object) -> None:
        for tmp, _ in self.pending:
            tmp.unlink(missing_ok=True)
        self.pending.clear()


def tool_versions() -> dict[str, str]:
    def version(dist: str) -> str:
        try:
            return pkg_metadata.version(dist)
        except pkg_metadata.PackageNotFoundError:
            return "unknown"

    return {
        "lextools": version("lextools"),
        "dawg2": version("DAWG2"),
        "DAWG-Python": version("DAWG-Python"),
        "PyICU": icu.VERSION,
        "ICU": icu.ICU_VERSION,
        "python": sys.version.split()[0],
    }
