"""Word lists to study: ``two-tile``, ``anagram``, ``pattern`` (the service's ``study`` routes), and the
lists that teach: ``stems``, ``high-value``, ``new-words``, ``list-quiz`` (its ``lists`` routes)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from lextools.cli.common import EditionArg, JsonOpt, LexiconsOpt, edition_name, open_lexicon, print_json
from lextools.core import search
from lextools.core.budget import Budget
from lextools.core.conditions import NAMES, Conditions, conditions
from lextools.core.errors import QueryError
from lextools.core.lexicon import Lexicon
from lextools.core.messages import message
from lextools.features import answers, lists
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
    if order not in search.ORDERS:
        raise QueryError(message("unknown_order", order=repr(order), orders=" | ".join(search.ORDERS)))
    lex = open_lexicon(edition, lexicons)
    key, blanks = search.parse_rack(rack, lex)
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
    cond = _conditions(lex, locals())
    budget = Budget(results=limit or None)
    keys = list(search.find(lex, pattern=pattern, order=order, budget=budget, conditions=cond))
    _print_words(answers.search_page(lex, order, keys, answers.page(len(keys), budget.truncated)), as_json)


def _conditions(lex: Lexicon, given: dict[str, Any]) -> Conditions:
    """The conditions among a command's arguments (lextools.core.conditions); ``min_length`` of an
    anagram query is its walk's too."""
    return conditions(lex, **{name: given.get(name) for name in NAMES})


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
