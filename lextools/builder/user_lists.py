"""Building a lexicon from word lists a user supplies (``lextools build E --source LIST``).

The CLI, the tests' fixtures and the benchmarks build through :func:`build_from_lists`, so every
lexicon they make went through the guard, the build lock and the provenance sidecar, as a user's does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Unpack

from lextools.builder.filters import SourceWord, rules_named, words_of
from lextools.builder.guard import BuildOptions, BuildSource, build_lexicon
from lextools.core.edition import Edition
from lextools.core.errors import path_text
from lextools.core.inputs import read_input
from lextools.core.wordlist import WordList

#: The filter rules of a build from lists when none are named.
DEFAULT_RULES = ("one-tile",)


def build_from_lists(
    home: Path,
    edition: Edition,
    lists: Sequence[WordList],
    rules: Sequence[str] = DEFAULT_RULES,
    **options: Unpack[BuildOptions],
) -> dict[str, Any]:
    """Build ``edition`` into ``home`` from lists already read (:func:`lextools.core.wordlist.read_list`,
    or :meth:`WordList.of` for words in memory) under the named filter rules; returns the metadata.

    Refused like every build (:mod:`lextools.builder.guard`): a list with no words, a result with no
    words, or one that loses over a fifth of the lexicon it replaces unless ``force``. The ``options``
    are :func:`~lextools.builder.guard.build_lexicon`'s.
    """
    sources = [
        BuildSource(path_text(wl.path), user_source(wl), partial(_user_words, wl), expected=_count(wl)) for wl in lists
    ]
    chosen = rules_named(list(rules))
    return build_lexicon(home, edition, sources, chosen, **options)


def _count(wl: WordList) -> int:
    """The words of a list: its lines (blank lines and comments are already dropped)."""
    return wl.lines.count(b"\n") + 1 if wl.lines else 0


def _user_words(wl: WordList) -> Iterator[SourceWord]:
    return words_of(wl.iter_words(), wl.path.name, frozenset({"user-list"}))


def user_source(wl: WordList) -> dict[str, Any]:
    """What the lexicon's metadata records of a list: its name, path, checksum and encoding. A list
    made in memory (no file at its path) is checksummed as its words."""
    raw = read_input(wl.path, gz=False) if wl.path.is_file() else wl.lines
    return {
        "name": path_text(Path(wl.path.name)),
        "path": path_text(wl.path.resolve()),
        "sha256": hashlib.sha256(raw).hexdigest(),
        "bytes": len(raw),
        "encoding": wl.encoding,
        "licence": None,
        "origin": "supplied by the user",
    }
