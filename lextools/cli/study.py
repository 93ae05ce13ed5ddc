"""Word lists to study: ``two-tile``, ``anagram``, ``pattern`` (the service's ``study`` routes). The lists
that teach are :mod:`lextools.cli.lists`: their library (lists, comparison, quizzes) is not loaded here."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from lextools.cli.common import EditionArg, JsonOpt, LexiconsOpt, open_lexicon, print_json
from lextools.core import background, search
from lextools.core.budget import Budget
from lextools.core.conditions import NAMES, Conditions, conditions
from lextools.core.lexicon import Lexicon
from lextools.features import answers
from lextools.features.searching import ranked_anagrams

app = typer.Typer()

# The search conditions (lextools.core.conditions), the same for `pattern` and `anagram` and named as
# the API's query parameters.
_MaxLength = Annotated[int | None, typer.Option(help="Longest word, in tiles.")]
_MinRank = Annotated[int | None, typer.Option(help="Lowest probability rank within the word's length (1: likeliest).")]
_MaxRank = Annotated[int | None, typer.Option(help="Highest probability rank within the word's length.")]
_Includes = Annotated[str | None, typer.Option(help="Tiles the word holds anywhere, each as often as given.")]
_Starts = Annotated[str | None, typer.Option(help="Tiles the word starts with.")]
_Ends = Annotated[str | None, typer.Option(help="Tiles the word ends with.")]
_FrontHook = Annotated[
    bool | None, typer.Option("--front-hook/--no-front-hook", help="Takes a front hook tile (or takes none).")
]
_BackHook = Annotated[
    bool | None, typer.Option("--back-hook/--no-back-hook", help="Takes a back hook tile (or takes none).")
]
_MinAnagrams = Annotated[int | None, typer.Option(help="Fewest words with exactly its tiles, itself included.")]
_MaxAnagrams = Annotated[int | None, typer.Option(help="Most words with exactly its tiles, itself included.")]
_MinScore = Annotated[int | None, typer.Option(help="Lowest point value (tile values, no premiums).")]
_MaxScore = Annotated[int | None, typer.Option(help="Highest point value.")]


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
    order: Annotated[str, typer.Option(help="alpha or probability (shorter, likeliest first)")] = "alpha",
    limit: Annotated[int, typer.Option(help="At most this many words (0: all).")] = 0,
    max_length: _MaxLength = None,
    min_rank: _MinRank = None,
    max_rank: _MaxRank = None,
    includes: _Includes = None,
    starts: _Starts = None,
    ends: _Ends = None,
    front_hook: _FrontHook = None,
    back_hook: _BackHook = None,
    min_anagrams: _MinAnagrams = None,
    max_anagrams: _MaxAnagrams = None,
    min_score: _MinScore = None,
    max_score: _MaxScore = None,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Anagrams of a rack (blanks may be digraph tiles, never a letter the edition lacks), meeting
    the conditions given; --json is the service's anagram answer."""
    search.check_order(order)
    lex = open_lexicon(edition, lexicons)
    key, blanks = search.parse_rack(rack, lex)
    with background.in_caller():  # one query, no deadline: sorted (and ranked) here, not in a thread
        cond = _conditions(lex, locals())
        budget = Budget(results=limit or None)
        if order == "alpha":
            matches = search.anagrams(lex, key, blanks, sub=sub, min_length=min_length, budget=budget, conditions=cond)
        else:
            matches = ranked_anagrams(lex, key, blanks, sub, min_length, cond, budget=budget)
    page = answers.page(len(matches), budget.truncated)
    answer = answers.anagrams(lex, rack, blanks, sub, min_length, matches, page)
    if order != "alpha":  # as the service says it: only when asked for
        answer["order"] = order
    _print_words(answer, as_json)


@app.command()
def pattern(
    edition: EditionArg,
    pattern: Annotated[str, typer.Argument(help="? one tile, * any tiles: CH?*O, ?A?")],
    order: Annotated[str, typer.Option(help="alpha or probability")] = "alpha",
    limit: Annotated[int, typer.Option(help="At most this many words (0: all).")] = 0,
    min_length: Annotated[int | None, typer.Option(help="Shortest word, in tiles.")] = None,
    max_length: _MaxLength = None,
    min_rank: _MinRank = None,
    max_rank: _MaxRank = None,
    includes: _Includes = None,
    starts: _Starts = None,
    ends: _Ends = None,
    front_hook: _FrontHook = None,
    back_hook: _BackHook = None,
    min_anagrams: _MinAnagrams = None,
    max_anagrams: _MaxAnagrams = None,
    min_score: _MinScore = None,
    max_score: _MaxScore = None,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Words matching a pattern (prefix search is PATTERN*) and the conditions given; --json is the
    service's search answer."""
    lex = open_lexicon(edition, lexicons)
    budget = Budget(results=limit or None)
    with background.in_caller():  # a ranking to compute (a lexicon built without one): here, not in a thread
        cond = _conditions(lex, locals())
        keys = list(search.find(lex, pattern=pattern, order=order, budget=budget, conditions=cond))
    _print_words(answers.search_page(lex, order, keys, answers.page(len(keys), budget.truncated)), as_json)


def _conditions(lex: Lexicon, given: dict[str, Any]) -> Conditions:
    """The conditions among a command's arguments (lextools.core.conditions); ``min_length`` of an
    anagram query is its walk's too."""
    return conditions(lex, **{name: given.get(name) for name in NAMES})
