"""The phonies of a word-or-phony quiz: one tile changed, inserted or removed from a valid word, not
in the lexicon, spellable in the edition, made only of the tile pairs and the common runs of three
tiles of real words, and as likely a draw as the words of the range it stands in."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable

from lextools.core.budget import paced, pause
from lextools.core.edition import Edition
from lextools.core.errors import SpellingError
from lextools.core.lexicon import Lexicon
from lextools.core.spelling import spell
from lextools.features.quiz.cache import cached
from lextools.features.quiz.ranked import Packed, Ranked, draw_ways, keys_of_length
from lextools.features.quiz.request import MAX_LENGTH, MIN_LENGTH, QuizRequest

#: Vowels: a phony changes a vowel for a vowel and a consonant for a consonant, as a misremembered word does.
VOWELS = frozenset("AEIOU")
#: Every run of three tiles in a phony occurs at least this often among real words.
PHONY_MIN_TRIGRAM = 20
#: ... or, among fewer words than 20 times this, once per this many words (at least once).
PHONY_WORDS_PER_COUNT = 1000
#: Words of one tile more and one tile less a phony may be made from, besides the chosen word.
PHONY_NEIGHBOURS = 3


def phony_of(
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
    ways = draw_ways(edition, key, blanks) or 0
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

    return cached(lex, ("trigrams", length), count)


def _runs(keys: Iterable[str], size: int) -> Counter[str]:
    """How often each run of ``size`` tiles occurs in the keys, ^ and $ (never tile codes) marking
    the first and the last tile; counted over the keys joined into one text, with no Python call
    per key or per run."""
    runs: Counter[str] = Counter()
    each = iter(keys)
    while part := list(itertools.islice(each, _RUNS_SLICE)):  # a slice at a time, a pause between two
        text = "^" + "$\n^".join(part) + "$"
        runs.update(map("".join, zip(*(itertools.islice(text, i, None) for i in range(size)), strict=False)))
        pause()
    for across in [run for run in runs if "\n" in run]:  # from one word into the next
        del runs[across]
    return runs


#: Keys whose runs are counted in one go (a few milliseconds), between two pauses for other requests.
_RUNS_SLICE = 2048


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
    return cached(lex, ("pairs", length), lambda: frozenset(_runs(keys_of_length(lex, length), 2)))


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
