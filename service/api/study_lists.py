"""Lists that teach (:mod:`lextools.features.lists`): stems, words with a high-value tile, words new in
a lexicon, and a quiz on any list — the study page's lists, the same answers as ``lextools lists``.

The stems lists are read from the build's file; the lists that take a pass over the lexicon (new
words, high-value tiles) are made once per lexicon generation for every worker, by a child process,
into ``EXPORT_CACHE/lists``, and read from there mapped (:mod:`lextools.features.list_files`); the
stems of a lexicon built before the stems file are ranked in the worker's background. A
page (the list, its entries, its JSON body) is made once in a thread of its own and its body kept a
short while (service/http/answer_bodies.py: a stems page is 200 kB, most of its cost the dump); a
request waits for its page at most :data:`PAGE_WAIT` seconds (and for a list being made at most
``lists.LIST_WAIT``): until it is made the answer is ``ready: false`` with its ``progress`` (0 to 1),
no items, and ``Retry-After``: ask again. No list request holds its client longer than that wait
(issue 33, row 1).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, current_app, request
from marshmallow import Schema, fields

from lextools.core.edition import edition_names
from lextools.core.lexicon import Lexicon
from lextools.core.messages import message
from lextools.features import lists, quiz
from lextools.features.list_files import LISTS, ListFiles
from service.api.quiz import QuizQuestion, max_answers_param
from service.api.walks import in_turn
from service.contract.bodies import Body, Words, load_body
from service.contract.operations import EditionQuery, operation
from service.contract.params import Choice, Text, WholeNumber, load
from service.contract.schemas import Answer, Entry, bool_field, int_field, nested_list, str_field, str_list
from service.http.answer_bodies import AnswerBodies
from service.http.errors import bad_request
from service.http.language import request_language
from service.http.lexicons import lexicon

bp = Blueprint("lists", __name__, url_prefix="/v1/<edition>/lists")
#: Where the app keeps the list pages' bodies (:func:`init_app`).
BODIES = "lextools.list_bodies"
#: Where the app keeps its :class:`~lextools.features.list_files.ListFiles`.
FILES = "lextools.list_files"


def init_app(app: Flask) -> None:
    """The routes, the bodies of their pages kept a short while (service/http/answer_bodies.py), and
    the list files made once per lexicon generation in ``EXPORT_CACHE/lists``, held to the export
    cache's bound in bytes (``EXPORT_CACHE_MAX_BYTES``: one bound for exports and lists)."""
    app.register_blueprint(bp)
    app.extensions[BODIES] = AnswerBodies()
    folder, home = Path(app.config["EXPORT_CACHE"]) / LISTS, Path(app.config["LEXICONS"])
    app.extensions[FILES] = ListFiles(folder, home, max_bytes=int(app.config["EXPORT_CACHE_MAX_BYTES"]))
    app.config.setdefault("LISTS_WARM", not app.testing)


def worker_started(app: Flask) -> None:
    """As a worker starts (service/server.py): begin making every list of the served lexicons that
    has no file yet, one child for all workers at the lowest priority (``LISTS_WARM``, on but in
    tests: ListFiles.warm). The worker's readiness waits for nothing."""
    if app.config["LISTS_WARM"]:
        app.extensions[FILES].warm()


def worker_exiting(app: Flask) -> None:
    """As a worker exits (service/server.py): its list children, the warm-up's among them, are
    killed and reaped."""
    app.extensions[FILES].stop()


def _files() -> ListFiles:
    """The app's list files."""
    files: ListFiles = current_app.extensions[FILES]
    return files


class PageQuery(EditionQuery):
    start = WholeNumber(
        1, quiz.MAX_RANK, data_key="from", load_default=1, metadata={"description": "first item, 1-based"}
    )
    count = WholeNumber(1, lists.MAX_PAGE, load_default=lists.DEFAULT_PAGE, metadata={"description": "items"})


class StemsQuery(PageQuery):
    length = Choice(tuple(map(str, lists.STEM_LENGTHS)), load_default="6", metadata={"description": "tiles in a stem"})


class TileQuery(PageQuery):
    tile = Text(metadata={"description": "a tile worth 5 or more, in any notation (default: the first)"})
    length = WholeNumber(quiz.MIN_LENGTH, quiz.MAX_LENGTH, metadata={"description": "tiles (default: any)"})


