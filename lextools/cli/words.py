"""Commands about given words: ``check``, ``explain``, ``hooks``, ``score`` (the service's ``words`` routes)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from lextools.cli.common import (
    Cell,
    EditionArg,
    JsonOpt,
    LexiconsOpt,
    echo,
    home,
    open_lexicon,
    print_json,
    print_table,
    with_options,
)
from lextools.cli.language import PROSE_OPTIONS, LangOpt, language_of, say
from lextools.core.edition import Edition, load_edition
from lextools.core.errors import CorruptLexiconError, LexiconError, LexiconNotFoundError
from lextools.core.lexicon import Lexicon
from lextools.core.messages import message
from lextools.features import answers
from lextools.features import explain as explaining
from lextools.features.explain import load_sidecar

app = typer.Typer()


@app.command()
def check(
    edition: EditionArg,
    words: Annotated[
        list[str] | None,
        typer.Argument(help="Words in any notation (CHIQUILLO, 1IQUI2O, [CH]IQUI[LL]O); - reads them from stdin."),
    ] = None,
    file: Annotated[Path | None, typer.Option("--file", "-f", help="Check the words of a list, one per line.")] = None,
    lang: LangOpt = None,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Check words. Exit 0 when every word is valid, 1 when any is not."""
    words = _words(list(words or []), file)
    if not words:
        raise LexiconError("no words to check: name them, give - to read standard input, or --file LIST")
    lex = open_lexicon(edition, lexicons)
    told = language_of(lang, lex.edition)
    answer = answers.check(lex, words, told, home(lexicons))  # a reason names its rule
    if as_json:
        print_json(answer)
    else:
        yes, no = (say(told, "answer_yes"), "green"), (say(told, "answer_no"), "red")
        rows: list[list[Cell]] = [
            [
                r["input"],
                r["word"] or "",
                "·".join(r["tiles"]),
                yes if r["valid"] else no,
                "" if r["score"] is None else str(r["score"]),
                r["reason"] or "",
            ]
            for r in answer["results"]
        ]
        columns = ("input", "word", "tiles", "valid", "score", "reason")
        print_table([say(told, f"column_{c}") for c in columns], rows)
    raise typer.Exit(0 if all(r["valid"] for r in answer["results"]) else 1)


def _words(words: list[str], file: Path | None) -> list[str]:
    """The words named, or read from standard input (``-``), and those of ``--file``."""
    if "-" in words and words != ["-"]:
        raise LexiconError("- (read the words from standard input) stands alone")
    if words == ["-"] or file is not None:
        from lextools.core import wordlist  # noqa: PLC0415  (the list reader, only for words not named)
        from lextools.core.inputs import read_stream  # noqa: PLC0415  (gzip and all, likewise)

        if words == ["-"]:
            words = wordlist.words_of(wordlist.decode(read_stream(), "standard input")[0])
        if file is not None:
            words += wordlist.read_list(file).words
    return words


@app.command()
@with_options(PROSE_OPTIONS)
def explain(
    edition: EditionArg,
    words: Annotated[list[str], typer.Argument(help="Words in any notation.")],
    *,
    lang: str | None,
    as_json: bool,
    lexicons: Path | None,
) -> None:
    """Why a word is not valid (the rule and the source form), or which sources give a valid one."""
    lex = open_lexicon(edition, lexicons)
    language = language_of(lang, lex.edition)
    told = []
    for r in explaining.explain_words(lex, words, home(lexicons)):
        if r.message is not None:
            reason = r.message.text(language)
        else:  # the spelling error (KILO in es-fise), or a lexicon built without a sidecar
            reason = answers.localized(r.result, lex.edition, language)["reason"]
        told.append({**r.as_dict(), "reason": reason})
    if as_json:
        print_json(told)
        return
    for t in told:
        if t["valid"] and t["reason"]:  # a build from lemma lists: the lemma and rule of the form
            echo(t["reason"])
        elif t["valid"]:
            listed = message("explain_valid", word=t["word"], edition=edition, sources=", ".join(t["sources"]) or "—")
            echo(listed.text(language))
        elif t["word"] is None:  # the spelling error names no word: say which one, as every other line does
            echo(f"{t['input'].strip().upper()}: {t['reason']}")
        else:
            echo(t["reason"] or t["input"])


