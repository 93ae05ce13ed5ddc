"""Figures the README and docs/*.md quote about the default lexicons, measured on the default builds
(tests/conftest.py's default_home, fr_home and en_home, each test in its lexicon's xdist group), so a
figure cannot outlive the build it was read from; and the build's summary in plain words.

Timings are not figures a test can check: the docs state each with its date and machine.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lextools.builder.compile import SPELLING_RULES
from lextools.builder.recipes import load_recipe
from lextools.cli.build import _report_build, rule_text
from lextools.core.edition import load_edition
from lextools.core.lexicon import load_lexicon
from lextools.features import lists

ROOT = Path(__file__).parent.parent


def quoted(page: str, pattern: str) -> re.Match[str]:
    """Where ``page`` (a path from the repository root) quotes a figure, its lines joined: a sentence
    may break anywhere."""
    text = " ".join((ROOT / page).read_text("utf-8").split())
    found = re.search(pattern, text)
    assert found, f"{page} no longer says {pattern!r}: update this test with the page"
    return found


def metadata(home: Path, edition: str) -> dict[str, object]:
    meta: dict[str, object] = json.loads((home / f"{edition}.json").read_text("utf-8"))
    return meta


@pytest.mark.parametrize(
    ("home", "edition", "pattern"),
    [
        ("default_home", "es-fise", r"about ([\d.]+) million source forms for each Spanish edition"),
        ("fr_home", "fr", r"([\d.]+) million for French"),
        ("en_home", "en", r"([\d.]+) million for English"),
    ],
)
def test_the_source_forms_a_build_reads(request: pytest.FixtureRequest, home: str, edition: str, pattern: str) -> None:
    """docs/setup.md: how many source forms a default build spells and filters, per edition."""
    counts = metadata(request.getfixturevalue(home), edition)["counts"]
    assert isinstance(counts, dict)
    said = float(quoted("docs/setup.md", pattern)[1])
    assert round(counts["read"] / 1_000_000, 1) == said, f"{edition} read {counts['read']:,} source forms"


def test_the_spanish_editions_read_the_same_sources() -> None:
    """docs/setup.md says "for each Spanish edition" of es-fise's count: the three read one set of sources."""
    assert load_recipe("es-na103").sources == load_recipe("es-mattel2021").sources == load_recipe("es-fise").sources


def test_the_first_stem_of_es_fise(default_home: Path) -> None:
    """docs/study.md: "es-fise's first 6-tile stem is AENORS, which takes 27 tiles"."""
    said = quoted("docs/study.md", r"es-fise's first 6-tile stem is (\w+), which takes (\d+) tiles")
    first = lists.stems(load_lexicon("es-fise", default_home), 6, 1, 1)["stems"][0]
    assert (first["stem"], len(first["takes"])) == (said[1], int(said[2]))


def test_the_count_a_list_ends_with(default_home: Path) -> None:
    """docs/command-line.md: what `high-value es-fise ñ --length 4` says after its first page."""
    said = quoted("docs/command-line.md", r"--length 4`: \"(\d+) de (\d+) palabras con Ñ; --from (\d+) muestra")
    page = lists.with_tile(load_lexicon("es-fise", default_home), "ñ", 4, 1, lists.DEFAULT_PAGE)
    assert (page["count"], page["total"], page["count"] + 1) == tuple(map(int, said.groups()))


def test_the_high_value_tiles() -> None:
    """docs/study.md names each edition's tiles worth 5 or more."""
    said = quoted("docs/study.md", r"\(es-fise: ([^;]+); en: ([^)]+)\)")
    assert lists.high_value_tiles(load_edition("es-fise")) == said[1].split()
    assert lists.high_value_tiles(load_edition("en")) == said[2].split()


def test_the_build_summary_is_in_plain_words(default_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No rule's identifier in the summary of a default build: each rule as a phrase, each source's
    line saying what it counts."""
    meta = metadata(default_home, "es-fise")
    _report_build(meta, default_home)
    said = capsys.readouterr().err
    dropped = meta["counts"]
    assert isinstance(dropped, dict)
    for rule, n in dropped["dropped"].items():
        if n:
            assert f"{n:,}  {rule_text(rule)}" in said
        if "-" in rule:  # outside-paradigm, too-long: an identifier, never a phrase
            assert rule not in said, rule
    sources = meta["sources"]
    assert isinstance(sources, list)
    for source in sources:
        line = f"{source['name']}: {source['words']:,} in the lexicon, {source['only_here']:,} from it alone; "
        assert line + f"{source['removed']:,} left out by a rule" in said


def test_every_rule_a_build_counts_has_a_phrase() -> None:
    """The spelling rules, counted with the recipe's, are phrases too (the catalogue's, or their own)."""
    for rule in SPELLING_RULES:
        assert rule == "empty" or rule_text(rule) != rule, rule  # "empty" is a plain word already
