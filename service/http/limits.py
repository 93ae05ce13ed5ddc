"""The limits and enums of the API, each defined once: the routes, the pages and ``/v1/openapi.json``
read them from here.

The challenge route's limits are what a word judge needs, and they bound how fast the challenge
record can grow: at most ``CHALLENGE_RATE`` rows a second per client, each of at most ``MAX_WORDS``
words of at most ``MAX_WORD_CHARS`` characters.

Where a challenge gets a verdict and where it is refused: every play of at most ``MAX_WORDS`` words
of at most ``MAX_WORD_CHARS`` characters each is judged, recorded and signed. A word the board
cannot hold (more than ``MAX_TILES_PER_WORD`` tiles: ANTICONSTITUCIONAL), a word the edition cannot
spell (a digit, a hyphen) or one with a letter it has no tile for (KILO in es-fise) is simply NOT
ACCEPTABLE, as a word missing from the lexicon is. Only input no board could hold in any notation
is refused (4xx, not recorded): a word of more than ``MAX_WORD_CHARS`` characters (400
``word_too_long``), more than ``MAX_WORDS`` words (413 ``too_many_words``), a body over
``MAX_BODY`` bytes (413). The judge page refuses the same input itself (``MAX_PLAY_CHARS`` is its
field's length), so a refusal reaching the page is a fault worth calling the director for.

The other limits are app config (``create_app`` starts from :data:`LIMITS`, a deployment may change
any), and the OpenAPI document is built from the running app's config, so a changed limit is a
changed document. Enums are the library's own tuples where the library defines the thing (orders,
notations, the longest query, the search conditions' bounds) and here where only the service has it
(export formats). The error codes are in ``service/http/errors.py`` (``ERRORS``), next to the handlers
that produce them.
"""

from __future__ import annotations

from typing import Any

from lextools.core.conditions import MAX_ANAGRAMS, MAX_RANK, MAX_SCORE  # the search conditions' bounds
from lextools.core.search import MAX_QUERY_TILES, ORDERS
from lextools.core.spelling import MAX_TILES, NOTATIONS
from lextools.features.export import FORMATS
from lextools.features.lists import MAX_LIST_LINES
from lextools.features.quiz import MAX_QUIZ_ANSWERS, MAX_QUIZ_TILES

#: Words a play can form (the judge box's count is one digit, 1–8).
MAX_WORDS = 8
#: Tiles of the longest word: the board is 15 squares.
MAX_TILES_PER_WORD = MAX_TILES
#: Characters of the longest word a challenge takes as typed: 15 tiles in the widest notation ([CH]
#: is four characters). Up to it a word gets a verdict (more than 15 tiles: NOT ACCEPTABLE); beyond
#: it, it is no word of any board (400 ``word_too_long``). Counted in code points, as JSON Schema's
#: ``maxLength`` and the page count them.
MAX_WORD_CHARS = 4 * MAX_TILES
#: Characters of the judge page's words field: ``MAX_WORDS`` words of ``MAX_WORD_CHARS``, one
#: separator between each two.
MAX_PLAY_CHARS = MAX_WORDS * (MAX_WORD_CHARS + 1) - 1
#: Challenges a second per client (a judge at a table needs one every few seconds); app config
#: ``CHALLENGE_RATE`` overrides it.
CHALLENGE_RATE = 10
#: Body bytes of a challenge: 8 words of 60 characters, each \uXXXX-escaped at worst, and the rest.
MAX_BODY = 4096

#: App config keys of the limits, with their defaults and what the document says of them.
LIMITS: dict[str, tuple[Any, str]] = {
    "MAX_BATCH": (1000, "words in one check"),
    # 1000 words of at most 64 characters, each written as \uXXXX at worst, fit with room to spare.
    "MAX_CONTENT_LENGTH": (512 * 1024, "bytes in one request body"),
    "SEARCH_LIMIT": (100, "words in a search or anagram page when limit is not given"),
    "SEARCH_MAX_LIMIT": (1000, "largest limit of a search or anagram page"),
    # The study page takes a handed-over list of at most MAX_LIST_LINES words: the whole a search
    # page gathers for it is no more.
    "SEARCH_WHOLE_LIMIT": (
        MAX_LIST_LINES,
        "words the search page gathers through next_cursor for a quiz, the cardbox or a download",
    ),
    "SEARCH_BUDGET_MS": (200, "milliseconds of work one search or anagram page may take"),
    "SEARCH_CONCURRENCY": (1, "search and anagram pages one worker runs at once; others wait their turn"),
    "MAX_RACK_BLANKS": (2, "blanks in one rack (as many as any verified bag holds)"),
    # A quiz's size is the library's (MAX_QUIZ_TILES, MAX_QUIZ_ANSWERS: the CLI refuses the same quizzes);
    # its time is the service's.
    "QUIZ_BUDGET_MS": (1500, "milliseconds one quiz may take, its wait for its turn included; then 503 busy"),
    "QUIZ_CONCURRENCY": (1, "quizzes one worker makes at once; the others wait their turn (at most the budget)"),
    "EXPORT_CONCURRENCY": (1, "exports one worker makes at once (KWG, KAD, text); the others wait their turn"),
    "EXPORT_WAIT_MS": (10_000, "milliseconds an export request waits for its turn or its file; then 503 busy"),
    # The largest export (en, kwg-gaddag) takes 10 s on a busy machine; a child stopped (SIGSTOP) or
    # stuck uses no CPU: it is killed long before the time-out, and the next request starts another.
    "EXPORT_TIMEOUT_S": (120, "seconds an export's child process may run; then it is killed and 503 busy"),
    "EXPORT_STALL_S": (5, "seconds an export's child may neither use nor wait for a CPU (stopped, stuck): then killed"),
    "EXPORT_CACHE_MAX_BYTES": (512 * 2**20, "bytes of exports kept in the cache (a lexicon's current build only)"),
    "CARDBOX_RATE": (30, "cardbox sync requests a minute per client"),
    "CARDBOX_MAX_BYTES": (1024 * 1024, "bytes of one cardbox kept on the server (thousands of cards)"),
    "CARDBOX_MAX_COUNT": (100_000, "cardboxes the server keeps"),
    "CARDBOX_MAX_TOTAL_BYTES": (2 * 1024**3, "bytes of all the cardboxes the server keeps"),
    "CARDBOX_CLIENT_COUNT": (50, "cardboxes one client (an IPv4 address, an IPv6 /64) may make"),
    "CARDBOX_CLIENT_BYTES": (16 * 1024**2, "bytes of the cardboxes one client (IPv4 address, IPv6 /64) may make"),
}

#: ``export?format=``: the word list as text, the words DAWG as built, KWG and KAD files (the library's).
EXPORT_FORMATS = FORMATS

__all__ = [
    "CHALLENGE_RATE",
    "EXPORT_FORMATS",
    "LIMITS",
    "MAX_ANAGRAMS",
    "MAX_BODY",
    "MAX_PLAY_CHARS",
    "MAX_QUERY_TILES",
    "MAX_QUIZ_ANSWERS",
    "MAX_QUIZ_TILES",
    "MAX_RANK",
    "MAX_SCORE",
    "MAX_TILES_PER_WORD",
    "MAX_WORDS",
    "MAX_WORD_CHARS",
    "NOTATIONS",
    "ORDERS",
    "limit_defaults",
]


def limit_defaults() -> dict[str, Any]:
    return {name: default for name, (default, _) in LIMITS.items()}
