"""The word-validation service: JSON over HTTP under /v1, a Flask app served by gunicorn.

Layout (Flask tutorial style, in rooms; docs/architecture.md): :func:`service.app.create_app`
builds an app from config and registers each room's blueprints and hooks; ``server`` runs it under
gunicorn and ``cli`` is ``lextools serve``. The rooms, each importing only the ones below it:

- ``api`` — the JSON API under /v1, a module per resource, and ``hot_routes``, which answers the
  two hot operations (a word, a batch check) in front of Flask with the views' own functions: the
  same bytes for less CPU;
- ``judge`` — the challenge route, its record and receipts, kiosk mode and the director's page;
- ``pages`` — the HTML pages, their templates and static files;
- ``contract`` — each operation declared once on its view (route, query, body and answer schemas),
  and the OpenAPI document built from those declarations;
- ``http`` — what every room shares: the one JSON error shape, inputs, guards, language, hosts,
  limits, the lexicons a worker has loaded, an answer's output.

The library (``lextools``) never imports this package.

The package itself imports nothing: ``lextools serve`` (service/server.py) must monkey-patch with
gevent before the app's modules load, since some make a lock or semaphore when imported
(``lextools.core.background``), and a lock made before the patching blocks a whole gevent worker.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    """``from service import create_app``: the factory of service/app.py, loaded on first use — a
    documented lazy load, for the gevent patching above."""
    if name == "create_app":
        from service.app import create_app  # noqa: PLC0415

        return create_app
    raise AttributeError(f"module 'service' has no attribute {name!r}")
