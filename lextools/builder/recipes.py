"""Build recipes: which sources, which rules, for each default lexicon (``build/<edition>.toml``).

A recipe::

    edition = "es-fise"
    sources = ["rla-es"]                     # descriptors in sources/
    rules = ["one-tile", "proper-noun", …]   # lextools.builder.filters.RULES, applied in this order
    notes = "why these choices"
    # a recipe naming the source "fise-lists" (FISE's lemma lists, lextools.builder.fise_source) says where
    # they are and what a word no open source decides takes: the command's --fise-lists and
    # --fise-update set the first two
    fise_lists = "/path/to/the/folder"
    fise_updates = ["/path/to/a/later/revision"]
    undecided_plurals = "plural"             # or "singular"

A source of format ``reviewed`` (see :mod:`lextools.builder.review`) adds its rule after the recipe's: on the
lengths it covers, only the words it keeps. A house-rules build copies a recipe and leaves a rule
out. Letters without a tile (K, W in es-fise) need no rule: the edition's tiles cannot spell them,
and the report counts them as ``letter-without-tile``.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from itertools import chain, islice, repeat
from operator import is_, itemgetter
from pathlib import Path
from typing import Any

from lextools.builder.compile import SpelledBatches, batches_shared
from lextools.builder.filters import SourceWord, rules_named
from lextools.builder.fise_source import FORMAT as FISE_FORMAT
from lextools.builder.fise_source import configure as configure_fise
from lextools.builder.guard import BuildSource, SourceStart, build_lexicon
from lextools.builder.read import read_source
from lextools.builder.review import review_rule
from lextools.core.edition import load_edition
from lextools.core.errors import LexiconError, SourceError, path_text
from lextools.core.lexicon import read_metadata
from lextools.core.sources import Source, load_source, project_dir, read_toml


@dataclass(frozen=True)
class Recipe:
    edition: str
    sources: tuple[str, ...]
    rules: tuple[str, ...]
    notes: str = ""
    #: the settings of a ``fise-lists`` source (:data:`FISE_SETTINGS`)
    settings: dict[str, Any] = field(default_factory=dict)


#: The recipe keys a ``fise-lists`` source reads (:func:`lextools.builder.fise_source.configure`).
FISE_SETTINGS = ("fise_lists", "fise_updates", "undecided_plurals", "plural_evidence")


def fise_recipe(edition: str, settings: dict[str, Any]) -> Recipe:
    """The recipe of ``lextools build E --fise-lists DIR``: FISE's lists alone (one-tile words are no play)."""
    notes = "FISE's lemma lists, every form under the FISE rules"
    rules = (
        "one-tile", "fise-infinitive-only", "fise-participle", "fise-impersonal", "fise-imperative",
        "fise-se-infinitive", "fise-no-plural", "fise-defective",
    )  # fmt: skip
    return Recipe(edition, ("fise-lists",), rules, notes, settings)


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
    settings = {key: data[key] for key in FISE_SETTINGS if key in data}
    if "fise_lists" in settings:  # a folder named in a recipe is relative to the recipe
        settings["fise_lists"] = str(path.parent / settings["fise_lists"])
        settings["fise_updates"] = [str(path.parent / u) for u in settings.get("fise_updates", [])]
    return Recipe(data["edition"], tuple(data["sources"]), tuple(data["rules"]), data.get("notes", ""), settings)


