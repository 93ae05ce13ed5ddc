"""The cardboxes kept by sync code (the study page's, service/api/cardboxes.py), and where they are kept:
a SQLite file beside the challenge record (:class:`Cardboxes`, one machine) or the database replicas
share (:class:`PostgresCardboxes`), so that a code made through one replica is read through another.

Each request counts against its client's rate (``rate`` a minute); a store holds at most ``most``
cardboxes. A store that cannot answer now (a lock another program holds on the file, a database that is
down) is a :class:`~lextools.core.errors.BusyError`, the service's 503 ``busy``.
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lextools.core.errors import BusyError, LexiconError
from lextools.core.messages import message
from lextools.features.postgres import Database, DatabaseError, SharedHits

#: Seconds a request waits for a lock on the file another process holds, then 503 ``busy``.
LOCK_WAIT = 0.2
#: Crockford's base32: no I, L, O or U, so a code read aloud or copied by hand is not mistaken.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Characters of a code: 5 bits each, 100 bits in all.
CODE_LENGTH = 20
#: The window of the per-client rate, in seconds.
RATE_WINDOW = 60.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS cardboxes (code TEXT PRIMARY KEY, body TEXT NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS hits (client TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS hits_client_at ON hits (client, at);
"""


class TooManySyncs(LexiconError, code="too_many_syncs"):
    """A client asked for cardboxes more often than ``rate`` a minute."""


class UnknownSyncCode(LexiconError, code="unknown_sync_code"):
    """No cardbox is kept under this code."""


class CardboxesFull(LexiconError, code="sync_full"):
    """The store holds as many cardboxes as it may."""


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


#: A cardbox as a store keeps it: code, body (the export's compact JSON text), updated (epoch seconds).
Kept = tuple[str, str, float]


class CardboxStore:
    """What every store of cardboxes does. ``clock`` (seconds since the epoch) is injectable."""

    where: Any

    def hit(self, client: str, rate: int) -> None:
        """Count a request of ``client``; :class:`TooManySyncs` when it made ``rate`` in the last minute."""
        raise NotImplementedError

    def get(self, code: str) -> tuple[str, float] | None:
        raise NotImplementedError

    def put(self, code: str | None, body: str, most: int) -> tuple[str, float]:
        """Store ``body`` under ``code`` (None: a new code); :class:`UnknownSyncCode` for a code that is
        not kept, :class:`CardboxesFull` for a new one beyond ``most``."""
        raise NotImplementedError

    def all(self) -> list[Kept]:
        """Every cardbox: what an export copies."""
        raise NotImplementedError

    def insert(self, kept: list[Kept]) -> int:
        """Add another store's cardboxes, those whose code this one has not (how many were new)."""
        raise NotImplementedError


class Cardboxes(CardboxStore):
    """The SQLite file of the cardboxes; each call opens its own connection (threads, forked workers)."""

    def __init__(self, path: Path, clock: Any = time.time) -> None:
        self.path = Path(path)
        self.where = self.path
        self.clock = clock

    def _connect(self) -> sqlite3.Connection:
        """A connection that waits for a lock at most ``LOCK_WAIT`` s: SQLite waits inside C, which
        would stall the worker's every request (the challenge record's lesson)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = sqlite3.connect(self.path, timeout=LOCK_WAIT, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)
        except sqlite3.OperationalError:
            raise BusyError(message("busy_cardbox")) from None
        return db

    @contextmanager
    def _session(self) -> Iterator[sqlite3.Connection]:
        """A connection for one request's work; a lock another process holds is a 503 ``busy``."""
        db = self._connect()
        try:
            yield db
        except sqlite3.OperationalError:
            raise BusyError(message("busy_cardbox")) from None
        finally:
            db.close()

    def hit(self, client: str, rate: int) -> None:
        now = self.clock()
        with self._session() as db:
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM hits WHERE at < ?", (now - RATE_WINDOW,))
            (count,) = db.execute("SELECT COUNT(*) FROM hits WHERE client = ?", (client,)).fetchone()
            if count >= rate:
                db.execute("COMMIT")
                raise TooManySyncs(message("sync_rate", rate=rate))
            db.execute("INSERT INTO hits VALUES (?, ?)", (client, now))
            db.execute("COMMIT")

    def get(self, code: str) -> tuple[str, float] | None:
        with self._session() as db:
            row = db.execute("SELECT body, updated FROM cardboxes WHERE code = ?", (code,)).fetchone()
        return None if row is None else (str(row[0]), float(row[1]))

    def put(self, code: str | None, body: str, most: int) -> tuple[str, float]:
        now = self.clock()
        with self._session() as db:
            db.execute("BEGIN IMMEDIATE")
            if code is None:
                (count,) = db.execute("SELECT COUNT(*) FROM cardboxes").fetchone()
                if count >= most:
                    db.execute("COMMIT")
                    raise CardboxesFull(message("sync_full"))
                code = new_code()
                db.execute("INSERT INTO cardboxes VALUES (?, ?, ?)", (code, body, now))
            elif not db.execute(
                "UPDATE cardboxes SET body = ?, updated = ? WHERE code = ?", (body, now, code)
            ).rowcount:
                db.execute("COMMIT")
                raise UnknownSyncCode(message("sync_unknown"))
            db.execute("COMMIT")
        return code, now

    def all(self) -> list[Kept]:
        with self._session() as db:
            rows = db.execute("SELECT code, body, updated FROM cardboxes ORDER BY updated, code").fetchall()
        return [(str(code), str(body), float(updated)) for code, body, updated in rows]

    def insert(self, kept: list[Kept]) -> int:
        with self._session() as db:
            db.execute("BEGIN IMMEDIATE")
            before = db.total_changes
            db.executemany("INSERT OR IGNORE INTO cardboxes VALUES (?, ?, ?)", kept)
            added = db.total_changes - before
            db.execute("COMMIT")
        return added


