"""The ``fise-lists`` source kind: FISE's lemma lists in a folder the build is pointed at.

Its descriptor (``sources/fise-lists.toml``) names no files, since the lists are the federation's
and never shipped: the folder comes from ``lextools build es-fise --fise-lists DIR`` (later
revisions from ``--fise-update DIR``, in order) or from a recipe's ``fise_lists`` and
``fise_updates``. :func:`configure` reads the lists and records each file with its checksum, so the
lexicon's metadata says which publication it was built from. Options (descriptor, then recipe):

``plural_evidence``
    the open sources that decide which words take a plural (:class:`~lextools.builder.fise_forms.PluralEvidence`):
    hunspell dictionaries (an entry with one of their ``plural_flags``, or without), lemma tables and
    word lists (a plural attested), and the ``invariable`` words of their descriptors.
``undecided_plurals``
    ``plural`` or ``singular``: what a word no evidence decides takes (each is reported).

The summary also names the feminines longer than the 15-square board whose masculine fits
(:func:`long_feminines`): the build drops them for their length and keeps the masculine and its
plural, and says so, by name and count.

The source's ``fise`` summary in the lexicon's metadata also says what reading the folders found
(:func:`reading_summary`): the lines not understood (skipped, the build went on) in all and by file,
the first of them as ``file:line: text (why)``, the files passed over, and each list's name as shown.
The metadata's ``files`` keep each name as it round-trips (``os.fsdecode``: FISE's Latin-1 names as
``\\udcd3``), with its checksum.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from lextools.builder.filters import SourceWord
from lextools.builder.fise_forms import PLURAL_REASONS, PluralEvidence, generate, load_lists, plural_forms
from lextools.builder.fise_lists import MAX_LIST_BYTES, Lists, plain
from lextools.builder.hunspell import iter_dic, read_aff
from lextools.builder.lemma_table import read_table
from lextools.core.errors import SourceError, path_text, printable
from lextools.core.inputs import read_input
from lextools.core.sources import Source, load_source, verify
from lextools.core.spelling import MAX_TILES
from lextools.core.wordlist import read_words

FORMAT = "fise-lists"
UNDECIDED = ("plural", "singular")
#: Notes shown after a build (all of them are counted in the metadata).
NOTES_SHOWN = 20


def configure(source: Source, settings: dict[str, Any]) -> Source:
    """The source with its lists read and its forms made: ``settings`` are the recipe's (or the
    command's) ``fise_lists``, ``fise_updates``, ``undecided_plurals``, ``plural_evidence``."""
    options = {**source.options, **{k: v for k, v in settings.items() if v is not None}}
    folder = options.get("fise_lists")
    if not folder:
        raise SourceError(
            f"source {source.name}: no folder of FISE lists; name it: lextools build es-fise --fise-lists DIR"
        )
    undecided = options.get("undecided_plurals", "plural")
    if undecided not in UNDECIDED:
        raise SourceError(f"source {source.name}: undecided_plurals is plural or singular, not {undecided!r}")
    lists = load_lists(Path(folder), [Path(u) for u in options.get("fise_updates", [])])
    evidence = plural_evidence(options.get("plural_evidence", []), [w.word for w in lists.words.values()])
    reasons: Counter[str] = Counter()
    words = list(generate(lists, evidence, source.name, undecided, reasons))
    if lists.short_words:
        lists.notes.insert(0, short_words_check(lists.short_words, words))
    summary = {
        "verbs": sum(len(v) for v in lists.verbs.values()),
        "other_words": len(lists.words),
        "forms": len(words),
        "undecided_plurals": reasons["undecided"],
        "undecided_take": undecided,
        # the words whose plural each reason decided, in the order they are asked (fise_forms.decide_plural)
        "plural_reasons": {reason: reasons[reason] for reason in PLURAL_REASONS},
        # dropped for their length, their masculine kept (a 15-tile -OR whose -ORA is 16)
        "feminines_too_long": long_feminines(lists),
        "notes": len(lists.notes),
        "first_notes": lists.notes[:NOTES_SHOWN],
        **reading_summary(lists),
    }
    files = dict(lists.files)
    # read again as bounded as the first time (a list swapped for a FIFO or a huge file meanwhile)
    sha = {k: hashlib.sha256(read_input(p, MAX_LIST_BYTES, gz=False)).hexdigest() for k, p in files.items()}
    info = {**source.info, "fise": summary}
    return replace(source, files=files, sha256=sha, info=info, options={**options, "_words": words})


