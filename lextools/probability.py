"""How many ways a full bag gives a set of tiles, blanks included: the count behind probability order.

Word-study programs order alphagrams by how likely a player is to draw them. Zyzzyva's count
(``LetterBag::getNumCombinations`` in its GPL sources, with the "blanks" setting of its probability
order) is the one players know: the number of distinct draws of as many tiles as the word has from
the full bag, where up to ``blanks`` of the word's tiles may be drawn as blanks instead. Each blank
draw is one sub-multiset of the word's tiles left to blanks, so the total is

    sum over j = 0..blanks of  C(bag blanks, j) * sum over j-tile sub-multisets R of the word
                               of  product over tiles t of C(count of t, k_t - r_t)

(k_t: copies of t in the word, r_t: copies of t in R). With ``blanks=0`` it is
:meth:`lextools.edition.Edition.probability`. Zyzzyva stops at two blanks, as the bags do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations_with_replacement
from math import comb

from lextools.edition import Edition
from lextools.errors import QueryError

#: Blanks a draw may use in the count: every verified bag holds two, and Zyzzyva stops there too.
MAX_BLANKS = 2


def draw_count(edition: Edition, tiles: Sequence[str], blanks: int = 0) -> int:
    """Distinct draws of ``len(tiles)`` tiles from a full bag that spell these tiles, up to ``blanks`` of them blank.

    Raises :class:`QueryError` where tile counts are unverified (es-mattel2021).
    """
    if not 0 <= blanks <= MAX_BLANKS:
        raise QueryError(f"blanks must be between 0 and {MAX_BLANKS}")
    if not edition.has_counts:
        raise QueryError(f"{edition.name}: tile counts are unverified, so there is no probability order")
    wanted = Counter(tiles)
    bag = {label: edition.by_label[label].count or 0 for label in wanted}
    total = 0
    for used in range(min(blanks, len(tiles)) + 1):
        ways_for_blanks = comb(edition.blanks or 0, used)
        if not ways_for_blanks:
            break
        for left_to_blanks in combinations_with_replacement(sorted(wanted), used):
            replaced = Counter(left_to_blanks)
            if any(replaced[t] > wanted[t] for t in replaced):
                continue
            ways = ways_for_blanks
            for label, k in wanted.items():
                ways *= comb(bag[label], k - replaced[label])
            total += ways
    return total
