"""Spelling: any way of typing a word → the edition's letters → its tiles, and tiles → any of the
three notations of Spanish tiles (plain CHIQUILLO, FISE digits 1IQUI2O, brackets [CH]IQUI[LL]O).

A word goes through this module one way, each step using only the ones above it:

1. **Limits.** Input much longer than a word is refused before any work (:func:`too_long`).
2. **Folding** (:func:`fold`), done with ICU transliterators (PyICU), built from rules per edition:

   a. ``NFKD`` splits every accented letter into base + combining marks, so NFC and NFD input (and
      compatibility forms such as the ``ﬁ`` ligature or full-width letters) end up identical;
   b. ``Upper`` applies full case mapping (ß → SS);
   c. letters the edition keeps whole are put back together before marks are dropped — Spanish
      keeps Ñ, which NFD would otherwise turn into N + U+0303 and then into a plain N (the FISE rules);
   d. Œ/Æ are split into OE/AE (French plays ŒUF as O·E·U·F);
   e. every remaining non-spacing mark is removed: accents, diaeresis, cedilla (CANCIÓN → CANCION,
      PINGÜINO → PINGUINO, FRANÇAIS → FRANCAIS).

3. **Letters** (:func:`normalize`): what folding leaves must be letters of the edition; anything
   else (digits, hyphens, apostrophes, spaces, letters of other alphabets) is refused with a reason
   a player can read.
4. **Tiles** (:func:`split_tiles`): letters are split greedily into the edition's tiles. Every
   multi-letter tile we ship is obligatory (FISE art. 11), so greedy longest-match is the rule
   itself, not a heuristic: CALLE is C·A·LL·E in es-fise and es-na103, C·A·L·L·E in es-mattel2021.
5. **Writing** (:func:`write`): tiles in any of the three notations.
6. **Notations** (:func:`spell`): input may be written in any notation, even mixed —

   - plain spelling, ``CHIQUILLO`` — digraph tiles are implied by the edition's rules;
   - FISE's digit notation, ``1IQUI2O`` — 1 = CH, 2 = LL, 3 = RR (the tile's ``code``);
   - bracketed tokens, ``[CH]IQUI[LL]O`` — the notation wolges' ``buildlex`` reads for Spanish.

   Text that is letters alone (the usual case) is folded once and split. Other text is cut into
   tokens first and each run of letters and each bracketed label goes through steps 1 to 4 on its
   own: folding the whole text would turn other digits (full-width, superscript) into FISE's. A
   digit or a bracket names a tile, so it must be a tile of the edition: ``[CH]`` in es-na103,
   which spells CH with C+H, is refused.
7. **Batches** (:func:`spell_lines`): a build spells every word of its sources, and a batch check
   every word it is sent. The batch is spelled as one text: folded by :func:`fold_lines` (ASCII
   upper-cased at once, each non-ASCII line transliterated on its own, since ICU's transliterator
   gets slower than linear on long strings), its digraphs turned into their codes by one regular
   expression substitution, checked by regular expressions over the whole text. Only the words the
   check flags are left to :func:`spell`, so every error, and the rule it is counted under, is the
   one :func:`spell` gives. ``tests/test_properties.py`` checks the two agree on every edition, and
   :func:`fold_lines` against :func:`fold`.
"""

from __future__ import annotations

import operator
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import compress, count
from typing import TYPE_CHECKING, Literal

from lextools.core.edition import Edition
from lextools.core.errors import SpellingError
from lextools.core.messages import Message, message

if TYPE_CHECKING:
    import icu

Notation = Literal["plain", "digits", "brackets"]
NOTATIONS: tuple[Notation, ...] = ("plain", "digits", "brackets")

#: What FISE's digit notation means, so we can say which tile an edition lacks.
FISE_DIGITS = {"1": "CH", "2": "LL", "3": "RR"}

#: The board has 15 squares.
MAX_TILES = 15

# -- 1. limits ------------------------------------------------------------------------------------

