"""Every file a person gives lextools is bounded, and what the service starts or keeps has limits
(issue 33, rows 11–17): each refusal is one line naming the cause, exit 2, never a traceback."""

from __future__ import annotations

import json
import os
import struct
import sys
from pathlib import Path

import pytest

from lextools.builder.fise_forms import load_lists
from lextools.cli.main import main
from lextools.core import kwg
from lextools.core.edition import load_edition
from lextools.core.errors import ExportFormatError
from lextools.core.inputs import MAX_JSON_DEPTH, MAX_LINE_CHARS, InputRefusedError, json_depth, load_json
from lextools.core.lexicon import load_lexicon
from lextools.features.export import export_bytes, write_export
from tests.conftest import build_small
from tests.fise_folder import RECIPE, fise_folder

WORDS = ["casa", "casas", "cosa", "cosas", "chico", "chica", "llama", "perro", "pera"]


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """``lextools ARGS`` through the real entry point: (exit code, stderr)."""
    monkeypatch.setattr(sys, "argv", ["lextools", *args])
    try:
        main()
    except SystemExit as e:
        code = int(e.code or 0)
    else:
        code = 0
    return code, capsys.readouterr().err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# -- row 11: a KWG child arc past the last node ----------------------------------------------------


def child_past_the_end(data: bytes) -> tuple[bytes, int]:
    """The KWG with the first node below the roots that has children pointed past the last node."""
    nodes = list(struct.unpack(f"<{len(data) // 4}I", data))
    i = next(i for i in range(2, len(nodes)) if nodes[i] & kwg.ARC_MASK)
    nodes[i] = (nodes[i] & ~kwg.ARC_MASK) | (len(nodes) + 7)
    return struct.pack(f"<{len(nodes)}I", *nodes), i


def test_a_child_arc_past_the_last_node_is_refused_in_the_reading_pass() -> None:
    data, i = child_past_the_end(kwg.encode(["CASA", "COSA", "CASAS"], load_edition("es-fise")))
    with pytest.raises(ExportFormatError, match=f"node {i} points at node .*past the last node"):
        kwg.read_kwg(data)
    with pytest.raises(ExportFormatError, match="past the last node"):
        kwg.read_kwg(data, gaddag=False)


@pytest.mark.parametrize("gaddag", [False, True])
def test_verify_and_build_refuse_a_kwg_whose_child_points_past_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, gaddag: bool
) -> None:
    home = tmp_path / "home"
    build_small(home, "es-fise", WORDS)
    fmt = "kwg-gaddag" if gaddag else "kwg"
    data, _ = child_past_the_end(export_bytes(load_lexicon("es-fise", home), fmt, home=home))
    bad = tmp_path / "bad.kwg"
    bad.write_bytes(data)
    code, err = run_cli(
        monkeypatch, capsys, "verify", str(bad), "-e", "es-fise", "--format", fmt, "--lexicons", str(home)
    )
    assert code == 2 and "past the last node" in one_line(err)
    code, err = run_cli(
        monkeypatch, capsys, "build", "es-fise", "--source", str(bad), "--lexicons", str(tmp_path / "D")
    )
    assert code == 2 and "past the last node" in one_line(err)
    assert not (tmp_path / "D" / "es-fise.json").exists()


# -- row 12: every CLI reader of a user's file goes through the same checks --------------------------


def hostile_files(folder: Path) -> list[tuple[Path, str]]:
    """(file, what its refusal says) for /dev/zero, a FIFO, a directory and a 2 GB sparse file."""
    fifo, sparse = folder / "list.fifo", folder / "huge.txt"
    os.mkfifo(fifo)  # opened without a writer, a read would wait for ever
    with sparse.open("wb") as f:
        f.truncate(2 * 2**30)  # holes: no disk used, refused by its size
    return [
        (Path("/dev/zero"), "/dev/zero is not a regular file"),
        (fifo, "list.fifo is not a regular file"),
        (folder, "is not a regular file"),
        (sparse, "huge.txt holds 2,147,483,648 bytes, more than the 4,194,304"),
    ]


def test_list_quiz_reads_only_a_bounded_regular_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    home = tmp_path / "home"
    build_small(home, "es-fise", WORDS)
    for path, says in hostile_files(tmp_path):
        code, err = run_cli(monkeypatch, capsys, "list-quiz", "es-fise", str(path), "--lexicons", str(home))
        assert code == 2 and says in one_line(err), (path, err)
    long_line = tmp_path / "long.txt"
    long_line.write_text("casa\n" + "a" * (MAX_LINE_CHARS + 1) + "\n", encoding="utf-8")
    code, err = run_cli(monkeypatch, capsys, "list-quiz", "es-fise", str(long_line), "--lexicons", str(home))
    assert code == 2 and "line 2 is longer than 4,096 characters" in one_line(err)
    mine = tmp_path / "mine.txt"
    mine.write_text("\ufeffcasa\tthe house\n# a comment\ncosa\n", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["lextools", "list-quiz", "es-fise", str(mine), "--lexicons", str(home), "--json"])
    with pytest.raises(SystemExit) as e:
        main()
    assert e.value.code == 0
    answer = json.loads(capsys.readouterr().out)
    assert sorted(a["word"] for q in answer["questions"] for a in q["answers"]) == ["CASA", "COSA"]


