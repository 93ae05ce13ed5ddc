"""Tokenisation: spelling → tiles, and tiles → any of the three notations of Spanish tiles
(plain CHIQUILLO, FISE digits 1IQUI2O, brackets [CH]IQUI[LL]O).

Input may be written in any notation, even mixed:

- plain spelling, ``CHIQUILLO`` — digraph tiles are implied by the edition's rules;
- FISE's digit notation, ``1IQUI2O`` — 1 = CH, 2 = LL, 3 = RR (the tile's ``code``);
- bracketed tokens, ``[CH]IQUI[LL]O`` — the notation wolges' ``buildlex`` reads for Spanish.

A digit or a bracket names a tile, so it must be a tile of the edition: ``[CH]`` in es-na103, which
spells CH with C+H, is refused. Plain letters are split greedily into the edition's tiles; because
every multi-letter tile we ship is obligatory (FISE art. 11), greedy longest-match is the rule
itself, not a heuristic: CALLE is C·A·LL·E in es-fise and es-na103, C·A·L·L·E in es-mattel2021.

A build spells every word of its sources: :func:`spell_lines` spells a batch of words as one text
(folded by :func:`lextools.core.normalize.fold_lines`, its digraphs turned into their codes by one regular
expression substitution, checked by regular expressions over the whole text) and leaves to
:func:`spell` only the words that check flags, so every error, and the rule it is counted under,
is the one :func:`spell` gives. ``tests/test_properties.py`` checks the two agree on every edition.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from lextools.core.edition import Edition
from lextools.core.errors import SpellingError
from lextools.core.messages import message
from lextools.core.normalize import MAX_INPUT_CHARS, fold_lines, normalize, too_long

Notation = Literal["plain", "digits", "brackets"]
NOTATIONS: tuple[Notation, ...] = ("plain", "digits", "brackets")

#: What FISE's digit notation means, so we can say which tile an edition lacks.
FISE_DIGITS = {"1": "CH", "2": "LL", "3": "RR"}

_TOKEN = re.compile(r"\[([^\[\]]*)\]|(\d)|([^\[\]\d]+)|(.)", re.DOTALL)

#: The board has 15 squares.
MAX_TILES = 15


@dataclass(frozen=True)
class Spelling:
    """A word as an edition sees it."""

    input: str
    word: str  # plain spelling, upper case, diacritics dropped: CHIQUILLO
    tiles: tuple[str, ...]  # tile labels: ('CH', 'I', 'Q', 'U', 'I', 'LL', 'O')
    key: str  # lexicon key, one character per tile: '1IQUI2O'


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
    if text.isalpha():  # letters alone, the usual case: one run of letters, split as it comes
        word = normalize(text, edition)
        tiles = split_tiles(word, edition)
        if len(tiles) <= MAX_TILES:  # else the general path below says why not
            return Spelling(input=text, word=word, tiles=tuple(tiles), key=edition.encode(tiles))
    if too_long(text):
        raise SpellingError(text[:20] + "…", message("too_long_input", max=MAX_INPUT_CHARS), "malformed")
    if not text.strip():
        raise SpellingError(text, message("empty_word"), "empty")
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
    if len(tiles) > MAX_TILES:
        raise SpellingError(text, message("too_many_tiles", count=len(tiles), max=MAX_TILES), "too-long")
    if obligatory and len(tokens) > 1 and edition.longest_tile > 1:  # one run of letters is split right
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
    return Spelling(input=text, word="".join(tiles), tiles=tuple(tiles), key=edition.encode(tiles))


@dataclass(frozen=True)
class _LineSpeller:
    """What :func:`spell_lines` needs of an edition, compiled once."""

    digraphs: re.Pattern[str] | None  # the multi-letter labels, longest first; None without any
    codes: dict[str, str]  # multi-letter label → its code
    not_a_letter: re.Pattern[str]  # a character that is no letter of the edition (nor a line feed)


@cache
def _line_speller(edition: Edition) -> _LineSpeller | None:
    """None when a single letter has a code of its own (no shipped edition): keys are then not the
    letters with the digraphs replaced, and :func:`spell` spells every word."""
    if any(len(t.label) == 1 and t.code != t.label for t in edition.tiles):
        return None
    long_labels = sorted((t.label for t in edition.tiles if len(t.label) > 1), key=len, reverse=True)
    letters = "".join(sorted(edition.letters))
    return _LineSpeller(
        digraphs=re.compile("|".join(map(re.escape, long_labels))) if long_labels else None,
        codes={t.label: t.code for t in edition.tiles if len(t.label) > 1},
        not_a_letter=re.compile(rf"[^{re.escape(letters)}\n]"),
    )


def spell_lines(texts: Sequence[str], edition: Edition) -> list[str | None]:
    """The lexicon keys of many words at once, in order (the plain spelling is ``edition.spelling(key)``).

    A key is None where the batch cannot vouch for the word — a character that folds to no letter
    (digits, brackets, hyphens, spaces, K in es-fise), an empty word, more than 15 tiles, input over
    the length limit — and the caller asks :func:`spell` for the spelling or the error. Elsewhere the
    key is the one :func:`spell` gives: one run of letters is split greedily, longest tile first,
    which is replacing each digraph, leftmost first, by its code.
    """
    speller = _line_speller(edition)
    text = "\n".join(texts)
    if speller is None or text.count("\n") != len(texts) - 1:  # a word holding a line feed: one by one
        return [None] * len(texts)
    folded = fold_lines(text, edition)
    keys_text = folded
    if speller.digraphs is not None:
        codes = speller.codes
        keys_text = speller.digraphs.sub(lambda m: codes[m[0]], folded)
    keys = keys_text.split("\n")
    flagged = set(_lines(speller.not_a_letter, folded))
    if "" in keys:
        flagged.update(i for i, key in enumerate(keys) if not key)
    if max(map(len, keys)) > MAX_TILES:
        flagged.update(i for i, key in enumerate(keys) if len(key) > MAX_TILES)
    if max(map(len, texts)) > MAX_INPUT_CHARS:
        flagged.update(i for i, text in enumerate(texts) if len(text) > MAX_INPUT_CHARS)
    spelled: list[str | None] = list(keys)
    for i in flagged:
        spelled[i] = None
    return spelled


def _lines(pattern: re.Pattern[str], text: str) -> Iterator[int]:
    """The numbers (from 0) of the lines of ``text`` where ``pattern`` matches."""
    line = pos = 0
    for m in pattern.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        yield line


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


def split_tiles(letters: str, edition: Edition) -> list[str]:
    """Split normalised letters into tiles, longest tile first (digraph tiles are obligatory).

    ``Edition.tile_pattern`` is the edition's labels longest first, so ``findall`` is the greedy split.
    """
    tiles: list[str] = edition.tile_pattern.findall(letters)  # type: ignore[attr-defined]
    if sum(map(len, tiles)) != len(letters):  # normalize() lets through only tile letters: a bug
        i = next(i for i, c in enumerate(letters) if c not in edition.by_label)
        raise SpellingError(letters, message("not_a_tile", letter=repr(letters[i]), edition=edition.name))
    return tiles


def write(tiles: tuple[str, ...] | list[str], edition: Edition, notation: Notation = "plain") -> str:
    """Write tiles in a notation: ``plain`` CHIQUILLO, ``digits`` 1IQUI2O, ``brackets`` [CH]IQUI[LL]O."""
    if notation == "plain":
        return "".join(tiles)
    if notation == "digits":
        return edition.encode(tiles)
    if notation == "brackets":
        return "".join(f"[{t}]" if len(t) > 1 else t for t in tiles)
    raise ValueError(f"unknown notation {notation!r}; use one of {', '.join(NOTATIONS)}")
