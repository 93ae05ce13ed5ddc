"""Editions as data: the tile tables of REFERENCE §1, and validation of edition files."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from lextools import UnknownEditionError, edition_names, load_edition, spell
from lextools.core.edition import parse_edition
from lextools.core.errors import EditionDataError, QueryError


def test_five_editions_are_shipped() -> None:
    assert edition_names() == ["en", "es-fise", "es-mattel2021", "es-na103", "fr"]


@pytest.mark.parametrize(("name", "total"), [("es-fise", 100), ("es-na103", 103), ("en", 100), ("fr", 102)])
def test_tile_totals(name: str, total: int) -> None:
    ed = load_edition(name)
    assert ed.total_tiles == total
    assert sum(t.count for t in ed.tiles if t.count) + (ed.blanks or 0) == total


def test_mattel2021_unverified_facts_are_null_not_guessed() -> None:
    ed = load_edition("es-mattel2021")
    assert ed.total_tiles is None and ed.blanks is None
    assert ed.by_label["K"].value == 10
    assert all(t.count is None for t in ed.tiles)
    assert all(t.value is None for t in ed.tiles if t.label != "K")
    assert ed.unverified
    assert not ed.digraphs and "W" in ed.letters_without_tile


def test_digraph_tiles_per_edition() -> None:
    assert [t.label for t in load_edition("es-fise").digraphs] == ["CH", "LL", "RR"]
    assert [t.label for t in load_edition("es-na103").digraphs] == ["LL", "RR"]
    assert load_edition("es-fise").letters_without_tile == {"K", "W"}
    assert load_edition("es-na103").letters_without_tile == frozenset()
    assert {"K", "W"} <= load_edition("es-na103").letters


def test_values_from_reference() -> None:
    fise, na, en, fr = (load_edition(n) for n in ("es-fise", "es-na103", "en", "fr"))
    assert fise.by_label["CH"].value == 5 and fise.by_label["LL"].value == 8 and fise.by_label["Ñ"].value == 8
    assert na.by_label["J"].value == 6 and na.by_label["K"].value == 8 and na.by_label["W"].value == 8
    assert en.by_label["Q"].value == 10 and en.by_label["K"].value == 5
    assert fr.by_label["K"].value == 10 and fr.by_label["E"].count == 15


def test_unknown_edition() -> None:
    with pytest.raises(UnknownEditionError, match="es-xx"):
        load_edition("es-xx")
    with pytest.raises(UnknownEditionError):
        load_edition("../editions/es-fise")


def _data(name: str) -> dict:
    return json.loads((resources.files("lextools.core") / "editions" / f"{name}.json").read_text("utf-8"))


def test_wrong_total_is_refused() -> None:
    data = _data("es-fise")
    data["tiles"][0]["count"] += 1
    with pytest.raises(EditionDataError, match="add up to 101"):
        parse_edition(data)


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d["tiles"].append(copy.deepcopy(d["tiles"][0])),  # duplicate label
        lambda d: d["tiles"][-1].update(code="ZZ"),  # code of two characters
        lambda d: d["letters_without_tile"].append("A"),  # both with and without a tile
        lambda d: d["tiles"][0].update(count=None),  # total given, a count unknown
    ],
)
def test_inconsistent_edition_data_is_refused(damage) -> None:
    data = _data("es-fise")
    damage(data)
    with pytest.raises(EditionDataError):
        parse_edition(data)


def test_probability_needs_counts() -> None:
    fise = load_edition("es-fise")
    assert fise.probability(("C", "A", "S", "A")) == 4 * 66 * 6  # C(4,1)·C(12,2)·C(6,1)
    with pytest.raises(QueryError, match="unverified"):
        load_edition("es-mattel2021").probability(("C", "A"))


def test_score_blanks_are_zero_and_unverified_values_give_none() -> None:
    fise = load_edition("es-fise")
    assert fise.score(("CH", "I", "Q", "U", "I", "LL", "O")) == 22
    assert fise.score(("CH", "I", "Q", "U", "I", "LL", "O"), blanks=[0]) == 17
    assert load_edition("es-mattel2021").score(("C", "A")) is None


def test_every_edition_sorts_in_its_own_alphabet() -> None:
    """es-fise: … CU, CHA, D …, LU, LLA, M, NU, ÑU; the other Spanish editions spell CH as C+H."""
    fise = load_edition("es-fise")
    words = ["DA", "CHA", "CU", "CE", "LLA", "LU", "MA", "ÑU", "NU", "ZA", "RRA", "RU", "SA"]
    keys = [spell(w, fise).key for w in words]
    assert [fise.spelling(k) for k in fise.sort_keys(keys)] == [
        "CE", "CU", "CHA", "DA", "LU", "LLA", "MA", "NU", "ÑU", "RU", "RRA", "SA", "ZA",
    ]  # fmt: skip
    na = load_edition("es-na103")
    keys = [spell(w, na).key for w in ["CHA", "CU", "KA", "JA", "LLA", "LU", "ÑU", "NU", "OS"]]
    assert [na.spelling(k) for k in na.sort_keys(keys)] == ["CHA", "CU", "JA", "KA", "LU", "LLA", "NU", "ÑU", "OS"]
    assert load_edition("es-fise").sort_labels(["Ñ", "N", "CH", "C", "D"]) == ["C", "CH", "D", "N", "Ñ"]
    for name in ("en", "fr"):
        ed = load_edition(name)
        assert list(ed.alphabet) == [chr(c) for c in range(ord("A"), ord("Z") + 1)]


def test_an_alphabet_must_name_every_tile_once() -> None:
    data = json.loads((resources.files("lextools.core") / "editions" / "fr.json").read_text("utf-8"))
    data["alphabet"] = data["alphabet"][:-1]
    with pytest.raises(EditionDataError, match="alphabet"):
        parse_edition(data)
