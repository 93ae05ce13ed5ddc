"""Benchmark (not a test): rebuild a lexicon under load and check the service swaps it in cleanly.

Run from the repository root with the project's venv::

    python -m bench.reload                               # 30 s of load, 16 connections, es-fise
    python -m bench.reload --seconds 60 --words 200000 --json figures.json

What happens, in one run:

1. a word list of ``--words`` es-fise words (a seeded sample of a built es-fise lexicon — the
   repository's ``lexicons/``, else ``$LEXTOOLS_HOME`` — or, without one, ``bench.build_and_lookup``'s
   pseudo-Spanish generator) is built into a temporary lexicon directory with ``lextools build
   es-fise --source``;
2. ``lextools serve --port 0 --workers 2`` serves that directory (the shipped settings, hot reload
   checked once a second per worker), and wrk drives ``GET /v1/es-fise/words/{word}`` for
   ``--seconds`` with ``--connections`` keep-alive connections;
3. meanwhile the lexicon is rebuilt again and again with ``lextools build`` in a subprocess, each
   generation different (one word toggled in and out, one marker word per build), and a poller
   asks every worker — a few keep-alive connections, each pinned to the worker that accepted it,
   found through /proc — which checksum it serves (the ``X-Lexicon-Checksum`` header);
4. reported: requests, non-2xx and socket errors (must be 0: the swap may not fail a request), p99
   latency over the whole run, the checksum served before and after (must differ), and per build
   how long after the commit (the new ``E.json``'s mtime) the first and the last worker served it.

Exits 1 if any request failed, a worker never served a build, or the checksum did not change.
The server and wrk are stopped at the end, also on Ctrl-C or an error.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bench.build_and_lookup import generate_words
from bench.harness import (
    ROOT,
    Service,
    find_wrk,
    lextools_command,
    request,
    running,
    sample_words,
    workers_of,
    wrk_load,
)
from lextools.core.lexicon import default_home, load_lexicon, metadata_path
from service.http.lexicons import CHECKSUM_HEADER

EDITION = "es-fise"
POLL_CONNECTIONS = 8  # enough that every worker holds some (checked, and reported)
POLL_PERIOD = 0.02  # seconds between two polls of one connection
SWAP_TIMEOUT = 10.0  # a worker that has not swapped by then counts as a failure


# -- word lists ------------------------------------------------------------------------------------


def base_words(n: int, seed: int, source: Path | None) -> tuple[list[str], str]:
    """``n`` es-fise words as lexicon keys (digit notation: a valid ``--source`` list), and whence."""
    homes = [source] if source else [ROOT / "lexicons", default_home()]
    for home in homes:
        if metadata_path(home, EDITION).exists():
            keys = list(load_lexicon(EDITION, home).keys())
            return sorted(random.Random(seed).sample(keys, min(n, len(keys)))), f"sample of {home}"
    if source:
        raise SystemExit(f"no {EDITION} lexicon in {source}")
    return generate_words(n, seed, lambda _: None), "bench/build_and_lookup.py generator"


def marker(k: int) -> str:
    """A word only generation ``k`` has, so every build has its own checksum (Q, Z: spellable, unlikely)."""
    letters = "ABCDEFGHIJ"
    return "ZQZ" + "".join(letters[int(d)] for d in str(k))


# -- the server ------------------------------------------------------------------------------------


def worker_of(server_port: int, client_port: int, workers: Sequence[int]) -> int | None:
    """Which worker holds the server end of our connection: its socket inode, found among their fds."""
    inode = None
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                cols = line.split()
                local, remote = int(cols[1].rsplit(":", 1)[1], 16), int(cols[2].rsplit(":", 1)[1], 16)
                if local == server_port and remote == client_port:
                    inode = cols[9]
    if inode is None:
        return None
    for pid in workers:
        with suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with suppress(OSError):
                    if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                        return pid
    return None


# -- the poller: which checksum each worker serves -------------------------------------------------


@dataclass
class Probe:
    """One keep-alive connection, pinned to the worker that accepted it, and what it saw."""

    conn: http.client.HTTPConnection
    worker: int | None
    seen: list[tuple[float, str, bool]] = field(default_factory=list)  # (wall time, checksum, valid) on changes


class Poller:
    """Asks each probe connection in turn which checksum answers a word, every ``POLL_PERIOD``."""

    def __init__(self, server: Service, path: str) -> None:
        self.server, self.path = server, path
        self.workers = workers_of(server.pid)
        self.probes = self._spread()
        self.requests = 0
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _spread(self) -> list[Probe]:
        """``POLL_CONNECTIONS`` probes, an equal share on each worker where /proc says which is which.

        A new connection goes to whichever worker accepts first — often the same one — so open more
        than needed and close those of a worker that already has its share.
        """
        share = max(1, POLL_CONNECTIONS // max(1, len(self.workers)))
        probes: list[Probe] = []
        for _ in range(POLL_CONNECTIONS * 25):
            if len(probes) == POLL_CONNECTIONS:
                break
            probe = self._connect()
            if probe.worker is None or sum(p.worker == probe.worker for p in probes) < share:
                probes.append(probe)
            else:
                probe.conn.close()
                time.sleep(0.01)
        return probes

    def _connect(self) -> Probe:
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
        conn.connect()
        assert conn.sock is not None
        probe = Probe(conn, None)
        self._ask(probe)  # the server has accepted the connection once it has answered
        probe.worker = worker_of(self.server.port, conn.sock.getsockname()[1], self.workers)
        return probe

    def _ask(self, probe: Probe) -> None:
        probe.conn.request("GET", self.path)
        r = probe.conn.getresponse()
        body = r.read()
        if r.status != 200:
            raise RuntimeError(f"{self.path}: HTTP {r.status}")
        checksum, valid = r.getheader(CHECKSUM_HEADER, ""), json.loads(body)["valid"]
        if not probe.seen or probe.seen[-1][1:] != (checksum, valid):
            probe.seen.append((time.time(), checksum, valid))

    def _run(self) -> None:
        while not self._stop.is_set():
            start = time.monotonic()
            for i, probe in enumerate(self.probes):
                try:
                    self._ask(probe)
                except (OSError, http.client.HTTPException, RuntimeError) as e:
                    self.failures.append(f"{type(e).__name__}: {e}")
                    probe.conn.close()
                    with suppress(OSError, http.client.HTTPException, RuntimeError):
                        self.probes[i] = self._connect()
                self.requests += 1
            self._stop.wait(max(0.0, POLL_PERIOD - (time.monotonic() - start)))

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        for probe in self.probes:
            probe.conn.close()

    def current(self) -> set[str]:
        return {p.seen[-1][1] for p in self.probes if p.seen}

    def first_seen(self, checksum: str) -> list[float | None]:
        """Per probe: when it first answered with ``checksum`` (None: not yet)."""
        return [next((t for t, c, _ in p.seen if c == checksum), None) for p in self.probes]

    def answers(self) -> set[tuple[str, bool]]:
        """Every (checksum, valid) pair any probe saw: the word's validity must match the generation."""
        return {(c, v) for p in self.probes for _, c, v in p.seen}


