"""A board as the front end draws it: every depot and card where ``cardz render`` puts them
(``board_layout.lay_out``), each card's face as ``board_svg.card_face`` paints it, and the card
aids the game asks for. The browser only turns these numbers into SVG elements, so its picture
and `cardz render`'s are one geometry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from cardz_core.board_layout import CARD_HEIGHT, CARD_WIDTH, Placed, lay_out
from cardz_core.board_svg import MARGIN, card_face
from cardz_core.cards import RANK_LETTERS, card_id_of

if TYPE_CHECKING:
    from cardz_core.engine.game import Game
    from cardz_core.engine.state import State

# how an aid's answer is written on a card; an aid a plugin adds is written as its answer
AID_TEXT: dict[str, Callable[[Any], str]] = {"pairSum": lambda rank: RANK_LETTERS[rank]}


def _place(p: Placed) -> dict[str, float]:
    return {"x": round(p.x, 1), "y": round(p.y, 1), "r": round(p.rotation, 4)}


def card_aids(game: Game) -> list[tuple[str, Callable[[int], Any]]]:
    """The game's aids, each as (name, fn(card id) -> answer or None)."""
    return list(game.aids.items())  # compiled once, with the game


def board_layout(game: Game, state: State, taps: set[int]) -> dict[str, Any]:
    """The drawing of ``state`` (a view or a true board); ``taps`` are the depots a tap is legal
    on, so a click there taps."""
    table = lay_out(game.spec, state.piles)
    aids = card_aids(game)
    depots = []
    for pile in table.piles:
        codes = state.piles[pile.index]
        cards = []
        for i, (c, p) in enumerate(zip(codes, pile.cards)):
            face = card_face(game, c)
            card: dict[str, Any] = {"i": i, "label": face.label, **_place(p)}
            if face.back is not None:
                card["back"] = face.back
                card["unknown"] = face.unknown
            else:
                card.update(corner=face.corner, middle=face.middle, ink=face.ink)
                shown = [AID_TEXT.get(name, str)(answer) for name, fn in aids
                         if (answer := fn(card_id_of(c))) is not None]
                if shown:
                    card["aid"] = " ".join(shown)
            cards.append(card)
        depots.append({"name": pile.depot.name, "index": pile.index, **_place(pile.outline),
                       "count": len(codes), "badge": pile.badge, "tap": pile.index in taps,
                       "cards": cards})
    return {"left": round(table.left - MARGIN, 1), "top": round(table.top - MARGIN, 1),
            "width": round(table.right - table.left + 2 * MARGIN, 1),
            "height": round(table.bottom - table.top + 2 * MARGIN, 1),
            "cardWidth": CARD_WIDTH, "cardHeight": CARD_HEIGHT, "depots": depots,
            "aids": [name for name, _ in aids]}

