"""The director's view of the record (service/judge/director.py) and ``lextools serve`` refusing to start.

A kiosk serves the director — ``/director``, its CSV, ``/v1/record``, ``/healthz`` — only with the
director token: 404 when the server has none (as any other route of a kiosk), 401 without the
right one. ``lextools serve`` with nothing to serve or on a port in use: exit 2, one line, and no
file created.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import socket
import sqlite3
import stat
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from markupsafe import escape
from typer.testing import CliRunner

from lextools.cli.main import app as cli
from lextools.core.errors import QueryError
from lextools.features import record as record_module
from lextools.features.inert import CATEGORIES, inert
from lextools.features.record import ChallengeRecord
from service import create_app

TOKEN = "d1rector-t0ken-4-tests"
BEARER = {"Authorization": f"Bearer {TOKEN}"}
BASIC = {"Authorization": "Basic " + base64.b64encode(f"director:{TOKEN}".encode()).decode()}
DIRECTOR_ROUTES = ("/director", "/director/record.csv", "/v1/record", "/healthz")
#: The director's page's own feed and script: behind the token in a kiosk too.
PAGE_ROUTES = ("/director/challenges.json", "/director/static/director.js")


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


def test_the_director_pages_feed_and_script_are_the_directors_too(lexicon_home: Path, tmp_path: Path) -> None:
    off = kiosk_app(lexicon_home, tmp_path, token=None).test_client()
    client = kiosk_app(lexicon_home, tmp_path).test_client()
    for path in PAGE_ROUTES:
        assert off.get(path, headers=BEARER).status_code == 404, path
        assert client.get(path).status_code == 401, path
        assert client.get(path, headers=BASIC).status_code == 200, path
    assert client.get("/static/director.js", headers=BEARER).status_code == 404  # not one of the judge's files


def test_the_director_page_lists_todays_challenges_in_the_kiosk_language(lexicon_home: Path, tmp_path: Path) -> None:
    app = kiosk_app(lexicon_home, tmp_path)
    client = app.test_client()
    empty = client.get("/director", headers=BEARER)
    assert empty.status_code == 200 and empty.mimetype == "text/html"
    html = empty.get_data(as_text=True)
    assert '<html lang="es">' in html and "Registro de impugnaciones" in html
    assert '<p id="none">' in html and '<table id="challenges" class="challenges" hidden>' in html

    made = [challenge(client, ["casa"]), challenge(client, ["casa", "dame"])]
    r = client.get("/director", headers=BEARER)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and '<p id="none" hidden>' in html
    assert r.headers["Cache-Control"] == "no-store" and "default-src 'self'" in r.headers["Content-Security-Policy"]
    for answer in made:
        assert answer["receipt"]["id"] in html
    rows = html.split("<tbody>")[1].split("</tbody>")[0].split("<tr ")[1:]
    assert len(rows) == 2
    # Newest first; each verdict by colour (its class) and by mark and words, which need no colour.
    newest, oldest = rows
    assert "casa dame" in newest and 'class="bad"' in newest and "✗</span> NO ACEPTABLE" in newest
    assert "casa" in oldest and 'class="ok"' in oldest and "✓</span> ACEPTABLE" in oldest
    assert "NO ACEPTABLE" not in oldest
    assert made[1]["receipt"]["id"] in newest and made[0]["receipt"]["id"] in oldest
    # The 8 characters the judge showed the players stand out; each row's signature is checked.
    assert f"<b>{made[1]['receipt']['id'][:8]}</b>{made[1]['receipt']['id'][8:]}" in newest
    assert all('class="sig sig-valid">✓ comprobada<' in row for row in rows)
    # Its one script comes from this server, and nothing else from anywhere.
    assert '<script type="module" src="/director/static/director.js">' in html
    assert "http://" not in html and "https://" not in html

    # The feed the page refreshes from: the same rows, newest first, in the page's language.
    feed = client.get("/director/challenges.json", headers=BEARER)
    assert feed.status_code == 200 and feed.headers["Cache-Control"] == "no-store"
    assert [(c["id"], c["words"], c["verdict"], c["signature"]) for c in feed.json["challenges"]] == [
        (made[1]["receipt"]["id"], "casa dame", "NO ACEPTABLE", "valid"),
        (made[0]["receipt"]["id"], "casa", "ACEPTABLE", "valid"),
    ]
    assert client.get("/director/static/director.js", headers=BEARER).status_code == 200

    # The CSV: the same rows, headers and verdicts in the kiosk's language, the signatures kept.
    got = client.get("/director/record.csv", headers=BEARER)
    assert got.status_code == 200 and got.mimetype == "text/csv"
    assert got.headers["Content-Disposition"].startswith('attachment; filename="challenges-')
    table = list(csv.DictReader(io.StringIO(got.get_data(as_text=True))))
    assert list(table[0]) == [
        "Recibo", "Hora (UTC)", "Edición", "Suma de control del léxico", "Palabras", "Aceptable", "Firma"
    ]  # fmt: skip
    assert [(e["Recibo"], e["Palabras"], e["Aceptable"], e["Firma"]) for e in table] == [
        (made[0]["receipt"]["id"], "casa", "sí", made[0]["receipt"]["signature"]),
        (made[1]["receipt"]["id"], "casa dame", "no", made[1]["receipt"]["signature"]),
    ]
    # /v1/record, reachable in kiosk mode with the token, holds the same challenges and signatures
    record = client.get("/v1/record", headers=BEARER).json["challenges"]
    assert [(e["id"], e["signature"]) for e in record] == [(e["Recibo"], e["Firma"]) for e in table]


def test_the_words_on_the_page_are_escaped(lexicon_home: Path, tmp_path: Path) -> None:
    app = kiosk_app(lexicon_home, tmp_path)
    rec: ChallengeRecord = app.extensions["lextools.record"]
    hostile = '<script>alert("x")</script>&<b>'
    rec.add("es-fise", "0" * 64, [hostile], False, client="test", rate=10, secret=b"s" * 32)
    html = app.test_client().get("/director", headers=BEARER).get_data(as_text=True)
    assert hostile not in html and "<script>" not in html and "<b>&" not in html  # (the page's own script: src=)
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


# -- nothing a challenge carries can fool the director (issue 23) ----------------------------------

#: Words a client may send: an escape that hides the rest and fakes a verdict, spreadsheet formulas,
#: a screen clear, a bidi override. Each is judged (NOT ACCEPTABLE) and recorded as typed.
HOSTILE = ["xqzt\x1b[8m: NOT ACCEPTABLE", '=HYPERLINK("http://x","y")', "@SUM(A1)", "\x1b[2J", "abc\u202edef"]
#: How each is shown to the director (lextools/features/inert.py), and in a CSV cell (OWASP's rule).
SHOWN = ["xqzt\\x1b[8m: NOT ACCEPTABLE", '=HYPERLINK("http://x","y")', "@SUM(A1)", "\\x1b[2J", "abc\\u202edef"]
CELLS = ["xqzt\\x1b[8m: NOT ACCEPTABLE", '\'=HYPERLINK("http://x","y")', "'@SUM(A1)", "\\x1b[2J", "abc\\u202edef"]
RAW = ("\x1b", "\u202e")


def test_hostile_words_are_inert_in_every_director_output(lexicon_home: Path, tmp_path: Path) -> None:
    client = kiosk_app(lexicon_home, tmp_path).test_client()
    answers = [challenge(client, [word]) for word in HOSTILE]
    assert not any(a["acceptable"] for a in answers)
    record = str(tmp_path / "challenges.sqlite3")
    runner = CliRunner()

    def words_column(text: str) -> list[str]:
        return [row[4] for row in csv.reader(io.StringIO(text))][1:]

    csv_outputs = {
        "record --csv": runner.invoke(cli, ["record", "--record", record, "--csv"]).stdout,
        "/v1/record?format=csv": client.get("/v1/record?format=csv", headers=BEARER).get_data(as_text=True),
        "/director/record.csv": client.get("/director/record.csv", headers=BEARER).get_data(as_text=True),
    }
    for name, text in csv_outputs.items():
        assert words_column(text) == CELLS, name
    table = runner.invoke(cli, ["record", "--record", record], env={"COLUMNS": "300"})
    page = client.get("/director", headers=BEARER).get_data(as_text=True)
    assert all(shown in table.stdout for shown in SHOWN)
    assert all(str(escape(shown)) in page for shown in SHOWN)  # autoescaped as Jinja does
    # JSON: the words exact for a program, no raw control or bidi character for a person.
    as_json = {
        "record --json": runner.invoke(cli, ["record", "--record", record, "--json"]).stdout,
        "/v1/record": client.get("/v1/record", headers=BEARER).get_data(as_text=True),
    }
    for name, text in as_json.items():
        assert [e["words"][0] for e in json.loads(text)["challenges"]] == HOSTILE, name
    for text in [*csv_outputs.values(), *as_json.values(), table.stdout, page]:
        assert not any(c in text for c in RAW)

    # receipt verify: the signed verdict alone on its line, the words escaped on theirs.
    verified = runner.invoke(cli, ["receipt", "verify", "--record", record, json.dumps(answers[0]["receipt"])])
    assert verified.exit_code == 0, verified.output
    assert verified.stdout.splitlines()[1:] == [
        "signed verdict: NOT ACCEPTABLE",
        'words as typed (control characters escaped): "xqzt\\x1b[8m: NOT ACCEPTABLE"',
    ]


def test_inert_escapes_every_control_and_format_character() -> None:
    """The ranges written in lextools/features/inert.py are this Python's Unicode categories."""
    unsafe = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) in CATEGORIES]
    assert all(inert(c).startswith("\\") and inert(c).isascii() for c in unsafe)
    assert len(inert("".join(unsafe))) > 5 * len(unsafe)
    assert inert("\\x1b") == "\\\\x1b" != inert("\x1b")  # a backslash typed cannot pass for an escape
    assert inert("CANCIÓN l·l ñ") == "CANCIÓN l·l ñ"


