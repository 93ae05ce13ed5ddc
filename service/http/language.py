"""The language of what a person reads in an answer: ``lang`` parameter, else ``Accept-Language``,
else the edition's language (English when there is no edition in the path).

Reasons and errors come from the one message catalogue (lextools/core/messages.py; a word's reason is
worded in lextools/features/answers.py); the pages send ``Accept-Language`` in their own interface language,
so a Spanish page gets Spanish reasons whatever the browser's settings.
"""

from __future__ import annotations

import functools

from flask import request

from lextools.core.edition import edition_names, load_edition
from lextools.core.messages import choose_language


def request_language() -> str:
    """The language to answer this request in."""
    edition = (request.view_args or {}).get("edition")
    return language(edition, request.args.get("lang"), request.headers.get("Accept-Language"))


def language(edition: str | None, asked: str | None, accept_language: str | None) -> str:
    """The language to answer in, from the edition of the path (any text, or None), the ``lang``
    parameter and the ``Accept-Language`` header (the service's hot routes, service/api/hot_routes.py, read
    them from the WSGI environ)."""
    default = load_edition(edition).language if edition in _shipped() else "en"
    return choose_language(asked, accept_language, default)


@functools.cache
def _shipped() -> frozenset[str]:
    """The shipped editions' names, listed once a process: listing them reads a directory, which
    cost more than the rest of a word's look-up."""
    return frozenset(edition_names())
