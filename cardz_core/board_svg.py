"""A board drawn as SVG, laid out by ``board_layout``: every depot on the table as an outline,
every card on it face or back, a line saying the game, status and moves. Depots marked
`offTable` and their cards are not drawn. Every text placed is escaped."""

from __future__ import annotations

import math
from typing import Any

import attrs

from cardz_core.board_layout import CARD_HEIGHT, CARD_WIDTH, Placed, lay_out, spot
from cardz_core.cards import JOKER_RANK, RANK_LETTERS, RED, SUIT_COLOR, card_id_of, is_face_up
from cardz_core.engine.documents import card_table
from cardz_core.engine.state import STATUS_NAMES, State
from cardz_core.safe_text import markup

MARGIN = 16
CAPTION = 24  # height of the caption line above the table
SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")
BACK_COLOURS = {1: "#2c5aa0", 2: "#a0302c"}
UNKNOWN_BACK = "#6b6b6b"  # a view's "one of the cards not yet seen": its back is not known either
INK = {RED: "#c0272d", "black": "#1a1a1a", "joker": "#6a3d9a"}
FONT = 'font-family="sans-serif"'


def _transform(p: Placed) -> str:
    if not p.rotation:
        return f'translate({p.x:.1f} {p.y:.1f})'
    deg = math.degrees(p.rotation)
    return (f'translate({p.x:.1f} {p.y:.1f}) '
            f'rotate({deg:.2f} {CARD_WIDTH / 2:.1f} {CARD_HEIGHT / 2:.1f})')


@attrs.frozen
class Face:
    """What a card shows: ``label`` its notation (``10H``, ``~QS``, ``~?``); a card face-down or
    unknown shows only ``back``, its colour (and ``unknown`` a question mark); one face-up shows
    ``corner`` and ``middle`` in ``ink``."""

    label: str
    back: str | None
    unknown: bool = False
    corner: str = ""
    middle: str = ""
    ink: str = ""


def card_face(game: Any, c: int) -> Face:
    """How card code ``c`` (of a true board or a view) is drawn."""
    table = card_table(game)
    label = table.text(c)
    if c < 0:
        return Face(label, UNKNOWN_BACK, unknown=True)
    if not is_face_up(c):
        return Face(label, BACK_COLOURS.get(game.spec.cards[card_id_of(c)].back, BACK_COLOURS[1]))
    card = table.cards[card_id_of(c)]
    if card.rank == JOKER_RANK:
        return Face(label, None, corner="JK", middle="\u2605", ink=INK["joker"])
    ink = INK[RED] if SUIT_COLOR[card.suit] == RED else INK["black"]
    return Face(label, None, corner=RANK_LETTERS[card.rank] + SUIT_SYMBOLS[card.suit],
                middle=SUIT_SYMBOLS[card.suit], ink=ink)


def _card(game: Any, c: int, p: Placed) -> str:
    face = card_face(game, c)
    body = [f'<title>{markup(face.label)}</title>']
    if face.back is not None:
        body.append(f'<rect width="{CARD_WIDTH}" height="{CARD_HEIGHT}" rx="6" fill="{face.back}" '
                    f'stroke="#1a1a1a"/>'
                    f'<rect x="5" y="5" width="{CARD_WIDTH - 10}" height="{CARD_HEIGHT - 10}" rx="4" '
                    f'fill="none" stroke="#ffffff" stroke-opacity="0.6"/>')
        if face.unknown:
            body.append(f'<text x="{CARD_WIDTH / 2}" y="{CARD_HEIGHT / 2 + 8}" text-anchor="middle" '
                        f'{FONT} font-size="24" fill="#ffffff">?</text>')
    else:
        body.append(f'<rect width="{CARD_WIDTH}" height="{CARD_HEIGHT}" rx="6" fill="#ffffff" '
                    f'stroke="#1a1a1a"/>'
                    f'<text x="5" y="17" {FONT} font-size="15" font-weight="bold" fill="{face.ink}">'
                    f'{markup(face.corner)}</text>'
                    f'<text x="{CARD_WIDTH / 2}" y="{CARD_HEIGHT / 2 + 14}" text-anchor="middle" '
                    f'{FONT} font-size="40" fill="{face.ink}">{face.middle}</text>')
    return f'<g class="card" transform="{_transform(p)}">{"".join(body)}</g>'


def _outline(depot: Any) -> str:
    x, y = spot(depot)
    p = Placed(x, y, depot.angle)
    return (f'<g class="depot" transform="{_transform(p)}"><title>{markup(depot.name)}</title>'
            f'<rect width="{CARD_WIDTH}" height="{CARD_HEIGHT}" rx="6" fill="none" '
            f'stroke="#ffffff" stroke-opacity="0.5" stroke-dasharray="4 3"/></g>')


def _badge(depot: Any, count: int) -> str:
    """The number of cards on a squared pile, which a reader could not see otherwise."""
    x, y = spot(depot)
    return (f'<text class="count" x="{x + CARD_WIDTH / 2:.1f}" y="{y + CARD_HEIGHT + 14:.1f}" '
            f'text-anchor="middle" {FONT} font-size="12" fill="#ffffff">{count}</text>')


@attrs.frozen
class Drawing:
    svg: str  # the whole SVG document
    width: int  # px
    height: int
    cards: int  # cards drawn (those on `offTable` depots are not)


def render_svg(game: Any, state: State) -> Drawing:
    """``state`` (a true board or a view) drawn as ``game`` lays it out."""
    table = lay_out(game.spec, state.piles)
    body: list[str] = []
    cards = 0
    for pile in table.piles:
        body.append(_outline(pile.depot))
        codes = state.piles[pile.index]
        cards += len(codes)
        body.extend(_card(game, c, p) for c, p in zip(codes, pile.cards))
        if pile.badge:
            body.append(_badge(pile.depot, len(codes)))
    left = table.left - MARGIN
    top = table.top - MARGIN - CAPTION
    width = math.ceil(table.right + MARGIN - left)
    height = math.ceil(table.bottom + MARGIN - top)
    caption = f"{game.spec.name} \u2014 {STATUS_NAMES[state.status]}, {state.moves} moves"
    title = markup(game.spec.name)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="{left:.1f} {top:.1f} {width} {height}" role="img" '
           f'aria-label="{title}"><title>{title}</title>'
           f'<rect x="{left:.1f}" y="{top:.1f}" width="{width}" height="{height}" fill="#2e7d4f"/>'
           f'<text x="{left + MARGIN:.1f}" y="{top + MARGIN + 10:.1f}" {FONT} font-size="14" '
           f'fill="#ffffff">{markup(caption)}</text>'
           f'{"".join(body)}</svg>\n')
    return Drawing(svg, width, height, cards)
