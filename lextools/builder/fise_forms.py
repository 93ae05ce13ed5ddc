"""Every valid form of FISE's lemma lists, under the FISE lexicon rules (the ``fise-lists`` source).

:mod:`lextools.builder.fise_lists` reads the files; here the totals are combined with the revision
of their folder and the later revisions (:func:`load_lists`), and each lemma gives its forms
(:func:`generate`) by the rules of ``build/fise-rules.toml`` (:mod:`lextools.builder.fise_rules`, the
"Reglamento de léxico FISE 2016" as data):

- a verb, every simple form of its model (:mod:`lextools.builder.conjugate`), the regular ones too
  for ``R``, the participles given for ``P``; what its class code gives (§17.4, §17.5, §17.10: the
  participle in four forms for class 1, the SE infinitive for class 3 and for the ``-rse`` lines of
  class 0, no vosotros imperative for classes 3–5, no imperative for class 5); models ``88``/``99``
  and class 0 the infinitive only (§17.2); ``I`` the impersonal forms (§17.8); ``D`` only the forms
  its parenthesis names (§17.6; wording it cannot read is reported, and the verb keeps its
  infinitive only); the verbs §17.12 settles one by one; a revision's notes (forms added or removed,
  models changed);
- another word, itself, its feminine, and their plurals, decided in order (:func:`decide_plural`):
  the regulation's named exceptions and the revision's own say, then the rule of its ending (§18.4),
  then its class in the open sources (:class:`PluralEvidence`), and only then "undecided" (the
  recipe's ``undecided_plurals``). The build counts the words of each reason.

Each form carries its lemma and where the lists give it (``stem`` = ``lemma@list:line``, the list by
its kind, ``verbs:18``; a form left out adds its rule's section, ``amar@verbs:18@17.10``) and a tag
``fise:RULE:MODEL:CLASS:PROPERTY:REASON:SECTION`` that the build keeps for
:mod:`lextools.features.explain` ("AMADAS: participle of AMAR, transitive — all four forms …, §17.4").
Forms the rules leave out are made too, tagged ``x-…`` (:data:`EXCLUDED`), so a player is told why.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lextools.builder.conjugate import CELLS, conjugate, model_cells, models, nuclei
from lextools.builder.filters import SourceWord
from lextools.builder.fise_lists import Change, FiseFile, Lists, Verb, Word, plain, read_folder
from lextools.builder.fise_rules import Rules, VerbClass, defective_key, rules
from lextools.core.errors import SourceError, path_text
from lextools.core.sidecar import STEM_AT

TAG = "fise"


def load_lists(folder: Path, updates: Iterable[Path] = ()) -> Lists:
    """The totals of ``folder`` with what its own revision adds, then each later revision in order."""
    lists = Lists()
    files = read_folder(folder, lists)
    totals = {f.kind: f for f in files if f.kind in ("verbs", "nonverbs")}
    for kind, title in (("verbs", "TOTAL DE VERBOS CLASIFICADOS"), ("nonverbs", "TOTAL DE NO VERBOS SIN PLURALES")):
        if kind not in totals:
            raise SourceError(f"{path_text(folder)}: no list whose first line names {title}")
        _register(lists, kind, totals[kind])
    _read_totals(lists, totals["verbs"], totals["nonverbs"])
    for f in files:
        if f.kind == "nonverb-update":  # what the totals cannot say: plurals
            _register(lists, f"{f.kind}-0", f)
            apply_word_revision(lists, f, in_totals=True)
        elif f.kind == "verb-update":  # its notes are the only place some changes of forms are written
            _register(lists, f"{f.kind}-0", f)
            apply_verb_revision(lists, f, in_totals=True)
        elif f.kind == "short-words":  # a check of the build: the totals (all its words if no section says so)
            listed = [e for section, _, _, e in f.entries if section.startswith("total") and isinstance(e, str)]
            lists.short_words |= set(listed or [e for _, _, _, e in f.entries if isinstance(e, str)])
            lists.files["short-words"] = f.path
    for n, update in enumerate(updates, start=1):
        for f in read_folder(update, lists):
            _register(lists, f"{f.kind}-{n}", f)
            if f.kind == "nonverb-update":
                apply_word_revision(lists, f, in_totals=False)
            elif f.kind == "verb-update":
                apply_verb_revision(lists, f, in_totals=False)
            elif f.kind in ("verbs", "nonverbs"):
                lists.notes.append(f"{path_text(f.path)}: a total in a revision's folder; only its revisions apply")
    return lists


def _register(lists: Lists, key: str, f: FiseFile) -> None:
    """A list under its key in :attr:`Lists.files`, each of its entries marked with it: a lemma cites its
    own list by key, not by a file name another folder's list may share (each revision is published
    under the same names)."""
    lists.files[key] = f.path
    for _, _, _, entry in f.entries:
        if not isinstance(entry, str):
            entry.listed_in = key


def _read_totals(lists: Lists, verbs: FiseFile, words: FiseFile) -> None:
    for _, _, _, entry in verbs.entries:
        if isinstance(entry, Verb):
            lists.verbs.setdefault(plain(entry.infinitive), []).append(entry)
    for _, _, _, entry in words.entries:
        if isinstance(entry, Word):
            _add_word(lists, entry)


def word_key(word: Word) -> str:
    """The key of a word in :attr:`Lists.words`: its spelling and superscript, so that homographs that
    fold to one spelling (differing in accents, or by superscript) keep their own feminine and plural."""
    return f"{word.word} {word.superscript}" if word.superscript else word.word


def _add_word(lists: Lists, word: Word) -> None:
    key = word_key(word)
    known = lists.words.get(key)
    if known is None:
        lists.words[key] = word
        return
    if word.feminine and not known.feminine:
        known.feminine = word.feminine
    if word.plural is not None:
        known.plural = word.plural
    if word.plurals:
        known.plurals = word.plurals


def apply_word_revision(lists: Lists, f: FiseFile, *, in_totals: bool) -> None:
    """A non-verb revision. In the totals' own folder its additions and removals are already in the
    totals: only which words take a plural (and the plural a note writes), and the plurals added or
    removed on their own, are read."""
    by_spelling: dict[str, list[str]] = {}
    for key, w in lists.words.items():
        by_spelling.setdefault(plain(w.word), []).append(key)
    for section, _, _, entry in f.entries:
        if not isinstance(entry, Word):
            continue
        keys = [k for k in by_spelling.get(plain(entry.word), []) if k in lists.words]
        if entry.superscript:  # one homograph of several (bote 4)
            keys = [k for k in keys if lists.words[k].superscript in ("", entry.superscript)]
        if section in ("add-variable", "add-invariable"):
            entry.plural = section == "add-variable"
            listed = [lists.words[k] for k in keys if lists.words[k].word == entry.word]
            listed = listed or [lists.words[k] for k in keys]
            if in_totals and listed:
                for known in listed:
                    known.plural, known.plurals = entry.plural, entry.plurals or known.plurals
            elif not in_totals:
                _add_word(lists, entry)
        elif section == "add-plural":
            lists.plurals_added[entry.word] = ""
            lists.plurals_removed.discard(plain(entry.word))
        elif section == "remove-plural":
            lists.plurals_removed.add(plain(entry.word))
            lists.plurals_added.pop(entry.word, None)
        elif section == "remove" and not in_totals:
            for key in keys:
                del lists.words[key]


_CLASS_CHANGES = {"regional": "0", "obsolete": "0", "1": "1", "2": "2", "3": "3"}
#: The actions of a revision note that the totals of the same folder do not already show: forms.
_FORM_ACTIONS = (
    "add", "remove", "regular-participle", "also-model", "also-regular", "also-model-indicative", "future-stem",
    "alt-vowel", "model-except",
)  # fmt: skip


def apply_verb_revision(lists: Lists, f: FiseFile, *, in_totals: bool) -> None:
    """A verb revision: in the totals' own folder only the notes that change forms (the totals already
    have its verbs, classes and models); a later one, new verbs, removed ones, class changes and notes."""
    for section, sub, line, entry in f.entries:
        where = f"{path_text(f.path)}: line {line}"
        if isinstance(entry, Change):  # the section first (a new verb), then its note (its model)
            if not in_totals and not (section == "changed" and entry.note):
                given = (rules().note_action(entry.note) or ("", {}))[1].get("model")  # conjugado como "X"
                _apply_section(lists, section, sub, entry, where, model_given=bool(given))
            _apply_change(lists, entry, where, in_totals=in_totals)
            continue
        if in_totals:
            continue
        if isinstance(entry, Verb):
            if section in ("new", "changed"):
                lists.verbs[plain(entry.infinitive)] = [entry]
                continue
            entry = Change(entry.infinitive, where=entry.where, listed_in=entry.listed_in)
        elif not isinstance(entry, Change):
            entry = Change(str(entry))
        _apply_section(lists, section, sub, entry, where)


def _apply_section(
    lists: Lists, section: str, sub: dict[str, str], entry: Change, where: str, *, model_given: bool = False
) -> None:
    infinitive = entry.infinitive
    key = plain(infinitive.removesuffix("se") if infinitive.endswith("rse") else infinitive)
    if section == "new":
        verb = _new_verb(lists, key, infinitive, sub, where, model_given=model_given)
        verb.listed_in = entry.listed_in
        lists.verbs[key] = [verb]
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


def _apply_change(lists: Lists, change: Change, where: str, *, in_totals: bool) -> None:
    """A revision entry's note (section 12 mostly: forms added or removed, models changed). A note
    not understood is reported, and the verb keeps what it had."""
    if not change.note:
        return
    bare = change.infinitive.removesuffix("se") if change.infinitive.endswith("rse") else change.infinitive
    same = ("", change.superscript)
    verbs = [v for v in lists.verbs.get(plain(bare), []) if not change.superscript or v.superscript in same]
    found = rules().note_action(change.note)
    if found is None:
        lists.notes.append(f"{where}: note not understood, {change.infinitive} left as it was: ({change.note})")
        return
    action, named = found
    if not verbs or action == "info":
        if not in_totals and action != "info":
            lists.notes.append(f"{where}: {change.infinitive} is in no list; its note is not applied")
        return
    if in_totals and action not in _FORM_ACTIONS:
        return  # the totals already show it
    for verb in verbs:
        _change_verb(lists, verb, action, named, change.note)
        if action == "model-except" and not in_totals:  # the model changes, its forms are the note's
            verb.model = _model_named(lists, verb, named["model"])


def _change_verb(lists: Lists, verb: Verb, action: str, named: dict[str, str], note: str) -> None:
    if action in _FORM_ACTIONS:  # applied as the forms are made (verb_forms)
        verb.note = f"{verb.note}\n{note}" if verb.note else note
    elif action in ("model", "transitive") and named.get("model"):
        verb.model = _model_named(lists, verb, named["model"])
        verb.klass = "1" if action == "transitive" else verb.klass
    elif action == "transitive":
        verb.klass = "1"
    elif action == "regular":
        verb.model, verb.prop = "00", "." if verb.prop == "R" else verb.prop
    elif action == "all-forms":
        verb.prop, verb.detail = ("." if verb.prop == "D" else verb.prop), ("" if verb.prop == "D" else verb.detail)
    elif action in ("i-endings", "defective", "impersonal"):
        verb.prop = "I" if action == "impersonal" else "D"
        verb.detail = {"i-endings": "solo las formas cuya desinencia empieza por -i"}.get(action, named.get("text", ""))
    elif action == "infinitive-only":
        verb.klass = "0"
    elif action == "without-se":
        verb.klass = "4" if verb.klass == "3" else verb.klass


def _model_named(lists: Lists, verb: Verb, name: str) -> str:
    """The model of a verb a note names (``conjugado como "X"``): a model verb's, else a listed verb's."""
    listed = lists.verbs.get(plain(name), [])
    return _model_code(verb, name) or (listed[0].model if listed else verb.model)


def _new_verb(
    lists: Lists, key: str, infinitive: str, sub: dict[str, str], where: str, *, model_given: bool = False
) -> Verb:
    """A new verb given by its infinitive only: the model of the listed verb it ends like (RECONVERTIR
    like CONVERTIR), unless its note names one, the class of its sub-heading."""
    bare = infinitive.removesuffix("se") if infinitive.endswith("rse") else infinitive
    model = _model_like(lists, key)
    klass = sub.get("class") or ("3" if infinitive.endswith("rse") else "1")
    if not model_given:
        lists.notes.append(f"{where}: new verb {infinitive} given without its model: conjugated as model {model}")
    return Verb(bare, model, klass, ".", "", where, written_se=infinitive.endswith("rse"))


def _model_like(lists: Lists, key: str) -> str:
    only = rules().infinitive_only_models
    for n in range(len(key) - 1, 3, -1):
        for verb in lists.verbs.get(key[-n:], []):
            if verb.model not in only:
                return str(verb.model)
    return "00"


def _make_current(lists: Lists, verb: Verb, sub: dict[str, str], where: str) -> None:
    if verb.klass == "0":
        verb.klass = sub.get("class", "1")
    if verb.model in rules().infinitive_only_models:
        verb.model = _model_like(lists, plain(verb.infinitive)[1:]) if len(verb.infinitive) > 5 else "00"
        lists.notes.append(f"{where}: {verb.infinitive} is current again: conjugated as model {verb.model}")


# --- verbs -----------------------------------------------------------------------------------------


def defective_cells(detail: str) -> set[str] | None:
    """The cells a defective verb's text names (one of the lists' texts, :mod:`lextools.builder.fise_rules`),
    or None when it is not one of them.

    >>> sorted(defective_cells("infinitivo y terceras personas"))[:3]
    ['ic3', 'ic6', 'if3']
    """
    known = rules().defective.get(defective_key(detail))
    return set(known.cells) if known else None


#: The rules of the FISE lexicon a form of a listed verb can break (lextools.builder.filters drops
#: the forms tagged so; the build's sidecar then says which rule, and explain names the lemma). The
#: imperatives and SE infinitives left out carry fise-defective too: a recipe written before their
#: own rules existed still drops them.
EXCLUDED: dict[str, tuple[str, ...]] = {
    "x-infinitive-only": ("fise-infinitive-only",),
    "x-participle": ("fise-participle",),
    "x-impersonal": ("fise-impersonal",),
    "x-defective": ("fise-defective",),
    "x-removed": ("fise-defective",),
    "x-not-counted": ("fise-defective",),  # a form §17.12 names as not counting (ABSTÉN, LLOVIZNAD)
    "x-imperative": ("fise-imperative", "fise-defective"),
    "x-se-infinitive": ("fise-se-infinitive", "fise-defective"),
    "x-no-plural": ("fise-no-plural", "fise-defective"),  # a plural of a word that takes none (§18)
}


@dataclass
class _Plan:
    """Which cells of a verb count, and the rule and section of those that do not."""

    allowed: frozenset[str]
    left_out: str = "x-defective"
    section: str = "17.6"
    no_cells: frozenset[str] = frozenset()
    no_section: str = ""
    drop_z: bool = False
    listed_forms: frozenset[str] = frozenset()  # a defective text that lists the forms themselves
    se_listed: bool = False


def verb_forms(verb: Verb, notes: list[str]) -> Iterator[tuple[str, str, str]]:
    """(form, rule, section) for every form of one verb of the lists: the valid ones, and those the
    FISE rules leave out with the rule (``x-…``, :data:`EXCLUDED`), so that a player is told why."""
    r = rules()
    klass = r.classes[verb.klass]
    only = _infinitive_only(r, verb)
    yield verb.infinitive, "inf", only or "17.2"
    cells = _cells(r, verb, notes)
    if cells is None:
        return
    plan = _plan(r, verb, cells, notes)
    yield from _se_infinitive(verb, klass, plan)
    if only:
        yield from ((f, "x-infinitive-only", only) for c, made in cells.items() if c != "inf" for f in made)
        return
    removed, added = _note_forms(r, verb)
    for cell in CELLS:
        for form in cells.get(cell, []) if cell != "inf" else cells.get("inf", [])[1:]:  # PODRIR of PUDRIR
            if form in removed:
                yield form, "x-removed", ""
            else:
                yield from _cell_form(r, verb, klass, plan, cell, form)
    section = r.settled_section if verb.infinitive in r.settled_added else ""
    yield from ((form, "form", section) for form in added)


def _infinitive_only(r: Rules, verb: Verb) -> str:
    """The section by which a verb counts in the infinitive only, or "" when it is conjugated."""
    if verb.model in r.infinitive_only_models:
        return r.infinitive_only_section
    if r.classes[verb.klass].infinitive_only:
        return r.classes[verb.klass].section
    return r.settled_section if verb.infinitive in r.settled_infinitive_only else ""


def _cells(r: Rules, verb: Verb, notes: list[str]) -> dict[str, list[str]] | None:
    """The verb's forms by cell: its model's (the model a settled verb takes), the regular ones too
    for R, the participles of P, what its revision notes change; None (reported) when its model
    cannot conjugate it."""
    model = r.settled_model.get(verb.infinitive, verb.model)
    model = "00" if model in r.infinitive_only_models else model
    try:
        cells = conjugate(verb.infinitive, model, whole=True)  # a defective model's other cells: said why
        if verb.prop == "R":
            _merge(cells, conjugate(verb.infinitive, "00"), CELLS)
        if verb.prop == "P":
            cells["part"] = [p for p in re.split(r"[\s,]+|\by\b|\bo\b", verb.detail) if p and p.isalpha()]
        for note in verb.note.splitlines():
            _note_cells(r, verb, cells, note)
    except SourceError as e:
        notes.append(f"{verb.where}: {verb.infinitive} not conjugated, infinitive only: {e}")
        return None
    return cells


def _merge(cells: dict[str, list[str]], more: dict[str, list[str]], which: Iterable[str]) -> None:
    for cell in which:
        if cell in more:
            cells[cell] = list(dict.fromkeys(cells.get(cell, []) + more[cell]))


#: The cells of a note ``… también en más formas de indicativo e imperativo …``, and of the note on
#: another stem vowel (``en infinitivo, indicativo salvo presente, y segundas personas del imperativo``).
_INDICATIVE_IMPERATIVE = tuple(c for c in CELLS if c[:2] in ("ip", "ii", "is", "if", "ic") or c in ("m2", "m5"))
_VOWEL_CELLS = tuple(c for c in CELLS if c[:2] in ("ii", "is", "if", "ic") or c in ("inf", "m2", "m5"))


def _note_cells(r: Rules, verb: Verb, cells: dict[str, list[str]], note: str) -> None:
    """What one revision note does to the verb's cells: another model's forms besides, the regular
    participle, the future with another stem, another stem vowel."""
    action, named = r.note_action(note) or ("", {})
    if action in ("also-model", "also-regular", "also-model-indicative"):
        code = "00" if action == "also-regular" else _model_code(verb, named.get("model", ""))
        which = _INDICATIVE_IMPERATIVE if action == "also-model-indicative" else CELLS
        if code:
            _merge(cells, conjugate(verb.infinitive, code), which)
    elif action == "regular-participle":
        cells["part"] = conjugate(verb.infinitive, "00")["part"]
    elif action == "future-stem":
        for cell in [c for c in cells if c[:2] in ("if", "ic")]:
            cells[cell] += [f.replace(named["old"], named["new"], 1) for f in cells[cell] if named["old"] in f]
    elif action == "alt-vowel":
        stem = len(verb.infinitive) - 2
        for cell in [c for c in _VOWEL_CELLS if c in cells]:
            cells[cell] += [_other_vowel(f, stem, named["old"], named["new"]) for f in cells[cell]]
            cells[cell] = list(dict.fromkeys(cells[cell]))


def _other_vowel(form: str, stem: int, old: str, new: str) -> str:
    """PUDRÍA → PODRÍA: the last ``old`` of the stem written ``new``."""
    i = form.rfind(old, 0, stem)
    return form if i < 0 else form[:i] + new + form[i + len(old) :]


def _model_code(verb: Verb, name: str) -> str:
    """The model named after a verb (``contar`` → 01), in the verb's conjugation, or ""."""
    for (conj, code), model in models().items():
        if conj == verb.conjugation and model.verb == name:
            return code
    return ""


