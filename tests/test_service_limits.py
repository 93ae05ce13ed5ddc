"""What the service starts and keeps has limits (issue 33, rows 15–17): the export child's time-out,
the export cache's generations and bytes, refusals throttled in the log, ``Expect: 100-continue``."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import sys
import threading
import time
from pathlib import Path

import pytest

from lextools.core.errors import BusyError
from service import create_app
from service.api.export import _Child, prune
from tests.conftest import build_small
from tests.test_gunicorn import Gunicorn

# -- row 15: the export child ------------------------------------------------------------------------


def test_a_stopped_child_is_killed_and_reaped() -> None:
    stops = [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSTOP)"]
    child = _Child(timeout=600, stall=0.5)
    with pytest.raises(BusyError):
        child.run(stops)
    assert not _children_of(os.getpid(), "SIGSTOP")  # killed and reaped: no zombie left


def test_a_child_past_its_time_out_is_killed_and_reaped() -> None:
    burns = [sys.executable, "-c", "while True: pass"]  # uses the CPU: only the time-out stops it
    with pytest.raises(BusyError):
        _Child(timeout=1, stall=600).run(burns)
    assert not _children_of(os.getpid(), "while True")
    assert _Child(timeout=600, stall=600).run([sys.executable, "-c", "print(1)"]) == (0, b"")


def _children_of(pid: int, text: str) -> list[int]:
    """The processes whose parent is ``pid`` and whose command line holds ``text`` (zombies too)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_bytes()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        fields = stat.rpartition(b")")[2].split()
        if int(fields[1]) == pid and (text.encode() in cmdline or fields[0] == b"Z"):
            found.append(int(entry.name))
    return found


#: The export child's command word (``lextools export``): the lists' warm-up child, also a worker's,
#: names the cache folder in its command line, and that folder may be called "exports".
_EXPORT = "\0export\0"


@pytest.mark.slow
def test_a_real_server_kills_a_stopped_export_child_and_starts_another(tmp_path: Path) -> None:
    home = tmp_path / "home"
    build_small(home, "es-fise")  # its own lexicon: no export of it is in the session's cache
    server = Gunicorn(home, tmp_path / "gunicorn.log")
    try:
        worker = int(server.wait_for(r"Booting worker with pid: (\d+)").group(1))
        stopped: list[int] = []

        def stop_the_child() -> None:
            deadline = time.monotonic() + 20
            while not stopped and time.monotonic() < deadline:
                for pid in _children_of(worker, _EXPORT):
                    os.kill(pid, signal.SIGSTOP)
                    stopped.append(pid)
                time.sleep(0.005)

        t = threading.Thread(target=stop_the_child)
        t.start()
        status, headers, body = server.request("GET", "/v1/es-fise/export?format=kwg-gaddag")
        t.join()
        assert stopped, "no export child seen"
        assert status == 503 and body["error"]["code"] == "busy" and int(headers["Retry-After"]) > 0
        assert not _children_of(worker, _EXPORT)  # the stopped child was killed and reaped
        status, _, data = server.request("GET", "/v1/es-fise/export?format=kwg-gaddag")
        assert status == 200 and len(data) > 8  # a new child made it
    finally:
        assert server.stop() == 0, server.log


# -- row 16: the export cache --------------------------------------------------------------------------


def _export(cache: Path, folder: str, name: str, size: int, age: float) -> Path:
    path = cache / folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    (cache / folder / f"{name}.manifest.json").write_bytes(b"{}")
    (cache / folder / f".{name}.lock").write_bytes(b"")
    when = time.time() - age
    os.utime(path, (when, when))
    return path


