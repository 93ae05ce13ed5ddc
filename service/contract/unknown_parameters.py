"""Query parameters a route does not take, and a ``lang`` no answer is written in: refused before
the view runs (``before_request`` hooks), from the operations' own query schemas
(service/contract/operations.py), the one list the views read them with and the document describes."""

from __future__ import annotations

from flask import request

from lextools.core.messages import LANGUAGES, language_of_tag, message
from service.contract.operations import query_parameters
from service.http.errors import ServiceError, bad_request


def refuse_unknown_parameters() -> None:
    """A query parameter the route does not take is a 400 naming it, never silently ignored.

    The parameters a route takes are those of its operation's query schema (service/contract/operations.py), the
    one list: the view reads them with it and the OpenAPI document describes it. A parameter sent
    twice is refused unless it is repeatable (``blank``).
    The usual cause of an unknown one is a ``?`` meant as a blank in a path (``/anagrams/ARBOL??``):
    in a URL, ``?`` starts the query string, so the blanks never reach the route; the message says so.
    """
    if request.url_rule is None:
        return  # no route: the 404 says so
    takes = query_parameters(request.endpoint, request.method)
    if takes is None:
        return  # an HTML page: not part of the API
    unknown = [name for name in request.args if name not in takes]
    raw_uri = request.environ.get("RAW_URI") or request.environ.get("REQUEST_URI") or ""
    bare_question_mark = "?" in raw_uri and not request.query_string and "path:" in str(request.url_rule.rule)
    if unknown or bare_question_mark:
        blank = bare_question_mark or "path:" in str(request.url_rule.rule)  # the likely cause: say so
        names = ", ".join(repr(n) for n in unknown) if unknown else "'?'"
        allowed = ", ".join(sorted(takes)) or "-"
        text = message("unknown_parameter_blank" if blank else "unknown_parameter", names=names, allowed=allowed)
        raise ServiceError(400, "unknown_parameter", text)
    for name, repeatable in takes.items():
        if not repeatable and len(request.args.getlist(name)) > 1:
            raise bad_request(message("repeated_parameter", name=name))


def refuse_unknown_language() -> None:
    """``lang`` names one of the languages of the answers (en, es, fr; a region is allowed: ``es-AR``),
    or it is a 400: a client that asked for German would otherwise read English without a word."""
    if query_parameters(request.endpoint, request.method) is None:
        return  # no route, or an HTML page
    for asked in request.args.getlist("lang"):
        if asked and language_of_tag(asked) is None:  # empty: absent, as every parameter (service/contract/params.py)
            allowed = ", ".join(LANGUAGES)
            raise bad_request(message("unknown_language", allowed=allowed, text=repr(asked[:20])))
