"""The native engine: a ``Game``'s compiled form played by the Rust extension
``cardz_core._native`` (src/ in the repository), for the games it supports.

``NativeGame(game)`` plays true positions (not views) with the rules on, exactly as the Python
engine does: the same legal moves in the same order, the same position after a move, the same
status. The positions it makes stay in Rust: it hands out ``NativeState``s, ``State``s that
read their fields from the native handle when asked (docs/design.md, "Positions behind a
handle"). The deal is native too (``Engine.deal``), in Python only for a game with a deal
step that names no native primitive.
What it is handed is ``CompiledGame.to_json()`` (whose conditions and steps carry the native
primitives their kinds name), what expressions read (``native_expr.expr_plan``) and a small
plan (``plan_document``): the index tables the Python engine lists moves by, so the Rust side
knows no vocabulary word. ``supports(game)`` says why a game can't be played natively.

``NativeEngineGame`` is the ``Game`` that ``compile(spec, engine="native")`` gives (or
``CARDZ_ENGINE=native``; ``auto``, the default, when the game is supported): a Python ``Game``
whose ``deal``, ``legal_moves``, ``apply`` and ``undo`` run natively for true positions with the
rules on, and for views: ``view``, ``legal_moves``, ``apply`` (a move that turns up no unknown
card), and the ``counts`` deck model's ``outcomes`` and ``sample_outcome`` (``deck_document``
hands the extension what views need). The rules off, ``apply`` of a move that turns up an
unknown card (its reveal callback runs in Python), a memory's update (``view.trace``) and
other deck models stay in Python, as does everything else.
"""

from __future__ import annotations

import importlib
import json
import random
from types import ModuleType
from typing import Any, Callable, Sequence, TypeVar

from cardz_core import limits
from cardz_core.engine.game import Game
from cardz_core.engine.moves import IllegalMove, Move, as_move
from cardz_core.engine.rng import seed_state
from cardz_core.compiled.game import CompiledGame
from cardz_core.engine.state import State, Status
from cardz_core.engine.work import Reveal, Work
from cardz_core.native_expr import expr_plan
from cardz_core.problems import CardzError
from cardz_core.registry import Registry
from cardz_core.signature import GAME, STATE, Signature
from cardz_core.spec.model import GameSpec
from cardz_core.view import (Memory, Outcome, Outcomes, View, deck_info, deck_model, outcome_limit)

S = TypeVar("S", bound=State)



def extension() -> ModuleType | None:
    """The built extension module, or None when it is not built."""
    try:
        return importlib.import_module("cardz_core._native")
    except ImportError:
        return None


def callback_overloads(game: Game) -> list[tuple[str, int, Signature]]:
    """The function overloads the native engine calls back in Python, in call-back order: those
    of the registry's functions with no native primitive, whatever their kinds."""
    return [(name, i, sig) for name, fn in sorted(game.registry.functions.items())
            for i, sig in enumerate(fn.overloads) if sig.native is None]


class CallBacks:
    """What the extension calls back in Python: ``call(index, state, args)``, function overload
    ``index`` of ``callback_overloads`` run as the Python engine's closures run it
    (``cardz_core.expr.closure``): a per-item argument comes as the extension's callable
    ``f(item)``, which works the argument out natively while the call runs, and a text is a
    ``str`` either way; ``step(index, state, me)``, step executor ``index`` (of a
    step kind with no native primitive) run on a ``Work`` of ``state`` for depot ``me``, giving
    the board after it as the extension reads it back."""

    def __init__(self, game: Game, executors: list[Callable[[Work], None]]) -> None:
        self.tables = game.programs.tables
        self.sigs = [sig for _, _, sig in callback_overloads(game)]
        self.executors = executors

    def call(self, index: int, state: State, args: tuple[Any, ...]) -> Any:
        sig = self.sigs[index]
        if sig.needs == STATE:
            return sig.fn(self.tables, state, *args)
        if sig.needs == GAME:
            return sig.fn(self.tables, *args)
        return sig.fn(*args)

    def step(self, index: int, state: State, me: int) -> tuple[Any, list[int], int]:
        w = Work(state)
        w.self_depot = me
        self.executors[index](w)
        fields = (tuple(w.piles), tuple(w.came_from), w.recycles, tuple(w.declared),
                  (w.redeals, state.moves, state.undos, w.recycles_total, state.seed_rank,
                   state.rules_off, state.auto_moved, int(state.status), w.rng))
        return fields, sorted(w.left), w.flips


