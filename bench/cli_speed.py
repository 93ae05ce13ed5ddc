"""What a person waits for at the command line: whole ``lextools`` commands, wall time and peak memory.

Run from the repository root with the project's venv (about 2 minutes on 2 cores)::

    python -m bench.cli_speed                         # the lexicon home (lextools default_home), 7 runs a row
    python -m bench.cli_speed --runs 11 --json cli.json
    python -m bench.cli_speed --lextools /other/venv/bin/lextools   # another checkout's command, same rows
    python -m bench.cli_speed --one-word              # only the floors and the one-word commands (~20 s)

Each row runs one command in a fresh process, ``--runs`` times in turn with the others (so a busy
spell of the machine spreads over every row rather than landing on one; ``diff`` and ``verify``, which
take seconds, 3 times), and reports the median wall time, the median CPU time (the steadier figure
on a busy machine) and the largest peak RSS. The floors a person compares with are measured in the
same run: ``python -c pass`` (the interpreter's start; each row's wall is also shown as a multiple
of it), ``import typer`` (the start of any command Typer parses) and ``grep -qx WORD`` over the
es-fise word list exported as text (what a look-up costs with no program at all). ``import
lextools.core.lexicon``, by the command's own interpreter, is what every look-up imports before Typer
and the command's run. ``verify`` reads the es-fise GADDAG + DAWG KWG, exported first into a
temporary directory with the text list.

The commands run as an installed package runs them: with its modules' bytecode compiled (a pip
install compiles it); the children write and read it in a temporary ``PYTHONPYCACHEPREFIX``, after one
unmeasured run of each command, so ``PYTHONDONTWRITEBYTECODE`` in the environment does not make
every run compile lextools from source.

Targets (issue 24): a one-word ``check``, ``explain``, ``hooks``, ``score`` or ``anagram`` ≤ 150 ms and
≤ 60 MB; the probability-ordered pattern a page at once (≤ 150 ms to start + 200 ms for the page);
``diff es-fise es-na103`` ≤ 2 s; ``verify`` of the GADDAG KWG ≤ 3 s; (issue 37) ``export es-fise --format kwg
--gaddag`` ≤ 5 s, into the same temporary directory; ``check es-fise casa`` ≤ 6× ``python -c pass``.
Exit status 0 when every row meets its target, 1 otherwise, 2 when it cannot run (no es-fise or
es-na103 lexicon).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.harness import Unavailable, default_lexicons, lextools_command, require_lexicon

#: A one-word command's targets: wall seconds, peak RSS in MB.
ONE_WORD = (0.150, 60.0)


@dataclass
class Row:
    """One command measured: what it is, its argv, its targets, the exit status it must end with."""

    name: str
    argv: list[str]
    seconds: float | None = None  # target, wall
    mb: float | None = None  # target, peak RSS
    status: int = 0
    floor: bool = False
    one_word: bool = False  # in ``--one-word``'s rows (as is every row with a memory target)
    starts: float | None = None  # target: at most this many times ``python -c pass``'s median wall
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    peaks: list[float] = field(default_factory=list)
    statuses: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.one_word = self.one_word or self.mb is not None

    def figures(self, start: float | None = None) -> dict[str, Any]:
        """The row's medians and verdict; ``start``: the median wall of ``python -c pass``, same run."""
        wall = statistics.median(self.walls) if self.walls else None
        peak = max(self.peaks) if self.peaks else None
        met = self.statuses <= {self.status} and (
            (self.seconds is None or (wall is not None and wall <= self.seconds))
            and (self.mb is None or (peak is not None and peak <= self.mb))
            and (self.starts is None or (wall is not None and start is not None and wall <= self.starts * start))
        )
        return {
            "command": " ".join(self.argv_shown()),
            "wall_s": None if wall is None else round(wall, 4),
            "walls_s": [round(w, 4) for w in self.walls],
            "cpu_s": round(statistics.median(self.cpus), 4) if self.cpus else None,
            "peak_rss_mb": None if peak is None else round(peak, 1),
            "target_s": self.seconds,
            "target_mb": self.mb,
            "target_times_python_start": self.starts,
            "times_python_start": None if wall is None or not start else round(wall / start, 2),
            "exit_statuses": sorted(self.statuses),
            "met": None if self.floor else met,
        }

    def argv_shown(self) -> list[str]:
        return ["lextools", *self.argv[len(COMMAND) :]] if self.argv[: len(COMMAND)] == COMMAND else self.argv


