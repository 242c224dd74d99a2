"""The expression functions of the format, each registered with its signature.

Run-time values (docs/design.md): a card is its code or None, a list of cards a tuple of codes
bottom first, a depot its index or -1, a list of depots a tuple of indices. ``game`` is the
compiled ``cardz_core.expr.Tables``; its per-code lookups only hold face-up cards, so face-down
cards are counted but never read.
"""

from __future__ import annotations

from typing import Any, Callable

from cardz_core.expr import GAME, PURE, STATE, Each, Function, FunctionError, Signature
from cardz_core.hookspecs import hookimpl

Pred = Callable[[Any], Any]


def _count(items: tuple, pred: Pred) -> int:
    return sum(1 for x in items if pred(x))


def _all(items: tuple, pred: Pred) -> bool:
    return all(pred(x) for x in items)


def _any(items: tuple, pred: Pred) -> bool:
    return any(pred(x) for x in items)


def _min_each(items: tuple, f: Pred) -> int:
    return min(map(f, items), default=0)


def _max_each(items: tuple, f: Pred) -> int:
    return max(map(f, items), default=0)


def _sum_each(items: tuple, f: Pred) -> int:
    return sum(map(f, items))


def _first_card(items: tuple, pred: Pred) -> int | None:
    return next((x for x in items if pred(x)), None)


def _first_depot(items: tuple, pred: Pred) -> int:
    return next((x for x in items if pred(x)), -1)


def _no_cards(cards: tuple) -> bool:
    return not cards


def _no_card(card: int | None) -> bool:
    return card is None


def _sum_values(game: Any, cards: tuple) -> int:
    get = game.value.get
    return sum(get(c, 0) for c in cards)


def _value(game: Any, card: int | None) -> int:
    return game.value.get(card, 0)


def _top(cards: tuple) -> int | None:
    return cards[-1] if cards else None


def _bottom(cards: tuple) -> int | None:
    return cards[0] if cards else None


def _base(cards: tuple) -> int | None:
    """The lowest card of the unbroken face-up run on top; none if the top card is face-down."""
    found = None
    for c in reversed(cards):
        if c & 1 != 1:
            break
        found = c
    return found


def _above(cards: tuple, card: int | None) -> tuple:
    if card is None:
        return ()
    for i, c in enumerate(cards):
        if c == card:
            return cards[i + 1:]
    return ()


def _face_up(cards: tuple) -> tuple:
    return tuple(c for c in cards if c & 1 == 1)


def _face_down(cards: tuple) -> tuple:
    return tuple(c for c in cards if c & 1 != 1)


def _depot(game: Any, name: str) -> int:
    if name not in game.depot_index:
        raise FunctionError(f"no depot is named {name!r}")
    return game.depot_index[name]


def _index(game: Any, d: int) -> int:
    return game.copy_index[d] if d >= 0 else 0


def _neighbour(game: Any, d: int, k: int) -> int:
    if d < 0 or game.group_of[d] is None:
        return -1
    copies = game.groups[game.group_of[d]]
    at = game.copy_index[d] - 1 + k
    return copies[at] if 0 <= at < len(copies) else -1


def _adjacent(game: Any, a: int, b: int) -> bool:
    if a < 0 or b < 0 or a == b:
        return False
    pa, pb = game.grid[a], game.grid[b]
    if pa is None or pb is None:
        return False
    return abs(pa[0] - pb[0]) <= 1 and abs(pa[1] - pb[1]) <= 1


def _covered_by(game: Any, d: int) -> tuple:
    return game.covered_by[d] if d >= 0 else ()


def _came_from(game: Any, state: Any, d: int) -> int:
    return state.came_from[d] if d >= 0 else -1


def _min2(a: int, b: int) -> int:
    return a if a <= b else b


def _max2(a: int, b: int) -> int:
    return a if a >= b else b


