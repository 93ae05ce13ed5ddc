"""Text a client typed, made inert for the director: one function for every output that shows it.

The challenge record keeps the words exactly as a client sent them (they are the evidence, and the
receipt's signature covers them as sent). Whoever shows them to a person — ``lextools record`` (table,
CSV, JSON), ``lextools receipt verify``, ``GET /v1/record`` (JSON, CSV), the director's page and its
CSV — shows them through :func:`inert`, so no word can move a terminal's cursor, clear its screen,
hide text, colour a verdict, or reorder what is shown around it:

- every control character (C0, DEL, C1), every format character (Unicode category Cf: the bidi
  embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069, the marks U+200E/U+200F, zero
  widths, …), line and paragraph separators (U+2028, U+2029) and lone surrogates are written as
  escapes: ``\\x1b`` for one up to U+00FF, ``\\u202e`` (``\\U000e0001``) above;
- the backslash itself is written ``\\\\``, so an escape shown is always one the word held, never
  one it was typed to look like.

A spreadsheet cell gets :func:`csv_cell` on top: OWASP's rule against CSV injection (a cell that
starts with ``=``, ``+``, ``-``, ``@``, tab or carriage return gets a leading ``'``; the CSV writer
doubles its quotes). JSON keeps the words exact for programs and inert for people: :func:`inert_json`
writes those same characters as JSON's ``\\uXXXX`` escapes, which a JSON parser reads back as typed.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: The Unicode categories shown as escapes: controls, formats, surrogates, line/paragraph separators.
CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})

#: The code points of :data:`CATEGORIES` (Unicode 14, Python 3.11's; tests/test_director.py checks
#: it against the running Python's), as ranges: computing them at import would cost 0.2 s.
UNSAFE_RANGES = (
    (0x0000, 0x001F), (0x007F, 0x009F), (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD),
    (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x180E, 0x180E), (0x200B, 0x200F), (0x2028, 0x202E),
    (0x2060, 0x2064), (0x2066, 0x206F), (0xD800, 0xDFFF), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD),
    (0x110CD, 0x110CD), (0x13430, 0x13438), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)  # fmt: skip
_CLASS = "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in UNSAFE_RANGES)
_UNSAFE_RE = re.compile(f"[{_CLASS}]")
_SHOWN_RE = re.compile(f"[\\\\{_CLASS}]")

#: OWASP's CSV injection rule: a cell starting with one of these is read as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _escape(match: re.Match[str]) -> str:
    c = match.group()
    if c == "\\":
        return "\\\\"
    n = ord(c)
    return f"\\x{n:02x}" if n <= 0xFF else f"\\u{n:04x}" if n <= 0xFFFF else f"\\U{n:08x}"


def inert(text: str) -> str:
    """``text`` as a person may see it: controls, formats and backslashes escaped (module docstring)."""
    return _SHOWN_RE.sub(_escape, text)


def inert_words(words: list[str]) -> str:
    """A play's words as one line: each :func:`inert`, joined by spaces."""
    return " ".join(inert(w) for w in words)


def csv_cell(value: object) -> str:
    """A CSV cell a spreadsheet shows as text: :func:`inert`, then ``'`` before a formula's first
    character (OWASP). The CSV writer quotes the cell and doubles its quotes."""
    text = inert(str(value))
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _json_escape(match: re.Match[str]) -> str:
    units = match.group().encode("utf-16-le", "surrogatepass")
    return "".join(f"\\u{int.from_bytes(units[i : i + 2], 'little'):04x}" for i in range(0, len(units), 2))


def inert_json(data: Any) -> str:
    """``data`` as compact JSON (not ASCII-only: CANCIÓN stays CANCIÓN) in which every character
    :func:`inert` escapes is a ``\\uXXXX`` escape: the same value for a program, inert for a person.
    Those characters only occur inside JSON strings, where the escape means the same character."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return _UNSAFE_RE.sub(_json_escape, text)
