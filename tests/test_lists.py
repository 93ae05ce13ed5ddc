"""Lists that teach (lextools.features.lists) on the small lexicons: stems, high-value tiles, new
words and a player's list checked against brute force over every key; the API, its document and
the CLI giving the same JSON."""

from __future__ import annotations

import fcntl
import hashlib
import heapq
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from typer.testing import CliRunner

from lextools.builder.compile import outdated
from lextools.cli.main import app
from lextools.core import background
from lextools.core.errors import CorruptLexiconError, QueryError
from lextools.core.lexicon import Lexicon, load_lexicon
from lextools.core.spelling import spell
from lextools.features import list_files, lists, quiz
from lextools.features.compare import WordSet, diff
from service import create_app
from service.api import export as export_api
from service.api import study_lists
from service.http.lexicons import lexicon
from service.worker_renewal import kept
from tests.conftest import build_small


@pytest.fixture(scope="module")
def fise(lexicon_home: Path) -> Lexicon:
    return load_lexicon("es-fise", lexicon_home)


def test_stems_take_exactly_the_tiles_that_make_a_word(fise: Lexicon) -> None:
    ed = fise.edition
    keys = list(fise)
    answer = lists.stems(fise, 6, count=lists.MAX_PAGE)
    assert answer["total"] == answer["count"] > 0
    ranked = []
    for item in answer["stems"]:
        stem = Counter(ed.encode(item["tiles"]))
        made = [k for k in keys if len(k) == 7 and not stem - Counter(k)]  # 7-tile words holding the stem
        takes = {ed.by_code[next(iter((Counter(k) - stem).elements()))].label for k in made}
        assert item["takes"] == ed.sort_labels(takes), item["stem"]
        assert sorted(w["word"] for w in item["words"]) == sorted(ed.spelling(k) for k in made)
        assert item["rack"] == item["stem"] + "?"
        ranked.append((-len(item["takes"]), -len(item["words"])))
    assert ranked == sorted(ranked)
    assert lists.stems(fise, 6, start=2, count=1)["stems"] == answer["stems"][1:2]
    with pytest.raises(QueryError):
        lists.stems(fise, 5)


def test_words_with_a_high_value_tile_and_new_words(lexicon_home: Path, fise: Lexicon) -> None:
    ed = fise.edition
    assert lists.high_value_tiles(ed) == ["CH", "J", "LL", "Ñ", "Q", "RR", "X", "Z"]
    answer = lists.with_tile(fise, "ñ", count=lists.MAX_PAGE)
    expected = [k for k in fise if "Ñ" in ed.decode(k)]
    assert sorted(w["word"] for w in answer["words"]) == sorted(map(ed.spelling, expected))
    assert [len(w["tiles"]) for w in answer["words"]] == sorted(len(w["tiles"]) for w in answer["words"])
    with pytest.raises(QueryError):
        lists.with_tile(fise, "A")
    na = load_lexicon("es-na103", lexicon_home)
    new = lists.new_words(fise, na, count=lists.MAX_PAGE)
    spelled = {na.edition.spelling(k) for k in na}
    assert sorted(w["word"] for w in new["words"]) == sorted(
        ed.spelling(k) for k in fise if ed.spelling(k) not in spelled
    )


def test_a_players_list_zyzzyva_columns_and_refusals(fise: Lexicon) -> None:
    text = "\ufeffcasa\tdefinition here\n# comment\n\n[CH]IQUI[LL]O n. a kid\nkilo\nzzzz\ncasa\n"
    assert lists.list_lines(text) == ["casa", "[CH]IQUI[LL]O", "kilo", "zzzz", "casa"]
    answer = lists.list_quiz(fise, lists.list_lines(text), ["CANCIO?", "AB??"], lang="es")
    chiquillo = quiz.rack_text(fise.edition.decode(quiz.alphagram(fise.edition, fise.spell("chiquillo").key)))
    # CANCIO? asks the alphagram of the one word it makes, CANCION: a rack with a blank is no question.
    assert [q["id"] for q in answer["questions"]] == ["AACS", chiquillo, "ACCINNO"]
    assert {a["word"] for a in answer["questions"][0]["answers"]} == {"CASA"}
    assert {a["word"] for a in answer["questions"][2]["answers"]} == {"CANCION"}
    refused = {r["text"]: r["reason"] for r in answer["refused"]}
    assert set(refused) == {"kilo", "zzzz", "AB??"}
    assert "K" in refused["kilo"] and "ZZZZ" in refused["zzzz"] and "comodines" in refused["AB??"]


