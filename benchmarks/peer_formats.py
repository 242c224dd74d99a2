"""Our deals in the input formats of two other solvers, and their answers read back.

- fc-solve (Freecell Solver, Debian's ``freecell-solver-bin``) reads a board as one text line
  per column, the card lying on the table first, ranks ``A 2-9 T J Q K`` and suits ``C D H S``
  (its man page, "USAGE"). It answers "This game is solveable." or "I could not solve this game."
  (with ``-sel``, "Iterations count exceeded." when its iteration budget ran out), then the
  positions it checked and generated.
- Solvitaire (Blake and Gent) reads a deal as JSON: ``"tableau piles"``, each listed bottom card
  first, and ``"stock"``, its last card the one drawn first (``deal_parser.cpp``: each listed card
  is placed on top of the previous one; ``stock_card_from_count`` counts from the end). Which cards
  are face-down is not written: its rules' ``"face up cards": "top"`` turns every tableau card but
  the top one face-down, which is exactly our dealt Klondike. Its rules file has the shape that
  ``--describe-game-rules`` prints.

Nothing here runs a peer; ``bench_solver.py`` does.
"""

from __future__ import annotations

import re
from typing import Any

from cardz_core.msdeal import ms_columns

FACE_DOWN = "~"  # how a board document marks a face-down card

# fc-solve writes ten as T; our card notation writes 10
_FCS_RANK = {"10": "T"}


def fcsolve_board(columns: list[list[str]]) -> str:
    """fc-solve's board text for FreeCell columns given bottom card first, cells and
    foundations empty."""
    return "".join(" ".join(_FCS_RANK.get(c[:-1], c[:-1]) + c[-1] for c in col) + "\n"
                   for col in columns)


def ms_fcsolve_board(deal: int) -> str:
    """fc-solve's board text for Microsoft FreeCell deal ``deal``."""
    return fcsolve_board(ms_columns(deal))


def ms_solvitaire_deal(deal: int) -> dict[str, Any]:
    """Solvitaire's deal for Microsoft FreeCell deal ``deal`` (its ``free-cell`` preset)."""
    return {"tableau piles": ms_columns(deal)}


def solvitaire_klondike_deal(doc: dict[str, Any], roles: tuple[str, ...]) -> dict[str, Any]:
    """Solvitaire's deal for the opening of a Klondike game, from our board document ``doc``
    and the game's depot roles (one ``stock``, ``tableau`` columns in file order).

    Face-down column cards get a lower-case suit letter. The position must be a dealt one, as
    Solvitaire's rules for a deal expect: every column face-down but its top card, the stock all
    face-down, the waste and the foundations empty. Anything else raises ValueError rather than
    hand the peer another game."""
    names = list(doc["depots"])
    if len(names) != len(roles):
        raise ValueError("the board document and the roles list different depots")
    columns: list[list[str]] = []
    stock: list[str] = []
    for name, role in zip(names, roles):
        pile = doc["depots"][name]
        if role == "tableau":
            if not pile or any(not c.startswith(FACE_DOWN) for c in pile[:-1]) \
                    or pile[-1].startswith(FACE_DOWN):
                raise ValueError(f"{name}: Solvitaire's Klondike needs face-down cards under "
                                 f"one face-up card, not {pile}")
            columns.append([c[1:-1] + c[-1].lower() for c in pile[:-1]] + [pile[-1]])
        elif role == "stock":
            if stock or any(not c.startswith(FACE_DOWN) for c in pile):
                raise ValueError("Solvitaire's Klondike needs one stock, every card face-down")
            stock = [c.lstrip(FACE_DOWN) for c in pile]
        elif pile:
            raise ValueError(f"{name} ({role}) is not empty at the start")
    return {"tableau piles": columns, "stock": stock}


def solvitaire_klondike_rules(draw: int) -> dict[str, Any]:
    """Solvitaire's rules for our Klondike: its ``klondike`` preset (seven columns dealt 1 to 7,
    alternate colours down, Kings into spaces, unlimited passes) drawing ``draw`` cards, with the
    foundations locked as ours are (the preset lets cards come back off them)."""
    return {
        "tableau piles": {"count": 7, "build policy": "red-black", "spaces policy": "kings",
                          "move built group": "partial-if-card-above-buildable",
                          "diagonal deal": True, "face up cards": "top"},
        "foundations": {"removable": False},
        "stock": {"size": 24, "deal count": draw, "redeal": True},
    }


def _count(pattern: str, text: str) -> int | None:
    found = re.search(pattern, text)
    return int(found.group(1)) if found else None


def parse_fcsolve(text: str) -> dict[str, Any]:
    """fc-solve's answer (run with ``-sel``): ``result`` won, lost or unknown, ``searched``
    (positions checked) and ``stored`` (positions generated), None where not printed."""
    if "This game is solveable." in text:
        result = "won"
    elif "I could not solve this game." in text:
        result = "lost"
    else:  # "Iterations count exceeded.", or killed at the time budget
        result = "unknown"
    return {"result": result,
            "searched": _count(r"Total number of states checked is (\d+)\.", text),
            "stored": _count(r"This scan generated (\d+) states\.", text)}


_SOLVITAIRE_RESULT = {"solved": "won", "unsolvable": "lost"}


def parse_solvitaire(text: str) -> dict[str, Any]:
    """Solvitaire's answer: ``result`` won, lost or unknown (timed out, memory limit, killed),
    ``searched`` (its "States Searched") and ``stored`` ("Final States In Cache")."""
    found = re.search(r"Solution Type: (\S+)", text)
    return {"result": _SOLVITAIRE_RESULT.get(found.group(1), "unknown") if found else "unknown",
            "searched": _count(r"States Searched: (\d+)", text),
            "stored": _count(r"Final States In Cache: (\d+)", text)}
