"""Word-study quizzes — anagram, build, hooks, word-or-phony and word lists — the same for the same seed.

The quiz types are those players know from Zyzzyva and WordVault/Aerolith, counted in tiles (in
es-fise CH is one tile, so CHA is a two-tile word):

- ``anagram``: an alphagram of ``length`` tiles, ``blanks`` of them shown as blanks, and every word
  it makes;
- ``build``: the same rack and every word of at least ``min_length`` tiles it makes. Unless asked,
  ``min_length`` is the larger of 4 and the rack's length − 2 (never more than the rack): a 6-tile
  rack asks for its words of 4 to 6 tiles, a 7-tile rack for those of 5 to 7, as the longer words
  are the ones worth drilling, and a 3-tile rack for its 3-tile words;
- ``hooks``: a word and the tiles that hook it in front and behind;
- ``word-or-phony``: valid words mixed with phonies, each marked. A phony is one tile changed,
  inserted or removed from a valid word, not in the lexicon and spellable in the edition (no C+H
  side by side in es-fise, where they would be the CH tile); it keeps ``length`` tiles, so its
  length gives nothing away. A phony has to fool a club player: it is as likely a draw as the words
  of the range it stands in, and every run of three tiles in it occurs at least
  :data:`PHONY_MIN_TRIGRAM` times among the edition's words of its length and of one tile more
  or less (so at least that often among all of them), so it looks like a word of the language
  (among a few thousand words, a test lexicon's, once per :data:`PHONY_WORDS_PER_COUNT` words);
- ``list``: a page of a named word list (:func:`list_names`).

Questions are picked from a range of *probability ranks* within the length (``rank_from`` to
``rank_to``): items sorted by the number of ways a full bag gives their tiles, up to ``blanks`` of
them blank (:mod:`lextools.core.probability`, Zyzzyva's count), ties in the edition's alphabet. Where
the tile counts are unverified (es-mattel2021) the ranks are alphabetical and probability order is
refused. Without a seed the quiz takes the first ``count`` items of the range; with one, a sample
drawn by :class:`random.Random` seeded with it, so a seed always gives the same questions.
"""

from __future__ import annotations

import ctypes
import itertools
import random
import threading
import time
import weakref
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from math import comb
from typing import Any, TypeVar

from lextools.core import ranking, search
from lextools.core.budget import Budget, paced, paced_sorted
from lextools.core.edition import Edition, edition_names, load_edition
from lextools.core.errors import BusyError, QueryError, QuizTooLargeError, SpellingError
from lextools.core.lexicon import Lexicon
from lextools.core.messages import message
from lextools.core.probability import MAX_BLANKS, draw_count
from lextools.core.spelling import spell
from lextools.features import answers

T = TypeVar("T")

QUIZ_TYPES = ("anagram", "build", "hooks", "word-or-phony", "list")
ORDERS = ("probability", "alphabetical")
#: Questions in one quiz; each anagram or build question is one walk of the alphagram index.
MAX_COUNT = 100
DEFAULT_COUNT = 10
MAX_SEED = 2**31 - 1
#: Probability ranks go no higher than this (no edition has that many words of one length).
MAX_RANK = 10_000_000
MIN_LENGTH, MAX_LENGTH = 2, search.MAX_QUERY_TILES
#: Tiles per question when the request names no length: a bingo for anagrams, as the drills go.
DEFAULT_LENGTH = {"anagram": 7, "build": 6, "hooks": 4, "word-or-phony": 5, "list": 4}
#: A build quiz asks for words of at least the larger of this and the rack's length − 2.
DEFAULT_BUILD_MIN = 4
BUILD_MIN_BELOW_RACK = 2
#: A build rack of 8 tiles and 2 blanks makes thousands of words: racks stay this short, quizzes this long.
MAX_BUILD_LENGTH, MAX_BUILD_COUNT = 8, 20
#: A quiz's size — questions × tiles per question, × (1 + blanks)³ for a build, whose blanks multiply
#: its sub-anagrams — is at most this (:func:`check_size`): 100 questions of 8 tiles, 53 of 15 tiles,
#: 20 build racks of 8 tiles, 12 of 8 tiles with a blank, 3 with two.
MAX_QUIZ_TILES = 800
#: Answers listed in one quiz (build racks with blanks make thousands): about 800 KB of JSON.
MAX_QUIZ_ANSWERS = 10_000
#: A tile worth this much or more is a "high-value" tile (es-fise: CH J LL Ñ Q RR X Z; en: J K Q X Z).
HIGH_VALUE = 5
#: Vowels: a phony changes a vowel for a vowel and a consonant for a consonant, as a misremembered word does.
VOWELS = frozenset("AEIOU")
#: Every run of three tiles in a phony occurs at least this often among real words.
PHONY_MIN_TRIGRAM = 20
#: ... or, among fewer words than 20 times this, once per this many words (at least once).
PHONY_WORDS_PER_COUNT = 1000
#: Words of one tile more and one tile less a phony may be made from, besides the chosen word.
PHONY_NEIGHBOURS = 3


