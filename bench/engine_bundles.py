"""Check by hand: MAGPIE, built from its repository, loads lextools' bundles as they come.

Run from the repository root with the project's venv, MAGPIE built elsewhere (``make magpie
BUILD=release`` in a clone of jvc56/MAGPIE; nothing of it is in this repository, and CI has no
network to fetch it)::

    python -m bench.engine_bundles --magpie ~/MAGPIE/bin/magpie                       # es-fise and en
    python -m bench.engine_bundles --magpie ~/MAGPIE/bin/magpie --lexicons D es-fise en es-na103 fr

For each edition it runs ``lextools export E --for magpie -o DIR`` (the command, in a subprocess),
checks the letter distribution against ``lextools editions --json`` (every tile with its count and
score, the blanks), then runs the exact command of the bundle's README in DIR — and the same settings
with other racks (a digraph tile and a blank where the edition has one) — and checks that MAGPIE
printed moves, that every word it shows is valid in the lexicon, and that no ``(error`` appears
(MAGPIE exits 0 after an error). Nothing in DIR is written by hand. Exit 0 when every check passes.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from lextools.core.lexicon import default_home, load_lexicon

CLI = [sys.executable, "-c", "from lextools.cli.main import main; main()"]
#: A move line of MAGPIE's move table: rank, square, the word (tiles beside it are the leave).
MOVE = re.compile(r"\b(\d+):\s+(\d+[A-O]|[A-O]\d+)\s+(\S+)")
SHOWING = re.compile(r"Showing \d+ of (\d+) plays")
#: Racks beyond the README's: a digraph tile and a blank where the edition has them.
EXTRA_RACKS = {"es-fise": ["[CH]AIQU?E", "[LL]AEOR?"], "es-na103": ["[LL]AEOR?", "KAEILS?"], "en": ["AEINRS?"]}


def lextools(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *map(str, args)], capture_output=True, text=True, check=False)


def distribution_matches(bundle: Path, edition: str) -> list[str]:
    """Problems of the bundle's letter distribution against ``lextools editions --json``."""
    (csv_path,) = (bundle / "data" / "letterdistributions").glob("*.csv")
    rows = list(csv.reader(csv_path.read_text("utf-8").splitlines()))
    ed = next(e for e in json.loads(lextools("editions", "--json").stdout) if e["name"] == edition)
    expected = {t["label"]: (t["count"], t["value"]) for t in ed["tiles"]} | {"?": (ed["blanks"], 0)}
    found = {r[0]: (int(r[2]), int(r[3])) for r in rows if not r[0].startswith("_")}
    unused = [r for r in rows if r[0].startswith("_") and int(r[2]) != 0]
    problems = [
        f"{label}: bundle {found.get(label)}, editions {want}"
        for label, want in expected.items()
        if found.get(label) != want
    ]
    problems += [f"extra tile {label}" for label in found.keys() - expected.keys()]
    return problems + [f"unused number with tiles: {r}" for r in unused]


def readme_command(bundle: Path, magpie: Path) -> tuple[str, str]:
    """The README's MAGPIE command, with MAGPIE's path put in, and its ``set`` line."""
    text = (bundle / "README.md").read_text("utf-8")
    (line,) = [ln for ln in text.splitlines() if ln.startswith("printf ")]
    settings = re.search(r"printf '(set [^\\]*)\\n", line)
    assert settings is not None, line
    return line.replace("MAGPIE/bin/magpie", str(magpie)), settings.group(1)


def run_magpie(command: str, bundle: Path) -> str:
    done = subprocess.run(["bash", "-c", command], cwd=bundle, capture_output=True, text=True, timeout=300, check=False)
    return done.stdout + done.stderr


def check_moves(output: str, lexicon_home: Path, edition: str) -> tuple[int, list[str]]:
    """The number of plays MAGPIE found, and the problems of its output."""
    lex = load_lexicon(edition, lexicon_home)
    problems = [line.strip() for line in output.splitlines() if "(error" in line]
    moves = [m.group(3) for m in MOVE.finditer(output)]
    showing = SHOWING.search(output)
    if not moves or showing is None:
        problems.append("no move generated")
    for word in moves:
        if word in ("pass",) or word.startswith("(exch"):
            continue
        if not lex.lookup(word.upper()).valid:
            problems.append(f"{word}: not a word of {edition}")
    return (int(showing.group(1)) if showing else 0), problems


def check_edition(edition: str, magpie: Path, lexicon_home: Path, work: Path) -> bool:
    bundle = work / edition
    done = lextools("export", edition, "--for", "magpie", "-o", bundle, "--lexicons", lexicon_home)
    if done.returncode != 0:
        print(f"{edition}: export failed: {done.stderr.strip()}")
        return False
    ok = True
    for problem in distribution_matches(bundle, edition):
        print(f"{edition}: letter distribution: {problem}")
        ok = False
    command, settings = readme_command(bundle, magpie)
    racks = [("README", command)]
    racks += [
        (rack, f"printf '{settings}\\nr {rack}\\ng\\n' | {magpie} set -mode sync")
        for rack in EXTRA_RACKS.get(edition, [])
    ]
    for label, cmd in racks:
        plays, problems = check_moves(run_magpie(cmd, bundle), lexicon_home, edition)
        print(f"{edition}: {label}: {plays:,} plays" + ("" if not problems else f"; {'; '.join(problems[:5])}"))
        ok = ok and not problems
    written_by_magpie = sorted(p.name for p in bundle.rglob("*") if p.is_file() and p.name == "settings.txt")
    if written_by_magpie:
        print(f"{edition}: MAGPIE wrote {written_by_magpie} despite -savesettings false")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("editions", nargs="*", default=["es-fise", "en"])
    parser.add_argument("--magpie", type=Path, required=True, help="MAGPIE's executable (bin/magpie)")
    parser.add_argument("--lexicons", type=Path, default=None, help="lexicon directory [default: lextools']")
    parser.add_argument("--keep", type=Path, default=None, help="write the bundles here and keep them")
    args = parser.parse_args()
    home = args.lexicons or default_home()
    with tempfile.TemporaryDirectory(prefix="engine-bundles-") as tmp:
        work = args.keep or Path(tmp)
        results = [check_edition(e, args.magpie.resolve(), home, work) for e in args.editions]
    print("all checks passed" if all(results) else "FAILED")
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
