"""Every input bounded, children and caches with limits, logs small (issue 33, rows 11–17), one line each.

Run from the repository root with the project's venv::

    python -m bench.probes_inputs                  # the lexicon home (lextools default_home)
    python -m bench.probes_inputs --json figures.json

The files are made in a temporary directory; every command runs in a child process, measured as
``bench.probes_files`` measures it (wall, CPU = user + sys, peak RSS from ``wait4``), and must end
with exit 2, one line on stderr naming the cause, no traceback, within 2 s of CPU and 200 MB:

- row 11: the es-fise KWG (DAWG only, and with its GADDAG) with a child arc pointed past the last
  node — ``verify`` and ``build --source``;
- row 12: ``list-quiz es-fise`` on ``/dev/zero``, a FIFO, a directory and a 2 GB sparse file;
- row 13: a ``--fise-lists`` folder (bench.fise_reader's invented totals) with a 300 MB list (its
  first line names FISE, then holes), with one 20 MB line, with a file name holding ESC (shown
  ``\\x1b``, never sent raw); and with a 2 GB file beside the lists, which is passed over: the build
  succeeds (exit 0) within 5 s of CPU and the same memory;
- row 14: ``verify`` of an export whose manifest nests 200,000 deep.

Then a service (``lextools serve``, 127.0.0.1, an export cache of its own):

- row 15: an export's child stopped (SIGSTOP) as soon as it starts: the request gets 503 ``busy``
  with ``Retry-After``, the child is killed and reaped, the next request is answered 200 by a new one;
- row 16: a small es-fise lexicon rebuilt three times under a running service, an export asked after
  each: the cache holds one folder for it at the end;
- row 17: 8 challenges while another program holds the record's write lock: all 503 ``record_error``,
  at most 5 log lines per worker; ``Expect: 100-continue`` with a 50 MB ``Content-Length``: 413
  first, no ``100 Continue``.

Exit status 0 when every probe passes, 1 when one fails, 2 when it cannot run here (no es-fise
lexicon). Everything it makes is removed, everything it starts stopped.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

from bench.fise_reader import write_folder
from bench.harness import (
    default_lexicons,
    fetch,
    lextools_command,
    probe_rows,
    require_lexicon,
    run_command,
    run_probes,
    running,
    workers_of,
)
from lextools.core import kwg
from lextools.core.lexicon import load_lexicon
from lextools.features.export import export_bytes, write_export
from lextools.features.list_files import LISTS

#: Targets of a refusal: CPU seconds and peak RSS (the peak counts the probe's own process, which
#: each command is forked from: under 100 MB). A build beside a 2 GB file that is passed over may
#: take the CPU of a build of the small folder, never that of reading 2 GB.
CPU_S, RSS_MB, BUILD_CPU_S = 2.0, 200, 5.0
#: The recipe of a build from FISE's lists alone (no open source as plural evidence: quick).
RECIPE = """edition = "es-fise"
sources = ["fise-lists"]
rules = ["one-tile", "fise-infinitive-only", "fise-participle", "fise-impersonal", "fise-imperative",
  "fise-se-infinitive", "fise-no-plural", "fise-defective"]