COMMAND: list[str] = []


def run(argv: Sequence[str], env: dict[str, str]) -> tuple[float, float, float, int]:
    """Wall seconds, CPU seconds, peak RSS (MB) and exit status of one run of ``argv``, its output
    discarded. The CPU time (user + system, the command's and GNU time's) is the steadier figure on a
    busy machine: what the command costs, not how long it waited for a core.

    The peak is what GNU time reads of its own child: a child of this process would count this
    process's pages as its own (Linux keeps the high-water mark of the memory a process had before
    it exec'd, and a child forked or spawned from here starts with ours). Without ``/usr/bin/time``
    the child's own ``ru_maxrss`` is read, an upper bound.
    """
    with tempfile.NamedTemporaryFile("r", prefix="cli-speed-", suffix=".rss") as rss:
        timed = [TIME, "-q", "-f", "%M", "-o", rss.name, *argv] if TIME else list(argv)
        quiet = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]
        start = time.perf_counter()
        pid = os.posix_spawn(shutil.which(timed[0]) or timed[0], timed, env, file_actions=quiet)
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - start
        peak_kb = int(rss.read().split()[-1]) if TIME else usage.ru_maxrss
    cpu = usage.ru_utime + usage.ru_stime  # wait4's: the child's and its own waited-for children's
    return wall, cpu, peak_kb / 1024, os.waitstatus_to_exitcode(status)


#: GNU time, which reads its child's peak RSS (see :func:`run`); None where it is not installed.
TIME = shutil.which("time", path="/usr/bin:/bin")


