"""Explanations: why a word is not valid (the rule, the source form), or which sources give it.

Reads the provenance sidecar a build writes beside the lexicon (:mod:`lextools.core.sidecar`). The CLI's
``explain`` and the service's ``reason`` for an invalid word are both :func:`explain`, or
:func:`explain_result` for a word already looked up, with a sidecar already read (a batch check reads
it once; the service holds it per lexicon, service/http/lexicons.py). A process that explains a few
words and holds no sidecar (a command) reads only their records (:func:`sidecar_for`).
"""

from __future__ import annotations

import functools
import os
import zlib
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lextools.core import reviewed
from lextools.core.clitics import clitic_split
from lextools.core.errors import SpellingError
from lextools.core.lexicon import Lexicon, WordResult
from lextools.core.messages import Message, catalogue, message
from lextools.core.sidecar import (
    CHECKSUM_KEY,
    LEMMA_FIELDS,
    SOURCE_SETS_KEY,
    USUAL_SOURCES_KEY,
    Records,
    find_records,
    read_sidecar,
    sidecar_path,
    split_stem,
)

#: At most this many words are explained from their own records (:func:`sidecar_for`), more from
#: the whole sidecar.
FEW_WORDS = 64


@dataclass(frozen=True)
class Explanation:
    """A look-up whose ``reason`` says which rule removed the word, or which sources give it."""

    result: WordResult
    reason: str | None  # why it is not valid, in one line
    rule: str | None = None  # the rule that dropped it (``letter-without-tile`` for KILO in es-fise)
    form: str | None = None  # the form as its source wrote it (dámelo)
    source: str | None = None  # the source of that form
    headword: str | None = None  # its dictionary headword, when the source has one (dar)
    sources: tuple[str, ...] = ()  # for a valid word: the sources that list it
    message: Message | None = None  # ``reason`` in every language, when the build's sidecar told it

    @property
    def input(self) -> str:
        return self.result.input

    @property
    def word(self) -> str | None:
        return self.result.word

    @property
    def valid(self) -> bool:
        return self.result.valid

    def as_dict(self) -> dict[str, Any]:
        extra = {"rule": self.rule, "form": self.form, "source": self.source, "headword": self.headword}
        return {**self.result.as_dict(), "reason": self.reason, **extra, "sources": list(self.sources)}


@dataclass(frozen=True)
class Sidecar:
    usual_sources: tuple[str, ...]
    records: Records | Mapping[str, list[str]]  # every record, or those of the words asked (:func:`sidecar_for`)
    #: The numbered sets of sources of ``+`` records; None in a sidecar that names them on each line.
    source_sets: tuple[tuple[str, ...], ...] | None = None
    #: Each word's lemma and rule, when the build had them (FISE's lemma lists: ``E.lemmas.tsv.gz``).
    lemmas: Records | None = None

    def listed(self, value: str) -> tuple[str, ...]:
        """The sources of a ``+`` record."""
        if self.source_sets is None:
            return _names(value)
        try:
            return self.source_sets[int(value)]
        except (ValueError, IndexError):
            return ()  # a damaged record says nothing: no source is named rather than a wrong one


#: The sidecars :func:`_sidecar` has read, by (path, stamp, checksum): whether one is in memory.
_read: set[tuple[str, tuple[int, int], str]] = set()


@functools.lru_cache(maxsize=8)
def _sidecar(path: str, stamp: tuple[int, int], checksum: str) -> Sidecar | None:
    with open(path, "rb") as f:
        header, records = read_sidecar(f.read())
    if len(_read) >= 64:  # a process that saw many rebuilds: forget the old ones
        _read.clear()
    _read.add((path, stamp, checksum))
    return _believed(path, header, records, checksum)


def _believed(
    path: str, header: dict[str, str], records: Records | Mapping[str, list[str]], checksum: str
) -> Sidecar | None:
    """The sidecar at ``path`` of this header and these records (with the lemma records beside it),
    or None when it was written for another build."""
    if header.get(CHECKSUM_KEY[1:]) != checksum:
        return None  # written for another build: not to be believed
    sets = header.get(SOURCE_SETS_KEY[1:])
    numbered = None if sets is None else tuple(_names(joined) for joined in sets.split("\t") if joined)
    return Sidecar(_names(header.get(USUAL_SOURCES_KEY[1:], "")), records, numbered, _lemmas(path, checksum))