def test_the_api_its_document_and_the_cli_agree(client: FlaskClient, lexicon_home: Path) -> None:
    from openapi_schema_validator import OAS30Validator

    doc = client.get("/v1/openapi.json").json
    runner = CliRunner()
    for path, args in (
        ("stems?length=6&count=3", ["stems", "es-fise", "--length", "6", "--count", "3"]),
        ("high-value?tile=CH&length=4", ["high-value", "es-fise", "CH", "--length", "4"]),
        ("new?against=es-na103", ["new-words", "es-fise", "es-na103"]),
    ):
        answer = _ready(client, f"/v1/es-fise/lists/{path}")
        op = doc["paths"][f"/v1/{{edition}}/lists/{path.split('?')[0]}"]["get"]
        schema = op["responses"]["200"]["content"]["application/json"]["schema"]
        OAS30Validator({**schema, "components": doc["components"]}).validate(answer)
        cli = runner.invoke(app, [*args, "--json", "-L", str(lexicon_home)], catch_exceptions=False)
        assert cli.exit_code == 0, cli.output
        assert json.loads(cli.stdout) == answer
    r = client.post("/v1/es-fise/lists/quiz", json={"words": ["casa", "kilo"], "racks": ["CANCIO?"]})
    assert r.status_code == 200 and r.json["count"] == 2 and len(r.json["refused"]) == 1
    schema = doc["paths"]["/v1/{edition}/lists/quiz"]["post"]["responses"]["200"]["content"]["application/json"]
    OAS30Validator({**schema["schema"], "components": doc["components"]}).validate(r.json)
    for bad in ("stems?length=8", "high-value?tile=A", "new", "new?against=nope"):
        assert client.get(f"/v1/es-fise/lists/{bad}").status_code == 400, bad
    too_many = client.post("/v1/es-fise/lists/quiz", json={"words": ["casa"] * (lists.MAX_QUIZ_ITEMS + 1)})
    assert too_many.status_code == 413


# -- today's computations, kept as the reference of the lists made in bulk, at build time or in the
# background: the same items in the same order.


def _reference_stems(lex: Lexicon, length: int) -> tuple[int, list[tuple[str, dict[str, list[str]]]]]:
    """The stems as lists.py ranked them at a request before the build made them (its code, as it was)."""
    alphagrams: dict[str, list[str]] = {}
    for key in quiz.keys_of_length(lex, length + 1):
        alphagrams.setdefault(lex.alphagram(key), []).append(key)
    takes: dict[str, dict[str, list[str]]] = {}
    for gram, words in alphagrams.items():
        for i in range(len(gram)):
            takes.setdefault(gram[:i] + gram[i + 1 :], {})[gram[i]] = words
    ed = lex.edition
    best = heapq.nsmallest(
        lists.KEPT_STEMS,
        takes.items(),
        key=lambda s: (-len(s[1]), -sum(map(len, s[1].values())), "".join(sorted(ed.collation_key(s[0])))),
    )
    return len(takes), best


def _reference_new(lex: Lexicon, other: Lexicon) -> list[str]:
    """The new words as lists.py found them with compare.diff, word by word (its code, as it was)."""
    ed = lex.edition
    _, added, _ = diff(
        WordSet(other.edition.name, other.edition, frozenset(other)),
        WordSet(lex.edition.name, lex.edition, frozenset(lex)),
    )
    return sorted([spell(word, ed).key for word in added], key=len)


def _reference_with(lex: Lexicon, code: str, length: int | None) -> list[str]:
    keys = quiz.keys_of_length(lex, length) if length else lex
    return sorted((k for k in keys if code in k), key=lambda k: (len(k), lex.edition.collation_key(k)))


