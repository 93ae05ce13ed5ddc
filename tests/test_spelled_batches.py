"""The Spanish editions of one build spell each batch once (lextools.builder.compile.SpelledBatches)."""

from __future__ import annotations

import pytest

from lextools.builder.compile import SpelledBatches, batches_shared, compile_words
from lextools.builder.filters import SourceWord, rules_named
from lextools.builder.provenance import Provenance
from lextools.core.edition import load_edition
from lextools.core.errors import SpellingError
from lextools.core.spelling import respell_lines_and_long, spell, spell_lines, spell_lines_and_long

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
        (got, long), want = batches.keys(WORDS, edition), spell_lines(WORDS, edition)
        for word, key, expected in zip(WORDS, got, want, strict=True):
            # None leaves the word to spell(), as spell_lines may: it must then give the batch's key
            assert key == expected or (key is None and spell(word, edition).key == expected), (name, word)
        # the words left out only for their length: spell() refuses each as too long
        assert long and long == spell_lines_and_long(WORDS, edition)[1]
        for i in long:
            with pytest.raises(SpellingError) as refused:
                spell(WORDS[i], edition)
            assert refused.value.rule == "too-long"


def test_letters_are_respelled_with_digraphs_split_greedily() -> None:
    fise, mattel, na = (load_edition(n) for n in SPANISH)
    letters = "CHIQUILLO\nCARRO\nKILO\n\nCHACHACHACHACHACH"
    assert respell_lines_and_long(letters, fise)[0] == ["1IQUI2O", "CA3O", None, None, "1A1A1A1A1A1"]
    assert respell_lines_and_long(letters, mattel)[0] == ["CHIQUILLO", "CARRO", "KILO", None, None]
    assert respell_lines_and_long(letters, na)[0] == ["CHIQUI2O", "CA3O", "KILO", None, None]


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


def test_a_kept_source_gives_its_words_again_with_shared_affixes_and_tags(monkeypatch: pytest.MonkeyPatch) -> None:
    """A source two recipes read is read once; the second read gives equal words (past a chunk), each
    distinct affix list and tag set held once."""
    from lextools.builder import recipes
    from lextools.core.sources import load_source

    def words(source):  # type: ignore[no-untyped-def]
        for i in range(25_000):
            yield SourceWord(f"w{i}", source.name, f"s{i % 7}", (f"A{i % 3}",), frozenset({f"t{i % 5}"}))

    monkeypatch.setattr(recipes, "read_source", words)
    names = ["es-fise", "es-mattel2021"]
    shared = recipes.SharedSources(recipes.load_recipe(n) for n in names)
    source = load_source("rla-es")
    first, again = list(shared.read(source)), list(shared.read(source))
    assert again == first == list(words(source))
    assert len({id(w.affixes) for w in again}) == 3 and len({id(w.tags) for w in again}) == 5
