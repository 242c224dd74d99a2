"""Move documents and the move text form.

Documents: ``{"from": "column-3", "index": 4, "to": "foundation-1"}`` (``"declare": "H"`` adds
a called suit; ``"at": 0`` with ``to`` the same depot moves the card along a loose fan to that
position) and ``{"tap": "stock"}``. Text form (grammar in ``docs/contract.md``):

    move    = FROM "@" INDEX ">" TO [ "=" SUIT ]
    reorder = FROM "@" INDEX ">" FROM "@" POSITION
    tap     = "tap" " " DEPOT

Depot names are matched whole against the game's depots, so a name may hold any character;
the separators are found from the right where a name could be ambiguous.

On a board (``parse_move_on``) a transfer may name its card instead of the index:

    named = CARD [ " " FROM ] ">" TO [ "=" SUIT ]

(``AS>foundation-1``, ``7H column-3 > foundation-1``), when exactly one face-up copy of the card
can be picked up there. A depot name that is not one of the game's is refused with the closest
names (``tap stok``: did you mean 'stock'?).
"""

from __future__ import annotations

import json
import re
from typing import Any

from cardz_core.cards import SUIT_LETTERS, card_id_of, is_face_up, parse_card, parse_suit
from cardz_core.engine.documents import shown
from cardz_core.engine.moves import Move
from cardz_core.engine.state import State
from cardz_core.limits import MAX_CARDS
from cardz_core.nearest import did_you_mean
from cardz_core.problems import CardzError, is_whole, pointer

MOVE_FIELDS = frozenset({"from", "index", "to", "declare", "at", "text"})
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
    if move.at >= 0:
        doc["at"] = move.at
    elif move.declare >= 0:
        doc["declare"] = SUIT_LETTERS[move.declare]
    return doc


def move_text(game: Any, move: Move) -> str:
    """The text form of ``move``: ``column-3@4>foundation-1``, ``...=H``, ``tap stock``."""
    names = game.depot_names
    n = len(names)
    tap = move.dst == move.index == -1
    # a reorder's fourth field is a position, any other move's a suit (or -1 for none)
    fourth = MAX_CARDS if move.src == move.dst else len(SUIT_LETTERS)
    card_move = 0 <= move.dst < n and move.index >= 0 and -1 <= move.declare < fourth
    if not (0 <= move.src < n and (tap or card_move)):
        raise CardzError(f"{move!r} is not a move of {game.spec.name!r}: it names no depot, "
                         f"position or suit the game has")
    if tap:
        return TAP_PREFIX + names[move.src]
    text = f"{names[move.src]}@{move.index}>{names[move.dst]}"
    if move.at >= 0:
        text += f"@{move.at}"
    elif move.declare >= 0:
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
        # a stand-in game (tests, adapters) may name depots without a compiled game
        groups = getattr(getattr(game, "compiled", None), "groups", {})
        if isinstance(name, str) and name in groups:
            copies = [game.depot_names[i] for i in groups[name]]
            raise CardzError(f"{role} {shown(name)} names {len(copies)} depots: write one of them, "
                             f"{copies[0]} ... {copies[-1]}", path)
        hint = did_you_mean(name, game.depot_names) if isinstance(name, str) else ""
        raise CardzError(f"{role} {shown(name)} is not a depot of {game.spec.name!r}{hint}", path)
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
        before = text.partition("@")[0] if "@" in text else ""
        hint = did_you_mean(before, game.depot_names) if before else ""
        if not hint and text.lower().startswith("tap"):
            hint = did_you_mean(text, [TAP_PREFIX + n for n in game.depot_names])
        raise CardzError(f"{shown(text)}: a move is written FROM@INDEX>TO (like "
                         f"'column-3@4>foundation-1') or 'tap DEPOT'; no depot of "
                         f"{game.spec.name!r} comes before an '@'{hint}", path)
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
            target, declare = name, _declare(suit, path, f"{shown(text)}: ")
    elif target not in game.depot_index and "@" in target:
        name, _, position = target.rpartition("@")
        if name in game.depot_index and _INDEX.fullmatch(position) and int(position) < MAX_CARDS:
            if game.depot_index[name] != src:
                raise CardzError(f"{shown(text)}: '@POSITION' after the target is only for moving a "
                                 "card along its own depot's fan", path)
            target, declare = name, int(position)
            return Move(src, int(index_text), src, declare)
    dst = _depot(game, target, path, f"{shown(text)}: target")
    if dst == src and declare >= 0:
        raise CardzError(f"{shown(text)}: a card moved along its own depot calls no suit; its new "
                         f"place is written '@POSITION'", path)
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
            raise CardzError(f"unknown field {shown(key)} in a move document", path + pointer(key))
    if "tap" in doc:
        move = Move(_depot(game, doc["tap"], path + "/tap", "tap"), -1, -1)
    else:
        index = doc["index"]
        if not is_whole(index, 0, MAX_CARDS - 1):
            raise CardzError(f"index is the picked card's position, a whole number from 0 "
                             f"(bottom) below {MAX_CARDS}, not {shown(index)}", path + "/index")
        declare = _declare(doc["declare"], path + "/declare") if "declare" in doc else -1
        src = _depot(game, doc["from"], path + "/from", "from")
        dst = _depot(game, doc["to"], path + "/to", "to")
        if "at" in doc:
            declare = _position(doc, src, dst, path)
        elif src == dst and declare >= 0:
            raise CardzError("a card moved along its own depot calls no suit; its new place is "
                             "'at'", path + "/declare")
        move = Move(src, index, dst, declare)
    if "text" in doc:
        text_move = parse_move(game, doc["text"], path + "/text") \
            if isinstance(doc["text"], str) and not doc["text"].lstrip().startswith("{") else None
        if text_move != move:
            raise CardzError(f"text {shown(doc['text'])} does not describe the same move as the "
                             "document's other fields", path + "/text")
    return move


