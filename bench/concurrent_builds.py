"""Stress check (not a test): two ``lextools build`` of one edition into one directory at once.

Run from the repository root with the project's venv::

    python -m bench.concurrent_builds                  # 20 trials, es-fise
    python -m bench.concurrent_builds --trials 50 --words 20000

Each trial starts two ``lextools build es-fise --source LIST --out D`` processes at the same moment,
on two different lists (so each commit names other DAWG files), waits for both, then loads the
lexicon in ``D`` as a fresh service worker would: without the build lock, a trial could leave an
``es-fise.json`` naming DAWG files the other build had deleted. Reported per run: trials, builds
that failed, trials whose lexicon did not load (both must be 0), and how many second builds said
they were waiting. The lists are pseudo-Spanish words from ``bench.build_and_lookup``'s generator
(seeded; no real word list). Exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.build_and_lookup import generate_words
from bench.harness import lextools_command
from lextools.core.errors import LexiconError
from lextools.core.lexicon import load_lexicon


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--words", type=int, default=5000, help="words per list")
    parser.add_argument("--edition", default="es-fise")
    args = parser.parse_args(argv)
    lextools = lextools_command()

    with tempfile.TemporaryDirectory(prefix="concurrent-builds-") as tmp:
        work = Path(tmp)
        words = generate_words(args.words + args.words // 10, seed=1, advance=lambda n: None)
        lists = []
        for n, chosen in enumerate((words[: args.words], words[args.words // 10 :])):  # 90% in common
            path = work / f"list{n}.txt"
            path.write_text("\n".join(chosen) + "\n", "utf-8")
            lists.append(path)
        out = work / "lexicons"
        failed_builds = unloadable = waited = 0
        for trial in range(1, args.trials + 1):
            procs = [
                subprocess.Popen(
                    [*lextools, "build", args.edition, "--source", str(p), "--out", str(out)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    text=True,
                )
                for p in lists
            ]
            for proc in procs:
                _, err = proc.communicate(timeout=600)
                if proc.returncode != 0:
                    failed_builds += 1
                    print(f"trial {trial}: build failed: {err.strip().splitlines()[-1:]}", file=sys.stderr)
                waited += "waiting" in err
            try:
                load_lexicon(args.edition, out)
            except LexiconError as e:
                unloadable += 1
                print(f"trial {trial}: the lexicon does not load: {e}", file=sys.stderr)
            print(f"\rtrial {trial}/{args.trials}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)

    print(f"{'trials':<28}{args.trials:>8}")
    print(f"{'builds failed':<28}{failed_builds:>8}")
    print(f"{'lexicon did not load':<28}{unloadable:>8}")
    print(f"{'second build waited':<28}{waited:>8}")
    return 1 if failed_builds or unloadable else 0


if __name__ == "__main__":
    sys.exit(main())
