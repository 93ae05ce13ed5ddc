"""Every valid form of FISE's lemma lists, under the FISE lexicon rules (the ``fise-lists`` source).

:mod:`lextools.builder.fise_lists` reads the files; here the totals are combined with the revision
of their folder and the later revisions (:func:`load_lists`), and each lemma gives its forms
(:func:`generate`):

- a verb, every simple form of its model (:mod:`lextools.builder.conjugate`), the regular ones too
  for ``R``, the participles given for ``P``; the participle in four forms for a transitive verb
  (class 1), in the masculine singular otherwise; models ``88``/``99`` and class 0 the infinitive
  only; ``I`` and class 5 the impersonal forms only (infinitive, gerund, participle, the third
  person singular); ``D`` only the forms its parenthesis names (:func:`defective_cells`; wording it
  cannot read is reported, and the verb keeps its infinitive only); a pronominal verb (classes 3–5)
  its infinitive with and without SE;
- another word, itself, its feminine, and the plurals of both by the ordinary rules when it takes
  one: as its revision says (sections 1 and 2), else on the open sources' evidence (a plural
  attested, a part of speech that takes one or a dictionary entry without one,
  :class:`PluralEvidence`); the words no evidence decides are reported and take the recipe's
  ``undecided_plurals`` (``plural`` or ``singular``).

Each form carries its lemma (``stem``) and a tag ``fise:RULE:MODEL:CLASS:PROPERTY`` that the build
keeps for :mod:`lextools.features.explain` ("AMADAS: participle of AMAR, transitive — all four forms").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lextools.builder.conjugate import CELLS, GROUPS, PERSONS, TENSES, conjugate, models, syllables
from lextools.builder.filters import SourceWord
from lextools.builder.fise_lists import (
    INFINITIVE_ONLY_MODELS,
    Change,
    FiseFile,
    Lists,
    Verb,
    Word,
    plain,
    read_folder,
)
from lextools.core.errors import SourceError, path_text

TAG = "fise"
#: The impersonal forms: infinitive, gerund, participle and the third person singular.
IMPERSONAL = frozenset({"inf", "ger", "part", *(f"{t}3" for t in TENSES)})
#: The forms whose ending starts with -i (EMBAÍR): what a defective "desinencia empieza por -i" keeps.
I_ENDINGS = frozenset(
    {"inf", "ger", "part", "ip4", "ip5", "m5", "vp2", "vm2", *GROUPS["pret"]}
    | {f"{t}{p}" for t in ("ii", "if", "ic", "sr", "ss", "sf") for p in PERSONS}
)
_DEFECTIVE_WORDS = {
    "infinitivo": {"inf"},
    "gerundio": {"ger"},
    "participio": {"part"},
    "terceras personas": set(GROUPS["third"]),
    "tercera persona": set(GROUPS["third"]),
    "terceras personas del singular": {f"{t}3" for t in TENSES},
    "tercera persona del singular": {f"{t}3" for t in TENSES},
    "terceras personas del plural": {f"{t}6" for t in TENSES},
    "tercera persona del plural": {f"{t}6" for t in TENSES},
    "formas cuya desinencia empieza por -i": set(I_ENDINGS),
    "formas cuya desinencia empieza por i": set(I_ENDINGS),
}


def load_lists(folder: Path, updates: Iterable[Path] = ()) -> Lists:
    """The totals of ``folder`` with what its own revision adds, then each later revision in order."""
    lists = Lists()
    files = read_folder(folder, lists)
    totals = {f.kind: f for f in files if f.kind in ("verbs", "nonverbs")}
    for kind, title in (("verbs", "TOTAL DE VERBOS CLASIFICADOS"), ("nonverbs", "TOTAL DE NO VERBOS SIN PLURALES")):
        if kind not in totals:
            raise SourceError(f"{path_text(folder)}: no list whose first line names {title}")
        lists.files[kind] = totals[kind].path
    _read_totals(lists, totals["verbs"], totals["nonverbs"])
    for f in files:
        if f.kind == "verb-update":  # already in the totals: its file is recorded with the others
            lists.files[f"{f.kind}-0"] = f.path
        if f.kind == "nonverb-update":  # what the totals cannot say: plurals
            _apply_words(lists, f, in_totals=True)
            lists.files[f"{f.kind}-0"] = f.path
        elif f.kind == "short-words":  # a check of the build: the totals (all its words if no section says so)
            listed = [e for section, _, _, e in f.entries if section.startswith("total") and isinstance(e, str)]
            lists.short_words |= set(listed or [e for _, _, _, e in f.entries if isinstance(e, str)])
            lists.files["short-words"] = f.path
    for n, update in enumerate(updates, start=1):
        for f in read_folder(update, lists):
            lists.files[f"{f.kind}-{n}"] = f.path
            if f.kind == "nonverb-update":
                _apply_words(lists, f, in_totals=False)
            elif f.kind == "verb-update":
                _apply_verbs(lists, f)
            elif f.kind in ("verbs", "nonverbs"):
                lists.notes.append(f"{path_text(f.path)}: a total in a revision's folder; only its revisions apply")
    return lists


def _read_totals(lists: Lists, verbs: FiseFile, words: FiseFile) -> None:
    for _, _, _, entry in verbs.entries:
        if isinstance(entry, Verb):
            lists.verbs.setdefault(plain(entry.infinitive), []).append(entry)
    for _, _, _, entry in words.entries:
        if isinstance(entry, Word):
            _add_word(lists, entry)


def _add_word(lists: Lists, word: Word) -> None:
    known = lists.words.get(plain(word.word))
    if known is None:
        lists.words[plain(word.word)] = word
    elif word.feminine and not known.feminine:
        known.feminine = word.feminine
    if known is not None and word.plural is not None:
        known.plural = word.plural


def _apply_words(lists: Lists, f: FiseFile, *, in_totals: bool) -> None:
    """A non-verb revision. In the totals' own folder its additions and removals are already in the
    totals: only which words take a plural, and the plurals added or removed on their own, are read."""
    for section, _, _, entry in f.entries:
        if not isinstance(entry, Word):
            continue
        key = plain(entry.word)
        if section in ("add-variable", "add-invariable"):
            entry.plural = section == "add-variable"
            if in_totals and key in lists.words:
                lists.words[key].plural = entry.plural
            elif not in_totals:
                _add_word(lists, entry)
        elif section == "add-plural":
            lists.plurals_added[entry.word] = ""
            lists.plurals_removed.discard(entry.word)
        elif section == "remove-plural":
            lists.plurals_removed.add(plain(entry.word))
            lists.plurals_added.pop(entry.word, None)
        elif section == "remove" and not in_totals:
            lists.words.pop(key, None)


_CLASS_CHANGES = {"regional": "0", "obsolete": "0", "1": "1", "2": "2", "3": "3"}


def _apply_verbs(lists: Lists, f: FiseFile) -> None:
    """A later verb revision: new verbs, removed ones, and class changes (which forms are valid)."""
    for section, sub, line, entry in f.entries:
        where = f"{path_text(f.path)}: line {line}"
        if isinstance(entry, Verb):
            infinitive = entry.infinitive
            if section in ("new", "changed"):
                lists.verbs[plain(infinitive)] = [entry]
                continue
        elif isinstance(entry, Change):
            infinitive = entry.infinitive
        else:
            continue
        key = plain(infinitive.removesuffix("se") if infinitive.endswith("rse") else infinitive)
        if section == "new":
            lists.verbs[key] = [_new_verb(lists, key, infinitive, sub, where)]
        elif key not in lists.verbs:
            lists.notes.append(f"{where}: {infinitive} is in no list; left as it was")
        elif section == "removed":
            del lists.verbs[key]
        elif section == "current":
            for verb in lists.verbs[key]:
                _make_current(lists, verb, sub, where)
        elif section in _CLASS_CHANGES:
            for verb in lists.verbs[key]:
                verb.klass = _CLASS_CHANGES[section]
        else:
            lists.notes.append(f"{where}: {infinitive}: a change of forms needs the verb's full line (MM-T-P-…)")


def _new_verb(lists: Lists, key: str, infinitive: str, sub: dict[str, str], where: str) -> Verb:
    """A new verb given by its infinitive only: the model of the listed verb it ends like (RECONVERTIR
    like CONVERTIR), the class of its sub-heading."""
    bare = infinitive.removesuffix("se") if infinitive.endswith("rse") else infinitive
    model = _model_like(lists, key)
    klass = sub.get("class") or ("3" if infinitive.endswith("rse") else "1")
    lists.notes.append(f"{where}: new verb {infinitive} given without its model: conjugated as model {model}")
    return Verb(bare, model, klass, ".", "", where)


def _model_like(lists: Lists, key: str) -> str:
    for n in range(len(key) - 1, 3, -1):
        for verb in lists.verbs.get(key[-n:], []):
            if verb.model not in INFINITIVE_ONLY_MODELS:
                return str(verb.model)
    return "00"


def _make_current(lists: Lists, verb: Verb, sub: dict[str, str], where: str) -> None:
    if verb.klass == "0":
        verb.klass = sub.get("class", "1")
    if verb.model in INFINITIVE_ONLY_MODELS:
        verb.model = _model_like(lists, plain(verb.infinitive)[1:]) if len(verb.infinitive) > 5 else "00"
        lists.notes.append(f"{where}: {verb.infinitive} is current again: conjugated as model {verb.model}")


# --- verbs -----------------------------------------------------------------------------------------


def defective_cells(detail: str) -> set[str] | None:
    """The cells a defective verb's parenthesis names, or None when its wording is not understood.

    >>> sorted(defective_cells("infinitivo y terceras personas del singular"))[:3]
    ['ic3', 'if3', 'ii3']
    """
    text = plain(detail).replace("solo ", "").replace("sólo ", "")
    parts = [p.strip(" .;:") for p in re.split(r",| y | e ", text)]
    cells: set[str] = set()
    for part in parts:
        part = re.sub(r"^(?:las|los|el|la|en) ", "", part)
        if part not in _DEFECTIVE_WORDS:
            return None
        cells |= _DEFECTIVE_WORDS[part]
    return cells


#: The rules of the FISE lexicon a form of a listed verb can break (lextools.builder.filters drops
#: the forms tagged so; the build's sidecar then says which rule, and explain names the lemma).
EXCLUDED = {
    "x-infinitive-only": "fise-infinitive-only",
    "x-participle": "fise-participle",
    "x-impersonal": "fise-impersonal",
    "x-defective": "fise-defective",
}


def verb_forms(verb: Verb, notes: list[str]) -> Iterator[tuple[str, str]]:
    """(form, rule) for every form of one verb of the lists: the valid ones, and those the FISE rules
    leave out with the rule (``x-…``, :data:`EXCLUDED`), so that a player is told why."""
    yield verb.infinitive, "inf"
    if verb.klass in "345":
        yield verb.infinitive + "se", "inf-se"
    if verb.model in INFINITIVE_ONLY_MODELS or verb.klass == "0":
        model = "00" if verb.model in INFINITIVE_ONLY_MODELS else verb.model
        yield from ((f, "x-infinitive-only") for cell in conjugate(verb.infinitive, model).values() for f in cell)
        return
    cells = conjugate(verb.infinitive, verb.model)
    if verb.prop == "R":
        for cell, made in conjugate(verb.infinitive, "00").items():
            cells[cell] = list(dict.fromkeys(cells.get(cell, []) + made))
    if verb.prop == "P":
        cells["part"] = [p for p in re.split(r"[\s,]+|\by\b|\bo\b", verb.detail) if p and p.isalpha()]
    allowed, left_out = _allowed(verb, notes)
    for cell in CELLS:
        if cell == "inf":
            continue
        for form in cells.get(cell, []):
            if cell not in allowed:
                yield form, left_out
            elif cell != "part":
                yield form, "form"
            elif form.endswith("o"):
                four = verb.klass == "1"
                yield form, "part-all" if four else "part-masc"
                yield from ((form[:-1] + end, "part-all" if four else "x-participle") for end in ("a", "os", "as"))
            else:
                yield form, "part-masc"


def _allowed(verb: Verb, notes: list[str]) -> tuple[frozenset[str] | set[str], str]:
    """The cells a verb has, and the rule of the others."""
    allowed: frozenset[str] | set[str] = frozenset(CELLS)
    left_out = "x-defective"
    if verb.prop == "I" or verb.klass == "5":
        allowed, left_out = IMPERSONAL, "x-impersonal"
    if verb.prop == "D":
        named = defective_cells(verb.detail)
        if named is None:
            notes.append(f"{verb.where}: defective {verb.infinitive}, forms unread ({verb.detail}): infinitive only")
            return {"inf"}, "x-defective"
        allowed, left_out = named & allowed, "x-defective"
    return allowed, left_out


# --- other words -----------------------------------------------------------------------------------

_ACUTE_STRONG = str.maketrans("áéó", "aeo")


def plural_forms(word: str) -> list[str]:
    """The plurals of a noun or adjective by the ordinary rules (none when it is its own plural:
    LUNES, TÓRAX, CRISIS); stressed Í and Ú take both (JABALÍES, JABALÍS).

    >>> plural_forms("casa"), plural_forms("árbol"), plural_forms("lápiz"), plural_forms("lunes"), plural_forms("tabú")
    (['casas'], ['árboles'], ['lápices'], [], ['tabúes', 'tabús'])
    """
    last = word[-1]
    if last in "íú":
        return [word + "es", word + "s"]
    if last in "aeoáéóiu":
        return [word + "s"]
    if last in "sx":
        stressed_last = syllables(word) == 1 or _accent_on_last_syllable(word)
        return [_unaccent_last(word) + "es"] if stressed_last else []
    if last == "z":
        return [_unaccent_last(word[:-1]) + "ces"]
    if last in "lrndjy" or word.endswith("ch"):
        return [_unaccent_last(word) + "es"]
    return [word + "s"]


def _accent_on_last_syllable(word: str) -> bool:
    m = re.search(r"[áéíóú][^aeiouáéíóú]*$", word)
    return m is not None


def _unaccent_last(word: str) -> str:
    """CANCIÓN → CANCIONES, AUTOBÚS → AUTOBUSES: the stress falls on the same vowel, now unwritten
    (a weak vowel beside a strong one keeps it: PAÍS → PAÍSES)."""
    m = re.search(r"([aeiou]?)([áéíóú])([aeiou]?)([^aeiouáéíóú]*)$", word)
    if not m:
        return word
    hiatus = m.group(2) in "íú" and (m.group(1) or m.group(3))
    if hiatus:
        return word
    return word[: m.start(2)] + m.group(2).translate(str.maketrans("áéíóú", "aeiou")) + word[m.end(2) :]


@dataclass
class PluralEvidence:
    """What the open sources say of a word's plural (plain keys): a plural attested, a dictionary
    entry that takes one, an entry that does not, a word listed as invariable."""

    attested: set[str] = field(default_factory=set)
    takes: set[str] = field(default_factory=set)
    without: set[str] = field(default_factory=set)
    invariable: set[str] = field(default_factory=set)

    def decide(self, word: str, plurals: list[str]) -> bool | None:
        key = plain(word)
        if key in self.invariable or key.endswith("mente"):
            return False
        if key in self.takes or any(plain(p) in self.attested for p in plurals):
            return True
        if key in self.without:
            return False
        return None


def word_forms(word: Word, evidence: PluralEvidence, lists: Lists, undecided: str) -> Iterator[tuple[str, str, str]]:
    """(form, rule, lemma): the word, its feminine, and their plurals when the word takes one."""
    yield word.word, "word", word.word
    if word.feminine:
        yield word.feminine, "fem", word.word
    plurals = plural_forms(word.word)
    if not plurals:
        return
    takes = word.plural if word.plural is not None else evidence.decide(word.word, plurals)
    if takes is None:
        lists.notes.append(f"undecided plural: {word.word} ({'taken' if undecided == 'plural' else 'not taken'})")
        takes = undecided == "plural"
    if not takes:
        return
    for base in [b for b in (word.word, word.feminine) if b]:
        for p in plural_forms(base):
            if plain(p) not in lists.plurals_removed:
                yield p, "plural", base


def generate(lists: Lists, evidence: PluralEvidence, source: str, undecided: str = "plural") -> Iterator[SourceWord]:
    """Every form of the lists as source words: the lemma as ``stem``, the rule and classes as a tag."""
    for verbs in lists.verbs.values():
        for verb in verbs:
            model = f"{verb.conjugation}{verb.model}/{model_verb(verb.conjugation + verb.model)}"
            for form, rule in verb_forms(verb, lists.notes):
                yield SourceWord(form, source, verb.infinitive, tags=_tag(rule, model, verb.klass, verb.prop))
    for word in lists.words.values():
        for form, rule, lemma in word_forms(word, evidence, lists, undecided):
            yield SourceWord(form, source, lemma, tags=_tag(rule, "", "", ""))
    for form in lists.plurals_added:
        yield SourceWord(form, source, form, tags=_tag("plural-only", "", "", ""))


_TAGS: dict[tuple[str, str, str, str], frozenset[str]] = {}


def _tag(rule: str, model: str, klass: str, prop: str) -> frozenset[str]:
    """One shared frozenset per distinct tag: the build asks its rules once per set of tags."""
    key = (rule, model, klass, prop)
    tags = _TAGS.get(key)
    if tags is None:
        dropped = {EXCLUDED[rule]} if rule in EXCLUDED else set()  # the filter rule of the same name drops it
        tags = _TAGS[key] = frozenset({"lowercase-source", f"{TAG}:{rule}:{model}:{klass}:{prop}", *dropped})
    return tags


def parse_tag(tags: Iterable[str]) -> tuple[str, str, str, str] | None:
    """(rule, model, class, property) of a form's ``fise:`` tag, if it has one."""
    for tag in tags:
        if tag.startswith(TAG + ":"):
            rule, model, klass, prop = tag.split(":", 4)[1:5]
            return rule, model, klass, prop
    return None


def model_verb(model: str) -> str:
    """ar01 → contar: the verb a model is named after."""
    found = models().get((model[:2], model[2:]))
    return found.verb if found else ""
