"""Hot reload: a rebuild while the service runs is served without a restart and without an error."""

from __future__ import annotations

import logging
import os
import shutil
import threading
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from lextools.core import search
from lextools.core.lexicon import metadata_path
from service import create_app
from service.http.lexicons import CHECKSUM_HEADER, EXTENSION, LexiconCache
from tests.conftest import WORDS_NAME, build_small

WORDS = ["casa", "cosa", "chiquillo"]


class Clock:
    """A monotonic clock the test moves by hand, so interval checks need no sleeping."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_app(home: Path, seconds: float | None, clock: Clock | None = None) -> Flask:
    app = create_app({"LEXICONS": home, "TESTING": True, "RELOAD_CHECK_SECONDS": seconds})
    if clock is not None:
        app.extensions[EXTENSION].clock = clock
    return app


def lookup(client: FlaskClient, word: str) -> tuple[bool, str]:
    """(valid, checksum of the lexicon that answered); the request must succeed."""
    r = client.get(f"/v1/es-fise/words/{word}")
    assert r.status_code == 200, r.json
    return r.json["valid"], r.headers[CHECKSUM_HEADER]


def test_rebuild_is_served_with_its_new_checksum(tmp_path: Path) -> None:
    first = build_small(tmp_path, "es-fise", WORDS)["checksum"]
    client = make_app(tmp_path, 0).test_client()
    assert lookup(client, "saco") == (False, first)

    second = build_small(tmp_path, "es-fise", [*WORDS, "saco"])["checksum"]
    assert second != first
    assert lookup(client, "saco") == (True, second)
    assert client.get("/v1/editions/es-fise").json["lexicon"]["checksum"] == second

    third = build_small(tmp_path, "es-fise", ["cosa", "saco"], force=True)["checksum"]  # words removed: --force
    assert lookup(client, "casa") == (False, third)


def test_checksum_header_names_the_edition_asked_about(tmp_path: Path) -> None:
    checksum = build_small(tmp_path, "es-fise", WORDS)["checksum"]
    client = make_app(tmp_path, 0).test_client()
    assert client.get("/v1/editions/es-fise").headers[CHECKSUM_HEADER] == checksum
    assert client.get("/v1/es-fise/words/kilo").headers[CHECKSUM_HEADER] == checksum  # a 422 too
    assert client.post("/v1/es-fise/check", json={"words": ["casa"]}).headers[CHECKSUM_HEADER] == checksum
    listing = client.get("/v1/editions")  # five editions: no single checksum to name
    assert listing.status_code == 200 and CHECKSUM_HEADER not in listing.headers
    cors = client.get("/v1/es-fise/words/casa", headers={"Origin": "https://example.org"})
    assert CHECKSUM_HEADER in cors.headers["Access-Control-Expose-Headers"]


def test_interval_is_respected(tmp_path: Path) -> None:
    first = build_small(tmp_path, "es-fise", WORDS)["checksum"]
    clock = Clock()
    client = make_app(tmp_path, 60, clock).test_client()
    assert lookup(client, "saco") == (False, first)
    second = build_small(tmp_path, "es-fise", [*WORDS, "saco"])["checksum"]
    clock.now += 59.9
    assert lookup(client, "saco") == (False, first)  # not looked at yet
    clock.now += 0.1
    assert lookup(client, "saco") == (True, second)


def test_default_interval_is_one_second(tmp_path: Path) -> None:
    build_small(tmp_path, "es-fise", WORDS)
    app = create_app({"LEXICONS": tmp_path})
    assert app.extensions[EXTENSION].check_seconds == 1.0


def test_no_check_when_the_metadata_is_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_small(tmp_path, "es-fise", WORDS)
    cache = LexiconCache(tmp_path, check_seconds=0)
    lex = cache.get("es-fise")
    loads: list[str] = []
    monkeypatch.setattr("service.http.lexicons.load_lexicon", lambda *a: loads.append("load"))
    for _ in range(100):
        assert cache.get("es-fise") is lex
    assert loads == []  # one os.stat per call, nothing read


def test_rewritten_metadata_with_the_same_checksum_keeps_the_loaded_lexicon(tmp_path: Path) -> None:
    build_small(tmp_path, "es-fise", WORDS)
    cache = LexiconCache(tmp_path, check_seconds=0)
    lex = cache.get("es-fise")
    build_small(tmp_path, "es-fise", WORDS)  # same words: same DAWGs, a new E.json (new build time)
    assert cache.get("es-fise") is lex


def test_corrupt_metadata_keeps_the_old_lexicon_and_warns_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    first = build_small(tmp_path, "es-fise", WORDS)["checksum"]
    clock = Clock()
    client = make_app(tmp_path, 0, clock).test_client()
    assert lookup(client, "casa") == (True, first)

    metadata_path(tmp_path, "es-fise").write_text('{"format": "lextools-lexicon", "form')  # half-written
    with caplog.at_level(logging.WARNING, logger="lextools.service"):
        for _ in range(3):
            assert lookup(client, "casa") == (True, first)
            clock.now += 1
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "still serving lexicon" in warnings[0].getMessage()

    second = build_small(tmp_path, "es-fise", [*WORDS, "saco"])["checksum"]  # a good build: at once
    assert lookup(client, "saco") == (True, second)


def test_missing_dawg_is_retried_later(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Metadata that arrives before its DAWGs (a copy in the wrong order): old lexicon until they come."""
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    first = build_small(home, "es-fise", WORDS)["checksum"]
    meta = build_small(elsewhere, "es-fise", [*WORDS, "saco"])
    clock = Clock()
    app = make_app(home, 0, clock)
    client = app.test_client()
    assert lookup(client, "saco") == (False, first)

    shutil.copy(metadata_path(elsewhere, "es-fise"), metadata_path(home, "es-fise"))
    reads: list[str] = []
    real_load = __import__("service.http.lexicons", fromlist=["load_lexicon"]).load_lexicon
    monkeypatch.setattr("service.http.lexicons.load_lexicon", lambda *a: (reads.append("load"), real_load(*a))[1])
    assert lookup(client, "saco") == (False, first)
    assert reads == ["load"]
    for part in meta["files"].values():
        shutil.copy(elsewhere / part["name"], home / part["name"])
    clock.now += LexiconCache.RETRY_SECONDS - 1
    assert lookup(client, "saco") == (False, first)
    assert reads == ["load"]  # the same bad metadata is not re-read on every request
    clock.now += 1
    assert lookup(client, "saco") == (True, meta["checksum"])