def _note_forms(r: Rules, verb: Verb) -> tuple[set[str], list[str]]:
    """The forms a revision's notes remove and add, with those §17.12 adds (HABEMOS)."""
    removed: set[str] = set()
    added = list(r.settled_added.get(verb.infinitive, ()))
    for note in verb.note.splitlines():
        found = r.note_action(note)
        if found and found[0] in ("add", "remove", "model-except"):
            made = [f for f in re.split(r",\s*|\s+y\s+", found[1].get("forms", "")) if f.isalpha()]
            (added.extend if found[0] == "add" else removed.update)(made)
    return removed, added


def _plan(r: Rules, verb: Verb, cells: dict[str, list[str]], notes: list[str]) -> _Plan:
    klass = r.classes[verb.klass]
    plan = _Plan(frozenset(CELLS), no_cells=klass.no_cells, no_section=klass.no_cells_section)
    if verb.prop == "I":
        plan = _Plan(r.impersonal, "x-impersonal", r.impersonal_section)  # no imperative: not in its cells
    if verb.prop == "D":
        _defective_plan(r, verb, cells, plan, notes)
    if verb.infinitive in r.settled_cells:
        plan.allowed, plan.left_out, plan.section = r.settled_cells[verb.infinitive], "x-defective", r.settled_section
    model = r.settled_model.get(verb.infinitive, verb.model)
    own = model_cells(verb.conjugation, model)  # a defective model (EMBAÍR, EMPECER): its cells only
    if not plan.allowed <= own:
        plan.allowed = plan.allowed & own
        if verb.prop not in "DI":
            plan.left_out, plan.section = "x-defective", "17.6"
    return plan


