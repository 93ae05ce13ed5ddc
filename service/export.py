"""The whole word list for other apps: streamed, with the lexicon checksum as ETag.

A client keeps the ETag and sends it back in ``If-None-Match``; while the lexicon is unchanged it
gets a 304 and no body, so re-fetching only happens after a rebuild.

KWG and KAD files (``format=kwg|kwg-gaddag|kad``) are made on the first request for them and kept
per worker for the lexicon that answered (a large lexicon's take a while to make, during which the
encoder pauses often, as the text export does, for the worker's other requests);
``/manifest`` describes any export (see lextools.features.export).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, request

from lextools.core import search
from lextools.core.budget import pause
from lextools.core.errors import CorruptLexiconError
from lextools.core.lexicon import Lexicon
from lextools.core.spelling import NOTATIONS, Notation, write
from lextools.features.export import export_bytes, export_name, manifest
from service.api import EditionQuery, operation
from service.lexicons import lexicon, lexicons
from service.limits import EXPORT_FORMATS
from service.params import Choice, load
from service.shapes import errors, json_response, obj

bp = Blueprint("export", __name__, url_prefix="/v1/<edition>")

LINES_PER_CHUNK = 4096


class ExportQuery(EditionQuery):
    format = Choice(
        EXPORT_FORMATS,
        load_default=EXPORT_FORMATS[0],
        metadata={
            "description": "txt: one word per line; dawg: the words DAWG as built (digit-notation keys); "
            "kwg: wolges' KWG (DAWG only); kwg-gaddag: GADDAG + DAWG KWG; kad: alphagram KWG"
        },
    )
    notation = Choice(
        NOTATIONS, load_default=NOTATIONS[0], metadata={"description": "txt only: CHIQUILLO, 1IQUI2O or [CH]IQUI[LL]O"}
    )


class ManifestQuery(EditionQuery):
    format = Choice(EXPORT_FORMATS, load_default="kwg", metadata={"description": "the export it describes"})
    notation = Choice(NOTATIONS, load_default=NOTATIONS[0], metadata={"description": "txt only"})


_ETAG = {"ETag": {"schema": {"type": "string"}}}


@operation(
    bp,
    "/export",
    query=ExportQuery,
    parameters=({"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"}},),
    summary="The whole word list, streamed; ETag is the lexicon checksum",
    operationId="export",
    responses={
        "200": {
            "description": "The list",
            "headers": _ETAG,
            "content": {
                "text/plain": {"schema": {"type": "string"}},
                "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
            },
        },
        "304": {"description": "Unchanged since the ETag sent in If-None-Match", "headers": _ETAG},
        **errors(400, 404, 503),
    },
)
def export(edition: str) -> Response:
    lex = lexicon(edition)
    params = load(ExportQuery)
    fmt: str = params["format"]
    notation: Notation = params["notation"]
    if request.if_none_match.contains_weak(lex.checksum):
        response = Response(status=304)
    elif fmt == "dawg":
        response = _dawg(edition, lex)
    elif fmt != "txt":
        response = Response(_made(lex, fmt, notation)[0], mimetype="application/octet-stream")
        response.headers["Content-Disposition"] = f'attachment; filename="{export_name(edition, fmt)}"'
    else:
        response = Response(_lines(lex, notation), mimetype="text/plain")
        response.headers["Content-Disposition"] = f'attachment; filename="{edition}-{notation}.txt"'
    response.set_etag(lex.checksum)
    response.cache_control.no_cache = True  # keep it, but ask (If-None-Match) before using it
    return response


_MANIFEST = obj(
    ["manifest_version", "format", "layout", "edition", "alphabet", "words", "files", "lexicon"],
    manifest_version={"type": "integer"},
    format={"type": "string", "enum": list(EXPORT_FORMATS)},
    layout={"type": "object"},
    edition={"type": "string"},
    alphabet={"type": "object"},
    words={"type": "integer"},
    files={"type": "array", "items": {"type": "object"}},
    lexicon={"type": "object"},
)


@operation(
    bp,
    "/manifest",
    query=ManifestQuery,
    summary="How to load an export: format, layout, alphabet with tile numbers, sha256, provenance",
    operationId="manifest",
    responses={
        "200": json_response(_MANIFEST, "The manifest (the same as FILE.manifest.json beside a CLI export)"),
        **errors(400, 404, 503),
    },
)
def export_manifest(edition: str) -> dict[str, Any]:
    """What a program needs to load ``export`` in a format: alphabet, layout, sha256, provenance."""
    lex = lexicon(edition)
    params = load(ManifestQuery)
    return _made(lex, params["format"], params["notation"])[1]


#: Where :func:`service.app.create_app` keeps the app's :class:`MadeExports`.
MADE = "lextools.exports"


class MadeExports:
    """(lexicon directory, checksum, build time, format, notation) → (bytes, manifest) of the exports
    made last in this worker; the manifest names the build, so a rebuild of the same words is new.
    Made by ``create_app``, after gevent's monkey-patching (service/server.py): its lock is gevent's."""

    KEEP = 4

    def __init__(self) -> None:
        self._made: OrderedDict[tuple[str, ...], tuple[bytes, dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, ...]) -> tuple[bytes, dict[str, Any]] | None:
        with self._lock:
            if key not in self._made:
                return None
            self._made.move_to_end(key)
            return self._made[key]

    def put(self, key: tuple[str, ...], made: tuple[bytes, dict[str, Any]]) -> None:
        with self._lock:
            self._made[key] = made
            while len(self._made) > self.KEEP:
                self._made.popitem(last=False)


def _made(lex: Lexicon, fmt: str, notation: Notation) -> tuple[bytes, dict[str, Any]]:
    home = lexicons().home
    key = (str(home), lex.checksum, str(lex.metadata.get("built")), fmt, notation)
    exports: MadeExports = current_app.extensions[MADE]
    made = exports.get(key)
    if made is None:
        data = export_bytes(lex, fmt, notation, home, pause=pause)  # a KWG takes seconds: let others run
        made = data, manifest(lex, fmt, data, export_name(lex.edition.name, fmt, notation), notation)
        exports.put(key, made)
    return made


def _dawg(edition: str, lex: Lexicon) -> Response:
    """The words DAWG exactly as built (keys in digit notation: 1 = CH, 2 = LL, 3 = RR).

    The file is read whole and its sha256 checked against the lexicon's checksum before a byte is
    sent: the ETag promises those bytes, and a file altered or replaced on disk since the lexicon was
    loaded must not go out under it (the DAWG is what a client asked for).
    """
    path = lexicons().words_file(lex)
    try:
        data = path.read_bytes()
    except FileNotFoundError:  # a rebuild removed the generation this worker loaded
        raise CorruptLexiconError(f"{edition}: {path} was removed by a rebuild; try again shortly") from None
    if hashlib.sha256(data).hexdigest() != lex.checksum:
        raise CorruptLexiconError(f"{edition}: {path} no longer matches the checksum of the lexicon in service")
    response = Response(data, mimetype="application/octet-stream")
    response.headers["Content-Disposition"] = f'attachment; filename="{edition}.dawg"'
    return response


def _lines(lex: Lexicon, notation: Notation) -> Iterator[bytes]:
    """One word per line in spelling order, encoded a chunk at a time rather than as one body.

    Each chunk is a few milliseconds of work; between two, ``pause()`` lets the worker serve
    other requests (under gevent a client that reads fast would otherwise never let the loop run).
    """
    ed = lex.edition
    chunk: list[str] = []
    for key in search.export_order(lex):
        chunk.append(write(ed.decode(key), ed, notation))
        if len(chunk) == LINES_PER_CHUNK:
            yield ("\n".join(chunk) + "\n").encode()
            chunk = []
            pause()
    if chunk:
        yield ("\n".join(chunk) + "\n").encode()
