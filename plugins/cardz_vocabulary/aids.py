"""Card aids: ``pairSum`` shows, on each card, the rank that adds up with it to the number."""

from __future__ import annotations

from typing import Any, Callable

from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import Aid


def pair_sum(total: int, game: Any) -> Callable[[int], int | None]:
    """The rank whose value adds up with the card's to ``total``, when exactly one rank of the
    game's decks does (values as the game counts them); None otherwise, and for jokers."""
    value_of_rank: dict[int, int] = {}
    for card, value in zip(game.identity, game.card_value):
        if not card.joker:
            value_of_rank[card.rank] = value
    answers = []
    for card, value in zip(game.identity, game.card_value):
        ranks = [r for r, v in value_of_rank.items() if v + value == total]
        answers.append(ranks[0] if len(ranks) == 1 and not card.joker else None)
    table = tuple(answers)
    return table.__getitem__


AIDS = {"pairSum": Aid("int", compile=pair_sum)}


@hookimpl
def cardz_aids(register):
    for name, aid in AIDS.items():
        register(name, aid)
