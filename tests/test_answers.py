"""One answer shape: the CLI's --json is the API's body for the same query; lists in the edition's
alphabet; comparisons that say what they could not count."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient
from typer.testing import CliRunner

from lextools.cli.main import app


def cli_json(lexicon_home: Path, *args: str, stdin: str | None = None) -> object:
    where = ["-L", str(lexicon_home)]  # score too: it needs only the tile table, and says validity when it can
    result = CliRunner().invoke(app, [*args, "--json", *where], input=stdin, catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    document = json.loads(result.stdout)
    assert result.stdout == json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"  # compact, one line
    return document


@pytest.mark.parametrize(
    ("cli", "api"),
    [
        (["two-tile", "es-fise"], "/v1/es-fise/two-tile-words"),
        (["two-tile", "en"], "/v1/en/two-tile-words"),
        (["anagram", "es-fise", "SAC?"], f"/v1/es-fise/anagrams/{quote('SAC?')}"),
        (
            ["anagram", "es-fise", "CHAPA?", "--sub", "--min-length", "3"],
            "/v1/es-fise/anagrams/CHAPA%3F?sub=true&min_length=3",
        ),
        (["pattern", "es-fise", "CH*"], "/v1/es-fise/search?pattern=CH*&limit=1000"),
        (
            ["pattern", "es-na103", "?A*", "--order", "probability"],
            "/v1/es-na103/search?pattern=?A*&order=probability&limit=1000",
        ),
        (["hooks", "es-fise", "ama"], "/v1/es-fise/hooks/ama"),
        (["hooks", "es-fise", "arro"], "/v1/es-fise/hooks/arro"),
        (["score", "es-fise", "chiquillo", "--blank", "1"], "/v1/es-fise/score/chiquillo?blank=1"),
        (["score", "fr", "zèbre"], f"/v1/fr/score/{quote('zèbre')}"),
    ],
)
def test_cli_json_is_the_api_body(lexicon_home: Path, client: FlaskClient, cli: list[str], api: str) -> None:
    response = client.get(api)
    assert response.status_code == 200
    assert cli_json(lexicon_home, *cli) == response.json


def test_check_json_is_the_api_body_from_arguments_stdin_and_a_file(
    lexicon_home: Path, client: FlaskClient, tmp_path: Path
) -> None:
    words = ["chiquillo", "canción", "kilo", "1IQUI2O", "ad hoc"]
    body = client.post("/v1/es-fise/check", json={"words": words}).json
    assert cli_json(lexicon_home, "check", "es-fise", *words) == body
    assert cli_json(lexicon_home, "check", "es-fise", "-", stdin="\n".join(words) + "\n") == body
    listed = tmp_path / "words.txt"
    listed.write_text("# to check\n" + "\n".join(words) + "\n", "utf-8")
    assert cli_json(lexicon_home, "check", "es-fise", "--file", str(listed)) == body


def test_check_dash_is_stdin_not_a_word(lexicon_home: Path) -> None:
    runner = CliRunner()
    valid = runner.invoke(app, ["check", "es-fise", "-", "-L", str(lexicon_home)], input="casa\nchiquillo\n")
    assert valid.exit_code == 0 and "CASA" in valid.stdout and "CHIQUILLO" in valid.stdout
    invalid = runner.invoke(app, ["check", "es-fise", "-", "-L", str(lexicon_home)], input="casa\nkilo\n")
    assert invalid.exit_code == 1


def test_es_fise_lists_follow_its_alphabet(lexicon_home: Path, client: FlaskClient) -> None:
    """C < CH < D and N < Ñ < O in es-fise: the two-tile list, hooks, search and exports agree."""
    two = [w["word"] for w in client.get("/v1/es-fise/two-tile-words").json["words"]]
    assert two.index("AS") < two.index("CHA") < two.index("CHO") < two.index("DA")
    assert two == [w["word"] for w in cli_json(lexicon_home, "two-tile", "es-fise")["words"]]
    found = [w["word"] for w in client.get("/v1/es-fise/search?pattern=*&limit=1000").json["words"]]
    assert found == [w["word"] for w in cli_json(lexicon_home, "pattern", "es-fise", "*")["words"]]
    plain = CliRunner().invoke(app, ["export", "es-fise", "-L", str(lexicon_home)]).stdout.split()
    assert plain == found
    assert plain.index("COSAS") < plain.index("CHA") < plain.index("DA")
    assert plain.index("ANO") < plain.index("AÑO") < plain.index("APA") and plain.index("LLE") < plain.index("ÑANDU")
    hooks = client.get("/v1/es-fise/hooks/ama").json
    assert hooks["front"] == ["C", "LL"]


def test_na103_puts_ch_among_the_cs(lexicon_home: Path) -> None:
    plain = CliRunner().invoke(app, ["export", "es-na103", "-L", str(lexicon_home)]).stdout.split()
    assert plain.index("CASAS") < plain.index("CHA") < plain.index("COSA")
    assert plain.index("ANO") < plain.index("AÑO") < plain.index("APA") and plain.index("LLE") < plain.index("ÑANDU")


def test_compare_counts_and_lists_what_it_could_not_match(lexicon_home: Path, tmp_path: Path) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("casa\ncasas\nchiquillo\ncha\nzapato\nkilo\nwifi\n", "utf-8")
    report = cli_json(lexicon_home, "compare", "es-fise", str(ref), "--missing", "5", "--extra", "3")
    assert report["unspellable"]["reference"] == {"count": 2, "examples": ["kilo", "wifi"]}
    assert report["by_length"][-1]["reference"] == 5  # recall over the five words es-fise can spell
    assert report["missing"] == {"count": 1, "examples": ["ZAPATO"]}
    assert report["extra"]["count"] == report["by_length"][-1]["built"] - 4 and len(report["extra"]["examples"]) == 3
    table = CliRunner().invoke(app, ["compare", "es-fise", str(ref), "--missing", "5", "-L", str(lexicon_home)])
    lines = table.stdout.splitlines()  # each note is one line, however long the temporary path
    assert any(line.startswith("2 palabras de") and "no se pueden escribir en es-fise" in line for line in lines)
    assert "faltan (1): ZAPATO" in lines  # in the edition's language, or --lang's:
    english = CliRunner().invoke(
        app, ["compare", "es-fise", str(ref), "--missing", "5", "--lang", "en", "-L", str(lexicon_home)]
    )
    lines = english.stdout.splitlines()
    assert any(line.startswith("2 words of") and "cannot be spelled in es-fise" in line for line in lines)
    assert "missing (1): ZAPATO" in lines


def test_diff_says_how_many_words_a_list_lost(lexicon_home: Path, tmp_path: Path) -> None:
    listed = tmp_path / "list.txt"
    listed.write_text("casa\nkilo\n", "utf-8")
    d = cli_json(lexicon_home, "diff", "es-fise", str(listed))
    assert d["unspellable"] == {"es-fise": 0, str(listed): 1}
    table = " ".join(CliRunner().invoke(app, ["diff", "es-fise", str(listed), "-L", str(lexicon_home)]).stdout.split())
    assert "1 palabra de" in table and "no se puede escribir en es-fise" in table and "kilo" in table


def test_hook_tiles_come_in_the_editions_alphabet(lexicon_home: Path) -> None:
    """answers.hook_tiles passes Lexicon.hooks' lists on as they are: they must be sorted already."""
    from lextools.core.edition import edition_names
    from lextools.core.lexicon import load_lexicon
    from lextools.features.answers import hook_tiles

    seen = 0
    for edition in edition_names():
        lex = load_lexicon(edition, lexicon_home)
        ed = lex.edition
        for key in [*lex, *(k[1:] for k in lex), *(k[:-1] for k in lex)]:
            hooks = hook_tiles(lex, lex.lookup(ed.spelling(key)))
            assert hooks["front"] == ed.sort_labels(hooks["front"]) and hooks["back"] == ed.sort_labels(hooks["back"])
            seen += len(hooks["front"]) > 1 or len(hooks["back"]) > 1
    assert seen > 10  # lists with an order to get wrong
