"""Filters: the named rules that decide which spelled forms become words of a lexicon.

Each rule is a pure predicate over a :class:`Candidate` answering "drop this form?". The build
records, per rule, how many words it dropped and a few examples (the exclusion report), so every
word missing from a lexicon can be traced to a rule. A word is kept when *any* of the forms that
spell it passes every rule — VELOS is both VELO+S and (in a dictionary that generates enclitics)
VELAR+OS, and the plural keeps it (REFERENCE §2, homographs).

Recipes in ``build/`` name the rules an edition applies; a house-rules build may leave one out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lextools.errors import SourceError
from lextools.tokenize import Spelling


@dataclass(frozen=True)
class SourceWord:
    """One form offered by a source, with what the source knows about it."""

    raw: str  # as written in the source
    source: str = ""  # the source's name
    stem: str | None = None  # dictionary headword, when the source has one (hunspell)
    affixes: tuple[str, ...] = ()  # affix flags applied to the stem, in order (hunspell)
    tags: frozenset[str] = field(default_factory=frozenset)  # source-specific facts


@dataclass(frozen=True)
class Candidate:
    """A source word once spelled in an edition: what the rules judge."""

    raw: str
    spelling: Spelling
    source: str = ""
    stem: str | None = None  # dictionary headword, when the source has one (hunspell)
    affixes: tuple[str, ...] = ()  # affix flags applied to the stem, in order (hunspell)
    tags: frozenset[str] = field(default_factory=frozenset)  # source-specific facts


@dataclass(frozen=True)
class Rule:
    name: str
    description: str
    drops: Callable[[Candidate], bool]


def _one_tile(c: Candidate) -> bool:
    return len(c.spelling.tiles) < 2


def _capitalised(c: Candidate) -> bool:
    return c.raw[:1].isupper() and not c.raw.isupper()


def _all_capitals(c: Candidate) -> bool:
    letters = [ch for ch in c.raw if ch.isalpha()]
    return len(letters) >= 2 and c.raw.isupper() and "lowercase-list" in c.tags


#: Rules every edition can use. Rules that need a source's provenance (enclitics, voseo) are
#: registered by the modules that know that source.
RULES: dict[str, Rule] = {}


def register(rule: Rule) -> Rule:
    RULES[rule.name] = rule
    return rule


register(Rule("one-tile", "a single tile is not a play: words have at least two tiles", _one_tile))
register(
    Rule(
        "proper-noun",
        "capitalised in the source (Madrid, Pedro): proper nouns are not allowed",
        _capitalised,
    )
)
register(
    Rule(
        "acronym",
        "written in capitals in a lower-case source (DVD, USB): acronyms are not allowed",
        _all_capitals,
    )
)


def rules_named(names: Sequence[str]) -> list[Rule]:
    """The rules a recipe names, in order; an unknown name is an error, not silently ignored."""
    unknown = [n for n in names if n not in RULES]
    if unknown:
        raise SourceError(f"unknown filter rule(s) {', '.join(unknown)}; known: {', '.join(sorted(RULES))}")
    return [RULES[n] for n in names]


def first_rule_dropping(candidate: Candidate, rules: Sequence[Rule]) -> str | None:
    for rule in rules:
        if rule.drops(candidate):
            return rule.name
    return None
