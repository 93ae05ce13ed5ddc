"""The JSON answers to queries, built once for the service and the command line.

``lextools check … --json`` prints exactly the body ``POST /v1/{edition}/check`` returns, and so on
for anagrams, patterns (the service's search), hooks, score and the two-tile list: one function
builds each answer and both layers call it. Word lists are in the edition's alphabetical order
(:meth:`lextools.core.edition.Edition.sort_keys`); hook tiles too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lextools.core.edition import Edition
from lextools.core.errors import QueryError, SpellingError
from lextools.core.lexicon import Lexicon, WordResult
from lextools.core.messages import message
from lextools.core.spelling import spell
from lextools.features.explain import Explanation, Sidecar, explain_result, sidecar_for

if TYPE_CHECKING:
    from lextools.core import search


def entries(lex: Lexicon, keys: Iterable[str]) -> list[dict[str, Any]]:
    """Keys as words are shown: plain spelling and tile labels (CHA is CH·A, two tiles)."""
    ed = lex.edition
    return [{"word": ed.spelling(k), "tiles": list(ed.decode(k))} for k in keys]


def localized(result: WordResult, edition: Edition, lang: str = "en") -> dict[str, Any]:
    """A word result as a dict, its ``reason`` in ``lang`` (the message catalogue, lextools/messages.py)."""
    out = result.as_dict()
    if result.valid or lang == "en":
        return out
    if result.word is not None:
        out["reason"] = message("not_in_lexicon", word=result.word, edition=edition.name).text(lang)
        return out
    try:
        spell(result.input, edition)
    except SpellingError as e:
        out["reason"] = e.message.text(lang) if e.message is not None else e.reason
    return out


def check(lex: Lexicon, words: Sequence[str], lang: str = "en", home: Path | None = None) -> dict[str, Any]:
    """One result per word, in order; a word the edition cannot spell is invalid with its reason.

    With the lexicon's directory (``home``), an invalid word's reason names the rule that removed it
    and the source form it came from (:mod:`lextools.features.explain`); the sidecar that says so is read once
    for the whole batch, and only when a word needs it.
    """
    edition = lex.edition
    looked_up = lex.lookup_many(words)
    sidecar = _sidecar(lex, home, {r.key for r in looked_up if not r.valid and r.key is not None})
    results = [
        r.as_dict() if r.valid else described(r, edition, lang, _why(lex, r, home, sidecar))  # valid: most words
        for r in looked_up
    ]
    return {"edition": edition.name, "results": results}


def explained(lex: Lexicon, result: WordResult, lang: str = "en", home: Path | None = None) -> dict[str, Any]:
    """:func:`localized`, with the build's explanation as the reason of an invalid word it can tell."""
    asked = {result.key} if not result.valid and result.key is not None else set()
    return described(result, lex.edition, lang, _why(lex, result, home, _sidecar(lex, home, asked)))


def described(result: WordResult, edition: Edition, lang: str, why: Explanation | None) -> dict[str, Any]:
    """:func:`localized`, the reason being ``why``'s (:func:`lextools.features.explain.explain_result`) when
    the build told one (an invalid word's rule, in every language)."""
    if why is not None and why.message is not None:
        out = result.as_dict()
        out["reason"] = why.message.text(lang)
        return out
    return localized(result, edition, lang)


def _sidecar(lex: Lexicon, home: Path | None, keys: Collection[str]) -> Sidecar | None:
    """The sidecar to explain the invalid words of these keys with; None when there are none."""
    return None if home is None or not keys else sidecar_for(lex, home, keys)


def _why(lex: Lexicon, result: WordResult, home: Path | None, sidecar: Sidecar | None) -> Explanation | None:
    """The explanation of an invalid word the edition can spell, when there is a lexicon directory."""
    if home is None or result.valid or result.word is None:
        return None
    return explain_result(lex, result, sidecar)


def spelled(lex: Lexicon, word: str) -> WordResult:
    """Look a word up; one the edition cannot spell at all raises its :class:`SpellingError` (with the
    catalogue message the service words in the client's language)."""
    result = lex.lookup(word)
    if result.word is None:
        lex.spell(word)  # raises the SpellingError itself
        raise SpellingError(word, result.reason or "cannot be spelled")
    return result


