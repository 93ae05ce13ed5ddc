"""Comparing word sets: a build against a reference list (precision, recall), and two lexicons.

Both sides are read into one edition's lexicon keys, so ``canción`` in one list and ``CANCION``
in the other are the same word, and lengths are counted in tiles (CHA is a two-tile word).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from lextools.edition import Edition, edition_names
from lextools.errors import QueryError, SpellingError
from lextools.lexicon import load_lexicon
from lextools.tokenize import spell
from lextools.wordlist import read_words


@dataclass(frozen=True)
class WordSet:
    label: str
    edition: Edition
    keys: frozenset[str]
    unspellable: int = 0  # list words the edition cannot spell (not counted on either side)


def open_word_set(arg: str, edition: Edition | None, home: Path | None) -> WordSet:
    """An edition name (its built lexicon), a lexicon metadata file, or a word list file."""
    path = Path(arg)
    if arg in edition_names() and not path.exists():
        lex = load_lexicon(arg, home)
        return WordSet(arg, lex.edition, frozenset(lex.keys()))
    if path.suffix == ".json" and path.exists():
        lex = load_lexicon(path.stem, path.parent)
        return WordSet(str(path), lex.edition, frozenset(lex.keys()))
    if edition is None:
        raise QueryError(f"{arg} is a word list: say which edition reads it (--edition)")
    keys, bad = set(), 0
    for raw in read_words(path):
        try:
            keys.add(spell(raw, edition).key)
        except SpellingError:
            bad += 1
    return WordSet(str(path), edition, frozenset(keys), bad)


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


@dataclass(frozen=True)
class DiffRow:
    length: int
    added: int
    removed: int


def diff(a: WordSet, b: WordSet) -> tuple[list[DiffRow], list[str], list[str]]:
    """Words in B not in A (added) and in A not in B (removed), compared by plain spelling."""
    tiles_a = {a.edition.spelling(k): len(k) for k in a.keys}
    tiles_b = {b.edition.spelling(k): len(k) for k in b.keys}
    added, removed = sorted(tiles_b.keys() - tiles_a.keys()), sorted(tiles_a.keys() - tiles_b.keys())
    ca, cr = Counter(tiles_b[w] for w in added), Counter(tiles_a[w] for w in removed)
    rows = [DiffRow(n, ca[n], cr[n]) for n in sorted(set(ca) | set(cr))]
    return rows, added, removed
