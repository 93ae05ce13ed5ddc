"""Reading word lists: one word per line, in whatever a user happens to have.

A list may be UTF-8 (with or without a byte-order mark) or Latin-1 — the encoding of older Spanish
and French lists — and may end its lines with LF, CR or CRLF. Blank lines and lines starting with
``#`` are ignored; so is anything after the first tab or space (frequency columns, hunspell-style
tags), which lets frequency lists be read as they are. A ``.gz`` file is read decompressed.

A ``.kwg`` file (wolges' word graph, what Woogles publishes its lexicons as) is read too: the words of
its DAWG half, whose tile numbers only mean something in an edition's KWG alphabet (lextools.kwg).
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path

from lextools.edition import Edition
from lextools.errors import ExportFormatError, SourceError


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


def read_words(path: Path, edition: Edition | None = None) -> Iterator[str]:
    """The words of a list file, in file order, as written (not yet normalised); a KWG needs ``edition``."""
    if str(path).lower().endswith(".kwg"):
        yield from _kwg_words(path, edition)
        return
    text = decode(read_bytes(path))
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        word = line.strip()
        if not word or word.startswith("#"):
            continue
        yield word.split(None, 1)[0]


def _kwg_words(path: Path, edition: Edition | None) -> Iterator[str]:
    from lextools.kwg import kwg_spellings  # the graph reader is only needed for KWG files

    if edition is None:
        raise SourceError(f"{path}: a KWG numbers its tiles, so it is read for an edition")
    try:
        yield from kwg_spellings(read_bytes(path), edition)
    except ExportFormatError as e:
        raise SourceError(f"{path} is not a KWG file: {e}") from None