def _defective_plan(r: Rules, verb: Verb, cells: dict[str, list[str]], plan: _Plan, notes: list[str]) -> None:
    """A D line's text (§17.6): one of the lists' texts, or the valid forms themselves (the
    infinitive alone, with the gerund, with the participle's four forms, with SE)."""
    plan.left_out, plan.section = "x-defective", "17.6"
    known = r.defective.get(defective_key(verb.detail))
    if known is not None:
        plan.allowed, plan.drop_z = known.cells & plan.allowed, known.drop == "z-stem"
        return
    words = [w for w in re.split(r"[\s,]+|\by\b", verb.detail.lower()) if w]
    by_form = {f: c for c, made in cells.items() for f in made}
    part = cells.get("part", [""])[0]
    four = {part[:-1] + end for end in ("a", "os", "as")} if part.endswith("o") else set()
    se = verb.infinitive + "se"
    if words and all(w in by_form or w in four or w == se for w in words):
        plan.allowed = frozenset(by_form[w] for w in words if w in by_form)
        plan.listed_forms, plan.se_listed = frozenset(w for w in words if w in four), se in words
        return
    notes.append(f"{verb.where}: defective {verb.infinitive}, forms unread ({verb.detail}): infinitive only")
    plan.allowed = frozenset({"inf"})


