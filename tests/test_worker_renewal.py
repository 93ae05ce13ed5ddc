"""A worker's renewal watch (service/worker_renewal.py): when it is due, on this process's real memory."""

from __future__ import annotations

import mmap
from functools import partial

import pytest
from flask import Flask

from lextools.core import background
from service import worker_renewal
from service.judge.director_auth import ATTEMPTS
from service.worker_renewal import Renewal, kept, private_kb

pytestmark = pytest.mark.skipif(private_kb() is None, reason="no /proc/self/smaps_rollup on this system")


def grow(mb: int) -> mmap.mmap:
    """``mb`` MB of new private memory, written: an anonymous map of its own, since a bytearray may
    reuse heap a test before it freed (glibc raises its threshold for mapping large blocks apart)."""
    pages = mmap.mmap(-1, mb * 1024 * 1024)
    pages.write(b"x" * len(pages))
    return pages


def test_a_process_that_grew_is_due_once_idle() -> None:
    renewal = Renewal(renew_mb=8, idle_s=0)
    assert renewal.due() is None  # not grown yet
    grown = grow(32)
    due = renewal.due()
    assert due is not None and due >= 8 * 1024
    grown.close()


def test_a_request_in_flight_or_a_recent_one_keeps_the_worker() -> None:
    renewal = Renewal(renew_mb=0.001, idle_s=3600)
    grown = grow(4)
    renewal.request_started()
    assert renewal.due() is None  # busy
    renewal.request_done()
    assert renewal.due() is None  # answered a moment ago
    renewal.idle_s = 0
    assert renewal.due() is not None
    grown.close()


def test_every_abandoned_job_is_cancelled_before_a_worker_is_renewed() -> None:
    """Renewal loses only caches: by IDLE_S seconds without a request, the background has cancelled
    every job nobody waits for."""
    assert worker_renewal.IDLE_S >= background.ABANDONED


def test_a_worker_counting_a_guessers_wrong_tokens_alone_is_kept(app: Flask) -> None:
    """Without a database the director's lock-out is counted in the worker: a fresh worker would let
    a guesser start afresh, so the worker stays while a wrong token is counted."""
    renewal = Renewal(renew_mb=0.001, keeps=partial(kept, app), idle_s=0)
    grown = grow(4)
    assert renewal.due() is not None
    app.extensions[ATTEMPTS].failed("203.0.113.7")
    assert kept(app) and renewal.due() is None
    grown.close()
