"""Hunspell dictionaries as word sources: expanded forms, tagged with what the rules need.

:mod:`lextools.builder.hunspell` expands a dictionary and keeps, for every form, the affix rules that made
it. This module turns that provenance — and the dictionary's own conventions, which differ per
dictionary and are therefore written as ``[options]`` in the source's descriptor — into the tags
that :mod:`lextools.builder.filters` judges:

``enclitic``
    a verb form with attached pronouns. In RLA-ES (see ``sources/SURVEY.md``) three things make one:
    a suffix class that only adds clitics (``enclitic_flags``); in the conjugation classes
    (``clitic_rule_flags``, R and X) the rule infinitive + SE (strip "", add "se") and any rule
    whose affix ends in "ndose"; and the flagless entries written out in full (DAME, HAZLO),
    found by stripping clitics and finding a verb form of the same dictionary underneath.
``pronominal-infinitive``
    infinitive + SE of a verb whose dictionary headword is pronominal — listed in
    ``pronominal_verbs``, or written in the dictionary as a bare "-rse" entry (ABSENTARSE).
    The FISE lexicon rules keep these (ARREPENTIRSE) while dropping every other enclitic form.
``invariable``
    a plural (a rule of ``plural_flags``) of a headword listed in ``invariable``: apocopes, unadapted
    foreign words, entries that stand for a whole expression take no plural (BYTE, GRAN, OQUE).
``proper-noun``, ``abbreviation``, ``affix``, ``multiword``, ``acronym``
    from morphological fields (``morph_tags``: Dicollecte marks ``po:npr``), from flags
    (``symbol_flags``: Dicollecte marks symbols KEEPCASE, ``||``: FT, LB, PX; ``unit_symbol_flags``:
    its SI-prefix class makes KM, CD, HS from M, CD, S, while a bare unit with a vowel, MOL or RAD,
    stays a word), from the spelling
    (a full stop, a leading or trailing hyphen, a space, no vowel at all where
    ``vowelless_is_abbreviation``), or from curated lists in the descriptor.

Options that take part of a dictionary: ``only_flags`` (apply only these affix classes),
``confirmed_by`` (read a headword only when that other source lists it: two sources agree) and
``rse_is_enclitic`` (a headword in -rse is tagged ``enclitic``: COES does not mark pronominal
entries); ``enclitic_words`` lists headwords that are a verb form with a pronoun attached;
``flags_for_new_headwords_only`` are applied only to headwords ``main_dictionary`` lacks.

Every word also gets ``lowercase-source``: hunspell writes common words in lower case, so a
capital after the first letter marks an acronym (pH, DVD).
"""

from __future__ import annotations

import dataclasses
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from typing import Any

from lextools.builder.filters import SourceWord
from lextools.builder.hunspell import (
    AffixFile,
    AffixRule,
    Chain,
    DicEntry,
    dic_words,
    entry_chains,
    iter_dic,
    read_aff,
)
from lextools.core.clitics import clitic_split
from lextools.core.sources import Source, load_source

#: The headwords of the sources named (one name, a list, or none): :func:`lextools.builder.read.headwords_of`.
Headwords = Callable[[str | list[str] | None], set[str]]

#: Every form of one dictionary entry, as (word, rules) (:func:`lextools.builder.hunspell.entry_chains`).
Expand = Callable[[DicEntry], list[Chain]]

#: Irregular imperatives (and the usted forms of DAR) that RLA-ES writes out without flags, with
#: their clitics attached (DALE, DILE, HAZLO, DENLE, VETE, PONTE).
SHORT_IMPERATIVES = frozenset({"da", "de", "den", "di", "haz", "ve", "ven", "ten", "pon", "sal", "se", "id"})


