"""The builder: sources and their readers, filter rules, compiling words into a lexicon, the guard
and the lock around writing it, the recipes of the default lexicons. It imports only ``core``.

Two entry points: :func:`build_from_lists` (a user's lists) and :func:`build_default` (a recipe of
``build/``, from the open sources of ``sources/``).
"""

from lextools.builder.recipes import build_default
from lextools.builder.user_lists import build_from_lists

__all__ = ["build_default", "build_from_lists"]
