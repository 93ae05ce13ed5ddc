"""The OpenAPI document validates and describes exactly the app's routes."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import validate


def test_openapi_document_validates(client: FlaskClient) -> None:
    r = client.get("/v1/openapi.json")
    assert r.status_code == 200
    assert r.json["openapi"].startswith("3.")
    validate(r.json)


def test_openapi_lists_every_api_route_with_its_methods(app: Flask, client: FlaskClient) -> None:
    paths = client.get("/v1/openapi.json").json["paths"]
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if not (rule.rule.startswith("/v1/") or rule.rule == "/healthz"):
            continue  # HTML pages and their static files are not part of the JSON API
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)  # /v1/<edition>/words/<path:word> → {edition} {word}
        routes.setdefault(path, set()).update(m.lower() for m in rule.methods - {"HEAD", "OPTIONS"})
    assert set(paths) == set(routes)
    for path, methods in routes.items():
        assert set(paths[path]) == methods, path


def test_openapi_names_the_shipped_editions(client: FlaskClient) -> None:
    doc = client.get("/v1/openapi.json").json
    assert "es-fise" in doc["components"]["parameters"]["edition"]["schema"]["enum"]


def test_every_edition_answer_documents_and_sends_the_lexicon_checksum(client: FlaskClient) -> None:
    """Hot reload is visible to clients: the header the document promises is on the wire."""
    paths = client.get("/v1/openapi.json").json["paths"]
    edition_paths = [p for p in paths if "{edition}" in p]
    assert len(edition_paths) >= 8
    for path in edition_paths:
        for operation in paths[path].values():
            assert "X-Lexicon-Checksum" in operation["responses"]["200"]["headers"], path
    checksum = client.get("/v1/editions/es-fise").json["lexicon"]["checksum"]
    for url in ("/v1/es-fise/words/casa", "/v1/es-fise/two-tile-words", "/v1/editions/es-fise"):
        assert client.get(url).headers["X-Lexicon-Checksum"] == checksum, url
