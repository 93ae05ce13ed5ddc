"""Searches that walk the DAWGs: words of N tiles, patterns, anagrams and subanagrams.

The walks use DAWG-Python's ``Dictionary.follow_bytes`` and ``has_value`` (the dawgdic transition
table), one tile per step: every tile is one character of the key (see :mod:`lextools.lexicon`).

Anagrams use the alphagram index instead of the word DAWG: a rack's anagrams are the words whose
alphagram is the rack's, so we walk the index in sorted order, taking each next tile from the rack
or, failing that, from a blank. Because an alphagram is sorted, a rack tile smaller than the tile
being placed can never be placed later, which prunes the walk hard: 7 tiles with 2 blanks over a
million words visits thousands of nodes, not millions.

Every walk goes in the order of its answer and takes a :class:`~lextools.budget.Budget`; a walk
that runs out of budget records where it stopped (``budget.resume``), and ``after=`` that position
continues it — a position is a string only this module reads:

- ``find`` in ``alpha`` order: the last key settled. The walk visits each node's children in the
  edition's alphabet (es-fise: C, CH, D), so keys come out in that order and resuming skips every
  subtree before the position without entering it.
- ``find`` in ``probability`` order: an index into the lexicon's probability ranking (every key,
  likeliest draw first; :mod:`lextools.ranking`), built once per loaded lexicon and then scanned.
- ``anagrams``: ``"<length> <alphagram> <word>"``. Anagrams come longest first, then by alphagram,
  then in the edition's alphabet; each length is one walk of the alphagram index.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from lextools.budget import Budget, Exhausted
from lextools.errors import PositionError, QueryError, SpellingError
from lextools.lexicon import ALPHAGRAM_SEPARATOR, Lexicon
from lextools.messages import message
from lextools.normalize import MAX_INPUT_CHARS, too_long
from lextools.ranking import probability_ranking
from lextools.tokenize import spell

#: Longest rack or pattern we search with.
MAX_QUERY_TILES = 15
BLANK = "?"
#: The orders a search answers in.
ORDERS = ("alpha", "probability")
_SEP = ALPHAGRAM_SEPARATOR.encode()


@dataclass(frozen=True)
class Match:
    key: str  # lexicon key
    blanks: tuple[str, ...] = ()  # tiles a blank stands for (anagrams)


def words_of_length(lex: Lexicon, n: int) -> list[str]:
    """Keys of exactly ``n`` tiles, in the edition's alphabet order."""
    if not 1 <= n <= MAX_QUERY_TILES:
        raise QueryError(message("length_range", max=MAX_QUERY_TILES))
    return [m.key for m in match_pattern(lex, [None] * n)]


def parse_pattern(text: str, lex: Lexicon) -> list[str | None]:
    """``?`` is any one tile, ``*`` any run of tiles, the rest is spelled like a word (any notation).

    Returns a list of keys characters, ``None`` for ``?`` and ``"*"`` for ``*``.
    """
    if not text or too_long(text):  # counted in NFC, as words are
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
    return (Match(key) for key in _walk_guided(lex, pattern, "", None, budget=budget, after=after))


def parse_rack(text: str, lex: Lexicon) -> tuple[str, int]:
    """A rack → (known tile keys, number of blanks); ``?`` is a blank, tiles in any notation."""
    blanks = text.count(BLANK)
    key = ""
    # Spell the pieces between blanks apart: C?H is C, H and a blank, never the CH tile.
    for piece in text.split(BLANK):
        if piece.strip():
            try:
                key += spell(piece, lex.edition, obligatory=False).key
            except SpellingError as e:
                raise QueryError(message("bad_rack", text=repr(text), reason=e.message or e.reason)) from None
    if not key and not blanks:
        raise QueryError(message("empty_rack"))
    if len(key) + blanks > MAX_QUERY_TILES:
        raise QueryError(message("rack_tiles", max=MAX_QUERY_TILES))
    return key, blanks


