"""Lists that teach: stems, words with a high-value tile, words new in a lexicon, and a player's own list.

- *Stems* (:func:`stems`): the 6- and 7-tile sets that take the most different tiles to make a word
  of one tile more (7 and 8 tiles), as Zyzzyva's and the clubs' stem lists rank them, each with the
  tiles it takes and the words they make. Ranked by the number of tiles it takes, then of words,
  then in the edition's alphabet. Computed at the first request for a length, in one pass over the
  words of that length + 1 (a fraction of a second, bench/README.md), and kept with the loaded
  lexicon, so every later page is a slice.
- *High-value tiles* (:func:`with_tile`): words with one of the edition's tiles worth
  :data:`~lextools.features.quiz.HIGH_VALUE` points or more (es-fise CH J LL Ñ Q RR X Z; en J K Q
  X Z), shortest first, then in the edition's alphabet.
- *New in this lexicon* (:func:`new_words`): the words of one lexicon that another lacks, compared by
  spelling with :func:`lextools.features.compare.diff` (es-fise against es-na103).
- *A player's list* (:func:`player_list`): text with a word per line — a plain list in any notation
  the edition reads, or a word list exported by Zyzzyva (a word per line, other columns after it) —
  read into valid words, each line it cannot use reported with the reason.

Any list becomes a quiz with :func:`list_quiz`: one anagram question per alphagram of its words, in
the list's order, each once — a stem's rack (``AEINRS?``) becomes the alphagrams its words make, each
a question of its own — and none with more answers than the player's bound.
"""

from __future__ import annotations

import heapq
import re
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from lextools.core import search
from lextools.core.edition import Edition, edition_names, load_edition
from lextools.core.errors import QueryError, SpellingError
from lextools.core.lexicon import Lexicon
from lextools.core.messages import message
from lextools.core.spelling import spell
from lextools.features import answers, quiz
from lextools.features.compare import WordSet, diff

T = TypeVar("T")

STEM_LENGTHS = (6, 7)
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
#: its lists go with the old one).
KEPT_LISTS = 8
#: Stems kept per length, the best ones: the lists players study are their first few hundred.
KEPT_STEMS = 5000
_KEPT: weakref.WeakKeyDictionary[Lexicon, OrderedDict[tuple[Any, ...], Any]] = weakref.WeakKeyDictionary()


def _kept(lex: Lexicon, what: tuple[Any, ...], compute: Callable[[], T]) -> T:
    lists = _KEPT.setdefault(lex, OrderedDict())
    if what in lists:
        lists.move_to_end(what)
    else:
        lists[what] = compute()
        while len(lists) > KEPT_LISTS:
            lists.popitem(last=False)
    result: T = lists[what]
    return result


def _page(items: list[T], start: int, count: int) -> list[T]:
    if start < 1:
        raise QueryError(message("list_page"))
    if not 1 <= count <= MAX_PAGE:
        raise QueryError(message("quiz_range", name="count", low=1, high=MAX_PAGE))
    return items[start - 1 : start - 1 + count]


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
    }


# -- stems ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Stem:
    key: str  # the stem's tiles, in the lexicon's alphagram order
    takes: dict[str, list[str]]  # tile code → the words the stem makes with it (keys, in key order)


def ranked_stems(lex: Lexicon, length: int) -> tuple[int, list[Stem]]:
    """How many stems of ``length`` tiles make a word with one tile more, and the best
    :data:`KEPT_STEMS` of them, best first."""
    if length not in STEM_LENGTHS:
        raise QueryError(message("quiz_choice", name="length", choices=", ".join(map(str, STEM_LENGTHS))))
    return _kept(lex, ("stems", length), lambda: _rank_stems(lex, length))


def _rank_stems(lex: Lexicon, length: int) -> tuple[int, list[Stem]]:
    alphagrams: dict[str, list[str]] = {}
    for key in quiz.keys_of_length(lex, length + 1):
        alphagrams.setdefault(lex.alphagram(key), []).append(key)
    takes: dict[str, dict[str, list[str]]] = {}
    for gram, words in alphagrams.items():
        for i in range(len(gram)):
            takes.setdefault(gram[:i] + gram[i + 1 :], {})[gram[i]] = words
    ed = lex.edition
    # Ties in the edition's alphabet: a stem's collation characters, sorted, are its alphagram in that order.
    best = heapq.nsmallest(
        KEPT_STEMS,
        takes.items(),
        key=lambda s: (-len(s[1]), -sum(map(len, s[1].values())), "".join(sorted(ed.collation_key(s[0])))),
    )
    return len(takes), [Stem(stem, tiles) for stem, tiles in best]


def stems(lex: Lexicon, length: int = STEM_LENGTHS[0], start: int = 1, count: int = DEFAULT_PAGE) -> dict[str, Any]:
    """A page of the stems of ``length`` tiles: each stem's tiles, the tiles it takes, and its words
    (``total`` counts every stem; pages go as far as the :data:`KEPT_STEMS` best)."""
    ed = lex.edition
    total, ranked = ranked_stems(lex, length)
    page = _page(ranked, start, count)
    return {
        **_paged("stems", lex, total, start, len(page)),
        "length": length,
        "stems": [_stem_entry(lex, ed, stem, start + i) for i, stem in enumerate(page)],
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
    lex: Lexicon, tile: str, length: int | None = None, start: int = 1, count: int = DEFAULT_PAGE
) -> dict[str, Any]:
    """A page of the words with ``tile`` (in any notation), of ``length`` tiles or of any length."""
    ed = lex.edition
    label = _high_value_tile(ed, tile)
    code = ed.by_label[label].code
    words = _kept(lex, ("with", code, length), lambda: _with_code(lex, code, length))
    page = _page(words, start, count)
    return {
        **_paged("high-value", lex, len(words), start, len(page)),
        "tile": label,
        "tiles": high_value_tiles(ed),
        "length": length,
        "words": answers.entries(lex, page),
    }


def _with_code(lex: Lexicon, code: str, length: int | None) -> list[str]:
    keys = quiz.keys_of_length(lex, length) if length else lex
    collate = lex.edition.collation_key
    return sorted((k for k in keys if code in k), key=lambda k: (len(k), collate(k)))


def _high_value_tile(ed: Edition, text: str) -> str:
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
    lex: Lexicon, other: Lexicon, length: int | None = None, start: int = 1, count: int = DEFAULT_PAGE
) -> dict[str, Any]:
    """A page of the words of ``lex`` that ``other`` lacks (compared by spelling), shortest first."""
    ed = lex.edition

    def compute() -> list[str]:
        _, added, _ = diff(WordSet(other.edition.name, other.edition, frozenset(other)), _word_set(lex))
        keys = [spell(word, ed).key for word in added]  # in the edition's alphabet
        return sorted(keys, key=len)  # stable: shortest first, each length in the alphabet

    keys = _kept(lex, ("new", other.edition.name, other.checksum), compute)
    if length:
        keys = [k for k in keys if len(k) == length]
    page = _page(keys, start, count)
    return {
        **_paged("new", lex, len(keys), start, len(page)),
        "against": other.edition.name,
        "length": length,
        "words": answers.entries(lex, page),
    }


def _word_set(lex: Lexicon) -> WordSet:
    return WordSet(lex.edition.name, lex.edition, frozenset(lex))


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
