"""The language of what a person reads in an answer: ``lang`` parameter, else ``Accept-Language``,
else the edition's language (English when there is no edition in the path).

Reasons and errors come from the one message catalogue (lextools/messages.py; a word's reason is
worded in lextools/answers.py); the pages send ``Accept-Language`` in their own interface language,
so a Spanish page gets Spanish reasons whatever the browser's settings.
"""

from __future__ import annotations

from flask import request

from lextools.edition import edition_names, load_edition
from lextools.messages import choose_language


def request_language() -> str:
    """The language to answer this request in."""
    edition = (request.view_args or {}).get("edition")
    default = load_edition(edition).language if edition in edition_names() else "en"
    return choose_language(request.args.get("lang"), request.headers.get("Accept-Language"), default)
