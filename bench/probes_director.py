"""Probes of the director's side (issue 23): hostile words, a held record lock, inputs that raised.

Run from the repository root with the project's venv::

    python -m bench.probes_director                      # the lexicon home (lextools default_home)
    python -m bench.probes_director --duration 10 --clients 16

It starts the default ``lextools serve`` (gunicorn, 2 gevent workers) on 127.0.0.1, port 0, with a
director token and a record of its own in a temporary folder, and prints one line per probe:

- ``hostile words``: challenges of ``xqzt\\x1b[8m: NOT ACCEPTABLE``, ``=HYPERLINK(…)``, ``@SUM(A1)``,
  ``\\x1b[2J`` and a bidi override, then every director output — ``lextools record`` (table, CSV,
  JSON), ``/v1/record`` (JSON, CSV), ``/director`` and its CSV — must hold no raw control or bidi
  character, every CSV cell of words must be text (no formula), and ``lextools receipt verify``
  must print the signed verdict alone on its line (NOT ACCEPTABLE) and the words escaped apart;
- ``held record lock``: another process holds the record's write lock (``BEGIN IMMEDIATE``) for
  the whole run while ``--clients`` clients challenge: the look-ups (``bench.hostile_clients``'s mix,
  4 keep-alive connections, timed by the client) keep their p99 within ``--p99-ms`` (100), no
  worker is killed (no WORKER TIMEOUT in the log, none booted again), every challenge answers 503
  ``record_error`` within ``--challenge-ms`` (3000: the record waits 2 s for a lock); once the
  lock is let go a challenge is recorded;
- ``no tracebacks``: ``record --since`` a time outside the years 1–9999 once in UTC, ``receipt
  verify`` of 100,000 ``[`` and of a receipt with a lone surrogate: exit 2, one error line, no
  traceback; ``/v1/record?since=`` the same times: 400 in the JSON error shape; no traceback in the log;
- ``workers killed``: 4 clients challenge while every worker is SIGKILLed twice, 2 s apart: every
  challenge answered 200 is in the record (0 lost).

Exit status 0 all passed, 1 one failed, 2 cannot run here (no lexicon). Every loop is bounded and
everything started is stopped (the service, the lock holder, the clients).
"""

from __future__ import annotations

import argparse
import csv
import http.client
import io
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager, suppress
from pathlib import Path
from typing import Any

from bench.harness import (
    LOCK_HOLDER,
    Service,
    default_lexicons,
    fetch,
    lextools_command,
    require_lexicon,
    running,
    workers_booted,
    workers_of,
)
from bench.hostile_clients import lookups, measure
from bench.load import run_check

TOKEN = "probe-director-token-0123456789abcdef"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
JSON = {"Content-Type": "application/json"}
CHALLENGE = "/v1/es-fise/challenge"
HOSTILE = ["xqzt\x1b[8m: NOT ACCEPTABLE", '=HYPERLINK("http://x","y")', "@SUM(A1)", "\x1b[2J", "abc\u202edef"]
#: What no director output may hold raw.
RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
FORMULA = ("=", "+", "-", "@", "\t", "\r")
#: Times that raised ValueError before (9999 is year 10000 in UTC, year 1 with +01:00 year 0).
BAD_SINCE = ("9999-12-31T23:59:59-01:00", "0001-01-01T00:00+01:00")


def lextools(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*lextools_command(), *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
    )


def challenge(port: int, words: list[str]) -> tuple[int, dict[str, Any], float]:
    start = time.perf_counter()
    status, _, body = fetch(port, "POST", CHALLENGE, json.dumps({"words": words}).encode(), JSON)
    return status, json.loads(body), (time.perf_counter() - start) * 1000


def get_text(port: int, path: str) -> tuple[int, str]:
    status, _, body = fetch(port, "GET", path, headers=AUTH)
    return status, body.decode("utf-8")


# -- (a) hostile words ------------------------------------------------------------------------------


def hostile_words(svc: Service, record: Path) -> dict[str, Any]:
    answers = [challenge(svc.port, [w]) for w in HOSTILE]
    if any(status != 200 for status, _, _ in answers):
        return {"ok": False, "why": f"challenges answered {[s for s, _, _ in answers]}"}
    outputs = {
        "record table": lextools("record", "--record", str(record)).stdout,
        "record --csv": lextools("record", "--record", str(record), "--csv").stdout,
        "record --json": lextools("record", "--record", str(record), "--json").stdout,
        "/v1/record": get_text(svc.port, "/v1/record")[1],
        "/v1/record?format=csv": get_text(svc.port, "/v1/record?format=csv")[1],
        "/director": get_text(svc.port, "/director")[1],
        "/director/record.csv": get_text(svc.port, "/director/record.csv")[1],
    }
    raw = [name for name, text in outputs.items() if RAW.search(text)]
    formulas = [
        name
        for name, text in outputs.items()
        if name.endswith("csv") and any(row[4].startswith(FORMULA) for row in list(csv.reader(io.StringIO(text)))[1:])
    ]
    exact = [json.loads(outputs[n])["challenges"][-1]["words"] for n in ("record --json", "/v1/record")]
    verified = lextools("receipt", "verify", "--record", str(record), json.dumps(answers[0][1]["receipt"]))
    lines = verified.stdout.splitlines()
    verdict_ok = (
        verified.returncode == 0
        and lines[1:2] == ["signed verdict: NOT ACCEPTABLE"]
        and lines[2:3] == ['words as typed (control characters escaped): "xqzt\\x1b[8m: NOT ACCEPTABLE"']
        and not RAW.search(verified.stdout)
    )
    mode = record.stat().st_mode & 0o777
    return {
        "ok": not raw and not formulas and verdict_ok and exact == [[HOSTILE[-1]]] * 2 and mode == 0o600,
        "outputs": len(outputs) + 1,
        "record_mode": f"{mode:04o}",
        "raw": raw,
        "formulas": formulas,
        "verdict_line": lines[1] if len(lines) > 1 else verified.stderr.strip(),
    }


