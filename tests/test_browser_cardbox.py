"""The study page's cardbox in headless chromium: two devices (two chromium profiles) study the same
synced cardbox offline and sync in either order without losing a card; a sync that meets another
device's write retries; a wrong sync code and a malformed one are told apart; an FSRS deck schedules
exactly as ts-fsrs does; version 1 exports still import. And the server's side of a sync: ETag and
If-Match on the cardbox routes."""

from __future__ import annotations

import hashlib
import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from test_browser import base_url, browser, by_id, console_errors, open_page, type_keys, wait_for  # noqa: F401
from test_browser_quiz import choose, forget_cardbox, question_id, start_quiz
from test_browser_search import press, second_browser

from lextools.features.cardboxes import etag
from service import create_app

pytestmark = pytest.mark.slow

STATIC = Path(__file__).parent.parent / "service" / "pages" / "static"
DECK = "es-fise|anagram"
MINUTE = 60_000
DAY = 24 * 60 * MINUTE

#: Run an async function of the page's cardbox module (``m``) and the script's arguments; its result
#: comes back (an exception comes back as {"error": text}).
CALL = """const finish = arguments[arguments.length - 1];
const args = Array.from(arguments).slice(0, -1);
import("/static/cardbox.js")
  .then((m) => (%s)(m, ...args))
  .then((out) => finish(out === undefined ? null : out), (e) => finish({ error: String(e) }));"""


def forget(driver: WebDriver, base: str) -> None:
    """A browser with no cardbox and no choices (the schedulers, the code) kept."""
    forget_cardbox(driver, base)
    driver.execute_script("localStorage.clear()")


def call(driver: WebDriver, function: str, *args: Any) -> Any:
    out = driver.execute_async_script(CALL % function, *args)
    assert not (isinstance(out, dict) and "error" in out), out
    return out


def questions(base: str, count: int) -> list[dict[str, Any]]:
    """Real anagram questions of the small es-fise lexicon, with the settings a card keeps."""
    with urllib.request.urlopen(f"{base}/v1/es-fise/quiz?type=anagram&length=5&count={count}&seed=7") as answer:
        found = json.load(answer)["questions"]
    assert len(found) == count
    return [{**q, "length": len(q["rack"]), "blanks": 0, "min_length": None} for q in found]


def kept(driver: WebDriver) -> dict[str, dict[str, Any]]:
    """This browser's records (tombstones too), by id, as the export carries them."""
    box = call(driver, "(m) => m.exportBox()")
    assert box["format"] == "lextools-cardbox" and box["version"] == 2
    return {item["id"]: item for item in box["cards"]}


def sync(driver: WebDriver, code: str) -> str:
    """Type the code, press Sincronizar and return the outcome (data-outcome of the message)."""
    field = by_id(driver, "sync-input")
    field.clear()
    field.send_keys(code)
    message = by_id(driver, "sync-message")
    driver.execute_script("arguments[0].dataset.outcome = ''", message)
    press(driver, "sync-run")
    return str(wait_for(driver, lambda d: message.get_attribute("data-outcome"), "the sync's outcome"))


@pytest.fixture
def two_devices(browser: WebDriver, base_url: str, tmp_path: Path) -> Iterator[tuple[WebDriver, WebDriver]]:  # noqa: F811
    forget(browser, base_url)
    other = second_browser(tmp_path / "second-profile")
    try:
        for driver in (browser, other):
            open_page(driver, f"{base_url}/study?edition=es-fise")
        yield browser, other
        assert console_errors(other) == []
    finally:
        other.quit()


# -- two devices, one cardbox -----------------------------------------------------------------------

#: What each device does offline, at fixed times (ms after the start): answer a card right or
#: wrong, or delete it. Card 1 and 3 are studied on both, at different times; card 4 is answered on
#: the phone but deleted later on the laptop; card 0 is studied on neither.
LAPTOP = [(1, True, 1000), (3, False, 500), (2, "delete", 2000), (4, "delete", 6000)]
PHONE = [(1, True, 300), (3, True, 4000), (3, True, 4500), (4, True, 3000), (5, False, 800)]


