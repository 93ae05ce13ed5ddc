"""The cardbox store bounded and safe (issue 33 rows 7-10), on both stores — the SQLite file and a real
PostgreSQL server (tests/postgres.py): the format checked on every write (version 2, version 1 still
taken) with any JSON a store cannot keep a 400; the version (``ETag``) on every answer and ``If-Match``
required on a replacement (412 stale, 428 missing); the bounds per client (an IPv6 /64 is one client)
and in all, with cardboxes unused for 180 days deleted so a full store makes room; and the SQLite lock
waited for in Python sleeps, never inside SQLite's C code."""

from __future__ import annotations

import copy
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from flask.testing import FlaskClient
from typer.testing import CliRunner

from lextools.cli.main import app as cli
from lextools.core.errors import BusyError
from lextools.features import cardbox_format, cardboxes, postgres
from lextools.features.cardbox_format import CardboxRefused, checked_cardbox
from lextools.features.cardboxes import (
    EXPIRY_SECONDS,
    Bounds,
    Cardboxes,
    CardboxesFull,
    CardboxStore,
    ClientQuota,
    PostgresCardboxes,
    StaleCardbox,
    UnknownSyncCode,
    client_group,
    etag,
)
from lextools.features.postgres import Database
from service import create_app

DAY = 86_400.0
NOW = 1_800_000_000.0
LIVE = {
    "id": "es-fise|anagram|AEINRS",
    "deck": "es-fise|anagram",
    "edition": "es-fise",
    "type": "anagram",
    "question": {"id": "AEINRS", "rack": "AEINRS", "answers": [{"word": "ARENIS"}]},
    "right": 2,
    "wrong": 1,
    "last": 1_764_547_200_000,
    "due": 1_764_633_600_000,
    "changed": 1_764_547_200_000,
    "scheduler": "leitner",
    "box": 3,
}
FSRS = {
    **{k: v for k, v in LIVE.items() if k != "box"},
    "id": "es-fise|anagram|ACEINRS",
    "question": {"id": "ACEINRS"},
    "scheduler": "fsrs",
    "fsrs": {"stability": 3.2, "difficulty": 5.1, "state": 2, "reps": 4, "lapses": 0, "scheduled_days": 3,
             "elapsed_days": 1, "learning_steps": 0, "last_review": 1_764_547_200_000},
}  # fmt: skip
TOMBSTONE = {"id": "es-fise|anagram|ADEINRS", "deck": "es-fise|anagram", "changed": 1_764_547_300_000, "deleted": True}
V2 = {"format": "lextools-cardbox", "version": 2, "exported": "2026-12-01T00:00:00Z", "cards": [LIVE, FSRS, TOMBSTONE]}
V1_CARD = {"id": "es-fise|anagram|AEINRS", "deck": "es-fise|anagram", "edition": "es-fise", "type": "anagram",
           "question": {"id": "AEINRS"}, "box": 2, "due": 5, "right": 1, "wrong": 0, "last": 4}  # fmt: skip
V1 = {"format": "lextools-cardbox", "version": 1, "exported": "2026-12-01T00:00:00Z", "cards": [V1_CARD]}
JSON = {"Content-Type": "application/json"}


class Clock:
    """Seconds since the epoch, moved on by the test: no test sleeps."""

    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.slow)])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture()
def url(kind: str, request: pytest.FixtureRequest) -> str | None:
    """The test's own PostgreSQL database for the postgres runs, else None (the SQLite file)."""
    return str(request.getfixturevalue("database_url")) if kind == "postgres" else None


@pytest.fixture()
def clock() -> Clock:
    return Clock()


@pytest.fixture()
def store(url: str | None, tmp_path: Path, clock: Clock) -> Iterator[CardboxStore]:
    if url is None:
        yield Cardboxes(tmp_path / "cardboxes.sqlite3", clock=clock)
        return
    database = Database(url)
    yield PostgresCardboxes(database, clock=clock)
    database.close()


def app_client(lexicon_home: Path, tmp_path: Path, url: str | None, **config: Any) -> FlaskClient:
    app = create_app(
        {"LEXICONS": lexicon_home, "TESTING": True, "RECORD": tmp_path / "r.sqlite3", "DATABASE": url, **config}
    )
    return app.test_client()


def text(box: dict[str, Any]) -> str:
    return checked_cardbox(box)


# -- the format ------------------------------------------------------------------------------------------


def test_both_versions_are_taken_and_kept_as_compact_text() -> None:
    assert json.loads(checked_cardbox(V2)) == V2
    assert json.loads(checked_cardbox(V1)) == V1
    assert checked_cardbox({"format": "lextools-cardbox", "cards": []})  # a version-1 file had no version


