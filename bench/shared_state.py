"""The shared state of two replicas on one PostgreSQL, checked through nginx (``bench.scale_out --postgres``).

What issue 35 asks of replicas that share their state, each measured and reported:

- a stream of challenges during the scale-out run (20 tables behind nginx, distinct
  ``X-Forwarded-For``, while replica B is killed and restarted): every answered challenge is in
  ``lextools record --database URL`` exactly once, and no row is there that no client was answered for;
- a challenge judged through A has a receipt that B's director feed finds signed and valid;
- a cardbox made through A is read and replaced through B;
- behind nginx (the trusted proxy): 20 clients at 5 challenges a second get no 429, one client at 20 a
  second gets 429s, 10 wrong director tokens lock out that client only, and a client outside the
  trusted proxies that sends ``X-Forwarded-For`` is keyed on its own address;
- PostgreSQL stopped: challenges answer 503 within 2 s while look-ups keep their p99 under 100 ms;
  started again: challenges are recorded again, with no restart of the replicas.
"""

from __future__ import annotations

import http.client
import json
import secrets
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bench.harness import ROOT, lextools_command

DIRECTOR = "bench-director-token-0123456789abcdef"
CARDBOX = {"format": "lextools-cardbox", "cards": [{"word": "CASA", "box": 1}]}


def call(port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
         source: str = "127.0.0.1", timeout: float = 10.0) -> tuple[int, Any, float]:  # fmt: skip
    """One request from the loopback address ``source``: status, JSON (or None), seconds taken."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    sent = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    started = time.perf_counter()
    try:
        conn.request(method, path, body=data, headers=sent)
        answer = conn.getresponse()
        raw = answer.read()
        status = answer.status
    except OSError:
        return 0, None, time.perf_counter() - started
    finally:
        conn.close()
    taken = time.perf_counter() - started
    try:
        return status, json.loads(raw), taken
    except ValueError:
        return status, None, taken


def challenge(
    port: int, client: str, word: str = "CASA", source: str = "127.0.0.1", key: str | None = None
) -> tuple[int, Any, float]:
    """One challenge from ``client`` (its X-Forwarded-For); ``key`` its Idempotency-Key, as the judge page sends."""
    headers = {"X-Forwarded-For": client, **({"Idempotency-Key": key} if key else {})}
    return call(port, "POST", "/v1/es-fise/challenge", {"words": [word]}, headers, source)


class ChallengeStream:
    """Challenges through nginx from 20 tables, one a second each, until stopped: the answers kept. Each
    carries an Idempotency-Key, as the judge page's do: nginx sends a challenge whose replica died
    mid-answer to the other one, which answers with the receipt already recorded, if it was."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.answers: list[tuple[int, str | None]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        n = 0
        while not self._stop.is_set():
            status, body, _ = challenge(self.port, f"198.51.100.{n % 20}", key=secrets.token_hex(16))
            self.answers.append((status, (body or {}).get("receipt", {}).get("id") if status == 200 else None))
            n += 1
            self._stop.wait(0.05)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=15)


def record_ids(url: str) -> list[str]:
    """The ids in ``lextools record --database URL --json``, as the director reads them."""
    command = [*lextools_command(), "record", "--json", "--database", url]
    out = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    return [e["id"] for e in json.loads(out.stdout)["challenges"]]


def stream_figures(stream: ChallengeStream, url: str) -> dict[str, Any]:
    ids = record_ids(url)
    answered = [i for s, i in stream.answers if s == 200 and i]
    statuses: dict[str, int] = {}
    for s, _ in stream.answers:
        statuses[str(s)] = statuses.get(str(s), 0) + 1
    return {
        "sent": len(stream.answers),
        "statuses": statuses,
        "answered_in_record_once": sum(ids.count(i) == 1 for i in answered),
        "answered": len(answered),
        "rows_without_answer": len(set(ids) - set(answered)),
        "duplicate_rows": len(ids) - len(set(ids)),
    }


def across_replicas(a: int, b: int) -> dict[str, Any]:
    """A receipt from A valid in B's director feed; a cardbox made on A read and replaced on B."""
    auth = {"Authorization": f"Bearer {DIRECTOR}"}
    _, judged, _ = challenge(a, "198.51.100.200")
    _, feed, _ = call(b, "GET", "/director/challenges.json", headers=auth)
    row = next((r for r in (feed or {}).get("challenges", []) if r["id"] == judged["receipt"]["id"]), None)
    _, made, _ = call(a, "POST", "/v1/cardbox", {"cardbox": CARDBOX})
    code = made["code"]
    read_status, read, _ = call(b, "GET", f"/v1/cardbox/{code}")
    changed = {**CARDBOX, "cards": [{"word": "MESA", "box": 2}]}
    put_status, _, _ = call(b, "PUT", f"/v1/cardbox/{code}", {"cardbox": changed})
    _, again, _ = call(a, "GET", f"/v1/cardbox/{code}")
    return {
        "receipt_of_A_on_B": row["signature"] if row else "absent",
        "cardbox_made_on_A_read_on_B": read_status == 200 and read["cardbox"] == CARDBOX,
        "cardbox_replaced_on_B_read_on_A": put_status == 200 and again["cardbox"] == changed,
    }


