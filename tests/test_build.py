"""Build: reading lists, the report, metadata, atomic writes, refusing corrupt files."""

from __future__ import annotations

import json
from pathlib import Path

import dawg
import pytest
from conftest import build_small
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lextools import CorruptLexiconError, LexiconNotFoundError, load_edition
from lextools.builder.compile import compile_words, write_lexicon
from lextools.builder.filters import RULES, Candidate, Forms, SourceWord, first_rule_dropping, judge, rules_named
from lextools.builder.provenance import Provenance
from lextools.builder.study_files import sorted_alphagrams
from lextools.core import output_files as files_mod
from lextools.core.lexicon import FORMAT_VERSION, alphagram_order, alphagrammer, load_lexicon, read_metadata
from lextools.core.spelling import spell
from lextools.core.wordlist import read_words


@pytest.mark.parametrize("newline", [b"\n", b"\r", b"\r\n"])
@pytest.mark.parametrize("encoding", ["utf-8", "latin-1", "utf-8-sig"])
def test_word_lists_in_any_encoding_and_line_end(tmp_path: Path, encoding: str, newline: bytes) -> None:
    lines = ["# comment", "canción", "", "  ñandú  ", "pingüino 123", "# año"]
    path = tmp_path / "list.txt"
    path.write_bytes((newline.decode().join(lines) + newline.decode()).encode(encoding))
    assert list(read_words(path)) == ["canción", "ñandú", "pingüino 123"]  # one word per line: never cut


def test_a_list_without_comments_drops_blank_lines_and_the_spaces_around_a_word(tmp_path: Path) -> None:
    """No ``#`` in the file: no test per word for a comment, the same words."""
    path = tmp_path / "list.txt"
    path.write_text("\n  \ncasa\n\t cosa \u00a0\n\n\u2003ad hoc\n\n", encoding="utf-8")
    assert list(read_words(path)) == ["casa", "cosa", "ad hoc"]


def test_gzip_list(tmp_path: Path) -> None:
    import gzip

    path = tmp_path / "list.txt.gz"
    path.write_bytes(gzip.compress(b"casa\ncosa\n"))
    assert list(read_words(path)) == ["casa", "cosa"]


def test_report_counts_every_rule_with_examples() -> None:
    words = ["casa", "CASA", "casá", "kilo", "Madrid", "a", "casa-cuna", "wifi"]
    keys, report = compile_words(
        (SourceWord(w) for w in words), load_edition("es-fise"), rules_named(["one-tile", "proper-noun"])
    )
    assert keys == ["CASA"]
    assert report.read == 8 and report.kept == 1 and report.duplicates == 2
    ex = report.exclusions()
    assert ex["letter-without-tile"]["count"] == 2 and ex["letter-without-tile"]["examples"] == ["kilo", "wifi"]
    assert ex["proper-noun"] == {"description": ex["proper-noun"]["description"], "count": 1, "examples": ["Madrid"]}
    assert ex["one-tile"]["count"] == 1 and ex["cannot-spell"]["count"] == 1


def test_a_word_kept_by_any_form_is_kept() -> None:
    # "Casa" is dropped as a proper noun, "casa" keeps the word: homographs survive filters.
    keys, report = compile_words(
        [SourceWord("Casa"), SourceWord("casa")], load_edition("es-fise"), rules_named(["proper-noun"])
    )
    assert keys == ["CASA"] and report.dropped["proper-noun"].count == 0


def test_metadata_and_exclusion_report(lexicon_home: Path) -> None:
    meta = json.loads((lexicon_home / "es-fise.json").read_text("utf-8"))
    assert meta["format_version"] == FORMAT_VERSION and meta["edition"] == "es-fise"
    assert meta["words"] == len(load_lexicon("es-fise", lexicon_home))
    assert meta["counts"]["dropped"]["letter-without-tile"] == 5
    assert set(meta["tools"]) >= {"lextools", "dawg2", "DAWG-Python", "PyICU", "ICU", "python"}
    assert meta["checksum"] == meta["files"]["words"]["sha256"]
    report = json.loads((lexicon_home / "es-fise.exclusions.json").read_text("utf-8"))
    assert "KILO" in [w.upper() for w in report["rules"]["letter-without-tile"]["examples"]]


