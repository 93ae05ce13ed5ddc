"""How many ways a full bag gives a set of tiles, blanks included: the count behind probability order.

Word-study programs order alphagrams by how likely a player is to draw them. Zyzzyva's count
(``LetterBag::getNumCombinations`` in its GPL sources, with the "blanks" setting of its probability
order) is the one players know: the number of distinct draws of as many tiles as the word has from
the full bag, where up to ``blanks`` of the word's tiles may be drawn as blanks instead. Each blank
draw is one sub-multiset of the word's tiles left to blanks, so the total is

    sum over j = 0..blanks of  C(bag blanks, j) * sum over j-tile sub-multisets R of the word
                               of  product over tiles t of C(count of t, k_t - r_t)

(k_t: copies of t in the word, r_t: copies of t in R). With ``blanks=0`` it is
:meth:`lextools.core.edition.Edition.probability`. Zyzzyva stops at two blanks, as the bags do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from math import comb

from lextools.core.edition import Edition
from lextools.core.errors import QueryError
from lextools.core.messages import message

#: Blanks a draw may use in the count: every verified bag holds two, and Zyzzyva stops there too.
MAX_BLANKS = 2


def draw_count(edition: Edition, tiles: Sequence[str], blanks: int = 0) -> int:
    """Distinct draws of ``len(tiles)`` tiles from a full bag that spell these tiles, up to ``blanks`` of them blank.

    The sum over sub-multisets factors tile by tile: the coefficient of x^j in the product, over the
    word's distinct tiles t, of (C(n_t, k_t) + C(n_t, k_t - 1) x + C(n_t, k_t - 2) x^2) is the
    inner sum for j blanks. Multiplying those polynomials costs a few operations per tile, where
    listing the sub-multisets one by one costs many times more on long words.

    Raises :class:`QueryError` where tile counts are unverified (es-mattel2021).
    """
    if not 0 <= blanks <= MAX_BLANKS:
        raise QueryError(message("quiz_range", name="blanks", low=0, high=MAX_BLANKS))
    rows = _choose_rows(edition)
    p0, p1, p2 = 1, 0, 0  # ways for the tiles so far with 0, 1 and 2 of them left to blanks
    for label, k in Counter(tiles).items():
        row = rows[label]  # row[m] = C(copies in the bag, m)
        f0, f1, f2 = row[k], row[k - 1], row[k - 2] if k >= 2 else 0
        p0, p1, p2 = p0 * f0, p0 * f1 + p1 * f0, p0 * f2 + p1 * f1 + p2 * f0
    in_bag = edition.blanks or 0
    return p0 + (in_bag * p1 if blanks >= 1 else 0) + (comb(in_bag, 2) * p2 if blanks >= 2 else 0)


@cache
def _choose_rows(edition: Edition) -> dict[str, tuple[int, ...]]:
    """C(copies of the tile in the bag, m) for m = 0 .. the longest word, per tile label."""
    if not edition.has_counts:
        raise QueryError(message("unverified_counts", edition=edition.name))
    longest = 16  # longer than any query (search.MAX_QUERY_TILES), without importing the searches
    return {t.label: tuple(comb(t.count or 0, m) for m in range(longest)) for t in edition.tiles}
