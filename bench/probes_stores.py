"""Probes of the cardbox store (issue 33 rows 7-10): bounded, never stalling a worker, never losing a
newer cardbox, never a 5xx for JSON it cannot keep.

Run from the repository root with the project's venv::

    python -m bench.probes_stores                     # the lexicon home (lextools default_home)
    python -m bench.probes_stores --duration 20 --lookup-seconds 5

It starts the service as ``lextools serve`` does (gunicorn, 2 gevent workers, 127.0.0.1, port 0;
``bench.stores_server``) with a record and cardboxes of its own in a temporary folder, 127.0.0.1 as a
trusted proxy (so a client's address is the ``X-Forwarded-For`` it sends) and the store's bounds
set small for a short run (:data:`CONFIG`), and prints one line per probe:

- ``stale PUT`` (row 9): a cardbox made, replaced by one device (``If-Match`` of its version), then
  replaced by another with the first version: 412 ``sync_stale``, and the first device's cardbox is
  what a GET reads; a PUT without ``If-Match``: 428;
- ``lone surrogate`` (row 10): ``{"cardbox": {..., "x": "\\ud800"}}``, a NUL, 9,000 levels of
  nesting: each 400 in the one error shape; no traceback in the log;
- ``held cardbox lock`` (row 8): another process holds ``cardboxes.sqlite3``'s write lock
  (``BEGIN IMMEDIATE``) while 4 clients loop cardbox requests: the look-ups (``bench.hostile_clients``'s
  mix, 4 keep-alive connections, timed by the client, ``--lookup-seconds`` each) keep their p50 within
  1.5 × + 2 ms and their p99 within 2 × + 10 ms of the same look-ups without the lock, and at most
  ``--p99-ms`` (100); every cardbox request answers 503 ``busy`` (after about 2 s: the wait sleeps in
  Python, gevent serves the look-ups meanwhile); once the lock is let go a cardbox is made;
- ``rotating addresses`` (row 7): ``--clients`` (32) clients POST 1 MiB cardboxes for ``--duration``
  (60) s, each from a new address of its own IPv6 /64 on every request: the store's bytes grow by at
  most ``clients × CARDBOX_CLIENT_BYTES`` and ``CARDBOX_MAX_TOTAL_BYTES``, its file by at most the
  latter and 16 MiB; no 5xx but 503 ``busy`` (a write that waited 2 s for its turn: the
  documented answer, with Retry-After), no request lost; then a new user (another address) still
  makes a cardbox (201).

Exit status 0 all passed, 1 one failed, 2 cannot run here (no lexicon). Every loop is bounded and
everything started is stopped (the service, the lock holder, the clients).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.harness import (
    LOCK_HOLDER,
    Service,
    bench_command,
    default_lexicons,
    fetch,
    probe_rows,
    require_lexicon,
    run_probes,
    running,
)
from bench.hostile_clients import lookups, measure

MIB = 1024 * 1024
#: The store's bounds for a run of a minute (the defaults are for months: service/http/limits.py).
CONFIG: dict[str, Any] = {
    "TRUSTED_PROXIES": ["127.0.0.1"],
    "CARDBOX_CLIENT_COUNT": 4,
    "CARDBOX_CLIENT_BYTES": 4 * MIB,
    "CARDBOX_MAX_TOTAL_BYTES": 160 * MIB,
    "CARDBOX_MAX_COUNT": 1000,
}
JSON = {"Content-Type": "application/json"}


def card(i: int, box: int = 1) -> dict[str, Any]:
    """A version-2 Leitner card (cardformat: the page's and the server's shared shape)."""
    rack = f"R{i:07d}"
    return {"id": f"es-fise|anagram|{rack}", "deck": "es-fise|anagram", "edition": "es-fise", "type": "anagram",
            "question": {"id": rack, "rack": rack, "answers": [{"word": rack.lower()}]}, "right": box,
            "wrong": 0, "last": 1_764_547_200_000, "due": 1_764_633_600_000, "changed": 1_764_547_200_000 + i,
            "scheduler": "leitner", "box": box}  # fmt: skip


def cardbox(cards: int, box: int = 1) -> dict[str, Any]:
    return {"format": "lextools-cardbox", "version": 2, "exported": "2026-12-01T00:00:00Z",
            "cards": [card(i, box) for i in range(cards)]}  # fmt: skip


def body(box: dict[str, Any]) -> bytes:
    return json.dumps({"cardbox": box}, separators=(",", ":")).encode()


def one_mib_body() -> bytes:
    """A cardbox just under 1 MiB on the wire (``CARDBOX_MAX_BYTES``)."""
    per_card = len(json.dumps(card(0), separators=(",", ":"))) + 1
    cards = (MIB - 200) // per_card
    while len(data := body(cardbox(cards))) > MIB:
        cards -= 1
    return data


def send(port: int, method: str, path: str, data: bytes | None = None, **headers: str) -> tuple[int, dict, Any]:
    """One request on its own connection (60 s for its answer: a 1 MiB body on a loaded machine)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, body=data, headers={**JSON, **headers})
        r = conn.getresponse()
        status, got, raw = r.status, dict(r.getheaders()), r.read()
    finally:
        conn.close()
    try:
        return status, got, json.loads(raw)
    except ValueError:
        return status, got, raw