def _position(doc: dict[str, Any], src: int, dst: int, path: str) -> int:
    """A reorder document's ``at``: the card's new position along its own depot's fan."""
    at = doc["at"]
    if "declare" in doc:
        raise CardzError("a move along a fan calls no suit: give 'at' or 'declare', not both",
                         path + "/at")
    if src != dst:
        raise CardzError("'at' is the new position of a card moved along its own depot's fan: "
                         "'to' must be 'from'", path + "/at")
    if not is_whole(at, 0, MAX_CARDS - 1):
        raise CardzError(f"at is the card's new position, a whole number from 0 (bottom) below "
                         f"{MAX_CARDS}, not {shown(at)}", path + "/at")
    return at


def parse_move_on(game: Any, board: State, value: Any, path: str = "") -> Move:
    """Like ``parse_move``, and on ``board`` a transfer may name its card instead of its index:
    ``AS>foundation-1`` or ``7H column-3 > foundation-1`` (see the module docstring)."""
    if not isinstance(value, str) or value.lstrip().startswith("{"):
        return parse_move(game, value, path)
    text = value.strip()
    try:
        return parse_move(game, text, path)
    except CardzError:
        named = _card_named(game, board, text, path)
        if named is None:
            raise
        return named


def _card_named(game: Any, board: State, text: str, path: str) -> Move | None:
    """The move ``CARD [FROM] > TO [=SUIT]`` names on ``board``; None when ``text`` does not
    begin with a card and hold a '>' (the caller then reports the text form's error)."""
    head, sep, target = text.rpartition(">")
    words = head.split(None, 1)
    if not sep or not words:
        return None
    target = target.strip()
    try:
        card, face_up = parse_card(words[0])
    except ValueError:
        if "@" in head:
            return None  # the text form's own error says more
        first = words[0]
        if first in game.depot_index:
            raise CardzError(f"{shown(text)}: a move names the card it takes from {first} by its "
                             f"position, {first}@INDEX>{target}, or by the card, CARD>{target}",
                             path) from None
        raise CardzError(f"{shown(text)}: {shown(first)} is neither a card (like 7H or 10D) nor a depot "
                         f"of {game.spec.name!r}{did_you_mean(first, game.depot_names)}",
                         path) from None
    if card is None or not face_up:
        return None
    source = words[1].strip() if len(words) > 1 else ""
    declare = -1
    if target not in game.depot_index and "=" in target:
        name, _, suit = target.rpartition("=")
        if name.strip() in game.depot_index:
            target, declare = name.strip(), _declare(suit.strip(), path, f"{shown(text)}: ")
    dst = _depot(game, target, path, f"{shown(text)}: target")
    depots = [_depot(game, source, path, f"{shown(text)}: source")] if source else \
        range(len(game.depot_names))
    found = [(d, i) for d in depots for i, c in enumerate(board.piles[d])
             if c >= 0 and is_face_up(c) and game.identity[card_id_of(c)] == card]
    where = f" in {source}" if source else " on the board"
    if not found:
        raise CardzError(f"{shown(text)}: no face-up {card}{where}", path)
    if len(found) > 1:
        spots = ", ".join(f"{game.depot_names[d]}@{i}" for d, i in found)
        raise CardzError(f"{shown(text)}: {card} is face-up at {spots}; name the one to move "
                         f"(like {game.depot_names[found[0][0]]}@{found[0][1]}>{target})", path)
    src, index = found[0]
    return Move(src, index, dst, declare)
