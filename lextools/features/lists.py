"""Lists that teach: stems, words with a high-value tile, words new in a lexicon, and a player's own list.

- *Stems* (:func:`stems`): the 6- and 7-tile sets that take the most different tiles to make a word
  of one tile more (7 and 8 tiles), as Zyzzyva's and the clubs' stem lists rank them, each with the
  tiles it takes and the words they make. Ranked by the number of tiles it takes, then of words,
  then in the edition's alphabet. Made by the build (:mod:`lextools.core.stems`, a file beside the
  lexicon), so every page is a slice of it; a lexicon built before that file has its stems ranked
  once in the background (below).
- *High-value tiles* (:func:`with_tile`): words with one of the edition's tiles worth
  :data:`~lextools.features.quiz.HIGH_VALUE` points or more (es-fise CH J LL Ñ Q RR X Z; en J K Q
  X Z), shortest first, then in the edition's alphabet.
- *New in this lexicon* (:func:`new_words`): the words of one lexicon that another lacks, compared by
  spelling with :func:`lextools.features.compare.diff` (es-fise against es-na103).
- *A player's list* (:func:`player_list`): text with a word per line — a plain list in any notation
  the edition reads, or a word list exported by Zyzzyva (a word per line, other columns after it) —
  read into valid words, each line it cannot use reported with the reason.

In the service, a list of new words or of a high-value tile's words (of every length: a length's
words are a slice of it) is made once per lexicon generation for every worker and process, by a
child process, into a file the workers read mapped (:mod:`lextools.features.list_files`, given as
``files``): no worker spends the seconds of CPU or holds the heap it takes (issue 33, rows 1–2).
Elsewhere (the command line, and the stems of a lexicon built before the stems file) a list that
takes a pass over the lexicon is made once per lexicon (and other lexicon) in the background
(:mod:`lextools.core.background`), in slices that pause for the process's other requests. Either
is kept packed (:class:`KeyList`, a file's mapping) while it is asked for: a list (the stems file's
lines too) nobody asked for in :data:`KEPT_IDLE` seconds is dropped and its memory (or mapping) given
back, so a worker's memory returns near its idle size after a burst of lists (issue 33, row 2), and
the next ask reads or makes it again. A caller
that gives a ``wait`` gets, while the list is not made, an answer with ``ready`` false and the
``progress`` made (0 to 1): the service's requests never wait longer than that for a list.

Any list becomes a quiz with :func:`list_quiz`: one anagram question per alphagram of its words, in
the list's order, each once — a stem's rack (``AEINRS?``) becomes the alphagrams its words make, each
a question of its own — and none with more answers than the player's bound.
"""

from __future__ import annotations

import operator
import re
import threading
import time
import weakref
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from itertools import compress, islice, repeat
from typing import Any, Protocol, TypeVar, overload

from lextools.core import background, search
from lextools.core import stems as stem_file
from lextools.core.budget import paced, pause
from lextools.core.edition import Edition, edition_names, load_edition
from lextools.core.errors import QueryError, SpellingError
from lextools.core.lexicon import Lexicon
from lextools.core.memory import give_back_memory
from lextools.core.messages import message
from lextools.core.spelling import spell
from lextools.core.stems import Stem
from lextools.features import answers, quiz
from lextools.features.compare import spellings

T = TypeVar("T")

STEM_LENGTHS = stem_file.LENGTHS
#: Items in one page of a list, and by default.
MAX_PAGE, DEFAULT_PAGE = 100, 20
#: Words or racks one list quiz turns into questions (a longer list is quizzed a part at a time).
MAX_QUIZ_ITEMS = 200
#: Blanks on a rack of a list quiz: a stem has one.
MAX_QUIZ_BLANKS = 1
#: Lines of a player's list read at once; characters in a line.
MAX_LIST_LINES, MAX_LINE_CHARS = 5000, 64
#: The largest list file a player gives (``lextools list-quiz``): 5,000 lines of a word and a
#: Zyzzyva definition are under 1 MB; a larger file is refused from its size, before it is read.
MAX_LIST_BYTES = 4 * 2**20
#: A comment line in a list file (Zyzzyva writes none, other tools do).
_COMMENT = ("#", "//", ";")
_COLUMNS = re.compile(r"[\s,;]+")