def study(driver: WebDriver, cards: list[dict[str, Any]], script: list[tuple[int, Any, int]], start: int) -> None:
    for index, what, at in script:
        question = cards[index]
        if what == "delete":
            assert call(driver, "(m, id, now) => m.remove([id], now)", f"{DECK}|{question['id']}", start + at) == 1
        else:
            answer = "(m, q, right, now) => m.record('es-fise', 'anagram', q, right, now)"
            call(driver, answer, question, what, start + at)


@pytest.mark.parametrize("laptop_first", [True, False], ids=["laptop-first", "phone-first"])
def test_two_devices_study_offline_and_sync_in_either_order(
    two_devices: tuple[WebDriver, WebDriver],
    base_url: str,  # noqa: F811
    laptop_first: bool,
) -> None:
    laptop, phone = two_devices
    cards = questions(base_url, 6)
    start = int(call(laptop, "() => Date.now()"))
    assert call(laptop, "(m, qs, now) => m.addCards('es-fise', 'anagram', qs, now)", cards, start - 10_000) == 6
    press(laptop, "sync-create")
    code = wait_for(laptop, lambda d: by_id(d, "sync-code").get_attribute("data-code"), "the sync code")
    assert sync(phone, code.lower()) == "synced"
    assert "6 tarjetas traídas" in by_id(phone, "sync-message").text
    assert set(kept(phone)) == set(kept(laptop)) and len(kept(phone)) == 6

    # Offline, each studies on its own (the network is cut: nothing of it reaches the server).
    for driver, script in ((laptop, LAPTOP), (phone, PHONE)):
        assert console_errors(driver) == []
        driver.set_network_conditions(offline=True, latency=0, download_throughput=0, upload_throughput=0)
        try:
            study(driver, cards, script, start)
            assert sync(driver, code) == "error", "offline, the sync says it could not reach the server"
            errors = console_errors(driver)
            assert all("ERR_INTERNET_DISCONNECTED" in error for error in errors), errors  # and only that
        finally:
            driver.delete_network_conditions()

    first, second = (laptop, phone) if laptop_first else (phone, laptop)
    for driver in (first, second, first):
        assert sync(driver, code) == "synced"
    mine, theirs = kept(laptop), kept(phone)
    assert mine == theirs, "both devices end with the same cardbox"
    ids = [f"{DECK}|{q['id']}" for q in cards]
    # Card 0: untouched. Card 1: the laptop's later answer. Card 2 and 4: deleted (4 was answered on
    # the phone before the laptop deleted it). Card 3: the phone's two later right answers, box 2.
    # Card 5: the phone's miss.
    assert mine[ids[0]]["box"] == 0 and mine[ids[0]]["right"] == 0
    assert (mine[ids[1]]["box"], mine[ids[1]]["last"]) == (1, start + 1000)
    assert mine[ids[2]] == {"id": ids[2], "deck": DECK, "changed": start + 2000, "deleted": True}
    assert mine[ids[4]]["deleted"] is True
    assert (mine[ids[3]]["box"], mine[ids[3]]["right"], mine[ids[3]]["last"]) == (2, 2, start + 4500)
    assert (mine[ids[5]]["box"], mine[ids[5]]["wrong"]) == (0, 1)
    with urllib.request.urlopen(f"{base_url}/v1/cardbox/{code}") as answer:
        server = {item["id"]: item for item in json.load(answer)["cardbox"]["cards"]}
    assert server == mine, "the server keeps the merge too"
    # The page counts live cards only: a deleted card is not studied any more.
    summary = by_id(laptop, "cardbox-summary")
    wait_for(laptop, lambda d: summary.get_attribute("data-cards") == "4", "the 4 cards kept, counted")
    assert len(call(laptop, "(m) => m.cards()")) == 4
    assert console_errors(laptop) == []