@dataclass(frozen=True)
class QuizRequest:
    """What a quiz asks for; :meth:`checked` refuses anything out of range with a :class:`QueryError`."""

    type: str = "anagram"
    length: int | None = None
    blanks: int = 0
    order: str = "probability"
    rank_from: int = 1
    rank_to: int | None = None
    count: int = DEFAULT_COUNT
    seed: int | None = None
    min_length: int | None = None  # build: None is the default (build_min_length)
    list_name: str | None = None

    def checked(self, edition: Edition) -> QuizRequest:
        """This request with its length and list name settled, or a :class:`QueryError` naming the
        first thing found out of range."""
        if self.type not in QUIZ_TYPES:
            raise QueryError(message("quiz_choice", name="type", choices=", ".join(QUIZ_TYPES)))
        if self.order not in ORDERS:
            raise QueryError(message("quiz_choice", name="order", choices=", ".join(ORDERS)))
        if self.order == "probability" and not edition.has_counts:
            raise QueryError(message("unverified_counts", edition=edition.name))
        list_name = _list_name(edition, self.list_name)
        length = self._length(edition, list_name)
        min_length = self.min_length if self.min_length is not None else build_min_length(length)
        self._check_numbers(length, min_length)
        return QuizRequest(**{**self.__dict__, "length": length, "list_name": list_name, "min_length": min_length})

    def _length(self, edition: Edition, list_name: str | None) -> int:
        """Tiles per question: the list's own length, else the one asked for, else the type's default."""
        length = self.length
        if self.type == "list":
            if list_name not in list_names(edition):
                raise QueryError(message("quiz_choice", name="list", choices=", ".join(list_names(edition))))
            fixed = FIXED_LIST_LENGTH.get(list_name)
            if fixed and length not in (None, fixed):
                raise QueryError(message("quiz_list_length", list=list_name, length=fixed))
            length = fixed or length
        elif list_name is not None:
            raise QueryError(message("quiz_list_only"))
        length = length or DEFAULT_LENGTH[self.type]
        if not MIN_LENGTH <= length <= MAX_LENGTH:
            raise QueryError(message("quiz_range", name="length", low=MIN_LENGTH, high=MAX_LENGTH))
        return length

    def _check_numbers(self, length: int, min_length: int) -> None:
        """Blanks, ranks, count, seed and a build's limits, against the settled ``length``."""
        if not 0 <= self.blanks <= MAX_BLANKS or self.blanks >= length:
            raise QueryError(message("quiz_blanks", max=MAX_BLANKS))
        if self.rank_from < 1 or (self.rank_to is not None and self.rank_to < self.rank_from):
            raise QueryError(message("quiz_ranks"))
        if not 1 <= self.count <= MAX_COUNT:
            raise QueryError(message("quiz_range", name="count", low=1, high=MAX_COUNT))
        if self.seed is not None and not 0 <= self.seed <= MAX_SEED:
            raise QueryError(message("quiz_range", name="seed", low=0, high=MAX_SEED))
        if self.type == "build":
            if length > MAX_BUILD_LENGTH or self.count > MAX_BUILD_COUNT:
                raise QueryError(message("quiz_build", tiles=MAX_BUILD_LENGTH, count=MAX_BUILD_COUNT))
            if not MIN_LENGTH <= min_length <= length:
                raise QueryError(message("quiz_range", name="min_length", low=MIN_LENGTH, high=length))


def build_min_length(length: int) -> int:
    """The shortest word a build quiz on a rack of ``length`` tiles asks for, unless told otherwise:
    the larger of :data:`DEFAULT_BUILD_MIN` and ``length`` − 2, at most the rack's length."""
    return min(length, max(DEFAULT_BUILD_MIN, length - BUILD_MIN_BELOW_RACK))


def choices() -> dict[str, Any]:
    """What a quiz form offers (the study page's), from the same limits :meth:`QuizRequest.checked` applies."""
    editions = {name: load_edition(name) for name in edition_names()}
    return {
        "types": list(QUIZ_TYPES),
        "orders": list(ORDERS),
        "lengths": list(range(MIN_LENGTH, MAX_LENGTH + 1)),
        "default_length": DEFAULT_LENGTH,
        "max_blanks": MAX_BLANKS,
        "max_count": MAX_COUNT,
        "max_seed": MAX_SEED,
        # build: the shortest word asked for by rack length, when the player leaves it to the quiz
        "min_length": {n: build_min_length(n) for n in range(MIN_LENGTH, MAX_BUILD_LENGTH + 1)},
        "max_build_length": MAX_BUILD_LENGTH,
        "lists": {name: list_names(edition) for name, edition in editions.items()},
        "fixed_list_length": FIXED_LIST_LENGTH,
        # Probability order needs every tile count; the form offers alphabetical order alone elsewhere.
        "probability": {name: edition.has_counts for name, edition in editions.items()},
    }


# -- ranks ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ranked:
    key: str  # a lexicon key: a word, or an alphagram with its tiles in the edition's alphabet
    rank: int  # 1 = likeliest (or first in the alphabet where counts are unverified)
    ways: int | None  # draws from a full bag that give these tiles (None where counts are unverified)


