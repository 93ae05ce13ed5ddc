"""Writes the generated reference pages: docs/cli.md from ``--help``, docs/api.md from /v1/openapi.json.

Run as ``scripts/docs`` (or ``.venv/bin/python scripts/reference.py``); ``--check`` writes nothing and
exits 1 naming each page that differs from what it would write (tests/test_docs.py runs it so).

The pages must come out the same on every machine: the help is Typer's plain formatter (not rich,
which draws boxes sized to the terminal), 80 columns wide, and the command runs with no lextools
variable of the environment set; the OpenAPI document is the one an app with the default config
serves, over an empty lexicon directory. The library and the service never import this script.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CLI_PAGE = ROOT / "docs" / "cli.md"
API_PAGE = ROOT / "docs" / "api.md"
WIDTH = 80

#: Variables that would change a default shown in the help or the document.
CLEARED = (
    "LEXTOOLS_HOME",
    "LEXTOOLS_CACHE",
    "LEXTOOLS_ALLOWED_HOSTS",
    "LEXTOOLS_DIRECTOR_TOKEN",
    "LEXTOOLS_SECRET",
    "LEXTOOLS_DATABASE_URL",
    "LEXTOOLS_TRUSTED_PROXIES",
)

METHODS = ("get", "post", "put", "delete")

#: The schema keywords of a range or size, and how the page writes them.
BOUNDS = {"minimum": "≥", "maximum": "≤", "minLength": "length ≥", "maxLength": "length ≤",
          "minItems": "items ≥", "maxItems": "items ≤"}  # fmt: skip


# --- docs/cli.md -----------------------------------------------------------------------------------


def cli_page() -> str:
    """Every command's and group's ``--help``, in the order ``lextools --help`` lists them."""
    paths = list(_command_paths())
    lines = [
        "# Command-line reference",
        "",
        "Generated from the `--help` of `lextools` and of every command by `scripts/docs`: do not edit it",
        "by hand (`tests/test_docs.py` fails when it is out of date). The manual is",
        "[command-line.md](command-line.md).",
        "",
        *(f"- [`{' '.join(path)}`](#{_anchor(' '.join(path))})" for path in paths),
        "",
    ]
    for path in paths:
        lines += [f"## {' '.join(path)}", "", "```text", _help(path[1:]).rstrip(), "```", ""]
    return "\n".join(lines)


def _command_paths() -> Iterator[tuple[str, ...]]:
    import typer  # lazy: after TYPER_USE_RICH=0 is set, which Typer reads when imported

    from lextools.cli.main import app  # lazy: the same

    root = typer.main.get_command(app)

    def walk(command: Any, path: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        yield path
        if hasattr(command, "list_commands"):
            with typer.Context(command, info_name=path[-1]) as ctx:
                for name in command.list_commands(ctx):
                    yield from walk(command.get_command(ctx, name), (*path, name))

    yield from walk(root, ("lextools",))


def _help(args: tuple[str, ...]) -> str:
    from typer.testing import CliRunner  # lazy: after TYPER_USE_RICH=0 is set

    from lextools.cli.main import app  # lazy: the same

    result = CliRunner().invoke(app, [*args, "--help"], prog_name="lextools", terminal_width=WIDTH)
    if result.exit_code != 0:
        raise SystemExit(f"lextools {' '.join(args)} --help exited {result.exit_code}: {result.output}")
    return result.output


def _anchor(title: str) -> str:
    return "-".join("".join(c for c in title.lower() if c.isalnum() or c in " -").split())


# --- docs/api.md -----------------------------------------------------------------------------------


def openapi_document() -> dict[str, Any]:
    """The document ``GET /v1/openapi.json`` serves with the default config."""
    from service import create_app  # lazy: only this page needs the service

    with tempfile.TemporaryDirectory() as empty:
        app = create_app({"LEXICONS": empty, "EXPORT_CACHE": str(Path(empty) / "exports"), "ALLOWED_HOSTS": ""})
        answer = app.test_client().get("/v1/openapi.json")
        if answer.status_code != 200:
            raise SystemExit(f"GET /v1/openapi.json answered {answer.status_code}")
        document: dict[str, Any] = answer.get_json()
        return document


def api_page(document: dict[str, Any]) -> str:
    info = document["info"]
    lines = [
        "# HTTP API reference",
        "",
        f"{info['title']}, version {info['version']}, OpenAPI {document['openapi']}.",
        "Generated from `GET /v1/openapi.json` by `scripts/docs`: do not edit it by hand",
        "(`tests/test_docs.py` fails when it is out of date). The manual is [service.md](service.md).",
        "",
        _paragraph(info.get("description", "")),
        "",
        "## Operations",
        "",
    ]
    operations = [(path, method) for path in sorted(document["paths"]) for method in METHODS
                  if method in document["paths"][path]]  # fmt: skip
    lines += [f"- [`{m.upper()} {p}`](#{_anchor(m + ' ' + p)})" for p, m in operations]
    lines.append("")
    for path, method in operations:
        lines += _operation(document, path, method, document["paths"][path][method])
    lines += _components(document)
    return "\n".join(lines).rstrip() + "\n"


def _operation(document: dict[str, Any], path: str, method: str, op: dict[str, Any]) -> list[str]:
    lines = [f"### {method.upper()} {path}", "", _paragraph(op.get("summary", "")), ""]
    if op.get("description"):
        lines += [_paragraph(op["description"]), ""]
    if op.get("security"):
        lines += ["Needs: " + ", ".join(f"`{name}`" for s in op["security"] for name in s) + " (bearer token).", ""]
    parameters = [_resolve(document, p) for p in op.get("parameters", [])]
    if parameters:
        lines += ["| parameter | in | type | description |", "|---|---|---|---|"]
        lines += [_parameter_row(p) for p in parameters]
        lines.append("")
    body = op.get("requestBody")
    if body:
        for media, content in body.get("content", {}).items():
            lines += [f"Request body ({media}{', required' if body.get('required') else ''}):", ""]
            lines += _schema_block(content.get("schema", {}))
    lines += ["| status | answer |", "|---|---|"]
    for status, response in op.get("responses", {}).items():
        lines.append(f"| {status} | {_cell(_response_text(document, response))} |")
    lines.append("")
    ok = _resolve(document, op.get("responses", {}).get("200", {}))
    for media, content in ok.get("content", {}).items():
        if "schema" in content:
            lines += [f"Answer 200 ({media}):", ""]
            lines += _schema_block(content["schema"])
    return lines


def _parameter_row(p: dict[str, Any]) -> str:
    name = f"`{p['name']}`" + (" (required)" if p.get("required") else "")
    return f"| {name} | {p['in']} | {_cell(_type(p.get('schema', {})))} | {_cell(p.get('description', ''))} |"


def _response_text(document: dict[str, Any], response: dict[str, Any]) -> str:
    resolved = _resolve(document, response)
    text = resolved.get("description", "")
    headers = resolved.get("headers", {})
    if headers:
        text += "; headers: " + ", ".join(f"`{h}`" for h in headers)
    return text


def _components(document: dict[str, Any]) -> list[str]:
    lines = ["## Schemas", ""]
    for name, schema in sorted(document.get("components", {}).get("schemas", {}).items()):
        lines += [f"### {name}", ""]
        if schema.get("description"):
            lines += [_paragraph(schema["description"]), ""]
        lines += _schema_block(schema)
    return lines


def _schema_block(schema: dict[str, Any]) -> list[str]:
    """A schema as a table of its properties (one level; nested objects and refs by their type), or
    as one line when it is not an object with properties; ``allOf`` as the schemas it joins."""
    if "allOf" in schema and len(schema["allOf"]) > 1:
        joined = [part for part in schema["allOf"] if "$ref" in part]
        lines = [f"The fields of {' and '.join(_type(part) for part in joined)}, and:", ""] if joined else []
        for part in schema["allOf"]:
            if "$ref" not in part:
                lines += _schema_block(part)
        return lines
    if "$ref" in schema or schema.get("type") != "object" or "properties" not in schema:
        return [f"{_type(schema)}" + (f": {schema['description']}" if schema.get("description") else ""), ""]
    required = set(schema.get("required", []))
    lines = ["| field | type | description |", "|---|---|---|"]
    for name, prop in schema["properties"].items():
        label = f"`{name}`" + ("" if name in required else " (optional)")
        lines.append(f"| {label} | {_cell(_type(prop))} | {_cell(prop.get('description', ''))} |")
    return [*lines, ""]


def _type(schema: dict[str, Any]) -> str:
    """A schema in a few words: its type or reference, enum, range, length and default."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{name.lower()})"
    if "oneOf" in schema or "anyOf" in schema:
        return " or ".join(_type(s) for s in schema.get("oneOf") or schema["anyOf"])
    if "allOf" in schema:
        return " and ".join(_type(s) for s in schema["allOf"]) + "".join(_facets(schema))
    kind = str(schema.get("type", "any"))
    if kind == "array":
        kind = f"array of {_type(schema.get('items', {}))}"
    elif kind == "object" and "properties" in schema:
        kind = "object {" + ", ".join(schema["properties"]) + "}"
    elif kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        kind = f"object of {_type(schema['additionalProperties'])}"
    return kind + "".join(_facets(schema))


