"""The study page's quizzes in headless chromium, keyboard only: answer, miss, see the miss come back,
reload and find the cardbox kept, export it, wipe it, import it back."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from test_browser import base_url, browser, by_id, console_errors, focused_id, open_page, type_keys, wait_for  # noqa: F401

from lextools.core import search
from lextools.core.lexicon import Lexicon, load_lexicon
from lextools.core.spelling import spell
from lextools.features import quiz

pytestmark = pytest.mark.slow


def forget_cardbox(driver: WebDriver, base: str) -> None:
    """Delete the IndexedDB database from a same-origin page that holds no connection to it."""
    driver.get(f"{base}/healthz")
    done = driver.execute_async_script(
        """const finish = arguments[arguments.length - 1];
        const request = indexedDB.deleteDatabase("lextools-study");
        request.onsuccess = () => finish("deleted");
        request.onerror = () => finish("error");
        request.onblocked = () => finish("blocked");"""
    )
    assert done == "deleted"
    console_errors(driver)  # the JSON page's missing favicon is not the study page's error


def choose(driver: WebDriver, select_id: str, text: str) -> None:
    """Pick an option from the keyboard: focus the select and type the option's text."""
    driver.execute_script("arguments[0].focus()", by_id(driver, select_id))
    type_keys(driver, text)
    assert by_id(driver, select_id).get_attribute("value") == text or text in driver.execute_script(
        "return arguments[0].selectedOptions[0].textContent", by_id(driver, select_id)
    )


def start_quiz(driver: WebDriver) -> None:
    driver.execute_script("arguments[0].focus()", by_id(driver, "quiz-start"))
    type_keys(driver, Keys.ENTER)


def question_id(driver: WebDriver, previous: str | None = None) -> str:
    rack = by_id(driver, "quiz-rack")
    return str(
        wait_for(
            driver,
            lambda d: (
                (rack.get_attribute("data-question") or None) != previous
                and by_id(d, "quiz-answer").is_enabled()
                and rack.get_attribute("data-question")
            ),
            "a new question",
        )
    )


def answers_of(es: Lexicon, rack: str) -> list[str]:
    key, blanks = search.parse_rack(rack, es)
    return [es.edition.spelling(m.key) for m in search.anagrams(es, key, blanks)]


def outcome(driver: WebDriver) -> str:
    return str(wait_for(driver, lambda d: by_id(d, "quiz-outcome").get_attribute("data-right"), "the outcome"))


def cardbox_state(driver: WebDriver) -> tuple[int, dict[str, int]]:
    summary = by_id(driver, "cardbox-summary")
    boxes = by_id(driver, "cardbox-boxes").get_attribute("data-boxes") or "{}"
    return int(summary.get_attribute("data-cards") or 0), json.loads(boxes)


