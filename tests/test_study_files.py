"""The files a build makes with numpy (lextools/builder/study_files.py, lextools/builder/displace.py):
the ranking byte for byte as the per-word sort lextools used before, and the alphagram table's seeds
as the bucket-by-bucket search found them (both kept here as the references)."""

from __future__ import annotations

import struct
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from lextools.builder import displace as displace_module
from lextools.builder import study_lists
from lextools.builder.displace import LOAD, PER_BUCKET, SEEDS, displace, prime_from
from lextools.builder.study_files import KeyRows, ranking_bytes, table_bytes
from lextools.builder.study_lists import stems_bytes
from lextools.core import stems
from lextools.core.anagram_table import AnagramTable, table_of
from lextools.core.edition import Edition, load_edition
from lextools.core.lexicon import Lexicon, alphagrammer, load_lexicon
from lextools.core.ranking import LONGEST, MAGIC, Ranks, _ways, _ways_table, alphabet_codes

EDITIONS = ["es-fise", "es-na103", "es-mattel2021", "en", "fr"]


def reference_ranking(edition: Edition, keys: list[str]) -> bytes:
    """The ranking file as lextools wrote it word by word: each key's ways to draw (per tile of the
    key, ``bytes.count``), then one sort of (−ways, record) per length; the alphabet alone where the
    edition has no tile counts."""
    codes = alphabet_codes(edition)
    place = {c: i for i, c in enumerate(codes)}
    by_length: list[list[bytes]] = [[] for _ in range(LONGEST + 1)]
    for key in keys:
        by_length[len(key)].append(bytes(place[c] for c in key))
    ways_of = _ways_table(edition, codes) if edition.has_counts else None
    for records in by_length:
        records.sort(key=lambda r: (-_ways(ways_of, r), r) if ways_of is not None else (0, r))
    encoded = codes.encode()
    counts = struct.pack(f"<{LONGEST + 1}I", *map(len, by_length))
    return b"".join((MAGIC, struct.pack("<I", len(encoded)), encoded, counts, *map(b"".join, by_length)))


def words_by_alphagram(lex: Lexicon) -> dict[bytes, list[bytes]]:
    """Every alphagram of the lexicon (its key in the index, UTF-8) → its words as the table holds
    them (:meth:`~lextools.core.edition.Edition.rank_bytes`, sorted): what the table must answer."""
    alphagram = alphagrammer(lex.alphagram_order)
    found: dict[bytes, list[bytes]] = defaultdict(list)
    keys = list(lex)
    for key, ranked in zip(keys, lex.edition.rank_bytes(keys), strict=True):
        found[alphagram(key).encode()].append(ranked)
    return {name: sorted(words) for name, words in found.items()}


def assert_study_files(lex: Lexicon, home: Path) -> None:
    keys = sorted(lex)
    ranks = ranking_bytes(lex.edition, keys)
    assert ranks == reference_ranking(lex.edition, keys)
    assert ranks == (home / lex.metadata["files"]["ranks"]["name"]).read_bytes()  # what the build wrote
    expected = words_by_alphagram(lex)
    made = AnagramTable(table_bytes(lex.edition, keys, lex.alphagram_order), lex.alphagram_order)
    for table in (made, table_of(lex)):  # made here, and written by the build
        assert all(table.ranked_words_of(name) == words for name, words in expected.items())
        assert table.ranked_words(list(expected)) == [w for words in expected.values() for w in words]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_ranking_is_the_word_by_word_sort_and_the_table_has_every_alphagrams_words(
    lexicon_home: Path, edition: str
) -> None:
    """Every small lexicon, es-mattel2021's ranking (no tile counts) in the alphabet's order alone."""
    assert_study_files(load_lexicon(edition, lexicon_home), lexicon_home)


@pytest.mark.slow
def test_the_study_files_of_the_default_es_fise_lexicon(default_home: Path) -> None:
    """Half a million words: every length and tile the ranking sorts, every bucket size the hash has."""
    assert_study_files(load_lexicon("es-fise", default_home), default_home)


def test_the_ranking_refuses_a_key_longer_than_the_board() -> None:
    with pytest.raises(ValueError, match="at most 15"):
        ranking_bytes(load_edition("en"), ["A" * 16])


