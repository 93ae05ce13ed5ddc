"""The lists that teach: ``stems``, ``high-value``, ``new-words``, ``list-quiz`` (the service's ``lists``
routes). Apart from :mod:`lextools.cli.study`, so that an ``anagram`` or a ``pattern`` does not load
:mod:`lextools.features.lists` and what it stands on (comparison, quizzes)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from lextools.cli.common import EditionArg, JsonOpt, LexiconsOpt, edition_name, open_lexicon, print_json
from lextools.features import lists

app = typer.Typer()

StartOpt = Annotated[int, typer.Option("--from", help="First item, 1-based.")]
CountOpt = Annotated[int, typer.Option(help=f"Items (1-{lists.MAX_PAGE}).")]
LengthOpt = Annotated[int | None, typer.Option(help="Tiles [default: any].")]


def _print_list(answer: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print_json(answer)
        return
    for item in answer.get("stems", []):
        words = " ".join(w["word"] for w in item["words"])
        sys.stdout.write(
            f"#{item['rank']:<5} {item['stem']:<10} {len(item['takes']):>2} {' '.join(item['takes'])}: {words}\n"
        )
    for entry in answer.get("words", []):
        sys.stdout.write(entry["word"] + "\n")


@app.command()
def stems(
    edition: EditionArg,
    length: Annotated[int, typer.Option(help="Tiles in a stem: 6 or 7.")] = 6,
    start: StartOpt = 1,
    count: CountOpt = lists.DEFAULT_PAGE,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Stems ranked by how many tiles make a word with them (6 → 7-tile words, 7 → 8), with the words."""
    _print_list(lists.stems(open_lexicon(edition, lexicons), length, start, count), as_json)


@app.command("high-value")
def high_value(
    edition: EditionArg,
    tile: Annotated[str, typer.Argument(help="A tile worth 5 or more, in any notation (Ñ, CH, [LL]).")],
    length: LengthOpt = None,
    start: StartOpt = 1,
    count: CountOpt = lists.DEFAULT_PAGE,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Words with a high-value tile, shortest first."""
    _print_list(lists.with_tile(open_lexicon(edition, lexicons), tile, length, start, count), as_json)


@app.command("new-words")
def new_words(
    edition: EditionArg,
    against: Annotated[str, typer.Argument(help="The other edition, built in the same lexicon directory.")],
    length: LengthOpt = None,
    start: StartOpt = 1,
    count: CountOpt = lists.DEFAULT_PAGE,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Words of EDITION's lexicon that AGAINST's lacks (es-fise es-na103), shortest first."""
    lex, other = open_lexicon(edition, lexicons), open_lexicon(edition_name(against), lexicons)
    _print_list(lists.new_words(lex, other, length, start, count), as_json)


@app.command("list-quiz")
def list_quiz(
    edition: EditionArg,
    path: Annotated[Path, typer.Argument(help="A word list: a word per line, any notation (Zyzzyva's exports too).")],
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Anagram questions on a player's word list; lines the edition cannot use are reported."""
    lex = open_lexicon(edition, lexicons)
    words = lists.list_lines(path.read_text(encoding="utf-8-sig"))[: lists.MAX_QUIZ_ITEMS]
    answer = lists.list_quiz(lex, words)
    if as_json:
        print_json(answer)
        return
    for q in answer["questions"]:
        sys.stdout.write(f"{q['id']:<12} {' '.join(a['word'] for a in q['answers'])}\n")
    for item in answer["refused"]:
        sys.stderr.write(f"{item['text']}: {item['reason']}\n")
