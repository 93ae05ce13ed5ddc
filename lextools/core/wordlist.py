"""Reading word lists: one word per line, the encoding decided per file and never guessed silently.

A list is read as:

- UTF-8, with or without a byte-order mark, when every byte sequence in it is valid UTF-8;
- UTF-16 or UTF-32 when it starts with the byte-order mark of one (a list saved as "Unicode" by
  Windows tools is UTF-16 with a BOM);
- Latin-1 when it has bytes of 0x80 and above but not one valid multi-byte UTF-8 sequence — the
  encoding of older Spanish and French lists. The build report says so.

A file mixing valid UTF-8 sequences with bytes that are not UTF-8 (lines pasted from two editors)
is refused, naming the first lines of each kind: reading it either way would corrupt some words
(NÚMERO read as Latin-1 is NÃºMERO). ``encoding=`` (``--encoding``) overrides the decision. NUL
bytes or control characters mean the file is not a text word list at all (a UTF-16 file without a
BOM, an archive, a DAWG) and it is refused.

Lines may end with LF, CR or CRLF. Blank lines and lines starting with ``#`` are ignored. Each
other line is one word, as written: a line with whitespace inside (``ad hoc``) is kept whole, so
that the build drops it under the ``multiword`` rule rather than cutting it to its first word. A
``.gz`` file is read decompressed.

A ``.kwg`` file (wolges' word graph, what Woogles publishes its lexicons as) is read too: the words of
its DAWG half, whose tile numbers only mean something in an edition's KWG alphabet (lextools.core.kwg).

Every file is bounded before it is read (lextools.core.inputs): a regular file of at most
``MAX_INPUT_BYTES`` (decompressed too), no line over ``MAX_LINE_CHARS`` characters; a KWG at most
``MAX_NODES`` nodes, without a cycle, checked before a word is listed.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

from lextools.core.edition import Edition
from lextools.core.errors import ExportFormatError, SourceError, path_text
from lextools.core.inputs import MAX_INPUT_BYTES, MAX_LINE_CHARS, InputRefusedError, read_input
from lextools.core.kwg import MAX_NODES, kwg_spellings
from lextools.core.messages import message

#: Byte-order marks, longest first (the UTF-32-LE mark starts with the UTF-16-LE one).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
#: Control characters no word list holds (tab, LF, CR and form feed are allowed).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")
#: A valid multi-byte UTF-8 sequence (RFC 3629): a lead byte and its continuation bytes.
_UTF8_SEQUENCE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
    rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2}"
)
#: Lines named per kind when a mixed file is refused.
LINES_NAMED = 3


@dataclass(frozen=True)
class WordList:
    """The words of one list file and the encoding it was read in.

    The words are kept as one UTF-8 byte string, joined by LF (no word holds one): a build holds its
    lists to its end, and a list of strings costs several times the bytes (as does one ``str`` when
    a single word needs two bytes a character).
    """

    path: Path
    lines: bytes  # the words, as written, in UTF-8, one per line (blank lines and comments dropped)
    encoding: str  # "UTF-8", "UTF-16", "Latin-1", or the name given with --encoding
    guessed: bool = False  # True when Latin-1 was chosen for lack of any UTF-8 sequence

    @classmethod
    def of(cls, path: Path, words: list[str], encoding: str, guessed: bool = False) -> WordList:
        return cls(Path(path), "\n".join(words).encode("utf-8", "surrogatepass"), encoding, guessed)

    @property
    def words(self) -> list[str]:
        """The words in file order (a new list each time)."""
        return self.lines.decode("utf-8", "surrogatepass").split("\n") if self.lines else []

    def iter_words(self, chunk: int = 1 << 16) -> Iterator[str]:
        """The words in file order, decoded a chunk at a time: never all of them as a list (and given
        one by one by ``chain``, in C, not by a generator resumed for each word)."""
        return chain.from_iterable(self._chunks(chunk))

    def _chunks(self, chunk: int) -> Iterator[list[str]]:
        lines, start = self.lines, 0
        while start < len(lines):
            end = lines.find(b"\n", start + chunk)
            end = len(lines) if end < 0 else end
            yield lines[start:end].decode("utf-8", "surrogatepass").split("\n")
            start = end + 1


def read_bytes(path: Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a list file, decompressed when its name ends in ``.gz``; bounded before it is
    read (a regular file of at most ``limit`` bytes, :mod:`lextools.core.inputs`)."""
    try:
        return read_input(path, limit)
    except OSError as e:
        raise SourceError(f"cannot read word list {path_text(path)}: {e.strerror or e}") from None


