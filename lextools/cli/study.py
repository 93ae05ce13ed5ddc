"""Word lists to study: ``two-tile``, ``anagram``, ``pattern`` (the service's ``study`` routes). The lists
that teach are :mod:`lextools.cli.lists`: their library (lists, comparison, quizzes) is not loaded here."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from lextools.cli.common import (
    OUTPUT_OPTIONS,
    EditionArg,
    JsonOpt,
    LexiconsOpt,
    open_lexicon,
    option,
    print_json,
)
from lextools.cli.conditions import with_conditions
from lextools.cli.language import LangOpt, language_of, say
from lextools.core import background, search
from lextools.core.budget import Budget
from lextools.core.conditions import ANAGRAM, PATTERN, conditions
from lextools.core.search import ranked_anagrams
from lextools.features import answers

app = typer.Typer()

#: The options of a walk that pages (``anagram``, ``pattern``) besides its conditions, declared once.
WALK_OPTIONS = (
    option("order", Annotated[str, typer.Option(help="alpha or probability (shorter, likeliest first).")], "alpha"),
    option("limit", Annotated[int, typer.Option(help="At most this many words (0: all).")], 0),
    *OUTPUT_OPTIONS,
)
#: ``anagram``'s own: the language of its blanks' marks and of its note on probability order.
LANG_OPTION = (option("lang", LangOpt, None),)


@dataclass(frozen=True)
class Walk:
    """What a walk's command was asked besides its arguments: the :data:`WALK_OPTIONS` and, in
    ``given``, the search conditions (:func:`lextools.core.conditions.conditions` reads them)."""

    order: str
    limit: int
    lang: str | None
    as_json: bool
    lexicons: Path | None
    given: dict[str, Any]

    @classmethod
    def of(cls, options: dict[str, Any]) -> Walk:
        """The options a command took in its ``**options``."""
        given = dict(options)
        order, limit, lang = given.pop("order"), given.pop("limit"), given.pop("lang", None)
        return cls(order, limit, lang, given.pop("as_json"), given.pop("lexicons"), given)


def _print_words(answer: dict[str, Any], as_json: bool, lang: str) -> None:
    """The words one a line, a word's blanks beside it (in ``lang``), or the answer as JSON."""
    if as_json:
        print_json(answer)
        return
    for entry in answer["words"]:
        note = "  " + say(lang, "blank_tiles", tiles=" ".join(entry["blanks"])) if entry.get("blanks") else ""
        sys.stdout.write(entry["word"] + note + "\n")


@app.command("two-tile")
def two_tile(edition: EditionArg, as_json: JsonOpt = False, lexicons: LexiconsOpt = None) -> None:
    """Words of two tiles (in es-fise this includes CHA, CHE, CHO, LLE)."""
    lex = open_lexicon(edition, lexicons)
    _print_words(answers.two_tile(lex), as_json, lex.edition.language)


@app.command()
@with_conditions(ANAGRAM, WALK_OPTIONS, LANG_OPTION)
def anagram(
    edition: EditionArg,
    rack: Annotated[str, typer.Argument(help="Tiles, ? for a blank: ARBOL??")],
    sub: Annotated[bool, typer.Option("--sub", help="Subanagrams: words using some of the tiles.")] = False,
    **options: Any,
) -> None:
    """Anagrams of a rack (blanks may be digraph tiles, never a letter the edition lacks), meeting
    the conditions given; --json is the service's anagram answer."""
    walk = Walk.of(options)
    search.check_order(walk.order)
    lex = open_lexicon(edition, walk.lexicons)
    key, blanks = search.parse_rack(rack, lex)
    min_length = walk.given["min_length"]  # a condition, and the walk's too
    with background.in_caller():  # one query, no deadline: sorted (and ranked) here, not in a thread
        cond = conditions(lex, **walk.given)
        budget = Budget(results=walk.limit or None)
        if walk.order == "alpha":
            matches = search.anagrams(lex, key, blanks, sub=sub, min_length=min_length, budget=budget, conditions=cond)
        else:
            matches = ranked_anagrams(lex, key, blanks, sub, min_length, cond, budget=budget)
    page = answers.page(len(matches), budget.truncated)
    answer = answers.anagrams(lex, rack, blanks, sub, min_length, matches, page)
    if walk.order != "alpha":  # as the service says it: only when asked for
        answer["order"] = walk.order
    told = language_of(walk.lang, lex.edition)
    _print_words(answer, walk.as_json, told)
    if not walk.as_json and walk.order == "probability" and budget.truncated:
        _shorter_first(answer["words"], len(key) + blanks, told)


def _shorter_first(shown: list[dict[str, Any]], rack: int, lang: str) -> None:
    """Why a page cut short in probability order holds only short words, when it does (on stderr:
    the words stay a list a program reads)."""
    lengths = sorted({len(entry["tiles"]) for entry in shown})
    if not lengths or lengths[-1] >= rack:
        return
    tiles = str(lengths[0]) if len(lengths) == 1 else f"{lengths[0]}–{lengths[-1]}"
    sys.stderr.write(say(lang, "probability_shorter_first", count=len(shown), tiles=tiles, rack=rack) + "\n")


@app.command()
@with_conditions(PATTERN, WALK_OPTIONS)
def pattern(
    edition: EditionArg,
    pattern: Annotated[str, typer.Argument(help="? one tile, * any tiles: CH?*O, ?A?")],
    **options: Any,
) -> None:
    """Words matching a pattern (prefix search is PATTERN*) and the conditions given; --json is the
    service's search answer."""
    walk = Walk.of(options)
    lex = open_lexicon(edition, walk.lexicons)
    budget = Budget(results=walk.limit or None)
    with background.in_caller():  # the sorted lists a search asks the background for: here, not in a thread
        cond = conditions(lex, **walk.given)
        keys = list(search.find(lex, pattern=pattern, order=walk.order, budget=budget, conditions=cond))
    answer = answers.search_page(lex, walk.order, keys, answers.page(len(keys), budget.truncated))
    _print_words(answer, walk.as_json, language_of(walk.lang, lex.edition))
