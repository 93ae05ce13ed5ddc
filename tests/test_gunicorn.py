"""A real gunicorn (`lextools serve`) on 127.0.0.1: started, queried over HTTP, stopped."""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow


class Gunicorn:
    """`lextools serve` in a child process, with its log read line by line as it comes."""

    def __init__(self, lexicons: Path, *options: str) -> None:
        cmd = [sys.executable, "-c", "from lextools.cli import main; main()", "serve",
               "--port", "0", "--workers", "1", "--lexicons", str(lexicons), *options]  # fmt: skip
        self.proc = subprocess.Popen(
            cmd, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"}
        )
        self.log: list[str] = []
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        # Port 0: the OS picks a free port and gunicorn logs the one it got.
        self.port = int(self.wait_for(r"Listening at: http://127\.0\.0\.1:(\d+)").group(1))

    def _pump(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self._lines.put(line)

    def wait_for(self, pattern: str, timeout: float = 30) -> re.Match[str]:
        """The first log line (already seen or still to come) matching ``pattern``."""
        for line in self.log:
            if m := re.search(pattern, line):
                return m
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self._lines.get(timeout=0.5)
            except queue.Empty:
                assert self.proc.poll() is None, "gunicorn exited:\n" + "".join(self.log)
                continue
            self.log.append(line)
            if m := re.search(pattern, line):
                return m
        raise AssertionError(f"no log line matching {pattern!r}:\n" + "".join(self.log))

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request(method, path, body=body, headers=headers or {})  # the path goes out byte for byte
            r = conn.getresponse()
            data = r.read()
            is_json = r.getheader("Content-Type", "").startswith("application/json")
            return r.status, dict(r.getheaders()), json.loads(data) if is_json else data
        finally:
            conn.close()

    def stop(self) -> int:
        """SIGTERM: gunicorn stops its workers gracefully and exits 0."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise


def wait_until_up(server: Gunicorn, path: str = "/healthz") -> None:
    deadline = time.monotonic() + 30
    while True:  # the worker boots after the master listens
        try:
            if server.request("GET", path)[0] == 200:
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@pytest.fixture()
def gunicorn(lexicon_home: Path, tmp_path: Path) -> Iterator[Gunicorn]:
    server = Gunicorn(lexicon_home, "--record", str(tmp_path / "challenges.sqlite3"))
    try:
        wait_until_up(server)
        yield server
    finally:
        if server.proc.poll() is None:
            assert server.stop() == 0, "".join(server.log)


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
    assert status == 200 and headers["Transfer-Encoding"] == "chunked"  # streamed
    assert len(headers["ETag"]) == 66  # "sha256"

    assert gunicorn.stop() == 0
    assert "Traceback" not in "".join(gunicorn.log)


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
    cmd = [sys.executable, "-c", "from lextools.cli import main; main()", *args]
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=60, check=False)


def test_kiosk_on_a_real_server(lexicon_home: Path, tmp_path: Path) -> None:
    """``lextools serve --kiosk es-fise``: the judge and its challenge only; receipts verify; no forgery."""
    record = tmp_path / "challenges.sqlite3"
    server = Gunicorn(lexicon_home, "--kiosk", "es-fise", "--record", str(record), "--judge-clear", "7")
    try:
        wait_until_up(server, "/judge")
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
        assert "casa dame" in ok.stdout
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
        assert server.stop() == 0, "".join(server.log)