def decode(data: bytes, name: str = "the list", encoding: str | None = None) -> tuple[str, str, bool]:
    """The text of a list, the name of its encoding, and whether Latin-1 was chosen by elimination."""
    if encoding is not None:
        try:
            codec = codecs.lookup(encoding).name
        except LookupError:
            raise SourceError(f"unknown encoding {encoding!r} (try utf-8, latin-1, cp1252, utf-16)") from None
        try:
            text = data.decode(codec)
        except UnicodeDecodeError as e:
            line = data.count(b"\n", 0, e.start) + 1
            raise SourceError(f"{name} is not {encoding}: line {line} has bytes {encoding} cannot decode") from None
        return _checked(text.removeprefix("\ufeff"), name), encoding, False
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(codec)
            except UnicodeDecodeError:
                codec_name = codec.upper().removesuffix("-SIG")
                raise SourceError(f"{name} has a {codec_name} byte-order mark but is not {codec_name}") from None
            label = "UTF-8" if codec == "utf-8-sig" else codec.upper()
            return _checked(text.removeprefix("\ufeff"), name), label, False
    if b"\x00" in data:
        raise SourceError(
            f"{name} is not a word list: it holds NUL bytes (a binary file, or UTF-16 without a byte-order mark)"
        )
    try:
        return _checked(data.decode("utf-8"), name), "UTF-8", False
    except UnicodeDecodeError:
        pass
    utf8_lines, other_lines = _classify_lines(data)
    if utf8_lines:
        raise SourceError(
            f"{name} mixes encodings: UTF-8 on line(s) {_numbers(utf8_lines)}, bytes that are not UTF-8 on "
            f"line(s) {_numbers(other_lines)}; convert it to one encoding, or choose one with --encoding"
        )
    return _checked(data.decode("latin-1"), name), "Latin-1", True


def _classify_lines(data: bytes) -> tuple[list[int], list[int]]:
    """Line numbers holding valid multi-byte UTF-8, and line numbers holding bytes that are not UTF-8."""
    utf8, other = [], []
    for number, line in enumerate(data.splitlines(), 1):
        if line.isascii():
            continue
        if _UTF8_SEQUENCE.search(line):
            utf8.append(number)
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            other.append(number)
    return utf8, other


def _numbers(lines: list[int]) -> str:
    shown = ", ".join(map(str, lines[:LINES_NAMED]))
    return shown + (f" and {len(lines) - LINES_NAMED} more" if len(lines) > LINES_NAMED else "")


def long_line(text: str, limit: int = MAX_LINE_CHARS) -> int | None:
    """Where the first line longer than ``limit`` characters starts, else None. Jumps to the last
    line end within each ``limit + 1`` characters, so it costs a step per ``limit`` characters or so,
    not one per line."""
    start, size = 0, len(text)
    while start + limit < size:
        end = max(text.rfind("\n", start, start + limit + 1), text.rfind("\r", start, start + limit + 1))
        if end < 0:
            return start
        start = end + 1
    return None


def _checked(text: str, name: str) -> str:
    start = long_line(text)
    if start is not None:
        line = text.count("\n", 0, start) + text.count("\r", 0, start) - text.count("\r\n", 0, start) + 1
        raise InputRefusedError(message("input_line_too_long", file=name, line=line, limit=f"{MAX_LINE_CHARS:,}"))
    bad = _CONTROL.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + text.count("\r", 0, bad.start()) + 1
        raise SourceError(
            f"{name} is not a word list: line {line} holds the control character U+{ord(bad.group()):04X}"
            " (a binary file, or a list in another encoding: choose it with --encoding)"
        )
    return text


def words_of(text: str) -> list[str]:
    """One word per line, kept whole; blank lines and ``#`` comments skipped (``map`` and ``filter``
    in C; a test per word only for the lists that have a ``#`` somewhere)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    words = list(filter(None, map(str.strip, lines)))
    return [word for word in words if word[0] != "#"] if "#" in text else words


def read_text(path: Path, limit: int = MAX_INPUT_BYTES, encoding: str | None = None) -> str:
    """The text of a line-based file a person gives (a player's list, Zyzzyva's export), bounded and
    decoded as a word list is: a regular file of at most ``limit`` bytes, no over-long line."""
    return decode(read_bytes(path, limit), path_text(path), encoding)[0]


def read_list(path: Path, encoding: str | None = None, edition: Edition | None = None) -> WordList:
    """Read a list file; a file that is not a word list raises :class:`SourceError` naming it.

    The one entry point for a user's source file (``lextools build --source``, ``check --file``):
    a reader of another kind of file belongs behind it.
    """
    if str(path).lower().endswith(".kwg"):
        return WordList.of(path, _kwg_words(path, edition), "KWG tile numbers")
    text, used, guessed = decode(read_bytes(path), path_text(path), encoding)
    return WordList.of(path, words_of(text), used, guessed)


def _kwg_words(path: Path, edition: Edition | None) -> list[str]:
    if edition is None:
        raise SourceError(f"{path_text(path)}: a KWG numbers its tiles, so it is read for an edition")
    try:
        return list(kwg_spellings(read_bytes(path, 4 * MAX_NODES), edition))
    except ExportFormatError as e:
        raise SourceError(f"{path_text(path)} is not a KWG file: {e}") from None


def read_words(path: Path, encoding: str | None = None) -> Iterator[str]:
    """The words of a list file, in file order, as written (not yet normalised)."""
    return iter(read_list(path, encoding).words)