#: Lists kept per loaded lexicon, the most recently used ones (a rebuilt lexicon is a new object:
#: its lists go with the old one). Packed, one byte a tile: the longest, every word of es-fise new
#: against en, is 5 MB.
KEPT_LISTS = 24
#: Seconds a kept list nobody asked for stays (then the sweeper drops it and gives its memory back:
#: issue 33, row 2 — a worker's memory is back near its idle size soon after a burst of lists).
KEPT_IDLE = background.KEPT_IDLE
#: Stems kept per length, the best ones: the lists players study are their first few hundred.
KEPT_STEMS = stem_file.KEPT
#: Keys read, spelled or sorted at once while a list is made: a pause for other requests between two.
SLICE = 2048
#: How long the service waits for a list being made before it answers with the progress (seconds):
#: within the page's own wait (service/api/study_lists.py's PAGE_WAIT), so a page whose list is not
#: ready says how far it is rather than nothing.
LIST_WAIT = 0.25
#: Per lexicon, its kept lists: what → (the list, when it was last asked for).
_KEPT: weakref.WeakKeyDictionary[Lexicon, OrderedDict[Hashable, tuple[Any, float]]] = weakref.WeakKeyDictionary()
_kept_lock = threading.Lock()
#: The lists being made, per lexicon: how far each is (0 to 1).
_MAKING: weakref.WeakKeyDictionary[Lexicon, dict[Hashable, float]] = weakref.WeakKeyDictionary()
#: When each list not yet kept was last asked for, per lexicon.
_ASKED: weakref.WeakKeyDictionary[Lexicon, dict[Hashable, float]] = weakref.WeakKeyDictionary()

Tell = Callable[[float], None]


class ListSource(Protocol):
    """Where the service reads the lists that take a pass over a lexicon: files made once per lexicon
    generation, by a child process, for every worker (:class:`lextools.features.list_files.ListFiles`)."""

    def keys(
        self,
        lex: Lexicon,
        other: Lexicon | None,
        what: tuple[Any, ...],
        wait: float | None,
        done: Callable[[KeyList], object],
    ) -> KeyList | None: ...

    def progress(self, lex: Lexicon, other: Lexicon | None, what: tuple[Any, ...]) -> float: ...


def _keep(lex: Lexicon, what: Hashable, value: T, asked: float | None = None) -> T:
    """Keep ``value`` as the list ``what``, last asked for at ``asked`` (default: now)."""
    with _kept_lock:
        lists = _KEPT.setdefault(lex, OrderedDict())
        lists[what] = (value, time.monotonic() if asked is None else asked)
        lists.move_to_end(what)
        while len(lists) > KEPT_LISTS:
            lists.popitem(last=False)
    _SWEEPER.wake()
    return value


def _found(lex: Lexicon, what: Hashable) -> tuple[bool, Any]:
    """Whether the list ``what`` is kept, and the list (now the most recently asked)."""
    with _kept_lock:
        lists = _KEPT.get(lex)
        if lists is None or what not in lists:
            return False, None
        lists[what] = (lists[what][0], time.monotonic())
        lists.move_to_end(what)
        return True, lists[what][0]


def _kept(lex: Lexicon, what: Hashable, compute: Callable[[], T]) -> T:
    kept, found = _found(lex, what)
    return found if kept else _keep(lex, what, compute())


def kept_lists(lex: Lexicon) -> list[Hashable]:
    """What lists of ``lex`` this process keeps, least recently asked first (for tests and probes)."""
    with _kept_lock:
        return list(_KEPT.get(lex, {}))


