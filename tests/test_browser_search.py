"""Issue 25's "done when", in headless chromium over the default es-fise lexicon, keyboard only: search
the 7-tile anagrams of AEINRS? in probability order, open a word card (tiles, hooks with dots,
anagrams, rank), quiz on the results, add them to the cardbox, and find the cardbox on a second
browser profile through the sync code.

``LEXTOOLS_SCREENSHOTS=DIR`` also saves the search page and the word card there (the pictures of docs/study.md:
``LEXTOOLS_SCREENSHOTS=docs pytest tests/test_browser_search.py``)."""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select
from test_browser import (  # noqa: F401
    CHROMEDRIVER,
    CHROMIUM,
    FLAGS,
    browser,
    by_id,
    console_errors,
    focused_id,
    open_page,
    serving,
    type_keys,
    wait_for,
)

from lextools.core import search
from lextools.core.lexicon import Lexicon, load_lexicon
from lextools.features.quiz import rack_text

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def fise_url(default_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    record = tmp_path_factory.mktemp("record") / "challenges.sqlite3"
    with serving({"LEXICONS": default_home, "RECORD": record}) as url:
        # The ranks are made once per loaded lexicon: asked for here, so no page waits for them.
        with urllib.request.urlopen(f"{url}/v1/es-fise/card/casa", timeout=300) as answer:
            assert json.load(answer)["rank"]
        yield url


@pytest.fixture(scope="module")
def fise(default_home: Path) -> Lexicon:
    return load_lexicon("es-fise", default_home)


def second_browser(profile: Path) -> WebDriver:
    """Another chromium with a profile of its own: another device, sharing nothing with the first."""
    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in [*FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)


def press(driver: WebDriver, element_id: str) -> None:
    """Focus a control and press Enter on it, as a keyboard user does."""
    driver.execute_script("arguments[0].focus()", by_id(driver, element_id))
    type_keys(driver, Keys.ENTER)


def shown_words(driver: WebDriver) -> list[str]:
    return [
        b.get_attribute("data-card-word") or ""
        for b in driver.find_elements(By.CSS_SELECTOR, "#search-results [data-card-word]")
    ]


def screenshot(driver: WebDriver, tmp_path: Path, name: str) -> None:
    driver.save_screenshot(str(tmp_path / name))
    folder = os.environ.get("LEXTOOLS_SCREENSHOTS")
    if folder:
        driver.save_screenshot(str(Path(folder) / name))


def search_anagrams(driver: WebDriver, url: str) -> None:
    open_page(driver, f"{url}/search?edition=es-fise")
    driver.execute_script("arguments[0].focus()", by_id(driver, "search-query"))
    type_keys(driver, "aeinrs?")
    for field, value in (("c-min_length", "7"), ("c-max_length", "7")):
        driver.execute_script("arguments[0].focus()", by_id(driver, field))
        type_keys(driver, value)
    driver.execute_script("arguments[0].focus()", by_id(driver, "search-order"))
    type_keys(driver, "Probabilidad")
    assert by_id(driver, "search-order").get_attribute("value") == "probability"
    driver.execute_script("arguments[0].focus()", by_id(driver, "search-query"))
    type_keys(driver, Keys.ENTER)


def test_search_card_quiz_cardbox_and_sync(
    browser: WebDriver,  # noqa: F811
    fise_url: str,
    fise: Lexicon,
    tmp_path: Path,
) -> None:
    ed = fise.edition
    key, blanks = search.parse_rack("AEINRS?", fise)
    expected = {ed.spelling(m.key) for m in search.anagrams(fise, key, blanks)}
    browser.set_window_size(1000, 900)
    search_anagrams(browser, fise_url)
    results = by_id(browser, "search-results")
    wait_for(browser, lambda d: int(results.get_attribute("data-count") or 0) > 0, "the first page", 60)
    first_page = shown_words(browser)
    # Likeliest draw first: the first page's words by falling count of draws from the bag.
    ways = [ed.probability(fise.spell(w).tiles) for w in first_page]
    assert ways == sorted(ways, reverse=True) and len(first_page) == 100  # the page's limit
    assert {g.get_attribute("data-length") for g in browser.find_elements(By.CSS_SELECTOR, ".length-group")} == {"7"}
    cha = browser.find_elements(By.CSS_SELECTOR, "#search-results .word-tiles")[0]
    assert cha.get_attribute("data-tiles") == " ".join(fise.spell(first_page[0]).tiles)
    browser.execute_script("document.getElementById('search-submit').scrollIntoView()")
    screenshot(browser, tmp_path, "search-page.png")
    press(browser, "search-more")  # the API's next_cursor
    wait_for(browser, lambda d: results.get_attribute("data-done") == "true", "the last page", 60)
    assert set(shown_words(browser)) == expected and len(shown_words(browser)) == len(expected)

    # The word card of the likeliest word with a hook and an inner-hook dot, from the keyboard; Esc
    # gives the focus back to the word.
    def dotted_hooks(w: str) -> bool:
        h = fise.hooks(fise.spell(w).key)
        return bool(h.front or h.back) and (h.front_inner or h.back_inner)

    word = next(w for w in first_page if dotted_hooks(w))
    button = browser.find_element(By.CSS_SELECTOR, f"#search-results [data-card-word='{word}']")
    browser.execute_script("arguments[0].focus()", button)
    type_keys(browser, Keys.ENTER)
    card = wait_for(
        browser,
        lambda d: (
            d.find_element(By.ID, "word-card").get_attribute("data-word") == word and d.find_element(By.ID, "word-card")
        ),
        "the card",
    )
    hooks = fise.hooks(fise.spell(word).key)
    shown_hooks = card.find_element(By.CSS_SELECTOR, ".card-hooks")
    dotted = ("·" if hooks.front_inner else "") + word + ("·" if hooks.back_inner else "")
    assert "·" in dotted
    assert shown_hooks.get_attribute("data-hooked") == dotted
    assert shown_hooks.get_attribute("data-front") == " ".join(hooks.front)
    assert shown_hooks.get_attribute("data-back") == " ".join(hooks.back)
    others = sorted(w for w in expected if sorted(fise.spell(w).key) == sorted(fise.spell(word).key) and w != word)
    assert sorted(a.text for a in card.find_elements(By.CSS_SELECTOR, ".card-anagrams [data-card-word]")) == others
    rank = card.find_element(By.CSS_SELECTOR, ".card-rank")
    assert 1 <= int(rank.get_attribute("data-rank") or 0) <= int(rank.get_attribute("data-of") or 0)
    assert "Probabilidad: puesto" in rank.text
    tiles = card.find_element(By.CSS_SELECTOR, ".tiles").get_attribute("data-tiles")
    assert tiles == " ".join(fise.spell(word).tiles)
    screenshot(browser, tmp_path, "word-card.png")
    type_keys(browser, Keys.ESCAPE)
    wait_for(browser, lambda d: not d.find_element(By.ID, "word-card").is_displayed(), "the card to close")
    assert browser.execute_script("return document.activeElement.dataset.cardWord") == word

    # Into the cardbox: one anagram card per alphagram of the results.
    press(browser, "search-cardbox")
    added_to = by_id(browser, "search-action-message")
    added = int(wait_for(browser, lambda d: added_to.get_attribute("data-added"), "the cards added", 60))
    alphagrams = {"".join(sorted(fise.spell(w).key)) for w in expected}
    assert added == len(alphagrams)

    # Quiz on these: the study page takes the list and asks its alphagrams.
    press(browser, "search-quiz")
    wait_for(browser, lambda d: "list=session" in d.current_url, "the study page")
    rack = by_id(browser, "quiz-rack")
    asked = wait_for(browser, lambda d: rack.get_attribute("data-question"), "the first question", 60)
    racks = {rack_text(sorted(fise.spell(w).tiles, key=lambda t: ed.collation_key(ed.encode([t])))) for w in expected}
    assert asked in racks  # the anagram quiz's own question: its alphagram in the edition's alphabet
    assert "Cuestionario con la lista" in by_id(browser, "quiz-message").text
    assert f"{len(alphagrams)} preguntas" in by_id(browser, "quiz-message").text
    answers = [ed.spelling(m.key) for m in search.anagrams(fise, *search.parse_rack(asked, fise))]
    for answer in answers:
        type_keys(browser, answer.lower() + Keys.ENTER)
    assert wait_for(browser, lambda d: by_id(d, "quiz-outcome").get_attribute("data-right"), "the outcome") == "true"
    summary = by_id(browser, "cardbox-summary")
    wait_for(browser, lambda d: summary.get_attribute("data-cards") == str(added), "the cardbox on the study page")

    # Keep it on the server, and take it on another device with the code.
    press(browser, "sync-create")
    code = wait_for(browser, lambda d: by_id(d, "sync-code").get_attribute("data-code"), "the sync code")
    assert len(code.replace("-", "")) == 20 and code in by_id(browser, "sync-message").text
    other = second_browser(tmp_path / "second-profile")
    try:
        open_page(other, f"{fise_url}/study?edition=es-fise")
        wait_for(other, lambda d: by_id(d, "cardbox-summary").get_attribute("data-cards") == "0", "an empty cardbox")
        other.execute_script("arguments[0].focus()", by_id(other, "sync-input"))
        type_keys(other, code.lower() + Keys.ENTER)
        got = by_id(other, "cardbox-summary")
        wait_for(other, lambda d: got.get_attribute("data-cards") == str(added), "the cardbox on the second profile")
        assert f"{added} tarjetas traídas" in by_id(other, "sync-message").text
        assert console_errors(other) == []
    finally:
        other.quit()
    assert console_errors(browser) == []


def test_the_search_page_on_a_phone(browser: WebDriver, fise_url: str) -> None:  # noqa: F811
    browser.set_window_size(375, 800)
    try:
        open_page(browser, f"{fise_url}/search?edition=es-fise")
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 375, "nothing wider than the phone's screen"
        labels = browser.find_elements(By.CSS_SELECTOR, "#search-form label")
        for label in labels:  # every field has its label, tied to it
            assert by_id(browser, label.get_attribute("for")).is_displayed()
        assert console_errors(browser) == []
    finally:
        browser.set_window_size(1280, 900)


# -- issue 32: a page you can drive, whole results, saved searches ------------------------------------

FIRST_RESULT_IN_VIEW = """
const b = document.querySelector('#search-results [data-card-word]');
if (!b) return false;
const r = b.getBoundingClientRect();
return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
"""


def enter_search(driver: WebDriver, url: str, rack: str) -> WebElement:
    """Type a rack on the search page and press Enter in its field; the results once shown."""
    open_page(driver, f"{url}/search?edition=es-fise")
    driver.execute_script("arguments[0].focus()", by_id(driver, "search-query"))
    type_keys(driver, rack + Keys.ENTER)
    results = by_id(driver, "search-results")
    wait_for(driver, lambda d: int(results.get_attribute("data-count") or 0) > 0, "the first page", 60)
    return results


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_after_enter_the_first_result_is_in_view_five_tabs_away(
    browser: WebDriver,  # noqa: F811
    fise_url: str,
    size: tuple[int, int],
) -> None:
    browser.set_window_size(*size)
    try:
        enter_search(browser, fise_url, "aeinrs?")
        assert browser.execute_script(FIRST_RESULT_IN_VIEW), "the first result is in the viewport"
        assert by_id(browser, "search-conditions").get_attribute("open") is None  # folded away
        actions = by_id(browser, "search-actions").rect
        assert actions["y"] + actions["height"] <= by_id(browser, "search-results").rect["y"]  # above the results
        assert focused_id(browser) == "search-query"  # the rack field keeps the focus: type the next rack
        tabs = 0
        while not browser.execute_script("return document.activeElement.dataset.cardWord") and tabs < 20:
            type_keys(browser, Keys.TAB)
            tabs += 1
        first = browser.find_element(By.CSS_SELECTOR, "#search-results [data-card-word]")
        assert tabs <= 5 and browser.switch_to.active_element == first, tabs
        # The toolbar's buttons are one Tab stop, the arrow keys move between them.
        browser.execute_script("arguments[0].focus()", by_id(browser, "search-quiz"))
        type_keys(browser, Keys.ARROW_RIGHT)
        assert focused_id(browser) == "search-cardbox"
        # The query is in the address bar.
        address = parse_qs(urlsplit(browser.current_url).query)
        assert address["q"] == ["aeinrs?"] and address["mode"] == ["anagram"] and address["edition"] == ["es-fise"]
        assert console_errors(browser) == []
    finally:
        browser.set_window_size(1280, 900)


def every_page(driver: WebDriver) -> list[str]:
    """Press More results until the search is done (a page stops at the API's budget); its words."""
    results = by_id(driver, "search-results")
    wait_for(driver, lambda d: int(results.get_attribute("data-count") or 0) > 0, "the first page", 60)
    while results.get_attribute("data-done") != "true":
        count = results.get_attribute("data-count")
        press(driver, "search-more")

        def moved(d: WebDriver, was: str | None = count) -> bool:
            return results.get_attribute("data-done") == "true" or results.get_attribute("data-count") != was

        wait_for(driver, moved, "the next page", 60)
    return shown_words(driver)


def test_a_saved_search_reopens_from_its_url(browser: WebDriver, fise_url: str) -> None:  # noqa: F811
    browser.set_window_size(1280, 900)
    open_page(browser, f"{fise_url}/search?edition=es-fise")
    browser.execute_script("localStorage.removeItem('lextools:searches')")
    Select(by_id(browser, "search-mode")).select_by_value("pattern")
    for field, value in (("c-max_length", "5"), ("c-consists_of", "chao"), ("c-min_vowels", "3")):
        browser.execute_script("arguments[0].focus()", by_id(browser, field))
        type_keys(browser, value)
    by_id(browser, "c-not_vowels").click()  # not: fewer than 3 vowels
    browser.execute_script("arguments[0].focus()", by_id(browser, "search-query"))
    type_keys(browser, "ch*" + Keys.ENTER)
    found = every_page(browser)
    assert found and all(set(w) <= set("CHAO") and sum(c in "AO" for c in w) < 3 for w in found), found
    assert parse_qs(urlsplit(browser.current_url).query)["not_vowels"] == ["true"]
    by_id(browser, "search-saved").find_element(By.TAG_NAME, "summary").click()
    name = by_id(browser, "search-save-name")
    name.clear()
    name.send_keys("chao corto" + Keys.ENTER)
    link = wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, "[data-saved='chao corto']"), "the saved search")
    saved_url = link.get_attribute("href")
    open_page(browser, f"{fise_url}/search?edition=es-fise")  # a page with nothing asked
    assert by_id(browser, "search-results").get_attribute("data-count") == "0"
    by_id(browser, "search-saved").find_element(By.TAG_NAME, "summary").click()
    browser.find_element(By.CSS_SELECTOR, "[data-saved='chao corto']").click()
    wait_for(browser, lambda d: d.current_url == saved_url, "the saved search's address")
    assert every_page(browser) == found
    assert by_id(browser, "search-mode").get_attribute("value") == "pattern"
    assert by_id(browser, "c-consists_of").get_attribute("value") == "chao"
    assert by_id(browser, "c-not_vowels").is_selected()
    open_page(browser, saved_url)  # the address alone (a bookmark, a shared link) runs it too
    assert every_page(browser) == found
    assert console_errors(browser) == []


