"""The two readers of a lexicon: dawg2 (C++) on the hot path, DAWG-Python when dawg2 is missing.

Every query test taking the ``es`` fixture runs on both (tests/conftest.py); here, how the reader
is chosen, and that both answer alike on a whole lexicon.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from lextools.core import search
from lextools.core.errors import LexiconError
from lextools.core.lexicon import load_lexicon, reader_name


def test_dawg2_is_the_default_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LEXTOOLS_READER", raising=False)
    assert reader_name() == "dawg2"


def test_without_dawg2_the_pure_python_reader_answers(monkeypatch: pytest.MonkeyPatch, lexicon_home: Path) -> None:
    monkeypatch.delenv("LEXTOOLS_READER", raising=False)
    monkeypatch.setitem(sys.modules, "dawg", None)  # import dawg now raises ImportError
    lex = load_lexicon("es-fise", lexicon_home)
    assert lex.reader == "python" and lex.words is lex.graph
    assert "CASA" in lex and "CASAX" not in lex


def test_asking_for_a_missing_or_unknown_reader_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEXTOOLS_READER", "dawg2")
    monkeypatch.setitem(sys.modules, "dawg", None)
    with pytest.raises(LexiconError, match="dawg2 cannot be imported"):
        reader_name()
    monkeypatch.setenv("LEXTOOLS_READER", "cpp")
    with pytest.raises(LexiconError, match="names no reader"):
        reader_name()


@pytest.mark.parametrize("edition", ["es-fise", "en", "fr"])
def test_both_readers_give_the_same_answers(monkeypatch: pytest.MonkeyPatch, lexicon_home: Path, edition: str) -> None:
    answers = []
    for reader in ("dawg2", "python"):
        monkeypatch.setenv("LEXTOOLS_READER", reader)
        lex = load_lexicon(edition, lexicon_home)
        keys = list(lex.keys())
        probes = keys + [k + k[-1] for k in keys] + [k[1:] for k in keys]
        answers.append(
            (
                keys,
                [p in lex for p in probes],
                [lex.hooks(k) for k in keys],
                [sorted(m.key for m in search.anagrams(lex, k[:7], 1, sub=True)) for k in keys[:50]],
            )
        )
    assert answers[0] == answers[1]
    assert any(answers[0][1]) and not all(answers[0][1])
