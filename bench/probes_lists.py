"""Probes of the lists that teach (issue 33 rows 1 and 2): bounded, 127.0.0.1 only, one line each.

Run from the repository root with the project's venv (``scripts/reliability`` runs it)::

    python -m bench.probes_lists                    # the lexicon home (lextools default_home)
    python -m bench.probes_lists --duration 20 --json figures.json

It starts ``lextools serve`` (2 workers, ``service.server.DEFAULTS``) on 127.0.0.1 and prints:

- ``first pages``: on the fresh server, the first page of ``es-fise/lists/new?against=en``, then of
  ``stems?length=6`` and ``stems?length=7``, each asked once on a new connection: how long each first
  answer took and whether it was the page or ``ready: false`` with its progress (then asked again,
  after its ``Retry-After``, until ready: the time until ready is reported beside it), and the PSS of
  the arbiter and its workers before and after. Passes when every first answer came within 1 s and
  the stems pages were ready at once (the build made them).
- ``16 list clients``: 16 clients (issue 33: rows 1–6 "with 16 clients each") cycling more than 8
  distinct lists (new words against every other edition, high-value tiles × lengths, stems of 6 and
  7 tiles, of every edition the home holds) for
  ``--duration`` s while look-ups are timed on 4 keep-alive connections (``bench.hostile_clients``'s
  mix): the worker timeouts in the gunicorn log, the look-ups' p99 (and beside it their p99 alone,
  measured for 10 s first on the same server), the slowest list answer (the JSON names the slowest
  lists) and the PSS of the arbiter and its workers: idle (before anything of the probe, nothing
  warmed), at the peak, and after — read again until it is back within 10 % of idle, at most
  ``--settle`` s (default 10) after the clients stop; beside them another player asks ordinary 7-tile
  anagrams of es-fise (``bench.probes_routes.Ordinary``).
  Passes with 0 timeouts, p99 ≤ 100 ms, no list answer over 1 s, no 7-tile answer empty and
  truncated, and the PSS back within 10 % of idle.
- ``16 study clients`` (issue 32): 16 clients looping every list route above and every quiz route
  (each quiz type of each edition, the heaviest settings a page offers) for ``--study-duration`` s
  (default 60), the look-ups and the 7-tile anagrams as above. Passes with 0 worker timeouts, no
  7-tile answer empty and look-up p99 ≤ 100 ms
  (a quiz may answer 503 ``busy`` with ``Retry-After``: counted, not failed) and the PSS back within
  10 % of idle within ``--settle`` s, as above.

Exit status 0 all passed, 1 one failed, 2 cannot run here.
"""

from __future__ import annotations

import argparse
import http.client
import json
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
    workers_of,
)
from bench.hostile_clients import lookups, measure
from bench.probes_routes import Ordinary
from lextools.core.edition import edition_names, load_edition
from lextools.features.lists import STEM_LENGTHS, high_value_tiles

FIRST_PAGES = (
    "/v1/es-fise/lists/new?against=en",
    "/v1/es-fise/lists/stems?length=6",
    "/v1/es-fise/lists/stems?length=7",
)
#: The list clients (issue 33: rows 1–6 with 16 clients each).
CLIENTS = 16
#: The clients of the study probe (issue 32: every list and quiz route).
STUDY_CLIENTS = 16
P99_MS = 100.0
#: How far above its idle figure the PSS may stay once the clients stopped and ``--settle`` s passed.
PSS_MARGIN = 0.10
#: The longest a list request may hold a worker (seconds).
LIST_SECONDS = 1.0
#: Seconds of look-ups timed alone first: the machine's own p99, to read the loaded one against.
BASELINE_SECONDS = 10


def get(port: int, path: str) -> tuple[int, dict[str, Any], float, int]:
    """Status, JSON body, seconds and Retry-After of one GET on a new connection."""
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        body = r.read()
        retry = int(r.getheader("Retry-After") or 0)
    finally:
        conn.close()
    return r.status, json.loads(body or b"null"), time.perf_counter() - start, retry


def pss_mb(svc: Service) -> float:
    return sum((memory_kb(pid) or {"pss": 0})["pss"] for pid in [svc.pid, *workers_of(svc.pid)]) / 1024


def first_pages(svc: Service) -> dict[str, Any]:
    before = pss_mb(svc)
    pages = []
    for path in FIRST_PAGES:
        started = time.perf_counter()
        status, body, seconds, retry = get(svc.port, path)
        first = {"path": path, "status": status, "seconds": seconds, "ready": bool(body and body.get("ready"))}
        asks, slowest = 1, seconds
        while status == 200 and not body.get("ready") and time.perf_counter() - started < 120:
            first.setdefault("progress", body.get("progress"))
            time.sleep(retry or 1)
            status, body, seconds, retry = get(svc.port, path)
            asks, slowest = asks + 1, max(slowest, seconds)
        first.update(ready_after_s=time.perf_counter() - started, asks=asks, slowest_s=slowest)
        first["total"] = body.get("total") if status == 200 else None
        pages.append(first)
    ok = all(p["status"] == 200 and p["slowest_s"] <= LIST_SECONDS for p in pages)
    ok = ok and all(p["ready"] for p in pages if "/stems" in p["path"])
    return {"probe": "first pages", "pages": pages, "pss_before_mb": before, "pss_after_mb": pss_mb(svc), "ok": ok}


