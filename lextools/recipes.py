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

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lextools.compile import compile_words, write_lexicon
from lextools.edition import load_edition
from lextools.errors import SourceError
from lextools.filters import SourceWord, rules_named
from lextools.provenance import Provenance
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
    data = read_toml(path)
    if data.get("edition") != edition:
        raise SourceError(f"{path} is the recipe of {data.get('edition')!r}, not {edition}")
    return Recipe(edition, tuple(data["sources"]), tuple(data["rules"]), data.get("notes", ""))


def build_default(
    edition_name: str, home: Path, progress: Callable[[int], None] | None = None, recipe: Recipe | None = None
) -> dict[str, Any]:
    """Build an edition's default lexicon from its recipe; returns the written metadata."""
    recipe = recipe or load_recipe(edition_name)
    edition = load_edition(recipe.edition)
    rules = rules_named(recipe.rules)
    sources = [load_source(n) for n in recipe.sources]
    reviews = [s for s in sources if s.format == "reviewed"]
    if reviews:  # the hand review of short words has the last word on their lengths
        rules.append(review_rule(reviews, edition))

    def words() -> Iterator[SourceWord]:
        for source in sources:
            yield from read_source(source)

    provenance = Provenance()
    keys, report = compile_words(words(), edition, rules, progress=progress, provenance=provenance)
    described = [{**s.describe(), **provenance.contributions(s.name)} for s in sources]
    return write_lexicon(home, edition, keys, report, described, rules, provenance=provenance)
