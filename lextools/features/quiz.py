"""Word-study quizzes — anagram, build, hooks, word-or-phony and word lists — the same for the same seed.

The quiz types are those players know from Zyzzyva and WordVault/Aerolith, counted in tiles (in
es-fise CH is one tile, so CHA is a two-tile word):

- ``anagram``: an alphagram of ``length`` tiles, ``blanks`` of them shown as blanks, and every word
  it makes;
- ``build``: the same rack and every word of at least ``min_length`` tiles it makes;
- ``hooks``: a word and the tiles that hook it in front and behind;
- ``word-or-phony``: valid words mixed with phonies, each marked. A phony is one tile changed,
  inserted or removed from a valid word, not in the lexicon and spellable in the edition (no C+H
  side by side in es-fise, where they would be the CH tile); it keeps ``length`` tiles, so its
  length gives nothing away;
- ``list``: a page of a named word list (:func:`list_names`).

Questions are picked from a range of *probability ranks* within the length (``rank_from`` to
``rank_to``): items sorted by the number of ways a full bag gives their tiles, up to ``blanks`` of
them blank (:mod:`lextools.core.probability`, Zyzzyva's count), ties in the edition's alphabet. Where
the tile counts are unverified (es-mattel2021) the ranks are alphabetical and probability order is
refused. Without a seed the quiz takes the first ``count`` items of the range; with one, a sample
drawn by :class:`random.Random` seeded with it, so a seed always gives the same questions.
"""

from __future__ import annotations

import random
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from lextools.core import ranking, search
from lextools.core.edition import Edition, edition_names, load_edition
from lextools.core.errors import QueryError, SpellingError
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
DEFAULT_BUILD_MIN = 3
#: A build rack of 8 tiles and 2 blanks makes thousands of words: racks stay this short, quizzes this long.
MAX_BUILD_LENGTH, MAX_BUILD_COUNT = 8, 20
#: A tile worth this much or more is a "high-value" tile (es-fise: J LL Ñ RR X Z).
HIGH_VALUE = 8
#: Vowels: a phony changes a vowel for a vowel and a consonant for a consonant, as a misremembered word does.
VOWELS = frozenset("AEIOU")


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
    min_length: int = DEFAULT_BUILD_MIN
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
        self._check_numbers(length)
        return QuizRequest(**{**self.__dict__, "length": length, "list_name": list_name})

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

    def _check_numbers(self, length: int) -> None:
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
            if not MIN_LENGTH <= self.min_length <= length:
                raise QueryError(message("quiz_range", name="min_length", low=MIN_LENGTH, high=length))


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
        "min_length": DEFAULT_BUILD_MIN,
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
#: length, and a rebuilt lexicon is a new object whose old lists go with it.
CACHED_LISTS = 6
_LISTS: weakref.WeakKeyDictionary[Lexicon, OrderedDict[tuple[Any, ...], Any]] = weakref.WeakKeyDictionary()


def rank(edition: Edition, keys: Iterable[str], blanks: int) -> list[str]:
    """Keys by probability (most ways first, ties in the edition's alphabet), or alphabetically without counts."""
    if not edition.has_counts:
        return edition.sort_keys(keys)
    ways = {k: draw_count(edition, edition.decode(k), blanks) for k in keys}
    return sorted(ways, key=lambda k: (-ways[k], edition.collation_key(k)))


def ranked_alphagrams(lex: Lexicon, length: int, blanks: int) -> list[str]:
    """The alphagrams of the words of ``length`` tiles, in rank order."""
    ed = lex.edition
    return _cached(
        lex,
        ("alphagrams", length, blanks),
        lambda: rank(ed, {alphagram(ed, k) for k in search.words_of_length(lex, length)}, blanks),
    )


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


def _cached(lex: Lexicon, what: tuple[Any, ...], compute: Callable[[], T]) -> T:
    lists = _LISTS.setdefault(lex, OrderedDict())
    if what in lists:
        lists.move_to_end(what)
    else:
        lists[what] = compute()
        while len(lists) > CACHED_LISTS:
            lists.popitem(last=False)
    result: T = lists[what]
    return result


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