def _swept() -> bool:
    """Drop the lists nobody asked for in :data:`KEPT_IDLE` seconds, and with a lexicon's last stems
    list the stems file's lines it read (:func:`lextools.core.stems.forget`); the memory goes back to
    the system. True when nothing is kept (the sweeper ends)."""
    now, dropped, no_stems = time.monotonic(), 0, []
    with _kept_lock:
        for lex, lists in list(_KEPT.items()):
            idle = [what for what, (_, asked) in lists.items() if now - asked > KEPT_IDLE]
            for what in idle:
                del lists[what]
            dropped += len(idle)
            if not any(isinstance(what, tuple) and what[0] == "stems" for what in lists):
                no_stems.append(lex)
        done = not any(_KEPT.values())
    for lex in no_stems:
        dropped += stem_file.forget(lex)
    if dropped:
        give_back_memory()
    return done


#: The thread (a greenlet under gevent) that drops the lists kept idle, while there are some.
_SWEEPER = background.Sweeper("kept lists", _swept, KEPT_IDLE / 4)


def _from_files(
    lex: Lexicon, other: Lexicon | None, what: tuple[Any, ...], wait: float | None, files: ListSource
) -> KeyList | None:
    """The list ``what``: kept, else read from its file (made once for every process: ``files``),
    kept once read; None when that takes more than ``wait`` seconds."""
    kept, found = _found(lex, what)
    if kept:
        return found
    value = files.keys(lex, other, what, wait, lambda keys: _keep(lex, what, keys))
    return None if value is None else _keep(lex, what, value)


def _made(lex: Lexicon, what: Hashable, make: Callable[[Tell], T], wait: float | None) -> T | None:
    """The list ``what`` of this lexicon: kept, or made once in the background by ``make`` (which tells
    how far it is); None when it is not made within ``wait`` seconds (None: wait for it)."""
    kept, found = _found(lex, what)
    if kept:
        return found
    making = _MAKING.setdefault(lex, {})
    asked = _ASKED.setdefault(lex, {})
    asked[what] = time.monotonic()

    def job() -> T:
        making.setdefault(what, 0.0)
        try:  # kept once made, whether a request still waits or not (the next ask finds it), as last
            made = make(lambda done: making.__setitem__(what, min(done, 1.0)))  # asked: a list made
            return _keep(lex, what, made, asked.get(what))  # after its clients left goes in KEPT_IDLE
        finally:
            making.pop(what, None)
            asked.pop(what, None)

    value: T | None = background.result(lex, ("list", what), job, wait, once=True)
    return None if value is None else _keep(lex, what, value)


def progress(lex: Lexicon, what: Hashable) -> float:
    """How far the list ``what`` is made (0 while it waits its turn)."""
    return _MAKING.get(lex, {}).get(what, 0.0)


def _not_ready(kind: str, lex: Lexicon, done: float, start: int, rest: dict[str, Any]) -> dict[str, Any]:
    """The answer while a list is being made: no items, and how far it is (``done``, 0 to 1)."""
    return {**_paged(kind, lex, 0, start, 0), **rest, "ready": False, "progress": round(done, 3)}


