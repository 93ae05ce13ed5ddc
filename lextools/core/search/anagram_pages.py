"""Anagrams and subanagrams of a rack, longest first in tiles, then in the edition's alphabet
(:func:`anagram_order`), read in pages from the whole sorted answer. A rack players have (exact
anagrams with at most two blanks, subanagrams of seven tiles:
:func:`~lextools.core.search.alphagram_walks.at_once`) is answered in the caller, in microseconds to
a few milliseconds, every page walked again: a job would cost more than the walk. Any other query's
answer is found once in the background (:mod:`lextools.core.background`) and kept for its pages.

Anagrams of a rack with at most two blanks, and subanagrams of a rack of at most eight tiles and
at most two blanks, look their multisets up in the lexicon's table of each alphagram's words
(:mod:`lextools.core.anagram_table`, a file the build writes; a perfect hash looked up by ``map``
over C functions): the rack's alphagram without blanks is one look-up, and its record is in the
edition's alphabet already; which multisets answer other racks comes from
:mod:`~lextools.core.search.alphagram_walks`. The answers come out as bytes that sort in the
edition's alphabet (:meth:`~lextools.core.edition.Edition.rank_bytes`): two C sorts put them in
anagram order. Other racks (more blanks, longer subanagram racks) have their words spelled from the
DAWGs (:mod:`~lextools.core.search.rack_walks`).
"""

from __future__ import annotations

import contextlib
import functools
from bisect import bisect_right
from collections.abc import Callable, Iterable
from itertools import chain, repeat
from typing import NamedTuple

from lextools.core import background
from lextools.core.anagram_table import table_of, words_of
from lextools.core.budget import Budget, Exhausted
from lextools.core.conditions import Conditions, matcher
from lextools.core.edition import Edition
from lextools.core.errors import PositionError, QueryError, SpellingError
from lextools.core.lexicon import Lexicon
from lextools.core.messages import message
from lextools.core.search.alphagram_walks import at_once, table_alphagrams
from lextools.core.search.parts import BLANK, MAX_QUERY_TILES, Match, in_chunks
from lextools.core.search.rack_walks import walked
from lextools.core.spelling import spell

#: Alphagrams looked up in the table in one chain of ``map``: the other requests of a gevent worker
#: run in between.
_LOOKUPS_AT_ONCE = 2048


def parse_rack(text: str, lex: Lexicon) -> tuple[str, int]:
    """A rack → (known tile keys, number of blanks); ``?`` is a blank, tiles in any notation."""
    blanks = text.count(BLANK)
    key = ""
    # Spell the pieces between blanks apart: C?H is C, H and a blank, never the CH tile.
    for piece in text.split(BLANK):
        if piece.strip():
            try:
                key += spell(piece, lex.edition, obligatory=False).key
            except SpellingError as e:
                raise QueryError(message("bad_rack", text=repr(text), reason=e.message or e.reason)) from None
    if not key and not blanks:
        raise QueryError(message("empty_rack"))
    if len(key) + blanks > MAX_QUERY_TILES:
        raise QueryError(message("rack_tiles", max=MAX_QUERY_TILES))
    return key, blanks


