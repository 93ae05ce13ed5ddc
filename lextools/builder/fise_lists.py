"""FISE's published lemma lists, read: the total verb list, the total non-verb list and the revisions.

FISE publishes its lexicon to players as lemma lists (the verbs by conjugation model and class,
the other words in dictionary form, each revision as additions and removals). A club points a build
at the folder it received (``lextools build es-fise --fise-lists DIR``, later revisions with
``--fise-update DIR``); :mod:`lextools.builder.fise_forms` turns what is read here into every valid
form. The files are the federation's: lextools never ships them.

The formats, as the federation writes them:

- a file is known by its first line (``LEXICÓN FISE 2: TOTAL DE VERBOS CLASIFICADOS``…), never by its
  name, which may be Latin-1 bytes (``ACTUALIZACI\\xd3N …``), ``.txt`` or ``.TXT``; the content is
  Latin-1, lines ending in CRLF, a bare CR or LF, some with trailing spaces;
- a header in prose: the title, the author and date, ``Contenido:`` with the numbered section titles
  (each possibly followed by an indented line in parentheses; in the non-verb total one unnumbered
  sentence), ``Notas:`` and its paragraphs, then a line holding only ``#``. Only the titles are
  read from it: the prose is never checked;
- the body: section titles repeating the header's in full (``6. ANEXO I: ALTAS YA VÁLIDAS POR OTRA
  ENTRADA``), sub-headings on their own line (``Primera conjugación``, ``Transitivos``, ``Altas:``),
  a line in parentheses standing alone under a title (it qualifies the section), ``ningún verbo``
  where a sub-section is empty, blank lines meaning nothing, and the entries;
- a second line holding only ``#`` closes the body; the trailer after it (the author, the date) is
  not read.

Entries: a verb is ``MM-T-P-infinitive[ N][(text)][ N]`` (``01-1-.-contar 2``, ``06-1-P-hacer(hecho)``,
``20-1-P-ver 1(visto)``: ``N`` is the dictionary's superscript, never part of the word); another word
``word[ feminine][ N][ (note)]`` (``perro perra``); in a verb revision an entry may also be an
infinitive with a note (``abatatar (conjugado como "X")``, a :class:`Change`).

A line that is none of these is *not understood*: it is kept in :attr:`FiseFile.skipped` (line
number, text, why) and the reading goes on; the build reports it. Only a file that cannot be one of
these lists is refused, with a :class:`~lextools.core.errors.SourceError` naming the file and the line:
a first line naming FISE that names no list known here, bytes that are not Latin-1 text (a NUL byte,
UTF-16, UTF-8), a list cut short (a header without its ``#``, a body without its closing ``#``).
Other files of a folder (the regulation as ``.docx``, a ``.zip``, notes) are passed over and listed.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from lextools.builder.conjugate import CONJUGATIONS, models
from lextools.core.errors import SourceError, path_text, printable
from lextools.core.inputs import MAX_LINE_CHARS, InputRefusedError, check_size, open_input, read_input
from lextools.core.messages import message
from lextools.core.wordlist import long_line

#: Each kind of file by the words of its first line.
KINDS = {
    "TOTAL DE VERBOS CLASIFICADOS": "verbs",
    "TOTAL DE NO VERBOS": "nonverbs",
    "ACTUALIZACIÓN DE NO VERBOS": "nonverb-update",
    "ACTUALIZACIÓN DE VERBOS": "verb-update",
    "DOS Y TRES FICHAS": "short-words",
}
#: The section titles of each kind of file, in full as the body writes them, and what each means.
SECTIONS: dict[str, dict[str, str]] = {
    "verbs": {"PRIMERA CONJUGACIÓN": "ar", "SEGUNDA CONJUGACIÓN": "er", "TERCERA CONJUGACIÓN": "ir"},
    "nonverbs": {},
    "nonverb-update": {
        "ALTAS VARIABLES EN NÚMERO": "add-variable",
        "ALTAS INVARIABLES EN NÚMERO": "add-invariable",
        "ALTAS EN PLURAL PERO NO EN SINGULAR": "add-plural",
        "BAJAS VARIABLES E INVARIABLES EN NÚMERO": "remove",
        "BAJAS EN PLURAL PERO NO EN SINGULAR": "remove-plural",
        "ANEXO I: ALTAS YA VÁLIDAS POR OTRA ENTRADA": "annex",  # informative: change nothing
        "ANEXO II: BAJAS AÚN VÁLIDAS POR OTRA ENTRADA": "annex",
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
    "short-words": {
        "ACTUALIZACIÓN DE PALABRAS DE DOS FICHAS": "update-2",
        "ACTUALIZACIÓN DE PALABRAS DE TRES FICHAS": "update-3",
        "TOTAL DE PALABRAS DE DOS FICHAS": "total-2",
        "TOTAL DE PALABRAS DE TRES FICHAS": "total-3",
    },
}
#: Sub-headings (lower case, without accents, no final colon): a conjugation, a class, additions or removals.
SUBHEADINGS = {
    "primera conjugacion": ("conj", "ar"),
    "segunda conjugacion": ("conj", "er"),
    "tercera conjugacion": ("conj", "ir"),
    "transitivos": ("class", "1"),
    "intransitivos": ("class", "2"),
    "pronominales": ("class", "3"),
    "altas": ("change", "altas"),
    "bajas": ("change", "bajas"),
}
#: Lines that say a sub-section is empty.
EMPTY = frozenset({"ningun verbo"})
#: The class codes (T) and the properties (P) of a verb line.
CLASSES = ("0", "1", "2", "3", "4", "5")
PROPERTIES = (".", "D", "I", "P", "R")
#: Models that only say the verb is given in the infinitive only: regional to Spain, obsolete.
INFINITIVE_ONLY_MODELS = ("88", "99")

_TITLE = re.compile(r"^(\d+)\.\s+(\S.*)$")
_LETTERS = r"[^\W\d_]+"
#: MM-T-P-infinitive, its superscript before or after the parenthesis (``20-1-P-ver 1(visto)``).
_VERB = re.compile(rf"^(\d\d)-(\w)-(.)-({_LETTERS})(?: ?(\d)(?=\(| ?$))?(?: ?\(([^()]*)\))?(?: (\d))?$")
_WORD = re.compile(rf"^({_LETTERS})(?: ({_LETTERS}))?(?: (\d))?(?: ?\((.*)\))?$")
_NOTE_PLURALS = re.compile(r"^plural(?:es)?\s+(.*)$")
_QUOTED = re.compile(r'"([^"]+)(?:"|$)')
_DIGRAPHS = {"1": "ch", "2": "ll", "3": "rr"}
#: Bytes no Latin-1 text holds: C1 controls (a sign of UTF-8 or of another code page).
_NOT_LATIN1 = re.compile(rb"[\x80-\x9f]")
_UTF8_LETTER = re.compile(rb"[\xc2\xc3][\x80-\xbf]")
_UTF16 = ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
#: Read to know a file by its first line.
_HEAD_BYTES = 4096
#: The largest list read, checked from its size before a byte of it is read (FISE's largest, the
#: non-verb total, is about 2 MB; 500,000 invented lines, bench/fise_reader's largest, about 12 MB).
MAX_LIST_BYTES = 32 * 2**20


class _Unread(ValueError):
    """A line not understood: why (the line itself is kept by the reader)."""


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
    listed_in: str = ""  # its list's key in Lists.files (``verbs``, ``verb-update-1``): what a lemma cites

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
    listed_in: str = ""  # its list's key in Lists.files (``nonverbs``, ``nonverb-update-1``)


@dataclass
class Change:
    """An entry of a verb revision given by its infinitive (``abatatar (conjugado como "X")``)."""

    infinitive: str  # as written: may end in -rse
    note: str = ""  # the note inside the parentheses, as written
    superscript: str = ""
    where: str = ""
    listed_in: str = ""  # its list's key in Lists.files (``verb-update-1``)


@dataclass
class FiseFile:
    kind: str
    path: Path
    #: (section meaning, sub-headings, line number, parsed entry) in file order
    entries: list[tuple[str, dict[str, str], int, Verb | Word | Change | str]] = field(default_factory=list)
    #: the lines not understood, skipped: (line number, text, why)
    skipped: list[tuple[int, str, str]] = field(default_factory=list)
    #: the section titles of the header's table of contents, as written (upper case, spaces collapsed)
    titles: list[str] = field(default_factory=list)


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
    #: each list's lines not understood (line number, text, why), by file; and the files passed over
    skipped: dict[Path, list[tuple[int, str, str]]] = field(default_factory=dict)
    ignored: list[Path] = field(default_factory=list)


_PLAIN = str.maketrans("áéíóúü", "aeiouu")


def plain(word: str) -> str:
    """Lower case, without accents or diaeresis, Ñ kept: the key two spellings of a word share.

    >>> plain("Año"), plain("pingüino"), plain("CANCIÓN")
    ('año', 'pinguino', 'cancion')
    """
    decomposed = unicodedata.normalize("NFD", word.lower())
    kept = "".join(ch for ch in decomposed if ch not in "\u0301\u0300\u0302\u0308")  # ñ's tilde stays
    return unicodedata.normalize("NFC", kept)


def decode(path: Path, data: bytes | None = None) -> list[str]:
    """The lines of a Latin-1 file, line ends CRLF, CR or LF, trailing spaces kept; a file that is not
    Latin-1 text (a NUL byte, UTF-16, UTF-8, C1 control bytes) is refused naming its line."""
    data = read_input(path, MAX_LIST_BYTES, gz=False) if data is None else data
    shown = path_text(path)
    _refuse_long_line(data, shown)
    nul = data.find(b"\x00")
    if nul >= 0:
        what = "UTF-16" if _utf16(data) else "a NUL byte"
        raise SourceError(f"{shown}: line {_line_at(data, nul)}: {what}, not Latin-1 text as FISE writes its lists")
    for m in _UTF8_LETTER.finditer(data):
        line = _line_text(data, m.start())
        if _is_utf8(line):
            where = f"{shown}: line {_line_at(data, m.start())}"
            raise SourceError(f"{where}: UTF-8, not Latin-1 (ISO-8859-1) as FISE writes its lists")
    bad = _NOT_LATIN1.search(data)
    if bad:
        byte = data[bad.start()]
        where = f"{shown}: line {_line_at(data, bad.start())}"
        raise SourceError(f"{where}: byte 0x{byte:02x}, which Latin-1 (ISO-8859-1) has no letter for")
    return data.decode("latin-1").replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _refuse_long_line(data: bytes, shown: str) -> None:
    """A line longer than any list has (one 200 MB line) is refused before the lines are looked at."""
    start = long_line(data.decode("latin-1"))
    if start is not None:
        line = _line_at(data, start)
        raise InputRefusedError(message("input_line_too_long", file=shown, line=line, limit=f"{MAX_LINE_CHARS:,}"))


def _utf16(data: bytes) -> bool:
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return True
    sample = data[:200]
    return sample.count(b"\x00") * 3 >= len(sample)  # every other byte NUL: UTF-16 text


def _line_at(data: bytes, offset: int) -> int:
    before = data[:offset]
    return before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1


def _line_text(data: bytes, offset: int) -> bytes:
    start = max(data.rfind(b"\n", 0, offset), data.rfind(b"\r", 0, offset)) + 1
    ends = [i for i in (data.find(b"\n", offset), data.find(b"\r", offset)) if i >= 0]
    return data[start : min(ends, default=len(data))]


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
    """One list, or None when its first line is not one of FISE's lists (a README, the regulation as
    ``.docx``, a ``.zip`` beside them). Lines not understood are in :attr:`FiseFile.skipped`."""
    with open_input(path) as f:  # a regular file, not opened blocking
        head = f.read(_HEAD_BYTES)
        if not _names_fise(head):
            return None  # passed over, whatever its size: a 2 GB file beside the lists costs 4 KB
        check_size(path, os.fstat(f.fileno()).st_size, MAX_LIST_BYTES)  # before the rest is read
        lines = decode(path, _rest(f, head, path))
    kind = kind_of(lines[0])
    if kind is None:
        first = printable(lines[0].strip())
        raise SourceError(f"{path_text(path)}: line 1: a FISE list lextools does not know: {first!r}")
    parsed = FiseFile(kind, path)
    body = _read_header(parsed, lines)
    end = _Body(parsed).read(lines, body)
    if end is None:
        last = max((i for i, line in enumerate(lines) if line.strip()), default=0) + 1
        raise SourceError(
            f"{path_text(path)}: line {last}: the list ends without the '#' line that closes its body (cut short?)"
        )
    return parsed


def _rest(f: BinaryIO, head: bytes, path: Path) -> bytes:
    """The whole list, its head and the rest, from the file opened once (its size checked already)."""
    data = head + f.read(MAX_LIST_BYTES + 1 - len(head))
    if len(data) > MAX_LIST_BYTES:  # it grew meanwhile
        raise InputRefusedError(message("input_inflates", file=path_text(path), limit=f"{MAX_LIST_BYTES:,}"))
    return data


def _names_fise(head: bytes) -> bool:
    """Does a file's first line name FISE (in Latin-1, or in UTF-16: refused later, by its line)?"""
    texts = [head.decode("latin-1").replace("\x00", "")]
    if b"\x00" in head and _utf16(head):
        texts += [head.removeprefix(bom).decode(enc, "replace") for bom, enc in _UTF16]
    firsts = [text.replace("\r", "\n").split("\n", 1)[0] for text in texts]
    return any("FISE" in first.upper() or kind_of(first) is not None for first in firsts)


