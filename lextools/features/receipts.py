"""Receipts: what a challenge answer carries so that its ruling can be proved after the game.

A receipt names the challenge (a random id), when it was judged, by which edition and which lexicon
(its checksum) and the verdict, and signs that and the words with HMAC-SHA256 (RFC 2104) under a
secret only the server holds. The words are signed but not printed on the receipt — a blind judge's
answer never carries them — so a receipt is checked against the challenge record, which holds them:
changing any field of the receipt, or the words or verdict in the record, breaks the signature, and
a receipt made up from nothing has none.

The signed message is the canonical JSON (sorted keys, no spaces, UTF-8) of the six fields ``id,
time, edition, checksum, words, acceptable``, so any program with the secret can check a receipt
without this code.

The secret is ``LEXTOOLS_SECRET`` when set; otherwise 32 random bytes generated the first time and
kept in a file beside the record, readable by its owner only (mode 0600). It is created with a hard
link from a complete temporary file, so two workers starting together agree on one secret and
nobody ever reads half of it.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from lextools.core.errors import RecordError

#: The environment variable that holds the server secret (any text).
SECRET_ENV = "LEXTOOLS_SECRET"

#: The fields a signature covers, in the order the receipt lists them.
SIGNED_FIELDS = ("id", "time", "edition", "checksum", "words", "acceptable")


@dataclass(frozen=True)
class Receipt:
    """What a challenge answer carries. The words are signed but not repeated: a blind judge's
    answer must not carry them (the record has them)."""

    id: str
    time: str
    edition: str
    checksum: str
    acceptable: bool
    signature: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        """The receipt as one line of compact JSON: what ``lextools receipt verify`` reads back."""
        return json.dumps(self.as_dict(), ensure_ascii=False, separators=(",", ":"))


def secret_path(record_path: Path) -> Path:
    return record_path.with_name(record_path.name + ".secret")


def load_secret(record_path: Path, create: bool = True) -> bytes:
    """The server secret: ``$LEXTOOLS_SECRET``, else the file beside the record (created once, unless
    ``create`` is false: checking a receipt never makes up a secret)."""
    from_env = os.environ.get(SECRET_ENV)
    if from_env:
        return from_env.encode("utf-8")
    path = secret_path(record_path)
    try:
        return _read_secret(path)
    except FileNotFoundError:
        if not create:
            raise RecordError(
                f"no server secret beside {record_path.name} and no ${SECRET_ENV}: this is not the record's server"
            ) from None
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(secrets.token_hex(32) + "\n")
            f.flush()
            os.fsync(f.fileno())
        with contextlib.suppress(FileExistsError):  # another process made it first: theirs is the secret
            os.link(tmp, path)
        return _read_secret(path)
    except OSError as e:
        raise RecordError(f"cannot create the server secret {path.name}: {e.strerror or e}") from None
    finally:
        tmp.unlink(missing_ok=True)


def _read_secret(path: Path) -> bytes:
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read the server secret {path.name}: {e}") from None
    if len(text) < 32:
        raise RecordError(f"the server secret {path.name} is too short to be one this server wrote")
    return text.encode("ascii")


def signed_message(receipt: dict[str, Any], words: list[str]) -> bytes:
    fields = {**{k: v for k, v in receipt.items() if k in SIGNED_FIELDS}, "words": list(words)}
    return json.dumps(
        {name: fields[name] for name in SIGNED_FIELDS}, ensure_ascii=False, sort_keys=True, separators=(",", ":")
    ).encode("utf-8")


def sign(secret: bytes, receipt: dict[str, Any], words: list[str]) -> str:
    return hmac.new(secret, signed_message(receipt, words), hashlib.sha256).hexdigest()


def issue(
    secret: bytes, id: str, time: str, edition: str, checksum: str, words: list[str], acceptable: bool
) -> Receipt:
    unsigned = Receipt(id, time, edition, checksum, acceptable, "")
    return Receipt(id, time, edition, checksum, acceptable, sign(secret, unsigned.as_dict(), words))


#: The longest text read as a receipt: a whole challenge answer, with its per-word results, is a few KB.
MAX_RECEIPT_CHARS = 64 * 1024

#: The fields of a receipt, as the answer and ``lextools receipt verify`` show them.
RECEIPT_FIELDS = ("id", "time", "edition", "checksum", "acceptable", "signature")


def parse(text: str) -> Receipt:
    """Read a pasted receipt (or a whole challenge answer); ``ValueError`` saying what is wrong with it."""
    if len(text) > MAX_RECEIPT_CHARS:
        raise ValueError(f"longer than any challenge answer ({len(text)} characters, at most {MAX_RECEIPT_CHARS})")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON ({e.msg}, character {e.pos})") from None
    except RecursionError:  # [[[[…: deeper than Python's parser goes, and than any receipt
        raise ValueError("nested too deeply to be a receipt") from None
    if isinstance(data, dict) and isinstance(data.get("receipt"), dict):  # a whole challenge answer
        data = data["receipt"]
    if not isinstance(data, dict) or sorted(data) != sorted(RECEIPT_FIELDS):
        raise ValueError("a receipt is a JSON object with exactly the fields " + ", ".join(RECEIPT_FIELDS))
    strings = [data[k] for k in ("id", "time", "edition", "checksum", "signature")]
    if not all(isinstance(s, str) for s in strings) or not isinstance(data["acceptable"], bool):
        raise ValueError("a receipt's fields have the wrong types")
    try:
        for s in strings:
            s.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate ("\\ud800"): no server wrote it
        raise ValueError("a receipt's fields are not UTF-8 text") from None
    return Receipt(**data)


def signature_matches(secret: bytes, receipt: Receipt, words: list[str]) -> bool:
    return hmac.compare_digest(sign(secret, receipt.as_dict(), words), receipt.signature)