def test_an_empty_list_makes_files_the_readers_take() -> None:
    fise = load_edition("es-fise")
    assert len(Ranks(fise, ranking_bytes(fise, []))) == 0
    assert AnagramTable(table_bytes(fise, [], "A"), "A").slots == 2


def placed(first: list[int], second: list[int]) -> tuple[int, list[int]]:
    """Slots, and each name's slot as the reader finds it (``AnagramTable.ranked_words_of``'s sum)."""
    a, b = np.array(first, dtype=np.uint32), np.array(second, dtype=np.uint32)
    slots, seeds, places = displace(a, b)
    reader = [(f + int(seeds[f % len(seeds)]) * s) % slots for f, s in zip(first, second, strict=True)]
    assert reader == places.tolist()
    return slots, reader


def test_every_name_gets_a_slot_of_its_own_where_the_reader_looks() -> None:
    rng = np.random.default_rng(7)
    first = rng.integers(0, 1 << 32, 5000, dtype=np.uint64).tolist()
    second = rng.integers(0, 1 << 32, 5000, dtype=np.uint64).tolist()
    slots, reader = placed(first, second)
    assert len(set(reader)) == 5000 and slots >= 5000 / 0.9


def one_by_one(first: list[int], second: list[int]) -> tuple[int, list[int], list[int]]:
    """The search lextools always used, in plain Python: the buckets largest first (in their order
    within a size), each given its first seed whose slots are free and distinct; a bucket no seed
    places makes the table the next prime larger."""
    buckets = max(1, len(first) // PER_BUCKET)
    slots = prime_from(int(len(first) / LOAD) + 1)
    members: list[list[int]] = [[] for _ in range(buckets)]
    for i, h in enumerate(first):
        members[h % buckets].append(i)
    while True:
        taken, seeds, places = bytearray(slots), [0] * buckets, [0] * len(first)
        for bucket in sorted(range(buckets), key=lambda b: -len(members[b])):
            names = members[bucket]
            if not names:
                return slots, seeds, places
            for seed in range(SEEDS):
                spots = [(first[i] + seed * second[i]) % slots for i in names]
                if not any(taken[s] for s in spots) and len(set(spots)) == len(spots):
                    break
            else:
                break
            seeds[bucket] = seed
            for i, s in zip(names, spots, strict=True):
                taken[s], places[i] = 1, s
        else:
            return slots, seeds, places
        slots = prime_from(slots + 1)


@pytest.mark.parametrize("share", [displace_module.SHARE, 0.3, 1.0])
@pytest.mark.parametrize("fixed", [0, 3, 40])
def test_the_seeds_are_those_of_the_bucket_by_bucket_search(
    fixed: int, share: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same seeds, so the same table bytes, as one bucket after another; ``fixed`` names have an
    Adler-32 that is a multiple of the slots (5557 here): one slot whatever the seed, which a name
    placed before them may take (then the table grows, as it always did). Rounds of more buckets
    (``share``) make more of them meet: settled one by one, some losing slots they were given."""
    monkeypatch.setattr(displace_module, "SHARE", share)
    rng = np.random.default_rng(11)
    first = rng.integers(0, 1 << 32, 5000, dtype=np.uint64).tolist()
    second = rng.integers(1, 1 << 32, 5000, dtype=np.uint64).tolist()
    second[:fixed] = [5557 * k for k in range(1, fixed + 1)]
    slots, seeds, places = displace(np.array(first, dtype=np.uint32), np.array(second, dtype=np.uint32))
    assert (slots, seeds.tolist(), places.tolist()) == one_by_one(first, second)


@pytest.mark.parametrize("dtype", [np.uint32, np.int32, np.int64])
def test_the_stable_order_by_radix_passes_is_numpys_stable_argsort(dtype: type) -> None:
    rng = np.random.default_rng(5)
    for top in (3, 1 << 16, 300_000, (1 << 31) - 1):
        values = rng.integers(0, top, 20_000).astype(dtype)
        assert displace_module.stable_order(values).tolist() == np.argsort(values, kind="stable").tolist()
    assert displace_module.stable_order(np.zeros(0, dtype=dtype)).tolist() == []
    with pytest.raises(ValueError, match="from 0"):
        displace_module.stable_order(np.array([1, -1], dtype=np.int64))


def test_two_names_no_seed_parts_make_the_table_larger() -> None:
    """Equal hashes modulo 3 slots (one bucket): no seed parts them; modulo 5 one does."""
    slots, reader = placed([1, 4], [2, 5])
    assert slots == 5 and len(set(reader)) == 2


def reference_stems(edition: Edition, keys: list[str], order: str, kept: int) -> bytes:
    """The stems file as lextools wrote it word by word: :func:`lextools.core.stems.rank` of the keys
    of each length (a dict of alphagrams, a dict of stems, ``heapq.nsmallest``)."""
    alphagram = alphagrammer(order)
    return stems.written(
        stems.rank(edition, sorted(k for k in keys if len(k) == n + 1), alphagram, kept) for n in stems.LENGTHS
    )


def made_up_keys(edition: Edition, seed: int, count: int, letters: int) -> list[str]:
    """``count`` keys of 7 and 8 tiles drawn from ``letters`` of the edition's codes (a few, so that
    stems share tiles, tiles repeat in a word and many stems tie in tiles and words), and a few of
    other lengths; sorted, as a build has them."""
    rng = np.random.default_rng(seed)
    codes = alphabet_codes(edition)
    some = [codes[i] for i in rng.choice(len(codes), size=letters, replace=False)]
    keys = {"".join(rng.choice(some, size=int(rng.integers(6, 10)))) for _ in range(count)}
    return sorted(keys)


@pytest.mark.parametrize("kept", [1, 7, 100, stems.KEPT])
@pytest.mark.parametrize(("edition", "seed", "letters"), [("es-fise", 1, 9), ("fr", 2, 6), ("en", 3, 12)])
def test_the_stems_in_bulk_are_the_word_by_word_ranking(edition: str, seed: int, letters: int, kept: int) -> None:
    """The same bytes, ties and the order of each stem's tiles included, at every cut of the best."""
    ed = load_edition(edition)
    keys = made_up_keys(ed, seed, 3000, letters)
    rows = KeyRows(keys, alphabet_codes(ed))
    assert stems_bytes(ed, keys, rows, kept) == reference_stems(ed, keys, rows.order, kept)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_built_stems_file_is_the_word_by_word_ranking(lexicon_home: Path, edition: str) -> None:
    lex = load_lexicon(edition, lexicon_home)
    keys = sorted(lex)
    expected = reference_stems(lex.edition, keys, lex.alphagram_order, stems.KEPT)
    assert (lexicon_home / lex.metadata["files"]["stems"]["name"]).read_bytes() == expected
    assert stems_bytes(lex.edition, [], KeyRows([], alphabet_codes(lex.edition), "A")) == stems.written(
        [(0, []), (0, [])]
    )


def test_the_stems_lines_joined_as_text_are_json_s(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tile codes that JSON writes as they are: lines joined as text; else ``json.dumps`` of each
    stem (asked here of codes that need no escape): the same bytes."""
    ed = load_edition("es-fise")
    keys = made_up_keys(ed, 4, 2000, 8)
    rows = KeyRows(keys, alphabet_codes(ed))
    joined = stems_bytes(ed, keys, rows, 50)
    assert not study_lists.plain_json('AB"') and not study_lists.plain_json("A\\") and study_lists.plain_json("AÑ1")
    monkeypatch.setattr(study_lists, "plain_json", lambda codes: False)
    assert stems_bytes(ed, keys, rows, 50) == joined == reference_stems(ed, keys, rows.order, 50)


def test_stems_of_keys_that_make_none_or_few() -> None:
    """No key of 7 or 8 tiles, or a handful: the file still has both lengths (what a small list's build writes)."""
    ed = load_edition("es-fise")
    for keys in ([], ["CASA", "PERRO"], ["CASAMOS"], sorted(["CASAMOS", "CASAMOSA", "ACASAMOS", "SACAMOS"])):
        rows = KeyRows(keys, alphabet_codes(ed))
        assert stems_bytes(ed, keys, rows) == reference_stems(ed, keys, rows.order, stems.KEPT), keys
