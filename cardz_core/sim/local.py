"""The default backend: worker processes on this machine (no server to start).

One worker plays in this process, deal by deal, so an interrupt loses only the game in progress.
Several workers are a ``ProcessPoolExecutor`` on a ``forkserver`` context (``spawn`` where there is
no forkserver): nothing is inherited by forking a half-built parent, and each worker rebuilds its
table from the job. Workers, and multiprocessing's helper processes, ignore SIGINT, SIGTERM and
SIGHUP; on any of them the parent raises a shared stop flag, each running batch returns the games
it finished, the parent keeps them and the pool shuts down with it. A worker whose parent is gone
without a word (killed outright) exits at once, busy or idle.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.forkserver
import os
import signal
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection
from typing import Any, Callable, Sequence

from cardz_core.interrupts import HANDLED, interrupts_held
from cardz_core.registry import BUILTIN_PLUGINS
from cardz_core.sim.job import Job, iter_rows, run_batch, tables_for
from cardz_core.sim.play import OnMove

Emit = Callable[[list[dict[str, Any]]], None]

IN_FLIGHT_PER_WORKER = 3  # batches handed out ahead, so a run of any size keeps a short queue
PRELOAD = ("cardz_core.sim.job", "cardz_core.engine", "cardz_core.spec", "cardz_core.view",
           "cardz_core.planners", *BUILTIN_PLUGINS)

_stop: Any = None  # the shared stop flag, in a worker process


def _init_worker(stop: Any, parent_alive: Connection) -> None:
    global _stop
    # the parent decides when to stop (Ctrl-C, SIGTERM, SIGHUP reach it and it raises the flag);
    # a worker killed by a signal sent to the whole group would break the pool instead
    for s in (signal.SIGINT, *HANDLED):
        signal.signal(s, signal.SIG_IGN)
    _stop = stop
    threading.Thread(target=_exit_with_parent, args=(parent_alive,), daemon=True).start()


def _exit_with_parent(parent_alive: Connection) -> None:
    """Wait until the parent is gone, then end this worker. Only the parent holds the pipe's
    other end, so the read ends when the parent does, however it ended. Watching the parent's
    pid would not do: a forkserver's workers are its children, and it lives as long as they do;
    an idle worker waits on the pool's queue, which never closes, as the worker holds both of
    its ends."""
    try:
        parent_alive.recv()
    except (EOFError, OSError):
        pass
    os._exit(1)


def _should_stop() -> bool:
    return bool(_stop.is_set())


def _worker_batch(job: Job, start: int, stop: int) -> list[dict[str, Any]]:
    return run_batch(job, start, stop, _should_stop)


def _context() -> multiprocessing.context.BaseContext:
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        # Imported once in the server, so each worker starts with them loaded.
        ctx.set_forkserver_preload(list(PRELOAD))
        _helpers_started(forkserver=True)
        return ctx
    _helpers_started(forkserver=False)
    return multiprocessing.get_context("spawn")


def _helpers_started(forkserver: bool) -> None:
    """Start multiprocessing's helper processes (the resource tracker, and the forkserver the
    workers are forked from) ignoring SIGTERM and SIGHUP, as they ignore SIGINT: a signal sent
    to the whole process group (``timeout``, a closed terminal) killed them, which broke the
    pool, lost the games finished and left the workers waiting for good. The parent takes
    such a signal as Ctrl-C, and the helpers end when it does. An ignored signal stays ignored
    across the exec that starts them; the parent's own handlers are put back at once."""
    before = {s: signal.signal(s, signal.SIG_IGN) for s in HANDLED}
    try:
        resource_tracker.ensure_running()
        if forkserver:
            multiprocessing.forkserver.ensure_running()
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


def run_here(job: Job, batches: Sequence[tuple[int, int]], emit: Emit,
             games: Sequence[Any] | None = None, on_move: OnMove | None = None) -> None:
    """Play every batch in this process, emitting each game's row as soon as it is played.
    ``games``: the variants' compiled games, already built here."""
    tables_for(job, games)
    for start, stop in batches:
        for row in iter_rows(job, start, stop, on_move=on_move):
            emit([row])


def run_processes(job: Job, batches: Sequence[tuple[int, int]], emit: Emit, workers: int) -> None:
    """Play the batches on ``workers`` processes, emitting each batch's rows as it finishes.
    On KeyboardInterrupt, emits what the running batches finished, then re-raises."""
    ctx = _context()
    stop = ctx.Event()
    # nothing is written: the workers' read ends only when the write end closes, after the pool
    # has shut down or when this process is gone
    parent_alive, alive = ctx.Pipe(duplex=False)
    with parent_alive, alive, ProcessPoolExecutor(
            max_workers=workers, mp_context=ctx, initializer=_init_worker,
            initargs=(stop, parent_alive)) as pool:
        queue = list(reversed(batches))
        waiting: set[Future] = set()  # submitted, not emitted yet
        try:
            while queue or waiting:
                while queue and len(waiting) < workers * IN_FLIGHT_PER_WORKER:
                    waiting.add(pool.submit(_worker_batch, job, *queue.pop()))
                done, _ = wait(waiting, return_when=FIRST_COMPLETED)
                for future in done:
                    with interrupts_held():  # emitted and no longer waiting, or neither
                        waiting.discard(future)
                        emit(future.result())
        except KeyboardInterrupt:
            stop.set()
            for future in waiting:
                if not future.cancel():  # running or done: it returns what it finished
                    emit(future.result())
            raise