plural_evidence = []
undecided_plurals = "plural"
"""
FISE_HEAD = "LEXICÓN FISE 2: TOTAL DE NO VERBOS\r\n".encode("latin-1")

Result = tuple[str, bool, str]


def refused(args: Sequence[str], says: str, exit_code: int = 2) -> tuple[bool, str]:
    """The command ends with ``exit_code``, within the targets; refused: one line holding ``says``."""
    f = run_command(args)
    text = f["stderr"].decode("utf-8", "replace").strip()
    lines = text.splitlines()
    if exit_code == 2:
        shape = len(lines) == 1 and says in text and "Traceback" not in text and b"\x1b" not in f["stderr"]
    else:
        shape = "Traceback" not in text
    cpu = CPU_S if exit_code == 2 else BUILD_CPU_S
    ok = f["exit"] == exit_code and shape and f["cpu_s"] <= cpu and f["rss_mb"] <= RSS_MB
    figures = f"exit {f['exit']}, {f['wall_s']} s wall, {f['cpu_s']} s CPU, {f['rss_mb']} MB peak"
    shown = (lines[-1] if lines else "")[:110]
    return ok, f"{figures} vs exit {exit_code}, CPU <= {cpu} s, RSS <= {RSS_MB} MB  ({shown})"


# -- rows 11–14: the command line ---------------------------------------------------------------------


def child_past_the_end(data: bytes) -> bytes:
    nodes = list(struct.unpack(f"<{len(data) // 4}I", data))
    i = next(i for i in range(2, len(nodes)) if nodes[i] & kwg.ARC_MASK)
    nodes[i] = (nodes[i] & ~kwg.ARC_MASK) | (len(nodes) + 7)
    return struct.pack(f"<{len(nodes)}I", *nodes)


def make_files(home: Path, tmp: Path) -> None:
    """The files of rows 11 and 14 made from the es-fise lexicon: in a process of its own
    (``--make``), so that the commands measured are not forked from a process that holds a lexicon
    and its exports (a child's peak RSS counts what it was forked with)."""
    lex = load_lexicon("es-fise", home)
    for fmt in ("kwg", "kwg-gaddag"):
        (tmp / f"past-{fmt}.kwg").write_bytes(child_past_the_end(export_bytes(lex, fmt, home=home)))
    out = tmp / "deep.kwg"
    write_export(lex, "kwg", out, home=home)
    out.with_name("deep.kwg.manifest.json").write_bytes(b'{"edition": ' + b"[" * 200_000 + b"]" * 200_000 + b"}")
    (tmp / "words.txt").write_text("\n".join(sorted(lex.keys())[:3000]) + "\n", "utf-8")  # row 16's lexicon


def cli_probes(home: Path, tmp: Path) -> list[tuple[str, list[str], str, int]]:
    """(probe, command arguments, what its refusal says, exit status) of rows 11–14."""
    here = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-m", "bench.probes_inputs", "--lexicons", str(home), "--make", str(tmp)],
                   check=True, cwd=here)  # fmt: skip
    probes: list[tuple[str, list[str], str, int]] = []
    for fmt in ("kwg", "kwg-gaddag"):
        bad = tmp / f"past-{fmt}.kwg"
        verify = ["verify", str(bad), "-e", "es-fise", "--format", fmt, "--lexicons", str(home)]
        probes.append((f"row 11: {fmt} child arc past the end, verify", verify, "past the last node", 2))
    build = ["build", "es-fise", "--lexicons", str(tmp / "D"), "--source", str(tmp / "past-kwg.kwg")]
    probes.append(("row 11: kwg child arc past the end, build --source", build, "past the last node", 2))
    os.mkfifo(tmp / "list.fifo")
    with (tmp / "huge.txt").open("wb") as f:
        f.truncate(2 * 2**30)
    for name, path in (("/dev/zero", "/dev/zero"), ("a FIFO", tmp / "list.fifo"), ("a directory", tmp)):
        quiz = ["list-quiz", "es-fise", str(path), "--lexicons", str(home)]
        probes.append((f"row 12: list-quiz {name}", quiz, "is not a regular file", 2))
    quiz = ["list-quiz", "es-fise", str(tmp / "huge.txt"), "--lexicons", str(home)]
    probes.append(("row 12: list-quiz a 2 GB sparse file", quiz, "holds 2,147,483,648 bytes", 2))
    probes += fise_probes(tmp)
    verify = ["verify", str(tmp / "deep.kwg"), "--lexicons", str(home)]
    probes.append(("row 14: verify, a manifest 200,000 deep", verify, "nests deeper than the 64 levels", 2))
    return probes


