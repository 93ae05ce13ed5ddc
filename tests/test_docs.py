"""The docs: the generated reference pages are current, every relative link reaches its file (and
heading), and the README stays a short manual."""

from __future__ import annotations

import importlib
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", ROOT / "bench" / "README.md", *ROOT.joinpath("docs").rglob("*.md")])

#: [text](target) and ![alt](target), not inside code; the target up to a space or the closing parenthesis.
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")
#: A file or folder of the repository named in code (`service/limits.py`), with a trailing punctuation mark.
REPO_PATH = re.compile(r"`((?:lextools|service|scripts|tests|bench|deploy|build|sources|docs|\.ci)/[^`\s]*)`")
#: A module, class or function of ours named in code (`lextools.core.conditions`, `service.create_app()`).
DOTTED = re.compile(r"`((?:lextools|service)(?:\.\w+)+)(?:\(\))?`")
#: Dotted names that are not Python objects: the entry-point group other packages add commands through.
NOT_OBJECTS = {"lextools.commands"}
#: A placeholder in a path (`build/E.toml`, `sources/NAME.toml`): not a file of its own.
PLACEHOLDER = re.compile(r"(?:^|/)(?:E|NAME|DIR)(?:\.|$)")


def test_the_reference_pages_are_current() -> None:
    """docs/cli.md and docs/api.md are what scripts/docs writes from --help and /v1/openapi.json."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "reference.py"), "--check"],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.strip() or done.stdout.strip()


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_reaches_a_file(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no file {file.relative_to(ROOT) if file.is_relative_to(ROOT) else file}")
        elif fragment and file.suffix == ".md" and fragment not in anchors(file):
            broken.append(f"{target}: no heading #{fragment} in {file.relative_to(ROOT)}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_the_page_names_exists(page: Path) -> None:
    """A path such as `service/limits.py` in a page names a file or folder of the repository (a glob
    names at least one): when code moves, the pages that point at it fail here, not later."""
    missing = []
    for named in REPO_PATH.findall(page.read_text("utf-8")):
        path = named.rstrip(".,;:")
        if PLACEHOLDER.search(path):
            continue
        found = any(ROOT.glob(path)) if any(c in path for c in "*?[") else (ROOT / path).exists()
        if not found:
            missing.append(path)
    assert not missing, f"{page.relative_to(ROOT)} names files that do not exist: {', '.join(missing)}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_module_the_page_names_exists(page: Path) -> None:
    """`lextools.core.conditions` or `lextools.cli.lazy.Plain` in a page is a module, or an
    attribute of one, that can be imported."""
    named = set(DOTTED.findall(page.read_text("utf-8"))) - NOT_OBJECTS
    missing = sorted(name for name in named if not importable(name))
    assert not missing, f"{page.relative_to(ROOT)} names what cannot be imported: {', '.join(missing)}"


def test_the_readme_is_a_short_manual() -> None:
    lines = (ROOT / "README.md").read_text("utf-8").splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines: move detail into docs/"
    text = "\n".join(lines)
    for needed in ("scripts/run", "scripts/test", ".venv/bin/lextools", "/search", "/study", "/judge", "/director"):
        assert needed in text, needed


def test_ci_runs_the_readme_s_test_command() -> None:
    assert "exec scripts/test" in (ROOT / ".ci" / "run").read_text("utf-8")
    assert "scripts/test" in (ROOT / "README.md").read_text("utf-8")


def test_links_and_anchors_are_read_as_github_does() -> None:
    assert github_anchor("GET /v1/{edition}/search") == "get-v1editionsearch"
    assert github_anchor("The `lextools` command, step 1") == "the-lextools-command-step-1"
    assert links_in("see [a](b.md#c) and `[not](a link)`\n```\n[nor](this)\n```\n") == ["b.md#c"]
    assert REPO_PATH.findall("`service/limits.py`, `build/E.toml` and `lextools.core`") == [
        "service/limits.py",
        "build/E.toml",
    ]
    assert PLACEHOLDER.search("build/E.toml") and not PLACEHOLDER.search("service/errors.py")
    assert DOTTED.findall("`service.create_app()` and `lextools.core.edition.load_edition`") == [
        "service.create_app",
        "lextools.core.edition.load_edition",
    ]
    assert importable("lextools.core.edition.load_edition") and not importable("lextools.core.edition.nothing")
    assert not importable("lextools.nothing.here")


def importable(name: str) -> bool:
    """The longest module prefix of ``name`` imports, and the rest are attributes, one inside the other."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        module = ".".join(parts[:end])
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:  # a parent is a module, not a package
            found = False
        if found:
            break
    else:
        return False
    thing: object = importlib.import_module(module)
    for attribute in parts[end:]:
        if not hasattr(thing, attribute):
            return False
        thing = getattr(thing, attribute)
    return True


def links(page: Path) -> list[str]:
    return links_in(page.read_text("utf-8"))


def links_in(text: str) -> list[str]:
    return LINK.findall(CODE.sub("", FENCE.sub("", text)))


def anchors(page: Path) -> set[str]:
    """The fragment each heading of ``page`` gets on GitHub (a repeated one gets -1, -2, …)."""
    seen: dict[str, int] = {}
    found = set()
    for line in FENCE.sub("", page.read_text("utf-8")).splitlines():
        heading = re.match(r"#{1,6} (.+)", line)
        if heading:
            anchor = github_anchor(heading.group(1))
            found.add(anchor if anchor not in seen else f"{anchor}-{seen[anchor]}")
            seen[anchor] = seen.get(anchor, 0) + 1
    return found


def github_anchor(heading: str) -> str:
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")
