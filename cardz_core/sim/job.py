"""What a worker needs to play deals, as plain data, and the worker side of a batch.

A ``Job`` holds names and text only (plugin names, each variant's game file text, planner names,
seeds), so it pickles small and the same way for a local process and a Ray task. The worker
rebuilds the registry and compiles every variant itself, once per process, then plays a range of
deal indices: each deal on every variant with every planner.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter
from typing import Any, Callable, Iterator, Sequence

import attrs

from cardz_core.planners import make_planner
from cardz_core.problems import CardzError
from cardz_core.registry import BUILTIN_PLUGINS, Registry, build_registry, entry_point
from cardz_core.sim.play import OnMove, foundation_flags, play_deal
from cardz_core.sim.seeds import deal_seed, planner_seed
from cardz_core.sim.summary import Deck
from cardz_core.sim.variants import opening_key

DEFAULT_FACTORY = "cardz_core.sim.job:compile_game"
DEFAULT_SEAT = "cardz_core.view:Seat"

# Row fields in the order files write them.
ROW_FIELDS = ("deal", "seed", "variant", "planner", "result", "end", "moves", "home", "score",
              "seconds", "opening", "never_moved", "never_foundation", "left")


@attrs.frozen
class Variant:
    """One game file of a run: its text, the path it was read from, and the name rows give it."""

    text: str
    file: str = ""
    name: str = ""


@attrs.frozen
class Job:
    """One simulation's fixed inputs. ``factory`` names (``module:function``) what turns
    ``(plugin_names, text, file)`` into a compiled game; the default loads and compiles a
    ``.cardz`` text with the registry rebuilt from ``plugin_names``. ``seat`` names the class
    that keeps a game's true state beside the player's view."""

    variants: tuple[Variant, ...]
    planners: tuple[str, ...]
    seed: int
    max_moves: int
    plugin_names: tuple[str, ...] = ()
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
    """One variant's compiled game and what playing it needs, built once per process."""

    def __init__(self, job: Job, variant: Variant, game: Any | None = None) -> None:
        self.name = variant.name
        self.game = game if game is not None else _resolve(job.factory)(
            job.plugin_names, variant.text, variant.file)
        self.seat = _resolve(job.seat)
        self.foundations = foundation_flags(self.game)
        self.labels = card_labels(self.game)
        self.depots = tuple(self.game.depot_names)
        self.force = job.force
        self.options = dict(job.options)
        for name in job.planners:  # refuse an unknown or shut-out planner before any game
            self.planner(name)

    def planner(self, name: str) -> Any:
        return make_planner(self.game, name, force=self.force, **self.options)

    def named(self, measured: dict[str, Any]) -> dict[str, Any]:
        """``play_deal``'s row with card names for card ids and depot names for depots."""
        labels = self.labels
        for key in ("never_moved", "never_foundation"):
            measured[key] = [labels[c] for c in measured[key]]
        measured["left"] = {self.depots[d]: [labels[c] for c in cards]
                            for d, cards in measured["left"].items()}
        return measured


def card_labels(game: Any) -> list[str]:
    """A label per card id: its notation, with ``/2``, ``/3`` ... on the second and later copies
    of a card in games with several packs."""
    seen: Counter[str] = Counter()
    labels = []
    for card in game.identity:
        text = str(card)
        seen[text] += 1
        labels.append(text if seen[text] == 1 else f"{text}/{seen[text]}")
    return labels


def deck(name: str, game: Any) -> Deck:
    """What the tally needs of the variant ``name`` whose compiled game is ``game``."""
    return Deck(name, tuple(card_labels(game)), tuple(game.depot_names),
                any(foundation_flags(game)))


_tables: dict[Job, list[Table]] = {}


def tables_for(job: Job, games: Sequence[Any] | None = None) -> list[Table]:
    """The process's tables for ``job``, one per variant, built on first use (only the latest
    job is kept). ``games``: the variants' compiled games where the caller has them already."""
    tables = _tables.get(job)
    if tables is None:
        _tables.clear()
        given = list(games) if games is not None else [None] * len(job.variants)
        tables = _tables[job] = [Table(job, v, g) for v, g in zip(job.variants, given)]
    return tables


def iter_rows(job: Job, start: int, stop: int,
              should_stop: Callable[[], bool] | None = None,
              on_move: OnMove | None = None) -> Iterator[dict[str, Any]]:
    """Rows for deals ``start .. stop-1``: each deal played on every variant by every planner, in
    job order. ``should_stop`` is asked between games; when it says yes, the iteration ends
    there. ``on_move`` is told of every move of every game (see ``play_deal``)."""
    tables = tables_for(job)
    for deal in range(start, stop):
        seed = deal_seed(job.seed, deal)
        for table in tables:
            opening = table.game.deal(seed)
            key = opening_key(table.game, opening)
            for name in job.planners:
                if should_stop is not None and should_stop():
                    return
                rng = random.Random(planner_seed(job.seed, deal, name))
                row: dict[str, Any] = {"deal": deal, "seed": seed, "variant": table.name,
                                       "planner": name, "opening": key}
                # A fresh planner per game: nothing a planner remembers can carry over from
                # the deals a worker happened to play before, so rows do not depend on batching.
                planner = table.planner(name)
                try:
                    row.update(table.named(play_deal(table.game, table.seat, planner, rng,
                                                     opening, job.max_moves, table.foundations,
                                                     on_move)))
                except CardzError as exc:
                    where = f"{table.name}: " if len(tables) > 1 else ""
                    raise CardzError(f"{where}deal {deal} (seed {seed}), planner {name}: "
                                     f"{exc}") from None
                yield row


def run_batch(job: Job, start: int, stop: int,
              should_stop: Callable[[], bool] | None = None) -> list[dict[str, Any]]:
    """All rows of one batch (fewer when ``should_stop`` cut it short)."""
    return list(iter_rows(job, start, stop, should_stop))