#: Ranked lists kept per loaded lexicon, the most recently used ones: a list is every key of its
#: length, and a rebuilt lexicon is a new object whose old lists go with it. A word-or-phony quiz
#: uses six (the keys of three lengths, one ranked list, its tile pairs and runs of three).
CACHED_LISTS = 8
#: A kept list nobody asked for in this long is dropped, so a worker's memory comes back soon after
#: a burst of quizzes (and the pages of the lexicon's files it read, :meth:`Lexicon.release_pages`);
#: making it again from the ranking file takes under a second.
LISTS_IDLE_SECONDS = 5.0
#: Quizzes a process makes at once for budgeted requests (the service's): a quiz beyond them waits
#: for one to end, at most its budget, then is told to ask again (BusyError), rather than queue work
#: that would go on after its client left.
QUIZZES_QUEUED = 1
_QUEUE = threading.BoundedSemaphore(QUIZZES_QUEUED)
#: Each lexicon's kept lists: what → (the list, when it was last asked for).
_LISTS: weakref.WeakKeyDictionary[Lexicon, OrderedDict[tuple[Any, ...], tuple[Any, float]]] = (
    weakref.WeakKeyDictionary()
)


def keys_of_length(lex: Lexicon, length: int) -> Packed | list[str]:
    """The lexicon's keys of ``length`` tiles, in key order (whoever reads them ranks or sorts them),
    kept with the ranked lists: read from the lexicon's ranking file (:mod:`lextools.core.ranking`),
    and kept packed, one byte per tile (:class:`Packed`)."""
    ranks = ranking.file_ranks(lex)
    if ranks is None:
        return _cached(lex, ("keys", length), lambda: _find_keys_of_length(lex, length))
    return _cached(lex, ("keys", length), lambda: _keys_of_length(ranks, length))


def rank(edition: Edition, keys: Iterable[str], blanks: int) -> list[str]:
    """Keys by probability (most ways first, ties in the edition's alphabet), or alphabetically without counts."""
    if not edition.has_counts:
        return paced_sorted(keys, edition.collation_key)
    keys = list(keys)
    ways = [draw_count(edition, edition.decode(k), blanks) for k in paced(keys)]
    # One string per key, compared in C: the ways counted down from the most, at a fixed width, then
    # the key in the edition's alphabet — the order of (-ways, collation key), without a Python call
    # per comparison (a sort that long would hold the worker's other requests).
    most = max(ways, default=0)
    width = len(str(most))
    places = [f"{most - w:0{width}d}{c}" for w, c in zip(paced(ways), edition.collation_keys(keys), strict=True)]
    return [keys[i] for i in paced(paced_sorted(range(len(keys)), places.__getitem__))]


def ranked_alphagrams(lex: Lexicon, length: int, blanks: int) -> Packed | list[str]:
    """The alphagrams of the words of ``length`` tiles (their tiles in the edition's alphabet), in
    rank order: (most ways first, with up to ``blanks`` blanks, then the alphabet), or alphabetical
    where the tile counts are unverified. Made from the ranking file's bytes, kept packed."""
    ed, ranks = lex.edition, ranking.file_ranks(lex)
    if ranks is None:  # a lexicon built before the ranking file: ranked here, paced
        return _cached(
            lex,
            ("alphagrams", length, blanks),
            lambda: rank(ed, {alphagram(ed, k) for k in paced(keys_of_length(lex, length))}, blanks),
        )
    return _cached(lex, ("alphagrams", length, blanks), lambda: _ranked_alphagrams(lex, ranks, length, blanks))


class Packed:
    """Keys of one length in one ``bytes`` object, one byte per tile (its place in the ranking's
    alphabet), read as keys one at a time: a list of a hundred thousand keys in a few hundred KB and
    one allocation, given back whole when the list is dropped (as many ``str`` objects would be
    scattered over the worker's heap, and the heap would keep its high-water mark)."""

    def __init__(self, data: bytes, length: int, ranks: ranking.Ranks) -> None:
        self.data, self.length, self._ranks = data, length, ranks

    def __len__(self) -> int:
        return len(self.data) // self.length

    def __getitem__(self, index: int) -> str:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._ranks.text(self.data[index * self.length : (index + 1) * self.length])

    def __iter__(self) -> Iterator[str]:
        for start in range(0, len(self.data), _PACKED_SLICE * self.length):
            text = self._ranks.text(self.data[start : start + _PACKED_SLICE * self.length])
            yield from (text[i : i + self.length] for i in range(0, len(text), self.length))

    def records(self) -> Iterator[bytes]:
        """Each key as the ranking file writes it, paced for the worker's other requests."""
        size = self.length
        for start in paced(range(0, len(self.data), _PACKED_SLICE * size)):
            chunk = self.data[start : start + _PACKED_SLICE * size]
            yield from (chunk[i : i + size] for i in range(0, len(chunk), size))


#: Keys read or decoded at once from a :class:`Packed` list (a pause for other requests between two).
_PACKED_SLICE = 256


#: Up to this length a walk finds the keys of a length sooner than a pass over every key.
_WALKED_LENGTHS = 5


def _find_keys_of_length(lex: Lexicon, length: int) -> list[str]:
    """The keys of ``length`` tiles, of a lexicon without a ranking file. Short ones by a walk of the
    words DAWG (in the alphabet's order); longer ones in one pass over every key (in key order), paced
    for the worker's other requests — a walk to 11 tiles visits most of the graph in Python."""
    if length <= _WALKED_LENGTHS:
        return search.words_of_length(lex, length)
    return [k for k in paced(lex.keys()) if len(k) == length]


