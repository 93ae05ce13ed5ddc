"""The whole word list for other apps: streamed, with the lexicon checksum as ETag.

A client keeps the ETag and sends it back in ``If-None-Match``; while the lexicon is unchanged it
gets a 304 and no body, so re-fetching only happens after a rebuild.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

from flask import Blueprint, Response, request

from lextools import search
from lextools.budget import pause
from lextools.errors import CorruptLexiconError
from lextools.lexicon import Lexicon
from lextools.tokenize import NOTATIONS, Notation, write
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
    else:
        response = Response(_lines(lex, notation), mimetype="text/plain")
        response.headers["Content-Disposition"] = f'attachment; filename="{edition}-{notation}.txt"'
    response.set_etag(lex.checksum)
    response.cache_control.no_cache = True  # keep it, but ask (If-None-Match) before using it
    return response


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