def fise_probes(tmp: Path) -> list[tuple[str, list[str], str, int]]:
    (tmp / "fise.toml").write_text(RECIPE, "utf-8")
    probes = []
    for name, make, says, code in (
        ("a 300 MB list", lambda d: _sparse(d / "big.txt", 300 * 2**20, FISE_HEAD), "holds 314,572,800 bytes", 2),
        ("one 20 MB line", lambda d: (d / "line.txt").write_bytes(FISE_HEAD + b"a" * 20 * 2**20), "longer than", 2),
        ("a name with ESC", lambda d: (d / "a\x1b[31mred.txt").write_bytes(FISE_HEAD + b"x\r\n"), "a\\x1b[31m", 2),
        ("a 2 GB file beside the lists", lambda d: _sparse(d / "backup.bin", 2 * 2**30, b"backup\n"), "", 0),
    ):
        folder = tmp / f"fise-{len(probes)}"
        folder.mkdir()
        write_folder(folder, 500)
        make(folder)
        args = ["build", "es-fise", "--recipe", str(tmp / "fise.toml"), "--fise-lists", str(folder)]
        args += ["--lexicons", str(tmp / f"F{len(probes)}")]
        probes.append((f"row 13: --fise-lists with {name}", args, says, code))
    return probes


def _sparse(path: Path, size: int, head: bytes) -> None:
    with path.open("wb") as f:
        f.write(head)
        f.truncate(size)  # holes: no disk used


# -- rows 15–17: the service --------------------------------------------------------------------------


def children_of(pid: int, text: bytes) -> list[int]:
    """The live children of ``pid`` whose command line holds ``text``."""
    found = []
    for child in workers_of(pid):
        try:
            if text in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(child)
        except OSError:
            continue
    return found


def stopped_export(port: int, arbiter: int) -> tuple[bool, str]:
    stopped: list[int] = []

    def stop() -> None:
        deadline = time.monotonic() + 30
        while not stopped and time.monotonic() < deadline:
            for worker in workers_of(arbiter):
                for child in children_of(worker, b"export"):
                    os.kill(child, signal.SIGSTOP)
                    stopped.append(child)
            time.sleep(0.005)

    t = threading.Thread(target=stop)
    t.start()
    start = time.monotonic()
    status, headers, body = fetch(port, "GET", "/v1/es-fise/export?format=kwg")
    waited = time.monotonic() - start
    t.join()
    gone = bool(stopped) and not Path(f"/proc/{stopped[0]}").exists()
    code = json.loads(body).get("error", {}).get("code") if status != 200 else None
    start = time.monotonic()
    again = [_status(port, "/v1/es-fise/export?format=kwg") for _ in range(4)]
    ok = status == 503 and code == "busy" and "Retry-After" in headers and gone and 200 in again
    return ok, (
        f"stopped child: {status} {code} after {waited:.1f} s, Retry-After {headers.get('Retry-After')}, "
        f"killed and reaped: {gone}; next requests: {again} in {time.monotonic() - start:.1f} s "
        "(targets: 503 busy, reaped, then 200)"
    )


def _status(port: int, path: str) -> int:
    """The status of a GET, 0 when no answer came within the client's 10 s."""
    try:
        return fetch(port, "GET", path)[0]
    except OSError:
        return 0


def _generations(cache: Path) -> tuple[int, int]:
    """The export folders in the cache, and the lexicon generations its list files are of (a list
    file's name starts with its lexicon's edition and checksum: lextools.features.list_files)."""
    exports = [p for p in cache.iterdir() if p.name != LISTS]
    lists = {p.name.split("__")[0] for p in (cache / LISTS).glob("*.keys")}
    return len(exports), len(lists)


def rebuilt_cache(tmp: Path) -> tuple[bool, str]:
    words = (tmp / "words.txt").read_text("utf-8").split()
    small, cache = tmp / "small", tmp / "small-cache"
    folders = []
    with mock.patch.dict(os.environ, {"LEXTOOLS_CACHE": str(cache)}):
        _build_small(small, words, 0)
        with running(small, tmp / "small.log", workers=1) as svc:
            for n in range(1, 4):
                status = fetch(svc.port, "GET", "/v1/es-fise/export?format=kwg")[0]
                folders.append((status, *_generations(cache)))
                _build_small(small, words, n)
                time.sleep(1.5)  # the workers look for a rebuild every second
            status = fetch(svc.port, "GET", "/v1/es-fise/export?format=kwg")[0]
            folders.append((status, *_generations(cache)))
    size = sum(p.stat().st_size for p in cache.rglob("*") if p.is_file())
    ok = all(s == 200 and n == 1 and g <= 1 for s, n, g in folders)
    return ok, (
        f"(status, export folders, list generations) after each of 3 rebuilds: {folders}, {size:,} bytes "
        "(target: 1 folder, at most 1 generation of lists)"
    )