#: Longest input we try to read as a word: the board is 15 squares, so anything much longer is
#: not a word and only costs time. Counted in NFC, so a word typed decomposed is not "longer".
MAX_INPUT_CHARS = 64
#: Canonical decomposition turns one character into at most four (U+1FAF): input longer than this
#: is over the limit in any normalisation form, and is refused without normalising it.
_MAX_DECOMPOSED = 4 * MAX_INPUT_CHARS


def too_long(text: str) -> bool:
    """Is the text over :data:`MAX_INPUT_CHARS` once composed (NFC)? NFC and NFD input agree."""
    if len(text) <= MAX_INPUT_CHARS:
        return False
    return len(text) > _MAX_DECOMPOSED or len(unicodedata.normalize("NFC", text)) > MAX_INPUT_CHARS


def _too_long_error(text: str) -> SpellingError:
    return SpellingError(text[:20] + "…", message("too_long_input", max=MAX_INPUT_CHARS), "malformed")


# -- 2. folding -----------------------------------------------------------------------------------


@cache
def _transliterator(keep: frozenset[str], split_ligatures: bool) -> icu.Transliterator:
    import icu  # noqa: PLC0415  (ICU is for text that is not ASCII: a command checking CASA does without it)

    rules = [":: NFKD ;", ":: Upper ;"]
    for letter in sorted(keep):
        base_and_marks = unicodedata.normalize("NFD", letter)
        rules.append(f"{_escape(base_and_marks)} > {_escape(letter)} ;")
    if split_ligatures:
        rules += ["Œ > OE ;", "Æ > AE ;"]
    rules += [":: [:Nonspacing Mark:] Remove ;", ":: NFC ;"]
    return icu.Transliterator.createFromRules(
        "lextools-" + "".join(sorted(keep)), "\n".join(rules), icu.UTransDirection.FORWARD
    )


def _escape(text: str) -> str:
    return "".join(f"\\u{ord(c):04X}" for c in text)


def fold(text: str, edition: Edition) -> str:
    """Upper-case and drop diacritics per the edition, without checking what is left.

    ASCII text has nothing to decompose, compose or strip, and no letter an edition keeps whole
    or splits (Ñ, Œ, Æ): the rules above reduce to upper-casing it, done without ICU.
    """
    if text.isascii():
        return text.upper()
    return _transliterator(edition.keep, edition.split_ligatures).transliterate(text)


def fold_lines(text: str, edition: Edition) -> str:
    """:func:`fold` of each line of ``text`` (lines joined by LF), with no Python per line where it can.

    ASCII letters are upper-cased for the whole text at once (``bytes.upper`` touches only a-z, as
    ``str.upper`` does on ASCII); the Latin-1 letters of Spanish and French words (Á, ñ, ç) are folded
    for the whole text at once too, by ``bytes.translate`` with each one's fold (:func:`_latin_folds`);
    only a line holding another character (a combining mark, ß, a letter of another script) is
    transliterated on its own, as :func:`fold` does with it.
    """
    upper = text.encode("utf-8", "surrogatepass").upper().decode("utf-8", "surrogatepass")
    if upper.isascii():
        return upper
    table, other = _latin_folds(edition.keep, edition.split_ligatures)
    # A character beyond Latin-1 becomes "?" here; its line is transliterated whole below.
    folded = upper.encode("latin-1", "replace").translate(table).decode("latin-1")
    if other.search(upper) is None:
        return folded
    # ``text``, ``upper`` and ``folded`` have their characters at the same places (each step maps one
    # character to one): only the spans of the lines to transliterate are cut out, not every line.
    transliterate = _transliterator(edition.keep, edition.split_ligatures).transliterate
    parts, at = [], 0
    for m in other.finditer(upper):
        if m.start() < at:
            continue  # another of the line just transliterated
        start, end = upper.rfind("\n", 0, m.start()) + 1, upper.find("\n", m.end())
        end = len(upper) if end < 0 else end
        parts += [folded[at:start], transliterate(text[start:end])]
        at = end
    parts.append(folded[at:])
    return "".join(parts)


