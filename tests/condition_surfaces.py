"""What the three faces of the search conditions show of the table (lextools.core.conditions.CONDITIONS):
the conditions' options in the CLI's ``--help`` of ``anagram`` and ``pattern``, the query parameters of
the API's anagram and search operations described by a row's help, and the search page's inputs with
their labels. Imported by tests/test_search_conditions.py, in its process and in one that adds a row
to the table first (this module imports the CLI and the service, which read the table when imported).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from lextools.cli.main import app as cli
from lextools.core import conditions as table
from service import create_app

#: An option's line in Typer's --help panel: ``│ --min-length   <int>  Shortest word, in tiles. │``.
_OPTION = re.compile(r"^│ --([a-z][a-z-]*)", re.MULTILINE)
#: A condition's input on the search page, and its label.
_INPUT = re.compile(r'<(?:input|select|textarea) id="c-\w+" name="(\w+)" data-condition')
_LABEL = re.compile(r'<label for="c-(\w+)" data-i18n="search_\w+">([^<]*)</label>')


def cli_options(command: str) -> list[str]:
    """The conditions ``lextools COMMAND --help`` lists in its "Search conditions" panel."""
    shown = CliRunner().invoke(cli, [command, "--help"], env={"COLUMNS": "200"}, catch_exceptions=False).stdout
    panel = shown[shown.index("Search conditions") :]
    return [name.replace("-", "_") for name in _OPTION.findall(panel[: panel.index("╰")])]


def api_parameters(doc: dict[str, Any], path: str) -> list[str]:
    """The query parameters of ``GET path`` that a row of the table, or a test's negation, describes
    (its English help)."""
    parameters = doc["paths"][path]["get"]["parameters"]
    named = [doc["components"]["parameters"][p["$ref"].rsplit("/", 1)[1]] if "$ref" in p else p for p in parameters]
    described = {c.name: c.help.en for c in table.parameters()}
    return [p["name"] for p in named if p["name"] in described and described[p["name"]] == p.get("description")]


def surfaces(home: Path, record: Path) -> dict[str, Any]:
    """The conditions each face shows, in its order, and the page's labels by edition."""
    client = create_app({"LEXICONS": home, "TESTING": True, "RECORD": record}).test_client()
    doc = client.get("/v1/openapi.json").get_json()
    pages = {edition: client.get(f"/search?edition={edition}").get_data(as_text=True) for edition in ("en", "es-fise")}
    return {
        "cli": {command: cli_options(command) for command in ("anagram", "pattern")},
        "api": {path: api_parameters(doc, path) for path in ("/v1/{edition}/anagrams/{rack}", "/v1/{edition}/search")},
        "page": _INPUT.findall(pages["en"]),
        "labels": {edition: dict(_LABEL.findall(html)) for edition, html in pages.items()},
    }
