"""The limits and enums of the API, each defined once: the views and ``/v1/openapi.json`` read them.

Limits are app config (``create_app`` starts from :data:`LIMITS`, a deployment may change any), and
the OpenAPI document is built from the running app's config, so a changed limit is a changed
document. Enums are the library's own tuples where the library defines the thing (orders, notations,
the longest query) and here where only the service has it (export formats). The error codes are in
``service/errors.py`` (``ERRORS``), next to the handlers that produce them.
"""

from __future__ import annotations

from typing import Any

from lextools.search import MAX_QUERY_TILES, ORDERS
from lextools.tokenize import NOTATIONS

#: App config keys of the limits, with their defaults and what the document says of them.
LIMITS: dict[str, tuple[Any, str]] = {
    "MAX_BATCH": (1000, "words in one check or challenge"),
    # 1000 words of at most 64 characters, each written as \uXXXX at worst, fit with room to spare.
    "MAX_CONTENT_LENGTH": (512 * 1024, "bytes in one request body"),
    "SEARCH_LIMIT": (100, "words in a search or anagram page when limit is not given"),
    "SEARCH_MAX_LIMIT": (1000, "largest limit of a search or anagram page"),
    "SEARCH_BUDGET_MS": (200, "milliseconds of work one search or anagram page may take"),
    "SEARCH_CONCURRENCY": (1, "search and anagram pages one worker runs at once; others wait their turn"),
    "MAX_RACK_BLANKS": (2, "blanks in one rack (as many as any verified bag holds)"),
}

#: ``export?format=``: the whole word list as text, or the words DAWG as built.
EXPORT_FORMATS = ("txt", "dawg")

__all__ = ["EXPORT_FORMATS", "LIMITS", "MAX_QUERY_TILES", "NOTATIONS", "ORDERS", "limit_defaults"]


def limit_defaults() -> dict[str, Any]:
    return {name: default for name, (default, _) in LIMITS.items()}