#: A fetch that, once, writes the server's cardbox from "another device" just before the page's PUT:
#: the page's If-Match is then stale, the server says 412, and the page must read and merge again.
RACE = """
window.__puts = [];
const original = window.fetch;
let raced = false;
window.fetch = async (input, init) => {
  const method = (init && init.method) || "GET";
  if (method === "PUT" && !raced) {
    raced = true;
    const url = String(input);
    const read = await original(url, { headers: { Accept: "application/json" } });
    const tag = read.headers.get("ETag");
    const box = (await read.json()).cardbox;
    box.cards.push(arguments[0]);
    await original(url, { method: "PUT", headers: { "Content-Type": "application/json", "If-Match": tag },
      body: JSON.stringify({ cardbox: box }) });
  }
  const response = await original(input, init);
  if (method === "PUT") window.__puts.push(response.status);
  return response;
};
"""


def test_a_sync_that_meets_another_write_reads_again_and_keeps_both(
    browser: WebDriver,  # noqa: F811
    base_url: str,  # noqa: F811
) -> None:
    forget(browser, base_url)
    open_page(browser, f"{base_url}/study?edition=es-fise")
    cards = questions(base_url, 3)
    now = int(call(browser, "() => Date.now()"))
    call(browser, "(m, qs, now) => m.addCards('es-fise', 'anagram', qs.slice(0, 2), now)", cards, now)
    press(browser, "sync-create")
    code = wait_for(browser, lambda d: by_id(d, "sync-code").get_attribute("data-code"), "the sync code")
    elsewhere = {
        "id": f"{DECK}|{cards[2]['id']}", "deck": DECK, "edition": "es-fise", "type": "anagram",
        "question": cards[2], "right": 1, "wrong": 0, "last": now, "due": now + DAY, "changed": now,
        "scheduler": "leitner", "box": 1,
    }  # fmt: skip
    browser.execute_script(RACE.replace("arguments[0]", json.dumps(elsewhere)))
    assert sync(browser, code) == "synced"
    assert browser.execute_script("return window.__puts") == [412, 200]
    assert kept(browser)[elsewhere["id"]] == elsewhere, "the other device's card was merged, not overwritten"
    with urllib.request.urlopen(f"{base_url}/v1/cardbox/{code}") as answer:
        assert len(json.load(answer)["cardbox"]["cards"]) == 3
    assert [e for e in console_errors(browser) if "status of 412" not in e] == []  # the one refused PUT


def test_a_wrong_code_and_a_malformed_one_are_told_apart(browser: WebDriver, base_url: str) -> None:  # noqa: F811
    open_page(browser, f"{base_url}/study?edition=es-fise")
    message = by_id(browser, "sync-message")
    assert sync(browser, "ABCD-EFGH-JKMN-PQRS-TVWX") == "unknown"  # well-formed, kept nowhere: 404
    unknown = message.text
    assert "No hay ningún fichero con ese código" in unknown
    browser.execute_script("window.__sent = 0; const f = fetch; window.fetch = (...a) => (window.__sent++, f(...a));")
    for typed in ("hola", "ABCD-EFGH-JKMN-PQRS-TVW", "UUUU-EFGH-JKMN-PQRS-TVWX"):
        assert sync(browser, typed) == "malformed", typed
        assert "no es un código de sincronización" in message.text and message.text != unknown
    assert browser.execute_script("return window.__sent") == 0, "a malformed code is refused before any request"
    assert [e for e in console_errors(browser) if "status of 404" not in e] == []  # the unknown code's GET


# -- FSRS -------------------------------------------------------------------------------------------