class KeyList(Sequence[str]):
    """Keys sorted shortest first, each length in the edition's alphabet, held packed: per length one
    ``bytes`` of its keys as :meth:`~lextools.core.edition.Edition.rank_bytes`, one byte a tile (a list
    of half a million keys in a few MB and one allocation per length, not as many ``str`` objects)."""

    def __init__(self, edition: Edition, blocks: Mapping[int, bytes | memoryview]) -> None:
        self.edition, self.blocks = edition, {n: blocks[n] for n in sorted(blocks) if blocks[n]}
        self.counts = {n: len(b) // n for n, b in self.blocks.items()}

    def __len__(self) -> int:
        return sum(self.counts.values())

    def of_length(self, length: int) -> KeyList:
        return KeyList(self.edition, {length: self.blocks[length]} if length in self.blocks else {})

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, int):
            return self[index : index + 1 or None][0]
        start, stop, _ = index.indices(len(self))
        records: list[bytes] = []
        for n, count in self.counts.items():
            if start < count and stop > 0:
                block = bytes(self.blocks[n][max(start, 0) * n : min(stop, count) * n])  # (of a mapped file)
                records.extend(block[i : i + n] for i in range(0, len(block), n))
            start, stop = start - count, stop - count
        return self.edition.keys_of_ranks(records)

    @classmethod
    def of(cls, edition: Edition, slices: Iterable[list[str]], tell: Callable[[], None]) -> KeyList:
        """The keys of ``slices`` (lists of keys, each a few thousand), packed and sorted, a pause for
        other requests (and ``tell``) after each slice and each sort of a bucket. Each slice is sorted
        (by length, then the alphabet) and split into buckets of one length and first tile by
        bisection (C calls, no Python code per key); each bucket, a few thousand keys, is sorted once
        at the end, and a length's buckets joined in the order of their first tile."""
        buckets: dict[tuple[int, int], list[bytes]] = {}
        for keys in slices:
            records = sorted(edition.rank_bytes(keys))
            records.sort(key=len)  # stable: each length's keys stay in the alphabet's order
            at = 0
            while at < len(records):
                bucket = _bucket(records[at])
                end = bisect_right(records, bucket, lo=at, key=_bucket)
                buckets.setdefault(bucket, []).extend(records[at:end])
                at = end
            tell()
            pause()
        blocks: dict[int, list[bytes]] = {}
        for bucket in sorted(buckets):
            records = buckets.pop(bucket)
            records.sort()
            blocks.setdefault(bucket[0], []).append(b"".join(records))
            pause()
        return cls(edition, {n: b"".join(parts) for n, parts in blocks.items()})


def _bucket(record: bytes) -> tuple[int, int]:
    """A key's bucket in :meth:`KeyList.of`: its length and its first tile."""
    return len(record), record[0]


def _slices(keys: Iterable[T]) -> Iterator[list[T]]:
    """The keys (or any items), :data:`SLICE` at a time."""
    it = iter(keys)
    while chunk := list(islice(it, SLICE)):
        yield chunk


def _page(items: Sequence[T], start: int, count: int) -> list[T]:
    if start < 1:
        raise QueryError(message("list_page"))
    if not 1 <= count <= MAX_PAGE:
        raise QueryError(message("quiz_range", name="count", low=1, high=MAX_PAGE))
    return list(items[start - 1 : start - 1 + count])


def _paged(kind: str, lex: Lexicon, total: int, start: int, shown: int) -> dict[str, Any]:
    return {"edition": lex.edition.name, "list": kind, "from": start, "total": total, "count": shown}


def choices() -> dict[str, Any]:
    """What the study page's list form offers: stem lengths, each edition's high-value tiles, the page sizes."""
    return {
        "stem_lengths": list(STEM_LENGTHS),
        "high_value": {name: high_value_tiles(load_edition(name)) for name in edition_names()},
        "max_page": MAX_PAGE,
        "max_quiz_items": MAX_QUIZ_ITEMS,
        "max_lines": MAX_LIST_LINES,
        "against": {name: default_against(name) for name in edition_names()},
    }


def default_against(name: str) -> str:
    """The edition a list of new words compares ``name`` with by default: another edition of its
    language (one whose tile table is verified first: es-fise → es-na103), else the first other one."""
    others = [load_edition(other) for other in edition_names() if other != name]
    language = load_edition(name).language
    siblings = sorted((e for e in others if e.language == language), key=lambda e: bool(e.unverified))
    return (siblings or others)[0].name if others else name


# -- stems ------------------------------------------------------------------------------------------


def ranked_stems(lex: Lexicon, length: int, wait: float | None = None) -> tuple[int, Sequence[Stem]] | None:
    """How many stems of ``length`` tiles make a word with one tile more, and the best
    :data:`KEPT_STEMS` of them, best first: from the build's file, or ranked in the background for a
    lexicon built before it (None while that is not done within ``wait`` seconds)."""
    if length not in STEM_LENGTHS:
        raise QueryError(message("quiz_choice", name="length", choices=", ".join(map(str, STEM_LENGTHS))))
    if stem_file.has_file(lex):
        return _kept(lex, ("stems", length), lambda: stem_file.read(lex, length))
    return _made(lex, ("stems", length), lambda tell: _rank_stems(lex, length, tell), wait)


