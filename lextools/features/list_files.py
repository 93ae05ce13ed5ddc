"""Lists that take a pass over a lexicon, made once per lexicon generation into files every process reads.

A list of new words (against another lexicon) or of the words with a high-value tile costs seconds of
CPU and tens of MB of heap to make (issue 33, rows 1–2). Made in each worker's event loop, under 16
list clients most were never ready and the heap did not go back. So the service makes each once per
lexicon generation — for every worker and every process that shares the cache folder — in a child
process (``python -m lextools.features.list_files``, nice'd, with a time-out: its CPU and memory are
never a worker's), into a file of the service's cache (``EXPORT_CACHE/lists``), and every worker
reads its pages from that file, mapped (:class:`~lextools.features.lists.KeyList` over the mapping,
dropped with the kept list after ``KEPT_IDLE`` s): no worker holds a heap copy.

A file per (lexicon, its checksum[, the other lexicon and its checksum], kind[, tile]) — the lengths
are slices of one file (each length's keys are a block of it)::

    lextools-keys 1\\n
    {"edition": …, "checksum": …, "other": …, "other_checksum": …, "kind": …, "tile": …,
     "lengths": {"2": count, …}, "sha256": of the blocks}\\n
    the blocks, shortest keys first: per length, count × length bytes (Edition.rank_bytes)

written atomically (a temporary file renamed into place) and read back with a check of its header,
its size and its blocks' sha256: a damaged or half-written file is refused, removed and made again,
never served.

Made once: the process that needs a file takes ``.NAME.lock`` beside it (``flock``, non-blocking)
and hands the lock to the child, which holds it while it works and writes its pid and progress
into it; the other processes see the lock held and answer ``ready: false`` with that progress,
looking again every :data:`POLL` s until the file lands. The stale-lock rule is the kernel's: a
lock dies with the processes that held it (a killed worker, a killed child), and the next asker
takes it; a child that makes no progress for :data:`STALL` s (stopped, stuck) is killed by whoever
waits for it. The parent kills and reaps a child past :data:`TIMEOUT`. Once a file is made, the
child removes the files of the same editions' other generations (a rebuilt lexicon's), then the
oldest files until the folder holds at most :data:`MAX_BYTES`.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import mmap
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from lextools.core import background
from lextools.core.budget import pause
from lextools.core.edition import Edition, edition_names
from lextools.core.errors import BusyError, CorruptLexiconError
from lextools.core.lexicon import Lexicon, load_lexicon
from lextools.core.messages import message
from lextools.core.output_files import atomic_write
from lextools.features import lists

MAGIC = b"lextools-keys 1\n"
#: The most bytes a header line may take.
HEADER_MAX = 4096
#: Seconds a child may take to make one list (the longest, every word of es-fise against en, is
#: a few seconds on a busy machine); then it is killed and reaped.
TIMEOUT = 120.0
#: Seconds a child may go without progress (its lock file not written): then it is killed.
STALL = 20.0
#: Seconds between two looks at a child or at a lock held by another process.
POLL = 0.2
#: Bytes of list files the folder keeps (the current generation only).
MAX_BYTES = 256 * 2**20
#: Children one process runs at once (the others wait their turn without using the CPU).
CHILDREN = 1
#: The children's niceness. A player waits for the list (ready: false until it lands), and on a busy
#: machine (16 list clients and look-ups keeping both cores busy) a child at nice 10 got a tenth of a
#: core: 4 lists of 32 were made in the 50 s of the probe. At the workers' priority it takes its share.
NICE = 0
#: The warm-up child's niceness (:meth:`ListFiles.warm`). At nice 10 it had made its 50 lists 76 s
#: after the server started (bench.probes_lists, 16 list clients from the 16th s): most were asked
#: before they were made. At 0, 32 s, with look-up p99 20.6 ms: one child, one core at most.
WARM_NICE = 0
#: Seconds the warm-up child may take to make every list of the served lexicons.
WARM_TIMEOUT = 900.0
#: Bytes hashed between two pauses for other requests while a file is checked.
CHECK_BYTES = 1 << 18
#: Keys (both lexicons together) up to which a list is made in the asking process itself, in the
#: background (paced): a child's start costs more than making it (the tests' small lexicons).
INLINE_KEYS = 20_000
#: The child's command: this module run by this interpreter.
_COMMAND = [sys.executable, "-m", "lextools.features.list_files"]


@dataclass(frozen=True)
class ListSpec:
    """Which list a file holds: ``kind`` "new" (the words of the lexicon the other lacks) or "with"
    (the words holding the tile ``code``)."""

    edition: str
    checksum: str
    kind: str
    other: str | None = None
    other_checksum: str | None = None
    code: str | None = None

    @property
    def name(self) -> str:
        """The file's name: each lexicon as ``edition_<checksum 16>``, then the kind (and tile)."""
        parts = [f"{self.edition}_{self.checksum[:16]}"]
        if self.other is not None:
            parts.append(f"{self.other}_{(self.other_checksum or '')[:16]}")
        parts.append(self.kind if self.code is None else f"{self.kind}-{ord(self.code):x}")
        return "__".join(parts) + ".keys"

    def header(self) -> dict[str, Any]:
        return {
            "edition": self.edition, "checksum": self.checksum, "kind": self.kind,
            "other": self.other, "other_checksum": self.other_checksum, "tile": self.code,
        }  # fmt: skip