def anagrams(
    lex: Lexicon,
    rack: str,
    blanks: int = 0,
    sub: bool = False,
    min_length: int = 2,
    *,
    budget: Budget | None = None,
    after: str | None = None,
) -> list[Match]:
    """Words using every tile of the rack (or, with ``sub``, any of them, at least ``min_length``).

    ``rack`` is a lexicon key; a blank may be any tile of the edition — a digraph tile too, never a
    letter the edition has no tile for (K and W in es-fise), since those are not in the alphabet.
    Longest first, then by alphagram, then alphabetical; see the module docstring for ``after``.
    """
    if not len(lex):  # an empty DAWG has no guide units to walk: nothing matches
        return []
    budget = budget if budget is not None else Budget()
    dct, ed = lex.anagrams.dct, lex.edition
    codes = sorted(t.code for t in ed.tiles)
    code_bytes = {c: c.encode() for c in codes}
    size = len(rack) + blanks
    shortest = max(min_length, 1)
    if sub:
        lengths: list[int] = list(range(size, shortest - 1, -1))
    else:
        lengths = [size] if size >= shortest else []
    start_length, start_alpha, start_word = _anagram_position(after, codes) if after else (size, "", None)
    rank = ed.collation_key
    found: list[Match] = []

    def walk_length(length: int, resume: tuple[str, str | None] | None) -> None:
        """Alphagrams of ``length`` tiles, in order; ``resume`` is (alphagram, last word done) or None."""
        every_tile = length == size  # then a rack tile skipped now could never be placed later
        target, last_word = resume if resume else ("", None)

        def words_of(alpha: str, used: tuple[str, ...], on_path: bool) -> None:
            """Every word of the alphagram, alphabetically; those of the resumed one after its last word done."""
            resumed = on_path and resume is not None and alpha == target
            if resumed and last_word is None:
                return  # every word of it was on earlier pages
            done = rank(last_word) if resumed and last_word else None
            labels = tuple(ed.by_code[c].label for c in used)
            prefix = alpha + ALPHAGRAM_SEPARATOR
            for key in sorted((e[len(prefix) :] for e in lex.anagrams.iterkeys(prefix)), key=rank):
                if done is None or rank(key) > done:
                    found.append(Match(key, labels))
                    budget.count(f"{length} {alpha} {key}")

        def walk(index: int, pos: int, left: Counter[str], blanks_left: int, alpha: str, used: tuple[str, ...],
                 on_path: bool) -> None:  # fmt: skip
            """``on_path``: ``alpha`` is a prefix of the alphagram to resume after, so what comes before
            it in order is skipped, not walked."""
            depth = len(alpha)
            if depth == length:
                if dct.follow_bytes(_SEP, index) is not None:
                    words_of(alpha, used, on_path)
                budget.step(f"{length} {alpha} ")  # this alphagram is done
                return
            # Stopping here, before the children, resumes with them (or, on the path, after `resume`).
            budget.step(f"{length} {target} {last_word or ''}" if on_path else f"{length} {alpha} ")
            last = len(codes) - 1
            if every_tile:
                last = next((j for j in range(pos, len(codes)) if left[codes[j]]), last)
            for i in range(pos, last + 1):
                c = codes[i]
                child_on_path = False
                if on_path and depth < len(target):
                    if c < target[depth]:
                        continue
                    child_on_path = c == target[depth]
                if left[c]:
                    nxt = dct.follow_bytes(code_bytes[c], index)
                    if nxt is not None:
                        left[c] -= 1
                        walk(nxt, i, left, blanks_left, alpha + c, used, child_on_path)
                        left[c] += 1
                elif blanks_left:
                    nxt = dct.follow_bytes(code_bytes[c], index)
                    if nxt is not None:
                        walk(nxt, i, left, blanks_left - 1, alpha + c, (*used, c), child_on_path)

        walk(dct.ROOT, 0, Counter(rack), blanks, "", (), resume is not None)

    with contextlib.suppress(Exhausted):  # budget.resume says where
        for length in lengths:
            if length <= start_length:  # longer ones were on earlier pages
                walk_length(length, (start_alpha, start_word) if after and length == start_length else None)
    return found


