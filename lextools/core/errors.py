"""The library's exceptions.

Every error a user can cause — a word that cannot be spelled, an unknown edition, a corrupt lexicon
file — is a :class:`LexiconError`. The CLI maps them to exit code 2 and a message, the service to one
JSON error shape; anything else escaping the library is a bug.
"""

from __future__ import annotations

import os
import re
from functools import cached_property

from lextools.core.messages import Message


class LexiconError(Exception):
    """Base class of every error the library raises on purpose."""

    #: A short machine-readable code, used by the service's JSON errors; a subclass names its own
    #: in its class line (``class QueryError(LexiconError, code="bad_query")``).
    code = "lexicon_error"

    def __init_subclass__(cls, code: str | None = None, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if code is not None:
            cls.code = code

    def __init__(self, text: Message | str = "") -> None:
        super().__init__(str(text))
        #: The message in the catalogue (lextools/messages.py), when there is one to translate.
        self.message = text if isinstance(text, Message) else None

    def text(self, lang: str) -> str:
        """The error in ``lang`` when the catalogue has it, else as raised (English)."""
        return self.message.text(lang) if self.message is not None else str(self)


class UnknownEditionError(LexiconError, code="unknown_edition"):
    """The edition name is not one of the editions shipped with lextools."""


class EditionDataError(LexiconError, code="edition_data"):
    """An edition file is inconsistent (tile totals, duplicate tiles, bad notation codes)."""


class SpellingError(LexiconError, code="unspellable"):
    """A word cannot be spelled with the edition's tiles.

    ``reason`` is a sentence a player can read, in English; ``message`` is the same sentence as a
    :class:`~lextools.core.messages.Message`, which the service renders in the player's language
    (:meth:`text`). ``rule`` names the rule for exclusion reports (``cannot-spell``,
    ``letter-without-tile``, ``empty``, ``malformed``).
    """

    def __init__(self, word: str, reason: Message | str, rule: str = "cannot-spell") -> None:
        # The sentence is rendered when it is read (:attr:`reason`, ``str``), not here: a build of the
        # five defaults meets 170,000 words it cannot spell and reads the reason of 25 per rule.
        Exception.__init__(self, word)
        self.word = word
        self.message = reason if isinstance(reason, Message) else None
        self._reason = reason
        self.rule = rule

    @cached_property
    def reason(self) -> str:
        """Why the word cannot be spelled, in English: a sentence a player can read."""
        return str(self._reason)

    def __str__(self) -> str:
        return f"{self.word!r}: {self.reason}"

    def text(self, lang: str) -> str:
        """The whole error (word and reason) in ``lang``."""
        reason = self.message.text(lang) if self.message is not None else self.reason
        return f"{self.word!r}: {reason}"


class RecordError(LexiconError, code="record_error"):
    """The challenge record or the server secret cannot be read or written."""


class RateLimitError(LexiconError, code="too_many_challenges"):
    """A client sent more challenges per second than a judge needs."""


class QueryError(LexiconError, code="bad_query"):
    """A query is malformed (bad pattern, rack too long) or needs data the edition lacks."""


class QuizTooLargeError(QueryError, code="quiz_too_large"):
    """A quiz over the size one request may ask for (questions × tiles × blanks, or its answers)."""


class BusyError(LexiconError, code="busy"):
    """Work this process cannot finish in a request's budget now (a quiz's word lists still being
    ranked, an export being made): nothing is wrong with the request; ask again in ``retry_after`` s."""

    retry_after = 2


class PositionError(QueryError):
    """A resume position (``after=``) that no walk of this kind gave out."""


class LexiconNotFoundError(LexiconError, code="lexicon_not_found"):
    """No built lexicon for the edition in the lexicon directory."""


class CorruptLexiconError(LexiconError, code="corrupt_lexicon"):
    """A lexicon's files are truncated, altered, half-written or of another format version."""


class SourceError(LexiconError, code="bad_source"):
    """A word source cannot be read (missing file, unknown source name, checksum mismatch)."""


class ExportFormatError(LexiconError, code="bad_export_format"):
    """A file is not of the export format it is read as (KWG, KAD, DAWG, text), or cannot be one."""


class BuildRefusedError(LexiconError, code="build_refused"):
    """A build would replace a lexicon with a worse one (no words, a large loss) and was not committed."""


class BuildBusyError(LexiconError, code="build_busy"):
    """Another build of the same edition is writing to the same directory (``--no-wait``)."""


def path_text(path: str | os.PathLike[str]) -> str:
    """A path as text a person can read, also when its name is not valid UTF-8 (shown as escapes) or
    holds control characters (an ESC byte is shown as ``\\x1b``, never sent to a terminal)."""
    return printable(os.fspath(path).encode("utf-8", "backslashreplace").decode("utf-8"))


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """Text with its control characters escaped (``\\x1b``, ``\\t``): safe to show on one line.

    >>> printable("a\\x1b[31mb\\tc")
    'a\\\\x1b[31mb\\\\x09c'
    """
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def os_error_message(e: OSError) -> str:
    """One line naming the path and the cause: ``out/es-fise.json: No space left on device``."""
    cause = e.strerror or str(e)
    if e.filename is None:
        return cause
    where = path_text(e.filename)
    if e.filename2 is not None:
        where += f" → {path_text(e.filename2)}"
    return f"{where}: {cause}"
