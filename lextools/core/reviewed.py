"""The review of short words: a file of verdicts, one per word, with the reason for each.

Its format (a source of format ``reviewed``)::

    # word   verdict  why
    AH       keep     interjection with its own dictionary entry
    AR       drop     no dictionary entry: a fragment, not a word

The build applies it (:mod:`lextools.builder.review`); explanations quote a dropped word's reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from lextools.core.errors import SourceError
from lextools.core.inputs import read_input

if TYPE_CHECKING:
    from lextools.core.sources import Source

#: The rule a build reports for the words a review drops.
RULE_NAME = "short-word-review"
VERDICTS = ("keep", "drop")


class Verdict(NamedTuple):
    """One line of a review (a named tuple: made at import in a fraction of a dataclass's time, and
    every look-up that explains imports this module)."""

    word: str
    keep: bool
    why: str


def read_review(source: Source) -> list[Verdict]:
    """The verdicts of a review file; a malformed line is an error naming the line."""
    verdicts = []
    path = source.files["list"]
    for number, line in enumerate(read_input(path, gz=False).decode("utf-8").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        parts = text.split(None, 2)
        if len(parts) < 3 or parts[1] not in VERDICTS:
            raise SourceError(f"{path.name}:{number}: expected 'WORD keep|drop why', got {text!r}")
        verdicts.append(Verdict(parts[0], parts[1] == "keep", parts[2]))
    return verdicts


def why_dropped(source: Source, word: str) -> str | None:
    """The review's reason for dropping a word (its spelling as the lexicon shows it)."""
    for v in read_review(source):
        if not v.keep and v.word.upper() == word:
            return v.why
    return None
