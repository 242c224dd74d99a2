"""The tests of the builtin win, loss and redeal conditions: ``compile(condition, game)
-> fn(state) -> bool``, built once per game."""

from __future__ import annotations

from typing import Any, Callable

from cardz_core.spec.model import Condition

Test = Callable[[Any], bool]


def all_cards_in(cond: Condition, game: Any) -> Test:
    depots = game.pattern(cond.args["depots"])
    total = game.n_cards

    def test(state: Any) -> bool:
        piles = state.piles
        return sum(len(piles[d]) for d in depots) == total

    return test


def all_cards_in_empties(cond: Condition, game: Any) -> frozenset[int]:
    """``allCardsIn`` of D holds exactly when every depot outside D is empty."""
    return frozenset(range(game.n_depots)) - frozenset(game.pattern(cond.args["depots"]))


def depots_empty_empties(cond: Condition, game: Any) -> frozenset[int]:
    return frozenset(game.pattern(cond.args["depots"]))


def all_cards_face_up(cond: Condition, game: Any) -> Test:
    return lambda state: all(c & 1 for pile in state.piles for c in pile)


def depots_empty(cond: Condition, game: Any) -> Test:
    depots = game.pattern(cond.args["depots"])
    return lambda state: not any(state.piles[d] for d in depots)


def depots_non_empty(cond: Condition, game: Any) -> Test:
    depots = game.pattern(cond.args["depots"])
    return lambda state: all(state.piles[d] for d in depots)


def all_of(cond: Condition, game: Any) -> Test:
    tests = tuple(game.condition(c) for c in cond.args["of"])
    return lambda state: all(t(state) for t in tests)


def any_of(cond: Condition, game: Any) -> Test:
    tests = tuple(game.condition(c) for c in cond.args["of"])
    return lambda state: any(t(state) for t in tests)


def expr(cond: Condition, game: Any) -> Test:
    fn = game.expr(cond.args["when"])
    return lambda state: bool(fn(game.env(state)))


def no_legal_moves(cond: Condition, game: Any) -> Test:
    """No move counts, where a move onto a ``landUnder`` depot counts only if it turns a card
    face-up (cycling a card beneath a pile changes nothing that matters)."""
    lands_under = game.land_under
    plain = not any(lands_under)
    tap_available, move_available = game.tap_available, game.move_available

    def test(state: Any) -> bool:
        # the engine asks the cheapest first (this check runs after every move)
        if plain and not state.rules_off:
            return not move_available(state)
        # a tap always counts
        if tap_available(state):
            return False
        return not any(not lands_under[m.dst] or game.turns_card_up(state, m)
                       for m in game.legal_moves(state))

    return test
