"""The shared store on a real PostgreSQL server (tests/postgres.py): the challenge record, the
cardboxes and the counters of two apps (two replicas) on one database, the schema's versions, a
database that goes down and comes back, the copies between SQLite and PostgreSQL, and the clients
behind trusted proxies."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from flask import Flask
from typer.testing import CliRunner

from lextools.cli.main import app as cli
from lextools.core.errors import QueryError, RateLimitError, RecordError
from lextools.features import postgres
from lextools.features.cardboxes import Bounds, Cardboxes, PostgresCardboxes, TooManySyncs
from lextools.features.postgres import SCHEMA_VERSION, Database
from lextools.features.receipts import SECRET_ENV
from lextools.features.record import ChallengeRecord
from lextools.features.record_postgres import PostgresRecord
from lextools.features.stores import copy_cardboxes, copy_record, database_url
from service import create_app
from tests.postgres import PostgresServer

pytestmark = pytest.mark.slow

DIRECTOR = "director-token-0123456789abcdef"
CARD = {"id": "es-fise|anagram|AACS", "deck": "es-fise|anagram", "question": {"id": "AACS"}, "box": 1, "due": 0}
CARDBOX = {"format": "lextools-cardbox", "version": 1, "cards": [CARD]}


@pytest.fixture(autouse=True)
def _no_env_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SECRET_ENV, raising=False)
    monkeypatch.delenv(postgres.DATABASE_ENV, raising=False)


def replica(lexicon_home: Path, tmp_path: Path, url: str, name: str, **config: Any) -> Flask:
    """An app as one replica runs it: its own directory for files, the shared database for state."""
    here = tmp_path / name
    app = create_app(
        {
            "LEXICONS": lexicon_home,
            "TESTING": True,
            "RECORD": here / "challenges.sqlite3",
            "DATABASE": url,
            "DIRECTOR_TOKEN": DIRECTOR,
            **config,
        }
    )
    with app.app_context():
        from service.judge import record_access

        record_access.record().prepare()
    return app


def challenge(app: Flask, words: list[str], addr: str = "10.0.0.1", forwarded: str | None = None) -> Any:
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return app.test_client().post(
        "/v1/es-fise/challenge", json={"words": words}, headers=headers, environ_base={"REMOTE_ADDR": addr}
    )


#: Opens a database by its URL (the ``databases`` fixture).
Opener = Callable[[str], Database]


@pytest.fixture()
def databases() -> Iterator[Opener]:
    """Databases a test opens, closed when it ends: a pool left to the garbage collector may be
    collected in one of its own threads, which cannot join itself (psycopg_pool then warns)."""
    opened: list[Database] = []

    def opening(url: str) -> Database:
        opened.append(Database(url))
        return opened[-1]

    yield opening
    for database in opened:
        database.close()


def test_the_schema_is_made_once_and_versioned(database_url: str, databases: Opener) -> None:
    databases(database_url).prepare()
    databases(database_url).prepare()  # a second replica starting: nothing to do
    with psycopg.connect(database_url) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
        tables = {r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
    assert {"challenges", "cardboxes", "hits", "server_secret", "schema_version"} <= tables


def test_a_newer_schema_is_refused(database_url: str, databases: Opener) -> None:
    databases(database_url).prepare()
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION + 1,))
    with pytest.raises(RecordError, match="newer than this lextools"):
        databases(database_url).prepare()


def test_two_replicas_share_one_record(lexicon_home: Path, tmp_path: Path, database_url: str) -> None:
    a = replica(lexicon_home, tmp_path, database_url, "a")
    b = replica(lexicon_home, tmp_path, database_url, "b")
    first = challenge(a, ["CASA"]).get_json()["receipt"]
    second = challenge(b, ["ZZZQ"]).get_json()["receipt"]
    assert first["signature"] and second["signature"]
    auth = {"Authorization": f"Bearer {DIRECTOR}"}
    for app in (a, b):  # one history, whichever replica judged
        rows = app.test_client().get("/v1/record", headers=auth).get_json()["challenges"]
        assert [r["id"] for r in rows] == [first["id"], second["id"]]
        assert [r["acceptable"] for r in rows] == [True, False]
        csv_text = app.test_client().get("/director/record.csv", headers=auth).get_data(as_text=True)
        assert first["id"] in csv_text and second["id"] in csv_text
    # the receipt of one replica verifies with the other's record (one secret, kept in the database)
    with b.app_context():
        from service.judge import record_access

        assert record_access.record().verify(json.dumps(first), record_access.secret()).ok
    assert not (tmp_path / "a" / "challenges.sqlite3").exists()  # nothing kept in a replica's files


def test_a_play_sent_again_to_the_other_replica_is_recorded_once(
    lexicon_home: Path, tmp_path: Path, database_url: str
) -> None:
    """What nginx does when a replica dies after recording a challenge and before answering it: the same
    request, under the same Idempotency-Key, to the other replica, which answers with that receipt."""
    a = replica(lexicon_home, tmp_path, database_url, "a")
    b = replica(lexicon_home, tmp_path, database_url, "b")
    key = {"Idempotency-Key": "3f1c9a7e5b2d4c68"}
    first = a.test_client().post("/v1/es-fise/challenge", json={"words": ["CASA"]}, headers=key).get_json()
    again = b.test_client().post("/v1/es-fise/challenge", json={"words": ["CASA"]}, headers=key).get_json()
    assert again["receipt"] == first["receipt"] and again["acceptable"] is True
    other = b.test_client().post("/v1/es-fise/challenge", json={"words": ["COSA"]}, headers=key)
    assert other.status_code == 400
    with a.app_context():
        from service.judge import record_access

        assert [e["id"] for e in record_access.record().entries()] == [first["receipt"]["id"]]


def test_the_challenge_rate_holds_across_replicas(
    lexicon_home: Path, tmp_path: Path, database_url: str, databases: Opener
) -> None:
    now = [1_000_000.0]
    record_a = PostgresRecord(databases(database_url), clock=lambda: now[0])
    record_b = PostgresRecord(databases(database_url), clock=lambda: now[0])
    record_a.prepare()
    key = record_a.secret()
    for i in range(10):
        (record_a if i % 2 else record_b).add("es-fise", "c", ["CASA"], True, "10.0.0.9", 10, key)
    with pytest.raises(RateLimitError):
        record_b.add("es-fise", "c", ["CASA"], True, "10.0.0.9", 10, key)
    record_a.add("es-fise", "c", ["CASA"], True, "10.0.0.10", 10, key)  # another client is not limited
    now[0] += 1.01
    record_b.add("es-fise", "c", ["CASA"], True, "10.0.0.9", 10, key)  # the next second
    assert len(record_a.entries()) == 12


def test_cardboxes_are_shared(lexicon_home: Path, tmp_path: Path, database_url: str) -> None:
    a = replica(lexicon_home, tmp_path, database_url, "a")
    b = replica(lexicon_home, tmp_path, database_url, "b")
    made = a.test_client().post("/v1/cardbox", json={"cardbox": CARDBOX})
    assert made.status_code == 201
    code = made.get_json()["code"]
    assert b.test_client().get(f"/v1/cardbox/{code}").get_json()["cardbox"] == CARDBOX
    changed = {**CARDBOX, "cards": [{**CARD, "box": 2}]}
    version = {"If-Match": made.headers["ETag"]}
    assert b.test_client().put(f"/v1/cardbox/{code}", json={"cardbox": changed}, headers=version).status_code == 200
    stale = a.test_client().put(f"/v1/cardbox/{code}", json={"cardbox": CARDBOX}, headers=version)
    assert stale.status_code == 412  # the version is checked in the database every replica shares
    assert a.test_client().get(f"/v1/cardbox/{code}").get_json()["cardbox"] == changed
    assert b.test_client().get("/v1/cardbox/" + "0" * 20).status_code == 404


def test_the_cardbox_rate_counts_every_replica(lexicon_home: Path, tmp_path: Path, database_url: str) -> None:
    a = replica(lexicon_home, tmp_path, database_url, "a", CARDBOX_RATE=4)
    b = replica(lexicon_home, tmp_path, database_url, "b", CARDBOX_RATE=4)
    codes = [(a if i % 2 else b).test_client().get("/v1/cardbox/" + "0" * 20).status_code for i in range(5)]
    assert codes == [404, 404, 404, 404, 429]
    other = a.test_client().get("/v1/cardbox/" + "0" * 20, environ_base={"REMOTE_ADDR": "10.9.9.9"})
    assert other.status_code == 404


def test_the_director_lockout_holds_across_replicas_per_client(
    lexicon_home: Path, tmp_path: Path, database_url: str
) -> None:
    proxy = {"TRUSTED_PROXIES": ["127.0.0.1"]}
    a = replica(lexicon_home, tmp_path, database_url, "a", **proxy)
    b = replica(lexicon_home, tmp_path, database_url, "b", **proxy)

    def ask(app: Flask, token: str, client: str) -> int:
        headers = {"Authorization": f"Bearer {token}", "X-Forwarded-For": client}
        return app.test_client().get("/v1/record", headers=headers).status_code

    assert [ask(a if i % 2 else b, "wrong", "203.0.113.7") for i in range(10)] == [401] * 10
    assert ask(a, DIRECTOR, "203.0.113.7") == 429  # locked out, on both replicas
    assert ask(b, "wrong", "203.0.113.7") == 429
    assert ask(b, DIRECTOR, "203.0.113.8") == 200  # the director at another table is not


def test_trusted_proxies_name_the_client(lexicon_home: Path, tmp_path: Path, database_url: str) -> None:
    app = replica(lexicon_home, tmp_path, database_url, "a", TRUSTED_PROXIES=["127.0.0.1", "10.1.0.0/16"])
    with app.app_context():
        from service.judge import record_access

        record_access.record().clock = lambda: 1_800_000_000.0  # every challenge in the same second
    # 20 tables behind the proxy, each at 5 challenges: no 429
    statuses = [
        challenge(app, ["CASA"], addr="127.0.0.1", forwarded=f"198.51.100.{t}").status_code
        for _ in range(5)
        for t in range(20)
    ]
    assert set(statuses) == {200}
    # one table sending more than 10 in the second is limited, through a chain of trusted proxies too
    burst = [
        challenge(app, ["CASA"], addr="127.0.0.1", forwarded="192.0.2.1, 10.1.2.3").status_code for _ in range(12)
    ]
    assert burst == [200] * 10 + [429] * 2
    # a client the proxy does not vouch for is keyed on its own address, whatever it forwards
    spoofed = [
        challenge(app, ["CASA"], addr="203.0.113.50", forwarded=f"198.51.100.{i}").status_code for i in range(12)
    ]
    assert spoofed == [200] * 10 + [429] * 2
    with psycopg.connect(database_url) as conn:
        clients = {c for (c,) in conn.execute("SELECT DISTINCT client FROM challenges")}
    assert "203.0.113.50" in clients and "192.0.2.1" in clients and "127.0.0.1" not in clients
    assert not any(c.startswith("198.51.100.") and c not in {f"198.51.100.{t}" for t in range(20)} for c in clients)


def test_a_database_that_is_down_is_a_503_and_recovers(
    lexicon_home: Path, tmp_path: Path, postgres_server: PostgresServer, database_url: str
) -> None:
    app = replica(lexicon_home, tmp_path, database_url, "a")
    assert challenge(app, ["CASA"]).status_code == 200
    postgres_server.stop()
    try:
        started = time.monotonic()
        down = challenge(app, ["CASA"], addr="10.0.0.2")
        assert down.status_code == 503 and down.get_json()["error"]["code"] == "record_error"
        assert time.monotonic() - started < 2.0  # the bound: a down database is said quickly
        assert app.test_client().get("/v1/es-fise/words/CASA").status_code == 200  # look-ups carry on
        made = app.test_client().post("/v1/cardbox", json={"cardbox": CARDBOX})
        assert made.status_code == 503 and made.get_json()["error"]["code"] == "busy"
    finally:
        postgres_server.start()
    deadline = time.monotonic() + 15
    while (status := challenge(app, ["CASA"], addr="10.0.0.3").status_code) != 200 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert status == 200  # recorded again, with no restart of the app


def test_a_record_of_1000_challenges_moves_to_postgres_and_back(
    tmp_path: Path, database_url: str, databases: Opener
) -> None:
    now = [1_700_000_000.0]

    def clock() -> float:
        now[0] += 0.2
        return now[0]

    sqlite = ChallengeRecord(tmp_path / "challenges.sqlite3", clock=clock)
    sqlite.create()
    key = sqlite.secret()
    receipts = [
        sqlite.add("es-fise", "abc", [f"W{i}", "CASA"], i % 3 != 0, f"10.0.{i % 7}.1", 10, key) for i in range(1000)
    ]
    shared = PostgresRecord(databases(database_url))
    assert copy_record(sqlite, shared).added == 1000
    assert copy_record(sqlite, shared).added == 0  # again: nothing twice
    for receipt in receipts:
        assert shared.verify(receipt.text(), lambda: shared.secret(create=False)).ok
    back = ChallengeRecord(tmp_path / "back" / "challenges.sqlite3")
    assert copy_record(shared, back).added == 1000
    assert back.rows() == sqlite.rows()
    assert all(back.verify(r.text(), back.secret(create=False)).ok for r in receipts)


def test_an_import_refuses_a_database_with_another_secret(tmp_path: Path, database_url: str, databases: Opener) -> None:
    shared = PostgresRecord(databases(database_url))
    shared.prepare()  # the database makes its own secret
    sqlite = ChallengeRecord(tmp_path / "challenges.sqlite3")
    sqlite.add("es-fise", "abc", ["CASA"], True, "10.0.0.1", 10, sqlite.secret())
    with pytest.raises(RecordError, match="another server secret"):
        copy_record(sqlite, shared)


def test_the_commands_read_export_and_import(tmp_path: Path, database_url: str) -> None:
    sqlite = ChallengeRecord(tmp_path / "old" / "challenges.sqlite3")
    receipt = sqlite.add("es-fise", "abc", ["CASA"], True, "10.0.0.1", 10, sqlite.secret())
    runner = CliRunner()
    imported = runner.invoke(cli, ["record", "import", "--record", str(sqlite.path), "--database", database_url])
    assert imported.exit_code == 0, imported.output
    shown = runner.invoke(cli, ["record", "--json", "--database", database_url])
    assert shown.exit_code == 0
    assert [e["id"] for e in json.loads(shown.stdout)["challenges"]] == [receipt.id]
    verified = runner.invoke(cli, ["receipt", "verify", "--database", database_url, receipt.text()])
    assert verified.exit_code == 0, verified.output
    by_id = runner.invoke(cli, ["receipt", "verify", "--id", receipt.id[:8]], env={postgres.DATABASE_ENV: database_url})
    assert by_id.exit_code == 0, by_id.output
    out = tmp_path / "new" / "challenges.sqlite3"
    exported = runner.invoke(cli, ["record", "export", "--record", str(out), "--database", database_url])
    assert exported.exit_code == 0, exported.output
    again = runner.invoke(cli, ["receipt", "verify", "--record", str(out), receipt.text()])
    assert again.exit_code == 0, again.output
    refused = runner.invoke(cli, ["record", "import", "--record", str(sqlite.path)])
    assert isinstance(refused.exception, QueryError) and "--database" in str(refused.exception)  # main(): exit 2


def test_cardboxes_move_to_postgres_and_back(tmp_path: Path, database_url: str, databases: Opener) -> None:
    sqlite = Cardboxes(tmp_path / "cardboxes.sqlite3")
    bounds = Bounds(most=100, total_bytes=10**6, client_count=10, client_bytes=10**6)
    made = [sqlite.create(json.dumps({**CARDBOX, "n": i}), "192.0.2.1", bounds) for i in range(5)]
    runner = CliRunner()
    done = runner.invoke(cli, ["cardboxes", "import", "--cardboxes", str(sqlite.path), "--database", database_url])
    assert done.exit_code == 0, done.output
    shared = PostgresCardboxes(databases(database_url))
    assert [shared.get(saved.code) for saved in made] == [sqlite.get(saved.code) for saved in made]
    back = Cardboxes(tmp_path / "back.sqlite3")
    assert copy_cardboxes(shared, back).added == 5
    assert back.all() == sqlite.all()


def test_the_shared_cardbox_rate(database_url: str, databases: Opener) -> None:
    boxes = PostgresCardboxes(databases(database_url), clock=lambda: 5000.0)
    for _ in range(3):
        boxes.hit("10.0.0.1", 3)
    with pytest.raises(TooManySyncs):
        boxes.hit("10.0.0.1", 3)


def test_only_postgresql_urls_are_databases(monkeypatch: pytest.MonkeyPatch) -> None:
    assert database_url(None) is None
    monkeypatch.setenv(postgres.DATABASE_ENV, "postgresql://u@h/d")
    assert database_url(None) == "postgresql://u@h/d"
    with pytest.raises(Exception, match="not a PostgreSQL URL"):
        database_url("mysql://u:secret@h/d")
    assert postgres.shown_url("postgresql://u:secret@h:5/d") == "postgresql://u@h:5/d"
