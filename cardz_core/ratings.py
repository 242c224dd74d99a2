"""Rated deals: how hard each deal of a game is, and the tables of rated seeds shipped as data.

**The measure** of a deal the solver wins (docs/winnability.md, "Rated deals and difficulty
levels"): ``PLAYOUTS`` playouts of a fair player, the ``usual`` planner that plays a uniformly
random legal move instead of its own choice with probability ``SLIP`` (each playout seeded from
the deal's seed and its number), and the solver's effort, the positions it recorded to its first
win, on a log scale of its budget::

    measure = (playouts - wins + effort) / (playouts + 1),  effort = ln(1 + positions) / ln(1 + budget)

so it lies in [0, 1], higher is harder: the player's wins decide, and the solver's effort orders
deals the player won equally often. Both parts are counted, not timed, so a deal's measure is the
same on every machine (unless the solver's safety in seconds cut it short: ``stoppedBy``).

**The levels** split a game's rated won deals into quarters by measure (ties broken by seed):
the first quarter ``easy``, then ``medium``, ``hard`` and ``expert``.

**The search.** The solver's, within the table's positions per deal; a game may give it sibling
orders of its own (``made.orders``: speed only, never the answer), where the solver's usual
orders leave most deals undecided, and a beam try to run first (``made.beam``, docs/solver.md,
"A beam try"). A won deal's row keeps its winning line (``line``), replayed to
a won board when it was found and again when it is handed out.

**A table** (``cardz-ratings/1``, one JSON file per bundled game in ``ratings_data/``, named
like the game's file and gzipped, ``GAME.json.gz``; a plain ``.json`` table is read too) names
the game file by its hash (``cardz_core.engine.logs.game_hash``): a game whose file changed has
no table, whatever its name. ``benchmarks/build_ratings.py`` makes them.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import random
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from cardz_core.engine.logs import HASH_PREFIX
from cardz_core.problems import CardzError

if TYPE_CHECKING:
    from cardz_core.engine.game import Game
    from cardz_core.engine.moves import Move
    from cardz_core.engine.state import State
    from cardz_core.solver.beam import Beam
    from cardz_core.solver.problem import Weights
    from cardz_core.view import View

RATINGS_FORMAT = "cardz-ratings/1"
RATINGS_DIR = Path(__file__).resolve().parent / "ratings_data"
# a table's name: its game file's stem and this; the winning lines make a table several MB of
# JSON, a seventh of that gzipped
TABLE_SUFFIX = ".json.gz"
LEVELS = ("easy", "medium", "hard", "expert")
PLAYOUTS = 4  # fair playouts per won deal
SLIP = 0.1  # the playout player's chance of a random legal move instead of its choice
PLAYOUT_MOVES = 500  # move cap of one playout; past it the playout counts as not won
PLAYOUT_PLANNER = "usual"
# without its look ahead: the playouts measure how a greedy player fares, and the tables were
# made before ``usual`` looked ahead
PLAYOUT_OPTIONS: dict[str, Any] = {"solve": 0}


def file_hash(path: Path) -> str:
    """The hash a log or table names a game file by, read from the file alone (no compiling):
    the same as ``game_hash`` of the loaded game, whose text is the file's UTF-8 text."""
    return HASH_PREFIX + hashlib.sha256(path.read_bytes()).hexdigest()


def effort(states: int, budget: int) -> float:
    """The solver's positions on a log scale of its budget, 0 to 1."""
    return min(1.0, math.log1p(states) / math.log1p(budget))


def measure(wins: int, playouts: int, states: int, budget: int) -> float:
    """The difficulty measure (module docstring): 0 easiest, 1 hardest."""
    return round((playouts - wins + effort(states, budget)) / (playouts + 1), 6)