def broken(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    box = copy.deepcopy(V2)
    where: Any = box
    for step in path[:-1]:
        where = where[step]
    if value is KeyError:
        del where[path[-1]]
    else:
        where[path[-1]] = value
    return box


@pytest.mark.parametrize(
    ("box", "said"),
    [
        (broken(("version",), 3), "version"),
        (broken(("cards", 0, "changed"), KeyError), "card 0 of the cardbox is damaged: changed"),
        (broken(("cards", 0, "changed"), -1), "changed"),
        (broken(("cards", 0, "box"), 16), "box"),
        (broken(("cards", 0, "scheduler"), "sm2"), "scheduler"),
        (broken(("cards", 0, "deck"), "es-fise|build"), "id"),
        (broken(("cards", 0, "edition"), "fr-fisf"), "deck"),
        (broken(("cards", 1, "fsrs", "stability"), "3"), "card 1 of the cardbox is damaged: fsrs.stability"),
        (broken(("cards", 1, "fsrs", "last_review"), KeyError), "fsrs.last_review"),
        (broken(("cards", 2, "box"), 1), "card 2 of the cardbox is damaged: deleted"),  # a tombstone is bare
        (broken(("cards", 2, "id"), LIVE["id"]), "card 2 of the cardbox is damaged: id"),  # one card per id
        (broken(("cards", 0, "id"), "es-fise|anagram|" + "A" * 200), "id"),
        (broken(("cards", 0, "question", "answers"), [[[[[[[[["deep"]]]]]]]]]), "levels deep"),
        (broken(("cards", 0, "due"), float("nan")), "NaN"),
        (broken(("cards", 0, "right"), 2**60), "2^53"),
        (broken(("cards", 0, "question", "id"), "A\x00"), "NUL"),
        (broken(("cards", 0, "question", "id"), "\ud800"), "lone surrogate"),
        (broken(("cards",), {"0": LIVE}), "not a cardbox"),
    ],
)
def test_what_is_not_the_format_is_refused_saying_what(box: dict[str, Any], said: str) -> None:
    with pytest.raises(CardboxRefused, match=said.replace("^", r"\^")):
        checked_cardbox(box)


def test_a_cardbox_holds_at_most_max_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cardbox_format, "MAX_CARDS", 2)
    with pytest.raises(CardboxRefused, match="at most 2 cards"):
        checked_cardbox(V2)


@pytest.mark.parametrize(
    "body",
    [
        '{"cardbox": {"format": "lextools-cardbox", "version": 2, "cards": [], "note": "\\ud800"}}',
        '{"cardbox": {"format": "lextools-cardbox", "version": 2, "cards": [], "note": "\\udfff\\ud800"}}',
        '{"cardbox": {"format": "lextools-cardbox", "version": 2, "cards": [], "note": "a\\u0000b"}}',
        '{"cardbox": {"format": "lextools-cardbox", "version": 2, "cards": [], "note": NaN}}',
        '{"cardbox": {"format": "lextools-cardbox", "version": 2, "cards": [], "n": ' + "[" * 40 + "]" * 40 + "}}",
        '{"cardbox": {"format": "lextools-cardbox", "version": 2, "cards": [], "n": ' + "[" * 9000 + "]" * 9000 + "}}",
        '{"cardbox": {"format": "lextools-cardbox", "version": 2, "cards": [], "n": 1' + "0" * 5000 + "}}",
    ],
)
def test_json_a_store_cannot_keep_is_a_400_on_both_stores(
    lexicon_home: Path, tmp_path: Path, url: str | None, body: str
) -> None:
    client = app_client(lexicon_home, tmp_path, url)
    made = client.post("/v1/cardbox", json={"cardbox": V2})
    for answer in (
        client.post("/v1/cardbox", data=body, headers=JSON),
        client.put(f"/v1/cardbox/{made.get_json()['code']}", data=body, headers={**JSON, "If-Match": "*"}),
    ):
        assert answer.status_code == 400, answer.get_data(as_text=True)
        assert set(answer.get_json()) == {"error"} and answer.get_json()["error"]["code"] == "bad_request"
    assert client.get(f"/v1/cardbox/{made.get_json()['code']}").get_json()["cardbox"] == V2  # left as it was


# -- versions: ETag and If-Match -------------------------------------------------------------------------