def error_code(answer: Any) -> str | None:
    return answer.get("error", {}).get("code") if isinstance(answer, dict) else None


def is_error_shape(answer: Any) -> bool:
    return isinstance(answer, dict) and set(answer) == {"error"} and set(answer["error"]) == {"code", "message"}


# -- row 9 ------------------------------------------------------------------------------------------------


def stale_put(port: int) -> tuple[bool, str]:
    status, head, made = send(port, "POST", "/v1/cardbox", body(cardbox(3)), **{"X-Forwarded-For": "198.51.100.9"})
    code, first = made["code"], head["ETag"]
    phone = body(cardbox(3, box=2))
    put = send(port, "PUT", f"/v1/cardbox/{code}", phone, **{"If-Match": first, "X-Forwarded-For": "198.51.100.9"})
    stale = send(port, "PUT", f"/v1/cardbox/{code}", body(cardbox(3)),
                 **{"If-Match": first, "X-Forwarded-For": "198.51.100.9"})  # fmt: skip
    missing = send(port, "PUT", f"/v1/cardbox/{code}", body(cardbox(3)), **{"X-Forwarded-For": "198.51.100.9"})
    kept = send(port, "GET", f"/v1/cardbox/{code}", **{"X-Forwarded-For": "198.51.100.9"})
    ok = (
        status == 201 and put[0] == 200 and stale[0] == 412 and error_code(stale[2]) == "sync_stale"
        and missing[0] == 428 and kept[2]["cardbox"] == cardbox(3, box=2) and kept[1]["ETag"] == put[1]["ETag"]
    )  # fmt: skip
    return ok, (
        f"made {status}, replaced with its ETag {put[0]}, stale If-Match {stale[0]} {error_code(stale[2])}, "
        f"no If-Match {missing[0]} {error_code(missing[2])}; "
        f"the newer cardbox kept: {kept[2]['cardbox'] == cardbox(3, 2)}"
    )


# -- row 10 -----------------------------------------------------------------------------------------------


def unstorable(port: int, log: Path) -> tuple[bool, str]:
    start = log.stat().st_size
    head = '{"cardbox":{"format":"lextools-cardbox","version":2,"cards":[],"x":'
    bodies = {
        "lone surrogate": head + '"\\ud800"}}',
        "NUL": head + '"a\\u0000b"}}',
        "9000 deep": head + "[" * 9000 + "]" * 9000 + "}}",
    }
    got = {}
    for name, text in bodies.items():
        status, _, answer = send(port, "POST", "/v1/cardbox", text.encode(), **{"X-Forwarded-For": "198.51.100.10"})
        got[name] = (status, error_code(answer), is_error_shape(answer))
    tracebacks = log.read_bytes()[start:].count(b"Traceback")
    ok = all(g == (400, "bad_request", True) for g in got.values()) and tracebacks == 0
    shown = ", ".join(f"{name}: {status} {code}" for name, (status, code, _) in got.items())
    return ok, f"{shown}; error shape: {all(g[2] for g in got.values())}; tracebacks in the log: {tracebacks}"


# -- row 8 ------------------------------------------------------------------------------------------------


