"""The Spanish editions of one build spell each batch once (lextools.builder.compile.SpelledBatches)."""

from __future__ import annotations

import pytest

from lextools.builder.compile import SpelledBatches, batches_shared, compile_words, respelled
from lextools.builder.filters import SourceWord, rules_named
from lextools.builder.provenance import Provenance
from lextools.core.edition import load_edition
from lextools.core.spelling import spell, spell_lines

SPANISH = ["es-fise", "es-mattel2021", "es-na103"]
# Words of our own: digraphs, K and W, Ñ and accents, capitals, notation, too long in one edition only.
WORDS = [
    "chiquillo", "calle", "perro", "kilo", "wifi", "ñandú", "canción", "Madrid", "ONU", "1ico", "[ch]ico",
    "ch", "ll", "a", "", "ad hoc", "anti-", "pingüino", "CHURRERÍA", "chachachachachachach",
    "llllllllllllllllll", "desoxirribonucleico", "electroencefalograma", "rr", "kárate", "ßa", "œuvre",
    "muchachada", "cacharrero", "x" * 70,
]  # fmt: skip


@pytest.mark.parametrize("first", SPANISH)
def test_later_editions_get_the_keys_spell_lines_gives(first: str) -> None:
    batches = SpelledBatches()
    batches.keys(WORDS, load_edition(first))
    for name in SPANISH:
        edition = load_edition(name)
        got, want = batches.keys(WORDS, edition), spell_lines(WORDS, edition)
        for word, key, expected in zip(WORDS, got, want, strict=True):
            # None leaves the word to spell(), as spell_lines may: it must then give the batch's key
            assert key == expected or (key is None and spell(word, edition).key == expected), (name, word)


def test_respelled_splits_digraphs_greedily() -> None:
    fise, mattel, na = (load_edition(n) for n in SPANISH)
    letters = "CHIQUILLO\nCARRO\nKILO\n\nCHACHACHACHACHACH"
    assert respelled(letters, fise) == ["1IQUI2O", "CA3O", None, None, "1A1A1A1A1A1"]
    assert respelled(letters, mattel) == ["CHIQUILLO", "CARRO", "KILO", None, None]
    assert respelled(letters, na) == ["CHIQUI2O", "CA3O", "KILO", None, None]


def test_a_build_of_three_editions_is_the_build_of_each() -> None:
    words = [SourceWord(w, "mine", tags=frozenset({"x"} if i % 3 else ())) for i, w in enumerate(WORDS * 2)]
    rules = rules_named(["one-tile", "proper-noun", "acronym", "multiword"])
    batches = SpelledBatches()
    for i, name in enumerate(SPANISH):
        edition = load_edition(name)
        alone, shared = Provenance(), Provenance()
        keys, report = compile_words(words, edition, rules, provenance=alone)
        batches.storing = i < len(SPANISH) - 1
        with batches_shared(batches):
            keys_shared, report_shared = compile_words(words, edition, rules, provenance=shared)
        assert keys_shared == keys
        assert report_shared.exclusions() == report.exclusions() and report_shared.as_dict() == report.as_dict()
        assert shared.to_bytes("c") == alone.to_bytes("c")


def test_contributions_follow_the_sources_as_they_change() -> None:
    """The counts behind Provenance.contributions are kept between calls, and counted again after a change."""
    es = load_edition("es-fise")
    provenance = Provenance()
    words = [SourceWord(w, s) for w, s in (("casa", "a"), ("perro", "a"), ("casa", "b"), ("Madrid", "b"))]
    compile_words(words, es, rules_named(["proper-noun"]), provenance=provenance)
    assert provenance.contributions("a") == {"words": 2, "only_here": 1, "removed": 0}
    assert provenance.contributions("b") == {"words": 1, "only_here": 0, "removed": 1}
    provenance.kept("GATO", SourceWord("gato", "b"))
    assert provenance.contributions("b") == {"words": 2, "only_here": 1, "removed": 1}
