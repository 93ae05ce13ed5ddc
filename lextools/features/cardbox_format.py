"""The cardbox format the study page and the server share (version 2; version 1 still read), checked
before anything is stored: the server keeps a cardbox as the text it was given, so whatever it keeps
must be a cardbox the page can read back, of bounded size, and text every store can hold.

A cardbox is ``{"format": "lextools-cardbox", "version": 1 | 2, "exported": ISO-8601, "cards": [...]}``.
A version-2 card is a tombstone (``id``, ``deck``, ``changed``, ``"deleted": true``, nothing else) or a
live card (``edition``, ``type``, ``question``, ``right``, ``wrong``, ``last``, ``due``, and a
``scheduler``: ``"leitner"`` with ``box`` 0–15, or ``"fsrs"`` with the ts-fsrs card fields); a
version-1 card is what static/cardbox.js's import takes (``box``, ``due``, ``question``). Bounds:
:data:`MAX_CARDS` cards, ids of :data:`MAX_ID_CHARS` characters, :data:`MAX_DEPTH` levels of nesting,
integers a browser reads exactly (|n| ≤ 2^53), no NaN or infinity, and no text PostgreSQL or UTF-8
cannot hold (a NUL, a lone surrogate such as ``"\\ud800"``). The one error is
:class:`CardboxRefused`, the service's 400 ``bad_request``.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from lextools.core.errors import QueryError
from lextools.core.messages import message

#: The ``format`` of a cardbox (static/cardbox.js's ``FORMAT``).
FORMAT = "lextools-cardbox"
#: The versions read: 1 (Leitner only, no ``changed``) and 2 (tombstones, FSRS).
VERSIONS = (1, 2)
#: Cards in one cardbox: far more than a player studies (the byte bound usually comes first).
MAX_CARDS = 20_000
#: Characters of a card's ``id`` and ``deck`` (``edition|type|question``).
MAX_ID_CHARS = 200
#: Levels of arrays and objects (the cardbox 1, its cards 2, a card 3, its question 4, an answer 6).
MAX_DEPTH = 12
#: The largest integer a browser's JSON reads exactly.
MAX_SAFE_INTEGER = 2**53
#: The highest Leitner box (static/cardbox.js's ``TOP_BOX``).
TOP_BOX = 15
#: A NUL in JSON text (``\\u0000`` not itself escaped): PostgreSQL's text refuses it. (Lone surrogates
#: have no UTF-8 at all: refused when the text is encoded.)
_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")
#: A JSON string, to be emptied before the structure is read.
_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
#: A run of 16 digits or more (2^53 has 16): an integer over it, unless part of a decimal or exponent.
_DIGITS = re.compile(r"\D(\d{16,})")  # the non-digit first: a match is tried once per run, not per digit
#: Everything but a bracket, to be deleted before the depth is counted.
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
#: The ts-fsrs card fields a version-2 FSRS card carries, all numbers (``last_review`` may be null).
FSRS_FIELDS = ("stability", "difficulty", "state", "reps", "lapses", "scheduled_days", "elapsed_days",
               "learning_steps", "last_review")  # fmt: skip
#: The keys of a tombstone: nothing else may come with ``"deleted": true``.
TOMBSTONE_KEYS = frozenset({"id", "deck", "changed", "deleted"})


class CardboxRefused(QueryError, code="bad_request"):
    """A body that is not a cardbox this server keeps (its shape, its bounds, or text it cannot store)."""


def checked_cardbox(value: Any) -> str:
    """``value`` (JSON as Python reads it) checked against the format; the compact text to keep."""
    if not isinstance(value, dict) or value.get("format") != FORMAT or not isinstance(value.get("cards"), list):
        raise CardboxRefused(message("sync_not_cardbox"))
    text = _storable_text(value)
    version = value.get("version", 1)
    if type(version) is not int or version not in VERSIONS:
        raise CardboxRefused(message("sync_bad_field", field="version"))
    if "exported" in value and not (isinstance(value["exported"], str) and len(value["exported"]) <= 64):
        raise CardboxRefused(message("sync_bad_field", field="exported"))
    cards: list[Any] = value["cards"]
    if len(cards) > MAX_CARDS:
        raise CardboxRefused(message("sync_too_many_cards", most=MAX_CARDS))
    ids: set[str] = set()
    for index, card in enumerate(cards):
        problem = _card_problem(card, version)
        if problem is None and card["id"] in ids:
            problem = "id"  # one card per id: a merge leaves one
        if problem is not None:
            raise CardboxRefused(message("sync_bad_card", index=index, field=problem))
        ids.add(card["id"])
    return text


def _storable_text(value: Any) -> str:
    """The compact JSON text of ``value``, checked as a whole with C-speed passes over the text (a
    cardbox of 1 MiB holds some 100,000 values: a Python walk over them costs a worker a second):
    no NaN or infinity, UTF-8 for every character (no lone surrogate), no NUL, bounded depth, and
    no integer a browser cannot read exactly."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError:
        raise CardboxRefused(message("sync_bad_number")) from None
    except RecursionError:
        raise CardboxRefused(message("sync_too_deep", most=MAX_DEPTH)) from None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise CardboxRefused(message("sync_unstorable")) from None
    if "\\u0000" in text and _NUL.search(text):  # the substring first: the pattern is slow on 1 MiB
        raise CardboxRefused(message("sync_unstorable"))
    structure = _STRINGS.sub('""', text)  # what is left is brackets, numbers and literals
    if _depth(structure) > MAX_DEPTH:
        raise CardboxRefused(message("sync_too_deep", most=MAX_DEPTH))
    for found in _DIGITS.finditer(structure):
        start, end = found.span(1)
        decimal = structure[end : end + 1] in (".", "e", "E") or structure[start - 1 : start] in (".", "e", "E", "+")
        if not decimal and int(found.group(1)) > MAX_SAFE_INTEGER:
            raise CardboxRefused(message("sync_bad_number"))
    return text


