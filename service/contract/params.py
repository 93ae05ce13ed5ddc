"""Query parameters as marshmallow fields: one field says how a parameter is read, which values it
takes and what the OpenAPI document says of it (``service/contract/openapi.py`` turns the fields into
parameters with apispec's MarshmallowPlugin).

A value the field cannot take is refused with the message of lextools' catalogue that the service
has always answered with (``whole_number``, ``one_of``, ``not_true_false``, ``blank_position_number``):
each field raises a marshmallow ``ValidationError`` holding that error, and :func:`load` raises the
one of the first field in declaration order, so a view sees the same error it would meet reading
its parameters one after the other. A limit may be an app config key (``SEARCH_MAX_LIMIT``): it is
read from the running app, so a deployment that changes it changes the check and the document.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from flask import current_app, request
from marshmallow import EXCLUDE, Schema, ValidationError, fields

from lextools.core.errors import QueryError
from lextools.core.messages import message
from service.http.errors import ServiceError, bad_request

#: An integer, or the app config key of one (``service.http.limits.LIMITS``).
Bound = int | str

_TRUE = {"true", "1", "yes"}
_FALSE = {"false", "0", "no"}

#: A whole number as a client writes it: ASCII digits only. ``int()`` also takes "５0", "5_0",
#: " 50" and "+50", and ``str.isdigit`` takes "²", which ``int()`` then refuses.
_DIGITS = re.compile(r"[0-9]{1,12}")  # enough for any limit here (a quiz seed is < 2**31), never a huge int()


def bound(value: Bound) -> int:
    """A limit as the running app enforces it."""
    return int(current_app.config[value]) if isinstance(value, str) else value


class ConfigValue:
    """A default read from the app's config when a request leaves the parameter out (marshmallow
    calls a callable ``load_default``; the document asks it too)."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __call__(self) -> int:
        return bound(self.key)


def whole_number(name: str, text: str, low: int, high: int) -> int:
    """``text`` as a whole number in ``[low, high]``, or a 400 that says which are allowed."""
    if not _DIGITS.fullmatch(text) or not low <= int(text) <= high:
        raise bad_request(message("whole_number", name=name, low=low, high=high, text=repr(text[:20])))
    return int(text)


def refused(error: Exception) -> ValidationError:
    """A marshmallow error that carries the service's own (its code and catalogue message)."""
    return ValidationError([error])  # load() takes it out again


class Documented:
    """A field whose document entry depends on the running app (its limits): :meth:`openapi` is added
    to what apispec derives from the field's class and metadata."""

    def openapi(self) -> dict[str, Any]:
        return {}


class WholeNumber(fields.Integer, Documented):
    """ASCII digits, a number in ``[low, high]``."""

    def __init__(self, low: Bound, high: Bound, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.low, self.high = low, high

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> int:
        try:
            return whole_number(self.data_key or attr or "", str(value), bound(self.low), bound(self.high))
        except ServiceError as e:
            raise refused(e) from None

    def openapi(self) -> dict[str, Any]:
        out = {"minimum": bound(self.low), "maximum": bound(self.high)}
        if isinstance(self.load_default, ConfigValue):
            out["default"] = self.load_default()
        return out


class Choice(fields.String, Documented):
    """One of ``choices``."""

    def __init__(self, choices: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.choices = choices

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> str:
        if value not in self.choices:
            name = self.data_key or attr or ""
            raise refused(bad_request(message("one_of", name=name, choices=", ".join(self.choices))))
        return str(value)

    def openapi(self) -> dict[str, Any]:
        return {"enum": list(self.choices)}


class Flag(fields.Boolean):
    """true/false, 1/0, yes/no, in any case."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> bool:
        text = str(value).lower()
        if text in _TRUE or text in _FALSE:
            return text in _TRUE
        raise refused(bad_request(message("not_true_false", name=self.data_key or attr or "")))


class Text(fields.String):
    """Any text; the library reads it (a pattern, a list's name) and says what is wrong with it."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> str:
        return str(value)


class Positions(fields.List):
    """A repeatable parameter of 1-based tile positions (``?blank=1&blank=3``): one or two ASCII
    digits each; what a position means (a tile of the word) is the library's to check."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(fields.Integer(metadata={"minimum": 1}), **kwargs)

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> list[Any | None]:
        out: list[Any | None] = []
        for text in value:
            if not (text.isascii() and text.isdigit() and len(text) <= 2):
                raise refused(QueryError(message("blank_position_number", text=repr(text))))
            out.append(int(text))
        return out


class Query(Schema):
    """The query parameters of an operation; a parameter it does not declare is refused before the
    view runs (``service.http.client_input.refuse_unknown_parameters``)."""

    class Meta:
        unknown = EXCLUDE


@cache
def _instance(schema: type[Query], only: tuple[str, ...] = ()) -> Query:
    return schema(only=only or None)


@cache
def parameter_names(schema: type[Query]) -> dict[str, bool]:
    """The names a schema's parameters are sent under → whether each may be repeated (asked on
    every request: worked out once; callers do not change the dict)."""
    return {field.data_key or name: isinstance(field, fields.List) for name, field in _instance(schema).fields.items()}


def load(schema: type[Query], *only: str) -> dict[str, Any]:
    """The request's query string read by ``schema`` (only the fields named, if any: a view that
    checks something of its own between two parameters reads them in two steps): an empty value is
    an absent one (the default); the first parameter in the schema's order that is refused raises
    its error."""
    query = _instance(schema, only)
    data: dict[str, Any] = {}
    for name, field in query.fields.items():
        key = field.data_key or name
        if isinstance(field, fields.List):
            values = request.args.getlist(key)
            if values:
                data[key] = values
        elif request.args.get(key):
            data[key] = request.args[key]
    try:
        return query.load(data)
    except ValidationError as e:
        raise first_error(query, e) from None


def first_error(query: Schema, error: ValidationError) -> Exception:
    """The service's error held by the first refused field in ``query``'s order (params, bodies)."""
    messages = error.messages if isinstance(error.messages, dict) else {}
    for name, field in query.fields.items():
        for refusal in messages.get(field.data_key or name, []):
            if isinstance(refusal, Exception):
                return refusal
    return error  # not one of ours: a bug, answered as one (500)
