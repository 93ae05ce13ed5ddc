"""Route-budget probes of issue 33 (rows 3 to 6): bounded, 127.0.0.1 only, one line each.

Run from the repository root with the project's venv (``scripts/reliability`` runs every
``bench/probes_*.py``)::

    python -m bench.probes_routes                     # the lexicon home (lextools default_home)
    python -m bench.probes_routes --duration 10 --json figures.json

It starts ``lextools serve`` (2 workers, ``service.server.DEFAULTS``) on 127.0.0.1, port 0, and prints:

- ``row 4 alone``: ``search?pattern=*&order=probability&min_anagrams=1000`` (nothing matches) and
  ``max_score=1``, each asked once on a warm worker: answered 200 within ``SEARCH_BUDGET_MS`` + 50 ms,
  with a cursor when truncated;
- ``row 3``, ``row 4``, ``row 5``, ``row 6``: 16 clients looping the row's requests for ``--duration``
  s (row 3: 13/15-tile racks with two blanks, subanagrams in probability order with
  ``min_anagrams=1``; row 4: the two searches of row 4 following their cursors; row 5: distinct
  13-tile racks with two blanks, probability subanagrams; row 6: the heaviest quiz of each type, as
  ``bench.probes_load``) while look-ups are timed on 4 keep-alive connections (``bench.hostile_clients``)
  and another client asks ordinary 7-tile anagrams (alphabetical, probability, subanagrams).

A row passes when no worker timed out or was replaced, the look-ups' p99 is at most 100 ms with none
failed, no ordinary 7-tile anagram answered ``count: 0, truncated: true`` (nor failed), and the PSS of
the arbiter and its workers is back within 10 % of its idle figure at most ``--settle`` s after the
clients stop. Exit status 0 all passed, 1 one failed, 2 cannot run here.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bench.harness import Service, default_lexicons, require_lexicon, run_probes, running
from bench.hostile_clients import lookups
from bench.probes_load import quiz_paths, under_load
from service.http.limits import LIMITS

EDITION = "es-fise"
#: Letters every edition has: the racks are made of them.
LETTERS = "AEIOSRNLTCDUMPBG"
ROW4 = [
    f"/v1/{EDITION}/search?pattern=*&order=probability&min_anagrams=1000&limit=100",
    f"/v1/{EDITION}/search?pattern=*&order=probability&max_score=1&limit=100",
]
#: The slack a row-4 page may take past its budget (the issue's bound).
SLACK_MS = 50.0


def racks(n: int, tiles: int, seed: int) -> list[str]:
    """``n`` distinct racks of ``tiles`` letters and two blanks."""
    rng = random.Random(seed)
    return sorted({"".join(sorted(rng.choices(LETTERS, k=tiles))) + "??" for _ in range(n)})


def row_paths(row: int, seed: int) -> list[str]:
    if row == 3:
        return [f"/v1/{EDITION}/anagrams/{quote(r)}?sub=true&order=probability&min_anagrams=1"
                for r in ["AEIOSRNLTCDUM??", *racks(40, 11, seed), *racks(20, 13, seed)]]  # fmt: skip
    if row == 4:
        return ROW4
    if row == 5:
        query = "sub=true&order=probability&min_length=1"
        return [f"/v1/{EDITION}/anagrams/{quote(r)}?{query}" for r in racks(400, 11, seed)]
    return quiz_paths(400, seed)


class Ordinary(threading.Thread):
    """A player asking 7-tile anagrams one after another: every answer must hold words."""

    def __init__(self, port: int, seed: int) -> None:
        super().__init__(daemon=True)
        self.port, self.rng = port, random.Random(seed)
        self.asked = self.empty = self.failed = 0
        self._stop_event = threading.Event()

    def path(self) -> str:
        rack = "".join(self.rng.choices("AEIOSRNLTC", k=7))
        query = self.rng.choice(["", "?order=probability", "?sub=true", "?sub=true&order=probability"])
        return f"/v1/{EDITION}/anagrams/{rack}{query}"

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        while not self._stop_event.wait(0.05):
            try:
                conn.request("GET", self.path())
                r = conn.getresponse()
                body = json.loads(r.read())
            except (OSError, http.client.HTTPException, ValueError):
                self.failed += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                continue
            self.asked += 1
            if r.status != 200:
                self.failed += 1
            elif body["count"] == 0 and body["truncated"]:
                self.empty += 1
        conn.close()

    def stop(self) -> None:
        self._stop_event.set()
        self.join()


def row4_alone(svc: Service) -> dict[str, Any]:
    """Each search of row 4 once: its time, and whether it was answered with a cursor when truncated."""
    bound = LIMITS["SEARCH_BUDGET_MS"][0] + SLACK_MS
    figures = []
    for path in ROW4:
        conn = http.client.HTTPConnection("127.0.0.1", svc.port, timeout=300)
        try:
            start = time.perf_counter()
            conn.request("GET", path)
            r = conn.getresponse()
            body = json.loads(r.read())
            ms = (time.perf_counter() - start) * 1000
        finally:
            conn.close()
        ok = r.status == 200 and ms <= bound and (not body["truncated"] or bool(body.get("next_cursor")))
        figures.append({"path": path, "status": r.status, "ms": ms, "count": body.get("count"), "ok": ok})
    return {"probe": "row 4 alone", "bound_ms": bound, "searches": figures, "ok": all(f["ok"] for f in figures)}


def row(svc: Service, n: int, lookup: Sequence[str], args: argparse.Namespace) -> dict[str, Any]:
    player = Ordinary(svc.port, args.seed + n)
    player.start()
    try:
        result = under_load(svc, f"row {n}", row_paths(n, args.seed), lookup, args)
    finally:
        player.stop()
    result.update(ordinary=player.asked, ordinary_empty=player.empty, ordinary_failed=player.failed)
    result["ok"] = bool(result["ok"] and not result["timeouts_logged"] and not player.empty and not player.failed)
    return result


def line(r: dict[str, Any]) -> str:
    verdict = "PASS" if r["ok"] else "FAIL"
    if r["probe"] == "row 4 alone":
        each = "; ".join(f"{f['path'].split('&')[2]}: {f['status']} in {f['ms']:.0f} ms, {f['count']} words"
                         for f in r["searches"])  # fmt: skip
        return f"row 4 alone ({each}) vs 200 within {r['bound_ms']:.0f} ms with a cursor — {verdict}"
    return (f"{r['probe']} (16 clients): look-up p99 {r['p99_ms']:.1f} ms (p50 {r['p50_ms']:.1f}, {r['lookups']} "
            f"look-ups, {r['lookups_failed']} failed), {r['timeouts_logged']} worker timeouts, "
            f"{r['workers_replaced']} replaced, ordinary 7-tile anagrams {r['ordinary_empty']} empty of "
            f"{r['ordinary']} ({r['ordinary_failed']} failed), PSS {r['pss_idle_mb']:.0f} → {r['pss_peak_mb']:.0f} → "
            f"{r['pss_after_mb']:.0f} MB; clients got {r['client_answers']} vs 0 timeouts, p99 ≤ 100 ms, "
            f"none empty, PSS ≤ idle + 10 % — {verdict}")  # fmt: skip


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    home = args.lexicons.resolve()
    require_lexicon(home, EDITION)
    lookup = lookups(home, EDITION, 400, args.seed)
    results = []
    with tempfile.TemporaryDirectory(prefix="lextools-probes-") as tmp, running(home, Path(tmp, "service.log")) as svc:
        conn = http.client.HTTPConnection("127.0.0.1", svc.port, timeout=30)
        for path in [*lookup[:100], *ROW4]:  # every worker warm: lexicons loaded, rankings read
            conn.request("GET", path)
            conn.getresponse().read()
        conn.close()
        results.append(row4_alone(svc))
        print(line(results[-1]), flush=True)
        for n in args.rows:
            results.append(row(svc, n, lookup, args))
            print(line(results[-1]), flush=True)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lexicons", type=Path, default=default_lexicons(), help="lexicon directory (every edition)")
    ap.add_argument("--duration", type=int, default=15, help="seconds of load per row (default 15)")
    ap.add_argument("--settle", type=int, default=10, help="seconds the PSS may take to come back (default 10)")
    ap.add_argument("--rows", type=int, nargs="+", default=[3, 4, 5, 6], choices=[3, 4, 5, 6])
    ap.add_argument("--seed", type=int, default=33)
    return run_probes("probes_routes", ap, run, argv)


if __name__ == "__main__":
    sys.exit(main())
