"""FISE's published lemma lists, read: the total verb list, the total non-verb list and the revisions.

FISE publishes its lexicon to players as lemma lists (the verbs by conjugation model and class,
the other words in dictionary form, each revision as additions and removals). A club points a build
at the folder it received (``lextools build es-fise --fise-lists DIR``, later revisions with
``--fise-update DIR``); :mod:`lextools.builder.fise_forms` turns what is read here into every valid
form. The files are the federation's: lextools never ships them.

The formats, as the federation writes them:

- a file is known by its first line (``LEXICÓN FISE 2: TOTAL DE VERBOS CLASIFICADOS``…), never by its
  name; Latin-1, lines ending in CRLF or a bare CR;
- a header in prose (title, date, ``Contenido:`` with the numbered section titles, ``Notas:``), then
  a line holding only ``#``; the body; sometimes another ``#`` line and a trailer;
- in the body, section titles repeat the header's (``1. NUEVOS``), sub-headings stand on their own
  line (``Primera conjugación``, ``Transitivos``), blank lines mean nothing;
- a verb is ``MM-T-P-infinitive[(detail)][ superscript]`` (``01-1-.-contar 2``, ``06-1-P-hacer(hecho)``);
  another word is ``word[ feminine][ superscript]`` (``perro perra``).

Every fault is a :class:`~lextools.core.errors.SourceError` naming the file and the line: a file that
is not Latin-1, an unknown model or class code, a section title the format does not have, a line
that is neither a title, a sub-heading nor an entry.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lextools.builder.conjugate import CONJUGATIONS, models
from lextools.core.errors import SourceError, path_text

#: Each kind of file by the words of its first line.
KINDS = {
    "TOTAL DE VERBOS CLASIFICADOS": "verbs",
    "TOTAL DE NO VERBOS": "nonverbs",
    "ACTUALIZACIÓN DE NO VERBOS": "nonverb-update",
    "ACTUALIZACIÓN DE VERBOS": "verb-update",
    "DOS Y TRES FICHAS": "short-words",
}
#: The section titles of each kind of file, and what each means.
SECTIONS: dict[str, dict[str, str]] = {
    "verbs": {"PRIMERA CONJUGACIÓN": "ar", "SEGUNDA CONJUGACIÓN": "er", "TERCERA CONJUGACIÓN": "ir"},
    "nonverbs": {},
    "nonverb-update": {
        "ALTAS VARIABLES EN NÚMERO": "add-variable",
        "ALTAS INVARIABLES EN NÚMERO": "add-invariable",
        "ALTAS EN PLURAL PERO NO EN SINGULAR": "add-plural",
        "BAJAS VARIABLES E INVARIABLES EN NÚMERO": "remove",
        "BAJAS EN PLURAL PERO NO EN SINGULAR": "remove-plural",
        "ANEXO I": "annex",
        "ANEXO II": "annex",
    },
    "verb-update": {
        "NUEVOS": "new",
        "SUPRIMIDOS": "removed",
        "REGIONALES ESPAÑOLES": "regional",
        "DE USADO A DESUSADO": "obsolete",
        "DE DESUSADO A USADO": "current",
        "DE TRANSITIVO A INTRANSITIVO": "2",
        "DE INTRANSITIVO A TRANSITIVO": "1",
        "DE TRANSITIVO A PRONOMINAL": "3",
        "DE PRONOMINAL A TRANSITIVO": "1",
        "DE INTRANSITIVO A PRONOMINAL": "3",
        "DE PRONOMINAL A INTRANSITIVO": "2",
        "CAMBIOS EN FORMAS": "changed",
    },
    "short-words": {},  # a check of a build: its sections are read as they come
}
#: Sub-headings (lower case, without accents): a conjugation or a class.
SUBHEADINGS = {
    "primera conjugacion": ("conj", "ar"),
    "segunda conjugacion": ("conj", "er"),
    "tercera conjugacion": ("conj", "ir"),
    "transitivos": ("class", "1"),
    "intransitivos": ("class", "2"),
    "pronominales": ("class", "3"),
}
#: The class codes (T) and the properties (P) of a verb line.
CLASSES = ("0", "1", "2", "3", "4", "5")
PROPERTIES = (".", "D", "I", "P", "R")
#: Models that only say the verb is given in the infinitive only: regional to Spain, obsolete.
INFINITIVE_ONLY_MODELS = ("88", "99")

_TITLE = re.compile(r"^(\d+)\.\s+(\S.*)$")
_LETTERS = r"[^\W\d_]+"
_VERB = re.compile(rf"^(\d\d)-(\w)-(.)-({_LETTERS}?)\s*(?:\(([^()]*)\))?(?:\s+(\d+))?$")
_WORDS = re.compile(rf"^({_LETTERS})(?:\s+({_LETTERS}))?(?:\s+(\d+))?$")
_DIGRAPHS = {"1": "ch", "2": "ll", "3": "rr"}


@dataclass
class Verb:
    """One verb of the lists: its infinitive (without SE), model, class (T) and property (P)."""

    infinitive: str
    model: str
    klass: str
    prop: str = "."
    detail: str = ""  # the parenthesis: the forms of a defective verb, the irregular participles
    where: str = ""  # file and line, for reports
    superscript: str = ""  # the dictionary's homograph number (``bote 4``): never part of the word
    written_se: bool = False  # the line writes the infinitive with -se (``88-0-.-zacacharse``)
    note: str = ""  # a revision entry's note, as written inside its parentheses

    @property
    def conjugation(self) -> str:
        return self.infinitive[-2:].translate(_PLAIN)


@dataclass
class Word:
    """One other word: its dictionary form, its feminine, and whether it takes a plural (None: to decide)."""

    word: str
    feminine: str | None = None
    plural: bool | None = None
    where: str = ""
    superscript: str = ""  # the dictionary's homograph number: homographs keep their own forms
    note: str = ""  # a revision entry's note, as written inside its parentheses
    plurals: tuple[str, ...] = ()  # the plurals its note writes (``plural "X"``), instead of the regular one


@dataclass
class Change:
    """An entry of a verb revision given by its infinitive (``abatatar (conjugado como "X")``)."""

    infinitive: str  # as written: may end in -rse
    note: str = ""  # the note inside the parentheses, as written
    superscript: str = ""
    where: str = ""


@dataclass
class FiseFile:
    kind: str
    path: Path
    #: (section meaning, sub-headings, line number, parsed entry) in file order
    entries: list[tuple[str, dict[str, str], int, Verb | Word | Change | str]] = field(default_factory=list)
    #: the lines not understood, skipped: (line number, text, why)
    skipped: list[tuple[int, str, str]] = field(default_factory=list)


@dataclass
class Lists:
    """The lexicon the lists describe: verbs and other words by their plain key, and the plurals a
    revision adds (``3.``) or removes (``5.``) on their own."""

    verbs: dict[str, list[Verb]] = field(default_factory=dict)  # homographs share a key
    words: dict[str, Word] = field(default_factory=dict)
    plurals_added: dict[str, str] = field(default_factory=dict)  # plural → its singular
    plurals_removed: set[str] = field(default_factory=set)
    short_words: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    files: dict[str, Path] = field(default_factory=dict)


_PLAIN = str.maketrans("áéíóúü", "aeiouu")


def plain(word: str) -> str:
    """Lower case, without accents or diaeresis, Ñ kept: the key two spellings of a word share.

    >>> plain("Año"), plain("pingüino"), plain("CANCIÓN")
    ('año', 'pinguino', 'cancion')
    """
    decomposed = unicodedata.normalize("NFD", word.lower())
    kept = "".join(ch for ch in decomposed if ch not in "\u0301\u0300\u0302\u0308")  # ñ's tilde stays
    return unicodedata.normalize("NFC", kept)


def decode(path: Path) -> list[str]:
    """The lines of a Latin-1 file, line ends CRLF, CR or LF; a file in another encoding is refused."""
    data = path.read_bytes()
    if b"\x00" in data:
        raise SourceError(f"{path_text(path)}: line 1: not Latin-1 text (UTF-16 or binary); FISE's lists are Latin-1")
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    for n, raw in enumerate(lines, start=1):
        where = f"{path_text(path)}: line {n}"
        if any(0x80 <= b < 0xA0 for b in raw) and not _is_utf8(raw):
            raise SourceError(f"{where}: a byte Latin-1 (ISO-8859-1) has no letter for")
        if any(b >= 0x80 for b in raw) and _is_utf8(raw) and re.search(rb"[\xc2\xc3][\x80-\xbf]", raw):
            raise SourceError(f"{where}: UTF-8, not Latin-1 (ISO-8859-1) as FISE writes its lists")
    return [raw.decode("latin-1") for raw in lines]


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def kind_of(first_line: str) -> str | None:
    line = " ".join(first_line.upper().split())
    for words, kind in KINDS.items():
        if words in line:
            return kind
    return None


def read_file(path: Path) -> FiseFile | None:
    """One list, or None when its first line is not one of FISE's lists (a README beside them)."""
    lines = decode(path)
    kind = kind_of(lines[0]) if lines else None
    if kind is None:
        if lines and "FISE" in lines[0].upper():
            raise SourceError(f"{path_text(path)}: line 1: a FISE list lextools does not know: {lines[0].strip()!r}")
        return None
    parsed = FiseFile(kind, path)
    body = _body_start(path, lines)
    _read_body(parsed, lines, body)
    return parsed