def hook_tiles(lex: Lexicon, result: WordResult) -> dict[str, Any]:
    """The hook tiles of a word; :meth:`Lexicon.hooks` lists them in the edition's alphabet already."""
    h = lex.hooks(result.key or "")  # no key: the word is not spelled, and has no hooks
    return {
        "front": list(h.front),
        "back": list(h.back),
        "front_inner": h.front_inner,
        "back_inner": h.back_inner,
    }


def hooks(lex: Lexicon, word: str) -> dict[str, Any]:
    result = spelled(lex, word)
    summary = {"input": result.input, "word": result.word, "tiles": list(result.tiles), "valid": result.valid}
    return {**summary, **hook_tiles(lex, result)}


def score(edition: Edition, word: str, blanks: Iterable[int] = (), lex: Lexicon | None = None) -> dict[str, Any]:
    """Tile by tile, no board premiums; ``blanks`` are 1-based positions of tiles played by a blank.

    ``valid`` is the word's validity in ``lex`` (None without one, or with a corrupt one: a score needs only the
    edition). ``over_bag`` lists each tile the word needs more of than the bag holds (``"?"``: the
    blanks), ``[]`` when none; None where the edition's tile counts are unverified.
    """
    s = spell(word, edition)
    at = set()
    for b in blanks:
        if not 1 <= b <= len(s.tiles):
            raise QueryError(message("blank_positions", max=len(s.tiles), text=repr(str(b))))
        at.add(b - 1)
    total = edition.score(s.tiles, at)
    return {
        "input": word,
        "word": s.word,
        "tiles": [
            {"tile": t, "blank": i in at, "value": 0 if i in at else edition.by_label[t].value}
            for i, t in enumerate(s.tiles)
        ],
        "score": total,
        "verified": total is not None,
        "valid": None if lex is None else lex.lookup(word).valid,
        "over_bag": over_bag(edition, s.tiles, at),
    }


def over_bag(edition: Edition, tiles: Sequence[str], blanks: Iterable[int] = ()) -> list[dict[str, Any]] | None:
    """The tiles a play needs more of than the bag holds, in the edition's alphabet, then the blanks
    (``"?"``); None when the edition's tile counts are unverified."""
    if not edition.has_counts:
        return None
    at = set(blanks)
    needs = Counter(t for i, t in enumerate(tiles) if i not in at)
    over = [
        {"tile": t, "needs": needs[t], "bag": edition.by_label[t].count}
        for t in edition.sort_labels(needs)
        if needs[t] > (edition.by_label[t].count or 0)
    ]
    if len(at) > (edition.blanks or 0):
        over.append({"tile": "?", "needs": len(at), "bag": edition.blanks})
    return over


def two_tile(lex: Lexicon) -> dict[str, Any]:
    from lextools.core import search  # noqa: PLC0415  (the searches: no look-up, hook or score needs them)

    words = entries(lex, lex.edition.sort_keys(search.words_of_length(lex, 2)))
    return {"edition": lex.edition.name, "count": len(words), "words": words}


def page(count: int, truncated: bool = False, next_cursor: str | None = None) -> dict[str, Any]:
    """The paging fields of a search or anagram answer; ``next_cursor`` (the service's) resumes a
    truncated page. The CLI answers whole, or cut at its ``--limit`` with no cursor."""
    return {"count": count, "truncated": truncated, "next_cursor": next_cursor}


def anagrams(
    lex: Lexicon, rack: str, blanks: int, sub: bool, min_length: int, matches: Sequence[search.Match],
    page: dict[str, Any],
) -> dict[str, Any]:  # fmt: skip
    """The words of a page of :func:`search.anagrams`, in its order (:func:`search.anagram_order`):
    longest first counted in tiles, then in the edition's alphabet (es-fise: … C CH D … N Ñ O …) —
    the order a resumed page continues. Each word's ``blanks`` are in the edition's alphabet too.

    ``page`` holds ``count``, ``truncated`` and ``next_cursor`` (:func:`page`).
    """
    ed = lex.edition
    return {
        "edition": ed.name,
        "rack": rack,
        "blanks": blanks,
        "sub": sub,
        "min_length": min_length,
        "words": [
            {"word": ed.spelling(m.key), "tiles": list(ed.decode(m.key)), "blanks": list(m.blanks)} for m in matches
        ],
        **page,
    }


def search_page(lex: Lexicon, order: str, keys: Sequence[str], page: dict[str, Any]) -> dict[str, Any]:
    """A page of a search (:func:`search.find`), its keys in ``order``; ``page`` as for :func:`anagrams`."""
    return {"edition": lex.edition.name, "order": order, "words": entries(lex, keys), **page}
