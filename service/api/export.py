"""The whole word list for other apps: sent from a file, with the lexicon checksum as ETag.

A client keeps the ETag and sends it back in ``If-None-Match``; while the lexicon is unchanged it
gets a 304 and no body, so re-fetching only happens after a rebuild.

Every export but ``dawg`` (the file as built) is made once per lexicon and what it depends on — the
format, and for ``txt`` the notation; KWG and KAD ignore it — into the export cache (app config
``EXPORT_CACHE``, default :func:`lextools.features.export.default_cache`), with its manifest beside
it, each written atomically, and then sent from there: no worker holds an export in memory. Each is
made by a ``lextools export`` of its own (the CLI's file and manifest, byte for byte), at a lower
priority: a KWG of a large lexicon is seconds of work and a gigabyte of memory, and sorting a text
list in the edition's alphabet is one long call that would hold the worker's event loop; in a
process of its own the memory goes back to the system when it ends, and the worker only waits.
A worker makes at most ``EXPORT_CONCURRENCY`` exports at once and the workers never make the same
file twice (a lock file beside it); a request waits for its turn and its file at most
``EXPORT_WAIT_MS``, then gets 503 ``busy`` with ``Retry-After`` while the file is still being made
for the next ask. ``/manifest`` describes any export (see
lextools.features.export).

The child has a time-out, ``EXPORT_TIMEOUT_S``, and may go at most ``EXPORT_STALL_S`` neither using
nor waiting for the CPU or the disk (``/proc``: a child stopped by SIGSTOP, or stuck asleep, makes no
progress; one starved on a busy machine is runnable, and waits): then it is killed and
reaped, the requests waiting for it get 503 ``busy`` with ``Retry-After``, and the next request
starts a new child. The cache keeps each lexicon's current build only: once an export is made, the
folders of the edition's other builds (a rebuilt lexicon's) are removed, and then the oldest
exports until the cache holds at most ``EXPORT_CACHE_MAX_BYTES``. The lists that teach are made into
the same cache (``lists/``, service/api/study_lists.py) and held to the same rules: the current
generation only, and their bytes count in that one bound.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, request
from werkzeug.wsgi import wrap_file

from lextools.core.errors import BusyError, CorruptLexiconError
from lextools.core.lexicon import Lexicon
from lextools.core.messages import message
from lextools.core.spelling import NOTATIONS, Notation
from lextools.features.export import export_name, manifest, manifest_path, words_dawg
from lextools.features.list_files import LISTS, cpu_usage, prune_generations, stat_or_none
from service.contract.operations import EditionQuery, operation
from service.contract.params import Choice, load
from service.contract.schemas import Answer, Limited, dict_field, errors, int_field, nested_list, str_field
from service.http.lexicons import lexicon, lexicons
from service.http.limits import EXPORT_FORMATS

bp = Blueprint("export", __name__, url_prefix="/v1/<edition>")


class ExportQuery(EditionQuery):
    format = Choice(
        EXPORT_FORMATS,
        load_default=EXPORT_FORMATS[0],
        metadata={
            "description": "txt: one word per line; dawg: the words DAWG as built (digit-notation keys); "
            "kwg: wolges' KWG (DAWG only); kwg-gaddag: GADDAG + DAWG KWG; kad: alphagram KWG"
        },
    )
    notation = Choice(
        NOTATIONS, load_default=NOTATIONS[0], metadata={"description": "txt only: CHIQUILLO, 1IQUI2O or [CH]IQUI[LL]O"}
    )


class ManifestQuery(EditionQuery):
    format = Choice(EXPORT_FORMATS, load_default="kwg", metadata={"description": "the export it describes"})
    notation = Choice(NOTATIONS, load_default=NOTATIONS[0], metadata={"description": "txt only"})


_ETAG = {"ETag": {"schema": {"type": "string"}}}


@operation(
    bp,
    "/export",
    query=ExportQuery,
    parameters=({"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"}},),
    description=Limited(
        "Made once per lexicon and format (and notation for txt) and sent from a file. A worker makes "
        "{EXPORT_CONCURRENCY} export at a time; a request waits for its turn and its file at most "
        "{EXPORT_WAIT_MS} ms, then gets 503 busy with Retry-After while the file is made: ask again."
    ),
    operationId="export",
    responses={
        "200": {
            "description": "The list",
            "headers": _ETAG,
            "content": {
                "text/plain": {"schema": {"type": "string"}},
                "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
            },
        },
        "304": {"description": "Unchanged since the ETag sent in If-None-Match", "headers": _ETAG},
        **errors(400, 404, 503),
    },
)
def export(edition: str) -> Response:
    """The whole word list, streamed; ETag is the lexicon checksum."""
    lex = lexicon(edition)
    params = load(ExportQuery)
    fmt: str = params["format"]
    notation: Notation = params["notation"]
    if request.if_none_match.contains_weak(lex.checksum):
        response = Response(status=304)
    elif fmt == "dawg":
        response = _dawg(edition, lex)
    else:
        path = _exported(lex, fmt, notation)
        response = _file_response(path, "text/plain" if fmt == "txt" else "application/octet-stream")
        response.headers["Content-Disposition"] = f'attachment; filename="{path.name}"'
    response.set_etag(lex.checksum)
    response.cache_control.no_cache = True  # keep it, but ask (If-None-Match) before using it
    return response


def _file_response(path: Path, mimetype: str) -> Response:
    """The file sent as it is on disk (the server's file wrapper: sendfile where it can)."""
    try:
        f = path.open("rb")
    except FileNotFoundError:  # the cache was cleared meanwhile: made again at the next ask
        raise BusyError(message("busy_export")) from None
    size = os.fstat(f.fileno()).st_size
    response = Response(wrap_file(request.environ, f), mimetype=mimetype, direct_passthrough=True)
    response.content_length = size
    return response


class ExportedFile(Answer):
    name = str_field(required=True)
    sha256 = str_field(required=True)
    bytes = int_field(required=True)


class Manifest(Answer):
    """The manifest (the same as FILE.manifest.json beside a CLI export).

    How to load an export (:func:`lextools.features.export.manifest`)."""

    manifest_version = int_field(required=True)
    format = str_field(required=True, metadata={"enum": list(EXPORT_FORMATS)})
    description = str_field()
    layout = dict_field(required=True)
    edition = str_field(required=True)
    alphabet = dict_field(required=True)
    words = int_field(required=True)
    files = nested_list(ExportedFile, required=True)
    lexicon = dict_field("the lexicon exported: checksum, build date, sources, filters, tools", required=True)
    exported_with = dict_field("the versions of the tools that wrote the export")


@operation(bp, "/manifest", query=ManifestQuery, operationId="manifest", answer=Manifest, errors=(400, 404, 503))
def export_manifest(edition: str) -> dict[str, Any]:
    """How to load an export: format, layout, alphabet with tile numbers, sha256, provenance.

    What a program needs to load ``export`` in a format: alphabet, layout, sha256, provenance."""
    lex = lexicon(edition)
    params = load(ManifestQuery)
    if params["format"] == "dawg":  # the file as built: described from its bytes (it is never big)
        return dawg_manifest(lex)
    path = _exported(lex, params["format"], params["notation"])
    try:
        info: dict[str, Any] = json.loads(manifest_path(path).read_bytes())
    except FileNotFoundError:
        raise BusyError(message("busy_export")) from None
    return info


#: Where :func:`service.app.create_app` keeps the app's :class:`ExportFiles`.
MADE = "lextools.exports"


class _Job:
    def __init__(self) -> None:
        self.done = threading.Event()
        self.error: BaseException | None = None


class ExportFiles:
    """The exports this worker makes into the cache directory: at most ``concurrency`` at once, each
    in a thread of its own (a greenlet under gevent) that the requests asking for it wait on.
    Made by ``create_app``, after gevent's monkey-patching (service/server.py): its locks are gevent's."""

    def __init__(self, cache: Path, concurrency: int) -> None:
        self.cache = cache
        self._jobs: dict[Path, _Job] = {}
        self._lock = threading.Lock()
        self._turn = threading.BoundedSemaphore(concurrency)

    def wait_for(self, path: Path, make: Callable[[Path], None], wait: float) -> None:
        """Return once ``path`` and its manifest exist, making them (``make(path)``) if nobody is;
        :class:`BusyError` when that takes more than ``wait`` seconds (the making goes on)."""
        if manifest_path(path).exists():
            return
        deadline = time.monotonic() + wait
        with self._lock:
            job = self._jobs.get(path)
        if job is None:
            job = self._start(path, make, deadline)
        if not job.done.wait(max(0.0, deadline - time.monotonic())):
            raise BusyError(message("busy_export"))
        if job.error is not None:
            raise job.error

    def _start(self, path: Path, make: Callable[[Path], None], deadline: float) -> _Job:
        if not self._turn.acquire(timeout=max(0.0, deadline - time.monotonic())):
            raise BusyError(message("busy_export"))
        with self._lock:
            job = self._jobs.get(path)
            if job is not None:  # started by another request while this one waited for the turn
                self._turn.release()
                return job
            job = self._jobs[path] = _Job()
        threading.Thread(target=self._run, args=(path, make, job), name=f"export {path.name}", daemon=True).start()
        return job

    def _run(self, path: Path, make: Callable[[Path], None], job: _Job) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with _file_lock(path):  # another worker may be making it
                if not manifest_path(path).exists():
                    make(path)
        except BaseException as e:  # the requests waiting on it raise it
            job.error = e
        finally:
            with self._lock:
                del self._jobs[path]
            self._turn.release()
            job.done.set()


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on ``.NAME.lock`` beside ``path``, waited for without blocking the event loop."""
    fd = os.open(path.with_name(f".{path.name}.lock"), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # releases the lock


def _exported(lex: Lexicon, fmt: str, notation: Notation) -> Path:
    """The export's file in the cache, made first if it is not there yet (see the module docstring)."""
    home = lexicons().home
    # What the file depends on: the lexicon (where it was loaded from, its words, its build) and,
    # for text only, the notation (KWG and KAD number the tiles and take no notation).
    which = f"{home}\0{lex.checksum}\0{lex.metadata.get('built')}"
    folder = f"{lex.edition.name}-{hashlib.sha256(which.encode()).hexdigest()[:_HASH_CHARS]}"
    config = current_app.config
    cache = Path(config["EXPORT_CACHE"])
    path = cache / folder / export_name(lex.edition.name, fmt, notation)
    child = _Child(config["EXPORT_TIMEOUT_S"], config["EXPORT_STALL_S"])

    def make(p: Path) -> None:
        _write(lex, fmt, notation, home, p, child)
        prune(cache, p, config["EXPORT_CACHE_MAX_BYTES"], lex.checksum)

    files: ExportFiles = current_app.extensions[MADE]
    files.wait_for(path, make, config["EXPORT_WAIT_MS"] / 1000)
    return path


#: ``lextools export`` of this interpreter: every export is made in a process of its own.
_EXPORT_COMMAND = [sys.executable, "-c", "from lextools.cli.main import main; main()", "export"]


class _Child:
    """How long an export's child may take (``EXPORT_TIMEOUT_S``) and go without using the CPU
    (``EXPORT_STALL_S``) before it is killed: see the module docstring."""

    #: Seconds between two looks at the child.
    POLL_S = 0.25

    def __init__(self, timeout: float, stall: float) -> None:
        self.timeout, self.stall = timeout, stall

    def run(self, command: list[str]) -> tuple[int, bytes]:
        """The child's exit status and standard error; :class:`BusyError` once it is killed (and reaped)."""
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        start = last = time.monotonic()
        cpu: int | None = None
        while True:
            try:  # gevent's subprocess under gunicorn: the worker's other requests run meanwhile
                _, err = proc.communicate(timeout=self.POLL_S)
                return proc.returncode, err
            except subprocess.TimeoutExpired:
                pass
            now, usage = time.monotonic(), cpu_usage(proc.pid)
            if usage is None:  # no /proc to tell (or it has just ended): only the time-out applies
                last = now
            elif usage[0] != cpu or usage[1]:  # it used the CPU, or waits for a core or the disk
                cpu, last = usage[0], now
            if now - start > self.timeout or now - last > self.stall:
                proc.kill()  # SIGKILL ends a stopped process too
                proc.communicate()  # reaped: no zombie, its pipe closed
                raise BusyError(message("busy_export"))


def prune(cache: Path, made: Path, max_bytes: int, checksum: str | None = None) -> None:
    """Keep the current build's exports and lists only: remove the edition's other folders in the
    cache (a rebuilt lexicon's) and, given its lexicon's ``checksum``, its other generations' list
    files (``lists/``, lextools.features.list_files), then the oldest exports or list files until
    the cache holds at most ``max_bytes`` — the list files count in that bound (never the one
    just ``made``). A file is removed after its manifest, which says it is there."""
    edition = made.parent.name[: -_HASH_CHARS - 1]
    for other in cache.glob(f"{edition}-*"):
        if other != made.parent and other.is_dir() and _HASHED.fullmatch(other.name[len(edition) + 1 :]):
            shutil.rmtree(other, ignore_errors=True)
    if checksum is not None:
        prune_generations(cache / LISTS, {edition: checksum})
    exports = sorted(
        (st.st_mtime, st.st_size, p)
        for p in cache.glob("*/*")
        if not p.name.startswith(".") and not p.name.endswith(".manifest.json") and (st := stat_or_none(p)) is not None
    )
    total = sum(size + _size(manifest_path(p)) for _, size, p in exports)
    for _, size, p in exports:
        if total <= max_bytes:
            break
        if p == made:
            continue
        total -= size + _size(manifest_path(p))
        manifest_path(p).unlink(missing_ok=True)
        p.unlink(missing_ok=True)


_HASH_CHARS = 20
_HASHED = re.compile(f"[0-9a-f]{{{_HASH_CHARS}}}")


def _size(p: Path) -> int:
    st = stat_or_none(p)
    return st.st_size if st is not None else 0


def _write(lex: Lexicon, fmt: str, notation: Notation, home: Path, path: Path, child: _Child) -> None:
    """``lextools export`` writes the file and its manifest (the CLI's, byte for byte); a manifest
    of another build than the one this worker serves (a rebuild meanwhile) is thrown away."""
    nice = ["nice", "-n", "10"] if shutil.which("nice") else []
    command = [*nice, *_EXPORT_COMMAND, lex.edition.name, "--format", fmt, "--notation", notation,
               "--output", str(path), "--lexicons", str(home)]  # fmt: skip
    returncode, stderr = child.run(command)
    try:
        made = json.loads(manifest_path(path).read_bytes())["lexicon"]
    except (OSError, ValueError, KeyError):
        made = None
    if (
        returncode != 0
        or made is None
        or (made["checksum"], made["built"]) != (lex.checksum, lex.metadata.get("built"))
    ):
        for p in (manifest_path(path), path):
            p.unlink(missing_ok=True)
        error = stderr.decode(errors="replace").strip()[-300:]
        raise CorruptLexiconError(f"{lex.edition.name}: the {fmt} export was not made ({error or 'rebuilt meanwhile'})")


def _dawg(edition: str, lex: Lexicon) -> Response:
    """The words DAWG exactly as built (keys in digit notation: 1 = CH, 2 = LL, 3 = RR).

    The file is read whole and its sha256 checked against the lexicon's checksum before a byte is
    sent: the ETag promises those bytes, and a file altered or replaced on disk since the lexicon was
    loaded must not go out under it (the DAWG is what a client asked for).
    """
    path = lexicons().words_file(lex)
    try:
        data = path.read_bytes()
    except FileNotFoundError:  # a rebuild removed the generation this worker loaded
        raise CorruptLexiconError(f"{edition}: {path} was removed by a rebuild; try again shortly") from None
    if hashlib.sha256(data).hexdigest() != lex.checksum:
        raise CorruptLexiconError(f"{edition}: {path} no longer matches the checksum of the lexicon in service")
    response = Response(data, mimetype="application/octet-stream")
    response.headers["Content-Disposition"] = f'attachment; filename="{edition}.dawg"'
    return response


def dawg_manifest(lex: Lexicon) -> dict[str, Any]:
    """The manifest of the ``dawg`` export: the words DAWG as built, read once."""
    return manifest(lex, "dawg", words_dawg(lex, lexicons().home), export_name(lex.edition.name, "dawg"))