def test_quiz_on_the_whole_result_counts_the_apis_total(
    browser: WebDriver,  # noqa: F811
    fise_url: str,
    fise: Lexicon,
) -> None:
    browser.set_window_size(1280, 900)
    key, blanks = search.parse_rack("AEINRS?", fise)
    every = list(search.anagrams(fise, key, blanks))
    assert len(every) == 142
    results = enter_search(browser, fise_url, "aeinrs?")
    assert results.get_attribute("data-count") == "100" and results.get_attribute("data-done") == "false"
    # The tile each blank stands for is marked, in lower case (Zyzzyva's way).
    for shown in browser.find_elements(By.CSS_SELECTOR, "#search-results .word-tiles"):
        marked = shown.find_elements(By.CSS_SELECTOR, ".t.blank")
        assert len(marked) == 1 and marked[0].text == (shown.get_attribute("data-blanks") or "").lower()
    # A card with no hooks says so, rather than the word alone between nothing.
    bare = next(m for m in every if not fise.hooks(m.key).front and not fise.hooks(m.key).back)
    browser.execute_script(
        "document.querySelector('#search-results').append(Object.assign(document.createElement('button'),"
        " {id: 'bare', type: 'button'})); document.getElementById('bare').dataset.cardWord = arguments[0]",
        fise.edition.spelling(bare.key),
    )
    press(browser, "bare")
    hooks = wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#word-card .card-hooks"), "the card")
    assert hooks.text == "Ganchos: ninguno" and hooks.get_attribute("data-none") == "true"
    type_keys(browser, Keys.ESCAPE)
    browser.execute_script("document.getElementById('bare').remove()")
    press(browser, "search-quiz")
    wait_for(browser, lambda d: "list=session" in d.current_url, "the study page", 60)
    counted = wait_for(browser, lambda d: by_id(d, "lists-result").find_element(By.TAG_NAME, "p"), "the list", 60)
    assert counted.text.endswith(": 142 de 142"), counted.text
    # The list selector names the list shown (not "Raíces", the first kind the server makes).
    kind = Select(by_id(browser, "lists-kind")).first_selected_option
    assert kind.get_attribute("value") == "session" and kind.text == "Lista de la página de búsqueda"
    alphagrams = {"".join(sorted(m.key)) for m in every}
    message = by_id(browser, "quiz-message")
    wait_for(browser, lambda d: f"{len(alphagrams)} preguntas" in message.text, "the quiz on the whole list", 60)
    assert console_errors(browser) == []


