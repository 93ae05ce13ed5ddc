"""Reading what a client sends — path, JSON body — into checked values (the query parameters are
read by each operation's schema, service/contract/params.py, and checked against it by
service/contract/unknown_parameters.py).

Every helper raises :class:`~service.http.errors.ServiceError` (400 or 413) for input it cannot use, so
a view never meets a value of the wrong type and no odd input can reach the last-resort 500.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from flask import current_app, request
from werkzeug.exceptions import RequestEntityTooLarge

from lextools.core.edition import canonical_edition_name
from lextools.core.errors import UnknownEditionError
from lextools.core.messages import message
from service.http.errors import ServiceError, bad_request


def require_utf8_path() -> None:
    """Refuse a path whose percent-decoded bytes are not UTF-8 (``/words/%FF``) with a 400.

    Werkzeug would decode such bytes to U+FFFD, which would then read as an unspellable word (422)
    when the truth is that the client sent no text at all. WSGI hands over the raw bytes as a
    latin-1 string (PEP 3333), so they can be checked here.
    """
    raw = request.environ.get("PATH_INFO", "")
    if raw.isascii():  # the usual case, and cheap: every request passes here
        return
    try:
        raw.encode("latin-1").decode("utf-8")
    except UnicodeEncodeError:
        return  # not a PEP 3333 byte string: the server decoded it already
    except UnicodeDecodeError:
        raise bad_request(message("path_not_utf8")) from None


def canonical_edition(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """``url_value_preprocessor``: ``/v1/ES-FISE/…`` is answered as ``/v1/es-fise/…`` (the same body,
    which names es-fise), no redirect; an unknown name stays as it came, for the view's 404 that
    suggests the names it may mean."""
    name = values.get("edition") if values else None
    if isinstance(name, str) and values is not None:
        with suppress(UnknownEditionError):
            values["edition"] = canonical_edition_name(name)


def json_body() -> dict[str, Any]:
    """The body as a JSON object, whatever the Content-Type (``curl -d`` sends a form type)."""
    _refuse_a_cut_body()
    try:
        body = request.get_json(force=True, silent=True)  # a body over MAX_CONTENT_LENGTH still raises 413
    except RecursionError:  # [[[[…]]]] a few thousand deep: silent= only covers ValueError
        raise bad_request(message("body_too_deep")) from None
    if not isinstance(body, dict):
        raise bad_request(message("body_not_object"))
    return body


def _refuse_a_cut_body() -> None:
    """A body sent without Content-Length (chunked) that goes on past ``MAX_CONTENT_LENGTH`` is a 413.

    Where the server ends the input itself (``wsgi.input_terminated``: gunicorn always does, and a
    chunked body has no length to go by) werkzeug reads up to the limit and stops there without a
    word, so the JSON would only look truncated (400) — or, cut at the right place, be read as a
    shorter body than was sent. One byte more from the raw input tells a body of exactly the limit
    from a longer one; that read cannot block, since the server ends the input. A declared length
    over the limit is refused by werkzeug before any read.
    """
    limit = request.max_content_length
    if limit is None or "wsgi.input_terminated" not in request.environ:
        return
    if len(request.get_data(cache=True)) >= limit and request.environ["wsgi.input"].read(1):
        raise RequestEntityTooLarge(f"the body is over {limit} bytes")


def words_of(body: dict[str, Any], *, allow_empty: bool, limit: int | None = None) -> list[str]:
    """The ``words`` list of a body: strings only, at most ``limit`` of them (default: the app's ``MAX_BATCH``)."""
    words = body.get("words")
    if not isinstance(words, list):
        raise bad_request(message("words_not_list"))
    if limit is None:
        limit = current_app.config["MAX_BATCH"]
    if len(words) > limit:
        raise ServiceError(413, "too_many_words", message("words_over_batch", count=len(words), max=limit))
    if not words and not allow_empty:
        raise bad_request(message("words_empty"))
    for i, w in enumerate(words):
        if not isinstance(w, str):
            raise bad_request(message("word_not_string", i=i))
        try:
            w.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate written as "\ud800"
            raise bad_request(message("word_not_unicode", i=i)) from None
    return words


def flag(body: dict[str, Any], name: str, default: bool) -> bool:
    value = body.get(name, default)
    if not isinstance(value, bool):
        raise bad_request(message("not_true_false", name=f'"{name}"'))
    return value
