"""`lextools explain` and the service's reason: the rule that removed a word, or the sources that give it.

Lexicons are built through the CLI from small lists (the provenance sidecar is the build's); the
FISE examples on the default es-fise lexicon are in tests/test_defaults.py.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from lextools.cli.main import app
from lextools.core.lexicon import load_lexicon
from lextools.core.sidecar import sidecar_path
from lextools.features.explain import explain
from service import create_app


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """es-fise from two lists: Madrid and Y (one tile) are dropped, CASA is in both, ÑU only in the second."""
    folder = tmp_path_factory.mktemp("explain")
    (folder / "main.txt").write_text("casa\nMadrid\ny\nperro\nkilo\n", "utf-8")
    (folder / "extra.txt").write_text("casa\nñu\n", "utf-8")
    lists = ["-s", str(folder / "main.txt"), "-s", str(folder / "extra.txt")]
    result = CliRunner().invoke(
        app, ["build", "es-fise", *lists, "--rules", "one-tile,proper-noun", "--out", str(folder / "L")]
    )
    assert result.exit_code == 0, result.output
    return folder / "L"


def explained(home: Path, *words: str) -> list[dict]:
    result = CliRunner().invoke(app, ["explain", "es-fise", *words, "--json", "--lang", "en", "--lexicons", str(home)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_an_excluded_form_names_its_rule_and_source_form(home: Path) -> None:
    madrid, y = explained(home, "madrid", "y")
    assert (madrid["valid"], madrid["rule"], madrid["form"], madrid["source"]) == (
        False,
        "proper-noun",
        "Madrid",
        "main.txt",
    )
    assert madrid["reason"].startswith("MADRID: proper nouns") and "“Madrid”" in madrid["reason"]
    assert y["rule"] == "one-tile" and y["reason"].startswith("Y: a single tile is not a play")


def test_a_valid_word_names_the_sources_that_list_it(home: Path) -> None:
    casa, perro, nu = explained(home, "casa", "perro", "ñu")
    assert casa["valid"] and casa["sources"] == ["extra.txt", "main.txt"]
    assert perro["sources"] == ["main.txt"] and nu["sources"] == ["extra.txt"]
    assert casa["reason"] is None


def test_unknown_words_and_letters_without_a_tile(home: Path) -> None:
    gato, kilo = explained(home, "gato", "kilo")
    assert gato["reason"] == "GATO: not found in any source of the es-fise lexicon" and gato["rule"] is None
    assert kilo["rule"] == "letter-without-tile" and kilo["reason"].startswith("es-fise has no K tile")


def test_the_plain_command_prints_one_line_per_word(home: Path) -> None:
    result = CliRunner().invoke(app, ["explain", "es-fise", "madrid", "casa", "kilo", "--lexicons", str(home)])
    madrid, casa, kilo = result.stdout.splitlines()  # in the edition's language unless --lang says otherwise
    assert madrid.startswith("MADRID: nombres propios") and kilo.startswith("KILO: es-fise no tiene ficha K")
    assert casa == "CASA: válida en es-fise; figura en extra.txt, main.txt"


def test_a_sidecar_from_another_build_is_not_believed(home: Path, tmp_path: Path) -> None:
    copy = tmp_path / "L"
    copy.mkdir()
    for f in home.iterdir():
        (copy / f.name).write_bytes(f.read_bytes())
    path = sidecar_path(copy, "es-fise")
    text = gzip.decompress(path.read_bytes()).decode().replace("#checksum\t", "#checksum\t0", 1)
    path.write_bytes(gzip.compress(text.encode()))
    why = explain(load_lexicon("es-fise", copy), "madrid", copy)
    assert why.rule is None and why.reason == "MADRID is not in the es-fise lexicon"
    path.write_bytes(b"not gzip")
    assert explain(load_lexicon("es-fise", copy), "madrid", copy).rule is None


def test_the_service_reason_is_the_explanation(home: Path) -> None:
    client = create_app({"LEXICONS": home, "TESTING": True}).test_client()
    answer = client.get("/v1/es-fise/words/madrid?lang=en").get_json()
    assert answer["rule"] == "proper-noun" and answer["reason"].startswith("MADRID: proper nouns")
    # In the edition's language by default, like every reason.
    spanish = client.get("/v1/es-fise/words/madrid").get_json()["reason"]
    assert (
        spanish == "MADRID: nombres propios (con mayúscula en la fuente: Madrid, Pedro) — la forma «Madrid» de main.txt"
    )
    assert client.get("/v1/es-fise/words/casa").get_json()["sources"] == ["extra.txt", "main.txt"]
    results = client.post("/v1/es-fise/check?lang=fr", json={"words": ["madrid", "casa"]}).get_json()["results"]
    assert results[0]["reason"].startswith("MADRID : noms propres") and results[1]["reason"] is None
    blind = client.post("/v1/es-fise/challenge", json={"words": ["madrid"]}).get_json()
    assert "results" not in blind and "propi" not in json.dumps(blind)  # a word judge never says why


def test_check_gives_the_same_reason_as_the_service(home: Path) -> None:
    result = CliRunner().invoke(app, ["check", "es-fise", "madrid", "casa", "--json", "--lexicons", str(home)])
    cli = json.loads(result.stdout)
    client = create_app({"LEXICONS": home, "TESTING": True}).test_client()
    service = client.post("/v1/es-fise/check", json={"words": ["madrid", "casa"]}).get_json()
    assert cli == service and cli["results"][0]["reason"].startswith("MADRID: nombres propios")


def test_every_rule_is_described_in_the_message_catalogue() -> None:
    from lextools.builder.filters import RULES
    from lextools.core.messages import catalogue

    for name, rule in RULES.items():
        assert catalogue()[f"rule_{name}"]["en"] == rule.description, name


_KEY = st.text(alphabet="AB1CÑ\u00e9", min_size=1, max_size=4)


@given(st.dictionaries(_KEY, st.text(alphabet="+-ab,", max_size=5), max_size=300), st.lists(_KEY, max_size=50))
def test_records_find_every_key_and_only_those(records: dict[str, str], asked: list[str]) -> None:
    """Records.get against a dict, on few and on many records (its search starts among every
    STRIDE-th key), keys sharing prefixes (A, AB, AB1) and multi-byte ones (Ñ, é)."""
    from lextools.core.sidecar import Records

    lines = [f"{key}\t{value}\tx\n".encode() for key, value in records.items()]
    found = Records(lines)
    assert len(found) == len(records) and lines == []  # the lines were taken
    for key in [*asked, *records]:
        expected = [records[key], "x"] if key in records else None
        assert found.get(key) == expected


@pytest.mark.parametrize("chunk", [5, 64, 1 << 16])
def test_find_records_reads_what_read_sidecar_reads(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    """A command explaining a word reads only its record (find_records), a chunk at a time: the same
    header and records as the whole file read, whatever the chunks' boundaries, for keys present and
    absent, sharing prefixes, multi-byte, in a file of two gzip members."""
    import io

    from lextools.core import sidecar

    monkeypatch.setattr(sidecar, "CHUNK", chunk)
    kept = "".join(f"{key}\t+\t{i}\n" for i, key in enumerate(["A", "AB", "AB1", "CASA", "ÑU"]))
    data = gzip.compress(f"#checksum\tabc\n#sources\tx,y\n{kept}".encode()) + gzip.compress(
        "MADRID\t-\tproper-noun\tmain.txt\tMadrid\t\nÑA\t-\tone-tile\ts\tña\tña\n".encode()
    )
    header, records = sidecar.read_sidecar(data)
    asked = ["A", "AB1", "ABC", "C", "CASA", "MADRID", "ÑA", "ÑU", "Ñ"]
    found_header, found = sidecar.find_records(io.BytesIO(data), asked)
    assert found_header == header == {"checksum": "abc", "sources": "x,y"}
    assert found == {key: records.get(key) for key in asked if records.get(key) is not None}
    assert found["MADRID"] == ["-", "proper-noun", "main.txt", "Madrid", ""] and len(found) == 6


def test_sidecar_numbers_the_sets_of_sources_and_still_reads_named_ones() -> None:
    """``+`` records name a numbered set of sources (``#sourcesets``); a sidecar written before the
    numbers existed names the sources on each line, and is read as it was."""
    from lextools.builder.filters import SourceWord
    from lextools.builder.provenance import Provenance
    from lextools.core.sidecar import read_sidecar
    from lextools.features.explain import Sidecar, _names

    provenance = Provenance()
    for key, source in [("CASA", "rla-es"), ("MESA", "rla-es"), ("CEBU", "coes"), ("CEBU", "rla-es"), ("YOGA", "coes")]:
        provenance.kept(key, SourceWord(key.lower(), source=source))
    header, records = read_sidecar(provenance.to_bytes("abc"))
    assert header["sources"] == "rla-es" and sorted(header["sourcesets"].split("\t")) == ["coes", "coes,rla-es"]
    sidecar = Sidecar(_names(header["sources"]), records, tuple(_names(s) for s in header["sourcesets"].split("\t")))
    assert [sidecar.listed(records.get(k)[1]) for k in ("CEBU", "YOGA")] == [("coes", "rla-es"), ("coes",)]
    assert records.get("CASA") is None and sidecar.listed("7") == ()  # usual sources; a damaged number
    old = Sidecar(("rla-es",), records)
    assert old.listed("coes,rla-es") == ("coes", "rla-es")