def test_a_whole_result_cut_at_the_bound_says_so(
    browser: WebDriver,  # noqa: F811
    default_home: Path,
    tmp_path: Path,
) -> None:
    """SEARCH_WHOLE_LIMIT set to 120: AEINRS?'s 142 anagrams are handed over as their first 120, and
    both pages say so."""
    config = {"LEXICONS": default_home, "RECORD": tmp_path / "challenges.sqlite3", "SEARCH_WHOLE_LIMIT": 120}
    with serving(config) as url:
        browser.set_window_size(1280, 900)
        enter_search(browser, url, "aeinrs?")
        assert by_id(browser, "search-form").get_attribute("data-whole-limit") == "120"
        press(browser, "search-quiz")
        wait_for(browser, lambda d: "list=session" in d.current_url, "the study page", 60)
        counted = wait_for(browser, lambda d: by_id(d, "lists-result").find_element(By.TAG_NAME, "p"), "the list", 60)
        assert counted.text == "Búsqueda aeinrs? (las 120 primeras): 120 de 120", counted.text
        open_page(browser, f"{url}/search?edition=es-fise&mode=anagram&q=aeinrs%3F")
        results = by_id(browser, "search-results")
        wait_for(browser, lambda d: int(results.get_attribute("data-count") or 0) > 0, "the first page", 60)
        press(browser, "search-download")
        said = by_id(browser, "search-action-message")
        actions = by_id(browser, "search-actions")
        wait_for(browser, lambda d: actions.get_attribute("data-downloaded") == "120", "the download")
        assert said.text == "La búsqueda tiene más de 120 palabras: solo se toman las 120 primeras."
        assert console_errors(browser) == []
