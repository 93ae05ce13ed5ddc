"""Provenance as a build collects it: which source gave each word, and which rule dropped each
excluded form, written as the lexicon's sidecar (the format: :mod:`lextools.core.sidecar`); and, for
the words of a source that knows each form's lemma and rule (FISE's lists), the lemma records."""

from __future__ import annotations

import gzip
import operator
import sys
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress, repeat

from lextools.builder.filters import SourceWord
from lextools.builder.fise_forms import parse_tag
from lextools.core.sidecar import CHECKSUM_KEY, LEMMA_FIELDS, SOURCE_SETS_KEY, USUAL_SOURCES_KEY, split_stem

#: Lemmas kept per word (AMO: a form of AMAR, and the noun AMO).
LEMMAS_PER_WORD = 3
#: A sidecar this large or larger (uncompressed) is compressed at the quickest level, not the best.
QUICK_GZIP_BYTES = 1 << 20
QUICK_GZIP_LEVEL = 1
_FORM, _SOURCE = operator.itemgetter(1), operator.attrgetter("source")
#: Rows sorted by their keys alone (each key once: the same order as the rows, with string
#: comparisons rather than tuple comparisons, several times quicker for a default build's 400k rows).
_BY_KEY = operator.itemgetter(0)


@dataclass
class Provenance:
    """Filled by :func:`lextools.builder.compile.compile_words` while it spells and filters."""

    #: kept key → the sources listing it, comma-separated and sorted (one shared string per set, so
    #: each word costs one dict entry)
    sources: dict[str, str] = field(default_factory=dict)
    excluded: dict[str, tuple[str, SourceWord]] = field(default_factory=dict)  # key → (rule, form)
    _rank: dict[str, int] = field(default_factory=dict)
    _joined: dict[tuple[str, str], str] = field(default_factory=dict)
    #: kept key → its lemma records (lemma, rule, model, class, property, reason, section, where;
    #: tab-separated, several joined)
    lemmas: dict[str, str] = field(default_factory=dict)
    _lemma_of_tags: dict[frozenset[str], str | None] = field(default_factory=dict)
    #: how many kept keys each set of sources lists (:meth:`_tally`), None once ``sources`` changes
    _tallied: Counter[str] | None = field(default=None, repr=False)

    def kept(self, key: str, word: SourceWord) -> None:
        self._tallied = None
        tags = word.tags
        if tags and self._lemma_of_tags.get(tags, "") is not None:  # a set seen without a lemma: None
            self._lemma(key, word)
        current = self.sources.get(key)
        if current is None:
            self.sources[key] = sys.intern(word.source)
            if self.excluded:
                self.excluded.pop(key, None)
        elif current != word.source:  # (the same source again: nothing to join, no split)
            pair = (current, word.source)
            joined = self._joined.get(pair)
            if joined is None:  # once per pair: ``current`` itself where it names the source already
                names = current.split(",")
                joined = current if word.source in names else ",".join(sorted({*names, word.source}))
                self._joined[pair] = joined
            if joined is not current:
                self.sources[key] = joined

    def listed(self, keys: Sequence[str], source: str) -> None:
        """:meth:`kept` of each of these keys, in order: none kept yet, all of one source, of forms whose
        tags record no lemma (:meth:`records_lemmas`)."""
        self._tallied = None
        self.sources.update(zip(keys, repeat(sys.intern(source))))
        if self.excluded:
            deque(map(self.excluded.pop, keys, repeat(None)), maxlen=0)

    def records_lemmas(self, tags: frozenset[str]) -> bool:
        """Does a form with these tags name its lemma and rule (a ``fise:`` tag)?"""
        fields = self._lemma_of_tags.get(tags, "")
        if fields == "":
            parsed = parse_tag(tags)
            fields = self._lemma_of_tags[tags] = "\t".join(parsed) if parsed else None
        return fields is not None

    def _lemma(self, key: str, word: SourceWord) -> None:
        """Record the lemma and rule a form's ``fise:`` tag names (one parse per set of tags), and
        where the lists give the lemma (its ``stem``: ``amar@verbs:18``)."""
        if not self.records_lemmas(word.tags):
            return
        fields = self._lemma_of_tags[word.tags]
        lemma, where, _, _ = split_stem(word.stem or word.raw)
        record = f"{_clean(lemma)}\t{fields}\t{_clean(where)}"
        current = self.lemmas.get(key)
        if current is None:
            self.lemmas[key] = record
        elif record not in current and (current.count("\t") + 1) // LEMMA_FIELDS < LEMMAS_PER_WORD:
            self.lemmas[key] = f"{current}\t{record}"

    def lemmas_bytes(self, checksum: str) -> bytes:
        """The lemma records for the lexicon whose words DAWG has this checksum (:mod:`lextools.core.sidecar`)."""
        lines = [f"{CHECKSUM_KEY}\t{checksum}", *(f"{key}\t{record}" for key, record in sorted(self.lemmas.items()))]
        return _gzipped(("\n".join(lines) + "\n").encode("utf-8", "backslashreplace"))

    def dropped(self, key: str, rule: str, word: SourceWord, rank: int = 0) -> None:
        """Keep the form that passed the most rules (``rank``: the dropping rule's place in the recipe):
        VE is dropped as the proper noun "Ve" and as the letter name "ve"; the second says more."""
        if key in self.sources or rank <= self._rank.get(key, -1):
            return
        self.excluded[key] = (rule, word)
        self._rank[key] = rank

    def sources_changed(self) -> None:
        """Say that ``sources`` was written to other than by :meth:`kept` and :meth:`listed` (a build's
        judging adds a new key inline)."""
        self._tallied = None

    def _tally(self) -> Counter[str]:
        """How many kept keys each set of sources lists: counted once for a build's reports (one
        :meth:`contributions` per source, then :meth:`to_bytes`), again only if the sources change."""
        if self._tallied is None:
            self._tallied = Counter(self.sources.values())
        return self._tallied

    def contributions(self, source: str) -> dict[str, int]:
        """What one source did in the build: the words it lists, those no other source gives, and the
        excluded words whose reported form is its own."""
        listed = only = 0
        for joined, n in self._tally().items():
            names = joined.split(",")
            if source in names:
                listed += n
                only += n if names == [source] else 0
        # (each form's source, in C: a default build excludes some 100k forms)
        removed = operator.countOf(map(_SOURCE, map(_FORM, self.excluded.values())), source)
        return {"words": listed, "only_here": only, "removed": removed}

    def to_bytes(self, checksum: str) -> bytes:
        """The sidecar for the lexicon whose words DAWG has this checksum."""
        usual = self._tally().most_common(1)
        usual_sources, many = usual[0] if usual else ("", 0)
        unusual: list[tuple[str, str]] = []
        if many < len(self.sources):  # (one source, a list's build: every word has the usual ones)
            others = map(operator.ne, self.sources.values(), repeat(usual_sources))  # (no Python per key)
            unusual = sorted(compress(self.sources.items(), others), key=_BY_KEY)
        sets = [joined for joined, _ in Counter(joined for _, joined in unusual).most_common()]
        number = {joined: i for i, joined in enumerate(sets)}
        lines = [
            f"{CHECKSUM_KEY}\t{checksum}",
            f"{USUAL_SOURCES_KEY}\t{usual_sources}",
            "\t".join([SOURCE_SETS_KEY, *(_clean(joined) for joined in sets)]),
        ]
        lines += [f"{key}\t+\t{number[joined]}" for key, joined in unusual]
        lines += _excluded_lines(sorted(self.excluded.items(), key=_BY_KEY))
        # A source named by a file name that is not UTF-8 is written with its odd bytes escaped (\udcff).
        return _gzipped(("\n".join(lines) + "\n").encode("utf-8", "backslashreplace"))


