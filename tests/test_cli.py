"""The command line, through Typer's test runner, on lexicons built by the CLI itself."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.core import TyperGroup
from typer.testing import CliRunner

import lextools
from lextools.cli.lazy import Plain
from lextools.cli.main import app, main

COMMAND_LINE = Path(__file__).resolve().parents[1] / "docs" / "command-line.md"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_editions_lists_five_with_totals(runner: CliRunner) -> None:
    result = run(runner, "editions", "--json")
    data = {e["name"]: e["total_tiles"] for e in json.loads(result.stdout)}
    assert data == {"en": 100, "es-fise": 100, "es-mattel2021": None, "es-na103": 103, "fr": 102}
    table = run(runner, "editions").stdout
    for name, total in [("es-fise", "100"), ("es-na103", "103"), ("en", "100"), ("fr", "102")]:
        assert name in table and total in table
    assert "unverified" in table


def test_build_then_check_the_acceptance_example(runner: CliRunner, tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("CHIQUILLO\ncanción\nkilo\n", "utf-8")
    out = tmp_path / "D"
    result = run(runner, "build", "es-fise", "--source", str(words), "--out", str(out))
    assert result.exit_code == 0, result.output
    result = run(runner, "check", "es-fise", "chiquillo", "canción", "kilo", "--json", "--lexicons", str(out))
    assert result.exit_code == 1
    answer = json.loads(result.stdout)
    assert answer["edition"] == "es-fise"
    chiquillo, cancion, kilo = answer["results"]
    assert chiquillo["valid"] and len(chiquillo["tiles"]) == 7 and chiquillo["score"] == 22
    assert cancion["valid"] and cancion["word"] == "CANCION"
    assert not kilo["valid"] and "K" in kilo["reason"]
    assert set(chiquillo) >= {"input", "word", "tiles", "valid", "score", "reason"} and chiquillo["reason"] is None
    assert run(runner, "check", "es-fise", "chiquillo", "--lexicons", str(out)).exit_code == 0


def test_lexicons_from_environment(runner: CliRunner, lexicon_home: Path) -> None:
    result = runner.invoke(app, ["check", "es-fise", "casa"], env={"LEXTOOLS_HOME": str(lexicon_home)})
    assert result.exit_code == 0


def test_errors_exit_2_with_a_message(monkeypatch: pytest.MonkeyPatch, capsys, tmp_path: Path) -> None:
    for argv in (["check", "es-xx", "casa"], ["check", "es-fise", "casa", "--lexicons", str(tmp_path)]):
        monkeypatch.setattr("sys.argv", ["lextools", *argv])
        with pytest.raises(SystemExit) as e:
            main()
        assert e.value.code == 2
    err = capsys.readouterr().err
    assert "unknown edition 'es-xx'" in err and "lextools build es-fise" in err


def test_usage_error_exits_2(runner: CliRunner) -> None:
    assert runner.invoke(app, ["check"]).exit_code == 2


def test_queries(runner: CliRunner, lexicon_home: Path) -> None:
    L = ["--lexicons", str(lexicon_home)]
    hooks = json.loads(run(runner, "hooks", "es-fise", "ama", "--json", *L).stdout)
    assert hooks["front"] == ["C", "LL"]
    two = json.loads(run(runner, "two-tile", "es-fise", "--json", *L).stdout)
    assert {"CHA", "CHE", "CHO", "LLE"} <= {w["word"] for w in two["words"]}
    ana = json.loads(run(runner, "anagram", "es-fise", "SAC?", "--json", *L).stdout)
    assert {"word": "CASA", "tiles": ["C", "A", "S", "A"], "blanks": ["A"]} in ana["words"]
    pat = run(runner, "pattern", "es-fise", "CH*", *L).stdout.split()
    assert pat == ["CHA", "CHAPA", "CHAPAS", "CHE", "CHIQUILLO", "CHO"]
    score = json.loads(run(runner, "score", "es-fise", "chiquillo", "--blank", "1", "--json").stdout)
    assert score["score"] == 17 and score["tiles"][0] == {"tile": "CH", "blank": True, "value": 0}


@pytest.mark.parametrize(
    ("notation", "line"), [("plain", "CHIQUILLO"), ("digits", "1IQUI2O"), ("brackets", "[CH]IQUI[LL]O")]
)
def test_export_notations(runner: CliRunner, lexicon_home: Path, tmp_path: Path, notation: str, line: str) -> None:
    out = tmp_path / "x.txt"
    L = ["--lexicons", str(lexicon_home)]
    run(runner, "export", "es-fise", "--format", "txt", "--notation", notation, "--output", str(out), *L)
    lines = out.read_text("utf-8").splitlines()
    assert line in lines
    assert len(lines) == json.loads((lexicon_home / "es-fise.json").read_text())["words"]
    # what we export, we read back: rebuilding from the export gives the same lexicon
    again = tmp_path / "again"
    run(runner, "build", "es-fise", "--source", str(out), "--out", str(again))
    assert (
        json.loads((again / "es-fise.json").read_text())["checksum"]
        == json.loads((lexicon_home / "es-fise.json").read_text())["checksum"]
    )


def test_compare_and_diff(runner: CliRunner, lexicon_home: Path, tmp_path: Path) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("casa\ncasas\nchiquillo\ncha\nzapato\n", "utf-8")
    L = ["--lexicons", str(lexicon_home)]
    rows = json.loads(run(runner, "compare", "es-fise", str(ref), "--json", *L).stdout)["by_length"]
    by_len = {r["length"]: r for r in rows}
    assert by_len[2] == {
        "length": 2,
        "built": by_len[2]["built"],
        "reference": 1,
        "common": 1,
        "precision": 1 / by_len[2]["built"],
        "recall": 1.0,
    }
    assert by_len[6]["recall"] == 0.0  # ZAPATO is missing
    d = json.loads(run(runner, "diff", "es-fise", "es-na103", "--json", *L).stdout)
    assert {"KILO", "KIWI", "WIFI", "WHISKY", "KA"} == set(d["added"]) and d["removed"] == []
    table = run(runner, "diff", "es-fise", "es-na103", *L).stdout
    assert "KILO" in table


# -- the layout: one module per command group, loaded when one of its commands runs ------------------

GROUPS = ("editions", "build", "words", "study", "lists", "quiz", "files", "compare", "judge", "cardboxes")


def _root() -> TyperGroup:
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    return group


def _commands() -> list[str]:
    with typer.Context(_root()) as ctx:
        return _root().list_commands(ctx)


def test_help_lists_every_command_with_its_short_help(runner: CliRunner) -> None:
    names = _commands()
    assert names == [
        *("editions", "build", "check", "explain", "hooks", "card", "two-tile", "anagram", "pattern"),
        *("stems", "high-value", "new-words", "list-quiz", "quiz", "score"),
        *("export", "verify", "compare", "diff", "record", "receipt", "cardboxes", "serve"),
    ]
    listed = run(runner, "--help").stdout
    for name, first_words in [("check", "Check words."), ("serve", "Serve the lexicons"), ("receipt", "Receipts")]:
        assert f"│ {name} " in listed and first_words in listed


def test_serve_is_the_service_s_command_from_its_entry_point(runner: CliRunner) -> None:
    """The service adds `serve` (pyproject.toml: lextools.commands); nothing under lextools/ imports service."""
    with typer.Context(_root()) as ctx:
        serve = _root().get_command(ctx, "serve")
    assert serve is not None and serve.callback is not None and serve.callback.__module__ == "service.cli"
    assert "--kiosk" in run(runner, "serve", "--help").stdout
    package = Path(lextools.__file__).parent
    for path in package.rglob("*.py"):
        assert not re.search(r"^\s*(from|import) service\b", path.read_text("utf-8"), re.M), path


def test_the_manual_names_the_commands_of_help_in_its_order() -> None:
    """docs/command-line.md's examples, one or more per command, in the order of ``--help``."""
    section = COMMAND_LINE.read_text("utf-8").split("## Every command, by example", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    named = [line.split()[1] for line in block.splitlines() if line.startswith("lextools ")]
    assert list(dict.fromkeys(named)) == _commands()


@pytest.mark.parametrize("argv", [["check", "es-fise", "casa"], ["explain", "es-fise", "casa"],
                                  ["hooks", "es-fise", "casa"], ["score", "es-fise", "casa"],
                                  ["anagram", "es-fise", "casa"]])  # fmt: skip
def test_a_one_word_command_imports_only_its_group(lexicon_home: Path, argv: list[str]) -> None:
    """No build machinery, no service, no other command group nor the library only they use (the
    lists that teach, comparisons, quizzes), none of the heavy dependencies a command can do without
    (pydantic, which Typer converts arguments with; rich, for a table or a line; ICU, for ASCII
    words), and of the provenance sidecar only the record of ``explain``'s word. No thread either:
    an anagram's answers are sorted in the command's own (lextools.core.background.in_caller)."""
    code = """if True:
        import sys, threading
        started, start = [], threading.Thread.start
        threading.Thread.start = lambda t: started.append(t) or start(t)
        import lextools.features.explain as x
        asked, find = [], x.find_records
        x.find_records = lambda f, keys: asked.append(sorted(keys)) or find(f, keys)
        from lextools.cli.main import main
        try: main()
        except SystemExit: print(*sys.modules, "SIDECAR", x._sidecar.cache_info().misses, len(started), asked)
    """
    env = {**os.environ, "LEXTOOLS_HOME": str(lexicon_home)}
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env, check=True)
    loaded = set(done.stdout.split("SIDECAR")[0].split())
    group = "lextools.cli.study" if argv[0] == "anagram" else "lextools.cli.words"
    assert group in loaded
    heavy = ("lextools.builder", "service", "rich", "pydantic", "icu", "gunicorn", "flask")
    assert not {m for m in loaded if m.startswith(heavy)}
    assert not {f"lextools.cli.{g}" for g in GROUPS} & loaded - {group}
    others = ("lists", "compare", "quiz", "export", "verify", "record", "receipts")
    assert not {f"lextools.features.{m}" for m in others} & loaded  # (searching: `anagram --order`, core only)
    whole, threads, records = done.stdout.split("SIDECAR")[1].split(maxsplit=2)
    assert threads == "0"
    assert whole == "0" and records.strip() == ("[['CASA']]" if argv[0] == "explain" else "[]")


