"""The library's exceptions.

Every error a user can cause — a word that cannot be spelled, an unknown edition, a corrupt lexicon
file — is a :class:`LexiconError`. The CLI maps them to exit code 2 and a message, the service to one
JSON error shape; anything else escaping the library is a bug.
"""

from __future__ import annotations


class LexiconError(Exception):
    """Base class of every error the library raises on purpose."""

    #: A short machine-readable code, used by the service's JSON errors.
    code = "lexicon_error"


class UnknownEditionError(LexiconError):
    """The edition name is not one of the editions shipped with lextools."""

    code = "unknown_edition"


class EditionDataError(LexiconError):
    """An edition file is inconsistent (tile totals, duplicate tiles, bad notation codes)."""

    code = "edition_data"


class SpellingError(LexiconError):
    """A word cannot be spelled with the edition's tiles.

    ``reason`` is a sentence a player can read; ``rule`` names the rule for exclusion reports
    (``cannot-spell``, ``letter-without-tile``, ``empty``, ``malformed``).
    """

    code = "unspellable"

    def __init__(self, word: str, reason: str, rule: str = "cannot-spell") -> None:
        super().__init__(f"{word!r}: {reason}")
        self.word = word
        self.reason = reason
        self.rule = rule


class QueryError(LexiconError):
    """A query is malformed (bad pattern, rack too long) or needs data the edition lacks."""

    code = "bad_query"


class LexiconNotFoundError(LexiconError):
    """No built lexicon for the edition in the lexicon directory."""

    code = "lexicon_not_found"


class CorruptLexiconError(LexiconError):
    """A lexicon's files are truncated, altered, half-written or of another format version."""

    code = "corrupt_lexicon"


class SourceError(LexiconError):
    """A word source cannot be read (missing file, unknown source name, checksum mismatch)."""

    code = "bad_source"


class ExportFormatError(LexiconError):
    """A file is not of the export format it is read as (KWG, KAD, DAWG, text), or cannot be one."""

    code = "bad_export_format"
