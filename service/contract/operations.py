"""Each operation of the API declared once, on its view: :func:`operation` registers the Flask route
and records what the OpenAPI document says of it — its query parameters as a marshmallow schema
(``service/contract/params.py``), the same schema the view reads its parameters with; the schema
of the JSON body it reads (``service/contract/bodies.py``); the schema its answer is serialised
with (``service/contract/schemas.py``), so the document cannot drift from the bytes; its summary,
the first paragraph of the view's docstring.

From these records ``service/contract/openapi.py`` builds the document,
``service/contract/unknown_parameters.py`` learns which parameters a route takes
(:func:`query_parameters`), so the list a request is checked against is the schema itself, not the
document, and the hot routes (``service/api/hot_routes.py``) learn which paths they answer
(:func:`operation_of`). A route about an edition takes ``lang`` (:class:`EditionQuery`, inherited
by its schema).
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from flask import Blueprint, Response
from marshmallow import Schema

from lextools.core.messages import LANGUAGES
from service.contract.params import Query, Text, parameter_names
from service.contract.schemas import Limited

View = TypeVar("View", bound=Callable[..., Any])

#: Path parameters described once, as components of the document (apispec writes the ``$ref``).
PATH_COMPONENTS = ("edition", "word")


class NoQuery(Query):
    """An operation that takes no query parameter."""


class EditionQuery(Query):
    """Every answer about an edition words its reasons, rulings and errors in ``lang`` (service/http/language.py)."""

    lang = Text(
        metadata={
            "enum": list(LANGUAGES),
            "description": "language of reasons, rulings and errors; else Accept-Language, else the edition's language",
        }
    )


@dataclass(frozen=True)
class Operation:
    """One method of one route: its OpenAPI path, query schema and the rest of its operation object
    (summary, operationId, responses, request body, security, header and path parameters)."""

    path: str
    method: str
    endpoint: str
    query: type[Query]
    spec: dict[str, Any] = field(default_factory=dict)
    parameters: tuple[Any, ...] = ()
    #: The schema that serialises the view's answer (None: the view sends a Response of its own).
    answer: type[Schema] | None = None
    status: int = 200
    #: The schema of the JSON body the view reads, and what the document says of it.
    body: type[Schema] | None = None
    body_description: str = "Read as JSON whatever the Content-Type."
    #: The statuses of its error responses (the components ``E400``, …).
    errors: tuple[int, ...] = ()
    #: The headers its answer carries (OpenAPI header objects by name), e.g. a cardbox's ``ETag``.
    headers: dict[str, Any] = field(default_factory=dict)


#: Every operation, in the order the views declare them (the document's order).
OPERATIONS: list[Operation] = []
_BY_ENDPOINT: dict[tuple[str, str], Operation] = {}
_ENDPOINTS: set[str] = set()


def openapi_path(rule: str) -> str:
    """A Flask rule as an OpenAPI path: ``/v1/<edition>/words/<path:word>`` → ``/v1/{edition}/words/{word}``."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def operation(
    bp: Blueprint,
    rule: str,
    method: str = "GET",
    *,
    query: type[Query] | None = None,
    parameters: tuple[Any, ...] = (),
    answer: type[Schema] | None = None,
    status: int = 200,
    body: type[Schema] | None = None,
    body_description: str = "Read as JSON whatever the Content-Type.",
    errors: tuple[int, ...] = (),
    headers: dict[str, Any] | None = None,
    **spec: Any,
) -> Callable[[View], View]:
    """Register the view as ``method rule`` of ``bp`` and declare its operation: ``query`` is the
    schema of its query parameters (default: ``lang`` alone on a route about an edition, else
    none); ``answer`` the schema its answer is serialised with, answered with ``status`` (the
    first paragraph of the schema's docstring is the response's description); ``body`` the
    schema of the JSON body it reads (declared beside it, the document's request body); ``parameters``
    the path parameters that are not components (``rack``) and header ones; ``errors`` the statuses
    of its error responses; ``headers`` the headers its answer carries (the view returns them
    third, after the status); ``spec`` the rest of the OpenAPI operation object (``security``, a
    response of its own). Its ``summary`` is the first paragraph of the view's docstring (its final
    full stop left out), unless ``spec`` gives one (a summary naming limits)."""
    path = openapi_path((bp.url_prefix or "") + rule)
    if query is None:  # a route about an edition takes lang
        query = EditionQuery if "{edition}" in path else NoQuery
    if "{edition}" in path and not issubclass(query, EditionQuery):
        raise TypeError(f"{path}: a route about an edition takes lang (its query schema is an EditionQuery)")

    def register(view: View) -> View:
        if "summary" not in spec:  # a docstring naming app config ({MAX_BATCH}) is written with its values
            spec["summary"] = Limited(summary_of(view))
        if answer is not None:
            view = _serialised(view, answer())
        bp.add_url_rule(rule, view_func=view, methods=[method])
        op = Operation(
            path, method.lower(), f"{bp.name}.{view.__name__}", query, spec, parameters,
            answer, status, body, body_description, errors, headers or {},
        )  # fmt: skip
        OPERATIONS.append(op)
        _BY_ENDPOINT[op.endpoint, op.method] = op
        _ENDPOINTS.add(op.endpoint)
        return view

    return register


def summary_of(declared: Callable[..., Any] | type) -> str:
    """The first paragraph of a view's docstring (the operation's summary) or of an answer schema's
    (its response's description), on one line, without its final full stop."""
    doc = inspect.getdoc(declared)
    if not doc:
        raise TypeError(f"{declared.__name__}: an operation's view and answer say what they are in their docstrings")
    return " ".join(doc.split("\n\n")[0].split()).removesuffix(".")


def _serialised(view: View, schema: Schema) -> View:
    """The view, its answer (a dict, or a dict and a status) dumped through ``schema``; a Response is
    sent as it is (a body the view dumped through the same schema and kept: service/api/study_lists.py)."""

    @functools.wraps(view)
    def dumped(*args: Any, **kwargs: Any) -> Any:
        out = view(*args, **kwargs)
        if isinstance(out, Response):
            return out
        if isinstance(out, tuple):
            return (schema.dump(out[0]), *out[1:])
        return schema.dump(out)

    return cast(View, dumped)


def operation_of(endpoint: str, method: str | None = None) -> Operation:
    """The operation declared for an endpoint (its only one, or the one of ``method``): the hot routes
    (service/api/hot_routes.py) build their paths from it, so the two routers cannot drift apart."""
    found = [op for op in OPERATIONS if op.endpoint == endpoint and method in (None, op.method)]
    if len(found) != 1:
        raise LookupError(f"{endpoint}: {len(found)} operations declared")
    return found[0]


def query_parameters(endpoint: str | None, method: str) -> dict[str, bool] | None:
    """The query parameters a route's operation takes (name → repeatable); HEAD and OPTIONS take
    what GET takes; None for a route that is no operation of the API (the HTML pages)."""
    if endpoint not in _ENDPOINTS:
        return None
    op = _BY_ENDPOINT.get((endpoint, method.lower())) or _BY_ENDPOINT.get((endpoint, "get"))
    return parameter_names(op.query) if op is not None else {}
