"""Shared fixtures: small lexicons built through the real pipeline from the lists in tests/data."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lextools.build.compile import compile_words, write_lexicon
from lextools.build.filters import SourceWord, rules_named
from lextools.build.recipes import build_default
from lextools.core.edition import load_edition
from lextools.core.lexicon import READERS, Lexicon, load_lexicon
from lextools.core.wordlist import read_words

DATA = Path(__file__).parent / "data"

#: Which test list each edition is built from.
SMALL_LISTS = {
    "es-fise": "es-small.txt",
    "es-na103": "es-small.txt",
    "es-mattel2021": "es-small.txt",
    "en": "en-small.txt",
    "fr": "fr-small.txt",
}


def build_small(home: Path, edition_name: str, words: list[str] | None = None) -> dict:
    """Build one small lexicon into ``home`` the way ``lextools build --source`` does."""
    edition = load_edition(edition_name)
    if words is None:
        words = list(read_words(DATA / SMALL_LISTS[edition_name]))
    rules = rules_named(["one-tile", "proper-noun"])
    keys, report = compile_words((SourceWord(w, source="test") for w in words), edition, rules)
    return write_lexicon(home, edition, keys, report, [{"name": "test", "licence": "test data"}], rules)


@pytest.fixture(scope="session")
def lexicon_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A lexicon directory with all five editions built from the small test lists."""
    home = tmp_path_factory.mktemp("lexicons")
    for name in SMALL_LISTS:
        build_small(home, name)
    return home


@pytest.fixture(scope="session")
def default_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default es-fise lexicon (build/es-fise.toml, from the open sources): about half a minute,
    so it is built once per session, for every test that needs real words in their hundreds of
    thousands."""
    home = tmp_path_factory.mktemp("defaults")
    build_default("es-fise", home)
    return home


@pytest.fixture(scope="session", params=READERS)
def reader(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each reader in turn (``LEXTOOLS_READER``): dawg2's C++ one and the DAWG-Python fallback."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LEXTOOLS_READER", request.param)
        yield request.param


@pytest.fixture(scope="session")
def es(lexicon_home: Path, reader: str) -> Lexicon:
    """es-fise, once per reader: every query test that takes it runs on both."""
    lex = load_lexicon("es-fise", lexicon_home)
    assert lex.reader == reader
    return lex


# -- the service (service/): a Flask app over the small lexicons, and its test client -------------

from flask import Flask  # noqa: E402  (appended with the service fixtures)
from flask.testing import FlaskClient  # noqa: E402

from service import create_app  # noqa: E402


@pytest.fixture()
def app(lexicon_home: Path, tmp_path: Path) -> Flask:
    """The app over the small lexicons; each test has its own challenge record (and secret)."""
    return create_app({"LEXICONS": lexicon_home, "TESTING": True, "RECORD": tmp_path / "challenges.sqlite3"})


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()
