"""The whole word list for other apps: streamed, with the lexicon checksum as ETag.

A client keeps the ETag and sends it back in ``If-None-Match``; while the lexicon is unchanged it
gets a 304 and no body, so re-fetching only happens after a rebuild.

KWG and KAD files (``format=kwg|kwg-gaddag|kad``) are made on the first request for them and kept
per worker for the lexicon that answered (a few MB each; seconds to make for a large lexicon, during
which the encoder pauses every millisecond or so, as the text export does, for the worker's other
requests);
``/manifest`` describes any export (see lextools.features.export).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, request

from lextools.core import search
from lextools.core.budget import pause
from lextools.core.errors import CorruptLexiconError
from lextools.core.lexicon import Lexicon
from lextools.core.spelling import NOTATIONS, Notation, write
from lextools.features.export import export_bytes, export_name, manifest
from service.inputs import choice_arg
from service.lexicons import lexicon, lexicons
from service.limits import EXPORT_FORMATS

bp = Blueprint("export", __name__, url_prefix="/v1/<edition>")

LINES_PER_CHUNK = 4096


@bp.get("/export")
def export(edition: str) -> Response:
    lex = lexicon(edition)
    fmt = choice_arg("format", EXPORT_FORMATS, "txt")
    notation: Notation = choice_arg("notation", NOTATIONS, "plain")  # type: ignore[assignment]
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


@bp.get("/manifest")
def export_manifest(edition: str) -> dict[str, Any]:
    """What a program needs to load ``export`` in a format: alphabet, layout, sha256, provenance."""
    lex = lexicon(edition)
    fmt = choice_arg("format", EXPORT_FORMATS, "kwg")
    notation: Notation = choice_arg("notation", NOTATIONS, "plain")  # type: ignore[assignment]
    return _made(lex, fmt, notation)[1]


#: (lexicon directory, checksum, build time, format, notation) → (bytes, manifest) of the exports
#: made last in this worker; the manifest names the build, so a rebuild of the same words is new.
_MADE: OrderedDict[tuple[str, ...], tuple[bytes, dict[str, Any]]] = OrderedDict()
_MADE_KEEP = 4
_MADE_LOCK = threading.Lock()


def _made(lex: Lexicon, fmt: str, notation: Notation) -> tuple[bytes, dict[str, Any]]:
    home = lexicons().home
    key = (str(home), lex.checksum, str(lex.metadata.get("built")), fmt, notation)
    with _MADE_LOCK:
        if key in _MADE:
            _MADE.move_to_end(key)
            return _MADE[key]
    data = export_bytes(lex, fmt, notation, home, pause=pause)  # a KWG takes seconds: let others run
    made = data, manifest(lex, fmt, data, export_name(lex.edition.name, fmt, notation), notation)
    with _MADE_LOCK:
        _MADE[key] = made
        while len(_MADE) > _MADE_KEEP:
            _MADE.popitem(last=False)
    return made


def _dawg(edition: str, lex: Lexicon) -> Response:
    """The words DAWG exactly as built (keys in digit notation: 1 = CH, 2 = LL, 3 = RR).

    The file is read whole and its sha256 checked against the lexicon's checksum before a byte is
    sent: the ETag promises those bytes, and a file altered or replaced on disk since the lexicon was
    loaded must not go out under it (a few MB per export; the DAWG is what a client asked for).
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