def _lemmas(sidecar: str, checksum: str) -> Records | None:
    """The lemma records written beside the sidecar by the same build, if any (:func:`lemmas_path`)."""
    path = sidecar.removesuffix(".provenance.tsv.gz") + ".lemmas.tsv.gz"
    try:
        with open(path, "rb") as f:
            header, records = read_sidecar(f.read())
    except (OSError, ValueError, EOFError):
        return None
    return records if header.get(CHECKSUM_KEY[1:]) == checksum else None


def _names(joined: str) -> tuple[str, ...]:
    return tuple(s for s in joined.split(",") if s)


@functools.lru_cache(maxsize=64)
def _sidecar_file(home: Path, edition: str) -> str:
    """The sidecar's path as a string: pathlib costs more than the ``os.stat`` done on every explanation."""
    return str(sidecar_path(home, edition))


def load_sidecar(lex: Lexicon, home: Path) -> Sidecar | None:
    """The lexicon's sidecar, or None when there is none for this build (built before sidecars).

    One ``os.stat`` per call: a sidecar rewritten in place (new mtime) or replaced (new inode) is
    read again, the one in memory otherwise.
    """
    path = _sidecar_file(home, lex.edition.name)
    try:
        st = os.stat(path)
        return _sidecar(path, (st.st_mtime_ns, st.st_ino), lex.checksum)
    except (OSError, ValueError, EOFError):
        return None  # missing or unreadable: explanations fall back to "not in the lexicon"


def sidecar_for(lex: Lexicon, home: Path, keys: Collection[str]) -> Sidecar | None:
    """A sidecar to explain the words of these keys with: the whole one when this process holds it
    (the service) or the words are many, else only their records (:func:`lextools.core.sidecar.find_records`):
    a command explaining a word or two reads a fraction of the time and memory the whole costs it."""
    if len(keys) > FEW_WORDS:
        return load_sidecar(lex, home)
    path = _sidecar_file(home, lex.edition.name)
    try:
        st = os.stat(path)
        if (path, (st.st_mtime_ns, st.st_ino), lex.checksum) in _read:
            return load_sidecar(lex, home)
        with open(path, "rb") as f:
            header, records = find_records(f, keys)
    except (OSError, ValueError, EOFError, zlib.error):
        return None  # missing or unreadable: explanations fall back to "not in the lexicon"
    return _believed(path, header, records, lex.checksum)


def explain(lex: Lexicon, text: str, home: Path) -> Explanation:
    return explain_result(lex, lex.lookup(text), load_sidecar(lex, home))


def explain_words(lex: Lexicon, texts: Iterable[str], home: Path) -> list[Explanation]:
    """:func:`explain` of each word, the sidecar read for them (:func:`sidecar_for`)."""
    results = [lex.lookup(text) for text in texts]
    sidecar = sidecar_for(lex, home, {r.key for r in results if r.key is not None})
    return [explain_result(lex, r, sidecar) for r in results]


def explain_result(lex: Lexicon, result: WordResult, sidecar: Sidecar | None) -> Explanation:
    """:func:`explain` of a word already looked up (``result`` is ``lex.lookup(result.input)``), with
    the lexicon's sidecar (:func:`load_sidecar`): a batch reads it once, not once per word."""
    if result.word is None:  # KILO in es-fise, 'a-b': the spelling error is the explanation
        text = result.input
        try:
            lex.spell(text)
        except SpellingError as e:
            return Explanation(result, f"{text.strip().upper()}: {e.reason}", rule=e.rule)
        return Explanation(result, result.reason)
    if sidecar is None:
        return Explanation(result, result.reason)
    record = sidecar.records.get(result.key or "") or []  # a spelled word has its key
    if result.valid:  # the usual case, built once: the service explains every word it is asked
        listed = sidecar.listed(record[1]) if record[:1] == ["+"] else sidecar.usual_sources
        lemma = sidecar.lemmas.get(result.key or "") if sidecar.lemmas is not None else None
        if lemma:
            return _from_lemma(lex, result, listed, lemma)
        return Explanation(result, None, None, None, None, None, listed)  # (positional: cheaper to build)
    if len(result.tiles) < 2:
        return _told(result, "one-tile", message("explain_one_tile", word=result.word))
    if record[:1] != ["-"] or len(record) != 5:
        return _told(result, None, _not_found(lex, result.word))
    rule, source, form, headword = record[1:]
    if rule in _LEMMA_RULES and headword:  # a form FISE's lists leave out: named by its lemma
        why = _lemma_reason(lex, sidecar, result.word, rule, headword)
        headword = split_stem(headword)[0]
    else:
        why = _reason(lex, result.word, rule, source, form)
    return _told(result, rule, why, form=form, source=source, headword=headword or None)