class SharedSources:
    """Source words read once per build and kept while a later recipe of the build still needs them.

    The three Spanish recipes share their sources, and expanding the hunspell dictionary is most of
    the time of a default build, so a build of all five editions reads it once instead of three
    times. What no later recipe needs is streamed, never kept; what is kept is the source words
    themselves (tuples), each distinct affix list and tag set held once (a dictionary's forms share a
    few of each), given again as they are.
    """

    def __init__(self, recipes: Iterable[Recipe]) -> None:
        recipes = list(recipes)
        self._uses = Counter(name for r in recipes for name in r.sources)
        self._kept: dict[str, list[SourceWord]] = {}
        self._readers = Counter(r.sources for r in recipes)
        self._spelled: dict[tuple[str, ...], SpelledBatches] = {}

    def spelled(self, recipe: Recipe) -> SpelledBatches:
        """The batches spelled by the recipes of this build reading the same sources (the Spanish
        ones), for this recipe's build: kept while a later recipe reads them too."""
        self._readers[recipe.sources] -= 1
        later = self._readers[recipe.sources] > 0
        batches = self._spelled.pop(recipe.sources, None) or SpelledBatches()
        if later:
            self._spelled[recipe.sources] = batches
        batches.storing = later
        return batches

    def expected(self, name: str) -> int | None:
        """The words of a source already read in this build, if it is kept."""
        packed = self._kept.get(name)
        return None if packed is None else len(packed)

    def read(self, source: Source) -> Iterable[SourceWord]:
        self._uses[source.name] -= 1
        later = self._uses[source.name] > 0
        packed = self._kept.get(source.name) if later else self._kept.pop(source.name, None)
        if packed is not None:
            return iter(packed)
        return self._keep(source) if later else read_source(source)

    def _keep(self, source: Source) -> Iterator[SourceWord]:
        """The source's words as read (so the build's progress moves), kept once they are all read."""
        return chain.from_iterable(self._keep_chunks(source))

    def _keep_chunks(self, source: Source) -> Iterator[list[SourceWord]]:
        """The source's words a chunk at a time, each chunk packed (with no Python per word) once given."""
        once: dict[Any, Any] = {}
        packed: list[SourceWord] = []
        words = read_source(source)
        while chunk := list(islice(words, _CHUNK)):
            yield chunk
            affixes, tags = list(map(_AFFIXES, chunk)), list(map(_TAGS, chunk))
            held_affixes, held_tags = (
                list(map(once.setdefault, affixes, affixes)),
                list(map(once.setdefault, tags, tags)),
            )
            if all(map(is_, held_affixes, affixes)) and all(map(is_, held_tags, tags)):
                packed += chunk  # each affix list and tag set already the one held (a hunspell source's)
                continue
            fields = zip(
                map(_RAW, chunk),
                map(_SOURCE, chunk),
                map(_STEM, chunk),
                held_affixes,  # each distinct affix list and tag set held once
                held_tags,
                strict=True,
            )
            packed += map(tuple.__new__, repeat(SourceWord), fields)
        self._kept[source.name] = packed


#: Words of a kept source packed at a time (:meth:`SharedSources._keep_chunks`).
_CHUNK = 10_000
_RAW, _SOURCE, _STEM, _AFFIXES, _TAGS = (itemgetter(i) for i in range(5))


def build_default(
    edition_name: str,
    home: Path,
    progress: Callable[[int], None] | None = None,
    recipe: Recipe | None = None,
    *,
    force: bool = False,
    wait: bool = True,
    on_wait: Callable[[str], None] | None = None,
    shared: SharedSources | None = None,
    on_source: SourceStart | None = None,
) -> dict[str, Any]:
    """Build an edition's lexicon from its recipe (the default one unless given); returns the metadata.

    ``on_source`` is told of each source as it is read, with the words expected of it: as many as this
    build already read from it (a shared source), else as the lexicon it replaces read, else unknown.
    """
    recipe = recipe or load_recipe(edition_name)
    edition = load_edition(recipe.edition)
    rules = rules_named(recipe.rules)
    sources = [load_source(n) for n in recipe.sources]
    # FISE's lists are read from the folder the build names: their files and forms are known only now
    sources = [configure_fise(s, recipe.settings) if s.format == FISE_FORMAT else s for s in sources]
    reviews = [s for s in sources if s.format == "reviewed"]
    if reviews:  # the hand review of short words has the last word on their lengths
        rules.append(review_rule(reviews, edition))
    read = shared.read if shared else read_source
    before = _read_before(home, edition.name)
    spelled = shared.spelled(recipe) if shared else None  # the Spanish editions spell their batches once
    with batches_shared(spelled) if spelled else contextlib.nullcontext():
        return build_lexicon(
            home,
            edition,
            [
                BuildSource(
                    f"source {s.name}",
                    s.describe(),
                    partial(read, s),
                    expected=(shared.expected(s.name) if shared else None) or before.get(s.name),
                )
                for s in sources
            ],
            rules,
            force=force,
            wait=wait,
            on_wait=on_wait,
            progress=progress,
            on_source=on_source,
        )


def _read_before(home: Path, edition: str) -> dict[str, int]:
    """The words each source gave the lexicon this build replaces (its metadata's ``read``), by source name."""
    try:
        sources = read_metadata(home, edition).get("sources", [])
    except LexiconError:
        return {}
    return {s["name"]: s["read"] for s in sources if isinstance(s.get("read"), int) and "name" in s}
