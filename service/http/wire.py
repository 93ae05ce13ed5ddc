"""What goes wrong below Flask: a request gunicorn cannot parse, and the log lines it costs.

gunicorn answers a request it cannot parse — a request line with raw bytes that are not UTF-8, a
header over its limits — itself, before the app runs, with an HTML page. A chunked body that breaks
the chunked coding (RFC 9112 §7.1) is found only when a view reads the body, as gunicorn's
``ParseException``. Both are the client's doing: the client gets the service's one JSON error shape
(service/http/errors.py), and the log one line, a few a minute at most (:class:`Throttle`), so that a
flood of such requests cannot fill the disk. The refusals a server's condition causes (a challenge
while another program holds the record's lock) are throttled the same way (:func:`refusal_log`).
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from gunicorn import util as gunicorn_util

from lextools.core.messages import message

#: What gunicorn's own refusals become: its status → (our status, our code; service.http.errors.ERRORS).
WIRE_ERRORS: dict[int, tuple[int, str]] = {
    400: (400, "bad_request"),
    414: (414, "uri_too_long"),
    431: (431, "headers_too_large"),
    417: (417, "expectation_failed"),
    501: (501, "unsupported_transfer_coding"),
}

#: The log of the client's faults below the views: throttled (see :func:`client_fault_log`).
CLIENT_FAULTS = "lextools.service.client_faults"

#: gunicorn's line for a request it refused ("Invalid request from ip=…: …").
_GUNICORN_LINE = "Invalid request from ip="


class Throttle(logging.Filter):
    """Lets ``per_minute`` matching records through in each minute; the first one let through after
    some were dropped says how many. Records that do not match pass untouched."""

    def __init__(self, per_minute: int = 5, prefix: str = "") -> None:
        super().__init__()
        self.per_minute = per_minute
        self.prefix = prefix
        self.window = 0.0
        self.passed = 0
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if self.prefix and not str(record.msg).startswith(self.prefix):
            return True
        now = time.monotonic()
        if now - self.window >= 60:
            self.window, self.passed = now, 0
        if self.passed >= self.per_minute:
            self.dropped += 1
            return False
        self.passed += 1
        if self.dropped:
            record.msg = f"{record.getMessage()} ({self.dropped} similar lines dropped)"
            record.args = ()
            self.dropped = 0
        return True


#: The log of the service's refusals of one kind (``REFUSALS.record_error``…): throttled as the client's faults.
REFUSALS = "lextools.service.refusals"


def client_fault_log() -> logging.Logger:
    """The logger of malformed requests the views meet, throttled once per process."""
    return _throttled(CLIENT_FAULTS)


def refusal_log(code: str) -> logging.Logger:
    """The logger of one kind of refusal a server's condition causes (``record_error`` while another
    program holds the record's lock, ``corrupt_lexicon``): each request that meets it is refused, so
    its line is throttled as the malformed bodies' are, each kind on its own (a flood of one never
    hides another's first lines). Its records reach the service's log (``lextools.service``)."""
    return _throttled(f"{REFUSALS}.{code}")


def _throttled(name: str) -> logging.Logger:
    log = logging.getLogger(name)
    if not any(isinstance(f, Throttle) for f in log.filters):
        log.addFilter(Throttle())
    return log


def wire_error_body(status: int, detail: str) -> tuple[int, bytes]:
    """Our status and JSON body for gunicorn's refusal ``status`` (its message as ``detail``)."""
    ours, code = WIRE_ERRORS.get(status, (400, "bad_request"))
    shown = ascii(detail[:120])[1:-1]  # the raw request line may hold any byte: shown escaped
    text = message("http_not_readable", detail=shown).text("en")
    return ours, json.dumps({"error": {"code": code, "message": text}}).encode()


def write_json_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """Stands in for ``gunicorn.util.write_error``: the same answer, in the JSON error shape."""
    status, body = wire_error_body(status_int, mesg)
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    gunicorn_util.write_nonblock(sock, head.encode("latin-1") + body)


#: The app config keys of the body limits of the routes (the API's, a cardbox's): a body over the
#: largest is refused by every route that reads one.
BODY_LIMITS = ("MAX_CONTENT_LENGTH", "CARDBOX_MAX_BYTES")


def refuse_continue_over_limit(worker: Any, req: Any) -> None:
    """gunicorn ``pre_request``: no ``100 Continue`` for a body over every route's limit.

    gunicorn answers ``Expect: 100-continue`` itself (``http.wsgi.create``, right after this hook)
    with ``100 Continue``, inviting the body the app then refuses with 413. A request whose
    ``Content-Length`` is over the largest body limit gets no invitation: the app answers 413 from
    the header (werkzeug refuses before reading a byte), and the connection closes after it, so a body
    the client sends anyway is never read."""
    if not getattr(req, "_expected_100_continue", False):
        return
    length = next((v for name, v in req.headers if name == "CONTENT-LENGTH"), None)
    config = getattr(worker.wsgi, "config", None)  # the Flask app's, its limits set (service.http.limits)
    if config is None:
        return
    most = max(int(config[key]) for key in BODY_LIMITS if config.get(key) is not None)
    if length is not None and length.isdigit() and int(length) > most:
        req._expected_100_continue = False
        req.must_close = True


def install(worker: Any) -> None:
    """gunicorn ``post_worker_init``: the worker's own refusals in the JSON shape, their log throttled."""
    gunicorn_util.write_error = write_json_error  # gunicorn's workers look it up on the module
    worker.log.error_log.addFilter(Throttle(prefix=_GUNICORN_LINE))