def export(home: Path, folder: Path, env: dict[str, str]) -> tuple[Path, Path]:
    """The es-fise word list (text) and GADDAG + DAWG KWG, exported by the command itself."""
    words, kwg = folder / "es-fise.txt", folder / "es-fise-g.kwg"
    for options, path in ((["--format", "txt"], words), (["--format", "kwg", "--gaddag"], kwg)):
        done = subprocess.run(
            [*COMMAND, "export", "es-fise", *options, "-o", str(path), "-L", str(home)],
            env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise Unavailable(f"lextools export es-fise {' '.join(options)} failed: {done.stderr.strip()}")
    return words, kwg


def python_of(command: Sequence[str]) -> str:
    """The interpreter that runs ``command``: a console script's shebang, else its first word."""
    first = Path(command[0])
    with contextlib.suppress(OSError, UnicodeDecodeError), first.open("rb") as script:
        line = script.readline(512)
        if line.startswith(b"#!"):
            return line[2:].decode().split()[0]
    return str(first)


def rows(home: Path, words: Path, kwg: Path) -> list[Row]:
    L = ["-L", str(home)]
    sec, mb = ONE_WORD
    # What a look-up imports, by the command's own interpreter; -P: the lextools its sys.path gives,
    # as the console script sees it, not a checkout in the current directory.
    library = [python_of(COMMAND), "-P", "-c", "import lextools.core.lexicon"]
    grep = [shutil.which("grep") or "grep", "-qx", "CASA", str(words)]
    by_probability = ["pattern", "es-fise", "CH?*O", "--order", "probability"]
    gaddag, again = ["--format", "kwg", "--gaddag"], kwg.with_name("again.kwg")
    return [
        Row("python -c pass (floor)", [sys.executable, "-c", "pass"], floor=True),
        Row("grep -qx CASA, es-fise list (floor)", grep, floor=True),
        Row("import typer (the parser's floor)", [*library[:-1], "import typer"], floor=True),
        Row("import lextools.core.lexicon", library, one_word=True),
        Row("check one word", [*COMMAND, "check", "es-fise", "casa", *L], sec, mb, starts=6.0),
        Row("explain one word", [*COMMAND, "explain", "es-fise", "dame", *L], sec, mb),
        Row("hooks one word", [*COMMAND, "hooks", "es-fise", "casa", *L], sec, mb),
        Row("score one word", [*COMMAND, "score", "es-fise", "casa", *L], sec, mb),
        Row("anagram one rack", [*COMMAND, "anagram", "es-fise", "ARBOL??", *L], sec, mb),
        Row("pattern, probability order", [*COMMAND, *by_probability, *L], 0.350),
        Row("diff es-fise es-na103", [*COMMAND, "diff", "es-fise", "es-na103", *L], 2.0),
        Row("verify GADDAG KWG", [*COMMAND, "verify", str(kwg), *L], 3.0),
        Row("export GADDAG KWG", [*COMMAND, "export", "es-fise", *gaddag, "-o", str(again), *L], 5.0),
    ]  # fmt: skip


def measure(table: list[Row], runs: int, env: dict[str, str]) -> None:
    """One unmeasured run of each row (bytecode written, files in the page cache), then ``runs`` rounds;
    a command of seconds (target ≥ 1 s) runs in the first three rounds only."""
    for row in table:
        run(row.argv, env)
    for round_ in range(runs):
        for row in table:
            if round_ >= 3 and (row.seconds or 0) >= 1:
                continue
            wall, cpu, peak, status = run(row.argv, env)
            row.walls.append(wall)
            row.cpus.append(cpu)
            row.peaks.append(peak)
            row.statuses.add(status)


def floor_wall(table: list[Row], name: str) -> float | None:
    """The median wall of the floor row whose name starts with ``name``."""
    walls = [row.figures()["wall_s"] for row in table if row.floor and row.name.startswith(name)]
    return walls[0] if walls else None


def report(table: list[Row], runs: int) -> str:
    grep, start = floor_wall(table, "grep"), floor_wall(table, "python")
    load = os.getloadavg()[0]
    lines = [f"median wall of {runs} runs (commands of seconds: 3), the largest peak RSS; load average {load:.1f}", ""]
    head = f"{'what a person runs':38} {'wall':>9} {'× pass':>7} {'× grep':>7} {'CPU':>9} {'peak RSS':>9}  "
    head += f"{'target':27} verdict"
    lines += [head, "-" * len(head)]
    for row in table:
        f = row.figures(start)
        wall, peak = f["wall_s"], f["peak_rss_mb"]
        times = f"{wall / grep:6.1f}×" if grep and wall else ""
        started = f"{wall / start:6.1f}×" if start and wall else ""
        limits = [f"≤ {row.seconds * 1000:.0f} ms" if row.seconds else "", f"≤ {row.mb:.0f} MB" if row.mb else ""]
        limits.append(f"≤ {row.starts:g}× pass" if row.starts else "")
        target = " ".join(x for x in limits if x)
        verdict = "floor" if row.floor else "PASS" if f["met"] and target else "—" if f["met"] else "FAIL"
        if not row.floor and not row.statuses <= {row.status}:
            verdict += f" (exit {sorted(row.statuses)})"
        cpu = f"{f['cpu_s'] * 1000:6.0f} ms"
        figures = f"{wall * 1000:7.0f} ms {started:>7} {times:>7} {cpu:>9} {peak:6.1f} MB"
        lines.append(f"{row.name:38} {figures}  {target or '—':27} {verdict}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lexicons", type=Path, default=None, help="lexicon directory [default: lextools' default home]")
    ap.add_argument("--runs", type=int, default=7, help="measured runs of each command (default 7)")
    ap.add_argument("--lextools", type=Path, default=None, help="the lextools command to measure [default: this venv]")
    ap.add_argument("--one-word", action="store_true", help="only the floors and the one-word commands")
    ap.add_argument("--json", type=Path, help="also write the figures here as JSON")
    args = ap.parse_args(argv)
    home = args.lexicons or default_lexicons()
    COMMAND[:] = [str(args.lextools)] if args.lextools else lextools_command()
    try:
        for edition in ("es-fise", "es-na103"):
            require_lexicon(home, edition)
        with tempfile.TemporaryDirectory(prefix="cli-speed-") as tmp:
            env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
            words, kwg = export(home, Path(tmp), env)
            table = [r for r in rows(home, words, kwg) if not args.one_word or r.floor or r.one_word]
            measure(table, max(1, args.runs), env)
    except Unavailable as e:
        print(f"cli_speed: {e}", file=sys.stderr)
        return 2
    print(report(table, args.runs))
    start = floor_wall(table, "python")
    if args.json:
        rows_ = {r.name: r.figures(start) for r in table}
        figures = {"runs": args.runs, "load_average": os.getloadavg(), "rows": rows_}
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0 if all(r.figures(start)["met"] for r in table if not r.floor) else 1


if __name__ == "__main__":
    sys.exit(main())
