"""Lists that take a pass over a lexicon, made once per lexicon generation into files every process reads.

A list of new words (against another lexicon) or of the words with a high-value tile costs seconds of
CPU and tens of MB of heap to make (issue 33, rows 1–2). Made in each worker's event loop, under 16
list clients most were never ready and the heap did not go back. So the service makes each once per
lexicon generation — for every worker and every process that shares the cache folder — in a child
process (``python -m lextools.features.list_files``, at the lowest priority, :data:`PRIORITY`, with a
time-out: its CPU and memory are never a worker's, and it takes a core only when the players'
requests leave one), into a file of the service's cache (``EXPORT_CACHE/lists``), and every worker
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
takes it; a child that makes no progress for :data:`STALL` s and is not runnable (stopped, stuck) is
killed by whoever waits for it. The parent kills and reaps a child past :data:`TIMEOUT`, and every
child of a worker as the worker exits (:meth:`ListFiles.stop`). Once a file is made, the child
removes the files of the same editions' other generations (a rebuilt lexicon's), then the oldest
list files until the whole cache (exports too: one bound) holds at most its ``max_bytes``; the
export cache's pruning removes a rebuilt lexicon's list files as well (service/api/export.py).

The server starts one warm-up child as its workers start (:meth:`ListFiles.warm`, one for all
processes): it makes every list of the served lexicons nobody asked for yet, so most are ready
before players ask, without delaying the server's readiness.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import mmap
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
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
#: The list files' folder in the service's cache (beside the exports' folders).
LISTS = "lists"
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
#: How a list child runs (``LEXTOOLS_LIST_PRIORITY``): "nice" (nice 19: a small share of a busy core)
#: or "idle" (the kernel's SCHED_IDLE: a core only when no other process wants one). Players come
#: first (issue 33: background work cannot starve them), and a list not made yet answers ``ready:
#: false`` with ``Retry-After``. At nice 0 (branch listfiles) the children beside a CPU hog put the
#: look-ups' p99 at 139–182 ms. bench.probes_lists with ``yes`` beside, two runs each: SCHED_IDLE
#: p99 44.2 · 63.7 ms, 803 · 490 answers ready, PSS +10.8 · +10.9 %; nice 19 p99 82.2 · 59.2 ms,
#: 1,993 · 647 ready, PSS +1.8 · +1.7 %: as good for the look-ups, more lists ready, memory back.
#: Either way one run of two had a list answer near 2 s (see bench/README.md). Figures there.
PRIORITY = "nice"
#: Seconds the warm-up child may take to make every list of the served lexicons.
WARM_TIMEOUT = 900.0
#: Bytes hashed between two pauses for other requests while a file is checked.
CHECK_BYTES = 1 << 18
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
    and not yet read, at most :data:`CHILDREN` children at once, each killed and reaped by
    :meth:`stop` when the process ends."""

    def __init__(self, folder: Path, home: Path, timeout: float = TIMEOUT, max_bytes: int = MAX_BYTES) -> None:
        self.folder, self.home, self.timeout, self.max_bytes = Path(folder), Path(home), timeout, max_bytes
        self._warmed = False
        self._jobs: dict[Path, _Job] = {}
        self._lock = threading.Lock()
        self._children = threading.BoundedSemaphore(CHILDREN)
        self._running: set[subprocess.Popen[bytes]] = set()
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
        yet: one child for all processes (``.warm.lock``), one list after another, each under its
        own lock as a list asked for is (a list another child holds is skipped). The server starts
        it in each worker as the worker starts (service/server.py): it delays nothing, and at
        :data:`PRIORITY` it takes only a core nobody else wants; a list asked for before the child
        reaches it is made by its own child."""
        with self._lock:
            if self._warmed:
                return
            self._warmed = True
        background.start("list files warm-up", self._warm)

    def _warm(self) -> None:
        editions = [name for name in edition_names() if (self.home / f"{name}.json").is_file()]
        task = {"home": str(self.home), "folder": str(self.folder), "editions": editions, "max_bytes": self.max_bytes}
        with contextlib.suppress(OSError, BusyError), _lock_of(self.folder / "warm") as fd:
            if fd is None:  # another process warms them
                return
            _tell(fd, 0, 0.0)
            command = [*_COMMAND, "--warm", json.dumps({**task, "fd": fd})]
            self._watch(command, fd, WARM_TIMEOUT, lambda done: None)

    def running(self) -> bool:
        """Whether this process runs a child now."""
        with self._lock:
            return bool(self._running)

    def stop(self) -> None:
        """Kill and reap the children this process runs (the server calls it as a worker exits)."""
        with self._lock:
            running = list(self._running)
        for proc in running:
            with contextlib.suppress(OSError):
                proc.kill()
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                proc.wait(timeout=5)  # reaped (its watcher then sees it end)

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
            job.value = self._read_or_make(job, lex, spec, path)
            done(job.value)
        except BaseException as e:  # raised to the requests waiting on it
            job.error = background.without_frames(e)
        finally:
            with self._lock:
                self._jobs.pop(path, None)
            job.done.set()

    def _read_or_make(self, job: _Job, lex: Lexicon, spec: ListSpec, path: Path) -> lists.KeyList:
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
                            if not path.exists():  # (landed meanwhile: read at the next round)
                                self._make(job, spec, path, fd)
                                self.made += 1
                                tried = True
                            continue
                finally:
                    self._children.release()
            job.progress = _held(path, STALL)  # another process makes it: look again
            time.sleep(POLL)

    def _make(self, job: _Job, spec: ListSpec, path: Path, fd: int) -> None:
        """Run the child that writes ``path``, handing it the lock ``fd``."""
        _tell(fd, 0, 0.0)
        task = {**spec.header(), "home": str(self.home), "path": str(path), "fd": fd}
        task.update(max_bytes=self.max_bytes, timeout=self.timeout)
        error = self._watch([*_COMMAND, json.dumps(task)], fd, self.timeout, partial(setattr, job, "progress"))
        if error is not None:
            raise CorruptLexiconError(f"{spec.edition}: the list {spec.name} was not made ({error})")

    def _watch(self, command: list[str], fd: int, timeout: float, tell: lists.Tell) -> str | None:
        """Run a child holding the lock ``fd`` until it ends (None, or the end of its error output
        when it failed); killed and reaped, :class:`BusyError`, past ``timeout`` s or once it
        stalled (see :func:`_stalled`), as the export child is (service/api/export.py)."""
        proc = subprocess.Popen(command, pass_fds=(fd,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        with self._lock:
            self._running.add(proc)
        start = time.monotonic()
        try:
            while True:
                try:
                    _, err = proc.communicate(timeout=POLL)
                    break
                except subprocess.TimeoutExpired:
                    tell(_progress(fd))
                    if time.monotonic() - start > timeout or _stalled(proc.pid, os.fstat(fd).st_mtime):
                        proc.kill()  # SIGKILL ends a stopped child too
                        proc.communicate()  # reaped
                        raise BusyError(message("busy_list")) from None
        finally:
            with self._lock:
                self._running.discard(proc)
        return None if proc.returncode == 0 else err.decode(errors="replace").strip()[-300:]


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
    """The progress of the child another process runs for ``path``; a child that stalled (see
    :func:`_stalled`) is killed, which frees the lock."""
    lock = path.with_name(f".{path.name}.lock")
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:
        return 0.0
    try:
        text, written = os.pread(fd, 64, 0).split(), os.fstat(fd).st_mtime
    finally:
        os.close(fd)
    if text and text[0].isdigit() and _stalled(int(text[0]), written, stall):
        _kill_child(int(text[0]), path)
    try:
        return min(1.0, float(text[1]))
    except (ValueError, IndexError):
        return 0.0


def _stalled(pid: int, written: float, stall: float = STALL) -> bool:
    """Whether a child whose lock file was last written at ``written`` is stalled: no progress for
    ``stall`` s and neither runnable nor waiting for the disk (``/proc/PID/stat``: stopped by SIGSTOP
    or stuck asleep). A child starved of CPU — at :data:`PRIORITY` on a busy machine it gets a
    core only when nobody else wants one — is runnable: it waits its turn, it is not killed."""
    if time.time() - written <= stall:
        return False
    usage = cpu_usage(pid)
    return usage is None or not usage[1]  # no /proc to tell: the time without progress decides


def cpu_usage(pid: int) -> tuple[int, bool] | None:
    """The CPU time a process has used, in clock ticks, and whether it is runnable or waiting for the
    disk (``/proc/PID/stat``: a child starved of CPU on a busy machine is not stalled; a stopped or
    sleeping one that uses none is); None where there is no /proc. The export child is watched with
    it too (service/api/export.py)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rpartition(b")")[2].split()
        # state, then utime and stime (fields 3, 14 and 15 of proc(5))
        return int(fields[11]) + int(fields[12]), fields[0] in (b"R", b"D")
    except (OSError, ValueError, IndexError):
        return None


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
    warm = int(task["fd"])  # .warm.lock: written as each list goes on (the parent's heartbeat)
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
                write_list(spec, lex, other_lex, path, max_bytes, partial(_tell_from, (fd, warm)))


