"""Each operation of the API declared once, on its view: :func:`operation` registers the Flask route
and records what the OpenAPI document says of it — its query parameters as a marshmallow schema
(``service/contract/params.py``), the same schema the view reads its parameters with, and its answer's shape
(``service/contract/schemas.py``).

From these records ``service/contract/openapi.py`` builds the document and
``service.http.inputs.refuse_unknown_parameters`` learns which parameters a route takes
(:func:`query_parameters`), so the list a request is checked against is the schema itself, not the
document. A route about an edition takes ``lang`` (:class:`EditionQuery`, inherited by its schema).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from flask import Blueprint

from lextools.core.messages import LANGUAGES
from service.contract.params import Query, Text, parameter_names

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
    query: type[Query] = NoQuery,
    parameters: tuple[Any, ...] = (),
    **spec: Any,
) -> Callable[[View], View]:
    """Register the view as ``method rule`` of ``bp`` and declare its operation: ``query`` is the
    schema of its query parameters; ``parameters`` the path parameters that are not components
    (``rack``) and header ones; ``spec`` the rest of the OpenAPI operation object."""
    path = openapi_path((bp.url_prefix or "") + rule)
    if "{edition}" in path and not issubclass(query, EditionQuery):
        raise TypeError(f"{path}: a route about an edition takes lang (its query schema is an EditionQuery)")

    def register(view: View) -> View:
        bp.add_url_rule(rule, view_func=view, methods=[method])
        op = Operation(path, method.lower(), f"{bp.name}.{view.__name__}", query, spec, parameters)
        OPERATIONS.append(op)
        _BY_ENDPOINT[op.endpoint, op.method] = op
        _ENDPOINTS.add(op.endpoint)
        return view

    return register


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
