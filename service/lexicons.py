"""The lexicons one worker process has loaded.

A gunicorn worker loads an edition's lexicon the first time a request needs it and keeps it for its
life: a :class:`~lextools.lexicon.Lexicon` is read-only, so the worker's threads share it without
locks. DAWG-Python reads a DAWG into arrays rather than memory-mapping it, so each worker holds its
own copy (a few MB per edition); loading lazily keeps start-up instant and lets an edition built
after the server started be served without a restart.

Hot swap: a build replaces ``E.json`` atomically and names the new DAWGs by checksum, so
:meth:`LexiconCache.refresh` can load the new generation beside the one in use and swap a single
dict entry; requests in flight keep the :class:`Lexicon` they already hold. Nothing calls it on the
request path yet: a later change can call it on a timer or on a signal.
"""

from __future__ import annotations

import threading
from pathlib import Path

from flask import current_app

from lextools.edition import load_edition
from lextools.lexicon import Lexicon, load_lexicon, read_metadata


class LexiconCache:
    """Lexicons by edition name, loaded lazily once per process from one lexicon directory."""

    def __init__(self, home: Path) -> None:
        self.home = Path(home)
        self._loaded: dict[str, Lexicon] = {}
        self._lock = threading.Lock()  # two threads asking for one cold edition load it once

    def get(self, edition: str) -> Lexicon:
        """The edition's lexicon; raises ``UnknownEditionError``, ``LexiconNotFoundError``, ``CorruptLexiconError``."""
        lex = self._loaded.get(edition)
        if lex is not None:
            return lex
        # Refuse unknown names before touching the disk: only a shipped edition's name ever becomes
        # part of a file name, so "../etc" is a 404, never a path.
        load_edition(edition)
        with self._lock:
            lex = self._loaded.get(edition)
            if lex is None:
                lex = self._loaded[edition] = load_lexicon(edition, self.home)
        return lex

    def refresh(self, edition: str) -> bool:
        """Load the edition again if its metadata names another checksum; True when it swapped."""
        load_edition(edition)
        current = self._loaded.get(edition)
        if current is not None and read_metadata(self.home, edition).get("checksum") == current.checksum:
            return False
        fresh = load_lexicon(edition, self.home)
        with self._lock:
            self._loaded[edition] = fresh
        return True

    def words_file(self, lex: Lexicon) -> Path:
        """The words DAWG file of a loaded lexicon (what ``export?format=dawg`` sends)."""
        return self.home / str(lex.metadata["files"]["words"]["name"])


#: Where :func:`service.create_app` keeps the app's :class:`LexiconCache`.
EXTENSION = "lextools.lexicons"


def lexicons() -> LexiconCache:
    """The current app's lexicon cache."""
    cache: LexiconCache = current_app.extensions[EXTENSION]
    return cache


def lexicon(edition: str) -> Lexicon:
    """The current app's lexicon for an edition."""
    return lexicons().get(edition)
