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
from collections import Counter
from collections.abc import Iterable
from math import comb

from lextools.core import background
from lextools.core.budget import pause
from lextools.core.errors import SpellingError
from lextools.core.lexicon import Lexicon
from lextools.core.spelling import spell

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


def rank_of(lex: Lexicon, word: str) -> tuple[int, int] | None:
    """(1-based probability rank of the word among the lexicon's words of its length in tiles, how
    many words have that length); None when the word is not in the lexicon.

    ``word`` is a word in any notation (chorizo, [CH]ORIZO) or a lexicon key. Where the tile counts
    are unverified (es-mattel2021) the rank is the word's place in the alphabet within its length.
    Computed from :func:`probability_ranking` filtered to each length, once per loaded lexicon.
    """
    try:
        key: str | None = spell(word, lex.edition).key
    except SpellingError:
        key = None
    if key is None or key not in lex:
        key = word if word in lex else None
    if key is None or len(key) < 2:  # one-tile keys are never words
        return None
    # The ranking first, out here: a background job waiting on another job would hold the one lane they share.
    ordered = probability_ranking(lex) if lex.edition.has_counts else None
    kept = background.result(lex, "ranks per length", lambda: _ranks(lex, ordered), None, evictable=False)
    ranks, counts = kept if kept is not None else ({}, Counter())
    rank = ranks.get(key)
    return None if rank is None else (rank, counts[len(key)])


def _ranks(lex: Lexicon, ranking: Iterable[str] | None) -> tuple[dict[str, int], Counter[int]]:
    """Every key → its 1-based rank among the keys of its length (in the probability ``ranking``, or
    in the edition's alphabet where the tile counts are unverified: no ranking), and the keys of each length."""
    ordered = ranking if ranking is not None else lex.edition.sort_keys(lex)
    seen: Counter[int] = Counter()
    ranks: dict[str, int] = {}
    for n, key in enumerate(ordered):
        seen[len(key)] += 1
        ranks[key] = seen[len(key)]
        if n % _CHUNK == 0:
            pause()
    return ranks, seen
