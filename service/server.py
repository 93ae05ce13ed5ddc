"""Running the app under gunicorn, from Python: ``lextools serve`` and the benchmark use this.

:class:`Server` is a ``gunicorn.app.base.BaseApplication`` that takes a WSGI app factory instead of
a module path, so the same arbiter, workers and settings serve the Flask app or, in the benchmark,
a bare WSGI app. The factory runs once, in the arbiter, before it forks the workers
(``preload_app``): ``lextools serve`` loads every lexicon there (a kiosk only its edition's), so the
workers share one copy of everything built at start-up instead of each building its own (see
``service/http/lexicons.py``).
"""

from __future__ import annotations

import errno
import gc
import logging
import socket
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from gunicorn.app.base import BaseApplication
from gunicorn.http import wsgi as gunicorn_wsgi

from lextools.core.edition import edition_names
from lextools.core.errors import LexiconError, path_text
from lextools.core.lexicon import default_home, read_metadata
from lextools.core.memory import give_back_memory
from lextools.core.messages import message
from lextools.features.record import Record
from service.http import wire
from service.http.lexicons import EXTENSION
from service.worker_renewal import RENEW_MB, kept, start_watch

WSGIApp = Callable[..., Any]


class _Collect:
    """Stands in for the socket while one write's bytes are gathered (gunicorn writes with ``sendall``)."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.parts.append(bytes(data))


class OneWriteResponse(gunicorn_wsgi.Response):
    """gunicorn's response, but the head goes out in the same ``sendall`` as the first body bytes.

    gunicorn writes the status line and headers, then the body, in two system calls. A replica that
    dies between them (a crash, a SIGKILL, the OOM killer) leaves its load balancer holding a head
    without its body: nginx has already passed the head on and can no longer retry the request
    elsewhere, so the client sees a broken response (``bench/scale_out.py`` provokes it).
    Sent as one write, a small answer — every look-up — reaches the balancer whole or not at all,
    and "not at all" is retried on another replica. Responses without a body, sendfile and later
    chunks are left to gunicorn.
    """

    sock: Any  # set by gunicorn's Response

    def write(self, arg: bytes) -> None:
        if self.headers_sent or not arg:
            super().write(arg)
            return
        sock, collect = self.sock, _Collect()
        self.sock = collect
        try:
            super().write(arg)
        finally:
            self.sock = sock
        sock.sendall(b"".join(collect.parts))


def _init_worker(worker: Any) -> None:
    """gunicorn ``post_worker_init`` hook: the worker's requests get :class:`OneWriteResponse`, and
    the requests it cannot parse the JSON error shape (service/http/wire.py); the worker watches its
    own size, to be replaced when it grew and is idle (service/worker_renewal.py)."""
    gunicorn_wsgi.Response = OneWriteResponse  # wsgi.create() looks the class up here on every request
    wire.install(worker)
    worker.renewal = start_watch(worker, getattr(worker.app, "renew_mb", RENEW_MB), partial(kept, worker.wsgi))


def _request_starts(worker: Any, req: Any) -> None:
    """gunicorn ``pre_request`` hook: the worker is busy (worker_renewal); no 100 Continue for a body
    no route takes (wire)."""
    if getattr(worker, "renewal", None) is not None:
        worker.renewal.request_started()
    wire.refuse_continue_over_limit(worker, req)


def _start_worker(started: Callable[[], None], worker: Any) -> None:
    """``lextools serve``'s ``post_worker_init``: :func:`_init_worker`, then ``started()`` — the lists
    that teach start being made in the background, once for all workers, at the lowest priority
    (service/api/study_lists.py): the worker answers at once, nothing waits for them."""
    _init_worker(worker)
    started()


def _take_turns(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    """gunicorn ``post_request`` hook: after each answer, the connection lets the worker's others run
    (and the worker's renewal watch counts the request done).

    A keep-alive client whose next request is already in the socket is read without waiting, so one
    greenlet could answer its client again and again while the other connections' requests sat in
    the event loop: with 16 connections, half the look-ups took 0.5 ms and one in ten 0.5-1.5 s
    (bench/load.py, 2 s time-outs). One turn of the loop per answer shares the worker fairly."""
    from gevent import sleep  # noqa: PLC0415  (gevent is patched in the arbiter before the app loads)

    if getattr(worker, "renewal", None) is not None:
        worker.renewal.request_done()
    sleep(0)


#: gevent workers: each connection is a greenlet, and reading a request waits in the event loop, so
#: clients that send their headers or body a byte a second (slowloris) hold nothing but a greenlet
#: each. gthread reads the whole request in one of its few threads once the first byte is in: a
#: handful of such clients stall all its threads (bench/hostile_clients.py). The service answers from
#: memory and never waits on anything but its clients, so one thread per worker is enough as long
#: as no request keeps the CPU long: searches and anagrams stop after SEARCH_BUDGET_MS and pause
#: every few milliseconds (lextools.core.budget), which under gevent lets the look-ups waiting in the
#: event loop run (bench/hostile_clients.py). ``worker_connections`` bounds the greenlets.
DEFAULTS: dict[str, Any] = {
    "worker_class": "gevent",
    "worker_connections": 1000,
    "timeout": 30,
    "keepalive": 5,
    "accesslog": None,
    "errorlog": "-",
    "loglevel": "info",
    "proc_name": "lextools",
    "control_socket_disable": True,  # gunicorn 24+: one fixed socket path would clash between servers
    "preload_app": True,  # build the app (and load the lexicons) once, before the fork: workers share it
    "post_worker_init": _init_worker,
    "pre_request": _request_starts,
    "post_request": _take_turns,
}


class Server(BaseApplication):
    """gunicorn with our settings, serving whatever ``factory()`` returns (called once, in the arbiter)."""

    def __init__(
        self, factory: Callable[[], WSGIApp], options: dict[str, Any], renew_mb: float = RENEW_MB
    ) -> None:
        self.factory = factory
        self.renew_mb = renew_mb  # read by each worker (_init_worker); 0: never renewed
        self.options = {**DEFAULTS, **options}
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings:  # a setting this gunicorn version lacks is skipped
                self.cfg.set(key, value)

    def load(self) -> WSGIApp:
        # The service's loggers (the challenge record among them) write where gunicorn's error log does.
        # The library's log (a probability ranking built) too.
        gunicorn_log = logging.getLogger("gunicorn.error")
        for name in ("lextools.service", "lextools"):
            log = logging.getLogger(name)
            log.handlers = list(gunicorn_log.handlers)
            log.propagate = False
            if log.level == logging.NOTSET:
                log.setLevel(logging.INFO)
        app = self.factory()
        if self.cfg.preload_app:
            # Objects the workers inherit stay out of the collector's sweeps: a sweep writes to every
            # object it visits, which would copy their pages into each worker.
            gc.collect()
            gc.freeze()
            # The heap pages loading freed go back to the system now, in the arbiter: inherited, each
            # worker would give them back on its own later (its first large job ends with a trim),
            # leaving the arbiter alone with them, 10-15 MB of PSS that nothing used.
            give_back_memory()
        return app


def lexicon_summary(home: Path) -> str:
    """One line for the start-up log: which editions this directory can serve."""
    parts = []
    for name in edition_names():
        try:
            parts.append(f"{name} ({read_metadata(home, name).get('words', '?')} words)")
        except LexiconError as e:  # lexicon_not_found, corrupt_lexicon
            parts.append(f"{name} ({e.code})")
    return f"lexicons in {home}: " + ", ".join(parts)


class CannotServeError(LexiconError, code="cannot_serve"):
    """``lextools serve`` cannot start: nothing to serve, or the address is taken (exit 2, one line)."""


def check_lexicons(home: Path, kiosk: str | None) -> None:
    """A kiosk needs its edition's lexicon; a plain server at least one lexicon (it serves every
    edition it finds, and answers 503 for the others). Reads only: run before anything is created."""
    if kiosk is not None:
        read_metadata(home, kiosk)  # lexicon_not_found, corrupt_lexicon: one line naming the path
        return
    names = edition_names()
    for name in names:
        try:
            read_metadata(home, name)
        except LexiconError:
            continue
        return
    raise CannotServeError(message("serve_no_lexicons", home=path_text(home), editions=", ".join(names)))


def check_port(host: str, port: int) -> None:
    """Bind the address for a moment, as gunicorn will (``SO_REUSEADDR``), and let it go: a port in
    use is one line now, not five "Connection in use" from gunicorn and exit 1. Port 0 is always free."""
    if port == 0:
        return
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except socket.gaierror as e:
        raise CannotServeError(message("serve_cannot_listen", host=host, port=port, cause=e.strerror)) from None
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise CannotServeError(message("serve_port_taken", host=host, port=port)) from None
        raise CannotServeError(message("serve_cannot_listen", host=host, port=port, cause=e.strerror)) from None


def prepare_record(record: Record) -> None:
    """Create the challenge record and the server secret in the arbiter, before the workers fork (in
    a shared database: its schema, migrated, on a connection closed before the fork)."""
    record.prepare()


def _preloaded(app: Any) -> WSGIApp:
    """``app`` with its lexicons loaded: gunicorn calls this in the arbiter (``preload_app``)."""
    loaded = app.extensions[EXTENSION].preload(only=app.config.get("KIOSK"))  # a kiosk judges with one
    log = logging.getLogger("gunicorn.error")
    log.info("lexicons loaded before the workers start: %s", ", ".join(loaded) or "none")
    return app


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: int = 2,
    lexicons: Path | None = None,
    app_config: dict[str, Any] | None = None,
    renew_mb: float = RENEW_MB,
) -> None:
    """Serve the Flask app until interrupted (SIGINT/SIGTERM stop gunicorn gracefully).

    ``app_config`` goes to :func:`service.app.create_app` (``KIOSK``, ``JUDGE_CLEAR_SECONDS``, ``RECORD``).
    A worker whose private memory grew by ``renew_mb`` MB is replaced when idle (0: never; see
    service/worker_renewal.py).
    Nothing to serve (no lexicon; a kiosk without its edition's) or a port in use raise
    :class:`CannotServeError` (``LexiconNotFoundError`` for a kiosk) before any file is created.
    """
    home = Path(lexicons) if lexicons is not None else default_home()
    config = {"LEXICONS": home, **(app_config or {})}
    check_lexicons(home, config.get("KIOSK"))
    check_port(host, port)
    if DEFAULTS["worker_class"] == "gevent":
        # preload_app: the app is built here, in the arbiter, and gunicorn patches a worker only after
        # the fork. Patched first, the app's locks and semaphores are gevent's; a real one would block
        # a worker's every greenlet while the one holding it pauses. Imported here, a lazy load:
        # gevent is only for the server, and the tests import this module without patching.
        from gevent import monkey  # noqa: PLC0415

        monkey.patch_all()
    # The app's modules load only now, after the patching: some make a lock or semaphore when
    # imported (lextools.core.background), which must be gevent's. A documented lazy load.
    from service import app as factory  # noqa: PLC0415
    from service.api import study_lists  # noqa: PLC0415
    from service.judge import record_access  # noqa: PLC0415

    app = factory.create_app(config)  # a bad --kiosk edition fails here, before gunicorn starts
    with app.app_context():
        prepare_record(record_access.record())  # so does an unwritable record; and the workers share one secret
    summary = lexicon_summary(home)
    if config.get("KIOSK"):
        summary += f"; kiosk: the word judge for {config['KIOSK']} only"
    Server(
        partial(_preloaded, app),
        {
            "bind": f"{host}:{port}",
            "workers": workers,
            "on_starting": lambda arbiter: arbiter.log.info(summary),
            "when_ready": partial(log_pages, app),
            "post_worker_init": partial(_start_worker, partial(study_lists.worker_started, app)),
            "worker_exit": lambda arbiter, worker: study_lists.worker_exiting(app),
        },
        renew_mb=renew_mb,
    ).run()


def log_pages(app: Any, arbiter: Any) -> None:
    """gunicorn ``when_ready``: the port is bound (port 0 has become a number), so the pages a person
    opens are named with their real address, the last lines before the server answers."""
    for listener in arbiter.LISTENERS:
        for line in page_lines(str(listener), app):
            arbiter.log.info("%s", line)


#: The pages a person opens, by path, with what each is for (the start-up log names them).
PAGES = {
    "/search": "anagrams, patterns and word cards",
    "/study": "word look-up, lists that teach, quizzes",
    "/judge": "the word judge, keyboard only",
    "/director": "today's challenges, behind the director token",
}


def page_lines(base: str, app: Any) -> list[str]:
    """``open http://127.0.0.1:8000/search  (anagrams, …)``, a line per page this app shows: a kiosk
    only its word judge, the director's page only when the server has a director token (the token is
    in the app's config once ``create_app`` has read it from the environment)."""
    kiosk, director = bool(app.config.get("KIOSK")), bool(app.config.get("DIRECTOR_TOKEN"))
    shown = [p for p in (("/judge", "/director") if kiosk else PAGES) if p != "/director" or director]
    lines = [f"open {base}{path}  ({PAGES[path]})" for path in shown]
    return lines if kiosk else [*lines, f"the JSON API: {base}/v1/openapi.json"]