class NewQuery(PageQuery):
    against = Choice(tuple(edition_names()), metadata={"description": "the other edition (a lexicon this server has)"})
    length = WholeNumber(quiz.MIN_LENGTH, quiz.MAX_LENGTH, metadata={"description": "tiles (default: any)"})


class ListPage(Answer):
    """A page of a list that teaches."""

    edition = str_field(required=True)
    list = str_field(required=True)
    start = int_field(required=True, data_key="from", attribute="from")
    total = int_field("items in the whole list (0 while it is not ready)", required=True)
    count = int_field("items in this page", required=True)
    ready = bool_field("false while the list is being made: no items yet, ask again after Retry-After")
    progress = fields.Float(metadata={"description": "how far the list is made, 0 to 1 (while not ready)"})


class StemWord(Entry):
    tile = str_field(required=True)


class Stem(Answer):
    rank = int_field(required=True)
    stem = str_field(required=True)
    tiles = str_list(required=True)
    takes = str_list("the tiles that make a word with the stem", required=True)
    rack = str_field("the stem and a blank: a question of its quiz", required=True)
    words = nested_list(StemWord, required=True)


class Stems(ListPage):
    """A page."""

    length = int_field()
    stems = nested_list(Stem)


class HighValueWords(ListPage):
    """A page."""

    tile = str_field()
    tiles = str_list()
    length = int_field(allow_none=True)
    words = nested_list(Entry)


class NewWords(ListPage):
    """A page."""

    against = str_field()
    length = int_field(allow_none=True)
    words = nested_list(Entry)


class ListQuizBody(Body):
    words = Words(
        limit=lists.MAX_QUIZ_ITEMS, allow_empty=True, default=[],
        metadata={"description": "words in any notation; those not valid are refused"},
    )  # fmt: skip
    racks = Words(
        limit=lists.MAX_QUIZ_ITEMS, allow_empty=True, default=[],
        metadata={"description": "racks, ? for one blank (a stem's rack: the alphagrams of its words)"},
    )  # fmt: skip


class ListQuizQuery(EditionQuery):
    max_answers = max_answers_param()


class Refused(Answer):
    reason = str_field(required=True)
    text = str_field(required=True)


class ListQuiz(Answer):
    """The questions, and what was left out with the reason."""

    edition = str_field(required=True)
    type = str_field(required=True, metadata={"enum": ["anagram"]})
    max_answers = int_field("the most answers a question has", required=True)
    over_max = int_field("alphagrams not asked: more answers than max_answers (each in refused)", required=True)
    count = int_field(required=True)
    questions = nested_list(QuizQuestion, required=True)
    refused = nested_list(Refused, required=True)


#: What a list answers while it is being made: ask again after this many seconds.
RETRY_AFTER = 1
#: How long a request waits for its page to be made (the list, its entries, its body) before it
#: answers that it is not ready: a page is made once, and on a busy worker that can take seconds.
#: The answer's bound is 1 s (bench.probes_lists) and this wait is most of the slowest answer: timed
#: in the workers under 16 list clients (load 7–8), the route took the wait plus up to 0.2 s (its
#: greenlet's turn on a worker that got a quarter of a core), and the client saw up to 0.25 s more
#: (accept, parse, its turn again): 0.5 s gave answers of 0.95 s, so the wait is shorter. A stems
#: page (the longest: 2,000 words, 150–250 ms to make and dump at that load) is still made within
#: it on a fresh worker most of the time, and it is kept (answer_bodies) for the next ask anyway.
PAGE_WAIT = 0.35


def _answered(page: dict[str, Any]) -> dict[str, Any] | tuple[dict[str, Any], int, dict[str, str]]:
    """The page, with ``Retry-After`` while its list is being made."""
    if page.get("ready", True):
        return page
    return page, 200, {"Retry-After": str(RETRY_AFTER), "Cache-Control": "no-store"}


