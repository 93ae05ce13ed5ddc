"""Benchmark: the reader of FISE's lemma lists (``lextools.builder.fise_lists``) on a large folder.

Run from the repository root with the project's venv::

    python -m bench.fise_reader                    # about 90,000 invented lines, as many as FISE's folder
    python -m bench.fise_reader --lines 500000     # the reader must stay linear

Writes a folder of the two totals in FISE's format (Latin-1, CRLF, a header in prose ending in ``#``,
sections, superscripts, masculine–feminine pairs, a trailer) from invented words, in a temporary
directory, and times reading it: CPU seconds, lines per second. No list of the federation's is used.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from lextools.builder.fise_lists import Lists, read_folder

HEADER = (
    "{title}\n\nPor una comisión de prueba en diciembre de 2026\n\nContenido:\n\n{contents}\n\nNotas:\nPrueba.\n#\n"
)
TRAILER = "\n#\nComisión de prueba\nDiciembre de 2026\n"
CONJUGATIONS = [("1. PRIMERA CONJUGACIÓN", "ar", 0.58), ("2. SEGUNDA CONJUGACIÓN", "er", 0.2)]
CONJUGATIONS.append(("3. TERCERA CONJUGACIÓN", "ir", 0.22))


def _word(rng: random.Random) -> str:
    return "".join(rng.choice("bcdfgjlmnñprstvz") + rng.choice("aeiouáéíóú") for _ in range(rng.randint(2, 5)))


def _write(path: Path, title: str, contents: list[str], body: list[str]) -> None:
    text = HEADER.format(title=title, contents="\n".join(f"   {c}" for c in contents)) + "\n".join(body) + TRAILER
    path.write_bytes(text.replace("\n", "\r\n").encode("latin-1"))


def write_folder(folder: Path, lines: int, seed: int = 1) -> None:
    """The two totals, about ``lines`` lines in all (one in seven a verb, as in FISE's folder)."""
    rng = random.Random(seed)
    verbs: list[str] = []
    for title, ending, share in CONJUGATIONS:
        verbs.append(title)
        for _ in range(int(lines / 7 * share)):
            superscript = " 2" if rng.random() < 0.06 else ""
            verbs.append(f"00-{rng.choice('1234')}-.-{_word(rng)}{ending}{superscript}")
    words = []
    for _ in range(lines - len(verbs)):
        stem, r = _word(rng), rng.random()
        words.append(f"{stem}o {stem}a" if r < 0.24 else stem + (" 3" if r > 0.95 else ""))
    _write(
        folder / "total verbos.TXT",
        "LEXICÓN FISE 2: TOTAL DE VERBOS CLASIFICADOS",
        [c for c, _, _ in CONJUGATIONS],
        verbs,
    )
    _write(
        folder / "total otras.TXT", "LEXICÓN FISE 2: TOTAL DE NO VERBOS SIN PLURALES", ["Total de no verbos."], words
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=90_000, help="lines in the folder [90,000]")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        write_folder(Path(tmp), args.lines)
        start = time.process_time()
        lists = Lists()
        files = read_folder(Path(tmp), lists)
        cpu = time.process_time() - start
    entries = sum(len(f.entries) for f in files)
    skipped = sum(len(s) for s in lists.skipped.values())
    print(
        f"read {entries:,} entries ({skipped} lines not understood) in {cpu:.2f} s CPU: {entries / cpu:,.0f} a second"
    )


if __name__ == "__main__":
    main()