def anagrams(
    lex: Lexicon,
    rack: str,
    blanks: int = 0,
    sub: bool = False,
    min_length: int = 2,
    *,
    budget: Budget | None = None,
    after: str | None = None,
    conditions: Conditions | None = None,
) -> list[Match]:
    """Words using every tile of the rack (or, with ``sub``, any of them, at least ``min_length``)
    that meet the ``conditions`` (:mod:`lextools.core.conditions`).

    ``rack`` is a lexicon key; a blank may be any tile of the edition — a digraph tile too, never a
    letter the edition has no tile for (K and W in es-fise), since those are not in the alphabet.
    A match's ``blanks`` are the tiles its word needs beyond the rack, in the edition's alphabet.
    Longest first in tiles, then in the edition's alphabet (:func:`anagram_order`); see the module
    docstring for ``after``.
    """
    ed = lex.edition
    quick = (not sub and not blanks) or at_once(lex, rack, blanks, sub)  # no job, no thread, nothing kept
    timed = budget is not None and budget.seconds is not None  # a page that stops when time is up
    if quick and not after and conditions is None and not timed:  # the first page, as a rack players have asks it
        if not sub and not blanks:  # most racks have no anagram: no answer made to find that out
            places = _exact_places(lex, rack, min_length)
            return _page(Anagrams(places, ed.keys_of_ranks(places)), 0, rack, 0, ed, budget) if places else []
        whole = sorted_anagrams(lex, rack, blanks, sub, min_length)
        return _page(whole, 0, rack, blanks, ed, budget) if whole.keys else []
    start = _anagram_position(after, ed) if after else None
    budget = budget if budget is not None else Budget()
    if quick:
        every: Anagrams | None = sorted_anagrams(lex, rack, blanks, sub, min_length)
    else:
        query = ("anagrams", rack, blanks, sub, min_length)
        small = len(rack) + blanks <= background.SMALL_TILES

        def every_answer() -> Anagrams:
            return sorted_anagrams(lex, rack, blanks, sub, min_length)

        every = background.result(lex, query, every_answer, wait=budget.remaining(), small=small)
    if every is None:  # still being walked: nothing yet, ask again from the same position
        budget.resume = after or ""
        return []
    first = 0 if start is None else bisect_right(every.order, _longest_first(_place(ed, start)), key=_longest_first)
    keep = matcher(lex, conditions) if conditions is not None else None
    if keep is None and not timed:
        return _page(every, first, rack, blanks, ed, budget) if every.keys else []
    lacking = every.needs.__getitem__ if every.needs is not None else _lacking(rack, blanks, ed)
    found: list[Match] = []
    with contextlib.suppress(Exhausted):  # budget.resume says where
        for i in range(first, len(every.keys)):
            key = every.keys[i]
            if keep is not None and not keep(key):
                budget.step(key)
                continue
            found.append(Match(key, lacking(every.order[i])))
            budget.count(key)
            budget.step(key)
    return found


def _page(every: Anagrams, first: int, rack: str, blanks: int, edition: Edition, budget: Budget | None) -> list[Match]:
    """The answers from ``first`` that the budget's results allow, with no condition to test and no
    time limit (a page that may stop when time is up goes one answer at a time): sliced and made into
    matches with no Python call each, the blanks worked out once per alphagram."""
    keys = every.keys[first:] if first else every.keys
    if not keys:
        return []
    if budget is not None and budget.results is not None:
        room = max(1, budget.results - budget.found)  # the last one allowed stops the walk there
        if len(keys) >= room:
            keys = keys[:room]
            budget.resume = keys[-1]
        budget.found += len(keys)
    if not blanks:
        return [_new(Match, (key, ())) for key in keys]
    places = every.order[first : first + len(keys)]
    needs = map(every.needs.__getitem__ if every.needs is not None else _lacking(rack, blanks, edition), places)
    return [_new(Match, pair) for pair in zip(keys, needs, strict=True)]


#: ``Match._make`` without its Python frame (thousands of matches a query): the tuple made in C.
_new = tuple.__new__


def _lacking(rack: str, blanks: int, edition: Edition) -> Callable[[bytes], tuple[str, ...]]:
    """A function of an answer's place (:func:`_place`) → the tiles a blank stands for in it, in the
    edition's alphabet: its tiles the rack lacks (a rack tile is always spent before a blank).
    Worked out once per alphagram: the words of one share them."""
    if not blanks:
        return lambda place: ()
    spent = [bytes((tile,)) for tile in _place(edition, rack)]  # the rack's tiles, one place each
    label = edition.by_code
    known: dict[bytes, tuple[str, ...]] = {}

    def lacking(place: bytes) -> tuple[str, ...]:
        alphagram = bytes(sorted(place))
        found = known.get(alphagram)
        if found is None:
            rest = alphagram
            for tile in spent:
                rest = rest.replace(tile, b"", 1)
            found = known[alphagram] = tuple(label[c].label for c in edition.keys_of_ranks([rest])[0]) if rest else ()
        return found

    return lacking