def test_anagram_quiz_cardbox_survives_reload_export_and_import(
    browser: WebDriver,  # noqa: F811
    base_url: str,  # noqa: F811
    es: Lexicon,
    tmp_path: Path,
) -> None:
    forget_cardbox(browser, base_url)
    open_page(browser, f"{base_url}/study?edition=es-fise")
    # 7-tile alphagrams with one blank, likeliest first: the small list has two (CANCION, CHIQUILLO).
    choose(browser, "quiz-length", "7")
    choose(browser, "quiz-blanks", "1")
    assert by_id(browser, "quiz-order").get_attribute("value") == "probability"
    by_id(browser, "quiz-count").clear()
    by_id(browser, "quiz-count").send_keys("2")
    start_quiz(browser)

    first = question_id(browser)
    assert first.endswith("?") and focused_id(browser) == "quiz-answer"
    assert "Pregunta 1 de 2" in by_id(browser, "quiz-status").text
    first_answers = answers_of(es, first)
    assert first_answers, first
    # A wrong word, then Enter on the empty box: missed, and the answers are shown as tiles.
    type_keys(browser, "zorro" + Keys.ENTER)
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#quiz-marks li.wrong"), "the wrong mark")
    type_keys(browser, Keys.ENTER)
    assert outcome(browser) == "false"
    shown = [s.get_attribute("title") for s in browser.find_elements(By.CSS_SELECTOR, "#quiz-outcome .word-tiles")]
    assert len(shown) == len(first_answers)
    assert focused_id(browser) == "quiz-next"
    browser.save_screenshot(str(tmp_path / "quiz-missed.png"))

    type_keys(browser, Keys.ENTER)
    second = question_id(browser, first)
    assert "Pregunta 2 de 3" in by_id(browser, "quiz-status").text  # the miss went back into the session
    for word in answers_of(es, second):
        type_keys(browser, word.lower() + Keys.ENTER)
    assert outcome(browser) == "true"

    type_keys(browser, Keys.ENTER)
    again = question_id(browser, second)
    assert again == first, "the missed alphagram comes back within the session"
    for word in first_answers:
        type_keys(browser, word + Keys.ENTER)
    assert outcome(browser) == "true"
    assert by_id(browser, "quiz-score").text == "Esta sesión: 2 bien de 3"
    wait_for(browser, lambda d: cardbox_state(d) == (2, {"1": 2}), "both cards in box 1")
    type_keys(browser, Keys.ENTER)
    wait_for(browser, lambda d: "Sesión terminada" in by_id(d, "quiz-message").text, "the end of the session")

    # A reload keeps the cardbox.
    open_page(browser, f"{base_url}/study?edition=es-fise")
    wait_for(browser, lambda d: cardbox_state(d) == (2, {"1": 2}), "the cardbox after a reload")

    # Export it, wipe it, import it back.
    browser.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    by_id(browser, "cardbox-export").send_keys(Keys.ENTER)
    exported = wait_for(browser, lambda d: [p for p in tmp_path.glob("lextools-cardbox-*.json")], "the export file")[0]
    data = json.loads(wait_for(browser, lambda d: exported.read_text(encoding="utf-8"), "the export's contents"))
    assert data["format"] == "lextools-cardbox" and len(data["cards"]) == 2
    assert {c["question"]["id"] for c in data["cards"]} == {first, second}

    forget_cardbox(browser, base_url)
    open_page(browser, f"{base_url}/study?edition=es-fise")
    wait_for(browser, lambda d: d.find_element(By.ID, "cardbox-summary").get_attribute("data-cards") == "0", "empty")
    bad = tmp_path / "not-a-cardbox.json"
    bad.write_text('{"cards": "no"}', encoding="utf-8")
    by_id(browser, "cardbox-import").send_keys(str(bad))
    wait_for(browser, lambda d: "no se ha cambiado nada" in by_id(d, "cardbox-message").text, "the refusal")
    assert cardbox_state(browser)[0] == 0
    by_id(browser, "cardbox-import").send_keys(str(exported))
    wait_for(browser, lambda d: "2 tarjetas importadas" in by_id(d, "cardbox-message").text, "the import")
    wait_for(browser, lambda d: cardbox_state(d) == (2, {"1": 2}), "the cardbox after the import")
    assert "2 tarjetas" in by_id(browser, "cardbox-summary").text  # cards are tarjetas; fichas are tiles
    # The pages' plural forms: one card is singular (French counts 0 as singular too).
    told = browser.execute_async_script(
        """const finish = arguments[arguments.length - 1];
        import(new URL("common.js", document.querySelector("script[src$='quiz.js']").src).href)
          .then((m) => finish([0, 1, 2].map((count) => m.t("cardbox_exported", { count }))))
          .catch((e) => finish(String(e)));"""
    )
    assert told == ["0 tarjetas exportadas.", "1 tarjeta exportada.", "2 tarjetas exportadas."]
    assert console_errors(browser) == []


