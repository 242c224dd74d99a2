"""Running a simulation: split the deals into batches, hand them to a backend, and gather the rows
that come back (in any order) into the tally and, in deal order, into the rows file."""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from cardz_core.interrupts import interrupts_held
from cardz_core.problems import CardzError
from cardz_core.sim.job import Job
from cardz_core.sim.local import run_here, run_processes
from cardz_core.sim.play import OnMove
from cardz_core.sim.rows import RowWriter
from cardz_core.sim.summary import Tally

BACKENDS = ("local", "ray")
RAY_BATCH = 200  # deals per Ray task: large enough that scheduling costs little
LOCAL_BATCH_MAX = 100  # deals per local batch at most, for even load and a lively progress bar
BATCHES_PER_WORKER = 8


def default_batch_size(games: int, workers: int, backend: str) -> int:
    if backend == "ray":
        return RAY_BATCH
    return max(1, min(LOCAL_BATCH_MAX, math.ceil(games / (workers * BATCHES_PER_WORKER))))


def local_processes(games: int, workers: int, batch_size: int | None) -> int:
    """How many processes the local backend plays ``games`` deals on: ``workers``, but never
    more than there are batches (1: in this process)."""
    size = batch_size or default_batch_size(games, workers, "local")
    return max(1, min(workers, len(plan_batches(games, size))))


def plan_batches(games: int, size: int, first: int = 0) -> list[tuple[int, int]]:
    """Deal ranges ``[start, stop)`` of at most ``size`` deals covering ``first ..
    first+games-1``."""
    stop = first + games
    return [(start, min(start + size, stop)) for start in range(first, stop, size)]


class Collector:
    """Receives rows from a backend. Tallies them at once and writes them to the rows file in
    deal order: a deal is written once it was played on every variant by every planner and
    every earlier deal is written. ``finish`` writes what is still waiting (after an
    interrupt, deals with gaps)."""

    def __init__(self, tally: Tally, writer: RowWriter | None = None,
                 progress: Callable[[int], None] | None = None) -> None:
        self.tally = tally
        self.writer = writer
        self.progress = progress
        self._order = {arm: i for i, arm in enumerate(tally.arms)}
        self._waiting: dict[int, list[dict[str, Any]]] = {}
        self._next = tally.first

    def add(self, rows: list[dict[str, Any]]) -> None:
        with interrupts_held():  # an interrupt must not come between a row's tally and its line
            self._add(rows)

    def _add(self, rows: list[dict[str, Any]]) -> None:
        before = self.tally.deals_done
        for row in rows:
            self.tally.add(row)
            self._waiting.setdefault(row["deal"], []).append(row)
        if self.writer is not None:
            ready = []
            while len(self._waiting.get(self._next, ())) == len(self._order):
                ready += self._sorted(self._waiting.pop(self._next))
                self._next += 1
            if ready:
                self.writer.write(ready)
        else:
            self._waiting.clear()
        if self.progress is not None and self.tally.deals_done != before:
            self.progress(self.tally.deals_done - before)

    def finish(self) -> None:
        with interrupts_held():
            if self.writer is not None and self._waiting:
                rest = []
                for deal in sorted(self._waiting):
                    rest += self._sorted(self._waiting[deal])
                self.writer.write(rest)
            self._waiting.clear()

    def _sorted(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return sorted(rows, key=lambda r: self._order[r["variant"], r["planner"]])


def simulate(job: Job, games: int, collector: Collector, *, backend: str = "local",
             workers: int | None = 1, batch_size: int | None = None, address: str | None = None,
             compiled: Sequence[Any] | None = None, first: int = 0,
             on_move: OnMove | None = None) -> bool:
    """Play deals ``first .. first+games-1`` on every variant of ``job`` with every planner,
    handing rows to ``collector``. ``workers``: local processes (1 plays in this process), or
    for Ray the CPUs of a local Ray (None: all). ``compiled``: the variants' compiled games,
    already built here, for playing in this process. ``on_move`` (see ``play_deal``) plays every
    game in this process.
    Returns True when interrupted (Ctrl-C); the collector then holds every finished game."""
    if backend not in BACKENDS:
        raise CardzError(f"unknown backend {backend!r}: one of {', '.join(BACKENDS)}")
    size = batch_size or default_batch_size(games, workers or 1, backend)
    batches: Sequence[tuple[int, int]] = plan_batches(games, size, first)
    try:
        processes = local_processes(games, workers or 1, batch_size)
        if on_move is not None or (backend == "local" and processes == 1):
            run_here(job, batches, collector.add, compiled, on_move)
        elif backend == "ray":
            from cardz_core.sim.ray_backend import run_ray

            run_ray(job, batches, collector.add, address=address, workers=workers)
        else:
            run_processes(job, batches, collector.add, processes)
    except KeyboardInterrupt:
        return True
    finally:
        collector.finish()
    return False
