"""Challenges: the SQLite record, signed receipts, the route's limits and its refusal of other sites.

Everything runs on the small lexicons built through the real pipeline (tests/conftest.py); each
test has its own record and secret under ``tmp_path``.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from typer.testing import CliRunner, Result

from lextools.cli.main import app as cli
from lextools.core.errors import RecordError
from lextools.features import receipts
from lextools.features import record as record_module
from lextools.features.record import RECORD_VERSION, ChallengeRecord
from service import create_app
from service.http.limits import CHALLENGE_RATE, MAX_BODY, MAX_WORD_CHARS, MAX_WORDS

CHALLENGE = "/v1/es-fise/challenge"


def record_of(app: Flask) -> ChallengeRecord:
    rec: ChallengeRecord = app.extensions["lextools.record"]
    return rec


def recorded(app: Flask) -> list[dict]:
    path = record_of(app).path
    return record_of(app).entries() if path.exists() else []


def challenge(client: FlaskClient, words: list[str], **headers: str) -> tuple[int, dict]:
    r = client.post(CHALLENGE, json={"words": words}, headers=headers)
    return r.status_code, r.json


def record_bytes(path: Path) -> int:
    """The record's size on disk once its write-ahead log is folded in."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path.stat().st_size


class Clock:
    """A clock the test moves by hand (the record's rate limit reads it)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


# -- the record -------------------------------------------------------------------------------------


def test_each_challenge_is_recorded_with_its_lexicon_and_verdict(app: Flask, client: FlaskClient) -> None:
    status, first = challenge(client, ["casa", "dame"])
    assert status == 200 and first["acceptable"] is False
    status, second = challenge(client, ["1IQUI2O"])
    assert status == 200 and second["acceptable"] is True
    entries = record_of(app).entries()
    assert [(e["words"], e["acceptable"]) for e in entries] == [(["casa", "dame"], False), (["1IQUI2O"], True)]
    assert {e["edition"] for e in entries} == {"es-fise"}
    assert entries[0]["checksum"] == first["receipt"]["checksum"]
    assert [e["id"] for e in entries] == [first["receipt"]["id"], second["receipt"]["id"]]
    assert all(e["time"].endswith("Z") for e in entries)
    # A real SQLite database in WAL mode (several gunicorn workers write to it).
    with sqlite3.connect(record_of(app).path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert db.execute("SELECT COUNT(*) FROM challenges").fetchone() == (2,)


def test_the_record_is_read_since_a_time(tmp_path: Path) -> None:
    clock = Clock()
    rec = ChallengeRecord(tmp_path / "r.sqlite3", clock=clock)
    rec.add("es-fise", "c" * 64, ["casa"], True, client="a", rate=10, secret=b"s" * 32)
    clock.now += 3600
    rec.add("es-fise", "c" * 64, ["dame"], False, client="a", rate=10, secret=b"s" * 32)
    later = rec.entries()[1]["time"]
    assert [e["words"] for e in rec.entries(later)] == [["dame"]]


def test_two_processes_writing_one_record_lose_nothing(tmp_path: Path) -> None:
    """Each write is one BEGIN IMMEDIATE transaction: forked writers serialise, none is lost."""
    path = tmp_path / "r.sqlite3"
    ChallengeRecord(path).add("fr", "c" * 64, ["init"], True, client="init", rate=10, secret=b"s" * 32)
    children = []
    for n in range(4):
        pid = os.fork()
        if pid == 0:
            try:
                rec = ChallengeRecord(path)
                for i in range(25):
                    rec.add("fr", "c" * 64, [f"w{n}-{i}"], True, client=f"c{n}-{i}", rate=10, secret=b"s" * 32)
            finally:
                os._exit(0)
        children.append(pid)
    for pid in children:
        assert os.waitpid(pid, 0)[1] == 0
    assert len(ChallengeRecord(path).entries()) == 1 + 4 * 25


# -- receipts ---------------------------------------------------------------------------------------


def test_a_receipt_verifies_and_any_changed_byte_is_refused(app: Flask, client: FlaskClient) -> None:
    _, answer = challenge(client, ["chiquillo", "calle"])
    receipt = receipts.Receipt(**answer["receipt"])
    rec, secret = record_of(app), receipts.load_secret(record_of(app).path)
    assert rec.verify(receipt.text(), secret).ok
    assert rec.verify(json.dumps(answer), secret).ok  # the whole answer, pasted as it came
    text = receipt.text().encode()
    for i in range(len(text)):
        for replacement in {text[i] ^ 1, ord("0") if text[i] != ord("0") else ord("1")}:
            altered = text[:i] + bytes([replacement]) + text[i + 1 :]
            result = rec.verify(altered.decode("utf-8", "replace"), secret)
            assert not result.ok, (i, altered)


def test_a_receipt_does_not_verify_with_another_secret_or_an_altered_record(app: Flask, client: FlaskClient) -> None:
    _, answer = challenge(client, ["casa", "dame"])
    text = json.dumps(answer["receipt"])
    rec = record_of(app)
    assert not rec.verify(text, b"another secret of the right length..").ok
    with sqlite3.connect(rec.path) as db:  # someone edits the record: DAME becomes DAMA
        db.execute("UPDATE challenges SET words = ?", (json.dumps(["casa", "dama"]),))
    result = rec.verify(text, receipts.load_secret(rec.path))
    assert not result.ok and "signature" in result.message


def test_the_secret_is_made_once_and_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(receipts.SECRET_ENV, raising=False)
    record = tmp_path / "challenges.sqlite3"
    first = receipts.load_secret(record)
    assert receipts.load_secret(record) == first and len(first) == 64
    path = receipts.secret_path(record)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    monkeypatch.setenv(receipts.SECRET_ENV, "the director's own secret")
    assert receipts.load_secret(record) == b"the director's own secret"


def test_lextools_receipt_verify_and_record(app: Flask, client: FlaskClient) -> None:
    _, answer = challenge(client, ["casa", "dame"])
    path = str(record_of(app).path)
    runner = CliRunner()
    ok = runner.invoke(cli, ["receipt", "verify", "--record", path], input=json.dumps(answer["receipt"]))
    assert ok.exit_code == 0, ok.output
    words = 'words as typed (control characters escaped): "casa" "dame"'
    assert ok.stdout.splitlines()[1:] == ["signed verdict: NOT ACCEPTABLE", words]
    forged = {**answer["receipt"], "acceptable": True}
    bad = runner.invoke(cli, ["receipt", "verify", "--record", path, json.dumps(forged)])
    assert bad.exit_code == 1 and "not valid" in bad.output
    malformed = runner.invoke(cli, ["receipt", "verify", "--record", path, "{"])
    assert malformed.exit_code == 2 and "not a receipt" in malformed.stderr and "not valid" not in malformed.stderr
    # The 8 characters a kiosk shows, where the receipt's JSON goes: exit 2, and the command that checks them.
    shown = answer["receipt"]["id"][:8]
    given = runner.invoke(cli, ["receipt", "verify", "--record", path, shown])
    assert given.exit_code == 2 and f"lextools receipt verify --id {shown}" in given.stderr

    # Elsewhere (no secret beside the record, none in the environment): an error, and no secret made up.
    elsewhere = record_of(app).path.parent / "copy" / "challenges.sqlite3"
    elsewhere.parent.mkdir()
    elsewhere.write_bytes(record_of(app).path.read_bytes())
    lost = runner.invoke(cli, ["receipt", "verify", "--record", str(elsewhere)], input=json.dumps(answer["receipt"]))
    assert isinstance(lost.exception, RecordError) and "no server secret" in str(lost.exception)
    assert not receipts.secret_path(elsewhere).exists()

    shown = runner.invoke(cli, ["record", "--record", path, "--json"])
    assert shown.exit_code == 0 and json.loads(shown.stdout)["challenges"][0]["words"] == ["casa", "dame"]
    csv = runner.invoke(cli, ["record", "--record", path, "--csv", "--since", "2000-01-01"])
    r = answer["receipt"]
    assert f"challenge record: {path}" in csv.stderr  # the file read, named apart from the CSV
    assert csv.stdout.splitlines() == [
        "id,time,edition,checksum,words,acceptable,signature",
        f"{r['id']},{r['time']},es-fise,{r['checksum']},casa dame,False,{r['signature']}",
    ]
    assert json.loads(shown.stdout)["challenges"][0]["signature"] == r["signature"]
    later = runner.invoke(cli, ["record", "--record", path, "--csv", "--since", "2999-01-01"])
    assert later.stdout.splitlines() == ["id,time,edition,checksum,words,acceptable,signature"]


def test_receipt_verify_by_id_reads_the_record_alone(app: Flask, client: FlaskClient) -> None:
    """``receipt verify --id`` and the 8 characters the judge shows: the record's row against the
    signature kept beside it; 1 once the row is edited, 3 for an id the record has not, 2 for what
    is no id or names several challenges."""
    answers = [challenge(client, words)[1]["receipt"] for words in (["casa", "dame"], ["casa"], ["cosa"])]
    path = str(record_of(app).path)
    runner = CliRunner()

    def verify(*args: str) -> Result:
        return runner.invoke(cli, ["receipt", "verify", "--record", path, *args])

    first = answers[0]
    for given in (first["id"][:8], first["id"], first["id"][:8].upper(), f" {first['id'][:8]} "):
        ok = verify("--id", given)
        assert ok.exit_code == 0, ok.output
        assert ok.stdout.splitlines() == [
            f"valid: challenge {first['id']} at {first['time']}, es-fise (lexicon {first['checksum'][:12]})",
            "signed verdict: NOT ACCEPTABLE",
            'words as typed (control characters escaped): "casa" "dame"',
        ]
    absent = verify("--id", "0" * 32 if not first["id"].startswith("0" * 8) else "f" * 32)
    assert absent.exit_code == 3 and "not found: no challenge of id" in absent.stderr
    for not_an_id in ("b7b6-202a", "xyz", "", "0" * 33):
        refused = verify("--id", not_an_id)
        assert refused.exit_code == 2 and "is not the start of a receipt id" in refused.stderr, not_an_id
    both = verify("--id", first["id"][:8], json.dumps(first))
    assert both.exit_code == 2 and "give a receipt or --id, not both" in both.output
    # The record edited after the game: the verdict flipped in the row, its signature kept.
    with sqlite3.connect(path) as db:
        db.execute("UPDATE challenges SET acceptable = 1 WHERE id = ?", (first["id"],))
    altered = verify("--id", first["id"][:8])
    assert altered.exit_code == 1
    assert "does not match the signature kept with it: the record was altered" in altered.stderr
    assert verify("--id", answers[1]["id"][:8]).exit_code == 0  # the other rows still verify


def test_an_id_prefix_of_several_challenges_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = ChallengeRecord(tmp_path / "challenges.sqlite3")
    secret = receipts.load_secret(record.path)
    ids = iter(["ab12cd34" + "0" * 24, "ab12cd35" + "0" * 24, "ab12ff00" + "1" * 24])
    monkeypatch.setattr(record_module.secrets, "token_hex", lambda n: next(ids))  # the ids the record draws
    for words in (["casa"], ["cosa"], ["dame"]):
        record.add("es-fise", "0" * 64, words, True, client="t", rate=10, secret=secret)
    runner = CliRunner()
    several = runner.invoke(cli, ["receipt", "verify", "--record", str(record.path), "--id", "ab12"])
    assert several.exit_code == 2
    (line,) = several.stderr.splitlines()[1:]  # after the record's name
    assert line.startswith("ab12 starts the ids of several challenges: ab12cd34" + "0" * 24 + " (20")  # not "not valid"
    assert line.endswith("; give more of the id") and line.count(" (20") == 3
    assert record.verify_id("ab12cd", secret).status == "ambiguous"
    assert record.verify_id("ab12cd35", secret).ok and record.verify_id("AB12F", secret).ok


# -- the route's limits -----------------------------------------------------------------------------


def test_only_input_no_board_could_hold_is_refused(app: Flask, client: FlaskClient) -> None:
    """More than 8 words, a word of more than 60 characters, a body no play needs: 4xx, not recorded."""
    assert challenge(client, ["casa"] * MAX_WORDS)[0] == 200
    status, body = challenge(client, ["casa"] * (MAX_WORDS + 1))
    assert status == 413 and body["error"]["code"] == "too_many_words"
    for word in ("a" * (MAX_WORD_CHARS + 1), "[CH]" * 16, "ANTICONSTITUCIONAL" * 6):  # 61, 64, 108 characters
        status, body = challenge(client, ["casa", word])
        assert status == 400 and body["error"]["code"] == "word_too_long", word
        assert body["error"]["message"].startswith(f"una palabra de más de {MAX_WORD_CHARS} caracteres: ningún tablero")
    assert challenge(client, ["[LL]" * 15])[0] == 200  # 15 tiles in 60 characters: a word the board holds
    padded = json.dumps({"words": ["casa"], "padding": " " * MAX_BODY})  # a body no play needs
    assert client.post(CHALLENGE, data=padded, content_type="application/json").status_code == 413
    assert len(recorded(app)) == 2


@pytest.mark.parametrize(
    ("words", "why"),
    [
        (["ANTICONSTITUCIONAL"], "18 tiles: longer than the board"),
        (["a" * 16], "16 tiles"),
        (["[LL]" * 14 + "CHA"], "16 tiles in 59 characters, brackets and plain"),
        (["a" * MAX_WORD_CHARS], "60 tiles in 60 characters: the longest word still judged"),
        (["casa", "rock-and-roll"], "a hyphen: the edition cannot spell it"),
        (["casa", "c4sa"], "a digit that names no tile"),
        (["kilo"], "K: a letter es-fise has no tile for"),
        (["casa", "KILO"], "K, upper case, beside an acceptable word"),
    ],
)
def test_a_word_the_board_cannot_hold_is_not_acceptable(
    app: Flask, client: FlaskClient, words: list[str], why: str
) -> None:
    """Too long for the board, unspellable, a tile the edition lacks: a verdict, recorded and signed."""
    status, answer = challenge(client, words)
    assert status == 200, (why, answer)
    assert answer["acceptable"] is False and answer["ruling"]["play_stands"] is False
    assert "results" not in answer  # blind by default
    [entry] = recorded(app)
    assert entry["words"] == words and entry["acceptable"] is False and entry["id"] == answer["receipt"]["id"]
    receipt = receipts.Receipt(**answer["receipt"])
    assert receipt.acceptable is False
    assert record_of(app).verify(receipt.text(), receipts.load_secret(record_of(app).path)).ok


def test_more_than_10_challenges_a_second_is_429_and_the_record_growth_is_bounded(
    lexicon_home: Path, tmp_path: Path
) -> None:
    app = create_app({"LEXICONS": lexicon_home, "RECORD": tmp_path / "r.sqlite3"})
    clock = Clock()
    record_of(app).clock = clock
    client = app.test_client()
    biggest = ["[LL]" * 15] * MAX_WORDS  # the largest play the route takes
    statuses = [client.post(CHALLENGE, json={"words": biggest}).status_code for _ in range(50)]
    assert statuses == [200] * CHALLENGE_RATE + [429] * (50 - CHALLENGE_RATE)
    assert len(recorded(app)) == CHALLENGE_RATE
    # Another client is not held back by the first one.
    other = client.post(CHALLENGE, json={"words": ["casa"]}, environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert other.status_code == 200
    # A second later the first client is served again.
    clock.now += 1.01
    assert client.post(CHALLENGE, json={"words": biggest}).status_code == 200

    # 20 seconds of a client sending faster than it may: the record holds at most 10 challenges a
    # second, so it grows by a bounded number of bytes, whatever the client sends.
    path = record_of(app).path
    before = record_bytes(path)
    sent = 0
    for _ in range(20):
        clock.now += 1.0
        for _ in range(13):
            client.post(CHALLENGE, json={"words": biggest})
            sent += 1
    after = record_bytes(path)
    rows = len(recorded(app))
    assert rows == CHALLENGE_RATE + 2 + 20 * CHALLENGE_RATE < sent
    per_row = (after - before) / (20 * CHALLENGE_RATE)
    print(f"record growth: {per_row:.0f} bytes per challenge, {rows} rows for {sent} sent")
    assert per_row < 2 * len(json.dumps(biggest)) + 400, per_row  # words, ids, checksum, index entries


def test_a_refused_challenge_is_not_recorded(app: Flask, client: FlaskClient) -> None:
    body = json.dumps({"words": ["casa"]})
    # A web page elsewhere: a "simple" cross-site POST (text/plain needs no preflight).
    r = client.post(CHALLENGE, data=body, headers={"Content-Type": "text/plain", "Origin": "https://evil.example"})
    assert r.status_code == 403 and r.json["error"]["code"] == "foreign_origin"
    r = client.post(CHALLENGE, data=body, headers={"Content-Type": "application/json", "Origin": "null"})
    assert r.status_code == 403
    # Without an Origin (curl, a form in the same page would send one), the type still has to be JSON.
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        r = client.post(CHALLENGE, data=body, headers={"Content-Type": content_type})
        assert r.status_code == 415 and r.json["error"]["code"] == "unsupported_media_type"
    assert recorded(app) == []
    # The page's own origin is served.
    r = client.post(CHALLENGE, data=body, headers={"Content-Type": "application/json", "Origin": "http://localhost"})
    assert r.status_code == 200 and len(recorded(app)) == 1


# -- the director's route ---------------------------------------------------------------------------


def test_the_record_route_needs_the_director_token(lexicon_home: Path, tmp_path: Path) -> None:
    off = create_app({"LEXICONS": lexicon_home, "RECORD": tmp_path / "r.sqlite3", "DIRECTOR_TOKEN": None})
    assert off.test_client().get("/v1/record").status_code == 404
    app = create_app(
        {"LEXICONS": lexicon_home, "RECORD": tmp_path / "r.sqlite3", "DIRECTOR_TOKEN": "t0ken-of-this-test"}
    )
    client = app.test_client()
    assert client.get("/v1/record", headers={"Authorization": "Bearer t0ken-of-this-test"}).json == {"challenges": []}
    challenge(client, ["casa"])
    assert client.get("/v1/record").status_code == 401
    assert client.get("/v1/record", headers={"Authorization": "Bearer wrong"}).status_code == 401
    r = client.get("/v1/record", headers={"Authorization": "Bearer t0ken-of-this-test"})
    assert r.status_code == 200 and [e["words"] for e in r.json["challenges"]] == [["casa"]]
    csv = client.get("/v1/record?format=csv&since=2000-01-01", headers={"Authorization": "Bearer t0ken-of-this-test"})
    assert csv.mimetype == "text/csv" and csv.get_data(as_text=True).count("\r\n") == 2


def test_the_director_token_comes_from_the_environment(
    lexicon_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEXTOOLS_DIRECTOR_TOKEN", "from-the-environment")
    client = create_app({"LEXICONS": lexicon_home, "RECORD": tmp_path / "r.sqlite3"}).test_client()
    assert client.get("/v1/record", headers={"Authorization": "Bearer from-the-environment"}).status_code == 200


def test_serve_refuses_a_record_it_cannot_write(lexicon_home: Path, tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    cmd = [sys.executable, "-c", "from lextools.cli.main import main; main()", "serve", "--port", "0",
           "--lexicons", str(lexicon_home), "--record", str(tmp_path / "a-file" / "challenges.sqlite3")]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stderr.startswith("error: cannot open the challenge record")
    assert len(done.stderr.strip().splitlines()) == 1


def test_revealed_results_say_why_a_word_cannot_be(client: FlaskClient) -> None:
    """Off a kiosk, ``reveal: true`` gives each word's result, the board's limit and the missing tile included."""
    r = client.post(CHALLENGE, json={"words": ["casa", "anticonstitucional", "kilo"], "reveal": True})
    assert r.status_code == 200 and r.json["acceptable"] is False
    assert [x["valid"] for x in r.json["results"]] == [True, False, False]
    assert "15" in r.json["results"][1]["reason"] and "K" in r.json["results"][2]["reason"]


def test_a_kiosk_answer_is_blind_whatever_the_request_asks(lexicon_home: Path, tmp_path: Path) -> None:
    app = create_app({"LEXICONS": lexicon_home, "RECORD": tmp_path / "r.sqlite3", "KIOSK": "es-fise"})
    client = app.test_client()
    r = client.post(CHALLENGE, json={"words": ["casa", "dame"], "reveal": True})
    assert r.status_code == 200
    assert set(r.json) == {"edition", "words", "acceptable", "ruling", "receipt"} and r.json["acceptable"] is False
    text = r.get_data(as_text=True)
    assert not any(said in text.lower() for said in ("results", "valid", "reason", "index", "dame", "casa"))
    assert client.post(CHALLENGE, json={"words": ["casa"], "reveal": "yes"}).status_code == 400  # still checked
    assert [e["words"] for e in recorded(app)] == [["casa", "dame"]]  # the record keeps the words


# -- a record written before the record kept signatures -------------------------------------------

#: The record's tables as lextools wrote them before version 2 (user_version 0, no signature column).
VERSION_0 = """
CREATE TABLE IF NOT EXISTS challenges (
    id TEXT PRIMARY KEY, time TEXT NOT NULL, edition TEXT NOT NULL, checksum TEXT NOT NULL,
    words TEXT NOT NULL, acceptable INTEGER NOT NULL, client TEXT NOT NULL, at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS challenges_client_at ON challenges (client, at);
CREATE INDEX IF NOT EXISTS challenges_time ON challenges (time);
"""


def test_an_old_record_is_migrated_in_place(tmp_path: Path) -> None:
    """Its rows stay, readable, with "no signature kept"; the receipts the players kept still verify;
    the challenges judged from then on keep their signature."""
    path = tmp_path / "challenges.sqlite3"
    secret = receipts.load_secret(path)
    old_id = "c0ffee00" + "1" * 24
    old = receipts.issue(secret, old_id, "2026-11-30T09:15:00.000Z", "es-fise", "0" * 64, ["casa", "dame"], False)
    with sqlite3.connect(path) as db:
        db.executescript(VERSION_0)
        db.execute(
            "INSERT INTO challenges VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (old.id, old.time, "es-fise", "0" * 64, '["casa", "dame"]', 0, "10.0.0.7", 1.0),
        )
    db.close()
    path.chmod(0o600)

    runner = CliRunner()
    shown = runner.invoke(cli, ["record", "--record", str(path), "--json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["challenges"] == [
        {"id": old.id, "time": old.time, "edition": "es-fise", "checksum": "0" * 64, "words": ["casa", "dame"],
         "acceptable": False, "signature": None}
    ]  # fmt: skip
    with sqlite3.connect(path) as db:  # migrated in place by that first reading, its row kept
        assert db.execute("PRAGMA user_version").fetchone() == (RECORD_VERSION,)
        assert [c[1] for c in db.execute("PRAGMA table_info(challenges)")][-2:] == ["signature", "request_key"]
        assert db.execute("SELECT client, signature, request_key FROM challenges").fetchall() == [
            ("10.0.0.7", None, None)
        ]
    db.close()

    unsigned = runner.invoke(cli, ["receipt", "verify", "--record", str(path), "--id", "c0ffee00"])
    assert unsigned.exit_code == 2
    assert "no signature kept for challenge " + old.id in unsigned.stderr
    kept = runner.invoke(cli, ["receipt", "verify", "--record", str(path), old.text()])  # the players' receipt
    assert kept.exit_code == 0 and "signed verdict: NOT ACCEPTABLE" in kept.stdout
    assert runner.invoke(cli, ["record", "--record", str(path), "--csv"]).stdout.splitlines()[1].endswith(",False,")

    record = ChallengeRecord(path)
    new = record.add("es-fise", "0" * 64, ["cosa"], True, client="t", rate=10, secret=secret)
    assert record.get(new.id)["signature"] == new.signature
    assert record.verify_id(new.id[:8], secret).ok
    assert [e["signature"] for e in record.entries()] == [None, new.signature]


def test_a_record_of_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "challenges.sqlite3"
    ChallengeRecord(path).create()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {RECORD_VERSION + 1}")
    db.close()
    shown = CliRunner().invoke(cli, ["record", "--record", str(path)])
    assert isinstance(shown.exception, RecordError)
    newer = f"is of version {RECORD_VERSION + 1}, newer than this lextools reads ({RECORD_VERSION})"
    assert newer in str(shown.exception)


def test_a_play_sent_again_under_its_key_gets_the_receipt_it_got(app: Flask, client: FlaskClient) -> None:
    """A proxy that sends a challenge again after its replica died mid-answer (or the judge page sending
    a play again after the network failed) gets the first answer, recorded once."""
    first, answer = challenge(client, ["casa", "dame"], **{"Idempotency-Key": "play-0001-table-7"})
    again, same = challenge(client, ["casa", "dame"], **{"Idempotency-Key": "play-0001-table-7"})
    assert first == again == 200 and same["receipt"] == answer["receipt"] and same["acceptable"] is False
    assert [e["id"] for e in recorded(app)] == [answer["receipt"]["id"]]
    other, refused = challenge(client, ["cosa"], **{"Idempotency-Key": "play-0001-table-7"})
    assert other == 400 and "Idempotency-Key" in refused["error"]["message"]
    for bad in ("short", "x" * 65, "with space", "ñandú-key"):
        status, body = challenge(client, ["casa"], **{"Idempotency-Key": bad})
        assert status == 400 and body["error"]["code"] == "bad_request", bad
    assert len(recorded(app)) == 1  # nothing refused was recorded


def test_a_version_2_record_gains_the_key_column(tmp_path: Path) -> None:
    path = tmp_path / "challenges.sqlite3"
    secret = receipts.load_secret(path)
    with sqlite3.connect(path) as db:
        db.executescript(VERSION_0)
        db.execute("ALTER TABLE challenges ADD COLUMN signature TEXT")
        db.execute("PRAGMA user_version = 2")
    db.close()
    record = ChallengeRecord(path)
    kept = record.add("es-fise", "0" * 64, ["casa"], True, client="t", rate=10, secret=secret, key="k" * 8)
    assert record.add("es-fise", "0" * 64, ["casa"], True, client="t", rate=10, secret=secret, key="k" * 8) == kept
    assert len(record.entries()) == 1
