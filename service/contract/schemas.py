"""The shapes of the API's answers, as marshmallow schemas: each operation names its answer's schema
(``answer=`` of :func:`service.contract.operations.operation`), which serialises what the view
returns and which apispec's MarshmallowPlugin writes into the OpenAPI document (service/contract/openapi.py),
so the document cannot drift from the bytes. This module holds the base :class:`Answer`, the shapes
several rooms share (:class:`Entry`, :class:`WordResult`, :class:`Error`), the error responses
(``RESPONSES``) and the fields the answers write often; each resource declares its own beside its view.

An answer is built by the library (:mod:`lextools.features`), in its order: :class:`Answer` keeps
that order and refuses a field it does not declare (a bug, answered as one: 500), so a field the
library adds must be declared — and documented — before it goes out.

A number that is app config (``MAX_BATCH``) is written as :class:`Limit` and a text that names one as
:class:`Limited`: ``service/contract/openapi.py`` puts the running app's values in, so a deployment that
raises a limit publishes the new one.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from marshmallow import Schema, fields, post_dump

from lextools.core.budget import paced
from service.http.errors import ERRORS
from service.http.limits import CHALLENGE_RATE, MAX_WORDS


class Limit:
    """An app config value (``service.http.limits.LIMITS``), as the running app has it."""

    def __init__(self, key: str) -> None:
        self.key = key


class Limited(str):
    """A text naming app config values as ``{KEY}``, written with the running app's values."""


class UndeclaredFieldError(TypeError):
    """An answer holds a field its schema does not declare: the document would not describe it."""


@cache
def _declared(schema: type[Schema]) -> frozenset[str]:
    return frozenset(field.data_key or name for name, field in schema().dump_fields.items())


class Answer(Schema):
    """An answer's shape. ``dump`` keeps the order the library built the answer in, leaves out what
    the answer leaves out, and raises :class:`UndeclaredFieldError` for a field it does not declare."""

    @post_dump(pass_original=True)
    def _as_built(self, data: dict[str, Any], original: Any, **kwargs: Any) -> dict[str, Any]:
        if not isinstance(original, Mapping):
            return data
        declared = _declared(type(self))
        undeclared = [key for key in original if key not in declared]
        if undeclared:
            raise UndeclaredFieldError(f"{type(self).__name__} declares no {', '.join(map(repr, undeclared))}")
        return {key: data[key] for key in original if key in data}


def _about(description: str | None, kwargs: dict[str, Any]) -> dict[str, Any]:
    """A field's keyword arguments, its description (if any) added to its metadata."""
    metadata = {**({"description": description} if description else {}), **kwargs.pop("metadata", {})}
    return {"metadata": metadata, **kwargs}


def str_field(description: str | None = None, **kwargs: Any) -> fields.String:
    return fields.String(**_about(description, kwargs))


def int_field(description: str | None = None, **kwargs: Any) -> fields.Integer:
    return fields.Integer(**_about(description, kwargs))


def bool_field(description: str | None = None, **kwargs: Any) -> fields.Boolean:
    return fields.Boolean(**_about(description, kwargs))


class StrList(fields.List):
    """A list of strings dumped as it is when every item is a ``str`` already (the tiles of every
    word of an answer: a stems page has 2,700 words, and a ``fields.String`` call per tile was half
    of its dump); any other item goes through ``fields.String`` as before."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> list[Any] | None:
        if value is not None and all(type(item) is str for item in value):
            return list(value)
        return super()._serialize(value, attr, obj, **kwargs)


def str_list(description: str | None = None, **kwargs: Any) -> fields.List:
    """A list of strings (tile labels, source names)."""
    return StrList(fields.String(), **_about(description, kwargs))


def nested_field(schema: type[Schema], description: str | None = None, **kwargs: Any) -> fields.Nested:
    return fields.Nested(schema, **_about(description, kwargs))


class PacedList(fields.List):
    """A list whose items are dumped with a pause for the worker's other requests every few
    milliseconds (:func:`lextools.core.budget.paced`): a page of stems is a thousand nested entries,
    80 ms of marshmallow at once on a quiet machine and 200 ms and more on a busy one, which every
    look-up in the worker's event loop waited for (issue 33, rows 1–2)."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> list[Any] | None:
        if value is None:
            return None
        return [self.inner._serialize(each, attr, obj, **kwargs) for each in paced(value, slices=True)]


