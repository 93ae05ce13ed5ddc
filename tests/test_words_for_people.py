"""What people read: no internal notes cited anywhere, and reasons, rulings and errors in es, fr and en."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from lextools.core.edition import edition_names, load_edition
from lextools.core.errors import SpellingError
from lextools.core.messages import LANGUAGES, catalogue, choose_language
from lextools.core.spelling import spell
from service import create_app

ROOT = Path(__file__).parent.parent

#: How the project's own working notes are named; the product names the public rule texts instead.
INTERNAL = re.compile(r"seed 00\d|seeds/|REFERENCE(?: ?§|\.md)|shared/", re.IGNORECASE)


def test_no_file_of_the_product_cites_our_notes() -> None:
    files = [
        *ROOT.joinpath("lextools").rglob("*"),
        *ROOT.joinpath("service").rglob("*"),
        *ROOT.joinpath("build").glob("*"),
        *ROOT.joinpath("sources").glob("*.toml"),
        ROOT / "sources" / "SURVEY.md",
        ROOT / "README.md",
        ROOT / "bench" / "README.md",
        *ROOT.joinpath("docs").rglob("*.md"),
    ]
    for path in files:
        if path.is_file() and path.suffix in {".py", ".json", ".toml", ".md", ".html", ".js", ".css", ".txt"}:
            text = path.read_text(encoding="utf-8")
            assert not INTERNAL.search(text), f"{path.relative_to(ROOT)}: {INTERNAL.search(text)}"


def test_no_answer_or_page_of_the_service_names_our_notes(app: Flask, client: FlaskClient) -> None:
    app.config["CHALLENGE_RATE"] = 100  # 15 challenges in a row from one client
    urls = ["/", "/judge", "/study", "/v1/editions", "/v1/openapi.json", "/judge?edition=nope", "/nope"]
    for name in edition_names():
        urls += [f"/v1/editions/{name}", f"/v1/{name}/words/casa", f"/v1/{name}/words/kilo", f"/judge?edition={name}"]
    for url in urls:
        text = client.get(url).get_data(as_text=True)
        assert not INTERNAL.search(text), (url, INTERNAL.search(text))
    for name in edition_names():
        for words in (["casa"], ["casa", "dame"], ["kilo"]):
            r = client.post(f"/v1/{name}/challenge", json={"words": words, "reveal": True})
            assert r.status_code == 200 and not INTERNAL.search(r.get_data(as_text=True)), r.get_data(as_text=True)
            assert r.json["ruling"]["source"] in {
                "FISE/FILE tournament rules (Impugnar una palabra)",
                "Hasbro Scrabble rules (Challenges)",
                "FISF rules (La contestation)",
            }


def test_every_message_is_written_in_every_language() -> None:
    for code, texts in catalogue().items():
        assert set(texts) == set(LANGUAGES), code
        placeholders = {lang: set(re.findall(r"\{(\w+)\}", text)) for lang, text in texts.items()}
        assert placeholders["es"] <= placeholders["en"] and placeholders["fr"] <= placeholders["en"], code


def test_the_library_keeps_its_english_reason_and_knows_the_others() -> None:
    with pytest.raises(SpellingError) as caught:
        spell("kilo", load_edition("es-fise"))
    e = caught.value
    assert e.reason == "es-fise has no K tile, and a blank cannot stand for K"
    assert e.text("es") == "'kilo': es-fise no tiene ficha K, y un comodín no puede hacer de K"
    assert e.text("fr").startswith("'kilo': es-fise n'a pas de jeton K")


@pytest.mark.parametrize(
    ("asked", "accept", "default", "chosen"),
    [
        ("fr", "es", "en", "fr"),
        (None, "de-DE,fr;q=0.8,es;q=0.9", "en", "es"),
        (None, "de, it", "fr", "fr"),
        ("xx", None, "es", "es"),
        (None, "es;q=0, en", "fr", "en"),
        (None, None, "de", "en"),
    ],
)
def test_the_language_asked_for(asked: str | None, accept: str | None, default: str, chosen: str) -> None:
    assert choose_language(asked, accept, default) == chosen


def test_reasons_come_in_the_language_asked_else_the_editions(client: FlaskClient) -> None:
    r = client.get("/v1/es-fise/words/kilo")
    assert r.status_code == 422 and r.json["error"]["message"].startswith("'kilo': es-fise no tiene ficha K")
    r = client.get("/v1/es-fise/words/kilo?lang=en")
    assert r.json["error"]["message"] == "'kilo': es-fise has no K tile, and a blank cannot stand for K"
    r = client.get("/v1/es-fise/words/kilo", headers={"Accept-Language": "fr-CA, en;q=0.5"})
    assert "n'a pas de jeton K" in r.json["error"]["message"]
    results = client.post("/v1/es-fise/check?lang=fr", json={"words": ["kilo", "zzz", "casa"]}).json["results"]
    assert [x["reason"] for x in results] == [
        "es-fise n'a pas de jeton K, et un joker ne peut pas le remplacer",
        "ZZZ : absent de toutes les sources du lexique es-fise",  # the build's sidecar: in none of its lists
        None,
    ]
    assert client.post("/v1/en/check", json={"words": ["zzz"]}).json["results"][0]["reason"] == (
        "ZZZ: not found in any source of the en lexicon"
    )


@pytest.mark.parametrize(
    ("lang", "start"), [("es", "El jugador recupera"), ("fr", "Le joueur reprend"), ("en", "The player")]
)
def test_the_french_ruling_in_each_language(client: FlaskClient, lang: str, start: str) -> None:
    r = client.post(f"/v1/fr/challenge?lang={lang}", json={"words": ["zzzz"]})
    assert r.json["acceptable"] is False and r.json["ruling"]["outcome"].startswith(start)
    default = client.post("/v1/fr/challenge", json={"words": ["zzzz"]}).json["ruling"]
    assert default["outcome"] == default["outcome_fr"]  # the edition's language when nobody asks


def test_service_errors_come_in_the_language_asked(client: FlaskClient) -> None:
    r = client.post("/v1/es-fise/challenge", json={"words": ["casa"] * 9}, headers={"Accept-Language": "en"})
    assert r.json["error"]["message"] == "9 words: a play forms at most 8"
    r = client.post("/v1/es-fise/challenge", json={"words": ["casa"] * 9})
    assert r.json["error"]["message"] == "9 palabras: una jugada forma como mucho 8"
    r = client.get("/v1/nope/words/casa?lang=fr")
    assert r.status_code == 404 and r.json["error"]["message"].startswith("édition inconnue : 'nope'")
    assert json.loads(client.get("/no/such/route?lang=es").data)["error"]["message"] == "no hay nada en esta dirección"


def test_a_missing_list_is_said_in_the_language_asked(tmp_path: Path) -> None:
    client = create_app({"LEXICONS": tmp_path, "RECORD": tmp_path / "r.sqlite3"}).test_client()
    r = client.get("/v1/es-fise/words/casa")
    assert r.status_code == 503
    assert r.json["error"]["message"] == "este servidor no tiene lista de palabras para es-fise"
    r = client.post("/v1/fr/check?lang=en", json={"words": ["casa"]})
    assert r.json["error"]["message"] == "this server has no word list for fr"


@pytest.mark.parametrize(
    ("url", "text"),
    [
        ("/v1/es-fise/anagrams/kk", "atril 'kk': es-fise no tiene ficha K"),
        ("/v1/es-fise/search?pattern=k*&lang=fr", "motif 'k*' : es-fise n'a pas de jeton K"),
        ("/v1/es-fise/search?pattern=k*&lang=en", "pattern 'k*': es-fise has no K tile"),
        ("/v1/fr/score/chat?blank=9", "les positions de joker vont de 1 à 4, pas '9'"),
        ("/v1/es-mattel2021/search?pattern=CA*&order=probability", "el número de fichas no está verificado"),
    ],
)
def test_query_errors_come_in_the_language_asked(client: FlaskClient, url: str, text: str) -> None:
    r = client.get(url)
    assert r.status_code == 400 and text in r.json["error"]["message"], r.json


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("en", "must be a JSON object"), ("es", "debe ser un objeto JSON"), ("fr", "doit être un objet JSON")],
)
def test_a_malformed_body_is_explained_in_the_language_asked(client: FlaskClient, lang: str, expected: str) -> None:
    r = client.post(f"/v1/fr/check?lang={lang}", json=["casa"])
    assert r.status_code == 400 and r.json["error"]["code"] == "bad_request"
    assert expected in r.json["error"]["message"]
    r = client.post("/v1/es-fise/check", json={"words": "casa"}, headers={"Accept-Language": lang})
    assert r.status_code == 400 and '"words"' in r.json["error"]["message"]
