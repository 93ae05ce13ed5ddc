"""The PostgreSQL database that several replicas of the service share: the challenge record, the
cardboxes, the receipts' secret and the counters behind rate limits and lock-outs.

A deployment of one machine keeps its state in SQLite files beside the lexicons (no server to run);
several machines behind a load balancer need one store they all see, so that a cardbox made through
one replica is read through another, every challenge is in one history, and a client's rate is counted
once however many workers and replicas it reaches. ``--database postgresql://…`` (or
``$LEXTOOLS_DATABASE_URL``) names it.

The schema is lextools's own, created and migrated by the first process that connects (under an
advisory lock, so replicas starting together migrate once); its version is the one row of
``schema_version`` (:data:`SCHEMA_VERSION`), and a database of a newer version is refused rather than
misread.

Each process keeps one small connection pool (psycopg_pool), made on its first use in that process:
gunicorn forks its workers from an arbiter that has already touched the database (to create the schema
and the secret), and a connection must never be shared across a fork, so the arbiter uses a connection
of its own that it closes (:meth:`Database.prepare`) and each worker opens its own pool. psycopg is
imported only when a database is used, after gunicorn's gevent workers have patched the standard
library: it then waits for the server through gevent's ``select``, so a query pauses its greenlet,
never the worker's other requests. A database that is down is a :class:`DatabaseError` within
:data:`POOL_WAIT` seconds (no connection in the pool by then), and every statement is cut at
:data:`STATEMENT_MS`; the pool keeps trying to reconnect, so a server started again serves the next
request with no restart of the service.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from lextools.core.errors import RecordError
from lextools.features.receipts import SECRET_ENV

#: The environment variable that names the shared database, when ``--database`` is not given.
DATABASE_ENV = "LEXTOOLS_DATABASE_URL"

#: The URL schemes of a PostgreSQL database.
SCHEMES = ("postgresql", "postgres")

#: Seconds a request waits for a connection from its process's pool before its answer is a 503:
#: with the 2 s the issue allows, a down server is said within it.
POOL_WAIT = 1.5
#: libpq's ``connect_timeout`` (whole seconds, at least 2): how long one connection attempt may take.
CONNECT_TIMEOUT = 2
#: The longest any statement of lextools runs (a lock held elsewhere, a server that hangs).
STATEMENT_MS = 1500
#: Seconds the pool's background attempts to replace a lost connection back off (1 s, 2 s, …) before
#: they give up; the next request then starts a new attempt at once. Short, so that a server down for
#: an hour is found again within seconds of its return, not after the hour-long pause a long back-off
#: would have reached.
RECONNECT_GIVE_UP = 5.0
#: Connections each process keeps: a gevent worker serves many requests, each holds one for a few ms.
POOL_MIN, POOL_MAX = 1, 4

#: The schema's version, kept in ``schema_version``; :data:`MIGRATIONS` brings a database to it.
SCHEMA_VERSION = 3

#: The statements that bring a database of version ``n - 1`` to version ``n``. Times are kept as the
#: SQLite record keeps them (ISO text for ``time``, seconds since the epoch for ``at``), so a row copied
#: between the two stores is the same row and its receipt's signature still holds.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        """CREATE TABLE challenges (
            id TEXT PRIMARY KEY,
            time TEXT NOT NULL,
            edition TEXT NOT NULL,
            checksum TEXT NOT NULL,
            words TEXT NOT NULL,
            acceptable BOOLEAN NOT NULL,
            client TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            signature TEXT
        )""",
        "CREATE INDEX challenges_client_at ON challenges (client, at)",
        "CREATE INDEX challenges_time ON challenges (time)",
        "CREATE TABLE cardboxes (code TEXT PRIMARY KEY, body TEXT NOT NULL, updated DOUBLE PRECISION NOT NULL)",
        "CREATE TABLE hits (kind TEXT NOT NULL, client TEXT NOT NULL, at DOUBLE PRECISION NOT NULL)",
        "CREATE INDEX hits_kind_client_at ON hits (kind, client, at)",
        "CREATE TABLE server_secret (one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), secret TEXT NOT NULL)",
    ),
    # The client's Idempotency-Key of a challenge: the request sent again is answered, not recorded twice.
    2: (
        "ALTER TABLE challenges ADD COLUMN request_key TEXT",
        "CREATE UNIQUE INDEX challenges_request_key ON challenges (request_key)",
    ),
    # The cardboxes' bounds (lextools/features/cardboxes.py): when each was last read or written (its
    # expiry), the client that made it (IPv4 address or IPv6 /64) and its size in bytes.
    3: (
        "ALTER TABLE cardboxes ADD COLUMN touched DOUBLE PRECISION",
        "ALTER TABLE cardboxes ADD COLUMN client TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE cardboxes ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0",
        "UPDATE cardboxes SET touched = updated, bytes = octet_length(body)",
        "ALTER TABLE cardboxes ALTER COLUMN touched SET NOT NULL",
        "CREATE INDEX cardboxes_touched ON cardboxes (touched)",
        "CREATE INDEX cardboxes_client ON cardboxes (client, bytes)",
    ),
}

#: The advisory lock key under which a process migrates the schema (any fixed 64-bit number).
_MIGRATION_LOCK = 0x6C6578746F6F6C73  # "lextools"


class DatabaseError(RecordError):
    """The shared database cannot be reached or refused a statement: the service's 503."""


