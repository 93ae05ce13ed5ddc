"""What every search of :mod:`lextools.core.search` shares: the answer (:class:`Match`), the limits,
the orders a search answers in, C work done in chunks between pauses, and the dawgdic unit bits
the walks that read DAWG-Python's units directly decode."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple, TypeVar

from lextools.core.budget import pause
from lextools.core.errors import QueryError
from lextools.core.lexicon import Lexicon
from lextools.core.messages import message

T = TypeVar("T")
U = TypeVar("U")

#: Longest rack or pattern we search with.
MAX_QUERY_TILES = 15
BLANK = "?"
#: The orders a search answers in.
ORDERS = ("alpha", "probability")

#: dawgdic's unit bits (DAWG-Python's ``units`` module): a word ends at this node; the offset is scaled.
HAS_LEAF_BIT, EXTENSION_BIT = 1 << 8, 1 << 9
#: A unit's label (dawgdic: its byte and the leaf flag).
LABEL_MASK = (1 << 31) | 0xFF


class Match(NamedTuple):
    """A search answer. A named tuple, not a dataclass: an anagram query makes thousands of them."""

    key: str  # lexicon key
    blanks: tuple[str, ...] = ()  # tiles a blank stands for (anagrams)


def check_order(order: str) -> None:
    """Refuse an order that is not one of :data:`ORDERS`."""
    if order not in ORDERS:
        raise QueryError(message("unknown_order", order=repr(order), orders=" | ".join(ORDERS)))


def ordered(lex: Lexicon, keys: list[str], order: str) -> list[str]:
    """``alpha`` (the edition's alphabet) or ``probability`` (shorter first in tiles, then likeliest
    draw first, ties in the alphabet: the ranking's order, :mod:`lextools.core.ranking`; where counts
    are known)."""
    ed = lex.edition
    if order == "alpha":
        return ed.sort_keys(keys)
    check_order(order)
    return sorted(keys, key=lambda k: (len(k), -ed.probability(ed.decode(k)), ed.collation_key(k)))


def export_order(lex: Lexicon) -> Iterator[str]:
    """Every key, in the edition's alphabetical order (es-fise: … CU…, CHA…, D…)."""
    return iter(lex.edition.sort_keys(lex.keys()))


def in_chunks(work: Callable[[list[T]], Iterable[U]], items: list[T], size: int) -> list[U]:
    """``work`` of the items, ``size`` at a time with a :func:`~lextools.core.budget.pause` between
    two (one call, no pause, for a list of at most ``size``): C work that lets a gevent worker's other
    requests run every millisecond or two."""
    if len(items) <= size:
        return list(work(items))
    done: list[U] = []
    for start in range(0, len(items), size):
        done += work(items[start : start + size])
        pause()
    return done
