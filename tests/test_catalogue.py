"""The texts people read are complete in English, Spanish and French: every key of the message
catalogue (lextools/core/messages.json), of the search conditions (lextools/core/conditions.json)
and of the pages' strings (service/pages/static/strings.json) in all three, none left in English under
another language, the same placeholders in each, the plural forms well made, and Spanish "ficha" for
tiles only ("tarjeta" is a study card)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lextools.builder.filters import RULES
from lextools.core import reviewed
from lextools.core.conditions import CONDITIONS
from lextools.core.messages import LANGUAGES, PLURAL, catalogue, message, plural_forms

STRINGS = Path(__file__).resolve().parents[1] / "service" / "pages" / "static" / "strings.json"

#: Texts the same in a language as in English on purpose: names, codes, placeholders and punctuation
#: only, or a word both languages share.
SAME_ON_PURPOSE = {
    ("what_char", "es"),  # "{char} ({name})": no words
    ("what_char", "fr"),
    ("bad_param", "es"),  # "{name} {text}: {reason}": no words
    ("answer_no", "es"),  # "no" is Spanish too
    ("home_title", "es"),  # lextools, the name
    ("home_title", "fr"),
    ("error_generic", "es"),  # "Error: {message}" is Spanish too
    ("nav_label", "fr"),  # "Pages" is French too
    ("quiz_count_label", "fr"),  # "Questions" is French too
    ("director_verdict", "fr"),  # "Verdict" is French too
    ("director_signature", "fr"),  # "Signature" is French too
    ("director_no", "es"),  # "no" is Spanish too
}

#: English words that have no business in a Spanish or French text (whole words, any case).
ENGLISH = re.compile(
    r"\b(the|and|is|are|not|with|word|words|tile|tiles|card|cards|of|dropped|review|only|there)\b", re.I
)
#: What may stay English inside another language: protocol text a client sends as it is.
VERBATIM = re.compile(r"\"words\"|Content-Type: application/json|Authorization: Bearer|\{\w+(\|[^{}]*)?\}")


def _pages() -> dict[str, dict[str, str]]:
    table: dict[str, dict[str, str]] = json.loads(STRINGS.read_text("utf-8"))
    keys = set().union(*map(set, table.values()))
    return {key: {lang: table[lang][key] for lang in table if key in table[lang]} for key in sorted(keys)}


def _conditions() -> dict[str, dict[str, str]]:
    """The search conditions' labels and help (lextools/core/conditions.json), as the pages show them."""
    texts = {f"{c.name}_{what}": getattr(c, what) for c in CONDITIONS for what in ("label", "help")}
    return {key: {lang: text[lang] for lang in LANGUAGES} for key, text in texts.items()}


TABLES = {"messages.json": catalogue(), "strings.json": _pages(), "conditions.json": _conditions()}
ENTRIES = [(name, key, texts) for name, table in TABLES.items() for key, texts in table.items()]


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)", text))


@pytest.mark.parametrize(("table", "key", "texts"), ENTRIES, ids=[f"{n}:{k}" for n, k, _ in ENTRIES])
def test_every_text_is_in_the_three_languages_and_translated(table: str, key: str, texts: dict[str, str]) -> None:
    assert sorted(texts) == sorted(LANGUAGES), f"{table} {key}: languages {sorted(texts)}"
    for lang in LANGUAGES:
        assert texts[lang].strip(), f"{table} {key}: empty {lang} text"
        assert _placeholders(texts[lang]) == _placeholders(texts["en"]), f"{table} {key}: {lang} placeholders"
    for lang in LANGUAGES[1:]:
        if (key, lang) in SAME_ON_PURPOSE:
            continue
        assert texts[lang] != texts["en"], f"{table} {key}: the {lang} text is the English one"
        english = ENGLISH.findall(VERBATIM.sub("", texts[lang]))
        assert not english, f"{table} {key}: English words in the {lang} text: {english}"


def test_the_list_of_same_texts_names_only_texts_that_are_the_same() -> None:
    for key, lang in SAME_ON_PURPOSE:
        texts = next(t for _, k, t in ENTRIES if k == key)
        assert texts[lang] == texts["en"], f"{key} {lang} differs now: take it off SAME_ON_PURPOSE"


@pytest.mark.parametrize(("table", "key", "texts"), ENTRIES, ids=[f"{n}:{k}" for n, k, _ in ENTRIES])
def test_plural_forms_are_well_made(table: str, key: str, texts: dict[str, str]) -> None:
    for lang, text in texts.items():
        rest = PLURAL.sub("", text)
        assert "|" not in rest, f"{table} {key} {lang}: a plural form that is not {{name|one|other}}"
        if table == "messages.json":
            values = dict.fromkeys(_placeholders(text), 1)
            message(key, **values).text(lang)  # renders: no stray brace


def test_ficha_is_a_tile_and_tarjeta_a_card() -> None:
    for _, key, texts in ENTRIES:
        en, es = texts["en"].lower(), texts["es"].lower()
        if re.search(r"\bcards?\b|cardbox", en):
            assert "ficha" not in es.replace("fichero", ""), f"{key}: a card is a tarjeta, not a ficha: {es}"
        if re.search(r"\btiles?\b", en):
            assert "tarjeta" not in es, f"{key}: a tile is a ficha, not a tarjeta: {es}"


@pytest.mark.parametrize(
    ("lang", "counts"),
    [("en", ["0 words", "1 word", "2 words"]), ("es", ["0 palabras", "1 palabra", "2 palabras"]),
     ("fr", ["0 mot", "1 mot", "2 mots"])],
)  # fmt: skip
def test_plural_forms_follow_each_language(lang: str, counts: list[str]) -> None:
    forms = {"en": "{n|word|words}", "es": "{n|palabra|palabras}", "fr": "{n|mot|mots}"}[lang]
    assert [f"{n} " + plural_forms(forms, {"n": n}, lang) for n in (0, 1, 2)] == counts


def test_the_pages_strings_count_cards_in_the_plural_mechanism() -> None:
    pages = _pages()
    for key in ("cardbox_summary", "cardbox_exported", "cardbox_imported", "quiz_list_count"):
        for lang in LANGUAGES:
            assert PLURAL.search(pages[key][lang]), f"{key} {lang}: a count with no singular form"


def test_every_rule_of_a_build_has_its_text() -> None:
    """An explanation names the rule that removed a word in the reader's language, never by its code."""
    for rule in {*RULES, reviewed.RULE_NAME}:
        assert f"rule_{rule}" in catalogue(), rule
