"""What the service serves: health, the editions with their tile tables and lexicon metadata, OpenAPI."""

from __future__ import annotations

from typing import Any

from flask import Blueprint
from marshmallow import fields

from lextools import __version__
from lextools.core.edition import edition_names, load_edition
from lextools.core.errors import CorruptLexiconError, LexiconNotFoundError, path_text
from lextools.core.lexicon import Lexicon
from service.contract.openapi import document
from service.contract.operations import operation
from service.contract.schemas import (
    Answer,
    bool_field,
    dict_field,
    int_field,
    nested_field,
    nested_list,
    str_field,
    str_list,
)
from service.http.errors import public_message
from service.http.lexicons import lexicon

bp = Blueprint("meta", __name__)


class Health(Answer):
    """Alive."""

    status = str_field(required=True)
    version = str_field("the version of lextools serving")


class Document(Answer):
    """OpenAPI 3 document.

    The OpenAPI 3 document (service/contract/openapi.py)."""

    paths = dict_field(required=True)
    info = dict_field(required=True)
    openapi = str_field(required=True)
    servers = fields.List(fields.Dict())
    components = dict_field()


class Tile(Answer):
    label = str_field(required=True)
    value = int_field(required=True, allow_none=True)
    count = int_field(required=True, allow_none=True)
    code = str_field("one character: FISE digit for CH/LL/RR (1, 2, 3)", required=True)


class MissingLexicon(Answer):
    code = str_field(required=True)
    message = str_field(required=True)


class Edition(Answer):
    """The edition.

    An edition's tile table (:meth:`lextools.core.edition.Edition.as_dict`), and its lexicon's metadata."""

    name = str_field(required=True)
    title = str_field(required=True)
    language = str_field(required=True)
    total_tiles = int_field(allow_none=True)
    blanks = int_field(allow_none=True)
    tiles = nested_list(Tile, required=True)
    alphabet = str_list("the letters in the edition's alphabetical order")
    letters_without_tile = str_list()
    digraph_tiles = str_list()
    digraphs_obligatory = bool_field()
    challenge = dict_field(required=True)
    unverified = str_field(allow_none=True)
    sources = str_list()
    lexicon = dict_field(
        "the lexicon's metadata as built (checksum: sha256 of the words DAWG, the export ETag; words, "
        "sources, built, counts, files); null when this server has none it can use",
        required=True,
        allow_none=True,
    )
    lexicon_error = nested_field(MissingLexicon)


class Editions(Answer):
    """Editions."""

    editions = nested_list(Edition, required=True)


@operation(bp, "/healthz", summary="Liveness", operationId="healthz", answer=Health)
def healthz() -> dict[str, Any]:
    return {"status": "ok", "version": __version__}


@operation(bp, "/v1/openapi.json", operationId="openapi", answer=Document)
def openapi() -> dict[str, Any]:
    """This document."""
    return document()


@operation(bp, "/v1/editions", operationId="listEditions", answer=Editions)
def editions() -> dict[str, Any]:
    """Every edition: tile table and lexicon metadata."""
    return {"editions": [describe(name) for name in edition_names()]}


@operation(bp, "/v1/editions/<edition>", operationId="getEdition", answer=Edition, errors=(400, 404))
def edition(edition: str) -> dict[str, Any]:
    """One edition: tile table and lexicon metadata (word count, sources, build date, checksum)."""
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
