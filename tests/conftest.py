"""Shared fixtures: small lexicons built through the library's build API from the lists in tests/data,
and the default lexicons of build/*.toml, each built once per session."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from lextools.builder import build_default, build_from_lists
from lextools.builder.compile import compile_words, write_lexicon
from lextools.builder.filters import SourceWord, rules_named
from lextools.core.edition import load_edition
from lextools.core.lexicon import READERS, Lexicon, load_lexicon
from lextools.core.wordlist import WordList, read_list, read_words
from service.http import limits as service_limits
from tests.postgres import PostgresServer, running_postgres

DATA = Path(__file__).parent / "data"

#: Which test list each edition is built from.
SMALL_LISTS = {
    "es-fise": "es-small.txt",
    "es-na103": "es-small.txt",
    "es-mattel2021": "es-small.txt",
    "en": "en-small.txt",
    "fr": "fr-small.txt",
}

#: The filter rules of every small lexicon.
SMALL_RULES = ("one-tile", "proper-noun")

#: The name a list of words given in memory is recorded under (the lexicon's source, the sidecar's).
WORDS_NAME = "words.txt"


def build_small(
    home: Path, edition_name: str, words: Sequence[str] | None = None, *, force: bool = False
) -> dict[str, Any]:
    """Build one small lexicon into ``home`` as ``lextools build E --source LIST`` does, through
    :func:`lextools.builder.build_from_lists`: the guard, the build lock and the provenance sidecar
    are a user's. ``words`` default to the edition's list in tests/data; ``force`` as ``--force``."""
    edition = load_edition(edition_name)
    if words is None:
        wordlist = read_list(DATA / SMALL_LISTS[edition_name])
    else:
        wordlist = WordList.of(home / WORDS_NAME, list(words), "UTF-8")  # a name only: no file there
    return build_from_lists(home, edition, [wordlist], SMALL_RULES, force=force)


def build_pinned(home: Path, edition_name: str) -> dict[str, Any]:
    """FROZEN: the small lexicons tests/test_pinned_corpus.py's answers were recorded over, made the
    way the fixtures made them then (source "test", the rules of :data:`SMALL_RULES`, written with
    no guard and no provenance sidecar), so the pinned answers stay comparable. Do not move it onto
    :func:`build_small`: a sidecar changes the reasons of invalid words, which would re-record them."""
    edition = load_edition(edition_name)
    words = read_words(DATA / SMALL_LISTS[edition_name])
    rules = rules_named(list(SMALL_RULES))
    keys, report = compile_words((SourceWord(w, source="test") for w in words), edition, rules)
    return write_lexicon(home, edition, keys, report, [{"name": "test", "licence": "test data"}], rules)


# -- the two workers of scripts/test (pytest-xdist, ``-n 2 --dist loadgroup``) ---------------------

#: The session fixtures that build a default lexicon (tens of seconds each), by the group their tests
#: share: every test that takes one runs on the same worker, so each is built once, not once a worker.
DEFAULT_GROUPS = {
    "default_home": "es-fise default",
    "fr_home": "fr default",
    "en_home": "en default",
    "postgres_server": "postgres",  # one PostgreSQL cluster for every test that needs one (tests/postgres.py)
}


def _set_nodeid(item: pytest.Item, nodeid: str) -> None:
    """Give ``item`` the id ``nodeid``. pytest keeps it in ``_nodeid`` (up to 9.1) or as a parsed
    ``_id`` (9.2 on, where pytest-xdist 3.8's own ``@group`` suffix, written to ``_nodeid``, is lost)."""
    if hasattr(item, "_id"):
        item._id = type(item._id).parse(nodeid)
    else:
        item._nodeid = nodeid


def xdist_group(item: pytest.Item) -> str:
    """The unit of work a test belongs to: the default lexicon it reads, else its file (whose
    module-scoped servers and browsers then start once). A test that names the fixture in a
    parameter (``request.getfixturevalue(home)``) reads it too: on another worker it would be built
    a second time."""
    names = set(getattr(item, "fixturenames", ()))
    callspec = getattr(item, "callspec", None)
    if callspec is not None:
        names.update(value for value in callspec.params.values() if isinstance(value, str))
    for fixture, group in DEFAULT_GROUPS.items():
        if fixture in names:
            return group
    return item.nodeid.split("::")[0]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Unique test ids, and under ``--dist loadgroup`` the group of each test after an ``@``.

    schemathesis names each operation's test ``test_x[GET /v1/…]`` but pytest 9.2 derives the id
    from the bare function name, so the operations of tests/test_service_fuzz.py would share one id
    (xdist would then run only the first, and a failure would not say which operation failed)."""
    seen: set[str] = set()
    for item in items:
        if item.nodeid in seen or type(item).__name__ == "SchemathesisFunction":
            _set_nodeid(item, f"{item.nodeid.rpartition('::')[0]}::{item.name}")
        seen.add(item.nodeid)
    # xdist's workers run with ``dist="no"`` and ``loadgroup`` set from the controller's ``--dist``
    if config.getoption("loadgroup", False) or config.getoption("dist", "no") == "loadgroup":
        for item in items:
            _set_nodeid(item, f"{item.nodeid}@{xdist_group(item)}")


def pytest_configure(config: pytest.Config) -> None:
    """pytest-xdist's workers start with ``COLUMNS=80`` in their environment, which a plain run has
    not. rich fixes the width of a console made then (``lextools.cli.common.out``, made when the
    doctests import the CLI's modules), and the CLI's tables would wrap where a test asks for more
    room (``COLUMNS`` in ``CliRunner.invoke``'s env): a worker runs without them, as a plain run does."""
    if hasattr(config, "workerinput"):
        os.environ.pop("COLUMNS", None)
        os.environ.pop("LINES", None)


#: The service's wall-clock limits as the tests' apps get them: long enough that a busy machine (another
#: process on one of the two cores, the export child at low priority behind the test workers) never
#: turns an answer into 503 ``busy``. A test of a limit sets its own (0, to see it hit). Search pages keep
#: their budget: the fuzz tests ask for walks that only a budget ends.
PATIENT_LIMITS = {"QUIZ_BUDGET_MS": 20_000, "EXPORT_WAIT_MS": 600_000}


@pytest.fixture(scope="session", autouse=True)
def patient_limits() -> Iterator[None]:
    """Every app a test makes (``create_app``) starts from :data:`PATIENT_LIMITS` instead of the
    service's defaults, whichever test file makes it; what a test passes in its config still wins."""
    with pytest.MonkeyPatch.context() as mp:
        for name, value in PATIENT_LIMITS.items():
            mp.setitem(service_limits.LIMITS, name, (value, service_limits.LIMITS[name][1]))
        yield


@pytest.fixture(scope="session", autouse=True)
def export_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The service's export cache (``$LEXTOOLS_CACHE``) in the session's temporary directory, for
    every app and server the tests start: nothing is written to the user's cache."""
    cache = tmp_path_factory.mktemp("export-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LEXTOOLS_CACHE", str(cache))
        yield cache


@pytest.fixture(scope="session")
def lexicon_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A lexicon directory with all five editions built from the small test lists (:func:`build_small`)."""
    home = tmp_path_factory.mktemp("lexicons")
    for name in SMALL_LISTS:
        build_small(home, name)
    return home


@pytest.fixture(scope="session")
def pinned_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """FROZEN: the five small lexicons of tests/test_pinned_corpus.py (:func:`build_pinned`)."""
    home = tmp_path_factory.mktemp("pinned")
    for name in SMALL_LISTS:
        build_pinned(home, name)
    return home


def _default(tmp_path_factory: pytest.TempPathFactory, edition: str) -> Path:
    home = tmp_path_factory.mktemp(f"default-{edition}")
    build_default(edition, home)
    return home


@pytest.fixture(scope="session")
def default_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default es-fise lexicon (build/es-fise.toml, from the open sources), built once per
    session for every test that needs real words in their hundreds of thousands. Read it, never
    write to it: a test that needs another recipe builds that one into its own tmp_path."""
    return _default(tmp_path_factory, "es-fise")


@pytest.fixture(scope="session")
def fr_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default fr lexicon (build/fr.toml), once per session; read only."""
    return _default(tmp_path_factory, "fr")


@pytest.fixture(scope="session")
def en_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default en lexicon (build/en.toml), once per session; read only."""
    return _default(tmp_path_factory, "en")


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


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL server (tests/postgres.py), started once and stopped at the end."""
    with running_postgres() as server:
        yield server


@pytest.fixture()
def database_url(postgres_server: PostgresServer, request: pytest.FixtureRequest) -> str:
    """The URL of a new, empty database on the test server: each test its own."""
    name = "t_" + hashlib.sha1(request.node.nodeid.encode()).hexdigest()[:16]
    return postgres_server.create_database(name)