def _body_start(path: Path, lines: list[str]) -> int:
    """The index of the first body line; the header's numbered titles must be the format's."""
    known = SECTIONS[kind_of(lines[0]) or ""]
    for i, line in enumerate(lines):
        text = line.strip()
        if text == "#":
            return i + 1
        m = _TITLE.match(text)
        if m and known and _title(m.group(2)) not in known and i > 0:
            raise SourceError(f"{path_text(path)}: line {i + 1}: unknown section title {text!r}")
    raise SourceError(f"{path_text(path)}: no line holding only '#' ends the header")


def _title(text: str) -> str:
    return " ".join(text.upper().split()).rstrip(":.")


def _read_body(parsed: FiseFile, lines: list[str], start: int) -> None:
    known = SECTIONS[parsed.kind]
    section, sub = "", dict[str, str]()
    for n in range(start, len(lines)):
        text = " ".join(lines[n].split())
        where = f"{path_text(parsed.path)}: line {n + 1}"
        if not text:
            continue
        if text == "#":
            return  # the trailer
        title = _TITLE.match(text)
        if title and parsed.kind == "short-words":  # the revision's changes, then the totals
            section, sub = _title(title.group(2)), {}
            continue
        if title:
            name = _title(title.group(2))
            if name not in known:
                raise SourceError(f"{where}: unknown section title {text!r}")
            section, sub = known[name], {}
            continue
        heading = SUBHEADINGS.get(plain(text).rstrip(":"))
        if heading:
            sub = {**sub, heading[0]: heading[1]}
            continue
        parsed.entries.append((section, sub, n + 1, _entry(parsed.kind, section, sub, text, where)))