def plain_word(word: str) -> str:
    """Lower case without accents (Ñ kept): verb forms are compared in this shape.

    Called for every form of a dictionary (millions in a default build): ASCII needs only lower
    case; a word of Latin-1 (every letter of Spanish and French) takes one ``bytes.translate``
    through a table of those letters' plain shapes, and one whose letters all come before the
    combining marks (U+0300) one ``str.translate`` (slower, a dict per character); only a word with
    a later character is decomposed whole (NFD), its marks deleted. Whether a word is Latin-1 is
    what encoding it says (in C: ``max`` of a text of many words, :func:`plain_words`, takes a
    Python step per character).
    """
    if word.isascii() and "\0" not in word:
        return word.lower()
    low = word.lower()
    try:
        return low.encode("latin-1").translate(_LATIN1_PLAIN).decode("latin-1")
    except UnicodeEncodeError:  # a character past U+00FF
        pass
    if max(low) < _FIRST_MARK:
        return low.translate(_LATIN_PLAIN)
    decomposed = unicodedata.normalize("NFD", low.replace("ñ", "\0"))
    return decomposed.translate(_without_marks()).replace("\0", "ñ")


def plain_words(words: Sequence[str]) -> list[str]:
    """:func:`plain_word` of each word, in one call for them all: the words joined by line feeds are
    made plain as one text of Latin-1 (each character alone, within its line), so a dictionary's
    forms cost no Python call each. Words with a character past Latin-1 take :func:`plain_word`
    each: one such word would send the whole text through the slow routes (a dict per character,
    or NFD), slower than the calls."""
    if not words:
        return []
    text = "\n".join(words)
    if text.count("\n") != len(words) - 1:  # a word holding a line feed: one by one
        return [plain_word(w) for w in words]
    low = text.lower()
    try:
        return low.encode("latin-1").translate(_LATIN1_PLAIN).decode("latin-1").split("\n")
    except UnicodeEncodeError:
        return [plain_word(w) for w in words]


@cache
def _without_marks() -> dict[int, None]:
    """A translation table deleting every character with a combining class (``unicodedata.combining``)."""
    return {c: None for c in range(sys.maxunicode + 1) if unicodedata.combining(chr(c))}


#: The first combining mark: no character before it has a combining class.
_FIRST_MARK = "\u0300"


def _latin_plain() -> dict[int, str]:
    """What the NFD route makes of each character before U+0300, where it changes it.

    NFD decomposes character by character, and once every mark is deleted the canonical reordering of
    marks changes nothing, so mapping each character alone gives the same word; Ñ is kept, and a NUL
    becomes Ñ as on the NFD route (it stands for Ñ there).
    """
    table: dict[int, str] = {0: "ñ"}
    for c in range(1, ord(_FIRST_MARK)):
        ch = chr(c)
        if ch == "ñ":
            continue
        plain = "".join(m for m in unicodedata.normalize("NFD", ch) if not unicodedata.combining(m))
        if plain != ch:
            table[c] = plain
    return table


_LATIN_PLAIN = _latin_plain()
#: :data:`_LATIN_PLAIN` of Latin-1 as a ``bytes.translate`` table: each of its characters has a
#: Latin-1 character as its plain shape (a test checks it).
_LATIN1_PLAIN = bytes(ord(_LATIN_PLAIN.get(c, chr(c))) for c in range(256))


_VOWEL = re.compile("[aeiouy]")
#: The first vowel of a plain word, or None: :func:`has_vowel` without a Python call, for loops per form.
find_vowel = _VOWEL.search


def has_vowel(plain: str) -> bool:
    """Words have a vowel (Y counts: HOY, MY); CM, KG and PH are symbols or abbreviations."""
    return _VOWEL.search(plain) is not None


# What an affix rule says about the forms it makes (:meth:`_Tagger.rule_bits`).
_CLITIC_RULE, _SE_RULE, _PLURAL_RULE = 1, 2, 4