def _tell_from(fds: tuple[int, ...], done: float) -> None:
    for fd in fds:
        _tell(fd, os.getpid(), done)


def _generation(edition: str, checksum: str, home: Path) -> Lexicon:
    lex = load_lexicon(edition, home)
    if lex.checksum != checksum:
        raise CorruptLexiconError(f"{edition}: the lexicon was rebuilt meanwhile; ask again")
    return lex


def prune(folder: Path, spec: ListSpec, made: Path, max_bytes: int) -> None:
    """Remove the list files (and locks) naming ``spec``'s editions with another checksum (a rebuilt
    lexicon's), then the oldest list files until the whole cache — the exports beside ``folder``
    too, one bound for both (the service's ``EXPORT_CACHE_MAX_BYTES``) — holds at most ``max_bytes``
    (never ``made``)."""
    current = {spec.edition: spec.checksum}
    if spec.other is not None:
        current[spec.other] = str(spec.other_checksum)
    prune_generations(folder, current)
    files = sorted((st.st_mtime, st.st_size, p) for p in folder.glob("*.keys") if p != made and (st := stat_or_none(p)))
    total = cache_bytes(folder.parent)
    for _, size, p in files:
        if total <= max_bytes:
            break
        p.unlink(missing_ok=True)
        total -= size