@cache
def _latin_folds(keep: frozenset[str], split_ligatures: bool) -> tuple[bytes, re.Pattern[str]]:
    """A ``bytes.translate`` table folding each Latin-1 character whose fold is one Latin-1 character,
    and a pattern matching every other non-ASCII character.

    Such a character folds the same wherever it stands: it decomposes into a letter (or a space) and
    marks, never into a mark that would join the character before it, and the marks are dropped (or
    put back into a kept letter, Ñ) within it. ASCII maps to itself (the text is upper-cased before).
    """
    transliterate = _transliterator(keep, split_ligatures).transliterate
    table = bytearray(range(256))
    simple = []
    for point in range(0x80, 0x100):
        folded = transliterate(chr(point))
        if len(folded) == 1 and ord(folded) < 0x100 and not unicodedata.combining(folded):
            table[point] = ord(folded)
            simple.append(chr(point))
    return bytes(table), re.compile(f"[^\\x00-\\x7f{re.escape(''.join(simple))}]")


# -- 3. letters -----------------------------------------------------------------------------------


def normalize(text: str, edition: Edition) -> str:
    """Return the word as the edition's letters, or raise :class:`SpellingError` saying why not.

    >>> from lextools import load_edition
    >>> normalize("canción", load_edition("es-fise"))
    'CANCION'
    >>> normalize("ñandú", load_edition("es-fise"))
    'ÑANDU'
    >>> normalize("œuf", load_edition("fr"))
    'OEUF'
    """
    if too_long(text):
        raise _too_long_error(text)
    word = fold(text, edition)
    if not word:
        raise SpellingError(text, message("empty_word"), "empty")
    if edition.letters.issuperset(word):
        return word
    for ch in word:
        if ch in edition.letters:
            continue
        if ch in edition.letters_without_tile:
            raise SpellingError(
                text, message("letter_without_tile", edition=edition.name, letter=ch), "letter-without-tile"
            )
        raise SpellingError(text, message("cannot_spell", what=_describe(ch), edition=edition.name), "cannot-spell")
    return word


def _describe(ch: str) -> Message:
    if ch.isspace():
        return message("what_space")
    if ch.isdigit():
        return message("what_digit", digit=ch)
    if ch in "-‐‑–—":
        return message("what_hyphen")
    if ch in "'’`´":
        return message("what_apostrophe")
    return message("what_char", char=repr(ch), name=unicodedata.name(ch, f"U+{ord(ch):04X}"))


# -- 4. tiles -------------------------------------------------------------------------------------


def split_tiles(letters: str, edition: Edition) -> list[str]:
    """Split normalised letters into tiles, longest tile first (digraph tiles are obligatory).

    ``Edition.tile_pattern`` is the edition's labels longest first, so ``findall`` is the greedy split.
    """
    tiles: list[str] = edition.tile_pattern.findall(letters)
    if sum(map(len, tiles)) != len(letters):  # normalize() lets through only tile letters: a bug
        i = next(i for i, c in enumerate(letters) if c not in edition.by_label)
        raise SpellingError(letters, message("not_a_tile", letter=repr(letters[i]), edition=edition.name))
    return tiles


def _named_tile(text: str, token: str, edition: Edition) -> str:
    """A tile named by a digit (FISE notation) or by a bracketed label."""
    if token.isdigit():
        tile = edition.by_code.get(token)
        if tile is not None and len(tile.label) > 1:
            return tile.label
        if token in FISE_DIGITS and edition.language == "es":
            label = FISE_DIGITS[token]
            raise SpellingError(text, message("digit_tile_missing", digit=token, label=label, edition=edition.name))
        raise SpellingError(text, message("digit_cannot_spell", digit=token, edition=edition.name), "cannot-spell")
    label = normalize(token, edition) if token.strip() else ""
    if label not in edition.by_label:
        raise SpellingError(text, message("bracket_not_tile", token=token, edition=edition.name))
    return label