def _read_header(parsed: FiseFile, lines: list[str]) -> int:
    """The index of the first body line; the numbered titles of ``Contenido:`` are kept, nothing else is read."""
    contents = False
    for i in range(1, len(lines)):
        text = lines[i].strip()
        if text == "#":
            return i + 1
        if text.lower().startswith("contenido"):
            contents = True
        elif text.lower().startswith("notas"):
            contents = False
        elif contents and (m := _TITLE.match(text)):
            parsed.titles.append(_title(m.group(2)))
    last = max((i for i, line in enumerate(lines) if line.strip()), default=0) + 1
    raise SourceError(f"{path_text(parsed.path)}: line {last}: the header ends without its '#' line (cut short?)")


def _title(text: str) -> str:
    return " ".join(text.upper().split()).rstrip(".: ")


class _Body:
    """The body of one list, read line by line: the section and sub-headings each entry is under."""

    def __init__(self, parsed: FiseFile) -> None:
        self.parsed = parsed
        self.known = SECTIONS[parsed.kind]
        self.shown = path_text(parsed.path.name)  # an entry's ``where``: the list's name (no local path), its line
        self.section: str | None = ""  # None: under a title not understood (its entries are skipped)
        self.bad_title = 0
        self.sub: dict[str, str] = {}

    def read(self, lines: list[str], start: int) -> int | None:
        """Read from ``start``; the index of the line closing the body, or None when there is none."""
        for i in range(start, len(lines)):
            text = " ".join(lines[i].split())
            if not text:
                continue
            if text == "#":
                return i
            self.line(i + 1, text)
        return None

    def line(self, n: int, text: str) -> None:
        title = _TITLE.match(text)
        if title:
            self.title(n, text, _title(title.group(2)))
            return
        if text[0] == "(" and text[-1] == ")":  # stand-alone: it qualifies the section
            self.sub = {**self.sub, "qualifier": text[1:-1].strip()}
            return
        if text[0].isupper() or text.startswith("ning"):  # entries are lower case: no need to look
            key = plain(text).rstrip(":. ")
            heading = SUBHEADINGS.get(key)
            if heading:
                self.sub = {**self.sub, heading[0]: heading[1]}
                return
            if key in EMPTY:
                return
        if self.section is None:
            self.skip(n, text, f"under the section title not understood on line {self.bad_title}")
            return
        try:
            entry = _entry(self.parsed.kind, self.section, self.sub, text, f"{self.shown}: line {n}")
        except _Unread as e:
            self.skip(n, text, str(e))
            return
        self.parsed.entries.append((self.section, self.sub, n, entry))

    def title(self, n: int, text: str, name: str) -> None:
        self.sub = {}
        if name in self.known:
            self.section = self.known[name]
            return
        self.skip(n, text, "a section title this list does not have")
        # the verb total's sections only name the conjugation, which each line shows: read on unchecked
        self.section, self.bad_title = ("" if self.parsed.kind == "verbs" else None), n

    def skip(self, n: int, text: str, why: str) -> None:
        self.parsed.skipped.append((n, text, why))