def spec_of(lex: Lexicon, other: Lexicon | None, what: tuple[Any, ...]) -> ListSpec:
    """The file of the list ``what`` (lists.py's key: ``("new", …)`` or ``("with", code)``)."""
    if what[0] == "new" and other is not None:
        return ListSpec(lex.edition.name, lex.checksum, "new", other.edition.name, other.checksum)
    if what[0] == "with":
        return ListSpec(lex.edition.name, lex.checksum, "with", code=what[1])
    raise ValueError(f"no list file for {what!r}")


# -- the file ---------------------------------------------------------------------------------------


def encode(spec: ListSpec, keys: lists.KeyList) -> bytes:
    """The file's bytes: magic, header line, blocks (see the module docstring)."""
    blocks = [bytes(keys.blocks[n]) for n in sorted(keys.blocks)]
    digest = hashlib.sha256()
    for block in blocks:
        digest.update(block)
    head = {**spec.header(), "lengths": {str(n): c for n, c in keys.counts.items()}, "sha256": digest.hexdigest()}
    return b"".join([MAGIC, json.dumps(head, ensure_ascii=False).encode() + b"\n", *blocks])


def read(edition: Edition, spec: ListSpec, path: Path) -> lists.KeyList | None:
    """The list in ``path``, mapped (pages are slices of the mapping: no heap copy); None when there
    is no file. A file whose header, size or sha256 is not this list's is removed and None returned:
    it is made again, never served."""
    try:
        f = path.open("rb")
    except FileNotFoundError:
        return None
    with f:
        size = os.fstat(f.fileno()).st_size
        try:
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else None
        except (OSError, ValueError):
            mapped = None
    blocks = _checked(spec, mapped) if mapped is not None else None
    if blocks is None:
        path.unlink(missing_ok=True)  # damaged or of another list: made again
        return None
    return lists.KeyList(edition, blocks)


def _checked(spec: ListSpec, mapped: mmap.mmap) -> dict[int, memoryview] | None:
    """The blocks of a mapped file, or None when its magic, header, size or sha256 is wrong."""
    end = mapped.find(b"\n", len(MAGIC), len(MAGIC) + HEADER_MAX)
    if mapped[: len(MAGIC)] != MAGIC or end < 0:
        return None
    try:
        head = json.loads(mapped[len(MAGIC) : end])
        lengths = {int(n): int(c) for n, c in head["lengths"].items()}
        if any(head[k] != v for k, v in spec.header().items()) or any(n < 1 or c < 0 for n, c in lengths.items()):
            return None
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    at, view = end + 1, memoryview(mapped)
    if at + sum(n * c for n, c in lengths.items()) != len(mapped):
        return None
    digest = hashlib.sha256()
    for i in range(at, len(mapped), CHECK_BYTES):
        digest.update(view[i : min(i + CHECK_BYTES, len(mapped))])
        pause()
    if digest.hexdigest() != head.get("sha256"):
        return None
    blocks = {}
    for n in sorted(lengths):
        blocks[n] = view[at : at + n * lengths[n]]
        at += n * lengths[n]
    return blocks


