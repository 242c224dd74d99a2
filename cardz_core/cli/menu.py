"""The moves `cardz play` offers a person: each with a key to type and a label naming the card.

Keys are stable within a position: transfers are numbered in board order (source depot, then
the card's position, then the target depot), whatever order the engine listed them in, and taps
get letters of their own (``t``, or ``t1``, ``t2`` ... where several depots can be tapped) that
never change during a game, so typing the same key twice never plays a different kind of move
because a move appeared or went away.

A card moved to one of several empty depots that the rules cannot tell apart (the solver's
symmetry classes: Klondike's foundations, FreeCell's cells) is offered once, ``AS column-3 >
foundation``, and plays to the first of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Sequence

from cardz_core.cards import SUIT_LETTERS
from cardz_core.engine.moves import Move

if TYPE_CHECKING:
    from cardz_core.engine.game import Game
    from cardz_core.engine.state import State


class Entry(NamedTuple):
    """One line of the menu: what to type, what it shows, the move it plays."""

    key: str
    label: str
    move: Move


def _classes(game: Game) -> dict[int, tuple[int, ...]]:
    """Each depot of a symmetry class, to its whole class (empty when the analysis finds none)."""
    from cardz_core.solver.analysis import analysis_of

    return {d: cl for cl in analysis_of(game).classes for d in cl}


def _class_name(game: Game, members: Sequence[int]) -> str:
    """The shared name of a class's depots (``foundation``) when one ``repeat`` made them all."""
    for name, copies in game.compiled.groups.items():
        if set(members) <= set(copies):
            return name
    return "/".join(game.depot_names[d] for d in members)


def tap_keys(game: Game) -> dict[int, str]:
    """The key of each depot a tap may be made on: ``t`` alone when there is one."""
    tappable = list(game.tappable)
    if len(tappable) == 1:
        return {tappable[0]: "t"}
    return {d: f"t{i}" for i, d in enumerate(tappable, 1)}


def card_label(game: Game, board: State, move: Move) -> str:
    """``7H column-3 > foundation-1``: the picked card as the player sees it (``~?`` when it is
    face-down and unknown), ``+2`` for the cards that go with it, then source and target."""
    from cardz_core.engine.documents import card_table

    pile = board.piles[move.src]
    picked = card_table(game).text(pile[move.index]) if move.index < len(pile) else "?"
    more = len(pile) - move.index - 1
    names = game.depot_names
    text = f"{picked}{f' +{more}' if more > 0 else ''} {names[move.src]} > {names[move.dst]}"
    return text + (f" ={SUIT_LETTERS[move.declare]}" if move.declare >= 0 else "")


def menu(game: Game, board: State, moves: Sequence[Move]) -> list[Entry]:
    """The entries for the legal ``moves`` of ``board`` (a view or a true board): taps first,
    then transfers in board order, those to interchangeable empty depots merged."""
    from cardz_core.engine.movetext import move_text

    keys = tap_keys(game)
    taps = sorted((m for m in moves if m.dst < 0), key=lambda m: m.src)
    # a tap on a depot the tables do not list as tappable keeps a key no other tap can have
    entries = [Entry(keys.get(m.src, f"t-{game.depot_names[m.src]}"), move_text(game, m), m)
               for m in taps]
    classes = _classes(game)
    merged: set[tuple[int, int, int, tuple[int, ...]]] = set()
    number = 0
    for m in sorted((m for m in moves if m.dst >= 0), key=lambda m: (m.src, m.index, m.dst,
                                                                     m.declare)):
        members = classes.get(m.dst)
        label = card_label(game, board, m)
        if members is not None and not board.piles[m.dst]:
            group = (m.src, m.index, m.declare, members)
            if group in merged:
                continue
            empty = [d for d in members if not board.piles[d]
                     and Move(m.src, m.index, d, m.declare) in moves]
            if len(empty) > 1:
                merged.add(group)
                label = card_label(game, board, m).rsplit(" > ", 1)[0] \
                    + f" > {_class_name(game, members)}"
                if m.declare >= 0:
                    label += f" ={SUIT_LETTERS[m.declare]}"
        number += 1
        entries.append(Entry(str(number), label, m))
    return entries


def normalised(text: str) -> str:
    """Typed text compared with labels: case and spacing do not matter."""
    return " ".join(text.replace(">", " > ").lower().split())


def _without_source(label: str) -> str | None:
    """``ad > foundation`` for the label ``AD column-7 > foundation`` (``+2`` for the cards
    going with it is left out too); None for a tap."""
    head, sep, target = label.partition(" > ")
    return normalised(f"{head.split(' ', 1)[0]} > {target}") if sep else None


def pick(entries: Sequence[Entry], typed: str) -> Entry | None:
    """The entry whose key or label the player typed, or None. The label may leave out the
    source (``AD>foundation``) when only one entry moves that card to that target."""
    want = normalised(typed)
    for e in entries:
        if want in (e.key, normalised(e.label)):
            return e
    short = [e for e in entries if _without_source(e.label) == want]
    return short[0] if len(short) == 1 else None
