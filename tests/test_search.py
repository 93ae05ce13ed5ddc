"""Hooks, words of N tiles, patterns and anagrams, each checked against brute force over all keys."""

from __future__ import annotations

import fnmatch
import hashlib
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from lextools import QueryError
from lextools.builder.compile import outdated
from lextools.core.anagram_table import MAGIC, table_of
from lextools.core.errors import CorruptLexiconError
from lextools.core.lexicon import Lexicon, load_lexicon
from lextools.core.search import anagrams, match_pattern, ordered, parse_pattern, parse_rack, words_of_length
from tests.conftest import build_small


def spelled(lex: Lexicon, keys) -> set[str]:
    return {lex.edition.spelling(k) for k in keys}


def test_valid_words(es: Lexicon) -> None:
    assert es.lookup("chiquillo").valid and es.lookup("CANCIÓN").valid
    r = es.lookup("kilo")
    assert not r.valid and "K" in r.reason
    assert not es.lookup("casar").valid


def test_hooks_are_tile_level(es: Lexicon) -> None:
    h = es.hooks(es.spell("ama").key)
    assert set(h.front) == {"C", "LL"}  # CAMA, LLAMA: LL is one tile
    assert set(h.back) == {"R", "S"}
    assert es.hooks(es.spell("apa").key).front == ("CH",)  # CHAPA
    h = es.hooks(es.spell("llamas").key)
    assert h.back_inner and h.front_inner  # LLAMA and AMAS (LLAMAS minus the LL tile) are words
    h = es.hooks(es.spell("casas").key)
    assert h.back_inner and not h.front_inner  # CASA is a word, ASAS is not


def brute_hooks(lex: Lexicon, key: str) -> tuple[set[str], set[str]]:
    keys = set(lex.keys())
    front = {lex.edition.by_code[k[0]].label for k in keys if len(k) == len(key) + 1 and k[1:] == key}
    back = {lex.edition.by_code[k[-1]].label for k in keys if len(k) == len(key) + 1 and k[:-1] == key}
    return front, back


def test_hooks_match_brute_force(es: Lexicon) -> None:
    for key in [*list(es.keys()), "AMA", "APA", "ASA"]:
        h = es.hooks(key)
        assert (set(h.front), set(h.back)) == brute_hooks(es, key)


def test_two_tile_words_include_digraph_words(es: Lexicon) -> None:
    two = spelled(es, words_of_length(es, 2))
    assert {"CHA", "CHE", "CHO", "LLE", "DA", "AS"} <= two
    assert two == {es.edition.spelling(k) for k in es if len(k) == 2}


@pytest.mark.parametrize("pattern", ["?A?A", "CH*", "*O", "?", "*", "LL?*", "*RR*", "C?S?*", "??", "*A*A*", "2A*"])
def test_patterns_match_brute_force(es: Lexicon, pattern: str) -> None:
    parsed = parse_pattern(pattern, es)
    got = [m.key for m in match_pattern(es, parsed)]
    glob = "".join("?" if p is None else p for p in parsed)
    assert got == es.edition.sort_keys(got) and len(got) == len(set(got))  # in the alphabet: C, CH, D
    assert set(got) == {k for k in es if fnmatch.fnmatchcase(k, glob)}


def test_bad_patterns(es: Lexicon) -> None:
    for bad in ["", "k?", "a" * 65, "?" * 16]:
        with pytest.raises(QueryError):
            parse_pattern(bad, es)


def brute_anagrams(lex: Lexicon, rack: str, blanks: int, sub: bool, min_length: int) -> set[str]:
    have = Counter(rack)
    out = set()
    for k in lex:
        if len(k) < min_length or (not sub and len(k) != len(rack) + blanks):
            continue
        missing = sum((Counter(k) - have).values())
        if missing <= blanks:
            out.add(k)
    return out


RACKS = ["ASAC", "SAC?", "??", "AMA?", "LLAMAS", "OCH?", "A??", "CIONCAN", "???", "ORO", "3O?"]


@pytest.mark.parametrize("rack", RACKS)
@pytest.mark.parametrize("sub", [False, True])
def test_anagrams_match_brute_force(es: Lexicon, rack: str, sub: bool) -> None:
    key, blanks = parse_rack(rack, es)
    got = anagrams(es, key, blanks, sub=sub)
    assert {m.key for m in got} == brute_anagrams(es, key, blanks, sub, 2)
    for m in got:  # the blanks reported are exactly the tiles the rack lacks
        assert sorted(es.edition.encode(m.blanks)) == sorted((Counter(m.key) - Counter(key)).elements())


def test_anagrams_on_random_racks_match_brute_force(lexicon_home: Path) -> None:
    lex = load_lexicon("es-na103", lexicon_home)
    rng = random.Random(7)
    codes = [t.code for t in lex.edition.tiles]
    for _ in range(60):
        rack = "".join(rng.choice(codes) for _ in range(rng.randint(1, 6)))
        blanks = rng.randint(0, 2)
        sub = rng.random() < 0.5
        got = {m.key for m in anagrams(lex, rack, blanks, sub=sub, min_length=2)}
        assert got == brute_anagrams(lex, rack, blanks, sub, 2), (rack, blanks, sub)