@pytest.mark.parametrize("since", ["9999-12-31T23:59:59-01:00", "0001-01-01T00:00+01:00", "2026-13-01"])
def test_a_time_outside_the_calendar_is_a_clear_error(lexicon_home: Path, tmp_path: Path, since: str) -> None:
    client = kiosk_app(lexicon_home, tmp_path).test_client()
    challenge(client, ["casa"])
    shown = CliRunner().invoke(cli, ["record", "--record", str(tmp_path / "challenges.sqlite3"), "--since", since])
    assert isinstance(shown.exception, QueryError) and str(shown.exception).startswith(f"since '{since}' is ")
    r = client.get("/v1/record", query_string={"since": since}, headers=BEARER)
    assert r.status_code == 400 and r.json["error"]["code"] == "bad_query"


def test_receipt_verify_refuses_what_no_server_wrote_in_one_line(lexicon_home: Path, tmp_path: Path) -> None:
    client = kiosk_app(lexicon_home, tmp_path).test_client()
    receipt = challenge(client, ["casa"])["receipt"]
    record = str(tmp_path / "challenges.sqlite3")
    not_text = "a receipt's fields are not UTF-8 text"
    cases = {
        "[" * 100_000: "longer than any challenge answer",
        "[" * 60_000: "nested too deeply",
        json.dumps({**receipt, "id": "\ud800"}): not_text,  # written "\ud800"
        json.dumps({**receipt, "id": "\ud800"}, ensure_ascii=False): not_text,  # a lone surrogate
    }
    for text, cause in cases.items():
        shown = CliRunner().invoke(cli, ["receipt", "verify", "--record", record, text])
        assert shown.exit_code == 2, shown.output
        (line,) = shown.stderr.splitlines()[1:]  # after the record's name
        assert line.startswith(f"not a receipt: {cause}"), line  # exit 2: not "not valid", which is exit 1


