"""An example third-party plugin: the template for your own.

It adds a deal step kind, ``reverse`` (turn a depot's pile end over end, each card keeping its
face), and an expression function, ``ringGap(a, b)`` (how many ranks apart two cards are going
the short way round King-Ace; 0 when either card can't be read). A game that uses them is
``plugins/example_turnabout/turnabout.cardz``.

To ship it as its own distribution, add to its pyproject.toml::

    [project.entry-points.cardz]
    turnabout = "example_turnabout"

and cardz loads it on start (``CARDZ_PLUGINS=turnabout`` allow-lists it,
``CARDZ_NO_ENTRYPOINTS=1`` turns entry points off). In tests, pass the module to
``cardz_core.registry.build_registry(["example_turnabout"])``.
"""

from __future__ import annotations

from typing import Any, Callable

from cardz_core.expr import GAME, Function
from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import Field, StepKind


def _compile_reverse(step: Any, game: Any) -> Callable[[Any], None]:
    """Turn a depot's pile end over end, each card keeping its face.

    The first line describes the kind in ``cardz schema``. Called once per game; the executor it
    returns changes the board only through ``Work``."""
    depot = game.step_depot(step, "depot")

    def run(work: Any) -> None:
        d = depot(work)
        if d >= 0 and len(work.piles[d]) > 1:
            work.set_pile(d, work.piles[d][::-1])

    return run


def _ring_gap(tables: Any, a: int | None, b: int | None) -> int:
    ra, rb = tables.rank.get(a), tables.rank.get(b)  # face-down and no card read as missing
    if ra is None or rb is None:
        return 0
    gap = abs(ra - rb)
    return min(gap, 13 - gap)


@hookimpl
def cardz_deal_steps(register: Callable[[str, object], None]) -> None:
    register("reverse", StepKind({"depot": Field("depot", required=True)},
                                 compile=_compile_reverse))


@hookimpl
def cardz_functions(register: Callable[[str, object], None]) -> None:
    register("ringGap", Function.of(("card", "card"), "number", _ring_gap, needs=GAME,
                                    doc="ranks apart the short way round King-Ace; 0 if unread"))