def test_hook_and_word_or_phony_quizzes_from_the_keyboard(browser: WebDriver, base_url: str) -> None:  # noqa: F811
    open_page(browser, f"{base_url}/study?edition=es-fise")
    choose(browser, "quiz-type", "Ganchos")
    assert by_id(browser, "quiz-length").get_attribute("value") == "4"
    choose(browser, "quiz-timer", "15 s")
    start_quiz(browser)
    question_id(browser)
    wait_for(browser, lambda d: by_id(d, "quiz-timer-left").text in {"Quedan 15 s", "Quedan 14 s"}, "the timer")
    assert "delante o detrás" in by_id(browser, "quiz-prompt").text
    type_keys(browser, Keys.ENTER)  # no answer: the hooks are shown
    outcome(browser)
    assert "Soluciones" in by_id(browser, "quiz-outcome").text

    # Time running out ends the question as a miss (a one-second limit, added for the test).
    browser.execute_script(
        "const s = arguments[0]; s.append(new Option('1 s', '1')); s.value = '1';", by_id(browser, "quiz-timer")
    )
    start_quiz(browser)
    question_id(browser)
    assert outcome(browser) == "false"
    assert "Se acabó el tiempo" in by_id(browser, "quiz-outcome").text

    choose(browser, "quiz-timer", "Sin límite")
    choose(browser, "quiz-type", "¿Válida o inventada?")
    start_quiz(browser)
    wait_for(browser, lambda d: focused_id(d) == "quiz-valid", "the valid/phony buttons")
    word = by_id(browser, "quiz-rack").get_attribute("data-question")
    type_keys(browser, Keys.ENTER)  # "Válida"
    assert outcome(browser) in {"true", "false"}
    assert word in by_id(browser, "quiz-outcome").text

    choose(browser, "quiz-type", "Listas de palabras")
    choose(browser, "quiz-list", "Palabras de dos fichas")
    choose(browser, "quiz-order", "Alfabético")
    start_quiz(browser)
    listed = wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#quiz-list-result .word-tiles"), "the list")
    words = [w.text for w in listed]
    assert words.index("AS") < words.index("CHA") < words.index("DA")  # CH after C, as the edition sorts
    cha = next(w for w in listed if w.text == "CHA")
    assert [t.text for t in cha.find_elements(By.CSS_SELECTOR, ".t")] == ["CH", "A"]


def test_the_hooks_quiz_takes_the_hook_tile_alone_or_the_whole_word(
    browser: WebDriver,  # noqa: F811
    base_url: str,  # noqa: F811
    es: Lexicon,
) -> None:
    """AMA: C, LL (or 2), R and S alone, or CAMA, LLAMA, AMAR, AMAS; APA: CH alone or CHAPA."""
    forget_cardbox(browser, base_url)
    open_page(browser, f"{base_url}/study?edition=es-fise")
    choose(browser, "quiz-type", "Ganchos")
    choose(browser, "quiz-length", "3")
    by_id(browser, "quiz-count").clear()
    by_id(browser, "quiz-count").send_keys("12")
    start_quiz(browser)
    previous = None
    seen_digraph = False

    def next_question(d: WebDriver) -> str | None:
        if "Sesión terminada" in by_id(d, "quiz-message").text:
            return "end"
        asked = by_id(d, "quiz-rack").get_attribute("data-question") or None
        return asked if asked != previous and by_id(d, "quiz-answer").is_enabled() else None

    for number in range(14):  # every 3-tile word of the small list, and the first again (it was missed)
        word = str(wait_for(browser, next_question, "the next question or the end"))
        if word == "end":
            break
        assert "(S)" in by_id(browser, "quiz-help").text  # the help says a tile alone will do
        hooks = es.hooks(spell(word, es.edition).key)
        made = [(tile, tile + word) for tile in hooks.front] + [(tile, word + tile) for tile in hooks.back]
        if number == 0:
            type_keys(browser, "z" + Keys.ENTER)  # a tile that hooks nothing is wrong
            wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#quiz-marks li.wrong"), "the wrong mark")
        for i, (tile, whole) in enumerate(made):
            seen_digraph = seen_digraph or len(tile) > 1
            typed = whole if i % 2 else ("2" if tile == "LL" else tile.lower())  # alone, in any notation
            type_keys(browser, typed + Keys.ENTER)
            wait_for(
                browser,
                lambda d, n=i + 1: len(d.find_elements(By.CSS_SELECTOR, "#quiz-marks li.right")) == n,
                f"{typed} marked right",
            )
        marks = [m.text for m in browser.find_elements(By.CSS_SELECTOR, "#quiz-marks li.right")]
        assert [m.removeprefix("✓ ").split(":")[0] for m in marks] == [w for _, w in made]  # the words they make
        if not made and number:  # nothing to find: Enter on the empty box (the first ended on its wrong answer)
            type_keys(browser, Keys.ENTER)
        assert outcome(browser) == ("false" if number == 0 else "true"), (word, made)
        previous = word
        type_keys(browser, Keys.ENTER)
    assert seen_digraph, "no question had a digraph hook (LL, CH)"
    assert console_errors(browser) == []


