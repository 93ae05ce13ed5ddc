"""Builds from FISE's lemma lists (``lextools build es-fise --fise-lists DIR [--fise-update DIR]``).

The lists in tests/data/fise are our own, written in the published format (Latin-1, CRLF with some
bare CR, a header in prose ending in a ``#`` line, sections, sub-headings, superscripts); the
federation's files are never shipped. ``total/`` holds the two totals, the revision that made them,
the two- and three-tile totals and a file that is no list; ``update1/`` a later revision of verbs and of other words.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lextools.builder.conjugate import forms
from lextools.builder.fise_forms import PluralEvidence, defective_cells, load_lists
from lextools.cli.main import app, main
from lextools.core.lexicon import Lexicon, load_lexicon
from service import create_app
from tests.fise_folder import RECIPE

FISE = Path(__file__).parent / "data" / "fise"


def build(tmp: Path, home: Path, lists: Path, *updates: Path) -> tuple[int, str]:
    recipe = tmp / "fise.toml"
    recipe.write_text(RECIPE, "utf-8")
    args = ["build", "es-fise", "--recipe", str(recipe), "--fise-lists", str(lists), "--lexicons", str(home)]
    for update in updates:
        args += ["--fise-update", str(update)]
    result = CliRunner().invoke(app, args)
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def homes(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("fise")
    base, updated = tmp / "base", tmp / "updated"
    code, output = build(tmp, base, FISE / "total")
    assert code == 0, output
    assert "abarcuzar, forms unread (solo en la jerga de los pastores)" in output  # a D wording not understood
    # the two- and three-tile totals (digits for digraphs: 1e is CHE) checked against the build
    check = "two- and three-tile check: 8 listed, 1 of them not made (che), 0 made and not listed"
    assert check in " ".join(output.split())
    code, output = build(tmp, updated, FISE / "total", FISE / "update1")
    assert code == 0, output
    assert "new verb tuitear given without its model: conjugated as model 00" in output
    return base, updated


def valid(lex: Lexicon, *words: str) -> list[str]:
    return [w for w in words if lex.lookup(w).valid]


def words(text: str) -> list[str]:
    return text.split()


def test_each_class_code_and_property(homes: tuple[Path, Path]) -> None:
    lex = load_lexicon("es-fise", homes[0])
    yes = words(
        "AMADAS AMO AMÁS AMÁ BOXEADO CONTÁS CUENTO ABARRAR ACARONAR ABALDONAR JACTAR JACTARSE ACURRUCAR "
        "CLAREA CLAREAS NIEVA NEVANDO YERRO ERRO ABARCUZAR HECHAS VUELTO VUELTAS ATAÑE ATAÑENDO FRITO FREÍDO FRITAS "
        "EMBAÍMOS EMBAYÓ ARREPENTIR ARREPENTIRSE ARREPINTIÓ"
    )
    # class 4 (ACURRUCAR) and class 5 (CLAREAR) have no SE infinitive (§17.5), class 5 is not impersonal but
    # has no imperative (CLAREA is its present), classes 3-5 no vosotros imperative (§17.10)
    no = words(
        "BOXEADA BOXEADAS ABARRO ACARONO ABALDONA JACTADA JACTÁNDOSE ACURRUCARSE CLAREARSE CLAREAD JACTAD ACURRUCAD "
        "NIEVO HACIDO VOLVIDO ATAÑES EMBAYA ABARCUZO KAYAKEAR DESCONSTITUCIONALIZAR AMARLE AMAOS CONTÉS"
    )
    assert valid(lex, *yes) == yes
    assert valid(lex, *no) == []


def test_other_words_their_feminines_and_plurals(homes: tuple[Path, Path]) -> None:
    lex = load_lexicon("es-fise", homes[0])
    yes = words(
        "CASA CASAS PERRO PERRA PERROS PERRAS LUNES ÁRBOLES LÁPICES BOTES JABALÍES ZUMBRELES DICTUM ENSERES ÑANDÚS"
    )
    # JABALÍS and DICTUMS: the folder's revision removes the one plural and adds the other word as invariable;
    # ZAPATIESTA: its removal is already in the totals
    no = words("JABALÍS DICTUMS LUNESES ZAPATIESTA")
    assert valid(lex, *yes) == yes
    assert valid(lex, *no) == []


def test_a_later_revision_gives_the_totals_expected(homes: tuple[Path, Path]) -> None:
    base, updated = (load_lexicon("es-fise", h) for h in homes)

    def keys(words: set[str]) -> set[str]:
        return {k for w in words if (k := base.spell(w).key)}

    boxear = set(forms("boxear")) - {"boxear"}  # from used to obsolete: the infinitive only
    removed = keys({"abaldonar", "contada", "contadas", "contados", "lunes", "perras"} | boxear)
    four = {"tuiteada", "tuiteados", "tuiteadas", "abarrada", "abarrados", "abarradas"}
    added = keys(set(forms("tuitear")) | set(forms("bloguear")) | set(forms("abarrar")) | four)
    added |= keys({"tuit", "tuits", "guau", "víveres"})
    assert set(updated) == (set(base) - removed) | added
    assert len(updated) == len(base) - len(removed) + len(added - set(base))
    now_valid = ["CONTADO", "BLOGUEADO", "ABARRADAS", "TUITEADAS"]
    assert valid(updated, *now_valid) == now_valid
    assert valid(updated, "BLOGUEADAS", "BOXEO", "LUNES", "PERRAS", "GUAUS") == []


def test_a_verb_new_in_a_later_revision_cites_its_line(homes: tuple[Path, Path]) -> None:
    """TUITEAR, given by its infinitive alone in update1's verb revision (a list of the same name as the
    totals' own revision): cited from that list and line, not left without a list."""
    args = ["explain", "es-fise", "tuiteo", "--lang", "en", "--lexicons", str(homes[1])]
    (said,) = CliRunner().invoke(app, args).stdout.splitlines()
    assert said == (
        "TUITEO: a form of TUITEAR, transitive (conjugation model 00, like AMAR) "
        "(fixture-verbs-revision.txt, line 21; FISE lexicon regulation 2016, §17.2)"
    )


