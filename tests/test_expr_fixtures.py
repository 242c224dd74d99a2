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
        if key == "moving":
            continue
        if key in ("depot", "source") and isinstance(value, str):
            value = names.index(value)
        setattr(e, key, value)
    return e


def test_make_state_places_cards():
    spec = make_spec([("stock", "Stock"), ("col*2", "Tableau")])
    state = make_state(spec, {"col-2": ["~AS", "KH"]})
    assert state.piles[2] == (code(39, False), code(38, True))
    assert spec.groups["col"] == ("col-1", "col-2")


_REGISTRY: list[Any] = []


def registry() -> Any:
    """The builtin registry (no entry points), built once for the expression tests."""
    if not _REGISTRY:
        from cardz_core.registry import build_registry
        _REGISTRY.append(build_registry(entry_points=False))
    return _REGISTRY[0]


BOARD_DEPOTS = [
    ("stock", "Stock"), ("hand", "Waste"), ("tower*3", "Foundation"), ("discard", "Reserve"),
    ("cell*4", "Cell"), ("column*2", "Tableau"),
]


def evaluate(text: str, context: str = "condition", *, spec: GameSpec | None = None,
             piles: dict[str, list[str]] | None = None, state: State | None = None,
             **bind: Any) -> Any:
    """Compile ``text`` in ``context`` and evaluate it once on the board."""
    from cardz_core.expr import compile_expr
    spec = spec or make_spec(BOARD_DEPOTS)
    state = state or make_state(spec, piles or {})
    e = env(spec, state, **bind)
    if context == "accept":  # a drop of the source's top `moving` cards onto `depot`
        moving = bind.get("moving", 1)
        if e.source >= 0 and "pile" not in bind:
            e.pile = state.piles[e.source][-moving:] if state.piles[e.source] else ()
            e.card = e.pile[0] if e.pile else None
        if e.depot >= 0 and "top" not in bind:
            e.top = state.piles[e.depot][-1] if state.piles[e.depot] else None
    return compile_expr(text, context, spec, registry())(e)
