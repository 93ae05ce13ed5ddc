"""The seeds of the alphagram table's perfect hash (:mod:`lextools.core.anagram_table`), found with numpy.

The hash is the reader's: a name's bucket is ``crc32 mod buckets``, its slot ``(crc32 + seed ×
adler32) mod slots``, each bucket's seed an unsigned 16-bit number. :func:`displace` finds seeds
that put every name in a slot of its own, buckets placed largest first ("hash, displace"). The
search is in *rounds* over every bucket of one size at once, not a Python loop per bucket and per
seed: in a round every bucket still unplaced tries a window of seeds from its next one (one seed
each while many buckets are left, up to thousands when few are, so the last ones do not take
thousands of rounds), and takes the first seed of its window whose slots are free and distinct; of
the buckets that found one, each keeps it when it is the first bucket (by number) to claim every
one of its slots in the round, and the others try again from that seed in the next round. The
lowest-numbered bucket that found a seed always keeps it, so every round places one at least.

The seeds are not the ones a bucket-by-bucket search finds (a bucket may lose a slot to another of
its round), so the table's bytes differ from one built that way; every name still has a slot of its
own, so the words of each alphagram are the same.
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
    largest first; None when a bucket exhausts its seeds.

    A name whose Adler-32 is a multiple of the slots has one slot whatever the seed: the buckets
    holding one are placed before all others, while that slot is free."""
    taken = np.zeros(slots, dtype=bool)
    owner = np.zeros(slots, dtype=np.int32)  # scratch: which bucket of a round claims a slot
    seeds = np.zeros(buckets, dtype=np.uint16)
    places = np.zeros(len(first), dtype=np.int32)  # (slots: fewer than 2³¹)
    members = np.argsort(bucket, kind="stable").astype(np.int32)  # the names of bucket 0, then of 1, …
    sizes = np.bincount(bucket, minlength=buckets)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    pinned = np.zeros(buckets, dtype=bool)
    pinned[bucket[second % slots == 0]] = True
    for among in (pinned, ~pinned):
        for size in np.unique(sizes[among & (sizes > 0)])[::-1]:
            ids = np.flatnonzero(among & (sizes == size))
            names = members[starts[ids, None] + np.arange(size)]
            found = _place_class(first[names].astype(np.int64), second[names].astype(np.int64), taken, owner)
            if found is None:
                return None
            seeds[ids], places[names] = found
    return seeds, places


def _place_class(
    a: Ints, b: Ints, taken: npt.NDArray[np.bool_], owner: npt.NDArray[np.int32]
) -> tuple[Ints, Ints] | None:
    """Seeds and slots of buckets of one size (rows of their names' hashes ``a``, ``b``), in rounds
    (the module docstring); marks their slots in ``taken``. None when one exhausts its seeds."""
    count, size = a.shape
    slots = len(taken)
    next_seed = np.zeros(count, dtype=np.int64)
    seeds = np.zeros(count, dtype=np.int64)
    spots = np.zeros((count, size), dtype=np.int64)
    live, placed = np.arange(count), np.zeros(count, dtype=bool)
    while live.size:
        window = max(1, min(ROUND_CELLS // (live.size * size), SEEDS))
        tries = next_seed[live, None] + np.arange(window)
        cand = (a[live, None, :] + tries[:, :, None] * b[live, None, :]) % slots
        fits = ~taken[cand].any(axis=2) & (tries < SEEDS)
        if size > 1:
            fits &= (np.diff(np.sort(cand, axis=2), axis=2) != 0).all(axis=2)
        found = fits.any(axis=1)
        if (~found & (next_seed[live] + window >= SEEDS)).any():
            return None
        next_seed[live[~found]] += window
        pick = fits[found].argmax(axis=1)
        which, seed, where = live[found], tries[found, pick], cand[found, pick]
        win = _first_claims(where, owner)
        seeds[which[win]], spots[which[win]] = seed[win], where[win]
        taken[where[win]] = True
        next_seed[which[~win]] = seed[~win]  # tried again, now that the winners' slots are taken
        placed[which[win]] = True
        live = live[~placed[live]]
    return seeds, spots


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