def test_a_lexicon_metadata_file_and_a_recipe_are_bounded_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "F").mkdir()
    os.mkfifo(tmp_path / "F" / "es-fise.json")  # `compare FILE.json` reads a lexicon's metadata
    words = tmp_path / "words.txt"
    words.write_text("casa\n", encoding="utf-8")
    code, err = run_cli(monkeypatch, capsys, "compare", str(tmp_path / "F" / "es-fise.json"), str(words))
    assert code == 2 and "es-fise.json is not a regular file" in one_line(err)
    recipe = tmp_path / "big.toml"
    with recipe.open("wb") as f:
        f.truncate(2 * 2**20)
    code, err = run_cli(monkeypatch, capsys, "build", "es-fise", "--recipe", str(recipe), "--lexicons", str(tmp_path))
    assert code == 2 and "big.toml holds 2,097,152 bytes, more than the 1,048,576" in one_line(err)


# -- row 13: a folder of FISE's lists ------------------------------------------------------------------

FISE_HEAD = "LEXICÓN FISE 2: TOTAL DE NO VERBOS\r\n".encode("latin-1")


def test_a_fise_list_is_bounded_by_its_size_before_it_is_read(tmp_path: Path) -> None:
    folder = fise_folder(tmp_path / "lists")
    with (folder / "big.txt").open("wb") as f:  # named a list by its first line, then 300 MB of holes
        f.write(FISE_HEAD)
        f.truncate(300 * 2**20)
    with pytest.raises(InputRefusedError, match=r"big\.txt holds 314,572,800 bytes, more than the 33,554,432"):
        load_lists(folder)


def test_a_huge_file_or_a_fifo_beside_the_lists_is_passed_over_unread(tmp_path: Path) -> None:
    folder = fise_folder(tmp_path / "lists")
    with (folder / "huge.bin").open("wb") as f:  # not a list: only its head is looked at
        f.write(b"a backup of something\n")
        f.truncate(2 * 2**30)
    os.mkfifo(folder / "pipe.txt")  # never opened: it would wait for a writer
    lists = load_lists(folder)
    assert "huge.bin" in {p.name for p in lists.ignored} and "zumbrel" in lists.words


def test_an_over_long_line_of_a_list_is_refused_before_its_lines_are_read(tmp_path: Path) -> None:
    folder = fise_folder(tmp_path / "lists")
    (folder / "line.txt").write_bytes(FISE_HEAD + b"a" * (8 * 2**20) + b"\r\n#\r\n")
    with pytest.raises(InputRefusedError, match=r"line\.txt is not a word list: line 2 is longer than 4,096"):
        load_lists(folder)


def test_a_list_name_with_esc_is_shown_escaped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = fise_folder(tmp_path / "lists")
    (folder / "a\x1b[31mred.txt").write_bytes(FISE_HEAD + b"sin cierre\r\n")  # cut short: refused, named
    recipe = tmp_path / "fise.toml"
    recipe.write_text(RECIPE, "utf-8")
    args = ["build", "es-fise", "--recipe", str(recipe), "--fise-lists", str(folder), "--lexicons", str(tmp_path / "D")]
    code, err = run_cli(monkeypatch, capsys, *args)
    assert code == 2 and "a\\x1b[31mred.txt: line 2: the header ends" in one_line(err) and "\x1b" not in err
    with (folder / "a\x1b[31mred.txt").open("wb") as f:
        f.write(FISE_HEAD)
        f.truncate(40 * 2**20)
    code, err = run_cli(monkeypatch, capsys, *args)
    assert code == 2 and "a\\x1b[31mred.txt holds 41,943,040 bytes" in one_line(err) and "\x1b" not in err


# -- row 14: a manifest nested 200,000 deep -------------------------------------------------------


def test_a_deep_manifest_is_refused_naming_it_not_a_recursion_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    build_small(tmp_path, "es-fise", WORDS)
    out = tmp_path / "x.kwg"
    write_export(load_lexicon("es-fise", tmp_path), "kwg", out, home=tmp_path)
    manifest = out.with_name("x.kwg.manifest.json")
    good = manifest.read_bytes()
    code, _ = run_cli(monkeypatch, capsys, "verify", str(out), "--lexicons", str(tmp_path))
    assert code == 0 and json_depth(good) <= MAX_JSON_DEPTH  # a real manifest passes the bound
    manifest.write_bytes(b'{"edition": ' + b"[" * 200_000 + b"]" * 200_000 + b"}")
    for edition in ([], ["-e", "es-fise"]):
        code, err = run_cli(monkeypatch, capsys, "verify", str(out), *edition, "--lexicons", str(tmp_path))
        assert code == 2 and "x.kwg.manifest.json nests deeper than the 64 levels" in one_line(err)


def test_json_depth_counts_brackets_outside_strings() -> None:
    assert json_depth(b'{"a": [1, {"b": "[[[{\\"]"}], "c": {}}') == 3
    assert json_depth(b"[" * 1000, stop=64) == 65  # stops counting once past the bound
    with pytest.raises(InputRefusedError, match=r"m\.json nests deeper than the 2 levels"):
        load_json(b"[[[1]]]", "m.json", max_depth=2)
    assert load_json(b'{"a": ["]]"]}', "m.json", max_depth=2) == {"a": ["]]"]}
