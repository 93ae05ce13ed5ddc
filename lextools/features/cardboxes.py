"""The cardboxes kept by sync code (the study page's, service/api/cardboxes.py), and where they are kept:
a SQLite file beside the challenge record (:class:`Cardboxes`, one machine) or the database replicas
share (:class:`PostgresCardboxes`), so that a code made through one replica is read through another.

Each request counts against its client's rate (``rate`` a minute). The store is bounded so that no
client, nor many, can fill the disk or lock new players out for good (:class:`Bounds`): at most
``client_count`` cardboxes and ``client_bytes`` bytes made by one client — a client is an IPv4 address
or an IPv6 /64 (:func:`client_group`: one host of IPv6 has millions of addresses) —, and at most
``most`` cardboxes and ``total_bytes`` bytes in all. A cardbox neither read nor written for
:data:`EXPIRY_DAYS` days is deleted: lazily by every write, before the bounds are counted, and by
:meth:`CardboxStore.sweep` (``lextools cardboxes sweep``), so a store full of abandoned cardboxes makes
room by itself; only a store full of cardboxes in use refuses a new one (503 ``sync_full``, with
``Retry-After`` the time until its least recently used one expires).

A cardbox's version is its :func:`etag` (a digest of the text kept): a replacement names the version
it was made from (``If-Match``) and is refused (:class:`StaleCardbox`) when the store holds another,
in the same transaction as the write, so a stale device never overwrites newer progress.

A store that cannot answer now (a lock another program holds on the file, a database that is down) is a
:class:`~lextools.core.errors.BusyError`, the service's 503 ``busy``. The SQLite file is opened with no
busy timeout — SQLite would wait for a lock inside its C code, holding the worker's every request —
and a locked file is tried again after short ``time.sleep`` pauses (gevent's workers serve other
requests meanwhile) for at most :data:`LOCK_WAIT` seconds, as the challenge record does.
"""

from __future__ import annotations

import hashlib
import ipaddress
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from lextools.core.errors import BusyError, LexiconError
from lextools.core.messages import message
from lextools.features.postgres import Database, DatabaseError, SharedHits
from lextools.features.record import while_locked

#: Seconds a request waits for its worker's turn and the file's lock, then 503 ``busy``: the challenge
#: record's wait. The wait sleeps in Python, so it costs the worker's other requests nothing; on a
#: machine at load 15, 1 MiB cardboxes written by 32 clients waited over 1 s for their turn (a worker
#: reading another 1 MiB body serves nothing else meanwhile).
LOCK_WAIT = 2.0
#: The pauses between two tries of a locked file (doubling from the first up to the last).
#: Crockford's base32: no I, L, O or U, so a code read aloud or copied by hand is not mistaken.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Characters of a code: 5 bits each, 100 bits in all.
CODE_LENGTH = 20
#: The window of the per-client rate, in seconds.
RATE_WINDOW = 60.0
#: Days after which a cardbox neither read nor written is deleted (docs/study.md).
EXPIRY_DAYS = 180
EXPIRY_SECONDS = EXPIRY_DAYS * 86_400.0
#: A read moves a cardbox's expiry on only when its last use is older than this (a read is not a write).
TOUCH_EVERY = 3600.0
#: The longest ``Retry-After`` of a full store (its oldest cardbox may expire months from now).
MOST_RETRY_AFTER = 86_400