class Looper(threading.Thread):
    """A client looping one request until stopped (one every ``pace`` s at most), counting (status, error
    code) by phase and the slowest answer."""

    def __init__(self, send_one: Callable[[], tuple[int, Any]], until: threading.Event, pace: float = 0.0) -> None:
        super().__init__(daemon=True)
        self.send_one, self.until, self.pace = send_one, until, pace
        self.answers: Counter[tuple[int, str | None]] = Counter()
        self.slowest = 0.0

    def run(self) -> None:
        while not self.until.is_set():
            started = time.monotonic()
            try:
                status, answer = self.send_one()
            except OSError as e:
                status, answer = 0, {"error": {"code": type(e).__name__}}
            took = time.monotonic() - started
            self.slowest = max(self.slowest, took)
            self.answers[status, error_code(answer)] += 1
            self.until.wait(max(0.0, self.pace - took))


def held_lock(svc: Service, store: Path, paths: Sequence[str], seconds: int, p99_ms: float) -> tuple[bool, str]:
    """The look-ups measured twice with the same 4 cardbox clients beside them (one request each every
    0.25 s, each from a new address so the rate never refuses them): the file free, then locked."""
    port = svc.port
    _, _, made = send(port, "POST", "/v1/cardbox", body(cardbox(3)), **{"X-Forwarded-For": "198.51.100.11"})
    code, counter = made["code"], iter(range(1, 10**9))

    def read_it() -> tuple[int, Any]:
        n = next(counter)
        status, _, answer = send(
            port, "GET", f"/v1/cardbox/{code}", **{"X-Forwarded-For": f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"}
        )
        return status, answer

    stop = threading.Event()
    clients = [Looper(read_it, stop, pace=0.25) for _ in range(4)]
    for c in clients:
        c.start()
    holder = None
    try:
        quiet = measure(port, paths, seconds, 4)
        free = sum((c.answers for c in clients), Counter())
        holder = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER, str(store)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)  # fmt: skip
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        time.sleep(3)  # the reads under way when the lock was taken are answered (their 2 s wait included)
        for c in clients:
            c.answers.clear()
            c.slowest = 0.0
        locked = measure(port, paths, seconds, 4)
    finally:
        stop.set()
        for c in clients:
            c.join(timeout=15)
        if holder is not None and holder.stdin is not None:
            holder.stdin.close()
            holder.wait(timeout=10)
    after = send(port, "POST", "/v1/cardbox", body(cardbox(3)), **{"X-Forwarded-For": "198.51.100.12"})[0]
    answers = sum((c.answers for c in clients), Counter())
    slowest = max(c.slowest for c in clients)
    held = (
        locked["p50_ms"] <= quiet["p50_ms"] * 1.5 + 2 and locked["p99_ms"] <= quiet["p99_ms"] * 2 + 10
        and locked["p99_ms"] <= p99_ms and set(answers) == {(503, "busy")} and after == 201
    )  # fmt: skip
    return held, (
        f"look-ups p50 {quiet['p50_ms']:.1f} → {locked['p50_ms']:.1f} ms, p99 {quiet['p99_ms']:.1f} → "
        f"{locked['p99_ms']:.1f} ms ({quiet['rps']:.0f} → {locked['rps']:.0f} look-ups/s); cardbox reads beside "
        f"them: free {dict(free)}, locked {dict(answers)}, slowest {slowest * 1000:.0f} ms; after: {after}"
    )


# -- row 7 ------------------------------------------------------------------------------------------------


def stored(store: Path) -> tuple[int, int, int]:
    """Cardboxes kept, their bytes, and the file's bytes (with its WAL), read as another program would."""
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=10) as db:
        count, kept = db.execute("SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM cardboxes").fetchone()
    files = sum(p.stat().st_size for p in (store, store.with_name(store.name + "-wal")) if p.exists())
    return int(count), int(kept), files


