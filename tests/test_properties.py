"""Properties of normalise → spell → look up → check, for arbitrary text and every edition.

tests/test_spelling.py has the REFERENCE table and NFC = NFD for es-fise over Spanish letters; here
the input is any text (other scripts, combining marks, digits, brackets, digraphs, Ñ) and the
claims hold for all five editions and down to lexicon look-ups and ``lextools check``:

- nothing but a :class:`LexiconError` ever escapes (a user can type anything);
- a spelling is made of the edition's tiles, spells the normalised word, and is the one spelling
  that word has (digraph tiles are obligatory), so writing it in any notation and reading it back
  gives the same tiles;
- NFC and NFD input are the same input.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from lextools.builder.compile import compile_words
from lextools.builder.filters import Candidate, SourceWord, rules_named
from lextools.cli.main import app as cli
from lextools.core.edition import Edition, edition_names, load_edition
from lextools.core.errors import LexiconError, SpellingError
from lextools.core.lexicon import Lexicon, WordResult, load_lexicon
from lextools.core.spelling import (
    FISE_DIGITS,
    MAX_INPUT_CHARS,
    MAX_TILES,
    NOTATIONS,
    Spelling,
    fold,
    fold_lines,
    normalize,
    spell,
    spell_lines,
    spell_lines_and_long,
    write,
)
from lextools.features.explain import explain

EDITIONS = edition_names()
PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

#: Pieces a player (or a bad client) may type: digraphs in every case, Ñ composed and not, accents
#: and marks alone, FISE digits and other digits, brackets whole and broken, ligatures, K and W.
PIECES = [
    *("CH", "LL", "RR", "ch", "Ll", "rR", "Ñ", "ñ", "N\u0303", "n\u0303", "Ç", "Œ", "œ", "Æ", "ß", "ﬁ"),
    *("[CH]", "[LL]", "[RR]", "[ch]", "[Ñ]", "[N\u0303]", "[C]", "[H]", "[L]", "[", "]", "[]", "[ ]", "[XX]"),
    *("1", "2", "3", "0", "9", "٣", "²"),  # FISE digits, other digits, an Arabic-Indic three, a superscript
    *("\u0301", "\u0303", "\u0308", "\u0327", "\u200d", "\ufe0f"),  # combining marks and joiners alone
    *("á", "é", "í", "ó", "ú", "ü", "Á", "ÿ", "ṏ", "ệ", "K", "W", "k", "w", " ", "-", "'", "ı", "İ"),
]
#: Any character but a lone surrogate (which is not text: UTF-8 cannot even encode it).
ANY_CHAR = st.characters(exclude_categories=["Cs"])
TEXT = st.lists(st.one_of(st.sampled_from(PIECES), ANY_CHAR, st.sampled_from("ABCDEHILLNORSTUZ")), max_size=24).map(
    "".join
)
#: Mostly letters, so that a good share of the examples spell.
WORDISH = st.lists(
    st.one_of(st.sampled_from("ACEHILLNORRSTU"), st.sampled_from(PIECES[:28]), st.sampled_from("áéíóúüñ")),
    min_size=1,
    max_size=12,
).map("".join)
INPUT = st.one_of(TEXT, WORDISH)


def outcome(text: str, edition: Edition) -> Spelling | tuple[str, str]:
    """The spelling, or the error's (code, rule): what NFC and NFD input must agree on."""
    try:
        return spell(text, edition)
    except SpellingError as e:
        return (e.code, e.rule)


def canonical(word: str, edition: Edition) -> tuple[str, ...]:
    """The edition's one spelling of a string of its letters: longest tile first (digraphs are obligatory)."""
    tiles: list[str] = []
    i = 0
    while i < len(word):
        size = next(n for n in range(edition.longest_tile, 0, -1) if word[i : i + n] in edition.by_label)
        tiles.append(word[i : i + size])
        i += size
    return tuple(tiles)


def plain_letters(text: str, edition: Edition) -> str:
    """The input with notation taken away: a FISE digit becomes its tile's letters, brackets go."""
    digits = {t.code: t.label for t in edition.digraphs}
    return "".join(digits.get(c, c) for c in text if c not in "[]")