def _rank_stems(lex: Lexicon, length: int, tell: Tell) -> tuple[int, list[Stem]]:
    keys = quiz.keys_of_length(lex, length + 1)
    steps = [0]

    def pace() -> None:
        steps[0] += 1
        tell(steps[0] * stem_file.PACE_EVERY / (2 * max(len(keys), 1)))
        pause()

    return stem_file.rank(lex.edition, keys, lex.alphagram, KEPT_STEMS, pace)


def stems(
    lex: Lexicon, length: int = STEM_LENGTHS[0], start: int = 1, count: int = DEFAULT_PAGE, wait: float | None = None
) -> dict[str, Any]:
    """A page of the stems of ``length`` tiles: each stem's tiles, the tiles it takes, and its words
    (``total`` counts every stem; pages go as far as the :data:`KEPT_STEMS` best)."""
    ed = lex.edition
    ranked = ranked_stems(lex, length, wait)
    if ranked is None:
        _page([], start, count)  # (the page's bounds checked all the same)
        return _not_ready("stems", lex, progress(lex, ("stems", length)), start, {"length": length, "stems": []})
    total, best = ranked
    page = _page(best, start, count)
    return {
        **_paged("stems", lex, total, start, len(page)),
        "length": length,
        "stems": [_stem_entry(lex, ed, stem, start + i) for i, stem in enumerate(paced(page))],
        "ready": True,
    }


def _stem_entry(lex: Lexicon, ed: Edition, stem: Stem, rank: int) -> dict[str, Any]:
    tiles = list(ed.decode(quiz.alphagram(ed, stem.key)))
    takes = ed.sort_keys(stem.takes)
    words: list[dict[str, Any]] = []
    for code in takes:
        tile = ed.by_code[code].label
        words.extend({**entry, "tile": tile} for entry in answers.entries(lex, ed.sort_keys(stem.takes[code])))
    return {
        "rank": rank,
        "stem": quiz.rack_text(tiles),
        "tiles": tiles,
        "takes": [ed.by_code[c].label for c in takes],
        "rack": quiz.rack_text([*tiles, "?"]),
        "words": words,
    }


# -- high-value tiles -------------------------------------------------------------------------------


def high_value_tiles(edition: Edition) -> list[str]:
    """The edition's tiles worth :data:`~lextools.features.quiz.HIGH_VALUE` or more, in its alphabet."""
    return edition.sort_labels(t.label for t in edition.tiles if (t.value or 0) >= quiz.HIGH_VALUE)


def with_tile(
    lex: Lexicon,
    tile: str,
    length: int | None = None,
    start: int = 1,
    count: int = DEFAULT_PAGE,
    wait: float | None = None,
    files: ListSource | None = None,
) -> dict[str, Any]:
    """A page of the words with ``tile`` (in any notation), of ``length`` tiles or of any length: a
    slice of the one list of the tile's words (each length's words are a block of it). Read from
    ``files`` (the service), or made here in the background (the command line)."""
    ed = lex.edition
    label = high_value_tile(ed, tile)
    code = ed.by_label[label].code
    rest = {"tile": label, "tiles": high_value_tiles(ed), "length": length}
    what = ("with", code)
    if files is not None:
        every = _from_files(lex, None, what, wait, files)
    else:
        every = _made(lex, what, lambda tell: keys_with(lex, code, None, tell), wait)
    if every is None:
        _page([], start, count)
        done = files.progress(lex, None, what) if files is not None else progress(lex, what)
        return _not_ready("high-value", lex, done, start, {**rest, "words": []})
    words = every.of_length(length) if length else every
    page = _page(words, start, count)
    return {
        **_paged("high-value", lex, len(words), start, len(page)),
        **rest,
        "words": answers.entries(lex, page),
        "ready": True,
    }


