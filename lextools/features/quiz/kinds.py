"""The questions of each quiz type (anagram and build racks, hooks, word-or-phony, word lists), made
from the chosen ranked items, and a question's line for the command line."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from lextools.core import search
from lextools.core.budget import Budget, paced
from lextools.core.errors import QuizTooLargeError
from lextools.core.lexicon import Lexicon
from lextools.core.messages import message
from lextools.features import answers
from lextools.features.quiz.phonies import phony_of
from lextools.features.quiz.ranked import Ranked, draw_ways, ranked_words
from lextools.features.quiz.request import MAX_QUIZ_ANSWERS, MIN_LENGTH, QuizRequest


@dataclass
class _Work:
    """The quiz being made in this context: the answers it lists so far, and the questions it looked
    at and did not ask (more answers than the player's bound)."""

    answers: int = 0
    over: int = 0


_WORK: ContextVar[_Work | None] = ContextVar("quiz_work", default=None)


@contextlib.contextmanager
def answers_capped() -> Iterator[None]:
    """Within it, the answers of the questions kept (:func:`listed`) count against
    :data:`MAX_QUIZ_ANSWERS`: a quiz listing more is a :class:`QuizTooLargeError`."""
    token = _WORK.set(_Work())
    try:
        yield
    finally:
        _WORK.reset(token)


def answer_count(question: dict[str, Any]) -> int:
    """The answers a question wants found: a rack's words, or a word's front and back hooks."""
    if "answers" in question:
        return len(question["answers"])
    return len(question.get("front", ())) + len(question.get("back", ()))


def over_bound(found: int, most: int) -> bool:
    """Whether a question of ``found`` answers is over the player's bound ``most``: not asked, and
    counted (:func:`passed_over`)."""
    if found <= most:
        return False
    work = _WORK.get()
    if work is not None:
        work.over += 1
    return True


def passed_over() -> int:
    """The questions the quiz being made looked at and did not ask: more answers than its bound."""
    work = _WORK.get()
    return work.over if work is not None else 0


def listed(question: dict[str, Any]) -> None:
    """Count a question kept for the quiz against its cap on answers (:func:`answers_capped`); a
    question looked at and not asked (over the player's bound) lists nothing."""
    work = _WORK.get()
    if work is not None:
        work.answers += answer_count(question)
        if work.answers > MAX_QUIZ_ANSWERS:
            raise QuizTooLargeError(message("quiz_answers", max=MAX_QUIZ_ANSWERS))


def each_item(chosen: Iterable[Ranked]) -> Iterator[Ranked]:
    """The chosen items, one question each, letting the other requests run between two (:meth:`Budget.check`)."""
    pacer = Budget()
    for item in chosen:
        pacer.check(item.key)
        yield item


def _entry(lex: Lexicon, key: str) -> dict[str, Any]:
    """A word as every answer shows it (:func:`lextools.features.answers.entries`): CHA is CH·A, two tiles."""
    return answers.entries(lex, (key,))[0]


def rack_text(labels: Iterable[str]) -> str:
    """A rack in the notation every command reads: digraph tiles bracketed, ``?`` for a blank (A[CH]E?)."""
    return "".join(f"[{label}]" if len(label) > 1 else label for label in labels)


def _racks(lex: Lexicon, req: QuizRequest, chosen: list[Ranked]) -> list[dict[str, Any]]:
    """Anagram and build questions: the alphagram with ``blanks`` tiles turned to blanks, and its words."""
    ed = lex.edition
    questions, seen = [], set()
    for item in each_item(chosen):
        labels = list(ed.decode(item.key))
        # Which tiles become blanks is drawn per alphagram, so a seed always blanks the same ones.
        drop = set(random.Random(f"{req.seed}:{item.key}").sample(range(len(labels)), req.blanks))
        shown = [label for i, label in enumerate(labels) if i not in drop]
        rack = [*shown, *(["?"] * req.blanks)]
        text = rack_text(rack)
        if text in seen:  # two alphagrams blanked to the same rack: one question
            continue
        seen.add(text)
        build = req.type == "build"
        min_length = (req.min_length or MIN_LENGTH) if build else len(labels)
        matches = rack_matches(lex, shown, req.blanks, build, min_length)
        if over_bound(len(matches), req.max_answers):  # its answers are never written out
            continue
        questions.append(rack_question(lex, shown, req.blanks, build, min_length, item, matches))
    return questions


def rack_matches(lex: Lexicon, shown: list[str], blanks: int, sub: bool, min_length: int) -> list[search.Match]:
    """The words of a rack question (:func:`rack_question`), to count before they are written out."""
    return search.anagrams(lex, lex.edition.encode(shown), blanks, sub=sub, min_length=min_length)


def rack_question(
    lex: Lexicon,
    shown: list[str],
    blanks: int,
    sub: bool,
    min_length: int,
    item: Ranked | None = None,
    matches: list[search.Match] | None = None,
) -> dict[str, Any]:
    """An anagram (or, with ``sub``, build) question: the tiles ``shown`` and ``blanks`` blanks, and
    every word of at least ``min_length`` tiles they make (``matches``, if found already);
    ``item`` its rank where it has one."""
    rack = [*shown, *(["?"] * blanks)]
    if matches is None:
        matches = rack_matches(lex, shown, blanks, sub, min_length)
    return {
        "id": rack_text(rack),
        "rank": item.rank if item else None,
        "ways": item.ways if item else None,
        "rack": rack,
        "answers": [
            {**entry, "blanks": list(m.blanks)}
            for entry, m in zip(answers.entries(lex, paced(m.key for m in matches)), matches, strict=True)
        ],
    }


def _hooks(lex: Lexicon, req: QuizRequest, chosen: list[Ranked]) -> list[dict[str, Any]]:
    ed = lex.edition
    questions = []
    for item in each_item(chosen):
        hooks = lex.hooks(item.key)
        if over_bound(len(hooks.front) + len(hooks.back), req.max_answers):
            continue
        questions.append(
            {
                "id": ed.spelling(item.key),
                "rank": item.rank,
                "ways": item.ways,
                **_entry(lex, item.key),
                "front": list(hooks.front),  # in the edition's alphabet (Lexicon.hooks)
                "back": list(hooks.back),
            }
        )
    return questions


def _word_list(lex: Lexicon, req: QuizRequest, chosen: list[Ranked]) -> list[dict[str, Any]]:
    ed = lex.edition
    return [{"id": ed.spelling(r.key), "rank": r.rank, "ways": r.ways, **_entry(lex, r.key)} for r in chosen]


def _word_or_phony(lex: Lexicon, req: QuizRequest, chosen: list[Ranked]) -> list[dict[str, Any]]:
    """About half the chosen words stay as they are; the others give way to a phony made from them."""
    assert req.length is not None
    ed = lex.edition
    questions, seen = [], set()
    bounds = _ways_range(lex, req)
    for item in each_item(chosen):
        rng = random.Random(f"{req.seed}:{item.key}")
        phony = phony_of(lex, req, item, rng, bounds) if rng.random() < 0.5 else None
        key = phony[0] if phony else item.key
        if key in seen:
            continue
        seen.add(key)
        questions.append(
            {
                "id": ed.spelling(key),
                **_entry(lex, key),
                "valid": phony is None,
                "rank": None if phony else item.rank,
                "ways": None if phony else item.ways,
                "from": ed.spelling(phony[1]) if phony else None,
            }
        )
    return questions


def _ways_range(lex: Lexicon, req: QuizRequest) -> tuple[int, int] | None:
    """The fewest and the most ways to draw of the words ranked ``rank_from`` to ``rank_to``; None
    where the edition's tile counts are unverified."""
    assert req.length is not None
    ranked = ranked_words(lex, req.length, req.blanks, req.list_name)
    if not lex.edition.has_counts or not ranked:
        return None
    first = min(req.rank_from, len(ranked)) - 1
    last = min(req.rank_to or len(ranked), len(ranked)) - 1
    most, fewest = (draw_ways(lex.edition, ranked[i], req.blanks) or 0 for i in (first, last))
    return fewest, most


def question_line(question: dict[str, Any]) -> str:
    """One question and its answer on a line, for the command line's readable output."""
    rank = f"#{question['rank']:<6} " if question.get("rank") else " " * 8
    if "rack" in question:
        words = " ".join(a["word"] for a in question["answers"]) or "—"
        return f"{rank}{question['id']:<12} {words}"
    tiles = "·".join(question["tiles"])
    if "front" in question:
        return f"{rank}{' '.join(question['front']):>12} [{tiles}] {' '.join(question['back'])}"
    if "valid" in question:
        verdict = "word" if question["valid"] else f"phony (from {question['from']})"
        return f"{rank}{question['word']:<16} {verdict}"
    return f"{rank}{question['word']:<16} {tiles}"


MAKERS: dict[str, Callable[[Lexicon, QuizRequest, list[Ranked]], list[dict[str, Any]]]] = {
    "anagram": _racks,
    "build": _racks,
    "hooks": _hooks,
    "word-or-phony": _word_or_phony,
    "list": _word_list,
}