def _without_stems_file(home: Path, tmp_path: Path, edition: str) -> Lexicon:
    """The lexicon as a build before the stems file left it: E.json names no such file."""
    for path in home.iterdir():
        if path.name.startswith(f"{edition}") and not path.name.endswith(".stems"):
            shutil.copy(path, tmp_path / path.name)
    meta = json.loads((tmp_path / f"{edition}.json").read_text())
    del meta["files"]["stems"]
    (tmp_path / f"{edition}.json").write_text(json.dumps(meta))
    return load_lexicon(edition, tmp_path)


@pytest.mark.parametrize("length", lists.STEM_LENGTHS)
def test_stems_from_the_build_are_todays_ranking(
    lexicon_home: Path, fise: Lexicon, tmp_path: Path, length: int
) -> None:
    total, best = _reference_stems(fise, length)
    assert lists.stems(fise, length, count=1)["total"] == total > 0
    built = lists.ranked_stems(fise, length)
    assert built is not None and fise.stems_map is not None  # read from the build's file
    assert [(s.key, s.takes) for s in built[1]] == best
    old = _without_stems_file(lexicon_home, tmp_path, "es-fise")  # ranked in the background instead
    assert old.stems_map is None
    again = lists.ranked_stems(old, length)
    assert again is not None and again[0] == total and [(s.key, s.takes) for s in again[1]] == best
    page = lists.stems(fise, length, start=3, count=5)
    assert page == lists.stems(old, length, start=3, count=5) and page["ready"] is True


def test_new_words_and_high_value_lists_are_todays(lexicon_home: Path, fise: Lexicon) -> None:
    for other in ("es-na103", "en", "es-mattel2021"):
        against = load_lexicon(other, lexicon_home)
        expected = _reference_new(fise, against)
        made = lists.new_keys(fise, against)
        assert made[:] == expected and len(made) == len(expected), other
        assert expected or other != "en"
        for n in {len(k) for k in expected}:
            assert made.of_length(n)[:] == [k for k in expected if len(k) == n]
        page = lists.new_words(fise, against, start=2, count=7)
        assert [w["word"] for w in page["words"]] == [fise.edition.spelling(k) for k in expected[1:8]]
        assert page["total"] == len(expected)
    for label in lists.high_value_tiles(fise.edition):
        code = fise.edition.by_label[label].code
        for length in (None, 4):
            expected = _reference_with(fise, code, length)
            page = lists.with_tile(fise, label, length, count=lists.MAX_PAGE)
            assert page["total"] == len(expected)
            assert [w["word"] for w in page["words"]] == [fise.edition.spelling(k) for k in expected[: lists.MAX_PAGE]]