def test_the_record_is_private_to_its_owner(tmp_path: Path) -> None:
    record = ChallengeRecord(tmp_path / "new" / "challenges.sqlite3")
    record.add("es-fise", "0" * 64, ["casa"], True, client="t", rate=10, secret=b"s" * 32)
    assert stat.S_IMODE(record.path.stat().st_mode) == 0o600
    with sqlite3.connect(record.path) as reader:  # open: its WAL files exist, with the record's mode
        reader.execute("SELECT COUNT(*) FROM challenges").fetchone()
        files = [record.path, *(record.path.with_name(f"challenges.sqlite3-{s}") for s in ("wal", "shm"))]
        assert [stat.S_IMODE(p.stat().st_mode) for p in files] == [0o600] * 3
        for p in files:
            p.chmod(0o644)  # a record made before: tightened when opened, reading it too
        assert len(ChallengeRecord(record.path).entries()) == 1
        assert [stat.S_IMODE(p.stat().st_mode) for p in files] == [0o600] * 3


def test_a_locked_record_fails_the_challenge_without_waiting_in_sqlite(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While another program holds the record's write lock, a challenge is a 503 ``record_error`` after
    a short wait spent in ``time.sleep`` (which gevent's workers make cooperative), never in SQLite's
    busy handler; look-ups carry on, and once the lock is let go the challenges are recorded again."""
    challenge(client, ["casa"])
    rec: ChallengeRecord = app.extensions["lextools.record"]
    rec.lock_wait = 0.05
    pauses: list[float] = []
    real_sleep = time.sleep
    monkeypatch.setattr(record_module.time, "sleep", lambda s: (pauses.append(s), real_sleep(s)))
    holder = sqlite3.connect(rec.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # a director's sqlite3 shell
    try:
        r = client.post("/v1/es-fise/challenge", json={"words": ["dame"]})
        assert r.status_code == 503 and r.json["error"]["code"] == "record_error", r.json
        assert len(pauses) >= 3 and max(pauses) <= 0.05
        assert client.get("/v1/es-fise/words/casa").status_code == 200
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    challenge(client, ["dame"])
    assert [e["words"] for e in rec.entries()] == [["casa"], ["dame"]]