def _keys_of_length(ranks: ranking.Ranks, length: int) -> Packed:
    """The keys of ``length`` tiles in the order a quiz has always drawn them from: up to
    :data:`_WALKED_LENGTHS` tiles the edition's alphabet (a walk of the words DAWG), longer ones the
    keys' own order (code points, as the DAWG lists them)."""
    packed = Packed(ranks.block(length), length, ranks)
    if length <= _WALKED_LENGTHS:
        return Packed(b"".join(paced_sorted(packed.records(), _same)), length, ranks)
    by_code_point = sorted(range(len(ranks.codes)), key=lambda place: ranks.codes[place])
    to_order = bytes(by_code_point.index(place) for place in range(len(ranks.codes))).ljust(0x100, b"\0")
    back = bytes(by_code_point).ljust(0x100, b"\0")
    ordered = paced_sorted((record.translate(to_order) for record in packed.records()), _same)
    return Packed(b"".join(ordered).translate(back), length, ranks)


def _same(item: T) -> T:
    """The sort key of items compared as they are (sorted in slices, :func:`paced_sorted`)."""
    return item


def _ranked_alphagrams(lex: Lexicon, ranks: ranking.Ranks, length: int, blanks: int) -> Packed:
    """Each word's tiles sorted (its alphagram: the file's bytes are places in the alphabet), once
    each, ordered as :func:`rank` orders them."""
    alphagrams = {bytes(sorted(record)) for record in Packed(ranks.block(length), length, ranks).records()}
    if not lex.edition.has_counts:
        return Packed(b"".join(paced_sorted(alphagrams, _same)), length, ranks)
    ways = _record_ways(lex.edition, ranks.codes, blanks)
    most_first = paced_sorted([(-ways(gram), gram) for gram in paced(alphagrams)], _same)
    return Packed(b"".join(gram for _, gram in most_first), length, ranks)


def _record_ways(edition: Edition, codes: str, blanks: int) -> Callable[[bytes], int]:
    """:func:`lextools.core.probability.draw_count` of a key as the ranking file writes it."""
    rows = [tuple(comb(edition.by_code[c].count or 0, m) for m in range(ranking.LONGEST + 2)) for c in codes]
    in_bag = edition.blanks or 0
    one, two = (in_bag if blanks >= 1 else 0), (comb(in_bag, 2) if blanks >= 2 else 0)

    def ways(record: bytes) -> int:
        p0, p1, p2 = 1, 0, 0  # ways for the tiles so far with 0, 1 and 2 of them left to blanks
        for place in set(record):
            k, row = record.count(place), rows[place]
            f0, f1, f2 = row[k], row[k - 1], row[k - 2] if k >= 2 else 0
            p0, p1, p2 = p0 * f0, p0 * f1 + p1 * f0, p0 * f2 + p1 * f1 + p2 * f0
        return p0 + one * p1 + two * p2

    return ways


def ranked_words(lex: Lexicon, length: int, blanks: int, list_name: str | None = None) -> list[str]:
    """The words of ``length`` tiles (of one named list, if given), in rank order. Without blanks or a
    list, the lexicon's ranking (:mod:`lextools.core.ranking`, read from its file) is that order."""
    if not blanks and list_name is None and 0 < length <= ranking.LONGEST:
        ranks = ranking.ranks_of(lex)
        assert ranks is not None  # waited for
        return ranks.keys(length)
    return _cached(
        lex,
        ("words", length, blanks, list_name),
        lambda: rank(lex.edition, _list_keys(lex, length, list_name), blanks),
    )


_LISTS_LOCK = threading.Lock()


def _cached(lex: Lexicon, what: tuple[Any, ...], compute: Callable[[], T]) -> T:
    """A ranked list (or what is made from one), computed once per lexicon while it stays among the
    :data:`CACHED_LISTS` most recently used and was asked for in the last :data:`LISTS_IDLE_SECONDS`."""
    with _LISTS_LOCK:
        lists = _LISTS.setdefault(lex, OrderedDict())
        if what in lists:
            lists.move_to_end(what)
            found: T = lists[what][0]
            lists[what] = found, time.monotonic()
            return found
    result = compute()
    with _LISTS_LOCK:
        lists[what] = result, time.monotonic()
        while len(lists) > CACHED_LISTS:
            lists.popitem(last=False)
    _start_reaper()
    return result


_reaper: threading.Thread | None = None


def _start_reaper() -> None:
    """A thread (a greenlet under gevent) that drops idle lists, while there are lists to drop."""
    global _reaper
    with _LISTS_LOCK:
        if _reaper is None:
            _reaper = threading.Thread(target=_reap, name="quiz lists", daemon=True)
            _reaper.start()


def _reap() -> None:
    while not _reaped():
        pass


