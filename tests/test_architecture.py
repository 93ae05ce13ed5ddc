"""The architecture's rules that no linter states: short procedures, a look-up path without the
build, and explanations that need nothing of the build (docs/architecture.md). The import layers
themselves are import-linter's contracts (pyproject.toml), checked by scripts/test."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lextools.builder.filters import RULES
from lextools.core.messages import catalogue

ROOT = Path(__file__).resolve().parents[1]
#: The longest a function may be, in lines (docstring included): a procedure longer than a screen
#: is split where its steps are.
MAX_LINES = 60


def _functions() -> list[tuple[str, int]]:
    found = []
    for path in sorted([*ROOT.glob("lextools/**/*.py"), *ROOT.glob("service/**/*.py")]):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                found.append((f"{path.relative_to(ROOT)}:{node.lineno} {node.name}", node.end_lineno - node.lineno + 1))
    return found


def test_no_procedure_is_longer_than_a_screen() -> None:
    functions = _functions()
    assert len(functions) > 500  # the walk found the code
    assert [f"{where} ({n} lines)" for where, n in functions if n > MAX_LINES] == []


def test_the_library_starts_threads_in_one_place() -> None:
    """The library's threads only through lextools.core.background; handing freed memory back to the
    system only through lextools.core.memory, in the library and the service (its arbiter calls it)."""

    def using(pattern: str, *folders: str) -> list[str]:
        modules = sorted(p for folder in folders for p in ROOT.glob(f"{folder}/**/*.py"))
        return [str(p.relative_to(ROOT)) for p in modules if re.search(pattern, p.read_text("utf-8"))]

    assert using(r"threading\.Thread\b", "lextools") == ["lextools/core/background.py"]
    assert using(r"\bctypes\b", "lextools", "service") == ["lextools/core/memory.py"]


def test_the_server_module_makes_no_lock_before_gevent_patches() -> None:
    """service.server patches with gevent, then imports the app: a module that makes a lock or a
    semaphore when imported (the background jobs', the quizzes' queue) must load only after that, or
    its locks are real ones, and a greenlet waiting on one blocks its whole worker until gunicorn
    kills it (a list made in the background did, 30 s later)."""
    makes_locks = ["lextools.core.background", "lextools.features.quiz.cache"]
    code = f"import service.server, sys; print(sorted(m for m in {makes_locks!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


LOOK_UP_PATH = ["service.api.words", "service.api.hot_routes", "lextools.features.explain", "lextools.features.answers"]


@pytest.mark.parametrize("module", LOOK_UP_PATH)
def test_the_look_up_path_loads_nothing_of_the_build(module: str) -> None:
    """Nor numpy, which only the build's sorts use (lextools/builder/study_files.py)."""
    build = "m.startswith('lextools.builder') or m.partition('.')[0] == 'numpy'"
    code = f"import {module}, sys; print(sorted(m for m in sys.modules if {build}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_importing_the_library_reads_no_package_data() -> None:
    """importlib.resources (tempfile, zipfile and more) loads when an edition or the message
    catalogue is first read, not with the look-up modules (issue 37); a look-up then reads them."""
    code = (
        "import lextools.core.lexicon, sys; print('importlib.resources' in sys.modules); "
        "from lextools import load_edition; print(load_edition('es-fise').name, 'importlib.resources' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.split("\n")[:2] == ["False", "es-fise True"]


def test_every_build_rule_has_its_text_in_the_catalogue() -> None:
    """Explanations name a rule by its catalogue text, in every language, without importing the build."""
    assert RULES
    assert [name for name in RULES if f"rule_{name}" not in catalogue()] == []
