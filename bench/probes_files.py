"""Hostile files (issue 23, item 7): each is refused before it costs much.

Run from the repository root with the project's venv::

    python -m bench.probes_files                   # the lexicon home (lextools default_home)
    python -m bench.probes_files --json figures.json

Each probe runs one ``lextools`` command in a child process on a file made in a temporary
directory and measures the command as a person would wait for it: wall time, CPU time (user + sys,
what the command itself spent: on a shared machine the wall time also holds the time it waited for
a core) and peak RSS (``wait4``). The files:

- ``cyclic KWG``: the es-fise words as a DAWG-only KWG (418 KB), with the last leaf of its path of
  last siblings pointed back at the list above it; ``lextools verify`` and ``lextools build
  --source`` must refuse it (exit 2) within 2 s of CPU and 200 MB;
- ``/dev/zero``, a FIFO and a 2 GB sparse file (``truncate``: holes, no disk used) as ``build
  --source``: refused at once (exit 2, within 1 s of CPU and 200 MB);
- ``over-long line``: a 32 MB list whose second line never ends: refused (exit 2) within 2 s of
  CPU and 200 MB.

Beside them, the same run's ``lextools build --help``: what any command costs to start. One line per
probe, ``probe: figures vs target — PASS/FAIL``; exit status 0 when every probe passes, 1 when one
fails, 2 when it cannot run here (no es-fise lexicon). Everything it makes is removed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import struct
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.harness import Unavailable, default_lexicons, require_lexicon, run_command
from lextools.core import kwg
from lextools.core.lexicon import load_lexicon
from lextools.features.export import export_bytes

#: Targets: CPU seconds and peak RSS of a refusal.
CPU_S = {"cyclic KWG": 2.0, "special file": 1.0, "over-long line": 2.0}
RSS_MB = 200


def measure(args: Sequence[str]) -> dict[str, Any]:
    """Run one command; its exit status, wall and CPU seconds, peak RSS in MB and the last line of stderr."""
    f = run_command(args)
    last = f.pop("stderr").decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
    return {**f, "says": last[0][:120]}


def cyclic_kwg(home: Path, folder: Path) -> Path:
    """The es-fise DAWG-only KWG with a leaf pointed back at an ancestor list."""
    data = export_bytes(load_lexicon("es-fise", home), "kwg", home=home)
    nodes = list(struct.unpack(f"<{len(data) // 4}I", data))
    lists = [nodes[0] & kwg.ARC_MASK]
    leaf = lists[0]
    while True:
        while not nodes[leaf] & kwg.IS_END:
            leaf += 1
        if not nodes[leaf] & kwg.ARC_MASK:
            break
        lists.append(nodes[leaf] & kwg.ARC_MASK)
        leaf = lists[-1]
    nodes[leaf] |= lists[-2]
    path = folder / "cyclic.kwg"
    path.write_bytes(struct.pack(f"<{len(nodes)}I", *nodes))
    return path


def files(home: Path, folder: Path) -> list[tuple[str, str, list[str]]]:
    """(probe, kind of target, command arguments) of every probe, its file made in ``folder``."""
    cyclic = cyclic_kwg(home, folder)
    fifo = folder / "list.fifo"
    os.mkfifo(fifo)
    sparse = folder / "huge.txt"
    with sparse.open("wb") as f:
        f.truncate(2 * 2**30)
    long_line = folder / "long.txt"
    with long_line.open("wb") as f:
        f.write(b"casa\n")
        for _ in range(32):
            f.write(b"a" * 2**20)
    out = str(folder / "D")
    build = ["build", "es-fise", "--lexicons", out, "--source"]
    return [
        (
            "cyclic KWG (418 KB), verify",
            "cyclic KWG",
            ["verify", str(cyclic), "--edition", "es-fise", "--lexicons", str(home)],
        ),
        ("cyclic KWG (418 KB), build --source", "cyclic KWG", [*build, str(cyclic)]),
        ("/dev/zero, build --source", "special file", [*build, "/dev/zero"]),
        ("FIFO, build --source", "special file", [*build, str(fifo)]),
        ("2 GB sparse file, build --source", "special file", [*build, str(sparse)]),
        ("over-long line (32 MB), build --source", "over-long line", [*build, str(long_line)]),
    ]


def run(home: Path) -> dict[str, Any]:
    require_lexicon(home, "es-fise")
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="probes_files.") as tmp:
        folder = Path(tmp)
        results["baseline: lextools build --help"] = measure(["build", "--help"])
        for probe, kind, args in files(home, folder):
            figures = measure(args)
            figures["target"] = f"exit 2, CPU <= {CPU_S[kind]} s, RSS <= {RSS_MB} MB"
            figures["passed"] = figures["exit"] == 2 and figures["cpu_s"] <= CPU_S[kind] and figures["rss_mb"] <= RSS_MB
            results[probe] = figures
    return results


def report(results: dict[str, Any]) -> bool:
    ok = True
    for probe, f in results.items():
        figures = f"exit {f['exit']}, {f['wall_s']} s wall, {f['cpu_s']} s CPU, {f['rss_mb']} MB peak"
        if "passed" not in f:
            print(f"{probe}: {figures}")
            continue
        ok &= f["passed"]
        print(f"{probe}: {figures} vs {f['target']} — {'PASS' if f['passed'] else 'FAIL'}  ({f['says']})")
    return ok


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lexicons", type=Path, default=None, help="lexicon home (default: lextools default_home)")
    ap.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = ap.parse_args(argv)
    try:
        results = run(args.lexicons or default_lexicons())
    except Unavailable as e:
        print(f"probes_files: cannot run: {e}", file=sys.stderr)
        return 2
    ok = report(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
