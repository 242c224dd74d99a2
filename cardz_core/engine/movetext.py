"""Move documents and the move text form.

Documents: ``{"from": "column-3", "index": 4, "to": "foundation-1"}`` (``"declare": "H"`` adds
a called suit) and ``{"tap": "stock"}``. Text form (grammar in ``docs/contract.md``):

    move  = FROM "@" INDEX ">" TO [ "=" SUIT ]
    tap   = "tap" " " DEPOT

Depot names are matched whole against the game's depots, so a name may hold any character;
the separators are found from the right where a name could be ambiguous.
"""

from __future__ import annotations

import json
import re
from typing import Any

from cardz_core.cards import SUIT_LETTERS, parse_suit
from cardz_core.engine.documents import shown
from cardz_core.engine.moves import Move
from cardz_core.limits import MAX_CARDS
from cardz_core.problems import CardzError, pointer

MOVE_FIELDS = frozenset({"from", "index", "to", "declare", "text"})
TAP_FIELDS = frozenset({"tap", "text"})
TAP_PREFIX = "tap "
# an index is written in ASCII digits (str.isdigit also takes '²' and Arabic-Indic digits), and
# no pile holds more than MAX_CARDS cards, so a longer number is never a position
_INDEX = re.compile(r"[0-9]{1,%d}" % len(str(MAX_CARDS)))


def move_document(game: Any, move: Move) -> dict[str, Any]:
    """The move document of ``move``."""
    names = game.depot_names
    if move.dst < 0:
        return {"tap": names[move.src]}
    doc: dict[str, Any] = {"from": names[move.src], "index": move.index, "to": names[move.dst]}
    if move.declare >= 0:
        doc["declare"] = SUIT_LETTERS[move.declare]
    return doc


def move_text(game: Any, move: Move) -> str:
    """The text form of ``move``: ``column-3@4>foundation-1``, ``...=H``, ``tap stock``."""
    names = game.depot_names
    if move.dst < 0:
        return TAP_PREFIX + names[move.src]
    text = f"{names[move.src]}@{move.index}>{names[move.dst]}"
    if move.declare >= 0:
        text += "=" + SUIT_LETTERS[move.declare]
    return text


def parse_move(game: Any, value: Any, path: str = "") -> Move:
    """A ``Move`` from its text form, its document (a dict) or JSON text of the document.

    Only the form is checked here (depots exist, the index is a whole number); whether the
    move is legal is for ``Game.apply``. Raises CardzError naming what is wrong at ``path``.
    """
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith("{"):
            try:
                value = json.loads(stripped)
            except json.JSONDecodeError as exc:
                raise CardzError(f"move is not valid JSON: {exc.msg} at column {exc.colno}", path)
        else:
            return _parse_text(game, stripped, path)
    if isinstance(value, dict):
        return _parse_document(game, value, path)
    raise CardzError(f"a move is text like 'column-3@4>foundation-1' or 'tap stock', or a "
                     f"move document, not {shown(value)}", path)



def _depot(game: Any, name: Any, path: str, role: str) -> int:
    index = game.depot_index.get(name) if isinstance(name, str) else None
    if index is None:
        raise CardzError(f"{role} {name!r} is not a depot of {game.spec.name!r}", path)
    return index


def _declare(value: Any, path: str, where: str = "") -> int:
    suit = parse_suit(value)
    if suit is None:
        raise CardzError(f"{where}declare {shown(value)} is not a suit (C, D, H or S)", path)
    return suit


def _parse_text(game: Any, text: str, path: str) -> Move:
    if text.startswith(TAP_PREFIX):
        name = text[len(TAP_PREFIX):].strip()
        return Move(_depot(game, name, path, "tap: depot"), -1, -1)
    at = text.find("@")
    while at >= 0 and text[:at] not in game.depot_index:
        at = text.find("@", at + 1)
    if at < 0:
        raise CardzError(f"{text!r}: a move is written FROM@INDEX>TO (like "
                         f"'column-3@4>foundation-1') or 'tap DEPOT'; no depot of "
                         f"{game.spec.name!r} comes before an '@'", path)
    src = game.depot_index[text[:at]]
    rest = text[at + 1:]
    index_text, sep, target = rest.partition(">")
    if not sep or not _INDEX.fullmatch(index_text) or int(index_text) >= MAX_CARDS:
        raise CardzError(f"{shown(text)}: after '{text[:at]}@' comes the card's position (a "
                         f"whole number in the digits 0-9, bottom = 0, below {MAX_CARDS}), then "
                         "'>' and the target depot", path)
    declare = -1
    if target not in game.depot_index and "=" in target:
        name, _, suit = target.rpartition("=")
        if name in game.depot_index:
            target, declare = name, _declare(suit, path, f"{text!r}: ")
    dst = _depot(game, target, path, f"{text!r}: target")
    return Move(src, int(index_text), dst, declare)


def _parse_document(game: Any, doc: dict[str, Any], path: str) -> Move:
    if "tap" in doc:
        allowed = TAP_FIELDS
    else:
        allowed = MOVE_FIELDS
        for key in ("from", "index", "to"):
            if key not in doc:
                raise CardzError(f"a move document needs 'from', 'index' and 'to' "
                                 f"(or 'tap'); {key!r} is missing", path + pointer(key))
    for key in doc:
        if key not in allowed:
            raise CardzError(f"unknown field {key!r} in a move document", path + pointer(key))
    if "tap" in doc:
        move = Move(_depot(game, doc["tap"], path + "/tap", "tap"), -1, -1)
    else:
        index = doc["index"]
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < MAX_CARDS:
            raise CardzError(f"index is the picked card's position, a whole number from 0 "
                             f"(bottom) below {MAX_CARDS}, not {shown(index)}", path + "/index")
        declare = _declare(doc["declare"], path + "/declare") if "declare" in doc else -1
        move = Move(_depot(game, doc["from"], path + "/from", "from"), index,
                    _depot(game, doc["to"], path + "/to", "to"), declare)
    if "text" in doc:
        text_move = parse_move(game, doc["text"], path + "/text") \
            if isinstance(doc["text"], str) and not doc["text"].lstrip().startswith("{") else None
        if text_move != move:
            raise CardzError(f"text {doc['text']!r} does not describe the same move as the "
                             "document's other fields", path + "/text")
    return move
