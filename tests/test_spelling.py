"""Normalisation and tokenisation: REFERENCE §1's table, notations, K/W, NFC = NFD."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lextools import SpellingError, load_edition, spell
from lextools.core.spelling import normalize, write

FISE = load_edition("es-fise")


@pytest.mark.parametrize(
    ("text", "word", "tiles"),
    [
        ("CALLE", "CALLE", ("C", "A", "LL", "E")),
        ("PERRO", "PERRO", ("P", "E", "RR", "O")),
        ("CHIQUILLO", "CHIQUILLO", ("CH", "I", "Q", "U", "I", "LL", "O")),
        ("canción", "CANCION", ("C", "A", "N", "C", "I", "O", "N")),
        ("pingüino", "PINGUINO", ("P", "I", "N", "G", "U", "I", "N", "O")),
        ("ñandú", "ÑANDU", ("Ñ", "A", "N", "D", "U")),
        ("carro", "CARRO", ("C", "A", "RR", "O")),
        ("cha", "CHA", ("CH", "A")),
        ("lle", "LLE", ("LL", "E")),
    ],
)
def test_reference_tokenisation_table(text: str, word: str, tiles: tuple[str, ...]) -> None:
    s = spell(text, FISE)
    assert (s.word, s.tiles) == (word, tiles)


def test_chiquillo_is_a_seven_tile_bingo_worth_22() -> None:
    s = spell("chiquillo", FISE)
    assert len(s.tiles) == 7 and FISE.score(s.tiles) == 22


def test_n_and_enye_are_different_letters() -> None:
    assert spell("año", FISE).key != spell("ano", FISE).key
    assert spell("año", FISE).tiles == ("A", "Ñ", "O")


@pytest.mark.parametrize(
    ("edition", "calle", "chico"),
    [
        ("es-fise", ("C", "A", "LL", "E"), ("CH", "I", "C", "O")),
        ("es-na103", ("C", "A", "LL", "E"), ("C", "H", "I", "C", "O")),
        ("es-mattel2021", ("C", "A", "L", "L", "E"), ("C", "H", "I", "C", "O")),
    ],
)
def test_digraph_rules_per_spanish_edition(edition: str, calle: tuple, chico: tuple) -> None:
    ed = load_edition(edition)
    assert spell("calle", ed).tiles == calle
    assert spell("chico", ed).tiles == chico


@pytest.mark.parametrize(
    ("edition", "word", "playable"),
    [
        ("es-fise", "kilo", False),
        ("es-fise", "wifi", False),
        ("es-na103", "kilo", True),
        ("es-na103", "wifi", True),
        ("es-mattel2021", "kilo", True),
        ("es-mattel2021", "wifi", False),
        ("en", "kiwi", True),
        ("fr", "wagon", True),
    ],
)
def test_k_and_w_per_edition(edition: str, word: str, playable: bool) -> None:
    ed = load_edition(edition)
    if playable:
        assert spell(word, ed).word == word.upper()
    else:
        letter = "K" if "k" in word else "W"
        with pytest.raises(SpellingError, match=f"no {letter} tile") as e:
            spell(word, ed)
        assert e.value.rule == "letter-without-tile"


def test_french_and_english_normalisation() -> None:
    fr, en = load_edition("fr"), load_edition("en")
    assert spell("œuf", fr).tiles == ("O", "E", "U", "F")
    assert spell("façade", fr).word == "FACADE" and spell("naïve", fr).word == "NAIVE"
    assert spell("café", en).word == "CAFE"
    assert spell("señor", en).word == "SENOR"  # Ñ is kept only where it is a tile


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("rock-and-roll", "hyphen"),
        ("l'eau", "apostrophe"),
        ("dos palabras", "space"),
        ("abc7", "digit 7"),
        ("Ωμέγα", "GREEK"),
    ],
)
def test_unspellable_characters_are_refused_with_a_reason(text: str, what: str) -> None:
    with pytest.raises(SpellingError, match=what):
        spell(text, load_edition("fr"))


@pytest.mark.parametrize("text", ["", "   ", "[CH", "CH]", "x" * 65, "a" * 16])
def test_malformed_words(text: str) -> None:
    with pytest.raises(SpellingError):
        spell(text, FISE)


def test_notations_read_and_written() -> None:
    tiles = spell("chiquillo", FISE).tiles
    assert spell("1IQUI2O", FISE).tiles == tiles
    assert spell("[CH]IQUI[LL]O", FISE).tiles == tiles
    assert spell("[ch]iqui2o", FISE).tiles == tiles
    assert write(tiles, FISE, "plain") == "CHIQUILLO"
    assert write(tiles, FISE, "digits") == "1IQUI2O"
    assert write(tiles, FISE, "brackets") == "[CH]IQUI[LL]O"
    assert spell("ca3o", FISE).word == "CARRO"


def test_a_notation_naming_a_tile_the_edition_lacks_is_refused() -> None:
    na = load_edition("es-na103")
    with pytest.raises(SpellingError, match="no CH tile"):
        spell("1ICO", na)
    with pytest.raises(SpellingError, match="not a tile"):
        spell("[CH]ICO", na)
    assert spell("2AMA", na).tiles == ("LL", "A", "M", "A")
    with pytest.raises(SpellingError, match="digit"):
        spell("1ICO", load_edition("en"))


SPANISH = "abcdefghijlmnñopqrstuvxyzáéíóúü"


@given(st.text(alphabet=SPANISH + "ÁÉÍÓÚÑÜ", min_size=1, max_size=15))
def test_nfc_and_nfd_agree(word: str) -> None:
    nfc, nfd = unicodedata.normalize("NFC", word), unicodedata.normalize("NFD", word)
    assert spell(nfc, FISE).tiles == spell(nfd, FISE).tiles
    assert normalize(nfd, FISE) == normalize(nfc, FISE)


@given(st.text(alphabet=SPANISH, min_size=1, max_size=15))
def test_tiles_spell_the_word_and_round_trip_through_every_notation(word: str) -> None:
    s = spell(word, FISE)
    assert "".join(s.tiles) == s.word
    for notation in ("plain", "digits", "brackets"):
        assert spell(write(s.tiles, FISE, notation), FISE).tiles == s.tiles
