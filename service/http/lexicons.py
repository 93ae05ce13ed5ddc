"""The lexicons one worker process has loaded, and how a rebuild reaches them without a restart.

``lextools serve`` loads every edition's lexicon (a kiosk only its edition's) in the gunicorn
arbiter, before it forks its workers (:meth:`LexiconCache.preload`); a
:class:`~lextools.core.lexicon.Lexicon` is read-only, so the workers and their threads share it
without locks. Its DAWG files are memory-mapped, so every
process — workers, and workers loading a rebuilt lexicon later — reads one copy of the bytes in the
page cache; the rest (dawg2's copy of the words DAWG, the Python objects) was built before the fork
and is shared copy-on-write. An edition with no lexicon at start-up is loaded the first time a
request needs it, so one built after the server started is served without a restart.

Hot reload. A build (:func:`lextools.builder.compile.write_lexicon`) writes the new DAWGs under new names
(``E-<sha16>.dawg``) beside the old ones and then replaces ``E.json`` in one ``os.replace``, the
commit point. So a worker only has to notice that ``E.json`` is another file: at most once every
``check_seconds`` (the app's ``RELOAD_CHECK_SECONDS``, 1 s by default; 0 = on every request) the
request that finds the edition due ``os.stat``\\ s the metadata and compares (mtime, inode, size) with
what it loaded — one system call, so the request path stays fast. When it changed, that request
loads the new generation beside the old one and swaps one dict entry; requests in flight keep the
:class:`Lexicon` they already hold, and the other requests of a worker never wait for the
load (a check already under way elsewhere is skipped, not queued for).

If the new generation cannot be loaded (metadata that is not JSON, a DAWG that is missing, truncated
or not matching its checksum), the worker keeps serving the old lexicon, logs one warning, and tries
that same metadata again every ``RETRY_SECONDS`` (a file it names may still be arriving); a request
never fails because a rebuild went wrong.

Deleted files: ``write_lexicon`` keeps the DAWGs of the new generation and of the one it replaced,
and deletes older ones. A worker still holding generation N while N+2 is committed is unaffected:
its map of N's files keeps them readable after they are unlinked, until the lexicon is dropped.
The one exception is ``export?format=dawg``, which sends the file itself; it opens it when the
response starts (an open file survives deletion) and answers 503 "try again" in the narrow case
where two builds land within one check interval (see ``service/api/export.py``).

Explanations. A word's answer names its sources, or the rule that removed it, from the lexicon's
provenance sidecar (:func:`lextools.features.explain.load_sidecar`, one ``os.stat`` a call). The cache holds
each lexicon's sidecar and looks at the file again on the schedule it looks at ``E.json``
(:meth:`LexiconCache.sidecar`), not once per word asked: a rebuild writes the sidecar before it
commits ``E.json``, so a swapped-in lexicon finds its own, and one still being served keeps the one
it was read with.

Every response about one edition carries ``X-Lexicon-Checksum``: the checksum of the lexicon that
answered, so a client sees the swap on the very response (``/v1/editions/{edition}`` shows it too).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from flask import Response, after_this_request, current_app, g, has_request_context, request

from lextools.core.edition import edition_names, load_edition
from lextools.core.errors import LexiconError
from lextools.core.lexicon import Lexicon, load_lexicon, metadata_path, read_metadata
from lextools.features.explain import Sidecar, load_sidecar

log = logging.getLogger("lextools.service")

#: What identifies one version of ``E.json`` on disk: (st_mtime_ns, st_ino, st_size). ``os.replace``
#: gives the new file a new inode, so a rebuild within the mtime granularity is still noticed.
Stamp = tuple[int, int, int]

#: Response header naming the checksum of the lexicon that answered.
CHECKSUM_HEADER = "X-Lexicon-Checksum"

_NEVER = object()  # "no failed reload yet"


@dataclass
class _Loaded:
    """One edition's lexicon in this process, and what is known about the metadata it came from."""

    lexicon: Lexicon
    stamp: Stamp | None  # E.json as stat-ed just before the lexicon was read
    checked: float  # clock() at the last look at E.json
    failed: object = _NEVER  # the stamp a reload last failed on (warned about once)
    failed_at: float = 0.0