def test_dawg_is_readable_by_dawg2_too(lexicon_home: Path) -> None:
    meta = json.loads((lexicon_home / "es-fise.json").read_text("utf-8"))
    d = dawg.CompletionDAWG().load(str(lexicon_home / meta["files"]["words"]["name"]))
    assert "1IQUI2O" in d and "CA2E" in d


def test_missing_lexicon(tmp_path: Path) -> None:
    with pytest.raises(LexiconNotFoundError, match="lextools build es-fise"):
        load_lexicon("es-fise", tmp_path)


def _words_file(home: Path) -> Path:
    meta = json.loads((home / "es-fise.json").read_text("utf-8"))
    return home / meta["files"]["words"]["name"]


@pytest.mark.parametrize(
    "damage",
    [
        lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]),  # truncated
        lambda p: p.write_bytes(bytes([p.read_bytes()[0] ^ 1]) + p.read_bytes()[1:]),  # one bit flipped
        lambda p: p.write_bytes(b""),
    ],
    ids=["truncated", "bit-flip", "empty"],
)
def test_corrupt_dawg_is_refused(tmp_path: Path, damage) -> None:
    build_small(tmp_path, "es-fise")
    damage(_words_file(tmp_path))
    with pytest.raises(CorruptLexiconError, match="checksum"):
        load_lexicon("es-fise", tmp_path)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda m: m.update(format_version=99), "format version 99"),
        # a lexicon of lextools before the alphagram DAWG ("ALPHAGRAM KEY" index): rebuild it
        (lambda m: m.update(format_version=1), "format version 1, this lextools reads 2; rebuild"),
        (lambda m: m.pop("alphagram_order"), "no alphagram order; rebuild"),
        (lambda m: m.update(edition="en"), "describes edition"),
        (lambda m: m.pop("files"), "does not name"),
        (lambda m: m["files"]["words"].update(name="../../etc/passwd"), "not a file of the lexicon directory"),
    ],
)
def test_bad_metadata_is_refused(tmp_path: Path, edit, message: str) -> None:
    build_small(tmp_path, "es-fise")
    path = tmp_path / "es-fise.json"
    meta = json.loads(path.read_text("utf-8"))
    edit(meta)
    path.write_text(json.dumps(meta), "utf-8")
    with pytest.raises(CorruptLexiconError, match=message):
        load_lexicon("es-fise", tmp_path)


def test_half_written_metadata_is_refused(tmp_path: Path) -> None:
    build_small(tmp_path, "es-fise")
    path = tmp_path / "es-fise.json"
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(CorruptLexiconError, match="not valid JSON"):
        load_lexicon("es-fise", tmp_path)


