"""The lists that teach: ``stems``, ``high-value``, ``new-words``, ``list-quiz`` (the service's ``lists``
routes). Apart from :mod:`lextools.cli.study`, so that an ``anagram`` or a ``pattern`` does not load
:mod:`lextools.features.lists` and what it stands on (comparison, quizzes)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from lextools.cli.common import (
    OUTPUT_OPTIONS,
    EditionArg,
    edition_name,
    open_lexicon,
    option,
    print_json,
    with_options,
)
from lextools.cli.language import PROSE_OPTIONS, LangOpt, language_of, number, say
from lextools.cli.quiz import MaxAnswersOpt
from lextools.core.lexicon import Lexicon
from lextools.core.wordlist import read_text
from lextools.features import lists, quiz

app = typer.Typer()

#: The options of a list read a page at a time (``stems``, ``high-value``, ``new-words``), declared once.
PAGE_OPTIONS = (
    option("start", Annotated[int, typer.Option("--from", help="First item, 1-based.")], 1),
    option("count", Annotated[int, typer.Option(help=f"Items (1-{lists.MAX_PAGE}).")], lists.DEFAULT_PAGE),
    option("lang", LangOpt, None),
    *OUTPUT_OPTIONS,
)
#: The options of a list of words: a length, then a page.
LIST_OPTIONS = (
    option("length", Annotated[int | None, typer.Option(help="Tiles.", show_default="any")], None),
    *PAGE_OPTIONS,
)
TileArg = Annotated[str, typer.Argument(help="A tile worth 5 or more, in any notation (Ñ, CH, [LL]).")]
AgainstArg = Annotated[str, typer.Argument(help="The other edition, built in the same lexicon directory.")]


def _print_list(answer: dict[str, Any], as_json: bool) -> None:
    """The items one a line, or the answer as JSON."""
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


def _print_page(edition: str, page: dict[str, Any], answer: Callable[[Lexicon, int, int], dict[str, Any]]) -> None:
    """A page of a list: ``answer(lexicon, start, count)`` for a command's :data:`PAGE_OPTIONS` (``page``),
    then how many items the list holds (on stderr: the items stay a list a program reads)."""
    lex = open_lexicon(edition, page["lexicons"])
    told = answer(lex, page["start"], page["count"])
    _print_list(told, page["as_json"])
    if not page["as_json"]:
        sys.stderr.write(_shown_of(told, language_of(page["lang"], lex.edition)) + "\n")


def _shown_of(answer: dict[str, Any], lang: str) -> str:
    """How many items a page shows of how many, in ``lang`` ("20 of 52,618 stems of 6 tiles"; "21–40
    of …" from the second page on), and where the next page starts when there is one."""
    start, count, total = answer["from"], answer["count"], answer["total"]
    shown = (
        number(count, lang) if start == 1 or not count else f"{number(start, lang)}–{number(start + count - 1, lang)}"
    )
    values = {"shown": shown, "total": number(total, lang)}
    if answer["list"] == "stems":
        line = say(lang, "list_shown_stems", length=answer["length"], **values)
    elif answer["list"] == "high-value":
        line = say(lang, "list_shown_high_value", tile=answer["tile"], **values)
    else:
        line = say(lang, "list_shown_new", edition=answer["edition"], against=answer["against"], **values)
    following = start + count
    return line if count == 0 or following > total else line + "; " + say(lang, "list_next", next=following)


@app.command()
@with_options(PAGE_OPTIONS)
def stems(
    edition: EditionArg,
    length: Annotated[int, typer.Option(help="Tiles in a stem: 6 or 7.")] = 6,
    **page: Any,
) -> None:
    """Stems ranked by how many tiles make a word with them (6 → 7-tile words, 7 → 8), with the words."""
    _print_page(edition, page, lambda lex, start, count: lists.stems(lex, length, start, count))


@app.command("high-value")
@with_options(LIST_OPTIONS)
def high_value(edition: EditionArg, tile: TileArg, **page: Any) -> None:
    """Words with a high-value tile, shortest first."""
    _print_page(edition, page, lambda lex, start, count: lists.with_tile(lex, tile, page["length"], start, count))


@app.command("new-words")
@with_options(LIST_OPTIONS)
def new_words(edition: EditionArg, against: AgainstArg, **page: Any) -> None:
    """Words of EDITION's lexicon that AGAINST's lacks (es-fise es-na103), shortest first."""
    other = open_lexicon(edition_name(against), page["lexicons"])
    _print_page(edition, page, lambda lex, start, count: lists.new_words(lex, other, page["length"], start, count))


@app.command("list-quiz")
@with_options(PROSE_OPTIONS)
def list_quiz(
    edition: EditionArg,
    path: Annotated[Path, typer.Argument(help="A word list: a word per line, any notation (Zyzzyva's exports too).")],
    max_answers: MaxAnswersOpt = quiz.DEFAULT_MAX_ANSWERS,
    *,
    lang: str | None,
    as_json: bool,
    lexicons: Path | None,
) -> None:
    """Anagram questions on a player's word list, one per alphagram; lines the edition cannot use, and
    alphagrams with more answers than --max-answers, are reported."""
    lex = open_lexicon(edition, lexicons)
    # bounded before it is read: a regular file (never a FIFO or a device), its size, its lines
    words = lists.list_lines(read_text(path, lists.MAX_LIST_BYTES))[: lists.MAX_QUIZ_ITEMS]
    language = language_of(lang, lex.edition)  # the reasons, as the service's
    answer = lists.list_quiz(lex, words, lang=language, max_answers=max_answers)
    if as_json:
        print_json(answer)
        return
    for q in answer["questions"]:
        sys.stdout.write(f"{q['id']:<12} {' '.join(a['word'] for a in q['answers'])}\n")
    for item in answer["refused"]:  # a spelling error's reason names the text already ('kilo': …)
        sys.stderr.write(f"{item['text']}: {item['reason'].removeprefix(repr(item['text']) + ': ')}\n")
