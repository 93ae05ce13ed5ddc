"""The director's view of the record (service/director.py) and ``lextools serve`` refusing to start.

A kiosk serves the director — ``/director``, its CSV, ``/v1/record``, ``/healthz`` — only with the
director token: 404 when the server has none (as any other route of a kiosk), 401 without the
right one. ``lextools serve`` with nothing to serve or on a port in use: exit 2, one line, and no
file created.
"""

from __future__ import annotations

import base64
import csv
import io
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from lextools.features.record import ChallengeRecord
from service import create_app

TOKEN = "d1rector-t0ken-4-tests"
BEARER = {"Authorization": f"Bearer {TOKEN}"}
BASIC = {"Authorization": "Basic " + base64.b64encode(f"director:{TOKEN}".encode()).decode()}
DIRECTOR_ROUTES = ("/director", "/director/record.csv", "/v1/record", "/healthz")


def kiosk_app(lexicon_home: Path, tmp_path: Path, token: str | None = TOKEN) -> Flask:
    return create_app(
        {
            "LEXICONS": lexicon_home,
            "TESTING": True,
            "RECORD": tmp_path / "challenges.sqlite3",
            "KIOSK": "es-fise",
            "DIRECTOR_TOKEN": token,
        }
    )


def challenge(client: FlaskClient, words: list[str]) -> dict:
    r = client.post("/v1/es-fise/challenge", json={"words": words})
    assert r.status_code == 200, r.get_data(as_text=True)
    return r.json


# -- the page and its CSV, in kiosk mode --------------------------------------------------------------


def test_a_kiosk_without_a_director_token_serves_no_director_route(lexicon_home: Path, tmp_path: Path) -> None:
    client = kiosk_app(lexicon_home, tmp_path, token=None).test_client()
    for path in DIRECTOR_ROUTES:
        r = client.get(path, headers=BEARER)
        # the same 404 as a path that is no route: the table learns nothing
        assert r.status_code == 404 and r.json == client.get("/no-such-page").json, path
    assert not (tmp_path / "challenges.sqlite3").exists()


def test_the_director_routes_of_a_kiosk_need_the_token(lexicon_home: Path, tmp_path: Path) -> None:
    client = kiosk_app(lexicon_home, tmp_path).test_client()
    for path in DIRECTOR_ROUTES:
        wrong_basic = "Basic " + base64.b64encode(b"director:wrong").decode()
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": wrong_basic}):
            r = client.get(path, headers=headers)
            assert r.status_code == 401, (path, headers)
            assert r.json["error"]["code"] == "unauthorized"
            assert r.headers["WWW-Authenticate"].lower().startswith("basic")  # a browser asks for the token
            assert "Bearer" in r.json["error"]["message"]
        assert client.get(path, headers=BEARER).status_code == 200, path
        assert client.get(path, headers=BASIC).status_code == 200, path  # what a browser sends
        assert client.get(path, headers={"Authorization": TOKEN}).status_code == 200, path  # bare, as /v1/record took
    assert client.get("/healthz", headers=BEARER).json["status"] == "ok"
    # the rest of the kiosk is unchanged: a look-up is 404, token or not
    assert client.get("/v1/es-fise/words/casa", headers=BEARER).status_code == 404
    assert client.get("/study", headers=BEARER).status_code == 404


def test_the_director_page_lists_todays_challenges_in_the_kiosk_language(lexicon_home: Path, tmp_path: Path) -> None:
    app = kiosk_app(lexicon_home, tmp_path)
    client = app.test_client()
    empty = client.get("/director", headers=BEARER)
    assert empty.status_code == 200 and empty.mimetype == "text/html"
    html = empty.get_data(as_text=True)
    assert '<html lang="es">' in html and "Registro de impugnaciones" in html and 'id="none"' in html

    made = [challenge(client, ["casa"]), challenge(client, ["casa", "dame"])]
    r = client.get("/director", headers=BEARER)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="none"' not in html
    assert r.headers["Cache-Control"] == "no-store" and "default-src 'self'" in r.headers["Content-Security-Policy"]
    for answer in made:
        assert answer["receipt"]["id"] in html
    rows = html.split("<tbody>")[1].split("</tbody>")[0].split("<tr>")[1:]
    assert len(rows) == 2
    assert "casa" in rows[0] and "ACEPTABLE" in rows[0] and "NO ACEPTABLE" not in rows[0]
    assert "casa dame" in rows[1] and "NO ACEPTABLE" in rows[1]
    assert made[0]["receipt"]["id"] in rows[0] and made[1]["receipt"]["id"] in rows[1]
    assert "<script" not in html and "http://" not in html and "https://" not in html  # nothing from elsewhere

    # The CSV: the same rows, with the record's columns.
    got = client.get("/director/record.csv", headers=BEARER)
    assert got.status_code == 200 and got.mimetype == "text/csv"
    assert got.headers["Content-Disposition"].startswith('attachment; filename="challenges-')
    table = list(csv.DictReader(io.StringIO(got.get_data(as_text=True))))
    assert [(e["id"], e["words"], e["acceptable"]) for e in table] == [
        (made[0]["receipt"]["id"], "casa", "True"),
        (made[1]["receipt"]["id"], "casa dame", "False"),
    ]
    # /v1/record, reachable in kiosk mode with the token, holds the same challenges
    record = client.get("/v1/record", headers=BEARER).json["challenges"]
    assert [e["id"] for e in record] == [e["id"] for e in table]