def _entry(kind: str, section: str, sub: dict[str, str], text: str, where: str) -> Verb | Word | Change | str:
    if kind == "short-words":
        return _short_word(text)
    if kind == "verbs" or (kind == "verb-update" and _VERB.match(text)):
        return _verb(text, where, section if kind == "verbs" else sub.get("conj"))
    if kind == "verb-update":
        return _change(text, where)
    return _word(text, where)


def parse_verb(text: str, where: str, conjugation: str | None = None) -> Verb:
    """One verb line; a line that is not one is a :class:`SourceError` naming ``where``."""
    try:
        return _verb(text, where, conjugation)
    except _Unread as e:
        raise SourceError(f"{where}: {e}: {printable(text)!r}") from None


def _verb(text: str, where: str, conjugation: str | None) -> Verb:
    m = _VERB.match(text)
    if not m:
        raise _Unread("not a verb line (MM-T-P-infinitive)")
    model, klass, prop, written, before, detail, after = m.groups()
    if not _is_infinitive(written) or not written.islower():
        raise _Unread(f"not an infinitive: {written!r}")
    se = written.endswith("rse")
    verb = Verb(written.removesuffix("se") if se else written, model, klass, prop, detail or "", where)
    verb.superscript, verb.written_se = before or after or "", se
    if klass not in CLASSES:
        raise _Unread(f"unknown class code {klass!r} (0 to 5)")
    if prop not in PROPERTIES:
        raise _Unread(f"unknown property {prop!r} (., D, I, P or R)")
    conj = verb.conjugation
    if conjugation and conj != conjugation:
        raise _Unread(f"{written} is not a verb of the section's conjugation (-{conjugation})")
    if model not in INFINITIVE_ONLY_MODELS and (conj, model) not in models():
        raise _Unread(f"unknown model code {model!r} for -{conj} verbs")
    if prop in "DP" and not detail:
        raise _Unread(f"property {prop} needs its forms in parentheses after the infinitive")
    return verb


