"""The lists that teach which a build makes once, beside the lexicon: the stems lists
(:mod:`lextools.core.stems`, its format and reader). Ranking them takes a pass over the words of 7 and
8 tiles, seconds in a worker of the service; in the build it is one step more among the study files.
"""

from __future__ import annotations

from collections.abc import Sequence

from lextools.core import stems
from lextools.core.edition import Edition
from lextools.core.lexicon import alphagrammer


def stems_bytes(edition: Edition, keys: Sequence[str], order: str) -> bytes:
    """The stems file of these keys, ``order`` the lexicon's alphagram order."""
    return stems.file_bytes(edition, keys, alphagrammer(order))
