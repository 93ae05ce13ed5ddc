"""JSON request bodies as marshmallow schemas: one schema, declared on the view that reads it
(``body=`` of :func:`service.contract.operations.operation`), says how the body is read, which
values it takes and what the OpenAPI document says of it (its ``requestBody``).

Each field refuses a value it cannot take with the service's own error — the checks of
:func:`service.http.client_input.words_of` and :func:`service.http.client_input.flag`, the messages the service
has always answered with — and :func:`load_body` raises the one of the first field in declaration
order, as a view reading the fields one after the other would.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from marshmallow import EXCLUDE, ValidationError, fields, missing

from service.contract.params import Bound, Documented, bound, first_error, refused
from service.contract.schemas import Inlined
from service.http.client_input import flag, json_body, words_of
from service.http.errors import ServiceError


class Body(Inlined):
    """A JSON body, written inline in the document's request body; a field it does not declare is
    ignored (it always was)."""

    class Meta:
        unknown = EXCLUDE


class Words(fields.List, Documented):
    """A list of words: strings only, at most ``limit`` of them (a number, or an app config key),
    none at all only with ``allow_empty``; an absent list is ``default`` (None: refused as no list).
    ``check`` adds what a route refuses besides (a challenge's longest word)."""

    def __init__(
        self,
        *,
        limit: Bound,
        allow_empty: bool,
        default: list[str] | None = None,
        check: Callable[[list[str]], None] | None = None,
        item: fields.String | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(item or fields.String(), **kwargs)
        self.limit, self.allow_empty, self.default, self.check = limit, allow_empty, default, check

    def deserialize(self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any) -> Any:
        if value is missing:
            value = None if self.default is None else list(self.default)
        try:
            words = words_of({"words": value}, allow_empty=self.allow_empty, limit=bound(self.limit))
            if self.check is not None:
                self.check(words)
        except ServiceError as e:
            raise refused(e) from None
        return words

    def openapi(self) -> dict[str, Any]:
        """The limit, unless the metadata documents a tighter one (a challenge's ``check``)."""
        out = {} if "maxItems" in self.metadata else {"maxItems": bound(self.limit)}
        return out if self.allow_empty else {**out, "minItems": 1}


class BodyFlag(fields.Boolean):
    """true or false, as JSON writes them (not "yes", not 1); absent, ``load_default``."""

    def deserialize(self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any) -> bool:
        name = self.data_key or attr or ""
        try:
            return flag({} if value is missing else {name: value}, name, default=bool(self.load_default))
        except ServiceError as e:
            raise refused(e) from None


def load_body(schema: type[Body]) -> dict[str, Any]:
    """The request's JSON body (:func:`service.http.client_input.json_body`: an object, whatever the
    Content-Type) read by ``schema``; the first field in the schema's order that is refused raises its error."""
    body = json_body()
    reader = _instance(schema)
    try:
        out: dict[str, Any] = reader.load(body)
    except ValidationError as e:
        raise first_error(reader, e) from None
    return out


@cache
def _instance(schema: type[Body]) -> Body:
    return schema()