class Anagrams(NamedTuple):
    """Every answer of an anagram query, sorted: what :func:`anagrams` keeps and reads pages from."""

    order: list[bytes]  # each answer's place in the order (see _place)
    keys: list[str]
    #: each answer's place → the tiles its blanks stand for, where the walk knew its alphagrams
    needs: dict[bytes, tuple[str, ...]] | None = None


def _place(edition: Edition, key: str) -> bytes:
    """A key's place in :func:`anagram_order`: its :meth:`~lextools.core.edition.Edition.rank_bytes`,
    one byte per tile, so that its length is its length in tiles (see :func:`_longest_first`)."""
    return next(edition.rank_bytes((key,)))


def _longest_first(place: bytes) -> tuple[int, bytes]:
    """What :func:`anagram_order` compares: longer first, then the alphabet."""
    return -len(place), place


def anagram_order(edition: Edition, keys: Iterable[str]) -> list[str]:
    """Keys longest first, counted in tiles, then in the edition's alphabetical order
    (:meth:`~lextools.core.edition.Edition.collation_key`): every list of anagrams a person reads.
    es-fise: CHATO (CH·A·T·O, 4 tiles) after BATO and before DATO; OLLA (O·LL·A, 3 tiles) with
    the 3-tile words, after BAO."""
    return _in_order(edition, list(edition.rank_bytes(keys))).keys


def sorted_anagrams(lex: Lexicon, rack: str, blanks: int, sub: bool, min_length: int) -> Anagrams:
    """Every answer of an anagram query in the answer's order (:func:`anagram_order`): the walk that
    :func:`anagrams` does once per query (in the background) and then reads pages from."""
    if not sub and not blanks:
        places = _exact_places(lex, rack, min_length)
        return Anagrams(places, lex.edition.keys_of_ranks(places))
    return _matches(lex, rack, blanks, sub, min_length, Budget().pace)


def _exact_places(lex: Lexicon, rack: str, min_length: int) -> list[bytes]:
    """The places (:func:`_place`) of the exact anagrams of a rack with no blank: one alphagram, whose
    record is in order already."""
    if len(rack) < min_length:
        return []
    table = table_of(lex)
    places = table.exact(rack, lex.alphagram_test())
    if places is None:
        alphagram = lex.alphagram(rack)
        places = table.ranked_words_of(alphagram.encode()) if lex.has_alphagram(alphagram) else []
    return places


def _in_order(edition: Edition, places: list[bytes]) -> Anagrams:
    """Answers (their places, :func:`_place`) in :func:`anagram_order`, and their keys: places sort as
    bytes in the alphabet, then a stable sort by length puts the longest first (both C sorts with no
    Python key function), and one translate turns them all back into keys."""
    places.sort()
    places.sort(key=len, reverse=True)
    return Anagrams(places, edition.keys_of_ranks(places))


def _matches(lex: Lexicon, rack: str, blanks: int, sub: bool, min_length: int, pace: Callable[[], None]) -> Anagrams:
    """Every anagram (or subanagram) of the rack, in order; the walks call ``pace`` at every node
    (under gevent, a long walk must let the other requests run)."""
    if not len(lex):  # an empty lexicon has no words to walk
        return Anagrams([], [])
    shortest = max(min_length, 1)
    alphagrams = table_alphagrams(lex, rack, blanks, sub, shortest, pace)
    if alphagrams is not None:
        records = in_chunks(table_of(lex).records, alphagrams, _LOOKUPS_AT_ONCE)
        places = words_of(records)
        if blanks == 1 and not sub:
            needs = _one_blank_needs(lex, rack, alphagrams, records, places)
        else:
            needs = _needs(lex, rack, alphagrams, records, places) if blanks else None
        return _in_order(lex.edition, places)._replace(needs=needs)
    return _in_order(lex.edition, list(lex.edition.rank_bytes(walked(lex, rack, blanks, sub, shortest, pace))))


