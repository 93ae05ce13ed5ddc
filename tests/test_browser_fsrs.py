"""A second check of the study page's FSRS scheduling: py-fsrs (the Python package ``fsrs``, the same
FSRS-6 with the same default parameters and learning steps as the vendored ts-fsrs 5.4.2) gives the
same due dates, stability and difficulty as the page's cards for a scripted sequence of grades. The
package is a test dependency (pyproject's test extra): nothing is fetched at test time."""

from __future__ import annotations

import datetime as dt

import pytest
from fsrs import Card, Rating, Scheduler
from selenium.webdriver.remote.webdriver import WebDriver
from test_browser import base_url, browser  # noqa: F401
from test_browser_cardbox import graded_in_the_page

pytestmark = pytest.mark.slow

RATINGS = {"again": Rating.Again, "hard": Rating.Hard, "good": Rating.Good, "easy": Rating.Easy}


def test_the_page_and_py_fsrs_agree(browser: WebDriver, base_url: str) -> None:  # noqa: F811
    start = 1_780_000_000_000
    script, page = graded_in_the_page(browser, base_url, start)
    scheduler = Scheduler(enable_fuzzing=False)  # retention 0.9, steps 1 and 10 minutes: ts-fsrs's defaults
    card = Card(due=dt.datetime.fromtimestamp(start / 1000, dt.UTC))
    for (grade, at), mine in zip(script, page, strict=True):
        card, _ = scheduler.review_card(card, RATINGS[grade], dt.datetime.fromtimestamp(at / 1000, dt.UTC))
        assert round(card.due.timestamp() * 1000) == mine["due"], grade
        assert card.stability == pytest.approx(mine["stability"], abs=1e-6)
        assert card.difficulty == pytest.approx(mine["difficulty"], abs=1e-6)
        assert int(card.state) == mine["state"]