class SlippingPlanner:
    """The playout player: ``usual``'s choice, except that with probability ``SLIP`` it plays a
    uniformly random legal move. It sees the player's view only, like every fair planner."""

    name = "usual-slipping"

    def __init__(self, game: Game) -> None:
        from cardz_core.planners import make_planner

        self.inner = make_planner(game, PLAYOUT_PLANNER, **PLAYOUT_OPTIONS)

    def choose(self, game: Game, view: View, rng: random.Random) -> Move | None:
        if rng.random() < SLIP:
            moves = game.legal_moves(view)
            if moves:
                return moves[rng.randrange(len(moves))]
        return self.inner.choose(game, view, rng)


def playout_seed(seed: int, k: int) -> int:
    """The random seed of playout ``k`` of the deal of ``seed``, stable across versions."""
    return int.from_bytes(hashlib.sha256(f"cardz-rating:{seed}:{k}".encode("ascii")).digest()[:8],
                          "big")


def playout_wins(game: Game, seed: int, playouts: int = PLAYOUTS) -> int | None:
    """How many of ``playouts`` fair playouts of the deal of ``seed`` win; None when the game
    offers no planner (``planner: false``), so that only the solver's effort rates it."""
    from cardz_core.sim.play import WON_TEXT, foundation_flags, play_deal
    from cardz_core.view import Seat

    foundations = foundation_flags(game)
    wins = 0
    for k in range(playouts):
        try:
            planner = SlippingPlanner(game)  # a new one each time: usual remembers positions
        except CardzError:
            return None
        row = play_deal(game, Seat, planner, random.Random(playout_seed(seed, k)),
                        game.deal(seed), PLAYOUT_MOVES, foundations)
        wins += row["result"] == WON_TEXT
    return wins


@dataclass(frozen=True)
class Rated:
    """A table row (``rate_deal``) and, for a won deal, the solver's winning line."""

    row: dict[str, Any]
    line: list[Any]


def orders_of(made: dict[str, Any]) -> tuple[Weights, ...] | None:
    """The sibling orders a table's solver ran with (``made.orders``), or None for its usual ones."""
    from cardz_core.solver.problem import Weights

    orders = made.get("orders")
    return None if orders is None else tuple(Weights(*w) for w in orders)


def beam_made(made: dict[str, Any]) -> Beam | None:
    """The beam try a table's solver ran first (``made.beam``), or None."""
    from cardz_core.solver.beam import beam_of

    return beam_of(made.get("beam"))


def line_text(line: list[Move]) -> list[list[int]]:
    """A winning line as a row keeps it: each move as ``[src, index, dst]``, with the fourth
    field (``declare``) only when it is set."""
    return [list(m) if m.declare != -1 else list(m[:3]) for m in line]


def line_of(row: dict[str, Any]) -> list[Move] | None:
    """The winning line a row keeps, or None (a row made before rows kept them)."""
    from cardz_core.engine.moves import Move

    kept = row.get("line")
    return None if kept is None else [Move(*m) for m in kept]


def line_wins(game: Game, state: State, line: list[Move]) -> bool:
    """Whether ``line`` played from ``state`` is legal move by move and ends on a won board."""
    from cardz_core.engine.moves import IllegalMove
    from cardz_core.engine.state import WON

    try:
        for move in line:
            state = game.apply(state, move)
    except IllegalMove:
        return False
    return game.status(state) == WON


def rate_deal(game: Game, seed: int, *, max_states: int, timeout: float,
              playouts: int = PLAYOUTS, orders: tuple[Weights, ...] | None = None,
              beam: Beam | None = None) -> Rated:
    """One table row: the solver's verdict on the deal of ``seed`` (``won``, ``lost`` or
    ``unknown``), with the sibling ``orders`` and the ``beam`` try when given, and the
    positions it recorded; for a
    won deal also the winning line and its length, the playouts won and the measure. A won line
    is replayed to a won board first."""
    from cardz_core.planners.solver import solve

    state = game.deal(seed)
    found = solve(game, state, max_states=max_states, timeout=timeout, orders=orders, beam=beam,
                  klondike_model=False)
    row: dict[str, Any] = {"seed": seed, "result": found.result, "states": found.states}
    if found.stopped_by == "seconds":
        row["stoppedBy"] = "seconds"  # the one answer a faster machine might change
    if found.result != "won":
        return Rated(row, [])
    if not line_wins(game, state, found.line):
        raise AssertionError(f"seed {seed}: the solver's line does not win in the engine")
    row["moves"] = len(found.line)
    row.update(grade(game, seed, playouts, found.states, max_states))
    row["line"] = line_text(found.line)
    return Rated(row, list(found.line))