def _facets(schema: dict[str, Any]) -> Iterator[str]:
    if "format" in schema:
        yield f" ({schema['format']})"
    if schema.get("nullable"):
        yield " or null"
    if "enum" in schema:
        yield ": " + " \\| ".join(f"`{json.dumps(v, ensure_ascii=False)}`" for v in schema["enum"])
    bounds = [f"{word} {schema[key]}" for key, word in BOUNDS.items() if key in schema]
    if bounds:
        yield " (" + ", ".join(bounds) + ")"
    if "pattern" in schema:
        yield f", pattern `{schema['pattern']}`"
    if "default" in schema:
        yield f", default `{json.dumps(schema['default'], ensure_ascii=False)}`"


def _resolve(document: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        target: Any = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def _paragraph(text: str) -> str:
    """Prose of the document wrapped as the hand-written pages are (100 columns)."""
    return textwrap.fill(" ".join(text.split()), width=100, break_long_words=False, break_on_hyphens=False)


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|").replace("\\\\|", "\\|")


# --- writing and checking --------------------------------------------------------------------------


def pages() -> dict[Path, str]:
    return {CLI_PAGE: cli_page(), API_PAGE: api_page(openapi_document())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a page is out of date")
    args = parser.parse_args(argv)
    if os.environ.get("TYPER_USE_RICH") != "0" or any(name in os.environ for name in CLEARED):
        env = {k: v for k, v in os.environ.items() if k not in CLEARED} | {"TYPER_USE_RICH": "0"}
        os.execve(sys.executable, [sys.executable, __file__, *sys.argv[1:]], env)  # Typer reads it at import
    stale = []
    for path, text in pages().items():
        current = path.read_text("utf-8") if path.is_file() else None
        if current == text:
            continue
        if args.check:
            stale.append(path.relative_to(ROOT))
        else:
            path.write_text(text, "utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    for path in stale:
        print(f"{path} is out of date: run scripts/docs", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