#: The message of each rule a form comes from its lemma by (lextools.builder.fise_forms).
_LEMMA_MESSAGES = {
    "form": "explain_lemma_form",
    "inf": "explain_lemma_infinitive",
    "inf-se": "explain_lemma_infinitive_se",
    "part-all": "explain_lemma_participle_all",
    "part-masc": "explain_lemma_participle_masc",
    "word": "explain_lemma_word",
    "fem": "explain_lemma_feminine",
    "plural": "explain_lemma_plural",
    "plural-only": "explain_lemma_plural_only",
}
#: The section of the FISE lexicon regulation on the verbs it settles one by one (build/fise-rules.toml).
SETTLED_SECTION = "17.12"
#: The section of the FISE lexicon regulation of each rule a form of a listed verb can break, when
#: its record does not name one (a build before sections were recorded).
_LEMMA_SECTIONS = {
    "fise-participle": "17.4",
    "fise-impersonal": "17.8",
    "fise-defective": "17.6",
    "fise-imperative": "17.10",
    "fise-se-infinitive": "17.5",
    "fise-infinitive-only": "17.2",
    "fise-no-plural": "18",
}


#: The rules of FISE's lists a form of a listed verb can break, and how each is told.
_LEMMA_RULES = {
    "fise-participle": "explain_lemma_participle_masc",
    "fise-infinitive-only": "explain_lemma_not_conjugated",
    "fise-impersonal": "explain_lemma_impersonal_only",
    "fise-defective": "explain_lemma_defective_only",
    "fise-imperative": "explain_lemma_no_imperative",
    "fise-se-infinitive": "explain_lemma_no_se_infinitive",
    "fise-no-plural": "explain_lemma_no_plural",
}


def _lemma_reason(lex: Lexicon, sidecar: Sidecar, word: str, rule: str, headword: str) -> Message:
    """BOXEADAS: participle of BOXEAR, intransitive — masculine singular only (list, line; section):
    the class and model are those of the lemma's infinitive, a word of the lexicon with its own lemma
    record; the list and line, and the section of the rule, are the headword's (``lemma@where@section``)."""
    lemma, where, section, reason = split_stem(headword)
    if rule == "fise-no-plural" or section.startswith("18"):  # TESTS: a plural the word does not take
        refused = f"plural_refused_{reason.partition('/')[0].replace('-', '_')}"
        why = message(refused) if refused in catalogue() else message("plural_refused_undecided")
        told = message("explain_lemma_no_plural", word=word, lemma=lemma.upper(), why=why)
        return _cited(lex, told, where, section)
    key = lex.lookup(lemma).key or ""
    record = (sidecar.lemmas.get(key) if sidecar.lemmas is not None else None) or [lemma, "", "", ""]
    model, klass = (record[2], record[3]) if len(record) >= 4 else ("", "")
    code_of_model, _, verb = model.partition("/")
    values: dict[str, Any] = {"word": word, "lemma": lemma.upper(), "model": code_of_model[2:]}
    values.update(model_verb=verb.upper(), klass=_class_name(klass))
    code = _LEMMA_RULES[rule]
    if rule == "fise-defective" and section == SETTLED_SECTION:  # ABSTÉN, LLOVIZNAD, RESPECTADO
        code = "explain_lemma_settled"
    return _cited(lex, message(code, **values), where, section or _LEMMA_SECTIONS.get(rule, ""))


def _cited(lex: Lexicon, what: Message, where: str, section: str) -> Message:
    """An explanation with the list and line of its lemma and the section of its rule, as known."""
    kind, _, line = where.rpartition(":")
    name = _list_files(lex).get(kind, "")
    if name and line and section:
        return message("explain_lemma_cited", what=what, file=name, line=line, section=section)
    if name and line:
        return message("explain_lemma_at", what=what, file=name, line=line)
    if section:
        return message("explain_lemma_section", what=what, section=section)
    return what


def _list_files(lex: Lexicon) -> dict[str, str]:
    """The files of FISE's lists the lexicon was built from, by kind (``verbs``), as its metadata names them."""
    for described in lex.metadata.get("sources", []):
        if described.get("format") == "fise-lists":
            return {k: str(v) for k, v in described.get("files", {}).items()}
    return {}


