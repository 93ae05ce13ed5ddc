"""Benchmark: build a ~1-million-word lexicon, then time lookups, loading, anagrams and patterns.

Run from the repository root with the project's venv::

    python -m bench.build_and_lookup                     # 1,000,000 words, es-fise
    python -m bench.build_and_lookup --words 100000 --json figures.json

What is measured, all in one run, on a deterministic list of pseudo-Spanish words (syllables with
CH, LL, RR, Ñ clusters, accents and diaeresis so normalisation is exercised, plus inflection-like
suffixes so the DAWG shares suffixes the way a real lexicon does; no real word list is used):

1. build time through the library, as ``lextools build --source`` builds — ``wordlist.read_list``
   → ``lextools.builder.build_from_lists`` (spelling, normalisation and the ``one-tile`` rule, then
   the words DAWG and alphagram index written with dawg2, checksummed, the provenance sidecar, all
   written atomically under the build lock);
2. sizes — the list, the list gzipped at level 6, the keys gzipped, the two DAWGs, and their ratios;
3. membership lookups on a sample (half present, half absent) — DAWG-Python (what lextools reads
   with), dawg2 loaded from the same file, and a Python ``set`` of the same keys — plus the full
   ``Lexicon.lookup(text)`` (normalise, tokenise, look up);
4. load time of the lexicon (checksums included) and, in a fresh interpreter, the RSS growth of
   loading it against the RSS growth of a ``set`` of the same keys;
5. anagrams of 7-tile racks drawn from the edition's bag with 2 blanks, and subanagrams, against a
   brute-force scan of every key for the same racks (which also checks the results), and pattern
   searches against a regular expression run over every key.

Absolute times depend on the machine, so every speed figure is also given as a ratio against a
baseline measured in the same run on the same data (a ``set`` for lookups, a linear scan for
anagrams and patterns, gzip for sizes): the ratios are what to compare between machines and
between versions of lextools.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import hashlib
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dawg
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from bench.harness import bench_command
from lextools.builder import build_from_lists
from lextools.core.edition import Edition, load_edition
from lextools.core.lexicon import Lexicon, load_lexicon, read_metadata
from lextools.core.search import anagrams, match_pattern, parse_pattern, parse_rack
from lextools.core.wordlist import read_list

console = Console(stderr=True)

# -- pseudo-Spanish words -------------------------------------------------------------------------

Weighted = Sequence[tuple[str, float]]

ONSETS: Weighted = (
    ("", 6), ("b", 3), ("c", 4), ("d", 4), ("f", 2), ("g", 2), ("h", 1), ("j", 1), ("l", 3), ("m", 4),
    ("n", 3), ("p", 4), ("r", 2), ("s", 4), ("t", 4), ("v", 2), ("y", 1), ("z", 1), ("ch", 2), ("ll", 2),
    ("ñ", 1), ("bl", 1), ("br", 1), ("cl", 1), ("cr", 1), ("dr", 1), ("fl", 1), ("fr", 1), ("gr", 1),
    ("pl", 1), ("pr", 2), ("tr", 2), ("x", 0.1), ("k", 0.15), ("w", 0.08),
)  # fmt: skip
#: Between vowels RR is possible too; QU, GU and GÜ come before E or I only (see _syllable).
MEDIAL_ONSETS: Weighted = (*ONSETS, ("rr", 2.5), ("qu", 1.2), ("gu", 0.6), ("gü", 0.2))
VOWELS: Weighted = (
    ("a", 10), ("e", 10), ("o", 8), ("i", 6), ("u", 3), ("ia", 1), ("ie", 2), ("io", 1), ("ue", 2),
    ("ua", 0.7), ("ai", 0.4), ("ei", 0.4), ("au", 0.3), ("á", 0.5), ("é", 0.5), ("í", 0.5), ("ó", 0.5),
    ("ú", 0.2),
)  # fmt: skip
FRONT_VOWELS: Weighted = (("e", 10), ("i", 6), ("ie", 1), ("é", 0.5), ("í", 0.5))
CODAS: Weighted = (
    ("", 24), ("n", 4), ("s", 3), ("r", 3), ("l", 2), ("d", 0.5), ("z", 0.5), ("m", 0.3), ("c", 0.3),
    ("b", 0.2), ("p", 0.2), ("x", 0.1),
)  # fmt: skip
#: Consonant (cluster) that closes a stem before a vowel-initial suffix: PE·RR + O.
STEM_ENDS: Weighted = tuple((o, w) for o, w in MEDIAL_ONSETS if o and o not in ("qu", "gu", "gü"))

#: Suffix families: (weight, probability of each suffix, suffixes). A stem takes one family.
FAMILIES: tuple[tuple[float, float, tuple[str, ...]], ...] = (
    (3, 0.35, (
        "o", "os", "a", "as", "ito", "itos", "ita", "itas", "ón", "ones", "ero", "era", "eros", "eras", "ería",
        "erías", "al", "ales", "azo", "azos", "illo", "illa", "illos", "illas", "ismo", "ista", "istas",
    )),
    (1, 0.5, (
        "o", "a", "os", "as", "amente", "ísimo", "ísima", "ísimos", "ísimas", "ez", "eza", "ezas", "idad",
        "idades", "izar", "izado", "ización",
    )),
    (2, 0.4, (
        "ar", "o", "as", "a", "amos", "áis", "an", "aba", "abas", "ábamos", "aban", "é", "aste", "ó", "aron",
        "aré", "arás", "ará", "aremos", "arán", "aría", "arías", "aríamos", "arían", "ando", "ado", "ada",
        "ados", "adas", "ación", "aciones", "able", "ador", "adora", "adores", "e", "es", "en", "emos", "ara",
        "aras", "ase", "arlo", "arla", "arse", "ándolo", "ándose", "amiento", "amientos",
    )),
    (1, 0.4, (
        "er", "ir", "o", "es", "e", "emos", "imos", "en", "ía", "ías", "íamos", "ían", "í", "ió", "ieron",
        "eré", "erá", "erán", "iré", "irá", "iendo", "ido", "ida", "idos", "idas", "imiento", "erse", "irse",
        "iéndolo", "iente", "ientes", "encia",
    )),
)  # fmt: skip
FAMILY_WEIGHTS = [w for w, _, _ in FAMILIES] + [1.5]  # the last: a bare word and its plural
_FOLD = str.maketrans("áéíóúü", "aeiouu")


class Chooser:
    """``random.choices`` with precomputed cumulative weights, for speed."""

    def __init__(self, rng: random.Random, items: Weighted) -> None:
        self.rng = rng
        self.items = [s for s, _ in items]
        self.cum: list[float] = []
        total = 0.0
        for _, w in items:
            total += w
            self.cum.append(total)

    def __call__(self) -> str:
        return self.rng.choices(self.items, cum_weights=self.cum)[0]


class WordGenerator:
    """Deterministic pseudo-Spanish words: stems of 1-4 syllables with inflection-like suffixes."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.onset = Chooser(self.rng, ONSETS)
        self.medial = Chooser(self.rng, MEDIAL_ONSETS)
        self.vowel = Chooser(self.rng, VOWELS)
        self.front = Chooser(self.rng, FRONT_VOWELS)
        self.coda = Chooser(self.rng, CODAS)
        self.stem_end = Chooser(self.rng, STEM_ENDS)

    def _syllables(self, n: int, close_last: bool) -> str:
        parts: list[str] = []
        for i in range(n):
            onset = self.onset() if i == 0 else self.medial()
            if i and parts[-1][-1:] not in "aeiouáéíóúü" and onset == "rr":
                onset = "r"  # RR only between vowels
            vowel = self.front() if onset in ("qu", "gu", "gü") else self.vowel()
            coda = self.coda() if (i < n - 1 or close_last) else ""
            parts.append(onset + vowel + coda)
        return "".join(parts)

    def forms(self) -> list[str]:
        """One stem's words: a family of suffixed forms, or a bare word and its plural."""
        rng = self.rng
        n = rng.choices((1, 2, 3, 4), weights=(2, 5, 4, 1))[0]
        family = rng.choices(range(len(FAMILY_WEIGHTS)), weights=FAMILY_WEIGHTS)[0]
        if family == len(FAMILIES):
            word = self._syllables(n, close_last=True)
            plural = word + ("es" if word[-1] not in "aeiouáéíóú" else "s")
            return [word, plural] if rng.random() < 0.6 else [word]
        _, p, suffixes = FAMILIES[family]
        stem = self._syllables(n, close_last=False) + self.stem_end()
        return [stem + s for s in suffixes if rng.random() < p]