def _build_small(home: Path, words: list[str], n: int) -> None:
    listed = home.parent / "small.txt"
    listed.write_text("\n".join(words[n:]) + "\n", "utf-8")  # each build a word fewer: a new checksum
    args = ["build", "es-fise", "--source", str(listed), "--lexicons", str(home), "--force"]
    subprocess.run([*lextools_command(), *args], capture_output=True, check=True)


def locked_record(port: int, record: Path, log: Path, workers: int) -> tuple[bool, str]:
    play, json_type = b'{"words":["casa"],"reveal":false}', {"Content-Type": "application/json"}
    fetch(port, "POST", "/v1/es-fise/challenge", play, json_type)  # the record made
    before = log.read_bytes().count(b"record_error")
    holder = sqlite3.connect(record, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        statuses = [fetch(port, "POST", "/v1/es-fise/challenge", play, json_type)[0] for _ in range(8)]
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    text = log.read_bytes()
    lines, tracebacks = text.count(b"record_error") - before, text.count(b"Traceback")
    ok = statuses == [503] * 8 and lines <= 5 * workers and tracebacks == 0
    return ok, f"8 challenges: {statuses}; {lines} log lines (target: <= 5 per worker, {workers} workers), no traceback"


def expect_continue(port: int) -> tuple[bool, str]:
    head = (
        b"POST /v1/es-fise/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 52428800\r\nExpect: 100-continue\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(head)
        first = s.recv(65536)
    line = first.split(b"\r\n", 1)[0].decode("latin-1")
    ok = line.startswith("HTTP/1.1 413") and b"100 Continue" not in first
    return ok, f"50 MB body announced: first answer {line!r} (target: 413, no 100 Continue)"


def service_probes(home: Path, tmp: Path, probe: Callable[[str, Callable[[], tuple[bool, str]]], None]) -> None:
    record = tmp / "challenges.sqlite3"
    with (
        mock.patch.dict(os.environ, {"LEXTOOLS_CACHE": str(tmp / "cache")}),
        running(home, tmp / "service.log", workers=2, options=("--record", str(record))) as svc,
    ):
        probe("row 15: export child stopped (SIGSTOP)", lambda: stopped_export(svc.port, svc.pid))
        probe("row 17: challenges while the record is locked", lambda: locked_record(svc.port, record, svc.log, 2))
        probe("row 17: Expect: 100-continue over the body limit", lambda: expect_continue(svc.port))
    probe("row 16: export cache over 3 rebuilds", lambda: rebuilt_cache(tmp))


def run(home: Path) -> list[Result]:
    require_lexicon(home, "es-fise")
    results: list[Result] = []

    def probe(name: str, check: Callable[[], tuple[bool, str]]) -> None:
        ok, figures = check()
        results.append((name, ok, figures))
        print(f"{name}: {figures} — {'PASS' if ok else 'FAIL'}", flush=True)

    with tempfile.TemporaryDirectory(prefix="probes_inputs.") as tmp:
        folder = Path(tmp)
        for name, args, says, code in cli_probes(home, folder):
            probe(name, lambda args=args, says=says, code=code: refused(args, says, code))
        service_probes(home, folder, probe)
    return results


def probes(args: argparse.Namespace) -> list[dict[str, Any]]:
    home = args.lexicons or default_lexicons()
    if args.make:  # the files only, in this folder
        make_files(home, args.make)
        return []
    return probe_rows(run(home))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lexicons", type=Path, default=None, help="lexicon home (default: lextools default_home)")
    ap.add_argument("--make", type=Path, help=argparse.SUPPRESS)
    return run_probes("probes_inputs", ap, probes, argv)


if __name__ == "__main__":
    sys.exit(main())
