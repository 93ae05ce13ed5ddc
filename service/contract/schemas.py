"""The shapes of the API's answers, as OpenAPI schema objects: the components several operations
share (``SCHEMAS``), the error responses (``RESPONSES``), and the helpers the views' declarations
(``service/contract/operations.py``) write their own answers with.

A number that is app config (``MAX_BATCH``) is written as :class:`Limit` and a text that names one as
:class:`Limited`: ``service/contract/openapi.py`` puts the running app's values in, so a deployment that
raises a limit publishes the new one.
"""

from __future__ import annotations

from typing import Any

from lextools.features.receipts import RECEIPT_FIELDS
from service.http.errors import ERRORS
from service.http.limits import CHALLENGE_RATE, MAX_WORDS

Schema = dict[str, Any]


class Limit:
    """An app config value (``service.http.limits.LIMITS``), as the running app has it."""

    def __init__(self, key: str) -> None:
        self.key = key


class Limited(str):
    """A text naming app config values as ``{KEY}``, written with the running app's values."""


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(type_: str) -> Schema:
    return {"type": type_, "nullable": True}


def strings() -> Schema:
    return {"type": "array", "items": {"type": "string"}}


def obj(required: list[str], **properties: Schema) -> Schema:
    schema: Schema = {"type": "object", "properties": properties}
    if required:  # OpenAPI 3.0 refuses an empty list
        schema["required"] = required
    return schema