def _se_infinitive(verb: Verb, klass: VerbClass, plan: _Plan) -> Iterator[tuple[str, str, str]]:
    """The infinitive with SE: both infinitives for class 3 and the ``-rse`` lines of class 0 (§17.5,
    §17.7, §17.11), for a defective text that lists it; left out (and said so) for classes 4 and 5."""
    section = klass.se_section
    se = klass.se_infinitive
    if se == "always" or (se == "written" and verb.written_se) or plan.se_listed:
        yield verb.infinitive + "se", "inf-se", plan.section if plan.se_listed else section
    elif verb.klass in "45" or verb.written_se:
        yield verb.infinitive + "se", "x-se-infinitive", section


def _cell_form(
    r: Rules, verb: Verb, klass: VerbClass, plan: _Plan, cell: str, form: str
) -> Iterator[tuple[str, str, str]]:
    if cell not in plan.allowed or (plan.drop_z and "z" in form and "z" not in verb.infinitive):
        yield form, plan.left_out, plan.section
    elif cell in plan.no_cells:
        yield form, "x-imperative", plan.no_section
    elif form in r.not_counted:
        yield form, "x-not-counted", r.settled_section
    elif cell != "part":
        yield form, "inf" if cell == "inf" else "form", "17.2"
    elif form.endswith("o"):
        four = klass.four_participles
        yield form, "part-all" if four else "part-masc", "17.4"
        for end in ("a", "os", "as"):
            other = form[:-1] + end
            yield other, "part-all" if four or other in plan.listed_forms else "x-participle", "17.4"
    else:
        yield form, "part-masc", "17.4"