def reading_summary(lists: Lists) -> dict[str, Any]:
    """What reading the folders found: the lines not understood (skipped) by file, the first of them
    as ``file:line: text (why)`` with control characters escaped, the files passed over, and each
    list's file name as shown (escaped when it is not UTF-8; the metadata's ``files`` keep the name itself)."""
    first = [
        f"{path_text(path.name)}:{n}: {printable(text)} ({why})"
        for path, skipped in lists.skipped.items()
        for n, text, why in skipped[:NOTES_SHOWN]
    ]
    return {
        "not_understood": sum(len(s) for s in lists.skipped.values()),
        "not_understood_by_file": {path_text(p.name): len(s) for p, s in lists.skipped.items()},
        "first_not_understood": first[:NOTES_SHOWN],
        "ignored_files": [path_text(p.name) for p in lists.ignored],
        "files_shown": {k: path_text(p.name) for k, p in lists.files.items()},
    }


def short_words_check(listed: set[str], words: list[SourceWord]) -> str:
    """The two- and three-tile words FISE lists against those the build makes (CH, LL, RR one tile each)."""
    made = {p for w in words if not any(t.startswith("fise-") for t in w.tags) and _tiles(p := plain(w.raw)) in (2, 3)}
    listed = {plain(w) for w in listed}
    missing, extra = sorted(listed - made), sorted(made - listed)
    return (
        f"two- and three-tile check: {len(listed)} listed, {len(missing)} of them not made "
        f"({' '.join(missing[:10])}), {len(extra)} made and not listed ({' '.join(extra[:10])})"
    )


def long_feminines(lists: Lists) -> list[str]:
    """The feminines of the lists longer than the board whose masculine fits it, in list order: the
    build keeps the masculine (and its plural if it fits) and drops the feminine as too long."""
    return list(
        dict.fromkeys(
            w.feminine
            for w in lists.words.values()
            if w.feminine
            and len(w.feminine) > MAX_TILES  # fewer letters: fewer tiles
            and _tiles(plain(w.feminine)) > MAX_TILES >= _tiles(plain(w.word))
        )
    )


def _tiles(word: str) -> int:
    return len(re.sub("ch|ll|rr", "1", word))


def read_fise(source: Source) -> list[Any]:
    """The forms :func:`configure` made (a descriptor read on its own has no folder yet)."""
    if "_words" not in source.options:
        source = configure(source, {})
    verify(source)
    return list(source.options["_words"])


def plural_evidence(names: list[str], words: list[str]) -> PluralEvidence:
    """What the named open sources say about the plurals of ``words``."""
    evidence = PluralEvidence()
    wanted = {plain(p) for w in words for p in plural_forms(w)} | {plain(w) for w in words}
    for name in names:
        source = load_source(name)
        verify(source)
        evidence.invariable |= {plain(w) for w in source.options.get("invariable", [])}
        if source.format == "hunspell":
            _dictionary(source, evidence, wanted)
        elif source.format == "lemma-table":
            evidence.attested |= {p for form in read_table(source) if (p := plain(form)) in wanted}
        elif source.format == "wordlist":
            for path in source.files.values():
                evidence.attested |= {p for w in read_words(path) if (p := plain(w)) in wanted}
    evidence.without -= evidence.takes
    return evidence


def _dictionary(source: Source, evidence: PluralEvidence, wanted: set[str]) -> None:
    flags = frozenset(source.options.get("plural_flags", "S"))
    for entry in iter_dic(source.files["dic"], read_aff(source.files["aff"])):
        key = plain(entry.word)
        if key not in wanted:
            continue
        if entry.flags & flags:
            evidence.takes.add(key)
        else:
            evidence.without.add(key)
        evidence.attested.add(key)
