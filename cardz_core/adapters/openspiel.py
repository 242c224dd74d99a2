"""Every cardz game as an OpenSpiel game (extra ``openspiel``; docs/research.md).

Importing this module registers the game ``cardz``::

    import pyspiel
    import cardz_core.adapters.openspiel  # registers "cardz"

    game = pyspiel.load_game("cardz", {"game": "klondike_draw3", "seed": 7})

Parameters: ``game`` (a bundled game's name or a ``.cardz`` path; no commas or parentheses, which
OpenSpiel's game strings reserve), ``seed`` (the deal), ``max_moves`` (the player's moves before the
deal ends unfinished), ``reward`` (``win``: 1 for a won deal, else 0; ``score``: the game's score
mapped so that ``score_worst`` is 0 and ``score_best`` is 1).

The deal is fixed by ``seed``: a chance node over a whole deal would have 52! outcomes. The
player's position is the view (``Game.view``): what is face-up, what was seen, and the counts of
the unseen cards. Every card a move turns up from the unknown is then a chance node with the
counts model's exact probabilities, one card per node (``cardz_core.adapters.core``). Nothing
hidden is ever stored in a state, so the game is one of perfect information with explicit
chance: MCTS (``open_spiel.python.algorithms.mcts``) searches it as it is and never peeks. The
information state is the view with memory; the observation is what is face-up now.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from cardz_core.adapters import core
from cardz_core.engine.moves import Move
from cardz_core.limits import ADAPTER_MAX_DEAL
from cardz_core.problems import CardzError
from cardz_core.view import View

SHORT_NAME = "cardz"
DEFAULTS: dict[str, Any] = {"game": "klondike_draw3", "seed": 1, "max_moves": 1000,
                            "reward": "win", "score_worst": 0.0, "score_best": 1.0}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="cardz solitaire games",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=1,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS)

class Position:
    """What a state holds: the view, the move waiting for its next card (or None) and the
    player's moves so far. Never changed once made, so a deep copy (OpenSpiel's ``clone``) is the
    object itself; it pickles as plain data (OpenSpiel's ``serialize``)."""

    __slots__ = ("view", "pending", "decisions")

    def __init__(self, view: View, pending: core.Pending | None, decisions: int) -> None:
        self.view = view
        self.pending = pending
        self.decisions = decisions

    def __deepcopy__(self, memo: dict) -> Position:
        return self

    def __getstate__(self) -> tuple:
        return self.view, self.pending, self.decisions

    def __setstate__(self, value: tuple) -> None:
        self.view, self.pending, self.decisions = value


class CardzSpielGame(pyspiel.Game):
    """The OpenSpiel game ``cardz``: one cardz game, one deal."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**DEFAULTS, **(params or {})}
        # OpenSpiel loads the game again for every game string it reads (e.g. to deserialise)
        self.cardz = core.cardz_game(str(p["game"]))
        # OpenSpiel's int parameters are 32-bit: a larger seed cannot reach the game
        self.seed = core.whole(p["seed"], "seed (a deal's seed, 32-bit in OpenSpiel)", 0,
                               ADAPTER_MAX_DEAL)
        self.table = core.table(self.cardz)
        t = self.table
        # OpenSpiel's GameInfo holds the longest game, a move and its cards, as a 32-bit int
        self.max_moves = core.whole(p["max_moves"], "max_moves", 1, ADAPTER_MAX_DEAL // (1 + t.n_cards))
        self.reward = str(p["reward"])
        self.score_worst, self.score_best = core.check_reward(
            self.cardz, self.reward, p["score_worst"], p["score_best"])
        info = pyspiel.GameInfo(
            num_distinct_actions=t.num_actions,
            max_chance_outcomes=len(t.faces),
            num_players=1,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            # each move turns up at most every card
            max_game_length=self.max_moves * (1 + t.n_cards))
        super().__init__(GAME_TYPE, info, p)
        self.start = self.cardz.view(self.cardz.deal(self.seed))

    def new_initial_state(self) -> CardzSpielState:
        return CardzSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> ViewObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; given {params}")
        # OpenSpiel asks for the information state with perfect_recall: the view with memory;
        # the observation is the table as it is now
        memory = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ViewObserver(self, memory)


class CardzSpielState(pyspiel.State):
    """A position of the deal, with the player to move or a card to be turned up."""

    def __init__(self, game: CardzSpielGame) -> None:
        super().__init__(game)
        self.pos = Position(game.start, None, 0)

    def _game(self) -> CardzSpielGame:
        return self.get_game()

    @property
    def view(self) -> View:
        """The player's view: what the state holds, and all it holds."""
        return self.pos.view

    def current_player(self) -> int:
        if self.pos.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return 0

    def is_terminal(self) -> bool:
        pos = self.pos
        if pos.pending is not None:
            return False
        return pos.decisions >= self._game().max_moves or core.finished(self._game().cardz,
                                                                         pos.view)

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal():
            return []
        return core.legal_actions(self._game().cardz, self.pos.view)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        pending = self.pos.pending
        if pending is None:
            raise CardzError("not a chance node")
        return pending.outcomes()

    def _apply_action(self, action: int) -> None:
        g = self._game()
        pos = self.pos
        if pos.pending is not None:
            move, faces, decisions = pos.pending.move, pos.pending.faces + (int(action),), \
                pos.decisions
        else:
            if self.is_terminal():
                raise CardzError(f"action {action}: the game is over (is_terminal), no action is "
                                 "legal")
            move = g.table.move(int(action))
            if move not in g.cardz.legal_moves(pos.view):
                raise CardzError(f"action {action} ({self._move_text(move)}) is not legal here")
            faces, decisions = (), pos.decisions + 1
        out = core.play(g.cardz, pos.view, move, faces)
        if isinstance(out, core.Pending):
            self.pos = Position(pos.view, out, decisions)
        else:
            self.pos = Position(out, None, decisions)

    def _move_text(self, move: Move) -> str:
        return self._game().cardz.move_text(move)

    def _action_to_string(self, player: int, action: int) -> str:
        g = self._game()
        if player == pyspiel.PlayerId.CHANCE:  # -1 was the last face, past the end an IndexError
            faces = g.table.faces
            return f"reveal {faces[core.whole(action, 'a chance action', 0, len(faces) - 1)]}"
        return self._move_text(g.table.move(action))

    def reveal_action(self, card_id: int) -> int:
        """The chance action that turns up the card ``card_id`` (an id of the game's card
        table): how a caller plays a true deal's cards, e.g. to compare with cardz's planners
        on the same deals."""
        g = self._game()
        card = core.whole(card_id, "card_id", 0, g.cardz.n_cards - 1)
        return g.table.face_index[g.cardz.identity[card]]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0]
        g = self._game()
        return [core.returns(g.cardz, self.pos.view, g.reward, g.score_worst, g.score_best)]

    def __str__(self) -> str:
        text = core.text(self._game().cardz, self.pos.view, memory=True)
        pending = self.pos.pending
        if pending is not None:
            text += f"\nturning up card {len(pending.faces) + 1} of {self._move_text(pending.move)}"
        return text


class ViewObserver:
    """OpenSpiel's observer: the view with memory (information state) or without (observation),
    as text and as the tensor of ``cardz_core.adapters.core.encode``."""

    def __init__(self, game: CardzSpielGame, memory: bool) -> None:
        self.game = game
        self.memory = memory
        t = game.table
        self.tensor = np.zeros(t.size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        offset = 0
        for name, shape in t.shapes.items():
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[offset:offset + size].reshape(shape)
            offset += size

    def set_from(self, state: CardzSpielState, player: int) -> None:
        pos = state.pos
        core.encode(self.game.cardz, pos.view, self.tensor, self.memory,
                    pos.decisions / self.game.max_moves)

    def string_from(self, state: CardzSpielState, player: int) -> str:
        return core.text(self.game.cardz, state.pos.view, self.memory)


pyspiel.register_game(GAME_TYPE, CardzSpielGame)