# --- other words -----------------------------------------------------------------------------------

_VOWELS = set("aeiouáéíóúü")
_UNACCENT = str.maketrans("áéíóú", "aeiou")
_ACCENT = str.maketrans("aeiou", "áéíóú")


def ending_of(word: str) -> str:
    """The key of a word's ending in the rules' table (§18.4): its last letter, ``ch``, the -y after a
    vowel or a consonant, a vowel by its stress."""
    last = word[-1]
    if word.endswith("ch"):
        return "ch"
    if last == "y":
        return "y after a vowel" if len(word) > 1 and word[-2] in _VOWELS else "y after a consonant"
    if last in "aeiou":
        return "unstressed vowel"
    if last in "áéó":
        return "stressed á é ó"
    if last in "íú":
        return "stressed í ú"
    return last


def plural_forms(word: str) -> list[str]:
    """The plurals of a noun or adjective by the rule of its ending (§18.4; none when it is its own
    plural: LUNES, TÓRAX, CRISIS); stressed Í and Ú take both (JABALÍES, JABALÍS).

    >>> plural_forms("casa"), plural_forms("árbol"), plural_forms("lápiz"), plural_forms("lunes"), plural_forms("tabú")
    (['casas'], ['árboles'], ['lápices'], [], ['tabúes', 'tabús'])
    >>> plural_forms("examen"), plural_forms("canción"), plural_forms("sándwich"), plural_forms("rey")
    (['exámenes'], ['canciones'], [], ['reyes'])
    """
    return _by_rule(word, rules().endings.get(ending_of(word), "+s"))


