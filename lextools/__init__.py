"""lextools: Scrabble lexicons per edition — normalise, tokenise into tiles, filter, build, query.

>>> from lextools import load_edition, spell
>>> es = load_edition("es-fise")
>>> spell("chiquillo", es).tiles
('CH', 'I', 'Q', 'U', 'I', 'LL', 'O')
>>> es.score(spell("chiquillo", es).tiles)
22
"""

from __future__ import annotations

from lextools.core.edition import Edition, edition_names, load_edition
from lextools.core.errors import (
    CorruptLexiconError,
    LexiconError,
    LexiconNotFoundError,
    QueryError,
    SourceError,
    SpellingError,
    UnknownEditionError,
)
from lextools.core.spelling import Spelling, spell

__version__ = "0.1.0"

__all__ = [
    "CorruptLexiconError",
    "Edition",
    "LexiconError",
    "LexiconNotFoundError",
    "QueryError",
    "SourceError",
    "Spelling",
    "SpellingError",
    "UnknownEditionError",
    "__version__",
    "edition_names",
    "load_edition",
    "spell",
]