@pytest.mark.parametrize("name", EDITIONS)
@PROPERTY
@given(text=INPUT)
@example(text="C[H]ICO")  # a bracket splitting the CH tile (found by this test)
@example(text="L2")  # L·LL, which plain LLL reads as LL·L
def test_spell_is_total_and_its_tiles_spell_the_word(name: str, text: str) -> None:
    """Any text either spells or raises a SpellingError; a spelling is the edition's tiles, at most
    15 of them, spelling the normalised word in the edition's one way."""
    ed = load_edition(name)
    try:
        s = spell(text, ed)
    except SpellingError as e:
        assert e.reason and e.rule in {"cannot-spell", "letter-without-tile", "empty", "malformed", "too-long"}
        return
    assert 1 <= len(s.tiles) <= MAX_TILES
    assert all(t in ed.by_label for t in s.tiles)
    assert "".join(s.tiles) == s.word
    assert s.key == ed.encode(s.tiles) and len(s.key) == len(s.tiles) and ed.decode(s.key) == s.tiles
    assert s.tiles == canonical(s.word, ed), "a digraph tile was spelled with two tiles"
    assert s.word == normalize(plain_letters(text, ed), ed)
    assert s.input == text


@pytest.mark.parametrize("name", EDITIONS)
@PROPERTY
@given(text=INPUT)
def test_every_notation_reads_back_as_the_same_tiles(name: str, text: str) -> None:
    ed = load_edition(name)
    try:
        s = spell(text, ed)
    except SpellingError:
        return
    for notation in NOTATIONS:
        written = write(s.tiles, ed, notation)
        again = spell(written, ed)
        assert again.tiles == s.tiles, (notation, written)
        assert again.key == s.key and again.word == s.word


@pytest.mark.parametrize("name", EDITIONS)
@PROPERTY
@given(text=INPUT)
@example(text="[ṏ]" * 13)  # 39 characters in NFC, 65 in NFD: the length limit once told them apart
def test_nfc_and_nfd_input_give_the_same_result(name: str, text: str) -> None:
    """Also NFKC/NFKD against NFC: the ligature ﬁ is f·i, full-width Ａ is A."""
    ed = load_edition(name)
    nfc = outcome(unicodedata.normalize("NFC", text), ed)
    for form in ("NFD", "NFKC", "NFKD"):
        other = outcome(unicodedata.normalize(form, text), ed)
        if isinstance(nfc, Spelling) and isinstance(other, Spelling):
            assert (other.word, other.tiles, other.key) == (nfc.word, nfc.tiles, nfc.key), form
        elif form == "NFD":
            assert other == nfc, (form, other, nfc)
        else:  # compatibility forms may turn a non-letter into letters (² → 2): only NFD must agree
            pass


def test_digit_notation_is_only_for_spanish_digraphs() -> None:
    """What ``plain_letters`` assumes: a digit names a digraph tile, and only in Spanish editions."""
    for name in EDITIONS:
        ed = load_edition(name)
        assert {t.code: t.label for t in ed.digraphs}.items() <= FISE_DIGITS.items()


def test_length_limits_are_the_documented_ones() -> None:
    fise = load_edition("es-fise")
    assert spell("a" * MAX_TILES, fise).tiles == ("A",) * MAX_TILES
    with pytest.raises(SpellingError, match="board"):
        spell("a" * (MAX_TILES + 1), fise)
    with pytest.raises(SpellingError, match=f"longer than {MAX_INPUT_CHARS}"):
        spell("a" * (MAX_INPUT_CHARS + 1), fise)


# -- look-ups in built lexicons (conftest's small lists) ------------------------------------------


@pytest.fixture(scope="module")
def lexicons(lexicon_home: Path) -> dict[str, Lexicon]:
    return {name: load_lexicon(name, lexicon_home) for name in EDITIONS}


@pytest.mark.parametrize("name", EDITIONS)
@PROPERTY
@given(text=INPUT)
def test_lookup_never_raises_and_agrees_with_the_word_list(lexicons: dict[str, Lexicon], name: str, text: str) -> None:
    """A look-up answers for any text: valid exactly when the spelling's key is in the built list."""
    lex = lexicons[name]
    r = lex.lookup(text)
    assert r.input == text
    keys = set(lex)
    try:
        s = spell(text, lex.edition)
    except SpellingError as e:
        assert (r.valid, r.word, r.tiles, r.score, r.reason) == (False, None, (), None, e.reason)
        return
    assert (r.word, r.tiles) == (s.word, s.tiles)
    assert r.valid == (s.key in keys and len(s.tiles) >= 2)
    assert (r.reason is None) == r.valid
    assert r.score == lex.edition.score(s.tiles)
    nfd = lex.lookup(unicodedata.normalize("NFD", text))
    assert (nfd.valid, nfd.word, nfd.tiles) == (r.valid, r.word, r.tiles)


@pytest.mark.parametrize("name", EDITIONS)
@PROPERTY
@given(data=st.data())
def test_every_word_in_the_list_is_found_in_every_notation_and_case(
    lexicons: dict[str, Lexicon], name: str, data: st.DataObject
) -> None:
    lex = lexicons[name]
    key = data.draw(st.sampled_from(sorted(lex)))
    tiles = lex.edition.decode(key)
    notation = data.draw(st.sampled_from(NOTATIONS))
    written = write(tiles, lex.edition, notation)
    form = data.draw(st.sampled_from(["NFC", "NFD"]))
    text = unicodedata.normalize(form, data.draw(st.sampled_from([written, written.lower()])))
    r = lex.lookup(text)
    assert r.valid and r.tiles == tiles, (text, r)


