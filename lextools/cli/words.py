"""Commands about given words: ``check``, ``explain``, ``hooks``, ``score`` (the service's ``words`` routes)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from lextools.cli.common import EditionArg, JsonOpt, LexiconsOpt, home, open_lexicon, out, print_json
from lextools.core.edition import Edition, load_edition
from lextools.core.errors import CorruptLexiconError, LexiconError, LexiconNotFoundError
from lextools.core.inputs import read_stream
from lextools.core.lexicon import Lexicon
from lextools.core.messages import LANGUAGES, choose_language, message
from lextools.core.wordlist import decode, read_list, words_of
from lextools.features import answers
from lextools.features.explain import explain as explain_word

app = typer.Typer()


@app.command()
def check(
    edition: EditionArg,
    words: Annotated[
        list[str] | None,
        typer.Argument(help="Words in any notation (CHIQUILLO, 1IQUI2O, [CH]IQUI[LL]O); - reads them from stdin."),
    ] = None,
    file: Annotated[Path | None, typer.Option("--file", "-f", help="Check the words of a list, one per line.")] = None,
    lang: Annotated[
        str | None, typer.Option(help="Language of the reasons: es, fr or en [default: the edition's]")
    ] = None,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Check words. Exit 0 when every word is valid, 1 when any is not."""
    words = list(words or [])
    if words == ["-"]:
        words = words_of(decode(read_stream(), "standard input")[0])
    elif "-" in words:
        raise LexiconError("- (read the words from standard input) stands alone")
    if file is not None:
        words += read_list(file).words
    if not words:
        raise LexiconError("no words to check: name them, give - to read standard input, or --file LIST")
    lex = open_lexicon(edition, lexicons)
    answer = answers.check(lex, words, _language(lang, lex), home(lexicons))  # a reason names its rule
    if as_json:
        print_json(answer)
    else:
        table = Table("input", "word", "tiles", "valid", "score", "reason")
        for r in answer["results"]:
            table.add_row(
                r["input"],
                r["word"] or "",
                "·".join(r["tiles"]),
                "[green]yes[/]" if r["valid"] else "[red]no[/]",
                "" if r["score"] is None else str(r["score"]),
                r["reason"] or "",
            )
        out.print(table)
    raise typer.Exit(0 if all(r["valid"] for r in answer["results"]) else 1)


def _language(lang: str | None, of: Lexicon | Edition) -> str:
    if lang is not None and lang not in LANGUAGES:
        raise LexiconError(f"--lang {lang!r}: use one of {', '.join(LANGUAGES)}")
    return choose_language(lang, None, (of.edition if isinstance(of, Lexicon) else of).language)


@app.command()
def explain(
    edition: EditionArg,
    words: Annotated[list[str], typer.Argument(help="Words in any notation.")],
    lang: Annotated[str | None, typer.Option(help="Language: es, fr or en [default: the edition's]")] = None,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Why a word is not valid (the rule and the source form), or which sources give a valid one."""
    lex = open_lexicon(edition, lexicons)
    language = _language(lang, lex)
    told = []
    for r in (explain_word(lex, w, home(lexicons)) for w in words):
        if r.message is not None:
            reason = r.message.text(language)
        else:  # the spelling error (KILO in es-fise), or a lexicon built without a sidecar
            reason = answers.localized(r.result, lex.edition, language)["reason"]
        told.append({**r.as_dict(), "reason": reason})
    if as_json:
        print_json(told)
        return
    for t in told:
        if t["valid"]:
            listed = message("explain_valid", word=t["word"], edition=edition, sources=", ".join(t["sources"]) or "—")
            out.print(listed.text(language), highlight=False, soft_wrap=True)
        elif t["word"] is None:  # the spelling error names no word: say which one, as every other line does
            out.print(f"{t['input'].strip().upper()}: {t['reason']}", highlight=False, soft_wrap=True)
        else:
            out.print(t["reason"] or t["input"], highlight=False, soft_wrap=True)


@app.command()
def hooks(
    edition: EditionArg,
    words: Annotated[list[str], typer.Argument(help="Words (need not be valid themselves).")],
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Front and back hooks at tile level, and inner-hook flags (--json: the API's answer; a list for several words)."""
    lex = open_lexicon(edition, lexicons)
    rows = [answers.hooks(lex, w) for w in words]
    if as_json:
        print_json(rows[0] if len(rows) == 1 else rows)
        return
    table = Table("front", "word", "back")
    for r in rows:
        word = ("·" if r["front_inner"] else "") + r["word"] + ("·" if r["back_inner"] else "")
        table.add_row(" ".join(r["front"]), word if r["valid"] else f"{word} (not valid)", " ".join(r["back"]))
    out.print(table)


@app.command()
def score(
    edition: EditionArg,
    word: Annotated[str, typer.Argument(help="A word in any notation.")],
    blank: Annotated[
        list[int] | None, typer.Option("--blank", "-b", help="1-based position of a tile played with a blank.")
    ] = None,
    lang: Annotated[str | None, typer.Option(help="Language: es, fr or en [default: the edition's]")] = None,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Score of a word, tile by tile (blanks score 0); no board premiums. Warns when the word is not
    valid (if its lexicon is built) or needs more of a tile than the bag holds."""
    ed = load_edition(edition)
    language = _language(lang, ed)
    try:
        lex: Lexicon | None = open_lexicon(edition, lexicons)
    except (LexiconNotFoundError, CorruptLexiconError):  # a score needs only the edition's tile table
        lex = None
    answer = answers.score(ed, word, blank or [], lex)
    if as_json:
        print_json(answer)
        return
    for line in _score_lines(ed, answer, language):
        out.print(line, highlight=False, markup=False, soft_wrap=True)


def _score_lines(ed: Edition, answer: dict[str, Any], lang: str) -> list[str]:
    """The score line, then a warning per problem, in ``lang``."""
    word = answer["word"]
    marked = [b["tile"] + (message("score_blank").text(lang) if b["blank"] else "") for b in answer["tiles"]]
    if answer["score"] is None:
        lines = [message("score_unverified", word=word, tiles="·".join(marked), edition=ed.name).text(lang)]
    else:
        parts = " + ".join(f"{m} {b['value']}" for m, b in zip(marked, answer["tiles"], strict=True))
        lines = [f"{word}: {parts} = {answer['score']}"]
    if answer["valid"] is False:
        lines.append(message("score_not_valid", word=word, edition=ed.name).text(lang))
    for over in answer["over_bag"] or []:
        code = "score_over_blanks" if over["tile"] == "?" else "score_over_bag"
        lines.append(message(code, word=word, edition=ed.name, **over).text(lang))
    return lines
