"""Every artefact of a built lexicon damaged every way, and builds interrupted at every step.

tests/test_build.py refuses a truncated, bit-flipped or emptied words DAWG, edited metadata and an
interrupted anagram write, in the library. Here every file (words DAWG, anagram DAWG, metadata,
exclusion report) is truncated to nothing and to half, has one bit flipped in its middle, is
replaced by garbage, or is deleted — and the library, the service and ``lextools check`` must each
say so their own documented way: CorruptLexiconError (LexiconNotFoundError when the metadata is
gone) naming the file, a 503 in the JSON error shape, exit code 2 with a readable line. A build
that stops half-way must leave the previous lexicon serving, the same checksum and the same words.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lextools.builder import compile as compile_mod
from lextools.cli.main import main
from lextools.core import output_files as files_mod
from lextools.core.errors import CorruptLexiconError, LexiconError, LexiconNotFoundError
from lextools.core.inputs import MAX_LINE_CHARS, InputRefusedError, read_input, read_stream
from lextools.core.lexicon import load_lexicon
from lextools.core.search import anagrams, find, parse_rack
from lextools.features import lists
from service import create_app
from tests.conftest import build_small

WORDS = ["casa", "cosa", "chiquillo", "calle", "perro", "año", "cha"]


def _truncate_to_zero(p: Path) -> None:
    p.write_bytes(b"")


def _truncate_to_half(p: Path) -> None:
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])


def _flip_middle_bit(p: Path) -> None:
    """The top bit of the middle byte: in a JSON file that always makes invalid UTF-8."""
    data = bytearray(p.read_bytes())
    data[len(data) // 2] ^= 0x80
    p.write_bytes(bytes(data))


def _flip_low_bit(p: Path) -> None:
    data = bytearray(p.read_bytes())
    data[len(data) // 2] ^= 0x01
    p.write_bytes(bytes(data))


def _garbage(p: Path) -> None:
    p.write_bytes(hashlib.sha256(b"garbage").digest() * (max(p.stat().st_size, 64) // 32))


def _delete(p: Path) -> None:
    p.unlink()


DAMAGE: dict[str, Callable[[Path], None]] = {
    "truncated-to-0": _truncate_to_zero,
    "truncated-to-half": _truncate_to_half,
    "middle-bit-flipped": _flip_middle_bit,
    "low-bit-flipped": _flip_low_bit,
    "garbage": _garbage,
    "deleted": _delete,
}


def artefact(home: Path, part: str) -> Path:
    """The file of a part: ``words`` and ``alphagrams`` are named by the metadata."""
    if part == "metadata":
        return home / "es-fise.json"
    if part == "exclusions":
        return home / "es-fise.exclusions.json"
    return home / json.loads((home / "es-fise.json").read_text("utf-8"))["files"][part]["name"]


@pytest.fixture()
def home(tmp_path: Path) -> Path:
    build_small(tmp_path, "es-fise", WORDS)
    return tmp_path


def run_check(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], home: Path) -> tuple[int, str]:
    """``lextools check es-fise casa --lexicons HOME`` through the real entry point: (exit code, stderr)."""
    monkeypatch.setattr(sys, "argv", ["lextools", "check", "es-fise", "casa", "--lexicons", str(home)])
    with pytest.raises(SystemExit) as e:
        main()
    return int(e.value.code or 0), capsys.readouterr().err


def assert_error_shape(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.get_data(as_text=True)
    assert r.mimetype == "application/json"
    assert set(r.json) == {"error"} and set(r.json["error"]) == {"code", "message"}
    assert r.json["error"]["code"] == code and r.json["error"]["message"]


#: Every damage to every part — bar a low bit flipped in the metadata, which may land in a field
#: nothing can check (a source's licence); flips in its checksums are test_metadata_that_contradicts….
CASES = [
    pytest.param(part, damage, id=f"{part}-{name}")
    for part in ("words", "alphagrams", "metadata")
    for name, damage in DAMAGE.items()
    if (part, name) != ("metadata", "low-bit-flipped")
]


@pytest.mark.parametrize(("part", "damage"), CASES)
def test_damaged_artefact_is_refused_everywhere(
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    part: str,
    damage: Callable[[Path], None],
) -> None:
    path = artefact(home, part)
    damage(path)
    missing_metadata = part == "metadata" and not path.exists()
    expected = LexiconNotFoundError if missing_metadata else CorruptLexiconError

    # the library: the documented error, naming the file
    with pytest.raises(expected) as e:
        load_lexicon("es-fise", home)
    assert type(e.value) is expected
    named = "es-fise" if missing_metadata else path.name  # a missing lexicon is named by its edition
    assert named in str(e.value)
    assert "rebuild" in str(e.value) or "lextools build es-fise" in str(e.value)  # and says what to do

    # the service: 503 in the one error shape, and the edition still described
    client = create_app({"LEXICONS": home, "TESTING": True}).test_client()
    code = expected.code
    for url in ("/v1/es-fise/words/casa", "/v1/es-fise/two-tile-words", "/v1/es-fise/export"):
        assert_error_shape(client.get(url), 503, code)
    assert_error_shape(client.post("/v1/es-fise/check", json={"words": ["casa"]}), 503, code)
    edition = client.get("/v1/editions/es-fise")
    assert edition.status_code == 200 and edition.json["lexicon"] is None
    assert edition.json["lexicon_error"]["code"] == code
    assert client.get("/v1/es-fise/score/casa").status_code == 200  # needs only the tile table

    # the CLI: exit 2, one readable line naming the file
    status, err = run_check(monkeypatch, capsys, home)
    assert status == 2
    assert err.startswith("error:") and named in err and "Traceback" not in err


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
def test_the_exclusion_report_is_not_part_of_the_lexicon(home: Path, damage: Callable[[Path], None]) -> None:
    """The report says what the build dropped; nothing reads it to answer, so damage to it is no error."""
    before = set(load_lexicon("es-fise", home))
    damage(artefact(home, "exclusions"))
    assert set(load_lexicon("es-fise", home)) == before
    client = create_app({"LEXICONS": home, "TESTING": True}).test_client()
    assert client.get("/v1/es-fise/words/casa").json["valid"]


def _rewrite_metadata(home: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    path = home / "es-fise.json"
    meta = json.loads(path.read_text("utf-8"))
    edit(meta)
    path.write_text(json.dumps(meta), "utf-8")


@pytest.mark.parametrize("data", [b"", b"\x00\x01\x02", b'{"a": 1}', b"\xff\xff\xff\x7f" + bytes(100)])
@pytest.mark.parametrize("part", ["words", "alphagrams"])
def test_a_dawg_that_matches_its_checksum_but_is_no_dawg_is_refused(home: Path, part: str, data: bytes) -> None:
    """Metadata and file agree (a foreign tool wrote both): the content itself is still checked."""
    path = artefact(home, part)
    path.write_bytes(data)

    def edit(meta: dict[str, Any]) -> None:
        meta["files"][part]["sha256"] = hashlib.sha256(data).hexdigest()
        if part == "words":
            meta["checksum"] = meta["files"]["words"]["sha256"]

    _rewrite_metadata(home, edit)
    with pytest.raises(CorruptLexiconError, match=path.name):
        load_lexicon("es-fise", home)
    client = create_app({"LEXICONS": home, "TESTING": True}).test_client()
    assert_error_shape(client.get("/v1/es-fise/words/casa"), 503, "corrupt_lexicon")


def _other_hex(sha: str) -> str:
    """The same checksum with its last digit changed: a bit flipped in the metadata's hashes."""
    return sha[:-1] + ("1" if sha[-1] == "0" else "0")


