"""Build: source words → spelled in the edition → filtered → DAWGs and the ranking written atomically.

:func:`compile_words` is the pure part (words in, sorted keys plus a report out);
:func:`write_lexicon` writes the files described in :mod:`lextools.core.lexicon`, all of them to
temporary files first and then each renamed into place with ``os.replace``, the metadata last, so a
build that fails at any point leaves the directory as it was, and one interrupted leaves the previous
lexicon whole.

:func:`compile_words` reads the words a batch at a time (``PROGRESS_EVERY``) and spells each batch as one
text (:func:`lextools.core.spelling.spell_lines`), calling :func:`lextools.core.spelling.spell` only for the
words the batch flags, so per word it only looks the key up, asks the rules
(:func:`lextools.builder.filters.judge`) and records the provenance: spelling word by word in Python is
slow (``bench/perf.py`` measures a build).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import operator
import re
from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import compress, count, islice, repeat
from pathlib import Path
from sys import intern
from typing import Any, cast

import dawg

from lextools.builder.filters import Candidate, Rule, SourceWord, judge
from lextools.builder.lock import build_lock
from lextools.builder.provenance import Provenance
from lextools.builder.study_files import KeyRows
from lextools.builder.study_lists import stems_bytes
from lextools.core.anagram_table import MAGIC as ALPHAWORDS_MAGIC
from lextools.core.edition import Edition, edition_names
from lextools.core.errors import LexiconError, SpellingError
from lextools.core.lexicon import (
    ALPHAWORDS,
    FORMAT,
    FORMAT_VERSION,
    RANKS,
    STEMS,
    metadata_path,
    read_metadata,
)
from lextools.core.memory import give_back_memory
from lextools.core.output_files import Commit, tool_versions
from lextools.core.ranking import alphabet_codes
from lextools.core.sidecar import lemmas_path, sidecar_path
from lextools.core.spelling import Spelling, fold, respell_lines_and_long, respellable, spell, spell_lines_and_long

_TAGS, _SOURCE = operator.attrgetter("tags"), operator.attrgetter("source")

#: Examples kept per rule in the exclusion report.
EXAMPLES_PER_RULE = 25
PROGRESS_EVERY = 10_000
#: :attr:`_Judging.listing` of a set of tags: a form with them counts as its source listing the word;
#: it records its lemma (FISE's lists).
LISTS, LEMMA = 1, 2


@dataclass
class RuleReport:
    description: str
    count: int = 0
    examples: list[str] = field(default_factory=list)


@dataclass
class BuildReport:
    """Counts of a build: what was read, kept, merged, and dropped by which rule."""

    read: int = 0
    kept: int = 0
    duplicates: int = 0
    dropped: dict[str, RuleReport] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "read": self.read,
            "kept": self.kept,
            "duplicates": self.duplicates,
            "dropped": {name: r.count for name, r in self.dropped.items()},
        }

    def exclusions(self) -> dict[str, Any]:
        return {
            name: {"description": r.description, "count": r.count, "examples": r.examples}
            for name, r in self.dropped.items()
        }


SPELLING_RULES = {
    "letter-without-tile": "uses a letter the edition has no tile for (K or W in es-fise)",
    "cannot-spell": "has characters no tile spells: digits, hyphens, apostrophes, spaces, other scripts",
    "too-long": "longer than the 15-square board",
    "malformed": "not a word: overlong or unbalanced notation",
    "empty": "empty",
    "multiword": "lines holding more than one word (ad hoc): one word per line",
}


def compile_words(
    words: Iterable[SourceWord],
    edition: Edition,
    rules: Sequence[Rule],
    progress: Callable[[int], None] | None = None,
    provenance: Provenance | None = None,
) -> tuple[list[str], BuildReport]:
    """Spell and filter source words; return the sorted lexicon keys and the build report.

    ``provenance``, when given (a fresh one), records which sources listed each word and which rule
    dropped each excluded form (see :mod:`lextools.builder.provenance`).
    """
    judging = _Judging(edition, rules, provenance)
    report = judging.report
    # Spelled a batch at a time (lextools.core.spelling.spell_lines); spell() only for the words it flags.
    with cyclic_gc_paused():  # millions of objects made and dropped, almost none in a cycle
        for batch in _batches(words, PROGRESS_EVERY):
            raws = [sw.raw for sw in batch]
            keys, long = _batch_keys(raws, edition)
            judging.judge_batch(batch, keys, raws, long)
            report.read += len(batch)
            if progress:
                progress(report.read)
    if progress and not report.read:
        progress(0)
    return judging.result()


class _Judging:
    """The state of one :func:`compile_words`: the keys kept so far, and which rule dropped the others.

    A key one source's form drops and another's keeps is kept; a dropped key is counted once, for the
    first rule that dropped it, when the words are all read (:meth:`result`).
    """

    def __init__(self, edition: Edition, rules: Sequence[Rule], provenance: Provenance | None) -> None:
        self.edition = edition
        self.provenance = provenance
        self.report = BuildReport()
        for rule in rules:
            self.report.dropped[rule.name] = RuleReport(rule.description)
        self.rank = {rule.name: i for i, rule in enumerate(rules)}  # a later rule: the form got further
        self.first_dropping = judge(rules)
        # A source lists a word only with a form its tags do not rule out: spaCy's table writes most of
        # RLA-ES's words again, tagged "outside-paradigm", and is not one of their sources.
        self.tag_tests = [rule.by_tags for rule in rules if rule.by_tags is not None]
        #: tags → whether a form with them counts as listed (LISTS) and records a lemma (LEMMA): :meth:`_lists`
        self.listing: dict[frozenset[str], int] = {}
        # The kept keys: a provenance (a fresh one) records each kept key's sources, so its dict is the set.
        self.kept_here: set[str] = set()
        self.kept: Collection[str] = self.kept_here if provenance is None else provenance.sources
        #: The same keys as a set view (``isdisjoint`` tests a run of keys in C).
        self.kept_keys: AbstractSet[str] = self.kept_here if provenance is None else provenance.sources.keys()
        self.dropped_by: dict[str, str] = {}  # key → first rule that dropped it (kept later wins)
        self.example_of: dict[str, str] = {}
        self.unspellable: dict[str, RuleReport] = {}
        #: The batch's words left out only for their length (:meth:`judge_batch`).
        self.long: AbstractSet[int] = frozenset()

    def judge_batch(
        self,
        batch: list[SourceWord],
        keys: list[str | None],
        raws: Sequence[str] = (),
        long: AbstractSet[int] = frozenset(),
    ) -> None:
        """Judge a batch of words, ``keys`` their keys from ``spell_lines`` (None: ask ``spell``),
        ``raws`` their raw texts if the caller has them, ``long`` the places of the words left out only
        for having more than 15 tiles (:func:`~lextools.core.spelling.spell_lines_and_long`).

        A word no rule reading the form may drop (the judge's screen, over the whole batch) is judged
        by its tags. In a batch of one source and one set of tags (a word list's), the runs of such
        words between the others that are kept and new, each once, are kept at once, in their order
        (:meth:`_keep_run`); every other word is judged in its turn (:meth:`_judge_each`).
        """
        self.long = long
        suspects = self.first_dropping.screened(raws or [sw.raw for sw in batch], _spelled(keys))
        if suspects is None or not self._one_kind(batch):
            self._judge_each(batch, keys, suspects, 0, len(batch))
            return
        others = sorted(suspects.union(compress(count(), map(operator.is_, keys, repeat(None)))))
        start = 0
        for at in [*others, len(batch)]:
            if start < at and not self._keep_run(batch[start], keys[start:at]):
                self._judge_each(batch, keys, suspects, start, at)
            if at < len(batch):
                self._judge_each(batch, keys, suspects, at, at + 1)
            start = at + 1

    def _one_kind(self, batch: list[SourceWord]) -> bool:
        """Are the words of one source and one set of tags, which keeps them (as words no rule reading
        the form drops) and records no lemma of them?"""
        first = batch[0]
        return (
            self.first_dropping.verdicts[first.tags] is None
            and (self.provenance is None or not self.provenance.records_lemmas(first.tags))
            and all(map(operator.is_, map(_TAGS, batch), repeat(first.tags)))
            and all(map(operator.eq, map(_SOURCE, batch), repeat(first.source)))
        )

    def _keep_run(self, word: SourceWord, keys: Sequence[str | None]) -> bool:
        """Keep these keys, of words like ``word`` that no rule drops, if none is kept yet and none
        comes twice: what judging each in turn does then. False (nothing done) otherwise."""
        unique = set(keys)
        if len(unique) != len(keys) or not self.kept_keys.isdisjoint(unique):
            return False
        run = cast("Sequence[str]", keys)
        if self.dropped_by:
            deque(map(self.dropped_by.pop, run, repeat(None)), maxlen=0)
        if self.provenance is None:
            self.kept_here.update(run)
        else:
            self.provenance.listed(run, word.source)
        return True

    def _judge_each(
        self, batch: list[SourceWord], keys: list[str | None], suspects: set[int] | None, start: int, stop: int
    ) -> None:
        """Judge words ``start`` to ``stop`` of a batch one by one, in order.

        The loop runs once per form of most sources, so the common steps stay inline; a word
        ``spell_lines`` flags and a new combination of tags take a method call each.
        """
        edition, provenance, report = self.edition, self.provenance, self.report
        kept, kept_here, dropped_by = self.kept, self.kept_here, self.dropped_by
        first_dropping, from_key, listing = self.first_dropping, Candidate.from_key, self.listing
        verdicts = first_dropping.verdicts
        sources = provenance.sources if provenance is not None else {}
        for i, sw, key in zip(count(start), batch[start:stop], keys[start:stop], strict=False):
            spelling = None
            if key is None:
                spelling = self._spell_flagged(sw, i)
                if spelling is None:
                    continue
                key = spelling.key
            if key in kept:
                report.duplicates += 1
                if provenance is not None:
                    lists = listing.get(sw.tags)
                    if lists is None:
                        lists = self._lists(sw.tags)
                    # (a source listing a key again, recording no lemma, changes nothing: no call)
                    if lists & LISTS and (lists & LEMMA or sources[key] != sw.source):
                        provenance.kept(key, sw)
                continue
            if suspects is not None and spelling is None and i not in suspects:
                rule_name = verdicts[sw.tags]
            elif spelling is None:
                rule_name = first_dropping(from_key(sw, key, edition))
            else:
                rule_name = first_dropping(Candidate(sw.raw, spelling, sw.source, sw.stem, sw.affixes, sw.tags))
            if rule_name is None:
                if dropped_by:
                    dropped_by.pop(key, None)
                if provenance is None:
                    kept_here.add(key)
                elif (listing.get(sw.tags) or self._lists(sw.tags)) & LEMMA:
                    provenance.kept(key, sw)
                else:  # a key new to the provenance, recording no lemma: Provenance.kept, inline
                    sources[key] = intern(sw.source)
                    if provenance.excluded:
                        provenance.excluded.pop(key, None)
                continue
            self._dropped(key, rule_name, sw)

    def _dropped(self, key: str, rule_name: str, sw: SourceWord) -> None:
        """A form a rule drops: the key's first rule (and example) unless one dropped it before."""
        if key not in self.dropped_by:
            self.dropped_by[key] = rule_name
            self.example_of[key] = sw.raw
        else:
            self.report.duplicates += 1
        if self.provenance is not None:
            self.provenance.dropped(key, rule_name, sw, rank=self.rank[rule_name])

    def _spell_flagged(self, sw: SourceWord, i: int) -> Spelling | None:
        """The spelling of a word ``spell_lines`` could not vouch for (the batch's ``i``-th), or None
        (counted by its rule)."""
        if i in self.long:  # what spell() says of it: too long
            self._unspellable("too-long", sw.raw)
            return None
        try:
            return _spell_source_word(sw.raw, self.edition)
        except SpellingError as e:
            self._unspellable(e.rule, sw.raw)
            return None

    def _unspellable(self, rule: str, raw: str) -> None:
        """Count a word no tiles spell under its rule (``too-long``, ``letter-without-tile``…)."""
        r = self.unspellable.get(rule)
        if r is None:
            r = self.unspellable[rule] = RuleReport(SPELLING_RULES.get(rule, rule))
        r.count += 1
        if len(r.examples) < EXAMPLES_PER_RULE:
            r.examples.append(raw)

    def _lists(self, tags: frozenset[str]) -> int:
        """Whether a form with these tags counts as its source listing the word (:data:`LISTS`: no rule's
        tags rule it out), and whether it records the form's lemma (:data:`LEMMA`, a ``fise:`` tag)."""
        lists = 0 if any(test(tags) for test in self.tag_tests) else LISTS
        if self.provenance is not None and self.provenance.records_lemmas(tags):
            lists |= LEMMA
        self.listing[tags] = lists
        return lists

    def result(self) -> tuple[list[str], BuildReport]:
        """The sorted kept keys and the report: each dropped key counted for the rule that dropped it first."""
        report = self.report
        for key, rule_name in self.dropped_by.items():
            r = report.dropped[rule_name]
            r.count += 1
            if len(r.examples) < EXAMPLES_PER_RULE:
                r.examples.append(self.example_of[key])
        for name, r in self.unspellable.items():
            if name in report.dropped:  # "multiword" is also a recipe rule: one count for both
                into = report.dropped[name]
                into.count += r.count
                into.examples = (into.examples + r.examples)[:EXAMPLES_PER_RULE]
            else:
                report.dropped[name] = r
        report.kept = len(self.kept)
        if self.provenance is not None:
            self.provenance.sources_changed()  # (_judge_each adds new keys to it inline)
        return sorted(self.kept), report


class SpelledBatches:
    """The batches one build of several editions spells, kept for the editions that fold text alike.

    The three Spanish editions read the same sources in the same batches and fold them the same way
    (upper case, accents dropped, Ñ kept): only their digraph tiles and letters differ. So the first
    edition spells a batch (:func:`lextools.core.spelling.spell_lines`) and keeps its letters, one
    line per word, keyed by the batch's text; a later one makes its keys from those letters
    (:func:`~lextools.core.spelling.respell_lines_and_long`) instead of folding the batch again.
    ``storing`` is off for the last edition of a build that reads these sources: each batch is then
    let go once it is spelled.
    """

    def __init__(self) -> None:
        self.storing = True
        self._letters: dict[tuple[frozenset[str], bool, str], str] = {}

    def keys(self, raws: Sequence[str], edition: Edition) -> tuple[list[str | None], set[int]]:
        """:func:`spell_lines_and_long` of the batch, made from a batch spelled before where there is one."""
        if not respellable(edition):
            return spell_lines_and_long(raws, edition)
        text = "\n".join(raws)
        at = (edition.keep, edition.split_ligatures, text)
        letters = self._letters.get(at) if self.storing else self._letters.pop(at, None)
        if letters is not None and letters.count("\n") == len(raws) - 1:
            return respell_lines_and_long(letters, edition)
        keys, long = spell_lines_and_long(raws, edition)
        if self.storing:
            self._letters[at] = _letters_of(keys, edition, {i: fold(raws[i], edition) for i in long})
        return keys, long


def _letters_of(keys: list[str | None], edition: Edition, long: dict[int, str]) -> str:
    """The letters of a batch's keys, one line each ("" for None): each digraph's code back to its
    label; and ``long``, the letters of the words left out only for their length, on their lines (a
    later edition counts them as too long without :func:`spell` too). No edition's codes are letters."""
    lines = [key or "" for key in keys]
    for i, letters in long.items():
        lines[i] = letters
    text = "\n".join(lines)
    for tile in edition.tiles:
        if len(tile.label) > 1:
            text = text.replace(tile.code, tile.label)
    return text


#: The spelled batches of the build of several editions under way (:func:`batches_shared`), innermost last.
_SHARED: list[SpelledBatches] = []


@contextlib.contextmanager
def batches_shared(batches: SpelledBatches) -> Iterator[None]:
    """Within the block, :func:`compile_words` spells its batches through ``batches``."""
    _SHARED.append(batches)
    try:
        yield
    finally:
        _SHARED.pop()


def _batch_keys(raws: Sequence[str], edition: Edition) -> tuple[list[str | None], set[int]]:
    return _SHARED[-1].keys(raws, edition) if _SHARED else spell_lines_and_long(raws, edition)


def _spelled(keys: list[str | None]) -> list[str]:
    """The keys a batch spelled, "" for those it left to ``spell`` (judged whole, as words it flags)."""
    return cast("list[str]", keys) if None not in keys else [key or "" for key in keys]


@contextlib.contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a build reads, judges and writes (a build, the judging loop,
    the writing, a build of several editions: the pauses nest).

    A default build makes millions of short-lived objects (forms, source words, candidates) while it
    holds millions of long-lived ones (the kept keys, a source kept for the next edition): each full
    collection walks all of those, and so do the first passes after collection resumes. The objects
    hold no reference cycles; collection resumes (if it was on) when the outermost pause ends.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _batches(words: Iterable[SourceWord], size: int) -> Iterator[list[SourceWord]]:
    it = iter(words)
    while batch := list(islice(it, size)):
        yield batch


def _spell_source_word(raw: str, edition: Edition) -> Spelling:
    """:func:`spell`, after refusing a line of several words: "ad hoc" is two words, not AD."""
    if len(raw.split()) > 1:
        raise SpellingError(raw, "holds more than one word", rule="multiword")
    return spell(raw, edition)


def write_lexicon(
    home: Path,
    edition: Edition,
    keys: Sequence[str],
    report: BuildReport,
    sources: Sequence[dict[str, Any]] = (),
    rules: Sequence[Rule] = (),
    progress: Callable[[str], None] | None = None,
    provenance: Provenance | None = None,
    *,
    refuse: Callable[[dict[str, Any] | None], None] | None = None,
    wait: bool = True,
    on_wait: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Write the DAWGs, the exclusion report, the provenance sidecar and (last, the commit) the
    metadata. Returns it.

    Runs under the edition's build lock (:mod:`lextools.builder.lock`). ``refuse`` is called with the
    metadata of the lexicon being replaced (None if there is none or it is unreadable) before anything
    is written; it raises to stop the build (:mod:`lextools.builder.guard`).
    """
    with build_lock(home, edition.name, wait=wait, on_wait=on_wait):
        home = Path(home)
        try:
            previous: dict[str, Any] | None = read_metadata(home, edition.name)
        except LexiconError:
            previous = None
        if refuse is not None:
            refuse(previous)
        with cyclic_gc_paused():  # the files' strings and arrays hold no cycle; a default build holds millions
            return _write_files(home, edition, keys, report, sources, rules, progress, previous, provenance)


def _write_files(
    home: Path,
    edition: Edition,
    keys: Sequence[str],
    report: BuildReport,
    sources: Sequence[dict[str, Any]],
    rules: Sequence[Rule],
    progress: Callable[[str], None] | None,
    previous: dict[str, Any] | None,
    provenance: Provenance | None = None,
) -> dict[str, Any]:

    # compile_words gives them sorted; a caller may not (``map`` of ``<``: no Python code per key)
    if not all(map(operator.lt, keys, islice(keys, 1, None))):
        keys = sorted(set(keys))
    rows = KeyRows(keys, alphabet_codes(edition))  # the keys as arrays, for the files that sort them
    order = rows.order
    files: dict[str, dict[str, Any]] = {}
    # Every file goes to a temporary first; only when all are written (the metadata, the commit, last)
    # are they renamed into place: a build failing on the way leaves the directory as it was.
    with Commit() as commit:
        for part, data, suffix in _generation(edition, keys, rows, progress):
            sha = hashlib.sha256(data).hexdigest()
            name = f"{edition.name}-{sha[:16]}{suffix}"
            commit.add(home / name, data)
            files[part] = {"name": name, "sha256": sha, "bytes": len(data)}
            del data  # written: not kept while the next file is made, nor the heap's free pages
            give_back_memory()
        checksum = files["words"]["sha256"]
        exclusions = {"edition": edition.name, "checksum": checksum, "rules": report.exclusions()}
        commit.add(home / f"{edition.name}.exclusions.json", _json_bytes(exclusions))
        if provenance is not None:
            commit.add(sidecar_path(home, edition.name), provenance.to_bytes(checksum))
            # the lemma and rule of each form (FISE's lists); an older file names another build's checksum
            if provenance.lemmas:
                commit.add(lemmas_path(home, edition.name), provenance.lemmas_bytes(checksum))
        metadata = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "edition": edition.name,
            "checksum": checksum,
            "files": files,
            "alphagram_order": order,
            "words": len(keys),
            "sources": list(sources),
            "counts": report.as_dict(),
            "filters": [r.name for r in rules],
            "built": datetime.now(UTC).replace(microsecond=0).isoformat(),
            "tools": tool_versions(),
        }
        commit.add(metadata_path(home, edition.name), _json_bytes(metadata))
        commit.done()
    _remove_old_generations(home, edition.name, keep=[metadata, previous])
    return metadata


def _generation(
    edition: Edition, keys: Sequence[str], rows: KeyRows, progress: Callable[[str], None] | None
) -> Iterator[tuple[str, bytes | bytearray, str]]:
    """The files of a lexicon generation, one at a time: (part, bytes, file name suffix)."""
    if progress:
        progress("words DAWG")
    # Sorted input spares dawg2 a sorted copy of its own.
    yield "words", dawg.CompletionDAWG(keys, input_is_sorted=True).tobytes(), ".dawg"
    if progress:
        progress("anagram index")
    # A plain DAWG: the anagram walk follows given tiles, it never lists a node's children.
    yield "alphagrams", dawg.DAWG(rows.sorted_alphagrams(), input_is_sorted=True).tobytes(), ".alphagrams.dawg"
    if progress:
        progress("probability ranking")
    yield RANKS, rows.ranking(edition), ".ranks"
    if progress:
        progress("words of each alphagram")
    yield ALPHAWORDS, rows.table(edition), ".alphawords"
    if progress:
        progress("stems lists")
    yield STEMS, stems_bytes(edition, keys, rows), ".stems"


def outdated(home: Path, edition: str) -> bool:
    """Is this lexicon missing, or built before a file that a build writes today (the ranking, the
    alphagram table, the stems lists) or with an older version of the table? lextools refuses such a
    lexicon until it is built again (one without the stems file it serves, ranking its stems in the
    background of each process), which ``scripts/run`` does."""
    try:
        files = read_metadata(home, edition)["files"]  # refuses a lexicon without the ranking or the table
        with (home / files[ALPHAWORDS]["name"]).open("rb") as f:
            head = f.read(len(ALPHAWORDS_MAGIC))
    except (LexiconError, OSError, KeyError, TypeError):
        return True
    return head != ALPHAWORDS_MAGIC or STEMS not in files


def outdated_editions(home: Path) -> list[str]:
    """The editions we ship whose lexicon in ``home`` is :func:`outdated`: what ``scripts/run`` builds."""
    return [name for name in edition_names() if outdated(home, name)]


def _json_bytes(obj: Any) -> bytes:
    """UTF-8 JSON. A file name that is not UTF-8 (Latin-1 bytes, held as ``\\udcd3`` surrogates by
    ``os.fsdecode``) is written as the JSON escape ``\\udcd3``, read back as the same name."""
    return (json.dumps(obj, ensure_ascii=False, indent=1) + "\n").encode("utf-8", "backslashreplace")


def _remove_old_generations(home: Path, edition: str, keep: list[dict[str, Any] | None]) -> None:
    """Delete DAWGs and ranking files of older builds, keeping the new one and the one it replaced
    (readers in flight).

    Whatever ``E.json`` names when we look is kept too, so no build deletes a live lexicon's files.
    """
    with contextlib.suppress(LexiconError):
        keep = [*keep, read_metadata(home, edition)]
    wanted = {f["name"] for m in keep if m for f in m["files"].values()}
    pattern = re.compile(
        rf"^{re.escape(edition)}-[0-9a-f]{{16}}((\.anagrams|\.alphagrams)?\.dawg|\.ranks|\.alphawords|\.stems)$"
    )
    for path in home.iterdir():
        if pattern.match(path.name) and path.name not in wanted:
            path.unlink(missing_ok=True)