def calls_back(game: Game) -> list[str]:
    """What a native game's rules call back in Python: its functions and step kinds with no
    native primitive (none for a Python game)."""
    native = getattr(game, "native", None)
    if native is None:
        return []
    names = callback_overloads(game)
    steps = [kind for kind, _ in _called_back_steps(game, game.compiled.to_json())]
    return sorted({names[i][0] for i in native.engine.calls_back}) + \
        [f"the {kind} step" for kind in sorted(set(steps))]


def _called_back_steps(game: Game, compiled: dict[str, Any]
                       ) -> list[tuple[str, Callable[[Work], None]]]:
    """Mark each step of ``compiled`` (``CompiledGame.to_json()``) whose kind names no native
    primitive to be called back (``native: "callback"``, ``callback``: its number), and give
    their kinds and Python executors in that order. Deal steps run in Python anyway."""
    pairs = [(t["do"], game.triggers[i][2]) for i, t in enumerate(compiled["triggers"])]
    pairs += [(a["do"], game.actions[d][k][1]) for d, acts in enumerate(compiled["actions"])
              for k, a in enumerate(acts)]
    pairs.append((compiled["redeal"], game.redeal_steps))
    executors: list[tuple[str, Callable[[Work], None]]] = []
    for steps, execs in pairs:
        for step, run in zip(steps or (), execs):
            if step.get("native") is None:
                step["native"], step["callback"] = "callback", len(executors)
                executors.append((step["kind"], run))
    return executors


def plan_document(game: Game) -> dict[str, Any]:
    """What the extension loads: the compiled game (its steps of no native primitive called
    back), what its expressions read (with the overloads it calls back in Python), and the
    plan the Python engine derived from it (so both list moves from the same index tables)."""
    return _plan_and_steps(game)[0]


def _plan_and_steps(game: Game) -> tuple[dict[str, Any], list[Callable[[Work], None]]]:
    """``plan_document`` and the executors of the steps it calls back."""
    c = game.compiled
    expr = expr_plan(game)
    callbacks: dict[str, list[int | None]] = {}
    for index, (name, overload, _) in enumerate(callback_overloads(game)):
        ids = callbacks.setdefault(name, [None] * len(game.registry.functions[name].overloads))
        ids[overload] = index
    expr["callbacks"] = callbacks
    compiled = c.to_json()
    executors = [run for _, run in _called_back_steps(game, compiled)]
    return {
        "compiled": compiled,
        "expr": expr,
        "plan": {
            "sources": list(game.sources),
            "drop_targets": list(game.drop_targets),
            "down_targets": list(game.down_targets),
            "tappable": list(game.tappable),
            "flip_uncovered": list(game.flip_uncovered),
            "cells": list(game.cells),
            "tableaus": list(game.tableaus),
            "redeal_stocks": sorted(game.redeal_stocks),  # the stocks a redeal is tapped from
            "redeal_gathers": sorted(game.redeal_gathers),
            "reorders": list(game.reorders),  # the loose fans whose reorders are listed
            "max_cascade": limits.MAX_CASCADE,
        },
    }, executors


def deck_document(game: Game) -> dict[str, Any]:
    """What native views need of the game's cards (``view.DeckInfo``): each card id's printed
    card and the pool each is dealt in."""
    info = deck_info(game)
    return {"face_of": info.face_of, "origin": list(info.origin), "n_pools": info.n_pools}


def _engine(game: Game) -> tuple[Any, str | None]:
    """(the extension's engine for ``game`` or None, why not)."""
    native = extension()
    if native is None:
        return None, "the native extension cardz_core._native is not built"
    plan, executors = _plan_and_steps(game)
    # a step run in Python turns up no unknown card of a view: such a game's views stay there
    deck = None if executors else json.dumps(deck_document(game))
    try:
        return native.Engine(json.dumps(plan), Move, NativeState, _STATUSES, game.identity, deck,
                             CallBacks(game, executors)), None
    except ValueError as exc:  # the extension's own refusal: what of the tables it can't play
        return None, str(exc)


def supports(game: Game) -> str | None:
    """Why the native engine can't play ``game``, or None when it can."""
    return _engine(game)[1]


def _as_tuple(state: State) -> tuple[Any, ...]:
    """A position as plain tuples, as ``ExprProbe`` takes it: (piles, came_from, recycles,
    declared, (redeals, moves, undos, recycles_total, seed_rank, rules_off, auto_moved, status,
    rng))."""
    return (state.piles, state.came_from, state.recycles, state.declared,
            (state.redeals, state.moves, state.undos, state.recycles_total, state.seed_rank,
             state.rules_off, state.auto_moved, int(state.status), state.rng))


