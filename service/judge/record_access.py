"""The app's challenge record (:class:`lextools.features.record.Record`: the SQLite file, or the
database replicas share, lextools/features/stores.py): where the app keeps it, the secret its
receipts are signed with, and its entries as the director's routes read them
(``GET /v1/record`` in service/judge/challenge.py, the page in service/judge/director.py)."""

from __future__ import annotations

from typing import Any

from flask import current_app

from lextools.core.errors import RecordError
from lextools.features.record import Record

#: Where the app keeps its record (``service.judge.init_app`` puts a ChallengeRecord here).
EXTENSION = "lextools.record"


def record() -> Record:
    rec: Record = current_app.extensions[EXTENSION]
    return rec


def secret() -> bytes:
    """The receipts' secret, read once per app (``lextools serve`` makes it before the workers fork)."""
    key: bytes | None = current_app.extensions.get(EXTENSION + ".secret")
    if key is None:
        key = current_app.extensions[EXTENSION + ".secret"] = record().secret()
    return key


def record_entries(since: str | None = None) -> list[dict[str, Any]]:
    """The record's challenges from ``since`` on (:func:`lextools.features.record.parse_since`), oldest
    first; none when no challenge has been judged yet (the record is made by the first one)."""
    try:
        return record().entries(since)
    except RecordError:
        if record().exists():
            raise
        return []