def list_paths(home: Path) -> list[str]:
    """Every list of every edition the home holds: more than 8 distinct ones."""
    names = [n for n in edition_names() if (home / f"{n}.json").is_file()]
    paths = []
    for name in names:
        paths += [f"/v1/{name}/lists/new?against={other}" for other in names if other != name]
        paths += [f"/v1/{name}/lists/stems?length={n}" for n in STEM_LENGTHS]
        for tile in high_value_tiles(load_edition(name))[:3]:
            paths += [f"/v1/{name}/lists/high-value?tile={tile}&length={n}" for n in (4, 7)]
            paths.append(f"/v1/{name}/lists/high-value?tile={tile}")
    return paths


def quiz_paths(home: Path) -> list[str]:
    """Every quiz type of every edition the home holds, at the heaviest settings the study page offers."""
    names = [n for n in edition_names() if (home / f"{n}.json").is_file()]
    kinds = (
        "type=anagram&length=7",
        "type=anagram&length=8&blanks=1",
        "type=build&length=7",
        "type=build&length=8&blanks=1&count=5",  # the most the tile bound lets a page ask
        "type=hooks&length=5",
        "type=word-or-phony&length=7",
        "type=list&list=two-tile",
        "type=anagram&length=7&max_answers=10000",
    )
    paths = []
    for name in names:  # an edition whose tile counts are not verified has no probability order
        order = "" if load_edition(name).total_tiles is not None else "&order=alphabetical"
        paths += [f"/v1/{name}/quiz?{kind}{order}" + ("" if "count=" in kind else "&count=20") for kind in kinds]
    return paths


def kind_of(path: str) -> str:
    """A route's kind: ``stems``, ``new``, ``high-value`` or ``quiz``."""
    return path.split("?")[0].rsplit("/", 1)[-1]


class Cycler(threading.Thread):
    """One client asking the lists in a random order, each answer timed."""

    def __init__(self, port: int, paths: Sequence[str], seed: int) -> None:
        super().__init__(daemon=True)
        self.port, self.paths, self.rng = port, paths, random.Random(seed)
        self.statuses: Counter[str] = Counter()
        self.slowest, self.failed = 0.0, 0
        self.by_path: dict[str, float] = {}  # the slowest answer of each list
        self.by_kind: Counter[str] = Counter()  # answers by route kind (stems, new, quiz…) and ready or not
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.is_set():
            path = self.rng.choice(self.paths)
            try:
                status, body, seconds, _ = get(self.port, path)
            except (OSError, http.client.HTTPException, ValueError):
                self.failed += 1
                continue
            ready = "ready" if status == 200 and body.get("ready") else "not ready" if status == 200 else str(status)
            self.statuses[ready] += 1
            self.by_kind[f"{kind_of(path)} {ready}"] += 1
            self.slowest = max(self.slowest, seconds)
            self.by_path[path] = max(self.by_path.get(path, 0.0), seconds)

    def stop(self) -> None:
        self._stop_event.set()
        self.join()


def settle(svc: Service, idle: float, seconds: float) -> tuple[float, float]:
    """The PSS once it is back within ``PSS_MARGIN`` of ``idle``, or at most ``seconds`` after the
    clients stopped (the issue's "afterwards"), and the seconds it took."""
    start = time.monotonic()
    after = pss_mb(svc)
    while after > idle * (1 + PSS_MARGIN) and time.monotonic() - start < seconds:
        time.sleep(0.5)
        after = pss_mb(svc)
    return after, time.monotonic() - start