# A form's tags as bits: the tags of a form are then its entry's tags joined with one of a few sets,
# looked up, not a set built and frozen per form (a default build reads millions of forms).
LOWERCASE, ABBREVIATION, MULTIWORD, ENCLITIC, PRONOMINAL, INVARIABLE = 1, 2, 4, 8, 16, 32
_TAG_OF_BIT = {
    LOWERCASE: "lowercase-source",
    ABBREVIATION: "abbreviation",
    MULTIWORD: "multiword",
    ENCLITIC: "enclitic",
    PRONOMINAL: "pronominal-infinitive",
    INVARIABLE: "invariable",
}


class _Tagger:
    def __init__(self, options: dict[str, Any]) -> None:
        self.enclitic_flags = set(options.get("enclitic_flags", ""))
        self.clitic_rule_flags = set(options.get("clitic_rule_flags", ""))
        self.verb_flags = set(options.get("verb_flags", ""))
        self.pronominal = {plain_word(v) for v in options.get("pronominal_verbs", [])}
        self.abbreviations = {plain_word(w) for w in options.get("abbreviations", [])}
        self.multiword_pieces = {plain_word(w) for w in options.get("multiword_pieces", [])}
        self.not_enclitic = {plain_word(w) for w in options.get("not_enclitic", [])}
        self.enclitic_words = {plain_word(w) for w in options.get("enclitic_words", [])}
        self.invariable = {plain_word(w) for w in options.get("invariable", []) or invariable_of(options)}
        self.plural_flags = set(options.get("plural_flags", ""))
        self.morph_tags: dict[str, str] = dict(options.get("morph_tags", {}))
        self.vowelless = bool(options.get("vowelless_is_abbreviation", False))
        self.clitic_check = bool(options.get("flagless_clitic_check", False))
        self.unit_flags = set(options.get("unit_symbol_flags", []))
        self.symbol_flags = set(options.get("symbol_flags", []))
        #: the words whose spelling alone gives a tag (:meth:`spelling_bits`), vowels aside
        self.curated = self.abbreviations | self.multiword_pieces | self.enclitic_words
        self.skip_flags = frozenset(options.get("skip_flags", []))
        self.verb_forms: set[str] = set()  # forms of the conjugation classes
        self.flagless_forms: set[str] = set()  # flagless entries, some of them irregular verb forms
        # id of an affix rule → what it says (_CLITIC_RULE, …); the rules stay alive in ``_rules``
        self._kinds: dict[int, int] = {}
        self._rules: list[AffixRule] = []
        # an entry's tags → (a form's tag bits → the entry's tags with those): each set made once
        self._tag_sets: dict[frozenset[str], dict[int, frozenset[str]]] = {}
        # the flags of a form's rules, each distinct tuple once; id of a rule alone → its tuple
        self._affixes: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._one_affix: dict[int, tuple[str, ...]] = {}
        # (headword invariable, headword pronominal) → a chain's tag bits by its rules' kind (rule_bits)
        self._bits_of_kind = {(inv, pron): _bits_of_kind(inv, pron) for inv in (False, True) for pron in (False, True)}
        # an entry's morphological fields → the tags they give (Dicollecte's entries share a few hundred)
        self._morph_tags_of: dict[tuple[str, ...], frozenset[str]] = {}

    def morph_tags_of(self, morph: tuple[str, ...]) -> frozenset[str]:
        """The tags ``morph_tags`` gives an entry with these morphological fields (worked out once per fields)."""
        tags = self._morph_tags_of.get(morph)
        if tags is None:
            tags = frozenset(tag for field, tag in self.morph_tags.items() if any(m.startswith(field) for m in morph))
            self._morph_tags_of[morph] = tags
        return tags

    def _rule_kind(self, rule: AffixRule) -> int:
        """What ``rule`` says about its forms, as :meth:`rule_bits` reads it (worked out once per rule)."""
        kind = 0
        if rule.flag in self.enclitic_flags:
            kind = _CLITIC_RULE
        elif rule.flag in self.clitic_rule_flags:
            if rule.add.endswith("ndose"):
                kind = _CLITIC_RULE
            elif rule.strip == "" and rule.add == "se":
                kind = _SE_RULE
        if rule.flag in self.plural_flags:
            kind |= _PLURAL_RULE
        self._kinds[id(rule)] = kind
        self._rules.append(rule)
        return kind

    def rule_bits(self, plain_stem: str, rules: tuple[AffixRule, ...]) -> int:
        """The tags the rules that made a form give it, as bits; ``plain_stem`` is its entry's headword, plain."""
        kind = 0
        kinds = self._kinds
        for rule in rules:
            k = kinds.get(id(rule))
            kind |= self._rule_kind(rule) if k is None else k
        if not kind:
            return 0
        bits = 0
        if kind & _PLURAL_RULE and plain_stem in self.invariable:
            bits = INVARIABLE  # BYTES, GRANES, OQUES: a plural of a word that takes none
        if kind & _CLITIC_RULE:
            bits |= ENCLITIC
        if kind & _SE_RULE:
            bits |= ENCLITIC
            if plain_stem in self.pronominal:
                bits |= PRONOMINAL
        return bits

    def chain_bits(self, plain_stem: str, chains: list[Chain]) -> list[int]:
        """:meth:`rule_bits` of each chain of one entry (the headword ``plain_stem``), in one call: the
        headword looked up once, each chain's rules' kinds inline."""
        of_kind = self._bits_of_kind[plain_stem in self.invariable, plain_stem in self.pronominal]
        return [of_kind[kind] for kind in self._chain_kinds(chains)]

    def _chain_kinds(self, chains: list[Chain]) -> list[int]:
        """The kinds of each chain's rules, or-ed (each rule's kind worked out once, then by its id)."""
        kinds, rule_kind = self._kinds, self._rule_kind
        out = []
        for _, rules in chains:
            kind = 0
            for rule in rules:
                k = kinds.get(id(rule))
                kind |= rule_kind(rule) if k is None else k
            out.append(kind)
        return out

    def affixes_of(self, rules: tuple[AffixRule, ...]) -> tuple[str, ...]:
        """The flags of the rules that made a form, one tuple per distinct flags (shared by the forms:
        a source kept for the next edition keeps them as they are, :class:`~lextools.builder.recipes.SharedSources`)."""
        if len(rules) == 1:
            affixes = self._one_affix.get(id(rules[0]))
            if affixes is None:
                affixes = self._one_affix[id(rules[0])] = self._affixes.setdefault((rules[0].flag,), (rules[0].flag,))
            return affixes
        affixes = tuple([r.flag for r in rules])
        return self._affixes.setdefault(affixes, affixes)

    def unmarked(self, plain_stem: str, chains: list[Chain]) -> list[str]:
        """The words of the chains (forms of the headword ``plain_stem``) whose rules give no tag:
        those :meth:`rule_bits` gives 0, worked out without a call per form."""
        allowed = 0 if plain_stem in self.invariable else _PLURAL_RULE  # a plural alone: no tag
        return [word for (word, _), kind in zip(chains, self._chain_kinds(chains), strict=True) if not kind & ~allowed]

    def spelling_bits(self, plain: str) -> int:
        """The tags of a one-word entry of letters alone, as bits (:meth:`spelling_tags` for such a word)."""
        bits = LOWERCASE
        if plain in self.abbreviations:
            bits |= ABBREVIATION
        if plain in self.multiword_pieces:
            bits |= MULTIWORD
        if plain in self.enclitic_words:
            bits |= ENCLITIC
        if self.vowelless and find_vowel(plain) is None:
            bits |= ABBREVIATION
        return bits

    def tag_sets(self, entry_tags: frozenset[str]) -> dict[int, frozenset[str]]:
        """The sets of tags made so far for forms of entries with these tags, by the forms' bits."""
        sets = self._tag_sets.get(entry_tags)
        if sets is None:
            sets = self._tag_sets[entry_tags] = {}
        return sets

    @staticmethod
    def tag_set(sets: dict[int, frozenset[str]], entry_tags: frozenset[str], bits: int) -> frozenset[str]:
        """The entry's tags with those of ``bits`` (made on a miss of ``sets``, and kept there)."""
        tags = sets[bits] = entry_tags | {tag for bit, tag in _TAG_OF_BIT.items() if bits & bit}
        return tags

    def is_written_out_enclitic(self, word: str, plain: str) -> bool:
        """DAME, HAZLO, AMAOS: a verb form of this dictionary plus clitics, listed as a word.

        ``plain`` is ``plain_word(word)``. Flagless entries are bases only where the base is plainly a
        verb form that takes clitics (an infinitive, a gerund, a vosotros imperative, a stressed
        imperative such as DÁ-MELO, or one of the short irregular imperatives): MENOS is not ME + NOS,
        ALLÁ not AL + LA.
        """
        if plain in self.not_enclitic:
            return False

        def is_form(form: str) -> bool:
            return form in self.verb_forms or form in self.flagless_forms

        return clitic_split(plain, lambda base: self._is_base(base, word), is_form) is not None

    def _is_base(self, base: str, word: str) -> bool:
        """Could ``base`` carry clitics? Only infinitives, gerunds and imperatives do (FISE's examples)."""
        known = base in self.verb_forms
        if not (known or base in self.flagless_forms):
            return False
        stressed = any(c in "áéíóú" for c in word.lower()[: len(base)])  # DÁMELO, HUÉLALA, VÁYANSE
        if base.endswith(("r", "ndo", "d")) or stressed or base in SHORT_IMPERATIVES:
            return True
        # Voseo imperatives are written without their accent (AMALA, ECHATE); BASTANTE is not BASTAN + TE.
        return known and base.endswith(("a", "e", "i"))

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
        plain = plain_word(text)
        if plain in self.abbreviations:
            tags.add("abbreviation")
        if plain in self.multiword_pieces:
            tags.add("multiword")
        if plain in self.enclitic_words:
            tags.add("enclitic")
        if self.vowelless and text and not has_vowel(plain):
            tags.add("abbreviation")
        return pieces, tags