def _change(text: str, where: str) -> Change:
    m = _WORD.match(text)
    if not m or m.group(2) or not _is_infinitive(m.group(1)) or not m.group(1).islower():
        raise _Unread("neither an infinitive, an infinitive with a note nor a verb line (MM-T-P-infinitive)")
    return Change(m.group(1), (m.group(4) or "").strip(), m.group(3) or "", where)


def _is_infinitive(word: str) -> bool:
    bare = word.removesuffix("se") if word.endswith("rse") else word
    return bare.isalpha() and bare[-2:].translate(_PLAIN) in CONJUGATIONS


def parse_word(text: str, where: str) -> Word:
    """One other word; a line that is not one is a :class:`SourceError` naming ``where``."""
    try:
        return _word(text, where)
    except _Unread as e:
        raise SourceError(f"{where}: {e}: {printable(text)!r}") from None


def _word(text: str, where: str) -> Word:
    m = _WORD.match(text)
    if not m or not m.group(1).islower() or (m.group(2) and not m.group(2).islower()):
        raise _Unread("not a word, a word and its feminine, either with a number or a note")
    word, feminine, superscript, note = m.groups()
    note = (note or "").strip()
    return Word(word, feminine, where=where, superscript=superscript or "", note=note, plurals=note_plurals(note))