def test_a_stems_list_opens_and_quizzes_and_a_plain_list_becomes_cards(
    browser: WebDriver,  # noqa: F811
    base_url: str,  # noqa: F811
    lexicon_home: Path,
    tmp_path: Path,
) -> None:
    es = load_lexicon("es-fise", lexicon_home)  # the page is the same whichever reader: run once
    forget_cardbox(browser, base_url)
    open_page(browser, f"{base_url}/study?edition=es-fise")
    # The 6-tile stems of es-fise (the default list and length), from the keyboard.
    assert by_id(browser, "lists-kind").get_attribute("value") == "stems"
    assert by_id(browser, "lists-stem").get_attribute("value") == "6"
    driver_focus(browser, "lists-show")
    type_keys(browser, Keys.ENTER)
    stems = wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#lists-result .stem"), "the stems")
    first_stem = stems[0].get_attribute("data-stem")
    driver_focus(browser, "lists-quiz")
    type_keys(browser, Keys.ENTER)
    rack = question_id(browser)
    # A stem asks the alphagrams it makes, one tile more, each a question: never the stem and a blank.
    assert "?" not in rack and not Counter(spell(first_stem, es.edition).tiles) - Counter(spell(rack, es.edition).tiles)
    words = answers_of(es, rack)
    assert words and all(len(spell(w, es.edition).tiles) == 7 for w in words)
    assert len(words) <= quiz.DEFAULT_MAX_ANSWERS
    for word in words:
        type_keys(browser, word + Keys.ENTER)
    assert outcome(browser) == "true"

    # A plain word list (one per line, any notation) is imported as new cards; what es-fise cannot
    # use is reported, not added.
    plain = tmp_path / "mine.txt"
    plain.write_text("cancion\n# a comment\n[CH]IQUI[LL]O\tdefinición\nkilo\nzzzz\n", encoding="utf-8")
    by_id(browser, "cardbox-import").send_keys(str(plain))
    text = wait_for(browser, lambda d: by_id(d, "cardbox-message").text, "the import's message")
    # CANCION's alphagram is a card already: a question of the stem's quiz.
    assert text.startswith("1 tarjeta nueva") and "2 omitidas" in text and "K" in text, text

    # The search page's hand-over: sessionStorage, then /study?list=session.
    browser.execute_script(
        'sessionStorage.setItem("lextools:list", JSON.stringify({edition: "es-fise", title: "mi búsqueda",'
        ' words: ["CANCION", "CASAS"]}))'
    )
    open_page(browser, f"{base_url}/study?list=session&edition=es-fise")
    wait_for(browser, lambda d: "mi búsqueda" in by_id(d, "lists-result").text, "the handed-over list")
    # The anagram deck holds the stem's card and CHIQUILLO's (shown once IndexedDB answers).
    wait_for(browser, lambda d: cardbox_state(d)[0] == 2, "the two cards so far")
    driver_focus(browser, "lists-add")
    type_keys(browser, Keys.ENTER)
    wait_for(browser, lambda d: cardbox_state(d)[0] == 3, "CASAS as a new card (CANCION is one already)")
    assert not console_errors(browser)


