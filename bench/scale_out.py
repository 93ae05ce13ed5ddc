"""Scale-out (bounded, loopback only): two replicas behind nginx; one is killed under load, no client notices.

Run from the repository root with the project's venv (nginx from ``scripts/install-nginx``)::

    python -m bench.scale_out                     # the lexicon home (lextools default_home), 32 connections, 30 s
    python -m bench.scale_out --no-restart --json scale_out.json

It starts two ``lextools serve`` replicas (gunicorn, 2 workers each) on two free loopback ports, and
nginx with ``deploy/nginx.conf`` (its ``{{...}}`` fields filled: prefix, logs, pid and temp paths in
a temporary directory, listening on 127.0.0.1, both replicas upstream) as a foreground child process
that needs no root. Every request of the mix (``load.request_mix``: look-ups, hooks, scores, the
two-tile list) is sent once through nginx, then wrk runs for ``--duration`` seconds. At a third of
the run replica B is killed — SIGKILL to its arbiter and workers at once, as a crash or an OOM kill
would — and at two thirds it is started again on its port, to show it rejoins.

Reported: requests, requests/s and the failed requests the client saw (HTTP status >= 400 and
socket errors, both must be 0), latency p50/p99/max, and from nginx's access log
(``$upstream_addr``) the requests each replica answered before the kill, while B was down and after
its restart, and how many requests nginx retried on the other replica.

With ``--postgres`` the two replicas share one PostgreSQL (a cluster of Debian's ``postgresql`` made in
the temporary directory by tests/postgres.py) and trust nginx as their proxy
(``--database``, ``--trusted-proxy 127.0.0.1``); a stream of challenges from 20 tables runs beside
wrk through the kill and the restart, and afterwards ``bench.shared_state`` checks what replicas that
share their state must do (one record, receipts and cardboxes across replicas, the rate limits and
the lock-out per client behind nginx, a database stopped and started mid-run).

Exit status: 0 when no request failed and B rejoined (and with ``--postgres`` every shared-state check
held), 1 otherwise, 2 when it could not run (no
lexicon, wrk or nginx). nginx, the replicas and wrk are stopped on every path out, Ctrl-C included.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from bench.harness import (
    ROOT,
    Service,
    Unavailable,
    free_port,
    kill_group,
    request,
    require_lexicon,
    require_wrk,
    start_service,
    stop_service,
    workers_of,
    wrk_load,
)
from bench.load import add_common_arguments, preflight, request_mix, run_check, table
from bench.shared_state import (
    DIRECTOR,
    ChallengeStream,
    across_replicas,
    database_down,
    limits,
    stream_figures,
    verdict,
)

TEMPLATE = ROOT / "deploy" / "nginx.conf"
FAIL_TIMEOUT_S = 5  # as deploy/nginx.conf advises: how long a failed replica is left out
SERVER_OPTIONS = f"max_fails=2 fail_timeout={FAIL_TIMEOUT_S}s"


# -- nginx ----------------------------------------------------------------------------------------


def find_nginx() -> str:
    """nginx's path (Debian installs it in /usr/sbin, which a non-root PATH may lack)."""
    nginx = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if not nginx:
        raise Unavailable("nginx is not installed: run scripts/install-nginx")
    return nginx


def nginx_config(prefix: Path, listen: int, upstreams: Sequence[int], worker_processes: int = 1) -> str:
    """deploy/nginx.conf with its fields filled; every placeholder must be used."""
    servers = "\n".join(f"        server 127.0.0.1:{port} {SERVER_OPTIONS};" for port in upstreams)
    text = TEMPLATE.read_text()
    fields = {"prefix": str(prefix), "listen": f"127.0.0.1:{listen}", "upstreams": servers,
              "worker_processes": str(worker_processes)}  # fmt: skip
    for name, value in fields.items():
        text = text.replace("{{" + name + "}}", value)
    if left := re.search(r"\{\{\w+\}\}", text):
        raise RuntimeError(f"{TEMPLATE} has a field this script does not fill: {left.group()}")
    return text


