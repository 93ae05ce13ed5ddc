"""Files a person gives lextools to read — word lists, ``--source``, KWG/KAD/DAWG files, a source's
files, standard input — bounded before they are read.

A hostile or mistaken file must be refused before it costs much: ``/dev/zero`` or a FIFO would never
end, a 2 GB file would be read whole before being found wanting, a word graph with a cycle would be
walked for ever. So every reader of a user's file goes through :func:`read_input`, which

- refuses anything but a regular file (a FIFO, a device, a directory, a socket) from its ``stat``,
  and opens it without blocking (a FIFO swapped in after the check still cannot hold the reader);
- refuses a file larger than its limit from its size, before reading a byte, and reads at most the
  limit plus one byte (a file that grows meanwhile is refused too);
- decompresses a ``.gz`` file at most to the same limit (a gzip bomb stops there).

A reader that decides from a file's head whether to read it at all (FISE's lists in a folder) opens it
with :func:`open_input` (a regular file, without blocking) and bounds its size (:func:`check_size`)
only once it is one of its own; a JSON file's nesting is bounded before it is parsed
(:func:`load_json`, :data:`MAX_JSON_DEPTH`).

Line-based readers then refuse a line longer than :data:`MAX_LINE_CHARS` (``lextools.core.wordlist``),
and the KWG reader refuses more than ``MAX_NODES`` nodes from the file's size, a cycle, a path longer
than ``MAX_DEPTH`` tiles or more than ``MAX_KWG_WORDS`` words, in one pass linear in the nodes
(``lextools.core.kwg``). The limits are these constants; docs/formats.md lists them all.
"""

from __future__ import annotations

import io
import json
import os
import re
import stat
import sys
from typing import BinaryIO

from lextools.core.errors import SourceError, path_text
from lextools.core.messages import message

#: The most bytes lextools reads from one input file or stream (a ``.gz`` file: decompressed). The
#: largest list the default builds read is under 16 MB decompressed; a full lexicon's list is ~7 MB.
MAX_INPUT_BYTES = 256 * 2**20
#: The longest line of a word list, in characters (a word is at most 15 tiles on the board).
MAX_LINE_CHARS = 4096


class InputRefusedError(SourceError):
    """An input file refused before it is read: not a regular file, too large, a line too long."""


def _refuse_special(path: str | os.PathLike[str], mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise InputRefusedError(message("input_not_regular", file=path_text(path)))


def _refuse_size(path: str | os.PathLike[str], size: int, limit: int) -> None:
    if size > limit:
        raise InputRefusedError(message("input_too_large", file=path_text(path), size=f"{size:,}", limit=f"{limit:,}"))


def check_input(path: str | os.PathLike[str], limit: int = MAX_INPUT_BYTES) -> int:
    """The size of the regular file at ``path``; :class:`InputRefusedError` when it is no regular file
    or is larger than ``limit``; ``OSError`` when it cannot be looked at (the caller names the cause)."""
    st = os.stat(path)
    _refuse_special(path, st.st_mode)
    _refuse_size(path, st.st_size, limit)
    return st.st_size


def check_size(path: str | os.PathLike[str], size: int, limit: int) -> None:
    """:class:`InputRefusedError` when ``size`` (a file's, from its ``stat``) is over ``limit``."""
    _refuse_size(path, size, limit)


def open_input(path: str | os.PathLike[str]) -> BinaryIO:
    """A user's file opened for reading when it is a regular file (from its ``stat``, then from the
    file opened, without blocking: a FIFO swapped in meanwhile cannot hold the reader). Its size is
    the caller's to bound (:func:`check_size`): a reader that looks at a file's head before deciding
    to read it (FISE's lists) passes over a huge file that is none of its own, reading 4 KB of it."""
    _refuse_special(path, os.stat(path).st_mode)
    f = os.fdopen(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb")
    try:
        _refuse_special(path, os.fstat(f.fileno()).st_mode)  # the file opened may not be the one looked at
    except InputRefusedError:
        f.close()
        raise
    return f


def read_input(path: str | os.PathLike[str], limit: int = MAX_INPUT_BYTES, gz: bool | None = None) -> bytes:
    """The bytes of a user's file, bounded as the module says; decompressed when ``gz`` (by default:
    when the name ends in ``.gz``). ``OSError`` is left to the caller, which knows what the file is."""
    check_input(path, limit)
    with open_input(path) as f:
        _refuse_size(path, os.fstat(f.fileno()).st_size, limit)
        data = f.read(limit + 1)
    _refuse_size(path, len(data), limit)
    if gz if gz is not None else os.fspath(path).endswith(".gz"):
        data = _gunzip(path, data, limit)
    return data


def _gunzip(path: str | os.PathLike[str], data: bytes, limit: int) -> bytes:
    import gzip  # noqa: PLC0415  (only for a .gz file: a command reading a lexicon's metadata loads none of it)

    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as g:
            out = g.read(limit + 1)
    except (OSError, EOFError) as e:
        raise SourceError(f"{path_text(path)} is not a readable gzip file ({e})") from None
    if len(out) > limit:
        raise InputRefusedError(message("input_inflates", file=path_text(path), limit=f"{limit:,}"))
    return out


#: The deepest nesting of a JSON document a person gives (a manifest is 4 levels deep): Python's
#: parser recurses once a level, so a 200,000-deep one would end in RecursionError.
MAX_JSON_DEPTH = 64
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_OPENS_CLOSES = bytes.maketrans(b"[{]}", b"\x01\x01\x02\x02")


_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))


def json_depth(data: bytes, stop: int | None = None) -> int:
    """How deep the arrays and objects of a JSON text nest (brackets inside strings not counted), in
    one pass over its brackets, checked before the text is parsed; the count ends once past ``stop``."""
    brackets = _JSON_STRING.sub(b"", data).translate(_OPENS_CLOSES, _NOT_BRACKETS)
    depth = most = 0
    for b in brackets:
        depth += 1 if b == 1 else -1
        if depth > most:
            most = depth
            if stop is not None and most > stop:
                break
    return most


def load_json(data: bytes, name: str, max_depth: int = MAX_JSON_DEPTH) -> object:
    """A JSON document a person gives, its depth bounded before it is parsed; ``ValueError`` (or
    ``UnicodeDecodeError``) when it is not JSON, as :func:`json.loads` says."""
    if json_depth(data, stop=max_depth) > max_depth:
        raise InputRefusedError(message("input_json_too_deep", file=name, limit=max_depth))
    return json.loads(data)


def read_stream(stream: BinaryIO | None = None, name: str = "standard input", limit: int = MAX_INPUT_BYTES) -> bytes:
    """At most ``limit`` bytes of a stream (standard input by default); more is refused, not read."""
    data = (stream or sys.stdin.buffer).read(limit + 1)
    if len(data) > limit:
        raise InputRefusedError(message("input_stream_too_large", file=name, limit=f"{limit:,}"))
    return data