def _by_rule(word: str, rule: str) -> list[str]:
    if rule == "+s":
        return [word + "s"]
    if rule == "+es":
        return [_plus_es(word)]
    if rule in ("+s +es", "+es +s"):
        return [word + "es", word + "s"] if rule == "+es +s" else [word + "s", _plus_es(word)]
    if rule == "oxytone +es":
        return [_plus_es(word)] if _stressed(word) == 0 else []
    if rule == "n":
        return _n_plural(word)
    if rule == "z":
        return [_unaccent_last(word[:-1]) + "ces"]
    return []


def _plus_es(word: str) -> str:
    """+ES: CANCIÓN → CANCIONES, ALBALÁ → ALBALAES, SÍ → SÍES (a stressed weak vowel keeps its accent)."""
    if word[-1] in "íú":
        return word + "es"
    if word[-1] in "áéó":
        return word[:-1] + word[-1].translate(_UNACCENT) + "es"
    return _unaccent_last(word) + "es"


def _stressed(word: str) -> int:
    """The stressed syllable counted from the end (0 the last): by the written accent, else by the rule
    (a word ending in a vowel, N or S is stressed on the one before the last)."""
    groups = nuclei(word)
    for n, (start, end) in enumerate(reversed(groups)):
        if any(ch in "áéíóú" for ch in word[start:end]):
            return n
    if len(groups) < 2:
        return 0
    return 1 if word[-1] in "aeiouns" else 0


def _n_plural(word: str) -> list[str]:
    """-N: +ES with the stress where it was (EXAMEN → EXÁMENES, CANCIÓN → CANCIONES); a proparoxytone none."""
    stress = _stressed(word)
    if stress >= 2:
        return []
    if stress == 0:
        return [_unaccent_last(word) + "es"]
    if any(ch in "áéíóú" for ch in word):
        return [word + "es"]
    start, end = nuclei(word)[-2]
    group = word[start:end]
    strong = [i for i, ch in enumerate(group) if ch in "aeo"]
    i = start + (strong[-1] if strong else len(group) - 1)
    return [word[:i] + word[i].translate(_ACCENT) + word[i + 1 :] + "es"]