def _view_in(v: State) -> tuple[Any, ...]:
    """A view as the extension's view calls take it: its fields (``_as_tuple``) and pools."""
    return _as_tuple(v), v.pools


def _made_view(cls: type[S], fields: Sequence[Any], pools: Any, cards: Any) -> S:
    """A ``cls`` (View or State) from the fields the extension hands back (``Position.fields()``'s
    order) and its pools."""
    v = _new(cls)
    for put, value in zip(_setters, fields):
        put(v, value)
    v.status = _STATUSES[v.status]
    v.pools = tuple(tuple(row) for row in pools)
    v.cards = cards
    v._hash = None
    return v


class _Replay:
    """A reveal callback whose first call was made already: it answers ``first``, then asks
    ``reveal``."""

    def __init__(self, first: int, reveal: Reveal) -> None:
        self.first: int | None = first
        self.reveal = reveal

    def __call__(self, pool: int) -> int:
        first, self.first = self.first, None
        return self.reveal(pool) if first is None else first


class NotNative(CardzError):
    """A position the native engine does not play: a view (unknown cards) or the rules off."""


# the fields a NativeState reads from its handle on first need, as ``Position.fields()`` gives
# them (``State.key()``'s order; ``status`` is also set at once, ``pools`` is None)
_FROM_HANDLE = ("piles", "came_from", "recycles", "redeals", "moves", "undos", "recycles_total",
                "seed_rank", "declared", "rules_off", "auto_moved", "status", "rng")
_POSITION = frozenset(_FROM_HANDLE) | {"pools"}
_LAZY = _POSITION | {"_hash"}
_STATUSES = tuple(Status)
_new = object.__new__


def _slot_setter(name: str) -> Callable[[State, Any], None]:
    """The setter of State's slot ``name``: its descriptor's, past any ``__setattr__``."""
    setter: Callable[[State, Any], None] = State.__dict__[name].__set__
    return setter


_setters = tuple(_slot_setter(name) for name in _FROM_HANDLE)
_set_status, _set_pools, _set_hash = (_slot_setter(n) for n in ("status", "pools", "_hash"))


class NativeState(State):
    """A true position held by the native engine (``_pos``, a ``cardz_core._native.Position``)
    as a ``State``: ``status`` and ``cards`` are set at once, every other field is read from
    the handle on first need (``__getattr__`` runs only for a slot not set yet). It equals, and
    hashes as, the plain ``State`` of the same position; ``copy`` and pickling give that plain
    ``State``. Setting a position field first reads them all and drops the handle, so that the
    engines never play a stale one."""

    __slots__ = ("_pos",)
    _pos: Any

    def __getattr__(self, name: str) -> Any:
        if name not in _LAZY:
            raise AttributeError(name)
        self._fill()
        return object.__getattribute__(self, name)

    def _fill(self) -> None:
        pos = object.__getattribute__(self, "_pos")
        if pos is None:  # fields set already, the handle dropped
            raise AttributeError("a position field was never set")
        for put, value in zip(_setters, pos.fields()):
            put(self, value)
        _set_status(self, _STATUSES[self.status])
        _set_pools(self, None)
        _set_hash(self, None)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _POSITION and self._pos is not None:
            self._fill()
            object.__setattr__(self, "_pos", None)
            object.__setattr__(self, "_hash", None)
        object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is NativeState:
            a, b = self._pos, other._pos
            if a is not None and b is not None:
                return bool(a == b)
        return State.__eq__(self, other)

    __hash__ = State.__hash__

    def __reduce__(self) -> Any:
        return _plain_state, (tuple(getattr(self, name) for name in _PICKLED),)


_PICKLED = _FROM_HANDLE + ("pools", "cards")


def _plain_state(fields: tuple[Any, ...]) -> State:
    """The plain ``State`` a pickled NativeState loads as (a handle does not cross processes)."""
    s = _new(State)
    for name, value in zip(_PICKLED, fields):
        setattr(s, name, value)
    s._hash = None
    return s