def fold(word: str) -> str:
    """What lextools will see, roughly: no accents or diaeresis (Ñ stays); used to keep words distinct."""
    return word.translate(_FOLD)


def generate_words(n: int, seed: int, advance: Callable[[int], None]) -> list[str]:
    """``n`` distinct words of 2-15 letters (distinct once accents are dropped); ~2% written in NFD."""
    gen = WordGenerator(seed)
    seen: set[str] = set()
    words: list[str] = []
    while len(words) < n:
        for w in gen.forms():
            if not 2 <= len(w) <= 15:
                continue
            f = fold(w)
            if f in seen:
                continue
            seen.add(f)
            words.append(unicodedata.normalize("NFD", w) if gen.rng.random() < 0.02 else w)
            advance(1)
            if len(words) == n:
                break
    return words


# -- measuring ------------------------------------------------------------------------------------


def rss_kib() -> int:
    """Resident set size of this process, from /proc/self/status."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t = time.perf_counter()
    result = fn()
    return time.perf_counter() - t, result


def count_in(container: Any, sample: Sequence[str]) -> int:
    """The timed lookup loop: the same code for every container, so the ratios are fair."""
    n = 0
    for k in sample:
        if k in container:
            n += 1
    return n


class _Empty:
    def __contains__(self, key: object) -> bool:
        return False


def p95(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


@dataclass
class Figures:
    """Every figure of the run: printed as a table, written as JSON with --json."""

    rows: list[tuple[str, str, str]] = field(default_factory=list)
    data: dict[str, dict[str, Any]] = field(default_factory=dict)

    def add(self, section: str, name: str, value: Any, shown: str | None = None) -> None:
        self.data.setdefault(section, {})[name] = value
        if shown is None:
            shown = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)
        self.rows.append((section, name, shown))

    def table(self, title: str) -> Table:
        table = Table(title=title, show_lines=False)
        table.add_column("phase", style="bold")
        table.add_column("measure")
        table.add_column("value", justify="right")
        last = ""
        for section, name, shown in self.rows:
            table.add_row(section if section != last else "", name, shown)
            last = section
        return table


def mib(n: float) -> str:
    return f"{n / 2**20:,.1f} MiB" if abs(n) >= 2**20 else f"{n / 2**10:,.0f} KiB"


def secs(s: float) -> str:
    return f"{s * 1000:,.1f} ms" if s < 1 else f"{s:,.2f} s"


def progress_bar() -> Progress:
    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=False,
        refresh_per_second=4,
    )


# -- the phases -----------------------------------------------------------------------------------


def phase_build(fig: Figures, edition: Edition, list_path: Path, home: Path) -> tuple[list[str], dict[str, Any]]:
    """Read the list and build it the way ``lextools build --source`` does (guard, lock, sidecar).

    The library reports its progress only while it spells and filters the words, so what follows
    the last report (sorting the keys, both DAWGs, the exclusions, the sidecar and the metadata) is
    timed as the write.
    """
    t_read, wl = timed(lambda: read_list(list_path))
    total = wl.lines.count(b"\n") + 1 if wl.lines else 0
    marks: list[float] = []
    with progress_bar() as bar:
        task = bar.add_task("spell + filter", total=total)

        def advance(n: int) -> None:
            marks.append(time.perf_counter())
            bar.update(task, completed=n, description="spell + filter" if n < total else "write DAWGs and sidecar")

        start = time.perf_counter()
        metadata = build_from_lists(home, edition, [wl], ["one-tile"], force=True, progress=advance)
        t_build = time.perf_counter() - start
    t_compile = (marks[-1] - start) if marks else t_build
    t_write = t_build - t_compile
    keys = sorted(load_lexicon(edition.name, home).keys())
    counts = metadata["counts"]
    fig.add("build", "words read", counts["read"])
    fig.add("build", "keys kept", counts["kept"])
    fig.add(
        "build",
        "duplicates / dropped",
        {"duplicates": counts["duplicates"], **counts["dropped"]},
        f"{counts['duplicates']:,} dup · " + ", ".join(f"{k} {v:,}" for k, v in counts["dropped"].items()),
    )
    fig.add("build", "read list (s)", round(t_read, 3), secs(t_read))
    fig.add(
        "build",
        "spell + filter (s)",
        round(t_compile, 3),
        f"{secs(t_compile)} ({t_compile / max(1, counts['read']) * 1e6:.1f} µs/word)",
    )
    fig.add(
        "build",
        "sort + write (s)",
        round(t_write, 3),
        f"{secs(t_write)} (keys sorted, both DAWGs, exclusions, provenance sidecar, metadata)",
    )
    fig.add("build", "total build (s)", round(t_read + t_build, 3), secs(t_read + t_build))
    return keys, metadata


def phase_sizes(fig: Figures, list_path: Path, keys: list[str], metadata: dict[str, Any]) -> None:
    raw = list_path.read_bytes()
    t_gz, gz = timed(lambda: len(gzip.compress(raw, compresslevel=6)))
    keys_gz = len(gzip.compress("\n".join(keys).encode(), compresslevel=6))
    words_b = int(metadata["files"]["words"]["bytes"])
    index_b = int(metadata["files"]["alphagrams"]["bytes"])
    fig.add("sizes", "list (raw)", len(raw), mib(len(raw)))
    fig.add("sizes", "list gzip -6", gz, f"{mib(gz)} (in {secs(t_gz)})")
    fig.add("sizes", "keys gzip -6", keys_gz, mib(keys_gz))
    fig.add("sizes", "words DAWG", words_b, mib(words_b))
    fig.add("sizes", "alphagram DAWG (anagram index)", index_b, mib(index_b))
    fig.add("sizes", "words DAWG / list gzip", round(words_b / gz, 3), f"{words_b / gz:.2f}×")
    fig.add("sizes", "both DAWGs / list gzip", round((words_b + index_b) / gz, 3), f"{(words_b + index_b) / gz:.2f}×")


def make_sample(rng: random.Random, keys: list[str], key_set: set[str], codes: list[str], n: int) -> list[str]:
    """``n`` keys, half present, half absent (a present key with one tile changed), shuffled."""
    half = min(n // 2, len(keys))
    present = rng.sample(keys, half)
    absent: list[str] = []
    while len(absent) < half:
        k = rng.choice(keys)
        i = rng.randrange(len(k))
        m = k[:i] + rng.choice(codes) + k[i + 1 :]
        if m not in key_set:
            absent.append(m)
    sample = present + absent
    rng.shuffle(sample)
    return sample


def phase_lookups(
    fig: Figures, rng: random.Random, lex: Lexicon, keys: list[str], words_path: Path, n: int, full: int
) -> None:
    ed = lex.edition
    key_set = set(keys)
    codes = sorted(t.code for t in ed.tiles)
    sample = make_sample(rng, keys, key_set, codes, n)
    expected = sum(1 for k in sample if k in key_set)
    d2 = dawg.CompletionDAWG().load(str(words_path))
    sample_set = set(sample)  # a set of the sample's keys, for the baseline: same hashing work, smaller table
    results: dict[str, float] = {}
    found: dict[str, int] = {}
    console.log(f"timing {len(sample):,} lookups ({expected:,} present) …")
    for name, container in (
        ("empty loop", _Empty()),
        ("Python set (all keys)", key_set),
        ("Python set (sample)", sample_set),
        ("dawg2", d2),
        ("DAWG-Python", lex.graph),
    ):
        best = float("inf")
        for _ in range(3 if name != "DAWG-Python" else 2):
            t, hit = timed(lambda c=container: count_in(c, sample))
            best = min(best, t)
        results[name] = best / len(sample) * 1e9
        found[name] = hit
    base = results["Python set (all keys)"]
    loop = results["empty loop"]
    fig.add("lookups", "sample", {"keys": len(sample), "present": expected}, f"{len(sample):,} ({expected:,} present)")
    fig.add("lookups", "loop overhead (ns)", round(loop, 1), f"{loop:,.0f} ns")
    for name in ("Python set (all keys)", "dawg2", "DAWG-Python"):
        ok = "" if found[name] == expected else f"  [WRONG: {found[name]:,} found]"
        fig.add(
            "lookups",
            f"{name} (ns/lookup)",
            round(results[name], 1),
            f"{results[name]:,.0f} ns = {results[name] / base:.1f}× set{ok}",
        )
    fig.add(
        "lookups",
        "net of loop: DAWG-Python / dawg2 / set",
        {k: round(results[k] - loop, 1) for k in ("DAWG-Python", "dawg2", "Python set (all keys)")},
        f"{results['DAWG-Python'] - loop:,.0f} / {results['dawg2'] - loop:,.0f} / {base - loop:,.0f} ns",
    )

    # The full path a player's query takes: normalise, tokenise, look up (present words in lower case).
    sub = sample[:full]
    texts = [ed.spelling(k).lower() for k in sub]
    expected_valid = sum(1 for k in sub if k in key_set and len(k) >= 2)
    t, valid = timed(lambda: sum(1 for s in texts if lex.lookup(s).valid))
    per = t / len(texts) * 1e9
    t_spell, _ = timed(lambda: [lex.spell(s) for s in texts[: min(len(texts), 20_000)]])
    per_spell = t_spell / min(len(texts), 20_000) * 1e9
    ok = "" if valid >= expected_valid else f"  [WRONG: {valid:,} valid, {expected_valid:,} expected]"
    fig.add(
        "lookups",
        "Lexicon.lookup(text) (ns/word)",
        round(per, 1),
        f"{per / 1000:,.1f} µs = {per / base:,.0f}× set (spell alone {per_spell / 1000:,.1f} µs){ok}",
    )
    del d2


def phase_load(fig: Figures, home: Path, edition: str, metadata: dict[str, Any]) -> Lexicon:
    times = []
    lex: Lexicon | None = None
    for _ in range(3):
        gc.collect()
        t, lex = timed(lambda: load_lexicon(edition, home))
        times.append(t)
    assert lex is not None

    def checksums() -> None:
        for part in ("words", "alphagrams"):
            hashlib.sha256((home / metadata["files"][part]["name"]).read_bytes()).hexdigest()

    t_sha, _ = timed(checksums)
    t_d2, _ = timed(lambda: dawg.CompletionDAWG().load(str(home / metadata["files"]["words"]["name"])))
    best = min(times)
    fig.add(
        "load",
        "load_lexicon (s)",
        round(best, 4),
        f"{secs(best)} (median {secs(statistics.median(times))}; sha256 of both files {secs(t_sha)})",
    )
    fig.add("load", "dawg2 load, words only (s)", round(t_d2, 4), secs(t_d2))
    return lex


PROBES = ("lexicon", "dawg2", "set")


def memory_probe(kind: str, home: Path, edition: str, keys_path: Path) -> dict[str, Any]:
    """Run in a fresh interpreter, one per kind (a freed heap would hide the next one's growth).

    ``lexicon``: load_lexicon (both DAWGs, DAWG-Python); ``dawg2``: the words DAWG with dawg2;
    ``set``: a Python set of the keys, read from a file of one key a line.
    """
    words_file = home / read_metadata(home, edition)["files"]["words"]["name"]
    text = keys_path.read_text(encoding="utf-8") if kind == "set" else ""
    gc.collect()
    before = rss_kib()
    t = time.perf_counter()
    if kind == "lexicon":
        held: Any = load_lexicon(edition, home)
    elif kind == "dawg2":
        held = dawg.CompletionDAWG().load(str(words_file))
    else:
        held = set(text.split("\n"))
    seconds = time.perf_counter() - t
    del text
    gc.collect()
    out: dict[str, Any] = {"kib": rss_kib() - before, "seconds": seconds}
    if kind == "set":
        out["getsizeof_bytes"] = sys.getsizeof(held) + sum(sys.getsizeof(k) for k in held)
    return out


def phase_memory(fig: Figures, home: Path, edition: str, keys: list[str], workdir: Path) -> None:
    keys_path = workdir / "keys.txt"
    keys_path.write_text("\n".join(keys), encoding="utf-8")
    m: dict[str, dict[str, Any]] = {}
    for kind in PROBES:
        cmd = [*bench_command("build_and_lookup"), "--memory-probe", kind, "--probe-home", str(home),
               "--edition", edition, "--keys", str(keys_path)]  # fmt: skip
        m[kind] = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    keys_path.unlink()
    lex_b, d2_b, set_b = (m[k]["kib"] * 1024 for k in PROBES)
    fig.add("memory", "load_lexicon in a fresh process (s)", round(m["lexicon"]["seconds"], 4),
            secs(m["lexicon"]["seconds"]))  # fmt: skip
    fig.add("memory", "RSS growth: lexicon (both DAWGs)", lex_b, mib(lex_b))
    fig.add("memory", "RSS growth: dawg2, words DAWG", d2_b, mib(d2_b))
    fig.add("memory", "RSS growth: Python set of keys", set_b,
            f"{mib(set_b)} (getsizeof {mib(m['set']['getsizeof_bytes'])})")  # fmt: skip
    fig.add("memory", "lexicon / set", round(lex_b / max(1, set_b), 3), f"{lex_b / max(1, set_b):.2f}×")


def draw_racks(rng: random.Random, ed: Edition, n: int, blanks: int = 2) -> list[list[str]]:
    """Racks of 7 tiles drawn from the edition's bag, then ``blanks`` of them turned into blanks."""
    # es-mattel2021 has unverified counts: there every tile is drawn alike
    bag = [t.label for t in ed.tiles for _ in range(t.count or 0)] if ed.has_counts else [t.label for t in ed.tiles]
    racks = []
    for _ in range(n):
        tiles = rng.sample(bag, 7) if ed.has_counts else [rng.choice(bag) for _ in range(7)]
        racks.append(sorted(tiles[blanks:]))
    return racks


def brute_force(keys: Sequence[str], rack: str, blanks: int, sub: bool) -> list[str]:
    """The baseline: every key, checked as a multiset against the rack (blanks make up what is missing)."""
    have = Counter(rack)
    size = len(rack) + blanks
    out = []
    for k in keys:
        n = len(k)
        if n > size or n < 2 or (not sub and n != size):
            continue
        missing = 0
        for c, m in Counter(k).items():
            over = m - have[c]
            if over > 0:
                missing += over
                if missing > blanks:
                    break
        else:
            out.append(k)
    return out


def phase_anagrams(
    fig: Figures, rng: random.Random, lex: Lexicon, keys: list[str], n_racks: int, n_sub: int, n_brute: int
) -> None:
    ed = lex.edition
    racks = draw_racks(rng, ed, n_racks)
    parsed: list[tuple[str, int]] = []
    for tiles in racks:
        # Every tile bracketed: plain C and H side by side would be read as the CH tile.
        key, blanks = parse_rack("".join(f"[{t}]" for t in tiles) + "??", lex)
        assert key == ed.encode(tiles) and blanks == 2, (tiles, key, blanks)
        parsed.append((key, blanks))
    full_t: list[float] = []
    sub_t: list[float] = []
    full_res: list[list[str]] = []
    sub_res: list[list[str]] = []
    with progress_bar() as bar:
        task = bar.add_task("anagrams (7 tiles, 2 blanks)", total=len(parsed))
        for key, blanks in parsed:
            t, res = timed(lambda k=key, b=blanks: anagrams(lex, k, b))
            full_t.append(t)
            full_res.append([m.key for m in res])
            bar.advance(task)
        task = bar.add_task("subanagrams (7 tiles, 2 blanks)", total=n_sub)
        for key, blanks in parsed[:n_sub]:
            t, res = timed(lambda k=key, b=blanks: anagrams(lex, k, b, sub=True))
            sub_t.append(t)
            sub_res.append([m.key for m in res])
            bar.advance(task)
        task = bar.add_task("brute-force scans (baseline)", total=n_brute + min(n_brute, n_sub, 2))
        brute_t: list[float] = []
        brute_sub_t: list[float] = []
        mismatches: list[str] = []
        for i, (key, blanks) in enumerate(parsed[:n_brute]):
            t, res = timed(lambda k=key, b=blanks: brute_force(keys, k, b, sub=False))
            brute_t.append(t)
            if sorted(res) != sorted(full_res[i]):
                mismatches.append(f"anagrams {ed.spelling(key)}??: {len(full_res[i])} vs brute force {len(res)}")
            bar.advance(task)
        for i, (key, blanks) in enumerate(parsed[: min(n_brute, n_sub, 2)]):
            t, res = timed(lambda k=key, b=blanks: brute_force(keys, k, b, sub=True))
            brute_sub_t.append(t)
            if sorted(res) != sorted(sub_res[i]):
                mismatches.append(f"subanagrams {ed.spelling(key)}??: {len(sub_res[i])} vs brute force {len(res)}")
            bar.advance(task)

    def stats(ts: list[float], results: list[list[str]]) -> tuple[dict[str, float], str]:
        d = {"mean_s": statistics.fmean(ts), "p95_s": p95(ts), "max_s": max(ts),
             "mean_results": statistics.fmean(len(r) for r in results)}  # fmt: skip
        shown = (f"mean {secs(d['mean_s'])} · p95 {secs(d['p95_s'])} · max {secs(d['max_s'])} "
                 f"({d['mean_results']:,.0f} words/rack)")  # fmt: skip
        return d, shown

    d, shown = stats(full_t, full_res)
    fig.add("anagrams", f"anagram ×{len(full_t)}", d, shown)
    d, shown = stats(sub_t, sub_res)
    fig.add("anagrams", f"subanagram ×{len(sub_t)}", d, shown)
    bf = statistics.fmean(brute_t)
    speedup = bf / statistics.fmean(full_t[: len(brute_t)])
    fig.add(
        "anagrams",
        f"brute-force anagram ×{len(brute_t)}",
        {"mean_s": bf, "speedup": speedup},
        f"mean {secs(bf)} → index is {speedup:,.0f}× faster",
    )
    if brute_sub_t:
        bfs = statistics.fmean(brute_sub_t)
        speedup = bfs / statistics.fmean(sub_t[: len(brute_sub_t)])
        fig.add(
            "anagrams",
            f"brute-force subanagram ×{len(brute_sub_t)}",
            {"mean_s": bfs, "speedup": speedup},
            f"mean {secs(bfs)} → index is {speedup:,.1f}× faster",
        )
    fig.add(
        "anagrams", "results agree with brute force", not mismatches, "yes" if not mismatches else "; ".join(mismatches)
    )


class Budget(Exception):
    """Raised by SIGALRM when a search runs past its time budget."""


def within_budget(fn: Callable[[], None], seconds: float) -> tuple[float, bool]:
    """Run ``fn`` for at most ``seconds`` (SIGALRM interrupts it); return (time, finished)."""

    def on_alarm(signum: int, frame: Any) -> None:
        raise Budget

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    t = time.perf_counter()
    try:
        fn()
        finished = True
    except Budget:
        finished = False
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return time.perf_counter() - t, finished


def phase_patterns(fig: Figures, lex: Lexicon, keys: list[str], patterns: Iterable[str], budget: float) -> None:
    for text in patterns:
        parts = parse_pattern(text, lex)
        res: list[str] = []

        def run(p: list[str | None] = parts, r: list[str] = res) -> None:
            for m in match_pattern(lex, p):  # appended one by one, so a stopped search keeps what it found
                r.append(m.key)

        t, finished = within_budget(run, budget)
        regex = re.compile("".join("." if p is None else ".*" if p == "*" else re.escape(p) for p in parts))
        t_re, res_re = timed(lambda r=regex: [k for k in keys if r.fullmatch(k)])
        if not finished:
            fig.add(
                "patterns",
                text,
                {"seconds": None, "stopped_after_s": t, "results_so_far": len(res), "regex_scan_seconds": t_re},
                f"[bold red]> {secs(t)}: stopped[/] with {len(res):,} of {len(res_re):,} words "
                f"(regex scan of all keys {secs(t_re)}: walk/scan > {t / t_re:,.0f}×)",
            )
            continue
        ok = "" if sorted(res) == sorted(res_re) else f"  [MISMATCH: regex finds {len(res_re):,}]"
        fig.add(
            "patterns",
            text,
            {"seconds": t, "results": len(res), "regex_scan_seconds": t_re},
            f"{secs(t)} for {len(res):,} words (regex scan of all keys {secs(t_re)}: walk/scan {t / t_re:,.2f}×){ok}",
        )


# -- main -----------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--words", type=int, default=1_000_000, help="words to generate (default 1,000,000)")
    ap.add_argument("--edition", default="es-fise", help="edition to build (default es-fise)")
    ap.add_argument("--out", type=Path, help="keep the list and the lexicon here (default: a temporary directory)")
    ap.add_argument("--seed", type=int, default=2024, help="random seed (default 2024)")
    ap.add_argument("--lookups", type=int, default=200_000, help="lookup sample size, half present (default 200,000)")
    ap.add_argument("--full-lookups", type=int, default=50_000, help="sample for Lexicon.lookup(text) (default 50,000)")
    ap.add_argument("--racks", type=int, default=50, help="racks for anagrams (default 50)")
    ap.add_argument("--sub-racks", type=int, default=10, help="of which also for subanagrams (default 10)")
    ap.add_argument("--brute-racks", type=int, default=5, help="of which also brute-forced (default 5)")
    ap.add_argument(
        "--pattern-budget", type=float, default=20.0, help="stop a pattern search after this many seconds (default 20)"
    )
    ap.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    ap.add_argument("--memory-probe", choices=PROBES, help=argparse.SUPPRESS)
    ap.add_argument("--probe-home", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--keys", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.memory_probe:  # the fresh interpreter of phase_memory
        print(json.dumps(memory_probe(args.memory_probe, args.probe_home, args.edition, args.keys)))
        return 0

    edition = load_edition(args.edition)
    workdir = args.out or Path(tempfile.mkdtemp(prefix="lextools-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    home = workdir / "lexicons"
    fig = Figures()
    started = time.perf_counter()
    rng = random.Random(args.seed + 1)
    try:
        with progress_bar() as bar:
            task = bar.add_task("generate words", total=args.words)
            t_gen, words = timed(lambda: generate_words(args.words, args.seed, lambda k: bar.advance(task, k)))
        list_path = workdir / "words.txt"
        list_path.write_text("\n".join(words) + "\n", encoding="utf-8")
        fig.add("generate", "words", len(words))
        fig.add("generate", "time (s)", round(t_gen, 3), secs(t_gen))
        del words

        keys, metadata = phase_build(fig, edition, list_path, home)
        phase_sizes(fig, list_path, keys, metadata)
        console.log("loading …")
        lex = phase_load(fig, home, args.edition, metadata)
        phase_lookups(fig, rng, lex, keys, home / metadata["files"]["words"]["name"], args.lookups, args.full_lookups)
        console.log("measuring memory in a fresh interpreter …")
        phase_memory(fig, home, args.edition, keys, workdir)
        phase_anagrams(fig, rng, lex, keys, args.racks, min(args.sub_racks, args.racks),
                       min(args.brute_racks, args.racks))  # fmt: skip
        console.log("patterns …")
        phase_patterns(fig, lex, keys, ("?A?A?A*", "CH?*O", "*CION", "?*LL?RR*"), args.pattern_budget)
    finally:
        if args.out is None:
            shutil.rmtree(workdir, ignore_errors=True)
    total = time.perf_counter() - started
    fig.add("run", "total run time (s)", round(total, 1), secs(total))
    fig.add(
        "run",
        "machine",
        {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
        f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}",
    )
    Console(width=None if sys.stdout.isatty() else 160).print(
        fig.table(f"lextools build & lookup — {args.words:,} words, {args.edition}, seed {args.seed}")
    )
    if args.json:
        args.json.write_text(json.dumps({"args": {"words": args.words, "edition": args.edition, "seed": args.seed},
                                         **fig.data}, indent=1, ensure_ascii=False) + "\n")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
