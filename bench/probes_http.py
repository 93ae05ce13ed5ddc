"""Tournament-day probes of the HTTP layer (bounded, loopback only), one line each.

    python -m bench.probes_http                  # the lexicon home (lextools default_home)
    python -m bench.probes_http --malformed 2000 # fewer malformed requests (default 10000)

It starts ``lextools serve`` (2 workers) on 127.0.0.1 with a director token and replays:

- ``malformed chunked``: N POSTs whose chunked body is broken (a bad chunk size, a missing chunk
  terminator) on 8 connections at once — none may be answered 5xx, every answer must be the JSON
  error shape, and the service log may grow by at most 1 MB;
- ``raw bytes in the path``: a request line with bytes that are not UTF-8 — the JSON shape, not
  gunicorn's HTML page;
- ``DNS rebinding``: a look-up and a challenge with ``Host: evil.example`` and a matching ``Origin``,
  on this server and on a kiosk — refused (400 ``host_not_allowed``), nothing recorded;
- ``lang``: ``lang=xx`` is a 400;
- ``director token``: a weak token stops the start (exit 2, one line); 1,000 wrong guesses on one
  connection — how many are even compared (the rest get 429).

Exit status 0 when every probe passes, 1 otherwise, 2 when it cannot run here (no lexicon).
Everything it starts is stopped.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

from bench.harness import (
    default_lexicons,
    lextools_command,
    probe_rows,
    require_lexicon,
    run_probes,
    running,
    send_raw,
)

TOKEN = "probe-director-token-0123456789abcdef"
BROKEN = (
    b"POST /v1/es-fise/check HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
    b'Connection: close\r\n\r\n5\r\n["a"]XX\r\n0\r\n\r\n',
    b"POST /v1/es-fise/check HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
    b'Connection: close\r\n\r\nzz\r\n["a"]\r\n0\r\n\r\n',
)


def is_json_error(head: bytes, body: bytes) -> bool:
    try:
        return b"application/json" in head and "code" in json.loads(body)["error"]
    except (ValueError, KeyError, TypeError):
        return False


def malformed_chunked(port: int, log: Path, count: int) -> tuple[bool, str]:
    before = log.stat().st_size
    statuses: Counter[int] = Counter()
    shapes = Counter[bool]()
    lock = threading.Lock()

    def client(n: int) -> None:
        for i in range(n):
            status, head, body = send_raw(port, BROKEN[i % 2])
            with lock:
                statuses[status] += 1
                shapes[is_json_error(head, body)] += 1

    threads = [threading.Thread(target=client, args=(count // 8,)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    grown = log.stat().st_size - before
    five = sum(n for s, n in statuses.items() if s >= 500)
    ok = five == 0 and shapes[False] == 0 and grown <= 1_000_000
    figures = (
        f"{sum(statuses.values())} requests: {dict(statuses)}, {five} × 5xx, {shapes[False]} not JSON, log +{grown} B"
    )
    return ok, figures + " (targets: 0 × 5xx, log ≤ 1 MB)"


def raw_bytes_path(port: int) -> tuple[bool, str]:
    status, head, body = send_raw(
        port, b"GET /v1/es-fise/words/\xff\xfe HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    return status == 400 and is_json_error(head, body), f"{status}, JSON error shape: {is_json_error(head, body)}"


def rebinding(port: int, record: Path) -> tuple[bool, str]:
    evil = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}", "Content-Type": "application/json"}
    got = []
    for method, path, body in (
        ("GET", "/v1/es-fise/words/casa", None),
        ("POST", "/v1/es-fise/challenge", b'{"words":["xqzt"]}'),
    ):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request(method, path, body=body, headers=evil)
        r = conn.getresponse()
        got.append((r.status, json.loads(r.read()).get("error", {}).get("code")))
        conn.close()
    recorded = _recorded(record)
    ok = all(g == (400, "host_not_allowed") for g in got) and recorded == 0
    return ok, f"look-up and challenge: {got}; challenges recorded: {recorded}"


def _recorded(record: Path) -> int:
    if not record.exists():
        return 0
    with sqlite3.connect(f"file:{record}?mode=ro", uri=True) as db:
        return int(db.execute("SELECT count(*) FROM challenges").fetchone()[0])


def unknown_lang(port: int) -> tuple[bool, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/v1/es-fise/words/casa?lang=xx")
    r = conn.getresponse()
    code = json.loads(r.read())["error"]["code"] if r.status != 200 else None
    return r.status == 400, f"lang=xx: {r.status} {code}"


def guesses(port: int, tries: int = 1000) -> tuple[bool, str]:
    statuses: Counter[int] = Counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for i in range(tries):
        conn.request("GET", "/v1/record", headers={"Authorization": f"Bearer guess-{i:04d}-of-the-token"})
        r = conn.getresponse()
        r.read()
        statuses[r.status] += 1
    conn.close()
    compared = statuses[401]
    return (
        compared <= 20,
        f"{tries} wrong tokens: {compared} compared (401), {statuses[429]} refused (429) "
        "(target: ≤ 10 a minute per worker)",
    )


def weak_token(home: Path) -> tuple[bool, str]:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [*lextools_command(), "serve", "--port", "0", "--lexicons", str(home), "--record", f"{tmp}/r.sqlite3"]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False,
                              env={"LEXTOOLS_DIRECTOR_TOKEN": "secret", "PATH": "/usr/bin:/bin"})  # fmt: skip
        created = Path(f"{tmp}/r.sqlite3").exists()
    ok = done.returncode == 2 and done.stderr.count("\n") == 1 and not created
    return ok, f"exit {done.returncode}, {done.stderr.strip()[:90]!r}"


def run(home: Path, count: int) -> list[tuple[str, bool, str]]:
    results: list[tuple[str, bool, str]] = []

    def probe(name: str, check: Callable[[], tuple[bool, str]]) -> None:
        ok, figures = check()
        results.append((name, ok, figures))
        print(f"{name}: {figures} — {'PASS' if ok else 'FAIL'}", flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "challenges.sqlite3"
        options = ("--record", str(record))
        env_token = {"LEXTOOLS_DIRECTOR_TOKEN": TOKEN}
        with mock.patch.dict(os.environ, env_token), running(home, Path(tmp) / "service.log", options=options) as svc:
            probe("malformed chunked", lambda: malformed_chunked(svc.port, svc.log, count))
            probe("raw bytes in the path", lambda: raw_bytes_path(svc.port))
            probe("DNS rebinding", lambda: rebinding(svc.port, record))
            probe("lang", lambda: unknown_lang(svc.port))
            probe("director token guesses", lambda: guesses(svc.port))
        kiosk = ("--kiosk", "es-fise", "--record", str(record))
        with (
            mock.patch.dict(os.environ, env_token),
            running(home, Path(tmp) / "kiosk.log", options=kiosk, ready="/judge") as svc,
        ):
            probe("DNS rebinding (kiosk)", lambda: rebinding(svc.port, record))
    probe("weak director token", lambda: weak_token(home))
    return results


def probes(args: argparse.Namespace) -> list[dict[str, Any]]:
    require_lexicon(args.lexicons, "es-fise")
    return probe_rows(run(args.lexicons, args.malformed))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lexicons", type=Path, default=default_lexicons(), help="lexicon directory")
    ap.add_argument("--malformed", type=int, default=10_000, help="malformed chunked requests (default 10000)")
    return run_probes("probes_http", ap, probes, argv)


if __name__ == "__main__":
    sys.exit(main())
