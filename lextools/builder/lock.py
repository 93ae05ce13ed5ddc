"""One build at a time per edition and lexicon directory, and the clean-up a killed build needs.

Two builds of one edition into one directory would each write their DAWGs, each replace ``E.json``,
and each delete the generations it does not know — the other's, which ``E.json`` may name by then.
So a build writes under an exclusive ``fcntl.flock`` on ``E.lock`` beside ``E.json``: the second
build waits for the first (and says so), or with ``wait=False`` fails at once. The kernel releases
the lock when its holder exits, however it exits, so a killed build never blocks the next one; the
lock file itself stays (deleting it would let two builds lock two different files). It holds the
holder's pid while a build writes; a build that fails or is refused puts back what it held before,
so a refused build leaves the directory's files as they were (a first build into a directory still
leaves the lock file it created).

A build killed while writing leaves temporary files (``.E-<sha16>.dawg.<random>.tmp``, see
:class:`lextools.core.output_files.Commit`). Only a build holding the lock writes such files, so the next
build, once it holds the lock, removes every one left for its edition.
"""

from __future__ import annotations

import fcntl
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from lextools.core.errors import BuildBusyError, LexiconError, path_text


def lock_path(home: Path, edition: str) -> Path:
    return Path(home) / f"{edition}.lock"


def prepare_home(home: Path) -> Path:
    """The lexicon directory, created if missing; a path that is a file is an error, not a traceback."""
    home = Path(home)
    if home.exists() and not home.is_dir():
        raise LexiconError(f"{path_text(home)}: not a directory (the lexicon directory must be one)")
    home.mkdir(parents=True, exist_ok=True)
    return home


@contextmanager
def build_lock(
    home: Path, edition: str, wait: bool = True, on_wait: Callable[[str], None] | None = None
) -> Iterator[None]:
    """Hold the edition's build lock in ``home``; stale temporary files are removed once it is held."""
    home = prepare_home(home)
    path = lock_path(home, edition)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "another process"
            busy = f"another build of {edition} ({holder}) is writing to {path_text(home)}"
            if not wait:
                raise BuildBusyError(f"{busy}; try again when it has finished") from None
            if on_wait:
                on_wait(f"{busy}; waiting for it to finish")
            fcntl.flock(fd, fcntl.LOCK_EX)
        last = os.pread(fd, 64, 0)
        _write_holder(fd, f"pid {os.getpid()}\n".encode())
        remove_stale_temporaries(home, edition)
        try:
            yield
        except BaseException:
            _write_holder(fd, last)  # a build that fails or is refused leaves the lock file as it found it
            raise
    finally:
        os.close(fd)  # releases the lock


def _write_holder(fd: int, text: bytes) -> None:
    os.ftruncate(fd, 0)
    os.pwrite(fd, text, 0)


def remove_stale_temporaries(home: Path, edition: str) -> list[str]:
    """Delete the edition's temporary files; only call with the build lock held. Returns their names."""
    name = re.escape(edition)
    pattern = re.compile(
        rf"^\.{name}(-[0-9a-f]{{16}}((\.alphagrams|\.anagrams)?\.dawg|\.ranks|\.alphawords|\.stems)|\.exclusions\.json|\.json"
        rf"|\.(provenance|lemmas)\.tsv\.gz)\.[0-9a-f]{{16}}\.tmp$"
    )
    removed = []
    for path in Path(home).iterdir():
        if pattern.match(path.name):
            path.unlink(missing_ok=True)
            removed.append(path.name)
    return removed