def _unaccent_last(word: str) -> str:
    """CANCIÓN → CANCIONES, AUTOBÚS → AUTOBUSES: the stress falls on the same vowel, now unwritten
    (a weak vowel beside a strong one keeps it: PAÍS → PAÍSES)."""
    m = re.search(r"([aeiou]?)([áéíóú])([aeiou]?)([^aeiouáéíóú]*)$", word)
    if not m:
        return word
    hiatus = m.group(2) in "íú" and (m.group(1) or m.group(3))
    if hiatus:
        return word
    return word[: m.start(2)] + m.group(2).translate(_UNACCENT) + word[m.end(2) :]


@dataclass
class PluralEvidence:
    """What the open sources say of a word's class (plain keys): a plural attested, a dictionary entry
    with a plural flag, a word listed as invariable; ``without`` (an entry without a plural flag) is
    kept but is weak evidence — a dictionary leaves the flag off for many words that take a plural —
    and decides nothing."""

    attested: set[str] = field(default_factory=set)
    takes: set[str] = field(default_factory=set)
    without: set[str] = field(default_factory=set)
    invariable: set[str] = field(default_factory=set)
    #: the words and feminines of the lists: an adverb in -mente is one of them + MENTE (RÁPIDAMENTE)
    adjectives: set[str] = field(default_factory=set)

    def decide(self, word: str, plurals: list[str]) -> bool | None:
        return self.why(word, plurals)[0]

    def why(self, word: str, plurals: list[str]) -> tuple[bool | None, str]:
        """Whether the word takes a plural on this evidence, and the reason (``class-…``), or (None, "")."""
        key = plain(word)
        if key in self.invariable:
            return False, "class-invariable"
        stem = key.removesuffix("mente")
        if stem != key and len(stem) >= 4 and (stem in self.adjectives or not self.adjectives):
            return False, "class-adverb"
        if key in self.takes:
            return True, "class-flag"
        if any(plain(p) in self.attested for p in plurals):
            return True, "class-attested"
        return None, ""


#: The reasons a word's plural is decided by, in the order they are asked (counted by the build).
PLURAL_REASONS = (
    "revision", "named", "ending", "class-invariable", "class-adverb", "class-flag", "class-attested", "undecided",
)  # fmt: skip


@dataclass(frozen=True)
class Plural:
    """A word's plurals and why: ``reason`` (:data:`PLURAL_REASONS`), ``how`` its shape (``-z``,
    ``named``…), ``section`` the regulation's."""

    forms: tuple[str, ...]
    reason: str
    how: str
    section: str


def decide_plural(word: Word, evidence: PluralEvidence, undecided: str = "plural") -> Plural:
    """The plurals of a word of the lists, decided in order: the revision's own say (a note's plural,
    the section it was added in) and the regulation's named exceptions, the rule of its ending, its
    class in the open sources, and only then ``undecided`` (``plural`` or ``singular``)."""
    r = rules()
    if word.plurals:
        return Plural(tuple(word.plurals), "revision", "note", "18.4")
    named = r.named.get(word.word)
    if named is not None and named[0] != "by-rule":
        section = r.endings_section if named[0].startswith("y-") else r.named_section
        return Plural(tuple(_named_plurals(word.word, *named)), "named", named[0], section)
    ending = ending_of(word.word)
    how = "-" + (ending if len(ending) <= 2 else word.word[-1])
    shape = tuple(plural_forms(word.word))
    if word.plural is not None:
        return Plural(shape if word.plural else (), "revision", how, r.endings_section)
    if named is not None:
        return Plural(shape, "named", how, r.named_section)
    if not shape:
        return Plural((), "ending", how, r.endings_section)
    takes, reason = evidence.why(word.word, list(shape))
    if takes is None:
        takes, reason = undecided == "plural", "undecided"
    return Plural(shape if takes else (), reason, how, r.endings_section)


def _named_plurals(word: str, kind: str, given: tuple[str, ...]) -> list[str]:
    if kind in ("special", "y-is"):
        return list(given)
    if kind == "y-both":
        return [*given, word + "es"]
    if kind == "y-es":
        return [word + "es"]
    return _by_rule(word, {"invariable": "none", "+s": "+s", "+es": "+es", "both": "+s +es"}[kind])