def nested_list(schema: type[Schema], description: str | None = None, **kwargs: Any) -> fields.List:
    """A list of ``schema``'s objects, dumped in paced steps (:class:`PacedList`)."""
    return PacedList(fields.Nested(schema), **_about(description, kwargs))


def dict_field(description: str | None = None, **kwargs: Any) -> fields.Dict:
    """An object the answer passes on as it is (metadata of a build, an edition's challenge rules)."""
    return fields.Dict(**_about(description, kwargs))


class Inlined(Schema):
    """A schema the document writes where it is used rather than as a component of its own (a
    request body, the error's inner object): see :func:`component_name`."""


def component_name(schema: type[Schema] | Schema) -> str | None:
    """apispec's name for a schema's component: its class name; None (written inline) for an :class:`Inlined` one."""
    cls = schema if isinstance(schema, type) else type(schema)
    return None if issubclass(cls, Inlined) else cls.__name__


class ErrorBody(Inlined):
    code = fields.String(required=True, metadata={"enum": list(ERRORS)})
    message = str_field(required=True)


class Error(Answer):
    """Every failure's one shape (service/http/errors.py)."""

    error = nested_field(ErrorBody, required=True)


class Entry(Answer):
    """A word as shown: its plain spelling and its tiles."""

    word = str_field(required=True)
    tiles = str_list(required=True)


class LookedUp(Answer):
    """What a look-up found: the word as asked, spelled, in tiles, and whether the lexicon has it."""

    input = str_field(required=True)
    word = str_field("plain spelling; null when the word cannot be spelled", required=True, allow_none=True)
    tiles = str_list(required=True)
    valid = bool_field(required=True)


class WordResult(LookedUp):
    """A look-up's result."""

    score = int_field("null where tile values are unverified", required=True, allow_none=True)
    reason = str_field(
        "why the word is not valid: the rule that removed it and the source form it came from",
        required=True,
        allow_none=True,
    )


class Page(Answer):
    """The fields of a page of a budgeted walk (search, anagrams)."""

    count = int_field("words in this page", required=True)
    truncated = bool_field("the page stopped at its limit or work budget", required=True)
    next_cursor = str_field("present when truncated: fetches what follows", required=True, allow_none=True)


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def json_response(schema: Any, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def errors(*statuses: int) -> dict[str, Any]:
    return {str(s): {"$ref": f"#/components/responses/E{s}"} for s in statuses}


def _described(status: int, what: str) -> dict[str, Any]:
    codes = ", ".join(code for code, (code_status, _) in ERRORS.items() if code_status == status)
    return json_response(ref("Error"), Limited(f"{what} (codes: {codes})"))


#: The error responses the operations name (``errors(400, 404)``), each listing its error codes.
RESPONSES: dict[str, Any] = {
    "E400": _described(400, "Malformed input: body, parameters, pattern, rack or cursor"),
    "E401": _described(401, "The director token is missing or wrong"),
    "E403": _described(403, "A browser sent it from another site's page (its Origin is not this server)"),
    "E404": _described(404, "Unknown edition or route"),
    "E413": _described(
        413, f"Body over {{MAX_CONTENT_LENGTH}} bytes, or over {{MAX_BATCH}} words ({MAX_WORDS} in a challenge)"
    ),
    "E412": _described(412, "If-Match names another version than the one kept: read it again (its ETag)"),
    "E415": _described(415, "The body is not sent as Content-Type: application/json"),
    "E422": _described(422, "The word cannot be spelled with the edition's tiles; the message says why"),
    "E428": _described(428, "The replacement sends no If-Match: say which version (ETag) it replaces"),
    "E429": _described(429, f"More than {CHALLENGE_RATE} challenges a second from this client; not recorded"),
    "E503": _described(503, "No usable lexicon for the edition on this server"),
}