class LexiconCache:
    """Lexicons by edition name, loaded lazily from one lexicon directory, reloaded after a rebuild.

    ``check_seconds`` is how often ``get`` looks at an edition's metadata (0: every call); ``None``
    never looks (load once per process; :meth:`refresh` still reloads on demand). ``clock`` is
    injectable so tests need not sleep.
    """

    #: How soon a reload that failed on unchanged metadata is tried again (a bad DAWG is not re-read
    #: and re-hashed on every request when ``check_seconds`` is 0).
    RETRY_SECONDS = 10.0

    def __init__(
        self, home: Path, check_seconds: float | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.home = Path(home)
        self.check_seconds = check_seconds
        self.clock = clock
        self._loaded: dict[str, _Loaded] = {}
        self._metadata_files: dict[str, str] = {}  # E.json paths, built once: pathlib costs more than stat
        self._sidecars: dict[str, tuple[Lexicon, Sidecar | None, float]] = {}  # edition → (lexicon, its sidecar, when)
        self._lock = threading.Lock()  # two threads asking for one cold edition load it once
        self._reload_lock = threading.Lock()  # one reload at a time; others serve what they have

    def get(self, edition: str) -> Lexicon:
        """The edition's lexicon; raises ``UnknownEditionError``, ``LexiconNotFoundError``, ``CorruptLexiconError``.

        Once loaded, never raises: a failed reload keeps the lexicon already held.
        """
        entry = self._loaded.get(edition)
        if entry is not None:
            if self.check_seconds is not None and self.clock() - entry.checked >= self.check_seconds:
                entry = self._check(edition, entry)
            return entry.lexicon
        # Refuse unknown names before touching the disk: only a shipped edition's name ever becomes
        # part of a file name, so "../etc" is a 404, never a path.
        load_edition(edition)
        with self._lock:
            entry = self._loaded.get(edition)
            if entry is None:
                stamp = self._stamp(edition)  # before reading: a change after it is seen next time
                lex = load_lexicon(edition, self.home)
                entry = self._loaded[edition] = _Loaded(lex, stamp, self.clock())
        return entry.lexicon

    def preload(self, only: str | None = None) -> list[str]:
        """Load every edition that has a lexicon here (``only`` that one: a kiosk serves no other), now;
        returns their names.

        Called before gunicorn forks its workers, so they inherit the lexicons instead of each
        loading its own. An edition that cannot be loaded is logged and left to the first request.
        """
        loaded = []
        for name in edition_names() if only is None else [only]:
            if not Path(metadata_path(self.home, name)).exists():
                continue
            try:
                lex = self.get(name)
            except LexiconError as e:
                log.warning("%s: not loaded at start-up: %s", name, e)
                continue
            self.sidecar(lex)  # the explanations of refused words: shared with the workers too
            loaded.append(name)
        return loaded

    def sidecar(self, lex: Lexicon) -> Sidecar | None:
        """The provenance sidecar of a lexicon this cache gave out (None when its build has none),
        read again at most every ``check_seconds`` (never with None), and whenever the lexicon is another."""
        name, now = lex.edition.name, self.clock()
        held = self._sidecars.get(name)
        if held is not None and held[0] is lex and (self.check_seconds is None or now - held[2] < self.check_seconds):
            return held[1]
        sidecar = load_sidecar(lex, self.home)
        self._sidecars[name] = (lex, sidecar, now)
        return sidecar

    def refresh(self, edition: str) -> bool:
        """Load the edition again now if its metadata names another checksum; True when it swapped.

        Unlike ``get``, raises when the metadata or the DAWGs it names cannot be read.
        """
        load_edition(edition)
        with self._reload_lock:
            current = self._loaded.get(edition)
            stamp = self._stamp(edition)
            if current is not None and read_metadata(self.home, edition).get("checksum") == current.lexicon.checksum:
                current.stamp, current.checked = stamp, self.clock()
                return False
            self._loaded[edition] = _Loaded(load_lexicon(edition, self.home), stamp, self.clock())
        return True

    def _stamp(self, edition: str) -> Stamp | None:
        path = self._metadata_files.get(edition)
        if path is None:
            path = self._metadata_files[edition] = str(metadata_path(self.home, edition))
        try:
            st = os.stat(path)
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_ino, st.st_size)

    def _check(self, edition: str, entry: _Loaded) -> _Loaded:
        """The entry to serve now: the same one, or a new generation if ``E.json`` changed and loads."""
        if not self._reload_lock.acquire(blocking=False):
            return entry  # another thread is checking or loading: serve the lexicon we have
        try:
            current = self._loaded[edition]  # another thread may have swapped it meanwhile
            now = self.clock()
            if now - current.checked < (self.check_seconds or 0):
                return current
            current.checked = now
            stamp = self._stamp(edition)
            if stamp == current.stamp:
                return current
            if stamp == current.failed and now - current.failed_at < self.RETRY_SECONDS:
                return current
            return self._reload(edition, current, stamp, now)
        finally:
            self._reload_lock.release()

    def _reload(self, edition: str, current: _Loaded, stamp: Stamp | None, now: float) -> _Loaded:
        try:
            fresh = load_lexicon(edition, self.home)
        except (LexiconError, OSError) as e:  # corrupt, half-copied or removed: keep what works
            if stamp != current.failed:
                log.warning(
                    "%s: still serving lexicon %s: the rebuilt one cannot be loaded (%s); retrying every %g s",
                    edition, current.lexicon.checksum[:16], e, self.RETRY_SECONDS,
                )  # fmt: skip
            current.failed, current.failed_at = stamp, now
            return current
        if fresh.checksum == current.lexicon.checksum:  # touched or rewritten, same words: keep ours
            current.stamp = stamp
            return current
        log.info(
            "%s: now serving lexicon %s (%s words), was %s",
            edition, fresh.checksum[:16], len(fresh), current.lexicon.checksum[:16],
        )  # fmt: skip
        new = self._loaded[edition] = _Loaded(fresh, stamp, now)
        return new

    def words_file(self, lex: Lexicon) -> Path:
        """The words DAWG file of a loaded lexicon (what ``export?format=dawg`` sends)."""
        return self.home / str(lex.metadata["files"]["words"]["name"])


#: Where :func:`service.app.create_app` keeps the app's :class:`LexiconCache`.
EXTENSION = "lextools.lexicons"


def lexicons() -> LexiconCache:
    """The current app's lexicon cache."""
    cache: LexiconCache = current_app.extensions[EXTENSION]
    return cache


def lexicon(edition: str) -> Lexicon:
    """The current app's lexicon for an edition; the response about it names its checksum."""
    lex = lexicons().get(edition)
    if has_request_context() and "lexicon_checksum" not in g and (request.view_args or {}).get("edition") == edition:
        g.lexicon_checksum = checksum = lex.checksum

        @after_this_request
        def name_checksum(response: Response) -> Response:
            response.headers[CHECKSUM_HEADER] = checksum
            return response

    return lex
