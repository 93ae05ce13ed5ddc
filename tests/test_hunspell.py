"""Tests for lextools.builder.hunspell: reading .aff/.dic files and expanding stems into forms.

The small dictionaries in tests/data/hunspell/ are hand-written, one hunspell feature each.
Where the `hunspell` program is installed, a test also checks that hunspell itself accepts every
form we generate and rejects the ones we must not generate.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
from pathlib import Path

import pytest

from lextools.builder import hunspell as hs

DATA = Path(__file__).parent / "data" / "hunspell"
VENDOR = Path(__file__).parent.parent / "sources" / "vendor" / "rla-es"


def words(name: str) -> set[str]:
    forms, _ = hs.expand(DATA / f"{name}.dic", DATA / f"{name}.aff")
    return {f.word for f in forms}


def by_word(name: str) -> dict[str, list[hs.Form]]:
    forms, _ = hs.expand(DATA / f"{name}.dic", DATA / f"{name}.aff")
    out: dict[str, list[hs.Form]] = {}
    for f in forms:
        out.setdefault(f.word, []).append(f)
    return out


# --- prefixes, suffixes, cross product, conditions, strip ----------------------------------


def test_basic_forms_latin1_default_encoding() -> None:
    assert words("basic") == {
        "happy", "happies", "unhappy", "unhappies",  # S strips y; U crosses with S
        "kind", "unkind", "rekind", "kindness",  # N and R are cross product N: no unkindness
        "try", "tries", "tryed",  # D: "0 d e" does not match, "0 ed [^e]" does
        "play", "plays",  # S's [^aeiou]y does not match "play"; Y's [aeiou]y does
        "café", "cafés",  # Latin-1 bytes decoded (no SET line: ISO8859-1)
        "passé", "passée",  # strip of a non-ASCII character
    }  # fmt: skip


def test_cross_product_requires_both_sides() -> None:
    w = words("basic")
    assert "unkindness" not in w and "rekindness" not in w
    assert "unhappies" in w


def test_provenance_order_and_stem_flags() -> None:
    f = by_word("basic")["unhappies"][0]
    assert f.stem == "happy"
    assert f.affixes == ("S", "U")  # suffix first, then the prefix
    assert f.stem_flags == frozenset("US")
    assert [r.kind for r in f.rules] == ["SFX", "PFX"]
    assert f.rules[0].strip == "y" and f.rules[0].add == "ies" and f.rules[0].condition == "[^aeiou]y"
    assert by_word("basic")["happy"][0].affixes == ()


def test_rule_line_numbers_identify_rules() -> None:
    aff = hs.read_aff(DATA / "basic.aff")
    lines = (DATA / "basic.aff").read_bytes().decode("latin-1").splitlines()
    for rules in (*aff.prefixes.values(), *aff.suffixes.values()):
        for r in rules:
            assert lines[r.line - 1].split()[:2] == [r.kind, r.flag]


# --- continuation classes ---------------------------------------------------------------


def test_twofold_suffixes_and_prefix() -> None:
    d = by_word("twofold")
    assert set(d) == {"drink", "drinkable", "drinkables", "undrink", "undrinkable", "undrinkables"}
    assert d["drinkables"][0].affixes == ("X", "Y")
    assert d["undrinkables"][0].affixes == ("X", "Y", "P")


def test_continuation_through_af_alias_and_am_alias() -> None:
    aff = hs.read_aff(DATA / "alias.aff")
    assert aff.flag_aliases == (frozenset({"Aa", "Bb"}), frozenset({"Bb"}), frozenset({"Cc"}))
    assert aff.morph_aliases == ("po:noun is:mas",)
    assert words("alias") == {"foo", "foos", "fooed", "fooedly", "bar", "bared", "baredly"}
    entries = list(hs.iter_dic(DATA / "alias.dic", aff))
    assert entries[0].flags == frozenset({"Aa", "Bb"})
    assert entries[0].morph == ("po:noun", "is:mas")


# --- flag formats -----------------------------------------------------------------------


def test_long_flags() -> None:
    aff = hs.read_aff(DATA / "long.aff")
    assert aff.flag_mode == "long"
    assert set(aff.suffixes) == {"Aa", "Bb", "A."}
    assert words("long") == {"foo", "foos", "fooer", "bar", "bardot", "baz", "bazs"}


def test_num_flags() -> None:
    aff = hs.read_aff(DATA / "num.aff")
    assert aff.flag_mode == "num"
    assert set(aff.suffixes) == {"101", "7", "70"}
    entries = list(hs.iter_dic(DATA / "num.dic", aff))
    assert entries[1].flags == frozenset({"7", "70"})  # "070" is flag 70, as atoi reads it
    assert words("num") == {"cat", "cats", "carry", "carried", "carrying"}


def test_utf8_flags_escaped_slash_spaces_and_morph() -> None:
    aff = hs.read_aff(DATA / "utf8.aff")
    assert aff.encoding == "UTF-8" and aff.flag_mode == "UTF-8"
    entries = {e.word: e for e in hs.iter_dic(DATA / "utf8.dic", aff)}
    assert set(entries) == {"amar", "ñandú", "km/h", "Mala Pascua", "ojo"}
    assert entries["ojo"].flags == frozenset("À") and entries["ojo"].morph == ("po:nom", "is:mas")
    assert words("utf8") == {"amar", "amarla", "amarlo", "ñandú", "ñandúes", "km/h", "Mala Pascua", "ojo"}


def test_latin1_and_utf8_files_give_the_same_forms() -> None:
    assert hs.read_aff(DATA / "latin1.aff").encoding == "ISO8859-1"
    assert words("latin1") == words("utf8")


def test_utf8_without_flag_utf8_uses_bytes() -> None:
    aff = hs.read_aff(DATA / "utf8bytes.aff")
    assert aff.flag_mode == "char"
    assert set(aff.suffixes) == {"\xc3"}  # first byte of é
    forms, report = hs.expand(DATA / "utf8bytes.dic", aff)
    assert {f.word for f in forms} == {"café", "cafés"}
    assert dict(report.undefined_flags) == {"\xa9": 1}  # second byte of é: no such class


# --- NEEDAFFIX, ONLYINCOMPOUND, FORBIDDENWORD, CIRCUMFIX ---------------------------------

NEEDAFFIX_GOOD = {
    "red", "prered", "redish", "redishly", "preredishly",
    "redvirtishly", "preredvirtish", "preredvirtishly", "virtpreredish", "virtpreredishly", "virtpreredvirtishly",
    "bluish", "bluishly", "bluvirtishly", "NASA", "preredish",
}  # fmt: skip
NEEDAFFIX_BAD = {"blu", "redvirtish", "virtprered", "virtpreredvirtish", "redinner", "gone", "goneish", "part"}


def test_needaffix_onlyincompound_forbiddenword() -> None:
    aff = hs.read_aff(DATA / "needaffix.aff")
    assert aff.flag("NEEDAFFIX") == "X" and aff.flag("KEEPCASE") == "K"
    got = {f.word for f in hs.iter_expand(DATA / "needaffix.dic", aff)}
    # streaming keeps preredish (generated by red/AC); expand() drops it: preredish/! forbids it
    assert got == NEEDAFFIX_GOOD
    forms, report = hs.expand(DATA / "needaffix.dic", aff)
    final = {f.word for f in forms}
    assert "preredish" not in final and final == got - {"preredish"}
    assert report.skipped["forbiddenword_stems"] == 2
    assert report.skipped["onlyincompound_stems"] == 1
    assert report.skipped["needaffix_bare_stems"] == 1
    assert report.skipped["forbidden_forms_removed"] >= 1


def test_preredly_needs_cross_product_prefix_and_suffix() -> None:
    # C (prefix) and A (suffix) are both Y, so pre+red+ish is generated; "preredly" would need
    # B directly on the stem, which red/AC does not have.
    assert "preredly" not in words("needaffix")


def test_circumfix() -> None:
    assert words("circumfix") == {"lieb", "liebt", "geliebt"}


def test_fullstrip_and_gz(tmp_path: Path) -> None:
    aff = "SET UTF-8\nSFX F Y 1\nSFX F go went go\n"
    (tmp_path / "a.aff").write_text(aff, encoding="utf-8")
    (tmp_path / "b.aff").write_text("FULLSTRIP\n" + aff, encoding="utf-8")
    with gzip.open(tmp_path / "a.dic.gz", "wt", encoding="utf-8") as fh:
        fh.write("1\ngo/F\n")
    with gzip.open(tmp_path / "a.aff.gz", "wt", encoding="utf-8") as fh:
        fh.write(aff)
    assert {f.word for f in hs.expand(tmp_path / "a.dic.gz", tmp_path / "a.aff")[0]} == {"go"}
    assert {f.word for f in hs.expand(tmp_path / "a.dic.gz", tmp_path / "a.aff.gz")[0]} == {"go"}
    assert {f.word for f in hs.expand(tmp_path / "a.dic.gz", tmp_path / "b.aff")[0]} == {"go", "went"}


def test_report_counts_unknown_and_ignored_directives(tmp_path: Path) -> None:
    (tmp_path / "x.aff").write_text(
        "SET UTF-8\nTRY abc\nREP 1\nREP a b\nFROBNICATE yes\nSFX S Y 1\nSFX S 0 s .\n", encoding="utf-8"
    )
    (tmp_path / "x.dic").write_text("3\ncat/S\ndog/SQ\n\n", encoding="utf-8")
    forms, report = hs.expand(tmp_path / "x.dic", tmp_path / "x.aff")
    assert {f.word for f in forms} == {"cat", "cats", "dog", "dogs"}
    assert dict(report.unknown_directives) == {"FROBNICATE": 1}
    assert report.ignored_directives["REP"] == 2 and report.ignored_directives["TRY"] == 1
    assert dict(report.undefined_flags) == {"Q": 1}
    assert report.declared_count == 3 and report.stems == 2 and report.forms == 4
    assert report.dic_stats["empty"] == 1


def test_condition_translation() -> None:
    rule = hs.AffixRule("SFX", "S", "", "s", "[^aeiou]o", True)
    assert rule.applies_to("perro") and not rule.applies_to("radio") and not rule.applies_to("o")
    pfx = hs.AffixRule("PFX", "P", "", "re", "[^r].", True)
    assert pfx.applies_to("hacer") and not pfx.applies_to("rehacer")


@pytest.mark.parametrize(
    ("name", "bad"),
    [
        ("basic", {"unkindness", "plaies", "tryd"}),
        ("twofold", {"drinks", "undrinks"}),
        ("long", {"foodot", "bars"}),
        ("num", {"carrys", "cating"}),
        ("alias", {"fooly", "bars"}),
        ("needaffix", NEEDAFFIX_BAD),
        ("circumfix", {"gelieb"}),
        ("utf8", {"ojola", "amares"}),
    ],
)
def test_hunspell_agrees(name: str, bad: set[str]) -> None:
    """hunspell accepts every generated form (bar spaces) and rejects the ones we must not make."""
    assert shutil.which("hunspell"), "the hunspell program is missing: scripts/install-test-programs installs it"
    generated = {w for w in words(name) if " " not in w and "/" not in w}
    aff = hs.read_aff(DATA / f"{name}.aff")
    encoding = aff.python_encoding
    stdin = "\n".join(sorted(generated | bad)) + "\n"
    out = subprocess.run(
        ["hunspell", "-d", str(DATA / name), "-l", "-i", aff.encoding],
        input=stdin.encode(encoding),
        capture_output=True,
        check=True,
    ).stdout.decode(encoding)
    rejected = set(out.split())
    assert rejected == bad


# --- the vendored Spanish dictionary (RLA-ES) --------------------------------------------

needs_vendor = pytest.mark.skipif(not (VENDOR / "es.aff").exists(), reason="RLA-ES not vendored")


def _mini_es(tmp_path: Path, stems: set[str]) -> Path:
    with gzip.open(VENDOR / "es.dic.gz", "rt", encoding="utf-8") as fh:
        lines = [ln for ln in fh.read().splitlines()[1:] if ln.split("/", 1)[0] in stems]
    dic = tmp_path / "mini.dic"
    dic.write_text(f"{len(lines)}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return dic


@needs_vendor
def test_rla_es_amar(tmp_path: Path) -> None:
    dic = _mini_es(tmp_path, {"amar"})
    forms, report = hs.expand(dic, VENDOR / "es.aff")
    assert report.encoding == "UTF-8" and report.flag_mode == "UTF-8"
    d: dict[str, list[hs.Form]] = {}
    for f in forms:
        d.setdefault(f.word, []).append(f)
    # ordinary forms, all from the verb class R: imperfect subjunctive in -se, imperative, voseo
    for w in ("amar", "amase", "amasen", "amad", "amás", "amá", "amando", "amaré"):
        assert w in d, w
    (amase,) = d["amase"]
    assert amase.affixes == ("R",) and (amase.rules[0].strip, amase.rules[0].add) == ("r", "se")
    # enclitics: whole classes (À = -la/-lo/-las/-los on the infinitive, Â = -le/-les, Ä = gerund + lo…)
    assert d["amarla"][0].affixes == ("À",)
    assert d["amarle"][0].affixes == ("Â",)
    assert d["amándola"][0].affixes == ("Ä",)
    # … but class R also carries two enclitic rules (infinitive + se, gerund + se)
    (amarse,) = d["amarse"]
    assert amarse.affixes == ("R",) and (amarse.rules[0].strip, amarse.rules[0].add) == ("", "se")
    assert d["amándose"][0].rules[0].add == "ándose"


@needs_vendor
def test_rla_es_homograph_keeps_both_provenances(tmp_path: Path) -> None:
    dic = _mini_es(tmp_path, {"velo", "ver"})
    forms, _ = hs.expand(dic, VENDOR / "es.aff")
    velos = {(f.stem, f.affixes) for f in forms if f.word == "velos"}
    assert ("velo", ("S",)) in velos  # plural of VELO
    assert ("ver", ("Ô",)) in velos  # ve + los: enclitic


@needs_vendor
@pytest.mark.slow
def test_rla_es_full_expansion() -> None:
    forms, report = hs.expand(VENDOR / "es.dic.gz", VENDOR / "es.aff")
    assert report.stems == report.declared_count == 70158
    assert report.forms == len(forms) == 747753
    assert report.unique_words == 713707
    assert not report.unknown_directives and not report.warnings
    assert dict(report.undefined_flags) == {"/": 1}  # "rosar/RED/" in the source


def test_symbols_and_prefixed_units_are_tagged_abbreviations(tmp_path: Path) -> None:
    """Dicollecte's conventions, as the fr descriptor names them: KEEPCASE ``||`` symbols and SI prefixes."""
    from lextools.builder.hunspell_source import read_hunspell
    from lextools.builder.read import headwords_of
    from lextools.core.sources import Source

    aff = tmp_path / "t.aff"
    aff.write_text("SET UTF-8\nFLAG long\nKEEPCASE ||\nPFX U. Y 1\nPFX U. 0 k .\nSFX S. Y 1\nSFX S. 0 s .\n")
    dic = tmp_path / "t.dic"
    dic.write_text("5\nft/||--\nbar/S.\nbar/||--\nm/U.\nmol/U.\n")
    options = {"symbol_flags": ["||"], "unit_symbol_flags": ["U."]}
    source = Source("t", "hunspell", {"aff": aff, "dic": dic}, {}, {}, options)
    tagged = {(w.raw, "abbreviation" in w.tags) for w in read_hunspell(source, headwords_of)}
    assert tagged == {
        ("ft", True),
        ("bar", True),
        ("bar", False),
        ("bars", False),  # BAR the word has its own entry
        ("m", True),
        ("km", True),
        ("mol", False),
        ("kmol", True),
    }


