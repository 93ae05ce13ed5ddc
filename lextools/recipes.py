"""Build recipes: which sources, which rules, for each default lexicon (``build/<edition>.toml``).

A recipe::

    edition = "es-fise"
    sources = ["rla-es"]                     # descriptors in sources/
    rules = ["one-tile", "proper-noun", …]   # lextools.filters.RULES, applied in this order
    notes = "why these choices"

A source of format ``reviewed`` (see :mod:`lextools.review`) adds its rule after the recipe's: on the
lengths it covers, only the words it keeps. A house-rules build copies a recipe and leaves a rule
out. Letters without a tile (K, W in es-fise) need no rule: the edition's tiles cannot spell them,
and the report counts them as ``letter-without-tile``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from lextools.edition import load_edition
from lextools.errors import SourceError, path_text
from lextools.filters import rules_named
from lextools.guard import BuildSource, build_lexicon
from lextools.review import review_rule
from lextools.sources import load_source, project_dir, read_source, read_toml


@dataclass(frozen=True)
class Recipe:
    edition: str
    sources: tuple[str, ...]
    rules: tuple[str, ...]
    notes: str = ""


def load_recipe(edition: str, path: Path | None = None) -> Recipe:
    load_edition(edition)
    path = path or project_dir("build") / f"{edition}.toml"
    if not path.is_file():
        raise SourceError(f"no default recipe for {edition} ({path}); build it from a list with --source")
    recipe = read_recipe(path)
    if recipe.edition != edition:
        raise SourceError(f"{path} is the recipe of {recipe.edition!r}, not {edition}")
    return recipe


def read_recipe(path: Path) -> Recipe:
    """A recipe file anywhere (``lextools build --recipe FILE``): a house-rules copy of a default one."""
    if not path.is_file():
        raise SourceError(f"{path_text(path)}: no such recipe file")
    data = read_toml(path)
    for key in ("edition", "sources", "rules"):
        if key not in data:
            raise SourceError(f"{path_text(path)}: missing {key!r} (copy a recipe from build/ and edit it)")
    if not isinstance(data["edition"], str):
        raise SourceError(f'{path_text(path)}: edition must be a name such as "es-fise"')
    for key in ("sources", "rules"):
        if not isinstance(data[key], list) or not all(isinstance(v, str) for v in data[key]):
            raise SourceError(f"{path_text(path)}: {key} must be a list of names")
    load_edition(data["edition"])
    rules_named(data["rules"])  # an unknown rule fails here, before any source is read
    return Recipe(data["edition"], tuple(data["sources"]), tuple(data["rules"]), data.get("notes", ""))


def build_default(
    edition_name: str,
    home: Path,
    progress: Callable[[int], None] | None = None,
    recipe: Recipe | None = None,
    *,
    force: bool = False,
    wait: bool = True,
    on_wait: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Build an edition's lexicon from its recipe (the default one unless given); returns the metadata."""
    recipe = recipe or load_recipe(edition_name)
    edition = load_edition(recipe.edition)
    rules = rules_named(recipe.rules)
    sources = [load_source(n) for n in recipe.sources]
    reviews = [s for s in sources if s.format == "reviewed"]
    if reviews:  # the hand review of short words has the last word on their lengths
        rules.append(review_rule(reviews, edition))
    return build_lexicon(
        home,
        edition,
        [BuildSource(f"source {s.name}", s.describe(), partial(read_source, s)) for s in sources],
        rules,
        force=force,
        wait=wait,
        on_wait=on_wait,
        progress=progress,
    )