# -- made once, by a child --------------------------------------------------------------------------


class _Job:
    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: lists.KeyList | None = None
        self.error: BaseException | None = None
        self.progress = 0.0


class ListFiles:
    """The list files of the lexicons in ``home``, in ``folder``: each read, or made once by a child
    (see the module docstring). Per process, one thread (a greenlet under gevent) per list asked for
    and not yet read, at most :data:`CHILDREN` children at once."""

    def __init__(
        self, folder: Path, home: Path, timeout: float = TIMEOUT, max_bytes: int = MAX_BYTES, inline: int = INLINE_KEYS
    ) -> None:
        self.folder, self.home, self.timeout, self.max_bytes = Path(folder), Path(home), timeout, max_bytes
        self.inline = inline
        self._warmed = False
        self._jobs: dict[Path, _Job] = {}
        self._lock = threading.Lock()
        self._children = threading.BoundedSemaphore(CHILDREN)
        self.made = 0  # children this process ran that made a file (for tests and probes)

    def keys(
        self,
        lex: Lexicon,
        other: Lexicon | None,
        what: tuple[Any, ...],
        wait: float | None,
        done: Callable[[lists.KeyList], object],
    ) -> lists.KeyList | None:
        """The list ``what`` of ``lex``, read from its file (made first if none is there, here or by
        another process); None when that takes more than ``wait`` seconds (it goes on: ``done`` is
        called with the list once it is read). An error of the making is raised."""
        spec = spec_of(lex, other, what)
        path = self.folder / spec.name
        with self._lock:
            job = self._jobs.get(path)
            if job is None:
                job = self._jobs[path] = _Job()
                background.start(f"list {spec.name}"[:60], self._run, job, lex, other, spec, path, done)
        if not job.done.wait(wait):
            return None
        if job.error is not None:
            raise job.error
        return job.value

    def warm(self) -> None:
        """Once per process, start making every list of the lexicons in ``home`` that has no file
        yet: one child for all processes (``.warm.lock``, :data:`WARM_NICE`), one list after another, each
        under its own lock as a list asked for is (a list it holds is waited for, one asked first
        is skipped). It runs beside the requests and delays nothing: a list asked for before the
        child reaches it is made by its own child."""
        with self._lock:
            if self._warmed:
                return
            self._warmed = True
        background.start("list files warm-up", self._warm)

    def _warm(self) -> None:
        editions = [name for name in edition_names() if (self.home / f"{name}.json").is_file()]
        task = {"home": str(self.home), "folder": str(self.folder), "editions": editions, "max_bytes": self.max_bytes}
        nice = ["nice", "-n", str(WARM_NICE)] if WARM_NICE and shutil.which("nice") else []
        with contextlib.suppress(OSError), _lock_of(self.folder / "warm") as fd:
            if fd is None:  # another process warms them
                return
            command = [*nice, *_COMMAND, "--warm", json.dumps(task)]
            proc = subprocess.Popen(command, pass_fds=(fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                proc.communicate(timeout=WARM_TIMEOUT)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()  # reaped

    def progress(self, lex: Lexicon, other: Lexicon | None, what: tuple[Any, ...]) -> float:
        """How far the list is made (0 to 1), as its maker last wrote it."""
        job = self._jobs.get(self.folder / spec_of(lex, other, what).name)
        return job.progress if job is not None else 0.0

    def _run(
        self,
        job: _Job,
        lex: Lexicon,
        other: Lexicon | None,
        spec: ListSpec,
        path: Path,
        done: Callable[[lists.KeyList], object],
    ) -> None:
        try:
            job.value = self._read_or_make(job, lex, other, spec, path)
            done(job.value)
        except BaseException as e:  # raised to the requests waiting on it
            job.error = e
        finally:
            with self._lock:
                self._jobs.pop(path, None)
            job.done.set()

    def _read_or_make(
        self, job: _Job, lex: Lexicon, other: Lexicon | None, spec: ListSpec, path: Path
    ) -> lists.KeyList:
        """Read the file; while there is none, make it (a child's turn first, then its lock) or wait
        for whoever makes it, telling its progress."""
        tried = False
        while True:
            keys = read(lex.edition, spec, path)
            if keys is not None:
                return keys
            if tried:
                raise CorruptLexiconError(f"{spec.edition}: the list {spec.name} was made but cannot be read")
            if self._children.acquire(timeout=POLL):
                try:
                    with _lock_of(path) as fd:
                        if fd is not None:
                            if path.exists():  # landed meanwhile: read at the next round
                                continue
                            if len(lex) + (len(other) if other is not None else 0) <= self.inline:
                                write_list(spec, lex, other, path, self.max_bytes, partial(setattr, job, "progress"))
                            else:
                                self._make(job, spec, path, fd)
                            self.made += 1
                            tried = True
                            continue
                finally:
                    self._children.release()
            job.progress = _held(path, STALL)  # another process makes it: look again
            time.sleep(POLL)

    def _make(self, job: _Job, spec: ListSpec, path: Path, fd: int) -> None:
        """Run the child that writes ``path``, handing it the lock ``fd``; killed and reaped past
        ``timeout`` or :data:`STALL` s without progress."""
        _tell(fd, 0, 0.0)
        nice = ["nice", "-n", str(NICE)] if NICE and shutil.which("nice") else []
        task = {**spec.header(), "home": str(self.home), "path": str(path), "fd": fd}
        task.update(max_bytes=self.max_bytes, timeout=self.timeout)
        command = [*nice, *_COMMAND, json.dumps(task)]
        proc = subprocess.Popen(command, pass_fds=(fd,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        start = time.monotonic()
        while True:
            try:
                _, err = proc.communicate(timeout=POLL)
                break
            except subprocess.TimeoutExpired:
                job.progress = _progress(fd)
                stalled = time.time() - os.fstat(fd).st_mtime > STALL
                if time.monotonic() - start > self.timeout or stalled:
                    proc.kill()  # SIGKILL ends a stopped child too
                    proc.communicate()  # reaped
                    raise BusyError(message("busy_list")) from None
        if proc.returncode != 0:
            error = err.decode(errors="replace").strip()[-300:]
            raise CorruptLexiconError(f"{spec.edition}: the list {spec.name} was not made ({error})")


def _tell(fd: int, pid: int, done: float) -> None:
    """Write ``pid progress`` into a lock file (its mtime is the maker's heartbeat)."""
    os.pwrite(fd, f"{pid} {done:.3f}\n".ljust(24).encode(), 0)


@contextlib.contextmanager
def _lock_of(path: Path) -> Iterator[int | None]:
    """``.NAME.lock`` beside ``path``, locked without waiting: its descriptor, or None when another
    process (or a child it handed the lock to) holds it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path.with_name(f".{path.name}.lock"), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield None
        else:
            yield fd
    finally:
        os.close(fd)  # the child's copy, if one runs, holds the lock until it ends


def _progress(fd: int) -> float:
    """The progress a child wrote into its lock file (``pid progress``)."""
    try:
        return min(1.0, max(0.0, float(os.pread(fd, 64, 0).split()[1])))
    except (OSError, ValueError, IndexError):
        return 0.0


def _held(path: Path, stall: float) -> float:
    """The progress of the child another process runs for ``path``; a child whose lock file was not
    written for ``stall`` seconds (stopped, stuck) is killed, which frees the lock."""
    lock = path.with_name(f".{path.name}.lock")
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:
        return 0.0
    try:
        text, idle = os.pread(fd, 64, 0).split(), time.time() - os.fstat(fd).st_mtime
    finally:
        os.close(fd)
    if idle > stall and text and text[0].isdigit():
        _kill_child(int(text[0]), path)
    try:
        return min(1.0, float(text[1]))
    except (ValueError, IndexError):
        return 0.0


def _kill_child(pid: int, path: Path) -> None:
    """SIGKILL ``pid`` if it is the child making ``path`` still (a pid can be reused: its command
    line is checked)."""
    if pid <= 0:  # a lock taken, its child not started yet
        return
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            if json.dumps(str(path)).encode() not in f.read():
                return
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


# -- the child --------------------------------------------------------------------------------------


def make_file(task: dict[str, Any]) -> None:
    """What the child does: load the lexicons, check they are the generation asked for, make the list
    (writing its progress into the lock file), write the file atomically, prune the folder."""
    spec = ListSpec(
        task["edition"], task["checksum"], task["kind"], task["other"], task["other_checksum"], task["tile"]
    )
    fd, path = int(task["fd"]), Path(task["path"])
    home = Path(task["home"])

    signal.alarm(int(task["timeout"]) + 1)  # ends the child even if its parent is gone

    def tell(done: float) -> None:
        _tell(fd, os.getpid(), done)

    tell(0.0)
    lex = _generation(spec.edition, spec.checksum, home)
    other = _generation(str(spec.other), str(spec.other_checksum), home) if spec.other is not None else None
    write_list(spec, lex, other, path, int(task["max_bytes"]), tell)


def write_list(
    spec: ListSpec, lex: Lexicon, other: Lexicon | None, path: Path, max_bytes: int, tell: lists.Tell
) -> None:
    """Make the list (telling how far it is), write its file atomically, prune the folder."""
    if spec.kind == "new" and other is not None:
        keys = lists.new_keys(lex, other, tell)
    else:
        keys = lists.keys_with(lex, str(spec.code), None, tell)
    atomic_write(path, encode(spec, keys))
    tell(1.0)
    prune(path.parent, spec, path, max_bytes)


def warm_files(task: dict[str, Any]) -> None:
    """What the warm-up child does: every list of the ``editions`` with no file yet, one after
    another, each under its lock (a list another process holds or has made is skipped)."""
    signal.alarm(int(WARM_TIMEOUT) + 1)
    home, folder, max_bytes = Path(task["home"]), Path(task["folder"]), int(task["max_bytes"])
    lexicons = {name: load_lexicon(name, home) for name in task["editions"]}
    for name, lex in lexicons.items():
        ed = lex.edition
        todo: list[tuple[ListSpec, Lexicon | None]] = [
            (ListSpec(name, lex.checksum, "with", code=ed.by_label[label].code), None)
            for label in lists.high_value_tiles(ed)
        ]
        todo += [
            (ListSpec(name, lex.checksum, "new", other, against.checksum), against)
            for other, against in lexicons.items()
            if other != name
        ]
        for spec, other_lex in todo:
            path = folder / spec.name
            if path.exists():
                continue
            with _lock_of(path) as fd:
                if fd is None or path.exists():
                    continue
                write_list(spec, lex, other_lex, path, max_bytes, partial(_tell_from, fd))


def _tell_from(fd: int, done: float) -> None:
    _tell(fd, os.getpid(), done)


def _generation(edition: str, checksum: str, home: Path) -> Lexicon:
    lex = load_lexicon(edition, home)
    if lex.checksum != checksum:
        raise CorruptLexiconError(f"{edition}: the lexicon was rebuilt meanwhile; ask again")
    return lex


def prune(folder: Path, spec: ListSpec, made: Path, max_bytes: int) -> None:
    """Remove the list files (and locks) naming ``spec``'s editions with another checksum (a rebuilt
    lexicon's), then the oldest files until the folder holds at most ``max_bytes`` (never ``made``)."""
    current = {spec.edition: spec.checksum[:16]}
    if spec.other is not None:
        current[spec.other] = str(spec.other_checksum)[:16]
    files = []
    for p in folder.iterdir():
        name = p.name.removeprefix(".").removesuffix(".lock")
        lexicons = dict(part.rpartition("_")[::2] for part in name.removesuffix(".keys").split("__")[:-1])
        if any(current.get(edition, checksum) != checksum for edition, checksum in lexicons.items()):
            p.unlink(missing_ok=True)
        elif p.name.endswith(".keys") and p != made:
            with contextlib.suppress(OSError):
                files.append((p.stat().st_mtime, p.stat().st_size, p))
    total = sum(size for _, size, _ in files) + made.stat().st_size
    for _, size, p in sorted(files):
        if total <= max_bytes:
            break
        p.unlink(missing_ok=True)
        total -= size


def main(argv: list[str] | None = None) -> int:
    """The child's entry point: one JSON argument, the task (see :meth:`ListFiles._make`)."""
    args = argv or sys.argv[1:]
    try:
        if args[0] == "--warm":
            warm_files(json.loads(args[1]))
        else:
            make_file(json.loads(args[0]))
    except Exception as e:  # told to the parent on stderr, one line
        sys.stderr.write(f"{type(e).__name__}: {e}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