# -- 5. writing -----------------------------------------------------------------------------------


def write(tiles: tuple[str, ...] | list[str], edition: Edition, notation: Notation = "plain") -> str:
    """Write tiles in a notation: ``plain`` CHIQUILLO, ``digits`` 1IQUI2O, ``brackets`` [CH]IQUI[LL]O."""
    if notation == "plain":
        return "".join(tiles)
    if notation == "digits":
        return edition.encode(tiles)
    if notation == "brackets":
        return "".join(f"[{t}]" if len(t) > 1 else t for t in tiles)
    raise ValueError(f"unknown notation {notation!r}; use one of {', '.join(NOTATIONS)}")


# -- 6. notations ---------------------------------------------------------------------------------

#: A bracketed token, a digit, a run of anything else, or a stray bracket.
_TOKEN = re.compile(r"\[([^\[\]]*)\]|(\d)|([^\[\]\d]+)|(.)", re.DOTALL)


@dataclass(frozen=True)
class Spelling:
    """A word as an edition sees it."""

    input: str
    word: str  # plain spelling, upper case, diacritics dropped: CHIQUILLO
    tiles: tuple[str, ...]  # tile labels: ('CH', 'I', 'Q', 'U', 'I', 'LL', 'O')
    key: str  # lexicon key, one character per tile: '1IQUI2O'


def _read_tokens(text: str, edition: Edition) -> tuple[list[str], int]:
    """The tiles a text in any notation names (each piece read in turn), and how many pieces it has."""
    tiles: list[str] = []
    tokens = _TOKEN.findall(text)
    for bracketed, digit, letters, stray in tokens:
        if letters:
            tiles += split_tiles(normalize(letters, edition), edition)
        elif digit:
            tiles.append(_named_tile(text, digit, edition))
        elif stray:
            raise SpellingError(text, message("unbalanced_bracket", bracket=repr(stray)), "malformed")
        else:
            tiles.append(_named_tile(text, bracketed, edition))
    return tiles, len(tokens)


def _too_many_tiles(text: str, tiles: list[str]) -> SpellingError:
    return SpellingError(text, message("too_many_tiles", count=len(tiles), max=MAX_TILES), "too-long")


def _check_no_split_digraph(text: str, tiles: list[str], edition: Edition) -> None:
    """Refuse tiles that spell letters the edition would split otherwise (``C[H]``: C·H, not CH)."""
    implied = split_tiles("".join(tiles), edition)
    if implied != tiles:
        raise SpellingError(
            text,
            message(
                "splits_digraph",
                written=write(tiles, edition, "brackets"),
                edition=edition.name,
                implied=write(implied, edition, "brackets"),
            ),
            "malformed",
        )


def spell(text: str, edition: Edition, *, obligatory: bool = True) -> Spelling:
    """Read a word in any notation and return its tiles, or raise :class:`SpellingError`.

    A word has one spelling in tiles: a digit or a bracket may name a digraph tile but may not split
    one (``C[H]ICO``, ``L2`` are refused in es-fise), so every notation of a spelling reads back as
    the same tiles and a lexicon never holds a key that plain spelling cannot reach. A rack is not a
    word and may hold C and H apart: :func:`lextools.core.search.parse_rack` passes ``obligatory=False``.

    >>> from lextools import load_edition
    >>> spell("calle", load_edition("es-fise")).tiles
    ('C', 'A', 'LL', 'E')
    >>> spell("1IQUI2O", load_edition("es-fise")).word
    'CHIQUILLO'
    >>> spell("calle", load_edition("es-mattel2021")).tiles
    ('C', 'A', 'L', 'L', 'E')
    """
    if not isinstance(text, str):
        raise SpellingError(repr(text), message("not_a_string"), "malformed")
    if text.isalpha():  # letters alone, the usual case: one run of letters, folded once and split
        word = normalize(text, edition)
        tiles = split_tiles(word, edition)
        if len(tiles) > MAX_TILES:
            raise _too_many_tiles(text, tiles)
        return Spelling(input=text, word=word, tiles=tuple(tiles), key=edition.encode(tiles))
    if too_long(text):
        raise _too_long_error(text)
    if not text.strip():
        raise SpellingError(text, message("empty_word"), "empty")
    tiles, tokens = _read_tokens(text, edition)
    if len(tiles) > MAX_TILES:
        raise _too_many_tiles(text, tiles)
    if obligatory and tokens > 1 and edition.longest_tile > 1:  # one run of letters is split right
        _check_no_split_digraph(text, tiles, edition)
    return Spelling(input=text, word="".join(tiles), tiles=tuple(tiles), key=edition.encode(tiles))