@pytest.mark.parametrize(
    "edit",
    [
        lambda m: m.update(checksum="0" * 64),  # the ETag would name another lexicon
        lambda m: m.update(words="many"),
        lambda m: m.update(words=-1),
        lambda m: m.update(words=True),
        lambda m: m.pop("checksum"),
        lambda m: m["files"]["words"].update(sha256=_other_hex(m["files"]["words"]["sha256"])),
        lambda m: m["files"]["alphagrams"].update(sha256=_other_hex(m["files"]["alphagrams"]["sha256"])),
    ],
    ids=["checksum", "words-not-a-number", "words-negative", "words-bool", "no-checksum", "words-sha", "index-sha"],
)
def test_metadata_that_contradicts_itself_is_refused(home: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    _rewrite_metadata(home, edit)
    with pytest.raises(CorruptLexiconError, match=r"es-fise\.json"):
        load_lexicon("es-fise", home)
    client = create_app({"LEXICONS": home, "TESTING": True}).test_client()
    assert_error_shape(client.get("/v1/es-fise/words/casa"), 503, "corrupt_lexicon")


# -- interrupted builds -------------------------------------------------------------------------------


def snapshot(home: Path) -> tuple[str, set[str]]:
    lex = load_lexicon("es-fise", home)
    return lex.checksum, set(lex)


def assert_previous_lexicon_serves(home: Path, before: tuple[str, set[str]]) -> None:
    assert snapshot(home) == before
    client = create_app({"LEXICONS": home, "TESTING": True}).test_client()
    r = client.get("/v1/es-fise/export?notation=digits")
    assert r.status_code == 200 and r.headers["ETag"] == f'"{before[0]}"'
    assert set(r.get_data(as_text=True).split()) == before[1]
    assert client.get("/v1/es-fise/words/casa").json["valid"]
    assert not client.get("/v1/es-fise/words/zapato").json["valid"]  # the new build's word is not there
    assert not [p.name for p in home.iterdir() if p.name.endswith(".tmp")]


class Crash(Exception):
    """A build that dies: power cut, disk full, Ctrl-C."""


def test_build_interrupted_before_the_metadata_commit(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both new DAWGs and the new exclusion report were written (to temporary files) when the metadata
    failed: none of them is renamed into place, none is left behind."""
    before = snapshot(home)
    names_before = sorted(p.name for p in home.iterdir())
    real = files_mod.write_temporary
    written: list[str] = []

    def crash_on_metadata(path: Path, data: bytes) -> Path:
        if path.name == "es-fise.json":
            raise Crash
        written.append(path.name)
        return real(path, data)

    monkeypatch.setattr(files_mod, "write_temporary", crash_on_metadata)
    with pytest.raises(Crash):
        build_small(home, "es-fise", [*WORDS, "zapato"])
    assert len([n for n in written if n.endswith(".dawg")]) == 2  # the crash came after the DAWGs
    assert_previous_lexicon_serves(home, before)
    assert sorted(p.name for p in home.iterdir()) == names_before

    monkeypatch.setattr(files_mod, "write_temporary", real)
    build_small(home, "es-fise", [*WORDS, "zapato", "zorro"])
    names = {p.name for p in home.glob("es-fise-*.dawg")}
    assert not names & {n for n in written if n.endswith(".dawg")}
    assert len(names) == 4  # the new generation and the one it replaced


@pytest.mark.parametrize("fail_at", [1, 2], ids=["words-dawg", "anagram-dawg"])
def test_build_interrupted_while_writing_a_dawg(home: Path, monkeypatch: pytest.MonkeyPatch, fail_at: int) -> None:
    """The disk fills up half-way through a DAWG: half a file was written, then fsync failed."""
    before = snapshot(home)
    calls = 0
    real_fsync = os.fsync

    def failing_fsync(fd: int) -> None:
        nonlocal calls
        calls += 1
        if calls == fail_at:
            os.ftruncate(fd, os.fstat(fd).st_size // 2)
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="No space"):
        build_small(home, "es-fise", [*WORDS, "zapato"])
    assert_previous_lexicon_serves(home, before)


def test_build_killed_leaves_a_temporary_file_that_nothing_reads(home: Path) -> None:
    """kill -9 gives atomic_write no chance to clean up: a stray half-written .tmp stays behind."""
    before = snapshot(home)
    stray = home / ".es-fise.json.abc123.tmp"
    stray.write_bytes(b'{"format": "lextools-lexicon", "format_version": 1, "edit')
    (home / "es-fise-0123456789abcdef.dawg").write_bytes(b"half a DAWG")  # an unnamed generation
    assert snapshot(home) == before
    client = create_app({"LEXICONS": home, "TESTING": True}).test_client()
    assert client.get("/v1/es-fise/words/casa").json["valid"]


def test_a_crash_while_building_the_dawgs_in_memory_writes_nothing(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before_files = sorted(p.name for p in home.iterdir())
    before = snapshot(home)

    def out_of_memory(*args: Any, **kwargs: Any) -> Any:
        raise MemoryError

    monkeypatch.setattr(compile_mod.dawg, "CompletionDAWG", out_of_memory)
    with pytest.raises(MemoryError):
        build_small(home, "es-fise", [*WORDS, "zapato"])
    assert sorted(p.name for p in home.iterdir()) == before_files
    assert_previous_lexicon_serves(home, before)


def test_every_refusal_is_a_lexicon_error() -> None:
    """What the CLI's exit 2 and the service's 503 rest on."""
    assert issubclass(CorruptLexiconError, LexiconError) and issubclass(LexiconNotFoundError, LexiconError)


#: The files read on first use, each with the query that first reads it.
FIRST_USE = {
    "ranks": lambda lex: list(find(lex, pattern="C*", order="probability")),
    "alphawords": lambda lex: anagrams(lex, *parse_rack("ASAC", lex)),
    "stems": lambda lex: lists.stems(lex, 6),
}
#: The request that first reads each of them.
FIRST_URL = {
    "ranks": "/v1/es-fise/search?pattern=C*&order=probability",
    "alphawords": "/v1/es-fise/anagrams/ASAC",
    "stems": "/v1/es-fise/lists/stems?length=6",
}


@pytest.mark.parametrize("part", sorted(FIRST_USE))
@pytest.mark.parametrize("name", ["truncated-to-half", "low-bit-flipped", "garbage", "deleted"])
def test_a_damaged_file_read_on_first_use_is_refused_then(home: Path, part: str, name: str) -> None:
    """The ranking and the alphagram table are checked the first time they are read (a look-up never
    reads them): a missing one when the lexicon loads, a damaged one when a query asks for it — naming
    the file, and the service answers that query with its 503."""
    path = artefact(home, part)
    DAMAGE[name](path)
    if name == "deleted":
        with pytest.raises(CorruptLexiconError, match=path.name):
            load_lexicon("es-fise", home)
        return
    lex = load_lexicon("es-fise", home)
    assert lex.lookup("casa").valid
    with pytest.raises(CorruptLexiconError, match=path.name):
        FIRST_USE[part](lex)
    client = create_app({"LEXICONS": home, "TESTING": True}).test_client()
    assert client.get("/v1/es-fise/words/casa").status_code == 200
    assert_error_shape(client.get(FIRST_URL[part]), 503, "corrupt_lexicon")


# -- hostile input files: refused before they are read ------------------------------------------------


def _build_exit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], source: Path, home: Path
) -> tuple[int, str]:
    monkeypatch.setattr("sys.argv", ["lextools", "build", "es-fise", "--source", str(source), "--lexicons", str(home)])
    with pytest.raises(SystemExit) as e:
        main()
    return int(e.value.code or 0), capsys.readouterr().err


def test_special_huge_and_long_lined_sources_are_refused_at_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fifo, sparse, long_line = tmp_path / "list.fifo", tmp_path / "huge.txt", tmp_path / "long.txt"
    os.mkfifo(fifo)  # opened without a writer, a read would wait for ever
    with sparse.open("wb") as f:
        f.truncate(2 * 2**30)  # 2 GB of holes: no disk used, refused by its size
    long_line.write_text("casa\n" + "a" * (MAX_LINE_CHARS + 1) + "\ncasas\n", encoding="utf-8")
    for source, says in (
        (Path("/dev/zero"), "/dev/zero is not a regular file"),
        (fifo, "list.fifo is not a regular file"),
        (tmp_path, "is not a regular file"),
        (sparse, "huge.txt holds 2,147,483,648 bytes, more than the 268,435,456"),
        (long_line, "long.txt is not a word list: line 2 is longer than 4,096 characters"),
    ):
        code, err = _build_exit(monkeypatch, capsys, source, tmp_path / "D")
        assert code == 2 and says in err and len(err.strip().splitlines()) == 1, (source, err)
    assert not (tmp_path / "D" / "es-fise.json").exists()


def test_a_gzip_bomb_stops_at_the_limit(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.txt.gz"
    bomb.write_bytes(gzip.compress(b"a\n" * 50_000))
    with pytest.raises(InputRefusedError, match="decompresses to more than the 1,000 bytes"):
        read_input(bomb, limit=1000)
    assert read_input(bomb, limit=100_000) == b"a\n" * 50_000


def test_standard_input_is_read_up_to_the_limit() -> None:
    assert read_stream(io.BytesIO(b"casa\n"), limit=5) == b"casa\n"
    with pytest.raises(InputRefusedError, match="standard input holds more than the 5 bytes"):
        read_stream(io.BytesIO(b"casas\n"), limit=5)
