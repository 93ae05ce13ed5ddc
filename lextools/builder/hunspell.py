"""Pure-Python reader and expander for hunspell ``.aff`` / ``.dic`` dictionaries.

Why this module exists
----------------------
The open word sources we build lexicons from (RLA-ES for Spanish, SCOWL for English,
Dicollecte for French) are distributed as *hunspell dictionaries*: a list of stems (``.dic``)
each tagged with affix flags, plus rules (``.aff``) that say which prefixes and suffixes each
flag adds.  A Scrabble lexicon needs the opposite view: every surface form, and — because
the FISE rules exclude verb forms with enclitic pronouns — *how* each form was built.
So :func:`expand` yields :class:`Form` objects that carry the stem, the affix flags applied
(in order) and the :class:`AffixRule` objects themselves, so a later stage can decide, rule
by rule, what to keep.

Only the standard library is used; no hunspell binding is needed.  The file format follows
the hunspell(5) manual page (hunspell 1.7); where this module has to choose a behaviour the
manual leaves open, the docstring of the function says which and why.

What is generated
-----------------
For a stem ``w`` with flags ``F`` (hunspell(5), "AFFIX FILE OPTIONS FOR AFFIXATION"):

* ``w`` itself, unless ``F`` contains the NEEDAFFIX (virtual stem), FORBIDDENWORD or
  ONLYINCOMPOUND flag;
* ``w`` + one suffix of a class in ``F`` whose condition matches;
* twofold suffixes: a suffix written ``affix/flags`` has *continuation classes*; each
  suffix class named there may be added after it ("drink/X", ``SFX X 0 able/Y``,
  ``SFX Y 0 s`` gives drinkable and drinkables).  At most two suffixes, as in hunspell;
* one prefix of a class in ``F`` (or named in a continuation class of an applied suffix),
  alone or combined with the suffix forms when both the prefix and the suffix(es) are
  declared with cross product ``Y``;
* a suffix named only in a *prefix*'s continuation classes (prefix + that suffix);
* with COMPLEXPREFIXES the roles of prefixes and suffixes in twofold affixation swap
  (two prefixes, one suffix), as in hunspell.

Forms are filtered with the NEEDAFFIX rule for affixes (an affix whose continuation
classes contain NEEDAFFIX is "virtual": valid only with another affix), CIRCUMFIX (a form
with a circumfix-marked prefix needs a circumfix-marked suffix and vice versa),
ONLYINCOMPOUND and FORBIDDENWORD on affixes.  Compounding (COMPOUNDFLAG, COMPOUNDRULE, …)
is *not* generated: the set of compounds is unbounded; those directives are recorded as
ignored in the :class:`Report`.

Streaming: :func:`iter_expand` yields forms one stem at a time; :func:`expand` returns a
list plus a :class:`Report`.  Paths ending in ``.gz`` are read transparently.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from types import MappingProxyType
from typing import Literal

from lextools.core.inputs import read_input

__all__ = [
    "AffixFile",
    "AffixRule",
    "Chain",
    "DicEntry",
    "Form",
    "Report",
    "dic_words",
    "entry_chains",
    "entry_expander",
    "expand",
    "expand_entry",
    "iter_dic",
    "iter_expand",
    "read_aff",
]

FlagMode = Literal["char", "long", "num", "UTF-8"]

#: Directives whose argument is a single flag (hunspell(5)).  The ones used by the
#: expander are NEEDAFFIX (old name PSEUDOROOT), FORBIDDENWORD, ONLYINCOMPOUND and
#: CIRCUMFIX; the others are kept in :attr:`AffixFile.special_flags` so that callers can
#: look at them (e.g. KEEPCASE, NOSUGGEST) and so their flags are not reported as undefined.
FLAG_DIRECTIVES: frozenset[str] = frozenset(
    [
        "NEEDAFFIX",
        "PSEUDOROOT",
        "FORBIDDENWORD",
        "ONLYINCOMPOUND",
        "CIRCUMFIX",
        "KEEPCASE",
        "NOSUGGEST",
        "NONGRAMSUGGEST",
        "WARN",
        "SUBSTANDARD",
        "LEMMA_PRESENT",
        "FORCEUCASE",
        "COMPOUNDFLAG",
        "COMPOUNDBEGIN",
        "COMPOUNDMIDDLE",
        "COMPOUNDLAST",
        "COMPOUNDEND",
        "COMPOUNDPERMITFLAG",
        "COMPOUNDFORBIDFLAG",
        "COMPOUNDROOT",
    ]
)

#: Directives that shape expansion (besides the flag directives in :data:`USED_FLAG_DIRECTIVES`).
USED_DIRECTIVES: frozenset[str] = frozenset({"SET", "FLAG", "AF", "AM", "PFX", "SFX", "FULLSTRIP", "COMPLEXPREFIXES"})

#: The flag directives the expander applies; the rest of :data:`FLAG_DIRECTIVES` is only recorded.
USED_FLAG_DIRECTIVES: frozenset[str] = frozenset(
    {"NEEDAFFIX", "PSEUDOROOT", "FORBIDDENWORD", "ONLYINCOMPOUND", "CIRCUMFIX"}
)

#: Directives that hunspell knows but that do not change which forms exist when affixing
#: (suggestion, tokenisation, compounding, conversion tables).  They are counted in
#: :attr:`Report.ignored_directives`; anything not known at all goes to
#: :attr:`Report.unknown_directives`.
IGNORED_DIRECTIVES: frozenset[str] = frozenset(
    [
        "TRY",
        "KEY",
        "REP",
        "MAP",
        "PHONE",
        "BREAK",
        "ICONV",
        "OCONV",
        "WORDCHARS",
        "IGNORE",
        "LANG",
        "NAME",
        "VERSION",
        "HOME",
        "MAXNGRAMSUGS",
        "MAXDIFF",
        "ONLYMAXDIFF",
        "NOSPLITSUGS",
        "SUGSWITHDOTS",
        "MAXCPDSUGS",
        "FORBIDWARN",
        "CHECKSHARPS",
        "COMPOUNDMIN",
        "COMPOUNDRULE",
        "COMPOUNDWORDMAX",
        "COMPOUNDSYLLABLE",
        "CHECKCOMPOUNDDUP",
        "CHECKCOMPOUNDREP",
        "CHECKCOMPOUNDCASE",
        "CHECKCOMPOUNDTRIPLE",
        "SIMPLIFIEDTRIPLE",
        "CHECKCOMPOUNDPATTERN",
        "COMPOUNDMORESUFFIXES",
        "SYLLABLENUM",
        "CHECKNUM",
        "ONLYUPCASE",
        "HU_KOTOHANGZO",
        "CHECKCOMPOUNDFORBIDFLAG",
    ]
) | (FLAG_DIRECTIVES - USED_FLAG_DIRECTIVES)

# hunspell(5) "SET encoding": the names hunspell accepts, mapped to Python codec names.
_ENCODINGS: Mapping[str, str] = {
    "UTF-8": "utf-8",
    "ISO8859-1": "iso8859-1",
    "ISO8859-2": "iso8859-2",
    "ISO8859-3": "iso8859-3",
    "ISO8859-4": "iso8859-4",
    "ISO8859-5": "iso8859-5",
    "ISO8859-6": "iso8859-6",
    "ISO8859-7": "iso8859-7",
    "ISO8859-8": "iso8859-8",
    "ISO8859-9": "iso8859-9",
    "ISO8859-10": "iso8859-10",
    "ISO8859-13": "iso8859-13",
    "ISO8859-14": "iso8859-14",
    "ISO8859-15": "iso8859-15",
    "KOI8-R": "koi8-r",
    "KOI8-U": "koi8-u",
    "MICROSOFT-CP1251": "cp1251",
    "CP1251": "cp1251",
    "TIS620-2533": "tis-620",
}

_BOM = "\ufeff"


def _python_encoding(name: str) -> str:
    """Map a hunspell ``SET`` value to a Python codec name (case-insensitive)."""
    return _ENCODINGS.get(name.upper(), name)


def _read_bytes(path: str | Path) -> bytes:
    """Read a file, gunzipping it when the name ends in ``.gz`` (vendored sources are gzipped);
    bounded before it is read (:func:`lextools.core.inputs.read_input`)."""
    return read_input(Path(path))


# --------------------------------------------------------------------------------------
# data model


@dataclass(frozen=True, slots=True)
class AffixRule:
    """One ``PFX``/``SFX`` rule line.

    hunspell(5): ``SFX flag stripping_characters affix[/flags] [condition [morph...]]``.
    ``0`` stands for an empty strip or affix.  The *condition* is a simplified regular
    expression (characters, ``.``, ``[...]``, ``[^...]``) matched against the end of the
    stem for a suffix and the start for a prefix, *before* stripping.  ``cont`` are the
    continuation classes written after ``/`` in the affix field.  ``line`` is the 1-based
    line number in the ``.aff`` file, a stable identifier for "which rule built this form".
    """

    kind: Literal["PFX", "SFX"]
    flag: str
    strip: str
    add: str
    condition: str
    cross: bool
    cont: frozenset[str] = frozenset()
    morph: tuple[str, ...] = ()
    line: int = 0
    _cond: re.Pattern[str] | None = field(default=None, compare=False, repr=False)
    _cond_len: int = field(default=0, compare=False, repr=False)

    def __post_init__(self) -> None:
        regex, length = _compile_condition(self.condition)
        if regex is not None:
            anchored = ("^" + regex) if self.kind == "PFX" else (regex + r"\Z")
            object.__setattr__(self, "_cond", re.compile(anchored))
        object.__setattr__(self, "_cond_len", length)

    @property
    def span(self) -> int:
        """How many characters at the word edge the rule looks at (condition or strip)."""
        return max(self._cond_len, len(self.strip))

    def applies_to(self, word: str, fullstrip: bool = False) -> bool:
        """Whether this rule can be added to ``word``.

        As in hunspell (``AffEntry::add``): the word must be longer than the stripped
        part (or at least as long with FULLSTRIP), at least as long as the condition, must
        end (suffix) / start (prefix) with the strip characters and match the condition.
        """
        n = len(word)
        if n < self._cond_len:
            return False
        ls = len(self.strip)
        if not (n > ls or (fullstrip and n == ls)):
            return False
        if self.kind == "SFX":
            if ls and not word.endswith(self.strip):
                return False
            if self._cond is None:
                return True
            return self._cond.search(word, n - self._cond_len) is not None
        if ls and not word.startswith(self.strip):
            return False
        if self._cond is None:
            return True
        return self._cond.match(word) is not None

    def apply(self, word: str) -> str:
        """Strip and add (the caller has checked :meth:`applies_to`)."""
        if self.kind == "SFX":
            return (word[: len(word) - len(self.strip)] if self.strip else word) + self.add
        return self.add + word[len(self.strip) :]


@dataclass(frozen=True, slots=True)
class DicEntry:
    """One ``.dic`` line: the stem, its decoded flags and any morphological fields."""

    word: str
    flags: frozenset[str]
    morph: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True, slots=True)
class Form:
    """A surface form with its provenance.

    ``affixes`` are the flags of the rules applied, in application order: suffixes from
    the stem outwards, then the prefix (e.g. ``("R",)`` or ``("A", "S", "k")``).
    ``rules`` holds the same rules as :class:`AffixRule` objects, so a caller can tell
    apart two rules of one flag (RLA-ES puts both ``amase`` and ``amarse`` under ``R``).
    ``rules`` is excluded from equality and hashing.
    """

    word: str
    stem: str
    affixes: tuple[str, ...]
    stem_flags: frozenset[str]
    rules: tuple[AffixRule, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class AffixFile:
    """A parsed ``.aff`` file (only what matters for generating forms, plus raw extras)."""

    path: str
    encoding: str  # hunspell name as written after SET (default ISO8859-1)
    flag_mode: FlagMode
    prefixes: Mapping[str, tuple[AffixRule, ...]]
    suffixes: Mapping[str, tuple[AffixRule, ...]]
    flag_aliases: tuple[frozenset[str], ...] = ()
    morph_aliases: tuple[str, ...] = ()
    special_flags: Mapping[str, str] = field(default_factory=dict)
    fullstrip: bool = False
    complexprefixes: bool = False
    directive_counts: Mapping[str, int] = field(default_factory=dict)
    unknown_directives: Mapping[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    @property
    def python_encoding(self) -> str:
        return _python_encoding(self.encoding)

    def flag(self, directive: str) -> str | None:
        """The flag given to a directive such as ``NEEDAFFIX``, or None."""
        if directive == "NEEDAFFIX" and "NEEDAFFIX" not in self.special_flags:
            return self.special_flags.get("PSEUDOROOT")
        return self.special_flags.get(directive)

    def decode_flags(self, text: str) -> frozenset[str]:
        """Decode a flag field (after ``/`` in the .dic or in an affix).

        With an ``AF`` table the field is a 1-based alias number.  Otherwise by FLAG mode
        (hunspell(5) "FLAG value"): ``char`` one flag per byte (so a UTF-8 file without
        ``FLAG UTF-8`` gets one flag per *byte*, as hunspell does), ``long`` two bytes per
        flag, ``num`` comma-separated decimal numbers, ``UTF-8`` one flag per character.
        Byte flags are represented as the Latin-1 decoding of their bytes, so ASCII flags
        read naturally.
        """
        if self.flag_aliases and text.strip().isdigit():
            idx = int(text)
            if 1 <= idx <= len(self.flag_aliases):
                return self.flag_aliases[idx - 1]
            return frozenset()
        return _decode_flags(text, self.flag_mode, self.python_encoding)


def _is_utf8(codec: str) -> bool:
    return codec.replace("_", "-").lower() in ("utf-8", "utf8")


def _decode_flags(text: str, mode: FlagMode, codec: str) -> frozenset[str]:
    if not text:
        return frozenset()
    if mode == "UTF-8":
        return frozenset(text)
    if mode == "num":
        out = set()
        for piece in text.split(","):
            piece = piece.strip()
            if piece.isdigit():
                out.add(str(int(piece)))
        return frozenset(out)
    if mode == "long":
        raw = text.encode(codec, errors="replace")
        return frozenset(raw[i : i + 2].decode("latin-1") for i in range(0, len(raw) - 1, 2))
    if _is_utf8(codec) and not text.isascii():
        # FLAG not set but SET UTF-8: hunspell reads one flag per *byte*
        return frozenset(text.encode("utf-8").decode("latin-1"))
    return frozenset(text)


def _decode_flag(text: str, mode: FlagMode, codec: str) -> str:
    """Decode a single flag (the class name in a PFX/SFX header, NEEDAFFIX's argument…).

    hunspell's ``decode_flag`` keeps only the first flag of the field.
    """
    if mode == "UTF-8":
        return text[:1]
    if mode == "num":
        head = text.split(",")[0].strip()
        return str(int(head)) if head.isdigit() else head
    if mode == "long":
        return text.encode(codec, errors="replace")[:2].decode("latin-1")
    if _is_utf8(codec) and not text[:1].isascii():
        return text.encode("utf-8")[:1].decode("latin-1")
    return text[:1]


def _compile_condition(cond: str) -> tuple[str | None, int]:
    """Translate a hunspell condition into a Python regex and its length in characters.

    hunspell(5): "Zero stripping or affix are indicated by zero. Zero condition is
    indicated by dot. Condition is a simplified, regular expression-like pattern, which
    must be met before the affix can be applied. (Dot signs an arbitrary character.
    Characters in braces sign an arbitrary character from the character subset. Dash
    hasn't got special meaning, but circumflex (^) next the first brace sets the
    complementer character set.)"  Returns ``(None, n)`` when every position is ``.``.
    """
    if cond in ("", ".", "0"):
        return None, (1 if cond == "." else 0)
    parts: list[str] = []
    length = 0
    all_dots = True
    i = 0
    while i < len(cond):
        c = cond[i]
        if c == "[":
            j = cond.find("]", i + 1)
            if j < 0:  # unterminated group: treat the rest literally
                j = len(cond)
            body = cond[i + 1 : j]
            neg = body.startswith("^")
            if neg:
                body = body[1:]
            chars = "".join(re.escape(ch) for ch in body)
            parts.append(f"[{'^' if neg else ''}{chars}]" if chars else ("." if neg else "(?!)"))
            all_dots = False
            i = j + 1
        elif c == ".":
            parts.append(".")
            i += 1
        else:
            parts.append(re.escape(c))
            all_dots = False
            i += 1
        length += 1
    if all_dots:
        return None, length
    return "".join(parts), length


# --------------------------------------------------------------------------------------
# .aff


def _sniff_encoding(raw: bytes) -> str:
    """Find the ``SET`` value before decoding (hunspell reads SET before anything else)."""
    for line in raw.splitlines():
        line = line.lstrip(b"\xef\xbb\xbf")
        if line.startswith(b"SET") and line[3:4].isspace():
            parts = line.split()
            if len(parts) >= 2:
                return parts[1].decode("ascii", errors="replace")
    return "ISO8859-1"


def _sniff_flag_mode(lines: list[str]) -> FlagMode:
    for line in lines:
        parts = line.split()
        if len(parts) >= 2 and parts[0] == "FLAG":
            value = parts[1]
            if value == "long":
                return "long"
            if value == "num":
                return "num"
            if value.upper() in ("UTF-8", "UTF8"):
                return "UTF-8"
    return "char"


def _split_affix_field(text: str) -> tuple[str, str | None]:
    """Split ``affix/flags`` (``\\/`` is a literal slash)."""
    i = 0
    while True:
        j = text.find("/", i)
        if j < 0:
            return text.replace("\\/", "/"), None
        if j > 0 and text[j - 1] == "\\":
            i = j + 1
            continue
        return text[:j].replace("\\/", "/"), text[j + 1 :]


def read_aff(path: str | Path) -> AffixFile:
    """Parse an ``.aff`` file (``.aff.gz`` accepted).

    Encoding: the ``SET`` value, default ISO8859-1 (hunspell(5) "SET encoding").  A UTF-8
    byte-order mark is ignored.  Lines whose first token is ``#`` or that are empty are
    comments.  Affix blocks start with a header ``PFX flag cross_product count`` followed
    by ``count`` rule lines; ``AF``/``AM`` tables likewise start with ``AF count``.
    Each directive is read by its entry in :data:`_DIRECTIVE_READERS`.
    """
    raw = _read_bytes(path)
    hs_encoding = _sniff_encoding(raw)
    lines, codec, warnings = _decode_aff(raw, hs_encoding)
    reader = _AffReader(lines, _sniff_flag_mode(lines), codec, warnings)
    reader.read()
    return reader.affix_file(str(path), hs_encoding)


def _decode_aff(raw: bytes, hs_encoding: str) -> tuple[list[str], str, list[str]]:
    """The lines of an ``.aff`` file, the codec that read them and a warning if it had to be Latin-1.

    An encoding Python does not know, or bytes it cannot decode, fall back to Latin-1 (every
    byte decodes), with a warning rather than an error: the rules are usually ASCII anyway.
    """
    codec = _python_encoding(hs_encoding)
    warnings: list[str] = []
    try:
        text = raw.decode(codec)
    except (UnicodeDecodeError, LookupError) as exc:
        warnings.append(f"cannot decode as {hs_encoding} ({exc}); read as Latin-1")
        codec = "iso8859-1"
        text = raw.decode(codec)
    if text.startswith(_BOM):
        text = text[1:]
    return text.splitlines(), codec, warnings


class _AffReader:
    """The state of one pass over an ``.aff`` file: a line cursor and what was read so far.

    Block directives (``PFX``/``SFX`` headers, ``AF``/``AM`` tables) move the cursor past
    their lines.  A reader in :data:`_DIRECTIVE_READERS` returns False when its line is not
    the directive's form (a header without a count, a flag directive without a flag): such a
    line is then only counted, and reported unknown unless the name is in
    :data:`IGNORED_DIRECTIVES` or :data:`USED_DIRECTIVES` (a NEEDAFFIX without its flag is).
    """

    def __init__(self, lines: list[str], flag_mode: FlagMode, codec: str, warnings: list[str]) -> None:
        self.lines = lines
        self.next = 0  # index of the next line to read
        self.flag_mode: FlagMode = flag_mode
        self.codec = codec
        self.warnings = warnings
        self.counts: Counter[str] = Counter()
        self.unknown: Counter[str] = Counter()
        self.special: dict[str, str] = {}
        self.aliases: list[frozenset[str]] = []
        self.morph_aliases: list[str] = []
        self.prefixes: dict[str, list[AffixRule]] = {}
        self.suffixes: dict[str, list[AffixRule]] = {}
        self.fullstrip = False
        self.complexprefixes = False

    def read(self) -> None:
        """Dispatch every directive line to its reader; count each directive and each block line."""
        lines = self.lines
        while self.next < len(lines):
            lineno = self.next + 1
            parts = lines[self.next].split()
            self.next += 1
            if not parts or parts[0].startswith("#"):
                continue
            key = parts[0]
            self.counts[key] += 1
            reader = _DIRECTIVE_READERS.get(key)
            handled = reader is not None and reader(self, parts, lineno)
            if not handled and key not in IGNORED_DIRECTIVES and key not in USED_DIRECTIVES:
                self.unknown[key] += 1

    def affix_file(self, path: str, hs_encoding: str) -> AffixFile:
        return AffixFile(
            path=path,
            encoding=hs_encoding,
            flag_mode=self.flag_mode,
            prefixes=MappingProxyType({k: tuple(v) for k, v in self.prefixes.items()}),
            suffixes=MappingProxyType({k: tuple(v) for k, v in self.suffixes.items()}),
            flag_aliases=tuple(self.aliases),
            morph_aliases=tuple(self.morph_aliases),
            special_flags=MappingProxyType(self.special),
            fullstrip=self.fullstrip,
            complexprefixes=self.complexprefixes,
            directive_counts=MappingProxyType(dict(self.counts)),
            unknown_directives=MappingProxyType(dict(self.unknown)),
            warnings=tuple(self.warnings),
        )

    def _block_lines(self, key: str, expected: int, maxsplit: int = -1) -> Iterator[tuple[int, list[str]]]:
        """The next ``expected`` non-comment lines of a block, split, with their line numbers.

        Comments and empty lines inside a block are skipped, not counted; each line read counts
        once more for ``key``.  Stops early at the end of the file.
        """
        lines = self.lines
        read = 0
        while read < expected and self.next < len(lines):
            lineno = self.next + 1
            parts = lines[self.next].split(None, maxsplit)
            self.next += 1
            if not parts or parts[0].startswith("#"):
                continue
            read += 1
            self.counts[key] += 1
            yield lineno, parts

    def _decode_cont(self, field_text: str) -> frozenset[str]:
        """Continuation classes: an ``AF`` alias number when there is a table, else flags."""
        if self.aliases and field_text.isdigit():
            idx = int(field_text)
            if 1 <= idx <= len(self.aliases):
                return self.aliases[idx - 1]
            self.warnings.append(f"bad AF alias index {field_text}")
            return frozenset()
        return _decode_flags(field_text, self.flag_mode, self.codec)

    def affix_block(self, parts: list[str], lineno: int) -> bool:
        """``PFX|SFX flag cross_product count`` and its ``count`` rule lines."""
        if len(parts) < 4 or not parts[3].isdigit():
            return False
        key = parts[0]
        flag = _decode_flag(parts[1], self.flag_mode, self.codec)
        cross = parts[2] == "Y"
        expected = int(parts[3])
        rules = (self.prefixes if key == "PFX" else self.suffixes).setdefault(flag, [])
        read = 0
        for rlineno, rparts in self._block_lines(key, expected):
            read += 1
            if rparts[0] != key or len(rparts) < 4:
                self.warnings.append(f"line {rlineno}: malformed {key} rule for {flag!r}")
                continue
            rules.append(self._affix_rule(key, flag, cross, rparts, rlineno))
        if read < expected:
            self.warnings.append(f"line {lineno}: {key} {flag!r} announces {expected} rules, found {read}")
        return True

    def _affix_rule(self, key: str, flag: str, cross: bool, rparts: list[str], rlineno: int) -> AffixRule:
        """``PFX|SFX flag strip affix[/flags] [condition [morph...]]`` (``0``: empty strip or affix)."""
        add_text, cont_text = _split_affix_field(rparts[3])
        return AffixRule(
            kind="PFX" if key == "PFX" else "SFX",
            flag=flag,
            strip="" if rparts[2] == "0" else rparts[2],
            add="" if add_text == "0" else add_text,
            condition=rparts[4] if len(rparts) >= 5 else ".",
            cross=cross,
            cont=self._decode_cont(cont_text) if cont_text else frozenset(),
            morph=tuple(rparts[5:]),
            line=rlineno,
        )

    def alias_table(self, parts: list[str], lineno: int) -> bool:
        """``AF count`` / ``AM count`` and the table's lines; only the first table of each counts."""
        key = parts[0]
        table: list[frozenset[str]] | list[str] = self.aliases if key == "AF" else self.morph_aliases
        if len(parts) < 2 or not parts[1].isdigit() or table:
            return False
        for _, aparts in self._block_lines(key, int(parts[1]), maxsplit=1):
            value = aparts[1].strip() if len(aparts) > 1 else ""
            if key == "AF":
                # hunspell takes only the second field: "AF ABC # comment" -> ABC
                self.aliases.append(_decode_flags(value.split()[0] if value else "", self.flag_mode, self.codec))
            else:
                self.morph_aliases.append(value)
        return True

    def flag_directive(self, parts: list[str], lineno: int) -> bool:
        """``NEEDAFFIX flag`` and the other :data:`FLAG_DIRECTIVES`: the last one given wins."""
        if len(parts) < 2:
            return False
        self.special[parts[0]] = _decode_flag(parts[1], self.flag_mode, self.codec)
        return True

    def fullstrip_on(self, parts: list[str], lineno: int) -> bool:
        self.fullstrip = True
        return True

    def complexprefixes_on(self, parts: list[str], lineno: int) -> bool:
        self.complexprefixes = True
        return True

    def already_read(self, parts: list[str], lineno: int) -> bool:
        """``SET`` and ``FLAG``: sniffed before the pass (they decide how every other line reads)."""
        return True

    def ignored(self, parts: list[str], lineno: int) -> bool:
        """A directive that does not change which forms exist (:data:`IGNORED_DIRECTIVES`): counted only."""
        return True


#: .aff directive → its reader (False: the line is not in the directive's form).  A name not
#: here is counted and reported in :attr:`AffixFile.unknown_directives`.
#: A line of an ignored directive's table (``REP a b`` after ``REP 2``) is one more ``REP``
#: line: hunspell's tables repeat the directive name on every line.
_DIRECTIVE_READERS: Mapping[str, Callable[[_AffReader, list[str], int], bool]] = MappingProxyType(
    {
        **{key: _AffReader.ignored for key in IGNORED_DIRECTIVES},
        **{key: _AffReader.flag_directive for key in FLAG_DIRECTIVES},
        "SET": _AffReader.already_read,
        "FLAG": _AffReader.already_read,
        "PFX": _AffReader.affix_block,
        "SFX": _AffReader.affix_block,
        "AF": _AffReader.alias_table,
        "AM": _AffReader.alias_table,
        "FULLSTRIP": _AffReader.fullstrip_on,
        "COMPLEXPREFIXES": _AffReader.complexprefixes_on,
    }
)


# --------------------------------------------------------------------------------------
# .dic

# hunspell (hashmgr.cxx) starts the morphological part at a tab, or at the first
# "<space>xx:" field (two characters then a colon, e.g. " po:noun").
_MORPH_START = re.compile(r"[ \t]+(?=[^ \t][^ \t]:)|\t")


def _split_dic_line(line: str) -> tuple[str, str, str]:
    """Split a .dic line into (word, flag field, morphological text).

    The first unescaped ``/`` that is not the first character separates word and flags
    (hunspell(5): "Dictionary words can contain also slashes with the ``\\/`` syntax").
    Spaces inside a word are kept ("Mala Pascua" is one entry); trailing ones are dropped.
    """
    m = _MORPH_START.search(line) if " " in line or "\t" in line else None  # (it starts at one of them)
    if m:
        head, morph = line[: m.start()], line[m.end() :].strip()
    else:
        head, morph = line, ""
    head = head.rstrip()
    j = 0
    while True:
        j = head.find("/", j)
        if j <= 0:
            if j == 0:  # a leading slash belongs to the word
                j = 1
                continue
            return head.replace("\\/", "/"), "", morph
        if head[j - 1] == "\\":
            j += 1
            continue
        return head[:j].replace("\\/", "/"), head[j + 1 :], morph


def iter_dic(path: str | Path, aff: AffixFile, stats: Counter[str] | None = None) -> Iterator[DicEntry]:
    """Yield the entries of a ``.dic`` file (``.dic.gz`` accepted), decoded with ``aff``.

    The first line is the approximate entry count (hunspell(5)); it is recorded in
    ``stats["declared_count"]`` when a Counter is passed, as are ``lines``, ``empty`` and
    ``trailing_whitespace``.  Morphological fields are kept in :attr:`DicEntry.morph`
    (an ``AM`` alias number is resolved).
    """
    lines, start = _dic_lines(path, aff, stats)
    for lineno in range(start, len(lines)):
        line = lines[lineno]
        if stats is not None:
            stats["lines"] += 1
        if not line.strip():
            if stats is not None:
                stats["empty"] += 1
            continue
        if stats is not None and line != line.rstrip() and "\t" not in line:
            stats["trailing_whitespace"] += 1
        word, flag_text, morph_text = _split_dic_line(line)
        flags = aff.decode_flags(flag_text) if flag_text else frozenset()
        morph: tuple[str, ...] = ()
        if morph_text:
            if aff.morph_aliases and morph_text.isdigit():
                idx = int(morph_text)
                if 1 <= idx <= len(aff.morph_aliases):
                    morph = tuple(aff.morph_aliases[idx - 1].split())
            else:
                morph = tuple(morph_text.split())
        yield DicEntry(word=word, flags=flags, morph=morph, line=lineno + 1)


def dic_words(path: str | Path, aff: AffixFile) -> list[str]:
    """The words of the entries :func:`iter_dic` yields, in order: its ``DicEntry.word`` without
    decoding flags or morphological fields, or making an entry per line (a dictionary's headwords)."""
    lines, start = _dic_lines(path, aff, None)
    return [_split_dic_line(line)[0] for line in islice(lines, start, None) if line.strip()]


def _dic_lines(path: str | Path, aff: AffixFile, stats: Counter[str] | None) -> tuple[list[str], int]:
    """The lines of a ``.dic`` file decoded with ``aff``, and where its entries start (after the count)."""
    raw = _read_bytes(path)
    try:
        text = raw.decode(aff.python_encoding)
    except UnicodeDecodeError:
        text = raw.decode(aff.python_encoding, errors="replace")
        if stats is not None:
            stats["decode_errors"] += 1
    if text.startswith(_BOM):
        text = text[1:]
    lines = text.splitlines()
    if not lines:
        return [], 0
    first = lines[0].split()
    if stats is not None and first and first[0].isdigit():
        stats["declared_count"] = int(first[0])
    return lines, 1 if first and first[0].isdigit() else 0


# --------------------------------------------------------------------------------------
# expansion


@dataclass(frozen=True)
class Report:
    """What happened while expanding: counts, skipped material, oddities of the files."""

    aff_path: str
    dic_path: str
    encoding: str
    flag_mode: str
    declared_count: int
    stems: int
    forms: int
    unique_words: int
    prefix_classes: int
    suffix_classes: int
    affix_rules: int
    skipped: Mapping[str, int]
    undefined_flags: Mapping[str, int]
    directive_counts: Mapping[str, int]
    ignored_directives: Mapping[str, int]
    unknown_directives: Mapping[str, int]
    dic_stats: Mapping[str, int]
    warnings: tuple[str, ...]
    seconds: float


class _Matcher:
    """Per-flag cache: which rules of a class apply to a word, keyed by the word's tail.

    A rule only looks at the last (suffix) or first (prefix) ``span`` characters of the
    word, plus whether the word is longer than that; so the answer depends only on that
    key.  A verb class of RLA-ES holds a great many rules, and most words share their tail
    with words read before, so the cache spares testing every rule on every word.
    """

    __slots__ = ("_cache", "_fullstrip", "_rules", "_span", "_suffix")

    def __init__(self, rules: tuple[AffixRule, ...], suffix: bool, fullstrip: bool) -> None:
        self._rules = rules
        self._suffix = suffix
        self._fullstrip = fullstrip
        self._span = max((r.span for r in rules), default=0)
        self._cache: dict[tuple[str, bool], tuple[AffixRule, ...]] = {}

    def __call__(self, word: str) -> tuple[AffixRule, ...]:
        span = self._span
        longer = len(word) > span
        if longer:
            edge = word[-span:] if self._suffix else word[:span]
            if span == 0:
                edge = ""
        else:
            edge = word
        key = (edge, longer)
        hit = self._cache.get(key)
        if hit is None:
            hit = tuple(r for r in self._rules if r.applies_to(word, self._fullstrip))
            self._cache[key] = hit
        return hit


# What a rule's continuation classes say to :meth:`_Expander._valid`, as bits (:meth:`_Expander._mark`).
_BAD, _VIRTUAL, _CIRCUMFIX_PREFIX, _CIRCUMFIX_SUFFIX = 1, 2, 4, 8
_CIRCUMFIX = _CIRCUMFIX_PREFIX | _CIRCUMFIX_SUFFIX

#: A form as the expander makes it: the word and the rules applied, in order (a :class:`Form` without
#: the entry's fields, which every form of the entry shares).
Chain = tuple[str, tuple[AffixRule, ...]]


class _Expander:
    """Generates the forms of dictionary entries for one affix file (rule caches are shared).

    The work is done on :data:`Chain` lists, one per entry: a dictionary has millions of forms, so no
    generator is resumed and no :class:`Form` made per form where a caller needs only the chains.
    """

    def __init__(self, aff: AffixFile) -> None:
        self.aff = aff
        self.pfx = {f: _Matcher(r, False, aff.fullstrip) for f, r in aff.prefixes.items()}
        self.sfx = {f: _Matcher(r, True, aff.fullstrip) for f, r in aff.suffixes.items()}
        self.needaffix = aff.flag("NEEDAFFIX")
        self.forbidden = aff.flag("FORBIDDENWORD")
        self.onlyincompound = aff.flag("ONLYINCOMPOUND")
        self.circumfix = aff.flag("CIRCUMFIX")
        self.bad_cont = frozenset(f for f in (self.forbidden, self.onlyincompound) if f)
        self.known = frozenset(aff.prefixes) | frozenset(aff.suffixes) | frozenset(aff.special_flags.values())
        # Normally the inner side is suffixes; with COMPLEXPREFIXES it is prefixes.
        self.inner, self.outer = (self.pfx, self.sfx) if aff.complexprefixes else (self.sfx, self.pfx)
        self._outer_flags = frozenset(self.outer)
        # the inner rules whose continuation classes name an outer class (by id; the rules live in ``aff``)
        inner_rules = aff.prefixes if aff.complexprefixes else aff.suffixes
        self._carriers = frozenset(
            id(r) for rules in inner_rules.values() for r in rules if not r.cont.isdisjoint(self._outer_flags)
        )
        # Without NEEDAFFIX, CIRCUMFIX, FORBIDDENWORD and ONLYINCOMPOUND every candidate is valid.
        self._checks = bool(self.needaffix or self.circumfix or self.bad_cont)
        # id of each rule → what its continuation classes say to those checks (_BAD, _VIRTUAL, …)
        self._marks = {
            id(r): self._mark(r) for rules in (*aff.prefixes.values(), *aff.suffixes.values()) for r in rules
        }
        # (prefixes or suffixes, flags) → the matchers of those flags, in flag order: a dictionary has
        # few distinct flag sets, so each set's flags are sorted once, not once per entry.
        self._ordered: dict[tuple[bool, frozenset[str]], tuple[_Matcher, ...]] = {}

    def _valid(self, stem_flags: frozenset[str], rules: tuple[AffixRule, ...]) -> bool:
        """Apply NEEDAFFIX, CIRCUMFIX, ONLYINCOMPOUND and FORBIDDENWORD to one candidate.

        NEEDAFFIX (hunspell(5); hunspell's tests needaffix*.aff): a stem with the flag needs
        an affix; an affix whose continuation classes contain it is "virtual", so a form
        needs at least one affix that is not virtual.  CIRCUMFIX: a circumfix-marked prefix
        needs a circumfix-marked suffix and vice versa.
        """
        if not rules:
            return not (self.needaffix and self.needaffix in stem_flags)
        marks, union, virtual = self._marks, 0, _VIRTUAL  # each rule's checks worked out once (_mark)
        for r in rules:
            m = marks[id(r)]
            union |= m
            virtual &= m
        if union & _BAD or virtual:  # a forbidden class named, or every affix virtual
            return False
        circumfix = union & _CIRCUMFIX
        return circumfix in (0, _CIRCUMFIX)  # a circumfix prefix and suffix together, or neither

    def _mark(self, rule: AffixRule) -> int:
        """What :meth:`_valid` reads of one rule: it names FORBIDDENWORD or ONLYINCOMPOUND (``_BAD``),
        it is virtual (NEEDAFFIX, ``_VIRTUAL``), a circumfix prefix or suffix."""
        mark = _BAD if self.bad_cont and not self.bad_cont.isdisjoint(rule.cont) else 0
        if self.needaffix and self.needaffix in rule.cont:
            mark |= _VIRTUAL
        if self.circumfix and self.circumfix in rule.cont:
            mark |= _CIRCUMFIX_PREFIX if rule.kind == "PFX" else _CIRCUMFIX_SUFFIX
        return mark

    def _level(self, matchers: Mapping[str, _Matcher], flags: Iterable[str], word: str) -> list[tuple[str, AffixRule]]:
        """``word`` with each rule of the classes ``flags`` (of ``matchers``) that applies, in flag order."""
        key = (matchers is self.pfx, flags if isinstance(flags, frozenset) else frozenset(flags))
        ordered = self._ordered.get(key)
        if ordered is None:
            ordered = self._ordered[key] = tuple(matchers[f] for f in sorted(flags) if f in matchers)
        return [(rule.apply(word), rule) for m in ordered for rule in m(word)]

    def forms(self, entry: DicEntry) -> Iterator[Form]:
        """Every form of ``entry``: see the module docstring for what is generated.

        Order: the bare stem, then for each inner chain (no affix, one suffix, twofold
        suffixes) the chain itself followed by the chain with each possible prefix.  Flags
        are visited in sorted order, so the output is deterministic.
        """
        w, flags = entry.word, entry.flags
        for word, rules in self.chains(entry):
            yield Form(word, w, tuple([r.flag for r in rules]), flags, rules)

    def chains(self, entry: DicEntry) -> list[Chain]:
        """The forms of ``entry`` as (word, rules), in the order of :meth:`forms`."""
        w, flags = entry.word, entry.flags
        if self.bad_cont and not self.bad_cont.isdisjoint(flags):
            return []
        out: list[Chain] = []
        checks = self._checks
        stem_outer = not flags.isdisjoint(self._outer_flags)  # the stem names an outer class
        carriers = self._carriers
        for word, rules in self._inner_chains(flags, w):
            if not checks or self._valid(flags, rules):
                out.append((word, rules))
            if stem_outer or (carriers and rules):
                self._outer_on_chain(out, w, flags, stem_outer, word, rules)
        return out

    def _outer_on_chain(
        self, out: list[Chain], w: str, flags: frozenset[str], stem_outer: bool, word: str, rules: tuple[AffixRule, ...]
    ) -> None:
        """Add to ``out`` the inner chain (``word`` built by ``rules``) with each outer affix it can take.

        The outer classes are the stem's plus those the chain's affixes name as continuation; cross
        product is required on both sides.
        """
        if not rules:
            self._with_outer_affix(out, w, flags, flags, word, rules)
            return
        if not all(r.cross for r in rules):
            return
        named = [r.cont for r in rules if id(r) in self._carriers]
        if named:
            self._with_outer_affix(out, w, flags, flags.union(*named), word, rules)
        elif stem_outer:
            self._with_outer_affix(out, w, flags, flags, word, rules)

    def _inner_chains(self, flags: frozenset[str], w: str) -> list[Chain]:
        """The bare stem, the stem with one inner affix, and with twofold inner affixes."""
        inner = self.inner
        chains: list[Chain] = [(w, ())]
        for w1, r1 in self._level(inner, flags, w):
            chains.append((w1, (r1,)))
            if r1.cont:
                for w2, r2 in self._level(inner, r1.cont, w1):
                    chains.append((w2, (r1, r2)))
        return chains

    def _with_outer_affix(
        self,
        out: list[Chain],
        w: str,
        flags: frozenset[str],
        outer_flags: frozenset[str],
        word: str,
        rules: tuple[AffixRule, ...],
    ) -> None:
        """Add to ``out`` an inner chain (``word`` built by ``rules``) with one outer affix added.

        The outer classes are those of ``outer_flags`` (the stem's flags, and the continuation classes
        of the chain's affixes that name one).
        """
        for w3, r3 in self._level(self.outer, outer_flags, word):
            if rules and not r3.cross:
                continue
            chain = (*rules, r3)
            if not self._checks or self._valid(flags, chain):
                out.append((w3, chain))
            # an outer affix may name inner classes the stem lacks (prefix-carried
            # continuation class, hunspell(5) "Affixes with continuation classes")
            if not rules and r3.cont and r3.cross:
                self._outer_carried(out, w, flags, r3)

    def _outer_carried(self, out: list[Chain], w: str, flags: frozenset[str], r3: AffixRule) -> None:
        """Add the stem with an inner affix of a class only the outer affix ``r3`` names, then ``r3``."""
        for w4, r4 in self._level(self.inner, r3.cont - flags, w):
            if not r4.cross or not r3.applies_to(w4, self.aff.fullstrip):
                continue
            chain = (r4, r3)
            if not self._checks or self._valid(flags, chain):
                out.append((r3.apply(w4), chain))


def entry_expander(aff: AffixFile) -> Callable[[DicEntry], Iterator[Form]]:
    """A function expanding entries with one shared rule cache (use it for many entries)."""
    return _Expander(aff).forms


def entry_chains(aff: AffixFile) -> Callable[[DicEntry], list[Chain]]:
    """:func:`entry_expander` for a caller that needs only each form's word and rules (:data:`Chain`):
    a whole dictionary is read without making a :class:`Form` per form."""
    return _Expander(aff).chains


def expand_entry(entry: DicEntry, aff: AffixFile) -> Iterator[Form]:
    """All forms of one dictionary entry (convenience; builds a fresh rule cache)."""
    return _Expander(aff).forms(entry)


def iter_expand(dic_path: str | Path, aff_path: str | Path | AffixFile) -> Iterator[Form]:
    """Stream the forms of a dictionary, stem by stem, in .dic order.

    Forms of a stem marked FORBIDDENWORD are never produced, but a word listed as
    forbidden is *not* subtracted from the forms of other stems here (that needs the whole
    list; :func:`expand` does it).
    """
    aff = aff_path if isinstance(aff_path, AffixFile) else read_aff(aff_path)
    ex = _Expander(aff)
    for entry in iter_dic(dic_path, aff):
        yield from ex.forms(entry)


def expand(dic_path: str | Path, aff_path: str | Path | AffixFile) -> tuple[list[Form], Report]:
    """Expand a whole dictionary; returns every form (with provenance) and a :class:`Report`.

    Words carried by FORBIDDENWORD entries are removed from the result, as hunspell
    rejects them whatever stem would generate them (hunspell(5) "FORBIDDENWORD flag").
    The list may hold the same word several times (from different stems or rules).
    """
    t0 = time.perf_counter()
    aff = aff_path if isinstance(aff_path, AffixFile) else read_aff(aff_path)
    ex = _Expander(aff)
    dic_stats: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    undefined: Counter[str] = Counter()
    forbidden_words: set[str] = set()
    out: list[Form] = []
    stems = 0
    for entry in iter_dic(dic_path, aff, dic_stats):
        stems += 1
        flags = entry.flags
        if flags:
            for f in flags - ex.known:
                undefined[f] += 1
            if ex.forbidden and ex.forbidden in flags:
                forbidden_words.add(entry.word)
                skipped["forbiddenword_stems"] += 1
                continue
            if ex.onlyincompound and ex.onlyincompound in flags:
                skipped["onlyincompound_stems"] += 1
                continue
            if ex.needaffix and ex.needaffix in flags:
                skipped["needaffix_bare_stems"] += 1
        out.extend(ex.forms(entry))
    if forbidden_words:
        before = len(out)
        out = [f for f in out if f.word not in forbidden_words]
        skipped["forbidden_forms_removed"] = before - len(out)
    return out, _expansion_report(aff, dic_path, out, stems, skipped, undefined, dic_stats, t0)


def _expansion_report(
    aff: AffixFile,
    dic_path: str | Path,
    out: list[Form],
    stems: int,
    skipped: Counter[str],
    undefined: Counter[str],
    dic_stats: Counter[str],
    t0: float,
) -> Report:
    """The :class:`Report` of an :func:`expand` that started at ``t0`` (``time.perf_counter``)."""
    ignored = {k: v for k, v in aff.directive_counts.items() if k in IGNORED_DIRECTIVES}
    return Report(
        aff_path=str(aff.path),
        dic_path=str(dic_path),
        encoding=aff.encoding,
        flag_mode=aff.flag_mode,
        declared_count=dic_stats.get("declared_count", 0),
        stems=stems,
        forms=len(out),
        unique_words=len({f.word for f in out}),
        prefix_classes=len(aff.prefixes),
        suffix_classes=len(aff.suffixes),
        affix_rules=sum(len(v) for v in aff.prefixes.values()) + sum(len(v) for v in aff.suffixes.values()),
        skipped=MappingProxyType(dict(skipped)),
        undefined_flags=MappingProxyType(dict(undefined)),
        directive_counts=aff.directive_counts,
        ignored_directives=MappingProxyType(ignored),
        unknown_directives=aff.unknown_directives,
        dic_stats=MappingProxyType({k: v for k, v in dic_stats.items() if k != "declared_count"}),
        warnings=aff.warnings,
        seconds=round(time.perf_counter() - t0, 3),
    )