def test_a_blank_may_be_a_digraph_but_never_k_or_w(lexicon_home: Path) -> None:
    fise = load_lexicon("es-fise", lexicon_home)
    assert "CHA" in spelled(fise, [m.key for m in anagrams(fise, *parse_rack("A?", fise))])
    na = load_lexicon("es-na103", lexicon_home)
    assert "KILO" in spelled(na, [m.key for m in anagrams(na, *parse_rack("ILO?", na))])
    assert "KILO" not in spelled(fise, fise.keys())  # and no blank can make it in es-fise
    with pytest.raises(QueryError, match="no K tile"):
        parse_rack("KILO", fise)


def test_probability_order(es: Lexicon) -> None:
    keys = [m.key for m in match_pattern(es, parse_pattern("????", es))]
    by_prob = ordered(es, keys, "probability")
    probs = [es.edition.probability(es.edition.decode(k)) for k in by_prob]
    assert probs == sorted(probs, reverse=True)
    assert ordered(es, keys, "alpha") == sorted(keys, key=es.edition.collation_key)
    assert es.edition.spelling(ordered(es, keys, "alpha")[-1]) != "CHAPA"  # CH sorts after C, not before it


def test_no_probability_order_without_counts(lexicon_home: Path) -> None:
    lex = load_lexicon("es-mattel2021", lexicon_home)
    with pytest.raises(QueryError, match="unverified"):
        ordered(lex, list(lex.keys()), "probability")


def test_blanks_split_a_rack_into_pieces(es: Lexicon) -> None:
    assert parse_rack("C?H", es) == ("CH", 1)  # C, H and a blank: never the CH tile
    assert parse_rack("CH?", es) == ("1", 1)
    assert parse_rack("[C][H]", es) == ("CH", 0)


@pytest.mark.parametrize("pattern", ["*A", "?*S", "*LL*", "C*S", "??*"])
def test_star_patterns_stream_in_alphabet_order(es: Lexicon, pattern: str) -> None:
    got = [m.key for m in match_pattern(es, parse_pattern(pattern, es))]
    glob = "".join("?" if p is None else p for p in parse_pattern(pattern, es))
    assert got == es.edition.sort_keys(k for k in es if fnmatch.fnmatchcase(k, glob))


def test_the_alphagram_table_gives_every_alphagram_its_words(es: Lexicon) -> None:
    """The perfect hash places every alphagram of the index in a slot of its own: each one's record
    holds exactly the keys with its tiles, in the edition's alphabet."""
    table = table_of(es)
    assert table is not None
    by_alphagram: dict[str, list[str]] = {}
    for key in es:
        by_alphagram.setdefault(es.alphagram(key), []).append(key)
    names = [a.encode() for a in by_alphagram]
    assert all(es.has_alphagram(a) for a in names)
    together = es.edition.keys_of_ranks(table.ranked_words(names))
    assert together == [k for keys in by_alphagram.values() for k in es.edition.sort_keys(keys)]
    for alphagram, keys in by_alphagram.items():
        assert es.edition.keys_of_ranks(table.ranked_words_of(alphagram.encode())) == es.edition.sort_keys(keys)


def test_a_lexicon_with_the_first_table_is_refused_and_built_again(tmp_path: Path) -> None:
    """The first version of the table (before the perfect hash) is not read: an anagram query says
    to rebuild the lexicon, and ``scripts/run`` builds it again (it is outdated)."""
    build_small(tmp_path, "es-fise")
    assert not outdated(tmp_path, "es-fise")
    meta = tmp_path / "es-fise.json"
    old = json.loads(meta.read_text("utf-8"))
    path = tmp_path / old["files"]["alphawords"]["name"]
    path.write_bytes(b"lextools-alphawords 1\n" + path.read_bytes()[len(MAGIC) :])
    old["files"]["alphawords"]["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()  # as that version wrote it
    meta.write_text(json.dumps(old), "utf-8")
    first = load_lexicon("es-fise", tmp_path)
    assert "CASA" in first  # a look-up never reads the table
    with pytest.raises(CorruptLexiconError, match=r"an older lextools wrote it\); rebuild the lexicon"):
        anagrams(first, *parse_rack("ASAC", first))
    assert outdated(tmp_path, "es-fise") and outdated(tmp_path, "en")  # en: not built here


@pytest.mark.parametrize("part", ["ranks", "alphawords"])
def test_a_lexicon_built_without_the_ranking_or_the_table_is_refused_and_built_again(tmp_path: Path, part: str) -> None:
    """A lexicon built before the ranking file or the alphagram table is refused when it is loaded,
    with a message that says to rebuild it, and ``scripts/run`` builds it again (it is outdated)."""
    build_small(tmp_path, "es-fise")
    meta = tmp_path / "es-fise.json"
    old = json.loads(meta.read_text("utf-8"))
    del old["files"][part]  # as lextools wrote it before that file
    meta.write_text(json.dumps(old), "utf-8")
    with pytest.raises(CorruptLexiconError, match=f"does not name its {part} file .*; rebuild the lexicon"):
        load_lexicon("es-fise", tmp_path)
    assert outdated(tmp_path, "es-fise")