def _list_keys(lex: Lexicon, length: int, list_name: str | None) -> list[str]:
    ed = lex.edition
    keys = search.words_of_length(lex, length)
    if list_name == "high-value":
        codes = {t.code for t in ed.tiles if (t.value or 0) >= HIGH_VALUE}
        return [k for k in keys if codes.intersection(k)]
    if list_name and list_name.startswith("with-"):
        code = ed.by_label[list_name.removeprefix("with-")].code
        return [k for k in keys if code in k]
    return keys


# -- the quiz -------------------------------------------------------------------------------------


def quiz(lex: Lexicon, request: QuizRequest) -> dict[str, Any]:
    """A quiz as JSON-ready data: the CLI prints it and the service answers it, unchanged."""
    req = request.checked(lex.edition)
    assert req.length is not None  # checked() fills it in
    ed = lex.edition
    if req.type in ("anagram", "build"):
        ranked = ranked_alphagrams(lex, req.length, req.blanks)
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
    for item in chosen:
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
        matches = search.anagrams(
            lex, ed.encode(shown), req.blanks, sub=build, min_length=req.min_length if build else req.length or 2
        )
        questions.append(
            {
                "id": text,
                "rank": item.rank,
                "ways": item.ways,
                "rack": rack,
                "answers": [
                    {**entry, "blanks": list(m.blanks)}
                    for entry, m in zip(answers.entries(lex, (m.key for m in matches)), matches, strict=True)
                ],
            }
        )
    return questions


def _hooks(lex: Lexicon, req: QuizRequest, chosen: list[Ranked]) -> list[dict[str, Any]]:
    ed = lex.edition
    questions = []
    for item in chosen:
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
    for item in chosen:
        rng = random.Random(f"{req.seed}:{item.key}")
        phony = _phony(lex, req, item, rng) if rng.random() < 0.5 else None
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


def _phony(lex: Lexicon, req: QuizRequest, item: Ranked, rng: random.Random) -> tuple[str, str] | None:
    """(phony, the word it came from), or None when no edit of the word or its neighbours makes one.

    A phony of ``length`` tiles changes a tile of the chosen word, or inserts one into the word of
    one tile less at the same relative probability rank, or removes one from the word of one tile
    more; it uses only pairs of tiles that real words of its length use (and starts and ends with
    tiles they start and end with).
    """
    assert req.length is not None
    ways: list[tuple[str, Callable[[str], list[str]]]] = [(item.key, lambda k: _changed(lex.edition, k))]
    for delta, edit in ((-1, lambda k: _inserted(lex.edition, k)), (1, _removed)):
        length = req.length + delta
        if MIN_LENGTH <= length <= MAX_LENGTH:
            neighbours = ranked_words(lex, length, req.blanks)
            if neighbours:  # the word as far down its list as the chosen word is down its own
                at = (item.rank - 1) * len(neighbours) // len(ranked_words(lex, req.length, req.blanks))
                ways.append((neighbours[at], edit))
    rng.shuffle(ways)
    pairs = _pairs(lex, req.length, req.blanks)
    for base, edit in ways:
        candidates = [k for k in edit(base) if _is_phony(lex, k) and _pairs_of(k) <= pairs]
        if candidates:
            weights = [_weight(lex.edition, k) for k in candidates]
            return rng.choices(candidates, weights)[0], base
    return None


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


def _pairs(lex: Lexicon, length: int, blanks: int) -> frozenset[str]:
    """Every two tiles that stand side by side in some word of this length: a phony uses only these
    (no QI in Spanish, where Q always comes before U), so it looks like a word of the language."""
    return _cached(
        lex,
        ("pairs", length, blanks),  # read from the ranked list the quiz has just used, not a new walk
        lambda: frozenset().union(*(_pairs_of(k) for k in ranked_words(lex, length, blanks))),
    )


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
