"""The probability ranking of a lexicon: every key, likeliest draw first, for ``order=probability``.

The probability of a word is the number of ways to draw its tiles from a full bag (Zyzzyva's order;
:meth:`lextools.core.edition.Edition.probability`), a property of its alphagram. No walk of the word DAWG
yields keys in that order, so the ranking is computed whole, once per loaded lexicon, and kept with
the lexicon it belongs to (it goes when a rebuilt lexicon replaces it).

Computing it on a large lexicon takes longer than any request may work. So it is built
in the background (:mod:`lextools.core.background`), pausing every few milliseconds (``pause()``) so
that the requests of its process keep being served; a search asks with a deadline and, while the
ranking is not ready, answers that it found nothing yet and may be asked again. Chunks of keys are
sorted apart and then merged, so no single step holds the process for long.
"""

from __future__ import annotations

import heapq
import logging
import time
from math import comb

from lextools.core import background
from lextools.core.budget import pause
from lextools.core.lexicon import Lexicon

log = logging.getLogger("lextools.ranking")

#: Keys handled between two pauses (about a millisecond of work each).
_CHUNK = 512
#: Longest key: a multiplicity beyond it never occurs.
_LONGEST = 15


def probability_ranking(lex: Lexicon, wait: float | None = None) -> tuple[str, ...] | None:
    """The ranking, starting its build if none has started; None if it is still being built after
    ``wait`` seconds (``None``: wait for it). Raises ``QueryError`` where tile counts are unverified."""
    lex.edition.probability(())  # raises where the counts are unverified: no ranking to build
    ranking: tuple[str, ...] | None = background.result(
        lex, "probability ranking", lambda: _build(lex), wait, evictable=False
    )
    return ranking


def _build(lex: Lexicon) -> tuple[str, ...]:
    started = time.monotonic()
    # A tuple of strings, which the garbage collector stops tracking: as a list it was walked item by
    # item by every full collection.
    keys = tuple(_ranked_keys(lex))
    log.info("%s: probability ranking of %s words in %.1f s", lex.edition.name, len(keys), time.monotonic() - started)
    return keys


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
