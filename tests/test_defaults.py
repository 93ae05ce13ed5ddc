"""The default lexicons built from the open sources (build/ recipes), against REFERENCE §2.

Building es-fise from RLA-ES takes about half a minute, so it is built once per session.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lextools import load_edition
from lextools.builder.filters import RULES
from lextools.builder.recipes import build_default, load_recipe
from lextools.core.errors import SourceError
from lextools.core.lexicon import Lexicon, load_lexicon
from lextools.core.search import words_of_length
from lextools.core.sources import load_source, source_names, verify
from lextools.features.explain import explain

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def fise(default_home: Path) -> Lexicon:
    return load_lexicon("es-fise", default_home)


def valid(lex: Lexicon, word: str) -> bool:
    return lex.lookup(word).valid


# REFERENCE §2, word by word.
ENCLITIC_OUT = [
    "DAME",
    "AMARLE",
    "COLARSE",
    "AMAOS",
    "BÁÑATE",
    "COMPRÁNDOLA",
    "CÓMETELA",
    "ENTRÉGUESELO",
    "ENVÍESE",
    "PÉGALE",
    "DADME",
    "HAZLO",
    "DÍMELO",
    "IROS",
    "DIGNÁNDOSE",
    "VAYÁMONOS",
    "VÁYANSE",
]
PLAIN_IN = ["DA", "AMAR", "COLAR", "AMAD", "BAÑA", "COMPRANDO", "COME", "ENTREGUE", "ENVÍE", "PEGA", "DIGNANDO"]


@pytest.mark.parametrize("word", ENCLITIC_OUT)
def test_enclitic_forms_are_out(fise: Lexicon, word: str) -> None:
    assert not valid(fise, word)


@pytest.mark.parametrize("word", PLAIN_IN)
def test_plain_verb_forms_are_in(fise: Lexicon, word: str) -> None:
    assert valid(fise, word)


@pytest.mark.parametrize(
    ("word", "kept"),
    [("ARREPENTIR", True), ("ARREPENTIRSE", True), ("DIGNARSE", True), ("JACTAR", True), ("JACTARSE", False)],
)
def test_pronominal_infinitive_exception(fise: Lexicon, word: str, kept: bool) -> None:
    assert valid(fise, word) is kept


@pytest.mark.parametrize(
    "word",
    [
        "AMASE",
        "AMASEN",
        "COMIESE",
        "VELOS",
        "TELA",
        "PALOS",
        "ACABOSE",
        "SABELOTODO",
        "CORREVEIDILE",
        "CONTÁS",
        "CONTÁ",
        "ACERTÁS",
        "ACERTÁ",
        # Words RLA-ES writes without flags that only look like a form plus clitics (ME + NOS, AL + LA).
        "MENOS",
        "ALLÁ",
        "CAOS",
        "FUESE",
        "BASTANTE",
        "DURANTE",
        "ABOLIDOS",
        "HENCHISTE",
    ],
)
def test_subjunctive_homographs_lexicalised_and_voseo_are_in(fise: Lexicon, word: str) -> None:
    assert valid(fise, word)


@pytest.mark.parametrize(
    "word",
    # SRA, HNOS, PTAS: RLA-ES writes abbreviations without the dot and inflects some (sr/GS, pta/S).
    ["Madrid", "DVD", "USB", "pH", "etc", "km", "cm", "SRA", "HNOS", "PTAS", "DTO", "AVDA", "KILO", "WEB"],
)
def test_proper_nouns_abbreviations_acronyms_and_k_w_are_out(fise: Lexicon, word: str) -> None:
    assert not valid(fise, word)


# The corrected rules, with the FISE lexicon rules' own examples.
@pytest.mark.parametrize(
    ("word", "kept"),
    [
        # A one-word entry is a word, uninflected, even when it stands for an expression.
        ("OQUE", True), ("TAZ", True), ("UFO", True), ("ZIS", True), ("IN", True), ("SIC", True),
        ("OQUES", False), ("UFOS", False),
        # A piece found only inside a multi-word entry, or inside an article, is not.
        ("BIG", False), ("DIEM", False), ("PING", False), ("CUEZ", False), ("MUZ", False), ("PA", False),
        ("AD", False), ("ET", False),
        # Letter names are nouns with plurals; a bare letter is never a word.
        ("AES", True), ("BES", True), ("CES", True), ("DES", True), ("ES", True), ("EES", True),
        ("EFES", True), ("GES", True), ("HACHES", True), ("ÍES", True), ("JOTAS", True), ("ELES", True),
        ("EMES", True), ("ENES", True), ("EÑES", True), ("OES", True), ("PES", True), ("CUS", True),
        ("CÚES", True), ("ERES", True), ("ESES", True), ("TES", True), ("ÚES", True), ("VES", True),
        ("UVES", True), ("YES", True), ("ZETAS", True), ("ZEDAS", True), ("EQUIS", True), ("CHES", True),
        ("ELLES", True), ("ERRES", True), ("B", False), ("Q", False),
        # Greek letters and musical notes pluralise too.
        ("FI", True), ("FIS", True), ("FÍES", True), ("MIS", True), ("XIS", True), ("DOS", True),
        ("SOLES", True), ("UT", True),
        # No plural for unadapted foreign words and interjections, unless also nouns; shortened words pluralise.
        ("BYTE", True), ("BYTES", False), ("HURRA", True), ("HURRAS", True), ("BOLIS", True),
        ("PROFES", True), ("TELES", True), ("HÍPER", True),
    ],
)  # fmt: skip
def test_corrected_rules(fise: Lexicon, word: str, kept: bool) -> None:
    assert valid(fise, word) is kept


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        ("DAME", "DAME: enclitic form — DA + ME; no verb with an attached pronoun is admitted"),
        ("AMARLE", "AMARLE: enclitic form — AMAR + LE; no verb with an attached pronoun is admitted"),
        ("AMAOS", "AMAOS: enclitic form — AMAD + OS; no verb with an attached pronoun is admitted"),
        ("KILO", "KILO: es-fise has no K tile, and a blank cannot stand for K"),
        ("QU", "QU: dropped by the review of short words — a letter pair, not a word: the letter name is CU"),
        ("XYZZY", "XYZZY: not found in any source of the es-fise lexicon"),
        ("CÓMETELA", "COMETELA: not found in any source of the es-fise lexicon; it would be an enclitic form — "
                     "COME + TELA, and no verb with an attached pronoun is admitted"),
    ],
)  # fmt: skip
def test_explain_names_the_rule(default_home: Path, fise: Lexicon, word: str, reason: str) -> None:
    assert explain(fise, word, default_home).reason == reason


def test_explain_names_the_sources_of_a_valid_word(default_home: Path, fise: Lexicon) -> None:
    # spaCy's table writes CASA and AMÁBAMOS too, but RLA-ES has their headwords: it is not their source.
    assert explain(fise, "casa", default_home).sources == ("coes", "rla-es")
    assert explain(fise, "amábamos", default_home).sources == ("rla-es",)
    assert explain(fise, "fórceps", default_home).sources == ("coes",)
    assert explain(fise, "ñu", default_home).sources == ("coes", "es-short-words", "es-supplement", "spacy-es")
    madrid = explain(fise, "Madrid", default_home)
    assert (madrid.rule, madrid.form, madrid.source) == ("proper-noun", "Madrid", "rla-es")


@pytest.mark.parametrize(
    ("word", "kept"),
    [
        # Headwords RLA-ES lacks that COES and wspanish both give, with their plurals and feminines.
        ("FÓRCEPS", True), ("PARÓTIDA", True), ("TIROLESAS", True), ("ENDÓGENAS", True), ("CEBÚ", True),
        ("AHIDALGAR", True),
        # A verb only COES has is conjugated by COES's simple conjugation (ABNIEGO: stem change kept).
        ("AHIDALGABA", True), ("ABNIEGO", True), ("ABNEGÁBAMOS", True), ("ABNEGADAS", True),
        # ...but nothing else of COES: no enclitic form, no -MENTE derivation, no infinitive in -RSE.
        ("ABNEGARLO", False), ("ABNEGÁNDOSE", False), ("DAÑOSAMENTE", False), ("DESAYUNARSE", False),
        ("DELA", False), ("AMALO", False),
    ],
)  # fmt: skip
def test_coes_headwords_confirmed_by_wspanish(fise: Lexicon, word: str, kept: bool) -> None:
    assert valid(fise, word) is kept


@pytest.mark.parametrize(
    ("word", "kept"),
    [
        # Verbs RLA-ES lacks that another source confirms as verbs, conjugated by lextools' conjugator with the
        # model of each verbecc template: every simple tense, voseo present and imperative.
        ("BICHEAR", True), ("HIBRIDAR", True), ("HIBRIDÁBAMOS", True), ("HIBRIDARE", True),
        ("DEBITÁS", True), ("DEBITÁ", True), ("DEBITASEN", True), ("DEBITADO", True),
        # Verbs only verbecc knows are left out: TETANIZAR, OVALIZAR (no other source lists them as verbs).
        ("TETANIZAR", False), ("OVALIZÁS", False), ("TETANIZÁBAMOS", False),
        # Pronominal entries (AMURRIARSE) conjugated without the pronoun; the participle masculine only.
        ("AMURRIAR", True), ("AMURRIAD", True), ("AMURRIANDO", True), ("AMURRIADO", True), ("AMURRIADA", False),
        # Never a pronoun attached, though the templates of pronominal verbs write one (AMÚRRIATE, AMURRIAOS).
        ("AMÚRRIATE", False), ("AMURRIAOS", False), ("AMURRIÁNDOSE", False), ("HIBRIDÁNDOLO", False),
        ("DEBITARLE", False),
        # Left out: misreadings of the list (GOBEMAR for GOBERNAR, FRATEMIZAR for FRATERNIZAR), K or W (KILOMETRAR).
        ("GOBEMAR", False), ("GOBERNAR", True), ("FRATEMIZAR", False), ("KILOMETRAR", False),
    ],
)  # fmt: skip
def test_verbs_from_the_conjugator(fise: Lexicon, word: str, kept: bool) -> None:
    assert valid(fise, word) is kept


def test_the_conjugator_source_is_reported(default_home: Path, fise: Lexicon) -> None:
    sources = {s["name"]: s for s in fise.metadata["sources"]}
    assert 3_000 < sources["verbecc-es"]["only_here"] < 8_000  # 4,807 on 2026-12-01: the confirmed verbs only
    assert sources["verbecc-es"]["licence"].startswith("GPL-2.0-or-later")
    # spaCy's table writes the form too, but admits no form of a verb only it conjugates.
    assert explain(fise, "hibridábamos", default_home).sources == ("verbecc-es",)
    # COES conjugates some of the same verbs: two independent sources agree on them.
    assert "coes" in explain(fise, "abnegábamos", default_home).sources


@pytest.mark.parametrize(
    ("word", "kept"),
    [
        # Headwords RLA-ES lacks that spaCy's lemma table gives and COES or wspanish lists too, with the
        # table's plurals and feminines: two sources agree.
        ("EVALUABLE", True), ("YOGA", True), ("ABALEADOR", True), ("CISALPINA", True), ("GUERREADOR", True),
        # A verb COES has and the table confirms: COES conjugates it.
        ("HORMIGONÁBAMOS", True), ("ILEGALIZAMOS", True), ("DIRECCIONADO", True),
        # A verb only the table and wspanish give: the infinitive only.
        ("ASUTILAR", True), ("ASUTILADO", False), ("ASUTILAREMOS", False),
        # One source is not enough (METILANTRACENO); RLA-ES's paradigm of its own headwords stands (ANDALUZES).
        ("METILANTRACENO", False), ("ANDALUZES", False), ("FEROZES", False),
    ],
)  # fmt: skip
def test_lemma_table_forms_need_a_second_source(fise: Lexicon, word: str, kept: bool) -> None:
    assert valid(fise, word) is kept


@pytest.mark.parametrize(
    ("word", "rule"),
    [("METILANTRACENO", "unconfirmed"), ("ANDALUZES", "outside-paradigm"), ("ASUTILADO", "unconjugated")],
)
def test_explain_names_the_policy_that_kept_a_form_out(default_home: Path, fise: Lexicon, word: str, rule: str) -> None:
    why = explain(fise, word, default_home)
    assert (why.rule, why.source, why.form) == (rule, "spacy-es", word.lower())


def test_two_tile_words(fise: Lexicon) -> None:
    two = {fise.edition.spelling(k) for k in words_of_length(fise, 2)}
    assert {"CHA", "CHE", "CHO", "LLE", "DA", "DE", "YA", "ÑU"} <= two
    assert not any(w in two for w in ("CM", "KM", "AD", "ET"))


def test_no_k_or_w_words(fise: Lexicon) -> None:
    assert not any(c in key for key in fise for c in "KW")


def test_exclusion_report_and_metadata(default_home: Path, fise: Lexicon) -> None:
    report = json.loads((default_home / "es-fise.exclusions.json").read_text("utf-8"))["rules"]
    for rule in ("enclitic", "proper-noun", "acronym", "abbreviation", "multiword", "letter-without-tile"):
        assert report[rule]["count"] > 0 and report[rule]["examples"], rule
    for rule in ("affix", "voseo"):  # applied, though RLA-ES has nothing for them to drop
        assert rule in report
    assert report["enclitic"]["count"] > 50_000
    sources = {s["name"]: s for s in fise.metadata["sources"]}
    assert set(sources) == {"rla-es", "coes", "verbecc-es", "spacy-es", "es-supplement", "es-short-words"}
    # What each source contributed: COES only adds the headwords wspanish or spaCy's table confirms, with
    # their plurals; spaCy's table, the headwords RLA-ES lacks that COES or wspanish confirms.
    assert 5_000 < sources["coes"]["only_here"] < 30_000 and sources["rla-es"]["only_here"] > 400_000
    assert 5_000 < sources["spacy-es"]["only_here"] < 20_000 < sources["spacy-es"]["words"] < 60_000
    assert sources["spacy-es"]["removed"] > 30_000
    for rule in ("unconfirmed", "outside-paradigm", "unconjugated"):  # what the table's policy kept out
        assert report[rule]["count"] > 500 and report[rule]["examples"], rule
    for s in sources.values():
        assert s["licence"] and s["origin"] and s["sha256"]
    assert len(fise) > 400_000


def test_every_recipe_names_known_sources_and_rules() -> None:
    for edition in ("es-fise", "es-na103", "es-mattel2021", "en", "fr"):
        recipe = load_recipe(edition)
        assert set(recipe.rules) <= set(RULES)
        for name in recipe.sources:
            verify(load_source(name))  # files present and matching their sha256
    assert set(source_names()) >= {"rla-es", "scowl", "dicollecte-fr", "es-supplement"}


def test_a_changed_source_file_is_refused(tmp_path: Path) -> None:
    source = load_source("es-supplement")
    copy = tmp_path / "list.txt"
    copy.write_text("casa\n", "utf-8")
    changed = type(source)(source.name, source.format, {"list": copy}, source.sha256, source.info)
    with pytest.raises(SourceError, match="sha256"):
        verify(changed)


def test_house_rules_build_can_leave_a_rule_out(tmp_path: Path) -> None:
    from lextools.builder.recipes import Recipe

    recipe = Recipe("es-fise", ("es-supplement",), ("one-tile",))
    meta = build_default("es-fise", tmp_path, recipe=recipe)
    assert meta["filters"] == ["one-tile"] and meta["words"] == 35
    assert load_edition("es-fise").name == meta["edition"]


@pytest.fixture(scope="session")
def fr(fr_home: Path) -> Lexicon:
    return load_lexicon("fr", fr_home)


@pytest.mark.parametrize(
    ("word", "kept"),
    [
        # Titles are words (Dicollecte's po:titr marks MAMAN and MONSIEUR too); their abbreviations are capitalised.
        ("maman", True), ("monsieur", True), ("maître", True), ("docteur", True), ("Mme", False),
        # Unit symbols (REFERENCE §1: no abbreviations or symbols); a unit written as a word stays.
        ("km", False), ("cd", False), ("ft", False), ("ppm", False), ("mol", True), ("bar", True),
        ("œuf", True), ("amour", True), ("Bruxelles", False),
    ],
)  # fmt: skip
def test_french_default(fr: Lexicon, word: str, kept: bool) -> None:
    assert valid(fr, word) is kept


def test_french_report_has_no_elided_forms(fr: Lexicon) -> None:
    assert fr.metadata["counts"]["dropped"]["cannot-spell"] < 20_000 and len(fr) > 400_000


def reviewed(name: str) -> dict[str, bool]:
    from lextools.builder.review import read_review

    return {v.word: v.keep for v in read_review(load_source(name))}


def test_french_two_and_three_letter_words_are_the_reviewed_ones(fr: Lexicon, fr_home: Path) -> None:
    two = {fr.edition.spelling(k) for k in words_of_length(fr, 2)}
    three = {fr.edition.spelling(k) for k in words_of_length(fr, 3)}
    review = reviewed("fr-short-words")
    assert two | three == {w for w, keep in review.items() if keep}
    assert {"ANI", "KOB", "ZIP", "OUD"} <= three and not three & {"NOV", "COS", "XIE", "PTS", "AVR"}
    assert {"AA", "KA", "OM", "QI"} <= two and not two & {"AV", "ED", "LN", "PT", "XE", "VS"}
    why = explain(fr, "ve", fr_home).reason  # "Ve" is a proper noun, "ve" a letter name: the closer call is told
    assert why == "VE: dropped by the review of short words — a letter name; the FISF rules admit no bare letter"


@pytest.mark.parametrize(
    ("word", "kept"),
    [
        # Dicollecte has IN only as a piece of "in extremis" and OK in capitals: both are words of their own.
        ("IN", True), ("OK", True),
        # Clipped words and nouns of the general dictionaries the first review had dropped.
        ("MAX", True), ("SPI", True), ("COB", True), ("ZOE", True), ("KOT", True),
        # Still out: the letter name and its plural, abbreviations, pieces of expressions.
        ("VE", False), ("VES", False), ("LAT", False), ("VOX", False), ("BE", False),
    ],
)  # fmt: skip
def test_french_short_words_second_review(fr: Lexicon, fr_home: Path, word: str, kept: bool) -> None:
    assert valid(fr, word) is kept
    if kept:
        assert "fr-short-words" in explain(fr, word, fr_home).sources


@pytest.mark.parametrize(("edition", "review"), [("es-fise", "es-short-words"), ("en", "en-short-words")])
def test_a_review_decides_its_lengths(tmp_path: Path, edition: str, review: str) -> None:
    from lextools.builder.recipes import Recipe

    sources = ("es-supplement", review) if edition == "es-fise" else (review,)
    build_default(edition, tmp_path, recipe=Recipe(edition, sources, ("one-tile",)))
    lex = load_lexicon(edition, tmp_path)
    kept = {w for w, keep in reviewed(review).items() if keep and (edition == "en" or ("K" not in w and "W" not in w))}
    for length in load_source(review).options["lengths"]:
        words = {lex.edition.spelling(k) for k in words_of_length(lex, length)}
        assert words == {w for w in kept if len(lex.spell(w).tiles) == length}, length
    assert lex.metadata["filters"] == ["one-tile", "short-word-review"]


def test_spanish_three_tile_words_are_the_reviewed_ones(fise: Lexicon) -> None:
    three = {fise.edition.spelling(k) for k in words_of_length(fise, 3)}
    review = reviewed("es-short-words")
    assert {"FEZ", "PCHE", "JET", "CIA", "ÑUS", "EES", "TAZ"} <= three
    assert not three & {w for w, keep in review.items() if not keep}
    assert all(review.get(w) for w in three)


def test_sources_shared_by_recipes_are_read_once_per_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """`lextools build` (all editions) expands the Spanish hunspell dictionary once, not three times."""
    from lextools.builder import recipes
    from lextools.builder.filters import SourceWord

    reads: list[str] = []

    def read_source(source):  # type: ignore[no-untyped-def]
        reads.append(source.name)
        return (SourceWord(f"{source.name}-{i}", source=source.name) for i in range(3))

    monkeypatch.setattr(recipes, "read_source", read_source)
    names = ["en", "es-fise", "es-mattel2021", "es-na103"]
    shared = recipes.SharedSources(load_recipe(n) for n in names)
    seen = {n: [w.raw for s in load_recipe(n).sources for w in shared.read(load_source(s))] for n in names}
    assert sorted(reads) == sorted({s for n in names for s in load_recipe(n).sources})  # each source once
    spanish = [f"{s}-{i}" for s in load_recipe("es-fise").sources for i in range(3)]
    assert seen["es-fise"] == seen["es-mattel2021"] == seen["es-na103"] == spanish
    assert not shared._kept  # released after its last use


def test_english_short_words_are_the_reviewed_ones(en_home: Path) -> None:
    en = load_lexicon("en", en_home)
    review = reviewed("en-short-words")
    for length in (2, 3):
        words = {en.edition.spelling(k) for k in words_of_length(en, length)}
        assert words == {w for w, keep in review.items() if keep and len(w) == length}, length
    # Kept from SCOWL, added with their American dictionary sense, dropped with the review's reason.
    assert all(valid(en, w) for w in ("AAH", "ZZZ", "CWM", "ALT", "COL", "MAG", "REC", "ESS", "QIS"))
    assert not any(valid(en, w) for w in ("CSC", "DKL", "HHD", "GIF", "UFO", "HOC", "CHA", "ZAC", "AWS"))
    assert explain(en, "dkl", en_home).reason == "DKL: dropped by the review of short words — abbreviation (decaliter)"
    assert "en-short-words" in explain(en, "alt", en_home).sources


def test_english_letter_plurals_and_rare_british_spellings_are_out(en_home: Path) -> None:
    en = load_lexicon("en", en_home)
    why = explain(en, "bs", en_home).reason
    assert why == "BS: plurals of single letters (BS, CS, DS), written B's in running text — the scowl form “bs”"
    assert all(valid(en, w) for w in ("AS", "ES", "IS", "OS", "US"))  # a vowel and S: words and letter names
    # British spellings: the common ones stay (SCOWL sizes up to 60), the rare ones (70, 80) go.
    assert all(valid(en, w) for w in ("COLOUR", "CENTRE", "REALISE", "COLOR", "REALIZE"))
    assert not any(valid(en, w) for w in ("DOLOMITISED", "PEPTISER", "HEPATISED"))
    assert explain(en, "peptiser", en_home).rule == "rare-british-spelling"
    dropped = en.metadata["counts"]["dropped"]
    assert dropped["letter-plural"] == 20 and 5_000 < dropped["rare-british-spelling"] < 6_000