def paced(port: int, client: str, per_second: float, seconds: float, source: str = "127.0.0.1") -> list[int]:
    """Challenges from one client at ``per_second`` for ``seconds``: their statuses."""
    statuses, start = [], time.monotonic()
    for i in range(int(per_second * seconds)):
        time.sleep(max(0.0, start + i / per_second - time.monotonic()))
        statuses.append(challenge(port, client, source=source)[0])
    return statuses


def limits(nginx: int, replica: int) -> dict[str, Any]:
    """The rate limits and the lock-out, keyed on the client nginx names (and only when nginx names it)."""
    with ThreadPoolExecutor(21) as pool:
        tables = [pool.submit(paced, nginx, f"203.0.113.{t}", 5, 3) for t in range(20)]
        fast = pool.submit(paced, nginx, "192.0.2.99", 20, 3)
        twenty = [s for f in tables for s in f.result()]
        one_fast = fast.result()
    def director(token: str, client: str) -> int:
        headers = {"Authorization": f"Bearer {token}", "X-Forwarded-For": client}
        return call(nginx, "GET", "/v1/record", headers=headers)[0]

    wrong = [director("wrong-token-0000", "192.0.2.66") for _ in range(10)]
    locked, other = director(DIRECTOR, "192.0.2.66"), director(DIRECTOR, "192.0.2.67")
    # straight to a replica from 127.0.0.5, not a trusted proxy: its X-Forwarded-For is not believed
    spoofed = [challenge(replica, f"198.18.0.{i}", source="127.0.0.5")[0] for i in range(15)]
    return {
        "20_clients_at_5_per_s": {"sent": len(twenty), "429": twenty.count(429), "200": twenty.count(200)},
        "1_client_at_20_per_s": {"sent": len(one_fast), "429": one_fast.count(429), "200": one_fast.count(200)},
        "10_wrong_tokens_statuses": sorted(set(wrong)),
        "that_client_then": locked,
        "another_client_then": other,
        "outside_client_spoofing_xff": {"sent": len(spoofed), "429": spoofed.count(429)},
    }


def database_down(nginx: int, pg: Any) -> dict[str, Any]:
    """PostgreSQL stopped: challenges' status and time, look-ups' latency; started: recorded again."""
    pg.stop()
    try:
        downs = [challenge(nginx, f"203.0.113.{100 + i}") for i in range(10)]
        lookups = sorted(call(nginx, "GET", "/v1/es-fise/words/CASA")[2] for _ in range(500))
        lookup_codes = {call(nginx, "GET", "/v1/es-fise/words/MESA")[0]}
    finally:
        pg.start()
    started, status = time.monotonic(), 0
    while status != 200 and time.monotonic() - started < 30:
        status = challenge(nginx, "203.0.113.250")[0]
        if status != 200:
            time.sleep(0.1)
    return {
        "challenge_statuses_while_down": sorted({s for s, _, _ in downs}),
        "challenge_codes_while_down": sorted({(b or {}).get("error", {}).get("code", "") for _, b, _ in downs}),
        "slowest_challenge_while_down_s": round(max(t for _, _, t in downs), 3),
        "lookup_p99_while_down_ms": round(1000 * lookups[int(len(lookups) * 0.99) - 1], 1),
        "lookup_statuses_while_down": sorted(lookup_codes),
        "recorded_again_after_s": round(time.monotonic() - started, 2) if status == 200 else None,
    }


def verdict(figures: dict[str, Any]) -> bool:
    s, x, lim, down = figures["stream"], figures["across"], figures["limits"], figures["down"]
    return (
        s["answered_in_record_once"] == s["answered"] and s["duplicate_rows"] == 0
        and x["receipt_of_A_on_B"] == "valid" and x["cardbox_made_on_A_read_on_B"]
        and x["cardbox_replaced_on_B_read_on_A"]
        and lim["20_clients_at_5_per_s"]["429"] == 0 and lim["1_client_at_20_per_s"]["429"] > 0
        and lim["10_wrong_tokens_statuses"] == [401] and lim["that_client_then"] == 429
        and lim["another_client_then"] == 200 and lim["outside_client_spoofing_xff"]["429"] > 0
        and down["challenge_statuses_while_down"] == [503] and down["slowest_challenge_while_down_s"] < 2
        and down["lookup_p99_while_down_ms"] <= 100 and down["recorded_again_after_s"] is not None
    )  # fmt: skip
