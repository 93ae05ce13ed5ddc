"""Reading word lists: one word per line, in whatever a user happens to have.

A list may be UTF-8 (with or without a byte-order mark) or Latin-1 — the encoding of older Spanish
and French lists — and may end its lines with LF, CR or CRLF. Blank lines and lines starting with
``#`` are ignored; so is anything after the first tab or space (frequency columns, hunspell-style
tags), which lets frequency lists be read as they are. A ``.gz`` file is read decompressed.
"""

from __future__ import annotations

import gzip
import io
from collections.abc import Iterator
from pathlib import Path

from lextools.errors import SourceError


def read_bytes(path: Path) -> bytes:
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise SourceError(f"cannot read word list {path}: {e.strerror or e}") from None
    if str(path).endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as e:
            raise SourceError(f"{path} is not a readable gzip file ({e})") from None
    return data


def decode(data: bytes) -> str:
    """UTF-8 when the bytes are valid UTF-8, else Latin-1 (which accepts any byte)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_words(path: Path) -> Iterator[str]:
    """The words of a list file, in file order, as written (not yet normalised)."""
    # Universal newlines (LF, CR, CRLF), one line at a time: a list of every line of a big word
    # list would cost more memory than the build keeps.
    for line in io.StringIO(decode(read_bytes(path)), newline=None):
        word = line.strip()
        if not word or word.startswith("#"):
            continue
        yield word.split(None, 1)[0]
