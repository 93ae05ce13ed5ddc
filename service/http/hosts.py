"""The Host names the service answers for, which closes DNS rebinding.

A page of ``evil.example`` whose name the attacker then points at 127.0.0.1 (or at the club's server)
is, for the browser, still ``evil.example``: its requests reach the service with ``Host:
evil.example`` and an ``Origin`` to match, so the challenge route's Origin check alone lets them
through. The service answers only Host names it is configured for: ``localhost`` (and its
subdomains, which resolve to this machine by RFC 6761), any IP address — a rebinding page cannot
make the browser send one, since its address bar holds a name — and the names given with ``lextools
serve --allowed-host`` or ``$LEXTOOLS_ALLOWED_HOSTS`` (comma-separated; ``.example.org`` allows the
name and its subdomains, werkzeug's rule). Behind nginx, which passes the client's Host on
(``proxy_set_header Host $host``), allow the public name. A request without a Host header (HTTP/1.0)
is answered: no browser sends one.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable

from flask import current_app, request
from werkzeug.sansio.utils import host_is_trusted

from lextools.core.messages import message
from service.http.errors import ServiceError

#: Where the configured names come from when the app's config gives none.
ALLOWED_HOSTS_ENV = "LEXTOOLS_ALLOWED_HOSTS"
#: The app.extensions key of the app's :class:`AllowedHosts`.
EXTENSION = "lextools.allowed_hosts"
#: Host headers remembered per worker: a client sending ever new ones gets them checked, not cached.
_REMEMBERED = 256


def configured_names(config_value: Iterable[str] | None) -> tuple[str, ...]:
    """The names of the config (``ALLOWED_HOSTS``), else of ``$LEXTOOLS_ALLOWED_HOSTS``."""
    if config_value is None:
        config_value = os.environ.get(ALLOWED_HOSTS_ENV, "").split(",")
    return tuple(name.strip().lower() for name in config_value if name.strip())


class AllowedHosts:
    """Whether a Host header names this server: called on every request, so answers are remembered."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = ("localhost", ".localhost", *names)
        self._known: dict[str, bool] = {}

    def __call__(self, host: str | None) -> bool:
        if not host:
            return True
        known = self._known.get(host)
        if known is None:
            known = self._check(host)
            if len(self._known) < _REMEMBERED:
                self._known[host] = known
        return known

    def _check(self, host: str) -> bool:
        host = host.strip().lower()
        try:
            ipaddress.ip_address(_without_port(host).strip("[]"))
            return True
        except ValueError:
            return host_is_trusted(host, self.names)  # the port is ignored


def _without_port(host: str) -> str:
    if host.startswith("["):  # [::1]:8000
        return host.partition("]")[0] + "]"
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def require_allowed_host() -> None:
    """``before_request``: a Host name this server is not configured for is a 400 (Django's choice)."""
    host = request.environ.get("HTTP_HOST")
    if not current_app.extensions[EXTENSION](host):
        shown = ascii(host[:80])[1:-1] if host else ""
        raise ServiceError(400, "host_not_allowed", message("host_not_allowed", host=shown))