#: The same grades at the same times, given to the page's cardbox and to ts-fsrs directly: the
#: library's due dates, stability and difficulty, step by step.
DIRECT = """const finish = arguments[arguments.length - 1];
const [script, start] = arguments;
import("/static/vendor/ts-fsrs.js").then(({ fsrs, generatorParameters, createEmptyCard, Rating }) => {
  const f = fsrs(generatorParameters({ enable_fuzz: false }));
  const ratings = { again: Rating.Again, hard: Rating.Hard, good: Rating.Good, easy: Rating.Easy };
  let card = createEmptyCard(new Date(start));
  const out = [];
  for (const [grade, at] of script) {
    card = f.next(card, new Date(at), ratings[grade]).card;
    out.push({ due: card.due.getTime(), stability: card.stability, difficulty: card.difficulty, state: card.state,
      reps: card.reps, lapses: card.lapses, last_review: card.last_review.getTime() });
  }
  finish(out);
});"""

GRADES = ["good", "good", "again", "hard", "good", "easy", "good", "again", "good"]


def graded_in_the_page(driver: WebDriver, base: str, start: int) -> tuple[list[tuple[str, int]], list[dict[str, Any]]]:
    """GRADES given to one card of an FSRS deck in the page, each review when the card is due (the
    first at ``start``): the (grade, time) script and the card's FSRS state and due after each."""
    forget(driver, base)
    open_page(driver, f"{base}/study?edition=es-fise")
    assert by_id(driver, "cardbox-scheduler").get_attribute("value") == "leitner", "Leitner is the default"
    choose(driver, "cardbox-scheduler", "FSRS")
    wait_for(driver, lambda d: "FSRS" in by_id(d, "cardbox-message").text, "the choice said")
    question = questions(base, 1)[0]
    at = start
    script, page = [], []
    for grade in GRADES:
        card = call(driver, "(m, q, g, now) => m.record('es-fise', 'anagram', q, g, now)", question, grade, at)
        assert card["scheduler"] == "fsrs" and "box" not in card
        script.append((grade, at))
        page.append({**card["fsrs"], "due": card["due"]})
        at = card["due"]
    return script, page


def test_an_fsrs_deck_schedules_as_ts_fsrs_does(browser: WebDriver, base_url: str) -> None:  # noqa: F811
    start = 1_780_000_000_000
    script, page = graded_in_the_page(browser, base_url, start)
    direct = browser.execute_async_script(DIRECT, script, start)
    assert [p["due"] for p in page] == [d["due"] for d in direct], "the page's due dates are the library's"
    for mine, library in zip(page, direct, strict=True):
        assert {k: mine[k] for k in library} == library
    # FSRS's default learning steps (1 and 10 minutes): Good on a new card is due 10 minutes later.
    assert page[0]["due"] == start + 10 * MINUTE and page[0]["state"] == 1
    assert page[-1]["lapses"] == 2 and page[-1]["reps"] == len(GRADES)

    # Export and import carry the FSRS card whole.
    exported = call(browser, "(m) => m.exportText()")
    forget(browser, base_url)
    open_page(browser, f"{base_url}/study?edition=es-fise")
    assert call(browser, "(m, text) => m.importText(text)", exported) == 1
    (card,) = call(browser, "(m) => m.cards()")
    assert {**card["fsrs"], "due": card["due"]} == page[-1]
    assert console_errors(browser) == []