def test_explain_names_lemma_model_class_and_rule(homes: tuple[Path, Path]) -> None:
    home = homes[0]
    args = ["explain", "es-fise", "amadas", "boxeadas", "cuento", "abarro", "jactarse", "--lang", "en"]
    out = CliRunner().invoke(app, [*args, "--lexicons", str(home)]).stdout.splitlines()
    regulation = "FISE lexicon regulation 2016"
    assert out == [
        "AMADAS: participle of AMAR, transitive — all four forms (conjugation model 00, like AMAR) "
        f"({VERBS}, line 18; {regulation}, §17.4)",
        "BOXEADAS: participle of BOXEAR, intransitive — masculine singular only (conjugation model 00, like AMAR) "
        f"({VERBS}, line 19; {regulation}, §17.4)",
        "CUENTO: a form of CONTAR, transitive (conjugation model 01, like CONTAR) "
        f"({VERBS}, line 20; {regulation}, §17.2)",
        "ABARRO: a form of ABARRAR, an obsolete or Spanish-regional verb — the infinitive only "
        f"({VERBS}, line 21; {regulation}, §17.7)",
        "JACTARSE: infinitive of JACTAR with SE, pronominal only — valid with and without SE "
        f"({VERBS}, line 24; {regulation}, §17.5)",
    ]
    client = create_app({"LEXICONS": home, "TESTING": True}).test_client()
    answer = client.get("/v1/es-fise/words/amadas?lang=es").get_json()
    assert answer["valid"] and answer["rule"] == "lemma-part-all"
    assert answer["reason"] == (
        "AMADAS: participio de AMAR, transitivo — las cuatro formas (modelo de conjugación 00, como AMAR) "
        f"({VERBS}, línea 18; Reglamento de léxico FISE 2016, §17.4)"
    )
    answer = client.get("/v1/es-fise/words/boxeadas?lang=en").get_json()
    assert not answer["valid"] and answer["rule"] == "fise-participle"
    assert answer["reason"].startswith("BOXEADAS: participle of BOXEAR, intransitive — masculine singular only")
    meta = json.loads((home / "es-fise.json").read_text("utf-8"))
    (source,) = meta["sources"]
    assert source["name"] == "fise-lists" and set(source["files"]) >= {"verbs", "nonverbs", "nonverb-update-0"}


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "lists"
    shutil.copytree(FISE / "total", folder)
    return folder


