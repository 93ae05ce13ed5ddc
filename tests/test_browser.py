"""The pages in a real browser: Debian's headless chromium, driven by Selenium through chromedriver.

The service runs for real (werkzeug's server on a free port of 127.0.0.1, in a thread) over the
small test lexicons. Nothing here is ever skipped: when chromium or chromedriver is missing the
tests fail and say to run ``scripts/install-test-programs`` (``scripts/test`` runs it). Screenshots go to
each test's ``tmp_path``.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lextools.cli.main import app as cli
from lextools.features.receipts import load_secret
from lextools.features.record import ChallengeRecord
from service import create_app
from service.http.limits import MAX_PLAY_CHARS, MAX_WORD_CHARS

try:
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.remote.webelement import WebElement
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError as e:  # not a skip: the test extra installs selenium (scripts/setup)
    raise ImportError(f"{e}: install the test extra with scripts/setup (pip install -e '.[test]')") from e

pytestmark = pytest.mark.slow

CHROMIUM = Path(os.environ.get("LEXTOOLS_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("LEXTOOLS_CHROMEDRIVER", "/usr/bin/chromedriver"))

#: Headless, and quiet: no sandbox (root in CI), no GPU, nothing fetched from the network by chromium itself.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
]

#: A spy on window.fetch: what the page sent and what it got back, for the judge's blindness.
FETCH_SPY = """
window.__calls = [];
const original = window.fetch;
window.fetch = async (input, init) => {
  const response = await original(input, init);
  const reply = await response.clone().text();
  window.__calls.push({url: String(input), body: (init && init.body) || null, reply});
  return response;
};
"""


# -- the server and the browser -------------------------------------------------------------------


@contextmanager
def serving(config: dict[str, Any] | Any) -> Iterator[str]:
    """Serve the app for ``config`` (or any WSGI app) on a free port of 127.0.0.1."""
    from werkzeug.serving import make_server

    app = create_app(config) if isinstance(config, dict) else config
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="lextools-test-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


#: How long a verdict stays on the test servers' judge (``lextools serve --judge-clear``).
CLEAR_SECONDS = 3


@pytest.fixture(scope="module")
def base_url(lexicon_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    record = tmp_path_factory.mktemp("record") / "challenges.sqlite3"
    with serving({"LEXICONS": lexicon_home, "RECORD": record, "JUDGE_CLEAR_SECONDS": CLEAR_SECONDS}) as url:
        yield url


@pytest.fixture(scope="module")
def kiosk_url(lexicon_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``lextools serve --kiosk es-fise``."""
    record = tmp_path_factory.mktemp("record") / "challenges.sqlite3"
    config = {"LEXICONS": lexicon_home, "RECORD": record, "JUDGE_CLEAR_SECONDS": CLEAR_SECONDS, "KIOSK": "es-fise"}
    with serving(config) as url:
        yield url


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        pytest.fail(
            f"the browser tests need Debian's chromium and chromedriver; missing: {', '.join(missing)}. "
            "Run scripts/install-test-programs (as root), which scripts/test does.",
            pytrace=False,
        )
    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in [*FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # console errors: see console_errors()
    # The driver named explicitly: Selenium Manager never looks for (or downloads) one.
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


# -- helpers --------------------------------------------------------------------------------------


def wait_for(driver: WebDriver, condition: Callable[[WebDriver], Any], what: str, timeout: float = 10) -> Any:
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(condition)
    except TimeoutException:
        raise AssertionError(f"timed out waiting for {what}") from None


def open_page(driver: WebDriver, url: str) -> None:
    """Load a page and wait until its module script has run (it wires the edition selector)."""
    driver.get(url)
    wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete", "the page to load")


def type_keys(driver: WebDriver, text: str) -> None:
    """Type at whatever has the focus: the judge is used from the keyboard alone."""
    driver.switch_to.active_element.send_keys(text)


def focused_id(driver: WebDriver) -> str:
    return str(driver.execute_script("return document.activeElement && document.activeElement.id"))


def by_id(driver: WebDriver, element_id: str) -> WebElement:
    return driver.find_element(By.ID, element_id)


def verdict_of(driver: WebDriver) -> str:
    return str(by_id(driver, "verdict").get_attribute("data-verdict") or "")


def console_errors(driver: WebDriver) -> list[str]:
    """Errors the pages logged since the last call: a script exception, a CSP refusal, a failed load."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def calls(driver: WebDriver) -> list[dict[str, Any]]:
    return list(driver.execute_script("return window.__calls"))


def open_judge(driver: WebDriver, base_url: str, edition: str) -> None:
    open_page(driver, f"{base_url}/judge?edition={edition}")
    wait_for(driver, lambda d: focused_id(d) == "count", "the judge to focus the word count")
    driver.execute_script(FETCH_SPY)


def judge_play(driver: WebDriver, count: str, play: str) -> str:
    """Type the count and the play, Enter, and return the verdict once it shows."""
    type_keys(driver, count)
    assert focused_id(driver) == "words", "a valid count moves straight on to the words"
    type_keys(driver, play + Keys.ENTER)
    return str(wait_for(driver, verdict_of, "the verdict"))


def wait_until_cleared(driver: WebDriver) -> None:
    wait_for(driver, lambda d: verdict_of(d) == "" and focused_id(d) == "count", "the verdict to clear")
    assert not by_id(driver, "verdict").is_displayed()


def dismiss(driver: WebDriver) -> None:
    """Esc: the arbiter is done reading the verdict."""
    type_keys(driver, Keys.ESCAPE)
    wait_for(driver, lambda d: verdict_of(d) == "" and focused_id(d) == "count", "Esc to clear the verdict", 1)


# -- the Word Judge ---------------------------------------------------------------------------------


def test_judge_casa_dame_is_not_acceptable_and_names_no_word(browser: WebDriver, base_url: str, tmp_path: Path) -> None:
    open_judge(browser, base_url, "es-fise")
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "es"
    assert "¿Cuántas palabras" in browser.find_element(By.CSS_SELECTOR, "label[for=count]").text

    assert judge_play(browser, "2", "casa dame") == "not-acceptable"
    shown = time.monotonic()
    browser.save_screenshot(str(tmp_path / "judge-es-fise-not-acceptable.png"))

    verdict = by_id(browser, "verdict")
    assert verdict.is_displayed()
    assert "NO ACEPTABLE" in verdict.text and "NOT ACCEPTABLE" in verdict.text
    page_text = browser.find_element(By.TAG_NAME, "body").text
    assert "NOT ACCEPTABLE" in page_text
    assert "DAME" not in page_text.upper() and "DAME" not in browser.page_source.upper()
    assert by_id(browser, "count").get_property("value") == ""
    assert by_id(browser, "words").get_property("value") == ""

    # The browser never even received which word failed: one blind challenge, no per-word results.
    [call] = calls(browser)
    assert call["url"].endswith("/v1/es-fise/challenge")
    assert json.loads(call["body"]) == {"words": ["casa", "dame"], "reveal": False}
    reply = json.loads(call["reply"])
    assert reply["acceptable"] is False and "results" not in reply
    assert "DAME" not in call["reply"].upper()

    # Stray keys while the verdict shows are swallowed: nothing typed, nothing sent, verdict stays.
    type_keys(browser, "3casa" + Keys.ENTER)
    assert verdict_of(browser) == "not-acceptable"
    assert by_id(browser, "count").get_property("value") == ""
    assert by_id(browser, "words").get_property("value") == ""
    assert len(calls(browser)) == 1

    wait_until_cleared(browser)
    assert time.monotonic() - shown >= CLEAR_SECONDS - 0.25  # the server's --judge-clear, not less
    assert browser.find_element(By.TAG_NAME, "body").text.count("NOT ACCEPTABLE") == 0


def test_judge_acceptable_play_and_the_refusals(browser: WebDriver, base_url: str, tmp_path: Path) -> None:
    open_judge(browser, base_url, "es-fise")
    assert judge_play(browser, "2", "chiquillo, calle") == "acceptable"
    verdict = by_id(browser, "verdict")
    assert verdict.text.startswith("ACEPTABLE") and "ACCEPTABLE" in verdict.text and "NO " not in verdict.text
    assert "La jugada se mantiene" in verdict.text  # the edition's ruling, in Spanish
    browser.save_screenshot(str(tmp_path / "judge-es-fise-acceptable.png"))
    dismiss(browser)

    message = by_id(browser, "message")
    # A count that does not match the words typed: a message, and no request.
    type_keys(browser, "3")
    type_keys(browser, "casa cosa" + Keys.ENTER)
    wait_for(browser, lambda d: "anunciadas: 3" in message.text, "the word-count message")
    assert "escritas: 2" in message.text
    assert verdict_of(browser) == ""
    assert len(calls(browser)) == 1  # only the acceptable play above

    # Refused client-side, as the server would refuse them: more than 8 words, a word of more than 60
    # characters (no board's word in any notation); the field holds at most 8 such words.
    words = by_id(browser, "words")
    words.clear()  # (clearing blurs the field: type into it by name from here)
    words.send_keys(" ".join(["casa"] * 9) + Keys.ENTER)
    wait_for(browser, lambda d: "como mucho 8 palabras" in message.text, "the too-many-words message")
    words.clear()
    words.send_keys("a" * (MAX_WORD_CHARS + 1) + " casa cosa" + Keys.ENTER)
    wait_for(browser, lambda d: f"pasa de {MAX_WORD_CHARS} caracteres" in message.text, "the word-too-long message")
    words.clear()
    words.send_keys("casa " * 120)
    assert len(words.get_property("value")) == MAX_PLAY_CHARS == 487
    assert len(calls(browser)) == 1

    # A count that is not 1 to 8 is not taken.
    count = by_id(browser, "count")
    count.click()
    type_keys(browser, "9")
    assert count.get_property("value") == "" and "del 1 al 8" in message.text


def test_a_word_longer_than_the_board_is_not_acceptable(browser: WebDriver, base_url: str, tmp_path: Path) -> None:
    """ANTICONSTITUCIONAL (18 tiles) cannot be on a 15-square board: a verdict, never "call the director"."""
    open_judge(browser, base_url, "es-fise")
    assert judge_play(browser, "1", "ANTICONSTITUCIONAL") == "not-acceptable"
    verdict = by_id(browser, "verdict")
    assert verdict.text.splitlines()[0] == "NO ACEPTABLE" and "La jugada se retira" in verdict.text
    browser.save_screenshot(str(tmp_path / "judge-es-fise-too-long.png"))
    assert "director" not in browser.find_element(By.TAG_NAME, "body").text
    [call] = calls(browser)
    reply = json.loads(call["reply"])
    assert reply["acceptable"] is False and "results" not in reply  # blind, signed, shown on the page
    assert f"Recibo {reply['receipt']['id'][:8]}" in verdict.text
    dismiss(browser)

    # The page's own limit is not in letters: 11 CH tiles are 22 letters, a word the page sends
    # (today's 20-letter limit refused it); with a word the edition cannot spell (K: no tile in
    # es-fise), a play of three words is judged as a whole: NOT ACCEPTABLE.
    assert judge_play(browser, "3", "CH" * 11 + " kilo casa") == "not-acceptable"
    assert json.loads(calls(browser)[-1]["body"])["words"] == ["CH" * 11, "kilo", "casa"]
    assert by_id(browser, "verdict").text.splitlines()[0] == "NO ACEPTABLE"
    dismiss(browser)


def test_judge_in_english_and_french(browser: WebDriver, base_url: str, tmp_path: Path) -> None:
    open_judge(browser, base_url, "en")
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    assert judge_play(browser, "1", "cats") == "acceptable"
    assert by_id(browser, "verdict").text.splitlines()[0] == "ACCEPTABLE"
    dismiss(browser)
    assert judge_play(browser, "2", "cats,dogs") == "not-acceptable"
    assert by_id(browser, "verdict").text.splitlines()[0] == "NOT ACCEPTABLE"
    dismiss(browser)
    assert browser.find_element(By.CSS_SELECTOR, "[data-list=edition]").text == "en"

    # Picking another edition relabels the page in its language, and the next play goes to it.
    Select(by_id(browser, "edition")).select_by_value("fr")
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "fr", "French labels")
    assert "Combien de mots" in browser.find_element(By.CSS_SELECTOR, "label[for=count]").text
    assert "edition=fr" in browser.current_url  # a reload keeps the edition
    # The list it judges with follows the edition.
    lists = json.loads(by_id(browser, "word-lists").get_attribute("textContent"))
    assert browser.find_element(By.CSS_SELECTOR, "[data-list=checksum]").text == lists["fr"]["checksum"]
    assert browser.find_element(By.CSS_SELECTOR, "[data-list=edition]").text == "fr"
    by_id(browser, "count").click()
    assert judge_play(browser, "1", "œufs") == "acceptable"
    assert by_id(browser, "verdict").text.splitlines()[:2] == ["VALABLE", "ACCEPTABLE"]
    assert calls(browser)[-1]["url"].endswith("/v1/fr/challenge")
    assert "Celui qui a contesté à tort" in by_id(browser, "verdict").text  # the FISF ruling, in French
    browser.save_screenshot(str(tmp_path / "judge-fr-acceptable.png"))
    dismiss(browser)


# -- the study page ---------------------------------------------------------------------------------


def test_study_lookup_and_two_tile_words(browser: WebDriver, base_url: str, tmp_path: Path) -> None:
    open_page(browser, f"{base_url}/study?edition=es-fise")
    result = by_id(browser, "lookup-result")

    def look_up(word: str) -> str:
        field = by_id(browser, "lookup-word")
        field.clear()
        field.send_keys(word + Keys.ENTER)
        return str(wait_for(browser, lambda d: word.upper() in result.text.upper() and result.text, f"lookup {word}"))

    text = look_up("calle")
    assert "CALLE — Válida (es-fise)" in text
    tiles = result.find_element(By.CSS_SELECTOR, "[role=img]")
    assert tiles.get_attribute("aria-label") == "Fichas: C 3, A 1, LL 8, E 1"  # four tiles: LL is one
    assert "Puntos: 13" in text and "Ganchos detrás: S (CALLES)" in text
    browser.save_screenshot(str(tmp_path / "study-lookup.png"))

    dame = look_up("dame")
    assert "DAME — No válida" in dame
    assert "Motivo: DAME" in result.find_element(By.CLASS_NAME, "reason").text  # why, from the API's reason
    kilo = look_up("kilo")  # es-fise has no K tile: the reason in the page's language
    assert "No se puede jugar: 'kilo': es-fise no tiene ficha K" in kilo and " has no " not in kilo

    by_id(browser, "two-show").click()
    two = by_id(browser, "two-result")
    wait_for(browser, lambda d: two.text, "the two-tile list")
    listed = [li.text for li in two.find_elements(By.TAG_NAME, "li")]
    assert {"CHA", "CHE", "CHO", "LLE", "AS", "DA"} <= set(listed)
    assert f"Palabras de dos fichas en es-fise: {len(listed)}" in two.text


def test_pages_fit_a_phone(browser: WebDriver, base_url: str, tmp_path: Path) -> None:
    browser.set_window_size(390, 844)
    try:
        for page in ("study", "judge"):
            open_page(browser, f"{base_url}/{page}?edition=es-fise")
            overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"/{page} scrolls sideways on a phone by {overflow}px"
            browser.save_screenshot(str(tmp_path / f"phone-{page}.png"))
        wait_for(browser, lambda d: focused_id(d) == "count", "the judge to focus the word count")
        assert judge_play(browser, "2", "casa dame") == "not-acceptable"
        browser.save_screenshot(str(tmp_path / "phone-judge-verdict.png"))
    finally:
        browser.set_window_size(1280, 900)


#: Width of each option's text in the select's font, and the width the closed select shows text in
#: (its box less its padding and the arrow, about 24 px).
OPTION_FIT = """
const select = document.getElementById("edition");
const style = getComputedStyle(select);
const context = document.createElement("canvas").getContext("2d");
context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
return [...select.options].map((o) => [o.value, context.measureText(o.textContent).width, room]);
"""


def test_the_edition_is_shown_whole_on_a_phone(browser: WebDriver, base_url: str, tmp_path: Path) -> None:
    """At 375 × 667 the closed selector shows the whole edition name, and the title wraps below it."""
    browser.set_window_size(375, 667)
    try:
        for page in ("study", "judge"):
            open_page(browser, f"{base_url}/{page}?edition=es-fise")
            for name, width, room in browser.execute_script(OPTION_FIT):
                assert width <= room, f"/{page}: {name} needs {width:.0f}px, the selector shows {room:.0f}px"
            title = by_id(browser, "edition-title")
            box = browser.execute_script("return arguments[0].getBoundingClientRect().toJSON()", title)
            assert title.text == "Español — FISE/FILE clásica (100 fichas)"
            assert box["left"] >= 0 and box["right"] <= 375 and title.is_displayed()
            browser.save_screenshot(str(tmp_path / f"phone-375-{page}.png"))
        # Another edition from the keyboard: the title under the selector follows it.
        browser.execute_script("arguments[0].focus()", by_id(browser, "edition"))
        type_keys(browser, "fr")
        wait_for(browser, lambda d: by_id(d, "edition-title").text.startswith("Français"), "the title of fr")
    finally:
        browser.set_window_size(1280, 900)


def test_no_page_logs_an_error(browser: WebDriver, base_url: str) -> None:
    console_errors(browser)  # forget what earlier tests left
    for page in ("", "judge", "study"):
        for edition in ("es-fise", "en", "fr", "es-mattel2021"):
            open_page(browser, f"{base_url}/{page}?edition={edition}")
    # es-mattel2021: no probability order (tile counts unverified), so the quiz form offers alphabetical.
    assert by_id(browser, "quiz-order").get_attribute("value") == "alphabetical"
    by_id(browser, "quiz-start").click()
    wait_for(browser, lambda d: by_id(d, "quiz-rack").get_attribute("data-question"), "a question")
    assert console_errors(browser) == []


# -- kiosk mode ---------------------------------------------------------------------------------------


def test_the_kiosk_judge_has_nothing_but_the_judge(browser: WebDriver, kiosk_url: str, tmp_path: Path) -> None:
    open_page(browser, f"{kiosk_url}/judge?edition=fr")  # the URL cannot pick another edition
    wait_for(browser, lambda d: focused_id(d) == "count", "the judge to focus the word count")
    browser.execute_script(FETCH_SPY)
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "es"
    assert browser.find_elements(By.TAG_NAME, "nav") == [] and browser.find_elements(By.TAG_NAME, "select") == []
    assert browser.find_elements(By.TAG_NAME, "a") == []
    # It shows the list it judges with.
    listed = by_id(browser, "word-list").text
    lists = json.loads(by_id(browser, "word-lists").get_attribute("textContent"))
    assert list(lists) == ["es-fise"]
    assert "es-fise" in listed and lists["es-fise"]["checksum"] in listed and "Palabras" in listed
    browser.save_screenshot(str(tmp_path / "kiosk-judge.png"))

    # Tab goes round the form's fields and never leaves it.
    seen = []
    for _ in range(7):
        type_keys(browser, Keys.TAB)
        seen.append(browser.execute_script("return document.activeElement.id || document.activeElement.tagName"))
    assert set(seen) == {"count", "words", "BUTTON"}
    type_keys(browser, Keys.SHIFT + Keys.TAB)
    by_id(browser, "count").click()

    # A play; keys typed while the verdict shows are ignored; Esc dismisses it at once.
    assert judge_play(browser, "1", "chiquillo") == "acceptable"
    assert calls(browser)[-1]["url"].endswith("/v1/es-fise/challenge")
    type_keys(browser, "2casa")
    assert verdict_of(browser) == "acceptable" and by_id(browser, "count").get_property("value") == ""
    assert "Esc" in by_id(browser, "verdict").text
    receipt = json.loads(calls(browser)[-1]["reply"])["receipt"]
    assert f"Recibo {receipt['id'][:8]}" in by_id(browser, "verdict").text  # what the director looks up
    dismiss(browser)
    assert by_id(browser, "count").get_property("value") == ""

    # Every other page is a page saying there is nothing there, in Spanish.
    open_page(browser, f"{kiosk_url}/study")
    assert "Página no encontrada" in browser.find_element(By.TAG_NAME, "body").text
    assert browser.find_elements(By.TAG_NAME, "a") == []


def test_a_kiosk_challenge_answer_says_nothing_of_any_word(lexicon_home: Path, tmp_path: Path) -> None:
    """On the wire, even asked with ``reveal: true``: the verdict and the receipt, no per-word anything."""
    record = ChallengeRecord(tmp_path / "challenges.sqlite3")
    played = ["casa", "dame", "kilo", "ANTICONSTITUCIONAL"]
    token = "director-token-of-this-test"
    config = {"LEXICONS": lexicon_home, "RECORD": record.path, "KIOSK": "es-fise", "DIRECTOR_TOKEN": token}
    with serving(config) as url:
        request = urllib.request.Request(
            f"{url}/v1/es-fise/challenge",
            data=json.dumps({"words": played, "reveal": True}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200
            raw = response.read().decode()
        # The director's page (behind the token) lists the play and its verdict.
        page = urllib.request.Request(f"{url}/director", headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(page, timeout=10) as response:
            director = response.read().decode()
    answer = json.loads(raw)
    assert set(answer) == {"edition", "words", "acceptable", "ruling", "receipt"}
    assert answer["acceptable"] is False and answer["words"] == len(played)
    for said in ("results", "valid", "reason", "index", "DAME", "KILO", "ANTICONSTITUCIONAL"):
        assert said.lower() not in raw.lower(), said
    # The director's record has everything, and the receipt verifies against it.
    [entry] = record.entries()
    assert entry["words"] == played and entry["acceptable"] is False
    assert record.verify(json.dumps(answer["receipt"]), load_secret(record.path)).ok
    assert "ANTICONSTITUCIONAL" in director.upper() and answer["receipt"]["id"] in director


def test_the_judge_says_to_wait_when_challenges_come_too_fast(
    browser: WebDriver, lexicon_home: Path, tmp_path: Path
) -> None:
    # A server that takes no challenge at all answers every one with 429, as it does past 10 a second.
    config = {"LEXICONS": lexicon_home, "RECORD": tmp_path / "r.sqlite3", "CHALLENGE_RATE": 0}
    with serving(config) as url:
        open_judge(browser, url, "es-fise")
        type_keys(browser, "1")
        type_keys(browser, "casa" + Keys.ENTER)
        wait_for(browser, lambda d: "espera un momento" in by_id(d, "message").text, "the wait message")
        assert verdict_of(browser) == ""


# -- the tournament hall: a touch kiosk and the director's page on a phone ----------------------------

#: A phone held upright (the issue's 390 × 844).
PHONE = (390, 844)
#: The director token of the hall's server.
HALL_TOKEN = "hall-director-t0ken-5e1f"


@contextmanager
def phone(driver: WebDriver) -> Iterator[None]:
    driver.set_window_size(*PHONE)
    try:
        yield
    finally:
        driver.set_window_size(1280, 900)


def overflow(driver: WebDriver) -> int:
    """How far the page scrolls sideways (0 or less: not at all)."""
    return int(driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth"))


@pytest.fixture()
def hall(lexicon_home: Path, tmp_path: Path) -> Iterator[tuple[str, ChallengeRecord]]:
    """``LEXTOOLS_DIRECTOR_TOKEN=… lextools serve --kiosk es-fise``, with a verdict that never clears
    by itself while a test looks at it; its own record."""
    record = ChallengeRecord(tmp_path / "challenges.sqlite3")
    config = {"LEXICONS": lexicon_home, "RECORD": record.path, "KIOSK": "es-fise", "DIRECTOR_TOKEN": HALL_TOKEN,
              "JUDGE_CLEAR_SECONDS": 600}  # fmt: skip
    with serving(config) as url:
        yield url, record


def post_challenge(url: str, words: list[str]) -> dict[str, Any]:
    """A challenge from another table's judge, as its page sends it."""
    request = urllib.request.Request(
        f"{url}/v1/es-fise/challenge", data=json.dumps({"words": words}).encode(),
        headers={"Content-Type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
    return answer


def row_ids(driver: WebDriver) -> list[str]:
    """The ids of the rows, top to bottom, read in one go (the page may redraw a row at any time)."""
    return list(
        driver.execute_script(
            "return [...document.querySelectorAll('#challenges tbody tr')].map((tr) => tr.dataset.id)"
        )
    )


def text_of(driver: WebDriver, selector: str) -> str:
    """An element's text, read in one go (a row the page redraws meanwhile is no stale reference)."""
    return str(driver.execute_script("return document.querySelector(arguments[0])?.innerText ?? ''", selector))


#: The text selected on the page (the director's selection must survive a refresh).
SELECTED = "return String(window.getSelection())"
SELECT_WORDS = """
const cell = document.querySelector(`#challenges tr[data-id="${arguments[0]}"] td.words`);
const range = document.createRange();
range.selectNodeContents(cell);
window.getSelection().removeAllRanges();
window.getSelection().addRange(range);
"""


def test_the_director_page_on_a_phone_refreshes_itself(
    browser: WebDriver, hall: tuple[str, ChallengeRecord], tmp_path: Path
) -> None:
    url, record = hall
    made = [post_challenge(url, ["casa"]), post_challenge(url, ["casa", "dame"])]
    console_errors(browser)
    with phone(browser):
        # The browser asks for the token; as a director types it in, it sends it with every request.
        open_page(browser, url.replace("http://", f"http://director:{HALL_TOKEN}@") + "/director")
        assert browser.find_element(By.TAG_NAME, "h1").text == "Registro de impugnaciones"
        assert row_ids(browser) == [made[1]["receipt"]["id"], made[0]["receipt"]["id"]]  # newest first
        assert overflow(browser) <= 0, f"/director scrolls sideways on a phone by {overflow(browser)}px"
        # A verdict by colour, and by mark and words for whoever cannot tell the colours apart.
        bad, ok = browser.find_elements(By.CSS_SELECTOR, "#challenges tbody tr")
        assert bad.find_element(By.CLASS_NAME, "verdict-cell").text == "✗ NO ACEPTABLE"
        assert ok.find_element(By.CLASS_NAME, "verdict-cell").text == "✓ ACEPTABLE"
        colours = [tr.value_of_css_property("background-color") for tr in (bad, ok)]
        assert colours[0] != colours[1]
        # Stacked: each value on its line, after its column's name in the page's language.
        labels = browser.execute_script(
            "return [...arguments[0].cells].map((td) => [getComputedStyle(td).display,"
            " getComputedStyle(td, '::before').content, td.textContent.trim()])",
            bad,
        )
        assert labels[2:5] == [["block", '"Palabras"', "casa dame"], ["block", '"Veredicto"', "✗ NO ACEPTABLE"],
                               ["block", '"Firma"', "✓ comprobada"]]  # fmt: skip
        browser.save_screenshot(str(tmp_path / "director-phone.png"))

        # The director selects a row's words; another table's challenge arrives: no reload, at the top.
        browser.execute_script("window.__same_page = true")
        browser.execute_script(SELECT_WORDS, made[0]["receipt"]["id"])
        new = post_challenge(url, ["chiquillo"])
        wait_for(browser, lambda d: row_ids(d)[:1] == [new["receipt"]["id"]], "the new challenge on the page", 10)
        assert browser.execute_script("return window.__same_page") is True
        assert browser.execute_script(SELECTED) == "casa"
        assert row_ids(browser)[1:] == [made[1]["receipt"]["id"], made[0]["receipt"]["id"]]
        top = browser.find_element(By.CSS_SELECTOR, "#challenges tbody tr")
        assert "chiquillo" in top.text and "✓ ACEPTABLE" in top.text and new["receipt"]["id"][:8] in top.text
        assert overflow(browser) <= 0

        # A row edited in the record after the game: its signature check says so without a reload.
        with sqlite3.connect(record.path) as db:
            db.execute("UPDATE challenges SET acceptable = 1 WHERE id = ?", (made[1]["receipt"]["id"],))
        db.close()
        edited = f'#challenges tr[data-id="{made[1]["receipt"]["id"]}"]'
        wait_for(browser, lambda d: "ALTERADA" in text_of(d, f"{edited} .sig"), "the altered row", 10)
        assert "✓ ACEPTABLE" in text_of(
            browser, edited
        )  # what the record holds now, and that it is not what was signed
        assert row_ids(browser) == [new["receipt"]["id"], made[1]["receipt"]["id"], made[0]["receipt"]["id"]]
        browser.save_screenshot(str(tmp_path / "director-phone-refreshed.png"))
    assert console_errors(browser) == []


def test_a_touch_kiosk_dismisses_the_verdict_and_prints_the_receipt(
    browser: WebDriver, hall: tuple[str, ChallengeRecord], tmp_path: Path
) -> None:
    url, record = hall
    console_errors(browser)
    with phone(browser):
        open_judge(browser, url, "es-fise")
        assert overflow(browser) <= 0
        # A tablet has no Esc: the verdict's own button clears it, as Esc does.
        assert judge_play(browser, "2", "casa dame") == "not-acceptable"
        browser.save_screenshot(str(tmp_path / "kiosk-phone-verdict.png"))
        by_id(browser, "verdict-next").click()
        wait_for(browser, lambda d: verdict_of(d) == "" and focused_id(d) == "count", "the button to clear the verdict")
        assert not by_id(browser, "verdict").is_displayed()
        assert by_id(browser, "count").get_property("value") == "" and by_id(browser, "message").text == ""

        # The next verdict's receipt, whole, for the players: what receipt verify reads, and no word.
        assert judge_play(browser, "1", "chiquillo") == "acceptable"
        answer = json.loads(calls(browser)[-1]["reply"])
        shown = by_id(browser, "verdict").find_element(By.CLASS_NAME, "verdict-receipt").text
        assert shown == f"Recibo {answer['receipt']['id'][:8]}"
        by_id(browser, "show-receipt").click()
        sheet = by_id(browser, "receipt")
        wait_for(browser, lambda d: sheet.is_displayed(), "the receipt")
        assert json.loads(by_id(browser, "receipt-json").text) == answer["receipt"]
        assert answer["receipt"]["signature"] in sheet.text and "ACEPTABLE" in sheet.text
        assert "CHIQUILLO" not in sheet.text.upper()
        assert overflow(browser) <= 0
        browser.save_screenshot(str(tmp_path / "kiosk-phone-receipt.png"))
        # Printed, the receipt is alone on the page: the verdict and the form are not printed, nor its buttons.
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        try:
            visibility = "return getComputedStyle(document.querySelector(arguments[0])).visibility"
            assert browser.execute_script(visibility, "#receipt-json") == "visible"
            assert browser.execute_script(visibility, "#judge") == "hidden"
            assert browser.execute_script(visibility, ".verdict-main") == "hidden"
            assert not by_id(browser, "receipt-print").is_displayed()
            browser.save_screenshot(str(tmp_path / "kiosk-receipt-printed.png"))
        finally:
            browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        by_id(browser, "receipt-close").click()
        wait_for(browser, lambda d: verdict_of(d) == "" and focused_id(d) == "count", "closing the receipt")
        assert not sheet.is_displayed() and by_id(browser, "receipt-json").text == ""
    assert console_errors(browser) == []

    # The director settles a dispute from the 8 characters the kiosk showed, and the record alone.
    verified = CliRunner().invoke(cli, ["receipt", "verify", "--record", str(record.path), "--id", shown.split()[-1]])
    assert verified.exit_code == 0, verified.output
    assert verified.stdout.splitlines()[1:] == [
        "signed verdict: ACCEPTABLE", 'words as typed (control characters escaped): "chiquillo"'
    ]  # fmt: skip


# -- other sites --------------------------------------------------------------------------------------

#: Run in a page of another origin: what it can do with this service's check and challenge routes.
CROSS_SITE = """
const [base, done] = arguments;
const post = (route, type, mode = "cors") => fetch(`${base}/v1/es-fise/${route}`, {
  method: "POST", mode, headers: {"Content-Type": type}, body: JSON.stringify({words: ["casa"]}),
});
(async () => {
  const out = {};
  try { out.check = (await (await post("check", "application/json")).json()).results[0].valid; }
  catch { out.check = "blocked"; }
  for (const [name, type] of [["json", "application/json"], ["plain", "text/plain"]]) {
    try { await post("challenge", type); out[name] = "read"; } catch { out[name] = "blocked"; }
  }
  await post("challenge", "text/plain", "no-cors");  // a blind forgery: the page never sees the answer
  done(out);
})();
"""


def test_other_sites_may_check_words_but_not_challenge(browser: WebDriver, lexicon_home: Path, tmp_path: Path) -> None:
    def elsewhere(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        start_response("200 OK", [("Content-Type", "text/html")])
        return [b"<!doctype html><title>another site</title><p>Win a prize!</p>"]

    record = tmp_path / "challenges.sqlite3"
    with serving({"LEXICONS": lexicon_home, "RECORD": record}) as url, serving(elsewhere) as other:
        open_page(browser, other)
        out = browser.execute_async_script(CROSS_SITE, url)
        # check is open to app developers (CORS with its preflight); the challenge's preflight is
        # refused, and a "simple" text/plain post is refused by the server itself.
        assert out == {"check": True, "json": "blocked", "plain": "blocked"}
    assert not record.exists() or ChallengeRecord(record).entries() == []