def grade(game: Game, seed: int, playouts: int, states: int, budget: int) -> dict[str, Any]:
    """A won deal's ``wins`` (its fair playouts won) and ``measure``, from the solver's
    ``states`` of its ``budget``: also how a table is graded again when the playout player
    changes, its verdicts kept."""
    wins = playout_wins(game, seed, playouts)
    return {"wins": wins, "measure": measure(wins or 0, playouts if wins is not None else 0,
                                             states, budget)}


def assign_levels(rows: list[dict[str, Any]]) -> None:
    """Give every won row its ``level``: the won rows in order of measure (then seed), cut into
    four quarters, each of n/4 deals rounded down or up (the deal of rank r, from 0, is in
    quarter floor(4r/n))."""
    won = sorted((r for r in rows if r["result"] == "won"), key=lambda r: (r["measure"], r["seed"]))
    for rank, row in enumerate(won):
        row["level"] = LEVELS[rank * len(LEVELS) // len(won)]


def winnability(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Won, lost and unknown over the rated deals (seeds ``first`` to ``last``), with both
    bounds' 95% intervals (``cardz_core.winnability.counts``)."""
    from cardz_core.winnability import counts

    return counts(rows, key="seed")


def table_document(name: str, file: str, hash_: str, made: dict[str, Any],
                   rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A whole table, its rows sorted by seed and their levels assigned."""
    rows = sorted(rows, key=lambda r: r["seed"])
    assign_levels(rows)
    return {"format": RATINGS_FORMAT, "game": name, "file": file, "hash": hash_, "made": made,
            "winnability": winnability(rows),
            "levels": {lv: sum(r.get("level") == lv for r in rows) for lv in LEVELS},
            "deals": rows}


class Table:
    """A loaded table: where it came from, its head (every field but the deals) and, read only
    when first asked for, the whole document. Listing the games needs the heads alone, and the
    deals are nearly all of the shipped tables."""

    def __init__(self, path: Path, head: dict[str, Any], doc: dict[str, Any] | None = None) -> None:
        self.path, self.head, self._doc = path, head, doc

    @property
    def doc(self) -> dict[str, Any]:
        """The whole document, deals included."""
        if self._doc is None:
            self._doc = _parsed(self.path, table_text(self.path))
        return self._doc

    @property
    def hash(self) -> str:
        return str(self.head["hash"])

    def of_level(self, level: str) -> list[dict[str, Any]]:
        """The rows of ``level``, in seed order."""
        return [r for r in self.doc["deals"] if r.get("level") == level]


# where ``benchmarks/build_ratings.py`` starts the deals: everything before is the head
_DEALS_START = '\n "deals": ['
_CHUNK = 1 << 16  # characters read at a time while looking for the head's end
# what reading a table may raise: the file, its gzip stream, its encoding
_READ_ERRORS = (OSError, EOFError, zlib.error, UnicodeDecodeError)


def _opened(path: Path) -> IO[str]:
    if path.name.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8")


def _unreadable(path: Path, exc: Exception) -> CardzError:
    return CardzError(f"{path}: a ratings table that cannot be read: {exc}")


def table_text(path: Path) -> str:
    """The text of the table at ``path``, gzipped (a name ending ``.gz``) or plain."""
    try:
        with _opened(path) as f:
            return f.read()
    except _READ_ERRORS as exc:
        raise _unreadable(path, exc) from None


def _parsed(path: Path, text: str) -> dict[str, Any]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _unreadable(path, exc) from None
    if not isinstance(doc, dict) or doc.get("format") != RATINGS_FORMAT:
        raise CardzError(f"{path}: not a {RATINGS_FORMAT} table")
    return doc


def _head_text(path: Path) -> tuple[str, bool]:
    """The text of the table at ``path`` up to where the builder starts its deals (and True), or
    its whole text (and False) when it has no such place."""
    text = ""
    try:
        with _opened(path) as f:
            while chunk := f.read(_CHUNK):
                text += chunk
                # the mark may straddle two chunks: look from just before this one
                cut = text.find(_DEALS_START, max(0, len(text) - len(chunk) - len(_DEALS_START)))
                if cut > 0:
                    return text[:cut], True
    except _READ_ERRORS as exc:
        raise _unreadable(path, exc) from None
    return text, False


@cache
def _load(path: Path, _stamp: tuple[int, int]) -> Table:
    """The table at ``path``, read once per version of the file (``_stamp``: its modification
    time and size), so a table rebuilt while a process runs is read again. As the builder
    writes it, the head is read and parsed alone and the deals when first needed; a table
    written otherwise is parsed whole."""
    text, cut = _head_text(path)
    try:
        head = json.loads(text.rstrip().rstrip(",") + "}") if cut else None
    except json.JSONDecodeError:
        head = None
    if not isinstance(head, dict) or head.get("format") != RATINGS_FORMAT or "deals" in head:
        doc = _parsed(path, text if not cut else table_text(path))
        return Table(path, {k: v for k, v in doc.items() if k != "deals"}, doc=doc)
    return Table(path, head)


def shipped_tables(folder: Path | None = None) -> list[Table]:
    """Every table in ``folder`` (the shipped ones, ``RATINGS_DIR``, by default), by file name."""
    folder = RATINGS_DIR if folder is None else folder
    if not folder.is_dir():
        return []
    paths = sorted([*folder.glob("*.json"), *folder.glob("*" + TABLE_SUFFIX)])
    return [_load(p, (st.st_mtime_ns, st.st_size)) for p in paths for st in [p.stat()]]


@dataclass(frozen=True)
class Found:
    """The table for a game file, or None with the reason: ``note`` is set when a table exists
    for a game of that file name or game name but for another version of its file (stale)."""

    table: Table | None
    note: str | None = None


def table_for(name: str, hash_: str, folder: Path | None = None) -> Found:
    """The table whose hash is ``hash_``; failing that, a note when a table is kept for a game
    of the same ``name`` (a changed game file: its seeds are stale)."""
    tables = shipped_tables(folder)
    for t in tables:
        if t.hash == hash_:
            return Found(t)
    for t in tables:
        if t.head.get("game") == name:
            return Found(None, f"the rated deals of {t.head.get('game')} ({t.path.name}) were "
                               "made for another version of the game file; they are not used")
    return Found(None)


def game_table(game: Game, folder: Path | None = None) -> Found:
    """``table_for`` a compiled game."""
    from cardz_core.engine.logs import game_hash

    return table_for(game.spec.name, game_hash(game.spec), folder)


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise CardzError(f"no difficulty level {level!r}: the levels are {', '.join(LEVELS)}")
    return level


def pick(table: Table, level: str, seed: int) -> dict[str, Any]:
    """The row of ``level`` that ``seed`` picks: the level's rows in seed order, the one at
    ``seed`` modulo their number. CardzError when no rated deal has that level."""
    rows = table.of_level(check_level(level))
    if not rows:
        raise CardzError(f"no rated deal of {table.head['game']} is {level}: {shortfall(table)}")
    return rows[seed % len(rows)]


def shortfall(table: Table) -> str:
    """Why a table has a level with no deal: what the solver did with the deals rated, and the
    builder's note on the game (``made.note``) when it gave one."""
    w, made = table.head["winnability"], table.head["made"]
    if w["won"]:
        text = f"of {w['deals']} deal(s) rated, {w['won']} won (the four levels need at least four)"
    else:
        text = (f"the solver won none of the {w['deals']} deal(s) rated ({w['lost']} proved "
                f"lost, {w['unknown']} undecided within {made['max_states']:,} positions each)")
    return f"{text}; {made['note']}" if made.get("note") else text
