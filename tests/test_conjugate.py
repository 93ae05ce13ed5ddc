"""The model-based Spanish conjugator (lextools.builder.conjugate): every model's full paradigm.

The expected paradigms (tests/data/conjugation-models.txt) are those of each model verb in the RAE's
conjugation tables (Diccionario de la lengua española, 23rd ed., the conjugation table of the verb;
Nueva gramática de la lengua española, 2009, appendix of model verbs): one verb per model, every cell.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lextools.builder.conjugate import CELLS, PERSONS, TENSES, conjugate, forms, models
from lextools.core.errors import SourceError

TABLES = Path(__file__).parent / "data" / "conjugation-models.txt"


def _tables() -> dict[tuple[str, str, str], dict[str, list[str]]]:
    tables: dict[tuple[str, str, str], dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for line in TABLES.read_text("utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("== "):
            conj, code, verb = line[3:].split()
            current = tables[(conj, code, verb)] = {}
            continue
        row, *cells = line.split()
        names = [f"{row}{p}" for p in PERSONS] if row in TENSES else [row]
        assert len(cells) == len(names), line
        for name, cell in zip(names, cells, strict=True):
            if cell != "-":
                current[name] = cell.split("/")
    return tables


EXPECTED = _tables()


def test_every_model_has_its_table() -> None:
    assert {(c, code) for c, code, _ in EXPECTED} == set(models())
    assert len(models()) == 3 + 15 + 27 + 28


@pytest.mark.parametrize(("conj", "code", "verb"), sorted(EXPECTED))
def test_model_paradigm(conj: str, code: str, verb: str) -> None:
    assert models()[(conj, code)].verb == verb
    got = conjugate(verb, code)
    expected = EXPECTED[(conj, code, verb)]
    assert [c for c in CELLS if c in got] == [c for c in CELLS if c in expected]
    for cell, cell_forms in expected.items():
        assert got[cell] == cell_forms, (verb, cell)


@pytest.mark.parametrize(
    ("verb", "code", "cell", "expected"),
    [
        ("sacar", "00", "sp1", "saque"),  # spelling keeps the sound: QU, GU, C, GÜ, Z, J, G, C
        ("pagar", "00", "is1", "pagué"),
        ("cazar", "00", "sp4", "cacemos"),
        ("averiguar", "00", "sp1", "averigüe"),
        ("vencer", "00", "ip1", "venzo"),
        ("coger", "00", "sp3", "coja"),
        ("distinguir", "00", "ip1", "distingo"),
        ("delinquir", "00", "sp1", "delinca"),
        ("seguir", "15", "ip1", "sigo"),
        ("elegir", "15", "sp4", "elijamos"),
        ("colgar", "01", "sp1", "cuelgue"),
        ("avergonzar", "01", "ip1", "avergüenzo"),
        ("avergonzar", "01", "sp1", "avergüence"),
        ("cocer", "08", "ip1", "cuezo"),
        ("argüir", "06", "is3", "arguyó"),
        ("contener", "17", "m2", "contén"),  # a model's own forms, with the verb's beginning
        ("componer", "11", "part", "compuesto"),
        ("prever", "20", "ip2", "prevés"),
        ("deshacer", "06", "m2", "deshaz"),
        ("sonreír", "20", "is3", "sonrió"),
        ("freír", "20", "is3", "frio"),
        ("maldecir", "25", "part", "maldecido"),
        ("contradecir", "07", "ip1", "contradigo"),
        # the model's pattern whatever the infinitive's ending: DESFACER like HACER (DESF- for H-),
        # CONTRAHACER like REHACER (CONTRA- for RE-)
        ("desfacer", "06", "ip1", "desfago"),
        ("desfacer", "06", "part", "desfecho"),
        ("desfacer", "06", "m2", "desfaz"),
        ("desfacer", "06", "is3", "desfizo"),
        ("contrahacer", "24", "is1", "contrahíce"),
        ("contrahacer", "24", "part", "contrahecho"),
        ("fosforescer", "23", "ip1", "fosforezco"),
        ("fosforescer", "23", "ip1", "fosforesco"),  # FISE's model 23 keeps -sc- too
        ("pubescer", "23", "sp4", "pubescamos"),
        # PODRIR is conjugated on PUDR-: the infinitives and the participle PODRIDO alone have O
        ("podrir", "22", "inf", "pudrir"),
        ("podrir", "22", "ip1", "pudro"),
        ("podrir", "22", "sp1", "pudra"),
        ("podrir", "22", "ii1", "pudría"),
        ("podrir", "22", "if1", "pudriré"),
        ("podrir", "22", "m5", "pudrid"),
        ("podrir", "22", "vp2", "pudrís"),
        ("podrir", "22", "part", "podrido"),
        ("repudrir", "22", "inf", "repodrir"),
        ("repudrir", "22", "part", "repodrido"),
    ],
)
def test_other_verbs_of_a_model(verb: str, code: str, cell: str, expected: str) -> None:
    assert expected in conjugate(verb, code)[cell]


def test_forms_and_errors() -> None:
    assert forms("amar")[:3] == ["amar", "amando", "amado"]
    assert len(forms("amar")) == len(set(forms("amar")))
    with pytest.raises(SourceError):
        conjugate("amar", "16")  # the first conjugation has 15 irregular models
    with pytest.raises(SourceError):
        conjugate("tenor", "00")
    with pytest.raises(SourceError, match="does not end like"):
        conjugate("comer", "15")  # SER's own forms (SOY, FUI) fit no verb that does not end in SER


def test_forms_of_the_model_verb_alone() -> None:
    """PLUGO, PLEGUE, PLUGUIERA are PLACER's (third persons), not COMPLACER's."""
    placer, complacer = conjugate("placer", "26"), conjugate("complacer", "26")
    assert "plugo" in placer["is3"] and "pluguiera" in placer["sr3"] and "plegue" in placer["sp3"]
    assert "pluguiera" not in placer["sr1"] and "pluguiéramos" not in placer["sr4"]
    assert not {"plugo", "complugo"} & set(complacer["is3"]) and complacer["sp3"] == ["complazca"]