def _reaped() -> bool:
    """After a pause, drop the idle lists and the quizzes not taken; True when nothing is left to drop
    (the reaper ends). Memory freed goes back to the system, and a lexicon none of whose lists is
    kept lets go of the pages of its files the quizzes read."""
    global _reaper
    time.sleep(LISTS_IDLE_SECONDS / 4)
    with _LISTS_LOCK:
        now = time.monotonic()
        dropped, emptied = 0, []
        for lex, lists in list(_LISTS.items()):
            idle = [w for w, (_, used) in lists.items() if now - used > LISTS_IDLE_SECONDS]
            for what in idle:
                del lists[what]
            dropped += len(idle)
            if idle and not lists:
                emptied.append(lex)
        for job_key in [k for k, job in _JOBS.items() if job.stale(now)]:
            del _JOBS[job_key]
            dropped += 1
        done = not any(_LISTS.values()) and not _JOBS
        if done:
            _reaper = None
    if dropped:
        give_back_memory()
    for lex in emptied:
        lex.release_pages()
    return done


def give_back_memory() -> None:
    """Hand the heap's free pages back to the system (glibc's ``malloc_trim``; nothing elsewhere): the
    C allocator keeps what a quiz's answers and lists freed, so a worker would stay at its peak."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)


def alphagram(edition: Edition, key: str) -> str:
    """A key's tiles in the edition's alphabetical order (es-fise: A C CH D …), as players write alphagrams."""
    return "".join(sorted(key, key=edition.collation_key))


# -- word lists -------------------------------------------------------------------------------------

#: Lists whose name says their length.
FIXED_LIST_LENGTH = {"two-tile": 2, "three-tile": 3}


def list_names(edition: Edition) -> list[str]:
    """The named lists of an edition: two-tile, three-tile, high-value, and with-T for Ñ and each digraph tile."""
    names = [*FIXED_LIST_LENGTH]
    if edition.has_values:
        names.append("high-value")
    special = [t.label for t in edition.digraphs] + (["Ñ"] if "Ñ" in edition.by_label else [])
    return names + [f"with-{label}" for label in edition.sort_labels(special)]


def _list_name(edition: Edition, name: str | None) -> str | None:
    """``with-`` takes its tile in any notation (with-ñ, with-1, with-[CH]); it is named by its label."""
    if name and name.startswith("with-"):
        try:
            tiles = spell(name.removeprefix("with-"), edition).tiles
        except SpellingError:
            return name
        return f"with-{tiles[0]}" if len(tiles) == 1 else name
    return name


def _list_keys(lex: Lexicon, length: int, list_name: str | None) -> Iterable[str]:
    ed = lex.edition
    keys = keys_of_length(lex, length)
    if list_name == "high-value":
        codes = {t.code for t in ed.tiles if (t.value or 0) >= HIGH_VALUE}
        return [k for k in keys if codes.intersection(k)]
    if list_name and list_name.startswith("with-"):
        code = ed.by_label[list_name.removeprefix("with-")].code
        return [k for k in keys if code in k]
    return keys


# -- the quiz -------------------------------------------------------------------------------------


@dataclass
class _Work:
    """The quiz being made in this context: the answers it lists so far."""

    answers: int = 0


_WORK: ContextVar[_Work | None] = ContextVar("quiz_work", default=None)


def quiz_size(req: QuizRequest) -> int:
    """Questions × tiles per question, × (1 + blanks)³ for a build (see :data:`MAX_QUIZ_TILES`)."""
    assert req.length is not None
    weight = (1 + req.blanks) ** 3 if req.type == "build" else 1
    return req.count * req.length * weight


def check_size(req: QuizRequest) -> None:
    """Refuse (:class:`QuizTooLargeError`) a quiz over :data:`MAX_QUIZ_TILES` before any work."""
    if quiz_size(req) > MAX_QUIZ_TILES:
        raise QuizTooLargeError(message("quiz_too_large", tiles=MAX_QUIZ_TILES))


def quiz(lex: Lexicon, request: QuizRequest, budget: Budget | None = None) -> dict[str, Any]:
    """A quiz as JSON-ready data: the CLI prints it and the service answers it, unchanged.

    Its size is bounded (:func:`check_size`, :data:`MAX_QUIZ_ANSWERS`): the CLI and the service refuse
    the same quizzes. The work pauses every few milliseconds for the other requests of the process
    (:mod:`lextools.core.budget`). With a ``budget`` (the service's) the quiz is made in a thread of
    its own (a greenlet under gevent) and waited for at most ``budget.remaining()``; one not made by
    then is a :class:`BusyError` and goes on being made, kept for the same request asked again.
    """
    req = request.checked(lex.edition)
    check_size(req)
    if budget is None:
        return _made(lex, req)
    job = _job(lex, req, budget)
    if not job.done.wait(budget.remaining()):
        raise BusyError(message("busy_quiz"))
    with _LISTS_LOCK:
        _JOBS.pop((id(lex), req), None)  # taken: the next ask makes it again
    if job.error is not None:
        raise job.error
    return job.value


class _Job:
    """A quiz being made for a budgeted request, or made and not taken yet."""

    def __init__(self, lex: Lexicon) -> None:
        self.lex = lex  # kept alive (and its id unique) while its job is
        self.done = threading.Event()
        self.value: dict[str, Any] = {}
        self.error: BaseException | None = None
        self.finished = 0.0

    def stale(self, now: float) -> bool:
        return self.done.is_set() and now - self.finished > LISTS_IDLE_SECONDS

    def run(self, req: QuizRequest) -> None:
        try:
            self.value = _made(self.lex, req)
        except BaseException as e:  # the request waiting on it raises it
            self.error = e
        finally:
            self.finished = time.monotonic()
            _QUEUE.release()
            self.done.set()


_JOBS: dict[tuple[int, QuizRequest], _Job] = {}


def _job(lex: Lexicon, req: QuizRequest, budget: Budget) -> _Job:
    """The job making this quiz, started unless one is; :data:`QUIZZES_QUEUED` at most unfinished
    (a new one waits for its turn at most the budget, then is a :class:`BusyError`)."""
    key = (id(lex), req)
    with _LISTS_LOCK:
        job = _JOBS.get(key)
    if job is None:
        if not _QUEUE.acquire(timeout=budget.remaining()):
            raise BusyError(message("busy_quiz"))
        with _LISTS_LOCK:
            job = _JOBS.get(key)
            if job is not None:  # started by another request meanwhile
                _QUEUE.release()
            else:
                job = _JOBS[key] = _Job(lex)
                threading.Thread(target=job.run, args=(req,), name=f"quiz {req.type}", daemon=True).start()
    _start_reaper()
    return job


def _made(lex: Lexicon, req: QuizRequest) -> dict[str, Any]:
    token = _WORK.set(_Work())
    try:
        return _quiz(lex, req)
    finally:
        _WORK.reset(token)


def _each(chosen: list[Ranked]) -> Iterator[Ranked]:
    """The chosen items, one question each, letting the other requests run between two (:meth:`Budget.check`)."""
    pacer = Budget()
    for item in chosen:
        pacer.check(item.key)
        yield item


def _anagrams(lex: Lexicon, rack: str, blanks: int, sub: bool, min_length: int) -> list[search.Match]:
    """:func:`lextools.core.search.anagrams`, counted against the quiz's cap on answers."""
    matches = search.anagrams(lex, rack, blanks, sub=sub, min_length=min_length)
    work = _WORK.get()
    if work is not None:
        work.answers += len(matches)
        if work.answers > MAX_QUIZ_ANSWERS:
            raise QuizTooLargeError(message("quiz_answers", max=MAX_QUIZ_ANSWERS))
    return matches


def _quiz(lex: Lexicon, req: QuizRequest) -> dict[str, Any]:
    assert req.length is not None  # checked() fills it in
    ed = lex.edition
    if req.type in ("anagram", "build"):
        ranked: Packed | list[str] = ranked_alphagrams(lex, req.length, req.blanks)
    else:
        ranked = ranked_words(lex, req.length, req.blanks, req.list_name)
    rank_to = min(req.rank_to or len(ranked), len(ranked))
    pool = range(req.rank_from - 1, rank_to)  # indexes into the ranked list
    picked = pool[: req.count] if req.seed is None else random.Random(req.seed).sample(pool, min(req.count, len(pool)))
    chosen = [Ranked(ranked[i], i + 1, _ways(ed, ranked[i], req.blanks)) for i in picked]
    if req.order == "alphabetical":
        chosen.sort(key=lambda r: ed.collation_key(r.key))
    else:
        chosen.sort(key=lambda r: r.rank)
    questions = _MAKERS[req.type](lex, req, chosen)
    answer: dict[str, Any] = {
        "edition": ed.name,
        "type": req.type,
        "list": req.list_name,
        "length": req.length,
        "blanks": req.blanks,
        "min_length": req.min_length if req.type == "build" else None,
        "order": req.order,
        "ranked_by": "probability" if ed.has_counts else "alphabetical",
        "from": req.rank_from,
        "to": rank_to,
        "in_range": len(pool),
        "seed": req.seed,
        "count": len(questions),
        "questions": questions,
    }
    return answer


def _ways(edition: Edition, key: str, blanks: int) -> int | None:
    return draw_count(edition, edition.decode(key), blanks) if edition.has_counts else None


def _entry(lex: Lexicon, key: str) -> dict[str, Any]:
    """A word as every answer shows it (:func:`lextools.features.answers.entries`): CHA is CH·A, two tiles."""
    return answers.entries(lex, (key,))[0]


def rack_text(labels: Iterable[str]) -> str:
    """A rack in the notation every command reads: digraph tiles bracketed, ``?`` for a blank (A[CH]E?)."""
    return "".join(f"[{label}]" if len(label) > 1 else label for label in labels)


def _racks(lex: Lexicon, req: QuizRequest, chosen: list[Ranked]) -> list[dict[str, Any]]:
    """Anagram and build questions: the alphagram with ``blanks`` tiles turned to blanks, and its words."""
    ed = lex.edition
    questions, seen = [], set()
    for item in _each(chosen):
        labels = list(ed.decode(item.key))
        # Which tiles become blanks is drawn per alphagram, so a seed always blanks the same ones.
        drop = set(random.Random(f"{req.seed}:{item.key}").sample(range(len(labels)), req.blanks))
        shown = [label for i, label in enumerate(labels) if i not in drop]
        rack = [*shown, *(["?"] * req.blanks)]
        text = rack_text(rack)
        if text in seen:  # two alphagrams blanked to the same rack: one question
            continue
        seen.add(text)
        build = req.type == "build"
        min_length = (req.min_length or MIN_LENGTH) if build else len(labels)
        questions.append(rack_question(lex, shown, req.blanks, build, min_length, item))
    return questions


def rack_question(
    lex: Lexicon, shown: list[str], blanks: int, sub: bool, min_length: int, item: Ranked | None = None
) -> dict[str, Any]:
    """An anagram (or, with ``sub``, build) question: the tiles ``shown`` and ``blanks`` blanks, and
    every word of at least ``min_length`` tiles they make; ``item`` its rank where it has one."""
    ed = lex.edition
    rack = [*shown, *(["?"] * blanks)]
    matches = _anagrams(lex, ed.encode(shown), blanks, sub=sub, min_length=min_length)
    return {
        "id": rack_text(rack),
        "rank": item.rank if item else None,
        "ways": item.ways if item else None,
        "rack": rack,
        "answers": [
            {**entry, "blanks": list(m.blanks)}
            for entry, m in zip(answers.entries(lex, paced(m.key for m in matches)), matches, strict=True)
        ],
    }


def _hooks(lex: Lexicon, req: QuizRequest, chosen: list[Ranked]) -> list[dict[str, Any]]:
    ed = lex.edition
    questions = []
    for item in _each(chosen):
        hooks = lex.hooks(item.key)
        questions.append(
            {
                "id": ed.spelling(item.key),
                "rank": item.rank,
                "ways": item.ways,
                **_entry(lex, item.key),
                "front": list(hooks.front),  # in the edition's alphabet (Lexicon.hooks)
                "back": list(hooks.back),
            }
        )
    return questions


def _word_list(lex: Lexicon, req: QuizRequest, chosen: list[Ranked]) -> list[dict[str, Any]]:
    ed = lex.edition
    return [{"id": ed.spelling(r.key), "rank": r.rank, "ways": r.ways, **_entry(lex, r.key)} for r in chosen]


def _word_or_phony(lex: Lexicon, req: QuizRequest, chosen: list[Ranked]) -> list[dict[str, Any]]:
    """About half the chosen words stay as they are; the others give way to a phony made from them."""
    assert req.length is not None
    ed = lex.edition
    questions, seen = [], set()
    bounds = _ways_range(lex, req)
    for item in _each(chosen):
        rng = random.Random(f"{req.seed}:{item.key}")
        phony = _phony(lex, req, item, rng, bounds) if rng.random() < 0.5 else None
        key = phony[0] if phony else item.key
        if key in seen:
            continue
        seen.add(key)
        questions.append(
            {
                "id": ed.spelling(key),
                **_entry(lex, key),
                "valid": phony is None,
                "rank": None if phony else item.rank,
                "ways": None if phony else item.ways,
                "from": ed.spelling(phony[1]) if phony else None,
            }
        )
    return questions


def _ways_range(lex: Lexicon, req: QuizRequest) -> tuple[int, int] | None:
    """The fewest and the most ways to draw of the words ranked ``rank_from`` to ``rank_to``; None
    where the edition's tile counts are unverified."""
    assert req.length is not None
    ranked = ranked_words(lex, req.length, req.blanks, req.list_name)
    if not lex.edition.has_counts or not ranked:
        return None
    first = min(req.rank_from, len(ranked)) - 1
    last = min(req.rank_to or len(ranked), len(ranked)) - 1
    most, fewest = (_ways(lex.edition, ranked[i], req.blanks) or 0 for i in (first, last))
    return fewest, most


def _phony(
    lex: Lexicon, req: QuizRequest, item: Ranked, rng: random.Random, bounds: tuple[int, int] | None
) -> tuple[str, str] | None:
    """(phony, the word it came from), or None when no edit of the word or its neighbours makes one.

    A phony of ``length`` tiles changes a tile of the chosen word, or inserts one into a word of
    one tile less, or removes one from a word of one tile more (:data:`PHONY_NEIGHBOURS` of each,
    drawn at random); it uses only pairs of tiles that real words of its length use (and starts and ends with
    tiles they start and end with), and runs of three tiles that are common in words of its length
    and one tile more or less (:func:`_common_trigrams`). Of the phonies an edit makes, those as
    likely to be drawn as the words of the range (``bounds``) are kept; where an edit makes none,
    the next one is tried, and last the phonies nearest the range.
    """
    assert req.length is not None
    ways: list[tuple[str, Callable[[str], list[str]]]] = [(item.key, lambda k: _changed(lex.edition, k))]
    for delta, edit in ((-1, lambda k: _inserted(lex.edition, k)), (1, _removed)):
        length = req.length + delta
        neighbours: Packed | list[str] = keys_of_length(lex, length) if MIN_LENGTH <= length <= MAX_LENGTH else []
        # A few words at random: the range's bounds, not their ranks, keep the phony in the range.
        ways.extend((neighbours[rng.randrange(len(neighbours))], edit) for _ in range(PHONY_NEIGHBOURS) if neighbours)
    rng.shuffle(ways)
    pairs = _pairs(lex, req.length)
    common = _common_trigrams(lex, req.length)
    nearest: list[tuple[float, str, str]] = []
    for base, edit in ways:
        candidates = [
            k for k in paced(edit(base)) if _pairs_of(k) <= pairs and _trigrams_of(k) <= common and _is_phony(lex, k)
        ]
        if not candidates:
            continue
        distance = {k: _distance(lex.edition, k, req.blanks, bounds) for k in candidates}
        within = [k for k in candidates if distance[k] == 0]
        if within:
            weights = [_weight(lex.edition, k) for k in within]
            return rng.choices(within, weights)[0], base
        nearest.extend((distance[k], k, base) for k in candidates)
    if nearest:
        _, phony, base = min(nearest)
        return phony, base
    return None


def _distance(edition: Edition, key: str, blanks: int, bounds: tuple[int, int] | None) -> float:
    """How far a phony's ways to draw lie outside ``bounds`` (0 inside), as a ratio."""
    if bounds is None:
        return 0
    ways = _ways(edition, key, blanks) or 0
    fewest, most = bounds
    if ways < fewest:
        return fewest / max(ways, 1)
    return ways / most if ways > most else 0


def _common_trigrams(lex: Lexicon, length: int) -> frozenset[str]:
    """Runs of three tiles (^ and $ marking the first and the last) found at least
    :data:`PHONY_MIN_TRIGRAM` times among the words of ``length`` tiles and of one tile more or less."""

    def count() -> frozenset[str]:
        counts: Counter[str] = Counter()
        words = 0
        for n in range(max(MIN_LENGTH, length - 1), min(MAX_LENGTH, length + 1) + 1):
            keys = keys_of_length(lex, n)
            words += len(keys)
            counts.update(_runs(keys, 3))
        # A lexicon of a few hundred words (a test's) has no run of three that often: there, once.
        least = min(PHONY_MIN_TRIGRAM, 1 + words // PHONY_WORDS_PER_COUNT)
        return frozenset(t for t, c in counts.items() if c >= least)

    return _cached(lex, ("trigrams", length), count)


def _runs(keys: Iterable[str], size: int) -> Counter[str]:
    """How often each run of ``size`` tiles occurs in the keys, ^ and $ (never tile codes) marking
    the first and the last tile; counted over the keys joined into one text, with no Python call
    per key or per run."""
    text = "^" + "$\n^".join(keys) + "$"
    runs = Counter(map("".join, zip(*(itertools.islice(text, i, None) for i in range(size)), strict=False)))
    for across in [run for run in runs if "\n" in run]:  # from one word into the next
        del runs[across]
    return runs


def _trigrams_of(key: str) -> frozenset[str]:
    """A key's runs of three tiles, marked as :func:`_runs` marks them: a phony starts and ends as
    words do (no RN… in Spanish)."""
    marked = f"^{key}$"
    return frozenset(marked[i : i + 3] for i in range(len(marked) - 2))


def _changed(edition: Edition, key: str) -> list[str]:
    out = []
    for i, old in enumerate(key):
        vowel = edition.by_code[old].label in VOWELS
        for tile in edition.tiles:
            if tile.code != old and (tile.label in VOWELS) == vowel:
                out.append(key[:i] + tile.code + key[i + 1 :])
    return out


def _inserted(edition: Edition, key: str) -> list[str]:
    return [key[:i] + tile.code + key[i:] for i in range(len(key) + 1) for tile in edition.tiles]


def _removed(key: str) -> list[str]:
    return [key[:i] + key[i + 1 :] for i in range(len(key))]


def _pairs(lex: Lexicon, length: int) -> frozenset[str]:
    """Every two tiles that stand side by side in some word of this length: a phony uses only these
    (no QI in Spanish, where Q always comes before U), so it looks like a word of the language."""
    return _cached(lex, ("pairs", length), lambda: frozenset(_runs(keys_of_length(lex, length), 2)))


def _pairs_of(key: str) -> frozenset[str]:
    """Adjacent tiles, with ^ and $ (never tile codes) marking the first and the last."""
    marked = f"^{key}$"
    return frozenset(marked[i : i + 2] for i in range(len(marked) - 1))


def _is_phony(lex: Lexicon, key: str) -> bool:
    """Not a word, and read back as the same tiles from its spelling (C+H would be the CH tile)."""
    if key in lex:
        return False
    try:
        return spell(lex.edition.spelling(key), lex.edition).key == key
    except SpellingError:
        return False


def _weight(edition: Edition, phony: str) -> int:
    """Phonies made of common tiles are the plausible ones: weight by the bag's count of each tile used."""
    weight = 1
    for code in phony:
        weight *= edition.by_code[code].count or 1
    return weight


def question_line(question: dict[str, Any]) -> str:
    """One question and its answer on a line, for the command line's readable output."""
    rank = f"#{question['rank']:<6} " if question.get("rank") else " " * 8
    if "rack" in question:
        words = " ".join(a["word"] for a in question["answers"]) or "—"
        return f"{rank}{question['id']:<12} {words}"
    tiles = "·".join(question["tiles"])
    if "front" in question:
        return f"{rank}{' '.join(question['front']):>12} [{tiles}] {' '.join(question['back'])}"
    if "valid" in question:
        verdict = "word" if question["valid"] else f"phony (from {question['from']})"
        return f"{rank}{question['word']:<16} {verdict}"
    return f"{rank}{question['word']:<16} {tiles}"


_MAKERS: dict[str, Callable[[Lexicon, QuizRequest, list[Ranked]], list[dict[str, Any]]]] = {
    "anagram": _racks,
    "build": _racks,
    "hooks": _hooks,
    "word-or-phony": _word_or_phony,
    "list": _word_list,
}