# -- wrk ------------------------------------------------------------------------------------------


@contextmanager
def wrk_running(wrk: str, port: int, paths: Sequence[str], seconds: int, connections: int) -> Iterator[dict]:
    """wrk cycling through ``paths`` in the background; the dict is filled with its figures on exit."""
    figures: dict[str, Any] = {}
    started: list[subprocess.Popen[str]] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            figures.update(wrk_load(wrk, port, paths, connections=connections, duration=seconds, started=started))
        except BaseException as e:  # reported in the caller's thread
            failed.append(e)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield figures
        thread.join(timeout=seconds + 90)
        if failed:
            raise failed[0]
        lat = figures["latency_ms"]
        figures.update(p50_ms=lat["p50"], p99_ms=lat["p99"], max_ms=lat["max"],
                       non_2xx=figures["http_errors"], socket_errors=figures["socket_errors_total"])  # fmt: skip
    finally:
        for proc in started:
            proc.kill()


# -- the run ---------------------------------------------------------------------------------------


def build(home: Path, words: list[str], workdir: Path, k: int) -> dict[str, Any]:
    """Generation ``k``: write its list, run ``lextools build``, return its figures once committed."""
    listing = workdir / f"words-{k}.txt"
    listing.write_text("\n".join(words) + "\n", encoding="utf-8")
    start = time.monotonic()
    subprocess.run([*lextools_command(), "build", EDITION, "--source", str(listing), "--lexicons", str(home)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    seconds = time.monotonic() - start
    meta_file = metadata_path(home, EDITION)
    meta = json.loads(meta_file.read_bytes())
    return {"generation": k, "checksum": meta["checksum"], "words": meta["words"], "build_s": seconds,
            "committed": meta_file.stat().st_mtime_ns / 1e9}  # fmt: skip


def generation(base: list[str], toggled: str, k: int) -> list[str]:
    """Even generations have ``toggled``, odd ones not; each has its own marker word."""
    return [*base, marker(k), *([toggled] if k % 2 == 0 else [])]


@dataclass
class Run:
    """What the service, wrk and the poller saw during the load."""

    load: dict[str, Any]
    poller: Poller
    before: set[str]
    after: set[str]
    builds: list[dict[str, Any]]
    server_exit: int | None
    log: str


def watch(poller: Poller, b: dict[str, Any]) -> None:
    """Wait until every probe has served build ``b`` (at most ``SWAP_TIMEOUT``); note when, after its commit."""
    deadline = time.monotonic() + SWAP_TIMEOUT
    while None in poller.first_seen(b["checksum"]) and time.monotonic() < deadline:
        time.sleep(0.05)
    seen = poller.first_seen(b["checksum"])
    b["first_worker_s"] = min((t for t in seen if t is not None), default=None)
    b["all_workers_s"] = None if None in seen else max(t for t in seen if t is not None)
    for key in ("first_worker_s", "all_workers_s"):
        if b[key] is not None:
            b[key] = max(0.0, b[key] - b["committed"])


def rebuilds(poller: Poller, home: Path, workdir: Path, words: tuple[list[str], str], first_s: float,
             end: float) -> list[dict[str, Any]]:  # fmt: skip
    """Rebuild generation after generation while the load lasts, each watched until every worker serves it."""
    base, toggled = words
    builds: list[dict[str, Any]] = []
    k = 0
    estimate = first_s
    while time.monotonic() + estimate * 1.2 + 1.5 < end:  # the build lands while wrk runs
        k += 1
        b = build(home, generation(base, toggled, k), workdir, k)
        watch(poller, b)
        builds.append(b)
        estimate = max(estimate, b["build_s"])  # builds under load are the slower ones
        print(f"  build {k}: {b['build_s']:.1f} s, served by all workers after "
              + (f"{b['all_workers_s']:.2f} s" if b["all_workers_s"] is not None else "NEVER"),
              file=sys.stderr)  # fmt: skip
        time.sleep(0.5)
    return builds


def under_load(args: argparse.Namespace, wrk: str, workdir: Path, words: tuple[list[str], str],
               first: dict[str, Any]) -> Run:  # fmt: skip
    """Serve the first build, drive it with wrk, rebuild meanwhile; the service is stopped on the way out."""
    home, toggled = workdir / "lexicons", words[1]
    paths = [f"/v1/{EDITION}/words/{quote(w)}" for w in sample_words(home, EDITION, 2000, args.seed)]
    poller: Poller | None = None
    with running(home, workdir / "serve.log", workers=args.workers) as server:
        try:
            for p in paths[:100]:  # every worker loads the lexicon before the clock starts
                request(server.port, "GET", p)
            print(f"serving on port {server.port}, workers {workers_of(server.pid)}; "
                  f"{args.seconds} s of load with {args.connections} connections", file=sys.stderr)  # fmt: skip
            with wrk_running(wrk, server.port, paths, args.seconds, args.connections) as load:
                end = time.monotonic() + args.seconds
                # Probes connect under load, when either worker may be the one to accept.
                poller = Poller(server, f"/v1/{EDITION}/words/{quote(toggled)}")
                poller.start()
                before = poller.current()
                time.sleep(min(2.0, args.seconds / 10))  # a stretch of plain load first
                builds = rebuilds(poller, home, workdir, words, first["build_s"], end)
            after = poller.current()
        finally:
            if poller is not None:
                poller.stop()
    return Run(load, poller, before, after, builds, server.proc.returncode, server.log.read_text(errors="replace"))


def problems(run: Run, first: dict[str, Any], workers: int, probe_workers: list[int], warnings: int) -> list[str]:
    """What went wrong, if anything: each a sentence of the report."""
    load, poller, before, after, builds = run.load, run.poller, run.before, run.after, run.builds
    found = []
    if load["non_2xx"] or load["socket_errors"]:
        found.append(f"{load['non_2xx']} non-2xx responses and {load['socket_errors']} socket errors under load")
    if poller.failures:
        found.append(f"{len(poller.failures)} poller requests failed")
    if len(before) != 1 or len(after) != 1 or before == after:
        found.append(f"checksum before {sorted(before)} and after {sorted(after)}: not one each, or unchanged")
    if not builds or any(b["all_workers_s"] is None for b in builds):
        found.append("a build was never served by every worker")
    expected = {first["checksum"]: True, **{b["checksum"]: b["generation"] % 2 == 0 for b in builds}}
    wrong = [(c[:16], v) for c, v in poller.answers() if expected.get(c) != v]
    if wrong:
        found.append(f"answers that do not match the generation that gave them: {wrong}")
    if len(probe_workers) < workers:
        found.append(f"the poller reached {len(probe_workers)} of {workers} workers")
    if warnings:
        found.append(f"{warnings} warnings or tracebacks in the server log")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=int, default=30, help="seconds of load (default 30)")
    ap.add_argument("--connections", type=int, default=16, help="wrk connections (default 16)")
    ap.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    ap.add_argument("--words", type=int, default=100_000, help="words per build (default 100000)")
    ap.add_argument("--source", type=Path, help=f"lexicon directory to sample {EDITION} words from")
    ap.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    ap.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = ap.parse_args(argv)

    wrk = find_wrk(install=True)
    if wrk is None:
        ap.error("wrk is not installed")
    words, origin = base_words(args.words, args.seed, args.source)
    toggled, base = words[0], words[1:]

    with tempfile.TemporaryDirectory(prefix="lextools-reload-") as tmp:
        workdir = Path(tmp)
        first = build(workdir / "lexicons", generation(base, toggled, 0), workdir, 0)
        print(f"{len(words):,} words ({origin}); first build {first['build_s']:.1f} s", file=sys.stderr)
        run = under_load(args, wrk, workdir, (base, toggled), first)

    poller = run.poller
    probe_workers = sorted({p.worker for p in poller.probes if p.worker is not None})
    result: dict[str, Any] = {
        "edition": EDITION,
        "words": len(words),
        "word_source": origin,
        "seconds": args.seconds,
        "connections": args.connections,
        "workers": args.workers,
        "load": run.load,
        "poller": {
            "requests": poller.requests,
            "failures": poller.failures,
            "connections": POLL_CONNECTIONS,
            "workers_covered": len(probe_workers),
        },
        "checksum_before": sorted(run.before),
        "checksum_after": sorted(run.after),
        "builds": run.builds,
        "swaps_logged": len(re.findall(r"now serving lexicon", run.log)),
        "log_warnings": len(re.findall(r"\[WARNING\]|Traceback", run.log)),
        "server_exit": run.server_exit,
    }
    result["problems"] = problems(run, first, args.workers, probe_workers, result["log_warnings"])
    result["ok"] = not result["problems"]

    print(summary(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0 if result["ok"] else 1


def summary(r: dict[str, Any]) -> str:
    """The figures as a table a person reads."""
    load = r["load"]
    lines = [
        f"\nhot reload of {r['edition']} ({r['words']:,} words, {r['word_source']}), "
        f"{r['workers']} workers, wrk {r['connections']} connections for {r['seconds']} s",
        f"  requests         {load['requests']:>10,}  ({load['rps']:,.0f}/s)",
        f"  failed           {load['non_2xx']:>10}  non-2xx, {load['socket_errors']} socket errors; "
        f"poller {len(r['poller']['failures'])} of {r['poller']['requests']:,}",
        f"  latency          p50 {load['p50_ms']:.2f} ms, p99 {load['p99_ms']:.2f} ms, max {load['max_ms']:.2f} ms",
        f"  checksum before  {', '.join(c[:16] for c in r['checksum_before'])}",
        f"  checksum after   {', '.join(c[:16] for c in r['checksum_after'])}",
        f"  swaps logged     {r['swaps_logged']} ({len(r['builds'])} builds x {r['workers']} workers; "
        f"poller on {r['poller']['workers_covered']} workers)",
        "",
        "  build  words    build s  checksum          first worker s  all workers s",
    ]
    for b in r["builds"]:
        fw = f"{b['first_worker_s']:.2f}" if b["first_worker_s"] is not None else "never"
        aw = f"{b['all_workers_s']:.2f}" if b["all_workers_s"] is not None else "never"
        row = f"  {b['generation']:>5}  {b['words']:>7,}  {b['build_s']:>7.1f}  {b['checksum'][:16]}"
        lines.append(f"{row}  {fw:>14}  {aw:>13}")
    lines.append("")
    lines.append("OK: no failed request, every build served" if r["ok"] else "FAILED: " + "; ".join(r["problems"]))
    return "\n".join(lines)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # the server, wrk and any build were stopped on the way out
        print("interrupted", file=sys.stderr)
        sys.exit(130)
