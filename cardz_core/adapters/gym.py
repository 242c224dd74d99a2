"""Every cardz game as a Gymnasium environment (extra ``gym``; docs/research.md).

Importing this module registers ``cardz/<Name>-v0`` for every bundled game (the file name in
CamelCase: ``cardz/KlondikeDraw3-v0``, ``cardz/Freecell-v0``... see ``ENV_IDS``) and ``cardz/Cardz-v0``,
which takes any game: ``gymnasium.make("cardz/Cardz-v0", game="path/to/my.cardz")``.

The environment plays the true deal (``Game.deal`` with a seed drawn from the environment's
generator, or ``options={"deal": n}``) through a ``Seat``, and shows the agent only the player's
view with memory: the observation is the information-state tensor of the OpenSpiel adapter
(``cardz_core.adapters.core.encode``). Actions are the stable move ids of the adapters
(``Discrete(num_actions)``); ``info["action_mask"]`` marks the legal ones. An illegal action
leaves the deal as it was (``info["illegal"]`` is True) and counts as a step. The reward is
given when the deal ends or is cut at ``max_steps``: 1 for a won deal, else 0, or with
``reward="score"`` the game's score mapped to [0, 1] as in the OpenSpiel game.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from cardz_core.adapters import core
from cardz_core.limits import ADAPTER_MAX_DEAL, MAX_SIM_MAX_MOVES, RESET_MAX_DRAWS
from cardz_core.problems import CardzError
from cardz_core.rulesets import bundled
from cardz_core.view import Seat


class CardzEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One cardz game as an environment; each episode is one deal."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, game: str, max_steps: int = 1000, reward: str = "win",
                 score_worst: float = 0.0, score_best: float = 1.0,
                 render_mode: str | None = None) -> None:
        max_steps = core.whole(max_steps, "max_steps", 1, MAX_SIM_MAX_MOVES)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}")
        self.game = core.cardz_game(game)
        score_worst, score_best = core.check_reward(self.game, reward, score_worst, score_best)
        self.table = core.table(self.game)
        self.max_steps = max_steps
        self.reward_kind, self.score_worst, self.score_best = reward, score_worst, score_best
        self.render_mode = render_mode
        t = self.table
        self.action_space = spaces.Discrete(t.num_actions)
        self.observation_space = spaces.Box(0.0, 1.0, (t.size,), np.float32)
        self._seat: Seat | None = None
        self._steps = 0
        self._deal = 0

    @property
    def seat(self) -> Seat:
        """The deal being played: the true state and the player's memory."""
        if self._seat is None:
            raise gymnasium.error.ResetNeeded("call reset() before using the environment")
        return self._seat

    def _observation(self) -> np.ndarray:
        out = np.zeros(self.table.size, np.float32)
        core.encode(self.game, self.seat.view, out, True, self._steps / self.max_steps)
        return out

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        mask = np.zeros(self.table.num_actions, np.int8)
        if not core.finished(self.game, self.seat.view):
            mask[core.legal_actions(self.game, self.seat.view)] = 1
        return {"action_mask": mask, "deal": self._deal, "illegal": illegal}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        deal = (options or {}).get("deal")
        if deal is not None:  # asked for: given as dealt, even when it is over already
            self._deal = core.deal_seed(deal, "options['deal']")
            self._seat = Seat(self.game, self.game.deal(self._deal))
        else:  # drawn: one with a move to make, since a step on a deal that is over is refused
            for _ in range(RESET_MAX_DRAWS):
                self._deal = int(self.np_random.integers(0, ADAPTER_MAX_DEAL, endpoint=True))
                self._seat = Seat(self.game, self.game.deal(self._deal))
                if not core.finished(self.game, self._seat.view):
                    break
            else:
                raise CardzError(f"{RESET_MAX_DRAWS:,} deals drawn in a row were over as dealt")
        self._steps = 0
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, SupportsFloat, bool, bool,
                                                      dict[str, Any]]:
        seat = self.seat
        if core.finished(self.game, seat.view) or self._steps >= self.max_steps:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        move = self.table.move(core.whole(action, "an action", 0, self.table.num_actions - 1))
        illegal = move not in self.game.legal_moves(seat.view)
        if not illegal:
            seat.play(move)
        self._steps += 1
        terminated = core.finished(self.game, seat.view)
        truncated = not terminated and self._steps >= self.max_steps
        reward = core.returns(self.game, seat.view, self.reward_kind, self.score_worst,
                              self.score_best) if terminated or truncated else 0.0
        return self._observation(), reward, terminated, truncated, self._info(illegal)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return core.text(self.game, self.seat.view, memory=True)


def env_id(stem: str) -> str:
    """The environment id of a bundled game's file name: ``klondike_draw3`` ->
    ``cardz/KlondikeDraw3-v0``."""
    return "cardz/" + "".join(part[:1].upper() + part[1:] for part in stem.split("_")) + "-v0"


_ENTRY = "cardz_core.adapters.gym:CardzEnv"


def _register() -> dict[str, str]:
    ids = {}
    for ruleset in bundled():
        stem = ruleset.path.stem
        ids[env_id(stem)] = stem
        gymnasium.register(env_id(stem), entry_point=_ENTRY, kwargs={"game": stem})
    gymnasium.register("cardz/Cardz-v0", entry_point=_ENTRY)
    return ids


ENV_IDS: dict[str, str] = _register()  # environment id -> bundled game (file name)
