"""Load probes of issue 23 (quizzes and exports): bounded, 127.0.0.1 only, one line each.

Run from the repository root with the project's venv (``scripts/reliability`` runs it)::

    python -m bench.probes_load                     # the lexicon home (lextools default_home)
    python -m bench.probes_load --duration 10 --json figures.json

It starts ``lextools serve`` (2 workers, ``service.server.DEFAULTS``) on 127.0.0.1, port 0, with an
empty export cache of its own (``$LEXTOOLS_CACHE`` in a temporary directory), and prints:

- ``ordinary quizzes``: the study page's default quizzes (anagram 7 tiles, build 6, hooks 4,
  word-or-phony 5, 10 questions) of es-fise and en, once each, first thing: all answered (200),
  none 503 ``busy``;
- ``heavy quiz``: ``quiz?type=build&length=8&blanks=2&count=20`` (100,000 answers, 8 MB before the
  quizzes were bounded) — its time and size; passes when answered within 2 s and 1 MB, or refused
  with a 4xx in the JSON error shape;
- ``16 quiz clients``: 16 clients looping random heavy quizzes (the largest each type allows: words of
  8 to 15 tiles, racks with blanks, every edition, random seeds) for ``--duration`` s while look-ups
  (the word, hooks and score mix of ``bench.load``, /healthz) are timed on 4 keep-alive connections;
- ``16 export clients``: the same with 16 clients pulling KWG, GADDAG KWG, KAD and text exports of
  every edition from the start (nothing made yet: the first asks make them, the others wait or get
  503 ``busy``).

A load probe passes when the look-ups' p99 is at most 100 ms with none failed, no worker was
replaced (gunicorn kills a worker that stops answering its heartbeat), and the PSS of the arbiter
and its workers is back within 10 % of its idle figure (taken before the load) at most
``--settle`` s after the clients stop. Exit status 0 all passed, 1 one failed, 2 cannot run here.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.harness import (
    Service,
    default_lexicons,
    memory_kb,
    require_lexicon,
    run_probes,
    running,
    workers_booted,
    workers_of,
)
from bench.hostile_clients import lookups, measure
from lextools.core.edition import edition_names, load_edition

#: The study page's default quizzes (type, tiles), 10 questions each: answered within the budget on a
#: fresh worker (its lists not made yet), so players are not told "busy" on a normal day.
ORDINARY = [("anagram", 7), ("build", 6), ("hooks", 4), ("word-or-phony", 5)]
HEAVY_QUIZ = "/v1/es-fise/quiz?type=build&length=8&blanks=2&count=20&seed=7"
CLIENTS = 16
P99_MS = 100.0
PSS_MARGIN = 0.10


class Puller(threading.Thread):
    """One client asking the paths in a random order, one after another, reading every answer whole."""

    def __init__(self, port: int, paths: Sequence[str], seed: int) -> None:
        super().__init__(daemon=True)
        self.port, self.paths, self.rng = port, paths, random.Random(seed)
        self.statuses: Counter[int] = Counter()
        self.failed = 0
        self.bytes = 0
        self._stop_event = threading.Event()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        while not self._stop_event.is_set():
            try:
                conn.request("GET", self.rng.choice(self.paths))
                r = conn.getresponse()
                self.bytes += len(r.read())
                self.statuses[r.status] += 1
            except (OSError, http.client.HTTPException):
                self.failed += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.close()

    def stop(self) -> None:
        self._stop_event.set()
        self.join()


def quiz_paths(n: int, seed: int) -> list[str]:
    """Random heavy quizzes: each type at the largest size it allows (MAX_QUIZ_TILES), every edition."""
    rng = random.Random(seed)
    paths = []
    for _ in range(n):
        edition = rng.choice(edition_names())
        order = "probability" if load_edition(edition).has_counts else "alphabetical"
        kind = rng.choice(["word-or-phony", "anagram", "build", "hooks"])
        if kind == "build":
            length, blanks, count = rng.choice([(8, 0, 20), (8, 1, 12), (7, 2, 4)])
        else:
            length, blanks = rng.randint(8, 15), rng.choice([0, 1, 2]) if kind == "anagram" else 0
            count = min(100, 800 // length)
        paths.append(f"/v1/{edition}/quiz?type={kind}&length={length}&blanks={blanks}&count={count}"
                     f"&order={order}&seed={rng.randrange(2**31)}")  # fmt: skip
    return paths


def export_paths() -> list[str]:
    formats = [("kwg", "plain"), ("kwg-gaddag", "plain"), ("kad", "plain")]
    formats += [("txt", n) for n in ("plain", "digits", "brackets")]
    return [f"/v1/{e}/export?format={f}&notation={n}" for e in edition_names() for f, n in formats]


def pss_kb(svc: Service) -> int:
    return sum((memory_kb(pid) or {"pss": 0})["pss"] for pid in [svc.pid, *workers_of(svc.pid)])


def heavy_quiz(svc: Service) -> dict[str, Any]:
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", svc.port, timeout=60)
    try:
        conn.request("GET", HEAVY_QUIZ)
        r = conn.getresponse()
        body = r.read()
    finally:
        conn.close()
    seconds = time.perf_counter() - start
    code = json.loads(body).get("error", {}).get("code") if r.status >= 400 else None
    ok = (r.status == 200 and seconds <= 2 and len(body) <= 1_000_000) or (400 <= r.status < 500 and code)
    return {"status": r.status, "code": code, "seconds": seconds, "bytes": len(body), "ok": bool(ok)}


def ordinary_quizzes(svc: Service, seed: int) -> dict[str, Any]:
    """Each default quiz of es-fise and en once, with a new seed, first thing after the service starts."""
    rng = random.Random(seed)
    statuses: Counter[int] = Counter()
    slowest = 0.0
    for edition in ("es-fise", "en"):
        for kind, length in ORDINARY:
            path = f"/v1/{edition}/quiz?type={kind}&length={length}&count=10&seed={rng.randrange(2**31)}"
            start = time.perf_counter()
            status = measure_one(svc.port, path)
            slowest = max(slowest, time.perf_counter() - start)
            statuses[status] += 1
    ok = set(statuses) == {200}
    return {"probe": "ordinary quizzes", "statuses": dict(statuses), "slowest_s": slowest, "ok": ok}


def under_load(svc: Service, name: str, paths: Sequence[str], lookup: Sequence[str], args: argparse.Namespace) -> dict:
    """Look-ups timed while 16 clients loop over ``paths``; workers replaced; PSS idle, peak and after."""
    booted = workers_booted(svc.log.read_text(errors="replace"))
    idle = pss_kb(svc)
    clients = [Puller(svc.port, paths, n) for n in range(CLIENTS)]
    for c in clients:
        c.start()
    try:
        time.sleep(1)  # the load is under way before the measuring starts
        figures = measure(svc.port, lookup, args.duration, 4)
        peak = pss_kb(svc)
    finally:
        for c in clients:
            c.stop()
    after, deadline = pss_kb(svc), time.monotonic() + args.settle
    while after > idle * (1 + PSS_MARGIN) and time.monotonic() < deadline:
        time.sleep(1)
        after = pss_kb(svc)
    log = svc.log.read_text(errors="replace")
    statuses: Counter[int] = sum((c.statuses for c in clients), Counter())
    result = {
        "probe": name,
        "p99_ms": figures["p99_ms"],
        "p50_ms": figures["p50_ms"],
        "lookups": figures["requests"],
        "lookups_failed": figures["non_2xx"],
        "workers_replaced": workers_booted(log) - booted,
        "timeouts_logged": len(re.findall(r"WORKER TIMEOUT", log)),
        "pss_idle_mb": idle / 1024,
        "pss_peak_mb": peak / 1024,
        "pss_after_mb": after / 1024,
        "client_answers": dict(sorted(statuses.items())),
        "client_failures": sum(c.failed for c in clients),
        "client_mb": sum(c.bytes for c in clients) / 1e6,
    }
    result["ok"] = (
        result["p99_ms"] <= P99_MS
        and not result["lookups_failed"]
        and not result["workers_replaced"]
        and after <= idle * (1 + PSS_MARGIN)
    )
    return result


def line(r: dict[str, Any]) -> str:
    verdict = "PASS" if r["ok"] else "FAIL"
    if r["probe"] == "ordinary quizzes":
        return (f"ordinary quizzes (study page defaults, es-fise and en, fresh workers): {r['statuses']}, slowest "
                f"{r['slowest_s']:.2f} s vs all 200 within the quiz budget — {verdict}")  # fmt: skip
    if r["probe"] == "heavy quiz":
        return (f"heavy quiz (build, 8 tiles, 2 blanks, 20 questions): {r['status']} {r['code'] or ''} in "
                f"{r['seconds']:.2f} s, {r['bytes'] / 1e6:.3f} MB vs 2 s and 1 MB or a 4xx — {verdict}")  # fmt: skip
    return (f"{r['probe']}: look-up p99 {r['p99_ms']:.1f} ms (p50 {r['p50_ms']:.1f}, {r['lookups']} look-ups, "
            f"{r['lookups_failed']} failed), {r['workers_replaced']} workers replaced, PSS {r['pss_idle_mb']:.0f} → "
            f"{r['pss_peak_mb']:.0f} → {r['pss_after_mb']:.0f} MB; clients got {r['client_answers']}, "
            f"{r['client_mb']:.0f} MB vs p99 ≤ {P99_MS:.0f} ms, 0 replaced, PSS ≤ idle + 10 % — {verdict}")  # fmt: skip


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    home = args.lexicons.resolve()
    for edition in edition_names():
        require_lexicon(home, edition)
    lookup = lookups(home, args.edition, 400, args.seed)
    results = []
    with tempfile.TemporaryDirectory(prefix="lextools-probes-") as tmp:
        os.environ["LEXTOOLS_CACHE"] = str(Path(tmp, "exports"))  # the service's export cache: empty
        with running(home, Path(tmp, "service.log")) as svc:
            results.append(ordinary_quizzes(svc, args.seed))
            print(line(results[-1]), flush=True)
            for path in lookup[:100]:  # every worker warm: lexicons loaded, first answers made
                measure_one(svc.port, path)
            results.append({"probe": "heavy quiz", **heavy_quiz(svc)})
            print(line(results[-1]), flush=True)
            results.append(under_load(svc, f"{CLIENTS} quiz clients", quiz_paths(400, args.seed), lookup, args))
            print(line(results[-1]), flush=True)
            results.append(under_load(svc, f"{CLIENTS} export clients", export_paths(), lookup, args))
            print(line(results[-1]), flush=True)
    return results


def measure_one(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        r.read()
        return r.status
    finally:
        conn.close()


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lexicons", type=Path, default=default_lexicons(), help="lexicon directory (every edition)")
    ap.add_argument("--edition", default="es-fise", help="edition of the look-ups (default es-fise)")
    ap.add_argument("--duration", type=int, default=15, help="seconds of load per probe (default 15)")
    ap.add_argument("--settle", type=int, default=10, help="seconds the PSS may take to come back (default 10)")
    ap.add_argument("--seed", type=int, default=23)
    return run_probes("probes_load", ap, run, argv)


if __name__ == "__main__":
    sys.exit(main())
