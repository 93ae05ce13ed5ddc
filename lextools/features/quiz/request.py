"""What a quiz may ask for (:class:`QuizRequest`), checked against its edition: the types, orders,
lengths, ranks, counts, seeds and sizes a quiz accepts, the named word lists, and the choices a
quiz form offers — the same limits for the command line and the service."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lextools.core import search
from lextools.core.edition import Edition, edition_names, load_edition
from lextools.core.errors import QueryError, QuizTooLargeError, SpellingError
from lextools.core.messages import message
from lextools.core.probability import MAX_BLANKS as MAX_BLANKS  # the blanks a quiz may ask for
from lextools.core.spelling import spell

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
#: The most answers a question may have (the player's bound: a question over it is not asked), by
#: default: a rack with 84 or 198 words is no question a player can pass. At most MAX_QUIZ_ANSWERS.
DEFAULT_MAX_ANSWERS = 20
#: The quiz types whose questions have many answers, bounded by ``max_answers``.
BOUNDED_TYPES = ("anagram", "build", "hooks")
#: A bounded quiz looks at items of its range until it has its questions within the bound, at most
#: this much work: items × tiles × (1 + blanks), cubed for a build (:func:`looked_at`), ten quizzes' worth.
#: The likeliest build racks make the most words (es-fise: of the 7-tile racks ranked 1 to 100, one
#: makes 20 words or fewer; the 20th does at rank 844), and a rack with blanks takes longer to walk.
#: A question over the bound costs its walk only: its answers are not written out.
MAX_LOOKED_AT = 10 * MAX_QUIZ_TILES
#: A tile worth this much or more is a "high-value" tile (es-fise: CH J LL Ñ Q RR X Z; en: J K Q X Z).
HIGH_VALUE = 5


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
    max_answers: int = DEFAULT_MAX_ANSWERS  # anagram, build, hooks: a question with more is not asked

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
        check_max_answers(self.max_answers)
        if self.type == "build":
            if length > MAX_BUILD_LENGTH or self.count > MAX_BUILD_COUNT:
                raise QueryError(message("quiz_build", tiles=MAX_BUILD_LENGTH, count=MAX_BUILD_COUNT))
            if not MIN_LENGTH <= min_length <= length:
                raise QueryError(message("quiz_range", name="min_length", low=MIN_LENGTH, high=length))


def check_max_answers(most: int) -> None:
    """Refuse a bound on a question's answers out of 1..:data:`MAX_QUIZ_ANSWERS`."""
    if not 1 <= most <= MAX_QUIZ_ANSWERS:
        raise QueryError(message("quiz_range", name="max_answers", low=1, high=MAX_QUIZ_ANSWERS))


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
        "max_answers": DEFAULT_MAX_ANSWERS,
        "max_answers_limit": MAX_QUIZ_ANSWERS,
        # build: the shortest word asked for by rack length, when the player leaves it to the quiz
        "min_length": {n: build_min_length(n) for n in range(MIN_LENGTH, MAX_BUILD_LENGTH + 1)},
        "max_build_length": MAX_BUILD_LENGTH,
        "lists": {name: list_names(edition) for name, edition in editions.items()},
        "fixed_list_length": FIXED_LIST_LENGTH,
        # Probability order needs every tile count; the form offers alphabetical order alone elsewhere.
        "probability": {name: edition.has_counts for name, edition in editions.items()},
    }


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


def quiz_size(req: QuizRequest) -> int:
    """Questions × tiles per question, × (1 + blanks)³ for a build (see :data:`MAX_QUIZ_TILES`)."""
    assert req.length is not None
    weight = (1 + req.blanks) ** 3 if req.type == "build" else 1
    return req.count * req.length * weight


def looked_at(req: QuizRequest) -> int:
    """The most items of its range a bounded quiz looks at for its questions (:data:`MAX_LOOKED_AT`),
    never fewer than it asks."""
    assert req.length is not None
    weight = (1 + req.blanks) ** 3 if req.type == "build" else 1 + req.blanks
    return max(req.count, MAX_LOOKED_AT // (req.length * weight))


def check_size(req: QuizRequest) -> None:
    """Refuse (:class:`QuizTooLargeError`) a quiz over :data:`MAX_QUIZ_TILES` before any work."""
    if quiz_size(req) > MAX_QUIZ_TILES:
        raise QuizTooLargeError(message("quiz_too_large", tiles=MAX_QUIZ_TILES))