# -- 7. batches -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _LineSpeller:
    """What :func:`spell_lines` needs of an edition, compiled once."""

    digraphs: re.Pattern[str] | None  # the multi-letter labels, longest first; None without any
    codes: dict[str, str]  # multi-letter label → its code
    not_a_letter: re.Pattern[str]  # a character that is no letter of the edition (nor a line feed)
    letters: str  # the letters of the edition
    latin_letters: bytes  # those that Latin-1 has, as its bytes
    #: The labels and codes in the order ``str.replace`` may replace them one label after another, where
    #: that gives what ``digraphs`` does (no two labels can overlap in a text); None where it does not.
    replacements: tuple[tuple[str, str], ...] | None


@cache
def _line_speller(edition: Edition) -> _LineSpeller | None:
    """None when a single letter has a code of its own (no shipped edition): keys are then not the
    letters with the digraphs replaced, and :func:`spell` spells every word."""
    if any(len(t.label) == 1 and t.code != t.label for t in edition.tiles):
        return None
    long_labels = sorted((t.label for t in edition.tiles if len(t.label) > 1), key=len, reverse=True)
    letters = "".join(sorted(edition.letters))
    codes = {t.label: t.code for t in edition.tiles if len(t.label) > 1}
    return _LineSpeller(
        digraphs=re.compile("|".join(map(re.escape, long_labels))) if long_labels else None,
        codes=codes,
        not_a_letter=re.compile(rf"[^{re.escape(letters)}\n]"),
        letters=letters,
        latin_letters="".join(c for c in letters if ord(c) < 0x100).encode("latin-1"),
        replacements=tuple((label, codes[label]) for label in long_labels) if _apart(codes) else None,
    )


def _apart(codes: dict[str, str]) -> bool:
    """Can no two of these labels overlap or hold one another, and no code be part of a label? Then
    replacing each label in turn, everywhere (``str.replace``: leftmost first, without overlaps), gives
    what one leftmost-longest pass gives: CH, LL and RR, whose codes are digits."""
    labels = list(codes)
    return not any(
        a != b and (a in b or any(a.endswith(b[:n]) for n in range(1, len(b)))) for a in labels for b in labels
    ) and not any(code in label for code in codes.values() for label in labels)


def spell_lines(texts: Sequence[str], edition: Edition) -> list[str | None]:
    """The lexicon keys of many words at once, in order (the plain spelling is ``edition.spelling(key)``).

    A key is None where the batch cannot vouch for the word — a character that folds to no letter
    (digits, brackets, hyphens, spaces, K in es-fise), an empty word, more than 15 tiles, input over
    the length limit — and the caller asks :func:`spell` for the spelling or the error. Elsewhere the
    key is the one :func:`spell` gives: one run of letters is split greedily, longest tile first,
    which is replacing each digraph, leftmost first, by its code.
    """
    return spell_lines_and_long(texts, edition)[0]


