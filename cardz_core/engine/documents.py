"""Board documents (``cardz-board/1``): a position as JSON, and back.

``board_document(game, state)`` writes every field of a ``State`` so that
``load_board(game, board_document(game, load_board(game, doc)))`` equals ``load_board(game, doc)``.
Fields that hold their default value are left out of a saved document; a loaded document may
leave them out too. The format is described in ``docs/contract.md``.

Identical copies of a card (multi-deck games) are interchangeable in notation: loading gives each
card the lowest card id of that rank and suit not yet used, reading depots in game order and
each pile bottom first. A view's unknown cards (``~?``) belong to a pool of unseen cards; the
pools are stored as counts in ``unseen`` and, where a depot holds unknown cards of a pool other
than 0, their pools in ``unknownPool``.
"""

from __future__ import annotations

from typing import Any, Mapping

from cardz_core.cards import (RANK_LETTERS, SUIT_LETTERS, Card, card_id_of, code, format_card,
                              is_face_up, parse_card, parse_rank, parse_suit, unknown_code,
                              unknown_pool)
from cardz_core.engine.ends import Ends
from cardz_core.engine.state import PLAYING, STATUS_NAMES, State
from cardz_core.limits import MAX_EXPR_INT, MAX_SEED
from cardz_core.nearest import closest
from cardz_core.problems import CardzError, Problem, is_whole, join, pointer

BOARD_FORMAT = "cardz-board/1"
COUNTERS = ("moves", "undos", "recycles", "redeals")
BOARD_FIELDS = frozenset({"format", "game", "depots", "counters", "status", "score", "cameFrom",
                          "recyclesUsed", "seedRank", "declared", "rulesOff", "autoMoved", "rng",
                          "unseen", "unknownPool"})


class CardTable:
    """The game's cards by identity: which card ids print as each card, lowest first."""

    def __init__(self, spec: Any) -> None:
        self.cards: tuple[Card, ...] = tuple(dc.card for dc in spec.cards)
        self.ids: dict[Card, list[int]] = {}
        for card_id, card in enumerate(self.cards):
            self.ids.setdefault(card, []).append(card_id)

    def text(self, c: int) -> str:
        """A card code in the contract's notation (``AS``, ``~QS``, ``~?``)."""
        if c < 0:
            return "~?"
        return format_card(self.cards[card_id_of(c)], is_face_up(c))


def card_table(game: Any) -> CardTable:
    """The game's ``CardTable``, built once and kept on the game."""
    table = getattr(game, "_card_table", None)
    if table is None:
        table = CardTable(game.spec)
        try:
            game._card_table = table
        except AttributeError:  # a game class with __slots__ simply rebuilds it each call
            pass
    return table


def board_document(game: Any, state: State) -> dict[str, Any]:
    """The ``cardz-board/1`` document of ``state`` (a position or a view)."""
    names: tuple[str, ...] = game.depot_names
    table = card_table(game)
    doc: dict[str, Any] = {
        "format": BOARD_FORMAT,
        "game": game.spec.name,
        "depots": {name: [table.text(c) for c in pile] for name, pile in zip(names, state.piles)},
        "counters": {"moves": state.moves, "undos": state.undos,
                     "recycles": state.recycles_total, "redeals": state.redeals},
        "status": STATUS_NAMES[state.status],
    }
    if game.spec.scoring is not None:
        doc["score"] = game.score(state)
    came = {names[d]: names[src] for d, src in enumerate(state.came_from) if src >= 0}
    if came:
        doc["cameFrom"] = came
    used = {names[d]: n for d, n in enumerate(state.recycles) if n}
    if used:
        doc["recyclesUsed"] = used
    if state.seed_rank:
        doc["seedRank"] = RANK_LETTERS[state.seed_rank]
    declared = {names[d]: SUIT_LETTERS[s] for d, s in enumerate(state.declared) if s >= 0}
    if declared:
        doc["declared"] = declared
    if state.rules_off:
        doc["rulesOff"] = True
    if state.auto_moved:
        doc["autoMoved"] = True
    if state.rng:
        doc["rng"] = state.rng
    if state.pools is not None:
        doc["unseen"] = [_pool_counts(table, pool) for pool in state.pools]
        unknown = {}
        for name, pile in zip(names, state.piles):
            pools = [unknown_pool(c) for c in pile if c < 0]
            if any(pools):
                unknown[name] = pools
        if unknown:
            doc["unknownPool"] = unknown
    return doc


def _pool_counts(table: CardTable, pool: tuple[int, ...]) -> dict[str, int]:
    """A pool (0/1 per card id: whether that card is unseen in it) as counts by notation."""
    counts: dict[str, int] = {}
    for card_id, n in enumerate(pool):
        if n:
            name = str(table.cards[card_id])
            counts[name] = counts.get(name, 0) + n
    return counts


