"""Where each depot and card sits on the table, in pixels, as the game file lays them out.

The vocabulary places a depot on a grid (`col`/`row`, fractional) or at a pixel point (`x`/`y`,
which win), turns it by `angle` and fans its cards by `fanDirection`, `fanWindow`, `fanAnchor`
and the fan offsets. It leaves the sizes to the renderer; ours are the named constants below
(docs/render.md). A position is the top-left corner of a card before turning; `rotation` turns
the card about its own centre.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import attrs

from cardz_core.cards import is_face_up

CARD_WIDTH = 72
CARD_HEIGHT = 100
GRID_X = CARD_WIDTH + 16  # one grid column, px
GRID_Y = CARD_HEIGHT + 24  # one grid row, px
FAN_FACE_UP = 24.0  # built-in fan step after a face-up card, px
FAN_FACE_DOWN = 8.0  # ... after a face-down card
RADIAL_STEP = 0.15  # radians between neighbouring cards of a held-hand arc
RADIAL_RADIUS = 2.2 * CARD_HEIGHT  # from the arc's pivot, below the hand, to a card's centre

_DIRECTIONS = {"Down": (0.0, 1.0), "Up": (0.0, -1.0), "Left": (-1.0, 0.0), "Right": (1.0, 0.0),
               "None": (0.0, 0.0)}


@attrs.frozen
class Placed:
    """One card on the table: top-left corner (x, y) before turning, turned ``rotation`` radians
    about its centre."""

    x: float
    y: float
    rotation: float = 0.0

    def corners(self) -> list[tuple[float, float]]:
        cx, cy = self.x + CARD_WIDTH / 2, self.y + CARD_HEIGHT / 2
        cos, sin = math.cos(self.rotation), math.sin(self.rotation)
        return [(cx + dx * cos - dy * sin, cy + dx * sin + dy * cos)
                for dx in (-CARD_WIDTH / 2, CARD_WIDTH / 2)
                for dy in (-CARD_HEIGHT / 2, CARD_HEIGHT / 2)]


def spot(depot: Any) -> tuple[float, float]:
    """The top-left corner of a depot's base card: its `x`/`y`, else its grid cell."""
    if depot.x is not None:
        return float(depot.x), float(depot.y)
    return (depot.col or 0.0) * GRID_X, (depot.row or 0.0) * GRID_Y


def fan_steps(depot: Any, game_spec: Any) -> tuple[float, float]:
    """The fan step after a face-up and after a face-down card: the depot's, else the game's,
    else the built-in one."""
    up = depot.fan_offset_face_up
    down = depot.fan_offset_face_down
    if up is None:
        up = game_spec.fan_offset_face_up if game_spec.fan_offset_face_up is not None else FAN_FACE_UP
    if down is None:
        down = (game_spec.fan_offset_face_down if game_spec.fan_offset_face_down is not None
                else FAN_FACE_DOWN)
    return float(up), float(down)


def _turn(point: tuple[float, float], about: tuple[float, float], angle: float) -> tuple[float, float]:
    if not angle:
        return point
    cos, sin = math.cos(angle), math.sin(angle)
    dx, dy = point[0] - about[0], point[1] - about[1]
    return about[0] + dx * cos - dy * sin, about[1] + dx * sin + dy * cos


def place_pile(depot: Any, game_spec: Any, pile: Sequence[int]) -> list[Placed]:
    """Where each card of ``pile`` (card codes, bottom first) lies."""
    n = len(pile)
    if n == 0:
        return []
    x0, y0 = spot(depot)
    if depot.fan_direction == "Radial":
        return _place_radial(depot, n, x0, y0)
    up, down = fan_steps(depot, game_spec)
    dx, dy = _DIRECTIONS.get(depot.fan_direction, (0.0, 0.0))
    # Cards below the window stay squared on the first fanned card's place.
    first = max(0, n - depot.fan_window) if depot.fan_window is not None else 0
    offsets = [0.0] * n
    for k in range(first + 1, n):
        offsets[k] = offsets[k - 1] + (up if is_face_up(pile[k - 1]) else down)
    shift = {"Base": 0.0, "Top": offsets[-1], "Center": offsets[-1] / 2}.get(depot.fan_anchor, 0.0)
    centre = (x0 + CARD_WIDTH / 2, y0 + CARD_HEIGHT / 2)
    placed = []
    for off in offsets:
        cx, cy = _turn((centre[0] + dx * (off - shift), centre[1] + dy * (off - shift)), centre,
                       depot.angle)
        placed.append(Placed(cx - CARD_WIDTH / 2, cy - CARD_HEIGHT / 2, depot.angle))
    return placed


def _place_radial(depot: Any, n: int, x0: float, y0: float) -> list[Placed]:
    """A held-hand arc: the cards turn about a pivot below the depot's spot, the anchored card
    upright on the spot."""
    anchor = {"Base": 0.0, "Top": n - 1.0}.get(depot.fan_anchor, (n - 1) / 2)
    centre = (x0 + CARD_WIDTH / 2, y0 + CARD_HEIGHT / 2)
    pivot = (centre[0], centre[1] + RADIAL_RADIUS)
    placed = []
    for k in range(n):
        theta = (k - anchor) * RADIAL_STEP
        cx, cy = pivot[0] + RADIAL_RADIUS * math.sin(theta), pivot[1] - RADIAL_RADIUS * math.cos(theta)
        cx, cy = _turn((cx, cy), centre, depot.angle)
        placed.append(Placed(cx - CARD_WIDTH / 2, cy - CARD_HEIGHT / 2, theta + depot.angle))
    return placed


BADGE_DROP = 18.0  # px below a squared pile that its card count reaches


@attrs.frozen
class PileLayout:
    """One depot on the table: its index among the game's depots, its outline (the spot, turned
    by the depot's angle), where each of its cards lies, and whether it carries a card count
    (a squared pile of more than one card, whose count a reader could not see otherwise)."""

    index: int
    depot: Any
    outline: Placed
    cards: tuple[Placed, ...]
    badge: bool


@attrs.frozen
class TableLayout:
    """Every depot on the table (those marked `offTable` are not) and the box holding every
    outline, card and count: (left, top) to (right, bottom), in px."""

    piles: tuple[PileLayout, ...]
    left: float
    top: float
    right: float
    bottom: float


def lay_out(game_spec: Any, piles: Sequence[Sequence[int]]) -> TableLayout:
    """Where each depot and card of a board (its piles of card codes, in the game's depot order)
    lies, as ``cardz render`` draws it and ``cardz serve`` shows it."""
    laid: list[PileLayout] = []
    corners: list[tuple[float, float]] = []
    for index, (depot, pile) in enumerate(zip(game_spec.depots, piles)):
        if depot.off_table:
            continue
        x, y = spot(depot)
        outline = Placed(x, y, depot.angle)
        cards = tuple(place_pile(depot, game_spec, pile))
        badge = depot.fan_direction == "None" and len(pile) > 1
        corners.extend(outline.corners())
        for p in cards:
            corners.extend(p.corners())
        if badge:
            corners.append((x, y + CARD_HEIGHT + BADGE_DROP))
        laid.append(PileLayout(index, depot, outline, cards, badge))
    if not corners:
        corners = [(0.0, 0.0), (CARD_WIDTH, CARD_HEIGHT)]
    return TableLayout(tuple(laid), min(x for x, _ in corners), min(y for _, y in corners),
                       max(x for x, _ in corners), max(y for _, y in corners))