def _excluded_lines(excluded: list[tuple[str, tuple[str, SourceWord]]]) -> list[str]:
    """The sidecar's line of each excluded key: key, "-", rule, source, form, headword.

    A default lexicon excludes hundreds of thousands of forms: the fields are cleaned one by one
    (:func:`_clean`) only when the joined lines show a field holding a tab or a line feed.
    """
    rows = [(key, "-", rule, word.source, word.raw, word.stem or "") for key, (rule, word) in excluded]
    lines = list(map("\t".join, rows))
    text = "\n".join(lines)
    if text.count("\t") == 5 * len(lines) and text.count("\n") == max(len(lines) - 1, 0):
        return lines
    return ["\t".join(map(_clean, fields)) for fields in rows]


def _clean(field: str) -> str:
    """Sources may hold anything (a tab in a user's list is not a field separator)."""
    return field.replace("\t", " ").replace("\n", " ")


def _gzipped(data: bytes) -> bytes:
    """A sidecar's bytes, gzipped with no time stamp (the same words, the same file). A default
    lexicon's 8 MB sidecar at level 9 cost 1.7 s of CPU for 4.5% fewer bytes than level 6 (0.33 s), and
    level 1 0.08 s for 1.69 MB where level 6 gives 1.31 MB (es-fise, 2026-12-07): a large one is
    compressed at level 1, each default build writing five; a small one, where the best costs
    nothing, at 9 as before."""
    level = QUICK_GZIP_LEVEL if len(data) >= QUICK_GZIP_BYTES else 9
    return gzip.compress(data, compresslevel=level, mtime=0)
