"""Giving the C heap's free pages back to the system.

Its own module, with no state made when imported, so that the service's arbiter can call it before
gevent patches threading (:mod:`lextools.core.background` makes its locks when imported).
"""

from __future__ import annotations

import ctypes


def give_back_memory() -> None:
    """Hand the heap's free pages back to the system (glibc's ``malloc_trim``; nothing elsewhere): the
    C allocator keeps what a cache freed, so a process would stay at its peak."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return
    trim(0)
