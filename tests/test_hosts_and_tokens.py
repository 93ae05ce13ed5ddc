"""Who the service answers: the Host names it is configured for (DNS rebinding), the languages it
speaks (``lang``), and the director's token — strong enough, and not guessed a thousand times a second."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lextools.features.record import ChallengeRecord
from service import create_app
from service.http.hosts import AllowedHosts
from service.judge.director_auth import MAX_WRONG, WeakTokenError

TOKEN = "a-strong-director-token-4-tests"


@pytest.mark.parametrize(
    ("host", "answered"),
    [
        ("localhost", True),
        ("localhost:8000", True),
        ("judge.localhost:8000", True),
        ("127.0.0.1:8000", True),
        ("192.168.1.20", True),
        ("[::1]:8000", True),
        ("club.example.org", True),
        ("table1.tables.example.org:80", True),
        ("tables.example.org", True),
        (None, True),  # HTTP/1.0 without Host: no browser sends that
        ("evil.example", False),
        ("evil.example:8000", False),
        ("club.example.org.evil.example", False),
        ("localhost.evil.example", False),
        ("", True),
        ("exa mple", False),
    ],
)
def test_the_host_names_answered(host: str | None, answered: bool) -> None:
    assert AllowedHosts(["club.example.org", ".tables.example.org"])(host) is answered


def test_a_rebinding_page_gets_nothing_and_records_nothing(lexicon_home: Path, tmp_path: Path) -> None:
    record = tmp_path / "r.sqlite3"
    app = create_app({"LEXICONS": lexicon_home, "RECORD": record, "ALLOWED_HOSTS": ["club.example.org"]})
    client = app.test_client()
    evil = {"Host": "evil.example:8000", "Origin": "http://evil.example:8000"}
    for method, path in (("GET", "/v1/es-fise/words/casa"), ("GET", "/v1/es-fise/words/casa?lang=en"),
                         ("GET", "/study"), ("POST", "/v1/es-fise/check")):  # fmt: skip
        r = client.open(path, method=method, headers=evil, json={"words": ["casa"]})
        assert r.status_code == 400 and r.json["error"]["code"] == "host_not_allowed", (path, r.data[:200])
        assert "evil.example" in r.json["error"]["message"] and "--allowed-host" in r.json["error"]["message"]
    r = client.post("/v1/es-fise/challenge", headers=evil, json={"words": ["casa"]})
    assert r.status_code == 400 and r.json["error"]["code"] == "host_not_allowed"
    assert ChallengeRecord(record).entries(None) == [] if record.exists() else True
    club = {"Host": "club.example.org", "Origin": "http://club.example.org"}
    r = client.post("/v1/es-fise/challenge", headers=club, json={"words": ["casa"]})
    assert r.status_code == 200 and r.json["acceptable"] is True


def test_allowed_hosts_come_from_the_environment(
    lexicon_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEXTOOLS_ALLOWED_HOSTS", "scrabble.club.es, .mesas.club.es")
    client = create_app({"LEXICONS": lexicon_home, "RECORD": tmp_path / "r.sqlite3"}).test_client()
    assert client.get("/v1/es-fise/words/casa", headers={"Host": "scrabble.club.es"}).status_code == 200
    assert client.get("/v1/es-fise/words/casa", headers={"Host": "m1.mesas.club.es"}).status_code == 200
    assert client.get("/v1/es-fise/words/casa", headers={"Host": "otro.es"}).status_code == 400


@pytest.mark.parametrize(("lang", "status"), [("en", 200), ("ES", 200), ("es-AR", 200), ("fr_CA", 200),
                                              ("xx", 400), ("esp", 400), ("frr", 400), ("", 200)])  # fmt: skip
def test_lang_names_one_of_our_languages(lexicon_home: Path, lang: str, status: int) -> None:
    client = create_app({"LEXICONS": lexicon_home}).test_client()
    r = client.get(f"/v1/es-fise/words/casa?lang={lang}")
    assert r.status_code == status, r.json
    if status == 400:
        assert r.json["error"]["code"] == "bad_request"
        assert "en, es, fr" in r.json["error"]["message"] and repr(lang) in r.json["error"]["message"]


@pytest.mark.parametrize("token", ["t0ken", "aaaaaaaaaaaaaaaaaaaaaaaa", "abababababababababab", "short-but-mixed"])
def test_a_weak_director_token_stops_the_start(lexicon_home: Path, tmp_path: Path, token: str) -> None:
    with pytest.raises(WeakTokenError, match="openssl rand -hex 16"):
        create_app({"LEXICONS": lexicon_home, "RECORD": tmp_path / "r.sqlite3", "DIRECTOR_TOKEN": token})


def test_serve_refuses_a_weak_token_in_one_line(lexicon_home: Path, tmp_path: Path) -> None:
    cmd = [sys.executable, "-c", "from lextools.cli.main import main; main()", "serve", "--port", "0",
           "--lexicons", str(lexicon_home), "--record", str(tmp_path / "r.sqlite3")]  # fmt: skip
    env = {"LEXTOOLS_DIRECTOR_TOKEN": "secret", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False, env=env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "too weak" in done.stderr, done.stderr
    assert not (tmp_path / "r.sqlite3").exists()


def test_wrong_tokens_are_limited_per_address(lexicon_home: Path, tmp_path: Path) -> None:
    app = create_app({"LEXICONS": lexicon_home, "RECORD": tmp_path / "r.sqlite3", "DIRECTOR_TOKEN": TOKEN})
    client = app.test_client()
    guesser = {"REMOTE_ADDR": "10.0.0.66"}
    for i in range(MAX_WRONG):
        r = client.get("/v1/record", headers={"Authorization": f"Bearer guess-{i}"}, environ_base=guesser)
        assert r.status_code == 401
    for token in ("another-guess", TOKEN):  # the right one too: the answer tells a guesser nothing
        r = client.get("/v1/record", headers={"Authorization": f"Bearer {token}"}, environ_base=guesser)
        assert r.status_code == 429 and r.json["error"]["code"] == "too_many_attempts"
        assert 1 <= int(r.headers["Retry-After"]) <= 60 and r.headers["Retry-After"] in r.json["error"]["message"]
    director = {"REMOTE_ADDR": "10.0.0.1"}
    r = client.get("/v1/record", headers={"Authorization": f"Bearer {TOKEN}"}, environ_base=director)
    assert r.status_code == 200
