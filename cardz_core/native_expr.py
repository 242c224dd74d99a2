"""What the native engine's expression interpreter (src/expr.rs, ``Exprs::from_json``) reads
of a game besides its programs: the per-card and per-depot tables the Python engine's closures
read (``cardz_core.expr.Tables``), and per function the native primitive of each overload
(``Signature.native``), so the Rust side looks up no function by name while it runs.
"""

from __future__ import annotations

from typing import Any

from cardz_core.cards import code
from cardz_core.engine.game import Game


def expr_plan(game: Game) -> dict[str, Any]:
    """The expression tables of ``game`` as JSON data: ``cards`` per card id ``[rank, suit,
    colour, value, joker]`` of its face-up code (rank, suit and colour null for a joker),
    ``depot_index``, ``groups``, ``types``, ``group_of``, ``copy_index``, ``covered_by``,
    ``grid`` as ``Tables`` holds them, and ``functions``: name -> the native primitive of each
    overload in order (null for an overload with none)."""
    t = game.programs.tables
    cards = []
    for card_id in range(len(t.spec.cards)):
        c = code(card_id, True)
        cards.append([t.rank.get(c), t.suit.get(c), t.colour.get(c), t.value.get(c, 0),
                      t.joker.get(c, False)])
    return {
        "cards": cards,
        "depot_index": dict(t.depot_index),
        "groups": {g: list(ds) for g, ds in t.groups.items()},
        "types": {k: list(ds) for k, ds in t.types.items()},
        "group_of": list(t.group_of),
        "copy_index": list(t.copy_index),
        "covered_by": [list(ds) for ds in t.covered_by],
        "grid": [None if p is None else [float(p[0]), float(p[1])] for p in t.grid],
        "functions": {name: [sig.native for sig in fn.overloads]
                      for name, fn in game.registry.functions.items()},
    }
