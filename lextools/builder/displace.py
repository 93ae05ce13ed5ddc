"""The seeds of the alphagram table's perfect hash (:mod:`lextools.core.anagram_table`), found with numpy.

The hash is the reader's: a name's bucket is ``crc32 mod buckets``, its slot ``(crc32 + seed ×
adler32) mod slots``, each bucket's seed an unsigned 16-bit number. :func:`displace` finds the seeds
the table has always had ("hash, displace"): the buckets taken largest first (in their order within a
size), each given the first seed that puts its names in free slots of their own, a bucket after
another. Taken one by one in Python that was most of a build's time; here the search runs in
*rounds* over many buckets at once, and gives the very same seeds:

- in a round, the next buckets to place (a share of the free slots, :data:`SHARE`: few of their
  slots meet) each find their first seed that fits the slots taken when the round began, in bulk;
- a seed that did not fit then does not fit later either (slots are only ever taken), so a
  bucket's seed is the one it found unless a bucket before it in the round takes one of its slots.
  A bucket none of whose slots an earlier one of the round found too keeps it at once; the few
  others are settled in the round's order in Python (:func:`_settle`), each from the seed it found:
  its first seed whose slots are free but for those of a later bucket kept at once, which then
  loses them and is settled in its turn.
"""

from __future__ import annotations

import heapq
from typing import Any

import numpy as np
import numpy.typing as npt

#: Names per slot, and per bucket: the table costs about 4.4 + 1 bytes per alphagram.
LOAD, PER_BUCKET = 0.9, 2
#: Seeds a bucket may have (uint16): a bucket no seed places makes the table one slot larger.
SEEDS = 1 << 16
#: Candidate slots computed per step of a round's search (buckets × seeds × names): the window of
#: seeds a bucket tries grows as the buckets left to place get fewer.
ROUND_CELLS = 1 << 16
#: A round's names, as a share of the free slots: a bucket's names meet another's of the round with a
#: chance of about this times its size, and each that does is settled in Python (its size² below: the
#: buckets per round).
SHARE = 0.02

Ints = npt.NDArray[np.int64]
Hashes = npt.NDArray[np.uint32]
Flags = npt.NDArray[np.bool_]
#: Each bucket's seed; each name's slot.
Seeds = npt.NDArray[np.uint16]
Places = npt.NDArray[np.int32]