def is_database_url(text: str | None) -> bool:
    return bool(text) and urlsplit(str(text)).scheme in SCHEMES


def shown_url(url: str) -> str:
    """The URL with no password, as messages and logs name it."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    where = f"{parts.username}@{host}" if parts.username else host
    if parts.port:
        where += f":{parts.port}"
    return urlunsplit((parts.scheme, where, parts.path, parts.query, parts.fragment))


class Database:
    """One PostgreSQL database, reached through a pool of this process's own (see the module)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.where = shown_url(url)
        self._pool: Any = None
        self._pid = 0
        self._current = False  # the schema was checked (and migrated) by this process
        self._lock = threading.Lock()

    def _connection_kwargs(self) -> dict[str, Any]:
        return {"connect_timeout": CONNECT_TIMEOUT, "options": f"-c statement_timeout={STATEMENT_MS}"}

    def _pool_here(self) -> Any:
        """This process's pool, made on its first use (after a fork, a new one: the inherited one's
        sockets are the parent's and are left alone)."""
        if self._pool is not None and self._pid == os.getpid():
            return self._pool
        # Lazy: psycopg must be imported after gevent's patching (its wait function is chosen then).
        from psycopg_pool import ConnectionPool  # noqa: PLC0415

        with self._lock:
            if self._pool is None or self._pid != os.getpid():
                self._pool = ConnectionPool(
                    self.url,
                    min_size=POOL_MIN,
                    max_size=POOL_MAX,
                    timeout=POOL_WAIT,
                    kwargs={**self._connection_kwargs(), "autocommit": True},
                    check=ConnectionPool.check_connection,
                    reconnect_timeout=RECONNECT_GIVE_UP,
                    open=False,
                    name="lextools",
                )
                self._pool.open(wait=False)
                self._pid = os.getpid()
                self._current = False
        return self._pool

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """A connection in one transaction (committed when the block ends, rolled back when it raises);
        :class:`DatabaseError` when the server cannot be reached within :data:`POOL_WAIT` seconds or a
        statement fails. An error of lextools raised inside the block passes through."""
        import psycopg  # noqa: PLC0415  (lazy: after gevent's patching, and only with a database)
        from psycopg_pool import PoolTimeout  # noqa: PLC0415

        try:
            with self._pool_here().connection() as conn:
                if not self._current:
                    migrate(conn)
                    self._current = True
                with conn.transaction():
                    yield conn
        except PoolTimeout:
            raise DatabaseError(f"the database {self.where} cannot be reached within {POOL_WAIT} s") from None
        except psycopg.Error as e:
            raise DatabaseError(f"the database {self.where}: {first_line(e)}") from None

    def prepare(self) -> None:
        """Create or migrate the schema, and the receipts' secret, on a connection of its own that is
        closed at once: what ``lextools serve``'s arbiter does before it forks its workers."""
        with self.direct() as conn:
            migrate(conn)
            if not os.environ.get(SECRET_ENV):
                stored_secret(conn, create=True)

    @contextmanager
    def direct(self) -> Iterator[Any]:
        """One connection outside the pool (commands, the arbiter), closed when the block ends."""
        import psycopg  # noqa: PLC0415  (lazy: after gevent's patching, and only with a database)

        try:
            with psycopg.connect(self.url, autocommit=True, **self._connection_kwargs()) as conn:
                yield conn
        except psycopg.Error as e:
            raise DatabaseError(f"the database {self.where}: {first_line(e)}") from None

    def close(self) -> None:
        if self._pool is not None and self._pid == os.getpid():
            self._pool.close()
        self._pool = None


