"""A real PostgreSQL server for the tests (and bench/scale_out.py): Debian's ``postgresql`` package
(scripts/install-test-programs), a cluster made by ``initdb`` in a temporary directory, run by an
unprivileged user (``nobody`` when the tests run as root: PostgreSQL refuses to run as root), listening
on 127.0.0.1 on a free port and on a unix socket in the same directory, stopped at the end. No mocks:
the stores talk to it as they would to a federation's server.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

#: The user the server runs as when the tests run as root.
UNPRIVILEGED = "nobody"


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's binaries (/usr/lib/postgresql/<version>/bin), or None."""
    root = Path("/usr/lib/postgresql")
    found = sorted(
        (p for p in root.glob("*/bin") if (p / "initdb").exists() and p.parent.name.isdigit()),
        key=lambda p: int(p.parent.name),
    )
    return found[-1] if found else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One cluster: :meth:`start` makes and starts it, :meth:`stop` stops it (its files stay until
    :meth:`remove`), :meth:`start` again starts the same cluster (a server restarted mid-run)."""

    def __init__(self, bin_dir: Path, base: Path) -> None:
        self.bin = bin_dir
        self.base = base
        self.data = base / "data"
        self.port = free_port()
        self.user = UNPRIVILEGED if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [str(a) for a in args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, check=check, capture_output=True, text=True, cwd=self.base)

    def init(self) -> None:
        self.base.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.base, self.user)
        self._run(self.bin / "initdb", "-D", self.data, "-U", "lextools", "--auth=trust", "-E", "UTF8", "--no-sync")

    def start(self) -> None:
        options = f"-k {self.base} -h 127.0.0.1 -p {self.port} -c fsync=off -c max_connections=200"
        self._run(
            self.bin / "pg_ctl", "-D", self.data, "-l", self.base / "log", "-o", options, "-w", "-t", "30", "start"
        )

    def stop(self) -> None:
        self._run(self.bin / "pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop", check=False)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://lextools@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new, empty database on the server; its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def remove(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)


@contextlib.contextmanager
def running_postgres() -> Iterator[PostgresServer]:
    """A started cluster in a temporary directory, stopped and removed at the end."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL is not installed: run scripts/install-test-programs (as root)")
    base = Path(tempfile.mkdtemp(prefix="lextools-pg-"))
    os.chmod(base, 0o755)  # the unprivileged server user must reach its cluster
    server = PostgresServer(bin_dir, base / "cluster")
    try:
        server.init()
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(base, ignore_errors=True)


def wait_until(condition: object, seconds: float = 10.0) -> bool:
    """Poll ``condition()`` until it is true or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False