@contextmanager
def nginx_running(nginx: str, prefix: Path, upstreams: Sequence[int]) -> Iterator[int]:
    """nginx in the foreground (``daemon off``) with everything under ``prefix``; yields its port.

    Stopped with SIGQUIT (graceful: workers finish their requests and flush the access log), then
    SIGKILL to its process group if it lingers.
    """
    port = free_port()
    for sub in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (prefix / "tmp" / sub).mkdir(parents=True, exist_ok=True)
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_config(prefix, port, upstreams))
    cmd = [nginx, "-p", str(prefix), "-c", str(conf), "-e", str(prefix / "error.log")]
    test = subprocess.run([*cmd, "-t", "-q"], capture_output=True, text=True)
    if test.returncode != 0:
        raise RuntimeError(f"nginx rejects {conf}:\n{test.stderr}")
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 15
        while True:
            with suppress(OSError):
                if request(port, "GET", "/healthz")[0] == 200:
                    break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("nginx did not start:\n" + (prefix / "error.log").read_text(errors="replace"))
            time.sleep(0.1)
        yield port
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGQUIT)
            with suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        with suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)


def read_access_log(path: Path, since: float) -> list[tuple[float, int, list[str]]]:
    """(time, status, upstreams tried) per request logged at or after ``since`` (epoch seconds)."""
    out = []
    for line in path.read_text(errors="replace").splitlines():
        msec, status, _, rest = line.split(" ", 3)
        if float(msec) < since or '"GET /healthz ' in rest:
            continue
        addrs = rest.split('"')[1]
        out.append((float(msec), int(status), [a.strip() for a in addrs.split(",") if a.strip() not in ("", "-")]))
    return out


