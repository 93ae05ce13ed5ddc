"""Load test (bounded, loopback only): the real service under wrk, with zero errors required.

Run from the repository root with the project's venv::

    python bench/load.py                          # ./lexicons (or $LEXTOOLS_HOME), 64 connections, 30 s
    python bench/load.py --duration 10 --json load.json

It starts ``lextools serve --host 127.0.0.1 --port 0`` (gunicorn, 2 workers, the settings in
``service.server.DEFAULTS``) on the lexicon directory, checks that every request of the mix answers
2xx once (which also loads the lexicon in the workers), then runs wrk (``bench/wrk_paths.lua``) for
``--duration`` seconds with ``--connections`` connections, and stops the service.

The mix is what a word judge, a study page and a board app send, all GETs of one edition:
word look-ups (real words of the lexicon, and one in ten altered so most are not words: the API
answers those 200 with ``valid: false``, so they are not errors), hooks, scores and the two-tile list.

Reported: requests/s; errors, counted apart as HTTP (status >= 400) and socket errors (connect,
read, write, timeout); latency p50/p90/p99/max from wrk; the resident set size (VmRSS) of the
gunicorn arbiter and of each worker, sampled every half second during the run, max per process.
A worker that died or was replaced during the run counts as a failure too.

Exit status: 0 when no request failed, 1 when any did, 2 when it could not run (no lexicon, no wrk).
The service and wrk are stopped on every path out, Ctrl-C included.
"""

from __future__ import annotations

import argparse
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
from urllib.parse import quote

from service_load import find_wrk, request, sample_words

from service.server import DEFAULTS

BENCH = Path(__file__).resolve().parent
WRK_SCRIPT = BENCH / "wrk_paths.lua"

#: Share of each kind of request in the mix (per 100 requests).
MIX = {"word": 70, "hooks": 15, "score": 10, "two-tile": 5}


class Unavailable(Exception):
    """The benchmark cannot run here (no lexicon, no wrk): exit status 2, with this message."""


# -- the service ----------------------------------------------------------------------------------


def default_lexicons() -> Path:
    """``$LEXTOOLS_HOME``, else ``./lexicons`` (where ``scripts/run`` builds the defaults)."""
    return Path(os.environ.get("LEXTOOLS_HOME") or "lexicons")


def require_lexicon(home: Path, edition: str) -> None:
    """Fail early, saying how to build it, when the edition has no lexicon in ``home``."""
    if not (home / f"{edition}.json").is_file():
        raise Unavailable(
            f"no {edition} lexicon in {home}. Build the default lexicons (about 2 minutes on 2 cores) with\n"
            f"    lextools build --out {home}\n"
            f"or only this one with `lextools build {edition} --out {home}`; scripts/reliability and scripts/run "
            "build the missing defaults."
        )


def lextools_command() -> list[str]:
    """The ``lextools`` console script of this venv (what ``scripts/run`` runs), else the CLI module."""
    script = Path(sys.executable).with_name("lextools")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "from lextools.cli import main; main()"]


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


def start_service(home: Path, log: Path, *, port: int = 0, workers: int = 2, name: str = "service") -> Service:
    """Start ``lextools serve`` on 127.0.0.1 and wait until ``/healthz`` answers.

    The log goes to a file rather than a pipe: nothing has to drain it, and its tail explains a
    failure (a worker timeout, a traceback) after the run.
    """
    cmd = [*lextools_command(), "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers),
           "--lexicons", str(home)]  # fmt: skip
    offset = log.stat().st_size if log.exists() else 0  # a restart appends to the same log
    with log.open("ab") as out:  # its own session: one process group to stop, and Ctrl-C is ours to handle
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    svc = Service(proc, port, proc.pid, log, name)
    deadline = time.monotonic() + 60
    try:
        while not svc.port or not _healthy(svc.port):
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


def _healthy(port: int) -> bool:
    try:
        return request(port, "GET", "/healthz")[0] == 200
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


# -- the requests ---------------------------------------------------------------------------------