def test_interrupted_build_leaves_the_previous_lexicon(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_small(tmp_path, "es-fise", ["casa", "cosa"])
    before = load_lexicon("es-fise", tmp_path).checksum
    files_before = sorted(p.name for p in tmp_path.iterdir())
    real = files_mod.write_temporary
    calls = []

    def failing(path: Path, data: bytes) -> Path:
        calls.append(path.name)
        if len(calls) == 2:  # after the words DAWG, while writing the anagram index
            raise KeyboardInterrupt
        return real(path, data)

    monkeypatch.setattr(files_mod, "write_temporary", failing)
    with pytest.raises(KeyboardInterrupt):
        build_small(tmp_path, "es-fise", ["casa", "cosa", "perro"])
    lex = load_lexicon("es-fise", tmp_path)
    assert lex.checksum == before and "PE3O" not in lex
    # no temporary file left, and not the new words DAWG either: nothing is renamed until all is written
    assert sorted(p.name for p in tmp_path.iterdir()) == files_before


def test_rebuild_swaps_and_removes_old_generations(tmp_path: Path) -> None:
    for words in (["casa"], ["casa", "cosa"], ["casa", "cosa", "perro"]):
        build_small(tmp_path, "es-fise", words)
    assert len(load_lexicon("es-fise", tmp_path)) == 3
    # the current build and the one it replaced stay; older ones are removed
    assert len(list(tmp_path.glob("es-fise-*.alphagrams.dawg"))) == 2
    assert len(list(tmp_path.glob("es-fise-*.ranks"))) == 2
    assert len(list(tmp_path.glob("es-fise-*.alphawords"))) == 2
    # (no word of 7 or 8 tiles here: every build's stems file has the same bytes, so the same name)
    assert [p.name for p in tmp_path.glob("es-fise-*.stems")] == [
        read_metadata(tmp_path, "es-fise")["files"]["stems"]["name"]
    ]


ALPHABET = ["A", "E", "O", "N", "Ñ", "CH", "LL", "RR", "C", "L", "R", "S"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sets(st.lists(st.sampled_from(ALPHABET), min_size=2, max_size=8).map(tuple), max_size=60))
def test_round_trip_word_set_to_dawg_and_back(tmp_path_factory: pytest.TempPathFactory, words: set) -> None:
    """Any set of tile sequences survives DAWG → load → iteration (Ñ and digraph tiles included)."""
    fise = load_edition("es-fise")
    home = tmp_path_factory.mktemp("rt")
    keys = sorted(fise.encode(w) for w in words)
    _, report = compile_words([], fise, [])
    write_lexicon(home, fise, keys, report)
    lex = load_lexicon("es-fise", home)
    assert {lex.edition.decode(k) for k in lex} == words
    assert all(fise.encode(w) in lex for w in words) and len(lex) == len(words)


def test_a_lowercase_wordlist_source_marks_capitals_as_acronyms(tmp_path: Path) -> None:
    """SCOWL writes words in lower case, so OK and pH are acronyms there (en drops them)."""
    import hashlib

    from lextools.builder.read import read_source
    from lextools.core.sources import Source

    words = tmp_path / "w.txt"
    words.write_text("cat\nOK\npH\n")
    digest = hashlib.sha256(words.read_bytes()).hexdigest()
    en = load_edition("en")
    for lowercase, expected in ((True, ["CAT"]), (False, ["CAT", "OK", "PH"])):
        source = Source("w", "wordlist", {"list": words}, {"list": digest}, {}, {"lowercase_source": lowercase})
        keys, _ = compile_words(read_source(source), en, rules_named(["acronym"]))
        assert [en.spelling(k) for k in keys] == expected


def test_built_files_get_the_umask_mode_not_mkstemps_0600(tmp_path: Path) -> None:
    """A service account or a container user reads lexicons it did not build."""
    import os

    old = os.umask(0o022)
    try:
        build_small(tmp_path, "es-fise", ["casa", "chiquillo"])
    finally:
        os.umask(old)
    modes = {p.name: p.stat().st_mode & 0o777 for p in tmp_path.iterdir()}
    named = {"es-fise.lock", "es-fise.provenance.tsv.gz"}  # and metadata, exclusions, two DAWGs, ranking, table, stems
    assert len(modes) == 9 and named <= set(modes) and set(modes.values()) == {0o644}, modes


def test_a_stale_temporary_of_either_dawg_is_removed(tmp_path: Path) -> None:
    """What a killed build leaves: the temporaries of the words DAWG and of the alphagram index."""
    from lextools.builder.lock import remove_stale_temporaries

    parts = (".dawg", ".alphagrams.dawg", ".ranks", ".alphawords", ".stems")
    names = [f".es-fise-{'a' * 16}{part}.{'b' * 16}.tmp" for part in parts]
    for name in names:
        (tmp_path / name).write_bytes(b"half")
    (tmp_path / "es-fise.json").write_bytes(b"{}")
    assert sorted(remove_stale_temporaries(tmp_path, "es-fise")) == sorted(names)
    assert [p.name for p in tmp_path.iterdir()] == ["es-fise.json"]


TAGS = sorted(
    {"proper-noun", "acronym", "abbreviation", "affix", "multiword", "enclitic", "pronominal-infinitive"}
    | {"invariable", "voseo", "voseo-allowed", "lowercase-source", "user-list"}
)


@settings(max_examples=300, deadline=None)
@given(
    order=st.permutations(sorted(RULES)),
    forms=st.lists(
        st.tuples(
            st.sampled_from(["casa", "Casa", "CASA", "pH", "a", "dvd", "ñandú", "ǅemal"]),
            st.sets(st.sampled_from(TAGS)),
        ),
        min_size=1,
        max_size=20,
    ),
)
def test_the_build_judge_drops_what_the_rules_drop_one_by_one(
    order: list[str], forms: list[tuple[str, set[str]]]
) -> None:
    """judge() asks the tags rules once per set of tags: the answers are first_rule_dropping's."""
    fise = load_edition("es-fise")
    rules = rules_named(order)
    first = judge(rules)
    for raw, tags in forms:
        c = Candidate(raw, spell(raw, fise), tags=frozenset(tags))
        assert first(c) == first_rule_dropping(c, rules), (raw, tags)


@settings(max_examples=200, deadline=None)
@given(
    keys=st.lists(st.text(alphabet=st.sampled_from("ABCÑ123XZ") | st.characters(), min_size=1, max_size=8), max_size=30)
)
@example(keys=["CBA", "BA", "AB", "A", "ÑA", "AÑ1", "1", "ZZZ", "Z"])  # alphagrams that are prefixes of others
def test_alphagrams_are_sorted_and_distinct_as_strings(keys: list[str]) -> None:
    """Latin-1 codes (every edition) and any others (fewer than 255 of them, as a row of bytes holds)."""
    order = alphagram_order(keys)
    assert list(sorted_alphagrams(keys, order)) == sorted(set(map(alphagrammer(order), keys)))


def test_a_source_lists_a_word_only_with_a_form_its_tags_admit() -> None:
    """A later source writing a kept word again, tagged so that a rule drops it (spaCy's table writes
    RLA-ES's words, tagged outside-paradigm), is not one of that word's sources."""
    es = load_edition("es-fise")
    words = [
        SourceWord("casa", source="rla-es"),
        SourceWord("casa", source="spacy-es", tags=frozenset({"outside-paradigm"})),
        SourceWord("casa", source="coes"),
        SourceWord("cebú", source="spacy-es"),
        SourceWord("cebú", source="coes"),
    ]
    provenance = Provenance()
    keys, _ = compile_words(words, es, rules_named(["outside-paradigm"]), provenance=provenance)
    assert keys == ["CASA", "CEBU"]
    assert provenance.sources == {"CASA": "coes,rla-es", "CEBU": "coes,spacy-es"}


def test_screening_a_batch_writes_the_files_judging_each_form_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build judges the forms no rule reading the form may drop by their tags alone (the rules'
    screens, lextools.builder.filters.Judge.screened): every file it writes is the one judging each
    form whole writes, byte for byte — words that the screens pick out (capitals, one tile, two tiles)
    among words they do not, in lists where the same word comes again in another writing."""
    import random

    from lextools.builder import build_from_lists
    from lextools.builder.filters import Judge
    from lextools.core.wordlist import WordList

    rng = random.Random(37)
    syllables = ["ca", "sa", "chi", "llo", "rra", "ñan", "dú", "ki", "wa", "pé", "ü", "b", "s", "ç", "œ", "x"]
    made = ["".join(rng.choices(syllables, k=rng.randint(1, 5))) for _ in range(3000)]
    caps = [w.capitalize() for w in made[:300]] + [w.upper() for w in made[300:500]] + ["pH", "bs", "as", "a", "DVD"]
    edition = load_edition("es-fise")
    rules = ["one-tile", "proper-noun", "acronym", "letter-plural"]

    def build(home: Path) -> dict[str, bytes]:
        one, two = caps + made[::2], made[1::3][::-1] + caps[::2]  # a capital before or after its word, or alone
        lists = [WordList.of(home / "one.txt", one, "UTF-8"), WordList.of(home / "two.txt", two, "UTF-8")]
        meta = build_from_lists(home, edition, lists, rules)
        names = [f["name"] for f in meta["files"].values()]
        return {n: (home / n).read_bytes() for n in [*names, "es-fise.exclusions.json", "es-fise.provenance.tsv.gz"]}

    screened = build(tmp_path / "screened")
    monkeypatch.setattr(Judge, "screened", lambda self, raws, keys: None)  # every form judged whole
    assert build(tmp_path / "whole") == screened


def test_a_large_sidecar_is_compressed_quicker_and_reads_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sidecar of QUICK_GZIP_BYTES or more is gzipped at QUICK_GZIP_LEVEL, a smaller one at 9 (its
    bytes as before); both read back as the same records."""
    import gzip

    from lextools.builder import provenance as provenance_mod
    from lextools.core.sidecar import read_sidecar

    es = load_edition("es-fise")
    words = [SourceWord(w, source=s) for w in ("casa", "cebú", "perro", "gato") for s in ("rla-es", "coes")]
    words += [SourceWord("Madrid", source="coes"), SourceWord("perro", source="spacy-es")]
    provenance = Provenance()
    compile_words(words, es, rules_named(["proper-noun"]), provenance=provenance)
    small = provenance.to_bytes("0" * 64)
    text = gzip.decompress(small)
    assert small == gzip.compress(text, compresslevel=9, mtime=0)
    monkeypatch.setattr(provenance_mod, "QUICK_GZIP_BYTES", 1)
    quick = provenance.to_bytes("0" * 64)
    assert quick == gzip.compress(text, compresslevel=provenance_mod.QUICK_GZIP_LEVEL, mtime=0) != small
    assert gzip.decompress(quick) == text and read_sidecar(quick)[0] == read_sidecar(small)[0]


@pytest.mark.parametrize("edition_name", ["es-fise", "es-na103"])
def test_the_review_of_short_words_screens_every_form_it_drops(edition_name: str) -> None:
    """The review's screen (``Rule.may_drop``) picks out every form the review drops — the words of its
    lengths and the words it drops at any length (CHOP: three tiles in es-fise, four in es-na103) — so a
    build may judge every other form by its tags alone, and it leaves longer words to their tags."""
    import random

    from lextools.builder.review import review_rule
    from lextools.core.reviewed import read_review
    from lextools.core.sources import load_source
    from lextools.core.spelling import spell_lines

    edition = load_edition(edition_name)
    source = load_source("es-short-words")
    rule = review_rule([source], edition)
    assert rule.may_drop is not None
    rng = random.Random(37)
    letters = ["a", "e", "o", "ch", "ll", "rr", "ñ", "p", "t", "s", "u", "í"]
    raws = [v.word.lower() for v in read_review(source) if "K" not in v.word and "W" not in v.word]
    raws += ["".join(rng.choices(letters, k=rng.randint(1, 6))) for _ in range(2000)]
    keys = spell_lines(raws, edition)
    assert None not in keys
    spelled = [key for key in keys if key is not None]
    screened = set(rule.may_drop(Forms(raws, spelled)))
    dropped = {
        i
        for i, (raw, key) in enumerate(zip(raws, spelled, strict=True))
        if rule.drops(Candidate.from_key(SourceWord(raw), key, edition))
    }
    assert dropped and dropped <= screened
    assert raws.index("chop") in dropped
    assert any(len(key) > 3 for i, key in enumerate(spelled) if i not in screened)  # longer words: by their tags


def test_a_sidecar_field_holding_a_tab_or_a_line_feed_is_cleaned() -> None:
    """The excluded forms' lines are joined whole, and cleaned field by field only when a field holds
    a tab or a line feed (a user's list may): each record keeps its six fields either way."""
    import gzip

    def excluded_lines(raws: list[str]) -> list[str]:
        provenance = Provenance()
        for i, raw in enumerate(raws):
            provenance.dropped(f"K{i}", "proper-noun", SourceWord(raw, source="list", stem="stem"))
        text = gzip.decompress(provenance.to_bytes("0" * 64)).decode("utf-8")
        return [line for line in text.splitlines() if not line.startswith("#")]

    assert excluded_lines(["Ana", "Eva"]) == [
        "K0\t-\tproper-noun\tlist\tAna\tstem",
        "K1\t-\tproper-noun\tlist\tEva\tstem",
    ]
    assert excluded_lines(["Ana\tMaría", "Eva\nLuz", "Sol"]) == [
        "K0\t-\tproper-noun\tlist\tAna María\tstem",
        "K1\t-\tproper-noun\tlist\tEva Luz\tstem",
        "K2\t-\tproper-noun\tlist\tSol\tstem",
    ]