# -- the run --------------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Two replicas, nginx, wrk; kill B at 1/3 and restart it at 2/3; the figures. With ``--postgres``
    the replicas share one PostgreSQL, and the shared state is checked too."""
    if not args.postgres:
        args.replica_options = []
        return run_replicas(args, None)
    from tests.postgres import running_postgres  # the tests' real server (Debian's postgresql)

    with running_postgres() as pg:
        url = pg.create_database("lextools")
        args.replica_options = ["--database", url, "--trusted-proxy", "127.0.0.1"]
        os.environ["LEXTOOLS_DIRECTOR_TOKEN"] = DIRECTOR
        return run_replicas(args, (pg, url))


def run_replicas(args: argparse.Namespace, shared: tuple[Any, str] | None) -> dict[str, Any]:
    """The run of :func:`run`, the replicas on ``shared`` (the server and its database's URL) if given."""
    home = args.lexicons.resolve()
    require_lexicon(home, args.edition)
    wrk = require_wrk()
    nginx = find_nginx()
    mix = request_mix(home, args.edition, args.paths, args.seed)
    events: dict[str, float] = {}
    replicas: dict[str, Service] = {}
    wrk_procs: list[subprocess.Popen[str]] = []
    with tempfile.TemporaryDirectory(prefix="lextools-scale-out-") as tmp:
        prefix = Path(tmp)
        try:
            for name in ("A", "B"):
                replicas[name] = start_service(home, prefix / f"replica-{name}.log", workers=args.workers, name=name,
                                               options=args.replica_options)  # fmt: skip
            ports = {name: svc.port for name, svc in replicas.items()}
            with nginx_running(nginx, prefix, list(ports.values())) as port:
                preflight(port, mix)  # every path answers 2xx through nginx, and both replicas load the lexicon
                stream = ChallengeStream(port) if shared else None
                with ThreadPoolExecutor(1) as pool:
                    events["start"] = time.time()
                    if stream:
                        stream.start()
                    future = pool.submit(wrk_load, wrk, port, [p for _, p in mix], connections=args.connections,
                                         duration=args.duration, started=wrk_procs)  # fmt: skip
                    try:
                        killed = chaos(args, replicas, home, prefix, events)
                        figures = future.result()
                    finally:
                        for proc in wrk_procs:
                            proc.kill()
                        if stream:
                            stream.stop()
                events["end"] = time.time()
                checks = shared_checks(port, replicas, shared, stream) if shared and stream else None
            log = read_access_log(prefix / "access.log", events["start"])
            b_log = replicas["B"].log_tail(8)
            error_log = (prefix / "error.log").read_text(errors="replace").splitlines()
            nginx_errors = [line for line in error_log if "[error]" in line]
        finally:
            for svc in replicas.values():
                stop_service(svc)
    result = summarise(args, figures, log, ports, events, killed, b_log)
    result["nginx_errors"] = nginx_errors  # what nginx saw go wrong upstream (the retries' causes)
    if checks is not None:
        result["shared_state"] = checks
        result["ok"] = result["ok"] and checks["ok"]
    return result


def shared_checks(port: int, replicas: dict[str, Service], shared: tuple[Any, str],
                  stream: ChallengeStream) -> dict[str, Any]:  # fmt: skip
    """bench.shared_state's checks, once the load is over (the replicas and nginx still up)."""
    pg, url = shared
    a, b = replicas["A"].port, replicas["B"].port
    figures = {"stream": stream_figures(stream, url), "across": across_replicas(a, b), "limits": limits(port, a)}
    figures["down"] = database_down(port, pg)
    figures["ok"] = verdict(figures)
    return figures


def chaos(args: argparse.Namespace, replicas: dict[str, Service], home: Path, prefix: Path,
          events: dict[str, float]) -> dict[str, Any]:  # fmt: skip
    """Kill replica B (arbiter and workers, SIGKILL) at 1/3 of the run; start it again at 2/3."""
    pause(events["start"] + args.duration / 3)
    victim = replicas["B"]
    pids = [victim.pid, *workers_of(victim.pid)]
    events["kill"] = time.time()
    kill_group(victim)
    deadline = time.monotonic() + 5  # SIGKILL is delivered at once, but the exit takes a moment
    while (alive := [pid for pid in pids if _state(pid) != "Z"]) and time.monotonic() < deadline:
        time.sleep(0.05)
    killed = {"pids": pids, "still_alive": alive}
    if args.no_restart:
        return killed
    pause(events["start"] + 2 * args.duration / 3)
    events["restart"] = time.time()
    replicas["B"] = start_service(home, victim.log, port=victim.port, workers=args.workers, name="B",
                                  options=args.replica_options)  # fmt: skip
    events["restarted"] = time.time()  # answering /healthz
    return killed


def _state(pid: int) -> str:
    """The process state letter from /proc ("Z" also for a process that is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return "Z"
    return stat[stat.rindex(")") + 2 :].split()[0]


def pause(until: float) -> None:
    """Sleep until the epoch time ``until``."""
    time.sleep(max(0.0, until - time.time()))


def summarise(
    args: argparse.Namespace,
    figures: dict[str, Any],
    log: list[tuple[float, int, list[str]]],
    ports: dict[str, int],
    events: dict[str, float],
    killed: dict[str, Any],
    b_log: str,
) -> dict[str, Any]:
    """The client's figures, and per replica and phase the requests nginx says each one answered."""
    name_of = {f"127.0.0.1:{port}": name for name, port in ports.items()}
    phases = [("before kill", events["start"], events["kill"])]
    if "restart" in events:
        phases += [("B down", events["kill"], events["restarted"]), ("after restart", events["restarted"], math.inf)]
    else:
        phases += [("B down", events["kill"], math.inf)]
    per_phase: dict[str, Counter[str]] = {label: Counter() for label, _, _ in phases}
    retried = Counter[str]()
    statuses = Counter[int]()
    for t, status, tried in log:
        statuses[status] += 1
        answered = name_of.get(tried[-1], tried[-1]) if tried else "nginx"
        for label, start, end in phases:
            if start <= t < end:
                per_phase[label][answered] += 1
        for addr in tried[:-1]:
            retried[name_of.get(addr, addr)] += 1
    failed = figures["http_errors"] + figures["socket_errors_total"]
    rejoined = None if args.no_restart else per_phase["after restart"]["B"] > 0
    ok = failed == 0 and not killed["still_alive"] and rejoined is not False
    return {
        "edition": args.edition,
        "replicas": {name: f"127.0.0.1:{port}" for name, port in ports.items()},
        "workers_per_replica": args.workers,
        **figures,
        "failed_requests": failed,
        "killed": {"replica": "B", "at_s": events["kill"] - events["start"], **killed},
        "restarted_at_s": events["restarted"] - events["start"] if "restarted" in events else None,
        "rejoined": rejoined,
        "requests_per_replica": {label: dict(sorted(c.items())) for label, c in per_phase.items()},
        "retried_from": dict(retried),
        "nginx_statuses": {str(k): v for k, v in sorted(statuses.items())},
        "nginx_logged_requests": len(log),
        "replica_b_log_tail": b_log,
        "ok": ok,
    }


def report(r: dict[str, Any]) -> str:
    """The figures as a readable table."""
    lat = r["latency_ms"]
    sock = r["socket_errors"]
    k = r["killed"]
    restart = "not restarted" if r["restarted_at_s"] is None else f"restarted at {r['restarted_at_s']:.1f} s"
    rows = [
        ("replicas", ", ".join(f"{n} {a}" for n, a in r["replicas"].items())
         + f" ({r['workers_per_replica']} workers each), behind nginx (deploy/nginx.conf)"),
        ("load", f"wrk, {r['connections']} connections, {r['duration_s']:.1f} s, GETs on {r['edition']}"),
        ("chaos", f"B killed (SIGKILL, pids {' '.join(map(str, k['pids']))}) at {k['at_s']:.1f} s, {restart}"),
        ("requests", f"{r['requests']}  ({r['rps']:.0f} requests/s)"),
        ("failed requests", f"{r['failed_requests']}  (HTTP >= 400: {r['http_errors']}; socket: "
                            + ", ".join(f"{e} {n}" for e, n in sock.items()) + ")"),
        ("latency", "  ".join(f"{p} {lat[p]:.1f} ms" for p in ("p50", "p90", "p99", "max"))),
    ]  # fmt: skip
    for label, counts in r["requests_per_replica"].items():
        rows.append((f"answered, {label}", "  ".join(f"{n} {c}" for n, c in counts.items()) or "-"))
    retried = ", ".join(f"{c} first sent to {n}" for n, c in r["retried_from"].items()) or "none"
    rows.append(("retried by nginx", retried))
    statuses = ", ".join(f"{s}: {c}" for s, c in r["nginx_statuses"].items())
    if "499" in r["nginx_statuses"]:
        statuses += "  (499: in flight when wrk stopped and closed its connections)"
    rows.append(("nginx statuses", statuses))
    if r["rejoined"] is not None:
        rows.append(("B rejoined", "yes" if r["rejoined"] else "NO"))
    if k["still_alive"]:
        rows.append(("still alive after kill", " ".join(map(str, k["still_alive"]))))
    if "shared_state" in r:
        rows += [(f"shared: {k}", json.dumps(v)) for k, v in r["shared_state"].items()]
    rows.append(("result", "PASS: no failed request" if r["ok"] else "FAIL"))
    return "scale-out\n" + table(rows)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_common_arguments(ap, connections=32)
    ap.add_argument("--workers", type=int, default=2, help="gunicorn workers per replica (default 2)")
    ap.add_argument("--no-restart", action="store_true", help="leave replica B dead after the kill")
    ap.add_argument("--postgres", action="store_true", help="the replicas share one PostgreSQL; check the shared state")
    args = ap.parse_args(argv)
    if args.duration < 6 * FAIL_TIMEOUT_S and not args.no_restart:
        # B restarts at 2/3 and nginx tries it again only fail_timeout after its last failure
        ap.error(
            f"--duration must be at least {6 * FAIL_TIMEOUT_S} s for the restarted replica to rejoin "
            "(or use --no-restart)"
        )
    return run_check("scale-out", run, report, args, on_failure=_explain)


def _explain(result: dict[str, Any]) -> None:
    print(f"replica B's log ends:\n{result['replica_b_log_tail']}", file=sys.stderr)
    print("nginx errors:", *result["nginx_errors"][:20], sep="\n", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
