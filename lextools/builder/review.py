"""Reviewed short words: a hand-made verdict, with its justification, on every word of a few lengths.

Two- and three-tile words decide games and are where free dictionaries are weakest (letter names
missing, abbreviations and fragments of Latin phrases present), so each edition's short words are
reviewed by hand against the public rules and dictionaries, in a file of ``sources/`` with a
descriptor of format ``reviewed``::

    # word   verdict  why
    AH       keep     interjection with its own dictionary entry
    AR       drop     no dictionary entry: a fragment, not a word

The descriptor's ``options.lengths`` (in tiles) are the lengths the review covers completely: a
recipe that names the review keeps a word of those lengths only when the review keeps it, whatever
the other sources say, and adds the kept words the other sources lack (ÑU, FI). The build reports
the words it removed as ``short-word-review``, and ``lextools explain`` quotes the reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import compress, count

from lextools.builder.filters import Candidate, Forms, Rule, SourceWord
from lextools.core.edition import Edition
from lextools.core.errors import SpellingError
from lextools.core.reviewed import RULE_NAME, read_review
from lextools.core.sources import Source, verify
from lextools.core.spelling import spell

RULE_DESCRIPTION = "a short word the review of short words does not keep"


def review_words(source: Source) -> Iterator[SourceWord]:
    """The kept words, as the words of a source."""
    for v in read_review(source):
        if v.keep:
            yield SourceWord(v.word.lower(), source=source.name, tags=frozenset({"reviewed"}))


def review_rule(sources: list[Source], edition: Edition) -> Rule:
    """Drop every word a review drops, and every word of a reviewed length that no review keeps.

    A dropped word stays dropped in an edition where it is longer (CHOP is three tiles in es-fise,
    four in es-na103, which has no CH tile).
    """
    lengths: set[int] = set()
    verdicts: dict[str, bool] = {}
    for source in sources:
        verify(source)
        lengths.update(int(n) for n in source.options.get("lengths", []))
        for v in read_review(source):
            try:
                verdicts[spell(v.word, edition).key] = v.keep
            except SpellingError:
                continue  # KA in a review shared by editions: es-fise has no K tile

    dropped = {key for key, keep in verdicts.items() if not keep}

    def drops(c: Candidate) -> bool:  # the key has one character per tile
        verdict = verdicts.get(c.key)
        return verdict is False or (verdict is None and len(c.key) in lengths)

    def may_drop(forms: Forms) -> Iterable[int]:
        """The forms of a reviewed length and those the review drops at any length: a build judges
        every other form by its tags alone (``filters.Judge.screened``), with no Python per form."""
        reviewed = forms.of_lengths(lengths)
        if dropped.isdisjoint(forms.keys):  # (most batches: one test per key, in C)
            return reviewed
        return [*reviewed, *compress(count(), map(dropped.__contains__, forms.keys))]

    return Rule(RULE_NAME, RULE_DESCRIPTION, drops, may_drop=may_drop)
