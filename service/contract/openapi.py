"""The OpenAPI 3 document of the service, built by apispec from the operations the views declare
(``service/contract/operations.py``): their query schemas become parameters, their body schemas
request bodies and their answer schemas responses, all through apispec's MarshmallowPlugin (which
registers each schema as a component and writes the ``$ref``); the error responses are
``service/contract/schemas.py``'s ``RESPONSES``.

Limits come from the running app's config (``service.http.limits.LIMITS``) and enums from the library's
constants, so the document states what the service enforces (a deployment that raises ``MAX_BATCH``
publishes the new maximum). ``tests/test_service_openapi.py`` validates the document with
openapi-spec-validator and checks that every route of the app is described.
"""

from __future__ import annotations

from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Flask, current_app
from marshmallow import fields

from lextools import __version__
from lextools.core.edition import edition_names
from service.contract.operations import OPERATIONS, PATH_COMPONENTS, Operation, summary_of
from service.contract.params import Documented, bound
from service.contract.schemas import RESPONSES, Error, Limit, Limited, component_name, errors, json_response

#: Sent with every answer about one edition, so a client sees a rebuilt lexicon swapped in.
_CHECKSUM_HEADERS = {
    "X-Lexicon-Checksum": {
        "description": "checksum of the lexicon that answered (changes when a rebuild is swapped in)",
        "schema": {"type": "string"},
    }
}

_INFO = {
    "description": "Scrabble lexicons per edition over HTTP. Errors share one shape, "
    '{"error": {"code", "message"}}. GET routes and POST check allow any origin (CORS); the '
    "challenge, which writes the record, only this server's own pages."
}

#: Where the app keeps its document (built on first use: it depends on the code, the shipped
#: editions and the app's config, none of which change while the app runs).
_EXTENSION = "lextools.openapi"


def document(app: Flask | None = None) -> dict[str, Any]:
    """The document of ``app`` (default: the current app)."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    doc: dict[str, Any] | None = app.extensions.get(_EXTENSION)
    if doc is None:
        with app.app_context():
            doc = app.extensions[_EXTENSION] = _build()
    return doc


def _resolved(value: Any) -> Any:
    """A declaration with the running app's limits written in (a fresh copy: apispec changes what it is given)."""
    if isinstance(value, dict):
        return {k: _resolved(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_resolved(v) for v in value]
    if isinstance(value, Limit):
        return bound(value.key)
    if isinstance(value, Limited):
        return value.format_map(current_app.config)
    return value


def _field_limits(self: Any, field: fields.Field, **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: the limits and choices a field reads from the app or the library."""
    out = field.openapi() if isinstance(field, Documented) else {}
    out.update({key: bound(value.key) for key, value in field.metadata.items() if isinstance(value, Limit)})
    description = field.metadata.get("description")
    if isinstance(description, Limited):
        out["description"] = _resolved(description)
    return out


def _operation(op: Operation) -> dict[str, Any]:
    parameters: list[Any] = [name for name in PATH_COMPONENTS if "{" + name + "}" in op.path]
    parameters += [*_resolved(op.parameters), {"in": "query", "schema": op.query}]
    out: dict[str, Any] = {**_resolved(op.spec), "parameters": parameters}
    responses = {**out.get("responses", {}), **errors(*op.errors)}
    if op.answer is not None:
        answer = json_response(op.answer, summary_of(op.answer))
        if op.headers:
            answer["headers"] = op.headers
        responses = {str(op.status): answer, **responses}
    out["responses"] = responses
    if op.body is not None:
        content = {"application/json": {"schema": op.body}}
        out["requestBody"] = {"required": True, "content": content, "description": op.body_description}
    if "{edition}" in op.path:
        for status, response in out["responses"].items():
            if status in ("200", "304"):
                response["headers"] = {**response.get("headers", {}), **_CHECKSUM_HEADERS}
    return out


def _build() -> dict[str, Any]:
    """The document assembled by apispec: it keeps the components and refuses a name registered twice."""
    # None inlines a schema (apispec's documented use of the resolver; its annotation says str only).
    marshmallow = MarshmallowPlugin(schema_name_resolver=component_name)  # type: ignore[arg-type]
    spec = APISpec(
        title="lextools word-validation service",
        version=__version__,
        openapi_version="3.0.3",
        plugins=[marshmallow],
        info=_INFO,
        servers=[{"url": "/"}],
    )
    marshmallow.converter.add_attribute_function(_field_limits)  # type: ignore[union-attr]
    spec.components.schema("Error", schema=Error)
    for name, response in RESPONSES.items():
        spec.components.response(name, _resolved(response))
    spec.components.parameter(
        "edition", "path", {"required": True, "schema": {"type": "string", "enum": edition_names()}}
    )
    spec.components.parameter(
        "word",
        "path",
        {
            "required": True,
            "schema": {"type": "string"},
            "description": "URL-encoded UTF-8, any notation: CHIQUILLO, 1IQUI2O, [CH]IQUI[LL]O",
        },
    )
    spec.components.security_scheme("director", {"type": "http", "scheme": "bearer"})
    paths: dict[str, dict[str, Any]] = {}
    for op in OPERATIONS:
        paths.setdefault(op.path, {})[op.method] = _operation(op)
    for path, operations in paths.items():
        spec.path(path=path, operations=operations)
    return spec.to_dict()