def json_response(schema: Schema, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def errors(*statuses: int) -> dict[str, Any]:
    return {str(s): {"$ref": f"#/components/responses/E{s}"} for s in statuses}


SCHEMAS: dict[str, Schema] = {
    "Error": obj(
        ["error"],
        error=obj(["code", "message"], code={"type": "string", "enum": list(ERRORS)}, message={"type": "string"}),
    ),
    "Tile": obj(
        ["label", "value", "count", "code"],
        label={"type": "string"},
        value=nullable("integer"),
        count=nullable("integer"),
        code={"type": "string", "description": "one character: FISE digit for CH/LL/RR (1, 2, 3)"},
    ),
    "LexiconMetadata": {
        **obj(
            ["checksum", "words", "sources", "built"],
            checksum={"type": "string", "description": "sha256 of the words DAWG; the export ETag"},
            words={"type": "integer"},
            built={"type": "string", "format": "date-time"},
            sources={"type": "array", "items": {"type": "object", "additionalProperties": True}},
            counts={"type": "object", "additionalProperties": True},
            files={"type": "object", "additionalProperties": True},
        ),
        "additionalProperties": True,
    },
    "Edition": obj(
        ["name", "title", "language", "tiles", "challenge", "lexicon"],
        name={"type": "string"},
        title={"type": "string"},
        language={"type": "string"},
        total_tiles=nullable("integer"),
        blanks=nullable("integer"),
        tiles={"type": "array", "items": ref("Tile")},
        letters_without_tile=strings(),
        digraph_tiles=strings(),
        digraphs_obligatory={"type": "boolean"},
        challenge={"type": "object", "additionalProperties": True},
        unverified=nullable("string"),
        sources=strings(),
        lexicon={"allOf": [ref("LexiconMetadata")], "nullable": True},
        lexicon_error=obj(["code", "message"], code={"type": "string"}, message={"type": "string"}),
    ),
    "WordResult": obj(
        ["input", "word", "tiles", "valid", "score", "reason"],
        input={"type": "string"},
        word={**nullable("string"), "description": "plain spelling; null when the word cannot be spelled"},
        tiles=strings(),
        valid={"type": "boolean"},
        score={**nullable("integer"), "description": "null where tile values are unverified"},
        reason={
            **nullable("string"),
            "description": "why the word is not valid: the rule that removed it and the source form it came from",
        },
    ),
    "Hooks": obj(
        ["front", "back", "front_inner", "back_inner"],
        front=strings(),
        back=strings(),
        front_inner={"type": "boolean"},
        back_inner={"type": "boolean"},
    ),
    "WordAnswer": {
        "allOf": [
            ref("WordResult"),
            obj(
                ["hooks"],
                hooks=ref("Hooks"),
                rule={**nullable("string"), "description": "the build rule that removed an invalid word"},
                sources={**strings(), "description": "for a valid word: the sources that list it"},
            ),
        ]
    },
    "WordCard": {
        "allOf": [
            ref("WordResult"),
            obj(
                ["edition", "values", "alphagram", "alphagram_tiles", "rank", "anagrams", "hooks", "rule", "sources"],
                edition={"type": "string"},
                values={**strings(), "items": nullable("integer"), "description": "each tile's value"},
                alphagram={"type": "string", "description": "the tiles in the edition's alphabet"},
                alphagram_tiles=strings(),
                rank={
                    **obj(
                        ["rank", "of", "order"],
                        rank={"type": "integer", "description": "1-based, among the words of its length in tiles"},
                        of={"type": "integer", "description": "words of that length"},
                        order={"type": "string", "enum": ["probability", "alpha"]},
                    ),
                    "nullable": True,
                    "description": "null for a word not in the lexicon; alpha where tile counts are unverified",
                },
                anagrams={"type": "array", "items": ref("Entry"), "description": "the other words of its tiles"},
                hooks={
                    "allOf": [
                        ref("Hooks"),
                        obj(
                            ["hooked"], hooked={"type": "string", "description": "the word with inner-hook dots: ·ALA·"}
                        ),
                    ]
                },
                rule={**nullable("string"), "description": "the build rule that removed an invalid word"},
                sources={**strings(), "description": "for a valid word: the sources that list it"},
            ),
        ]
    },
    "HooksAnswer": {
        "allOf": [
            ref("Hooks"),
            obj(
                ["input", "word", "tiles", "valid"],
                input={"type": "string"},
                word={"type": "string"},
                tiles=strings(),
                valid={"type": "boolean"},
            ),
        ]
    },
    "Ruling": obj(
        ["rules", "play_stands", "outcome", "challenger_penalty"],
        rules=nullable("string"),
        play_stands={"type": "boolean"},
        outcome=nullable("string"),
        challenger_penalty={**nullable("string"), "description": "null when the challenger is not penalised"},
        source=nullable("string"),
    ),
    "QuizQuestion": {
        **obj(
            ["id"],
            id={"type": "string", "description": "the question as text: a cardbox key"},
            rank=nullable("integer"),
            ways=nullable("integer"),
            rack={**strings(), "description": "anagram, build: tiles, ? for a blank"},
            answers={
                "type": "array",
                "items": {"allOf": [ref("Entry"), obj(["blanks"], blanks=strings())]},
                "description": "anagram, build: every word the rack makes",
            },
            word={"type": "string"},
            tiles=strings(),
            front={**strings(), "description": "hooks: front hook tiles"},
            back={**strings(), "description": "hooks: back hook tiles"},
            valid={"type": "boolean", "description": "word-or-phony: a word (true) or a phony"},
            **{"from": {**nullable("string"), "description": "word-or-phony: the word a phony was made from"}},
        ),
        "additionalProperties": False,
    },
    "Entry": obj(["word", "tiles"], word={"type": "string"}, tiles=strings()),
    "Receipt": {
        **obj(
            list(RECEIPT_FIELDS),
            id={"type": "string"},
            time={"type": "string", "format": "date-time"},
            edition={"type": "string"},
            checksum={"type": "string", "description": "the lexicon that judged"},
            acceptable={"type": "boolean"},
            signature={
                "type": "string",
                "description": "HMAC-SHA256 (hex) over id, time, edition, checksum, words, acceptable; "
                "check it with `lextools receipt verify`",
            },
        ),
        "description": "Proof of the ruling; the words are signed but not repeated (the record has them)",
    },
    "RecordEntry": obj(
        ["id", "time", "edition", "checksum", "words", "acceptable"],
        id={"type": "string"},
        time={"type": "string", "format": "date-time"},
        edition={"type": "string"},
        checksum={"type": "string"},
        words=strings(),
        acceptable={"type": "boolean"},
    ),
}


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
    "E415": _described(415, "The body is not sent as Content-Type: application/json"),
    "E422": _described(422, "The word cannot be spelled with the edition's tiles; the message says why"),
    "E429": _described(429, f"More than {CHALLENGE_RATE} challenges a second from this client; not recorded"),
    "E503": _described(503, "No usable lexicon for the edition on this server"),
}


def page_fields() -> dict[str, Schema]:
    """The fields of a page of a budgeted walk (search, anagrams)."""
    return {
        "count": {"type": "integer", "description": "words in this page"},
        "truncated": {"type": "boolean", "description": "the page stopped at its limit or work budget"},
        "next_cursor": {**nullable("string"), "description": "present when truncated: fetches what follows"},
    }