def test_the_words_on_the_page_are_escaped(lexicon_home: Path, tmp_path: Path) -> None:
    app = kiosk_app(lexicon_home, tmp_path)
    rec: ChallengeRecord = app.extensions["lextools.record"]
    hostile = '<script>alert("x")</script>&<b>'
    rec.add("es-fise", "0" * 64, [hostile], False, client="test", rate=10, secret=b"s" * 32)
    html = app.test_client().get("/director", headers=BEARER).get_data(as_text=True)
    assert hostile not in html and "<script" not in html and "<b>" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&amp;&lt;b&gt;" in html


def test_only_todays_challenges_are_listed(lexicon_home: Path, tmp_path: Path) -> None:
    app = kiosk_app(lexicon_home, tmp_path)
    old = ChallengeRecord(tmp_path / "challenges.sqlite3", clock=lambda: 1_700_000_000.0)  # November 2023
    yesterday = old.add("es-fise", "0" * 64, ["ayer"], True, client="t", rate=10, secret=b"s" * 32)
    client = app.test_client()
    today = challenge(client, ["casa"])
    html = client.get("/director", headers=BEARER).get_data(as_text=True)
    assert today["receipt"]["id"] in html and yesterday.id not in html and "ayer" not in html
    text = client.get("/director/record.csv", headers=BEARER).get_data(as_text=True)
    assert today["receipt"]["id"] in text and yesterday.id not in text


def test_the_director_page_outside_kiosk_mode(lexicon_home: Path, tmp_path: Path) -> None:
    """Outside kiosk mode too, as ``/v1/record``: off without a token (404), 401 without the right one."""
    off = create_app({"LEXICONS": lexicon_home, "RECORD": tmp_path / "r.sqlite3", "DIRECTOR_TOKEN": None})
    assert off.test_client().get("/director", headers=BEARER).status_code == 404
    app = create_app({"LEXICONS": lexicon_home, "RECORD": tmp_path / "r.sqlite3", "DIRECTOR_TOKEN": TOKEN})
    client = app.test_client()
    assert client.get("/director").status_code == 401
    assert client.get("/healthz").status_code == 200  # public outside kiosk mode
    r = client.get("/director?lang=fr", headers=BEARER)
    assert r.status_code == 200 and "Registre des contestations" in r.get_data(as_text=True)
    r = client.get("/director", headers={**BEARER, "Accept-Language": "en"})
    assert "Challenge record" in r.get_data(as_text=True)


# -- lextools serve refuses to start ------------------------------------------------------------------


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-c", "from lextools.cli.main import main; main()", "serve", "--host", "127.0.0.1", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


def test_a_kiosk_with_no_lexicon_for_its_edition_exits_2_and_creates_nothing(tmp_path: Path) -> None:
    lexicons, record_dir = tmp_path / "lexicons", tmp_path / "record"
    lexicons.mkdir()
    record_dir.mkdir()
    done = serve("--port", "0", "--kiosk", "es-fise", "--lexicons", str(lexicons),
                 "--record", str(record_dir / "challenges.sqlite3"))  # fmt: skip
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert line.startswith("error: no es-fise lexicon in") and str(lexicons) in line
    assert list(record_dir.iterdir()) == [] and list(lexicons.iterdir()) == []


def test_serve_with_no_lexicon_at_all_exits_2_and_creates_nothing(tmp_path: Path) -> None:
    lexicons = tmp_path / "lexicons"
    lexicons.mkdir()
    done = serve("--port", "0", "--lexicons", str(lexicons))  # the record defaults to the lexicon directory
    assert done.returncode == 2
    assert one_line(done.stderr).startswith(f"error: no lexicon in {lexicons}: nothing to serve")
    assert list(lexicons.iterdir()) == []


def test_a_kiosk_on_a_port_in_use_exits_2_and_creates_nothing(lexicon_home: Path, tmp_path: Path) -> None:
    record = tmp_path / "record" / "challenges.sqlite3"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = serve("--port", str(port), "--kiosk", "es-fise", "--lexicons", str(lexicon_home),
                     "--record", str(record))  # fmt: skip
        plain = serve("--port", str(port), "--lexicons", str(lexicon_home), "--record", str(record))
    for run in (done, plain):
        assert run.returncode == 2
        taken_text = f"error: port {port} on 127.0.0.1 is already in use (another server?); choose another --port"
        assert one_line(run.stderr) == taken_text
        assert "Connection in use" not in run.stderr
    assert not record.parent.exists()
    assert not any(p.name.startswith("challenges.sqlite3") for p in lexicon_home.iterdir())


@pytest.mark.parametrize("host", ["203.0.113.7"])  # TEST-NET-3: an address of no interface here
def test_serve_on_an_address_it_cannot_bind_exits_2(lexicon_home: Path, tmp_path: Path, host: str) -> None:
    record = tmp_path / "r" / "c.sqlite3"
    cmd = [sys.executable, "-c", "from lextools.cli.main import main; main()", "serve", "--host", host,
           "--port", "8000", "--lexicons", str(lexicon_home), "--record", str(record)]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert one_line(done.stderr).startswith(f"error: cannot listen on {host}:8000: ")
    assert not (tmp_path / "r").exists()
