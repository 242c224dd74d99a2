"""Microsoft FreeCell deals by number, so results compare with other solvers.

The deal is the public description of the Windows FreeCell shuffle: a linear congruential
generator seeded with the deal number (``state = state * 214013 + 2531011 mod 2**31``, each draw
``state >> 16``) picks cards out of a deck ordered Ace to King, each rank as clubs, diamonds,
hearts, spades. The pick takes position ``r mod remaining``, and the last card of the remaining
deck fills the gap. Card i of the resulting order lands on column ``i mod 8``, so each column
lists its cards bottom (first dealt) to top.
"""

from __future__ import annotations

from typing import Any

from cardz_core.cards import RANK_LETTERS, SUIT_LETTERS
from cardz_core.limits import MAX_MS_DEAL
from cardz_core.problems import CardzError, is_whole

MS_COLUMNS = 8
_MS_SUIT_ORDER = (0, 1, 2, 3)  # C D H S, the order the card table of the generator uses


def ms_order(deal: int) -> list[str]:
    """The 52 cards of Microsoft deal ``deal`` in dealing order, written in the card notation."""
    if not is_whole(deal, 1, MAX_MS_DEAL):
        raise CardzError(f"a Microsoft deal number is 1..{MAX_MS_DEAL}, not {deal!r}")
    deck = [RANK_LETTERS[rank] + SUIT_LETTERS[suit]
            for rank in range(1, 14) for suit in _MS_SUIT_ORDER]
    state = deal
    order: list[str] = []
    for remaining in range(52, 0, -1):
        state = (state * 214013 + 2531011) & 0x7FFFFFFF
        pick = (state >> 16) % remaining
        order.append(deck[pick])
        deck[pick] = deck[remaining - 1]
    return order


def ms_columns(deal: int) -> list[list[str]]:
    """The eight columns of deal ``deal``, each bottom card first."""
    columns: list[list[str]] = [[] for _ in range(MS_COLUMNS)]
    for i, card in enumerate(ms_order(deal)):
        columns[i % MS_COLUMNS].append(card)
    return columns


def ms_board_document(game: Any, deal: int) -> dict[str, Any]:
    """A board document of ``game`` holding Microsoft deal ``deal``.

    The game must be laid out like FreeCell: one standard 52-card deck and exactly eight
    depots of the tableau role, which receive the columns in file order. Every other depot starts empty.
    Other fields (counters and the like) come from the game's own opening board, so the document
    is one ``Game.load_board`` accepts.
    """
    tableaux = [name for name, role in zip(game.depot_names, game.roles) if role == "tableau"]
    cards = sorted(str(card) for card in game.identity)
    standard = sorted(RANK_LETTERS[r] + SUIT_LETTERS[s] for r in range(1, 14) for s in range(4))
    if len(tableaux) != MS_COLUMNS or cards != standard:
        raise CardzError(f"Microsoft deals need one 52-card deck and {MS_COLUMNS} Tableau depots; "
                         f"{game.spec.name!r} has {game.n_cards} cards and {len(tableaux)} Tableau depots")
    doc = game.board_document(game.deal(0))
    depots: dict[str, list[str]] = {name: [] for name in doc["depots"]}
    for name, column in zip(tableaux, ms_columns(deal)):
        depots[name] = column
    doc["depots"] = depots
    return doc


def deal_ms(game: Any, deal: int) -> Any:
    """The opening ``State`` of Microsoft deal ``deal`` for a FreeCell-shaped ``game``."""
    return game.load_board(ms_board_document(game, deal))
