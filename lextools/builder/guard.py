"""Guarded builds: a build may only replace a live lexicon with one that is plausibly better.

A club often builds into the directory its service reads, during a tournament. A list that turns out
empty (a truncated download, a list in an unreadable encoding, the wrong file) would otherwise become
a lexicon of no words, and every challenge would fail. So :func:`build_lexicon` refuses, before
anything is written and with the live lexicon untouched, when:

- any source yields no words (every source of a build is expected to contribute);
- the result has no words;
- the result would lose more than :data:`MAX_LOSS` of the words of the lexicon it replaces —
  unless ``force`` is given (a deliberate house-rules cut).

Every build — a recipe's (:mod:`lextools.builder.recipes`) or a user's list (``lextools build --source``)
— goes through :func:`build_lexicon`, so every one also takes the edition's build lock.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from typing import Any, TypedDict

from lextools.builder.compile import BuildReport, compile_words, cyclic_gc_paused, write_lexicon
from lextools.builder.filters import Rule, SourceWord
from lextools.builder.provenance import Provenance
from lextools.builder.read import headwords_kept
from lextools.core.edition import Edition
from lextools.core.errors import BuildRefusedError, path_text

#: The largest share of the replaced lexicon's words a build may lose without ``force``.
MAX_LOSS = 0.20

#: Told as a build starts reading each source: its label, the words expected of it (None when unknown),
#: and the words read before it (``progress`` counts the words read from all the sources so far).
SourceStart = Callable[[str, "int | None", int], None]


class BuildOptions(TypedDict, total=False):
    """The keyword options of :func:`build_lexicon`, for the builds that pass them on to it."""

    force: bool
    wait: bool
    on_wait: Callable[[str], None] | None
    progress: Callable[[int], None] | None
    on_source: SourceStart | None


@dataclass(frozen=True)
class BuildSource:
    """One source of a build: its name for messages, what the metadata records, its words, and how many
    words it is expected to yield when that is known (a list's line count, the last build's count)."""

    label: str
    description: dict[str, Any]
    words: Callable[[], Iterable[SourceWord]]
    expected: int | None = None


# No cyclic collection for a whole build (judging and writing each pause it too): resumed between
# them, its first passes walked every object the judging had made and kept.
@cyclic_gc_paused()
def build_lexicon(
    home: Path,
    edition: Edition,
    sources: Sequence[BuildSource],
    rules: Sequence[Rule],
    *,
    force: bool = False,
    wait: bool = True,
    on_wait: Callable[[str], None] | None = None,
    progress: Callable[[int], None] | None = None,
    on_source: SourceStart | None = None,
) -> dict[str, Any]:
    """Compile the sources and commit the lexicon unless a guard refuses; returns the metadata, which
    records for each source the words read from it (``read``: the next build's expected count)."""
    read: list[int] = []

    def each_source() -> Iterator[Iterable[SourceWord]]:
        # chain() asks for a source's words when the last one's are all read: no Python code per word
        for source in sources:
            if on_source:
                on_source(source.label, source.expected, sum(read))
            counted = itertools.count()  # advanced by zip, in C
            yield map(itemgetter(0), zip(source.words(), counted, strict=False))  # (counted: endless)
            count = next(counted)
            if not count:
                raise BuildRefusedError(
                    f"{source.label} yields no words (an empty file, or only blank lines and comments); "
                    f"nothing was written to {path_text(home)}"
                )
            read.append(count)

    provenance = Provenance()  # which source gave each word, which rule dropped each form
    words = itertools.chain.from_iterable(each_source())
    with headwords_kept():  # the sources' evidence, read once however many ask for it, let go before writing
        keys, report = compile_words(words, edition, rules, progress=progress, provenance=provenance)
    if not keys:
        raise BuildRefusedError(
            f"the {edition.name} build has no words: {_dropped(report)}; nothing was written to {path_text(home)}"
        )

    def refuse(previous: dict[str, Any] | None) -> None:
        check_loss(previous, len(keys), force, home)

    return write_lexicon(
        home,
        edition,
        keys,
        report,
        [
            {**s.description, **provenance.contributions(s.description.get("name", "")), "read": n}
            for s, n in zip(sources, read, strict=True)
        ],
        rules,
        provenance=provenance,
        refuse=refuse,
        wait=wait,
        on_wait=on_wait,
    )


def check_loss(previous: dict[str, Any] | None, words: int, force: bool, home: Path) -> None:
    """Refuse a build that would lose more than MAX_LOSS of the words of the lexicon it replaces."""
    if previous is None or force:
        return
    before = int(previous["words"])
    if before and words < before * (1 - MAX_LOSS):
        raise BuildRefusedError(
            f"the new {previous['edition']} lexicon would have {words:,} words, {before - words:,} fewer than the "
            f"{before:,} of the one in {path_text(home)} (more than {MAX_LOSS:.0%} lost); it was left as it was. "
            "Rebuild with --force to replace it anyway"
        )


def _dropped(report: BuildReport) -> str:
    rules = ", ".join(f"{name} {r.count}" for name, r in report.dropped.items() if r.count)
    return f"{report.read:,} read, all dropped ({rules})" if rules else f"{report.read:,} read"