def keys_with(lex: Lexicon, code: str, length: int | None, tell: Tell = lambda done: None) -> KeyList:
    """The words with the tile ``code``, shortest first, then in the edition's alphabet."""
    keys = quiz.keys_of_length(lex, length) if length else lex
    total, done = (len(keys) if length else len(lex)) or 1, [0]

    def chosen() -> Iterator[list[str]]:
        for chunk in _slices(keys):
            done[0] += len(chunk)
            yield list(compress(chunk, map(operator.contains, chunk, repeat(code))))

    return KeyList.of(lex.edition, chosen(), lambda: tell(done[0] / total))


def high_value_tile(ed: Edition, text: str) -> str:
    """The label of the high-value tile ``text`` spells (in any notation); a :class:`QueryError` naming
    the choices for any other text."""
    choices = high_value_tiles(ed)
    try:
        tiles = spell(text, ed).tiles
    except SpellingError:
        tiles = ()
    if len(tiles) != 1 or tiles[0] not in choices:
        raise QueryError(message("quiz_choice", name="tile", choices=", ".join(choices)))
    return tiles[0]


# -- new in this lexicon ----------------------------------------------------------------------------


def new_words(
    lex: Lexicon,
    other: Lexicon,
    length: int | None = None,
    start: int = 1,
    count: int = DEFAULT_PAGE,
    wait: float | None = None,
    files: ListSource | None = None,
) -> dict[str, Any]:
    """A page of the words of ``lex`` that ``other`` lacks (compared by spelling), shortest first: read
    from ``files`` (the service), or made here in the background (the command line)."""
    what = ("new", other.edition.name, other.checksum)
    rest = {"against": other.edition.name, "length": length}
    if files is not None:
        every = _from_files(lex, other, what, wait, files)
    else:
        every = _made(lex, what, lambda tell: new_keys(lex, other, tell), wait)
    if every is None:
        _page([], start, count)
        done = files.progress(lex, other, what) if files is not None else progress(lex, what)
        return _not_ready("new", lex, done, start, {**rest, "words": []})
    keys = every.of_length(length) if length else every
    page = _page(keys, start, count)
    return {
        **_paged("new", lex, len(keys), start, len(page)),
        **rest,
        "words": answers.entries(lex, page),
        "ready": True,
    }


def new_keys(lex: Lexicon, other: Lexicon, tell: Tell = lambda done: None) -> KeyList:
    """The keys of ``lex`` whose spelling no word of ``other`` has, shortest first, then in the
    alphabet: each side spelled in bulk (:func:`~lextools.features.compare.spellings`) a slice at a
    time, the other's spellings made a set, and this side's keys kept by a ``compress`` on a
    membership test mapped over the slice (C calls, no Python code per word)."""
    total, done = (len(lex) + len(other)) or 1, [0]
    theirs: set[str] = set()
    for chunk in _slices(other):
        theirs.update(spellings(other.edition, chunk))
        done[0] += len(chunk)
        tell(done[0] / total)
        pause()

    def new() -> Iterator[list[str]]:
        for chunk in _slices(lex):
            done[0] += len(chunk)
            lacking = map(operator.not_, map(theirs.__contains__, spellings(lex.edition, chunk)))
            yield list(compress(chunk, lacking))

    made = KeyList.of(lex.edition, new(), lambda: tell(done[0] / total))
    for _ in _slices(range(len(theirs))):  # freed a slice at a time: all at once is a long pause
        for _ in range(min(SLICE, len(theirs))):
            theirs.pop()
        pause()
    return made


# -- a player's list --------------------------------------------------------------------------------


def list_lines(text: str) -> list[str]:
    """The words of a list file: the first column of each line (Zyzzyva's exports put a word first,
    then its definition or other columns), without blank and comment lines."""
    words = []
    for line in text.splitlines():
        line = line.strip().lstrip("\ufeff")
        if not line or line.startswith(_COMMENT):
            continue
        words.append(_COLUMNS.split(line, maxsplit=1)[0][:MAX_LINE_CHARS])
    if len(words) > MAX_LIST_LINES:
        raise QueryError(message("list_too_long", max=MAX_LIST_LINES))
    return words