def spell_lines_and_long(texts: Sequence[str], edition: Edition) -> tuple[list[str | None], set[int]]:
    """:func:`spell_lines`, and the places of the words it left out only for having more than 15
    tiles: :func:`spell` refuses each of those as too long (rule ``too-long``), so a build counts them
    without asking it (a default build meets over a hundred thousand)."""
    speller = _line_speller(edition)
    text = "\n".join(texts)
    if speller is None or text.count("\n") != len(texts) - 1:  # a word holding a line feed: one by one
        return [None] * len(texts), set()
    folded = fold_lines(text, edition)
    keys_text = folded
    if speller.replacements is not None:
        for label, code in speller.replacements:
            keys_text = keys_text.replace(label, code)
    elif speller.digraphs is not None:
        codes = speller.codes
        keys_text = speller.digraphs.sub(lambda m: codes[m[0]], folded)
    keys = keys_text.split("\n")
    flagged = set(_not_letters(folded, speller))
    if "" in keys:
        flagged.update(i for i, key in enumerate(keys) if not key)
    if max(map(len, texts)) > MAX_INPUT_CHARS:
        flagged.update(i for i, text in enumerate(texts) if len(text) > MAX_INPUT_CHARS)
    lengths = list(map(len, keys))  # (counted once: a batch of a long dictionary's words has a long one)
    long: set[int] = set()
    if max(lengths) > MAX_TILES:  # (no Python per key)
        long.update(compress(count(), map(MAX_TILES.__lt__, lengths)))
        long -= flagged
        flagged |= long
    spelled: list[str | None] = list(keys)
    for i in flagged:
        spelled[i] = None
    return spelled, long


def respellable(edition: Edition) -> bool:
    """Can the edition's keys be made from a text of its folded letters by replacing each digraph in
    turn (:func:`respell_lines_and_long`), and made back into letters the same way? Every letter is
    Latin-1 and no code is a letter (CH, LL, RR: 1, 2, 3); the shipped Spanish editions, with or
    without digraphs, and the others."""
    speller = _line_speller(edition)
    return (
        speller is not None
        and speller.replacements is not None
        and len(speller.latin_letters) == len(speller.letters)
        and not any(code in speller.letters for _, code in speller.replacements)
    )


def respell_lines_and_long(letters: str, edition: Edition) -> tuple[list[str | None], set[int]]:
    """:func:`spell_lines_and_long` of words given as folded letters, one word a line ("" for a word to
    spell on its own): the letters of a batch another edition that folds alike spelled (a build of the
    three Spanish editions folds each batch once). Only for an edition :func:`respellable`.

    Letters the edition has no tile for, an empty line and a word of more than 15 tiles are None (left
    to :func:`spell`, as :func:`spell_lines` leaves them; the last also among the places returned);
    every other word is split greedily into the edition's tiles by replacing each digraph, leftmost
    first, by its code."""
    speller = _line_speller(edition)
    assert speller is not None and speller.replacements is not None
    keys_text = letters
    for label, code in speller.replacements:
        keys_text = keys_text.replace(label, code)
    lines = keys_text.split("\n")
    others = letters.encode("latin-1", "replace").translate(None, speller.latin_letters)
    flagged = set(compress(count(), others.split(b"\n")))
    flagged.update(compress(count(), map(operator.not_, lines)))
    long = set(compress(count(), map(MAX_TILES.__lt__, map(len, lines)))) - flagged
    flagged |= long
    keys: list[str | None] = list(lines)
    for i in flagged:
        keys[i] = None
    return keys, long


def _not_letters(text: str, speller: _LineSpeller) -> Iterable[int]:
    """The numbers of the lines of ``text`` holding something that is no letter of the edition.

    Where the letters are Latin-1 (every shipped edition), ``bytes.translate`` deletes them from the
    text (any other character becoming a "?", no letter either), and the lines left with a character
    are those: no Python per line. Elsewhere a regular expression finds them."""
    if len(speller.latin_letters) < len(speller.letters):  # a letter beyond Latin-1
        return _lines(speller.not_a_letter, text)
    rest = text.encode("latin-1", "replace").translate(None, speller.latin_letters)
    return compress(count(), rest.split(b"\n"))


def _lines(pattern: re.Pattern[str], text: str) -> Iterator[int]:
    """The numbers (from 0) of the lines of ``text`` where ``pattern`` matches."""
    line = pos = 0
    for m in pattern.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        yield line