def _depth(structure: str) -> int:
    """The deepest nesting of arrays and objects in JSON text with its strings emptied."""
    brackets = _NOT_BRACKETS.sub("", structure)
    return max(accumulate(1 if b in "[{" else -1 for b in brackets), default=0)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _card_problem(card: Any, version: int) -> str | None:
    """The first field of ``card`` that is missing or wrong, or None for a card of the format."""
    if not isinstance(card, dict):
        return "card"
    for key in ("id", "deck"):
        if not (isinstance(card.get(key), str) and 0 < len(card[key]) <= MAX_ID_CHARS):
            return key
    if not card["id"].startswith(card["deck"] + "|"):
        return "id"
    if version == 1:
        return _leitner_problem(card) or _question_problem(card)
    if not _count(card.get("changed")):
        return "changed"
    if "deleted" in card:
        return None if card["deleted"] is True and card.keys() <= TOMBSTONE_KEYS else "deleted"
    return _live_problem(card)


def _question_problem(card: dict[str, Any]) -> str | None:
    question = card.get("question")
    ok = isinstance(question, dict) and isinstance(question.get("id"), str)
    return None if ok else "question"


def _leitner_problem(card: dict[str, Any]) -> str | None:
    box = card.get("box")
    if not (type(box) is int and 0 <= box <= TOP_BOX):
        return "box"
    return None if _number(card.get("due")) else "due"


def _live_problem(card: dict[str, Any]) -> str | None:
    """A version-2 live card: what it is, how it went, and its scheduler's state."""
    for key in ("edition", "type"):
        if not isinstance(card.get(key), str):
            return key
    if card["deck"] != f"{card['edition']}|{card['type']}":
        return "deck"
    problem = _question_problem(card)
    if problem is not None:
        return problem
    for key in ("right", "wrong"):
        if not _count(card.get(key)):
            return key
    for key in ("last", "due"):
        if not _number(card.get(key)):
            return key
    scheduler = card.get("scheduler")
    if scheduler == "leitner":
        return _leitner_problem(card)
    if scheduler == "fsrs":
        return _fsrs_problem(card.get("fsrs"))
    return "scheduler"


def _fsrs_problem(fsrs: Any) -> str | None:
    if not isinstance(fsrs, dict):
        return "fsrs"
    for key in FSRS_FIELDS:
        value = fsrs.get(key)
        if not (_number(value) or (key == "last_review" and value is None and key in fsrs)):
            return f"fsrs.{key}"
    return None