def read_hunspell(source: Source, headwords_of: Headwords) -> Iterator[SourceWord]:
    """Every form of a hunspell dictionary, with tags (see the module docstring). ``headwords_of``
    names the headwords of other sources (``confirmed_by``, ``main_dictionary``)."""
    options = source.options
    tagger = _Tagger(options)
    only = set(options.get("only_flags", ""))
    aff = _without_unwanted_classes(read_aff(source.files["aff"]), tagger.skip_flags, only)
    names = options.get("confirmed_by")
    confirmed = headwords_of(names) if names else None  # None: every headword is read
    rse_is_enclitic = bool(options.get("rse_is_enclitic", False))
    # Conjugate only the verbs the main dictionary lacks: where both have a verb, two conjugations
    # disagree on irregulars (VENTAR: VIENTES or VENTES), and the main dictionary's is the one used.
    new_only = frozenset(options.get("flags_for_new_headwords_only", ""))
    known = headwords_of(options.get("main_dictionary")) if new_only else set()
    dic = source.files["dic"]
    expand_entry = entry_chains(aff)
    entries: Iterable[DicEntry] = iter_dic(dic, aff)
    if tagger.clitic_check:  # first pass: the verb forms, to recognise written-out enclitics
        entries = list(entries)  # (the .dic read once for both passes)
        _learn_verb_forms(tagger, entries, expand_entry)
    for entry in entries:
        plain_stem = plain_word(entry.word)
        if confirmed is not None and plain_stem not in confirmed:
            continue  # a headword only this dictionary gives: one source is not evidence enough
        entry_tags = _entry_tags(tagger, entry, plain_stem, rse_is_enclitic)
        if new_only and entry.flags & new_only and plain_stem in known:
            entry = dataclasses.replace(entry, flags=entry.flags - new_only)
        yield from _tagged_forms(tagger, source.name, entry, plain_stem, expand_entry(entry), entry_tags)


