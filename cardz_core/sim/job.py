"""What a worker needs to play deals, as plain data, and the worker side of a batch.

A ``Job`` holds names and text only (plugin names, the game file's text, planner names, seeds), so
it pickles small and the same way for a local process and a Ray task. The worker rebuilds the
registry and compiles the game itself, once per process, then plays a range of deal indices.
"""

from __future__ import annotations

import importlib
import random
from typing import Any, Callable, Iterator

import attrs

from cardz_core.planners import make_planner
from cardz_core.problems import CardzError
from cardz_core.registry import BUILTIN_PLUGINS, Registry, build_registry, entry_point
from cardz_core.sim.play import foundation_flags, play_deal
from cardz_core.sim.seeds import deal_seed, planner_seed

DEFAULT_FACTORY = "cardz_core.sim.job:compile_game"
DEFAULT_SEAT = "cardz_core.view:Seat"

# Row fields in the order files write them.
ROW_FIELDS = ("deal", "seed", "planner", "result", "moves", "score", "seconds",
              "never_moved", "never_foundation", "left")


@attrs.frozen
class Job:
    """One simulation's fixed inputs. ``factory`` names (``module:function``) what turns
    ``(plugin_names, text, file)`` into a compiled game; the default loads and compiles a
    ``.cardz`` text with the registry rebuilt from ``plugin_names``. ``seat`` names the class
    that keeps a game's true state beside the player's view."""

    text: str
    planners: tuple[str, ...]
    seed: int
    max_moves: int
    plugin_names: tuple[str, ...] = ()
    file: str = ""
    factory: str = DEFAULT_FACTORY
    seat: str = DEFAULT_SEAT
    force: bool = False  # play even where the game keeps Cardz's planners out
    options: tuple[tuple[str, Any], ...] = ()  # given to every planner: ("nodes", 500)


def rebuild_registry(plugin_names: tuple[str, ...]) -> Registry:
    """The registry a process built from ``plugin_names``: builtins are always there; an
    entry point (``DISTRIBUTION:NAME``, or a name one distribution declares) is loaded from the
    ``cardz`` group, any other name imported as a module."""
    extra: list[object | str | tuple[str, object]] = []
    for name in plugin_names:
        if name in BUILTIN_PLUGINS:
            continue
        ep = entry_point(name)
        extra.append((name, ep.load()) if ep is not None else name)
    return build_registry(extra, entry_points=False)


def compile_game(plugin_names: tuple[str, ...], text: str, file: str) -> Any:
    """Load and compile a game file's text with the registry rebuilt from ``plugin_names``."""
    from cardz_core.engine import compile as compile_spec
    from cardz_core.spec import load_game

    registry = rebuild_registry(plugin_names)
    return compile_spec(load_game(text, registry=registry, file=file), registry)


def _resolve(path: str) -> Callable[..., Any]:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


class Table:
    """The compiled game and how to make its planners, built once per process for a job."""

    def __init__(self, job: Job, game: Any | None = None) -> None:
        self.game = game if game is not None else _resolve(job.factory)(job.plugin_names, job.text,
                                                                        job.file)
        self.seat = _resolve(job.seat)
        self.foundations = foundation_flags(self.game)
        self.force = job.force
        self.options = dict(job.options)
        for name in job.planners:  # refuse an unknown or shut-out planner before any game
            self.planner(name)

    def planner(self, name: str) -> Any:
        return make_planner(self.game, name, force=self.force, **self.options)


_tables: dict[Job, Table] = {}


def table_for(job: Job, game: Any | None = None) -> Table:
    """The process's table for ``job``, built on first use (only the latest job is kept)."""
    table = _tables.get(job)
    if table is None:
        _tables.clear()
        table = _tables[job] = Table(job, game)
    return table


def iter_rows(job: Job, start: int, stop: int,
              should_stop: Callable[[], bool] | None = None) -> Iterator[dict[str, Any]]:
    """Rows for deals ``start .. stop-1``, each deal played by every planner in job order.
    ``should_stop`` is asked between games; when it says yes, the iteration ends there."""
    table = table_for(job)
    for deal in range(start, stop):
        seed = deal_seed(job.seed, deal)
        for name in job.planners:
            if should_stop is not None and should_stop():
                return
            rng = random.Random(planner_seed(job.seed, deal, name))
            row = {"deal": deal, "seed": seed, "planner": name}
            # A fresh planner per game: nothing a planner remembers can carry over from the
            # deals a worker happened to play before, so rows do not depend on batching.
            planner = table.planner(name)
            try:
                row.update(play_deal(table.game, table.seat, planner, rng, seed, job.max_moves,
                                     table.foundations))
            except CardzError as exc:
                raise CardzError(f"deal {deal} (seed {seed}), planner {name}: {exc}") from None
            yield row


def run_batch(job: Job, start: int, stop: int,
              should_stop: Callable[[], bool] | None = None) -> list[dict[str, Any]]:
    """All rows of one batch (fewer when ``should_stop`` cut it short)."""
    return list(iter_rows(job, start, stop, should_stop))
