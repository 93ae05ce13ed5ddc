"""Benchmark: how long a quiz takes on a real lexicon, cold (first request of a worker) and warm.

Run from the repository root with the project's venv, on built lexicons (``lextools build``)::

    python -m bench.quiz --lexicons ~/.local/share/lextools            # es-fise, 7 tiles
    python -m bench.quiz --lexicons D --edition en --length 8

What is measured, in one run:

1. ranking every alphagram of the length by its draw count with 0, 1 and 2 blanks
   (:func:`lextools.core.probability.draw_count`, per-tile polynomials) against the same counts summed
   over every sub-multiset left to blanks, the way Zyzzyva's ``LetterBag`` writes the sum — the
   baseline, which also checks that both give the same numbers;
2. each quiz type, cold (ranked lists not cached yet) and warm, against the walk every quiz of
   that length needs first (``search.words_of_length``), measured in the same run;
3. the lists that teach (:mod:`lextools.features.lists`), cold (a worker's first request for the
   list) and warm (the next page), against the same walk; and the phony measure: how many phonies
   of 5 to 8 tiles (seeds 1 to 3, 12 questions each) have a run of three tiles found fewer than
   ``PHONY_MIN_TRIGRAM`` times among all the edition's words.

Times depend on the machine; the ratios are what to compare between machines and versions.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations_with_replacement
from math import comb
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from lextools.core import search
from lextools.core.edition import Edition
from lextools.core.lexicon import load_lexicon
from lextools.core.probability import draw_count
from lextools.features import lists, quiz


def enumerated_count(edition: Edition, tiles: Sequence[str], blanks: int) -> int:
    """The baseline: one product per sub-multiset of the tiles left to blanks."""
    wanted = Counter(tiles)
    total = 0
    for used in range(blanks + 1):
        for left in combinations_with_replacement(sorted(wanted), used):
            replaced = Counter(left)
            if any(replaced[t] > wanted[t] for t in replaced):
                continue
            ways = comb(edition.blanks or 0, used)
            for label, k in wanted.items():
                ways *= comb(edition.by_label[label].count or 0, k - replaced[label])
            total += ways
    return total


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lexicons", type=Path, required=True, help="directory of built lexicons")
    parser.add_argument("--edition", default="es-fise")
    parser.add_argument("--length", type=int, default=7)
    args = parser.parse_args()
    console = Console()
    lex = load_lexicon(args.edition, args.lexicons)
    ed = lex.edition
    walk, keys = timed(lambda: search.words_of_length(lex, args.length))
    alphagrams = sorted({quiz.alphagram(ed, k) for k in keys})

    counts = Table("blanks", "alphagrams", "polynomials", "enumerated (baseline)", "speed-up")
    for blanks in (0, 1, 2):
        fast, a = timed(lambda b=blanks: [draw_count(ed, ed.decode(k), b) for k in alphagrams])
        slow, b = timed(lambda b=blanks: [enumerated_count(ed, ed.decode(k), b) for k in alphagrams])
        assert a == b, "the two ways of counting disagree"
        counts.add_row(str(blanks), f"{len(alphagrams):,}", f"{fast:.2f} s", f"{slow:.2f} s", f"{slow / fast:.1f}×")
    console.print(f"{args.edition}, {args.length} tiles: {len(keys):,} words, found in {walk:.2f} s")
    console.print(counts)

    quizzes = Table("quiz", "cold", "warm", "cold / words_of_length")
    requests = [
        ("anagram, 1 blank, 10 questions", quiz.QuizRequest("anagram", args.length, 1, seed=1)),
        ("anagram, 2 blanks, 100 questions", quiz.QuizRequest("anagram", args.length, 2, count=100, seed=1)),
        ("build, 6 tiles, 20 questions", quiz.QuizRequest("build", 6, 0, count=20, seed=1)),
        ("hooks, 100 questions", quiz.QuizRequest("hooks", args.length, count=100, seed=1)),
        ("word-or-phony, 100 questions", quiz.QuizRequest("word-or-phony", args.length, count=100, seed=1)),
    ]
    for name, request in requests:
        fresh = load_lexicon(args.edition, args.lexicons)  # a new Lexicon object: nothing cached for it
        cold, _ = timed(lambda r=request, f=fresh: quiz.quiz(f, r))
        warm, _ = timed(lambda r=request, f=fresh: quiz.quiz(f, r))
        quizzes.add_row(name, f"{cold:.2f} s", f"{warm:.3f} s", f"{cold / walk:.1f}×")
    console.print(quizzes)
    console.print(list_times(args.lexicons, args.edition, walk))
    console.print(phony_measure(lex))


def list_times(home: Path, edition: str, walk: float) -> Table:
    """Each list cold (a fresh Lexicon object: nothing kept for it) and warm (its next page)."""
    table = Table("list", "cold", "warm (next page)", "cold / words_of_length")
    other = "es-na103" if edition != "es-na103" else "es-fise"
    fresh = load_lexicon(edition, home)
    tile = (lists.high_value_tiles(fresh.edition) or [""])[0]
    calls: list[tuple[str, Callable[[int], Any]]] = [
        ("stems, 6 tiles, 20 a page", lambda start: lists.stems(fresh, 6, start)),
        ("stems, 7 tiles, 20 a page", lambda start: lists.stems(fresh, 7, start)),
        (f"high-value {tile}, 100 a page", lambda start: lists.with_tile(fresh, tile, None, start, 100)),
    ]
    if (home / f"{other}.json").exists():
        against = load_lexicon(other, home)
        calls.append(
            (f"new against {other}, 100 a page", lambda start: lists.new_words(fresh, against, None, start, 100))
        )
    words = [w["word"] for w in lists.with_tile(fresh, tile, 7, 1, 100)["words"]]
    calls.append(("list quiz, 100 words", lambda start: lists.list_quiz(fresh, words)))
    for name, call in calls:
        cold, _ = timed(lambda c=call: c(1))
        warm, _ = timed(lambda c=call: c(21))
        table.add_row(name, f"{cold:.2f} s", f"{warm:.3f} s", f"{cold / walk:.1f}×")
    return table


def phony_measure(lex: Any) -> str:
    ed = lex.edition
    phonies = []
    for length in (5, 6, 7, 8):
        for seed in (1, 2, 3):
            result = quiz.quiz(lex, quiz.QuizRequest("word-or-phony", length, count=12, seed=seed))
            phonies += [ed.encode(q["tiles"]) for q in result["questions"] if not q["valid"]]
    words = "\n".join(lex)
    least = quiz.PHONY_MIN_TRIGRAM
    failing = [p for p in phonies if any(words.count(p[i : i + 3]) < least for i in range(len(p) - 2))]
    return f"phonies of 5-8 tiles with a run of three found < {least} times: {len(failing)} of {len(phonies)}"


if __name__ == "__main__":
    main()
