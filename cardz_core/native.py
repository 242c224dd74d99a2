"""The native engine: a ``Game``'s compiled form played by the Rust extension
``cardz_core._native`` (src/ in the repository), for the games it supports.

``NativeGame(game)`` plays true positions (not views) with the rules on, exactly as the Python
engine does: the same legal moves in the same order, the same ``State`` after a move, the same
status. Deals stay in Python (``game.deal``): the native engine starts from a dealt ``State``.
What it is handed is ``CompiledGame.to_json()`` and a small plan (``plan_document``): the index
tables the Python engine lists moves by. Conditions are judged from the native primitive each
compiled condition names (``ConditionData.native``), so the Rust side knows no vocabulary word.
``supports(game)`` says why a game can't be played natively.

``NativeEngineGame`` is the ``Game`` that ``compile(spec, engine="native")`` gives (or
``CARDZ_ENGINE=native``; ``auto`` when the game is supported): a Python ``Game`` whose
``legal_moves`` and ``apply`` run natively for true positions with the rules on; views, the
rules off and ``apply`` with a reveal callback stay in Python, as does everything else.
"""

from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any, Sequence, TypeVar

from cardz_core import limits
from cardz_core.engine.game import Game
from cardz_core.engine.moves import IllegalMove, Move
from cardz_core.compiled.game import CompiledGame
from cardz_core.engine.state import PLAYING, State, Status
from cardz_core.engine.work import Reveal
from cardz_core.native_expr import expr_plan
from cardz_core.problems import CardzError
from cardz_core.registry import Registry
from cardz_core.spec.model import GameSpec

S = TypeVar("S", bound=State)

_new_move = tuple.__new__  # Move(*t) without the NamedTuple's Python-level __new__
# a position as the extension takes it: (piles, came_from, recycles, declared, (redeals, moves,
# undos, recycles_total, seed_rank, rules_off, auto_moved, status, rng))
StateTuple = tuple[Any, ...]


def extension() -> ModuleType | None:
    """The built extension module, or None when it is not built."""
    try:
        return importlib.import_module("cardz_core._native")
    except ImportError:
        return None


def plan_document(game: Game) -> dict[str, Any]:
    """What the extension loads: the compiled game and the plan the Python engine derived from
    it (so both list moves from the same index tables)."""
    c = game.compiled
    return {
        "compiled": c.to_json(),
        "expr": expr_plan(game),
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
            "max_cascade": limits.MAX_CASCADE,
        },
    }


def _engine(game: Game) -> tuple[Any, str | None]:
    """(the extension's engine for ``game`` or None, why not)."""
    native = extension()
    if native is None:
        return None, "the native extension cardz_core._native is not built"
    try:
        return native.Engine(json.dumps(plan_document(game))), None
    except ValueError as exc:  # the extension's own refusal: what of the tables it can't play
        return None, str(exc)


def supports(game: Game) -> str | None:
    """Why the native engine can't play ``game``, or None when it can."""
    return _engine(game)[1]


class NotNative(CardzError):
    """A position the native engine does not play: a view (unknown cards) or the rules off."""



def _as_tuple(state: State) -> StateTuple:
    if state.rules_off or state.pools is not None:
        raise NotNative("the native engine plays true positions with the rules on, not views "
                        "or positions with the rules off")
    return (state.piles, state.came_from, state.recycles, state.declared,
            (state.redeals, state.moves, state.undos, state.recycles_total, state.seed_rank,
             state.rules_off, state.auto_moved, int(state.status), state.rng))