def _bits_of_kind(invariable: bool, pronominal: bool) -> tuple[int, ...]:
    """What :meth:`_Tagger.rule_bits` gives for each kind of chain (its rules' kinds joined), for a
    headword invariable or not, pronominal or not."""
    table = []
    for kind in range((_CLITIC_RULE | _SE_RULE | _PLURAL_RULE) + 1):
        bits = INVARIABLE if kind & _PLURAL_RULE and invariable else 0
        if kind & (_CLITIC_RULE | _SE_RULE):
            bits |= ENCLITIC
        if kind & _SE_RULE and pronominal:
            bits |= PRONOMINAL
        table.append(bits)
    return tuple(table)


def _without_unwanted_classes(aff: AffixFile, skip: frozenset[str], only: set[str]) -> AffixFile:
    """The affix file without the classes ``skip_flags`` names or ``only_flags`` leaves out.

    L'AMOUR, QU'IL: forms no game plays are never made.
    """
    if not skip and not only:
        return aff

    def wanted(flag: str) -> bool:
        return flag not in skip and (not only or flag in only)

    return dataclasses.replace(
        aff,
        prefixes={f: r for f, r in aff.prefixes.items() if wanted(f)},
        suffixes={f: r for f, r in aff.suffixes.items() if wanted(f)},
    )


