"""The word card: everything a player studies about one word, on one card.

Its tiles and score, its alphagram, its probability rank among the words of its length in tiles, its
anagrams, its front and back hook tiles with the inner-hook dots (``·ALA·``: ALA minus its first
tile, LA, and minus its last, AL, are words), and why it is in the lexicon (the sources that list
it) or why it is not (the build rule that removed it, :mod:`lextools.features.explain`). The CLI's
``lextools card E WORD`` prints exactly what ``GET /v1/{edition}/card/{word}`` answers.
"""

from __future__ import annotations

from typing import Any

from lextools.core.lexicon import Lexicon
from lextools.core.ranking import rank_of
from lextools.features import answers
from lextools.features.explain import Sidecar, explain_result


def anagram_keys(lex: Lexicon, key: str) -> list[str]:
    """The keys spelled with exactly the tiles of ``key`` (itself too when it is a word), in the
    edition's alphabet."""
    target = sorted(key)
    found = [k for k in lex.blank_fills("?" * len(key), "".join(set(key))) if sorted(k) == target]
    return lex.edition.sort_keys(found)


def hooked(front_inner: bool, word: str, back_inner: bool) -> str:
    """The word between its inner-hook dots, as word lists print it: ``·ALA·``."""
    return ("·" if front_inner else "") + word + ("·" if back_inner else "")


def word_card(lex: Lexicon, word: str, lang: str = "en", sidecar: Sidecar | None = None) -> dict[str, Any]:
    """The card of ``word`` (any notation). A word the edition cannot spell raises its
    :class:`~lextools.core.errors.SpellingError`, as a look-up does; a word not in the lexicon gets a
    card too: its reason, its hooks and the words its tiles make.

    ``rank`` is ``{"rank", "of", "order"}``: the 1-based place among the ``of`` words of its length in
    tiles, in ``probability`` order (the likeliest draw first), or in ``alpha`` order where the
    edition's tile counts are unverified; null for a word not in the lexicon.
    """
    ed = lex.edition
    result = answers.spelled(lex, word)
    key = result.key or ""
    why = explain_result(lex, result, sidecar)
    hooks = lex.hooks(key)
    place = rank_of(lex, key) if result.valid else None
    alphagram = "".join(sorted(key, key=ed.collation_key))  # the tiles in the edition's alphabet
    card = answers.described(result, ed, lang, why)
    card.update(
        edition=ed.name,
        values=[ed.by_label[t].value for t in result.tiles],
        alphagram=ed.spelling(alphagram),
        alphagram_tiles=list(ed.decode(alphagram)),
        rank=None if place is None else {"rank": place[0], "of": place[1], "order": _order(lex)},
        anagrams=answers.entries(lex, [k for k in anagram_keys(lex, key) if k != key]),
        hooks={
            "front": list(hooks.front),
            "back": list(hooks.back),
            "front_inner": hooks.front_inner,
            "back_inner": hooks.back_inner,
            "hooked": hooked(hooks.front_inner, result.word or "", hooks.back_inner),
        },
        rule=why.rule,
        sources=list(why.sources),
    )
    return card


def _order(lex: Lexicon) -> str:
    return "probability" if lex.edition.has_counts else "alpha"
