"""The study page's lists in headless chromium: "Frente a" defaults to another edition of the same
language, the page shows the progress while the server makes a list (its button disabled until the
list is shown), and a list says how many items it holds."""

from __future__ import annotations

import json
import urllib.request

import pytest
from selenium.webdriver.remote.webdriver import WebDriver
from test_browser import base_url, browser, by_id, console_errors, open_page, wait_for  # noqa: F401

pytestmark = pytest.mark.slow

#: The page's first request for a list of new words answered as the server does while it makes the
#: list (ready: false, its progress, Retry-After); every later request goes to the server.
NOT_READY_FIRST = """
const real = window.fetch;
window.listsAsked = 0;
window.fetch = async (url, init) => {
  if (String(url).includes("/lists/new")) {
    window.listsAsked += 1;
    if (window.listsAsked === 1) {
      const body = {edition: "es-fise", list: "new", from: 1, total: 0, count: 0, against: "en", length: null,
                    words: [], ready: false, progress: 0.42};
      return new Response(JSON.stringify(body), {status: 200,
        headers: {"Content-Type": "application/json", "Retry-After": "1"}});
    }
  }
  return real(url, init);
};
"""


def choose_value(driver: WebDriver, select_id: str, value: str) -> None:
    driver.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'))",
        by_id(driver, select_id),
        value,
    )


def test_new_words_default_sibling_progress_and_count(browser: WebDriver, base_url: str) -> None:  # noqa: F811
    open_page(browser, f"{base_url}/study?edition=es-fise")
    choose_value(browser, "lists-kind", "new")
    assert by_id(browser, "lists-against").get_attribute("value") == "es-na103"
    choose_value(browser, "edition", "en")  # no other English edition: the first other one
    wait_for(browser, lambda d: by_id(d, "lists-against").get_attribute("value") == "es-fise", "en's default")
    open_page(browser, f"{base_url}/study?edition=es-fise")
    choose_value(browser, "lists-kind", "new")
    choose_value(browser, "lists-against", "en")
    browser.execute_script(NOT_READY_FIRST)
    by_id(browser, "lists-show").click()
    wait_for(browser, lambda d: "42 %" in by_id(d, "lists-message").text, "the progress")
    assert not by_id(browser, "lists-show").is_enabled(), "the button waits for the list"
    count = wait_for(browser, lambda d: by_id(d, "lists-result").text.split("\n")[0], "the list")
    # the faked answer, then the real list: made by a child process (the service makes every list in
    # one), which may take another ask or two after Retry-After
    assert by_id(browser, "lists-show").is_enabled() and browser.execute_script("return window.listsAsked") >= 2
    with urllib.request.urlopen(f"{base_url}/v1/es-fise/lists/new?against=en&count=100") as r:
        answer = json.load(r)
    assert answer["ready"] is True and answer["total"] > 0
    assert count == f"Nuevas en este léxico: {answer['count']} de {answer['total']}"
    assert by_id(browser, "lists-message").text == ""
    assert not console_errors(browser)
