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
"""

from __future__ import annotations

import csv
import io
import json
import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lextools.core.errors import QueryError, RateLimitError, RecordError
from lextools.core.messages import message
from lextools.features import receipts
from lextools.features.receipts import Receipt

#: The record's file name in the lexicon directory, when no other path is given.
RECORD_NAME = "challenges.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS challenges (
    id TEXT PRIMARY KEY,
    time TEXT NOT NULL,          -- ISO 8601, UTC, milliseconds
    edition TEXT NOT NULL,
    checksum TEXT NOT NULL,      -- of the lexicon that judged
    words TEXT NOT NULL,         -- JSON list of the words as typed
    acceptable INTEGER NOT NULL, -- the verdict on the whole play
    client TEXT NOT NULL,        -- who sent it (the rate limit counts per client)
    at REAL NOT NULL             -- seconds since the epoch, for the rate limit
);
CREATE INDEX IF NOT EXISTS challenges_client_at ON challenges (client, at);
CREATE INDEX IF NOT EXISTS challenges_time ON challenges (time);
"""

#: The fields of an entry, in the order ``lextools record`` and ``GET /v1/record`` give them.
FIELDS = ("id", "time", "edition", "checksum", "words", "acceptable")
_COLUMNS = ", ".join(FIELDS)


def default_record(lexicons: Path) -> Path:
    return lexicons / RECORD_NAME


def _now_iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_since(text: str) -> str:
    """A ``--since`` time as the record writes times; a time without a zone is UTC."""
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise QueryError(f"since {text!r} is not a time such as 2026-11-30 or 2026-11-30T07:30") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return _now_iso(when.timestamp())


#: What ``lextools receipt verify`` found, and its exit status (README, ``--help``).
VALID, ALTERED, MALFORMED, ABSENT = "valid", "altered", "malformed", "absent"
EXIT_STATUS = {VALID: 0, ALTERED: 1, MALFORMED: 2, ABSENT: 3}


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


class ChallengeRecord:
    """One record file. ``clock`` (seconds since the epoch) is injectable so tests need not sleep."""

    def __init__(self, path: Path, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.clock = clock
        self._created = False  # the schema is made by the first write of this process

    def _connect(self, create: bool) -> sqlite3.Connection:
        if not create and not self.path.exists():
            raise RecordError(f"no challenge record at {self.path}: no challenge has been judged with it yet")
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA busy_timeout=10000")
            if create and not self._created:
                db.executescript(_SCHEMA)
                self._created = True
            return db
        except (sqlite3.Error, OSError) as e:
            raise RecordError(f"cannot open the challenge record {self.path.name}: {e}") from None

    def create(self) -> None:
        """Make the record (and its folder) if it is missing; :class:`RecordError` when it cannot be."""
        self._connect(create=True).close()

    def add(
        self, edition: str, checksum: str, words: list[str], acceptable: bool, client: str, rate: int, secret: bytes
    ) -> Receipt:
        """Record one challenge and return its signed receipt; :class:`RateLimitError` (nothing
        written) when ``client`` already has ``rate`` challenges in the last second."""
        db = self._connect(create=True)
        try:
            db.execute("BEGIN IMMEDIATE")
            now = self.clock()
            (recent,) = db.execute(
                "SELECT COUNT(*) FROM challenges WHERE client = ? AND at > ?", (client, now - 1.0)
            ).fetchone()
            if recent >= rate:
                db.execute("ROLLBACK")
                raise RateLimitError(message("too_many_challenges", rate=rate))
            receipt = receipts.issue(secret, secrets.token_hex(16), _now_iso(now), edition, checksum, words, acceptable)
            db.execute(
                "INSERT INTO challenges (id, time, edition, checksum, words, acceptable, client, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    receipt.id,
                    receipt.time,
                    edition,
                    checksum,
                    json.dumps(words, ensure_ascii=False),
                    int(acceptable),
                    client,
                    now,
                ),
            )
            db.execute("COMMIT")
            return receipt
        except sqlite3.Error as e:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise RecordError(f"cannot write the challenge record {self.path.name}: {e}") from None
        finally:
            db.close()

    def entries(self, since: str | None = None) -> list[dict[str, Any]]:
        """The challenges, oldest first; ``since`` as :func:`parse_since` gives it."""
        db = self._connect(create=False)
        try:
            rows = db.execute(
                f"SELECT {_COLUMNS} FROM challenges WHERE time >= ? ORDER BY time, id",
                (since or "",),
            ).fetchall()
        except sqlite3.Error as e:
            raise RecordError(f"cannot read the challenge record {self.path.name}: {e}") from None
        finally:
            db.close()
        return [_entry(row) for row in rows]

    def get(self, id: str) -> dict[str, Any] | None:
        db = self._connect(create=False)
        try:
            row = db.execute(f"SELECT {_COLUMNS} FROM challenges WHERE id = ?", (id,)).fetchone()
        except sqlite3.Error as e:
            raise RecordError(f"cannot read the challenge record {self.path.name}: {e}") from None
        finally:
            db.close()
        return None if row is None else _entry(row)

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
            return Verification(ABSENT, str(message("receipt_absent", id=receipt.id, record=self.path)), receipt)
        key = secret() if callable(secret) else secret
        if not receipts.signature_matches(key, receipt, entry["words"]):
            return Verification(ALTERED, str(message("receipt_bad_signature")), receipt)
        claimed = receipt.as_dict()
        differ = [k for k in FIELDS if k != "words" and entry[k] != claimed[k]]
        if differ:
            return Verification(ALTERED, str(message("receipt_record_differs", fields=", ".join(differ))), receipt)
        verdict = "ACCEPTABLE" if receipt.acceptable else "NOT ACCEPTABLE"
        return Verification(
            VALID,
            str(
                message(
                    "receipt_valid",
                    id=receipt.id,
                    time=receipt.time,
                    edition=receipt.edition,
                    checksum=receipt.checksum[:12],
                    words=" ".join(entry["words"]),
                    verdict=verdict,
                )
            ),
            receipt,
        )


def _entry(row: tuple[Any, ...]) -> dict[str, Any]:
    id, when, edition, checksum, words, acceptable = row
    return {
        "id": id,
        "time": when,
        "edition": edition,
        "checksum": checksum,
        "words": json.loads(words),
        "acceptable": bool(acceptable),
    }


def as_csv_text(entries: list[dict[str, Any]]) -> str:
    """The entries as CSV (RFC 4180) for a spreadsheet: words joined by spaces."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(FIELDS)
    for e in entries:
        writer.writerow([e["id"], e["time"], e["edition"], e["checksum"], " ".join(e["words"]), e["acceptable"]])
    return buffer.getvalue()