def test_arguments_are_converted_as_typer_converts_them(runner: CliRunner, lexicon_home: Path) -> None:
    """Plain parameters are converted without pydantic (lextools.cli.lazy.Plain), with Typer's own
    conversion and message for a value that is not plain."""
    L = ["-L", str(lexicon_home)]
    score = json.loads(run(runner, "score", "es-fise", "chiquillo", "-b", "1", "--blank", "2", "--json", *L).stdout)
    assert [t["blank"] for t in score["tiles"][:3]] == [True, True, False]
    refused = runner.invoke(app, ["score", "es-fise", "casa", "--blank", "x", *L])
    assert refused.exit_code == 2 and "valid integer" in refused.output
    assert runner.invoke(app, ["anagram", "es-fise", "casa", "--min-length", "-1", *L]).exit_code == 0


def test_the_one_reach_into_typer_is_its_parameters_converter(runner: CliRunner, tmp_path: Path) -> None:
    """lextools.cli.lazy sets a plain parameter's converter (Typer 0.29's ``_runtime_param``, which
    Typer calls ``coerce`` on) to Plain, and imports no private module of Typer; a path Typer would
    refuse (one that cannot be read) is still refused with Typer's message."""
    with typer.Context(_root()) as ctx:
        check = _root().get_command(ctx, "check")
        assert check is not None
        params = {p.name: p for p in check.get_params(ctx)}
    assert isinstance(params["lexicons"]._runtime_param, Plain)
    assert callable(params["lexicons"].get_runtime_param().coerce)
    private = re.compile(r"^\s*(from typer\._|import typer\._|from typer(\.\w+)* import _)", re.M)
    for path in [*Path(lextools.__file__).parent.rglob("*.py"), *(Path(__file__).parents[1] / "service").rglob("*.py")]:
        assert not private.search(path.read_text("utf-8")), path
    unreadable = tmp_path / "words.txt"
    unreadable.write_text("casa\n", encoding="utf-8")
    unreadable.chmod(0)
    if not os.access(unreadable, os.R_OK):  # root reads anything
        refused = runner.invoke(app, ["check", "es-fise", "--file", str(unreadable)])
        assert refused.exit_code == 2 and "is not readable" in refused.output


