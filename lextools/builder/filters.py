"""Filters: the named rules that decide which spelled forms become words of a lexicon.

Each rule is a pure predicate over a :class:`Candidate` answering "drop this form?". The build
records, per rule, how many words it dropped and a few examples (the exclusion report), so every
word missing from a lexicon can be traced to a rule. A word is kept when *any* of the forms that
spell it passes every rule — VELOS is both VELO+S and (in a dictionary that generates enclitics)
VELAR+OS, and the plural keeps it (the FISE lexicon rules on homographs).

Recipes in ``build/`` name the rules an edition applies; a house-rules build may leave one out.
Most rules read only the tags (:func:`tags_rule`): a build asks those once per set of tags
(:func:`judge`), not once per form, since a source gives millions of forms and a handful of tag sets.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import compress, count, repeat
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from lextools.core.edition import Edition
from lextools.core.errors import SourceError
from lextools.core.spelling import Spelling


class SourceWord(NamedTuple):
    """One form offered by a source, with what the source knows about it.

    A named tuple: a build makes millions, and a tuple is made without Python code when its fields
    are at hand (``tuple.__new__(SourceWord, fields)``, :func:`words_of`), where a dataclass runs its
    ``__init__`` for each; and a build of several editions keeps a shared source's words as they are.
    """

    raw: str  # as written in the source
    source: str = ""  # the source's name
    stem: str | None = None  # dictionary headword, when the source has one (hunspell)
    affixes: tuple[str, ...] = ()  # affix flags applied to the stem, in order (hunspell)
    tags: frozenset[str] = frozenset()  # source-specific facts


def words_of(raws: Iterable[str], source: str, tags: frozenset[str]) -> Iterator[SourceWord]:
    """The source words of these raw texts, all of one source and one set of tags (a word list's)."""
    fields = zip(raws, repeat(source), repeat(None), repeat(()), repeat(tags))
    return map(tuple.__new__, repeat(SourceWord), fields)


class Candidate:
    """A source word once spelled in an edition: what the rules judge.

    ``key`` is the lexicon key (one character per tile). A build spells its words in batches
    (:func:`lextools.core.spelling.spell_lines`), which give the key; the :class:`Spelling` is made from
    it only for a rule that reads it (:meth:`from_key`).
    """

    __slots__ = ("_edition", "_spelling", "affixes", "key", "raw", "source", "stem", "tags")

    def __init__(
        self,
        raw: str,
        spelling: Spelling,
        source: str = "",
        stem: str | None = None,
        affixes: tuple[str, ...] = (),
        tags: frozenset[str] = frozenset(),
    ) -> None:
        self.raw, self.source, self.stem, self.affixes, self.tags = raw, source, stem, affixes, tags
        self.key = spelling.key
        self._spelling: Spelling | None = spelling
        self._edition: Edition | None = None

    @classmethod
    def from_key(cls, word: SourceWord, key: str, edition: Edition) -> Candidate:
        """The candidate of a source word whose key the batch speller gave."""
        c = cls.__new__(cls)
        c.raw, c.source, c.stem, c.affixes, c.tags = word.raw, word.source, word.stem, word.affixes, word.tags
        c.key, c._edition, c._spelling = key, edition, None
        return c

    @property
    def spelling(self) -> Spelling:
        if self._spelling is None:
            assert self._edition is not None
            tiles = self._edition.decode(self.key)
            self._spelling = Spelling(input=self.raw, word="".join(tiles), tiles=tiles, key=self.key)
        return self._spelling


class Forms:
    """A batch of forms as the screens read it (:attr:`Rule.may_drop`): their raw texts and keys, and
    the keys' lengths, counted once for every screen that asks (in C: a screen per form in Python, or
    even a ``map`` per screen, was seconds of a default build)."""

    __slots__ = ("_lengths", "keys", "raws")

    def __init__(self, raws: Sequence[str], keys: Sequence[str]) -> None:
        self.raws, self.keys = raws, keys
        self._lengths: npt.NDArray[np.int32] | None = None

    @property
    def lengths(self) -> npt.NDArray[np.int32]:
        if self._lengths is None:
            self._lengths = np.fromiter(map(len, self.keys), dtype=np.int32, count=len(self.keys))
        return self._lengths

    def of_lengths(self, lengths: Iterable[int]) -> list[int]:
        """The places of the forms whose keys have one of these lengths (in tiles)."""
        return np.flatnonzero(np.isin(self.lengths, list(lengths))).tolist()


#: The forms of a batch a rule may drop, as their places in it.
Screen = Callable[[Forms], Iterable[int]]


@dataclass(frozen=True)
class Rule:
    name: str
    description: str
    drops: Callable[[Candidate], bool]
    #: For a rule that reads only the tags, the same test on a set of tags: :func:`judge` then asks it
    #: once per set of tags rather than once per candidate.
    by_tags: Callable[[frozenset[str]], bool] | None = None
    #: For a rule that reads the form: the forms of a batch it may drop (every one it drops, perhaps
    #: more: each is then asked :attr:`drops`), found without Python per form, so that a build judges
    #: the others by their tags alone (:meth:`Judge.screened`). None: it may drop any form.
    may_drop: Screen | None = None
    #: With :attr:`may_drop`: the tags with which the rule drops every form (None: no tags do).
    drops_tagged: Callable[[frozenset[str]], bool] | None = None


def tags_rule(name: str, description: str, test: Callable[[frozenset[str]], bool]) -> Rule:
    """A rule judging the tags alone."""
    return Rule(name, description, lambda c: test(c.tags), by_tags=test)


def _one_tile(c: Candidate) -> bool:
    return len(c.key) < 2  # a key has one character per tile


def _capitalised(c: Candidate) -> bool:
    return "proper-noun" in c.tags or (c.raw[:1].isupper() and not c.raw.isupper())


def _acronym(c: Candidate) -> bool:
    """DVD, USB, pH: a capital after the first letter, in a source that writes words in lower case."""
    if "acronym" in c.tags:
        return True
    # All in lower case (most words): no capital anywhere, without looking at each letter.
    return "lowercase-source" in c.tags and not c.raw.islower() and any(ch.isupper() for ch in c.raw[1:])


def _letter_plural(c: Candidate) -> bool:
    """BS, CS, DS: a consonant and S, the plural of a letter, written B's in running text (no word of the
    Hasbro rules). A vowel and S are words or letter names (AS, ES, IS, OS, US), so they stay. The key
    has one character per tile, a letter for a letter's tile (a digraph tile's code is a digit)."""
    key = c.key
    return len(key) == 2 and key[1] == "S" and key[0].isalpha() and key[0] not in "AEIOU"


def _tagged(tag: str) -> Callable[[frozenset[str]], bool]:
    def drops(tags: frozenset[str]) -> bool:
        return tag in tags

    return drops


def _enclitic(tags: frozenset[str]) -> bool:
    # The FISE lexicon rules: a pronominal headword (arrepentirse) is valid as infinitive with SE; nothing else
    # with a pronoun attached is.
    return "enclitic" in tags and "pronominal-infinitive" not in tags


def _voseo(tags: frozenset[str]) -> bool:
    # Only the rioplatense present indicative and imperative (CONTÁS, CONTÁ) count.
    return "voseo" in tags and "voseo-allowed" not in tags


#: Every rule a recipe may name. Sources describe their forms with tags (see lextools.builder.read);
#: the rules judge the tags, so a rule works for any source that knows the fact.
RULES: dict[str, Rule] = {}


def register(rule: Rule) -> Rule:
    RULES[rule.name] = rule
    return rule


def _keys_of_length(*lengths: int) -> Screen:
    def may_drop(forms: Forms) -> Iterable[int]:
        return forms.of_lengths(lengths)

    return may_drop


def _not_lower_case(forms: Forms) -> Iterable[int]:
    """The forms with a capital, or no cased letter: a raw text in lower case is neither a proper noun
    nor an acronym by its writing."""
    return compress(count(), map(operator.not_, map(str.islower, forms.raws)))


def _tag(tag: str) -> Callable[[frozenset[str]], bool]:
    return frozenset({tag}).issubset


register(
    Rule(
        "one-tile",
        "a single tile is not a play: words have at least two tiles",
        _one_tile,
        may_drop=_keys_of_length(0, 1),
    )
)
register(
    Rule(
        "proper-noun",
        "proper nouns (capitalised in the source: Madrid, Pedro)",
        _capitalised,
        may_drop=_not_lower_case,
        drops_tagged=_tag("proper-noun"),
    )
)
register(
    Rule(
        "acronym",
        "acronyms and symbols written with capitals (DVD, USB, pH)",
        _acronym,
        may_drop=_not_lower_case,
        drops_tagged=_tag("acronym"),
    )
)
register(
    Rule(
        "letter-plural",
        "plurals of single letters (BS, CS, DS), written B's in running text",
        _letter_plural,
        may_drop=_keys_of_length(2),
    )
)
register(
    tags_rule(
        "abbreviation", "abbreviations (written with a full stop in the source: etc., Sr.)", _tagged("abbreviation")
    )
)
register(tags_rule("affix", "prefixes, suffixes and combining forms standing alone (-ción, anti-)", _tagged("affix")))
register(tags_rule("multiword", "pieces of multi-word expressions", _tagged("multiword")))
register(
    tags_rule(
        "rare-british-spelling",
        "British, Canadian or Australian spellings that only the largest lists give (DOLOMITISED, PEPTISER)",
        _tagged("rare-british-spelling"),
    )
)
register(
    tags_rule(
        "enclitic",
        "verbs with enclitic pronouns (DAME, AMARLE, COLARSE); pronominal infinitives (ARREPENTIRSE) stay",
        _enclitic,
    )
)
register(
    tags_rule(
        "invariable",
        "a plural of a word that takes none: apocopes, unadapted foreign words, entries standing for an expression",
        _tagged("invariable"),
    )
)
register(tags_rule("voseo", "voseo forms other than present indicative and imperative", _voseo))
register(
    tags_rule(
        "unconfirmed",
        "a word only one source gives: no second source lists its headword",
        _tagged("unconfirmed"),
    )
)
register(
    tags_rule(
        "outside-paradigm",
        "a form the main dictionary does not give of a headword it has: its plurals and conjugation are used",
        _tagged("outside-paradigm"),
    )
)
for _name, _description in (
    ("fise-infinitive-only", "a conjugated form of a verb FISE's lists give in the infinitive only (obsolete)"),
    ("fise-participle", "a feminine or plural participle of a verb FISE's lists do not class as transitive"),
    ("fise-impersonal", "a personal form of a verb FISE's lists class as impersonal"),
    ("fise-defective", "a form of a defective verb that FISE's lists do not name"),
    ("fise-imperative", "an imperative of a verb whose current senses are all pronominal (FISE rules, §17.10)"),
    ("fise-se-infinitive", "the infinitive with SE of a verb whose entry has no SE (FISE rules, §17.5)"),
    ("fise-no-plural", "a plural of a word of FISE's lists that takes none (FISE rules, §18)"),
):
    register(tags_rule(_name, _description, _tagged(_name)))
register(
    tags_rule(
        "unconjugated",
        "a conjugated form of a verb no dictionary conjugates: such verbs count in the infinitive only",
        _tagged("unconjugated"),
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


def judge(rules: Sequence[Rule]) -> Judge:
    """:func:`first_rule_dropping` for the many candidates of a build (a :class:`Judge`)."""
    return Judge(rules)


class Judge:
    """:func:`first_rule_dropping` for the many candidates of a build.

    The rules that read only tags (:attr:`Rule.by_tags`) are asked once per set of tags — a source
    has a handful — and the answer kept as a plan: the other rules to ask in order, ending with the
    first tags rule that drops (if one does). A batch of forms is screened first (:meth:`screened`):
    a form no rule that reads the form may drop is judged by its tags alone (:meth:`by_tags`).
    """

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules = tuple(rules)
        self._plans: dict[frozenset[str], tuple[tuple[Rule, bool], ...]] = {}
        #: :meth:`by_tags` as a mapping, each set of tags judged the first time it is looked up
        self.verdicts = _Verdicts(self.rules)
        self._screens = list(dict.fromkeys(r.may_drop for r in self.rules if r.by_tags is None))

    def __call__(self, candidate: Candidate) -> str | None:
        steps = self._plans.get(candidate.tags)
        if steps is None:
            steps = self._plans[candidate.tags] = self._plan(candidate.tags)
        for rule, drops in steps:
            if drops or rule.drops(candidate):
                return rule.name
        return None

    def _plan(self, tags: frozenset[str]) -> tuple[tuple[Rule, bool], ...]:
        steps: list[tuple[Rule, bool]] = []
        for rule in self.rules:
            if rule.by_tags is None:
                steps.append((rule, False))
            elif rule.by_tags(tags):
                steps.append((rule, True))
                break
        return tuple(steps)

    def screened(self, raws: Sequence[str], keys: Sequence[str]) -> set[int] | None:
        """The places of the forms of a batch that a rule reading the form may drop: each must be
        judged whole (a :class:`Candidate`); every other by :meth:`by_tags`. None: all of them."""
        if None in self._screens:
            return None
        suspects: set[int] = set()
        forms = Forms(raws, keys)
        for screen in self._screens:
            assert screen is not None
            suspects.update(screen(forms))
        return suspects

    def by_tags(self, tags: frozenset[str]) -> str | None:
        """The first rule dropping a form with these tags that no screen picked out (:meth:`screened`)."""
        return self.verdicts[tags]


class _Verdicts(dict[frozenset[str], str | None]):
    """:meth:`Judge.by_tags` of each set of tags, found when first looked up (a build looks one up
    per form: a subscript, with no Python call but for a new set)."""

    def __init__(self, rules: tuple[Rule, ...]) -> None:
        super().__init__()
        self.rules = rules

    def __missing__(self, tags: frozenset[str]) -> str | None:
        verdict = self[tags] = next((r.name for r in self.rules if _drops_all(r, tags)), None)
        return verdict


def _drops_all(rule: Rule, tags: frozenset[str]) -> bool:
    """Does the rule drop every form with these tags, or (a rule reading the form) every one it may drop?"""
    if rule.by_tags is not None:
        return rule.by_tags(tags)
    return rule.drops_tagged is not None and rule.drops_tagged(tags)