class PostgresCardboxes(CardboxStore):
    """The cardboxes in the database replicas share; the rate counted there too, under a lock per
    client, so it holds across workers and replicas."""

    def __init__(self, database: Database, clock: Any = time.time) -> None:
        self.database = database
        self.where = database.where
        self.clock = clock

    @contextmanager
    def _session(self) -> Iterator[Any]:
        """A transaction; a database that is down is a 503 ``busy`` (the look-ups carry on)."""
        try:
            with self.database.transaction() as conn:
                yield conn
        except DatabaseError as e:  # the service answers 503 busy; a command names the database and why
            raise BusyError(message("busy_cardbox_database", cause=str(e))) from None

    def hit(self, client: str, rate: int) -> None:
        try:
            counted = SharedHits(self.database).count_in("cardbox", client, rate, RATE_WINDOW, self.clock())
        except DatabaseError as e:  # the service answers 503 busy; a command names the database and why
            raise BusyError(message("busy_cardbox_database", cause=str(e))) from None
        if not counted:
            raise TooManySyncs(message("sync_rate", rate=rate))

    def get(self, code: str) -> tuple[str, float] | None:
        with self._session() as conn:
            row = conn.execute("SELECT body, updated FROM cardboxes WHERE code = %s", (code,)).fetchone()
        return None if row is None else (str(row[0]), float(row[1]))

    def put(self, code: str | None, body: str, most: int) -> tuple[str, float]:
        now = self.clock()
        with self._session() as conn:
            if code is None:
                conn.execute("LOCK TABLE cardboxes IN SHARE ROW EXCLUSIVE MODE")  # the count holds till the insert
                (count,) = conn.execute("SELECT COUNT(*) FROM cardboxes").fetchone()
                if count >= most:
                    raise CardboxesFull(message("sync_full"))
                code = new_code()
                conn.execute("INSERT INTO cardboxes VALUES (%s, %s, %s)", (code, body, now))
            elif not conn.execute(
                "UPDATE cardboxes SET body = %s, updated = %s WHERE code = %s", (body, now, code)
            ).rowcount:
                raise UnknownSyncCode(message("sync_unknown"))
        return code, now

    def all(self) -> list[Kept]:
        with self._session() as conn:
            rows = conn.execute("SELECT code, body, updated FROM cardboxes ORDER BY updated, code").fetchall()
        return [(str(code), str(body), float(updated)) for code, body, updated in rows]

    def insert(self, kept: list[Kept]) -> int:
        with self._session() as conn, conn.cursor() as cursor:
            cursor.executemany("INSERT INTO cardboxes VALUES (%s, %s, %s) ON CONFLICT (code) DO NOTHING", kept)
            added: int = max(cursor.rowcount, 0)
        return added