def _needs(
    lex: Lexicon, rack: str, alphagrams: list[bytes], records: list[bytes], places: list[bytes]
) -> dict[bytes, tuple[str, ...]] | None:
    """Each answer's place → the tiles its blanks stand for (its alphagram's tiles the rack lacks, in
    the edition's alphabet), worked out once per alphagram and given to the words of its record,
    which are one after the other in ``places``. Every alphagram is split at once, one byte per tile
    (two ``bytes.translate``), into its tiles the rack has and those it has none of; the rack is taken
    out of the first part once per different part. None where a tile code is not latin-1 (no edition
    we ship): each answer is then worked out on its own."""
    try:
        text = b"\n".join(alphagrams).decode().encode("latin-1")
        spent = rack.encode("latin-1")
        others = lex.alphagram_order.encode("latin-1").translate(None, spent)  # the tiles not in the rack
    except UnicodeEncodeError:
        return None
    label, rank = lex.edition.by_code, lex.edition.collation_key
    tiles = [bytes((tile,)) for tile in spent]
    over_of: dict[bytes, bytes] = {}  # the rack's tiles of an alphagram → those the rack has too few of
    labels_of = dict(_one_tile(lex.edition))
    each = []
    present, absent = text.translate(None, others).split(b"\n"), text.translate(None, spent).split(b"\n")
    for kept, rest in zip(present, absent, strict=True):
        over = over_of.get(kept)
        if over is None:
            over = kept
            for tile in tiles:  # a rack tile is always spent before a blank
                over = over.replace(tile, b"", 1)
            over_of[kept] = over
        lacking = over + rest
        found = labels_of.get(lacking)
        if found is None:
            found = labels_of[lacking] = tuple(label[c].label for c in sorted(lacking.decode("latin-1"), key=rank))
        each.append(found)
    counts = map(bytes.count, records, repeat(b"\n"))
    return dict(zip(places, chain.from_iterable(map(repeat, each, counts)), strict=True))


def _one_blank_needs(
    lex: Lexicon, rack: str, alphagrams: list[bytes], records: list[bytes], places: list[bytes]
) -> dict[bytes, tuple[str, ...]] | None:
    """:func:`_needs` of an exact anagram with one blank: each alphagram is the rack's with one tile
    more, the blank's, whose code is the difference of the two sums of code points (one C ``sum``
    an alphagram, no split of the rack out of each)."""
    spent = sum(map(ord, rack))
    labels_of = lex.edition.by_code
    each = [(labels_of[chr(sum(map(ord, a.decode())) - spent)].label,) for a in alphagrams]
    counts = map(bytes.count, records, repeat(b"\n"))
    return dict(zip(places, chain.from_iterable(map(repeat, each, counts)), strict=True))


@functools.cache
def _one_tile(edition: Edition) -> dict[bytes, tuple[str, ...]]:
    """Each tile's code as latin-1 bytes → its label alone: what one blank stands for, in :func:`_needs`."""
    return {code.encode("latin-1"): (tile.label,) for code, tile in edition.by_code.items() if ord(code) < 0x100}


def _anagram_position(after: str, edition: Edition) -> str:
    """The key an anagram page stopped at (:func:`anagrams` gives it out), checked: tiles of the
    edition, at most :data:`MAX_QUERY_TILES` of them."""
    if not 1 <= len(after) <= MAX_QUERY_TILES or not set(after) <= edition.by_code.keys():
        raise PositionError("not a position an anagram search can resume from")
    return after