def test_truncated_dawg_keeps_the_old_lexicon(tmp_path: Path) -> None:
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    first = build_small(home, "es-fise", WORDS)["checksum"]
    meta = build_small(elsewhere, "es-fise", [*WORDS, "saco"])
    client = make_app(home, 0).test_client()
    assert lookup(client, "casa") == (True, first)
    for part in meta["files"].values():
        data = (elsewhere / part["name"]).read_bytes()
        (home / part["name"]).write_bytes(data[: len(data) // 2])
    shutil.copy(metadata_path(elsewhere, "es-fise"), metadata_path(home, "es-fise"))
    assert lookup(client, "casa") == (True, first)


def test_removed_metadata_keeps_the_old_lexicon(tmp_path: Path) -> None:
    first = build_small(tmp_path, "es-fise", WORDS)["checksum"]
    client = make_app(tmp_path, 0).test_client()
    assert lookup(client, "casa") == (True, first)
    os.unlink(metadata_path(tmp_path, "es-fise"))
    assert lookup(client, "casa") == (True, first)


def test_a_lexicon_held_outlives_the_deletion_of_its_files(tmp_path: Path) -> None:
    """write_lexicon keeps generations N and N-1: one held since N-2 was read into memory at load."""
    gen1 = build_small(tmp_path, "es-fise", WORDS)
    cache = LexiconCache(tmp_path)  # never checks: this worker keeps generation 1
    held = cache.get("es-fise")
    build_small(tmp_path, "es-fise", [*WORDS, "saco"])
    build_small(tmp_path, "es-fise", [*WORDS, "seco"])
    assert not (tmp_path / gen1["files"]["words"]["name"]).exists()
    assert held.lookup("casa").valid and not held.lookup("saco").valid
    assert search.anagrams(held, "AACS")  # the alphagram index too
    assert cache.refresh("es-fise") is True and cache.get("es-fise").lookup("seco").valid


def test_concurrent_requests_during_rebuilds_never_fail(tmp_path: Path) -> None:
    """Threads look words up while the lexicon is rebuilt: every answer comes from a whole generation."""
    checksums = {build_small(tmp_path, "es-fise", WORDS)["checksum"]}
    app = make_app(tmp_path, 0)
    failures: list[object] = []
    seen: set[str] = set()
    stop = threading.Event()

    def hammer() -> None:
        client = app.test_client()
        while not stop.is_set():
            r = client.get("/v1/es-fise/words/saco")
            if r.status_code != 200:
                failures.append(r.json)
                return
            seen.add(r.headers[CHECKSUM_HEADER])
            if r.json["word"] != "SACO":
                failures.append(r.json)

    threads = [threading.Thread(target=hammer) for _ in range(4)]
    for t in threads:
        t.start()
    try:
        for n in range(6):
            extra = "saco" if n % 2 == 0 else f"casa{'s' * n}"  # every generation different
            checksums.add(build_small(tmp_path, "es-fise", [*WORDS, extra])["checksum"])
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert failures == []
    assert seen <= checksums and len(seen) > 1


def test_the_sidecar_is_held_per_lexicon_and_looked_at_on_the_metadata_schedule(tmp_path: Path) -> None:
    """The explanations the service reads (service/http/lexicons.py): no os.stat per word asked, the file
    looked at again every check interval, and read again for a lexicon swapped in."""
    import gzip

    from lextools.features.explain import load_sidecar

    build_small(tmp_path, "es-fise", WORDS)
    sidecar = tmp_path / "es-fise.provenance.tsv.gz"
    sidecar.unlink()  # a lexicon copied without its sidecar
    clock = Clock()
    cache = LexiconCache(tmp_path, check_seconds=1, clock=clock)
    lex = cache.get("es-fise")
    assert cache.sidecar(lex) is None
    sidecar.write_bytes(gzip.compress(f"#checksum\t{lex.checksum}\n#sources\tsome\n".encode()))
    assert cache.sidecar(lex) is None  # not looked at again within the interval
    clock.now += 1
    held = cache.sidecar(lex)
    assert held is not None and held.usual_sources == ("some",) and held is load_sidecar(lex, tmp_path)
    sidecar.unlink()
    assert cache.sidecar(lex) is held
    rebuilt = build_small(tmp_path, "es-fise", [*WORDS, "saco"])["checksum"]
    clock.now += 1
    fresh = cache.get("es-fise")
    assert fresh.checksum == rebuilt
    new = cache.sidecar(fresh)  # the new lexicon's own, written by its build
    assert new is not None and new is not held and new.usual_sources == (WORDS_NAME,)
    unscheduled = LexiconCache(tmp_path, check_seconds=None).sidecar(fresh)
    assert unscheduled is not None and unscheduled.usual_sources == (WORDS_NAME,)