def _learn_verb_forms(tagger: _Tagger, entries: Iterable[DicEntry], expand_entry: Expand) -> None:
    """Collect the verb forms, flagless entries and pronominal headwords the clitic check needs.

    The verb forms (hundreds of thousands in RLA-ES) are made plain :data:`_PLAIN_AT_ONCE` at a
    time (:func:`plain_words`), not one call each.
    """
    verb_flags, unmarked = tagger.verb_flags, tagger.unmarked
    forms: list[str] = []
    for entry in entries:
        if entry.flags & verb_flags:
            forms += unmarked(plain_word(entry.word), expand_entry(entry))
            if len(forms) >= _PLAIN_AT_ONCE:
                tagger.verb_forms.update(plain_words(forms))
                forms.clear()
        elif not entry.flags and entry.word.islower():
            # Irregular verbs are partly written out without flags (DA, DI, HAZ): the clitic check
            # needs them as bases; homographs (TELA) survive through their flagged entries.
            tagger.flagless_forms.add(plain_word(entry.word))
        if entry.word.endswith("rse") and not entry.flags:
            tagger.pronominal.add(plain_word(entry.word[:-2]))  # ABSENTARSE: a pronominal headword
    tagger.verb_forms.update(plain_words(forms))


#: Verb forms made plain at a time (:func:`_learn_verb_forms`).
_PLAIN_AT_ONCE = 50_000


def _entry_tags(tagger: _Tagger, entry: DicEntry, plain_stem: str, rse_is_enclitic: bool) -> frozenset[str]:
    """The tags every form of ``entry`` gets: from its morphological fields, flags and headword
    (``plain_stem``, plain). Most entries take their fields' tags alone: that set is given as it is
    (one per distinct fields, its hash worked out once), not copied."""
    tags = tagger.morph_tags_of(entry.morph)
    if plain_stem in tagger.abbreviations or entry.flags & tagger.symbol_flags:
        tags |= {"abbreviation"}  # HNO/GS: HNA, HNOS and HNAS are the same abbreviation
    if rse_is_enclitic and entry.word.endswith("rse"):
        tags |= {"enclitic"}  # DESAYUNARSE: a headword in -rse, no mark of a pronominal entry
    return tags


