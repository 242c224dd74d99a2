"""What the per-depot rule objects (``Accept``, ``Eject``) read of the game they are built for:
a protocol, so that they need not import the ``Game`` that builds them."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from cardz_core.cards import Card
from cardz_core.compiled.records import AcceptTable, BuildRule, ExprRef
from cardz_core.expr.env import Env


# an accept rule's hot-path tables: on_top (per face-up top code, the codes that may lie on
# it), dynamic (tops judged in full) and on_down
AcceptTables = tuple[dict[int, frozenset[int]], frozenset[int], frozenset[int]]


class CompiledTables(Protocol):
    """The compile-time tables of a game (``cardz_core.engine.tables.GameTables``)."""

    depot_names: tuple[str, ...]
    identity: tuple[Card, ...]
    accept_tables: dict[AcceptTable, AcceptTables]  # shared by the depots of one rule
    run_tables: dict[tuple[BuildRule | None, str], dict[int, frozenset[int]]]  # Run units' too

    def intern(self, s: frozenset[int]) -> frozenset[int]: ...

    def expr(self, ref: ExprRef) -> Callable[[Env], Any]: ...

    def env(self, state: Any, **bindings: Any) -> Env: ...
