"""The service's answers, pinned byte for byte: tests/data/pinned_corpus.json holds requests to every
/v1 route (successes and errors, in es, fr and en, over several editions) with the status, Content-Type
and body each got. Every request is sent again, with the hot routes (service/api/hot_routes.py) and without
(``HOT_ROUTES=False``), and must get the same three. Binary bodies (the DAWG, KWG and KAD exports)
are pinned by their sha256 and length; ``/v1/openapi.json`` and the HTML pages are left out.

A request is ``method`` and ``path`` (percent-encoded, query string included), with optional
``headers``, a ``json`` body or a raw ``data`` body, and a ``note``; ``{code}`` in a path is the sync
code the group's last ``POST /v1/cardbox`` was given (each run draws a new one). The corpus is in groups; each
group gets a fresh app over conftest's frozen small lexicons (``pinned_home``) with the group's
``config`` added (a director token, a kiosk, a challenge rate, smaller limits; ``"lexicons": "empty"``:
an empty lexicon directory) and its own challenge record, so no group depends on another or on the
order of the tests.

Values that differ from run to run are replaced by a placeholder in the stored and the fresh body
alike (:func:`normalise`); everything else is compared exactly.

To (re)write the stored answers from the current code — the requests stay, a request added without
an answer gets one — after checking that both apps agree::

    LEXTOOLS_PIN_CORPUS=write pytest tests/test_pinned_corpus.py
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.exceptions import HTTPException

from service import create_app
from tests.conftest import DATA

CORPUS = DATA / "pinned_corpus.json"
WRITE = os.environ.get("LEXTOOLS_PIN_CORPUS") == "write"

#: What differs from run to run, each with its placeholder: the build time of conftest's lexicons
#: (built once per session), a challenge's random id, the time it was judged and its HMAC signature
#: (under a secret made per test), in JSON answers and in the rows of the record as CSV.
_ISO = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)"
VOLATILE = [
    (re.compile(rf'"built":"{_ISO}"'), '"built":"<built>"'),
    (re.compile(r'"id":"[0-9a-f]{32}"'), '"id":"<id>"'),
    (re.compile(rf'"time":"{_ISO}"'), '"time":"<time>"'),
    (re.compile(r'"signature":"[0-9a-f]{64}"'), '"signature":"<signature>"'),
    (re.compile(rf"^[0-9a-f]{{32}},{_ISO},", re.MULTILINE), "<id>,<time>,"),
    (re.compile(r",[0-9a-f]{64}(?=\r\n)"), ",<signature>"),  # the signature, the last column of a CSV row
    # A cardbox's random sync code, as it is and shown in groups of four, and when it was stored.
    (re.compile(r'"code":"[0-9A-Z]{20}","shown":"[0-9A-Z-]{24}","updated":"[^"]*"'), '"code":"<code>"'),
]

#: Binary answers are pinned by digest, not stored.
BINARY = "application/octet-stream"


def normalise(body: str) -> str:
    """``body`` with each value of :data:`VOLATILE` replaced by its placeholder."""
    for pattern, placeholder in VOLATILE:
        body = pattern.sub(placeholder, body)
    return body


def load() -> dict[str, Any]:
    corpus: dict[str, Any] = json.loads(CORPUS.read_text("utf-8"))
    return corpus


def client_for(group: dict[str, Any], lexicon_home: Path, tmp_path: Path, hot: bool) -> FlaskClient:
    """A fresh app for one group: conftest's ``app`` fixture plus the group's config."""
    folder = tmp_path / ("hot" if hot else "flask") / group["name"]
    home = lexicon_home
    if group.get("lexicons") == "empty":
        home = folder / "lexicons"
        home.mkdir(parents=True)
    config = {
        "LEXICONS": home,
        "TESTING": True,
        "RECORD": folder / "challenges.sqlite3",
        "DIRECTOR_TOKEN": None,  # not $LEXTOOLS_DIRECTOR_TOKEN: the record route is off unless a group says
        "HOT_ROUTES": hot,
        **group.get("config", {}),
    }
    return create_app(config).test_client()


def answer(client: FlaskClient, request: dict[str, Any]) -> dict[str, Any]:
    """Send one request of the corpus; its answer as the corpus stores it."""
    kwargs: dict[str, Any] = {"method": request["method"], "headers": request.get("headers", {})}
    if "json" in request:
        kwargs["json"] = request["json"]
    if "data" in request:
        kwargs["data"] = request["data"].encode("utf-8")
    response = client.open(request["path"].replace("{code}", getattr(client, "sync_code", "")), **kwargs)
    if request["path"] == "/v1/cardbox" and response.status_code == 201:
        client.sync_code = response.get_json()["code"]  # type: ignore[attr-defined]  # for the next {code}
    out: dict[str, Any] = {"status": response.status_code, "content_type": response.content_type}
    data = response.get_data()
    if response.mimetype == BINARY:
        out.update(sha256=hashlib.sha256(data).hexdigest(), bytes=len(data))
    else:
        try:
            out["body"] = normalise(data.decode("utf-8"))
        except UnicodeDecodeError:
            out["base64"] = base64.b64encode(data).decode("ascii")
    return out


def expected(stored: dict[str, Any]) -> dict[str, Any]:
    return {**stored, "body": normalise(stored["body"])} if "body" in stored else stored


def label(request: dict[str, Any]) -> str:
    headers = " ".join(f"[{k}: {v}]" for k, v in request.get("headers", {}).items())
    return f"{request['method']} {request['path']} {headers}".strip()


@pytest.mark.parametrize("hot", [True, False], ids=["hot-routes", "flask-only"])
def test_pinned_answers(hot: bool, pinned_home: Path, tmp_path: Path) -> None:
    corpus = load()
    if WRITE:
        write(corpus, pinned_home, tmp_path)
        return
    failures, count = [], 0
    for group in corpus["groups"]:
        client = client_for(group, pinned_home, tmp_path, hot)
        for entry in group["requests"]:
            count += 1
            request = {k: v for k, v in entry.items() if k != "answer"}
            got, want = answer(client, request), expected(entry["answer"])
            if got != want:
                failures.append(f"{group['name']}: {label(request)}\n  stored: {want}\n  now:    {got}")
    assert count >= 150
    assert not failures, f"{len(failures)} of {count} answers changed:\n" + "\n".join(failures[:20])


def test_corpus_answers_every_route(app: Flask) -> None:
    """Every /v1 route but the OpenAPI document has a request in the corpus that it answers with a success."""
    adapter = app.url_map.bind("localhost")
    answered = set()
    for group in load()["groups"]:
        for entry in group["requests"]:
            try:
                endpoint, _ = adapter.match(unquote(entry["path"].split("?")[0]), method=entry["method"])
            except HTTPException:
                continue
            if entry["answer"]["status"] < 400:
                answered.add(endpoint)
    routes = {rule.endpoint for rule in app.url_map.iter_rules() if rule.rule.startswith("/v1/")} - {"meta.openapi"}
    assert routes - answered == set()


def write(corpus: dict[str, Any], lexicon_home: Path, tmp_path: Path) -> None:
    """Record every request's answer with both apps, which must agree, and store it."""
    disagree = []
    for group in corpus["groups"]:
        clients = [client_for(group, lexicon_home, tmp_path / "write", hot) for hot in (True, False)]
        for entry in group["requests"]:
            request = {k: v for k, v in entry.items() if k != "answer"}
            with_hot, flask_only = (answer(client, request) for client in clients)
            if with_hot != flask_only:
                disagree.append(f"{group['name']}: {label(request)}: {with_hot} != {flask_only}")
            entry.clear()
            entry.update(request, answer=flask_only)
    assert not disagree, "the hot routes and Flask disagree:\n" + "\n".join(disagree)
    CORPUS.write_text(dumps(corpus), "utf-8")


def dumps(corpus: dict[str, Any]) -> str:
    """The corpus as text: one line per request (its answer included), so a changed answer is one changed line."""
    lines = ["{", f' "about": {json.dumps(corpus.get("about", ""), ensure_ascii=False)},', ' "groups": [']
    for i, group in enumerate(corpus["groups"]):
        head = {k: v for k, v in group.items() if k != "requests"}
        lines.append("  {")
        lines.extend(f"   {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items())
        lines.append('   "requests": [')
        entries = [f"    {json.dumps(entry, ensure_ascii=False)}" for entry in group["requests"]]
        lines.append(",\n".join(entries))
        lines.append("   ]")
        lines.append("  }" + ("," if i < len(corpus["groups"]) - 1 else ""))
    lines.extend([" ]", "}", ""])
    return "\n".join(lines)
