"""SIGTERM and SIGHUP end a command the way Ctrl-C (SIGINT) does.

While a command runs, both raise ``KeyboardInterrupt`` in the main thread, so every long command
stops through the one path it already has for Ctrl-C: ``cardz simulate`` tells its workers to
stop, keeps every finished row, prints the partial summary and writes the report marked
interrupted; other commands print ``interrupted``. The exit code is 128 plus the signal's
number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP), as shells report a signal.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from types import FrameType
from typing import Iterator

HANDLED = tuple(s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
                if s is not None)

_received: list[int] = []  # the signals that interrupted this command, in order


def _interrupt(signum: int, frame: FrameType | None) -> None:
    _received.append(signum)
    raise KeyboardInterrupt


@contextmanager
def signals_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP raise ``KeyboardInterrupt`` for the duration (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _received.clear()
    before = {s: signal.signal(s, _interrupt) for s in HANDLED}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


@contextmanager
def interrupts_held() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP wait until the block is done (main thread only): a block that
    must not be cut in half (a row tallied and written) runs whole, and the first signal that
    came meanwhile is then delivered to the handler it would have met."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        held.append(signum)

    before = {s: signal.signal(s, hold) for s in (signal.SIGINT, *HANDLED)}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
        if held:
            signal.raise_signal(held[0])


def interrupt_exit_code() -> int:
    """The exit code of a command that was interrupted: 128 + the signal's number."""
    return 128 + (_received[0] if _received else signal.SIGINT)
