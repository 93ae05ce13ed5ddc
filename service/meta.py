"""What the service serves: health, the editions with their tile tables and lexicon metadata, OpenAPI."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from lextools import __version__
from lextools.core.edition import edition_names, load_edition
from lextools.core.errors import CorruptLexiconError, LexiconNotFoundError
from lextools.core.lexicon import Lexicon
from service.errors import public_message
from service.lexicons import lexicon
from service.openapi import document

bp = Blueprint("meta", __name__)


@bp.get("/healthz")
def healthz() -> dict[str, Any]:
    return {"status": "ok", "version": __version__}


@bp.get("/v1/openapi.json")
def openapi() -> dict[str, Any]:
    return document()


@bp.get("/v1/editions")
def editions() -> dict[str, Any]:
    return {"editions": [describe(name) for name in edition_names()]}


@bp.get("/v1/editions/<edition>")
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
        {k: v for k, v in source.items() if k != "path"}
        for source in meta.get("sources", [])
        if isinstance(source, dict)
    ]
    return meta
