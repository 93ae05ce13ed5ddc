"""Hunspell dictionaries as word sources: expanded forms, tagged with what the rules need.

:mod:`lextools.hunspell` expands a dictionary and keeps, for every form, the affix rules that made
it. This module turns that provenance — and the dictionary's own conventions, which differ per
dictionary and are therefore written as ``[options]`` in the source's descriptor — into the tags
that :mod:`lextools.filters` judges:

``enclitic``
    a verb form with attached pronouns. In RLA-ES (see ``sources/SURVEY.md``) three things make one:
    a suffix class that only adds clitics (``enclitic_flags``); in the conjugation classes
    (``clitic_rule_flags``, R and X) the rule infinitive + SE (strip "", add "se") and any rule
    whose affix ends in "ndose"; and ~1,000 flagless entries written out in full (DAME, HAZLO),
    found by stripping clitics and finding a verb form of the same dictionary underneath.
``pronominal-infinitive``
    infinitive + SE of a verb whose dictionary headword is pronominal — listed in
    ``pronominal_verbs``, or written in the dictionary as a bare "-rse" entry (ABSENTARSE).
    The FISE lexicon rules keep these (ARREPENTIRSE) while dropping every other enclitic form.
``proper-noun``, ``abbreviation``, ``affix``, ``multiword``, ``acronym``
    from morphological fields (``morph_tags``: Dicollecte marks ``po:npr``), from flags
    (``symbol_flags``: Dicollecte marks symbols KEEPCASE, ``||``: FT, LB, PX; ``unit_symbol_flags``:
    its SI-prefix class makes KM, CD, HS from M, CD, S, while a bare unit with a vowel, MOL or RAD,
    stays a word), from the spelling
    (a full stop, a leading or trailing hyphen, a space, no vowel at all where
    ``vowelless_is_abbreviation``), or from curated lists in the descriptor.

Every word also gets ``lowercase-source``: hunspell writes common words in lower case, so a
capital after the first letter marks an acronym (pH, DVD).
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from lextools.filters import SourceWord
from lextools.hunspell import AffixRule, entry_expander, iter_dic, read_aff

if TYPE_CHECKING:
    from lextools.sources import Source

#: Object and reflexive pronouns that attach to Spanish verbs, longest combinations first.
CLITICS = sorted(
    {a + b for a in ("", "me", "te", "se", "nos", "os") for b in ("lo", "la", "los", "las", "le", "les")}
    | {"me", "te", "se", "nos", "os", "lo", "la", "los", "las", "le", "les"},
    key=len,
    reverse=True,
)


def _plain(word: str) -> str:
    """Lower case without accents (Ñ kept): verb forms are compared in this shape."""
    decomposed = unicodedata.normalize("NFD", word.lower().replace("ñ", "\0"))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("\0", "ñ")


def _has_vowel(plain: str) -> bool:
    """Words have a vowel (Y counts: HOY, MY); CM, KG and PH are symbols or abbreviations."""
    return any(c in "aeiouy" for c in plain)


class _Tagger:
    def __init__(self, options: dict[str, Any]) -> None:
        self.enclitic_flags = set(options.get("enclitic_flags", ""))
        self.clitic_rule_flags = set(options.get("clitic_rule_flags", ""))
        self.verb_flags = set(options.get("verb_flags", ""))
        self.pronominal = {_plain(v) for v in options.get("pronominal_verbs", [])}
        self.abbreviations = {_plain(w) for w in options.get("abbreviations", [])}
        self.multiword_pieces = {_plain(w) for w in options.get("multiword_pieces", [])}
        self.not_enclitic = {_plain(w) for w in options.get("not_enclitic", [])}
        self.morph_tags: dict[str, str] = dict(options.get("morph_tags", {}))
        self.vowelless = bool(options.get("vowelless_is_abbreviation", False))
        self.clitic_check = bool(options.get("flagless_clitic_check", False))
        self.unit_flags = set(options.get("unit_symbol_flags", []))
        self.symbol_flags = set(options.get("symbol_flags", []))
        self.skip_flags = frozenset(options.get("skip_flags", []))
        self.verb_forms: set[str] = set()

    def rule_tags(self, stem: str, rules: tuple[AffixRule, ...]) -> set[str]:
        tags: set[str] = set()
        for rule in rules:
            if rule.flag in self.enclitic_flags:
                tags.add("enclitic")
            elif rule.flag in self.clitic_rule_flags:
                if rule.add.endswith("ndose"):
                    tags.add("enclitic")
                elif rule.strip == "" and rule.add == "se":
                    tags.add("enclitic")
                    if _plain(stem) in self.pronominal:
                        tags.add("pronominal-infinitive")
        return tags

    def is_written_out_enclitic(self, word: str) -> bool:
        """DAME, HAZLO, AMAOS: a verb form of this dictionary plus clitics, listed as a word."""
        plain = _plain(word)
        if plain in self.not_enclitic:
            return False
        for clitic in CLITICS:
            if plain.endswith(clitic) and len(plain) > len(clitic) + 1:
                base = plain[: -len(clitic)]
                # AMAOS is AMAD+OS and AMÉMONOS is AMEMOS+NOS: the D and the S drop before them.
                if base in self.verb_forms or (clitic == "os" and base + "d" in self.verb_forms):
                    return True
                if clitic.startswith("nos") and base + "s" in self.verb_forms:
                    return True
        return False

    def spelling_tags(self, word: str) -> tuple[list[str], set[str]]:
        """Split a raw entry into the words it offers, with tags read from how it is written."""
        tags = {"lowercase-source"}
        text = word.strip()
        if "." in text:
            tags.add("abbreviation")
            text = text.replace(".", "")
        if text.startswith("-") or text.endswith("-"):
            tags.add("affix")
            text = text.strip("-")
        pieces = text.split()
        if len(pieces) > 1:
            tags.add("multiword")
        plain = _plain(text)
        if plain in self.abbreviations:
            tags.add("abbreviation")
        if plain in self.multiword_pieces:
            tags.add("multiword")
        if self.vowelless and text and not _has_vowel(plain):
            tags.add("abbreviation")
        return pieces, tags


def read_hunspell(source: Source) -> Iterator[SourceWord]:
    """Every form of a hunspell dictionary, with tags (see the module docstring)."""
    tagger = _Tagger(source.options)
    aff = read_aff(source.files["aff"])
    if tagger.skip_flags:  # L'AMOUR, QU'IL: forms no game plays are never made
        skip = tagger.skip_flags
        aff = dataclasses.replace(
            aff,
            prefixes={f: r for f, r in aff.prefixes.items() if f not in skip},
            suffixes={f: r for f, r in aff.suffixes.items() if f not in skip},
        )
    dic = source.files["dic"]
    expand_entry = entry_expander(aff)

    if tagger.clitic_check:  # first pass: the verb forms, to recognise written-out enclitics
        for entry in iter_dic(dic, aff):
            if entry.flags & tagger.verb_flags:
                for form in expand_entry(entry):
                    if not tagger.rule_tags(entry.word, form.rules):
                        tagger.verb_forms.add(_plain(form.word))
            elif not entry.flags and entry.word.islower():
                # Irregular verbs are partly written out without flags (DA, DI, HAZ): the clitic check
                # needs them as bases; homographs (TELA) survive through their flagged entries.
                tagger.verb_forms.add(_plain(entry.word))
            if entry.word.endswith("rse") and not entry.flags:
                tagger.pronominal.add(_plain(entry.word[:-2]))  # ABSENTARSE: a pronominal headword

    for entry in iter_dic(dic, aff):
        morph_tags = {tag for field, tag in tagger.morph_tags.items() if any(m.startswith(field) for m in entry.morph)}
        if _plain(entry.word) in tagger.abbreviations or entry.flags & tagger.symbol_flags:
            morph_tags.add("abbreviation")  # HNO/GS: HNA, HNOS and HNAS are the same abbreviation
        flagless = not entry.flags
        unit = bool(entry.flags & tagger.unit_flags)
        for form in expand_entry(entry):
            pieces, tags = tagger.spelling_tags(form.word)
            tags |= morph_tags | tagger.rule_tags(entry.word, form.rules)
            if unit and (form.affixes or not _has_vowel(_plain(form.word))):
                tags.add("abbreviation")  # KM, CD, HS: a unit symbol, bare or with an SI prefix
            if flagless and tagger.clitic_check and tagger.is_written_out_enclitic(form.word):
                tags.add("enclitic")
            for piece in pieces:
                yield SourceWord(piece, source=source.name, stem=entry.word, affixes=form.affixes, tags=frozenset(tags))
