"""A block run with interrupts held runs whole; the signal that came meanwhile follows it."""

from __future__ import annotations

import os
import signal

import pytest

from cardz_core.interrupts import interrupt_exit_code, interrupts_held, signals_interrupt


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_in_a_held_block_is_raised_after_it(signum: int) -> None:
    # Python's own Ctrl-C handler (a pytest-xdist worker ignores SIGINT)
    was = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _held_then_raised(signum)
    finally:
        signal.signal(signal.SIGINT, was)


def _held_then_raised(signum: int) -> None:
    done = []
    with signals_interrupt():
        with pytest.raises(KeyboardInterrupt):
            with interrupts_held():
                os.kill(os.getpid(), signum)
                done.append("after the signal")
                with interrupts_held():  # held blocks nest: the outer one delivers it
                    done.append("inner")
                done.append("end of the block")
        assert interrupt_exit_code() == 128 + signum
    assert done == ["after the signal", "inner", "end of the block"]


def test_a_held_block_without_a_signal_leaves_the_handlers_as_they_were() -> None:
    with signals_interrupt():
        handlers = [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)]
        with interrupts_held():
            pass
        assert [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM,
                                              signal.SIGHUP)] == handlers
        with pytest.raises(KeyboardInterrupt):  # and the signals interrupt again at once
            os.kill(os.getpid(), signal.SIGTERM)