def test_the_cache_keeps_the_current_build_only_and_at_most_its_bytes(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    old = _export(cache, "es-fise-" + "a" * 20, "es-fise.kwg", 1000, age=300)  # a rebuilt lexicon's
    other = _export(cache, "es-fise-mine", "keep.txt", 10, age=300)  # not a folder the service names
    fr_old = _export(cache, "fr-" + "c" * 20, "fr.kwg", 3000, age=200)  # another edition, older
    fr_new = _export(cache, "fr-" + "c" * 20, "fr.kad", 1000, age=100)
    made = _export(cache, "es-fise-" + "b" * 20, "es-fise.kwg", 2000, age=0)
    prune(cache, made, max_bytes=10_000)
    assert not old.parent.exists() and other.exists()  # the edition's other build: gone
    assert fr_old.exists() and fr_new.exists() and made.exists()  # under the bound: kept
    prune(cache, made, max_bytes=3_500)
    assert not fr_old.exists() and not (fr_old.parent / "fr.kwg.manifest.json").exists()  # oldest first
    assert fr_new.exists() and made.exists()
    prune(cache, made, max_bytes=0)
    assert made.exists() and not fr_new.exists()  # never the one just made


def test_a_rebuilt_lexicon_s_exports_replace_the_old_ones(tmp_path: Path) -> None:
    home, cache = tmp_path / "home", tmp_path / "cache"
    build_small(home, "es-fise", ["casa", "cosa"])
    client = create_app({"LEXICONS": home, "TESTING": True, "EXPORT_CACHE": cache, "RELOAD_CHECK_SECONDS": 0})
    folders = []
    for words in (["casa", "cosa", "cosas"], ["casa", "cosa", "casas"], ["casa", "cosa", "pera"]):
        assert client.test_client().get("/v1/es-fise/export?format=kwg").status_code == 200
        folders.append({p.name for p in cache.iterdir()})
        build_small(home, "es-fise", words, force=True)
    assert client.test_client().get("/v1/es-fise/export?format=kwg").status_code == 200
    now = {p.name for p in cache.iterdir()}
    assert len(now) == 1 and all(len(f) == 1 for f in folders) and len(set().union(*folders, now)) == 4


# -- row 17: the log and Expect: 100-continue ------------------------------------------------------


def _first_line(port: int, head: bytes, body: bytes | None = None) -> tuple[bytes, bytes]:
    """Send a request's head, read what comes back first; then (if ``body``) send it and read the rest."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(head)
        first = s.recv(65536)
        rest = b""
        if body is not None:
            s.sendall(body)
            s.shutdown(socket.SHUT_WR)
            while chunk := s.recv(65536):
                rest += chunk
        return first, rest


@pytest.mark.slow
def test_expect_100_continue_over_the_body_limit_gets_413_without_100(lexicon_home: Path, tmp_path: Path) -> None:
    server = Gunicorn(lexicon_home, tmp_path / "gunicorn.log", "--record", str(tmp_path / "challenges.sqlite3"))
    try:
        head = (
            "POST /v1/es-fise/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Content-Length: {}\r\nExpect: 100-continue\r\n\r\n"
        )
        first, _ = _first_line(server.port, head.format(50 * 2**20).encode())
        assert first.startswith(b"HTTP/1.1 413 ") and b"100 Continue" not in first, first
        assert b'"code":"body_too_large"' in first.replace(b" ", b"") and b"connection: close" in first.lower()
        body = b'{"words":["casa"]}'
        first, rest = _first_line(server.port, head.format(len(body)).encode(), body)
        assert first.startswith(b"HTTP/1.1 100 Continue"), first  # within the limit: invited as before
        assert b" 200 " in first + rest and b'"valid":true' in (first + rest).replace(b" ", b"")
    finally:
        assert server.stop() == 0, server.log


@pytest.mark.slow
def test_challenges_refused_while_the_record_is_locked_are_throttled_in_the_log(
    lexicon_home: Path, tmp_path: Path
) -> None:
    record = tmp_path / "challenges.sqlite3"
    server = Gunicorn(lexicon_home, tmp_path / "gunicorn.log", "--record", str(record))
    play, json_type = b'{"words":["casa"],"reveal":false}', {"Content-Type": "application/json"}
    try:
        assert server.request("POST", "/v1/es-fise/challenge", play, json_type)[0] == 200
        holder = sqlite3.connect(record, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        try:
            # 6: one more than Throttle lets through a minute (each waits LOCK_WAIT_SECONDS for the lock)
            statuses = [server.request("POST", "/v1/es-fise/challenge", play, json_type)[0] for _ in range(6)]
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert statuses == [503] * 6
        lines = [line for line in server.log.splitlines() if "record_error" in line]
        assert len(lines) == 5, server.log  # Throttle's per_minute, as the malformed bodies'
        assert "Traceback" not in server.log
        assert server.request("POST", "/v1/es-fise/challenge", play, json_type)[0] == 200
    finally:
        assert server.stop() == 0, server.log
