"""The challenge record kept in the PostgreSQL database replicas share (lextools/features/postgres.py).

The same record as the SQLite file (lextools/features/record.py: one row per challenge, the receipt's
signature beside it, the per-client rate enforced in the transaction that writes), in one database
whichever replica judged: the director reads one history, and a receipt verifies on any replica. The
rate is counted under an advisory lock per client (:func:`lextools.features.postgres.lock_client`), so
two workers or two replicas cannot both let the eleventh challenge of a second in.

The receipts' secret is ``$LEXTOOLS_SECRET`` when set (give every replica the same), else one kept in
the database, made by the first replica that starts: every replica and ``lextools receipt verify
--database`` read the same one. A database that is down is a :class:`~lextools.core.errors.RecordError`
(the service's 503 ``record_error``) within :data:`lextools.features.postgres.POOL_WAIT` seconds.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

from lextools.core.errors import RecordError
from lextools.features import receipts
from lextools.features.postgres import Database, lock_client, stored_secret
from lextools.features.record import FIELDS, Record, Row, Writing, entry_of

_COLUMNS = ", ".join(FIELDS)


class PostgresRecord(Record):
    """The challenge record in a shared database. ``clock`` (seconds since the epoch) is injectable."""

    def __init__(self, database: Database, clock: Callable[[], float] = time.time) -> None:
        self.database = database
        self.where = database.where
        self.clock = clock

    def create(self) -> None:
        self.database.prepare()

    def prepare(self) -> None:
        self.database.prepare()  # the schema and the secret, on a connection closed before the fork

    def exists(self) -> bool:
        return True  # the schema is made by the first connection: an empty record is a record

    def secret(self, create: bool = True) -> bytes:
        from_env = os.environ.get(receipts.SECRET_ENV)
        if from_env:
            return from_env.encode("utf-8")
        with self.database.transaction() as conn:
            key = stored_secret(conn, create)
        if key is None:
            raise RecordError(f"the database {self.where} keeps no server secret and no ${receipts.SECRET_ENV} is set")
        return key

    @contextlib.contextmanager
    def _writing(self, client: str) -> Iterator[Writing]:
        """A transaction of the shared database, the challenges of ``client`` counted by one writer at a
        time across every worker and replica (an advisory lock)."""
        with self.database.transaction() as conn:
            lock_client(conn, "challenge", client)
            yield _PostgresWriting(conn)

    def _read(self, query: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self.database.transaction() as conn:
            rows: list[tuple[Any, ...]] = conn.execute(query.format(_COLUMNS), args).fetchall()
        return rows

    def entries(self, since: str | None = None) -> list[dict[str, Any]]:
        rows = self._read("SELECT {} FROM challenges WHERE time >= %s ORDER BY time, id", (since or "",))
        return [entry_of(row) for row in rows]

    def get(self, id: str) -> dict[str, Any] | None:
        rows = self._read("SELECT {} FROM challenges WHERE id = %s", (id,))
        return entry_of(rows[0]) if rows else None

    def starting_with(self, prefix: str, limit: int) -> list[dict[str, Any]]:
        rows = self._read("SELECT {} FROM challenges WHERE id >= %s AND id < %s ORDER BY id LIMIT %s",
                          (prefix, prefix + "g", limit))  # fmt: skip
        return [entry_of(row) for row in rows]

    def rows(self) -> list[Row]:
        rows = self._read(f"SELECT {', '.join(Row._fields)} FROM challenges ORDER BY time, id", ())
        return [Row(*row) for row in rows]

    def insert_rows(self, rows: list[Row]) -> int:
        with self.database.transaction() as conn, conn.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO challenges ({', '.join(Row._fields)}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (id) DO NOTHING",
                [tuple(row) for row in rows],
            )
            added: int = cursor.rowcount if cursor.rowcount >= 0 else 0
        return added

    def adopt_secret(self, key: bytes) -> None:
        """Keep ``key`` (an imported record's secret) as the database's, unless it keeps one already:
        then the two must be the same, or the imported receipts would not verify here."""
        if os.environ.get(receipts.SECRET_ENV):
            return  # every store's receipts are checked with the environment's secret
        with self.database.transaction() as conn:
            kept = stored_secret(conn, create=False, offered=key)
        if kept != key:
            raise RecordError(
                f"the database {self.where} keeps another server secret than the imported record's: its receipts "
                f"would not verify there (set ${receipts.SECRET_ENV} to the secret both were signed with)"
            )


class _PostgresWriting:
    """:class:`~lextools.features.record.Writing` in a transaction of the shared database."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def keyed(self, key: str) -> dict[str, Any] | None:
        found = self.conn.execute(f"SELECT {_COLUMNS} FROM challenges WHERE request_key = %s", (key,)).fetchone()
        return None if found is None else entry_of(found)

    def recent(self, client: str, since: float) -> int:
        query = "SELECT COUNT(*) FROM challenges WHERE client = %s AND at > %s"
        (count,) = self.conn.execute(query, (client, since)).fetchone()
        return int(count)

    def insert(self, row: Row, key: str | None) -> None:
        placeholders = ", ".join(["%s"] * (len(Row._fields) + 1))
        self.conn.execute(
            f"INSERT INTO challenges ({', '.join(Row._fields)}, request_key) VALUES ({placeholders})", (*row, key)
        )