def _page(answer: type[Schema], key: tuple[Any, ...], make: Callable[[], dict[str, Any]], waiting: Any) -> Any:
    """A list's page: its body as kept (service/http/answer_bodies.py), else ``make()`` dumped through
    ``answer``, made in a thread of its own and kept once ready; while it is not made within
    :data:`PAGE_WAIT`, ``waiting`` (the page not ready, ask again). ``key`` names the lexicons'
    checksums and the page's parameters; the request's language is added (an entry's words do not
    depend on it today; the key does not have to know that)."""
    bodies: AnswerBodies = current_app.extensions[BODIES]
    text = current_app.json.text  # type: ignore[attr-defined]

    def made() -> tuple[dict[str, Any], bytes | None]:
        page = make()
        return page, text(answer().dump(page)).encode() if page.get("ready", True) else None

    out = bodies.answer((request.endpoint, *key, request_language()), made, PAGE_WAIT)
    if isinstance(out, bytes):
        return current_app.response_class(out, mimetype=current_app.json.mimetype)  # type: ignore[attr-defined]
    return _answered(out if out is not None else waiting)


def _waiting(kind: str, lex: Lexicon, start: int, **rest: Any) -> dict[str, Any]:
    """A page whose making has not ended within :data:`PAGE_WAIT`: no items yet, ask again."""
    head = {"edition": lex.edition.name, "list": kind, "from": start, "total": 0, "count": 0}
    return {**head, **rest, "ready": False, "progress": 0.0}


def _params(params: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(sorted(params.items()))


@operation(bp, "/stems", query=StemsQuery, operationId="stems", answer=Stems, errors=(400, 404, 503))
def stems(edition: str) -> Any:
    """Stems of 6 or 7 tiles, ranked by how many tiles make a word with them, each with its words."""
    params = load(StemsQuery)
    lex = lexicon(edition)
    length = int(params["length"])
    make = partial(lists.stems, lex, length, params["start"], params["count"], wait=lists.LIST_WAIT)
    waiting = _waiting("stems", lex, params["start"], length=length, stems=[])
    return _page(Stems, (lex.checksum, _params(params)), make, waiting)


@operation(
    bp,
    "/high-value",
    query=TileQuery,
    summary=f"Words with a tile worth {quiz.HIGH_VALUE} or more, shortest first",
    operationId="highValueWords",
    answer=HighValueWords,
    errors=(400, 404, 503),
)
def high_value(edition: str) -> Any:
    lex = lexicon(edition)
    params = load(TileQuery)
    tile = params.get("tile") or next(iter(lists.high_value_tiles(lex.edition)), "")
    length, start, count = params.get("length"), params["start"], params["count"]
    make = partial(lists.with_tile, lex, tile, length, start, count, wait=lists.LIST_WAIT, files=_files())
    tiles = lists.high_value_tiles(lex.edition)
    label = lists.high_value_tile(lex.edition, tile)  # a tile it cannot take: 400 now, not once made
    waiting = _waiting("high-value", lex, start, tile=label, tiles=tiles, length=length, words=[])
    return _page(HighValueWords, (lex.checksum, _params(params)), make, waiting)


@operation(bp, "/new", query=NewQuery, operationId="newWords", answer=NewWords, errors=(400, 404, 503))
def new_words(edition: str) -> Any:
    """Words of this lexicon that another lacks (compared by spelling), shortest first."""
    params = load(NewQuery)
    lex = lexicon(edition)
    if "against" not in params:
        raise bad_request(message("one_of", name="against", choices=", ".join(edition_names())))
    other = lexicon(params["against"])
    length, start, count = params.get("length"), params["start"], params["count"]
    make = partial(lists.new_words, lex, other, length, start, count, wait=lists.LIST_WAIT, files=_files())
    waiting = _waiting("new", lex, start, against=other.edition.name, length=length, words=[])
    return _page(NewWords, (lex.checksum, other.checksum, _params(params)), make, waiting)


@operation(
    bp,
    "/quiz",
    "POST",
    summary=f"Anagram questions on a list, one per alphagram: up to {lists.MAX_QUIZ_ITEMS} words or racks",
    operationId="listQuiz",
    query=ListQuizQuery,
    body=ListQuizBody,
    answer=ListQuiz,
    errors=(400, 404, 413, 503),
)
def list_quiz(edition: str) -> dict[str, Any]:
    """A rack with a blank (a stem's, AENORS?) asks the alphagrams of the words it makes (ACENORS,
    ADENORS, …), each a question; one with more than max_answers answers is not asked (in refused)."""
    lex = lexicon(edition)
    most = load(ListQuizQuery)["max_answers"]
    body = load_body(ListQuizBody)
    lang = request_language()
    return in_turn(lambda: lists.list_quiz(lex, body["words"], body["racks"], lang, most))