class NativeGame:
    """``game`` played by the native engine; refuses (CardzError) a game it can't play."""

    def __init__(self, game: Game) -> None:
        engine, why = _engine(game)
        if engine is None:
            raise CardzError(f"the native engine can't play {game.compiled.name}: {why}")
        self.game = game
        self._engine = engine
        # a rule expression's refusal: (message, JSON pointer), raised as the Python engine does
        self._failure: type[Exception] = extension().ExprFailure  # type: ignore[union-attr]
        # the last listing, so that ``apply`` of a listed move need not judge it again
        self._memo_state: State | None = None
        self._memo_moves: list[Move] = []

    def legal_moves(self, state: State) -> list[Move]:
        """Every legal move, in the Python engine's order; empty once the game is over."""
        if state.status != PLAYING:
            return []
        if state is self._memo_state:
            return list(self._memo_moves)
        try:
            raw = self._engine.legal_moves(_as_tuple(state))
        except self._failure as exc:
            raise CardzError(*exc.args) from None
        except LookupError as exc:
            raise NotNative(str(exc)) from None
        except (ValueError, RuntimeError) as exc:
            raise CardzError(str(exc)) from None
        moves = [_new_move(Move, m) for m in raw]
        self._memo_state, self._memo_moves = state, moves
        return list(moves)

    def apply(self, state: S, move: Move) -> S:
        """The position after ``move``, judged; raises ``IllegalMove`` with the Python engine's
        reason when it is not legal."""
        checked = state is self._memo_state and move in self._memo_moves
        try:
            got = self._engine.apply(_as_tuple(state), tuple(move), checked)
        except self._failure as exc:
            raise CardzError(*exc.args) from None
        except LookupError as exc:
            raise NotNative(str(exc)) from None
        except (ValueError, RuntimeError, OverflowError) as exc:
            raise CardzError(str(exc)) from None
        if got is None:
            why = self.game.illegal_reason(state, move)
            raise IllegalMove(why or f"the native engine refuses {move!r}")
        out = state.copy()
        (out.piles, out.came_from, out.declared, out.recycles, out.recycles_total, status, raw,
         out.redeals, out.rng) = got
        out.moves = state.moves + 1
        out.status = Status(status)
        # the listing of the new position came along: the next ``legal_moves`` of it reads it
        self._memo_state, self._memo_moves = out, [_new_move(Move, m) for m in raw]
        return out  # type: ignore[return-value]  # copies keep their class, as in Game.apply

    def status(self, state: State) -> Status:
        """PLAYING, WON or LOST, as judged after the move that led to ``state``."""
        return state.status

    def score_value(self, state: State) -> int | None:
        """The scoring value on this board, None without ``scoring``; ``NotNative`` when the
        extension leaves the score to the Python engine."""
        try:
            value: int | None = self._engine.score_value(_as_tuple(state))
        except self._failure as exc:
            raise CardzError(*exc.args) from None
        except LookupError as exc:
            raise NotNative(str(exc)) from None
        return value

    def playouts(self, states: Sequence[State], seed: int,
                 max_moves: int) -> list[tuple[int, Status]]:
        """Uniformly random play from each dealt position, inside Rust with the engine's own
        generator seeded by ``seed`` (deterministic): per game (moves made, status)."""
        try:
            got = self._engine.playouts([_as_tuple(s) for s in states], seed & (2**64 - 1),
                                        max(0, max_moves))
        except self._failure as exc:
            raise CardzError(*exc.args) from None
        except LookupError as exc:
            raise NotNative(str(exc)) from None
        except (ValueError, RuntimeError, OverflowError) as exc:
            raise CardzError(str(exc)) from None
        return [(moves, Status(status)) for moves, status in got]


class NativeEngineGame(Game):
    """A ``Game`` played by the native engine where it can be: true positions with the rules
    on. Raises CardzError for a game the native engine can't play."""

    def __init__(self, compiled: CompiledGame, registry: Registry, spec: GameSpec) -> None:
        super().__init__(compiled, registry, spec)
        self.native = NativeGame(self)

    def legal_moves(self, state: State) -> list[Move]:
        try:
            return self.native.legal_moves(state)
        except NotNative:
            return super().legal_moves(state)

    def apply(self, state: S, move: Move, reveal: Reveal | None = None) -> S:
        if reveal is None:
            try:
                return self.native.apply(state, move)
            except NotNative:
                pass
        return super().apply(state, move, reveal)

    def score_value(self, state: State) -> int | None:
        try:
            return self.native.score_value(state)
        except NotNative:
            return super().score_value(state)
