"""Where the service's state is kept, chosen once by configuration: SQLite files beside the lexicons
(the default, no server) or the PostgreSQL database that several replicas share (``--database
postgresql://…`` or ``$LEXTOOLS_DATABASE_URL``; lextools/features/postgres.py).

The service and the commands ask this module for the challenge record and the cardboxes and get the
one store the configuration names; they never choose between SQLite and PostgreSQL themselves.
``copy_record`` and ``copy_cardboxes`` move a store's contents to the other kind (``lextools record
export``/``import``): rows are copied as they are, ids and signatures included, and the receipts'
secret goes with them, so every receipt still verifies where the rows now are.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from lextools.core.errors import QueryError, RecordError
from lextools.features import receipts
from lextools.features.cardboxes import Cardboxes, CardboxStore, PostgresCardboxes
from lextools.features.postgres import DATABASE_ENV, Database, SharedHits, is_database_url, shown_url
from lextools.features.record import ChallengeRecord, Record
from lextools.features.record_postgres import PostgresRecord

#: The cardboxes' file name beside the challenge record, when no database is given.
CARDBOXES_NAME = "cardboxes.sqlite3"

#: One :class:`Database` per URL in a process: the record, the cardboxes and the counters share its pool.
_databases: dict[str, Database] = {}


def database_url(given: str | None) -> str | None:
    """The shared database a command or the service uses: ``given`` (``--database``), else
    ``$LEXTOOLS_DATABASE_URL``, else None (SQLite files). Anything but a PostgreSQL URL is refused."""
    url = given if given is not None else os.environ.get(DATABASE_ENV) or None
    if url is not None and not is_database_url(url):
        raise QueryError(
            f"not a PostgreSQL URL: {shown_url(url)!r} (postgresql://USER:PASSWORD@HOST:PORT/DATABASE); "
            "without a database the state is kept in SQLite files beside the lexicons"
        )
    return url


def database(url: str) -> Database:
    if url not in _databases:
        _databases[url] = Database(url)
    return _databases[url]


def open_record(url: str | None, path: Path) -> Record:
    """The challenge record: the shared database's when ``url`` names one, else the SQLite file ``path``."""
    return PostgresRecord(database(url)) if url else ChallengeRecord(path)


def open_cardboxes(url: str | None, path: Path) -> CardboxStore:
    """The cardboxes: the shared database's when ``url`` names one, else the SQLite file ``path``."""
    return PostgresCardboxes(database(url)) if url else Cardboxes(path)


def shared_hits(url: str | None) -> SharedHits | None:
    """The counters every worker and replica shares, or None: without a database each process counts
    its own (rate limits and lock-outs then hold per worker, as documented)."""
    return SharedHits(database(url)) if url else None


@dataclass(frozen=True)
class Copied:
    """What a copy did: rows read from the source, rows new to the target."""

    read: int
    added: int


def copy_record(source: Record, target: Record) -> Copied:
    """Copy every challenge of ``source`` that ``target`` lacks, with its receipts' secret: the target
    keeps the source's secret when it has none yet, and refuses a different one (its receipts would not
    verify). With ``$LEXTOOLS_SECRET`` set, both stores' receipts are checked with it: nothing to copy."""
    rows = source.rows()
    if not os.environ.get(receipts.SECRET_ENV) and rows:
        _carry_secret(source, target)
    return Copied(len(rows), target.insert_rows(rows))


def _carry_secret(source: Record, target: Record) -> None:
    key = source.secret(create=False)
    if isinstance(target, PostgresRecord):
        target.adopt_secret(key)
        return
    assert isinstance(target, ChallengeRecord)
    path = receipts.secret_path(target.path)
    if path.exists():
        if target.secret(create=False) != key:
            raise RecordError(
                f"{path} holds another server secret than the copied record's: its receipts would not verify "
                f"(set ${receipts.SECRET_ENV} to the secret both were signed with)"
            )
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key.decode("ascii") + "\n")


def copy_cardboxes(source: CardboxStore, target: CardboxStore) -> Copied:
    """Copy every cardbox of ``source`` whose code ``target`` lacks, as it is (code, body, time)."""
    kept = source.all()
    return Copied(len(kept), target.insert(kept))