def test_the_four_grades_after_an_answer(browser: WebDriver, base_url: str) -> None:  # noqa: F811
    forget(browser, base_url)
    open_page(browser, f"{base_url}/study?edition=es-fise")
    choose(browser, "cardbox-scheduler", "FSRS")
    choose(browser, "quiz-length", "5")
    by_id(browser, "quiz-count").clear()
    by_id(browser, "quiz-count").send_keys("1")
    start_quiz(browser)
    asked = question_id(browser)
    press(browser, "quiz-reveal")  # shown without an answer: a miss, graded Again
    grades = wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#quiz-grades [data-grade]"), "the grades")
    assert [b.text for b in grades] == ["Otra vez", "Difícil", "Bien", "Fácil"]
    assert [b.get_attribute("aria-pressed") for b in grades] == ["true", "false", "false", "false"]
    assert "Fallada (Otra vez): próximo repaso dentro de 1 minuto" in by_id(browser, "quiz-outcome").text
    # On a phone the grades and the cardbox's controls fit the screen.
    browser.set_window_size(390, 844)
    try:
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
    finally:
        browser.set_window_size(1280, 900)
    (missed,) = call(browser, "(m) => m.cards()")
    assert missed["question"]["id"] == asked and missed["wrong"] == 1
    grades[3].click()  # the player knew it after all: Easy
    easy = wait_for(browser, lambda d: [c for c in call(d, "(m) => m.cards()") if c["right"] == 1], "Easy")[0]
    assert easy["last"] == missed["last"] and easy["right"] == 1 and easy["wrong"] == 0, "regraded, not counted twice"
    direct = browser.execute_async_script(DIRECT, [("easy", easy["last"])], easy["last"])
    assert easy["due"] == direct[0]["due"] and easy["due"] - easy["last"] >= DAY
    # French names the grades too.
    strings = json.loads((STATIC / "strings.json").read_text(encoding="utf-8"))
    assert [strings["fr"][f"grade_{g}"] for g in ("again", "hard", "good", "easy")] == [
        "À revoir", "Difficile", "Correct", "Facile",
    ]  # fmt: skip
    assert console_errors(browser) == []


# -- version 1 files, tombstones in files -----------------------------------------------------------


def test_a_version_1_export_still_imports_and_files_merge_card_by_card(
    browser: WebDriver,  # noqa: F811
    base_url: str,  # noqa: F811
) -> None:
    forget(browser, base_url)
    open_page(browser, f"{base_url}/study?edition=es-fise")
    cards = questions(base_url, 2)
    old = [
        {"id": f"{DECK}|{q['id']}", "deck": DECK, "edition": "es-fise", "type": "anagram", "question": q,
         "box": 3, "due": 1_700_000_000_000, "right": 3, "wrong": 0, "last": 1_690_000_000_000 + i}
        for i, q in enumerate(cards)
    ]  # fmt: skip
    v1 = {"format": "lextools-cardbox", "version": 1, "exported": "2026-01-01T00:00:00Z", "cards": old}
    assert call(browser, "(m, text) => m.importText(text)", json.dumps(v1)) == 2
    here = kept(browser)
    assert {c["id"]: (c["scheduler"], c["changed"], c["box"]) for c in here.values()} == {
        c["id"]: ("leitner", c["last"], 3) for c in old
    }
    # A later file deletes the first card and carries an older copy of the second: one is taken.
    later = {**v1, "version": 2, "cards": [
        {"id": old[0]["id"], "deck": DECK, "changed": old[0]["last"] + 1, "deleted": True},
        {**old[1], "box": 0, "changed": old[1]["last"] - 1, "scheduler": "leitner"},
    ]}  # fmt: skip
    assert call(browser, "(m, text) => m.importText(text)", json.dumps(later)) == 0  # no live card taken
    here = kept(browser)
    assert here[old[0]["id"]].get("deleted") is True and here[old[1]["id"]]["box"] == 3
    # Added again, a deleted card comes back new, after its tombstone.
    assert call(browser, "(m, qs) => m.addCards('es-fise', 'anagram', qs)", cards) == 1
    assert kept(browser)[old[0]["id"]]["box"] == 0
    # Reset this deck from the page: a second press confirms; every card leaves a tombstone.
    press(browser, "cardbox-reset")
    assert "Pulsa otra vez para borrar 2 tarjetas" in by_id(browser, "cardbox-reset").text
    press(browser, "cardbox-reset")
    wait_for(browser, lambda d: "2 tarjetas borradas" in by_id(d, "cardbox-message").text, "the reset")
    assert all(c.get("deleted") for c in kept(browser).values()) and len(kept(browser)) == 2
    assert console_errors(browser) == []


# -- the vendored library, the server's ETag ----------------------------------------------------------


