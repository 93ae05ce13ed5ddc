"""The probability ranking of a lexicon: every key, likeliest draw first, for ``order=probability``.

The probability of a word is the number of ways to draw its tiles from a full bag (Zyzzyva's order;
:meth:`lextools.edition.Edition.probability`), a property of its alphagram. No walk of the word DAWG
yields keys in that order, so the ranking is computed whole, once per loaded lexicon, and kept with
the lexicon it belongs to (it goes when a rebuilt lexicon replaces it).

Computing it takes seconds on half a million words, longer than any request may work. So it is built
in the background, in its own thread, which pauses every few milliseconds (``pause()``) so that
the requests of its process keep being served (under gevent's monkey patching the thread is a
greenlet and the pause hands over the event loop); a search asks with a deadline and, while the
ranking is not ready, answers that it found nothing yet and may be asked again. Chunks of keys are
sorted apart and then merged, so no single step holds the process for long.
"""

from __future__ import annotations

import heapq
import logging
import threading
import time
import weakref
from math import comb

from lextools.budget import pause
from lextools.lexicon import Lexicon

log = logging.getLogger("lextools.ranking")

#: Keys handled between two pauses (about a millisecond of work each).
_CHUNK = 512
#: Longest key: a multiplicity beyond it never occurs.
_LONGEST = 15


class _Ranking:
    def __init__(self) -> None:
        self.done = threading.Event()
        self.keys: tuple[str, ...] = ()
        self.error: BaseException | None = None


_rankings: weakref.WeakKeyDictionary[Lexicon, _Ranking] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def probability_ranking(lex: Lexicon, wait: float | None = None) -> tuple[str, ...] | None:
    """The ranking, starting its build if none has started; None if it is still being built after
    ``wait`` seconds (``None``: wait for it). Raises ``QueryError`` where tile counts are unverified."""
    lex.edition.probability(())  # raises where the counts are unverified: no ranking to build
    with _lock:
        ranking = _rankings.get(lex)
        if ranking is None:
            ranking = _rankings[lex] = _Ranking()
            name = f"ranking {lex.edition.name}"
            threading.Thread(target=_build, args=(lex, ranking), name=name, daemon=True).start()
    if not ranking.done.wait(wait):
        return None
    if ranking.error is not None:
        raise ranking.error
    return ranking.keys


def _build(lex: Lexicon, ranking: _Ranking) -> None:
    try:
        started = time.monotonic()
        # A tuple of strings, which the garbage collector stops tracking: as a list it was walked
        # item by item by every full collection, 0.1 s with four rankings in a worker.
        ranking.keys = tuple(_ranked_keys(lex))
        log.info("%s: probability ranking of %s words in %.1f s", lex.edition.name, len(ranking.keys),
                 time.monotonic() - started)  # fmt: skip
    except BaseException as e:  # kept for the requests waiting on it
        ranking.error = e
    finally:
        ranking.done.set()


def _ranked_keys(lex: Lexicon) -> list[str]:
    if not len(lex):  # an empty DAWG cannot be walked
        return []
    ed = lex.edition
    ways_of = {t.code: [comb(t.count or 0, k) for k in range(_LONGEST + 1)] for t in ed.tiles}
    rank = ed.collation_key
    chunks: list[list[tuple[int, str, str]]] = []
    chunk: list[tuple[int, str, str]] = []
    for key in lex:  # every key (Lexicon.__iter__)
        ways = 1
        for code in set(key):
            ways *= ways_of[code][key.count(code)]
        chunk.append((-ways, rank(key), key))
        if len(chunk) == _CHUNK:
            chunk.sort()
            chunks.append(chunk)
            chunk = []
            pause()
    chunk.sort()
    chunks.append(chunk)
    keys: list[str] = []
    for n, (_, _, key) in enumerate(heapq.merge(*chunks)):
        keys.append(key)
        if n % _CHUNK == 0:
            pause()
    return keys
