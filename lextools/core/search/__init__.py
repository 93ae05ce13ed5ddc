"""Searches that walk the DAWGs: words of N tiles, patterns, anagrams and subanagrams, in the
edition's alphabet or in probability order. One module per job:

- :mod:`~lextools.core.search.parts`: what every search shares — the answer (:class:`Match`), the
  limits, the orders, the dawgdic unit bits the walks read, C work in chunks;
- :mod:`~lextools.core.search.patterns`: pattern search (``?`` one tile, ``*`` any run) and
  :func:`find`, the service's search, built on the guided walk of
  :mod:`~lextools.core.search.pattern_walk`;
- :mod:`~lextools.core.search.patterns_by_probability`: :func:`find` in probability order;
- :mod:`~lextools.core.search.anagram_pages`: anagrams and subanagrams of a rack, longest first, in
  pages; which multisets answer a rack comes from :mod:`~lextools.core.search.alphagram_walks`
  (the lexicon's alphagram index and table) and, for racks those do not answer, the words from
  :mod:`~lextools.core.search.rack_walks` (walks of the words DAWG);
- :mod:`~lextools.core.search.anagrams_by_probability`: the same answers in probability order.

The walks use DAWG-Python's ``Dictionary.follow_bytes`` and ``has_value`` (the dawgdic transition
table), one tile per step: every tile is one character of the key (see :mod:`lextools.core.lexicon`).

Every walk goes in the order of its answer and takes a :class:`~lextools.core.budget.Budget`; a walk
that runs out of budget records where it stopped (``budget.resume``), and ``after=`` that position
continues it — a position is a string only this package reads:

- ``find`` in ``alpha`` order: the last key settled. The walk visits each node's children in the
  edition's alphabet (es-fise: C, CH, D), so keys come out in that order and resuming skips every
  subtree before the position without entering it.
- ``find`` in ``probability`` order: a global index into the lexicon's probability ranking (every
  key, shorter first in tiles, then likeliest draw first; :mod:`lextools.core.ranking`, a file the
  build writes): every key up to it is settled. A pattern whose first tile is given is walked length
  by length in the words DAWG and sorted by rank; any other scans the ranking's keys of each length.
- ``anagrams``: the key of the last answer settled. Anagrams come longest first counted in tiles
  (CHATO is 4 tiles: CH·A·T·O), then in the edition's alphabet (es-fise: … C CH D … N Ñ O …), the
  order of :func:`anagram_order`. The walks find them in the DAWGs' order, not this one, so a
  query's answers are walked and sorted once, in the background (:mod:`lextools.core.background`),
  and kept: a page waits for them at most its budget (until then it answers nothing yet, and a
  position to ask again from) and a later page reads the kept answers from its position, never
  walking the rack again.
- anagrams in probability order: see :mod:`~lextools.core.search.anagrams_by_probability`.
"""

from lextools.core.search.alphagram_walks import at_once
from lextools.core.search.anagram_pages import Anagrams, anagram_order, anagrams, parse_rack, sorted_anagrams
from lextools.core.search.anagrams_by_probability import probability_order, ranked_anagrams
from lextools.core.search.parts import BLANK, MAX_QUERY_TILES, ORDERS, Match, check_order, export_order, ordered
from lextools.core.search.patterns import find, match_pattern, parse_pattern, words_of_length

__all__ = [
    "BLANK",
    "MAX_QUERY_TILES",
    "ORDERS",
    "Anagrams",
    "Match",
    "anagram_order",
    "anagrams",
    "at_once",
    "check_order",
    "export_order",
    "find",
    "match_pattern",
    "ordered",
    "parse_pattern",
    "parse_rack",
    "probability_order",
    "ranked_anagrams",
    "sorted_anagrams",
    "words_of_length",
]