def test_a_stale_replacement_is_refused_and_loses_nothing(lexicon_home: Path, tmp_path: Path, url: str | None) -> None:
    client = app_client(lexicon_home, tmp_path, url)
    made = client.post("/v1/cardbox", json={"cardbox": V1})
    code, first = made.get_json()["code"], made.headers["ETag"]
    assert first == etag(text(V1))
    assert client.get(f"/v1/cardbox/{code}").headers["ETag"] == first
    missing = client.put(f"/v1/cardbox/{code}", json={"cardbox": V2})
    assert missing.status_code == 428 and missing.get_json()["error"]["code"] == "if_match_required"
    phone = client.put(f"/v1/cardbox/{code}", json={"cardbox": V2}, headers={"If-Match": first})
    assert phone.status_code == 200 and phone.headers["ETag"] == etag(text(V2)) != first
    desktop = client.put(f"/v1/cardbox/{code}", json={"cardbox": V1}, headers={"If-Match": first})
    assert desktop.status_code == 412 and desktop.get_json()["error"]["code"] == "sync_stale"
    weak = client.put(f"/v1/cardbox/{code}", json={"cardbox": V1}, headers={"If-Match": "W/" + phone.headers["ETag"]})
    assert weak.status_code == 412  # If-Match compares strongly
    read = client.get(f"/v1/cardbox/{code}")
    assert read.get_json()["cardbox"] == V2 and read.headers["ETag"] == phone.headers["ETag"]  # the phone's kept
    either = f'"nothing", {phone.headers["ETag"]}'
    assert client.put(f"/v1/cardbox/{code}", json={"cardbox": V1}, headers={"If-Match": either}).status_code == 200
    assert client.put(f"/v1/cardbox/{code}", json={"cardbox": V2}, headers={"If-Match": "*"}).status_code == 200
    unknown = client.put("/v1/cardbox/" + "0" * 20, json={"cardbox": V2}, headers={"If-Match": first})
    assert unknown.status_code == 404


def test_the_store_checks_the_version_in_the_write(store: CardboxStore) -> None:
    bounds = Bounds(most=10, total_bytes=10**6, client_count=10, client_bytes=10**6)
    saved = store.create(text(V1), "192.0.2.1", bounds)
    store.replace(saved.code, text(V2), {saved.etag}, bounds)
    with pytest.raises(StaleCardbox):
        store.replace(saved.code, text(V1), {saved.etag}, bounds)
    with pytest.raises(UnknownSyncCode):
        store.replace("0" * 20, text(V1), None, bounds)
    assert store.get(saved.code) == (text(V2), NOW)


# -- bounds and expiry -----------------------------------------------------------------------------------


def test_an_ipv6_client_is_its_slash_64() -> None:
    assert client_group("2001:db8:1:2:aaaa::1") == client_group("2001:db8:1:2:ffff:1:2:3") == "2001:db8:1:2::/64"
    assert client_group("2001:db8:1:3::1") == "2001:db8:1:3::/64"
    assert client_group("192.0.2.7") == client_group("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_group("unknown") == "unknown"


def test_the_bounds_per_client_and_in_all(lexicon_home: Path, tmp_path: Path, url: str | None) -> None:
    """Small limits through the app config: 2 cardboxes a client (every address of a /64), 3 in all."""
    client = app_client(lexicon_home, tmp_path, url, CARDBOX_CLIENT_COUNT=2, CARDBOX_MAX_COUNT=3, CARDBOX_RATE=100)

    def post(address: str) -> Any:
        return client.post("/v1/cardbox", json={"cardbox": V2}, environ_base={"REMOTE_ADDR": address})

    assert [post(f"2001:db8:0:1::{i}").status_code for i in (1, 2)] == [201, 201]
    over = post("2001:db8:0:1:ffff::9")  # another address of the same /64: the same client
    assert over.status_code == 429 and over.get_json()["error"]["code"] == "sync_quota"
    assert post("2001:db8:0:2::1").status_code == 201  # another /64
    full = post("192.0.2.1")
    assert full.status_code == 503 and full.get_json()["error"]["code"] == "sync_full"
    assert 60 <= int(full.headers["Retry-After"]) <= cardboxes.MOST_RETRY_AFTER


def test_the_byte_bounds(store: CardboxStore) -> None:
    size = len(text(V2).encode())
    bounds = Bounds(most=100, total_bytes=3 * size, client_count=100, client_bytes=2 * size)
    codes = [store.create(text(V2), "a", bounds).code for _ in range(2)]
    with pytest.raises(ClientQuota):
        store.create(text(V2), "a", bounds)
    store.create(text(V2), "b", bounds)
    with pytest.raises(CardboxesFull):
        store.create(text(V1), "c", bounds)
    small = store.replace(codes[0], text(V1), None, bounds)  # smaller: always taken
    with pytest.raises(ClientQuota):  # growing back over the maker's bytes is not
        store.replace(codes[0], text({**V2, "exported": "x" * 60}), {small.etag}, bounds)


def test_unused_cardboxes_expire_so_a_full_store_makes_room(store: CardboxStore, clock: Clock) -> None:
    bounds = Bounds(most=2, total_bytes=10**6, client_count=10, client_bytes=10**6)
    read, _expires = (store.create(text(V2), "a", bounds).code for _ in range(2))
    with pytest.raises(CardboxesFull) as full:
        store.create(text(V2), "b", bounds)
    assert full.value.retry_after == cardboxes.MOST_RETRY_AFTER  # the oldest expires in 180 days
    clock.now += 100 * DAY
    assert store.get(read) is not None  # a read is a use: it moves the expiry on
    clock.now += 81 * DAY  # 181 days after both were made, 81 after the read
    made = store.create(text(V2), "b", bounds)  # the write deletes the expired one first
    assert {code for code, _, _ in store.all()} == {read, made.code}
    clock.now += 100 * DAY
    assert store.get(made.code) is not None
    clock.now += 81 * DAY  # 181 days after the read, 81 after made was read
    assert store.sweep(EXPIRY_SECONDS) == 1
    assert {code for code, _, _ in store.all()} == {made.code}


def test_lextools_cardboxes_sweep(tmp_path: Path) -> None:
    path = tmp_path / "cardboxes.sqlite3"
    bounds = Bounds(most=5, total_bytes=10**6, client_count=5, client_bytes=10**6)
    Cardboxes(path).create(text(V1), "a", bounds)
    Cardboxes(path, clock=lambda: time.time() - EXPIRY_SECONDS - 60).create(text(V1), "a", bounds)
    assert len(Cardboxes(path).all()) == 2
    done = CliRunner().invoke(cli, ["cardboxes", "sweep", "--cardboxes", str(path)])
    assert done.exit_code == 0, done.output
    assert "deleted 1 cardboxes" in done.output and len(Cardboxes(path).all()) == 1


def test_an_old_cardbox_file_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "cardboxes.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE cardboxes (code TEXT PRIMARY KEY, body TEXT NOT NULL, updated REAL NOT NULL);"
        "CREATE TABLE hits (client TEXT NOT NULL, at REAL NOT NULL);"
    )
    db.execute("INSERT INTO cardboxes VALUES (?, ?, ?)", ("A" * 20, text(V1), NOW - 10))
    db.commit()
    db.close()
    store = Cardboxes(path, clock=lambda: NOW)
    assert store.get("A" * 20) == (text(V1), NOW - 10)
    bounds = Bounds(most=5, total_bytes=10**6, client_count=5, client_bytes=10**6)
    assert store.replace("A" * 20, text(V2), {etag(text(V1))}, bounds).etag == etag(text(V2))
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT bytes, touched FROM cardboxes").fetchone() == (len(text(V2).encode()), NOW)
        assert db.execute("PRAGMA user_version").fetchone() == (cardboxes.SQLITE_VERSION,)