def word_forms(
    word: Word, evidence: PluralEvidence, lists: Lists, undecided: str, counts: Counter[str] | None = None
) -> Iterator[tuple[str, str, str, str, str]]:
    """(form, rule, lemma, reason, section): the word, its feminine, and their plurals when it takes one."""
    yield word.word, "word", word.word, "", ""
    if word.feminine:
        yield word.feminine, "fem", word.word, "", ""
    plural = decide_plural(word, evidence, undecided)
    if counts is not None:
        counts[plural.reason] += 1
    if plural.reason == "undecided":
        lists.notes.append(f"undecided plural: {word.word} ({'taken' if undecided == 'plural' else 'not taken'})")
    why = f"{plural.reason}/{plural.how}"
    if not plural.forms:  # the plurals its ending would give, left out and said why (TESTS, RÁPIDAMENTES)
        refused = [] if plural.reason == "ending" else plural_forms(word.word)
        yield from ((p, "x-no-plural", word.word, why, plural.section) for p in refused)
        return
    for p in plural.forms:
        if plain(p) not in lists.plurals_removed:
            yield p, "plural", word.word, why, plural.section
    feminine = word.feminine or ""
    for p in plural_forms(feminine) if feminine else ():
        if plain(p) not in lists.plurals_removed:
            yield p, "plural", feminine, why, plural.section


def generate(
    lists: Lists, evidence: PluralEvidence, source: str, undecided: str = "plural", counts: Counter[str] | None = None
) -> Iterator[SourceWord]:
    """Every form of the lists as source words: the lemma and where the lists give it as ``stem``
    (``amar@verbs:18``), the rule, classes, reason and section as a tag; ``counts`` counts the words
    of each plural reason."""
    kinds = {path_text(p.name): kind for kind, p in lists.files.items()}  # an entry not marked: by its name
    if not evidence.adjectives:
        evidence.adjectives = {plain(f) for w in lists.words.values() for f in (w.word, w.feminine) if f}
    settled = rules().settled_model
    for verbs in lists.verbs.values():
        for verb in verbs:
            code = verb.conjugation + settled.get(verb.infinitive, verb.model)  # BALBUCIR like LUCIR
            model = f"{code}/{model_verb(code)}"
            stem = f"{verb.infinitive}{STEM_AT}{_short_where(kinds, verb.where, verb.listed_in)}"
            stems = {"": stem}  # a form left out also names the section of its rule (explain reads it)
            for form, rule, section in verb_forms(verb, lists.notes):
                at = stems.setdefault(section, f"{stem}{STEM_AT}{section}") if rule in EXCLUDED else stem
                yield SourceWord(form, source, at, tags=_tag(rule, model, verb.klass, verb.prop, "", section))
    for word in lists.words.values():
        at = _short_where(kinds, word.where, word.listed_in)
        for form, rule, lemma, reason, section in word_forms(word, evidence, lists, undecided, counts):
            stem = f"{lemma}{STEM_AT}{at}"
            if rule in EXCLUDED:  # a plural left out: its section and reason, for explain
                stem = f"{stem}{STEM_AT}{section}{STEM_AT}{reason}"
            yield SourceWord(form, source, stem, tags=_tag(rule, "", "", "", reason, section))
    for form in lists.plurals_added:
        yield SourceWord(form, source, form, tags=_tag("plural-only", "", "", "", "revision", ""))


def _short_where(kinds: dict[str, str], where: str, listed_in: str = "") -> str:
    """``verbs:18`` for "TOTAL DE VERBOS.txt: line 18" (an entry's ``where``): its list by its key in
    :attr:`Lists.files` (the metadata names its file), the one its entry was read from, else the one
    of that name, and the line."""
    path, _, line = where.rpartition(": line ")
    return f"{listed_in or kinds.get(path, '')}:{line}" if path else ""


_TAGS: dict[tuple[str, ...], frozenset[str]] = {}


def _tag(rule: str, model: str, klass: str, prop: str, reason: str, section: str) -> frozenset[str]:
    """One shared frozenset per distinct tag: the build asks its rules once per set of tags."""
    key = (rule, model, klass, prop, reason, section)
    tags = _TAGS.get(key)
    if tags is None:
        dropped = EXCLUDED.get(rule, ())  # the filter rules of these names drop it
        fields = ":".join(key)
        tags = _TAGS[key] = frozenset({"lowercase-source", f"{TAG}:{fields}", *dropped})
    return tags


def parse_tag(tags: Iterable[str]) -> tuple[str, ...] | None:
    """(rule, model, class, property, reason, section) of a form's ``fise:`` tag, if it has one."""
    for tag in tags:
        if tag.startswith(TAG + ":"):
            fields = tag.split(":", 6)[1:7]
            return tuple(fields + [""] * (6 - len(fields)))
    return None


def model_verb(model: str) -> str:
    """ar01 → contar: the verb a model is named after."""
    found = models().get((model[:2], model[2:]))
    return found.verb if found else ""