class NativeGame:
    """``game`` played by the native engine; refuses (CardzError) a game it can't play, and
    (``NotNative``) a view or a position with the rules off. Positions it gives back are
    ``NativeState``s; it takes any true ``State``."""

    def __init__(self, game: Game) -> None:
        engine, why = _engine(game)
        if engine is None:
            raise CardzError(f"the native engine can't play {game.compiled.name}: {why}")
        self.game = game
        self.engine = engine

    def native_state(self, state: State) -> NativeState:
        """``state`` held by the native engine (itself when it is already)."""
        try:
            return self.engine.native_state(state)
        except LookupError as exc:
            raise NotNative(str(exc)) from None

    def legal_moves(self, state: State) -> list[Move]:
        """Every legal move, in the Python engine's order; empty once the game is over. The
        ``Move`` objects are the engine's own, the same object for the same move every time."""
        try:
            return self.engine.legal_moves(state)
        except LookupError as exc:
            raise NotNative(str(exc)) from None

    def apply(self, state: State, move: Move) -> NativeState:
        """The position after ``move``, judged; raises ``IllegalMove`` with the Python engine's
        reason when it is not legal."""
        try:
            got = self.engine.apply(state, move)
        except LookupError as exc:
            raise NotNative(str(exc)) from None
        if got is None:
            raise IllegalMove(self.game.illegal_reason(state, move)
                              or f"the native engine refuses {move!r}")
        return got

    def undo(self, before: State, after: State) -> NativeState:
        """``Game.undo``: ``before`` again, with ``moves`` and ``auto_moved`` from ``after`` and
        ``undos`` one more than ``after``'s."""
        try:
            return self.engine.undo(before, after)
        except LookupError as exc:
            raise NotNative(str(exc)) from None

    def status(self, state: State) -> Status:
        """PLAYING, WON or LOST, as judged after the move that led to ``state``."""
        return state.status

    def score_value(self, state: State) -> int | None:
        """The scoring value on this board, None without ``scoring``; ``NotNative`` when the
        extension leaves the score to the Python engine (or the position is a view)."""
        try:
            value: int | None = self.engine.score_value(state)
        except LookupError as exc:
            raise NotNative(str(exc)) from None
        return value

    def key64(self, state: State, counters: bool = True) -> int:
        """A 64-bit key of the position: equal positions have equal keys (within one build of
        the extension). ``counters=False`` leaves out ``moves`` and ``undos``."""
        try:
            return int(self.engine.key64(state, counters))
        except LookupError as exc:
            raise NotNative(str(exc)) from None

    def expand(self, state: State) -> list[tuple[Move, NativeState, int]]:
        """One search node's expansion in one call: each legal move, in order, with the
        position it leads to and that position's ``key64(counters=False)``."""
        try:
            return self.engine.expand(state)
        except LookupError as exc:
            raise NotNative(str(exc)) from None

    def playouts(self, states: Sequence[State], seed: int,
                 max_moves: int) -> list[tuple[int, Status]]:
        """Uniformly random play from each position, inside Rust with the engine's own
        generator seeded by ``seed`` (one stream, game after game; deterministic): per game
        (moves made, status)."""
        try:
            got = self.engine.playouts(list(states), seed & (2**64 - 1), max(0, max_moves))
        except LookupError as exc:
            raise NotNative(str(exc)) from None
        return [(moves, _STATUSES[status]) for moves, status in got]

    def deal_playouts(self, games: int, seed: int, max_moves: int) -> list[tuple[int, Status]]:
        """``playouts`` of the deals ``seed``, ``seed + 1``, ... (``games`` of them, dealt in
        Python), with the generator seeded by ``seed``: the same games every run."""
        return self.playouts([self.game.deal(seed + g) for g in range(games)], seed, max_moves)