def rotating(port: int, store: Path, clients: int, seconds: int) -> tuple[bool, str]:
    data = one_mib_body()
    before = stored(store)
    stop = threading.Event()
    rng = random.Random(7)

    def poster(n: int) -> Callable[[], tuple[int, Any]]:
        def one() -> tuple[int, Any]:
            address = f"2001:db8:{n:x}:1:{rng.getrandbits(16):x}:{rng.getrandbits(16):x}:{rng.getrandbits(16):x}:1"
            status, _, answer = send(port, "POST", "/v1/cardbox", data, **{"X-Forwarded-For": address})
            return status, answer

        return one

    loopers = [Looper(poster(n), stop) for n in range(clients)]
    for looper in loopers:
        looper.start()
    time.sleep(seconds)
    stop.set()
    for looper in loopers:
        looper.join(timeout=30)
    after = stored(store)
    newcomer = send(port, "POST", "/v1/cardbox", body(cardbox(3)), **{"X-Forwarded-For": "203.0.113.77"})[0]
    answers = sum((lp.answers for lp in loopers), Counter())
    grown, file_grown = after[1] - before[1], after[2] - before[2]
    bound = min(clients * CONFIG["CARDBOX_CLIENT_BYTES"], CONFIG["CARDBOX_MAX_TOTAL_BYTES"])
    ok = (
        grown <= bound and file_grown <= CONFIG["CARDBOX_MAX_TOTAL_BYTES"] + 16 * MIB
        and all(0 < status < 500 or (status, code) == (503, "busy") for status, code in answers) and newcomer == 201
    )  # fmt: skip
    return ok, (
        f"{clients} clients × {seconds} s of {len(data) / MIB:.2f} MiB POSTs from rotating IPv6 addresses: "
        f"{sum(answers.values())} requests {dict(sorted(answers.items(), key=str))}; kept +{after[0] - before[0]} "
        f"cardboxes, +{grown / MIB:.1f} MiB (bound {bound / MIB:.0f} MiB), file +{file_grown / MIB:.1f} MiB; "
        f"a new user: {newcomer}"
    )


def run(args: argparse.Namespace) -> list[tuple[str, bool, str]]:
    home = args.lexicons.resolve()
    results: list[tuple[str, bool, str]] = []

    def probe(name: str, check: Callable[[], tuple[bool, str]]) -> None:
        ok, figures = check()
        results.append((name, ok, figures))
        print(f"{name}: {figures} — {'PASS' if ok else 'FAIL'}", flush=True)

    paths = lookups(home, "es-fise", 400, 1)
    with tempfile.TemporaryDirectory(prefix="lextools-stores-") as tmp:
        store = Path(tmp) / "cardboxes.sqlite3"
        config = {**CONFIG, "RECORD": str(Path(tmp) / "challenges.sqlite3"), "CARDBOXES": str(store)}
        command = [*bench_command("stores_server"), "--lexicons", str(home), "--config", json.dumps(config)]
        with running(home, Path(tmp) / "service.log", command=command, name="stores") as svc:
            for path in paths[:50]:
                fetch(svc.port, "GET", path)
            probe("stale PUT", lambda: stale_put(svc.port))
            probe("lone surrogate", lambda: unstorable(svc.port, svc.log))
            probe("held cardbox lock", lambda: held_lock(svc, store, paths, args.lookup_seconds, args.p99_ms))
            probe("rotating addresses", lambda: rotating(svc.port, store, args.clients, args.duration))
            log = svc.log.read_text(errors="replace")
        killed = log.count("WORKER TIMEOUT")
        if killed:  # the killed worker's last frames (gunicorn's SIGABRT) say where it was held
            where = log[log.index("WORKER TIMEOUT") :][:3000]
            results.append(("worker timeouts", False, str(killed)))
            print(f"worker timeouts: {killed} — FAIL\n{where}", flush=True)
    return results


def probes(args: argparse.Namespace) -> list[dict[str, Any]]:
    require_lexicon(args.lexicons, "es-fise")
    return probe_rows(run(args))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lexicons", type=Path, default=default_lexicons(), help="lexicon directory")
    ap.add_argument("--clients", type=int, default=32, help="clients of the rotating-address flood (default 32)")
    ap.add_argument("--duration", type=int, default=60, help="seconds of the flood (default 60)")
    ap.add_argument("--lookup-seconds", type=int, default=10, help="seconds of each look-up measure (default 10)")
    ap.add_argument("--p99-ms", type=float, default=100.0, help="look-up p99 bound under the held lock (default 100)")
    return run_probes("probes_stores", ap, probes, argv)


if __name__ == "__main__":
    sys.exit(main())