def _anagram_position(after: str, codes: list[str]) -> tuple[int, str, str | None]:
    """``"<length> <alphagram> <word>"`` → its parts (no word: the alphagram is done)."""
    parts = after.split(ALPHAGRAM_SEPARATOR)
    known = set(codes)
    if (
        len(parts) != 3
        or not (parts[0].isascii() and parts[0].isdigit() and 1 <= int(parts[0]) <= MAX_QUERY_TILES)
        or not set(parts[1] + parts[2]) <= known
        or len(parts[1]) > int(parts[0])
        or "".join(sorted(parts[1])) != parts[1]
    ):
        raise PositionError("not a position an anagram search can resume from")
    return int(parts[0]), parts[1], parts[2] or None


def ordered(lex: Lexicon, keys: list[str], order: str) -> list[str]:
    """``alpha`` (the edition's alphabet) or ``probability`` (likeliest draw first, where counts are known)."""
    ed = lex.edition
    if order == "alpha":
        return ed.sort_keys(keys)
    if order == "probability":
        return sorted(keys, key=lambda k: (-ed.probability(ed.decode(k)), ed.collation_key(k)))
    raise QueryError(f"unknown order {order!r}: use alpha or probability")


def export_order(lex: Lexicon) -> Iterator[str]:
    """Every key, in the edition's alphabetical order (es-fise: … CU…, CHA…, D…)."""
    return iter(lex.edition.sort_keys(lex.keys()))


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
) -> Iterator[str]:
    """Keys meeting every given constraint, in ``order``: the service's ``search``.

    ``pattern`` is read by :func:`parse_pattern`; ``contains``, ``starts`` and ``ends`` are tiles in
    any notation; ``length`` counts tiles. Constraints are tile-level, so in es-fise ``starts=C``
    does not match CHICO (its first tile is CH). Bad constraints raise :class:`QueryError` at the
    call. ``budget`` and ``after``: see the module docstring.

    In ``alpha`` order the pattern, ``starts`` and ``length`` prune the walk; ``contains`` and
    ``ends`` are checked on each key found (a prefix and a suffix may overlap: CASA starts with CA
    and ends with AS). The walk follows only the DAWG's existing edges, through its guide, keeping
    the set of pattern positions still alive at each node, so any pattern costs about one visit per
    node it reaches (trying every tile code at every node instead was 5 to 15 times slower for
    ``????????`` and ``CH?*O`` on 150,000 words).
    """
    if length is not None and not 1 <= length <= MAX_QUERY_TILES:
        raise QueryError(message("length_range", max=MAX_QUERY_TILES))
    if order not in ORDERS:
        raise QueryError(f"unknown order {order!r}: use {' or '.join(ORDERS)}")

    def tiles_of(name: str, text: str | None) -> str:
        if not text:
            return ""
        try:
            return spell(text, lex.edition).key
        except SpellingError as e:
            raise QueryError(message("bad_param", name=name, text=repr(text), reason=e.message or e.reason)) from None

    prefix, infix, suffix = tiles_of("starts", starts), tiles_of("contains", contains), tiles_of("ends", ends)
    parts = parse_pattern(pattern, lex) if pattern else ["*"]
    budget = budget if budget is not None else Budget()
    if order == "probability":
        return iter(_scan_ranking(lex, _matcher(parts, prefix, length, infix, suffix), budget, after))

    def keep(k: str) -> bool:
        return k.endswith(suffix) and infix in k

    return iter(_walk_guided(lex, parts, prefix, length, keep=keep, budget=budget, after=after))


def _matcher(
    parts: list[str | None], prefix: str, length: int | None, infix: str, suffix: str
) -> Callable[[str], bool]:
    """The constraints of :func:`find` as one test of a key (one character per tile)."""
    regex = re.compile("".join(".*" if p == "*" else "." if p is None else re.escape(p) for p in parts), re.DOTALL)

    def matches(k: str) -> bool:
        return (
            (length is None or len(k) == length)
            and k.startswith(prefix)
            and k.endswith(suffix)
            and infix in k
            and regex.fullmatch(k) is not None
        )

    return matches