# -- `lextools check`: exit 0 when every word is valid, 1 when any is not, the JSON is the look-ups --


@pytest.mark.parametrize("name", ["es-fise", "es-na103", "fr"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(INPUT, min_size=1, max_size=4))
def test_check_command_reports_each_word_and_exits_0_or_1(
    lexicon_home: Path, lexicons: dict[str, Lexicon], name: str, words: list[str]
) -> None:
    # a NUL cannot be a command-line argument; "-" means "read the words from standard input"
    words = [w for w in words if "\x00" not in w and w != "-"] or ["casa"]
    args = ["check", name, "--json", "--lang", "en", "--lexicons", str(lexicon_home), "--", *words]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    lex = lexicons[name]
    expected = [lex.lookup(w) for w in words]
    assert result.exit_code == (0 if all(r.valid for r in expected) else 1), result.output
    assert json.loads(result.stdout) == {"edition": name, "results": [told(lex, r, lexicon_home) for r in expected]}


def told(lex: Lexicon, result: WordResult, home: Path) -> dict:
    """A look-up as `check` prints it: an invalid word it can spell has the reason its build's
    provenance sidecar tells (:func:`lextools.features.explain.explain`), as the sidecar is there."""
    out = result.as_dict()
    if not result.valid and result.word is not None:
        out["reason"] = explain(lex, result.input, home).reason
    return out


def test_check_with_an_unknown_edition_or_lexicon_is_a_library_error(tmp_path: Path) -> None:
    """What cli.main turns into exit 2 (tests/test_cli.py runs main itself)."""
    result = CliRunner().invoke(cli, ["check", "xx", "casa", "--lexicons", str(tmp_path)])
    assert isinstance(result.exception, LexiconError)
    result = CliRunner().invoke(cli, ["check", "es-fise", "casa", "--lexicons", str(tmp_path)])
    assert isinstance(result.exception, LexiconError)


# -- what the properties found, pinned ---------------------------------------------------------------


@pytest.mark.parametrize("text", ["C[H]ICO", "[C][H]ICO", "[C]HICO", "CA[L]LE", "CA[L][L]E", "L2", "R3", "PE[R]RO"])
def test_a_notation_may_not_split_a_digraph_tile(text: str) -> None:
    """In es-fise C·H is always the CH tile: naming C and H apart is refused, not a second spelling."""
    with pytest.raises(SpellingError, match="digraph tiles are obligatory") as e:
        spell(text, load_edition("es-fise"))
    assert e.value.rule == "malformed"


def test_a_split_digraph_is_a_separate_tile_where_the_edition_has_no_digraph() -> None:
    assert spell("C[H]ICO", load_edition("es-na103")).tiles == ("C", "H", "I", "C", "O")
    assert spell("CA[L][L]E", load_edition("es-mattel2021")).tiles == ("C", "A", "L", "L", "E")
    assert spell("C1", load_edition("es-fise")).tiles == ("C", "CH")  # C·CH is how CCH is spelled


def test_the_length_limit_counts_composed_characters() -> None:
    """39 characters in NFC are 65 in NFD; both are the same 13 tiles. 65 composed ones are too long."""
    fise = load_edition("es-fise")
    assert spell(unicodedata.normalize("NFD", "[ṏ]" * 13), fise).tiles == ("O",) * 13
    with pytest.raises(SpellingError, match="longer than 64"):
        spell(unicodedata.normalize("NFD", "[ṏ]" * 22), fise)
    with pytest.raises(SpellingError, match="longer than 64"):
        spell("a" + "\u0301" * 300, fise)  # marks that compose with nothing still count


# -- the build's batch speller against spell() --------------------------------------------------

#: One input in the forms a list may hold it: as generated, composed, decomposed.
AS_LISTED = INPUT.flatmap(
    lambda t: st.sampled_from([t, unicodedata.normalize("NFC", t), unicodedata.normalize("NFD", t)])
)
#: Batches mixing words with bad input: digits, hyphens, K and W, both notations, NFD, too long.
BATCH = st.lists(
    st.one_of(
        AS_LISTED,
        st.sampled_from(["1IQUI2O", "[CH]IQUI[LL]O", "kilo", "web", "ad hoc", "anti-", "a1", "", " ", "a" * 65]),
        st.sampled_from(["chiquillo", "CALLE", "perro", "ñandú", "cancio\u0301n", "pingu\u0308ino", "œuf", "ǅemal"]),
    ),
    max_size=30,
)


@pytest.mark.parametrize("name", EDITIONS)
@PROPERTY
@given(texts=BATCH)
@example(texts=["chiquillo", "CALLE", "kilo", "1IQUI2O", "a", "casa", "line\nfeed"])
def test_a_batch_look_up_is_each_word_looked_up(lexicons: dict[str, Lexicon], name: str, texts: list[str]) -> None:
    """What a batch check relies on (lextools.features.answers.check): the same results as word by word."""
    lex = lexicons[name]
    assert lex.lookup_many(texts) == [lex.lookup(t) for t in texts]


@pytest.mark.parametrize("name", EDITIONS)
@PROPERTY
@given(texts=BATCH)
@example(texts=["1IQUI2O", "[CH]IQUI[LL]O", "chiquillo", "kilo", "cancio\u0301n", "ñandú", "L2", "C[H]ICO"])
@example(texts=["casa", "line\nfeed", "perro"])  # a word holding a line feed: the whole batch one by one
@example(texts=["chiquillo" * 2, "rr" * 8, "a" * 15, "a" * 16, "\u0301" * 3, "a" + "\u0301" * 70])
@example(texts=["desoxirribonucleicos", "anticonstitutionnellement", "kiwikiwikiwikiwi", "a1" * 9, "e\u0301" * 16])
def test_the_batch_speller_agrees_with_spell(name: str, texts: list[str]) -> None:
    """What a build relies on (lextools.builder.compile): a key from ``spell_lines`` is the key and word
    ``spell`` gives; every word ``spell`` refuses is left to it (None), so its error is the one
    reported; and a word of letters alone that ``spell`` accepts is spelled by the batch itself."""
    ed = load_edition(name)
    keys, long = spell_lines_and_long(texts, ed)
    assert keys == spell_lines(texts, ed) and len(keys) == len(texts)
    one_by_one = "\n" in "".join(texts)
    for i, (text, key) in enumerate(zip(texts, keys, strict=True)):
        got = outcome(text, ed)
        if i in long:  # counted by a build as too long, without asking spell()
            assert key is None and len(text.split()) == 1, text
            assert got == ("unspellable", "too-long"), (text, got)
        if key is not None:
            assert isinstance(got, Spelling), (text, key, got)
            assert (got.key, got.word) == (key, ed.spelling(key)), text
            assert Candidate.from_key(SourceWord(text), key, ed).spelling == got  # what a rule may read
        elif isinstance(got, Spelling) and not one_by_one:
            assert any(c.isdigit() or c in "[]" for c in text), f"{text!r} spells, but the batch left it to spell()"


@pytest.mark.parametrize("name", EDITIONS)
@PROPERTY
@given(texts=st.lists(AS_LISTED.filter(lambda t: "\n" not in t), max_size=30))
def test_folding_a_batch_is_folding_each_word(name: str, texts: list[str]) -> None:
    ed = load_edition(name)
    assert fold_lines("\n".join(texts), ed).split("\n") == [fold(t, ed) for t in texts] or not texts


@pytest.mark.parametrize("name", EDITIONS)
@settings(max_examples=60, deadline=None)
@given(texts=BATCH)
def test_a_build_counts_what_spell_says_word_by_word(name: str, texts: list[str]) -> None:
    """compile_words spells in batches: its keys, duplicates and exclusions (counts and examples, by
    rule) are those of spelling the source words one by one."""
    ed = load_edition(name)
    rules = rules_named(["one-tile"])
    keys, report = compile_words((SourceWord(t, source="t") for t in texts), ed, rules)
    kept: set[str] = set()
    one_tile: set[str] = set()
    dropped: dict[str, list[str]] = {}
    duplicates = 0
    for text in texts:
        if len(text.split()) > 1:
            dropped.setdefault("multiword", []).append(text)
            continue
        got = outcome(text, ed)
        if not isinstance(got, Spelling):
            dropped.setdefault(got[1], []).append(text)
        elif got.key in kept or got.key in one_tile:
            duplicates += 1
        elif len(got.tiles) < 2:
            one_tile.add(got.key)
        else:
            kept.add(got.key)
    assert keys == sorted(kept)
    assert (report.read, report.kept, report.duplicates) == (len(texts), len(kept), duplicates)
    assert report.dropped["one-tile"].count == len(one_tile)
    spelling_rules = {name: r.examples for name, r in report.dropped.items() if name != "one-tile"}
    assert spelling_rules == {rule: examples[:25] for rule, examples in dropped.items()}
    assert {n: r.count for n, r in report.dropped.items() if n != "one-tile"} == {r: len(e) for r, e in dropped.items()}
