"""One lexicon home: ``scripts/run``, every command and the service read the same directory by default,
and the challenge record lives in it; ``record`` and ``receipt verify`` name the record they read;
``verify`` takes the edition from the export's manifest; a build shows a bar per source.

Every test points HOME at its tmp_path (and unsets LEXTOOLS_HOME and XDG_DATA_HOME), so nothing
touches the real per-user directory.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from conftest import build_small
from typer.testing import CliRunner

from lextools.builder import build_from_lists
from lextools.cli.build import SourceBars
from lextools.cli.main import app as cli
from lextools.core.edition import load_edition
from lextools.core.lexicon import default_home, read_metadata
from lextools.core.wordlist import WordList
from lextools.features.export import manifest_path
from lextools.features.record import ChallengeRecord
from service import create_app

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh user (HOME in tmp_path, no LEXTOOLS_HOME) with es-fise built where scripts/run builds it."""
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.delenv("LEXTOOLS_HOME", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("LEXTOOLS_SECRET", raising=False)
    monkeypatch.chdir(tmp_path)
    where = default_home()
    assert where == tmp_path / "user" / ".local" / "share" / "lextools"
    build_small(where, "es-fise")
    build_small(where, "es-na103")
    return where


def manual_commands() -> list[list[str]]:
    """The manual's command-line examples, as argument lists: every command by example
    (docs/command-line.md), then the README's tour."""
    manual = (ROOT / "docs" / "command-line.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [
        manual.split("## Every command, by example", 1)[1].split("```sh", 1)[1].split("```", 1)[0],
        readme.split("### The command line", 1)[1].split("```sh", 1)[1].split("```", 1)[0],
    ]
    commands = []
    for line in "\n".join(blocks).splitlines():
        line = line.split("  #", 1)[0].strip()
        if line.startswith("lextools "):
            commands.append(shlex.split(line)[1:])
    return commands


def test_scripts_run_builds_and_serves_the_home_every_command_reads() -> None:
    script = (ROOT / "scripts" / "run").read_text(encoding="utf-8")
    assert "LEXTOOLS_HOME=" not in script and "$PWD/lexicons" not in script
    assert "default_home()" in script
    assert re.search(r'build --lexicons "\$home"', script) and re.search(r'serve --lexicons "\$home"', script)


def test_the_manual_s_commands_work_in_the_default_home(home: Path, tmp_path: Path) -> None:
    """On a fresh machine, after scripts/run: the manual's examples that read lexicons, with no
    --lexicons and no environment variable (es-fise here; the others read the same directory)."""
    runner = CliRunner()
    # The service built with no LEXICONS and no RECORD reads the same home, and records beside it.
    app = create_app({"TESTING": True})
    assert app.config["LEXICONS"] == home
    answer = app.test_client().post("/v1/es-fise/challenge", json={"words": ["casa", "dame"]}).json
    assert (home / "challenges.sqlite3").is_file()
    (tmp_path / "receipt.json").write_text(json.dumps(answer["receipt"]))

    ran = set()
    for args in manual_commands():
        if {"--lexicons", "--out", "--database"} & set(args) or args[0] in ("serve", "compare", "build", "list-quiz"):
            continue  # another directory or database, or a reader's own file (serve has its own tests)
        stdin = None
        if "<" in args:
            stdin = (tmp_path / args[args.index("<") + 1]).read_text()
            args = args[: args.index("<")]
        result = runner.invoke(cli, args, input=stdin)
        expected = 1 if args[0] == "check" and "kilo" in args else 0  # KILO is not valid in es-fise
        assert result.exit_code == expected, (args, result.output)
        assert "no es-fise lexicon" not in result.output
        ran.add(args[0])
    reading = {"check", "explain", "hooks", "two-tile", "anagram", "pattern", "quiz", "score", "export", "verify"}
    reading |= {"stems", "high-value", "new-words"}
    assert ran >= reading | {"diff", "record", "receipt"}
    assert (tmp_path / "es-fise.kwg").is_file()  # the manual's export wrote it where it ran


def test_the_record_and_receipt_verify_name_the_record_they_read(home: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    app = create_app({"TESTING": True})
    receipt = app.test_client().post("/v1/es-fise/challenge", json={"words": ["casa"]}).json["receipt"]
    record = home / "challenges.sqlite3"

    shown = runner.invoke(cli, ["record", "--since", "2026-01-01", "--csv"])
    assert shown.exit_code == 0
    assert f"challenge record: {record}" in shown.stderr
    assert shown.stdout.splitlines()[1].startswith(receipt["id"])  # the CSV alone on stdout

    ok = runner.invoke(cli, ["receipt", "verify", json.dumps(receipt)])
    assert ok.exit_code == 0 and f"challenge record: {record}" in ok.stderr

    # Another record (a stray database, another replica's) does not hold it: said plainly, exit 3.
    stray = tmp_path / "stray" / "challenges.sqlite3"
    ChallengeRecord(stray).create()
    absent = runner.invoke(cli, ["receipt", "verify", "--record", str(stray), json.dumps(receipt)])
    assert absent.exit_code == 3, absent.output
    assert f"challenge record: {stray}" in absent.stderr
    assert "not found:" in absent.stderr and f"is not in the record {stray}" in absent.stderr
    assert "not valid" not in absent.stderr and "signature" not in absent.stderr

    # A forged one in the right record: exit 1, "not valid"; not a receipt at all: exit 2.
    forged = runner.invoke(cli, ["receipt", "verify", json.dumps({**receipt, "acceptable": not receipt["acceptable"]})])
    assert forged.exit_code == 1 and "not valid:" in forged.stderr
    assert runner.invoke(cli, ["receipt", "verify", "not json"]).exit_code == 2

    # No record where it is looked for: the error names the path.
    missing = runner.invoke(cli, ["record", "--record", str(tmp_path / "none.sqlite3")])
    assert missing.exit_code != 0 and str(tmp_path / "none.sqlite3") in str(missing.exception)


def test_receipt_verify_help_documents_the_exit_codes() -> None:
    shown = CliRunner().invoke(cli, ["receipt", "verify", "--help"], terminal_width=200).output
    text = " ".join(re.sub(r"[│╭╮╰╯─]", " ", shown).split())  # the help as one line, out of its box
    assert all(f"{code} " in text for code in ("0", "1", "2", "3")) and "not in this record" in text
    manual = " ".join((ROOT / "docs" / "command-line.md").read_text(encoding="utf-8").split())
    assert "3 the challenge is not in that record" in manual


def test_verify_reads_the_edition_from_the_manifest(home: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    kwg = tmp_path / "es.kwg"
    assert runner.invoke(cli, ["export", "es-fise", "--format", "kwg", "-o", str(kwg)]).exit_code == 0
    assert json.loads(manifest_path(kwg).read_text())["edition"] == "es-fise"

    plain = runner.invoke(cli, ["verify", str(kwg), "--json"])
    assert plain.exit_code == 0, plain.output
    assert json.loads(plain.stdout)["edition"] == "es-fise" and json.loads(plain.stdout)["identical"]
    assert runner.invoke(cli, ["verify", str(kwg), "--edition", "es-fise"]).exit_code == 0

    contradicts = runner.invoke(cli, ["verify", str(kwg), "--edition", "es-na103"])
    assert contradicts.exit_code != 0
    text = str(contradicts.exception)
    assert "es-na103" in text and "es-fise" in text and "es.kwg.manifest.json" in text

    manifest_path(kwg).unlink()
    neither = runner.invoke(cli, ["verify", str(kwg)])
    assert neither.exit_code != 0 and "give --edition" in str(neither.exception)
    assert "es.kwg.manifest.json" in str(neither.exception)
    assert runner.invoke(cli, ["verify", str(kwg), "--edition", "es-fise"]).exit_code == 0


class Bars:
    """What the CLI's progress would show: a task per source, its total, its count."""

    def __init__(self) -> None:
        self.tasks: list[dict] = []

    def add_task(self, description: str, total: int | None) -> int:
        self.tasks.append({"description": description, "total": total, "completed": 0})
        return len(self.tasks) - 1

    def update(self, task: int, **fields: int) -> None:
        self.tasks[task].update(fields)


def test_a_build_shows_each_source_with_its_known_total(tmp_path: Path) -> None:
    es = load_edition("es-fise")
    first = WordList.of(tmp_path / "a.txt", [f"casa{'s' * (i % 3)}" for i in range(25_000)], "UTF-8")
    second = WordList.of(tmp_path / "b.txt", ["perro", "gato", "chiquillo"], "UTF-8")
    bars = Bars()
    shown = SourceBars(bars, "es-fise")  # type: ignore[arg-type]
    meta = build_from_lists(tmp_path / "D", es, [first, second], progress=shown.tick, on_source=shown.source)
    shown.finish(meta["counts"]["read"])
    assert [t["description"] for t in bars.tasks] == ["es-fise: a.txt", "es-fise: b.txt"]
    assert [(t["total"], t["completed"]) for t in bars.tasks] == [(25_000, 25_000), (3, 3)]
    # The metadata keeps what each source gave, the total the next build of a recipe shows.
    assert [s["read"] for s in read_metadata(tmp_path / "D", "es-fise")["sources"]] == [25_000, 3]


def test_the_cli_build_prints_a_bar_per_source(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("casa\nperro\n# a comment\n\nchiquillo\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "es-fise", "--source", str(words), "--lexicons", str(tmp_path / "D")])
    assert result.exit_code == 0, result.output
    assert re.search(r"es-fise: words\.txt .*3/3 words", result.stderr), result.stderr
    assert "/? words" not in result.stderr