def cycling(
    svc: Service, paths: Sequence[str], lookup: Sequence[str], duration: int, kind: str = "list", settle_s: float = 10
) -> dict[str, Any]:
    """``CLIENTS`` list clients (``kind`` "list") or ``STUDY_CLIENTS`` study clients cycling ``paths``;
    the PSS read again until it is back near idle, for at most ``settle_s`` seconds."""
    count = CLIENTS if kind == "list" else STUDY_CLIENTS
    idle = pss_mb(svc)
    alone = measure(svc.port, lookup, BASELINE_SECONDS, 4)  # the machine's own pace, beside the figure under load
    clients = [Cycler(svc.port, paths, n) for n in range(count)]
    player = Ordinary(svc.port, count)  # another player's 7-tile anagrams, beside them: never empty
    for c in clients:
        c.start()
    player.start()
    try:
        time.sleep(1)
        figures = measure(svc.port, lookup, duration, 4)
        peak = pss_mb(svc)
    finally:
        player.stop()
        for c in clients:
            c.stop()
    after, settled = settle(svc, idle, settle_s)
    log = svc.log.read_text(errors="replace")
    if any(c.failed for c in clients):  # the server's own account of what failed, before its log goes
        print("".join(log.splitlines(keepends=True)[-30:]), file=sys.stderr, flush=True)
    statuses: Counter[str] = sum((c.statuses for c in clients), Counter())
    result = {
        "probe": f"{count} {kind} clients",
        "lists": len(paths),
        "timeouts": len(re.findall(r"WORKER TIMEOUT", log)),
        "p99_ms": figures["p99_ms"],
        "p50_ms": figures["p50_ms"],
        "baseline_p99_ms": alone["p99_ms"],
        "lookups": figures["requests"],
        "lookups_failed": figures["non_2xx"],
        "answers": dict(sorted(statuses.items())),
        "client_failures": sum(c.failed for c in clients),
        "slowest_list_s": max(c.slowest for c in clients),
        "answers_by_kind": dict(sorted(sum((c.by_kind for c in clients), Counter()).items())),
        "slowest_lists": sorted(((p, max(c.by_path.get(p, 0.0) for c in clients)) for p in paths), key=lambda x: -x[1])[
            :5
        ],
        "ordinary": player.asked,
        "ordinary_empty": player.empty,
        "ordinary_failed": player.failed,
        "pss_idle_mb": idle,
        "pss_peak_mb": peak,
        "pss_after_mb": after,
        "settle_s": settled,
    }
    result["ok"] = (
        result["timeouts"] == 0
        and not player.empty
        and not player.failed
        and result["p99_ms"] <= P99_MS
        and not result["lookups_failed"]
        and not result["client_failures"]
        and (result["slowest_list_s"] <= LIST_SECONDS or kind != "list")  # quizzes have their own budget
        and after <= idle * (1 + PSS_MARGIN)
    )
    return result


def line(r: dict[str, Any]) -> str:
    verdict = "PASS" if r["ok"] else "FAIL"
    if r["probe"] == "first pages":
        told = "; ".join(
            f"{p['path'].split('/lists/')[1]}: {p['status']} in {p['seconds']:.2f} s "
            + ("ready" if p["ready"] else f"progress {p.get('progress')}, ready after {p['ready_after_s']:.1f} s")
            + f" ({p['total']} items)"
            for p in r["pages"]
        )
        return (f"first pages (fresh server): {told}; PSS {r['pss_before_mb']:.0f} → {r['pss_after_mb']:.0f} MB "
                f"vs every first answer ≤ {LIST_SECONDS:.0f} s, stems ready at once — {verdict}")  # fmt: skip
    return (
        f"{r['probe']} cycling {r['lists']} routes: {r['timeouts']} worker timeouts, look-up p99 {r['p99_ms']:.1f} "
        f"ms (p50 {r['p50_ms']:.1f}; {r['baseline_p99_ms']:.1f} with no list client; {r['lookups']} look-ups, "
        f"{r['lookups_failed']} failed), slowest list answer "
        f"{r['slowest_list_s']:.2f} s, answers {r['answers']}, {r['client_failures']} failed, ordinary 7-tile "
        f"anagrams {r['ordinary_empty']} empty of {r['ordinary']} ({r['ordinary_failed']} failed), PSS "
        f"{r['pss_idle_mb']:.0f} → {r['pss_peak_mb']:.0f} → {r['pss_after_mb']:.0f} MB ({r['settle_s']:.1f} s after) "
        f"vs 0 timeouts, p99 ≤ {P99_MS:.0f} ms, lists ≤ {LIST_SECONDS:.0f} s, none empty, PSS ≤ idle + "
        f"{PSS_MARGIN:.0%} — {verdict}"
    )


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    home = args.lexicons.resolve()
    for edition in ("es-fise", "es-na103", "en"):
        require_lexicon(home, edition)
    lookup = lookups(home, "es-fise", 400, args.seed)
    results = []
    with tempfile.TemporaryDirectory(prefix="lextools-probes-") as tmp, running(home, Path(tmp, "s.log")) as svc:
        results.append(first_pages(svc))
        print(line(results[-1]), flush=True)
        results.append(cycling(svc, list_paths(home), lookup, args.duration, settle_s=args.settle))
        print(line(results[-1]), flush=True)
        study = list_paths(home) + quiz_paths(home)
        results.append(cycling(svc, study, lookup, args.study_duration, "study", args.settle))
        print(line(results[-1]), flush=True)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lexicons", type=Path, default=default_lexicons(), help="lexicon directory")
    ap.add_argument("--duration", type=int, default=50, help="seconds of the list clients' load (default 50)")
    ap.add_argument("--study-duration", type=int, default=60, help="seconds of the study clients' load (default 60)")
    ap.add_argument("--settle", type=int, default=10, help="seconds the PSS may take to come back (default 10)")
    ap.add_argument("--seed", type=int, default=33)
    return run_probes("probes_lists", ap, run, argv)


if __name__ == "__main__":
    sys.exit(main())