def _tagged_forms(
    tagger: _Tagger,
    source_name: str,
    entry: DicEntry,
    plain_stem: str,
    forms: list[Chain],
    entry_tags: frozenset[str],
) -> Iterator[SourceWord]:
    """The words of ``entry``'s forms, each with its entry's tags and those of its spelling and rules.

    A form of letters alone (nearly all) is one word with no full stop, hyphen or space: its tags come
    as bits (:meth:`_Tagger.spelling_bits`), and its set of tags is looked up. The entry's forms are
    made plain in one call (:func:`plain_words`, unless they are few) and their rules' tags worked out
    in another (:meth:`_Tagger.chain_bits`); a form's spelling is asked for tags only when it is one
    of the curated words or has no vowel.
    """
    stem = entry.word
    unit = bool(entry.flags & tagger.unit_flags)
    clitic_check = not entry.flags and tagger.clitic_check
    sets = tagger.tag_sets(entry_tags)
    spelling_bits, word_of, curated = tagger.spelling_bits, SourceWord, tagger.curated
    vowelless = tagger.vowelless
    words = [word for word, _ in forms]
    plains = plain_words(words) if len(words) > _FEW_FORMS else [plain_word(word) for word in words]
    affixes_of = tagger.affixes_of
    for (word, rules), plain, rule_bits in zip(forms, plains, tagger.chain_bits(plain_stem, forms), strict=True):
        affixes = affixes_of(rules)
        if not word.isalpha():
            yield from _spelled_out(tagger, source_name, entry, word, rules, entry_tags)
            continue
        if plain in curated or (vowelless and find_vowel(plain) is None):
            bits = spelling_bits(plain) | rule_bits
        else:
            bits = LOWERCASE | rule_bits  # what spelling_bits gives any other word
        if unit and (affixes or not has_vowel(plain)):
            bits |= ABBREVIATION  # KM, CD, HS: a unit symbol, bare or with an SI prefix
        if clitic_check and tagger.is_written_out_enclitic(word, plain):
            bits |= ENCLITIC
        tags = sets.get(bits)
        if tags is None:
            tags = tagger.tag_set(sets, entry_tags, bits)
        yield word_of(word, source_name, stem, affixes, tags)


#: An entry with no more forms makes them plain one call each: joining and splitting a text costs more.
_FEW_FORMS = 4


def _spelled_out(
    tagger: _Tagger,
    source_name: str,
    entry: DicEntry,
    word: str,
    rules: tuple[AffixRule, ...],
    entry_tags: frozenset[str],
) -> Iterator[SourceWord]:
    """The words of a form written with more than letters (``etc.``, ``-ción``, ``ad hoc``), tagged."""
    pieces, tags = tagger.spelling_tags(word)
    tags |= entry_tags
    bits = tagger.rule_bits(plain_word(entry.word), rules)
    plain = plain_word(word)
    if entry.flags & tagger.unit_flags and (rules or not has_vowel(plain)):
        bits |= ABBREVIATION  # KM, CD, HS: a unit symbol, bare or with an SI prefix
    if not entry.flags and tagger.clitic_check and tagger.is_written_out_enclitic(word, plain):
        bits |= ENCLITIC
    tags |= {tag for bit, tag in _TAG_OF_BIT.items() if bits & bit}
    affixes = tuple(r.flag for r in rules)
    for piece in pieces:
        yield SourceWord(piece, source=source_name, stem=entry.word, affixes=affixes, tags=frozenset(tags))


def invariable_of(options: dict[str, Any]) -> list[str]:
    """``invariable_from = "rla-es"``: one list of words without plural serves every Spanish source."""
    if not options.get("invariable_from"):
        return []
    return list(load_source(options["invariable_from"]).options.get("invariable", []))


def dictionary_headwords(source: Source) -> set[str]:
    """A hunspell dictionary's headwords, lower case without accents, without expanding them."""
    return set(plain_words(dic_words(source.files["dic"], read_aff(source.files["aff"]))))