def request_mix(home: Path, edition: str, n: int, seed: int) -> list[tuple[str, str]]:
    """``n`` (kind, path) pairs in the proportions of ``MIX``, shuffled with ``seed``.

    Words come from ``service_load.sample_words``: the lexicon's own words, one in ten altered with
    the edition's letters (so the edition can still spell it and the answer is 200, mostly invalid).
    """
    rng = random.Random(seed)
    words = sample_words(home, edition, n, seed)
    out: list[tuple[str, str]] = []
    for kind, share in MIX.items():
        for _ in range(n * share // 100):
            w = quote(words[len(out) % len(words)])
            route = {"word": f"words/{w}", "hooks": f"hooks/{w}", "score": f"score/{w}", "two-tile": "two-tile-words"}
            out.append((kind, f"/v1/{edition}/{route[kind]}"))
    rng.shuffle(out)
    return out


def preflight(port: int, mix: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """Send every distinct path once: each must answer 2xx, and word look-ups are tallied valid/invalid.

    A path that fails here would only be an error of the mix, not of the service under load.
    """
    valid = invalid = 0
    bad: list[str] = []
    for kind, path in dict.fromkeys(mix):
        status, body = request(port, "GET", path)
        if status >= 300:
            bad.append(f"{status} {path}")
        elif kind == "word":
            if json.loads(body)["valid"]:
                valid += 1
            else:
                invalid += 1
    if bad:
        raise RuntimeError(f"{len(bad)} paths of the mix do not answer 2xx, e.g. " + ", ".join(bad[:5]))
    return {"distinct_paths": len(set(mix)), "valid_words": valid, "invalid_words": invalid}


def wrk_load(wrk: str, port: int, paths: Sequence[str], *, connections: int, duration: int, threads: int = 1,
             timeout: float = 2, started: list[subprocess.Popen[str]] | None = None) -> dict[str, Any]:  # fmt: skip
    """Run wrk with ``bench/wrk_paths.lua`` over ``paths``; its figures as a dict (latencies in ms).

    ``started`` receives the wrk process, so a caller running this in a thread can kill it.
    """
    with tempfile.NamedTemporaryFile("w", suffix=".paths", delete=False) as f:
        f.write("\n".join(paths) + "\n")
    cmd = [wrk, f"-t{threads}", f"-c{connections}", f"-d{duration}s", f"--timeout={timeout}s", "-s", str(WRK_SCRIPT),
           f"http://127.0.0.1:{port}", "--", f.name]  # fmt: skip
    try:
        with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
            if started is not None:
                started.append(proc)
            try:
                stdout, stderr = proc.communicate(timeout=duration + 60)
            finally:
                proc.kill()  # no-op once it has ended; stops it on a timeout or Ctrl-C
    finally:
        os.unlink(f.name)
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
    """wrk's path (installing Debian's package as root when it is missing, as service_load does)."""
    wrk = find_wrk(install=True) or (shutil.which("wrk", path="/usr/bin"))
    if not wrk:
        raise Unavailable("wrk is not installed: apt-get install wrk (as root)")
    return wrk


# -- the run --------------------------------------------------------------------------------------


def table(rows: Sequence[tuple[str, str]]) -> str:
    """Two aligned columns."""
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"  {k:<{width}}  {v}" for k, v in rows)


def mb(kb: int | None) -> str:
    return "-" if kb is None else f"{kb / 1024:.0f} MB"


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Start the service, check the mix, load it, sample RSS; the figures (``failed`` says if any request did)."""
    home = args.lexicons.resolve()
    require_lexicon(home, args.edition)
    wrk = require_wrk()
    mix = request_mix(home, args.edition, args.paths, args.seed)
    with tempfile.TemporaryDirectory(prefix="lextools-load-") as tmp, \
            running(home, Path(tmp, "service.log"), workers=args.workers) as svc:  # fmt: skip
        idle = {pid: rss_kb(pid) for pid in workers_of(svc.pid)}
        checked = preflight(svc.port, mix)
        sampler = RssSampler(svc.pid)
        sampler.sample()
        start_workers = set(sampler.workers)
        sampler.start()
        try:
            figures = wrk_load(wrk, svc.port, [p for _, p in mix], connections=args.connections,
                               duration=args.duration, threads=args.wrk_threads)  # fmt: skip
        finally:
            sampler.stop()
        replaced = sorted(sampler.workers - start_workers)
        if replaced:
            print(f"gunicorn replaced workers during the run:\n{svc.log_tail()}", file=sys.stderr)
    failed = figures["http_errors"] + figures["socket_errors_total"]
    return {
        "edition": args.edition,
        "lexicons": str(home),
        "service": f"lextools serve --workers {args.workers} (gunicorn {DEFAULTS['worker_class']})",
        "mix": {kind: f"{share}%" for kind, share in MIX.items()},
        **checked,
        **figures,
        "rss_kb": {
            "arbiter": sampler.max_kb.get(svc.pid),
            "workers": {str(pid): sampler.max_kb.get(pid) for pid in sorted(sampler.workers)},
            "workers_idle_before_load": {str(pid): kb for pid, kb in idle.items()},
        },
        "workers_replaced": replaced,
        "failed_requests": failed,
        "ok": failed == 0 and not replaced,
    }


def report(r: dict[str, Any]) -> str:
    """The figures as a readable table."""
    lat = r["latency_ms"]
    sock = r["socket_errors"]
    rows = [
        ("service", f"{r['service']} on {r['edition']} ({r['lexicons']})"),
        ("mix", ", ".join(f"{k} {v}" for k, v in r["mix"].items())
         + f"; {r['distinct_paths']} paths, words {r['valid_words']} valid / {r['invalid_words']} invalid"),
        ("load", f"wrk, {r['connections']} connections, {r['duration_s']:.1f} s"),
        ("requests", f"{r['requests']}  ({r['rps']:.0f} requests/s)"),
        ("HTTP errors", f"{r['http_errors']}  (status >= 400)"),
        ("socket errors", f"{r['socket_errors_total']}  (connect {sock['connect']}, read {sock['read']}, "
                          f"write {sock['write']}, timeout {sock['timeout']})"),
        ("latency", "  ".join(f"{k} {lat[k]:.1f} ms" for k in ("p50", "p90", "p99", "max"))),
        ("RSS arbiter", mb(r["rss_kb"]["arbiter"])),
    ]  # fmt: skip
    idle = r["rss_kb"]["workers_idle_before_load"]
    for pid, kb in r["rss_kb"]["workers"].items():
        rows.append((f"RSS worker {pid}", f"{mb(kb)} max  (before the first request: {mb(idle.get(pid))})"))
    if r["workers_replaced"]:
        rows.append(("workers replaced", ", ".join(map(str, r["workers_replaced"]))))
    rows.append(("result", "PASS: no failed request" if r["ok"] else f"FAIL: {r['failed_requests']} failed requests"))
    return "load test\n" + table(rows)


def add_common_arguments(ap: argparse.ArgumentParser, connections: int) -> None:
    """The options every wrk-driven check here shares (load.py, scale_out.py)."""
    ap.add_argument("--lexicons", type=Path, default=default_lexicons(),
                    help="lexicon directory (default: $LEXTOOLS_HOME, else ./lexicons)")  # fmt: skip
    ap.add_argument("--edition", default="es-fise", help="edition the requests ask about (default es-fise)")
    ap.add_argument("--duration", type=int, default=30, help="seconds of load (default 30)")
    ap.add_argument(
        "--connections", type=int, default=connections, help=f"concurrent connections (default {connections})"
    )
    ap.add_argument("--paths", type=int, default=2000, help="requests in the mix wrk cycles through (default 2000)")
    ap.add_argument("--seed", type=int, default=7, help="random seed of the mix (default 7)")
    ap.add_argument("--json", type=Path, help="also write the figures to this JSON file")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_common_arguments(ap, connections=64)
    ap.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2, as lextools serve)")
    ap.add_argument("--wrk-threads", type=int, default=1, help="wrk threads (default 1: the cores go to the service)")
    args = ap.parse_args(argv)
    return run_check("load", run, report, args)


def run_check(
    name: str,
    run: Callable[[argparse.Namespace], dict[str, Any]],
    report: Callable[[dict[str, Any]], str],
    args: argparse.Namespace,
    on_failure: Callable[[dict[str, Any]], None] | None = None,
) -> int:
    """Run one check and print its table: exit 0 passed, 1 failed, 2 cannot run here, 130 interrupted."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # unwind: the finally blocks stop what started
    try:
        result = run(args)
    except Unavailable as e:
        print(f"{name}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{name}: interrupted; everything it started is stopped", file=sys.stderr)
        return 130
    print(report(result))
    if not result["ok"] and on_failure is not None:
        on_failure(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
