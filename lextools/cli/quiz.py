"""``lextools quiz``: a word-study quiz with its answers (the service's ``quiz`` route)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from lextools.cli.common import EditionArg, JsonOpt, LexiconsOpt, open_lexicon, print_json
from lextools.features import quiz

app = typer.Typer()

#: The player's bound on a question's answers, for ``quiz`` and ``list-quiz`` (the API's ``max_answers``).
MaxAnswersOpt = Annotated[
    int,
    typer.Option(
        help=f"The most answers a question may have (anagram, build, hooks, list quizzes); one with more is not "
        f"asked (1-{quiz.MAX_QUIZ_ANSWERS}).",
    ),
]


@app.command("quiz")
def quiz_command(
    edition: EditionArg,
    kind: Annotated[str, typer.Option("--type", help=" | ".join(quiz.QUIZ_TYPES))] = "anagram",
    length: Annotated[int | None, typer.Option(help="Tiles per word or rack [default: by type].")] = None,
    blanks: Annotated[
        int, typer.Option(help=f"Blanks on the rack and in the probability count (0-{quiz.MAX_BLANKS}).")
    ] = 0,
    order: Annotated[str, typer.Option(help=" | ".join(quiz.ORDERS))] = "probability",
    rank_from: Annotated[int, typer.Option("--from", help="First probability rank within the length.")] = 1,
    rank_to: Annotated[int | None, typer.Option("--to", help="Last probability rank [default: the last].")] = None,
    count: Annotated[int, typer.Option(help=f"Questions (1-{quiz.MAX_COUNT}).")] = quiz.DEFAULT_COUNT,
    seed: Annotated[
        int | None, typer.Option(help="Draw the questions at random from the range, the same for a seed.")
    ] = None,
    min_length: Annotated[int, typer.Option(help="build: shortest word, in tiles.")] = quiz.DEFAULT_BUILD_MIN,
    list_name: Annotated[
        str | None, typer.Option("--list", help="type list: two-tile, three-tile, high-value, with-CH…")
    ] = None,
    max_answers: MaxAnswersOpt = quiz.DEFAULT_MAX_ANSWERS,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """A word-study quiz with its answers: the JSON of GET /v1/{edition}/quiz."""
    lex = open_lexicon(edition, lexicons)
    request = quiz.QuizRequest(
        kind, length, blanks, order, rank_from, rank_to, count, seed, min_length, list_name, max_answers
    )
    result = quiz.quiz(lex, request)
    if as_json:
        print_json(result)
        return
    for q in result["questions"]:
        sys.stdout.write(quiz.question_line(q) + "\n")
