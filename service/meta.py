"""What the service serves: health, the editions with their tile tables and lexicon metadata, OpenAPI."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from lextools import __version__
from lextools.core.edition import edition_names, load_edition
from lextools.core.errors import CorruptLexiconError, LexiconNotFoundError, path_text
from lextools.core.lexicon import Lexicon
from service.api import EditionQuery, operation
from service.errors import public_message
from service.lexicons import lexicon
from service.openapi import document
from service.shapes import errors, json_response, obj, ref

bp = Blueprint("meta", __name__)


@operation(
    bp,
    "/healthz",
    summary="Liveness",
    operationId="healthz",
    responses={"200": json_response(obj(["status"], status={"type": "string"}), "Alive")},
)
def healthz() -> dict[str, Any]:
    return {"status": "ok", "version": __version__}


@operation(
    bp,
    "/v1/openapi.json",
    summary="This document",
    operationId="openapi",
    responses={"200": json_response({"type": "object"}, "OpenAPI 3 document")},
)
def openapi() -> dict[str, Any]:
    return document()


@operation(
    bp,
    "/v1/editions",
    summary="Every edition: tile table and lexicon metadata",
    operationId="listEditions",
    responses={
        "200": json_response(obj(["editions"], editions={"type": "array", "items": ref("Edition")}), "Editions")
    },
)
def editions() -> dict[str, Any]:
    return {"editions": [describe(name) for name in edition_names()]}


@operation(
    bp,
    "/v1/editions/<edition>",
    query=EditionQuery,
    summary="One edition: tile table and lexicon metadata (word count, sources, build date, checksum)",
    operationId="getEdition",
    responses={"200": json_response(ref("Edition"), "The edition"), **errors(400, 404)},
)
def edition(edition: str) -> dict[str, Any]:
    return describe(edition)


def describe(name: str) -> dict[str, Any]:
    """The tile table, and the lexicon's metadata, or why this server has none for the edition.

    An edition without a usable lexicon is still described (its tiles and scores are facts of the
    edition), with ``lexicon: null`` and ``lexicon_error`` saying what is missing.
    """
    out = load_edition(name).as_dict()
    try:
        out["lexicon"] = public_metadata(lexicon(name))
    except (LexiconNotFoundError, CorruptLexiconError) as e:
        out["lexicon"] = None
        out["lexicon_error"] = {"code": e.code, "message": public_message(e)}
    return out


def public_metadata(lex: Lexicon) -> dict[str, Any]:
    """The metadata as built (see lextools.core.lexicon), less what tells about the build machine: the
    local paths to its sources and the versions of the tools it ran."""
    meta = {k: v for k, v in lex.metadata.items() if k != "tools"}
    meta["sources"] = [
        {k: (_names_shown(v) if k == "files" else v) for k, v in source.items() if k != "path"}
        for source in meta.get("sources", [])
        if isinstance(source, dict)
    ]
    return meta


def _names_shown(files: Any) -> Any:
    """A source's file names as shown: one that is not UTF-8 (FISE's Latin-1 names, kept as they
    round-trip, ``\\udcd3``) escaped, so the answer is UTF-8 text."""
    return {k: path_text(str(v)) for k, v in files.items()} if isinstance(files, dict) else files
