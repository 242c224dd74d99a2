"""``ejectRule`` (gate and unit) and ``uncoveredBy`` compiled once per depot: what may leave."""

from __future__ import annotations

from typing import Sequence

from cardz_core.compiled.records import EjectTable
from cardz_core.engine.base import CompiledTables
from cardz_core.engine.relations import relation

ANY, FACE_UP, TOP_ONLY, LOCKED = range(4)
GATES = {"Any": ANY, "FaceUp": FACE_UP, "TopOnly": TOP_ONLY, "Locked": LOCKED}


class Eject:
    """One depot's compiled ``ejectRule``. ``unit`` is None (the picked card and all above,
    checked by the target card by card), ``Single``, ``Any``, ``Run`` or ``Pile``."""

    def __init__(self, rule: EjectTable, game: CompiledTables, depot: int) -> None:
        self.depot = depot
        self.gate = GATES[rule.gate]
        self.unit = rule.unit
        if self.unit is None and rule.loose_order:
            self.unit = "Single"  # a loose fan's pickup takes only the selected card
        self.vouched = self.unit is not None
        self.covered_by = rule.covered_by
        self.cover_any = rule.cover_any
        # Run: for each face-up card code, the face-up codes that may lie on it within the run
        self.run_next: dict[int, frozenset[int]] | None = None
        if self.unit == "Run":
            # one table per distinct run rule, shared by the depots that have it
            key = (rule.unit_build, rule.unit_suit)
            table = game.run_tables.get(key)
            if table is None:
                rel = relation(rule.unit_build, rule.unit_suit)
                ident = game.identity
                table = game.run_tables[key] = {}
                for cid, below in enumerate(ident):
                    table[cid << 1 | 1] = game.intern(frozenset(
                        c << 1 | 1 for c, card in enumerate(ident) if rel is None or rel(below, card)))
            self.run_next = table

    def covered(self, piles: Sequence[tuple[int, ...]]) -> bool:
        """Whether ``uncoveredBy`` still holds the pile down."""
        cb = self.covered_by
        if not cb:
            return False
        if self.cover_any:
            return all(piles[c] for c in cb)
        return any(piles[c] for c in cb)

    def picks(self, piles: tuple, pile: tuple[int, ...]) -> list[int]:
        """The positions a player may pick up (one per distinct result: a ``Pile`` unit lists
        only the lowest position its gate allows)."""
        gate = self.gate
        n = len(pile)
        if not n or gate == LOCKED or (self.covered_by and self.covered(piles)):
            return []
        if gate == TOP_ONLY:
            out = [n - 1]
        elif gate == FACE_UP:
            out = [i for i in range(n) if pile[i] & 1]
        else:
            out = list(range(n))
        if self.run_next is not None and out:
            low = self.run_start(pile)
            out = [i for i in out if i >= low]
        if self.unit == "Pile" and out:
            return out[:1]
        return out

    def picked(self, piles: tuple, pile: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        """``picks`` with the bottom card code of each group: ((position, code), ...)."""
        if self.unit == "Pile":
            return tuple((i, pile[0]) for i in self.picks(piles, pile))
        return tuple((i, pile[i]) for i in self.picks(piles, pile))

    def run_start(self, pile: tuple[int, ...]) -> int:
        """The lowest position from which the cards up to the top follow the Run unit."""
        table = self.run_next
        assert table is not None  # only asked of a Run unit
        i = len(pile) - 1
        while i > 0:
            below, above = pile[i - 1], pile[i]
            if not (below & 1 and above & 1) or above not in table[below]:
                break
            i -= 1
        return i

    def why(self, game: CompiledTables, piles: tuple, index: int) -> str | None:
        """Why the card at ``index`` may not be picked up, or None."""
        name = game.depot_names[self.depot]
        pile = piles[self.depot]
        if not 0 <= index < len(pile):
            return f"{name} has no card at position {index}"
        if self.gate == LOCKED:
            return f"nothing may be picked up from {name}"
        if self.covered(piles):
            return f"{name} is still covered"
        if self.gate == TOP_ONLY and index != len(pile) - 1:
            return f"only the top card of {name} may be picked up"
        if self.gate == FACE_UP and not pile[index] & 1:
            return f"only face-up cards of {name} may be picked up"
        if self.run_next is not None and index < self.run_start(pile):
            return f"the cards above position {index} of {name} are not a run"
        return None

    def split(self, pile: tuple[int, ...], index: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(the group that leaves, bottom first; what stays)."""
        if self.unit == "Single":
            return (pile[index],), pile[:index] + pile[index + 1:]
        if self.unit == "Pile":
            return pile, ()
        return pile[index:], pile[:index]
