"""The docs: the generated reference pages are current."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_reference_pages_are_current() -> None:
    """docs/cli.md and docs/api.md are what scripts/docs writes from --help and /v1/openapi.json."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "reference.py"), "--check"],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.strip() or done.stdout.strip()