class NativeEngineGame(Game):
    """A ``Game`` played by the native engine where it can be: true positions with the rules
    on, which it deals and hands back as ``NativeState``s. Views, the rules off and ``apply``
    with a reveal callback are played in Python, as is everything else. Raises CardzError for a
    game the native engine can't play."""

    def __init__(self, compiled: CompiledGame, registry: Registry, spec: GameSpec) -> None:
        super().__init__(compiled, registry, spec)
        self._attach(NativeGame(self))

    @classmethod
    def adopt(cls, native: NativeGame) -> NativeEngineGame:
        """``native.game``, a Python ``Game``, made this class in place: its tables, which
        ``Game.__init__`` spends most of a compile on, are built once."""
        game = native.game
        game.__class__ = cls
        assert isinstance(game, cls)
        game._attach(native)
        return game

    def _attach(self, native: NativeGame) -> None:
        self.native = native
        engine = native.engine
        self._list, self._apply, self._undo = engine.legal_moves, engine.apply, engine.undo
        self._held, self._deal = engine.native_state, engine.deal
        self._view_moves, self._view_apply = engine.view_moves, engine.view_apply

    def deal(self, seed: int) -> State:
        dealt = self._deal(seed_state(seed))  # None: a deal step has no native primitive
        if dealt is not None:
            return dealt
        state = super().deal(seed)
        try:
            return self._held(state)
        except LookupError:
            return state

    # The extension takes any State and raises LookupError for what the Python engine plays
    # (views, unknown cards, the rules off): a try costs nothing when nothing is raised.
    # A view goes the same way, to the extension's view calls (LookupError: the Python engine
    # plays it, as for a move that turns up an unknown card: its reveal callback runs there).
    def legal_moves(self, state: State) -> list[Move]:
        try:
            return self._list(state)
        except LookupError:
            pass
        if state.pools is not None:
            try:
                return self._view_moves(_view_in(state))
            except LookupError:
                pass
        return super().legal_moves(state)

    def apply(self, state: S, move: Move, reveal: Reveal | None = None) -> S:
        if type(move) is not Move:  # as the Python engine reads it, or refuses it
            move = as_move(move)
        if reveal is None:
            try:
                got = self._apply(state, move)
            except LookupError:
                pass
            except OverflowError:  # a field past 64 bits: no such depot or position
                raise IllegalMove(self.illegal_reason(state, move) or f"no such move {move!r}") \
                    from None
            else:
                if got is None:
                    raise IllegalMove(self.illegal_reason(state, move)
                                      or f"the native engine refuses {move!r}")
                return got
        # a callback that forgets shuffled cards (``view.Reveal``) is played in Python
        if state.pools is not None and not hasattr(reveal, "forget"):
            try:
                fields, pool = self._view_apply(_view_in(state), move)
            except LookupError:
                pass
            else:
                if fields is not None:
                    return _made_view(View if isinstance(state, View) else State, fields,
                                      state.pools, state.cards)  # type: ignore[return-value]
                if reveal is not None:
                    # the callback's first call, as the Python engine would make it (a refusing
                    # callback raises here); the Python engine plays on from its answer
                    reveal = _Replay(reveal(pool), reveal)
        return super().apply(state, move, reveal)

    def view(self, state: State, memory: Memory | None = None) -> View:
        unknown = labels = None
        if isinstance(memory, Memory):
            unknown, labels = list(memory.unknown), list(memory.labels)
        try:
            piles, pools = self.native.engine.view_of(state, unknown, labels)
        except LookupError:
            return super().view(state, memory)
        v = state.copy()
        v.__class__ = View
        v.piles = tuple(map(tuple, piles))
        v.pools = tuple(map(tuple, pools))
        v.rng = 0
        return v  # type: ignore[return-value]  # a State made a View in place

    def _counts_limits(self, view: View) -> tuple[int, int] | None:
        """The listing limits of the registered deck model when it is the ``counts`` model the
        extension implements (it says so by ``native_limits``) and ``view`` is a view; else
        None: the model finds the outcomes itself."""
        limits_of = getattr(deck_model(self), "native_limits", None)
        if limits_of is None or view.pools is None:
            return None
        got: tuple[int, int] = limits_of()
        return got

    def outcomes(self, view: View, move: Move, limit: int | None = None) -> Outcomes:
        caps = self._counts_limits(view)
        limit = outcome_limit(limit)
        if caps is not None:
            try:
                found, kept, stopped = self.native.engine.outcomes(
                    _view_in(view), as_move(move),
                    None if limit is None else min(limit, limits.MAX_OUTCOMES), *caps)
            except LookupError:
                pass
            else:
                likeliest = getattr(deck_model(self), "likeliest", None)
                if stopped and not found and limit is not None and likeliest is not None:
                    one = likeliest(self, view, move)  # as the model answers in Python
                    return Outcomes([one], one.probability, stopped=True)
                return Outcomes([Outcome(num / den, tuple(revealed),
                                         _made_view(View, fields, pools, view.cards))
                                 for num, den, revealed, (fields, pools) in found],
                                1.0 if kept is None else kept[0] / kept[1], stopped)
        return super().outcomes(view, move, limit)

    def sample_outcome(self, view: View, move: Move, rng: random.Random) -> Outcome:
        if self._counts_limits(view) is not None:
            try:
                p, revealed, (fields, pools) = self.native.engine.sample(_view_in(view), move, rng)
            except LookupError:
                pass
            else:
                return Outcome(p, tuple(revealed), _made_view(View, fields, pools, view.cards))
        return super().sample_outcome(view, move, rng)

    def undo(self, before: State, after: State) -> State:
        try:
            return self._undo(before, after)
        except LookupError:
            return super().undo(before, after)

    def score_value(self, state: State) -> int | None:
        try:
            return self.native.score_value(state)
        except NotNative:
            return super().score_value(state)
