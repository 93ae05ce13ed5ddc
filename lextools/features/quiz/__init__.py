"""Word-study quizzes — anagram, build, hooks, word-or-phony and word lists — the same for the same seed.

The quiz types are those players know from Zyzzyva and WordVault/Aerolith, counted in tiles (in
es-fise CH is one tile, so CHA is a two-tile word):

- ``anagram``: an alphagram of ``length`` tiles, ``blanks`` of them shown as blanks, and every word
  it makes;
- ``build``: the same rack and every word of at least ``min_length`` tiles it makes. Unless asked,
  ``min_length`` is the larger of 4 and the rack's length − 2 (never more than the rack): a 6-tile
  rack asks for its words of 4 to 6 tiles, a 7-tile rack for those of 5 to 7, as the longer words
  are the ones worth drilling, and a 3-tile rack for its 3-tile words;
- ``hooks``: a word and the tiles that hook it in front and behind;
- ``word-or-phony``: valid words mixed with phonies, each marked. A phony is one tile changed,
  inserted or removed from a valid word, not in the lexicon and spellable in the edition (no C+H
  side by side in es-fise, where they would be the CH tile); it keeps ``length`` tiles, so its
  length gives nothing away. A phony has to fool a club player: it is as likely a draw as the words
  of the range it stands in, and every run of three tiles in it occurs at least
  :data:`PHONY_MIN_TRIGRAM` times among the edition's words of its length and of one tile more
  or less (so at least that often among all of them), so it looks like a word of the language
  (among a few thousand words, a test lexicon's, once per :data:`PHONY_WORDS_PER_COUNT` words);
- ``list``: a page of a named word list (:func:`list_names`).

Questions are picked from a range of *probability ranks* within the length (``rank_from`` to
``rank_to``): items sorted by the number of ways a full bag gives their tiles, up to ``blanks`` of
them blank (:mod:`lextools.core.probability`, Zyzzyva's count), ties in the edition's alphabet. Where
the tile counts are unverified (es-mattel2021) the ranks are alphabetical and probability order is
refused. Without a seed the quiz takes the first ``count`` items of the range; with one, a sample
drawn by :class:`random.Random` seeded with it, so a seed always gives the same questions.

One module per job: :mod:`~lextools.features.quiz.request` (what a quiz may ask, checked),
:mod:`~lextools.features.quiz.ranked` (the ranked lists questions are drawn from),
:mod:`~lextools.features.quiz.cache` (those lists and the service's quizzes, kept a while, and the
sweeper that drops them), :mod:`~lextools.features.quiz.kinds` (the questions of each quiz type),
:mod:`~lextools.features.quiz.phonies` (the phonies of word-or-phony) and
:mod:`~lextools.features.quiz.make` (a quiz made from a request).
"""

from lextools.features.quiz.kinds import (
    answer_count,
    answers_capped,
    listed,
    question_line,
    rack_matches,
    rack_question,
    rack_text,
)
from lextools.features.quiz.make import quiz
from lextools.features.quiz.phonies import PHONY_MIN_TRIGRAM, PHONY_NEIGHBOURS, PHONY_WORDS_PER_COUNT, VOWELS
from lextools.features.quiz.ranked import (
    Packed,
    Ranked,
    alphagram,
    keys_of_length,
    rank,
    ranked_alphagrams,
    ranked_words,
)
from lextools.features.quiz.request import (
    BOUNDED_TYPES,
    BUILD_MIN_BELOW_RACK,
    DEFAULT_BUILD_MIN,
    DEFAULT_COUNT,
    DEFAULT_LENGTH,
    DEFAULT_MAX_ANSWERS,
    FIXED_LIST_LENGTH,
    HIGH_VALUE,
    MAX_BLANKS,
    MAX_BUILD_COUNT,
    MAX_BUILD_LENGTH,
    MAX_COUNT,
    MAX_LENGTH,
    MAX_LOOKED_AT,
    MAX_QUIZ_ANSWERS,
    MAX_QUIZ_TILES,
    MAX_RANK,
    MAX_SEED,
    MIN_LENGTH,
    ORDERS,
    QUIZ_TYPES,
    QuizRequest,
    build_min_length,
    check_max_answers,
    check_size,
    choices,
    list_names,
    looked_at,
    quiz_size,
)

__all__ = [
    "BOUNDED_TYPES",
    "BUILD_MIN_BELOW_RACK",
    "DEFAULT_BUILD_MIN",
    "DEFAULT_COUNT",
    "DEFAULT_LENGTH",
    "DEFAULT_MAX_ANSWERS",
    "FIXED_LIST_LENGTH",
    "HIGH_VALUE",
    "MAX_BLANKS",
    "MAX_BUILD_COUNT",
    "MAX_BUILD_LENGTH",
    "MAX_COUNT",
    "MAX_LENGTH",
    "MAX_LOOKED_AT",
    "MAX_QUIZ_ANSWERS",
    "MAX_QUIZ_TILES",
    "MAX_RANK",
    "MAX_SEED",
    "MIN_LENGTH",
    "ORDERS",
    "PHONY_MIN_TRIGRAM",
    "PHONY_NEIGHBOURS",
    "PHONY_WORDS_PER_COUNT",
    "QUIZ_TYPES",
    "VOWELS",
    "Packed",
    "QuizRequest",
    "Ranked",
    "alphagram",
    "answer_count",
    "answers_capped",
    "build_min_length",
    "check_max_answers",
    "check_size",
    "choices",
    "keys_of_length",
    "list_names",
    "listed",
    "looked_at",
    "question_line",
    "quiz",
    "quiz_size",
    "rack_matches",
    "rack_question",
    "rack_text",
    "rank",
    "ranked_alphagrams",
    "ranked_words",
]
