"""``GET /v1/{edition}/quiz``: word-study quizzes (:mod:`lextools.features.quiz`).

The parameters' limits are the library's constants and their defaults those of
:class:`~lextools.features.quiz.QuizRequest`; the library checks what depends on the edition
(named lists, probability order).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Blueprint, current_app

from lextools.core.budget import Budget
from lextools.core.errors import BusyError
from lextools.core.messages import message
from lextools.features import quiz
from service.api.search import BlankEntry
from service.contract.operations import EditionQuery, operation
from service.contract.params import Choice, Text, WholeNumber, load
from service.contract.schemas import Answer, Limited, bool_field, int_field, nested_list, str_field, str_list
from service.http.lexicons import lexicon

bp = Blueprint("quiz", __name__, url_prefix="/v1/<edition>")

_DEFAULT = quiz.QuizRequest()


def _about(description: str) -> dict[str, str]:
    return {"description": description}


def max_answers_param() -> WholeNumber:
    """``max_answers``, the player's bound on a question's answers: one declaration for every quiz route."""
    return WholeNumber(
        1,
        quiz.MAX_QUIZ_ANSWERS,
        load_default=quiz.DEFAULT_MAX_ANSWERS,
        metadata=_about(
            "the most answers a question may have: a question with more is not asked (counted in over_max); "
            f"anagram, build and hooks quizzes and list quizzes (default {quiz.DEFAULT_MAX_ANSWERS})"
        ),
    )


class QuizQuery(EditionQuery):
    """A :class:`~lextools.features.quiz.QuizRequest` (attribute names) as query parameters (data keys)."""

    type = Choice(quiz.QUIZ_TYPES, load_default=_DEFAULT.type, metadata=_about("quiz type"))
    length = WholeNumber(
        quiz.MIN_LENGTH,
        quiz.MAX_LENGTH,
        metadata=_about(
            "tiles per word or rack; default " + ", ".join(f"{k} {v}" for k, v in quiz.DEFAULT_LENGTH.items())
        ),
    )
    blanks = WholeNumber(
        0,
        quiz.MAX_BLANKS,
        load_default=_DEFAULT.blanks,
        metadata=_about(
            "blanks on an anagram or build rack, and blanks a draw may use in the probability count (as Zyzzyva)"
        ),
    )
    order = Choice(quiz.ORDERS, load_default=_DEFAULT.order, metadata=_about("question order"))
    rank_from = WholeNumber(
        1, quiz.MAX_RANK, data_key="from", load_default=_DEFAULT.rank_from,
        metadata=_about("first probability rank within the length"),
    )  # fmt: skip
    rank_to = WholeNumber(1, quiz.MAX_RANK, data_key="to", metadata=_about("last probability rank (default: the last)"))
    count = WholeNumber(
        1, quiz.MAX_COUNT, load_default=_DEFAULT.count,
        metadata=_about(
            f"questions; questions × length, × (1 + blanks)³ for a build, at most "
            f"{quiz.MAX_QUIZ_TILES}, and at most {quiz.MAX_QUIZ_ANSWERS} answers in all (else 400 quiz_too_large)"
        ),
    )  # fmt: skip
    seed = WholeNumber(
        0,
        quiz.MAX_SEED,
        metadata=_about(
            "draw the questions at random from the range, the same for the same seed (default: the first ones)"
        ),
    )
    min_length = WholeNumber(
        quiz.MIN_LENGTH,
        quiz.MAX_LENGTH,
        load_default=_DEFAULT.min_length,
        metadata=_about(
            f"build: shortest word, in tiles; default the larger of {quiz.DEFAULT_BUILD_MIN} and the rack's "
            f"length - {quiz.BUILD_MIN_BELOW_RACK}, at most the rack's (a build rack has at most "
            f"{quiz.MAX_BUILD_LENGTH} tiles, and a build quiz at most {quiz.MAX_BUILD_COUNT} questions)"
        ),
    )
    max_answers = max_answers_param()
    list_name = Text(
        data_key="list",
        metadata={
            "pattern": "^(two-tile|three-tile|high-value|with-.+)$",
            "description": f"type=list: two-tile, three-tile, high-value (tiles worth {quiz.HIGH_VALUE} or more), "
            "with-T for Ñ and each digraph tile (with-CH)",
        },
    )


class QuizQuestion(Answer):
    """A question of any quiz type, with its answers; each type has some of the fields."""

    id = str_field("the question as text: a cardbox key", required=True)
    rank = int_field(allow_none=True)
    ways = int_field(allow_none=True)
    rack = str_list("anagram, build: tiles, ? for a blank")
    answers = nested_list(BlankEntry, "anagram, build: every word the rack makes")
    word = str_field()
    tiles = str_list()
    front = str_list("hooks: front hook tiles")
    back = str_list("hooks: back hook tiles")
    valid = bool_field("word-or-phony: a word (true) or a phony")
    phony_of = str_field(
        "word-or-phony: the word a phony was made from", allow_none=True, data_key="from", attribute="from"
    )


class Quiz(Answer):
    """The questions with their answers."""

    edition = str_field(required=True)
    type = str_field(required=True, metadata={"enum": list(quiz.QUIZ_TYPES)})
    list = str_field(allow_none=True)
    length = int_field(required=True)
    blanks = int_field(required=True)
    min_length = int_field(allow_none=True)
    order = str_field(required=True, metadata={"enum": [*quiz.ORDERS]})
    ranked_by = str_field(required=True, metadata={"enum": [*quiz.ORDERS]})
    start = int_field(required=True, data_key="from", attribute="from")
    to = int_field(required=True)
    in_range = int_field("items ranked from..to")
    seed = int_field(allow_none=True)
    max_answers = int_field("the most answers a question has (anagram, build, hooks)", allow_none=True)
    over_max = int_field("questions looked at and not asked: more answers than max_answers", required=True)
    count = int_field(required=True)
    questions = nested_list(QuizQuestion, required=True)


def request_from_args() -> quiz.QuizRequest:
    """The query string as a :class:`~lextools.features.quiz.QuizRequest`."""
    params = load(QuizQuery)
    params.pop("lang", None)
    return quiz.QuizRequest(**params)


@operation(
    bp,
    "/quiz",
    query=QuizQuery,
    description=Limited(
        "A quiz is made within {QUIZ_BUDGET_MS} ms, its wait for its turn included ({QUIZ_CONCURRENCY} at once "
        "per worker); a quiz whose word lists are still being ranked is 503 busy with Retry-After: ask again."
    ),
    operationId="quiz",
    answer=Quiz,
    errors=(400, 404, 503),
)
def get_quiz(edition: str) -> dict[str, Any]:
    """A word-study quiz (anagram, build, hooks, word-or-phony, word list); same seed, same quiz."""
    lex = lexicon(edition)
    request = request_from_args()
    with quizzing() as budget:
        return quiz.quiz(lex, request, budget)


#: Where :func:`service.app.create_app` keeps the semaphore of quizzes being made.
QUIZZES = "lextools.quizzes"


@contextmanager
def quizzing() -> Iterator[Budget]:
    """The budget of one quiz: ``QUIZ_BUDGET_MS`` from the request's start, its wait for its turn
    included. A worker makes at most ``QUIZ_CONCURRENCY`` quizzes at once; a quiz that gets no turn
    within its budget, or is not made within it, is :class:`BusyError` (503, Retry-After). The work
    pauses every few milliseconds for the worker's other requests (lextools.core.budget)."""
    seconds = current_app.config["QUIZ_BUDGET_MS"] / 1000
    start = time.monotonic()
    turn = current_app.extensions[QUIZZES]
    if not turn.acquire(timeout=seconds):
        raise BusyError(message("busy_quiz"))
    try:
        yield Budget(seconds=max(0.0, seconds - (time.monotonic() - start)))
    finally:
        turn.release()
