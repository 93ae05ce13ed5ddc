"""The performance table of lextools, each figure beside its target and its baseline of the same run.

Run from the repository root with the project's venv, on a directory holding the default lexicons
(``lextools build --out DIR``; es-fise is measured, every edition present is loaded by the service)::

    python -m bench.perf --lexicons DIR                   # everything
    python -m bench.perf --lexicons DIR --skip-build      # no build scaling
    python -m bench.perf --lexicons DIR --json perf.json  # also the figures as JSON
    python -m bench.perf --lexicons DIR --defaults        # also build the five defaults

What each row measures (speeds are ratios against a baseline timed in the same process or the same
wrk run, so the ratio is what to compare between machines):

- ``key in lexicon`` against a Python ``set`` of the same keys, on a sample half words, half not;
- ``lexicon.lookup(text)`` (normalise, spell, look up, score) and ``lexicon.hooks(key)``, per call;
- anagrams and subanagrams of the racks players have, 7 tiles in all with 0, 1 or 2 blanks, drawn
  from the edition's bag, on es-fise, en and fr (those present), through the public call the CLI and
  the API make (``search.anagrams``, each rack asked once, none seen before) against a naive dict
  from alphagram to words that tries every blank (and, for subanagrams, every subset of the rack):
  the median over 20 racks of each rack's ratio, the walk alone shown beside it — the results are
  checked to be the same words (``--anagrams``: these rows alone);
- probability order: the first page (100 words) of ``CH?*O``, ``*``, ``*CHO`` and ``A*`` on es-fise
  right after loading the lexicon, and ``lextools pattern es-fise 'CH?*O' --order probability``
  whole (wall time, peak RSS); the first page of anagrams of ``ARBOL??`` and subanagrams of
  ``AEIOSRNLTCDUM??`` (the API's largest rack) right after loading, beside the time their whole
  ranked list took, and ``lextools anagram`` of the large rack, ``--limit 100``;
- the anagram index on disk (the alphagram DAWG and the table of each alphagram's words) against the
  words DAWG;
- the service (``lextools serve``, 2 workers, every lexicon of the directory loaded): the private
  memory (USS) and PSS of each worker from ``/proc/PID/smaps_rollup`` after each worker answered for
  every edition, and the PSS total of arbiter and workers; ``GET /v1/es-fise/words/W`` against a
  bare WSGI app doing the same look-up under the same gunicorn settings (``bench.service_load``'s),
  and ``POST /v1/es-fise/check`` of 1000 words, with wrk;
- builds of generated pseudo-Spanish lists (``bench.build_and_lookup``'s generator; no real list) of
  100k, 300k, 639k and 1M words with ``lextools build --source``: CPU and wall time and peak RSS, and the
  membership time in each; the slope is d log(time) / d log(words), 1.0 being linear;
- with ``--defaults``, ``lextools build`` of the five default lexicons: CPU and wall time and peak RSS.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from bench.build_and_lookup import generate_words
from bench.harness import (
    cpu_seconds,
    default_lexicons,
    memory_kb,
    request,
    require_lexicon,
    require_wrk,
    running,
    sample_words,
    start_service,
    stop_service,
    workers_of,
    wrk_load,
)
from bench.service_load import serve_command
from lextools.core import search
from lextools.core.budget import Budget
from lextools.core.edition import edition_names
from lextools.core.lexicon import Lexicon, load_lexicon
from lextools.core.search.anagrams_by_probability import ranked_anagrams

EDITION = "es-fise"
#: Rounds of GET /words, Flask and bare app in turn.
ROUNDS = 3
#: The targets of the issue, by row.
TARGETS = {
    "membership": "≤ 2× a set",
    "lookup": "≤ 5 µs",
    "hooks": "≤ 10 µs",
    "probability": "≤ 200 ms after load, never empty",
    "index": "≤ 15× words DAWG, mapped (issue 24)",
    "worker": "≤ 30 MB private each",
    "machine": "≤ 150 MB PSS in all",
    "get": "≥ 0.8× bare WSGI",
    "check": "≥ 272k words/s (4× 68k)",
    "build639": "≤ 6 s CPU and ≤ 200 MB (issue 37)",
    "defaults": "≤ 60 s CPU (issue 37)",
}


def per_call_us(fn: Callable[[], None], calls: int) -> float:
    """Microseconds per call of ``fn`` (which makes ``calls`` calls), best of 3 runs."""
    best = math.inf
    for _ in range(3):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best / calls * 1e6


# -- in one process ----------------------------------------------------------------------------------


def membership(lex: Lexicon, keys: Sequence[str], rng: random.Random, n: int = 20000) -> dict[str, float]:
    """``key in lexicon`` and ``key in set`` on the same sample, half keys and half altered keys."""
    codes = sorted({c for k in keys[:1000] for c in k})
    sample = [k if i % 2 else k[:-1] + rng.choice(codes) for i, k in enumerate(rng.choices(keys, k=n))]
    as_set = set(keys)

    def in_lexicon() -> None:
        for k in sample:
            k in lex  # noqa: B015

    def in_set() -> None:
        for k in sample:
            k in as_set  # noqa: B015

    lexicon_us = set_us = math.inf
    for _ in range(3):  # in turn, so that a busy spell of the machine slows both
        lexicon_us, set_us = min(lexicon_us, per_call_us(in_lexicon, n)), min(set_us, per_call_us(in_set, n))
    return {"lexicon_us": lexicon_us, "set_us": set_us, "ratio": lexicon_us / set_us}


def naive_index(keys: Sequence[str]) -> dict[str, list[str]]:
    index: dict[str, list[str]] = {}
    for k in keys:
        index.setdefault("".join(sorted(k)), []).append(k)
    return index


def naive_anagrams(index: dict[str, list[str]], codes: str, rack: str, blanks: int, sub: bool) -> list[str]:
    """Every blank filled every way; for subanagrams, every sub-multiset of the rack too."""
    parts = {()} if not sub else {c for n in range(len(rack) + 1) for c in itertools.combinations(sorted(rack), n)}
    alphagrams = set()
    for used in range(blanks + 1) if sub else (blanks,):
        for fill in itertools.combinations_with_replacement(codes, used):
            for part in parts:
                tiles = (*part, *fill) if sub else (*rack, *fill)
                if len(tiles) >= 2:
                    alphagrams.add("".join(sorted(tiles)))
    return [w for a in alphagrams for w in index.get(a, ())]


#: The racks players have: 7 tiles in all, 0, 1 or 2 of them blanks.
SHAPES = ((7, 0), (6, 1), (5, 2))
#: Editions whose anagram shapes are measured, and the most the public call may be slower than the
#: naive dict on each (issue 37).
SHAPE_EDITIONS = {"es-fise": 1.5, "en": 1.5, "fr": 1.5}


def rack_ratio(
    lex: Lexicon, index: dict[str, list[str]], codes: str, racks: Sequence[str], blanks: int, sub: bool, turn: int
) -> tuple[float, float, float, bool]:
    """Microseconds of the public call, of the walk alone and of the naive dict on ``racks[0]``, a rack
    the public call has not seen, and whether they give the same words.

    Our side is :func:`search.anagrams` as the CLI and the API call it (with a budget, every answer a
    :class:`~lextools.core.search.Match` with its blanks), asked once: the rack is drawn fresh, so
    nothing kept from an earlier query can answer it. The walk alone (:func:`search.sorted_anagrams`)
    is shown beside it. Each side is timed once, right after the same side answered ``racks[1]`` (so
    its code is warm and the rack's data cold for all three), in an order that turns with ``turn``."""
    rack, warm = racks
    clock = time.perf_counter

    def public(r: str) -> float:
        t = clock()
        search.anagrams(lex, r, blanks, sub=sub, budget=Budget())
        return clock() - t

    def walk(r: str) -> float:
        t = clock()
        search.sorted_anagrams(lex, r, blanks, sub, 2)
        return clock() - t

    def naive(r: str) -> float:
        t = clock()
        naive_anagrams(index, codes, r, blanks, sub)
        return clock() - t

    sides = [public, walk, naive]
    sides = sides[turn % 3 :] + sides[: turn % 3]
    timed = {}
    for side in sides:
        side(warm)
        timed[side] = side(rack)
    mine = sorted(m.key for m in search.anagrams(lex, rack, blanks, sub=sub))
    same = mine == sorted(naive_anagrams(index, codes, rack, blanks, sub))
    return timed[public] * 1e6, timed[walk] * 1e6, timed[naive] * 1e6, same


def fresh_racks(bag: str, tiles: int, rng: random.Random, seen: set[str], n: int) -> list[str]:
    """``n`` racks of ``tiles`` tiles drawn from the bag, none drawn before in this run."""
    racks: list[str] = []
    while len(racks) < n:
        rack = "".join(sorted(rng.sample(bag, tiles)))
        if rack not in seen:
            seen.add(rack)
            racks.append("".join(rng.sample(rack, tiles)))  # in the order drawn, not sorted
    return racks


def anagram_shapes(lex: Lexicon, rng: random.Random, racks: int = 20) -> dict[str, Any]:
    """Exact and subanagrams of 7-tile racks (7 + 0, 6 + 1, 5 + 2 blanks), tiles drawn from the
    edition's bag (digraph tiles included), through the public call against the naive dict: per
    shape the median over ``racks`` racks not seen before of each rack's ratio."""
    keys = list(lex.keys())
    bag = "".join(t.code * (t.count or 0) for t in lex.edition.tiles)
    codes = "".join(sorted({c for k in keys for c in k}))
    index = naive_index(keys)
    seen: set[str] = set()
    search.anagrams(lex, "".join(rng.sample(bag, 7)), 1, sub=True)  # the table mapped and checked once
    out: dict[str, Any] = {}
    for sub in (False, True):
        for tiles, blanks in SHAPES:
            timed = [
                rack_ratio(lex, index, codes, fresh_racks(bag, tiles, rng, seen, 2), blanks, sub, i)
                for i in range(racks)
            ]
            out[f"{'sub' if sub else 'exact'} {tiles}+{blanks}"] = {
                "ms": statistics.median(ours / 1000 for ours, _, _, _ in timed),
                "walk_ms": statistics.median(walk / 1000 for _, walk, _, _ in timed),
                "naive_ms": statistics.median(theirs / 1000 for _, _, theirs, _ in timed),
                "ratio": statistics.median(ours / theirs for ours, _, theirs, _ in timed),
                "walk_ratio": statistics.median(walk / theirs for _, walk, theirs, _ in timed),
                "same_words": all(same for _, _, _, same in timed),
            }
    return out


def probability_rows(home: Path) -> dict[str, Any]:
    """The first page (100 words) of probability-ordered searches right after the lexicon is loaded
    (the ranking file checked on that first use), and the CLI's whole CH?*O answer, wall and peak."""
    out: dict[str, Any] = {}
    for pattern in ("CH?*O", "*", "*CHO", "A*"):
        lex = load_lexicon(EDITION, home)
        t = time.perf_counter()
        budget = Budget(seconds=0.2, results=100)
        page = list(search.find(lex, pattern=pattern, order="probability", budget=budget))
        out[pattern] = {"ms": (time.perf_counter() - t) * 1000, "words": len(page),
                        "shortest_first": [len(k) for k in page] == sorted(len(k) for k in page)}  # fmt: skip
    seconds, _, peak_kb = timed_build(["pattern", EDITION, "CH?*O", "--order", "probability", "--lexicons", str(home)])
    out["cli"] = {"s": seconds, "peak_mb": peak_kb / 1024}
    out["anagrams"] = anagram_first_pages(home)
    return out


#: Racks of the probability-ordered anagram rows: 7 tiles in all (its whole list is ready at once),
#: and the API's largest, subanagrams (its whole list takes seconds: the page reads the ranking).
PROBABILITY_RACKS = (("ARBOL??", False), ("AEIOSRNLTCDUM??", True))


def anagram_first_pages(home: Path) -> dict[str, Any]:
    """The first page (100 words, the service's 200 ms budget) of anagrams in probability order right
    after the lexicon is loaded; then how long the whole ranked list took, and whether the page is
    its head; and the CLI's first 100 words of the large rack, wall and peak."""
    out: dict[str, Any] = {}
    for rack, sub in PROBABILITY_RACKS:
        lex = load_lexicon(EDITION, home)
        key, blanks = search.parse_rack(rack, lex)
        t = time.perf_counter()
        page = ranked_anagrams(lex, key, blanks, sub, 2, budget=Budget(seconds=0.2, results=100))
        ms = (time.perf_counter() - t) * 1000
        whole = ranked_anagrams(lex, key, blanks, sub, 2)  # waits for the list: no job left running
        lengths = [len(m.key) for m in page]
        out[f"{rack}{' --sub' if sub else ''}"] = {
            "ms": ms, "words": len(page), "shortest_first": lengths == sorted(lengths),
            "head_of_whole": page == whole[: len(page)], "whole_s": time.perf_counter() - t, "all": len(whole),
        }  # fmt: skip
    rack, sub = PROBABILITY_RACKS[-1]
    cli = ["anagram", EDITION, rack, "--sub", "--order", "probability", "--limit", "100", "--lexicons", str(home)]
    seconds, _, peak_kb = timed_build(cli)
    out["cli"] = {"rack": rack, "s": seconds, "peak_mb": peak_kb / 1024}
    return out


def shapes_of(home: Path, lex: Lexicon | None = None) -> dict[str, Any]:
    """:func:`anagram_shapes` of each edition of :data:`SHAPE_EDITIONS` present (``lex``: es-fise's, loaded)."""
    return {
        e: anagram_shapes(lex if lex is not None and e == EDITION else load_lexicon(e, home), random.Random(11))
        for e in SHAPE_EDITIONS
        if (home / f"{e}.json").is_file()
    }


def library_rows(home: Path) -> dict[str, Any]:
    lex = load_lexicon(EDITION, home)
    keys = list(lex.keys())
    rng = random.Random(7)
    words = [lex.edition.spelling(k).lower() for k in rng.sample(keys, 2000)]
    sample = rng.sample(keys, 2000)
    files = lex.metadata["files"]
    return {
        "reader": lex.reader,
        "words": len(keys),
        "membership": membership(lex, keys, rng),
        "lookup_us": per_call_us(lambda: [lex.lookup(w) for w in words] and None, len(words)),
        "hooks_us": per_call_us(lambda: [lex.hooks(k) for k in sample] and None, len(sample)),
        "shapes": shapes_of(home, lex),
        "probability": probability_rows(home),
        "index": {
            "alphagrams_bytes": files["alphagrams"]["bytes"],
            "alphawords_bytes": files.get("alphawords", {}).get("bytes", 0),
            "words_bytes": files["words"]["bytes"],
            "ratio": (files["alphagrams"]["bytes"] + files.get("alphawords", {}).get("bytes", 0))
            / files["words"]["bytes"],
        },
    }


# -- the service -------------------------------------------------------------------------------------


def service_rows(home: Path, workdir: Path, duration: int, connections: int) -> dict[str, Any]:
    wrk = require_wrk()
    editions = [e for e in edition_names() if (home / f"{e}.json").is_file()]
    words = sample_words(home, EDITION, 2000, 7)
    paths = [f"/v1/{EDITION}/words/{quote(w)}" for w in words]
    out: dict[str, Any] = {}
    with running(home, workdir / "serve.log", workers=2) as svc:
        for _ in range(20):  # gthread workers take turns: every worker answers for every edition
            for e in editions:
                request(svc.port, "GET", f"/v1/{e}/words/{'casa' if e != 'en' else 'house'}")
            for p in paths[:50]:
                request(svc.port, "GET", p)
        workers = workers_of(svc.pid)
        memory = {"arbiter": memory_kb(svc.pid), "workers": [memory_kb(w) for w in workers]}
        out["memory"] = {"editions": editions, **memory}
        body = json.dumps({"words": (words * 2)[:1000]}).encode()
        out["check"] = wrk_load(wrk, svc.port, [f"/v1/{EDITION}/check"], connections=connections,
                                duration=duration, body=body)  # fmt: skip
        other = start_service(home, workdir / "bare.log", command=serve_command("bare", home), name="bare")
        try:
            for p in paths[:200]:
                request(other.port, "GET", p)
            # Short runs in turn, in alternating order, both servers up all along: whatever else the
            # machine is doing weighs on both alike. The ratio is the median of the rounds'.
            rounds: list[dict[str, Any]] = []
            for r in range(ROUNDS):
                runs = {}
                for kind in ("flask", "bare") if r % 2 == 0 else ("bare", "flask"):
                    server = svc if kind == "flask" else other
                    before = cpu_seconds(server.pid)
                    runs[kind] = wrk_load(wrk, server.port, paths, connections=connections,
                                          duration=max(2, duration // 2))  # fmt: skip
                    used = cpu_seconds(server.pid) - before  # type: ignore[operator]
                    runs[kind]["cpu_us_per_request"] = used / runs[kind]["requests"] * 1e6
                flask, plain = runs["flask"], runs["bare"]
                rounds.append({**runs, "ratio": flask["rps"] / plain["rps"],
                               "cpu_ratio": plain["cpu_us_per_request"] / flask["cpu_us_per_request"]})  # fmt: skip
        finally:
            stop_service(other)
    out["get"] = {
        "rounds": rounds,
        "flask_rps": statistics.median(r["flask"]["rps"] for r in rounds),
        "bare_rps": statistics.median(r["bare"]["rps"] for r in rounds),
        "ratio": statistics.median(r["ratio"] for r in rounds),
        # Server CPU per request hardly moves with what else the machine runs: the steadier ratio.
        "flask_cpu_us": statistics.median(r["flask"]["cpu_us_per_request"] for r in rounds),
        "bare_cpu_us": statistics.median(r["bare"]["cpu_us_per_request"] for r in rounds),
        "cpu_ratio": statistics.median(r["cpu_ratio"] for r in rounds),
    }
    return out


# -- builds ------------------------------------------------------------------------------------------


#: Prepended to the build's ``python -c``: print the process's peak RSS (VmHWM) as it exits.
REPORT_PEAK = (
    "import atexit, re, sys; atexit.register(lambda: print('PEAK_KB', re.search(r'VmHWM:\\s+(\\d+)', "
    "open('/proc/self/status').read()).group(1), file=sys.stderr)); "
)


def timed_build(arguments: Sequence[str]) -> tuple[float, float, int]:
    """Run ``lextools ARGUMENTS`` in a child; its wall time, CPU time (user + system: what a busy
    machine's other work changes least) and peak RSS in kB.

    The child reports its own peak (VmHWM, reset by exec): a parent's rusage would count the memory
    of this process, which the child held between fork and exec.
    """
    cmd = [sys.executable, "-c", REPORT_PEAK + "from lextools.cli.main import main; main()", *arguments]
    t, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds, after = time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    peak = re.search(r"^PEAK_KB (\d+)$", done.stderr, re.M)
    if done.returncode != 0 or not peak:
        raise RuntimeError(f"lextools {' '.join(arguments)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return seconds, cpu, int(peak.group(1))


def build_rows(workdir: Path, sizes: Sequence[int]) -> list[dict[str, Any]]:
    biggest = generate_words(max(sizes), 7, lambda _: None)
    rows = []
    for n in sizes:
        source = workdir / f"words-{n}.txt"
        source.write_text("\n".join(biggest[:n]) + "\n", "utf-8")
        out = workdir / f"lex-{n}"
        seconds, cpu, peak_kb = timed_build(["build", EDITION, "--source", str(source), "--out", str(out)])
        lex = load_lexicon(EDITION, out)
        keys = list(lex.keys())
        m = membership(lex, keys, random.Random(n))
        rows.append({"words": n, "build_s": seconds, "cpu_s": cpu, "peak_rss_mb": peak_kb / 1024, "membership": m})
    return rows


def slope(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Least-squares slope of log y against log x."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly, strict=True)) / sum((a - mx) ** 2 for a in lx)


# -- the table ---------------------------------------------------------------------------------------


def probability_anagram_rows(anagrams: dict[str, Any], row: Callable[[str, str, str, str, bool | None], None]) -> None:
    for rack, p in anagrams.items():
        if rack == "cli":
            row(f"`lextools anagram es-fise '{p['rack']}' --sub --order probability --limit 100`",
                f"{p['s']:.2f} s, {p['peak_mb']:.0f} MB", "—", "first 100 words", None)  # fmt: skip
            continue
        note = "" if p["shortest_first"] and p["head_of_whole"] else ", NOT the head of the whole list"
        row(f"probability order, first anagram page of `{rack}`", f"{p['ms']:.0f} ms, {p['words']} words{note}",
            f"whole list of {p['all']}: {p['whole_s']:.2f} s", TARGETS["probability"],
            p["ms"] <= 200 and p["words"] > 0 and not note)  # fmt: skip


def shape_rows(by_edition: dict[str, Any], row: Callable[[str, str, str, str, bool | None], None]) -> None:
    for edition, shapes in by_edition.items():
        most = SHAPE_EDITIONS[edition]
        for shape, a in shapes.items():
            same = "" if a["same_words"] else " (DIFFERENT WORDS)"
            row(f"{edition} {shape}, `search.anagrams`", f"{a['ms']:.3f} ms (walk alone {a['walk_ratio']:.2f}×){same}",
                f"naive dict {a['naive_ms']:.3f} ms",
                f"{a['ratio']:.2f}× · ≤ {most:g}× naive dict (median of 20 unseen racks)",
                a["ratio"] <= most and a["same_words"])  # fmt: skip


def table(r: dict[str, Any]) -> str:
    lib = r["library"]
    rows: list[tuple[str, str, str, str]] = []

    def row(what: str, figure: str, baseline: str, target: str, met: bool | None) -> None:
        verdict = "" if met is None else " — met" if met else " — NOT met"
        rows.append((what, figure, baseline, target + verdict))

    if "membership" not in lib:  # --anagrams: the anagram rows alone
        shape_rows(lib["shapes"], row)
        return markdown(rows)
    m = lib["membership"]
    row("`key in lexicon`", f"{m['lexicon_us']:.3f} µs ({lib['reader']})", f"set {m['set_us']:.3f} µs",
        f"{m['ratio']:.1f}× · {TARGETS['membership']}", m["ratio"] <= 2)  # fmt: skip
    row("`lookup(text)`", f"{lib['lookup_us']:.1f} µs", "—", TARGETS["lookup"], lib["lookup_us"] <= 5)
    row("`hooks(key)`", f"{lib['hooks_us']:.1f} µs", "—", TARGETS["hooks"], lib["hooks_us"] <= 10)
    shape_rows(lib["shapes"], row)
    for pattern, p in lib["probability"].items():
        if pattern == "anagrams":
            probability_anagram_rows(p, row)
            continue
        if pattern == "cli":
            row("`lextools pattern es-fise 'CH?*O' --order probability`", f"{p['s']:.2f} s, {p['peak_mb']:.0f} MB",
                "—", "whole answer, 644 words", None)  # fmt: skip
            continue
        order = "" if p["shortest_first"] else ", NOT shorter first"
        row(f"probability order, first page of `{pattern}`", f"{p['ms']:.0f} ms, {p['words']} words{order}",
            "—", TARGETS["probability"], p["ms"] <= 200 and p["words"] > 0 and p["shortest_first"])  # fmt: skip
    ix = lib["index"]
    words_mb = ix["words_bytes"] / 1e6
    row("anagram index on disk (alphagram DAWG + table)",
        f"{ix['alphagrams_bytes'] / 1e6:.2f} + {ix['alphawords_bytes'] / 1e6:.2f} MB", f"words DAWG {words_mb:.2f} MB",
        f"{ix['ratio']:.2f}× · {TARGETS['index']}", ix["ratio"] <= 15)  # fmt: skip
    if "service" in r:
        s = r["service"]
        mem = s["memory"]
        private = [w["private"] / 1024 for w in mem["workers"] if w]
        pss = [w["pss"] / 1024 for w in mem["workers"] if w]
        total = (mem["arbiter"]["pss"] / 1024 if mem["arbiter"] else 0) + sum(pss)
        row(f"worker memory, {len(mem['editions'])} editions loaded",
            f"private {', '.join(f'{x:.1f}' for x in private)} MB; PSS {', '.join(f'{x:.1f}' for x in pss)} MB",
            "—", TARGETS["worker"], bool(private) and max(private) <= 30)  # fmt: skip
        row("machine: arbiter + 2 workers", f"PSS {total:.1f} MB", "—", TARGETS["machine"], total <= 150)
        g = s["get"]
        row("`GET /words`, 2 workers, wrk", f"{g['flask_rps'] / 1000:.2f} k req/s",
            f"bare WSGI {g['bare_rps'] / 1000:.2f} k req/s", f"{g['ratio']:.2f}× · {TARGETS['get']}",
            g["ratio"] >= 0.8)  # fmt: skip
        row("`GET /words`, server CPU", f"{g['flask_cpu_us']:.0f} µs/request", f"bare WSGI {g['bare_cpu_us']:.0f} µs",
            f"{g['cpu_ratio']:.2f}× · {TARGETS['get']}", g["cpu_ratio"] >= 0.8)  # fmt: skip
        wps = s["check"]["rps"] * 1000
        row("`POST /check` 1000 words", f"{wps / 1000:.0f} k words/s", "—", TARGETS["check"], wps >= 272_000)
    if "defaults" in r:
        d = r["defaults"]
        row("build the five defaults", f"{d['cpu_s']:.0f} s CPU ({d['build_s']:.0f} s wall), {d['peak_rss_mb']:.0f} MB",
            "—", TARGETS["defaults"], d["cpu_s"] <= 60)  # fmt: skip
    if "builds" in r:
        b = r["builds"]
        at = next((x for x in b if x["words"] == 639_000), None)
        if at:
            row("build 639k words", f"{at['cpu_s']:.1f} s CPU ({at['build_s']:.1f} s wall), {at['peak_rss_mb']:.0f} MB",
                "—", TARGETS["build639"], at["cpu_s"] <= 6 and at["peak_rss_mb"] <= 200)  # fmt: skip
        ns = [x["words"] for x in b]
        row("build scaling (CPU)", " · ".join(f"{x['words'] // 1000}k {x['cpu_s']:.1f} s" for x in b), "—",
            f"slope {slope(ns, [x['cpu_s'] for x in b]):.2f} (1 = linear)", None)  # fmt: skip
        row("`key in lexicon` scaling", " · ".join(f"{x['words'] // 1000}k {x['membership']['lexicon_us']:.3f} µs"
            for x in b), "set: " + " · ".join(f"{x['membership']['set_us']:.3f}" for x in b),
            f"slope {slope(ns, [x['membership']['lexicon_us'] for x in b]):.2f} (0 = flat)", None)  # fmt: skip
    return markdown(rows)


def markdown(rows: list[tuple[str, str, str, str]]) -> str:
    widths = [max(len(x[i]) for x in [("what", "lextools", "baseline, same run", "ratio · target"), *rows])
              for i in range(4)]  # fmt: skip
    lines = []
    for i, x in enumerate([("what", "lextools", "baseline, same run", "ratio · target"), *rows]):
        lines.append("| " + " | ".join(c.ljust(w) for c, w in zip(x, widths, strict=True)) + " |")
        if i == 0:
            lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lexicons", type=Path, default=None, help="lexicon directory [default: the lexicon home]")
    ap.add_argument("--duration", type=int, default=10, help="seconds of each wrk run (default 10)")
    ap.add_argument("--connections", type=int, default=32, help="wrk connections (default 32)")
    ap.add_argument("--skip-service", action="store_true", help="no service rows")
    ap.add_argument("--skip-build", action="store_true", help="no build rows")
    ap.add_argument("--anagrams", action="store_true", help="only the anagram rows (about a minute)")
    ap.add_argument("--defaults", action="store_true", help="also time `lextools build` of the five defaults")
    ap.add_argument("--sizes", default="100000,300000,639000,1000000", help="build sizes (words)")
    ap.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = ap.parse_args(argv)
    home = (args.lexicons or default_lexicons()).resolve()
    require_lexicon(home, EDITION)
    result: dict[str, Any] = {"lexicons": str(home)}
    print(f"library rows on {EDITION} in {home} ...", file=sys.stderr)
    if args.anagrams:
        result["library"] = {"shapes": shapes_of(home)}
        print(table(result))
        return 0
    result["library"] = library_rows(home)
    with tempfile.TemporaryDirectory(prefix="lextools-perf-") as tmp:
        if not args.skip_service:
            print("service rows (lextools serve, wrk) ...", file=sys.stderr)
            result["service"] = service_rows(home, Path(tmp), args.duration, args.connections)
        if args.defaults:
            print("building the five default lexicons ...", file=sys.stderr)
            seconds, cpu, peak_kb = timed_build(["build", "--out", str(Path(tmp) / "defaults")])
            result["defaults"] = {"build_s": seconds, "cpu_s": cpu, "peak_rss_mb": peak_kb / 1024}
        if not args.skip_build:
            print("build rows ...", file=sys.stderr)
            result["builds"] = build_rows(Path(tmp), [int(x) for x in args.sizes.split(",")])
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
