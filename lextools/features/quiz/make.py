"""A quiz made from a request: its items drawn from a ranked list, its questions made by their kind
(:mod:`lextools.features.quiz.kinds`) — at once for the command line, in the background for the
service's budgeted requests (:mod:`lextools.features.quiz.cache`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

from lextools.core.budget import Budget
from lextools.core.errors import BusyError
from lextools.core.lexicon import Lexicon
from lextools.core.messages import message
from lextools.features.quiz import cache
from lextools.features.quiz.kinds import MAKERS, answers_capped, listed, passed_over
from lextools.features.quiz.ranked import Packed, Ranked, draw_ways, ranked_alphagrams, ranked_words
from lextools.features.quiz.request import BOUNDED_TYPES, QuizRequest, check_size, looked_at


def quiz(lex: Lexicon, request: QuizRequest, budget: Budget | None = None) -> dict[str, Any]:
    """A quiz as JSON-ready data: the CLI prints it and the service answers it, unchanged.

    Its size is bounded (:func:`~lextools.features.quiz.request.check_size`,
    :data:`~lextools.features.quiz.request.MAX_QUIZ_ANSWERS`): the CLI and the service refuse
    the same quizzes. The work pauses every few milliseconds for the other requests of the process
    (:mod:`lextools.core.budget`). With a ``budget`` (the service's) the quiz is made in a thread of
    its own (a greenlet under gevent) and waited for at most ``budget.remaining()``; one not made by
    then is a :class:`BusyError` and goes on being made, kept for the same request asked again.
    """
    req = request.checked(lex.edition)
    check_size(req)
    if budget is None:
        return _made(lex, req)
    job = cache.job_for(lex, req, budget, _made)
    if not job.done.wait(budget.remaining()):
        raise BusyError(message("busy_quiz"))
    cache.take(lex, req)
    if job.error is not None:
        raise job.error
    return job.value


def _made(lex: Lexicon, req: QuizRequest) -> dict[str, Any]:
    with answers_capped():
        return _quiz(lex, req)


def _quiz(lex: Lexicon, req: QuizRequest) -> dict[str, Any]:
    assert req.length is not None  # checked() fills it in
    ed = lex.edition
    if req.type in ("anagram", "build"):
        ranked: Packed | list[str] = ranked_alphagrams(lex, req.length, req.blanks)
    else:
        ranked = ranked_words(lex, req.length, req.blanks, req.list_name)
    rank_to = min(req.rank_to or len(ranked), len(ranked))
    pool = range(req.rank_from - 1, rank_to)  # indexes into the ranked list
    over = 0
    if req.type in BOUNDED_TYPES:
        kept, over = _within_bound(lex, req, _drawn(req, pool, looked_at(req)), ranked)
        questions = [q for _, q in _in_order(lex, req, kept)]
    else:
        chosen = [Ranked(ranked[i], i + 1, draw_ways(ed, ranked[i], req.blanks)) for i in _drawn(req, pool, req.count)]
        questions = MAKERS[req.type](lex, req, [r for r, _ in _in_order(lex, req, [(r, r) for r in chosen])])
    answer: dict[str, Any] = {
        "edition": ed.name,
        "type": req.type,
        "list": req.list_name,
        "length": req.length,
        "blanks": req.blanks,
        "min_length": req.min_length if req.type == "build" else None,
        "order": req.order,
        "ranked_by": "probability" if ed.has_counts else "alphabetical",
        "from": req.rank_from,
        "to": rank_to,
        "in_range": len(pool),
        "seed": req.seed,
        "max_answers": req.max_answers if req.type in BOUNDED_TYPES else None,
        "over_max": over,
        "count": len(questions),
        "questions": questions,
    }
    return answer


def _drawn(req: QuizRequest, pool: range, most: int) -> Sequence[int]:
    """Up to ``most`` indexes of the pool: its first ones, or without a seed a sample drawn with it."""
    if req.seed is None:
        return pool[:most]
    return random.Random(req.seed).sample(pool, min(most, len(pool)))


T = TypeVar("T")


def _in_order(lex: Lexicon, req: QuizRequest, items: list[tuple[Ranked, T]]) -> list[tuple[Ranked, T]]:
    """The items by the order asked: probability rank, or the edition's alphabet."""
    if req.order == "alphabetical":
        return sorted(items, key=lambda item: lex.edition.collation_key(item[0].key))
    return sorted(items, key=lambda item: item[0].rank)


def _within_bound(
    lex: Lexicon, req: QuizRequest, drawn: Sequence[int], ranked: Packed | list[str]
) -> tuple[list[tuple[Ranked, dict[str, Any]]], int]:
    """The first ``req.count`` questions of the items drawn, in the order drawn, with at most
    ``req.max_answers`` answers each, and how many questions were passed over for having more. A
    question asked already (two alphagrams blanked to the same rack) is not asked twice."""
    make = MAKERS[req.type]
    kept: list[tuple[Ranked, dict[str, Any]]] = []
    seen: set[str] = set()
    for i in drawn:
        item = Ranked(ranked[i], i + 1, draw_ways(lex.edition, ranked[i], req.blanks))
        for question in make(lex, req, [item]):  # none when over the bound
            if question["id"] not in seen:
                seen.add(question["id"])
                listed(question)
                kept.append((item, question))
        if len(kept) >= req.count:
            break
    return kept, passed_over()
