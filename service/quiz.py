"""``GET /v1/{edition}/quiz``: word-study quizzes (:mod:`lextools.features.quiz`)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from lextools.features import quiz
from service.inputs import choice_arg, int_arg, text_arg
from service.lexicons import lexicon

bp = Blueprint("quiz", __name__, url_prefix="/v1/<edition>")


def request_from_args() -> quiz.QuizRequest:
    """The query string as a :class:`~lextools.features.quiz.QuizRequest` (service/openapi.py describes it).

    The library checks what depends on the edition (named lists, probability order)."""
    return quiz.QuizRequest(
        type=choice_arg("type", quiz.QUIZ_TYPES, "anagram"),
        length=int_arg("length", quiz.MIN_LENGTH, quiz.MAX_LENGTH),
        blanks=int_arg("blanks", 0, quiz.MAX_BLANKS) or 0,
        order=choice_arg("order", quiz.ORDERS, "probability"),
        rank_from=int_arg("from", 1, quiz.MAX_RANK) or 1,
        rank_to=int_arg("to", 1, quiz.MAX_RANK),
        count=int_arg("count", 1, quiz.MAX_COUNT) or quiz.DEFAULT_COUNT,
        seed=int_arg("seed", 0, quiz.MAX_SEED),
        min_length=int_arg("min_length", quiz.MIN_LENGTH, quiz.MAX_LENGTH) or quiz.DEFAULT_BUILD_MIN,
        list_name=text_arg("list"),
    )


@bp.get("/quiz")
def get_quiz(edition: str) -> dict[str, Any]:
    return quiz.quiz(lexicon(edition), request_from_args())
