"""What the benchmarks share: a service started and stopped, its workers and their memory, wrk.

Used by every module of the package that starts a server (``python -m bench.NAME``) and by
tests/test_gunicorn.py. It imports only the standard library and ``lextools``, so importing it
starts nothing.

- :func:`start_service` / :func:`running` — ``lextools serve --host 127.0.0.1 --port 0`` (or another
  gunicorn server, :func:`bench_command`) in its own process group, its log in a file, the port it
  got read from gunicorn's "Listening at" line; :func:`stop_service` stops it (SIGTERM, then SIGKILL
  to what is left of the group).
- :func:`workers_of`, :func:`rss_kb`, :func:`memory_kb` (``/proc/PID/smaps_rollup``: RSS, PSS and
  private bytes — what a worker costs the machine, where RSS counts shared pages in full in every
  process), :class:`RssSampler`, :func:`cpu_seconds`.
- :func:`wrk_load` — wrk with ``bench/wrk_paths.lua`` (GETs cycling through paths, or one POST body)
  and its figures as JSON; :func:`require_wrk` installs Debian's wrk when it is missing.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lextools.core.lexicon import default_home, load_lexicon
from service.worker_renewal import RENEWED

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
WRK_SCRIPT = BENCH / "wrk_paths.lua"


class Unavailable(Exception):
    """The benchmark cannot run here (no lexicon, no wrk): exit status 2, with this message."""


#: Another program holding a SQLite file's write lock (``BEGIN IMMEDIATE``) until its stdin closes:
#: ``[sys.executable, "-c", LOCK_HOLDER, FILE]``; it prints ``locked`` once it holds the lock.
LOCK_HOLDER = (
    "import sqlite3, sys\n"
    "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
    "db.execute('BEGIN IMMEDIATE')\n"
    "print('locked', flush=True)\n"
    "sys.stdin.read()\n"
    "db.execute('ROLLBACK')\n"
)


def run_command(args: Sequence[str]) -> dict[str, Any]:
    """One ``lextools`` command: its exit status, wall and CPU seconds, peak RSS in MB and its stderr."""
    start = time.perf_counter()
    proc = subprocess.Popen([*lextools_command(), *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return {
        "exit": proc.returncode,
        "wall_s": round(time.perf_counter() - start, 2),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
        "rss_mb": round(usage.ru_maxrss / 1024, 1),
        "stderr": err,
    }


def probe_rows(results: Sequence[tuple[str, bool, Any]]) -> list[dict[str, Any]]:
    """Probes reported as (name, passed, figures), as :func:`run_probes` takes them."""
    return [{"probe": name, "ok": ok, "figures": figures} for name, ok, figures in results]


def run_probes(
    name: str, ap: argparse.ArgumentParser, run: Callable[[argparse.Namespace], list[dict[str, Any]]], argv: Any
) -> int:
    """A probe script's ``main``: ``--json FILE`` added to its options, its probes run (each result a
    dict with ``ok``); exit status 0 all passed, 1 one failed, 2 cannot run here."""
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    args = ap.parse_args(argv)
    try:
        results = run(args)
    except Unavailable as e:
        print(f"{name}: {e}", file=sys.stderr)
        return 2
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0 if all(r["ok"] for r in results) else 1


# -- the service ----------------------------------------------------------------------------------


def default_lexicons() -> Path:
    """The lexicon home every lextools command reads (``$LEXTOOLS_HOME``, else the per-user data
    directory), where ``scripts/run`` builds the defaults."""
    return default_home()


def require_lexicon(home: Path, edition: str) -> None:
    """Fail early, saying how to build it, when the edition has no lexicon in ``home``."""
    if not (home / f"{edition}.json").is_file():
        raise Unavailable(
            f"no {edition} lexicon in {home}. Build the default lexicons (under a minute on 2 cores) with\n"
            f"    lextools build --out {home}\n"
            f"or only this one with `lextools build {edition} --out {home}`; scripts/reliability and scripts/run "
            "build the missing defaults."
        )


def bench_command(name: str) -> list[str]:
    """``python -m bench.NAME`` with this interpreter: how a benchmark runs one of its own modules in
    a child process (a server, a fresh interpreter to measure), from the same working directory."""
    return [sys.executable, "-m", f"bench.{name}"]


def lextools_command() -> list[str]:
    """The ``lextools`` console script of this venv (what ``scripts/run`` runs), else the CLI module."""
    script = Path(sys.executable).with_name("lextools")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "from lextools.cli.main import main; main()"]


@dataclass
class Service:
    """One ``lextools serve`` process: its gunicorn arbiter (``pid``), port and log file."""

    proc: subprocess.Popen[bytes]
    port: int
    pid: int
    log: Path
    name: str = "service"
    killed: bool = field(default=False)

    def log_tail(self, lines: int = 15) -> str:
        return "".join(self.log.read_text(errors="replace").splitlines(keepends=True)[-lines:])


def start_service(home: Path, log: Path, *, port: int = 0, workers: int = 2, name: str = "service",
                  command: Sequence[str] | None = None, options: Sequence[str] = (),
                  ready: str = "/healthz") -> Service:  # fmt: skip
    """Start ``lextools serve`` on 127.0.0.1 and wait until ``ready`` answers 200.

    ``options`` are more ``lextools serve`` options (``--kiosk es-fise``: then ``ready`` must be a
    path the kiosk serves). ``command`` runs another gunicorn server instead (``bench.service_load``'s
    Flask app or bare WSGI app), which must log gunicorn's "Listening at" line. The log goes to a file rather than
    a pipe: nothing has to drain it, and its tail explains a failure (a worker timeout, a traceback).
    """
    cmd = list(command) if command else [
        *lextools_command(), "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers),
        "--lexicons", str(home), *options]  # fmt: skip
    offset = log.stat().st_size if log.exists() else 0  # a restart appends to the same log
    with log.open("ab") as out:  # its own session: one process group to stop, and Ctrl-C is ours to handle
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    svc = Service(proc, port, proc.pid, log, name)
    deadline = time.monotonic() + 60
    try:
        while not svc.port or not _answers(svc.port, ready):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not start ({' '.join(cmd)}):\n{svc.log_tail()}")
            text = log.read_bytes()[offset:].decode(errors="replace")
            if m := re.search(r"Listening at: http://127\.0\.0\.1:(\d+) \((\d+)\)", text):
                svc.port, svc.pid = int(m.group(1)), int(m.group(2))
            time.sleep(0.1)
    except BaseException:
        stop_service(svc)
        raise
    return svc


def _answers(port: int, path: str) -> bool:
    try:
        return request(port, "GET", path)[0] == 200
    except OSError:
        return False


def stop_service(svc: Service, timeout: float = 20) -> None:
    """SIGTERM (gunicorn's graceful stop), then SIGKILL to whatever is left of its process group."""
    if svc.proc.poll() is None:
        svc.proc.send_signal(signal.SIGTERM)
        with suppress(subprocess.TimeoutExpired):
            svc.proc.wait(timeout=timeout)
    kill_group(svc)


def kill_group(svc: Service) -> None:
    """SIGKILL the service's arbiter and workers at once (its own process group) and reap the arbiter."""
    with suppress(ProcessLookupError):
        os.killpg(svc.proc.pid, signal.SIGKILL)
    with suppress(subprocess.TimeoutExpired):
        svc.proc.wait(timeout=10)


@contextmanager
def running(home: Path, log: Path, **kwargs: Any) -> Iterator[Service]:
    """A started service, stopped on the way out whatever happened."""
    svc = start_service(home, log, **kwargs)
    try:
        yield svc
    finally:
        stop_service(svc)


def workers_booted(log: str) -> int:
    """Workers gunicorn started, less those started in place of a worker renewed when idle
    (service/worker_renewal.py): a boot past the first ones then means a worker died or was killed."""
    return log.count("Booting worker") - log.count(RENEWED)


def workers_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (a gunicorn arbiter's workers), from /proc."""
    children = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:  # ended meanwhile
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (name) ": state, ppid, ...
        if int(fields[1]) == pid and fields[0] != "Z":
            children.append(int(entry.name))
    return sorted(children)


def rss_kb(pid: int) -> int | None:
    """VmRSS of a process in kB; None once it has ended."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


class RssSampler(threading.Thread):
    """Samples the VmRSS of an arbiter and its workers every ``interval`` s; keeps the max per pid.

    Workers are found again at every sample, so a worker gunicorn replaced shows up as a new pid.
    """

    def __init__(self, arbiter: int, interval: float = 0.5) -> None:
        super().__init__(daemon=True)
        self.arbiter, self.interval = arbiter, interval
        self.max_kb: dict[int, int] = {}
        self.workers: set[int] = set()
        self._stop_event = threading.Event()

    def sample(self) -> None:
        pids = workers_of(self.arbiter)
        self.workers.update(pids)
        for pid in [self.arbiter, *pids]:
            kb = rss_kb(pid)
            if kb is not None:
                self.max_kb[pid] = max(kb, self.max_kb.get(pid, 0))

    def run(self) -> None:
        while not self._stop_event.is_set():
            self.sample()
            self._stop_event.wait(self.interval)

    def stop(self) -> None:
        self._stop_event.set()
        self.join()
        self.sample()


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (for a process that needs its port before it starts)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def memory_kb(pid: int) -> dict[str, int] | None:
    """``Rss``, ``Pss`` and ``Private`` (clean + dirty) of a process in kB, from /proc/PID/smaps_rollup.

    PSS charges each shared page to the processes sharing it in equal parts, so the PSS of an
    arbiter and its workers adds up to what they cost the machine together; ``Private`` is what one
    worker alone costs (its USS). None once the process has ended.
    """
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    fields = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+):\s+(\d+) kB", text, re.M)}
    return {
        "rss": fields.get("Rss", 0),
        "pss": fields.get("Pss", 0),
        "private": fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0),
    }


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) of a gunicorn master and its workers so far; None without /proc.

    Unlike requests/s, CPU time per request hardly moves when other programs compete for the cores,
    so it is the steadier way to compare the two apps on a busy machine.
    """
    ticks = 0
    try:
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                stat = Path(entry.path, "stat").read_text()
            except OSError:  # the process ended meanwhile
                continue
            fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (name) ": state, ppid, ...
            if int(entry.name) == pid or int(fields[1]) == pid:
                ticks += int(fields[11]) + int(fields[12])  # utime, stime
    except OSError:
        return None
    return ticks / os.sysconf("SC_CLK_TCK")


def fetch(
    port: int, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One request on its own connection; the path goes out byte for byte (``%FF`` included)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), r.read()
    finally:
        conn.close()


def send_raw(port: int, data: bytes, timeout: float = 20) -> tuple[int, bytes, bytes]:
    """``data`` sent as it is on its own connection — a request no client library would send (broken
    chunking, raw bytes in the request line) — and the whole answer read: status, head, body."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
    head, _, body = got.partition(b"\r\n\r\n")
    return int(head.split()[1]), head, body


def request(port: int, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
    status, _, data = fetch(port, method, path, body)
    return status, data


def find_wrk(install: bool) -> str | None:
    wrk = shutil.which("wrk")
    if wrk or not install or os.geteuid() != 0 or not shutil.which("apt-get"):
        return wrk
    print("wrk not found: installing it with apt-get ...", file=sys.stderr)
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    if subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], **quiet).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], **quiet)
        subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], **quiet)
    return shutil.which("wrk")


def sample_words(home: Path, edition: str, n: int, seed: int) -> list[str]:
    """Words of the lexicon in plain spelling, one in ten altered (most then are not words, but all are
    spelled in tiles: every look-up is a 200)."""
    lex = load_lexicon(edition, home)
    rng = random.Random(seed)
    keys = list(lex.keys())
    letters = sorted(lex.edition.letters)
    words = []
    for key in rng.sample(keys, min(n, len(keys))):
        word = lex.edition.spelling(key).lower()
        if rng.random() < 0.1:
            i = rng.randrange(len(word))
            altered = word[:i] + rng.choice(letters).lower() + word[i + 1 :]
            # Still spelled in at most 15 tiles: C→N in a CH tile's word adds a tile, and a word
            # longer than the board is a 422 (unspellable), which the load benchmarks count as failed.
            word = altered if lex.lookup(altered).word is not None else word
        words.append(word)
    return words


def wrk_load(wrk: str, port: int, paths: Sequence[str], *, connections: int, duration: int, threads: int = 1,
             timeout: float = 2, started: list[subprocess.Popen[str]] | None = None,
             body: bytes | None = None) -> dict[str, Any]:  # fmt: skip
    """Run wrk with ``bench/wrk_paths.lua`` over ``paths``; its figures as a dict (latencies in ms).

    With ``body``, every request POSTs it. ``started`` receives the wrk process, so a caller running
    this in a thread can kill it.
    """
    with tempfile.NamedTemporaryFile("w", suffix=".paths", delete=False) as f:
        f.write("\n".join(paths) + "\n")
    extra = []
    if body is not None:
        with tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False) as b:
            b.write(body)
        extra.append(b.name)
    cmd = [wrk, f"-t{threads}", f"-c{connections}", f"-d{duration}s", f"--timeout={timeout}s", "-s", str(WRK_SCRIPT),
           f"http://127.0.0.1:{port}", "--", f.name, *extra]  # fmt: skip
    try:
        with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
            if started is not None:
                started.append(proc)
            try:
                stdout, stderr = proc.communicate(timeout=duration + 60)
            finally:
                proc.kill()  # no-op once it has ended; stops it on a timeout or Ctrl-C
    finally:
        for name in (f.name, *extra):
            os.unlink(name)
    m = re.search(r"^WRK_JSON (.*)$", stdout, re.M)
    if proc.returncode != 0 or not m:
        raise RuntimeError(f"wrk failed ({proc.returncode}):\n{stdout}\n{stderr}")
    raw = json.loads(m.group(1))
    errors = raw["errors"]
    socket_errors = {k: errors[k] for k in ("connect", "read", "write", "timeout")}
    return {
        "requests": raw["requests"],
        "duration_s": raw["duration_us"] / 1e6,
        "rps": raw["requests"] / (raw["duration_us"] / 1e6),
        "http_errors": errors["status"],  # wrk counts responses with status >= 400
        "socket_errors": socket_errors,
        "socket_errors_total": sum(socket_errors.values()),
        "latency_ms": {k: v / 1000 for k, v in raw["latency_us"].items()},
        "connections": connections,
        "wrk_threads": threads,
    }


def require_wrk() -> str:
    """wrk's path (installing Debian's package as root when it is missing)."""
    wrk = find_wrk(install=True) or (shutil.which("wrk", path="/usr/bin"))
    if not wrk:
        raise Unavailable("wrk is not installed: apt-get install wrk (as root)")
    return wrk
