"""Hand-built games and boards for the expression tests (no loader needed)."""

from __future__ import annotations

from typing import Any

from cardz_core.cards import Card, code, parse_card
from cardz_core.engine.state import State
from cardz_core.expr import Env
from cardz_core.spec.model import DeckCard, Depot, GameSpec, Pack


def make_spec(depots: list[tuple], *, values: dict[str, int] | None = None,
              ranks: tuple[int, ...] = tuple(range(1, 14)), jokers: int = 0,
              copies: int = 1, **kw: Any) -> GameSpec:
    """``depots``: (name, type) or (name, type, {field: value}); a name ``x*N`` makes copies
    ``x-1`` .. ``x-N`` of a repeated depot laid out one grid column apart."""
    out: list[Depot] = []
    groups: dict[str, tuple[str, ...]] = {}
    for i, entry in enumerate(depots):
        name, dtype, extra = (entry + ({},))[:3]
        if "*" in name:
            base, n = name.split("*")
            names = tuple(f"{base}-{k}" for k in range(1, int(n) + 1))
            groups[base] = names
            for k, full in enumerate(names, 1):
                fields = {"col": float(k - 1), "row": float(i)} | extra
                out.append(Depot(full, dtype, base, k, ptr=f"/depots/{i}", **fields))
        else:
            fields = {"col": 0.0, "row": float(i)} | extra
            out.append(Depot(name, dtype, None, 0, ptr=f"/depots/{i}", **fields))
    pack = Pack(ranks=ranks, count=copies, jokers=jokers)
    cards = []
    for copy in range(copies):
        for s in range(4):
            for r in ranks:
                cards.append(DeckCard(Card(r, s), 0, copy, 1))
        for _ in range(jokers):
            cards.append(DeckCard(Card(0, -1), 0, copy, 1))
    return GameSpec(name="test", depots=tuple(out), packs=(pack,), cards=tuple(cards),
                    groups=groups, values=values or {}, **kw)


def make_state(spec: GameSpec, piles: dict[str, list[str]], **counters: Any) -> State:
    """A state with the named piles (contract notation, bottom first); the rest are empty.
    Card texts pick the first unused deck card of that identity."""
    used: set[int] = set()
    names = [d.name for d in spec.depots]
    out: list[tuple[int, ...]] = [() for _ in names]
    for name, texts in piles.items():
        codes = []
        for text in texts:
            card, up = parse_card(text)
            cid = next(i for i, dc in enumerate(spec.cards) if dc.card == card and i not in used)
            used.add(cid)
            codes.append(code(cid, up))
        out[names.index(name)] = tuple(codes)
    n = len(names)
    came = counters.pop("came_from", None) or (-1,) * n
    return State(tuple(out), tuple(came), (0,) * n, **counters)


def env(spec: GameSpec, state: State, **bind: Any) -> Env:
    """An Env; depots may be given by name, cards as ``("depot", index)`` pairs or codes."""
    e = Env(state)
    names = [d.name for d in spec.depots]
    for key, value in bind.items():
        if key in ("depot", "source") and isinstance(value, str):
            value = names.index(value)
        setattr(e, key, value)
    return e


def test_make_state_places_cards():
    spec = make_spec([("stock", "Stock"), ("col*2", "Tableau")])
    state = make_state(spec, {"col-2": ["~AS", "KH"]})
    assert state.piles[2] == (code(39, False), code(38, True))
    assert spec.groups["col"] == ("col-1", "col-2")
