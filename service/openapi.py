"""The OpenAPI 3 document of the service: operations and schemas written as dicts (shared parts
once), assembled by apispec.

Limits come from the running app's config and enums from ``service.limits`` and
``service.errors.ERRORS``, so the document states what the service enforces (a deployment that
raises ``MAX_BATCH`` publishes the new maximum). The query parameters each operation declares are
also the only ones the route accepts (``service.inputs.refuse_unknown_parameters``).
``tests/test_service_openapi.py`` validates the document with openapi-spec-validator and checks that
every route of the app is described, so a route added without its description fails the tests.
"""

from __future__ import annotations

import re
from typing import Any

from apispec import APISpec
from flask import Flask, current_app

from lextools import __version__
from lextools.core.edition import edition_names
from lextools.core.messages import LANGUAGES
from lextools.core.spelling import MAX_INPUT_CHARS
from lextools.features import quiz
from lextools.features.receipts import RECEIPT_FIELDS
from service.errors import ERRORS
from service.limits import (
    CHALLENGE_RATE,
    EXPORT_FORMATS,
    MAX_QUERY_TILES,
    MAX_WORD_CHARS,
    MAX_WORDS,
    NOTATIONS,
    ORDERS,
)

Schema = dict[str, Any]


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(type_: str) -> Schema:
    return {"type": type_, "nullable": True}


def _strings() -> Schema:
    return {"type": "array", "items": {"type": "string"}}


def _object(required: list[str], **properties: Schema) -> Schema:
    schema: Schema = {"type": "object", "properties": properties}
    if required:  # OpenAPI 3.0 refuses an empty list
        schema["required"] = required
    return schema