def prune_generations(folder: Path, current: Mapping[str, str]) -> None:
    """Remove the list files, their locks and temporary files in ``folder`` that name an edition of
    ``current`` (edition → its lexicon's checksum) with another checksum: a rebuilt lexicon's.
    The export cache's pruning calls it too (service/api/export.py)."""
    now = {edition: checksum[:16] for edition, checksum in current.items()}
    with contextlib.suppress(OSError):
        for p in folder.iterdir():
            name = p.name.removeprefix(".").removesuffix(".lock")
            named = dict(part.rpartition("_")[::2] for part in name.removesuffix(".keys").split("__")[:-1])
            if any(now.get(edition, checksum) != checksum for edition, checksum in named.items()):
                p.unlink(missing_ok=True)


def cache_bytes(cache: Path) -> int:
    """Bytes of the files one level down the cache (every export and its manifest, every list
    file), as the export cache's bound counts them: temporary files and locks (``.NAME``) aside."""
    return sum(st.st_size for p in cache.glob("*/*") if not p.name.startswith(".") and (st := stat_or_none(p)))


def stat_or_none(p: Path) -> os.stat_result | None:
    """``p.stat()``, or None when another process removed ``p`` meanwhile (the cache is shared)."""
    try:
        return p.stat()
    except OSError:
        return None


def lower_priority(policy: str) -> str:
    """Run this process at ``policy`` (:data:`PRIORITY`): SCHED_IDLE, or nice 19 ("nice", and where
    there is no SCHED_IDLE). What it ran at is returned."""
    if policy == "idle" and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            return "idle"
    os.nice(19 - os.nice(0))
    return "nice 19"


def main(argv: list[str] | None = None) -> int:
    """The child's entry point: one JSON argument, the task (see :meth:`ListFiles._make`)."""
    args = argv or sys.argv[1:]
    lower_priority(os.environ.get("LEXTOOLS_LIST_PRIORITY", PRIORITY))
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