#: The SQLite file's schema version (``PRAGMA user_version``); version 0 is the file before the bounds.
SQLITE_VERSION = 1
_SQLITE_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS cardboxes (code TEXT PRIMARY KEY, body TEXT NOT NULL, updated REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS hits (client TEXT NOT NULL, at REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS hits_client_at ON hits (client, at)",
    # Version 1: when each cardbox was last used, who made it, and its size in bytes — before the body,
    # so reading them never walks a 1 MiB body's overflow pages (the table is made again in that order).
    "CREATE TABLE cardboxes_v1 (code TEXT PRIMARY KEY, touched REAL NOT NULL, client TEXT NOT NULL, "
    "bytes INTEGER NOT NULL, updated REAL NOT NULL, body TEXT NOT NULL)",
    "INSERT INTO cardboxes_v1 SELECT code, updated, '', length(CAST(body AS BLOB)), updated, body FROM cardboxes",
    "DROP TABLE cardboxes",
    "ALTER TABLE cardboxes_v1 RENAME TO cardboxes",
    "CREATE INDEX cardboxes_touched ON cardboxes (touched)",
    "CREATE INDEX cardboxes_client ON cardboxes (client, bytes)",
)

T = TypeVar("T")
#: A store's ``execute`` inside a bounded write: SQL with ``?`` placeholders, its parameters; a cursor.
Execute = Callable[..., Any]


class TooManySyncs(LexiconError, code="too_many_syncs"):
    """A client asked for cardboxes more often than ``rate`` a minute."""


class UnknownSyncCode(LexiconError, code="unknown_sync_code"):
    """No cardbox is kept under this code."""


class CardboxesFull(BusyError, code="sync_full"):
    """The store holds as many cardboxes (or bytes) as it may, even once the expired ones are gone."""


class ClientQuota(LexiconError, code="sync_quota"):
    """The client (an IPv4 address, an IPv6 /64) keeps as many cardboxes or bytes as one client may."""


class StaleCardbox(LexiconError, code="sync_stale"):
    """A replacement made from another version than the one kept (``If-Match``)."""


@dataclass(frozen=True)
class Bounds:
    """What a store may hold: in all (``most`` cardboxes, ``total_bytes``) and per client."""

    most: int
    total_bytes: int
    client_count: int
    client_bytes: int
    expiry: float = EXPIRY_SECONDS


@dataclass(frozen=True)
class Saved:
    """A cardbox as a write left it: its code, when (epoch seconds) and its version."""

    code: str
    updated: float
    etag: str


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def etag(body: str) -> str:
    """The version of a cardbox's text, as the ``ETag`` header gives it (a strong validator)."""
    return '"' + hashlib.sha256(body.encode("utf-8")).hexdigest()[:32] + '"'


def client_group(address: str) -> str:
    """The client a store counts by: an IPv4 address as it is, an IPv6 address by its /64 (one
    subscriber's network; its other 2^64 addresses are the same client); anything else as given."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _full(oldest: float | None, bounds: Bounds, now: float) -> CardboxesFull:
    """The refusal of a full store, to ask again when its least recently used cardbox expires."""
    error = CardboxesFull(message("sync_full"))
    wait = (oldest + bounds.expiry - now) if oldest is not None else MOST_RETRY_AFTER
    error.retry_after = int(min(max(wait, 60), MOST_RETRY_AFTER))
    return error


def _quota(bounds: Bounds) -> ClientQuota:
    return ClientQuota(message("sync_quota", count=bounds.client_count, mib=bounds.client_bytes // 2**20))


#: A cardbox as a store keeps it: code, body (the export's compact JSON text), updated (epoch seconds).
Kept = tuple[str, str, float]
#: What a write reads of the store before it decides: (count, bytes) of the client and of all, and the
#: least recently used cardbox's last use (None: none kept).
Usage = tuple[int, int, int, int, float | None]


def _admit(usage: Usage, grow: int, new: bool, bounds: Bounds, now: float) -> None:
    """Refuse a write that would take the client or the store over its bounds (``grow`` bytes more)."""
    client_count, client_bytes, count, total, oldest = usage
    if client_count + new > bounds.client_count or client_bytes + grow > bounds.client_bytes:
        raise _quota(bounds)
    if count + new > bounds.most or total + grow > bounds.total_bytes:
        raise _full(oldest, bounds, now)


class CardboxStore:
    """What every store of cardboxes does. ``clock`` (seconds since the epoch) is injectable."""

    where: Any
    clock: Callable[[], float]

    def hit(self, client: str, rate: int) -> None:
        """Count a request of ``client``; :class:`TooManySyncs` when it made ``rate`` in the last minute."""
        raise NotImplementedError

    def get(self, code: str) -> tuple[str, float] | None:
        """The body and time of the cardbox kept under ``code`` (its use moves its expiry on)."""
        raise NotImplementedError

    def create(self, body: str, client: str, bounds: Bounds) -> Saved:
        """Keep ``body`` under a new code made by ``client``: :class:`ClientQuota` beyond the client's
        bounds, :class:`CardboxesFull` beyond the store's once the expired cardboxes are deleted."""
        now, size = self.clock(), len(body.encode("utf-8"))
        with self._bounded(bounds.expiry, now) as execute:
            _admit(_usage(execute, client), size, True, bounds, now)
            code = new_code()
            execute(
                "INSERT INTO cardboxes (code, body, updated, touched, client, bytes) VALUES (?, ?, ?, ?, ?, ?)",
                (code, body, now, now, client, size),
            )
        return Saved(code, now, etag(body))

    def replace(self, code: str, body: str, expected: Collection[str] | None, bounds: Bounds) -> Saved:
        """Replace the cardbox kept under ``code`` when its version is one of ``expected`` (None: any);
        :class:`UnknownSyncCode`, :class:`StaleCardbox`, or the bounds' refusals when it grows."""
        now, size = self.clock(), len(body.encode("utf-8"))
        with self._bounded(bounds.expiry, now) as execute:
            row = execute("SELECT body, bytes, client FROM cardboxes WHERE code = ?", (code,)).fetchone()
            if row is None:
                raise UnknownSyncCode(message("sync_unknown"))
            if expected is not None and etag(row[0]) not in expected:
                raise StaleCardbox(message("sync_stale"))
            if size > row[1]:
                _admit(_usage(execute, str(row[2])), size - row[1], False, bounds, now)
            execute(
                "UPDATE cardboxes SET body = ?, updated = ?, touched = ?, bytes = ? WHERE code = ?",
                (body, now, now, size, code),
            )
        return Saved(code, now, etag(body))

    def _bounded(self, expiry: float, now: float) -> AbstractContextManager[Execute]:
        """A write transaction, one at a time (the bounds are counted and kept within it), the cardboxes
        not used for ``expiry`` seconds deleted first: its ``execute`` takes SQL with ``?`` placeholders."""
        raise NotImplementedError

    def sweep(self, expiry: float = EXPIRY_SECONDS) -> int:
        """Delete every cardbox neither read nor written for ``expiry`` seconds; how many were."""
        raise NotImplementedError

    def all(self) -> list[Kept]:
        """Every cardbox: what an export copies."""
        raise NotImplementedError

    def insert(self, kept: list[Kept]) -> int:
        """Add another store's cardboxes, those whose code this one has not (how many were new); each
        counts as used now, made by no client."""
        raise NotImplementedError


def _usage(execute: Execute, client: str) -> Usage:
    """What a write counts before it decides, each from an index (never a cardbox's body): the
    client's cardboxes and bytes, all of them, and the least recently used one's last use."""
    mine = execute("SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM cardboxes WHERE client = ?", (client,))
    every = execute("SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM cardboxes", ())
    (oldest,) = execute("SELECT MIN(touched) FROM cardboxes", ()).fetchone()
    (count, total), (client_count, client_bytes) = every.fetchone(), mine.fetchone()
    return int(client_count), int(client_bytes), int(count), int(total), oldest


class Cardboxes(CardboxStore):
    """The SQLite file of the cardboxes; each call opens its own connection (threads, forked workers)."""

    def __init__(self, path: Path, clock: Any = time.time, lock_wait: float = LOCK_WAIT) -> None:
        self.path = Path(path)
        self.where = self.path
        self.clock = clock
        self.lock_wait = lock_wait
        self._current = False  # the file's schema was checked (and migrated) by this process
        # One writer at a time in this process (a gevent worker's greenlets queue here, in turn,
        # rather than race each other for the file's lock in sleeps): made after gevent's patching.
        self._writer = threading.Lock()

    def _retry(self, attempt: Callable[[], T], deadline: float | None = None) -> T:
        """``attempt()``, tried again while another process holds the file's lock, until ``deadline``
        (``time.monotonic()``; default ``lock_wait`` seconds from now; :func:`~lextools.features.record.while_locked`);
        then 503 ``busy``."""
        deadline = time.monotonic() + self.lock_wait if deadline is None else deadline
        return while_locked(attempt, deadline, BusyError(message("busy_cardbox")))

    def _connect(self) -> sqlite3.Connection:
        """A connection with no busy timeout (see the module), its schema brought to this version."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=0, isolation_level=None)
        try:
            db.execute("PRAGMA busy_timeout=0")
            self._retry(lambda: db.execute("PRAGMA journal_mode=WAL"))
            if not self._current:
                self._retry(lambda: db.execute("BEGIN IMMEDIATE"))
                (version,) = db.execute("PRAGMA user_version").fetchone()
                if version < SQLITE_VERSION:
                    _ensure_old_schema(db)
                    for statement in _SQLITE_SCHEMA[3:]:
                        db.execute(statement)
                    db.execute(f"PRAGMA user_version = {SQLITE_VERSION}")
                db.execute("COMMIT")
                self._current = True
        except BaseException:
            db.close()
            raise
        return db

    @contextmanager
    def _session(self) -> Iterator[sqlite3.Connection]:
        """A connection for one request's work; a lock another process holds is a 503 ``busy``."""
        try:
            db = self._connect()
        except sqlite3.OperationalError:
            raise BusyError(message("busy_cardbox")) from None
        try:
            yield db
        except sqlite3.OperationalError:
            raise BusyError(message("busy_cardbox")) from None
        finally:
            db.close()

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``): this process's turn, then the file's lock, both
        within ``lock_wait`` seconds. A refusal of lextools raised inside still commits what came
        before it (the expired cardboxes deleted)."""
        deadline = time.monotonic() + self.lock_wait
        if not self._writer.acquire(timeout=self.lock_wait):
            raise BusyError(message("busy_cardbox"))
        try:
            with self._session() as db:
                self._retry(lambda: db.execute("BEGIN IMMEDIATE"), deadline)
                try:
                    yield db
                except LexiconError:
                    db.execute("COMMIT")
                    raise
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                db.execute("COMMIT")
        finally:
            self._writer.release()

    def hit(self, client: str, rate: int) -> None:
        now = self.clock()
        with self._writing() as db:
            db.execute("DELETE FROM hits WHERE at < ?", (now - RATE_WINDOW,))
            (count,) = db.execute("SELECT COUNT(*) FROM hits WHERE client = ?", (client,)).fetchone()
            if count >= rate:
                raise TooManySyncs(message("sync_rate", rate=rate))
            db.execute("INSERT INTO hits VALUES (?, ?)", (client, now))

    def get(self, code: str) -> tuple[str, float] | None:
        now = self.clock()
        with self._session() as db:
            row = self._retry(
                lambda: db.execute("SELECT body, updated, touched FROM cardboxes WHERE code = ?", (code,)).fetchone()
            )
            if row is not None and row[2] < now - TOUCH_EVERY:
                self._retry(lambda: db.execute("UPDATE cardboxes SET touched = ? WHERE code = ?", (now, code)))
        return None if row is None else (str(row[0]), float(row[1]))

    @contextmanager
    def _bounded(self, expiry: float, now: float) -> Iterator[Execute]:
        with self._writing() as db:
            db.execute("DELETE FROM cardboxes WHERE touched < ?", (now - expiry,))
            yield db.execute

    def sweep(self, expiry: float = EXPIRY_SECONDS) -> int:
        with self._writing() as db:
            deleted: int = db.execute("DELETE FROM cardboxes WHERE touched < ?", (self.clock() - expiry,)).rowcount
        return deleted

    def all(self) -> list[Kept]:
        with self._session() as db:
            rows = self._retry(
                lambda: db.execute("SELECT code, body, updated FROM cardboxes ORDER BY updated, code").fetchall()
            )
        return [(str(code), str(body), float(updated)) for code, body, updated in rows]

    def insert(self, kept: list[Kept]) -> int:
        now = self.clock()
        rows = [(code, body, updated, now, "", len(body.encode("utf-8"))) for code, body, updated in kept]
        with self._writing() as db:
            before = db.total_changes
            db.executemany(
                "INSERT OR IGNORE INTO cardboxes (code, body, updated, touched, client, bytes) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )
            added = db.total_changes - before
        return added


def _ensure_old_schema(db: sqlite3.Connection) -> None:
    """The version-0 tables, for a new file (an old one has them already)."""
    for statement in _SQLITE_SCHEMA[:3]:
        db.execute(statement)


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
        now = self.clock()
        with self._session() as conn:
            row = conn.execute("SELECT body, updated, touched FROM cardboxes WHERE code = %s", (code,)).fetchone()
            if row is not None and row[2] < now - TOUCH_EVERY:
                conn.execute("UPDATE cardboxes SET touched = %s WHERE code = %s", (now, code))
        return None if row is None else (str(row[0]), float(row[1]))

    @contextmanager
    def _writing(self, expiry: float, now: float) -> Iterator[Any]:
        """A write transaction, one at a time (the bounds are counted and kept within it), the expired
        cardboxes deleted first. A refusal of lextools inside rolls it all back (the next write deletes them)."""
        with self._session() as conn:
            conn.execute("LOCK TABLE cardboxes IN SHARE ROW EXCLUSIVE MODE")
            conn.execute("DELETE FROM cardboxes WHERE touched < %s", (now - expiry,))
            yield conn

    @contextmanager
    def _bounded(self, expiry: float, now: float) -> Iterator[Execute]:
        with self._writing(expiry, now) as conn:
            yield lambda sql, params=(): conn.execute(sql.replace("?", "%s"), params)

    def sweep(self, expiry: float = EXPIRY_SECONDS) -> int:
        with self._session() as conn:
            deleted: int = conn.execute("DELETE FROM cardboxes WHERE touched < %s", (self.clock() - expiry,)).rowcount
        return deleted

    def all(self) -> list[Kept]:
        with self._session() as conn:
            rows = conn.execute("SELECT code, body, updated FROM cardboxes ORDER BY updated, code").fetchall()
        return [(str(code), str(body), float(updated)) for code, body, updated in rows]

    def insert(self, kept: list[Kept]) -> int:
        now = self.clock()
        rows = [(code, body, updated, now, "", len(body.encode("utf-8"))) for code, body, updated in kept]
        with self._session() as conn, conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO cardboxes (code, body, updated, touched, client, bytes) VALUES (%s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (code) DO NOTHING",
                rows,
            )
            added: int = max(cursor.rowcount, 0)
        return added
