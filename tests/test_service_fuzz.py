"""Schema-driven fuzzing: schemathesis reads /v1/openapi.json and throws generated requests at the app.

Every operation gets schema-valid and schema-violating requests (path, query, headers, body), sent
in-process through WSGI. Whatever comes back must be what the document promises: never a 5xx, a
documented status code, the documented content type, a body that validates against the documented
schema — and every error in the one shape of service/http/errors.py.

The document is read from the running app (not from ``service.contract.openapi`` directly), so a route that
serves something other than what it documents is caught. The schema is loaded at import time from an
app over an empty directory (the document does not depend on the lexicons); the requests go to an
app over the small test lexicons, so lookups, searches and exports really run.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from service import create_app
from service.contract.openapi import document

with tempfile.TemporaryDirectory() as _empty:
    schema = schemathesis.openapi.from_wsgi("/v1/openapi.json", create_app({"LEXICONS": _empty}))

#: Operations whose every schema-valid request must succeed: nothing in them depends on whether a
#: word can be spelled, so the schema alone says what is acceptable.
#: (A challenge is not one: a word of at most 60 characters may still be more than 15 tiles, a 400.)
TOTAL_OPERATIONS = ["healthz", "openapi", "listEditions", "getEdition", "check", "twoTileWords", "export"]

#: service.create_app's default body limit: a schema-valid body may still be too large.
MAX_CONTENT_LENGTH = create_app({"LEXICONS": "."}).config["MAX_CONTENT_LENGTH"]

#: Keep the fuzz run inside the CI budget (two cores): about 15 s for every operation.
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


@schemathesis.check
def one_error_shape(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every 4xx is ``{"error": {"code": str, "message": str}}`` and nothing else (service/http/errors.py)."""
    if response.status_code < 400:
        return None
    body = json.loads(response.content)
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message"}, body
    assert isinstance(body["error"]["code"], str) and body["error"]["code"], body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"], body
    return True


@schemathesis.check
def schema_valid_is_answered(ctx: Any, response: Any, case: Any) -> bool | None:
    """A schema-valid request to a total operation gets its answer (2xx, or 304 for a matching ETag).

    The one exception the document allows is a body over the size limit (413), which the schema
    cannot express.
    """
    if case.meta is None or case.meta.generation.mode != GenerationMode.POSITIVE:
        return None
    if response.status_code == 413 and len(response.request.body or b"") > MAX_CONTENT_LENGTH:
        return True
    assert response.status_code in (200, 304), (response.status_code, response.content[:300])
    return True


CONFORMANCE = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
    one_error_shape,
]


@pytest.fixture(scope="module")
def fuzz_app(lexicon_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Flask:
    # The fuzzer sends far more than 10 challenges a second, all from one client.
    record = tmp_path_factory.mktemp("fuzz-record") / "challenges.sqlite3"
    return create_app({"LEXICONS": lexicon_home, "TESTING": True, "RECORD": record, "CHALLENGE_RATE": 1_000_000})


@schema.parametrize()
@FUZZ
def test_every_response_conforms_to_the_document(case: Any, fuzz_app: Flask) -> None:
    """Valid and invalid requests alike: no 5xx, and the answer is one the document describes."""
    case.call_and_validate(app=fuzz_app, checks=CONFORMANCE)


@schema.include(operation_id=TOTAL_OPERATIONS).parametrize()
@FUZZ
def test_schema_valid_requests_succeed(case: Any, fuzz_app: Flask) -> None:
    """Where the schema is the whole contract, what it allows the service accepts (no surprise 400)."""
    case.call_and_validate(app=fuzz_app, checks=[*CONFORMANCE, schema_valid_is_answered])


def test_the_fuzzer_reaches_every_operation() -> None:
    """Every documented operation is fuzzed, bar the document itself (schemathesis skips its source;
    tests/test_service_openapi.py validates it)."""
    documented = {
        op["operationId"]
        for path in document(create_app({"LEXICONS": _empty}))["paths"].values()
        for op in path.values()
    }
    fuzzed = {op.ok().definition.raw["operationId"] for op in schema.get_all_operations()}
    assert fuzzed == documented - {"openapi"}
    assert set(TOTAL_OPERATIONS) - {"openapi"} <= fuzzed


def test_each_fuzzed_operation_is_a_test_of_its_own(request: pytest.FixtureRequest) -> None:
    """Every test of the session has its own id, and each operation's fuzz test names its operation
    (tests/conftest.py): a failure says which operation failed, and pytest-xdist runs each of them."""
    ids = [item.nodeid.partition("@")[0] for item in request.session.items]
    assert len(ids) == len(set(ids))
    fuzzed = [i for i in ids if i.startswith("tests/test_service_fuzz.py::test_every_response_conforms")]
    labels = {op.ok().label for op in schema.get_all_operations()}
    assert {i.partition("[")[2].removesuffix("]") for i in fuzzed} <= labels  # all of them in a whole run