@app.command()
@with_options(PROSE_OPTIONS)
def hooks(
    edition: EditionArg,
    words: Annotated[list[str], typer.Argument(help="Words (need not be valid themselves).")],
    *,
    lang: str | None,
    as_json: bool,
    lexicons: Path | None,
) -> None:
    """Front and back hooks at tile level, and inner-hook flags (--json: the API's answer; a list for several words)."""
    lex = open_lexicon(edition, lexicons)
    rows = [answers.hooks(lex, w) for w in words]
    if as_json:
        print_json(rows[0] if len(rows) == 1 else rows)
        return
    told = language_of(lang, lex.edition)
    table: list[Sequence[Cell]] = []
    for r in rows:
        word = ("·" if r["front_inner"] else "") + r["word"] + ("·" if r["back_inner"] else "")
        shown = word if r["valid"] else say(told, "hooks_not_valid", word=word)
        table.append((" ".join(r["front"]), shown, " ".join(r["back"])))
    print_table([say(told, f"column_{c}") for c in ("front", "word", "back")], table)


@app.command()
@with_options(PROSE_OPTIONS)
def card(
    edition: EditionArg,
    word: Annotated[str, typer.Argument(help="A word in any notation (need not be valid).")],
    *,
    lang: str | None,
    as_json: bool,
    lexicons: Path | None,
) -> None:
    """The word card: tiles and score, alphagram, probability rank, anagrams, hooks with inner-hook
    dots, and the sources (or the reason it is not valid). --json: the API's card."""
    lex = open_lexicon(edition, lexicons)
    language = language_of(lang, lex.edition)
    from lextools.features.card import word_card  # noqa: PLC0415  (the ranking and card: this command's only)

    answer = word_card(lex, word, language, load_sidecar(lex, home(lexicons)))
    if as_json:
        print_json(answer)
        return
    for line in _card_lines(answer, language):
        echo(line)


def _card_lines(c: dict[str, Any], lang: str) -> list[str]:
    """The card as a person reads it, in ``lang`` (the message catalogue's ``card_*`` lines)."""
    h, rank, none = c["hooks"], c["rank"], "—"
    score = "?" if c["score"] is None else c["score"]
    lines = [
        message("card_valid" if c["valid"] else "card_not_valid", word=c["word"], edition=c["edition"]),
        message("card_tiles", tiles="·".join(c["tiles"]), score=score),
        message("card_alphagram", tiles="·".join(c["alphagram_tiles"])),
        message("card_rank" if rank["order"] == "probability" else "card_rank_alpha", rank=rank["rank"], of=rank["of"])
        if rank
        else message("card_no_rank"),
        message("card_hooks", hooks=f"{' '.join(h['front'])} {h['hooked']} {' '.join(h['back'])}".strip()),
        message("card_anagrams", words=", ".join(a["word"] for a in c["anagrams"]) or none),
        message("card_sources", sources=", ".join(c["sources"]) or none)
        if c["valid"]
        else message("card_reason", reason=c["reason"]),
    ]
    return [line.text(lang) for line in lines]


@app.command()
def score(
    edition: EditionArg,
    word: Annotated[str, typer.Argument(help="A word in any notation.")],
    blank: Annotated[
        list[int] | None, typer.Option("--blank", "-b", help="1-based position of a tile played with a blank.")
    ] = None,
    lang: LangOpt = None,
    as_json: JsonOpt = False,
    lexicons: LexiconsOpt = None,
) -> None:
    """Score of a word, tile by tile (blanks score 0); no board premiums. Warns when the word is not
    valid (if its lexicon is built) or needs more of a tile than the bag holds."""
    ed = load_edition(edition)
    language = language_of(lang, ed)
    try:
        lex: Lexicon | None = open_lexicon(edition, lexicons)
    except (LexiconNotFoundError, CorruptLexiconError):  # a score needs only the edition's tile table
        lex = None
    answer = answers.score(ed, word, blank or [], lex)
    if as_json:
        print_json(answer)
        return
    for line in _score_lines(ed, answer, language):
        echo(line)


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
