"""Each operation's query schema (service/contract/operations.py, service/contract/params.py) is the one list of its
parameters: the view reads them with it, the route refuses any other, the document describes it."""

from __future__ import annotations

import pytest
from flask import Blueprint, Flask
from flask.testing import FlaskClient

from lextools.features.quiz import QuizRequest
from service.contract.operations import OPERATIONS, NoQuery, operation, query_parameters
from service.contract.params import parameter_names


def test_the_document_describes_each_schema_and_the_route_takes_it(app: Flask, client: FlaskClient) -> None:
    paths = client.get("/v1/openapi.json").json["paths"]
    assert OPERATIONS
    for op in OPERATIONS:
        documented = {
            p["name"]: p["schema"].get("type") == "array"
            for p in paths[op.path][op.method]["parameters"]
            if p.get("in") == "query"
        }
        assert documented == parameter_names(op.query) == query_parameters(op.endpoint, op.method), op.path


def test_the_quiz_defaults_are_the_library_request_defaults(client: FlaskClient) -> None:
    quiz = client.get("/v1/openapi.json").json["paths"]["/v1/{edition}/quiz"]["get"]
    defaults = {p["name"]: p["schema"].get("default") for p in quiz["parameters"] if p.get("in") == "query"}
    request = QuizRequest()
    assert defaults["type"] == request.type and defaults["order"] == request.order
    assert defaults["blanks"] == request.blanks and defaults["count"] == request.count
    assert defaults["from"] == request.rank_from and defaults["min_length"] == request.min_length


def test_a_refused_parameter_is_the_first_in_the_order_the_view_reads_them(client: FlaskClient) -> None:
    """The search reads its page (order, limit, cursor) before its filters: a bad cursor is named first."""
    both = client.get("/v1/es-fise/search?cursor=bad&length=99", headers={"Accept-Language": "en"})
    cursor = client.get("/v1/es-fise/search?cursor=bad", headers={"Accept-Language": "en"})
    assert both.status_code == 400 and both.json == cursor.json
    r = client.get("/v1/es-fise/search?length=99&order=zz&lang=en")
    assert r.json["error"]["message"].startswith("order")
    r = client.get("/v1/es-fise/quiz?count=0&type=zz&lang=en")
    assert r.json["error"]["message"].startswith("type")


def test_a_route_about_an_edition_must_take_lang() -> None:
    bp = Blueprint("nowhere", __name__, url_prefix="/v1/<edition>")
    with pytest.raises(TypeError, match="lang"):
        operation(bp, "/nothing", query=NoQuery, summary="-")


def test_a_page_is_no_operation() -> None:
    assert query_parameters("pages.judge", "GET") is None
    assert query_parameters("words.check", "OPTIONS") == {}  # as before: only GET lends its parameters