def note_plurals(note: str) -> tuple[str, ...]:
    """The plurals a revision's note writes: ``plural "X"``, ``plurales "X" y "Y"``, also ``plural "X``.

    >>> note_plurals('plurales "zarzos" y "zarces"'), note_plurals('plural "zumbrís')
    (('zarzos', 'zarces'), ('zumbrís',))
    >>> note_plurals('"zarzas" es plural de "zarza"')
    ()
    """
    m = _NOTE_PLURALS.match(note)
    return tuple(q.strip() for q in _QUOTED.findall(m.group(1))) if m else ()


def _short_word(text: str) -> str:
    word = "".join(_DIGRAPHS.get(ch, ch) for ch in text.lower())
    if not word.isalpha():
        raise _Unread("not a two- or three-tile word")
    return word


def folder_files(folder: Path, ignored: list[Path] | None = None) -> Iterator[FiseFile]:
    """The FISE lists of a folder, by their first line, in name order; the other files are passed over
    (added to ``ignored`` when given)."""
    if not folder.is_dir():
        raise SourceError(f"{path_text(folder)}: no such folder of FISE lists")
    for path in sorted(p for p in folder.iterdir() if p.is_file()):
        parsed = read_file(path)
        if parsed is not None:
            yield parsed
        elif ignored is not None:
            ignored.append(path)


def read_folder(folder: Path, lists: Lists) -> list[FiseFile]:
    """The lists of a folder; ``lists`` records the files passed over and each file's lines not understood."""
    ignored: list[Path] = []
    files = list(folder_files(folder, ignored))
    lists.ignored += ignored
    for f in files:
        if f.skipped:
            lists.skipped[f.path] = f.skipped
    return files
