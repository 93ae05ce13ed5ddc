"""Comparing word sets: a build against a reference list (precision, recall), and two lexicons.

Both sides are read into one edition's lexicon keys, so ``canción`` in one list and ``CANCION``
in the other are the same word, and lengths are counted in tiles (CHA is a two-tile word).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lextools.core.edition import Edition, edition_names
from lextools.core.errors import QueryError, SpellingError
from lextools.core.lexicon import load_lexicon
from lextools.core.spelling import spell
from lextools.core.wordlist import read_words

#: Unspellable words kept as examples per list.
EXAMPLES = 5


@dataclass(frozen=True)
class WordSet:
    label: str
    edition: Edition
    #: The keys: a set, or a lexicon's keys in the order read (key order) as a tuple — sorting them for
    #: :func:`diff` then costs a merge of runs, not a sort of a set's arbitrary order, and a diff,
    #: which reads them in order, never makes their set (:attr:`keys` makes it when first asked).
    given: frozenset[str] | tuple[str, ...]
    unspellable: int = 0  # list words the edition cannot spell (not counted on either side)
    unspellable_examples: tuple[str, ...] = ()

    @functools.cached_property
    def keys(self) -> frozenset[str]:
        """The keys as a set (made from :attr:`given` the first time, when it holds them in order)."""
        return self.given if isinstance(self.given, frozenset) else frozenset(self.given)

    @property
    def read_order(self) -> tuple[str, ...]:
        """The keys in the order read, when they were given so; else empty."""
        return self.given if isinstance(self.given, tuple) else ()


def open_word_set(arg: str, edition: Edition | None, home: Path | None) -> WordSet:
    """An edition name (its built lexicon), a lexicon metadata file, or a word list file."""
    path = Path(arg)
    if arg in edition_names() and not path.exists():
        lex = load_lexicon(arg, home)
        return WordSet(arg, lex.edition, tuple(lex.keys()))
    if path.suffix == ".json" and path.exists():
        lex = load_lexicon(path.stem, path.parent)
        return WordSet(str(path), lex.edition, tuple(lex.keys()))
    if edition is None:
        raise QueryError(f"{arg} is a word list: say which edition reads it (--edition)")
    keys: set[str] = set()
    examples: list[str] = []
    bad = 0
    for raw in read_words(path):
        try:
            keys.add(spell(raw, edition).key)
        except SpellingError:
            bad += 1
            if len(examples) < EXAMPLES:
                examples.append(raw)
    return WordSet(str(path), edition, frozenset(keys), bad, tuple(examples))


@dataclass(frozen=True)
class LengthRow:
    length: int
    built: int
    reference: int
    common: int

    @property
    def precision(self) -> float | None:
        return self.common / self.built if self.built else None

    @property
    def recall(self) -> float | None:
        return self.common / self.reference if self.reference else None


def precision_recall(built: frozenset[str], reference: frozenset[str]) -> list[LengthRow]:
    """Per length in tiles, plus a last row with length 0 for all lengths together."""
    b, r, c = Counter(map(len, built)), Counter(map(len, reference)), Counter(map(len, built & reference))
    rows = [LengthRow(n, b[n], r[n], c[n]) for n in sorted(set(b) | set(r))]
    rows.append(LengthRow(0, len(built), len(reference), len(built & reference)))
    return rows


def comparison(built: WordSet, reference: WordSet, missing: int = 0, extra: int = 0) -> dict[str, Any]:
    """What ``compare`` reports: the rows, the words neither side could spell, and examples on request.

    Recall is computed over the reference words the edition can spell; how many it could not is
    reported beside it, so a reference full of K words does not silently look smaller.
    """
    ed = built.edition
    report: dict[str, Any] = {
        "built": built.label,
        "reference": reference.label,
        "edition": ed.name,
        "by_length": [
            {
                "length": r.length or "all",
                "built": r.built,
                "reference": r.reference,
                "common": r.common,
                "precision": r.precision,
                "recall": r.recall,
            }
            for r in precision_recall(built.keys, reference.keys)
        ],
        "unspellable": {
            "built": {"count": built.unspellable, "examples": list(built.unspellable_examples)},
            "reference": {"count": reference.unspellable, "examples": list(reference.unspellable_examples)},
        },
    }
    for name, keys, limit in (
        ("missing", reference.keys - built.keys, missing),
        ("extra", built.keys - reference.keys, extra),
    ):
        if limit:
            report[name] = {"count": len(keys), "examples": [ed.spelling(k) for k in ed.sort_keys(keys)[:limit]]}
    return report


@dataclass(frozen=True)
class DiffRow:
    length: int
    added: int
    removed: int


def _spellings(ws: WordSet) -> tuple[Sequence[str], tuple[str, ...]]:
    """The plain spelling of every word of a set, and its keys in the same order (a lexicon's: key
    order): :func:`spellings` of them."""
    keys = ws.read_order or tuple(ws.keys)
    return spellings(ws.edition, keys), keys


def spellings(edition: Edition, keys: Sequence[str]) -> Sequence[str]:
    """The plain spelling of each key, in bulk. The keys are joined into one text (no key holds a
    line end), each tile whose key is not its label (CH = 1 in es-fise) replaced in it at once, and
    the text split again; an edition whose every tile's key is its label spells each word as its key."""
    changes = [(t.code, t.label) for t in edition.tiles if t.code != t.label]
    if not changes:
        return keys
    if any(code in label for code, _ in changes for _, label in changes):  # replacements would interfere
        return [edition.spelling(k) for k in keys]
    text = "\n".join(keys)
    for code, label in changes:
        text = text.replace(code, label)
    return text.split("\n") if keys else []


def diff(a: WordSet, b: WordSet) -> tuple[list[DiffRow], list[str], list[str]]:
    """Words in B not in A (added) and in A not in B (removed), compared by plain spelling.

    Each list is in the alphabetical order of the edition it comes from. Each side's spellings are
    made once, and the words in one side only found by one symmetric difference of their sets (C
    passes); only those words are told apart, spelled back into their edition's keys (a word's tiles
    are its spelling's: spelling is deterministic) and put in alphabetical order.
    """
    spelled_a, _ = _spellings(a)
    spelled_b, _ = _spellings(b)
    in_a = set(spelled_a)
    differ = in_a.symmetric_difference(spelled_b)
    new = b.edition.sort_keys(spell(w, b.edition).key for w in differ if w not in in_a)
    gone = a.edition.sort_keys(spell(w, a.edition).key for w in differ if w in in_a)
    added, removed = list(map(b.edition.spelling, new)), list(map(a.edition.spelling, gone))
    ca, cr = Counter(map(len, new)), Counter(map(len, gone))
    rows = [DiffRow(n, ca[n], cr[n]) for n in sorted(set(ca) | set(cr))]
    return rows, added, removed