def driver_focus(driver: WebDriver, element_id: str) -> None:
    driver.execute_script("arguments[0].focus()", by_id(driver, element_id))


def test_a_question_counts_what_is_found_and_marks_found_missed_and_wrong(
    browser: WebDriver,  # noqa: F811
    base_url: str,  # noqa: F811
    es: Lexicon,
) -> None:
    """A build question of the small list: half its words found, one wrong, the rest missed; the
    counter says "1 de N encontradas" as it goes, the solution list marks each answer in words and class."""
    forget_cardbox(browser, base_url)
    open_page(browser, f"{base_url}/study?edition=es-fise")
    assert by_id(browser, "quiz-max").get_attribute("value") == str(quiz.DEFAULT_MAX_ANSWERS)
    choose(browser, "quiz-type", "Construir")
    choose(browser, "quiz-length", "4")
    choose(browser, "quiz-min", "2")
    for field, value in (("quiz-count", "1"), ("quiz-from", "1"), ("quiz-to", "1")):  # the likeliest rack
        by_id(browser, field).clear()
        by_id(browser, field).send_keys(value)
    start_quiz(browser)
    rack = question_id(browser)
    key, blanks = search.parse_rack(rack, es)
    words = [es.edition.spelling(m.key) for m in search.anagrams(es, key, blanks, sub=True, min_length=2)]
    assert 2 <= len(words) <= quiz.DEFAULT_MAX_ANSWERS, (rack, words)
    counter = by_id(browser, "quiz-to-find")
    assert counter.text == f"0 de {len(words)} encontradas"
    found, missed = words[: len(words) // 2], words[len(words) // 2 :]
    for n, word in enumerate(found, 1):
        type_keys(browser, word.lower() + Keys.ENTER)
        wait_for(browser, lambda d, n=n: counter.text == f"{n} de {len(words)} encontradas", f"{n} found")
    type_keys(browser, "zorro" + Keys.ENTER)
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#quiz-marks li.wrong"), "the wrong mark")
    assert counter.text == f"{len(found)} de {len(words)} encontradas"
    type_keys(browser, Keys.ENTER)  # ends the question
    assert outcome(browser) == "false"

    def marked(kind: str) -> list[tuple[str, str]]:
        items = browser.find_elements(By.CSS_SELECTOR, f"#quiz-outcome li.{kind}")
        return [(i.find_element(By.CSS_SELECTOR, ".mark").text, i.text) for i in items]

    assert sorted(text.split()[-1] for _, text in marked("found")) == sorted(found)
    assert {mark for mark, _ in marked("found")} == {"✓ encontrada"}
    assert sorted(text.split()[-1] for _, text in marked("missed")) == sorted(missed)
    assert {mark for mark, _ in marked("missed")} == {"○ no encontrada"}
    assert [(mark, text.split()[-1]) for mark, text in marked("wrong")] == [("✗ errónea", "ZORRO")]
    assert console_errors(browser) == []


def test_a_quiz_says_what_it_left_out_over_the_bound(
    browser: WebDriver,  # noqa: F811
    base_url: str,  # noqa: F811
) -> None:
    """With the bound at 1, a build quiz leaves out the racks of two words or more, and says so."""
    open_page(browser, f"{base_url}/study?edition=es-fise")
    choose(browser, "quiz-type", "Construir")
    choose(browser, "quiz-length", "4")
    choose(browser, "quiz-min", "2")
    by_id(browser, "quiz-max").clear()
    by_id(browser, "quiz-max").send_keys("1")
    start_quiz(browser)
    told = str(wait_for(browser, lambda d: by_id(d, "quiz-message").text, "the message"))
    assert "con más de 1 soluciones no se" in told, told
    assert console_errors(browser) == []