# -- (b) a held lock ----------------------------------------------------------------------------------


class Challenger(threading.Thread):
    """Challenges in a loop until ``stop``: each answer's status and time."""

    def __init__(self, port: int, stop: float) -> None:
        super().__init__(daemon=True)
        self.port, self.stop = port, stop
        self.statuses: dict[str, int] = {}
        self.times_ms: list[float] = []
        self.receipts: list[str] = []  # the ids of the challenges answered 200

    def run(self) -> None:
        while time.monotonic() < self.stop:
            try:
                status, body, ms = challenge(self.port, ["casa"])
                code = body.get("error", {}).get("code", "ok") if isinstance(body, dict) else "?"
            except (OSError, http.client.HTTPException, ValueError):
                status, code, ms = 0, "connection failed", 0.0
            if status == 200:
                self.receipts.append(body["receipt"]["id"])
            key = f"{status} {code}"
            self.statuses[key] = self.statuses.get(key, 0) + 1
            self.times_ms.append(ms)


@contextmanager
def lock_held(record: Path) -> Iterator[None]:
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(record)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        yield
    finally:
        if holder.stdin is not None:
            holder.stdin.close()
        try:
            holder.wait(timeout=10)
        except subprocess.TimeoutExpired:
            holder.kill()
            holder.wait()


def held_lock(svc: Service, record: Path, args: argparse.Namespace) -> dict[str, Any]:
    paths = lookups(args.lexicons.resolve(), args.edition, 400, 7)
    log_before = svc.log.read_text(errors="replace")
    with lock_held(record):
        stop = time.monotonic() + args.duration + 2
        clients = [Challenger(svc.port, stop) for _ in range(args.clients)]
        for c in clients:
            c.start()
        time.sleep(1)  # the challenges are under way before the measuring starts
        try:
            figures = measure(svc.port, paths, args.duration, 4)
        except Exception as e:  # a look-up that never came back (the stall this probe looks for): no figures
            print(f"held record lock: the look-ups failed: {e!r}", file=sys.stderr)
            figures = {"p99_ms": float("inf"), "p50_ms": float("inf"), "requests": 0, "non_2xx": 1}
        for c in clients:
            c.join(timeout=30)
    log = svc.log.read_text(errors="replace")[len(log_before) :]
    after, _, _ = challenge(svc.port, ["dame"])
    times = sorted(t for c in clients for t in c.times_ms)
    statuses: dict[str, int] = {}
    for c in clients:
        for k, v in c.statuses.items():
            statuses[k] = statuses.get(k, 0) + v
    result = {
        "p99_ms": figures["p99_ms"],
        "p50_ms": figures["p50_ms"],
        "lookups": figures["requests"],
        "lookups_failed": figures["non_2xx"],
        "kills": len(re.findall(r"WORKER TIMEOUT|Worker \(pid:\d+\) was sent", log)) + workers_booted(log),
        "challenges": statuses,
        "challenge_p99_ms": times[int(0.99 * (len(times) - 1))] if times else 0.0,
        "challenge_max_ms": times[-1] if times else 0.0,
        "after_release": after,
    }
    result["ok"] = (
        result["p99_ms"] <= args.p99_ms
        and result["lookups_failed"] == 0
        and result["kills"] == 0
        and set(statuses) == {"503 record_error"}
        and result["challenge_max_ms"] <= args.challenge_ms
        and after == 200
    )
    return result


# -- (b') workers killed ------------------------------------------------------------------------------


def killed_workers(svc: Service, record: Path, kills: int = 2) -> dict[str, Any]:
    """4 clients challenge for ``2 * kills + 2`` s while every worker is SIGKILLed ``kills`` times:
    every challenge answered 200 must be in the record (a receipt is only sent once committed)."""
    stop = time.monotonic() + 2 * kills + 2
    clients = [Challenger(svc.port, stop) for _ in range(4)]
    for c in clients:
        c.start()
    killed = 0
    for _ in range(kills):
        time.sleep(2)
        for pid in workers_of(svc.pid):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
                killed += 1
    for c in clients:
        c.join(timeout=30)
    answered = [i for c in clients for i in c.receipts]
    with closing(sqlite3.connect(record)) as db:
        kept = {row[0] for row in db.execute("SELECT id FROM challenges")}
    lost = [i for i in answered if i not in kept]
    return {"ok": bool(answered) and not lost, "killed": killed, "answered": len(answered), "lost": len(lost)}


