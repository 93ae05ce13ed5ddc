"""Builds into a live directory: the guard, the lock, encodings, one word per line, and errors that
end in one line and exit 2 — each case of the report that asked for them, replayed."""

from __future__ import annotations

import errno
import json
import multiprocessing
import os
import re
import signal
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lextools import load_edition
from lextools.builder import compile
from lextools.builder import lock as buildlock
from lextools.builder.filters import SourceWord, rules_named
from lextools.builder.guard import BuildSource, build_lexicon
from lextools.cli.main import app, main
from lextools.core import output_files as files
from lextools.core.errors import BuildBusyError, BuildRefusedError, SourceError
from lextools.core.lexicon import load_lexicon
from lextools.core.wordlist import read_list

WORDS = ["casa", "casas", "chiquillo", "niño", "perro", "cha", "ama", "llama", "calle", "leche"]


def lextools(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the real entry point (main(), as the console script does): exit code, stdout, stderr."""
    monkeypatch.setattr("sys.argv", ["lextools", *args])
    try:
        main()
        code = 0
    except SystemExit as e:
        code = int(e.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write_list(path: Path, words: list[str]) -> Path:
    path.write_text("\n".join(words) + "\n", "utf-8")
    return path


def live(home: Path, edition: str = "es-fise") -> tuple[str, set[str]]:
    """The live lexicon's checksum and the names of every file in its directory."""
    return load_lexicon(edition, home).checksum, {p.name for p in home.iterdir()}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A directory with a live es-fise lexicon of ten words, built by the CLI."""
    out = tmp_path / "lex"
    words = write_list(tmp_path / "w.txt", WORDS)
    code, _, err = lextools(monkeypatch, capsys, "build", "es-fise", "--source", str(words), "--out", str(out))
    assert code == 0, err
    return out


# -- 1. the guarded commit -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "yields no words"),
        (b"# only a comment\n\n", "yields no words"),
        (b"kilo\nwifi\n", "has no words"),  # every word dropped: es-fise has no K or W tile
        ("casa\nperro\n".encode("utf-16-le"), "NUL bytes"),  # UTF-16 without a BOM
    ],
)
def test_a_build_that_would_leave_no_words_is_refused(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], content: bytes, message: str
) -> None:
    before = live(home)
    bad = home.parent / "bad.txt"
    bad.write_bytes(content)
    code, _, err = lextools(monkeypatch, capsys, "build", "es-fise", "--source", str(bad), "-L", str(home))
    assert code == 2 and message in err and "Traceback" not in err
    assert live(home) == before


def test_an_empty_source_among_others_is_refused(home: Path, monkeypatch, capsys) -> None:
    before = live(home)
    full, empty = write_list(home.parent / "full.txt", WORDS), home.parent / "empty.txt"
    empty.write_bytes(b"")
    code, _, err = lextools(monkeypatch, capsys, "build", "es-fise", "-s", str(full), "-s", str(empty), "-L", str(home))
    assert code == 2 and "empty.txt yields no words" in err
    assert live(home) == before


def test_losing_over_a_fifth_of_the_words_needs_force(home: Path, monkeypatch, capsys) -> None:
    before = live(home)
    fewer = write_list(home.parent / "fewer.txt", WORDS[:7])  # 10 → 7 words: 30% lost
    code, _, err = lextools(monkeypatch, capsys, "build", "es-fise", "--source", str(fewer), "-L", str(home))
    assert code == 2 and "--force" in err and "10" in err and "7" in err
    assert live(home) == before
    code, _, err = lextools(monkeypatch, capsys, "build", "es-fise", "--source", str(fewer), "-L", str(home), "--force")
    assert code == 0, err
    assert len(load_lexicon("es-fise", home)) == 7
    most = write_list(home.parent / "most.txt", WORDS[:6])  # 7 → 6 words: 14% lost, allowed
    assert lextools(monkeypatch, capsys, "build", "es-fise", "--source", str(most), "-L", str(home))[0] == 0


def test_default_builds_are_guarded_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A recipe whose source yields nothing is refused like a user's list (build_default → build_lexicon)."""
    from lextools.builder import recipes

    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    monkeypatch.setattr(recipes, "read_source", lambda source: iter(()))
    recipe = recipes.Recipe("es-fise", ("es-supplement",), ("one-tile",))
    with pytest.raises(BuildRefusedError, match="source es-supplement yields no words"):
        recipes.build_default("es-fise", tmp_path, recipe=recipe)
    assert not (tmp_path / "es-fise.json").exists()


def test_an_empty_lexicon_answers_every_query_empty(tmp_path: Path, monkeypatch, capsys) -> None:
    """Only a test (or a library caller) can write one; queries on it answer empty, never fail."""
    from service import create_app

    edition = load_edition("es-fise")
    keys, report = compile.compile_words([], edition, [])
    compile.write_lexicon(tmp_path, edition, keys, report)
    client = create_app({"LEXICONS": tmp_path, "TESTING": True}).test_client()
    assert client.get("/v1/es-fise/two-tile-words").json["words"] == []
    assert client.get("/v1/es-fise/search?pattern=CA*").json["words"] == []
    assert client.get("/v1/es-fise/anagrams/CASA%3F").json["words"] == []
    assert client.get("/v1/es-fise/hooks/casa").json["front"] == []
    assert client.get("/v1/es-fise/words/casa").json["valid"] is False
    assert client.get("/v1/es-fise/export").data == b""
    for args in (["two-tile", "es-fise"], ["pattern", "es-fise", "CA*"], ["anagram", "es-fise", "CASA?"]):
        code, out, err = lextools(monkeypatch, capsys, *args, "--json", "-L", str(tmp_path))
        assert code == 0 and json.loads(out)["words"] == [], err


# -- 2. encodings ----------------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-32"])
def test_unicode_lists_are_read(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "l.txt"
    path.write_bytes("canción\nñandú\n".encode(encoding))
    wl = read_list(path)
    assert wl.words == ["canción", "ñandú"] and not wl.guessed


def test_latin1_is_chosen_only_without_utf8_and_the_build_says_so(home: Path, monkeypatch, capsys) -> None:
    path = home.parent / "latin.txt"
    path.write_bytes("\n".join([*WORDS, "ñandú"]).encode("latin-1"))
    code, _, err = lextools(monkeypatch, capsys, "build", "es-fise", "--source", str(path), "-L", str(home))
    assert code == 0 and "read as Latin-1" in err
    lex = load_lexicon("es-fise", home)
    assert lex.lookup("ñandú").valid and lex.metadata["sources"][0]["encoding"] == "Latin-1"


def test_a_list_mixing_utf8_and_latin1_is_refused_naming_lines(home: Path, monkeypatch, capsys) -> None:
    before = live(home)
    path = home.parent / "mixed.txt"
    path.write_bytes(b"n\xc3\xbamero\nata\xc3\xbad\ncanci\xc3\xb3n\ncasa\nni\xf1o\n")
    code, _, err = lextools(monkeypatch, capsys, "build", "es-fise", "--source", str(path), "-L", str(home))
    assert code == 2 and "UTF-8 on line(s) 1, 2, 3" in err and "not UTF-8 on line(s) 5" in err
    assert live(home) == before
    # --encoding decides instead: read as UTF-8 it fails on line 5, as Latin-1 it is read (wrongly, as asked)
    args = ["build", "es-fise", "-s", str(path), "--encoding", "utf-8", "-L", str(home)]
    code, _, err = lextools(monkeypatch, capsys, *args)
    assert code == 2 and "line 5" in err
    with pytest.raises(SourceError, match="unknown encoding"):
        read_list(path, "no-such-codec")
    assert read_list(path, "latin-1").words[0] == "nÃºmero"


@pytest.mark.parametrize("content", [b"casa\x00perro\n", b"\x1f\x8b\x08\x00binary", b"casa\x01\n"])
def test_binary_content_is_not_a_word_list(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "b.txt"
    path.write_bytes(content)
    with pytest.raises(SourceError, match="not a word list"):
        read_list(path)


# -- 3. one word per line --------------------------------------------------------------------------


def test_a_line_with_spaces_is_dropped_as_multiword_not_cut(tmp_path: Path, monkeypatch, capsys) -> None:
    path = write_list(tmp_path / "l.txt", [*WORDS, "ad hoc", "casa\t12"])
    code, _, err = lextools(monkeypatch, capsys, "build", "es-fise", "--source", str(path), "-L", str(tmp_path / "o"))
    assert code == 0, err
    lex = load_lexicon("es-fise", tmp_path / "o")
    assert "AD" not in lex and len(lex) == len(WORDS)
    report = json.loads((tmp_path / "o" / "es-fise.exclusions.json").read_text("utf-8"))["rules"]
    assert report["multiword"]["count"] == 2 and report["multiword"]["examples"] == ["ad hoc", "casa\t12"]


def test_multiword_lines_and_the_multiword_rule_share_one_count() -> None:
    rules = rules_named(["multiword"])
    words = [SourceWord("a priori"), SourceWord("hoc", tags=frozenset({"multiword"})), SourceWord("casa")]
    keys, report = compile.compile_words(words, load_edition("es-fise"), rules)
    assert keys == ["CASA"] and report.dropped["multiword"].count == 2


# -- 4. one build at a time ------------------------------------------------------------------------


def _small_build(home: Path, words: list[str]) -> None:
    edition = load_edition("es-fise")
    source = BuildSource("test", {"name": "test"}, lambda: (SourceWord(w) for w in words))
    build_lexicon(home, edition, [source], rules_named(["one-tile"]), force=True)


def test_a_second_build_waits_and_says_so_or_fails_with_no_wait(tmp_path: Path) -> None:
    _small_build(tmp_path, WORDS)
    told: list[str] = []
    with buildlock.build_lock(tmp_path, "es-fise"):
        with pytest.raises(BuildBusyError, match="another build of es-fise"):
            build_lexicon(
                tmp_path,
                load_edition("es-fise"),
                [BuildSource("t", {}, lambda: (SourceWord(w) for w in WORDS))],
                [],
                wait=False,
            )
        waiting = threading.Thread(
            target=lambda: build_lexicon(
                tmp_path,
                load_edition("es-fise"),
                [BuildSource("t", {}, lambda: (SourceWord(w) for w in WORDS[:9]))],
                [],
                on_wait=told.append,
            )
        )
        waiting.start()
        for _ in range(600):  # until it has met our lock and said so
            if told:
                break
            waiting.join(timeout=0.1)
        assert waiting.is_alive()  # blocked on the lock we hold
    waiting.join(timeout=30)
    assert not waiting.is_alive() and told and f"pid {os.getpid()}" in told[0]
    assert len(load_lexicon("es-fise", tmp_path)) == 9


def test_twenty_trials_of_two_concurrent_builds_leave_a_loading_lexicon(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    lists = [WORDS, [*WORDS[:9], "perros", "calles"]]
    for trial in range(20):
        builds = [ctx.Process(target=_small_build, args=(tmp_path, words)) for words in lists]
        for b in builds:
            b.start()
        for b in builds:
            b.join(timeout=60)
            assert b.exitcode == 0, f"trial {trial}: a build failed"
        lex = load_lexicon("es-fise", tmp_path)
        named = {f["name"] for f in lex.metadata["files"].values()}
        assert named <= {p.name for p in tmp_path.iterdir()}, f"trial {trial}"


def _killed_build(home: Path) -> None:
    def die(src: object, dst: object) -> None:  # the DAWG is written to its temporary file: die now
        os.kill(os.getpid(), signal.SIGKILL)

    files.os.replace = die  # type: ignore[assignment]  (this forked process only)
    _small_build(home, WORDS[:9])


def test_a_killed_build_leaves_the_lexicon_and_the_next_build_removes_its_temporary_files(tmp_path: Path) -> None:
    _small_build(tmp_path, WORDS)
    before = live(tmp_path)
    child = multiprocessing.get_context("fork").Process(target=_killed_build, args=(tmp_path,))
    child.start()
    child.join(timeout=60)
    assert child.exitcode == -signal.SIGKILL
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert leftovers and live(tmp_path)[0] == before[0]
    _small_build(tmp_path, WORDS)
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert load_lexicon("es-fise", tmp_path).checksum == before[0]


def test_no_build_deletes_the_files_the_live_metadata_names(tmp_path: Path) -> None:
    """Even called without the lock, the clean-up keeps what E.json names when it looks."""
    _small_build(tmp_path, WORDS)
    meta = load_lexicon("es-fise", tmp_path).metadata
    compile._remove_old_generations(tmp_path, "es-fise", keep=[])
    assert load_lexicon("es-fise", tmp_path).checksum == meta["checksum"]


# -- 5. errors, not tracebacks ---------------------------------------------------------------------


def _assert_one_line_error(code: int, err: str, *parts: str) -> None:
    assert code == 2, err
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    for part in parts:
        assert part in lines[0], err


def test_io_problems_end_in_one_line_and_exit_2(home: Path, monkeypatch, capsys) -> None:
    before = live(home)
    words = write_list(home.parent / "w2.txt", WORDS)
    a_file = home.parent / "a-file"
    a_file.write_text("x")
    a_dir = home.parent / "a-dir"
    a_dir.mkdir()
    cases = [
        (["build", "es-fise", "-s", str(words), "--out", str(a_file)], ["a-file", "not a directory"]),
        (["check", "es-fise", "casa", "--lexicons", str(a_file)], ["a-file", "Not a directory"]),
        (["export", "es-fise", "--output", str(a_dir), "-L", str(home)], ["a-dir", "is a directory"]),
        (["build", "es-fise", "-s", str(a_dir), "-L", str(home)], ["a-dir", "is not a regular file"]),
        (["export", "es-fise", "--output", "/dev/full", "-L", str(home)], ["/dev/full", "No space left"]),
        (["build", "--source", str(words), "-L", str(home)], ["needs the edition"]),
        (["build", "es-fise", "--rules", "one-tile", "-L", str(home)], ["--rules applies to --source"]),
        (["check", "es-fise", "-", "casa", "-L", str(home)], ["stands alone"]),
    ]
    for args, parts in cases:
        _assert_one_line_error(*lextools(monkeypatch, capsys, *args)[::2], *parts)
    assert live(home) == before
    assert Path("/dev/full").is_char_device()  # written to, never replaced


@pytest.mark.parametrize(
    ("where", "error"),
    [
        ("lextools.builder.lock.os.open", PermissionError(errno.EACCES, "Permission denied")),
        ("lextools.core.output_files.os.fsync", OSError(errno.ENOSPC, "No space left on device")),
    ],
)
def test_a_read_only_directory_or_a_full_disk_leaves_the_lexicon(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys, where: str, error: OSError
) -> None:
    """Tests run as root here, where chmod cannot make a directory read-only: the OS error is injected."""
    before = live(home)
    words = write_list(home.parent / "w2.txt", [*WORDS, "perros"])
    real_open = os.open

    def fail(*args: object, **kwargs: object) -> object:
        if where.endswith("os.open") and not str(args[0]).endswith(".lock"):
            return real_open(*args, **kwargs)  # type: ignore[arg-type]
        raise OSError(error.errno, error.strerror, *(args[:1] if where.endswith("os.open") else ()))

    monkeypatch.setattr(where, fail)
    code, _, err = lextools(monkeypatch, capsys, "build", "es-fise", "-s", str(words), "-L", str(home))
    monkeypatch.undo()
    _assert_one_line_error(code, err, str(home), error.strerror)
    assert live(home)[0] == before[0]
    assert not [p for p in home.iterdir() if p.name.endswith(".tmp")]


def test_a_source_whose_name_is_not_utf8_builds(tmp_path: Path, monkeypatch, capsys) -> None:
    path = Path(os.fsdecode(bytes(tmp_path) + b"/bad\xffname.txt"))
    write_list(path, WORDS)
    code, _, err = lextools(monkeypatch, capsys, "build", "es-fise", "-s", str(path), "-L", str(tmp_path / "o"))
    assert code == 0, err
    meta = load_lexicon("es-fise", tmp_path / "o").metadata
    assert meta["sources"][0]["name"] == "bad\\udcffname.txt"


# -- 6. commands that cannot be misread ------------------------------------------------------------


def test_a_house_rules_recipe_builds_from_a_copy(tmp_path: Path, monkeypatch, capsys) -> None:
    """As docs/building.md shows: copy build/es-fise.toml, remove a rule, build from the copy. The copies
    keep one source (quick to build); each edit is checked to have changed the recipe it builds."""
    from lextools.core.sources import project_dir

    recipe = (project_dir("build") / "es-fise.toml").read_text("utf-8")
    text, edits = re.subn(r"^sources = \[.*\]$", 'sources = ["es-supplement"]', recipe, flags=re.MULTILINE)
    assert edits == 1 and '"one-tile", ' in text
    with_rule, without = tmp_path / "with.toml", tmp_path / "without.toml"
    with_rule.write_text(text, "utf-8")
    without.write_text(text.replace('"one-tile", ', ""), "utf-8")
    assert "one-tile" not in without.read_text("utf-8")
    for path, out in ((with_rule, "a"), (without, "b")):
        code, _, err = lextools(monkeypatch, capsys, "build", "--recipe", str(path), "-L", str(tmp_path / out))
        assert code == 0, err
    a, b = load_lexicon("es-fise", tmp_path / "a"), load_lexicon("es-fise", tmp_path / "b")
    assert [s["name"] for s in a.metadata["sources"]] == [s["name"] for s in b.metadata["sources"]] == ["es-supplement"]
    assert "one-tile" not in b.metadata["filters"] and "one-tile" in a.metadata["filters"]
    code, _, err = lextools(monkeypatch, capsys, "build", "en", "--recipe", str(without), "-L", str(tmp_path / "c"))
    _assert_one_line_error(code, err, "recipe for es-fise")


def test_runner_sees_the_same_refusals(tmp_path: Path) -> None:
    """The Typer app itself raises the library error (main() turns it into exit 2)."""
    with pytest.raises(BuildRefusedError):
        CliRunner().invoke(
            app,
            ["build", "es-fise", "-s", str(write_list(tmp_path / "k.txt", ["kilo"])), "-L", str(tmp_path)],
            catch_exceptions=False,
        )


def test_the_cli_says_it_waits_for_another_build_or_fails_at_once(tmp_path: Path) -> None:
    """The real command, in a process of its own, against a lock this test holds."""
    import queue
    import subprocess
    import sys

    words = write_list(tmp_path / "w.txt", WORDS)
    lextools_bin = str(Path(sys.executable).with_name("lextools"))
    command = [lextools_bin, "build", "es-fise", "-s", str(words), "-L", str(tmp_path)]
    with buildlock.build_lock(tmp_path, "es-fise"):
        busy = subprocess.run([*command, "--no-wait"], capture_output=True, text=True, timeout=120)
        assert busy.returncode == 2 and f"another build of es-fise (pid {os.getpid()})" in busy.stderr
        waiting = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in waiting.stderr or ()], daemon=True).start()
        seen = ""
        while "waiting:" not in seen:
            seen += lines.get(timeout=120)
        assert waiting.poll() is None  # still blocked on our lock
    assert waiting.wait(timeout=120) == 0
    assert len(load_lexicon("es-fise", tmp_path)) == len(WORDS)