def test_the_build_writes_the_stems_file_and_a_damaged_one_is_refused(lexicon_home: Path, tmp_path: Path) -> None:
    meta = json.loads((lexicon_home / "es-fise.json").read_text())
    entry = meta["files"]["stems"]
    data = (lexicon_home / entry["name"]).read_bytes()
    assert entry["name"] == f"es-fise-{entry['sha256'][:16]}.stems" and entry["bytes"] == len(data)
    assert hashlib.sha256(data).hexdigest() == entry["sha256"] and data.startswith(b"lextools-stems 1\n")
    for path in lexicon_home.iterdir():
        if path.name.startswith("es-fise"):
            shutil.copy(path, tmp_path / path.name)
    damaged = bytearray(data)
    damaged[len(damaged) // 2] ^= 0x20
    (tmp_path / entry["name"]).write_bytes(bytes(damaged))
    lex = load_lexicon("es-fise", tmp_path)
    with pytest.raises(CorruptLexiconError, match=r"\.stems does not match its checksum"):
        lists.stems(lex, 6)
    (tmp_path / entry["name"]).unlink()
    with pytest.raises(CorruptLexiconError, match=r"\.stems.*is missing"):
        load_lexicon("es-fise", tmp_path)


def _ready(client: FlaskClient, path: str) -> dict[str, Any]:
    """The page once its list is ready, asked again after each ``ready: false`` (a bounded number of times)."""
    for _ in range(600):
        r = client.get(path)
        assert r.status_code == 200, r.json
        if r.json["ready"]:
            return dict(r.json)
        time.sleep(0.05)
    raise AssertionError(f"{path} never ready")


def _files_app(home: Path, cache: Path, tmp_path: Path) -> Flask:
    """An app over ``home`` whose list files are in ``cache/lists``, each made by a child."""
    config = {"LEXICONS": home, "TESTING": True, "EXPORT_CACHE": cache, "RELOAD_CHECK_SECONDS": 0}
    return create_app({**config, "RECORD": tmp_path / f"r{id(cache)}.sqlite3"})


def test_the_api_answers_with_progress_while_another_process_makes_a_list(lexicon_home: Path, tmp_path: Path) -> None:
    """While another process holds a list's lock (as its child does, writing its progress there),
    a worker answers ``ready: false`` with that progress; once the lock is free it makes the list."""
    app = _files_app(lexicon_home, tmp_path / "cache", tmp_path)
    client, files = app.test_client(), app.extensions[study_lists.FILES]
    with app.app_context():
        fise, fr = lexicon("es-fise"), lexicon("fr")
    path = files.folder / list_files.spec_of(fise, fr, ("new", "fr", fr.checksum)).name
    path.parent.mkdir(parents=True)
    fd = os.open(path.with_name(f".{path.name}.lock"), os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.pwrite(fd, b"0 0.500\n", 0)
    try:
        for _ in range(100):  # the worker's job looks at the lock every POLL s: its progress then
            r = client.get("/v1/es-fise/lists/new?against=fr&length=4")
            if r.json["progress"]:
                break
            time.sleep(0.05)
        assert r.status_code == 200 and r.headers["Retry-After"] == "1", r.json
        assert r.json["ready"] is False and r.json["progress"] == 0.5 and r.json["words"] == [] and r.json["total"] == 0
        assert not path.exists() and files.made == 0
    finally:
        os.close(fd)  # the other process ends: its lock goes with it
    page = _ready(client, "/v1/es-fise/lists/new?against=fr&length=4")
    assert files.made == 1 and path.exists()
    assert page["total"] == len([k for k in _reference_new(fise, fr) if len(k) == 4]) > 0


def test_a_list_file_made_once_is_read_by_every_process_and_a_damaged_one_made_again(
    lexicon_home: Path, tmp_path: Path
) -> None:
    """Issue 33, rows 1–2: a list is made once (by a child: no worker's CPU or heap) into the cache,
    and another app — another worker, another replica on the same folder — reads it without making
    it again, mapped (no heap copy); a damaged file is refused, removed and made again."""
    cache = tmp_path / "cache"
    first, second = _files_app(lexicon_home, cache, tmp_path), _files_app(lexicon_home, cache, tmp_path)
    path_of = "/v1/es-fise/lists/high-value?tile=ch&count=100"
    made = _ready(first.test_client(), path_of)
    assert first.extensions[study_lists.FILES].made == 1
    [file] = (cache / "lists").glob("*.keys")
    assert file.read_bytes().startswith(list_files.MAGIC)
    read = _ready(second.test_client(), path_of)
    assert read == made and second.extensions[study_lists.FILES].made == 0
    with second.app_context():
        fise = lexicon("es-fise")
    code = fise.edition.by_label["CH"].code
    assert [w["word"] for w in made["words"]] == [fise.edition.spelling(k) for k in _reference_with(fise, code, None)]
    kept = lists._found(fise, ("with", code))[1]
    assert all(isinstance(block, memoryview) for block in kept.blocks.values())  # the file, mapped
    four = _ready(second.test_client(), "/v1/es-fise/lists/high-value?tile=ch&length=4")  # a slice of the same file
    assert [w["word"] for w in four["words"]] == [fise.edition.spelling(k) for k in _reference_with(fise, code, 4)]
    assert second.extensions[study_lists.FILES].made == 0
    for damage in (lambda b: b[: len(b) - 3], lambda b: b[:-1] + bytes([b[-1] ^ 1]), lambda b: b"x" + b[1:]):
        file.write_bytes(damage(file.read_bytes()))
        third = _files_app(lexicon_home, cache, tmp_path)  # a fresh worker: nothing kept
        assert _ready(third.test_client(), path_of) == made
        assert third.extensions[study_lists.FILES].made == 1  # refused, made again
        assert file.read_bytes().startswith(list_files.MAGIC)


def test_a_rebuilt_lexicon_gets_a_new_list_file_and_the_old_generation_goes(lexicon_home: Path, tmp_path: Path) -> None:
    home, cache = tmp_path / "home", tmp_path / "cache"
    shutil.copytree(lexicon_home, home)
    client = _files_app(home, cache, tmp_path).test_client()
    before = _ready(client, "/v1/es-fise/lists/new?against=en&count=100")
    _ready(client, "/v1/en/lists/high-value?tile=z")
    old = {p.name for p in (cache / "lists").glob("*.keys")}
    assert len(old) == 2
    gone = before["words"][0]["word"]
    fise = load_lexicon("es-fise", home)
    build_small(home, "es-fise", [fise.edition.spelling(k) for k in fise if fise.edition.spelling(k) != gone])
    after = _ready(client, "/v1/es-fise/lists/new?against=en&count=100")
    assert after["total"] == before["total"] - 1 and gone not in [w["word"] for w in after["words"]]
    new = {p.name for p in (cache / "lists").glob("*.keys")}
    rebuilt = load_lexicon("es-fise", home).checksum[:16]
    assert len(new) == 2 and (new - old) and all(rebuilt in n for n in new - old)  # en's list stays
    assert not any(fise.checksum[:16] in p.name for p in (cache / "lists").iterdir())  # pruned, locks too


def test_against_defaults_to_another_edition_of_the_same_language() -> None:
    against = lists.choices()["against"]
    assert against["es-fise"] == "es-na103" and against["es-na103"] == "es-fise"
    assert against["es-mattel2021"] == "es-fise"  # a sibling with a verified tile table first
    assert against["en"] == "es-fise" and against["fr"] == "en"  # no sibling: the first other edition


def test_a_lexicon_built_before_the_stems_file_is_served_and_built_again(lexicon_home: Path, tmp_path: Path) -> None:
    """Its stems are ranked in the background of the process that asks (the service answers their
    progress meanwhile), and ``scripts/run`` builds it again: it is outdated."""
    assert not outdated(lexicon_home, "es-fise")
    old = _without_stems_file(lexicon_home, tmp_path, "es-fise")
    assert outdated(tmp_path, "es-fise")
    assert lists.stems(old, 7, count=3) == lists.stems(load_lexicon("es-fise", lexicon_home), 7, count=3)


def test_a_kept_list_goes_after_idle_and_is_made_again(lexicon_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33, row 2: nothing a burst of lists made stays in a worker once nobody asks for it —
    the list, its background result, the stems file's lines — and the next ask makes it again."""
    fise = load_lexicon("es-fise", lexicon_home)  # a lexicon of its own: nothing kept from other tests
    made: list[str] = []
    with_code = lists.keys_with

    def counted(lex: Lexicon, code: str, length: int | None, tell: Callable[[float], None]) -> lists.KeyList:
        made.append(code)
        return with_code(lex, code, length, tell)

    monkeypatch.setattr(lists, "keys_with", counted)
    first = lists.with_tile(fise, "z", wait=None)
    stems = lists.stems(fise, 6, count=3)
    assert lists.with_tile(fise, "z", wait=None) == first and len(made) == 1  # kept: not made again
    assert len(lists.kept_lists(fise)) == 2 and "_stem_lines" in fise.__dict__
    lists._swept()  # asked within KEPT_IDLE: kept
    assert len(lists.kept_lists(fise)) == 2
    monkeypatch.setattr(lists, "KEPT_IDLE", 0.0)
    monkeypatch.setattr(background, "KEPT_IDLE", 0.0)
    time.sleep(0.01)
    background._swept()
    assert lists._swept() is True  # nothing left: the sweeper ends
    assert lists.kept_lists(fise) == [] and "_stem_lines" not in fise.__dict__
    assert lists.with_tile(fise, "z", wait=None) == first and len(made) == 2  # made again, the same list
    assert lists.stems(fise, 6, count=3) == stems  # the stems file read (and checked) again


def test_a_kept_page_body_is_the_bytes_of_a_fresh_dump(app: Flask, client: FlaskClient) -> None:
    """Issue 33, row 1: a list page's body is made once and kept; the kept bytes are what the
    page's schema dumps from the list as it is now."""
    bodies = app.extensions[study_lists.BODIES]
    for path, answer, make in (
        ("/v1/es-fise/lists/stems?length=7&count=5", study_lists.Stems, lambda lex: lists.stems(lex, 7, count=5)),
        ("/v1/es-fise/lists/high-value?tile=ñ", study_lists.HighValueWords, lambda lex: lists.with_tile(lex, "ñ")),
    ):
        _ready(client, path)
        made = client.get(path)
        assert made.status_code == 200 and made.json["ready"] is True and made.json["count"] > 0, made.json
        kept = bodies.kept_bytes()
        again = client.get(path)
        assert bodies.kept_bytes() == kept  # answered from the kept body, nothing made
        with app.app_context():
            fresh = app.json.text(answer().dump(make(lexicon("es-fise")))).encode()  # type: ignore[attr-defined]
        assert again.data == made.data == fresh
        assert again.headers["X-Lexicon-Checksum"] == made.headers["X-Lexicon-Checksum"]
        assert again.headers["Content-Type"] == made.headers["Content-Type"] == "application/json"
    assert client.get("/v1/es-fise/lists/high-value?tile=a").status_code == 400  # checked before any wait


def test_a_rebuilt_lexicon_does_not_serve_the_old_lists_pages(lexicon_home: Path, tmp_path: Path) -> None:
    """The kept bodies are named by the lexicon's checksum: after a rebuild the page is the new list's."""
    home = tmp_path / "home"
    shutil.copytree(lexicon_home, home)
    app = create_app({"LEXICONS": home, "TESTING": True, "RELOAD_CHECK_SECONDS": 0, "RECORD": tmp_path / "r.sqlite3"})
    client = app.test_client()
    path = "/v1/es-fise/lists/high-value?tile=z&count=100"
    before = _ready(client, path)
    assert before["total"] > 0
    gone = before["words"][0]["word"]
    fise = load_lexicon("es-fise", home)
    build_small(home, "es-fise", [fise.edition.spelling(k) for k in fise if fise.edition.spelling(k) != gone])
    after = _ready(client, path)
    assert after["total"] == before["total"] - 1
    assert gone not in [w["word"] for w in after["words"]]


def test_a_worker_start_warms_every_list_once_for_every_worker(lexicon_home: Path, tmp_path: Path) -> None:
    """``LISTS_WARM``: a worker's start (the server's hook) starts one child that makes every list of
    the served lexicons nobody asked yet, one after another; another worker's start makes none, and
    that worker then reads them all, making none."""
    cache = tmp_path / "cache"
    first = _files_app(lexicon_home, cache, tmp_path)
    first.config["LISTS_WARM"] = True
    study_lists.worker_started(first)
    _ready(first.test_client(), "/v1/fr/lists/high-value?tile=k")
    served = {name: load_lexicon(name, lexicon_home) for name in ("en", "es-fise", "es-mattel2021", "es-na103", "fr")}
    expected = set()
    for name, lex in served.items():
        expected |= {list_files.spec_of(lex, other, ("new", o)).name for o, other in served.items() if o != name}
        codes = [lex.edition.by_label[label].code for label in lists.high_value_tiles(lex.edition)]
        expected |= {list_files.spec_of(lex, None, ("with", code)).name for code in codes}
    for _ in range(1200):  # the warm-up child, a list after another
        if {p.name for p in (cache / "lists").glob("*.keys")} >= expected:
            break
        time.sleep(0.1)
    assert {p.name for p in (cache / "lists").glob("*.keys")} == expected
    assert first.extensions[study_lists.FILES].made <= 1  # the one asked first, if it was not the child's
    second = _files_app(lexicon_home, cache, tmp_path).test_client()
    for path in ("/v1/es-fise/lists/new?against=en", "/v1/en/lists/high-value?tile=z&length=4"):
        assert _ready(second, path)["total"] > 0
    assert second.application.extensions[study_lists.FILES].made == 0
    study_lists.worker_started(second.application)  # the warm-up child finds every list made
    assert not second.application.extensions[study_lists.FILES].running()


def test_a_list_child_runs_at_the_lowest_priority() -> None:
    """Players come first: a list child runs at nice 19 (the default), or takes a core only when
    nobody else wants one (SCHED_IDLE, ``LEXTOOLS_LIST_PRIORITY=idle``)."""
    code = "import os; from lextools.features import list_files as f; print(f.lower_priority('{}'), os.nice(0))"
    for policy, told in (("idle", "idle"), ("nice", "nice 19 19")):
        out = subprocess.run([sys.executable, "-c", code.format(policy)], capture_output=True, text=True, check=True)
        assert out.stdout.startswith(told), out.stdout
    out = subprocess.run(
        [sys.executable, "-c", code.format("idle") + "; print(os.sched_getscheduler(0) == os.SCHED_IDLE)"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert out.stdout.split()[-1] == "True"


def test_a_worker_exiting_kills_and_reaps_its_list_children(lexicon_home: Path, tmp_path: Path) -> None:
    """The server's ``worker_exit`` hook: the warm-up child (and any list child) of the worker is
    killed and reaped, and its lock goes with it: the next worker's warm-up takes it. So a worker
    renewed when idle (service/worker_renewal.py) is not kept for its child."""
    app = _files_app(lexicon_home, tmp_path / "cache", tmp_path)
    files = app.extensions[study_lists.FILES]
    assert not kept(app)
    files.warm()
    for _ in range(600):
        if files.running():
            break
        time.sleep(0.01)
    [child] = list(files._running)
    assert not kept(app)
    study_lists.worker_exiting(app)
    assert child.returncode is not None  # reaped: no zombie left
    for _ in range(500):  # its watcher sees it end
        if not files.running():
            break
        time.sleep(0.01)
    assert not files.running() and not kept(app)
    with pytest.raises(ProcessLookupError):
        os.kill(child.pid, 0)
    fd = os.open(files.folder / ".warm.lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free again
    finally:
        os.close(fd)


def test_the_export_cache_s_pruning_and_bound_cover_the_list_files(lexicon_home: Path, tmp_path: Path) -> None:
    """Issue 33: the cache keeps the current generation only and is bounded in bytes — lists too. An
    export of a rebuilt lexicon removes its old list files; the one bound counts exports and lists."""
    home, cache = tmp_path / "home", tmp_path / "cache"
    shutil.copytree(lexicon_home, home)
    client = _files_app(home, cache, tmp_path).test_client()
    _ready(client, "/v1/es-fise/lists/high-value?tile=z")
    _ready(client, "/v1/en/lists/high-value?tile=z")
    fise = load_lexicon("es-fise", home)
    build_small(home, "es-fise", [fise.edition.spelling(k) for k in list(fise)[1:]])
    assert client.get("/v1/es-fise/export?format=kwg").status_code == 200
    left = [p.name for p in (cache / "lists").iterdir()]
    assert left and not any(fise.checksum[:16] in name for name in left)  # the old generation's, locks too
    assert any(name.startswith("en_") for name in left)  # another edition's stay
    export = next(p for p in cache.glob("es-fise-*/*") if not p.name.endswith(".json"))
    [en_list] = (cache / "lists").glob("en_*.keys")
    os.utime(en_list, (1, 1))  # the oldest file of the cache
    export_api.prune(cache, export, max_bytes=list_files.cache_bytes(cache) - 1)
    assert not en_list.exists() and export.exists()  # the list file counted, and went first
    fresh = _files_app(home, cache, tmp_path).test_client()  # a worker that keeps nothing yet
    _ready(fresh, "/v1/en/lists/high-value?tile=z")  # made again; the lists' own pruning counts the exports
    [en_list] = (cache / "lists").glob("en_*.keys")
    en = load_lexicon("en", home)
    spec = list_files.spec_of(en, None, ("with", en.edition.by_label["Z"].code))
    other = cache / "lists" / list_files.spec_of(en, None, ("with", en.edition.by_label["Q"].code)).name
    other.write_bytes(b"x" * 100)
    os.utime(other, (1, 1))
    list_files.prune(cache / "lists", spec, en_list, list_files.cache_bytes(cache) - 1)
    assert not other.exists() and en_list.exists() and export.exists()