def test_plain_words_are_lower_case_without_marks_by_every_route() -> None:
    """plain_word's quick routes (ASCII, Latin-1 through a bytes table, up to U+02FF through a str
    table) give what decomposing (NFD) and deleting the marks gives, Ñ kept; plain_words gives the
    same for words joined and alone."""
    import unicodedata

    from lextools.builder.hunspell_source import plain_word, plain_words

    def by_nfd(word: str) -> str:
        decomposed = unicodedata.normalize("NFD", word.lower().replace("ñ", "\0"))
        return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("\0", "ñ")

    every = [chr(c) for c in range(1, 0x300)] + [
        "Ñandú",
        "AMÁBAMOS",
        "pingüino",
        "ça",
        "Œuvre",
        "ǅemal",
        "x\u0301",
        "ñ\0",
    ]
    words = [w for w in every if w != "\n"]
    assert [plain_word(w) for w in words] == [by_nfd(w) for w in words]
    assert plain_words(words) == [by_nfd(w) for w in words] and plain_words([]) == []
    latin1 = [w for w in words if max(w) < "\u0100"]  # the route of one text for them all
    assert plain_words(latin1) == [by_nfd(w) for w in latin1]
    assert plain_words(["a\nb", "Á"]) == ["a\nb", "a"]  # a word holding a line feed: one by one