def _scan_ranking(lex: Lexicon, matches: Callable[[str], bool], budget: Budget, after: str | None) -> list[str]:
    """Keys of the probability ranking that ``matches`` accepts, from the one after index ``after``.

    While the ranking is still being built (lextools.ranking), the page waits for it at most what is
    left of its budget and then ends with nothing found and its position unchanged.
    """
    if after and not (after.isascii() and after.isdigit() and len(after) <= 9):
        raise PositionError("not a position a probability search can resume from")
    ranking = probability_ranking(lex, wait=budget.remaining())
    if ranking is None:
        budget.resume = after or ""
        return []
    start = int(after) + 1 if after else 0
    if start > len(ranking):
        raise PositionError("not a position a probability search can resume from")
    found: list[str] = []
    with contextlib.suppress(Exhausted):
        for i in range(start, len(ranking)):
            key = ranking[i]
            if matches(key):
                found.append(key)
                budget.count(str(i))
            budget.step(str(i))
    return found


def _children(dct: object, guide: object, index: int, partial: bytes = b"") -> list[tuple[str, int]]:
    """A node's outgoing tiles and the nodes they lead to, in key (byte) order.

    A DAWG edge is one byte; a tile whose character takes two or more UTF-8 bytes (Ñ, Ç) is a path
    of as many edges, followed here to the end.
    """
    out: list[tuple[str, int]] = []
    label = guide.child(index)  # type: ignore[attr-defined]
    while label:
        child = dct.follow_char(label, index)  # type: ignore[attr-defined]
        if child is None:  # only in a damaged DAWG
            return out
        label_bytes = partial + bytes((label,))
        if label >= 0xC0 or (partial and len(label_bytes) < _utf8_length(label_bytes[0])):
            out += _children(dct, guide, child, label_bytes)  # the middle of a multi-byte character
        else:
            out.append((label_bytes.decode(), child))
        label = guide.sibling(child)  # type: ignore[attr-defined]
    return out


def _walk_guided(
    lex: Lexicon,
    parts: list[str | None],
    prefix: str,
    length: int | None,
    *,
    keep: Callable[[str], bool] | None = None,
    budget: Budget | None = None,
    after: str | None = None,
) -> list[str]:
    """Keys matching a parsed pattern whose first tiles are ``prefix``, of ``length`` tiles if given,
    that ``keep`` accepts, in the edition's alphabet order, after the key ``after``."""
    if not len(lex):  # an empty DAWG has no guide units to walk: nothing matches
        return []
    dct, guide = lex.words.dct, lex.words.guide
    rank = lex.edition.collation_key
    budget = budget if budget is not None else Budget()
    end = len(parts)
    longest = length if length is not None else MAX_QUERY_TILES
    target = after or ""

    def closure(positions: set[int]) -> frozenset[int]:  # a star may match no tile at all
        out = set(positions)
        for i in positions:
            while i < end and parts[i] == "*":
                i += 1
                out.add(i)
        return frozenset(out)

    steps: dict[tuple[frozenset[int], str], frozenset[int]] = {}

    def step(alive: frozenset[int], tile: str) -> frozenset[int]:
        nxt = steps.get((alive, tile))
        if nxt is None:
            moved = set()
            for i in alive:
                if i == end:
                    continue
                if parts[i] == "*":
                    moved.add(i)
                elif parts[i] is None or parts[i] == tile:
                    moved.add(i + 1)
            nxt = steps[(alive, tile)] = closure(moved)
        return nxt

    found: list[str] = []

    def visit(index: int, alive: frozenset[int], key: str, on_path: bool) -> None:
        depth = len(key)
        for tile, child in sorted(_children(dct, guide, index), key=lambda tc: rank(tc[0])):
            if depth < len(prefix) and prefix[depth] != tile:
                continue
            settled = False  # the key is `after` or comes before it: done on an earlier page
            if on_path and depth < len(target):
                if rank(tile) < rank(target[depth]):
                    continue
                settled = tile == target[depth]
            nxt = step(alive, tile)
            if not nxt:
                continue
            word = key + tile
            if (
                not settled
                and end in nxt
                and dct.has_value(child)
                and (length is None or len(word) == length)
                and (keep is None or keep(word))
            ):
                found.append(word)
                budget.count(word)
            budget.step(target if settled else word)
            if len(word) < longest:
                visit(child, nxt, word, settled)

    with contextlib.suppress(Exhausted):  # budget.resume says where
        visit(dct.ROOT, closure({0}), "", bool(target))
    return found


def _utf8_length(lead: int) -> int:
    return 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