class _Reader:
    """Reads one board document, collecting every problem before raising."""

    def __init__(self, game: Any, doc: Any) -> None:
        self.game = game
        self.doc = doc
        self.table = card_table(game)
        self.names: tuple[str, ...] = game.depot_names
        self.index: Mapping[str, int] = game.depot_index
        self.problems: list[Problem] = []
        self.used = [False] * len(self.table.cards)  # card ids placed so far
        self.unknown = 0  # unknown cards (~?) seen

    def error(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def read(self) -> State:
        doc = self.doc
        if not isinstance(doc, dict):
            raise CardzError("a board document is a JSON object", "")
        if doc.get("format") != BOARD_FORMAT:
            raise CardzError(f"format must be {BOARD_FORMAT!r}, not {shown(doc.get('format'))}", "/format")
        for key in doc:
            if key not in BOARD_FIELDS:
                self.error(pointer(key), f"unknown field {key!r} in a board document")
        game_name = doc.get("game", self.game.spec.name)
        if game_name != self.game.spec.name:  # alone: its depots and cards would all be wrong too
            raise CardzError(f"this board is for {shown(game_name)}, not {self.game.spec.name!r}",
                             "/game")
        n = len(self.names)
        piles = self._piles()
        counters = self._counters()
        status = self._status()
        came_from = [-1] * n
        for name, value in self._depot_map("cameFrom").items():
            src = self._depot_value(join("/cameFrom", name), value)
            if src is not None:
                came_from[self.index[name]] = src
        recycles = [0] * n
        for name, value in self._depot_map("recyclesUsed").items():
            count = self._count(join("/recyclesUsed", name), value)
            recycles[self.index[name]] = count
        declared = [-1] * n
        for name, value in self._depot_map("declared").items():
            suit = parse_suit(value)
            if suit is None:
                self.error(join("/declared", name), f"{value!r} is not a suit (C, D, H or S)")
            else:
                declared[self.index[name]] = suit
        seed_rank = 0
        if "seedRank" in doc:
            rank = parse_rank(doc["seedRank"])
            if rank is None:
                self.error("/seedRank", f"{doc['seedRank']!r} is not a rank (A, 2 ... 10, J, Q, K)")
            else:
                seed_rank = rank
        rules_off = self._flag("rulesOff")
        auto_moved = self._flag("autoMoved")
        rng = doc.get("rng", 0)
        if not is_whole(rng, 0, MAX_SEED):
            self.error("/rng", f"rng is the generator's 64-bit state, a whole number 0 to "
                               f"{MAX_SEED}, not {shown(rng)}")
            rng = 0
        pools = self._pools(piles)
        if self.problems:
            raise CardzError(self.problems)
        return State(tuple(piles), tuple(came_from), tuple(recycles), redeals=counters["redeals"],
                     moves=counters["moves"], undos=counters["undos"],
                     recycles_total=counters["recycles"], seed_rank=seed_rank,
                     declared=tuple(declared), rules_off=rules_off, auto_moved=auto_moved,
                     status=status, rng=rng, pools=pools, cards=self.game.identity)

    def _piles(self) -> list[tuple[int, ...]]:
        depots = self.doc.get("depots")
        piles: list[tuple[int, ...]] = [()] * len(self.names)
        if not isinstance(depots, dict):
            self.error("/depots", "depots must be an object naming every depot of the game")
            return piles
        missing = [name for name in self.names if name not in depots]
        # a misspelt name is one mistake: named with the depot it is near, which is then not
        # reported missing, nor are the cards it holds
        meant = {name: closest(name, missing) for name in depots if name not in self.index}
        for name in missing:
            if name not in meant.values():
                self.error("/depots", f"depot {name!r} is missing (list it with [] if it is empty)")
        for name, cards in depots.items():
            path = join("/depots", name)
            if name in meant:
                near = meant[name]
                hint = f" (did you mean {near!r}?)" if near is not None else ""
                self.error(path, f"{name!r} is not a depot of {self.game.spec.name!r}{hint}")
                continue
            if not isinstance(cards, list):
                self.error(path, "a pile is a list of cards, bottom first")
                continue
            piles[self.index[name]] = tuple(self._card(join(path, i), name, text)
                                            for i, text in enumerate(cards))
        if "unseen" not in self.doc and not meant:
            for card_id, used in enumerate(self.used):
                if not used:
                    self.error("/depots", f"card {self.table.cards[card_id]} is missing "
                               "from the board")
        return piles

    def _card(self, path: str, depot: str, text: Any) -> int:
        try:
            card, face_up = parse_card(text)
        except ValueError as exc:
            self.error(path, str(exc))
            return 0
        if card is None:
            self.unknown += 1
            return unknown_code(0)  # the pool is set by _pools
        ids = self.table.ids.get(card)
        if not ids:
            self.error(path, f"{depot}: the game's decks hold no {card}")
            return 0
        for card_id in ids:
            if not self.used[card_id]:
                self.used[card_id] = True
                return code(card_id, face_up)
        self.error(path, f"{depot}: one {card} too many (the decks hold {len(ids)})")
        return 0

    def _pools(self, piles: list[tuple[int, ...]]) -> tuple[tuple[int, ...], ...] | None:
        doc = self.doc
        if "unseen" not in doc:
            if self.unknown:
                self.error("/depots", "a board with unknown cards (~?) is a view: "
                           "it needs 'unseen', the counts of the cards not seen")
            if "unknownPool" in doc:
                self.error("/unknownPool", "unknownPool belongs to a view: it needs 'unseen'")
            return None
        unseen = doc["unseen"]
        if not isinstance(unseen, list) or not unseen:
            self.error("/unseen", "unseen is a list, one object of card counts per pool")
            return None
        pools: list[list[int]] = []
        for p, counts in enumerate(unseen):
            pool = [0] * len(self.table.cards)
            pools.append(pool)
            if not isinstance(counts, dict):
                self.error(join("/unseen", p), "a pool is an object: card -> how many")
                continue
            for text, n in counts.items():
                path = join("/unseen", p, text)
                try:
                    card, _ = parse_card(text)
                except ValueError as exc:
                    self.error(path, str(exc))
                    continue
                if card is None or not is_whole(n, 1):
                    self.error(path, "a pool counts cards: a card like 'AS' and a number 1 or more")
                    continue
                free = [i for i in self.table.ids.get(card, []) if not self.used[i]]
                if len(free) < n:
                    self.error(path, f"{n} x {card} unseen, but only {len(free)} "
                               "are not on the board")
                    continue
                for card_id in free[:n]:
                    self.used[card_id] = True
                    pool[card_id] = 1
        for card_id, used in enumerate(self.used):
            if not used:
                self.error("/depots", f"card {self.table.cards[card_id]} is neither on the "
                           "board nor unseen")
        self._place_pools(piles, len(pools))
        total = sum(sum(pool) for pool in pools)
        if total != self.unknown:
            self.error("/unseen", f"the pools hold {total} unseen cards, the board shows "
                       f"{self.unknown} unknown (~?)")
        return tuple(tuple(pool) for pool in pools)

    def _place_pools(self, piles: list[tuple[int, ...]], n_pools: int) -> None:
        """Give each ``~?`` the pool ``unknownPool`` names for it (0 when not named)."""
        for name, value in self._depot_map("unknownPool").items():
            d = self.index[name]
            path = join("/unknownPool", name)
            slots = [i for i, c in enumerate(piles[d]) if c < 0]
            if (not isinstance(value, list) or len(value) != len(slots)
                    or not all(is_whole(p, 0, n_pools - 1) for p in value)):
                self.error(path, f"give one pool number (0 to {n_pools - 1}) per unknown card "
                           f"of {name}: it holds {len(slots)}")
                continue
            pile = list(piles[d])
            for i, pool in zip(slots, value):
                pile[i] = unknown_code(pool)
            piles[d] = tuple(pile)

    def _depot_map(self, field: str) -> dict[str, Any]:
        """A field mapping depot names to values; unknown depots are reported and dropped."""
        value = self.doc.get(field, {})
        if not isinstance(value, dict):
            self.error(pointer(field), f"{field} is an object keyed by depot name")
            return {}
        out = {}
        for name, item in value.items():
            if name in self.index:
                out[name] = item
            else:
                self.error(join(pointer(field), name), f"the game has no depot {name!r}")
        return out

    def _depot_value(self, path: str, value: Any) -> int | None:
        if isinstance(value, str) and value in self.index:
            return self.index[value]
        self.error(path, f"{value!r} is not a depot of the game")
        return None

    def _count(self, path: str, value: Any) -> int:
        # at most what an expression may compute, since expressions read the counters
        if not is_whole(value, 0, MAX_EXPR_INT):
            self.error(path, f"expected a whole number 0 to {MAX_EXPR_INT}, not {shown(value)}")
            return 0
        return value

    def _counters(self) -> dict[str, int]:
        counters = self.doc.get("counters", {})
        out = dict.fromkeys(COUNTERS, 0)
        if not isinstance(counters, dict):
            self.error("/counters", "counters is an object: moves, undos, recycles, redeals")
            return out
        for key, value in counters.items():
            if key not in out:
                self.error(join("/counters", key), f"unknown counter {key!r} "
                           f"(the counters are {', '.join(COUNTERS)})")
            else:
                out[key] = self._count(join("/counters", key), value)
        return out

    def _status(self) -> int:
        status = self.doc.get("status", STATUS_NAMES[PLAYING])
        if status not in STATUS_NAMES:
            self.error("/status", f"status is one of {', '.join(STATUS_NAMES)}, not {shown(status)}")
            return PLAYING
        return STATUS_NAMES.index(status)

    def _flag(self, field: str) -> bool:
        value = self.doc.get(field, False)
        if not isinstance(value, bool):
            self.error(pointer(field), f"{field} is true or false, not {shown(value)}")
            return False
        return value


def shown(value: Any) -> str:
    """A value from a document as a message shows it: its JSON-like ``repr``, cut short, and a
    huge whole number by its size (Python writes none of more than 4,300 digits)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 30:
        return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
    if value is None or isinstance(value, bool):  # JSON's words, not Python's
        return "null" if value is None else str(value).lower()
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_rules(game: Ends, state: State, doc: dict[str, Any]) -> None:
    """A board's ``status`` and ``score`` must be what the game's rules give for it. A view's
    status is taken as written: its hidden cards may be what decides it."""
    problems = []
    if state.pools is None:
        judged = PLAYING if state.rules_off else game._judge(state)
        if state.status != judged:
            problems.append(Problem("/status", f"the board says {STATUS_NAMES[state.status]}, "
                                               f"but by the rules it is {STATUS_NAMES[judged]}"))
    problems += _counter_problems(game, state)
    if "score" in doc:
        score = game.score(state)
        claimed = doc["score"]
        if isinstance(claimed, bool) or claimed != score:
            problems.append(Problem("/score", f"the board says the score is {shown(claimed)}, "
                                              f"but by the rules it is {shown(score)}"))
    if problems:
        raise CardzError(problems)


def _counter_problems(game: Ends, state: State) -> list[Problem]:
    """The counters and memory a board claims against what play under its rules can leave:
    recycles only on stocks that recycle, within ``maxRecycles`` and adding up to the
    ``recycles`` counter; redeals only with ``redealRules``, within ``maxRedeals``; each undo,
    recycle and redeal a move the count holds; a seed rank only where ``seedFromDeal`` is; a called
    suit only on a wild card left on top of a depot that calls one."""
    out = []
    names = game.depot_names
    for d, used in enumerate(state.recycles):
        if not used:
            continue
        dr = game.draws[d]
        path = join("/recyclesUsed", names[d])
        if dr is None or not dr.recycle:
            out.append(Problem(path, f"{names[d]} never recycles: its recycles used are 0"))
        elif dr.max_recycles is not None and used > dr.max_recycles:
            out.append(Problem(path, f"{names[d]} recycles at most {dr.max_recycles} times, "
                                     f"not {used}"))
    if state.recycles_total != sum(state.recycles):
        out.append(Problem("/counters/recycles", f"the board counts {state.recycles_total} "
                           f"recycles, but its stocks used {sum(state.recycles)} "
                           "(recyclesUsed)"))
    limit = game.compiled.max_redeals if game.redeal_steps else 0
    if limit is not None and state.redeals > limit:
        out.append(Problem("/counters/redeals", f"the game allows {limit} redeals, not "
                                                f"{state.redeals}"))
    for field, count in (("undos", state.undos), ("recycles", state.recycles_total),
                         ("redeals", state.redeals)):
        if count > state.moves:
            out.append(Problem(f"/counters/{field}", f"{count} {field} but {state.moves} moves: "
                                                      "each is a move the count holds"))
    if state.seed_rank and not game.seed_depots:
        out.append(Problem("/seedRank", "the game has no seedFromDeal depot: no seed rank"))
    for d, suit in enumerate(state.declared):
        if suit < 0:
            continue
        acc, pile = game.accepts[d], state.piles[d]
        top = pile[-1] if pile else 0
        if not (acc.declares_suit and pile and top >= 0 and top & 1
                and acc.wild(game.identity[top >> 1])):
            out.append(Problem(join("/declared", names[d]), f"a suit is called only on a wild "
                               f"card left on top of a depot that calls one, not on {names[d]}"))
    return out


def load_board(game: Any, doc: Any) -> State:
    """The position a ``cardz-board/1`` document describes; CardzError naming every problem.
    For a game that plays its rules (not a stand-in that only names depots and cards), the
    board's status and score are checked against them."""
    state = _Reader(game, doc).read()
    if isinstance(game, Ends):
        _check_rules(game, state, doc)
    return state
