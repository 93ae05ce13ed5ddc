"""Benchmark (not a test): the service under gunicorn on 127.0.0.1, against a bare WSGI app.

Run from the repository root with the project's venv, against any built lexicon directory::

    python -m bench.service_load --lexicons /tmp/big            # es-fise, 10 s per measurement
    python -m bench.service_load --lexicons /tmp/big --duration 5 --rounds 1 --json figures.json

What is measured, in one run, on one machine:

1. single-word validity — ``GET /v1/{edition}/words/{word}`` (lookup, tiles, score and hooks) —
   served by the Flask app, and by a bare WSGI app doing the same lookup and writing the same JSON,
   both under the same gunicorn settings as ``lextools serve`` (``service.server.Server``): requests
   per second and p99 latency, rounds alternating between the two so drift hits both alike; the
   figure that matters is the ratio (target: Flask within 30% of the bare app, ratio >= 0.70);
2. batch check — ``POST /v1/{edition}/check`` with 1000 words per request: words per second.

The words are a seeded sample of the lexicon's own words in plain spelling (URL-encoded UTF-8), one
in ten altered so it is not a word. The load generator is wrk (installed with apt-get when missing
and this runs as root; ``--no-install`` skips that); without wrk, a Python client with keep-alive
connections in threads, which needs a core of its own and so understates both servers alike.
Servers listen on 127.0.0.1 with port 0 (the port gunicorn logs) and are stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bench.harness import Service, bench_command, cpu_seconds, find_wrk, request, running, sample_words, wrk_load
from lextools.core.lexicon import default_home, load_lexicon
from service import create_app
from service.http.lexicons import LexiconCache
from service.server import DEFAULTS, Server

TARGET_RATIO = 0.70  # "the Flask route within 30% of the bare WSGI app"


# -- the two servers --------------------------------------------------------------------------------


def bare_app(home: Path, edition: str) -> Callable[..., Any]:
    """The same lookup as ``GET /v1/{edition}/words/{word}``, with nothing but WSGI around it."""
    cache = LexiconCache(home)
    prefix = f"/v1/{edition}/words/"

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        path = environ["PATH_INFO"].encode("latin-1").decode("utf-8", "replace")
        if path == "/healthz":
            body, status = b'{"status":"ok"}', "200 OK"
        elif path.startswith(prefix):
            lex = cache.get(edition)
            result = lex.lookup(path[len(prefix) :])
            h = lex.hooks(lex.edition.encode(result.tiles))
            data = {
                **result.as_dict(),
                "hooks": {"front": list(h.front), "back": list(h.back), "front_inner": h.front_inner,
                          "back_inner": h.back_inner},
            }  # fmt: skip
            body, status = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode(), "200 OK"
        else:
            body, status = b'{"error":{"code":"not_found","message":"not found"}}', "404 Not Found"
        start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
        return [body]

    return app


def serve(kind: str, home: Path, edition: str, options: dict[str, Any]) -> None:
    """Child process: run one of the two apps under ``service.server.Server`` on a free port."""
    factory = (lambda: create_app({"LEXICONS": home})) if kind == "flask" else (lambda: bare_app(home, edition))
    Server(factory, {"bind": "127.0.0.1:0", **options}).run()


def serve_command(kind: str, home: Path, edition: str = "es-fise", workers: int = 2,
                  threads: int = DEFAULTS.get("threads", 1),
                  worker_class: str = DEFAULTS["worker_class"]) -> list[str]:  # fmt: skip
    """The command that runs one of the two apps in a child process (for :func:`bench.harness.running`)."""
    return [*bench_command("service_load"), "--serve", kind, "--lexicons", str(home), "--edition", edition,
            "--workers", str(workers), "--threads", str(threads), "--worker-class", worker_class]  # fmt: skip


@contextmanager
def server(kind: str, args: argparse.Namespace, logs: Path) -> Iterator[Service]:
    """One of the two apps started through the harness (its log in ``logs``), stopped on the way out."""
    cmd = serve_command(kind, args.lexicons, args.edition, args.workers, args.threads, args.worker_class)
    with running(args.lexicons, logs / f"{kind}.log", command=cmd, name=kind) as svc:
        yield svc


# -- load generators -------------------------------------------------------------------------------


def run_wrk(wrk: str, port: int, paths: Sequence[str], args: argparse.Namespace, body: str | None = None) -> dict:
    """wrk through the shared harness (GETs cycling through the paths, or POSTs of one body)."""
    f = wrk_load(wrk, port, paths, connections=args.connections, duration=args.duration,
                 body=None if body is None else body.encode())  # fmt: skip
    return {"rps": f["rps"], "p99_ms": f["latency_ms"]["p99"], "requests": f["requests"],
            "non_2xx": f["http_errors"], "socket_errors": f["socket_errors_total"], "client": "wrk"}  # fmt: skip


def run_python(port: int, paths: Sequence[str], args: argparse.Namespace, body: str | None = None) -> dict:
    """Threads with one keep-alive connection each, for ``duration`` seconds; p99 from every request."""
    stop = time.monotonic() + args.duration
    latencies: list[list[float]] = [[] for _ in range(args.connections)]
    failures = [0] * args.connections
    payload = body.encode() if body is not None else None

    def worker(n: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        i = n
        while time.monotonic() < stop:
            path = paths[i % len(paths)]
            i += 1
            t = time.perf_counter()
            conn.request("GET" if payload is None else "POST", path, body=payload)
            r = conn.getresponse()
            r.read()
            latencies[n].append(time.perf_counter() - t)
            failures[n] += r.status >= 300
        conn.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(args.connections)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - start
    every = sorted(x for per in latencies for x in per)
    return {"rps": len(every) / elapsed, "p99_ms": every[int(0.99 * (len(every) - 1))] * 1000,
            "p50_ms": every[len(every) // 2] * 1000, "max_ms": every[-1] * 1000,
            "requests": len(every), "non_2xx": sum(failures), "socket_errors": None, "client": "python"}  # fmt: skip


# -- the run ---------------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lexicons", type=Path, default=None, help="lexicon directory [default: $LEXTOOLS_HOME ...]")
    ap.add_argument("--edition", default="es-fise", help="edition to query (default es-fise)")
    ap.add_argument("--duration", type=int, default=10, help="seconds per measurement (default 10)")
    ap.add_argument("--rounds", type=int, default=2, help="alternating Flask/bare rounds; medians reported (default 2)")
    ap.add_argument("--connections", type=int, default=16, help="concurrent connections (default 16)")
    ap.add_argument("--workers", type=int, default=2, help="gunicorn workers per server (default 2)")
    ap.add_argument("--threads", type=int, default=DEFAULTS.get("threads", 1), help="threads per worker (gthread only)")
    ap.add_argument(
        "--worker-class", default=DEFAULTS["worker_class"], help="gunicorn worker class (as lextools serve)"
    )
    ap.add_argument("--client", choices=("auto", "wrk", "python"), default="auto", help="load generator")
    ap.add_argument("--no-install", action="store_true", help="do not apt-get install wrk when it is missing")
    ap.add_argument("--seed", type=int, default=7, help="random seed for the word sample (default 7)")
    ap.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    ap.add_argument("--serve", choices=("flask", "bare"), help=argparse.SUPPRESS)  # child process mode
    return ap


Load = Callable[..., dict]


def single_word_rounds(args: argparse.Namespace, load: Load, paths: Sequence[str], logs: Path) -> dict[str, list[dict]]:
    """``--rounds`` rounds of GET /words, Flask and bare app in turn (alternating which goes first)."""
    single: dict[str, list[dict]] = {"flask": [], "bare": []}
    for r in range(args.rounds):
        for kind in ("flask", "bare") if r % 2 == 0 else ("bare", "flask"):
            with server(kind, args, logs) as svc:
                for p in paths[:200]:  # warm up: every worker loads the lexicon on its first request
                    request(svc.port, "GET", p)
                before = cpu_seconds(svc.pid)
                figures = load(svc.port, paths)
                after = cpu_seconds(svc.pid)
            cpu = None if before is None or after is None else (after - before) / figures["requests"] * 1e6
            figures["server_cpu_us_per_request"] = cpu
            single[kind].append(figures)
            print(
                f"  round {r + 1} {kind:5}: {figures['rps']:9.0f} req/s  p99 {figures['p99_ms']:6.2f} ms"
                + (f"  server CPU {cpu:5.0f} us/request" if cpu is not None else ""),
                file=sys.stderr,
            )
    return single


def batch_check(args: argparse.Namespace, load: Load, words: Sequence[str], logs: Path) -> dict:
    """POST /check of 1000 words to the Flask app."""
    batch_words = (list(words) * (1000 // len(words) + 1))[:1000]  # a small lexicon's words repeat
    batch_body = json.dumps({"words": batch_words})  # ASCII only: Lua 5.1 strings have no \\u escapes
    with server("flask", args, logs) as svc:
        request(svc.port, "POST", f"/v1/{args.edition}/check", batch_body.encode())
        return load(svc.port, [f"/v1/{args.edition}/check"], batch_body)


def summarise(args: argparse.Namespace, client: str, single: dict[str, list[dict]], batch: dict) -> dict[str, Any]:
    """The figures of the run: medians of the rounds, their ratios, the batch check."""
    flask_rps = statistics.median(f["rps"] for f in single["flask"])
    bare_rps = statistics.median(f["rps"] for f in single["bare"])
    cpu_known = all(f["server_cpu_us_per_request"] is not None for fs in single.values() for f in fs)
    flask_cpu = statistics.median(f["server_cpu_us_per_request"] for f in single["flask"]) if cpu_known else None
    bare_cpu = statistics.median(f["server_cpu_us_per_request"] for f in single["bare"]) if cpu_known else None
    return {
        "edition": args.edition,
        "lexicon_words": load_lexicon(args.edition, args.lexicons).metadata["words"],
        "client": client,
        "connections": args.connections,
        "workers": args.workers,
        "threads": args.threads,
        "worker_class": args.worker_class,
        "duration_s": args.duration,
        "single_word": {
            "flask": {
                "rps": flask_rps,
                "p99_ms": statistics.median(f["p99_ms"] for f in single["flask"]),
                "server_cpu_us_per_request": flask_cpu,
            },
            "bare_wsgi": {
                "rps": bare_rps,
                "p99_ms": statistics.median(f["p99_ms"] for f in single["bare"]),
                "server_cpu_us_per_request": bare_cpu,
            },
            "cpu_ratio": bare_cpu / flask_cpu if flask_cpu and bare_cpu else None,
            "ratio": flask_rps / bare_rps,
            "ratio_per_round": [f["rps"] / b["rps"] for f, b in zip(single["flask"], single["bare"], strict=True)],
            "target_ratio": TARGET_RATIO,
            "met": flask_rps / bare_rps >= TARGET_RATIO,
            "rounds": single,
        },
        "batch_check": {
            "words_per_request": 1000,
            "rps": batch["rps"],
            "words_per_s": batch["rps"] * 1000,
            "p99_ms": batch["p99_ms"],
            "non_2xx": batch["non_2xx"],
        },
    }


def report(result: dict[str, Any]) -> str:
    """The figures as text."""
    s, batch = result["single_word"], result["batch_check"]
    flask_cpu, bare_cpu = s["flask"]["server_cpu_us_per_request"], s["bare_wsgi"]["server_cpu_us_per_request"]
    verdict = "met" if s["met"] else "NOT met"
    per_round = " ".join(f"{x:.2f}" for x in s["ratio_per_round"])
    return (
        f"\nsingle word  Flask {s['flask']['rps']:8.0f} req/s  p99 {s['flask']['p99_ms']:6.2f} ms\n"
        f"             bare  {s['bare_wsgi']['rps']:8.0f} req/s  p99 {s['bare_wsgi']['p99_ms']:6.2f} ms\n"
        f"             Flask/bare = {s['ratio']:.2f} (target >= {TARGET_RATIO:.2f}: {verdict}); by round: {per_round}\n"
        + (
            f"             server CPU per request: Flask {flask_cpu:.0f} us, bare {bare_cpu:.0f} us "
            f"(bare/Flask = {s['cpu_ratio']:.2f}: the throughput ratio on otherwise idle cores)\n"
            if flask_cpu and bare_cpu
            else ""
        )
        + f"batch check  {batch['words_per_s']:8.0f} words/s  "
        f"({batch['rps']:.1f} req/s of 1000 words, p99 {batch['p99_ms']:.1f} ms)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    args.lexicons = (args.lexicons or default_home()).resolve()

    if args.serve:
        serve(args.serve, args.lexicons, args.edition,
              {"workers": args.workers, "threads": args.threads, "worker_class": args.worker_class})  # fmt: skip
        return 0

    wrk = None if args.client == "python" else find_wrk(install=not args.no_install)
    if args.client == "wrk" and wrk is None:
        ap.error("wrk is not installed")

    def load(port: int, paths: Sequence[str], body: str | None = None) -> dict:
        return run_wrk(wrk, port, paths, args, body) if wrk else run_python(port, paths, args, body)

    words = sample_words(args.lexicons, args.edition, 2000, args.seed)
    paths = [f"/v1/{args.edition}/words/{quote(w)}" for w in words]
    setup = (
        f"{len(words)} words of {args.edition} from {args.lexicons}; client {'wrk' if wrk else 'python'}, "
        f"{args.connections} connections, {args.workers} workers x {args.threads} threads, {args.duration} s each"
    )
    print(setup, file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="lextools-service-load-") as logs:
        single = single_word_rounds(args, load, paths, Path(logs))
        batch = batch_check(args, load, words, Path(logs))
    result = summarise(args, "wrk" if wrk else "python", single, batch)
    print(report(result))
    bad = sum(f["non_2xx"] for fs in single.values() for f in fs) + batch["non_2xx"]
    if bad:
        print(f"warning: {bad} responses were not 2xx", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
