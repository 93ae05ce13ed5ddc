"""Who a request comes from, behind the proxies this server trusts: the address rate limits and the
director's lock-out count by.

Without a proxy the client is the connection's peer (``request.remote_addr``). Behind nginx every
connection comes from nginx, so each request would count against one address: one table typing fast
would throttle the whole hall. nginx names the client in ``X-Forwarded-For`` (deploy/nginx.conf:
``proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for``, which appends the address nginx saw to
whatever the client sent). Anyone can send that header, so it is read only from the proxies given with
``lextools serve --trusted-proxy ADDR|CIDR`` (repeatable) or ``$LEXTOOLS_TRUSTED_PROXIES``
(comma-separated): the addresses are read from the right, skipping trusted proxies, and the first one
that is not a trusted proxy is the client — what a client wrote itself stands to the left of it and is
never believed. A request from any other peer is keyed on that peer, whatever it sends.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable

from flask import current_app, request

from lextools.core.errors import LexiconError

#: Where the trusted proxies come from when the app's config gives none.
TRUSTED_PROXIES_ENV = "LEXTOOLS_TRUSTED_PROXIES"
#: The app.extensions key of the app's :class:`TrustedProxies`.
EXTENSION = "lextools.trusted_proxies"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class BadTrustedProxyError(LexiconError, code="bad_trusted_proxy"):
    """A trusted proxy that is neither an address nor a network: the app does not start."""


def configured_proxies(config_value: Iterable[str] | None) -> tuple[str, ...]:
    """The proxies of the config (``TRUSTED_PROXIES``), else of ``$LEXTOOLS_TRUSTED_PROXIES``."""
    if config_value is None:
        config_value = os.environ.get(TRUSTED_PROXIES_ENV, "").split(",")
    return tuple(item.strip() for item in config_value if item.strip())


class TrustedProxies:
    """The networks whose ``X-Forwarded-For`` is believed; a bad address or network is refused at start."""

    def __init__(self, items: Iterable[str]) -> None:
        networks: list[Network] = []
        for item in items:
            try:
                networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                raise BadTrustedProxyError(
                    f"--trusted-proxy {item!r} is neither an IP address nor a network (CIDR)"
                ) from None
        self.networks = tuple(networks)

    def trusts(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in network for network in self.networks)

    def client(self, peer: str, forwarded: list[str]) -> str:
        """The client of a request from ``peer`` that carries the ``X-Forwarded-For`` headers ``forwarded``."""
        if not self.networks or not self.trusts(peer):
            return peer
        hops = [hop.strip() for header in forwarded for hop in header.split(",") if hop.strip()]
        client = peer
        for hop in reversed(hops):
            if not _is_address(hop):
                break  # not written by a proxy of ours: the last trusted hop is all we know
            client = hop
            if not self.trusts(hop):
                break
        return client


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def client_address() -> str:
    """The address this request's client is counted by (see the module)."""
    peer = request.remote_addr or "unknown"
    proxies: TrustedProxies | None = current_app.extensions.get(EXTENSION)
    if proxies is None:
        return peer
    return proxies.client(peer, request.headers.getlist("X-Forwarded-For"))
