"""Load test (bounded, loopback only): the real service under wrk, with zero errors required.

Run from the repository root with the project's venv::

    python -m bench.load                          # the lexicon home (lextools default_home), 64 connections, 30 s
    python -m bench.load --duration 10 --json load.json

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
import random
import signal
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bench.harness import (
    RssSampler,
    Unavailable,
    default_lexicons,
    memory_kb,
    request,
    require_lexicon,
    require_wrk,
    rss_kb,
    running,
    sample_words,
    workers_of,
    wrk_load,
)
from service.server import DEFAULTS

#: Share of each kind of request in the mix (per 100 requests).
MIX = {"word": 70, "hooks": 15, "score": 10, "two-tile": 5}


# -- the requests ---------------------------------------------------------------------------------


def request_mix(home: Path, edition: str, n: int, seed: int) -> list[tuple[str, str]]:
    """``n`` (kind, path) pairs in the proportions of ``MIX``, shuffled with ``seed``.

    Words come from ``bench.harness.sample_words``: the lexicon's own words, one in ten altered with
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
        shared = {str(pid): memory_kb(pid) for pid in [svc.pid, *workers_of(svc.pid)]}  # after the load
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
        "smaps_kb_after_load": shared,
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
    for pid, m in r["smaps_kb_after_load"].items():
        if m:
            rows.append((f"PSS / private {pid}", f"{mb(m['pss'])} / {mb(m['private'])}  (after the load)"))
    if r["workers_replaced"]:
        rows.append(("workers replaced", ", ".join(map(str, r["workers_replaced"]))))
    rows.append(("result", "PASS: no failed request" if r["ok"] else f"FAIL: {r['failed_requests']} failed requests"))
    return "load test\n" + table(rows)


def add_common_arguments(ap: argparse.ArgumentParser, connections: int) -> None:
    """The options every wrk-driven check here shares (``bench.load``, ``bench.scale_out``)."""
    ap.add_argument("--lexicons", type=Path, default=default_lexicons(),
                    help="lexicon directory (default: $LEXTOOLS_HOME, else ~/.local/share/lextools)")  # fmt: skip
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