def _entry(kind: str, section: str, sub: dict[str, str], text: str, where: str) -> Verb | Word | str:
    if kind == "short-words":
        return _short_word(text, where)
    if kind == "verbs" or (kind == "verb-update" and _VERB.match(text)):
        return parse_verb(text, where, section if kind == "verbs" else sub.get("conj"))
    if kind == "verb-update":
        m = re.fullmatch(rf"({_LETTERS})(?:\s+(\d+))?", text)
        if not m or not _is_infinitive(m.group(1)):
            raise SourceError(f"{where}: not an infinitive: {text!r}")
        return m.group(1)
    return parse_word(text, where)


def parse_verb(text: str, where: str, conjugation: str | None = None) -> Verb:
    m = _VERB.match(text)
    if not m:
        raise SourceError(f"{where}: not a verb line (MM-T-P-infinitive): {text!r}")
    model, klass, prop, infinitive, detail = m.group(1), m.group(2), m.group(3), m.group(4), m.group(5) or ""
    if not _is_infinitive(infinitive) or not infinitive.islower():
        raise SourceError(f"{where}: not an infinitive: {infinitive!r}")
    bare = infinitive.removesuffix("se") if infinitive.endswith("rse") else infinitive
    verb = Verb(bare, model, klass, prop, detail, where, m.group(6) or "", written_se=bare != infinitive)
    if klass not in CLASSES:
        raise SourceError(f"{where}: unknown class code {klass!r} (0 to 5)")
    if prop not in PROPERTIES:
        raise SourceError(f"{where}: unknown property {prop!r} (., D, I, P or R)")
    conj = verb.conjugation
    if conjugation and conj != conjugation:
        raise SourceError(f"{where}: {infinitive} is not a verb of the section's conjugation (-{conjugation})")
    if model not in INFINITIVE_ONLY_MODELS and (conj, model) not in models():
        raise SourceError(f"{where}: unknown model code {model!r} for -{conj} verbs")
    if prop in "DP" and not detail:
        raise SourceError(f"{where}: property {prop} needs its forms in parentheses after the infinitive")
    return verb


def _is_infinitive(word: str) -> bool:
    bare = word.removesuffix("se") if word.endswith("rse") else word
    return bare.isalpha() and bare[-2:].translate(_PLAIN) in CONJUGATIONS


def parse_word(text: str, where: str) -> Word:
    m = _WORDS.match(text)
    if not m or not m.group(1).isalpha() or not m.group(1).islower() or (m.group(2) and not m.group(2).isalpha()):
        raise SourceError(f"{where}: not a word, a word and its feminine, or either with a number: {text!r}")
    return Word(m.group(1), m.group(2), where=where, superscript=m.group(3) or "")


def _short_word(text: str, where: str) -> str:
    word = "".join(_DIGRAPHS.get(ch, ch) for ch in text.lower())
    if not word.isalpha():
        raise SourceError(f"{where}: not a two- or three-tile word: {text!r}")
    return word


def folder_files(folder: Path) -> Iterator[FiseFile]:
    """The FISE lists of a folder, by their first line (other files are passed over), in name order."""
    if not folder.is_dir():
        raise SourceError(f"{path_text(folder)}: no such folder of FISE lists")
    for path in sorted(p for p in folder.iterdir() if p.is_file()):
        parsed = read_file(path)
        if parsed is not None:
            yield parsed
