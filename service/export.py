"""The whole word list for other apps: streamed, with the lexicon checksum as ETag.

A client keeps the ETag and sends it back in ``If-None-Match``; while the lexicon is unchanged it
gets a 304 and no body, so re-fetching only happens after a rebuild.
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Response, request, send_file

from lextools import search
from lextools.errors import CorruptLexiconError
from lextools.lexicon import Lexicon
from lextools.tokenize import NOTATIONS, Notation, write
from service.inputs import choice_arg
from service.lexicons import lexicon, lexicons

bp = Blueprint("export", __name__, url_prefix="/v1/<edition>")

LINES_PER_CHUNK = 4096


@bp.get("/export")
def export(edition: str) -> Response:
    lex = lexicon(edition)
    fmt = choice_arg("format", ("txt", "dawg"), "txt")
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
    """The words DAWG exactly as built (keys in digit notation: 1 = CH, 2 = LL, 3 = RR)."""
    path = lexicons().words_file(lex)
    try:
        return send_file(
            path, mimetype="application/octet-stream", as_attachment=True, download_name=f"{edition}.dawg", etag=False
        )
    except FileNotFoundError:  # a rebuild removed the generation this worker loaded
        raise CorruptLexiconError(f"{edition}: the lexicon was rebuilt; try again shortly") from None


def _lines(lex: Lexicon, notation: Notation) -> Iterator[bytes]:
    """One word per line in spelling order, encoded a chunk at a time rather than as one body."""
    ed = lex.edition
    chunk: list[str] = []
    for key in search.export_order(lex):
        chunk.append(write(ed.decode(key), ed, notation))
        if len(chunk) == LINES_PER_CHUNK:
            yield ("\n".join(chunk) + "\n").encode()
            chunk = []
    if chunk:
        yield ("\n".join(chunk) + "\n").encode()