def _sig(params: tuple, result: str, fn: Callable[..., Any], native: str,
         needs: str = PURE) -> Signature:
    return Signature(params, result, fn, needs, native=native)


FUNCTIONS: dict[str, Function] = {
    "count": Function((
        _sig(("cards",), "number", len, "count_cards"),
        _sig(("items", Each(0, "bool")), "number", _count, "count_each"),
    ), "how many cards (a list of depots counts all their cards); with a condition, how many "
       "items (cards or depots) satisfy it"),
    "all": Function((_sig(("items", Each(0, "bool")), "bool", _all, "all_each"),),
                    "whether every item satisfies the condition"),
    "any": Function((_sig(("items", Each(0, "bool")), "bool", _any, "any_each"),),
                    "whether some item satisfies the condition"),
    "min": Function((
        _sig(("number", "number"), "number", _min2, "min_two"),
        _sig(("items", Each(0, "number")), "number", _min_each, "min_each"),
    ), "the smaller of two numbers, or the smallest number given for an item (0 for none)"),
    "max": Function((
        _sig(("number", "number"), "number", _max2, "max_two"),
        _sig(("items", Each(0, "number")), "number", _max_each, "max_each"),
    ), "the larger of two numbers, or the largest number given for an item (0 for none)"),
    "empty": Function((
        _sig(("cards",), "bool", _no_cards, "no_cards"),
        _sig(("card",), "bool", _no_card, "no_card"),
    ), "whether there are no cards (for one card: whether it is no card)"),
    "sum": Function((
        _sig(("cards",), "number", _sum_values, "sum_values", GAME),
        _sig(("items", Each(0, "number")), "number", _sum_each, "sum_each"),
    ), "the cards' values added up, or the numbers given for each item added up"),
    "value": Function.of(("card",), "number", _value, GAME, "the card's value, as card.value",
                          native="card_value"),
    "top": Function.of(("cards",), "card", _top, doc="the last card, or no card",
                        native="top_card"),
    "bottom": Function.of(("cards",), "card", _bottom, doc="the first card, or no card",
                           native="bottom_card"),
    "base": Function.of(("cards",), "card", _base, doc="the first card of the face-up run on top",
                         native="run_base"),
    "above": Function.of(("cards", "card"), "cards", _above, doc="the cards after that card",
                          native="cards_above"),
    "faceUp": Function.of(("cards",), "cards", _face_up, doc="only the face-up cards",
                           native="face_up_cards"),
    "faceDown": Function.of(("cards",), "cards", _face_down, doc="only the face-down cards",
                             native="face_down_cards"),
    "depot": Function.of(("text",), "depot", _depot, GAME, "the depot of that name",
                          native="depot_named"),
    "first": Function((
        _sig(("cards", Each(0, "bool")), "card", _first_card, "first_card"),
        _sig(("depots", Each(0, "bool")), "depot", _first_depot, "first_depot"),
    ), "the first item that satisfies the condition, or nothing"),
    "index": Function.of(("depot",), "number", _index, GAME,
                         "a copy's number (3 for cell-3); 0 for a depot that isn't a copy",
                         native="copy_index"),
    "neighbour": Function.of(("depot", "number"), "depot", _neighbour, GAME,
                             "the copy k places after (or before, for negative k) the depot",
                             native="neighbour_copy"),
    "adjacent": Function.of(("depot", "depot"), "bool", _adjacent, GAME,
                            "whether two depots touch on the grid, diagonals included",
                            native="grid_adjacent"),
    "coveredBy": Function.of(("depot",), "depots", _covered_by, GAME,
                             "the depots its uncoveredBy names",
                             native="covered_by"),
    "cameFrom": Function.of(("depot",), "depot", _came_from, STATE,
                            "the depot its top card was last moved from",
                            reads=frozenset({"came_from"}), native="came_from"),
}


@hookimpl
def cardz_functions(register):
    for name, function in FUNCTIONS.items():
        register(name, function)
