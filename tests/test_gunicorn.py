"""A real gunicorn (`lextools serve`) on 127.0.0.1: started, queried over HTTP, stopped."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.harness import fetch, send_raw, start_service, stop_service, workers_booted
from service.worker_renewal import IDLE_S, RENEWED
from tests.conftest import build_small

pytestmark = pytest.mark.slow


class Gunicorn:
    """`lextools serve` started by the benchmarks' harness (bench/harness.py), its log in a file.

    ``options`` go to ``lextools serve``; ``ready`` is the path that answers 200 once it is up
    (a kiosk serves no ``/healthz``).
    """

    def __init__(self, lexicons: Path, log: Path, *options: str, ready: str = "/healthz") -> None:
        # port 0: the one gunicorn logs
        self.service = start_service(lexicons, log, workers=1, options=options, ready=ready)
        self.port = self.service.port

    @property
    def log(self) -> str:
        return self.service.log.read_text(errors="replace")

    def wait_for(self, pattern: str, timeout: float = 30) -> re.Match[str]:
        """The first log line (already written or still to come) matching ``pattern``."""
        deadline = time.monotonic() + timeout
        while True:
            if m := re.search(pattern, self.log, re.M):
                return m
            assert self.service.proc.poll() is None, "gunicorn exited:\n" + self.log
            if time.monotonic() > deadline:
                raise AssertionError(f"no log line matching {pattern!r}:\n" + self.log)
            time.sleep(0.1)

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], Any]:
        status, got, data = fetch(self.port, method, path, body, headers)  # the path goes out byte for byte
        is_json = got.get("Content-Type", "").startswith("application/json")
        return status, got, json.loads(data) if is_json else data

    def stop(self) -> int | None:
        """SIGTERM: gunicorn stops its workers gracefully and exits 0."""
        stop_service(self.service)
        return self.service.proc.returncode


@pytest.fixture()
def gunicorn(lexicon_home: Path, tmp_path: Path) -> Iterator[Gunicorn]:
    server = Gunicorn(lexicon_home, tmp_path / "gunicorn.log", "--record", str(tmp_path / "challenges.sqlite3"))
    try:
        yield server
    finally:
        if server.service.proc.poll() is None:
            assert server.stop() == 0, server.log


def test_real_gunicorn_serves_validates_challenges_and_stops(gunicorn: Gunicorn) -> None:
    status, headers, body = gunicorn.request("GET", "/v1/es-fise/words/chiquillo")
    assert status == 200 and headers["Server"].startswith("gunicorn")
    assert body["valid"] is True and len(body["tiles"]) == 7

    play = b'{"words":["casa","dame"],"reveal":false}'
    status, _, body = gunicorn.request("POST", "/v1/es-fise/challenge", play, {"Content-Type": "application/json"})
    assert status == 200 and body["acceptable"] is False and "results" not in body
    assert "DAME" not in json.dumps(body).upper()
    # As `curl -d` sends it (a form type): refused, the challenge takes JSON only.
    assert gunicorn.request("POST", "/v1/es-fise/challenge", play)[0] == 415

    # Raw bytes the Flask test client cannot send: invalid UTF-8 and broken percent-encoding.
    status, _, body = gunicorn.request("GET", "/v1/es-fise/words/%FF")
    assert status == 400 and body["error"]["code"] == "bad_request"
    status, _, body = gunicorn.request("GET", "/v1/es-fise/words/%zz")
    assert status == 422 and body["error"]["code"] == "unspellable"
    status, _, body = gunicorn.request("GET", "/v1/es-fise/words/%C3%B1and%C3%BA")
    assert status == 200 and body["word"] == "ÑANDU"
    assert gunicorn.request("GET", "/v1/..%2F..%2Fetc/words/x")[0] == 404

    status, headers, _ = gunicorn.request("GET", "/v1/es-fise/export")
    assert status == 200 and int(headers["Content-Length"]) > 0  # sent from the file made once, not chunked
    assert len(headers["ETag"]) == 66  # "sha256"

    assert gunicorn.stop() == 0
    assert "Traceback" not in gunicorn.log


def test_lexicons_are_loaded_before_the_workers_fork(gunicorn: Gunicorn) -> None:
    """Loaded in the arbiter, the lexicons are shared by the workers, not loaded by each."""
    loaded = gunicorn.wait_for(r"lexicons loaded before the workers start: (.*)$").group(1)
    assert loaded.split(", ") == ["en", "es-fise", "es-mattel2021", "es-na103", "fr"]
    booted = gunicorn.log.index("Booting worker")
    assert gunicorn.log.index("lexicons loaded before the workers start") < booted


def test_the_start_up_log_ends_with_the_pages_to_open(gunicorn: Gunicorn) -> None:
    """What a person opens, at the port the server really took (port 0 asked for any), before it serves."""
    base = f"http://127.0.0.1:{gunicorn.port}"
    pages = re.findall(r"open (\S+)  \(", gunicorn.wait_for(r"the JSON API: .*$").string)
    assert pages == [f"{base}/search", f"{base}/study", f"{base}/judge"]  # no director token: no director page
    assert f"the JSON API: {base}/v1/openapi.json" in gunicorn.log
    assert gunicorn.log.index("the JSON API") < gunicorn.log.index("Booting worker")
    for page in pages:
        assert gunicorn.request("GET", page.removeprefix(base))[0] == 200


def test_a_kiosk_names_its_judge_and_the_director_page_only(
    lexicon_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEXTOOLS_DIRECTOR_TOKEN", "k3y-for-the-hall-9f2c41d07ab5e6")  # the server's environment
    record = str(tmp_path / "challenges.sqlite3")
    server = Gunicorn(lexicon_home, tmp_path / "kiosk.log", "--kiosk", "es-fise", "--record", record, ready="/judge")
    try:
        text = server.wait_for(r"open \S+/director").string
        assert re.findall(r"open \S+/(\w+)  \(", text) == ["judge", "director"]
        assert "the JSON API" not in text
    finally:
        assert server.stop() == 0, server.log


def test_clients_that_send_a_byte_at_a_time_stall_nothing(gunicorn: Gunicorn) -> None:
    """Slowloris: 16 connections in the middle of their headers and 16 in the middle of a POST body,
    against one worker, while a look-up and /healthz still answer (a thread per request would not:
    gthread's 2 threads hang on the first two of them)."""
    slow = []
    try:
        for n in range(32):
            s = socket.create_connection(("127.0.0.1", gunicorn.port), timeout=5)
            if n % 2:
                s.sendall(b"POST /v1/es-fise/check HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
            else:
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: a")
            slow.append(s)
        for s in slow:  # a byte more each: still nowhere near the end
            s.sendall(b"a" if slow.index(s) % 2 == 0 else b" ")
        assert gunicorn.request("GET", "/healthz")[0] == 200  # the client's timeout is 10 s
        status, _, body = gunicorn.request("GET", "/v1/es-fise/words/casa")
        assert status == 200 and body["valid"] is True
    finally:
        for s in slow:
            s.close()


def test_a_client_with_many_requests_waiting_does_not_hold_the_worker(gunicorn: Gunicorn) -> None:
    """One worker; a keep-alive client sends 300 look-ups at once (pipelined), then another client
    sends one: the other is answered after a few of the 300, not after all of them (each answer
    lets the worker's other connections run: service.server's post_request hook)."""
    host = f"Host: 127.0.0.1:{gunicorn.port}\r\n".encode()
    request = b"GET /v1/es-fise/words/casa HTTP/1.1\r\n" + host + b"\r\n"
    with socket.create_connection(("127.0.0.1", gunicorn.port), timeout=10) as busy:
        busy.sendall(request * 300)
        with socket.create_connection(("127.0.0.1", gunicorn.port), timeout=10) as other:
            other.sendall(b"GET /v1/es-fise/words/casa HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n")
            answer = b""
            while chunk := other.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200")
        busy.setblocking(False)
        received = b""
        with contextlib.suppress(BlockingIOError):
            while chunk := busy.recv(1 << 20):
                received += chunk
        assert received.count(b"HTTP/1.1 200") < 150  # all 300 (or all but one) without the hook


class _Socket:
    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.writes.append(bytes(data))


class _Request:
    version = (1, 1)
    method = "GET"
    headers: tuple[tuple[str, str], ...] = ()

    def should_close(self) -> bool:
        return False


@pytest.mark.parametrize(
    ("headers", "body", "writes"),
    [
        ([("Content-Length", "11")], [b'{"ok":true}'], 1),  # a look-up: head and body in one write
        ([], [b"CASA\n", b"CHICO\n"], 3),  # a stream (chunked): the head rides with the first chunk only
        ([("Content-Length", "0")], [], 1),  # no body: gunicorn sends the head on close, as before
    ],
)
def test_a_response_head_leaves_with_its_first_body_bytes(
    headers: list[tuple[str, str]], body: list[bytes], writes: int
) -> None:
    """A replica killed between head and body would hand nginx a response it cannot retry."""
    from gunicorn.config import Config

    from service.server import OneWriteResponse

    sock = _Socket()
    response = OneWriteResponse(_Request(), sock, Config())
    response.start_response("200 OK", [("Content-Type", "text/plain"), *headers])
    for chunk in body:
        response.write(chunk)
    response.close()
    assert len(sock.writes) == writes
    assert sock.writes[0].startswith(b"HTTP/1.1 200 OK\r\n")
    wire = b"".join(sock.writes)
    assert all(chunk in wire for chunk in body)
    if body:
        assert sock.writes[0].endswith(body[0] + (b"\r\n" if not headers else b""))


def lextools(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-c", "from lextools.cli.main import main; main()", *args]
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=60, check=False)


def test_kiosk_on_a_real_server(lexicon_home: Path, tmp_path: Path) -> None:
    """``lextools serve --kiosk es-fise``: the judge and its challenge only; receipts verify; no forgery."""
    record = tmp_path / "challenges.sqlite3"
    server = Gunicorn(
        lexicon_home,
        tmp_path / "gunicorn.log",
        "--kiosk",
        "es-fise",
        "--record",
        str(record),
        "--judge-clear",
        "7",
        ready="/judge",
    )
    try:
        for path in ("/study", "/", "/v1/es-fise/words/casa", "/v1/editions", "/healthz", "/v1/openapi.json"):
            assert server.request("GET", path)[0] == 404, path
        status, _, page = server.request("GET", "/judge")
        html = page.decode()
        checksum = json.loads((lexicon_home / "es-fise.json").read_text())["checksum"]
        assert status == 200 and checksum[:12] in html and 'data-clear-ms="7000"' in html
        assert 'id="edition" value="es-fise"' in html and "<select" not in html and "<nav" not in html
        json_type = {"Content-Type": "application/json"}
        body = b'{"words":["casa","dame"]}'
        assert server.request("POST", "/v1/fr/challenge", body, json_type)[0] == 404  # not the kiosk's edition

        status, _, answer = server.request("POST", "/v1/es-fise/challenge", body, json_type)
        assert status == 200 and answer["acceptable"] is False
        receipt = json.dumps(answer["receipt"])
        ok = lextools("receipt", "verify", "--record", str(record), stdin=receipt)
        assert ok.returncode == 0, ok.stderr
        assert "signed verdict: NOT ACCEPTABLE" in ok.stdout and '"casa" "dame"' in ok.stdout
        i = receipt.index(answer["receipt"]["signature"]) + 5
        altered = receipt[:i] + ("0" if receipt[i] != "0" else "1") + receipt[i + 1 :]
        bad = lextools("receipt", "verify", "--record", str(record), altered)
        assert bad.returncode == 1 and "not valid" in bad.stderr

        # Another site's page posting a "simple" request: refused, and nothing recorded.
        forged = {"Content-Type": "text/plain", "Origin": "https://evil.example"}
        status, _, error = server.request("POST", "/v1/es-fise/challenge", b'{"words":["zzz"]}', forged)
        assert status == 403 and error["error"]["code"] == "foreign_origin"
        shown = lextools("record", "--record", str(record), "--json")
        assert [e["words"] for e in json.loads(shown.stdout)["challenges"]] == [["casa", "dame"]]
    finally:
        assert server.stop() == 0, server.log


def test_the_director_reads_a_real_kiosks_record_with_the_token(
    lexicon_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``LEXTOOLS_DIRECTOR_TOKEN=… lextools serve --kiosk es-fise``: /healthz, /v1/record and the
    director page answer with the token (401 without); the page lists the table's challenge."""
    monkeypatch.setenv("LEXTOOLS_DIRECTOR_TOKEN", "real-t0ken-for-the-kiosk")
    record = tmp_path / "challenges.sqlite3"
    server = Gunicorn(lexicon_home, tmp_path / "gunicorn.log", "--kiosk", "es-fise", "--record", str(record),
                      ready="/judge")  # fmt: skip
    try:
        director = {"Authorization": "Bearer real-t0ken-for-the-kiosk"}
        for path in ("/healthz", "/v1/record", "/director", "/director/record.csv"):
            assert server.request("GET", path)[0] == 401, path
            assert server.request("GET", path, headers=director)[0] == 200, path
        assert server.request("GET", "/v1/es-fise/words/casa", headers=director)[0] == 404
        body = b'{"words":["casa","dame"]}'
        status, _, answer = server.request("POST", "/v1/es-fise/challenge", body, {"Content-Type": "application/json"})
        assert status == 200
        status, _, page = server.request("GET", "/director", headers=director)
        html = page.decode()
        assert status == 200 and answer["receipt"]["id"] in html and "casa dame" in html and "NO ACEPTABLE" in html
        status, _, text = server.request("GET", "/director/record.csv", headers=director)
        assert status == 200 and answer["receipt"]["id"] in text.decode()
    finally:
        assert server.stop() == 0, server.log


def test_a_dispute_is_settled_from_the_8_characters_a_real_kiosk_shows(
    lexicon_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kiosk loads only its edition; a challenge made at it is verified by the start of its id from
    the record alone (exit 0 and the signed verdict), 1 once the row is edited, 3 for an id it has not."""
    monkeypatch.setenv("LEXTOOLS_DIRECTOR_TOKEN", "hall-t0ken-for-the-dispute")
    record = tmp_path / "challenges.sqlite3"
    server = Gunicorn(lexicon_home, tmp_path / "gunicorn.log", "--kiosk", "es-fise", "--record", str(record),
                      ready="/judge")  # fmt: skip
    try:
        assert server.wait_for(r"lexicons loaded before the workers start: (.*)$").group(1) == "es-fise"
        body = b'{"words":["casa","dame"],"reveal":false}'
        status, _, answer = server.request("POST", "/v1/es-fise/challenge", body, {"Content-Type": "application/json"})
        assert status == 200 and answer["acceptable"] is False
        director = {"Authorization": "Bearer hall-t0ken-for-the-dispute"}
        status, _, feed = server.request("GET", "/director/challenges.json", headers=director)
        assert status == 200 and [(c["id"], c["signature"]) for c in feed["challenges"]] == [
            (answer["receipt"]["id"], "valid")
        ]
    finally:
        assert server.stop() == 0, server.log
    shown = answer["receipt"]["id"][:8]  # "Recibo b7b6202a" under the verdict
    ok = lextools("receipt", "verify", "--record", str(record), "--id", shown)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.splitlines()[1:] == [
        "signed verdict: NOT ACCEPTABLE", 'words as typed (control characters escaped): "casa" "dame"'
    ]  # fmt: skip
    with sqlite3.connect(record) as db:  # the verdict turned round in the record after the game
        db.execute("UPDATE challenges SET acceptable = 1 WHERE id = ?", (answer["receipt"]["id"],))
    db.close()
    altered = lextools("receipt", "verify", "--record", str(record), "--id", shown)
    assert altered.returncode == 1 and "the record was altered" in altered.stderr
    unknown = "0" * 8 if not shown.startswith("0") else "f" * 8
    assert lextools("receipt", "verify", "--record", str(record), "--id", unknown).returncode == 3


def test_a_rebuilt_lexicon_reaches_the_preloaded_workers(tmp_path: Path) -> None:
    """Lexicons loaded before the fork are still swapped for a rebuild, without a restart."""
    home = tmp_path / "lexicons"
    build_small(home, "es-fise", ["casa", "cosa"])
    server = Gunicorn(home, tmp_path / "gunicorn.log", "--record", str(tmp_path / "challenges.sqlite3"))
    try:
        status, headers, body = server.request("GET", "/v1/es-fise/words/perro")
        assert status == 200 and body["valid"] is False
        before = headers["X-Lexicon-Checksum"]
        build_small(home, "es-fise", ["casa", "cosa", "perro"])
        deadline = time.monotonic() + 15
        while True:
            status, headers, body = server.request("GET", "/v1/es-fise/words/perro")
            if headers["X-Lexicon-Checksum"] != before:
                break
            assert time.monotonic() < deadline, "the rebuilt lexicon was never served:\n" + server.log
            time.sleep(0.2)
        assert status == 200 and body["valid"] is True
    finally:
        assert server.stop() == 0, server.log


def _raw(port: int, request: bytes) -> tuple[int, dict[str, Any]]:
    """Send ``request`` as it is (no client library would send it): its status and JSON body."""
    status, head, body = send_raw(port, request, timeout=10)
    assert b"Content-Type: application/json" in head, head + body[:300]
    return status, json.loads(body)


def test_requests_gunicorn_cannot_read_get_the_json_shape_and_little_log(gunicorn: Gunicorn) -> None:
    """Broken chunked bodies, raw bytes in the request line and a foreign Host name: a 4xx in the one
    JSON error shape each, no traceback, and the log a few lines however many there are."""
    broken_chunks = (
        b"POST /v1/es-fise/check HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
        b'Connection: close\r\n\r\n5\r\n["a"]XX\r\n0\r\n\r\n'
    )
    bad_size = broken_chunks.replace(b"5\r\n", b"zz\r\n")
    for _ in range(40):
        for request in (broken_chunks, bad_size):
            status, body = _raw(gunicorn.port, request)
            assert status == 400 and body["error"]["code"] == "bad_request", body
    status, body = _raw(gunicorn.port, b"GET /v1/es-fise/words/\xff\xfe HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert status == 400 and body["error"]["code"] == "bad_request" and "\\xff" in body["error"]["message"]
    rebinding = {"Host": f"evil.example:{gunicorn.port}", "Origin": f"http://evil.example:{gunicorn.port}"}
    for path in ("/v1/es-fise/words/casa", "/healthz"):
        status, _, body = gunicorn.request("GET", path, headers=rebinding)
        assert status == 400 and body["error"]["code"] == "host_not_allowed"
    play = b'{"words":["casa"]}'
    status, _, body = gunicorn.request(
        "POST", "/v1/es-fise/challenge", play, {**rebinding, "Content-Type": "application/json"}
    )
    assert status == 400 and body["error"]["code"] == "host_not_allowed"
    status, _, body = gunicorn.request("GET", "/v1/es-fise/words/casa")  # by its address: answered
    assert status == 200 and body["valid"] is True
    log = gunicorn.log
    assert "Traceback" not in log
    assert log.count("malformed request body") <= 5 and len(log) < 10_000, log


def test_a_grown_worker_is_replaced_once_idle_and_the_service_goes_on(lexicon_home: Path, tmp_path: Path) -> None:
    """A worker whose memory grew past --renew-mb is replaced once no request came for IDLE_S seconds:
    it logs why, the arbiter boots a fresh one, and the next request is answered (issue 33, row 3)."""
    record = tmp_path / "challenges.sqlite3"  # not beside the session's lexicons
    server = Gunicorn(lexicon_home, tmp_path / "gunicorn.log", "--renew-mb", "0.01", "--record", str(record))
    try:
        first = int(server.wait_for(r"Booting worker with pid: (\d+)").group(1))
        for _ in range(3):
            assert server.request("GET", "/v1/es-fise/words/chiquillo")[0] == 200
        renewed = server.wait_for(rf"worker (\d+) grew [\d.]+ MB and {RENEWED}", timeout=IDLE_S + 20)
        assert int(renewed.group(1)) == first
        fresh = server.wait_for(rf"Booting worker with pid: (?!{first}\b)(\d+)").group(1)
        status, _, body = server.request("GET", "/v1/es-fise/words/chiquillo")
        assert (status, body["valid"]) == (200, True)
        assert workers_booted(server.log) == 1, f"worker {fresh} counted as a worker killed"
        assert server.stop() == 0
        assert "Traceback" not in server.log
    finally:
        if server.service.proc.poll() is None:
            server.stop()
