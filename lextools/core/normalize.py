"""Normalisation: any way of typing a word → the upper-case letters an edition spells with.

Done with ICU transliterators (PyICU), built from rules per edition:

1. ``NFKD`` splits every accented letter into base + combining marks, so NFC and NFD input (and
   compatibility forms such as the ``ﬁ`` ligature or full-width letters) end up identical;
2. ``Upper`` applies full case mapping (ß → SS);
3. letters the edition keeps whole are put back together before marks are dropped — Spanish keeps
   Ñ, which NFD would otherwise turn into N + U+0303 and then into a plain N (the FISE rules);
4. Œ/Æ are split into OE/AE (French plays ŒUF as O·E·U·F);
5. every remaining non-spacing mark is removed: accents, diaeresis, cedilla (CANCIÓN → CANCION,
   PINGÜINO → PINGUINO, FRANÇAIS → FRANCAIS).

What remains must be letters of the edition; anything else (digits, hyphens, apostrophes, spaces,
letters of other alphabets) is refused with a reason a player can read.

A build folds hundreds of thousands of words: :func:`fold_lines` folds a newline-joined batch with
the same rules, word for word (``tests/test_properties.py`` checks it against :func:`fold`). It is not
one ICU call over the whole text: ICU's transliterator gets slower than linear on long strings (a
639,000-word list took 38 s in one call, 0.2 s word by word), so each non-ASCII line gets its own call.
"""

from __future__ import annotations

import unicodedata
from functools import cache

import icu

from lextools.core.edition import Edition
from lextools.core.errors import SpellingError
from lextools.core.messages import Message, message

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


@cache
def _transliterator(keep: frozenset[str], split_ligatures: bool) -> icu.Transliterator:
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
    """:func:`fold` of each line of ``text`` (lines joined by LF), with one call per non-ASCII line.

    ASCII letters are upper-cased for the whole text at once (``bytes.upper`` touches only a-z, as
    ``str.upper`` does on ASCII); each line with a non-ASCII character is then transliterated as
    given, which is what :func:`fold` does with it.
    """
    upper = text.encode("utf-8", "surrogatepass").upper().decode("utf-8", "surrogatepass")
    if upper.isascii():
        return upper
    transliterate = _transliterator(edition.keep, edition.split_ligatures).transliterate
    lines = upper.split("\n")
    for i, line in enumerate(text.split("\n")):
        if not line.isascii():
            lines[i] = transliterate(line)
    return "\n".join(lines)


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
        raise SpellingError(text[:20] + "…", message("too_long_input", max=MAX_INPUT_CHARS), "malformed")
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