def _class_name(klass: str) -> Message | str:
    return message(f"verb_class_{klass}") if f"verb_class_{klass}" in catalogue() else klass


def _from_lemma(lex: Lexicon, result: WordResult, listed: tuple[str, ...], record: list[str]) -> Explanation:
    """A valid word explained by its lemma: "AMADAS: participle of AMAR, transitive — all four forms
    (conjugation model 00, like AMAR) (fixture-verbs.txt, line 18; FISE lexicon regulation 2016, §17.4)"."""
    size = LEMMA_FIELDS if len(record) % LEMMA_FIELDS == 0 else 5  # a lemma file of an older build: five
    parts = []
    for i in range(0, len(record) - size + 1, size):
        lemma, rule, model, klass, _prop, *more = record[i : i + size]
        reason, section, where = more if more else ("", "", "")
        parts.append(_cited(lex, _lemma_part(result.word or "", lemma, rule, model, klass, reason), where, section))
    why = parts[0] if len(parts) == 1 else message("explain_lemmas", first=parts[0], second=parts[1])
    lemma, rule = record[0], record[1]
    return Explanation(result, None, f"lemma-{rule}", None, None, lemma, listed, message=why)


def _lemma_part(word: str, lemma: str, rule: str, model: str, klass: str, reason: str) -> Message:
    code = _LEMMA_MESSAGES.get(rule, "explain_lemma_word")
    if rule == "inf" and (klass == "0" or model[2:4] in ("88", "99")):
        code = "explain_lemma_infinitive_only"
    code_of_model, _, verb = model.partition("/")  # ar01/contar
    values: dict[str, Any] = {"word": word, "lemma": lemma.upper()}
    values.update(model=code_of_model[2:], model_verb=verb.upper(), klass=_class_name(klass))
    if rule == "plural" and not reason:  # a lemma file of an older build: no reason recorded
        code = "explain_lemma_plural_of"
    elif rule == "plural":
        decided, _, how = reason.partition("/")  # class-flag/-z
        key = f"plural_reason_{decided.replace('-', '_')}"
        values["why"] = message(key, how=how) if key in catalogue() else message("plural_reason_undecided", how=how)
    return message(code, **values)


def _told(
    result: WordResult, rule: str | None, why: Message,
    form: str | None = None, source: str | None = None, headword: str | None = None,
) -> Explanation:  # fmt: skip
    """An invalid word's explanation: ``why`` in every language, its English text as the reason, and
    the form, source and headword of the record that says so."""
    return Explanation(result, why.text("en"), rule, form, source, headword, message=why)


def _reason(lex: Lexicon, word: str, rule: str, source: str, form: str) -> Message:
    if rule == "enclitic":
        split = _clitic_split(lex, word)
        if split:
            return message("explain_enclitic", word=word, base=split[0], clitic=split[1])
    if rule == reviewed.RULE_NAME:
        from lextools.core.sources import load_source  # noqa: PLC0415  (descriptors: only a reviewed word's reason reads one)

        for described in lex.metadata.get("sources", []):
            if described.get("format") == "reviewed":
                why = reviewed.why_dropped(load_source(described["name"]), word)
                if why:
                    return message("explain_review", word=word, why=why)
    description = message(f"rule_{rule}") if f"rule_{rule}" in catalogue() else rule  # every rule has its text
    return message("explain_rule", word=word, rule=description, source=source, form=form)


def _clitic_split(lex: Lexicon, word: str) -> tuple[str, str] | None:
    """DAME → (DA, ME), AMAOS → (AMAD, OS), AMÉMONOS → (AMEMOS, NOS): a valid verb form plus clitics."""

    def valid(form: str) -> bool:
        return lex.lookup(form).valid

    split = clitic_split(word.lower(), valid, valid)
    return (split[0].upper(), split[1].upper()) if split else None


def _not_found(lex: Lexicon, word: str) -> Message:
    """COMETELA is in no source, but a player wants to hear that it could never be valid anyway."""
    split = _clitic_split(lex, word) if "enclitic" in lex.metadata.get("filters", ()) else None
    if split:
        return message(
            "explain_not_found_enclitic", word=word, edition=lex.edition.name, base=split[0], clitic=split[1]
        )
    return message("explain_not_found", word=word, edition=lex.edition.name)