# -- the SQLite lock: waited for in Python ---------------------------------------------------------------


def test_a_held_lock_is_waited_for_in_python_sleeps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's own busy timeout waits inside C (a gevent worker's every request stalls): the store opens
    with none and pauses in ``time.sleep``, which gevent's workers patch, until its budget is spent."""
    store = Cardboxes(tmp_path / "cardboxes.sqlite3", clock=lambda: NOW, lock_wait=0.05)
    bounds = Bounds(most=5, total_bytes=10**6, client_count=5, client_bytes=10**6)
    code = store.create(text(V1), "a", bounds).code
    pauses: list[float] = []
    real_sleep = cardboxes.time.sleep
    monkeypatch.setattr(cardboxes.time, "sleep", lambda s: (pauses.append(s), real_sleep(s)))
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(BusyError):
            store.replace(code, text(V2), None, bounds)
        assert len(pauses) >= 2 and all(p <= 0.02 for p in pauses)
        assert store.get(code) == (text(V1), NOW)  # a read of WAL is not stopped by the writer
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    db = store._connect()
    assert db.execute("PRAGMA busy_timeout").fetchone() == (0,)  # SQLite itself never waits
    db.close()
    assert store.replace(code, text(V2), None, bounds).etag == etag(text(V2))


@pytest.mark.slow
def test_a_version_2_database_is_migrated(database_url: str) -> None:
    """The cardboxes a database of schema version 2 holds get their use, maker and size (version 3)."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for step in (1, 2):
            for statement in postgres.MIGRATIONS[step]:
                conn.execute(statement)
        conn.execute("INSERT INTO schema_version VALUES (2)")
        conn.execute("INSERT INTO cardboxes VALUES (%s, %s, %s)", ("A" * 20, text(V1), NOW - 10))
    database = Database(database_url)
    try:
        store = PostgresCardboxes(database, clock=lambda: NOW)
        assert store.get("A" * 20) == (text(V1), NOW - 10)
        with database.transaction() as conn:
            row = conn.execute("SELECT touched, client, bytes FROM cardboxes").fetchone()
            version = conn.execute("SELECT version FROM schema_version").fetchone()
        assert row == (NOW - 10, "", len(text(V1).encode())) and version == (postgres.SCHEMA_VERSION,)
    finally:
        database.close()