# -- (c) no tracebacks ----------------------------------------------------------------------------------


def no_tracebacks(svc: Service, record: Path) -> dict[str, Any]:
    _, answer, _ = challenge(svc.port, ["casa"])
    surrogate = json.dumps({**answer["receipt"], "id": "\ud800"})
    runs = {f"record --since {s}": lextools("record", "--record", str(record), "--since", s) for s in BAD_SINCE}
    runs["receipt verify of 100k ["] = lextools("receipt", "verify", "--record", str(record), stdin="[" * 100_000)
    runs["receipt verify, lone surrogate"] = lextools("receipt", "verify", "--record", str(record), surrogate)
    bad_cli = [
        name
        for name, r in runs.items()
        if r.returncode != 2
        or "Traceback" in r.stderr
        or "file name" in r.stderr
        or len(r.stderr.strip().splitlines()) != 2  # the record read, then the one error line
    ]
    bad_http = []
    for since in BAD_SINCE:
        status, text = get_text(svc.port, "/v1/record?since=" + since.replace("+", "%2B"))
        if status != 400 or set(json.loads(text)) != {"error"}:
            bad_http.append(f"{since}: {status}")
    in_log = svc.log.read_text(errors="replace").count("Traceback")
    return {"ok": not bad_cli and not bad_http and not in_log, "cases": len(runs) + len(BAD_SINCE),
            "bad_cli": bad_cli, "bad_http": bad_http, "log_tracebacks": in_log}  # fmt: skip


def run(args: argparse.Namespace) -> dict[str, Any]:
    home = args.lexicons.resolve()
    require_lexicon(home, args.edition)
    os.environ["LEXTOOLS_DIRECTOR_TOKEN"] = TOKEN  # the service started below inherits it
    with tempfile.TemporaryDirectory(prefix="lextools-director-") as tmp:
        record = Path(tmp, "challenges.sqlite3")
        with running(home, Path(tmp, "service.log"), options=["--record", str(record)]) as svc:
            results = {"hostile words": hostile_words(svc, record), "no tracebacks": no_tracebacks(svc, record)}
            results["held record lock"] = held_lock(svc, record, args)
            results["workers killed"] = killed_workers(svc, record)
    return {"probes": results, "ok": all(r["ok"] for r in results.values()), "p99_limit_ms": args.p99_ms,
            "challenge_limit_ms": args.challenge_ms}  # fmt: skip


def report(r: dict[str, Any]) -> str:
    p = r["probes"]
    verdict = {name: "PASS" if x["ok"] else "FAIL" for name, x in p.items()}
    h, lock, tb, k = p["hostile words"], p["held record lock"], p["no tracebacks"], p["workers killed"]
    lines = [
        f"probe hostile words: {h.get('outputs', 0)} director outputs, raw controls in {h.get('raw', '?')}, "
        f"formulas in {h.get('formulas', '?')}, receipt verify '{h.get('verdict_line', h.get('why'))}', "
        f"record mode {h.get('record_mode')} vs target none, none, the signed verdict, 0600 — "
        f"{verdict['hostile words']}",
        f"probe held record lock: look-up p99 {lock['p99_ms']:.1f} ms (p50 {lock['p50_ms']:.1f}, "
        f"{lock['lookups']} look-ups, {lock['lookups_failed']} failed), {lock['kills']} worker kills, "
        f"challenges {lock['challenges']} p99 {lock['challenge_p99_ms']:.0f} ms max {lock['challenge_max_ms']:.0f} ms, "
        f"after release {lock['after_release']} vs target p99 <= {r['p99_limit_ms']} ms, 0 kills, "
        f"all 503 record_error <= {r['challenge_limit_ms']} ms, then 200 — {verdict['held record lock']}",
        f"probe workers killed: {k['killed']} workers SIGKILLed, {k['answered']} challenges answered 200, "
        f"{k['lost']} of them not in the record vs target 0 lost — {verdict['workers killed']}",
        f"probe no tracebacks: {tb['cases']} cases, CLI not clean {tb['bad_cli']}, HTTP not 400 {tb['bad_http']}, "
        f"{tb['log_tracebacks']} tracebacks in the log vs target exit 2 one line / 400 JSON, 0 — "
        f"{verdict['no tracebacks']}",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lexicons", type=Path, default=default_lexicons())
    ap.add_argument("--edition", default="es-fise", help="the look-ups' edition (the challenges are es-fise's)")
    ap.add_argument("--duration", type=int, default=10, help="seconds of look-ups under the held lock")
    ap.add_argument("--clients", type=int, default=16, help="clients challenging while the lock is held")
    ap.add_argument("--p99-ms", type=float, default=100.0)
    ap.add_argument("--challenge-ms", type=float, default=3000.0)
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    return run_check("director probes", run, report, ap.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
