"""The FISE lexicon rules as data (build/fise-rules.toml) applied to FISE's lemma lists.

The lists in tests/data/fise-rules are our own, written in the published format (Latin-1, CRLF, a
header ending in a ``#`` line): one verb or word for each rule of the "Reglamento de léxico FISE
2016" a build applies (§17 verbs, §18 plurals), invented where the regulation names no word, the
regulation's own named words where it does. Revision notes are given as the reader delivers them
(:class:`~lextools.builder.fise_lists.Change`).
"""

from __future__ import annotations

import gzip
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lextools.builder.fise_forms import (
    PluralEvidence,
    apply_verb_revision,
    apply_word_revision,
    decide_plural,
    defective_cells,
    generate,
    plural_forms,
    verb_forms,
    word_key,
)
from lextools.builder.fise_lists import Change, FiseFile, Lists, Verb, Word
from lextools.builder.fise_rules import I_ENDINGS, rules
from lextools.cli.main import app
from lextools.core.lexicon import Lexicon, load_lexicon
from tests.fise_folder import DEFECTIVE_TEXTS, RECIPE, VERB_NOTES

LISTS = Path(__file__).parent / "data" / "fise-rules"
VERBS, WORDS = "fixture-rules-verbs.txt", "fixture-rules-words.txt"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    tmp = tmp_path_factory.mktemp("fise-rules")
    recipe, home = tmp / "recipe.toml", tmp / "home"
    recipe.write_text(RECIPE, "utf-8")
    args = ["build", "es-fise", "--recipe", str(recipe), "--fise-lists", str(LISTS), "--lexicons", str(home)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return home, result.output


@pytest.fixture(scope="module")
def lex(built: tuple[Path, str]) -> Lexicon:
    return load_lexicon("es-fise", built[0])


def valid(lex: Lexicon, words: str) -> list[str]:
    return [w for w in words.split() if lex.lookup(w).valid]


def invalid(lex: Lexicon, words: str) -> list[str]:
    return [w for w in words.split() if not lex.lookup(w).valid]


@pytest.mark.parametrize(
    ("yes", "no"),
    [
        # class 1: every form, the participle in four forms (§17.2, §17.4)
        ("ZABORNAR ZABORNO ZABORNADAS ZABORNAD", ""),
        # class 3: both infinitives (§17.5), the participle masculine singular, no vosotros imperative (§17.10)
        ("ZABURAR ZABURARSE ZABURADO ZABURA", "ZABURAD ZABURADA ZABURADOS"),
        # class 4: without SE only, no vosotros imperative
        ("ZACOTAR ZACOTA ZACOTAMOS", "ZACOTARSE ZACOTAD"),
        # class 5: pronominal without SE and without imperative, not impersonal: every person
        ("ZAFREAR ZAFREA ZAFREAS ZAFREAMOS ZAFREAN ZAFREÁS", "ZAFREARSE ZAFREAD"),
        # an 88/99 line of class 0 written with -rse: both infinitives, nothing else (§17.7, §17.11)
        ("ZACACHAR ZACACHARSE ZAMOSTRAR", "ZACACHO ZACACHANDO ZAMOSTRARSE ZAMOSTRO"),
        # impersonal: infinitive, participle, gerund, third person singular of the simple tenses (§17.8)
        (
            "ZABRISAR ZABRISADO ZABRISANDO ZABRISA ZABRISABA ZABRISÓ ZABRISARÁ ZABRISARÍA ZABRISE ZABRISARE "
            "ZABRISARA ZABRISASE",
            "ZABRISAN ZABRISAMOS ZABRISAD ZABRISADA ZABRISARON",
        ),
    ],
)
def test_verb_classes_and_properties(lex: Lexicon, yes: str, no: str) -> None:
    assert invalid(lex, yes) == []
    assert valid(lex, no) == []


@pytest.mark.parametrize(
    ("yes", "no"),
    [
        ("ZACEAR ZACEA ZACEAN ZACEABAN", "ZACEAMOS ZACEANDO ZACEADO"),  # infinitivo y terceras personas
        ("ACAECER ACAECE ACAECEN ACAECIENDO ACAECIDO", "ACAEZCO ACAECEMOS"),  # …, gerundio, participio y terceras
        ("ZUCEDIR ZUCEDE ZUCEDIDO", "ZUCEDIENDO ZUCEDIMOS"),  # infinitivo, participio y terceras personas
        ("EMBAÍR EMBAÍMOS EMBAÍDO EMBAYÓ", "EMBAYA EMBAYE EMBAYEN"),  # solo las formas cuya desinencia empieza por -i
        ("BALBUCIR BALBUCE BALBUCÍ BALBUCIÓ", "BALBUZCO BALBUZCA BALBUJO BALBUJERON"),  # no … formas con zeta
        ("ZADAR", "ZADO ZADANDO"),  # the forms listed: the infinitive alone
        ("ZAFAR ZAFANDO", "ZAFO ZAFADO"),  # the infinitive and the gerund
        ("ZAGAR ZAGADO ZAGADA ZAGADOS ZAGADAS", "ZAGO"),  # the infinitive and the participle in four forms
        ("ZAJAR ZAJARSE", "ZAJO"),  # the pronominal infinitive with the plain one
    ],
)
def test_each_defective_text(lex: Lexicon, yes: str, no: str) -> None:
    assert invalid(lex, yes) == []
    assert valid(lex, no) == []


def test_settled_verbs_and_models(lex: Lexicon) -> None:
    """§17.12's forms and verbs, and models conjugated by pattern whatever the infinitive's ending."""
    assert invalid(lex, "ABSTENER ABSTENERSE ABSTIENE HABEMOS HAY LLOVIZNA RESPECTA RESPECTAN AFOGAR") == []
    assert valid(lex, "ABSTÉN ABSTENÉ ABSTENED LLOVIZNAD RESPECTAMOS RESPECTADO AFOGO") == []
    assert invalid(lex, "DESFAGO DESFIZO DESFECHO DESFECHAS DESFAZ DESFARÁ CONTRAHÍCE CONTRAHECHO DESVAYO") == []
    assert invalid(lex, "PLUGO PLEGUE PLUGUIERA COMPLACE COMPLAZCA") == []
    assert valid(lex, "COMPLUGO COMPLEGUE PLUGUIÉRAMOS") == []


def test_models_22_and_23_by_their_pattern(built: tuple[Path, str], lex: Lexicon) -> None:
    """Model 23 (evanescer, fosforescer) keeps -sc- beside the -zc- of agradecer in the first person and
    the present subjunctive; a PODRIR line of model 22 is conjugated on PUDR- (PUDRO, PUDRÍA), its
    infinitives and its participle PODRIDO alone with O, like PUDRIR."""
    assert invalid(lex, "FOSFORESCO FOSFORESCA FOSFORESCAMOS FOSFORESCÁIS FOSFOREZCO FOSFOREZCAN FOSFORESCE") == []
    assert valid(lex, "FOSFORESZCO FOSFORESCIDA FOSFORESCIDOS") == []  # intransitive: no feminine participle
    assert invalid(lex, "PODRIR PUDRIR PUDRO PUDRA PUDRÍA PUDRIRÉ PUDRID PUDRÍS PUDRIENDO PODRIDO PODRIDAS") == []
    assert valid(lex, "PODRO PODRA PODRÍA PODRIRÉ PODRID PODRÍS PODRIENDO PUDRIDO") == []
    assert "podrir not conjugated" not in built[1]


def test_words_with_ñ_homographs_and_plurals(lex: Lexicon) -> None:
    assert invalid(lex, "AÑO AÑOS CAÑA CAÑAS PEÑA PEÑAS") == [] and valid(lex, "ANO ANOS CANA PENA") == []
    # ZURÍ and ZURI ZURA fold to one spelling: each keeps its own plural and feminine
    assert invalid(lex, "ZURÍES ZURÍS ZURA ZURAS ZURIS") == []
    named = "REYES JERSÉIS GUAYES GUAIS YOS YOES CLUBS CLUBES MENÚS RÉCORDS ÁLBUMES"
    by_ending = "EXÁMENES FAXES LÁPICES TABÚES TABÚS ZOBUYES ZUMBOS ZUMBAS DEMENTES RÁPIDOS RÁPIDAS"
    assert invalid(lex, f"{named} {by_ending}") == []
    assert valid(lex, "JERSEYES MENÚES RÉCORDES ÁLBUMS TESTS SÁNDWICHES LUNESES TÓRAXES ZOBRIES ZOBRYS") == []
    assert valid(lex, "RÁPIDAMENTES") == []


def test_plural_reasons_are_counted(built: tuple[Path, str]) -> None:
    home, output = built
    meta = json.loads((home / "es-fise.json").read_text("utf-8"))
    (source,) = meta["sources"]
    reasons = source["fise"]["plural_reasons"]
    assert reasons == {
        "revision": 0, "named": 9, "ending": 5, "class-invariable": 0, "class-adverb": 1, "class-flag": 0,
        "class-attested": 0, "undecided": 14,
    }  # fmt: skip
    assert source["fise"]["undecided_plurals"] == 14
    assert "plurals decided by: revision 0, named 9, ending 5" in " ".join(output.split())


def _explain(home: Path, lang: str, *words: str) -> list[str]:
    args = ["explain", "es-fise", *words, "--lang", lang, "--lexicons", str(home)]
    return CliRunner().invoke(app, args).stdout.splitlines()


@pytest.mark.parametrize(
    ("word", "lemma", "line", "model", "section"),
    [
        ("zacacharse", "ZACACHAR", 19, "", "§17.11"),  # SE infinitive of an obsolete pronominal verb
        ("zafreas", "ZAFREAR", 18, "model 00", "§17.2"),  # class 5, not impersonal
        ("zafread", "ZAFREAR", 18, "", "§17.10"),  # pronominal imperative
        ("zacotarse", "ZACOTAR", 17, "", "§17.5"),  # class 4: valid without SE only
        ("zabrisan", "ZABRISAR", 21, "", "§17.8"),  # impersonal
        ("desfago", "DESFACER", 32, "model 06, like HACER", "§17.2"),
        ("contrahíce", "CONTRAHACER", 33, "model 24, like REHACER", "§17.2"),
        ("balbució", "BALBUCIR", 43, "model 12, like LUCIR", "§17.2"),  # its defective text; no strong preterite
        ("balbuzco", "BALBUCIR", 43, "", "§17.6"),
        ("desvayo", "DESVAÍR", 44, "model 28", "§17.2"),
        ("plugo", "PLACER", 37, "model 26", "§17.2"),
        ("habemos", "HABER", 36, "model 05", "§17.12"),
        ("lloviznad", "LLOVIZNAR", 22, "", "§17.12"),
        ("embaya", "EMBAÍR", 42, "", "§17.6"),  # a cell its defective model lacks: never "not found"
        ("fosforesco", "FOSFORESCER", 39, "model 23, like EVANESCER", "§17.2"),  # -sc- kept beside -zc-
        ("podrir", "PODRIR", 47, "model 22, like PUDRIR", "§17.2"),  # its own line, conjugated on PUDR-
        ("podridas", "PODRIR", 47, "model 22, like PUDRIR", "§17.4"),
    ],
)
def test_explain_names_lemma_list_line_model_and_section(
    built: tuple[Path, str], word: str, lemma: str, line: int, model: str, section: str
) -> None:
    (said,) = _explain(built[0], "en", word)
    assert f" {lemma}" in said and f"({VERBS}, line {line}; FISE lexicon regulation 2016, {section})" in said, said
    assert model in said, said


def test_explain_words_and_plurals(built: tuple[Path, str]) -> None:
    año, lápices, jerséis, zura = _explain(built[0], "es", "año", "lápices", "jerséis", "zura")
    assert año == f"AÑO: palabra de las listas de la FISE (AÑO) ({WORDS}, línea 11)"  # never "no figura"
    assert lápices.startswith("LAPICES: plural de LÁPIZ, plural por la regla de -z, indeciso")
    assert lápices.endswith(f"({WORDS}, línea 25; Reglamento de léxico FISE 2016, §18.4)")
    assert jerséis == (
        f"JERSEIS: plural de JERSEY, como lo nombra el reglamento ({WORDS}, línea 22; "
        "Reglamento de léxico FISE 2016, §18.4)"
    )
    assert zura == f"ZURA: femenino de ZURI ({WORDS}, línea 15)"
    tests, adverbs = _explain(built[0], "en", "tests", "rápidamentes")  # a plural refused: said why
    assert tests == (
        f"TESTS: no plural of TEST counts — the regulation names it invariable ({WORDS}, line 31; "
        "FISE lexicon regulation 2016, §18.1–18.4)"
    )
    assert adverbs.startswith("RAPIDAMENTES: no plural of RÁPIDAMENTE counts — an adverb in -mente")
    (zacotar,) = _explain(built[0], "en", "zacotar")
    assert "valid without SE only" in zacotar and "with and without" not in zacotar
    (zafrear,) = _explain(built[0], "en", "zafrear")
    assert "impersonal" not in zafrear and "without imperative" in zafrear


# --- the rules file and the rules one by one ---------------------------------------------------------


def test_the_rules_file_cites_its_sections() -> None:
    r = rules()
    assert r.regulation == "Reglamento de léxico FISE 2016"
    assert {c.code: c.se_infinitive for c in r.classes.values()} == {
        "0": "written", "1": "never", "2": "never", "3": "always", "4": "never", "5": "never",
    }  # fmt: skip
    assert all(c.section.startswith("17.") for c in r.classes.values())
    assert r.classes["5"].no_cells == {"m2", "m5", "vm2"} and r.classes["3"].no_cells == {"m5"}
    assert {"abromad", "abstén", "abstené", "reguardad"} <= r.not_counted
    assert r.impersonal_section == "17.8" and r.settled_section == "17.12"
    assert set(r.endings) >= {"ch", "z", "y after a vowel", "y after a consonant", "stressed í ú", "k", "w"}


@pytest.mark.parametrize("text", DEFECTIVE_TEXTS)
def test_every_defective_text_of_the_lists_is_a_rule(text: str) -> None:
    assert defective_cells(text) is not None
    assert defective_cells(text.capitalize() + ".") == defective_cells(text)


def test_defective_texts_not_understood_are_reported() -> None:
    notes: list[str] = []
    forms = list(verb_forms(Verb("zabar", "00", "1", "D", "solo en la jerga", "l.txt: line 3"), notes))
    assert [(f, rule) for f, rule, _ in forms if not rule.startswith("x-")] == [("zabar", "inf")]
    assert notes == ["l.txt: line 3: defective zabar, forms unread (solo en la jerga): infinitive only"]
    assert defective_cells("solo las formas cuya desinencia empieza por -i") == set(I_ENDINGS)


def test_a_model_that_cannot_conjugate_a_verb_is_reported() -> None:
    notes: list[str] = []
    forms = list(verb_forms(Verb("comer", "15", "1", where="l.txt: line 9"), notes))  # SER's forms fit no COMER
    assert [f for f, _, _ in forms] == ["comer"] and notes[0].startswith("l.txt: line 9: comer not conjugated")


@pytest.mark.parametrize(
    ("word", "plurals"),
    [
        ("casa", ["casas"]), ("sofá", ["sofás"]), ("jabalí", ["jabalíes", "jabalís"]), ("tabú", ["tabúes", "tabús"]),
        ("árbol", ["árboles"]), ("reloj", ["relojes"]), ("pared", ["paredes"]), ("cóndor", ["cóndores"]),
        ("lápiz", ["lápices"]), ("capaz", ["capaces"]), ("canción", ["canciones"]), ("examen", ["exámenes"]),
        ("joven", ["jóvenes"]), ("mitin", ["mítines"]), ("barman", ["bármanes"]), ("autobús", ["autobuses"]),
        ("país", ["países"]), ("mes", ["meses"]), ("lunes", []), ("crisis", []), ("fax", ["faxes"]), ("tórax", []),
        ("sándwich", []), ("zobuy", ["zobuyes"]), ("zobry", []), ("zok", []), ("zow", []), ("zigzag", ["zigzags"]),
    ],
)  # fmt: skip
def test_plurals_by_ending(word: str, plurals: list[str]) -> None:
    """§18.4: the rule of each ending."""
    assert plural_forms(word) == plurals


@pytest.mark.parametrize(
    ("word", "plurals"),
    [
        ("rey", ("reyes",)), ("jersey", ("jerséis",)), ("estay", ("estáis", "estayes")), ("yo", ("yoes", "yos")),
        ("club", ("clubs", "clubes")), ("menú", ("menús",)), ("sí", ("síes",)), ("u", ("úes",)),
        ("récord", ("récords",)),
        ("álbum", ("álbumes",)), ("test", ()), ("carácter", ("caracteres",)), ("régimen", ("regímenes",)),
        ("el", ("los",)), ("adiós", ("adioses",)), ("faralá", ("faralaes",)), ("hurra", ("hurras",)), ("que", ()),
    ],
)  # fmt: skip
def test_named_exceptions(word: str, plurals: tuple[str, ...]) -> None:
    """§18.1–18.4's named words, before any rule or evidence (HURRA takes a plural though a dictionary
    has no plural flag on it)."""
    evidence = PluralEvidence(invariable={word}, without={word})
    decided = decide_plural(Word(word), evidence)
    assert decided.forms == plurals and decided.reason == "named"


def test_plurals_decided_in_order() -> None:
    evidence = PluralEvidence(
        attested={"zumbeles"}, takes={"zombo"}, without={"zambo", "zimbo"}, invariable={"zembo"},
        adjectives={"rapida"},
    )  # fmt: skip

    def why(word: Word) -> tuple[tuple[str, ...], str]:
        decided = decide_plural(word, evidence, "singular")
        return decided.forms, decided.reason

    assert why(Word("zambo", plurals=("zambones",))) == (("zambones",), "revision")  # a revision note's plural
    assert why(Word("zambo", plural=False)) == ((), "revision")  # added as invariable
    assert why(Word("lunes")) == ((), "ending")
    assert why(Word("zembo")) == ((), "class-invariable")
    assert why(Word("rápidamente")) == ((), "class-adverb")
    assert why(Word("clemente")) == ((), "undecided")  # an adjective in -mente: no adverb
    assert why(Word("zombo")) == (("zombos",), "class-flag")
    assert why(Word("zumbel")) == (("zumbeles",), "class-attested")
    assert why(Word("zambo")) == ((), "undecided")  # an entry without a plural flag decides nothing
    assert decide_plural(Word("zambo"), evidence, "plural").forms == ("zambos",)


def test_each_plural_form_records_its_reason() -> None:
    lists = Lists(words={"lápiz": Word("lápiz", where="w.txt: line 4"), "jersey": Word("jersey")})
    lists.files["nonverbs"] = Path("w.txt")
    counts: Counter[str] = Counter()
    made = {w.raw: (w.stem, w.tags) for w in generate(lists, PluralEvidence(), "fise-lists", "plural", counts)}
    stem, tags = made["lápices"]
    assert stem == "lápiz@nonverbs:4" and "fise:plural::::undecided/-z:18.4" in tags
    assert "fise:plural::::named/y-is:18.4" in made["jerséis"][1]
    assert counts == {"undecided": 1, "named": 1}


# --- a verb revision's notes -------------------------------------------------------------------------


def _revised(verb: Verb, note: str, *, in_totals: bool = True) -> tuple[list[str], list[str]]:
    lists = Lists(verbs={verb.infinitive: [verb]})
    revision = FiseFile("verb-update", Path("rev.txt"), [("changed", {}, 7, Change(verb.infinitive, note))])
    apply_verb_revision(lists, revision, in_totals=in_totals)
    notes: list[str] = []
    forms = [f for f, rule, _ in verb_forms(verb, notes) if not rule.startswith("x-")]
    return forms, lists.notes + notes


def test_revision_notes_add_and_remove_forms() -> None:
    forms, notes = _revised(Verb("zabornar", "00", "1"), 'se retira la forma "zabornáis"')
    assert "zabornáis" not in forms and "zabornamos" in forms and notes == []
    forms, _ = _revised(Verb("zabornar", "00", "1"), "añade zabornite, zabornitas")
    assert {"zabornite", "zabornitas"} <= set(forms)
    forms, _ = _revised(
        Verb("zabolver", "08", "1", "P", "zabuelto"),
        "queda sin participio irregular zabuelto/a/os/as que tiene entrada propia",
    )
    assert "zabolvido" in forms and "zabuelto" not in forms


def test_revision_notes_change_models_and_classes() -> None:
    verb = Verb("zacontar", "00", "1")
    forms, _ = _revised(verb, 'conjugado ahora como "contar"', in_totals=False)
    assert verb.model == "01" and "zacuento" in forms and "zaconto" not in forms
    forms, _ = _revised(Verb("zacontar", "01", "1"), "conjugado ahora también como regular")
    assert {"zacuento", "zaconto"} <= set(forms)
    verb = Verb("zalucir", "00", "2")
    _revised(verb, "impersonal, queda sin formas plurales", in_totals=False)
    assert verb.prop == "I"


def test_a_note_not_understood_is_reported_and_changes_nothing() -> None:
    verb = Verb("zabornar", "00", "1")
    forms, notes = _revised(verb, "según el uso de los pastores", in_totals=False)
    assert notes == ["rev.txt: line 7: note not understood, zabornar left as it was: (según el uso de los pastores)"]
    assert (verb.model, verb.klass, verb.prop) == ("00", "1", ".") and "zabornamos" in forms


def test_more_note_families() -> None:
    forms, _ = _revised(
        Verb("zapudrir", "22", "1"),
        'en infinitivo, indicativo salvo presente, y segundas personas del imperativo, la "u" puede ser también "o"',
    )
    assert {"zapodrir", "zapodría", "zapodrimos", "zapodriré", "zapodrid"} <= set(forms) and "zapodra" not in forms
    forms, _ = _revised(
        Verb("redecir", "26", "1"), 'añade las formas con "redecir" además de con "redir" en futuro y condicional'
    )
    assert {"rediré", "redeciré", "redeciríamos"} <= set(forms)
    verb = Verb("zaler", "00", "2")
    forms, _ = _revised(
        verb,
        'conjugado ahora en todas las formas como "valer", salvo zalgo, zales y zale en presente de indicativo',
        in_totals=False,
    )
    assert verb.model == "19" and "zaldré" in forms and not {"zalgo", "zales"} & set(forms)
    forms, _ = _revised(
        Verb("zamover", "00", "2"),
        'conjugado ahora también en más formas de indicativo e imperativo iguales que las de "mover"',
    )
    assert {"zamuevo", "zamueve", "zamovemos", "zamovo"} <= set(forms) and "zamueva" not in forms


@pytest.mark.parametrize("note", VERB_NOTES)
def test_every_note_family_is_understood(note: str) -> None:
    assert rules().note_action(note) is not None, note


def test_a_later_revision_adds_a_new_verb_with_its_model() -> None:
    lists = Lists(verbs={"zabornar": [Verb("zabornar", "00", "1")]})
    revision = FiseFile(
        "verb-update",
        Path("rev.txt"),
        [
            ("new", {"conj": "ar", "class": "1"}, 12, Change("zacontar", 'conjugado como "contar"')),
            ("new", {"conj": "ar", "class": "2"}, 13, Change("zalargar", "no usable por su longitud")),
            ("removed", {"conj": "ar"}, 20, Change("zabornar")),
        ],
    )
    apply_verb_revision(lists, revision, in_totals=False)
    assert set(lists.verbs) == {"zacontar", "zalargar"}
    (verb,) = lists.verbs["zacontar"]
    assert (verb.model, verb.klass) == ("01", "1") and lists.verbs["zalargar"][0].klass == "2"
    assert lists.notes == ["rev.txt: line 13: new verb zalargar given without its model: conjugated as model 00"]


def test_a_revision_names_one_homograph_by_its_superscript() -> None:
    lists = Lists()
    for word in (Word("zabote", superscript="4"), Word("zabote", "zabota", superscript="5"), Word("zabóte")):
        lists.words[word_key(word)] = word
    revision = FiseFile(
        "nonverb-update",
        Path("rev.txt"),
        [("remove", {}, 9, Word("zabote", superscript="5")), ("add-invariable", {}, 4, Word("zabóte"))],
    )
    apply_word_revision(lists, revision, in_totals=False)
    assert sorted(lists.words) == ["zabote 4", "zabóte"] and lists.words["zabóte"].plural is False


def test_a_lemma_file_of_an_older_build_is_still_read(built: tuple[Path, str], tmp_path: Path) -> None:
    """Five fields per lemma (before the reason, section and list line were kept): explained without them."""
    home = tmp_path / "home"
    shutil.copytree(built[0], home)
    path = home / "es-fise.lemmas.tsv.gz"
    lines = gzip.decompress(path.read_bytes()).decode("utf-8").splitlines()
    old = [line if line.startswith("#") else "\t".join(line.split("\t")[:6]) for line in lines]
    path.write_bytes(gzip.compress(("\n".join(old) + "\n").encode("utf-8")))
    assert _explain(home, "en", "lápices", "desfago") == [
        "LAPICES: plural of LÁPIZ",
        "DESFAGO: a form of DESFACER, transitive (conjugation model 06, like HACER)",
    ]
