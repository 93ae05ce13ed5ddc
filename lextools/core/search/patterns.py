"""Pattern search: words of N tiles, patterns (``?`` any one tile, ``*`` any run of tiles) and
:func:`find`, the service's search (a pattern with ``starts``, ``contains``, ``ends``, a length and
conditions), in the edition's alphabet or in probability order
(:mod:`~lextools.core.search.patterns_by_probability`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from lextools.core.budget import Budget
from lextools.core.conditions import Conditions, matcher
from lextools.core.errors import QueryError, SpellingError
from lextools.core.lexicon import Lexicon
from lextools.core.messages import message
from lextools.core.search.parts import MAX_QUERY_TILES, Match, check_order
from lextools.core.search.pattern_walk import walk_guided
from lextools.core.search.patterns_by_probability import constraints_test, probability_pages
from lextools.core.spelling import MAX_INPUT_CHARS, spell, too_long


def words_of_length(lex: Lexicon, n: int) -> list[str]:
    """Keys of exactly ``n`` tiles, in the edition's alphabet order."""
    if not 1 <= n <= MAX_QUERY_TILES:
        raise QueryError(message("length_range", max=MAX_QUERY_TILES))
    return [m.key for m in match_pattern(lex, [None] * n)]


def parse_pattern(text: str, lex: Lexicon) -> list[str | None]:
    """``?`` is any one tile, ``*`` any run of tiles, the rest is spelled like a word (any notation).

    Returns a list of keys characters, ``None`` for ``?`` and ``"*"`` for ``*``.
    """
    if not text.strip():  # an empty pattern is a mistake, never "every word"
        raise QueryError(message("empty_pattern"))
    if too_long(text):  # counted in NFC, as words are
        raise QueryError(message("pattern_chars", max=MAX_INPUT_CHARS))
    parts: list[str | None] = []
    for piece in re.split(r"([?*])", text):
        if piece == "?":
            parts.append(None)
        elif piece == "*":
            if parts and parts[-1] == "*":
                continue
            parts.append("*")
        elif piece:
            try:
                parts += list(spell(piece, lex.edition).key)
            except SpellingError as e:
                raise QueryError(message("bad_pattern", text=repr(text), reason=e.message or e.reason)) from None
    if sum(1 for p in parts if p != "*") > MAX_QUERY_TILES:
        raise QueryError(message("pattern_tiles", max=MAX_QUERY_TILES))
    return parts


def match_pattern(
    lex: Lexicon, pattern: list[str | None], *, budget: Budget | None = None, after: str | None = None
) -> Iterator[Match]:
    """Every key matching a parsed pattern, in the edition's alphabet order (one guided walk of the
    word DAWG); ``budget`` and ``after`` as for :func:`find` in ``alpha`` order."""
    return (Match(key) for key in walk_guided(lex, pattern, "", None, budget=budget, after=after))


def find(
    lex: Lexicon,
    pattern: str | None = None,
    length: int | None = None,
    contains: str | None = None,
    starts: str | None = None,
    ends: str | None = None,
    *,
    order: str = "alpha",
    budget: Budget | None = None,
    after: str | None = None,
    conditions: Conditions | None = None,
) -> Iterator[str]:
    """Keys meeting every given constraint and the ``conditions`` (:mod:`lextools.core.conditions`),
    in ``order``: the service's ``search``.

    ``pattern`` is read by :func:`parse_pattern` (None: any word; an empty or blank one is refused);
    ``contains``, ``starts`` and ``ends`` are tiles in
    any notation; ``length`` counts tiles. Constraints are tile-level, so in es-fise ``starts=C``
    does not match CHICO (its first tile is CH). Bad constraints raise :class:`QueryError` at the
    call. ``budget`` and ``after``: see :mod:`lextools.core.search`.

    In ``alpha`` order the pattern, ``starts`` and ``length`` prune the walk; ``contains`` and
    ``ends`` are checked on each key found (a prefix and a suffix may overlap: CASA starts with CA
    and ends with AS). The walk follows only the DAWG's existing edges, through its guide, keeping
    the set of pattern positions still alive at each node, so any pattern costs about one visit per
    node it reaches, rather than trying every tile code at every node.
    """
    if length is not None and not 1 <= length <= MAX_QUERY_TILES:
        raise QueryError(message("length_range", max=MAX_QUERY_TILES))
    check_order(order)

    def tiles_of(name: str, text: str | None) -> str:
        if not text:
            return ""
        try:
            return spell(text, lex.edition).key
        except SpellingError as e:
            raise QueryError(message("bad_param", name=name, text=repr(text), reason=e.message or e.reason)) from None

    prefix, infix, suffix = tiles_of("starts", starts), tiles_of("contains", contains), tiles_of("ends", ends)
    parts: list[str | None] = parse_pattern(pattern, lex) if pattern is not None else ["*"]
    budget = budget if budget is not None else Budget()
    test = matcher(lex, conditions)
    if order == "probability":
        matches = constraints_test(parts, prefix, length, infix, suffix)
        return iter(probability_pages(lex, parts, prefix, length, matches, budget, after, test))

    def keep(k: str) -> bool:
        return k.endswith(suffix) and infix in k and (test is None or test(k))

    return iter(walk_guided(lex, parts, prefix, length, keep=keep, budget=budget, after=after))
