"""Word lists to study: ``two-tile``, ``anagram``, ``pattern`` (the service's ``study`` routes)."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from lextools.cli.common import EditionArg, JsonOpt, LexiconsOpt, open_lexicon, print_json
from lextools.core import search
from lextools.core.budget import Budget
from lextools.features import answers

app = typer.Typer()


def _print_words(answer: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print_json(answer)
        return
    for entry in answer["words"]:
        note = f"  (blank: {' '.join(entry['blanks'])})" if entry.get("blanks") else ""
        sys.stdout.write(entry["word"] + note + "\n")


@app.command("two-tile")
def two_tile(edition: EditionArg, as_json: JsonOpt = False, lexicons: LexiconsOpt = None) -> None:
    """Words of two tiles (in es-fise this includes CHA, CHE, CHO, LLE)."""
    _print_words(answers.two_tile(open_lexicon(edition, lexicons)), as_json)


@app.command()
def anagram(
    edition: EditionArg,
    rack: Annotated[str, typer.Argument(help="Tiles, ? for a blank: ARBOL??")],
    sub: Annotated[bool, typer.Option("--sub", help="Subanagrams: words using some of the tiles.")] = False,
    min_length: Annotated[int, typer.Option(help="Shortest word, in tiles.")] = 2,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Anagrams of a rack (blanks may be digraph tiles, never a letter the edition lacks)."""
    lex = open_lexicon(edition, lexicons)
    key, blanks = search.parse_rack(rack, lex)
    matches = search.anagrams(lex, key, blanks, sub=sub, min_length=min_length)
    _print_words(answers.anagrams(lex, rack, blanks, sub, min_length, matches, answers.page(len(matches))), as_json)


@app.command()
def pattern(
    edition: EditionArg,
    pattern: Annotated[str, typer.Argument(help="? one tile, * any tiles: CH?*O, ?A?")],
    order: Annotated[str, typer.Option(help="alpha or probability")] = "alpha",
    limit: Annotated[int, typer.Option(help="At most this many words (0: all).")] = 0,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Words matching a pattern (prefix search is PATTERN*); --json is the service's search answer."""
    lex = open_lexicon(edition, lexicons)
    budget = Budget(results=limit or None)
    keys = list(search.find(lex, pattern=pattern, order=order, budget=budget))
    _print_words(answers.search_page(lex, order, keys, answers.page(len(keys), budget.truncated)), as_json)
