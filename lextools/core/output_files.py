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
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as e:
        tmp.unlink(missing_ok=True)
        if isinstance(e, OSError) and e.filename is None:  # a full disk on write or fsync names no file
            raise OSError(e.errno, e.strerror, os.fspath(path)) from None
        raise


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