def first_line(error: Exception) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def migrate(conn: Any) -> None:
    """Bring the database to :data:`SCHEMA_VERSION` in one transaction, under an advisory lock so that
    processes starting together migrate once; refuse a newer schema."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        (version,) = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
        if version > SCHEMA_VERSION:
            raise RecordError(
                f"the database's schema is of version {version}, newer than this lextools reads "
                f"({SCHEMA_VERSION}): use the lextools that migrated it"
            )
        for step in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[step]:
                conn.execute(statement)
        if version < SCHEMA_VERSION:
            conn.execute("DELETE FROM schema_version")
            conn.execute("INSERT INTO schema_version VALUES (%s)", (SCHEMA_VERSION,))


def stored_secret(conn: Any, create: bool, offered: bytes | None = None) -> bytes | None:
    """The receipts' secret kept in the database (None when there is none and ``create`` is false).
    ``offered``: the secret to keep when the database has none yet (an imported record's)."""
    row = conn.execute("SELECT secret FROM server_secret").fetchone()
    if row is None and (create or offered is not None):
        text = offered.decode("ascii") if offered is not None else secrets.token_hex(32)
        conn.execute("INSERT INTO server_secret (secret) VALUES (%s) ON CONFLICT DO NOTHING", (text,))
        row = conn.execute("SELECT secret FROM server_secret").fetchone()
    return None if row is None else str(row[0]).encode("ascii")


def lock_client(conn: Any, kind: str, client: str) -> None:
    """Within a transaction: one at a time per (kind, client), so two workers cannot both let the
    request over the limit in (the SQLite stores' ``BEGIN IMMEDIATE`` does the same for a file)."""
    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (f"{kind} {client}",))


class SharedHits:
    """Counters of recent requests per client, kept in the database's ``hits`` table so that every
    worker and replica counts the same ones: the cardboxes' rate and the director's lock-out."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def count_in(self, kind: str, client: str, limit: int, window: float, now: float) -> bool:
        """Count one request of ``client`` unless it made ``limit`` within ``window`` seconds: True when
        counted, False (nothing written) when over the limit."""
        with self.database.transaction() as conn:
            lock_client(conn, kind, client)
            conn.execute("DELETE FROM hits WHERE kind = %s AND client = %s AND at <= %s", (kind, client, now - window))
            (count,) = conn.execute(
                "SELECT COUNT(*) FROM hits WHERE kind = %s AND client = %s", (kind, client)
            ).fetchone()
            if count >= limit:
                return False
            conn.execute("INSERT INTO hits VALUES (%s, %s, %s)", (kind, client, now))
            return True

    def add(self, kind: str, client: str, now: float, window: float) -> None:
        """Count one event of ``client`` (a wrong token), forgetting its events older than ``window``."""
        with self.database.transaction() as conn:
            lock_client(conn, kind, client)
            conn.execute("DELETE FROM hits WHERE kind = %s AND client = %s AND at <= %s", (kind, client, now - window))
            conn.execute("INSERT INTO hits VALUES (%s, %s, %s)", (kind, client, now))

    def latest(self, kind: str, client: str, count: int, since: float) -> list[float]:
        """The times of ``client``'s last ``count`` events after ``since``, newest first."""
        with self.database.transaction() as conn:
            rows = conn.execute(
                "SELECT at FROM hits WHERE kind = %s AND client = %s AND at > %s ORDER BY at DESC LIMIT %s",
                (kind, client, since, count),
            ).fetchall()
        return [float(at) for (at,) in rows]