def test_the_vendored_ts_fsrs_is_the_one_named() -> None:
    readme = (STATIC / "vendor" / "README.md").read_text(encoding="utf-8")
    for name in ("ts-fsrs.js", "ts-fsrs.LICENSE"):
        digest = hashlib.sha256((STATIC / "vendor" / name).read_bytes()).hexdigest()
        assert re.search(rf"sha256 of `{re.escape(name)}`: {digest}\.", readme), name
    assert 'const version="5.4.2"' in (STATIC / "vendor" / "ts-fsrs.js").read_text(encoding="utf-8")
    assert "ts-fsrs 5.4.2" in readme and "MIT License" in (STATIC / "vendor" / "ts-fsrs.LICENSE").read_text()


def test_the_cardbox_routes_give_an_etag_and_honour_if_match(lexicon_home: Path, tmp_path: Path) -> None:
    app = create_app({"LEXICONS": lexicon_home, "RECORD": tmp_path / "r.sqlite3"})
    client = app.test_client()
    box = {"format": "lextools-cardbox", "version": 2, "exported": "2026-01-01T00:00:00Z", "cards": []}
    made = client.post("/v1/cardbox", json={"cardbox": box})
    code, tag = made.get_json()["code"], made.headers["ETag"]
    read = client.get(f"/v1/cardbox/{code}")
    (text, _) = app.extensions["lextools.cardboxes"].get(code)
    assert read.headers["ETag"] == tag == etag(text)  # the stored body's
    changed = {**box, "cards": [{"id": f"{DECK}|X", "deck": DECK, "changed": 1, "deleted": True}]}
    put = client.put(f"/v1/cardbox/{code}", json={"cardbox": changed}, headers={"If-Match": tag})
    assert put.status_code == 200 and put.headers["ETag"] != tag
    stale = client.put(f"/v1/cardbox/{code}", json={"cardbox": box}, headers={"If-Match": tag})
    assert stale.status_code == 412 and stale.get_json()["error"]["code"] == "sync_stale"
    assert client.get(f"/v1/cardbox/{code}").get_json()["cardbox"] == changed
    assert client.get(f"/v1/cardbox/{code}").headers["ETag"] == put.headers["ETag"]


def test_a_card_follows_its_decks_scheduler_from_its_next_answer(browser: WebDriver, base_url: str) -> None:  # noqa: F811
    forget(browser, base_url)
    open_page(browser, f"{base_url}/study?edition=es-fise")
    question = questions(base_url, 1)[0]
    answer = "(m, q, g, now) => m.record('es-fise', 'anagram', q, g, now)"
    start = 1_780_000_000_000
    for step in range(3):  # boxes 1, 2, 3
        leitner = call(browser, answer, question, True, start + step * DAY)
    assert (leitner["scheduler"], leitner["box"], leitner["right"]) == ("leitner", 3, 3)
    call(browser, "(m) => m.setScheduler('es-fise|anagram', 'fsrs')")
    fsrs = call(browser, answer, question, "good", start + 10 * DAY)
    assert fsrs["scheduler"] == "fsrs" and "box" not in fsrs and fsrs["right"] == 4, "a new FSRS card, counts kept"
    assert fsrs["fsrs"]["reps"] == 1 and fsrs["due"] == start + 10 * DAY + 10 * MINUTE
    for at in (fsrs["due"], start + 20 * DAY):
        fsrs = call(browser, answer, question, "easy", at)
    days = fsrs["fsrs"]["scheduled_days"]
    assert days >= 7
    call(browser, "(m) => m.setScheduler('es-fise|anagram', 'leitner')")
    back = call(browser, answer, question, True, start + 60 * DAY)
    intervals = [0, 1, 2, 4, 7, 12, 20, 30, 45, 60, 90, 120, 180, 270, 365, 540]
    reached = max(box for box, interval in enumerate(intervals) if interval <= days)
    assert back["scheduler"] == "leitner" and back["box"] == reached + 1, "up one box from what FSRS had reached"
    assert (back["right"], back["wrong"]) == (7, 0)
    # The player's choice is per deck: the build deck is still Leitner.
    assert call(browser, "(m) => m.schedulerOf('es-fise|build')") == "leitner"
    assert console_errors(browser) == []
