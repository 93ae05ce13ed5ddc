"""The challenge record: every challenge a judge ruled on, kept in one SQLite file for the director.

One row per challenge: its id, time (UTC), edition, the checksum of the lexicon that judged it, the
words as typed, the verdict, and the client that sent it. The file is SQLite in WAL mode (readers
never wait for the writer), and every write is one ``BEGIN IMMEDIATE`` transaction, which SQLite
serialises between processes: several gunicorn workers write to one record safely.

The same transaction enforces the per-client rate: it counts the client's challenges of the last
second before inserting, so two workers cannot both let the eleventh one in. A refused challenge
writes nothing. With at most :data:`MAX_WORDS` words of bounded length per challenge and
``rate`` challenges per second per client, the record grows by a bounded number of bytes per second
per client, whatever the clients send.

A lock on the record never stalls the service: the record is opened with no SQLite busy timeout, so
a write that finds another process's write lock (a director's ``sqlite3`` shell in ``BEGIN
IMMEDIATE``) gets SQLITE_BUSY at once, and :meth:`ChallengeRecord._retry` tries again after short
sleeps — which under gevent's patched ``time.sleep`` let the worker serve other requests — for at
most :data:`LOCK_WAIT_SECONDS`; then the challenge fails with :class:`RecordError` (the service's
503 ``record_error``: nothing is judged unrecorded). Waiting inside SQLite instead would hold the
worker's one thread, and every request it serves, for the whole busy timeout.

The record keeps each receipt's signature beside the row it signs, so a dispute is settled from the
record alone (:meth:`ChallengeRecord.verify_id`: the id the kiosk showed, no receipt needed). Its format
is versioned in SQLite's ``user_version`` (:data:`RECORD_VERSION`): a record written before the
signatures were kept (version 0, with no ``signature`` column) is migrated in place when a process
first opens it — the column added, the old rows kept, with no signature ("no signature kept"); a record
of a newer version is refused rather than misread.

The record holds the words exactly as typed (the receipt's signature covers them as sent); whatever
shows them to a person shows them through :mod:`lextools.features.inert`. The record is created
readable by its owner only (0600, as its secret: it holds words and client addresses), and a record
of ours found with wider modes is tightened when opened.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple, Protocol, TypeVar

from lextools.core.errors import QueryError, RateLimitError, RecordError
from lextools.core.messages import message
from lextools.features import receipts
from lextools.features.inert import csv_cell, inert
from lextools.features.receipts import Receipt

T = TypeVar("T")

#: The record's file name in the lexicon directory, when no other path is given.
RECORD_NAME = "challenges.sqlite3"

#: The record's format, in SQLite's ``user_version``: 0 is a record of lextools before the version
#: was kept (no signatures); 2 keeps each receipt's signature (1 was never written: the first format
#: is counted as 1, so that the number says which formats there have been); 3 keeps the key a client
#: sent with a challenge (``Idempotency-Key``), so that the same request sent again is answered with
#: the receipt it got the first time instead of being judged and recorded twice.
RECORD_VERSION = 3

_SCHEMA = """
CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    time TEXT NOT NULL,          -- ISO 8601, UTC, milliseconds
    edition TEXT NOT NULL,
    checksum TEXT NOT NULL,      -- of the lexicon that judged
    words TEXT NOT NULL,         -- JSON list of the words as typed
    acceptable INTEGER NOT NULL, -- the verdict on the whole play
    client TEXT NOT NULL,        -- who sent it (the rate limit counts per client)
    at REAL NOT NULL,            -- seconds since the epoch, for the rate limit
    signature TEXT,              -- the receipt's (hex HMAC-SHA256), NULL in rows of a version-0 record
    request_key TEXT             -- the client's Idempotency-Key, if it sent one (NULL in older rows)
);
CREATE INDEX IF NOT EXISTS challenges_client_at ON challenges (client, at);
CREATE INDEX IF NOT EXISTS challenges_time ON challenges (time);
CREATE UNIQUE INDEX IF NOT EXISTS challenges_request_key ON challenges (request_key);
"""

#: What an older record lacks, by column: the statements that add it (its old rows keep NULL: no
#: signature, no key).
_MIGRATIONS = {
    "signature": ("ALTER TABLE challenges ADD COLUMN signature TEXT",),
    "request_key": (
        "ALTER TABLE challenges ADD COLUMN request_key TEXT",
        "CREATE UNIQUE INDEX IF NOT EXISTS challenges_request_key ON challenges (request_key)",
    ),
}

#: How long a write waits for another process's lock on the record before it fails. A write takes a
#: few milliseconds, but four processes writing at once on 2 cores already busy (load 12) waited up to
#: 1.04 s for their turn (0.5 s lost some), so only a lock held on purpose (a shell, a copy) lasts 2 s.
LOCK_WAIT_SECONDS = 2.0

#: The pauses between two tries of a locked record (doubling from the first up to the last).
_FIRST_PAUSE, _LONGEST_PAUSE = 0.002, 0.02


def while_locked(attempt: Callable[[], T], deadline: float, refusal: Exception) -> T:
    """``attempt()``, tried again while another process holds a SQLite file's lock, until ``deadline``
    (``time.monotonic()``), then ``refusal`` is raised. The connections wait 0 s inside SQLite (a wait
    in C would hold a gevent worker's every request); the pauses here are ``time.sleep``, which gevent's
    workers patch to let the worker serve other requests meanwhile."""
    pause = _FIRST_PAUSE
    while True:
        try:
            return attempt()
        except sqlite3.OperationalError as e:
            if e.sqlite_errorcode & 0xFF not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise
            if time.monotonic() + pause > deadline:
                raise refusal from None
        time.sleep(pause)
        pause = min(pause * 2, _LONGEST_PAUSE)


#: The record's mode: its owner's only (it holds words and client addresses).
RECORD_MODE = 0o600

#: The fields of an entry, in the order ``lextools record`` and ``GET /v1/record`` give them: the signed
#: fields (:data:`lextools.features.receipts.SIGNED_FIELDS`), then the receipt's signature (None: a row of
#: a record from before the signatures were kept).
FIELDS = ("id", "time", "edition", "checksum", "words", "acceptable", "signature")
_COLUMNS = ", ".join(FIELDS)
#: The same columns from a version-0 record that cannot be migrated (read-only): no signature.
_LEGACY_COLUMNS = _COLUMNS.replace("signature", "NULL")


def default_record(lexicons: Path) -> Path:
    return lexicons / RECORD_NAME


def now_iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_since(text: str) -> str:
    """A ``--since`` time as the record writes times; a time without a zone is UTC."""
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise QueryError(message("since_not_a_time", since=repr(text))) from None  # repr: quoted, escaped
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    try:  # 9999-12-31T23:59:59-01:00 is in the year 10000 in UTC, 0001-01-01T00:00+01:00 in the year 0
        return now_iso(when.timestamp())
    except (ValueError, OverflowError, OSError):
        raise QueryError(message("since_out_of_range", since=repr(text))) from None


#: What ``lextools receipt verify`` found, and its exit status (docs/challenge-record.md, ``--help``):
#: ``ambiguous`` (an id prefix of several challenges) and ``unsigned`` (a row from before the record
#: kept signatures) are data problems, like a text that is no receipt: nothing was confirmed or refuted.
VALID, ALTERED, MALFORMED, ABSENT = "valid", "altered", "malformed", "absent"
AMBIGUOUS, UNSIGNED = "ambiguous", "unsigned"
EXIT_STATUS = {VALID: 0, ALTERED: 1, MALFORMED: 2, ABSENT: 3, AMBIGUOUS: 2, UNSIGNED: 2}

#: How many challenges an ambiguous id prefix names in its error.
AMBIGUOUS_SHOWN = 5


@dataclass(frozen=True)
class Verification:
    """What ``lextools receipt verify`` found: ``ok`` only when the signature and the record agree.

    ``status`` tells the failures apart: ``altered`` (the signature or the record's copy disagree: a
    forgery or an edited record), ``absent`` (this record does not hold the challenge: another
    server's, or another record of this one), ``malformed`` (not a receipt at all).
    """

    status: str
    message: str
    receipt: Receipt | None = None

    @property
    def ok(self) -> bool:
        return self.status == VALID

    @property
    def exit_status(self) -> int:
        return EXIT_STATUS[self.status]


class Row(NamedTuple):
    """A challenge as a store keeps it, every column: what ``lextools record export`` and ``import``
    copy from one store to the other (the words as their JSON text, exactly as signed)."""

    id: str
    time: str
    edition: str
    checksum: str
    words: str
    acceptable: bool
    client: str
    at: float
    signature: str | None


class Writing(Protocol):
    """What :meth:`Record.add` asks of a store inside its write transaction."""

    def keyed(self, key: str) -> dict[str, Any] | None:
        """The challenge recorded under an Idempotency-Key, if any."""

    def recent(self, client: str, since: float) -> int:
        """How many challenges ``client`` sent since ``since`` (seconds since the epoch)."""

    def insert(self, row: Row, key: str | None) -> None:
        """Record a challenge, under its key if it came with one."""


class Record:
    """What every challenge record does, wherever it is kept: this SQLite file
    (:class:`ChallengeRecord`) or the database replicas share
    (:class:`lextools.features.record_postgres.PostgresRecord`). A store gives the reads and writes;
    the checks of receipts are the same for every store."""

    #: What messages name the record by: a file's path, a database's URL without its password.
    where: Any

    def create(self) -> None:
        raise NotImplementedError

    def prepare(self) -> None:
        """What the server does before it forks its workers: the record and the receipts' secret made,
        so the workers share one secret, and nothing left open that a fork would share."""
        self.create()
        self.secret()

    def add(
        self,
        edition: str,
        checksum: str,
        words: list[str],
        acceptable: bool,
        client: str,
        rate: int,
        secret: bytes,
        key: str | None = None,
    ) -> Receipt:
        """Record one challenge and return its signed receipt; :class:`RateLimitError` (nothing
        written) when ``client`` already has ``rate`` challenges in the last second. ``key``, the
        client's ``Idempotency-Key``: a challenge already recorded under it is answered with its
        receipt, not judged again (a request a proxy sent again after a replica died mid-answer);
        the same key with another play is a :class:`QueryError`. One write transaction of the
        store (:meth:`_writing`), so two workers cannot both let a client over its rate."""
        with self._writing(client) as store:
            if key is not None and (found := store.keyed(key)) is not None:
                return answered_before(found, edition, words)
            now = self.clock()
            if store.recent(client, now - 1.0) >= rate:
                raise RateLimitError(message("too_many_challenges", rate=rate))
            receipt = receipts.issue(secret, secrets.token_hex(16), now_iso(now), edition, checksum, words, acceptable)
            text = json.dumps(words, ensure_ascii=False)
            row = Row(receipt.id, receipt.time, edition, checksum, text, acceptable, client, now, receipt.signature)
            store.insert(row, key)
        return receipt

    #: Seconds since the epoch (injectable: tests need not sleep).
    clock: Callable[[], float]

    def _writing(self, client: str) -> contextlib.AbstractContextManager[Writing]:
        """One write transaction (committed when the block ends, rolled back when it raises), the
        challenges of ``client`` counted by one writer at a time."""
        raise NotImplementedError

    def entries(self, since: str | None = None) -> list[dict[str, Any]]:
        raise NotImplementedError

    def get(self, id: str) -> dict[str, Any] | None:
        raise NotImplementedError

    def starting_with(self, prefix: str, limit: int) -> list[dict[str, Any]]:
        raise NotImplementedError

    def exists(self) -> bool:
        """Whether there is a record to read (a SQLite record is made by the first challenge)."""
        raise NotImplementedError

    def secret(self, create: bool = True) -> bytes:
        """The receipts' secret: ``$LEXTOOLS_SECRET``, else the one kept with this record."""
        raise NotImplementedError

    def rows(self) -> list[Row]:
        """Every challenge, every column, oldest first: what an export copies."""
        raise NotImplementedError

    def insert_rows(self, rows: list[Row]) -> int:
        """Add the challenges of another record, those whose id this one has not (how many were new)."""
        raise NotImplementedError

    def verify(self, text: str, secret: bytes | Callable[[], bytes]) -> Verification:
        """Check a pasted receipt: well formed, in this record, and signed with ``secret`` over what the
        record holds (the words) and what the receipt says (everything else). ``secret`` may be a
        function, called only once the receipt is found in the record."""
        try:
            receipt = receipts.parse(text)
        except ValueError as e:
            return Verification(MALFORMED, str(message("receipt_malformed", cause=e)))
        entry = self.get(receipt.id)
        if entry is None:
            return Verification(
                ABSENT, str(message("receipt_absent", id=inert(receipt.id), record=self.where)), receipt
            )
        key = secret() if callable(secret) else secret
        if not receipts.signature_matches(key, receipt, entry["words"]):
            return Verification(ALTERED, str(message("receipt_bad_signature")), receipt)
        claimed = receipt.as_dict()
        differ = [k for k in receipts.SIGNED_FIELDS if k != "words" and entry[k] != claimed[k]]
        if differ:
            return Verification(ALTERED, str(message("receipt_record_differs", fields=", ".join(differ))), receipt)
        return Verification(VALID, _verified_text(receipt, entry["words"]), receipt)

    def verify_id(self, prefix: str, secret: bytes | Callable[[], bytes]) -> Verification:
        """Check the challenge whose id starts with ``prefix`` (the 8 characters the kiosk shows, or
        more) from the record alone: its row against the signature kept beside it. ``secret`` as in
        :meth:`verify`."""
        wanted = prefix.strip().lower()
        if not _ID_PREFIX.fullmatch(wanted):
            return Verification(MALFORMED, str(message("receipt_id_malformed", id=repr(inert(prefix)))))
        found = self.starting_with(wanted, AMBIGUOUS_SHOWN + 1)
        if not found:
            return Verification(ABSENT, str(message("receipt_id_absent", id=wanted, record=self.where)))
        if len(found) > 1:
            shown = ", ".join(f"{e['id']} ({inert(e['time'])})" for e in found[:AMBIGUOUS_SHOWN])
            more = " …" if len(found) > AMBIGUOUS_SHOWN else ""
            return Verification(AMBIGUOUS, str(message("receipt_id_ambiguous", id=wanted, ids=shown + more)))
        entry = found[0]
        status = signature_status(entry, secret)
        if status == UNSIGNED:
            return Verification(UNSIGNED, str(message("receipt_unsigned", id=inert(entry["id"]))))
        receipt = Receipt(**{k: entry[k] for k in receipts.RECEIPT_FIELDS})
        if status == ALTERED:
            return Verification(ALTERED, str(message("receipt_row_altered", id=inert(entry["id"]))), receipt)
        return Verification(VALID, _verified_text(receipt, entry["words"]), receipt)


class ChallengeRecord(Record):
    """One record file (SQLite). ``clock`` (seconds since the epoch) is injectable so tests need not sleep;
    ``lock_wait`` is how long a write waits for another process's lock (:data:`LOCK_WAIT_SECONDS`)."""

    def __init__(
        self, path: Path, clock: Callable[[], float] = time.time, lock_wait: float = LOCK_WAIT_SECONDS
    ) -> None:
        self.path = Path(path)
        self.where = self.path
        self.clock = clock
        self.lock_wait = lock_wait
        self._current = False  # the file is made or migrated to RECORD_VERSION by the first opening
        self._columns = _COLUMNS  # what a read selects (_LEGACY_COLUMNS: an old record that stays old)
        self._tightened = False  # the file's mode is checked by the first opening of this process

    def _connect(self, create: bool) -> sqlite3.Connection:
        if not create and not self.path.exists():
            raise RecordError(f"no challenge record at {self.path}: no challenge has been judged with it yet")
        try:
            if create:
                self._make_file()
            self._tighten()
            # No busy timeout: SQLite would wait for a lock inside its C code, holding the worker (_retry).
            db = sqlite3.connect(self.path, timeout=0, isolation_level=None)
        except (sqlite3.Error, OSError) as e:
            raise RecordError(f"cannot open the challenge record {self.path.name}: {e}") from None
        try:
            db.execute("PRAGMA busy_timeout=0")
            self._retry(lambda: db.execute("PRAGMA journal_mode=WAL"))  # a new record's first one writes
            if not self._current:
                self._upgrade(db, create)
            return db
        except (sqlite3.Error, RecordError) as e:
            db.close()
            if isinstance(e, RecordError):
                raise
            raise RecordError(f"cannot open the challenge record {self.path.name}: {e}") from None

    def _upgrade(self, db: sqlite3.Connection, create: bool) -> None:
        """Once per process: bring the file to :data:`RECORD_VERSION` in one write transaction — a new
        record gets the schema, a version-0 one its signature column — or refuse a newer one. A reader
        of an old record it may not write (read-only) reads it as it is, with no signatures."""
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version > RECORD_VERSION:
            raise RecordError(
                f"the challenge record {self.path.name} is of version {version}, newer than this lextools "
                f"reads ({RECORD_VERSION}): read it with the lextools that wrote it"
            )
        if version < RECORD_VERSION:
            try:
                self._retry(lambda: db.execute("BEGIN IMMEDIATE"))
                self._migrate(db, create)
                db.execute("COMMIT")
            except sqlite3.OperationalError as e:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                if create or e.sqlite_errorcode & 0xFF != sqlite3.SQLITE_READONLY:
                    raise
                self._columns = _LEGACY_COLUMNS
                return
        self._current = True

    def _migrate(self, db: sqlite3.Connection, create: bool) -> None:
        """Inside the write transaction (another process may have migrated the file meanwhile): the
        schema for an empty file that is to be written, the columns an older record lacks."""
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version == RECORD_VERSION:
            return
        columns = {row[1] for row in db.execute("PRAGMA table_info(challenges)")}
        if not columns:
            if not create:
                return  # an empty file a reader found: nothing to read (the read says so), nothing to mark
            for statement in filter(str.strip, _SCHEMA.split(";")):
                db.execute(statement)
        else:
            for column, statements in _MIGRATIONS.items():
                for statement in statements if column not in columns else ():
                    db.execute(statement)
        db.execute(f"PRAGMA user_version = {RECORD_VERSION}")

    def _make_file(self) -> None:
        """Create the record file, empty (SQLite makes it a database) and 0600, unless it exists."""
        if self.path.exists():
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):  # another worker made it first
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, RECORD_MODE))

    def _tighten(self) -> None:
        """Once per process: a record of ours (and its WAL files, which SQLite makes with the record's
        mode) readable by others is made 0600. Another user's record is left as it is."""
        if self._tightened:
            return
        for path in (self.path, *(self.path.with_name(self.path.name + end) for end in ("-wal", "-shm"))):
            with contextlib.suppress(OSError):  # missing, or a read-only disk: nothing to tighten there
                st = path.stat()
                if st.st_uid == os.geteuid() and st.st_mode & 0o077:
                    path.chmod(RECORD_MODE)
        self._tightened = True

    def _retry(self, attempt: Callable[[], T]) -> T:
        """``attempt()``, tried again while another process holds the record's lock, for at most
        ``lock_wait`` seconds (:func:`while_locked`)."""
        refusal = RecordError(message("record_locked", seconds=self.lock_wait))
        return while_locked(attempt, time.monotonic() + self.lock_wait, refusal)

    def create(self) -> None:
        """Make the record (and its folder) if it is missing; :class:`RecordError` when it cannot be."""
        self._connect(create=True).close()

    @contextlib.contextmanager
    def _writing(self, client: str) -> Iterator[Writing]:
        """``BEGIN IMMEDIATE``: one writer at a time for the whole file (:class:`RecordError` when another
        process holds it for ``lock_wait`` seconds)."""
        db = self._connect(create=True)
        try:
            self._retry(lambda: db.execute("BEGIN IMMEDIATE"))
            yield _SqliteWriting(db)
            db.execute("COMMIT")
        except sqlite3.Error as e:
            raise RecordError(f"cannot write the challenge record {self.path.name}: {e}") from None
        finally:
            if db.in_transaction:
                db.execute("ROLLBACK")
            db.close()

    def _read(self, query: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """The rows of ``query``, whose ``{}`` is the entry's columns (as this record has them)."""
        db = self._connect(create=False)
        try:
            return self._retry(lambda: db.execute(query.format(self._columns), args).fetchall())
        except sqlite3.Error as e:
            raise RecordError(f"cannot read the challenge record {self.path.name}: {e}") from None
        finally:
            db.close()

    def entries(self, since: str | None = None) -> list[dict[str, Any]]:
        """The challenges, oldest first; ``since`` as :func:`parse_since` gives it."""
        rows = self._read("SELECT {} FROM challenges WHERE time >= ? ORDER BY time, id", (since or "",))
        return [entry_of(row) for row in rows]

    def get(self, id: str) -> dict[str, Any] | None:
        rows = self._read("SELECT {} FROM challenges WHERE id = ?", (id,))
        return entry_of(rows[0]) if rows else None

    def starting_with(self, prefix: str, limit: int) -> list[dict[str, Any]]:
        """The challenges whose id starts with ``prefix`` (lower-case hex, as the ids are drawn), at most
        ``limit`` of them: the ids from ``prefix`` up to ``prefix + "g"``, which follows every hex digit."""
        rows = self._read("SELECT {} FROM challenges WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
                          (prefix, prefix + "g", limit))  # fmt: skip
        return [entry_of(row) for row in rows]

    def exists(self) -> bool:
        return self.path.exists()

    def secret(self, create: bool = True) -> bytes:
        return receipts.load_secret(self.path, create=create)

    def rows(self) -> list[Row]:
        self._connect(create=False).close()  # learns whether the record has its signatures (_columns)
        columns = ", ".join(Row._fields)
        if self._columns == _LEGACY_COLUMNS:
            columns = columns.replace("signature", "NULL")
        rows = self._read(f"SELECT {columns} FROM challenges ORDER BY time, id", ())
        return [Row(*row[:5], bool(row[5]), *row[6:]) for row in rows]  # type: ignore[call-arg]

    def insert_rows(self, rows: list[Row]) -> int:
        db = self._connect(create=True)
        try:
            self._retry(lambda: db.execute("BEGIN IMMEDIATE"))
            before = db.total_changes
            db.executemany(
                f"INSERT OR IGNORE INTO challenges ({', '.join(Row._fields)}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(*row[:5], int(row.acceptable), *row[6:]) for row in rows],
            )
            added = db.total_changes - before
            db.execute("COMMIT")
            return added
        except sqlite3.Error as e:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise RecordError(f"cannot write the challenge record {self.path.name}: {e}") from None
        finally:
            db.close()


class _SqliteWriting:
    """:class:`Writing` in a record file's write transaction."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def keyed(self, key: str) -> dict[str, Any] | None:
        found = self.db.execute(f"SELECT {_COLUMNS} FROM challenges WHERE request_key = ?", (key,)).fetchone()
        return None if found is None else entry_of(found)

    def recent(self, client: str, since: float) -> int:
        query = "SELECT COUNT(*) FROM challenges WHERE client = ? AND at > ?"
        (count,) = self.db.execute(query, (client, since)).fetchone()
        return int(count)

    def insert(self, row: Row, key: str | None) -> None:
        self.db.execute(
            f"INSERT INTO challenges ({', '.join(Row._fields)}, request_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*row[:5], int(row.acceptable), *row[6:], key),
        )


#: An id prefix as ``receipt verify --id`` takes it: 1 to 32 hex digits (an id is 32).
_ID_PREFIX = re.compile(r"[0-9a-f]{1,32}")


def answered_before(entry: dict[str, Any], edition: str, words: list[str]) -> Receipt:
    """The receipt of a challenge recorded under the key a request carries again: the same play sent
    again gets the answer it got (nothing judged or written twice); another play under that key is
    refused, as a client's mistake."""
    if entry["edition"] != edition or entry["words"] != words or not entry.get("signature"):
        raise QueryError(message("challenge_key_reused"))
    fields = {name: entry[name] for name in ("id", "time", "edition", "checksum", "acceptable", "signature")}
    return Receipt(**fields)


def signature_status(entry: dict[str, Any], secret: bytes | Callable[[], bytes]) -> str:
    """Whether a record's row agrees with the signature kept beside it: :data:`VALID`, :data:`ALTERED`
    (the row or its signature was edited after the challenge) or :data:`UNSIGNED` (a row from before
    the record kept signatures). ``secret`` is called only for a row with a signature."""
    if not entry.get("signature"):
        return UNSIGNED
    key = secret() if callable(secret) else secret
    receipt = Receipt(**{k: entry[k] for k in receipts.RECEIPT_FIELDS})
    return VALID if receipts.signature_matches(key, receipt, entry["words"]) else ALTERED


def _verified_text(receipt: Receipt, words: list[str]) -> str:
    """What ``receipt verify`` prints of a valid receipt, on three lines: the challenge; the verdict,
    which the signature covers, alone on its line; the words, each quoted and :func:`inert` (they
    are a client's text: escaped, they cannot colour, hide or imitate the verdict above them)."""
    verdict = "ACCEPTABLE" if receipt.acceptable else "NOT ACCEPTABLE"
    challenge = message(
        "receipt_valid",
        id=inert(receipt.id),
        time=inert(receipt.time),
        edition=inert(receipt.edition),
        checksum=inert(receipt.checksum[:12]),
    )
    shown = " ".join('"' + inert(w).replace('"', '\\"') + '"' for w in words)
    lines = (challenge, message("receipt_verdict", verdict=verdict), message("receipt_words", words=shown))
    return "\n".join(str(line) for line in lines)


def entry_of(row: tuple[Any, ...]) -> dict[str, Any]:
    id, when, edition, checksum, words, acceptable, signature = row
    return {
        "id": id,
        "time": when,
        "edition": edition,
        "checksum": checksum,
        "words": json.loads(words),
        "acceptable": bool(acceptable),
        "signature": signature,
    }


@dataclass(frozen=True)
class CsvLabels:
    """A CSV's headers (one per field of :data:`FIELDS`) and its verdicts, for a person's spreadsheet in
    their language (the director's page: "Aceptable", "sí", "no"). Without them the CSV is a program's:
    the field names, ``True`` and ``False``."""

    headers: tuple[str, ...] = FIELDS
    yes: str = "True"
    no: str = "False"


def as_csv_text(entries: list[dict[str, Any]], labels: CsvLabels | None = None) -> str:
    """The entries as CSV (RFC 4180) for a spreadsheet: words joined by spaces, every cell shown as
    text (:func:`~lextools.features.inert.csv_cell`: no control character, no formula); the signature
    empty for a row that has none kept."""
    labels = labels or CsvLabels()
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([csv_cell(h) for h in labels.headers])
    for e in entries:
        verdict = labels.yes if e["acceptable"] else labels.no
        row = [e["id"], e["time"], e["edition"], e["checksum"], " ".join(e["words"]), verdict, e["signature"] or ""]
        writer.writerow([csv_cell(cell) for cell in row])
    return buffer.getvalue()
