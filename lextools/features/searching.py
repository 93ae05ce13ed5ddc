"""Kept only for ``lextools.cli.study``, which imports :func:`ranked_anagrams` from here: ranked
anagrams are a search of the core, :mod:`lextools.core.search.anagrams_by_probability`. This module goes once
that import names the core module."""

from lextools.core.search.anagrams_by_probability import ranked_anagrams

__all__ = ["ranked_anagrams"]
