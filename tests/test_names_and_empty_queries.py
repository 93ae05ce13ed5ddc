"""Edition names in any case, with suggestions for a name that is none; empty patterns and racks are
errors in the CLI and the API alike (issue 22, item 7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from typer.testing import CliRunner

from lextools.cli.main import app as cli_app
from lextools.cli.main import main
from lextools.core.edition import edition_names, edition_suggestions, load_edition
from lextools.core.errors import QueryError, UnknownEditionError
from lextools.core.lexicon import load_lexicon
from lextools.core.search import find, parse_pattern
from service import create_app
from tests.conftest import build_small


def run(*args: str | Path):
    return CliRunner().invoke(cli_app, [str(a) for a in args], catch_exceptions=False)


def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str]:
    """Through ``main`` (library errors → one line, exit 2): the code and what went to stderr."""
    monkeypatch.setattr("sys.argv", ["lextools", *map(str, args)])
    with pytest.raises(SystemExit) as e:
        main()
    return int(e.value.code or 0), capsys.readouterr().err


# -- names in any case ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", edition_names())
def test_every_spelling_of_a_name_is_the_same_edition(name: str) -> None:
    for spelling in (name.upper(), name.title()):
        assert load_edition(spelling) is load_edition(name)
    with pytest.raises(UnknownEditionError, match=f"did you mean {name}"):
        load_edition(f"{name} ")  # a space is not part of any name (service paths: tests/test_service_abuse.py)


@pytest.mark.parametrize(
    ("name", "suggested"),
    [
        ("es", ["es-fise", "es-mattel2021", "es-na103"]),
        ("ES", ["es-fise", "es-mattel2021", "es-na103"]),
        ("esfise", ["es-fise"]),
        ("es_fise", ["es-fise"]),
        ("es-fsie", ["es-fise"]),
        ("en-us", ["en"]),
        ("mattel", ["es-mattel2021"]),
        ("xx", []),
    ],
)
def test_an_unknown_name_suggests_the_names_it_may_mean(name: str, suggested: list[str]) -> None:
    with pytest.raises(UnknownEditionError) as e:
        load_edition(name)
    assert edition_suggestions(name.casefold(), edition_names()) == suggested
    text = str(e.value)
    assert ("did you mean " + ", ".join(suggested) + "?" in text) == bool(suggested), text
    assert "known editions" in text.lower() and "es-na103" in text


def test_the_cli_takes_a_name_in_any_case(lexicon_home: Path, tmp_path: Path) -> None:
    for command in (["check", "{}", "casa", "chiquillo"], ["hooks", "{}", "casa"], ["pattern", "{}", "ca?a"]):
        answers = []
        for name in ("es-fise", "ES-FISE", "Es-Fise"):
            result = run(*(a.format(name) for a in command), "--json", "--lexicons", lexicon_home)
            assert result.exit_code in (0, 1), result.output
            answers.append(result.stdout)
        assert answers[0] == answers[1] == answers[2]
        assert '"es-fise"' in answers[0] or "CASA" in answers[0]
    # a build under another spelling writes the edition's own files
    source = Path(__file__).parent / "data" / "es-small.txt"
    result = run("build", "ES-FISE", "--source", source, "--lexicons", tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "es-fise.json").is_file() and len(load_lexicon("ES-FISE", tmp_path)) > 0


def test_the_cli_suggests_in_one_line(
    lexicon_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run_main(monkeypatch, capsys, "pattern", "es", "ca?a", "--lexicons", lexicon_home)
    assert code == 2 and err.count("\n") == 1
    assert "did you mean es-fise, es-mattel2021, es-na103?" in err
    code, err = run_main(monkeypatch, capsys, "check", "esfise", "casa", "--lexicons", lexicon_home)
    assert code == 2 and err.count("\n") == 1 and "did you mean es-fise?" in err


@pytest.mark.parametrize("hot", [True, False])
def test_the_api_answers_under_the_canonical_name(lexicon_home: Path, tmp_path: Path, hot: bool) -> None:
    app = create_app({"LEXICONS": lexicon_home, "TESTING": True, "RECORD": tmp_path / "r.sqlite3", "HOT_ROUTES": hot})
    client = app.test_client()
    for path in ("/words/casa", "/words/chiquillo", "/anagrams/asa%3F", "/search?pattern=ca%3Fa", "/hooks/casa"):
        canonical = client.get(f"/v1/es-fise{path}")
        for other in ("ES-FISE", "Es-Fise"):
            r = client.get(f"/v1/{other}{path}")
            assert (r.status_code, r.get_data()) == (canonical.status_code, canonical.get_data()), path
            assert r.headers["X-Lexicon-Checksum"] == canonical.headers["X-Lexicon-Checksum"]
    checked = client.post("/v1/ES-FISE/check", json={"words": ["casa", "zzz"]})
    assert checked.get_data() == client.post("/v1/es-fise/check", json={"words": ["casa", "zzz"]}).get_data()
    r = client.get("/v1/es/words/casa")
    assert r.status_code == 404 and r.json["error"]["code"] == "unknown_edition"
    assert "es-fise, es-mattel2021, es-na103" in r.json["error"]["message"]
    assert client.get("/judge?edition=ES-FISE").status_code == 200


# -- empty patterns and racks -----------------------------------------------------------------------


@pytest.mark.parametrize("pattern", ["", " ", "  \t"])
def test_an_empty_pattern_is_an_error_not_every_word(es, pattern: str) -> None:
    with pytest.raises(QueryError, match="empty pattern"):
        parse_pattern(pattern, es)
    with pytest.raises(QueryError, match="empty pattern"):
        find(es, pattern=pattern)
    assert len(list(find(es, pattern=None, length=2))) > 0  # no pattern at all: the other constraints


@pytest.mark.parametrize(("command", "text"), [("pattern", ""), ("pattern", "  "), ("anagram", ""), ("anagram", " ")])
def test_the_cli_refuses_an_empty_pattern_or_rack(
    lexicon_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str, text: str
) -> None:
    code, err = run_main(monkeypatch, capsys, command, "es-fise", text, "--json", "--lexicons", lexicon_home)
    assert code == 2 and err.count("\n") == 1
    assert ("empty pattern" if command == "pattern" else "empty rack") in err
    assert capsys.readouterr().out == ""


def test_the_api_refuses_an_empty_pattern_or_rack(client: FlaskClient) -> None:
    for path in ("/v1/es-fise/search?pattern=", "/v1/es-fise/search?pattern=%20%20", "/v1/en/search?pattern=&length=3"):
        r = client.get(path + ("&" if "?" in path else "?") + "lang=en")
        assert r.status_code == 400, path
        assert r.json == {"error": {"code": "bad_query", "message": r.json["error"]["message"]}}
        assert r.json["error"]["message"].startswith("empty pattern")
    r = client.get("/v1/es-fise/anagrams/%20?lang=en")
    assert r.status_code == 400 and r.json["error"] == {"code": "bad_query", "message": "empty rack"}
    r = client.get("/v1/es-fise/search?pattern=&lang=es")
    assert r.json["error"]["message"].startswith("patrón vacío")
    # no pattern parameter at all is still a search by the other constraints
    assert client.get("/v1/es-fise/search?length=2").status_code == 200


def test_cli_and_api_say_the_same(
    client: FlaskClient, lexicon_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, err = run_main(monkeypatch, capsys, "pattern", "es-fise", "", "--lexicons", lexicon_home)
    api = client.get("/v1/es-fise/search?pattern=&lang=en").json["error"]["message"]
    assert err.strip() == f"error: {api}"


def test_a_small_lexicon_built_under_another_case_is_found(tmp_path: Path) -> None:
    build_small(tmp_path, "en")
    assert json.loads((tmp_path / "en.json").read_text("utf-8"))["edition"] == "en"
    assert load_lexicon("EN", tmp_path).edition is load_edition("en")
