"""Lemma tables as sources (lextools.builder.lemma_table): tags from the real vendored table, bad files refused."""

from __future__ import annotations

import dataclasses
import gzip
from pathlib import Path

import pytest

from lextools.builder.lemma_table import inflects, read_lemma_table
from lextools.builder.read import headwords, headwords_of, read_source
from lextools.core.errors import SourceError
from lextools.core.sources import load_source


@pytest.mark.parametrize(
    ("form", "lemma", "expected"),
    [("abaceras", "abacero", True), ("lapices", "lapiz", True), ("jovenes", "joven", True),
     ("slogan", "eslogan", False), ("ido", "ir", True)],
)  # fmt: skip
def test_a_form_changes_at_most_the_last_two_letters_of_its_lemma(form: str, lemma: str, expected: bool) -> None:
    assert inflects(form, lemma) is expected


def test_the_vendored_table_is_tagged_by_its_policy() -> None:
    tags = {w.raw: w.tags for w in read_source(load_source("spacy-es"))}
    assert "outside-paradigm" in tags["casas"]  # RLA-ES has CASA: its forms are the ones used
    assert "unconfirmed" in tags["metilantraceno"]  # no second source knows it
    assert {"unconfirmed", "outside-paradigm"}.isdisjoint(tags["evaluable"])  # COES lists it too
    assert "unconjugated" in tags["asutilado"] and "unconjugated" not in tags["asutilar"]
    assert "abbreviation" in tags["ml"]
    assert "catorceavo" in tags and not {"14", "abr.", "cd-rom"} & tags.keys()  # letters only


def test_headwords_are_a_tables_lemmas_and_a_dictionarys_entries() -> None:
    lemmas = headwords(load_source("spacy-es"))
    assert {"abacero", "evaluable"} <= lemmas and "abaceras" not in lemmas
    coes = headwords(load_source("coes"))
    assert "forceps" in coes and "forcepses" not in coes


def test_headwords_are_read_once_per_build_for_the_same_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build asks RLA-ES's headwords twice (COES's main dictionary, spaCy's paradigm): within its
    block (headwords_kept) the second time they are the same set, not read again; files with other
    checksums are read anew, files changed since they were read are refused, and after the block
    nothing is kept."""
    from lextools.builder import read as read_mod

    reads: list[str] = []
    real = read_mod.dictionary_headwords
    monkeypatch.setattr(read_mod, "dictionary_headwords", lambda s: reads.append(s.name) or real(s))
    rla = load_source("rla-es")
    with read_mod.headwords_kept():
        first = headwords(rla)
        assert headwords(load_source("rla-es")) is first and reads == ["rla-es"]
        aff = tmp_path / "es.aff"
        aff.write_bytes(rla.files["aff"].read_bytes() + b"\n")
        other = dataclasses.replace(rla, files={**rla.files, "aff": aff}, sha256={**rla.sha256, "aff": _sha256(aff)})
        assert headwords(other) == first and reads == ["rla-es", "rla-es"]
        aff.write_bytes(rla.files["aff"].read_bytes())  # changed since it was read: its checksum no longer holds
        with pytest.raises(SourceError):
            headwords(other)
    assert headwords(rla) == first and reads == ["rla-es"] * 3  # the block over: read again


def _sha256(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    "content",
    [b"not gzip at all", gzip.compress(b"{broken json"), gzip.compress(b'["a", "b"]'), gzip.compress(b'{"a": 1}')],
    ids=["not gzip", "broken JSON", "a list", "not lemmas"],  # (gzip's header has the time: ids stable across workers)
)
def test_a_table_that_is_not_a_form_to_lemma_object_is_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "table.json.gz"
    path.write_bytes(content)
    source = dataclasses.replace(load_source("spacy-es"), files={"table": path}, options={})
    with pytest.raises(SourceError, match="spacy-es"):
        list(read_lemma_table(source, headwords_of))
