"""Lemma tables as word sources: forms with their lemma, admitted on a second source's evidence.

A lemma table is a lemmatiser's look-up data, a gzipped JSON object from each inflected form to its
lemma (spaCy's ``es_lemma_lookup.json``)::

    {"abaceras": "abacero", "ababoles": "ababol", "ababan": "abar", ...}

Such a table knows many headwords a spelling dictionary lacks (ADENOSINA, COOFICIALIDAD, EVALUABLE),
but it is one source with no word classes, and it also lists technical coinages no dictionary has
(METILANTRACENO). So every form is tagged with the facts the recipe's rules judge, and the build
reports what each rule dropped:

``unconfirmed``
    the lemma is a headword of none of the sources in ``lemma_confirmed_by`` (one source is not
    evidence enough; a form that does not start like its lemma, SLOGAN for ESLOGAN, is judged as
    its own lemma).
``outside-paradigm``
    the lemma is a headword of ``paradigm_of`` (the main dictionary), whose forms of it are the ones
    used: it says which words take no plural and which verbs are given in the infinitive only.
``unconjugated``
    a conjugated form of a verb (a lemma in -AR, -ER, -IR with at least ``verb_min_forms`` forms in
    the table). A dictionary that conjugates the verb gives its forms; the table alone gives the
    infinitive (the FISE lexicon rules admit obsolete or regional verbs in the infinitive only, and
    a verb that no dictionary conjugates is usually one of them).
``invariable``, ``abbreviation``
    a plural of a word listed as taking none (``invariable_from``); a form without a vowel (ML, GR).

Entries written with anything but letters (``abr.``, ``cd-rom``, the lemma ``14`` of CATORCEAVO) are
not read.

Options (``[options]`` of the descriptor): ``lemma_confirmed_by`` (source names),
``paradigm_of`` (a source name), ``verb_min_forms`` (default 15), ``invariable_from``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

from lextools.builder.filters import SourceWord
from lextools.builder.hunspell_source import Headwords, find_vowel, invariable_of, plain_word, plain_words
from lextools.core.errors import SourceError
from lextools.core.inputs import read_input
from lextools.core.sources import Source

_VERB_ENDINGS = ("ar", "er", "ir")

# A form's tags (besides "lowercase-source", which every form has) as bits.
_OUTSIDE_PARADIGM, _UNCONFIRMED, _UNCONJUGATED, _INVARIABLE, _ABBREVIATION = 1, 2, 4, 8, 16
_TAG_OF_BIT = {
    _OUTSIDE_PARADIGM: "outside-paradigm",
    _UNCONFIRMED: "unconfirmed",
    _UNCONJUGATED: "unconjugated",
    _INVARIABLE: "invariable",
    _ABBREVIATION: "abbreviation",
}


def read_table(source: Source) -> dict[str, str]:
    """The form → lemma object of the table; anything else is a :class:`SourceError`."""
    path = source.files["table"]
    try:
        table = json.loads(read_input(path, gz=True).decode("utf-8"))
    except (OSError, ValueError, EOFError, SourceError) as e:  # SourceError: not gzip, or refused unread
        raise SourceError(f"source {source.name}: {path.name} is not a gzipped JSON table ({e})") from None
    if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in table.items()):
        raise SourceError(f"source {source.name}: {path.name} must be one JSON object of form → lemma strings")
    return table


def lemmas(source: Source) -> set[str]:
    """The table's lemmas (lower case, no accents): what it confirms as another source's evidence."""
    return set(plain_words(list(read_table(source).values())))


def inflects(form: str, lemma: str) -> bool:
    """A form of this lemma changes at most its last two letters (ABACERAS of ABACERO, LÁPICES of
    LÁPIZ, JÓVENES of JOVEN); SLOGAN of ESLOGAN is a spelling of its own. Both are plain."""
    return form.startswith(lemma[: max(1, len(lemma) - 2)])


def read_lemma_table(source: Source, headwords_of: Headwords) -> Iterator[SourceWord]:
    """Every form and lemma of the table, tagged (see the module docstring). ``headwords_of`` names
    the headwords of other sources (``lemma_confirmed_by``, ``paradigm_of``)."""

    options = source.options
    table = read_table(source)
    confirmed = headwords_of(options.get("lemma_confirmed_by"))
    main = headwords_of(options.get("paradigm_of"))
    invariable = {plain_word(w) for w in invariable_of(options)}
    lemmas_in_order = list(dict.fromkeys(table.values()))  # in file order
    plain_lemma = dict(zip(lemmas_in_order, plain_words(lemmas_in_order), strict=True))
    forms_of = Counter(plain_lemma[lemma] for lemma in table.values())
    verb_min = int(options.get("verb_min_forms", 15))

    # Every lemma is a word of its own. Entries with anything but letters are not words of the game:
    # numbers (the table's lemma of CATORCEAVO is 14, which would read as tiles), ABR., CD-ROM.
    entries = [(form, lemma) for form, lemma in table.items() if form != lemma and form.isalpha()]
    entries += [(lemma, lemma) for lemma in plain_lemma if lemma.isalpha()]
    # A form's tags are one of a few sets: each is made once and looked up by the bits of its tags.
    tag_sets: dict[int, frozenset[str]] = {}
    name, word_of = source.name, SourceWord
    for (form, lemma), plain in zip(entries, _plain_forms(entries), strict=True):
        base = plain_lemma[lemma]
        if not plain.startswith(base[: max(1, len(base) - 2)]):  # inflects(plain, base), without a call
            lemma, base = form, plain  # judged as a headword of its own
        bits = 0
        if base in main:
            bits = _OUTSIDE_PARADIGM
        elif base not in confirmed:
            bits = _UNCONFIRMED
        if plain != base:
            if base.endswith(_VERB_ENDINGS) and forms_of[base] >= verb_min:
                bits |= _UNCONJUGATED
            if base in invariable:
                bits |= _INVARIABLE
        if find_vowel(plain) is None:  # has_vowel, without a call per form
            bits |= _ABBREVIATION
        tags = tag_sets.get(bits)
        if tags is None:
            tags = tag_sets[bits] = frozenset(["lowercase-source", *(t for b, t in _TAG_OF_BIT.items() if bits & b)])
        yield word_of(form, name, lemma, (), tags)


#: Forms made plain at a time (:func:`_plain_forms`).
_CHUNK = 10_000


def _plain_forms(entries: list[tuple[str, str]]) -> Iterator[str]:
    """The plain form of each entry, made :data:`_CHUNK` at a time by :func:`plain_words` (one call
    each), so that no list of all the table's plain forms is held while its words are read."""
    for start in range(0, len(entries), _CHUNK):
        yield from plain_words([form for form, _ in entries[start : start + _CHUNK]])