def _json(schema: Schema, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    return {str(s): {"$ref": f"#/components/responses/E{s}"} for s in statuses}


def _query(name: str, schema: Schema, description: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "schema": schema, "description": description}


#: Path parameters shared by many routes: components, named (apispec writes the $ref).
EDITION = "edition"
WORD = "word"

SCHEMAS: dict[str, Schema] = {
    "Error": _object(
        ["error"],
        error=_object(["code", "message"], code={"type": "string", "enum": list(ERRORS)}, message={"type": "string"}),
    ),
    "Tile": _object(
        ["label", "value", "count", "code"],
        label={"type": "string"},
        value=_nullable("integer"),
        count=_nullable("integer"),
        code={"type": "string", "description": "one character: FISE digit for CH/LL/RR (1, 2, 3)"},
    ),
    "LexiconMetadata": {
        **_object(
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
    "Edition": _object(
        ["name", "title", "language", "tiles", "challenge", "lexicon"],
        name={"type": "string"},
        title={"type": "string"},
        language={"type": "string"},
        total_tiles=_nullable("integer"),
        blanks=_nullable("integer"),
        tiles={"type": "array", "items": _ref("Tile")},
        letters_without_tile=_strings(),
        digraph_tiles=_strings(),
        digraphs_obligatory={"type": "boolean"},
        challenge={"type": "object", "additionalProperties": True},
        unverified=_nullable("string"),
        sources=_strings(),
        lexicon={"allOf": [_ref("LexiconMetadata")], "nullable": True},
        lexicon_error=_object(["code", "message"], code={"type": "string"}, message={"type": "string"}),
    ),
    "WordResult": _object(
        ["input", "word", "tiles", "valid", "score", "reason"],
        input={"type": "string"},
        word={**_nullable("string"), "description": "plain spelling; null when the word cannot be spelled"},
        tiles=_strings(),
        valid={"type": "boolean"},
        score={**_nullable("integer"), "description": "null where tile values are unverified"},
        reason={
            **_nullable("string"),
            "description": "why the word is not valid: the rule that removed it and the source form it came from",
        },
    ),
    "Hooks": _object(
        ["front", "back", "front_inner", "back_inner"],
        front=_strings(),
        back=_strings(),
        front_inner={"type": "boolean"},
        back_inner={"type": "boolean"},
    ),
    "WordAnswer": {
        "allOf": [
            _ref("WordResult"),
            _object(
                ["hooks"],
                hooks=_ref("Hooks"),
                rule={**_nullable("string"), "description": "the build rule that removed an invalid word"},
                sources={**_strings(), "description": "for a valid word: the sources that list it"},
            ),
        ]
    },
    "HooksAnswer": {
        "allOf": [
            _ref("Hooks"),
            _object(
                ["input", "word", "tiles", "valid"],
                input={"type": "string"},
                word={"type": "string"},
                tiles=_strings(),
                valid={"type": "boolean"},
            ),
        ]
    },
    "Ruling": _object(
        ["rules", "play_stands", "outcome", "challenger_penalty"],
        rules=_nullable("string"),
        play_stands={"type": "boolean"},
        outcome=_nullable("string"),
        challenger_penalty={**_nullable("string"), "description": "null when the challenger is not penalised"},
        source=_nullable("string"),
    ),
    "QuizQuestion": {
        **_object(
            ["id"],
            id={"type": "string", "description": "the question as text: a cardbox key"},
            rank=_nullable("integer"),
            ways=_nullable("integer"),
            rack={**_strings(), "description": "anagram, build: tiles, ? for a blank"},
            answers={
                "type": "array",
                "items": {"allOf": [_ref("Entry"), _object(["blanks"], blanks=_strings())]},
                "description": "anagram, build: every word the rack makes",
            },
            word={"type": "string"},
            tiles=_strings(),
            front={**_strings(), "description": "hooks: front hook tiles"},
            back={**_strings(), "description": "hooks: back hook tiles"},
            valid={"type": "boolean", "description": "word-or-phony: a word (true) or a phony"},
            **{"from": {**_nullable("string"), "description": "word-or-phony: the word a phony was made from"}},
        ),
        "additionalProperties": False,
    },
    "Entry": _object(["word", "tiles"], word={"type": "string"}, tiles=_strings()),
    "Receipt": {
        **_object(
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
    "RecordEntry": _object(
        ["id", "time", "edition", "checksum", "words", "acceptable"],
        id={"type": "string"},
        time={"type": "string", "format": "date-time"},
        edition={"type": "string"},
        checksum={"type": "string"},
        words=_strings(),
        acceptable={"type": "boolean"},
    ),
}

QUIZ_REQUIRED = ["edition", "type", "length", "blanks", "order", "ranked_by", "from", "to", "count", "questions"]
#: The quiz's query parameters (service/quiz.py reads the same names and lextools.features.quiz the same limits).
QUIZ_PARAMS = [
    _query("type", {"type": "string", "enum": list(quiz.QUIZ_TYPES), "default": "anagram"}, "quiz type"),
    _query(
        "length",
        {"type": "integer", "minimum": quiz.MIN_LENGTH, "maximum": quiz.MAX_LENGTH},
        "tiles per word or rack; default " + ", ".join(f"{k} {v}" for k, v in quiz.DEFAULT_LENGTH.items()),
    ),
    _query(
        "blanks",
        {"type": "integer", "minimum": 0, "maximum": quiz.MAX_BLANKS, "default": 0},
        "blanks on an anagram or build rack, and blanks a draw may use in the probability count (as Zyzzyva)",
    ),
    _query("order", {"type": "string", "enum": list(quiz.ORDERS), "default": "probability"}, "question order"),
    _query(
        "from",
        {"type": "integer", "minimum": 1, "maximum": quiz.MAX_RANK, "default": 1},
        "first probability rank within the length",
    ),
    _query(
        "to",
        {"type": "integer", "minimum": 1, "maximum": quiz.MAX_RANK},
        "last probability rank (default: the last)",
    ),
    _query(
        "count",
        {"type": "integer", "minimum": 1, "maximum": quiz.MAX_COUNT, "default": quiz.DEFAULT_COUNT},
        "questions",
    ),
    _query(
        "seed",
        {"type": "integer", "minimum": 0, "maximum": quiz.MAX_SEED},
        "draw the questions at random from the range, the same for the same seed (default: the first ones)",
    ),
    _query(
        "min_length",
        {"type": "integer", "minimum": quiz.MIN_LENGTH, "maximum": quiz.MAX_LENGTH, "default": quiz.DEFAULT_BUILD_MIN},
        f"build: shortest word, in tiles (a build rack has at most {quiz.MAX_BUILD_LENGTH} tiles, "
        f"and a build quiz at most {quiz.MAX_BUILD_COUNT} questions)",
    ),
    _query(
        "list",
        {"type": "string", "pattern": "^(two-tile|three-tile|high-value|with-.+)$"},
        "type=list: two-tile, three-tile, high-value (tiles worth "
        + str(quiz.HIGH_VALUE)
        + " or more), with-T for Ñ and each digraph tile (with-CH)",
    ),
]


def _responses() -> dict[str, Any]:
    def described(status: int, what: str) -> dict[str, Any]:
        codes = ", ".join(code for code, (code_status, _) in ERRORS.items() if code_status == status)
        return _json(_ref("Error"), f"{what} (codes: {codes})")

    return {
        "E400": described(400, "Malformed input: body, parameters, pattern, rack or cursor"),
        "E401": described(401, "The director token is missing or wrong"),
        "E403": described(403, "A browser sent it from another site's page (its Origin is not this server)"),
        "E404": described(404, "Unknown edition or route"),
        "E413": described(
            413,
            f"Body over {_limit('MAX_CONTENT_LENGTH')} bytes, or over {_limit('MAX_BATCH')} words "
            f"({MAX_WORDS} in a challenge)",
        ),
        "E415": described(415, "The body is not sent as Content-Type: application/json"),
        "E422": described(422, "The word cannot be spelled with the edition's tiles; the message says why"),
        "E429": described(429, f"More than {CHALLENGE_RATE} challenges a second from this client; not recorded"),
        "E503": described(503, "No usable lexicon for the edition on this server"),
    }


def _limit(name: str) -> int:
    """A limit as the running app enforces it (``service.limits.LIMITS``)."""
    return int(current_app.config[name])


def _page_params() -> list[dict[str, Any]]:
    """The page of a budgeted walk (search, anagrams): how many words, and where to resume."""
    budget = _limit("SEARCH_BUDGET_MS")
    return [
        _query(
            "limit",
            {"type": "integer", "minimum": 1, "maximum": _limit("SEARCH_MAX_LIMIT"), "default": _limit("SEARCH_LIMIT")},
            f"words per page; a page also stops after {budget} ms of work",
        ),
        _query("cursor", {"type": "string"}, "next_cursor of the previous page: resumes where its work stopped"),
    ]


def _page_fields() -> dict[str, Schema]:
    return {
        "count": {"type": "integer", "description": "words in this page"},
        "truncated": {"type": "boolean", "description": "the page stopped at its limit or work budget"},
        "next_cursor": {**_nullable("string"), "description": "present when truncated: fetches what follows"},
    }


def _search_params() -> list[dict[str, Any]]:
    return [
        _query(
            "pattern",
            {"type": "string", "maxLength": MAX_INPUT_CHARS},
            "? is one tile, * any run of tiles; tiles in any notation",
        ),
        _query("length", {"type": "integer", "minimum": 1, "maximum": MAX_QUERY_TILES}, "length in tiles"),
        _query("contains", {"type": "string"}, "tiles the word contains"),
        _query("starts", {"type": "string"}, "tiles the word starts with"),
        _query("ends", {"type": "string"}, "tiles the word ends with"),
        _query("order", {"type": "string", "enum": list(ORDERS), "default": ORDERS[0]}, "result order"),
        *_page_params(),
    ]


def _paths() -> dict[str, Any]:
    batch = _limit("MAX_BATCH")
    words_body = {
        "required": True,
        "content": {
            "application/json": {
                "schema": _object(["words"], words={"type": "array", "items": {"type": "string"}, "maxItems": batch})
            }
        },
        "description": "Read as JSON whatever the Content-Type.",
    }
    challenge_body = {
        "required": True,
        "description": "Content-Type: application/json only.",
        "content": {
            "application/json": {
                "schema": _object(
                    ["words"],
                    # a challenge is of a play, so of one word at least (check takes an empty list)
                    words={
                        "type": "array",
                        "items": {"type": "string", "minLength": 1, "maxLength": MAX_WORD_CHARS},
                        "minItems": 1,
                        "maxItems": MAX_WORDS,
                    },
                    reveal={"type": "boolean", "default": False, "description": "include per-word results"},
                )
            }
        },
    }
    return {
        "/healthz": {
            "get": {
                "summary": "Liveness",
                "operationId": "healthz",
                "responses": {"200": _json(_object(["status"], status={"type": "string"}), "Alive")},
            }
        },
        "/v1/openapi.json": {
            "get": {
                "summary": "This document",
                "operationId": "openapi",
                "responses": {"200": _json({"type": "object"}, "OpenAPI 3 document")},
            }
        },
        "/v1/editions": {
            "get": {
                "summary": "Every edition: tile table and lexicon metadata",
                "operationId": "listEditions",
                "responses": {
                    "200": _json(
                        _object(["editions"], editions={"type": "array", "items": _ref("Edition")}), "Editions"
                    )
                },
            }
        },
        "/v1/editions/{edition}": {
            "get": {
                "summary": "One edition: tile table and lexicon metadata (word count, sources, build date, checksum)",
                "operationId": "getEdition",
                "parameters": [EDITION],
                "responses": {"200": _json(_ref("Edition"), "The edition"), **_errors(400, 404)},
            }
        },
        "/v1/{edition}/words/{word}": {
            "get": {
                "summary": "Validity, tiles, score and hooks of one word",
                "operationId": "getWord",
                "parameters": [EDITION, WORD],
                "responses": {"200": _json(_ref("WordAnswer"), "The word"), **_errors(400, 404, 422, 503)},
            }
        },
        "/v1/{edition}/check": {
            "post": {
                "summary": f"Validity of up to {batch} words, one result per word in order",
                "operationId": "check",
                "parameters": [EDITION],
                "requestBody": words_body,
                "responses": {
                    "200": _json(
                        _object(
                            ["edition", "results"],
                            edition={"type": "string"},
                            results={"type": "array", "items": _ref("WordResult")},
                        ),
                        "Results",
                    ),
                    **_errors(400, 404, 413, 503),
                },
            }
        },
        "/v1/{edition}/challenge": {
            "post": {
                "summary": "Judge a challenged play, record it, answer with a signed receipt; per-word "
                "results only with reveal. Only from this server's own pages (Origin) or from non-browsers.",
                "operationId": "challenge",
                "parameters": [EDITION],
                "requestBody": challenge_body,
                "responses": {
                    "200": _json(
                        _object(
                            ["edition", "words", "acceptable", "ruling"],
                            edition={"type": "string"},
                            words={"type": "integer"},
                            acceptable={"type": "boolean"},
                            ruling=_ref("Ruling"),
                            receipt=_ref("Receipt"),
                            results={"type": "array", "items": _ref("WordResult")},
                        ),
                        "The judgement",
                    ),
                    **_errors(400, 403, 404, 413, 415, 429, 503),
                },
            }
        },
        "/v1/record": {
            "get": {
                "summary": "The challenge record, for the tournament director (Authorization: Bearer "
                "$LEXTOOLS_DIRECTOR_TOKEN; 404 when the server has no token)",
                "operationId": "getRecord",
                "security": [{"director": []}],
                "parameters": [
                    _query("since", {"type": "string"}, "only challenges from this time on (ISO 8601; UTC if no zone)"),
                    _query("format", {"type": "string", "enum": ["json", "csv"], "default": "json"}, "json or csv"),
                ],
                "responses": {
                    "200": {
                        "description": "The challenges, oldest first",
                        "content": {
                            "application/json": {
                                "schema": _object(
                                    ["challenges"], challenges={"type": "array", "items": _ref("RecordEntry")}
                                )
                            },
                            "text/csv": {"schema": {"type": "string"}},
                        },
                    },
                    **_errors(400, 401, 404),
                },
            }
        },
        "/v1/{edition}/hooks/{word}": {
            "get": {
                "summary": "Front and back hook tiles, and inner-hook flags",
                "operationId": "getHooks",
                "parameters": [EDITION, WORD],
                "responses": {"200": _json(_ref("HooksAnswer"), "Hooks"), **_errors(400, 404, 422, 503)},
            }
        },
        "/v1/{edition}/score/{word}": {
            "get": {
                "summary": "Score tile by tile (no board premiums)",
                "operationId": "getScore",
                "parameters": [
                    EDITION,
                    WORD,
                    {
                        "name": "blank",
                        "in": "query",
                        "required": False,
                        "style": "form",
                        "explode": True,
                        "schema": {"type": "array", "items": {"type": "integer", "minimum": 1}},
                        "description": "1-based position of a tile played with a blank (repeatable)",
                    },
                ],
                "responses": {
                    "200": _json(
                        _object(
                            ["input", "word", "tiles", "score", "verified"],
                            input={"type": "string"},
                            word={"type": "string"},
                            tiles={
                                "type": "array",
                                "items": _object(
                                    ["tile", "blank", "value"],
                                    tile={"type": "string"},
                                    blank={"type": "boolean"},
                                    value=_nullable("integer"),
                                ),
                            },
                            score=_nullable("integer"),
                            verified={"type": "boolean"},
                        ),
                        "The score",
                    ),
                    **_errors(400, 404, 422),
                },
            }
        },
        "/v1/{edition}/two-tile-words": {
            "get": {
                "summary": "Words of two tiles (es-fise: includes CHA, CHE, CHO, LLE)",
                "operationId": "twoTileWords",
                "parameters": [EDITION],
                "responses": {
                    "200": _json(
                        _object(
                            ["edition", "count", "words"],
                            edition={"type": "string"},
                            count={"type": "integer"},
                            words={"type": "array", "items": _ref("Entry")},
                        ),
                        "Words",
                    ),
                    **_errors(400, 404, 503),
                },
            }
        },
        "/v1/{edition}/anagrams/{rack}": {
            "get": {
                "summary": "Anagrams of a rack; ? (sent as %3F) is a blank",
                "operationId": "anagrams",
                "parameters": [
                    EDITION,
                    {
                        "name": "rack",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                        "description": "tiles in any notation, ? for a blank",
                    },
                    _query("sub", {"type": "boolean", "default": False}, "subanagrams too"),
                    _query(
                        "min_length",
                        {"type": "integer", "minimum": 1, "maximum": MAX_QUERY_TILES, "default": 2},
                        "shortest word, in tiles",
                    ),
                    *_page_params(),
                ],
                "responses": {
                    "200": _json(
                        _object(
                            [
                                "edition",
                                "rack",
                                "blanks",
                                "sub",
                                "min_length",
                                "count",
                                "truncated",
                                "words",
                                "next_cursor",
                            ],
                            edition={"type": "string"},
                            rack={"type": "string"},
                            blanks={"type": "integer", "maximum": _limit("MAX_RACK_BLANKS")},
                            sub={"type": "boolean"},
                            min_length={"type": "integer"},
                            words={
                                "type": "array",
                                "items": {"allOf": [_ref("Entry"), _object(["blanks"], blanks=_strings())]},
                            },
                            **_page_fields(),
                        ),
                        "Anagrams, longest first, then by alphagram, then alphabetical",
                    ),
                    **_errors(400, 404, 503),
                },
            }
        },
        "/v1/{edition}/search": {
            "get": {
                "summary": "Words by pattern, length, contained tiles, start and end; paged",
                "operationId": "search",
                "parameters": [EDITION, *_search_params()],
                "responses": {
                    "200": _json(
                        _object(
                            ["edition", "order", "count", "truncated", "words", "next_cursor"],
                            edition={"type": "string"},
                            order={"type": "string", "enum": list(ORDERS)},
                            words={"type": "array", "items": _ref("Entry")},
                            **_page_fields(),
                        ),
                        "A page",
                    ),
                    **_errors(400, 404, 503),
                },
            }
        },
        "/v1/{edition}/quiz": {
            "get": {
                "summary": "A word-study quiz (anagram, build, hooks, word-or-phony, word list); same seed, same quiz",
                "operationId": "quiz",
                "parameters": [EDITION, *QUIZ_PARAMS],
                "responses": {
                    "200": _json(
                        _object(
                            QUIZ_REQUIRED,
                            edition={"type": "string"},
                            type={"type": "string", "enum": list(quiz.QUIZ_TYPES)},
                            list=_nullable("string"),
                            length={"type": "integer"},
                            blanks={"type": "integer"},
                            min_length=_nullable("integer"),
                            order={"type": "string", "enum": list(quiz.ORDERS)},
                            ranked_by={"type": "string", "enum": list(quiz.ORDERS)},
                            to={"type": "integer"},
                            in_range={"type": "integer", "description": "items ranked from..to"},
                            seed=_nullable("integer"),
                            count={"type": "integer"},
                            questions={"type": "array", "items": _ref("QuizQuestion")},
                            **{"from": {"type": "integer"}},
                        ),
                        "The questions with their answers",
                    ),
                    **_errors(400, 404, 503),
                },
            }
        },
        "/v1/{edition}/export": {
            "get": {
                "summary": "The whole word list, streamed; ETag is the lexicon checksum",
                "operationId": "export",
                "parameters": [
                    EDITION,
                    _query(
                        "format",
                        {"type": "string", "enum": list(EXPORT_FORMATS), "default": EXPORT_FORMATS[0]},
                        "txt: one word per line; dawg: the words DAWG as built (digit-notation keys); "
                        "kwg: wolges' KWG (DAWG only); kwg-gaddag: GADDAG + DAWG KWG; kad: alphagram KWG",
                    ),
                    _query(
                        "notation",
                        {"type": "string", "enum": list(NOTATIONS), "default": NOTATIONS[0]},
                        "txt only: CHIQUILLO, 1IQUI2O or [CH]IQUI[LL]O",
                    ),
                    {"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": {
                        "description": "The list",
                        "headers": {"ETag": {"schema": {"type": "string"}}},
                        "content": {
                            "text/plain": {"schema": {"type": "string"}},
                            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
                        },
                    },
                    "304": {
                        "description": "Unchanged since the ETag sent in If-None-Match",
                        "headers": {"ETag": {"schema": {"type": "string"}}},
                    },
                    **_errors(400, 404, 503),
                },
            }
        },
        "/v1/{edition}/manifest": {
            "get": {
                "summary": "How to load an export: format, layout, alphabet with tile numbers, sha256, provenance",
                "operationId": "manifest",
                "parameters": [
                    EDITION,
                    _query(
                        "format",
                        {"type": "string", "enum": list(EXPORT_FORMATS), "default": "kwg"},
                        "the export it describes",
                    ),
                    _query(
                        "notation",
                        {"type": "string", "enum": list(NOTATIONS), "default": "plain"},
                        "txt only",
                    ),
                ],
                "responses": {
                    "200": _json(
                        _object(
                            [
                                "manifest_version",
                                "format",
                                "layout",
                                "edition",
                                "alphabet",
                                "words",
                                "files",
                                "lexicon",
                            ],
                            manifest_version={"type": "integer"},
                            format={"type": "string", "enum": list(EXPORT_FORMATS)},
                            layout={"type": "object"},
                            edition={"type": "string"},
                            alphabet={"type": "object"},
                            words={"type": "integer"},
                            files={"type": "array", "items": {"type": "object"}},
                            lexicon={"type": "object"},
                        ),
                        "The manifest (the same as FILE.manifest.json beside a CLI export)",
                    ),
                    **_errors(400, 404, 503),
                },
            }
        },
    }


#: Sent with every answer about one edition, so a client sees a rebuilt lexicon swapped in.
_CHECKSUM_HEADERS = {
    "X-Lexicon-Checksum": {
        "description": "checksum of the lexicon that answered (changes when a rebuild is swapped in)",
        "schema": {"type": "string"},
    }
}


def _with_checksum_header(paths: dict[str, Any]) -> dict[str, Any]:
    for path, operations in paths.items():
        if "{edition}" in path:
            for operation in operations.values():
                for status, response in operation["responses"].items():
                    if status in ("200", "304"):
                        response["headers"] = {**response.get("headers", {}), **_CHECKSUM_HEADERS}
    return paths


#: The language of reasons, rulings and error messages, on every route about an edition: declared
#: inline (not as a $ref) because the declared query parameters are the ones a route accepts.
_LANG = _query(
    "lang",
    {"type": "string", "enum": list(LANGUAGES)},
    "language of reasons, rulings and errors; else Accept-Language, else the edition's language",
)


def _with_lang(paths: dict[str, Any]) -> dict[str, Any]:
    """Every answer about an edition words its reasons, rulings and errors in ``lang`` (service/language.py)."""
    for path, operations in paths.items():
        if "{edition}" in path:
            for operation in operations.values():
                operation["parameters"] = [*operation.get("parameters", []), dict(_LANG)]
    return paths


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


def query_parameters(rule: str, method: str) -> dict[str, bool] | None:
    """The query parameters the operation of a Flask rule declares (name → repeatable, i.e. an
    array); None for a route the document does not describe (the HTML pages)."""
    operations = document()["paths"].get(re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule))
    if operations is None:
        return None
    operation = operations.get(method.lower()) or operations.get("get", {})  # HEAD, OPTIONS: as GET
    params = [p for p in operation.get("parameters", []) if p.get("in") == "query"]  # path ones are $refs
    return {p["name"]: p["schema"].get("type") == "array" for p in params}


def _build() -> dict[str, Any]:
    """The document assembled by apispec: it keeps the components and refuses a name registered
    twice (two routes' schemas colliding); the dicts above are what it is given."""
    spec = APISpec(
        title="lextools word-validation service",
        version=__version__,
        openapi_version="3.0.3",
        info={
            "description": "Scrabble lexicons per edition over HTTP. Errors share one shape, "
            '{"error": {"code", "message"}}. GET routes and POST check allow any origin (CORS); the '
            "challenge, which writes the record, only this server's own pages."
        },
        servers=[{"url": "/"}],
    )
    for name, schema in SCHEMAS.items():
        spec.components.schema(name, schema)
    for name, response in _responses().items():
        spec.components.response(name, response)
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
    for path, operations in _with_lang(_with_checksum_header(_paths())).items():
        spec.path(path=path, operations=operations)
    return spec.to_dict()
