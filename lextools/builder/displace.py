"""The seeds of the alphagram table's perfect hash (:mod:`lextools.core.anagram_table`), found with numpy.

The hash is the reader's: a name's bucket is ``crc32 mod buckets``, its slot ``(crc32 + seed ×
adler32) mod slots``, each bucket's seed an unsigned 16-bit number. :func:`displace` finds the seeds
the table has always had ("hash, displace"): the buckets taken largest first (in their order within a
size), each given the first seed that puts its names in free slots of their own, a bucket after
another. Taken one by one in Python that was most of a build's time; here the search runs in
*rounds* over many buckets at once, and gives the very same seeds:

- in a round, the next buckets still to place each try a window of seeds from their next one,
  against the slots taken when the round began, and find their first seed that fits;
- a bucket's seed is the one the one-by-one search gives as long as no bucket before it in the
  round claimed one of its slots (slots are only ever taken, so a seed that did not fit still does
  not): the buckets before the first that lost a slot to an earlier one of the round, or found no
  seed in its window, are placed; the search goes on from that one;
- a bucket not placed keeps what it learnt: its next seed to try is the one it found (or the end of
  its window), the seeds before it not fitting any more than they did.

The number of buckets a round takes grows with the free slots (two rounds' claims rarely meet in
a sparse table) and shrinks as the table fills, and the window of seeds grows as fewer fit.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

#: Names per slot, and per bucket: the table costs about 4.4 + 1 bytes per alphagram.
LOAD, PER_BUCKET = 0.9, 2
#: Seeds a bucket may have (uint16): a bucket no seed places makes the table one slot larger.
SEEDS = 1 << 16
#: Candidate slots computed per round (buckets × seeds × names): the window a bucket tries grows as
#: the buckets left to place get fewer.
ROUND_CELLS = 1 << 16

Ints = npt.NDArray[np.int64]
Hashes = npt.NDArray[np.uint32]
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
    owner = np.zeros(slots, dtype=np.int32)  # scratch: which bucket of a round claims a slot
    seeds = np.zeros(buckets, dtype=np.uint16)
    places = np.zeros(len(first), dtype=np.int32)  # (slots: fewer than 2³¹)
    members = np.argsort(bucket, kind="stable").astype(np.int32)  # the names of bucket 0, then of 1, …
    sizes = np.bincount(bucket, minlength=buckets)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    # A name whose Adler-32 is a multiple of the slots has one slot whatever its bucket's seed: once
    # that slot is taken, its bucket fails, and so does this search (known here before the classes
    # between: the same None, sooner).
    fixed = np.flatnonzero(second % slots == 0)
    for size in np.unique(sizes[sizes > 0])[::-1]:
        waiting = fixed[sizes[bucket[fixed]] <= size]
        if taken[first[waiting] % slots].any():
            return None
        ids = np.flatnonzero(sizes == size)
        names = members[starts[ids, None] + np.arange(size)]
        found = _place_class(first[names].astype(np.int64), second[names].astype(np.int64), taken, owner)
        if found is None:
            return None
        seeds[ids], places[names] = found
    return seeds, places


def _place_class(
    a: Ints, b: Ints, taken: npt.NDArray[np.bool_], owner: npt.NDArray[np.int32]
) -> tuple[Ints, Ints] | None:
    """Seeds and slots of buckets of one size (rows of their names' hashes ``a``, ``b``), one after
    the other as the one-by-one search places them, in rounds (the module docstring); marks their
    slots in ``taken``. None when one exhausts its seeds."""
    count, size = a.shape
    slots = len(taken)
    next_seed = np.zeros(count, dtype=np.int64)
    seeds = np.zeros(count, dtype=np.int64)
    spots = np.zeros((count, size), dtype=np.int64)
    done = 0  # the buckets before this one are placed
    free = slots - int(np.count_nonzero(taken))
    while done < count:
        live = np.arange(done, min(count, done + max(8, int((2 * free) ** 0.5) // size)))
        found = _first_fits(a[live], b[live], next_seed[live], taken, free)
        if found is None:
            return None  # the one-by-one search fails there too, or at a bucket before it
        seed, where = found
        keeps = _first_claims(where, owner)
        cut = len(live) if keeps.all() else int(np.argmin(keeps))  # the first bucket that lost a slot
        placed = live[:cut]
        seeds[placed], spots[placed] = seed[:cut], where[:cut]
        taken[where[:cut]] = True
        next_seed[live[cut:]] = seed[cut:]  # what they learnt: the seeds before these do not fit
        done += cut
        free -= cut * size
    return seeds, spots


def _first_fits(a: Ints, b: Ints, start: Ints, taken: npt.NDArray[np.bool_], free: int) -> tuple[Ints, Ints] | None:
    """Each row's first seed from ``start`` on whose slots are free in ``taken`` (``free`` of them)
    and distinct, and those slots; None when a row has none below :data:`SEEDS`. Windows of seeds
    grow for the rows that found none yet."""
    rows, size = a.shape
    slots = len(taken)
    seed, where = np.zeros(rows, dtype=np.int64), np.zeros((rows, size), dtype=np.int64)
    todo, start = np.arange(rows), start.copy()
    window = max(1, 2 * slots // max(1, free))
    while todo.size:
        window = min(window, ROUND_CELLS // (todo.size * size) + 1, SEEDS)
        tries = start[todo, None] + np.arange(window)
        cand = (a[todo, None, :] + tries[:, :, None] * b[todo, None, :]) % slots
        fits = ~taken[cand].any(axis=2) & (tries < SEEDS)
        if size == 2:  # (most buckets: two names)
            fits &= cand[:, :, 0] != cand[:, :, 1]
        elif size > 2:
            fits &= (np.diff(np.sort(cand, axis=2), axis=2) != 0).all(axis=2)
        found = fits.any(axis=1)
        pick = fits[found].argmax(axis=1)
        seed[todo[found]], where[todo[found]] = tries[found, pick], cand[found, pick]
        start[todo] += window
        todo = todo[~found]
        if todo.size and (start[todo] >= SEEDS).any():
            return None
        window *= 2
    return seed, where


def _first_claims(where: Ints, owner: npt.NDArray[np.int32]) -> npt.NDArray[np.bool_]:
    """Per row of slots (distinct within a row), whether the row is the first one to claim each;
    ``owner`` a scratch number per slot."""
    rows = np.arange(len(where), dtype=np.int32)
    # Where one index comes several times, numpy's assignment leaves the last value: written from
    # the last row to the first, a slot keeps the first row that claims it.
    owner[where[::-1].ravel()] = np.repeat(rows[::-1], where.shape[1])
    return np.asarray((owner[where] == rows[:, None]).all(axis=1))


def prime_from(n: int) -> int:
    """The least prime ≥ n: slots modulo a prime spread the seeds' strides over every slot."""
    n = max(n, 2)
    while any(n % d == 0 for d in range(2, int(n**0.5) + 1)):
        n += 1
    return n