def player_list(lex: Lexicon, texts: Iterable[str], lang: str = "en") -> tuple[list[str], list[dict[str, str]]]:
    """The valid words among ``texts`` as keys (each once, in the list's order), and every text left
    out with the reason in ``lang``: the edition cannot spell it, or it is not a word of the lexicon."""
    keys: dict[str, None] = {}
    refused = []
    for text in texts:
        try:
            key = spell(text, lex.edition).key
        except SpellingError as e:
            refused.append({"text": text, "reason": e.text(lang)})
            continue
        if key in lex:
            keys[key] = None
        else:
            reason = message("not_in_lexicon", word=lex.edition.spelling(key), edition=lex.edition.name)
            refused.append({"text": text, "reason": reason.text(lang)})
    return list(keys), refused


def list_quiz(
    lex: Lexicon,
    words: Iterable[str] = (),
    racks: Iterable[str] = (),
    lang: str = "en",
    max_answers: int = quiz.DEFAULT_MAX_ANSWERS,
) -> dict[str, Any]:
    """Anagram questions on a list: one per alphagram of its words, in the list's order, each once.
    A valid word of ``words`` gives its alphagram (the others are reported in ``refused``); a rack of
    ``racks`` gives its own alphagram, or, with a blank (a stem's rack, AENORS?), the alphagram of
    each word it makes (ACENORS, ADENORS, …, in the alphabet of the blank's tile): a question is a
    rack a player can answer, never a whole stem list at once. A question with more than
    ``max_answers`` answers is not asked: it is reported in ``refused`` and counted in ``over_max``."""
    ed = lex.edition
    quiz.check_max_answers(max_answers)
    words, racks = list(words), list(racks)
    if len(words) + len(racks) > MAX_QUIZ_ITEMS:
        raise QueryError(message("quiz_range", name="words", low=1, high=MAX_QUIZ_ITEMS))
    keys, refused = player_list(lex, words, lang)
    grams = dict.fromkeys(lex.alphagram(key) for key in keys)  # in the list's order, each once
    for text in racks:
        try:
            key, blanks = search.parse_rack(text, lex)
        except (SpellingError, QueryError) as e:
            refused.append({"text": text, "reason": e.text(lang)})
            continue
        if blanks > MAX_QUIZ_BLANKS:
            refused.append({"text": text, "reason": message("rack_blanks", max=MAX_QUIZ_BLANKS).text(lang)})
            continue
        grams.update(dict.fromkeys(_rack_alphagrams(lex, key, blanks)))
    questions, over = [], 0
    with quiz.answers_capped():
        for gram in grams:
            tiles = list(ed.decode(quiz.alphagram(ed, gram)))
            matches = quiz.rack_matches(lex, tiles, 0, False, len(gram))
            if len(matches) > max_answers:  # not asked, its answers not written out
                over += 1
                text = quiz.rack_text(tiles)
                reason = message("quiz_over_max", rack=repr(text), answers=len(matches), max=max_answers)
                refused.append({"text": text, "reason": reason.text(lang)})
                continue
            question = quiz.rack_question(lex, tiles, 0, False, len(gram), matches=matches)
            quiz.listed(question)
            questions.append(question)
    return {
        "edition": ed.name,
        "type": "anagram",
        "max_answers": max_answers,
        "over_max": over,
        "count": len(questions),
        "questions": questions,
        "refused": refused,
    }


def _rack_alphagrams(lex: Lexicon, key: str, blanks: int) -> list[str]:
    """The alphagrams (lexicon keys) a rack asks: its own, or with a blank those of the words it
    makes, in the edition's alphabet of the tile the blank stands for."""
    if not blanks:
        return [lex.alphagram(key)]
    by_tile: dict[str, str] = {}
    for match in search.anagrams(lex, key, blanks):
        by_tile.setdefault("".join(match.blanks), lex.alphagram(match.key))
    return [by_tile[tile] for tile in lex.edition.sort_labels(by_tile)]