VERBS = "fixture-verbs.txt"


@pytest.mark.parametrize(
    ("old", "new", "report"),
    [
        (b"01-1-.-contar 2", b"31-1-.-contar 2", "20: 31-1-.-contar 2 (unknown model code '31' for -ar verbs)"),
        (b"00-2-.-boxear", b"00-7-.-boxear", "19: 00-7-.-boxear (unknown class code '7' (0 to 5))"),
        (b"\n2. SEGUNDA CONJUGACI\xd3N", b"\n2. CUARTA CONJUGACI\xd3N", "33: 2. CUARTA CONJUGACIÓN (a section title"),
        (b"00-1-.-amar", b"00-1-.-amar;", "18: 00-1-.-amar; (not a verb line (MM-T-P-infinitive))"),
        (b"00-1-.-amar", b"amar", "18: amar (not a verb line"),
    ],
)
def test_lines_not_understood_are_reported_and_skipped(tmp_path: Path, old: bytes, new: bytes, report: str) -> None:
    """A line the reader cannot interpret is reported (file, line, text, why) and skipped: the build goes on."""
    folder = _copy(tmp_path)
    path = folder / VERBS
    data = path.read_bytes()
    assert old in data
    path.write_bytes(data.replace(old, new, 1))
    code, output = build(tmp_path, tmp_path / "home", folder)
    assert code == 0, output
    text = " ".join(output.split())
    assert f"1 line not understood, skipped ({VERBS} 1)" in text and f"{VERBS}:{report}" in text, output
    meta = json.loads((tmp_path / "home" / "es-fise.json").read_text("utf-8"))
    assert meta["sources"][0]["fise"]["not_understood_by_file"] == {VERBS: 1}


def test_a_list_in_another_encoding_is_refused_by_file_and_line(
    tmp_path: Path, homes: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _copy(tmp_path)
    path = folder / VERBS
    data = path.read_bytes()
    path.write_bytes(data.replace(b"LEXIC\xd3N FISE 2: TOTAL", "LEXICÓN FISE 2: TOTAL".encode(), 1))
    home = tmp_path / "home"
    shutil.copytree(homes[0], home)
    before = (home / "es-fise.json").read_bytes()
    args = ["build", "es-fise", "--fise-lists", str(folder), "--lexicons", str(home)]
    monkeypatch.setattr("sys.argv", ["lextools", *args])
    with pytest.raises(SystemExit) as exit_:
        main()
    assert exit_.value.code == 2  # the real entry point: one line, exit 2
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0 and f"{VERBS}: line 1: UTF-8, not Latin-1" in " ".join(err.split()), err
    assert (home / "es-fise.json").read_bytes() == before  # nothing went live


def test_files_are_known_by_their_first_line(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / VERBS).rename(folder / b"lista \xf1 (copia).TXT".decode("utf-8", "surrogateescape"))  # a Latin-1 name
    (folder / "fixture-words.txt").rename(folder / "A.TXT")
    lists = load_lists(folder)
    assert {"amar", "contar", "freir"} <= set(lists.verbs) and "perro" in lists.words
    (folder / "A.TXT").unlink()
    with pytest.raises(Exception, match="no list whose first line names TOTAL DE NO VERBOS SIN PLURALES"):
        load_lists(folder)


def test_defective_wording_and_plural_evidence() -> None:
    assert defective_cells("infinitivo, gerundio, participio y terceras personas") is not None
    assert defective_cells("solo las formas cuya desinencia empieza por -i") is not None
    assert defective_cells("solo en la jerga de los pastores") is None
    evidence = PluralEvidence(attested={"casas"}, without={"ayer", "hurra"}, invariable={"byte"})
    assert evidence.decide("casa", ["casas"]) is True
    # an entry without a plural flag is weak evidence: it decides nothing (HURRA takes one, §18.2)
    assert evidence.decide("hurra", ["hurras"]) is None
    assert evidence.decide("byte", ["bytes"]) is False and evidence.decide("rápidamente", ["x"]) is False
    assert evidence.decide("zumbrel", ["zumbreles"]) is None