def test_a_mistyped_command_is_matched_against_every_command(runner: CliRunner) -> None:
    """Typer suggests among the commands it has loaded; the root group suggests among all of them."""
    refused = runner.invoke(app, ["chek", "es-fise", "casa"])
    assert refused.exit_code == 2 and "No such command 'chek'. Did you mean 'check'?" in refused.output
    refused = runner.invoke(app, ["zzzz"])
    assert refused.exit_code == 2 and "No such command 'zzzz'." in refused.output


# -- one language per edition: headers, markers and notes in the edition's language, or --lang's ------

#: English words of the CLI's tables and markers ("no" is left out: it is Spanish too, and es-fise's own
#: reason for KILO says "no tiene ficha K").
ENGLISH = {"input", "word", "tiles", "valid", "score", "reason", "yes", "not", "front", "back", "blank"}


def _words_of(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]+", text)}


def test_check_speaks_the_language_of_its_edition(runner: CliRunner, lexicon_home: Path) -> None:
    L = ["--lexicons", str(lexicon_home)]
    spanish = runner.invoke(app, ["check", "es-fise", "casa", "kilo", *L])
    assert spanish.exit_code == 1
    assert not _words_of(spanish.output) & ENGLISH, spanish.output
    assert {"entrada", "palabra", "fichas", "válida", "puntos", "motivo", "sí", "no"} <= _words_of(spanish.output)
    english = runner.invoke(app, ["check", "es-fise", "casa", "kilo", "--lang", "en", *L]).output
    assert {"input", "word", "tiles", "valid", "score", "reason", "yes", "no"} <= _words_of(english)
    french = runner.invoke(app, ["check", "fr", "casa", *L]).output
    assert {"entrée", "mot", "jetons", "valide", "raison"} <= _words_of(french) and {"oui", "non"} & _words_of(french)


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "es-fise", "casa", "kilo", "chiquillo"],
        ["explain", "es-fise", "casa", "kilo"],
        ["hooks", "es-fise", "arro", "ama"],
        ["card", "es-fise", "casa"],
        ["two-tile", "es-fise"],
        ["anagram", "es-fise", "SAC?"],
        ["anagram", "es-fise", "CHAPA??", "--sub", "--order", "probability", "--limit", "3"],
        ["pattern", "es-fise", "CH*"],
        ["stems", "es-fise"],
        ["high-value", "es-fise", "ch"],
        ["new-words", "es-fise", "es-na103"],
        ["quiz", "es-fise", "--length", "4"],
        ["score", "es-fise", "chiquillo", "--blank", "2"],
        ["diff", "es-fise", "es-na103"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_every_command_prints_the_edition_s_language(runner: CliRunner, lexicon_home: Path, argv: list[str]) -> None:
    """Walking the commands of docs/command-line.md on es-fise: no English header, marker or note."""
    result = runner.invoke(app, [*argv, "--lexicons", str(lexicon_home)])
    assert result.exit_code in (0, 1), result.output
    assert not _words_of(result.output) & ENGLISH, result.output


def test_hooks_marks_an_invalid_word_in_the_edition_s_language(runner: CliRunner, lexicon_home: Path) -> None:
    L = ["--lexicons", str(lexicon_home)]
    assert "ARRO (no válida)" in run(runner, "hooks", "es-fise", "arro", *L).stdout
    assert "ARRO (not valid)" in run(runner, "hooks", "es-fise", "arro", "--lang", "en", *L).stdout
    assert "ARRO (non valide)" in run(runner, "hooks", "fr", "arro", *L).stdout


def test_list_quiz_says_why_a_line_is_left_out_as_explain_does(
    runner: CliRunner, lexicon_home: Path, tmp_path: Path
) -> None:
    listed = tmp_path / "list.txt"
    listed.write_text("casa\nkilo\n", "utf-8")
    L = ["--lexicons", str(lexicon_home)]
    quiz = run(runner, "list-quiz", "es-fise", str(listed), *L)
    explained = run(runner, "explain", "es-fise", "kilo", *L).stdout.strip()  # KILO: es-fise no tiene ficha K…
    assert f"kilo: {explained.split(': ', 1)[1]}" in quiz.stderr.splitlines()
    assert json.loads(run(runner, "list-quiz", "es-fise", str(listed), "--json", *L).stdout)["refused"][0][
        "reason"
    ].endswith("es-fise no tiene ficha K, y un comodín no puede hacer de K")


def test_lists_say_how_many_they_hold(runner: CliRunner, lexicon_home: Path) -> None:
    """ "2 de 5 palabras con CH": on stderr, so that the words stay a list a program reads."""
    L = ["--lexicons", str(lexicon_home)]
    every = json.loads(run(runner, "high-value", "es-fise", "ch", "--json", "--count", "100", *L).stdout)
    total = every["total"]
    assert total > 2
    page = run(runner, "high-value", "es-fise", "ch", "--count", "2", *L)
    assert page.stdout.split() == [w["word"] for w in every["words"][:2]]
    assert page.stderr == f"2 de {total} palabras con CH; --from 3 muestra las siguientes\n"
    second = run(runner, "high-value", "es-fise", "ch", "--count", "2", "--from", "3", "--lang", "en", *L).stderr
    assert second.startswith(f"3–{min(4, total)} of {total} words with CH")
    stems = run(runner, "stems", "es-fise", *L)
    counted = json.loads(run(runner, "stems", "es-fise", "--json", *L).stdout)
    assert stems.stderr.startswith(f"{counted['count']} de {counted['total']} raíces de 6 fichas")
    new = run(runner, "new-words", "es-fise", "es-na103", "--lang", "fr", *L).stderr
    assert re.fullmatch(r"\d+ sur \d+ mots? de es-fise que es-na103 n'a pas(; .*)?\n", new), new


def test_anagram_says_why_probability_order_shows_short_words(runner: CliRunner, lexicon_home: Path) -> None:
    L = ["--lexicons", str(lexicon_home)]
    cut = run(runner, "anagram", "es-fise", "CHAPA??", "--sub", "--order", "probability", "--limit", "3", *L)
    shown = cut.stdout.splitlines()
    assert len(shown) == 3 and "(comodín:" in " ".join(shown)
    assert cut.stderr.startswith("el orden por probabilidad pone primero las palabras más cortas, como hace Zyzzyva")
    assert "--min-length" in cut.stderr and "el atril tiene 6 fichas" in cut.stderr  # CH·A·P·A·?·?
    whole = run(runner, "anagram", "es-fise", "CHAPA??", "--sub", "--order", "probability", *L)
    assert whole.stderr == ""  # every word shown: nothing to explain
    alpha = run(runner, "anagram", "es-fise", "CHAPA??", "--sub", "--limit", "3", *L)
    assert alpha.stderr == ""  # longest first: the cut leaves out short words, which is no surprise


def test_export_to_a_terminal_asks_for_a_file_or_a_pipe(lexicon_home: Path, tmp_path: Path) -> None:
    """A terminal gets one line saying how (exit 2), not the lexicon; piped, the words as before."""
    env = {**os.environ, "LEXTOOLS_HOME": str(lexicon_home), "PYTHONPATH": str(Path(lextools.__file__).parents[1])}
    code = "from lextools.cli.main import main; main()"
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, "export", "es-fise"], stdout=terminal, stderr=subprocess.PIPE, env=env
        )
    finally:
        os.close(terminal)
        os.close(controller)
    assert done.returncode == 2
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and "-o ARCHIVO" in lines[0] and "lextools export es-fise | less" in lines[0], lines
    piped = subprocess.run([sys.executable, "-c", code, "export", "es-fise"], capture_output=True, env=env, check=True)
    words = json.loads((lexicon_home / "es-fise.json").read_text())["words"]
    assert len(piped.stdout.decode().splitlines()) == words and piped.stderr == b""