def displace(first: Hashes, second: Hashes) -> tuple[int, Seeds, Places]:
    """Slots, each bucket's seed, each name's slot, for names of these CRC-32s (``first``) and
    Adler-32s (``second``). A bucket no seed places (two names whose hashes agree modulo the slots)
    makes the table the next prime larger and the search start again."""
    buckets = max(1, len(first) // PER_BUCKET)
    slots = prime_from(int(len(first) / LOAD) + 1)
    bucket = first % buckets
    while True:
        placed = _place_buckets(bucket, buckets, first, second, slots)
        if placed is not None:
            return slots, *placed
        slots = prime_from(slots + 1)


def _place_buckets(
    bucket: Hashes, buckets: int, first: Hashes, second: Hashes, slots: int
) -> tuple[Seeds, Places] | None:
    """Each bucket's seed and each name's slot, the buckets of each size placed together, the
    largest first and in their order within a size; None when a bucket exhausts its seeds."""
    taken = np.zeros(slots, dtype=bool)
    owner = np.zeros(slots, dtype=np.int32)  # which bucket (in the order they are placed) took a slot
    seeds = np.zeros(buckets, dtype=np.uint16)
    places = np.zeros(len(first), dtype=np.int32)  # (slots: fewer than 2³¹)
    members = stable_order(bucket).astype(np.int32)  # the names of bucket 0, then of 1, …
    sizes = np.bincount(bucket, minlength=buckets)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    # A name whose Adler-32 is a multiple of the slots has one slot whatever its bucket's seed: once
    # that slot is taken, its bucket fails, and so does this search (known here before the classes
    # between: the same None, sooner).
    fixed = np.flatnonzero(second % slots == 0)
    before = 0  # the buckets placed before this size's
    for size in np.unique(sizes[sizes > 0])[::-1]:
        waiting = fixed[sizes[bucket[fixed]] <= size]
        if taken[first[waiting] % slots].any():
            return None
        ids = np.flatnonzero(sizes == size)
        names = members[starts[ids, None] + np.arange(size)]
        found = _place_class(first[names].astype(np.int64), second[names].astype(np.int64), taken, owner, before)
        if found is None:
            return None
        seeds[ids], places[names] = found
        before += len(ids)
    return seeds, places


def _place_class(a: Ints, b: Ints, taken: Flags, owner: npt.NDArray[np.int32], before: int) -> tuple[Ints, Ints] | None:
    """Seeds and slots of buckets of one size (rows of their names' hashes ``a``, ``b``), one after
    the other as the one-by-one search places them, in rounds (the module docstring); marks their
    slots in ``taken``, and in ``owner`` the number of the bucket (``before`` + its row) that took
    each. None when one exhausts its seeds."""
    count, size = a.shape
    slots = len(taken)
    seeds = np.zeros(count, dtype=np.int64)
    spots = np.zeros((count, size), dtype=np.int64)
    done = 0  # the buckets before this one are placed
    free = slots - int(np.count_nonzero(taken))
    while done < count:
        live = slice(done, min(count, done + max(64, int(SHARE * free) // size**2)))
        found = _first_fits(a[live], b[live], taken, free)
        if found is None:
            return None  # the one-by-one search fails there too, or at a bucket before it
        seed, where = found
        if not _settle(a[live], b[live], (seed, where), (taken, owner), before + done):
            return None
        seeds[live], spots[live] = seed, where
        free -= (live.stop - done) * size
        done = live.stop
    return seeds, spots


def _first_fits(a: Ints, b: Ints, taken: Flags, free: int) -> tuple[Ints, Ints] | None:
    """Each row's first seed whose slots are free in ``taken`` (``free`` of them) and distinct, and
    those slots; None when a row has none below :data:`SEEDS`. Windows of seeds, first as long as a
    row's expected tries, grow for the rows that found none yet; each name's slots a column."""
    rows, size = a.shape
    slots = len(taken)
    seed, where = np.zeros(rows, dtype=np.int64), np.zeros((rows, size), dtype=np.int64)
    todo, start = np.arange(rows), np.zeros(rows, dtype=np.int64)
    window = max(1, int((slots / max(1, free)) ** size))
    while todo.size:
        window = min(window, ROUND_CELLS // (todo.size * size) + 1, SEEDS)
        tries = start[todo, None] + np.arange(window)
        cand = [(a[todo, k, None] + tries * b[todo, k, None]) % slots for k in range(size)]
        hit = taken[cand[0]]
        for k in range(1, size):
            hit |= taken[cand[k]]
            for j in range(k):
                hit |= cand[j] == cand[k]  # two names in one slot
        fits = ~hit
        found = fits.any(axis=1)
        pick, placed = fits[found].argmax(axis=1), todo[found]
        seed[placed] = tries[found, pick]
        for k in range(size):
            where[placed, k] = cand[k][found, pick]
        start[todo] += window
        todo = todo[~found]
        if todo.size and (start[todo] >= SEEDS).any():
            return None
        window *= 2
    return seed, where


def _settle(a: Ints, b: Ints, found: tuple[Ints, Ints], marks: tuple[Flags, npt.NDArray[np.int32]], first: int) -> bool:
    """Make a round's seeds and slots (``found``: each row's first fit to the slots taken before the
    round) the one-by-one search's, in place, and take their slots (``marks``: ``taken`` and
    ``owner``); ``first`` the number of the round's first bucket. False when a bucket exhausts its
    seeds."""
    seed, where = found
    taken, owner = marks
    size = where.shape[1]
    flat = where.ravel()
    by_slot = np.argsort(flat, kind="stable")  # each slot's claims together, the first row's first
    ordered = flat[by_slot]
    meets = np.zeros(len(where), dtype=bool)  # found a slot an earlier row of the round found too
    meets[by_slot[1:][ordered[1:] == ordered[:-1]] // size] = True
    alone = np.flatnonzero(~meets)  # kept at once (unless a bucket settled before it takes a slot)
    taken[where[alone]] = True
    owner[where[alone]] = (alone + first)[:, None]
    todo = np.flatnonzero(meets).tolist()  # (in order: a heap)
    is_taken, taker, slots = taken.data, owner.data, len(taken)  # (memoryviews: quick in Python)
    while todo:
        row = heapq.heappop(todo)
        me, names = first + row, list(zip(a[row].tolist(), b[row].tolist(), strict=True))
        s = int(seed[row])
        while True:  # free, or kept at once by a later bucket; and distinct
            spots = [(x + s * y) % slots for x, y in names]
            if all(not is_taken[c] or taker[c] > me for c in spots) and len(set(spots)) == size:
                break
            s += 1
            if s == SEEDS:
                return False
        for c in spots:
            if is_taken[c] and taker[c] > me:  # a later bucket's: it loses its slots, and is settled in turn
                later = taker[c] - first
                for d in where[later].tolist():
                    is_taken[d] = False
                heapq.heappush(todo, later)
            is_taken[c], taker[c] = True, me
        seed[row], where[row] = s, spots
    return True


def stable_order(values: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.intp]:
    """``np.argsort(values, kind="stable")`` of values below 2³²: two passes of numpy's radix sort of
    16-bit numbers (the low halves, then the high), where one sort of 32-bit numbers is a merge sort
    at twice the cost."""
    if len(values) and not 0 <= int(values.min()) <= int(values.max()) < 1 << 32:
        raise ValueError("stable_order sorts values from 0 to 2³² − 1")
    low = np.argsort((values & 0xFFFF).astype(np.uint16), kind="stable")
    return low[np.argsort((values[low] >> 16).astype(np.uint16), kind="stable")]


def prime_from(n: int) -> int:
    """The least prime ≥ n: slots modulo a prime spread the seeds' strides over every slot."""
    n = max(n, 2)
    while any(n % d == 0 for d in range(2, int(n**0.5) + 1)):
        n += 1
    return n
