"""OpenSpiel's MCTS on a cardz game beside cardz's own planners, on the same deals.

    python benchmarks/bench_research.py --games 10 --planners usual,expectimax --simulations 100

Every player plays the deals seeds 1..N of the game (default Klondike draw 3). cardz's planners
play as in ``bench_planners.py`` (a ``Seat``: the true deal, the player's view with memory). MCTS
(``open_spiel.python.algorithms.mcts.MCTSBot``) plays the OpenSpiel game ``cardz`` with the same
seed: it searches the view, the cards still hidden being the chance nodes of the counts model, so
it never sees a hidden card. Each move it picks is played on a ``Seat`` of the true deal too, and
the cards that deal turns up are the chance outcomes applied to the OpenSpiel state
(``reveal_action``): the searcher meets exactly the deal the planners meet. Rollouts are random
and cut after ``--rollout`` moves; a cut rollout is worth half the share of the cards on the
foundations (a won deal is worth 1), since a random rollout of Klondike almost never wins.
Prints a line per deal and player as it ends, then one line per player: wins, win rate with a
95% Wilson interval, mean moves, CPU seconds per game (process time, so that a shared machine
does not inflate them).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

from bench_planners import play_one  # noqa: E402
from cardz_core.adapters import core  # noqa: E402
from cardz_core.adapters import openspiel as cardz_spiel  # noqa: E402
from cardz_core.engine.state import WON  # noqa: E402
from cardz_core.rulesets import bundled  # noqa: E402
from cardz_core.sim.stats import wilson_interval  # noqa: E402
from cardz_core.view import Seat  # noqa: E402


class FoundationRollouts(mcts.Evaluator):
    """Random rollouts of at most ``length`` moves; an unfinished one is worth half the share of
    the cards on depots with the foundation role."""

    def __init__(self, length: int, rng: np.random.RandomState) -> None:
        self.length = length
        self.rng = rng

    def _value(self, state: Any) -> float:
        if state.is_terminal():
            return float(state.returns()[0])
        game = state.get_game().cardz
        home = sum(len(p) for p, role in zip(state.view.piles, game.roles) if role == "foundation")
        return 0.5 * home / len(game.identity)

    def evaluate(self, state: Any) -> np.ndarray:
        working = state.clone()
        moves = 0
        while not working.is_terminal() and (moves < self.length or working.is_chance_node()):
            if working.is_chance_node():
                actions, probs = zip(*working.chance_outcomes())
                working.apply_action(int(self.rng.choice(actions, p=probs)))
            else:
                working.apply_action(int(self.rng.choice(working.legal_actions())))
                moves += 1
        return np.array([self._value(working)])

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def play_mcts(name: str, seed: int, max_moves: int, simulations: int, rollout: int
              ) -> tuple[str, int, int, int]:
    """('mcts', seed, 1 if won else 0, moves) for one deal."""
    game = pyspiel.load_game(cardz_spiel.SHORT_NAME, {"game": name, "seed": seed,
                                                      "max_moves": max_moves})
    cz = game.cardz
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, 2.0, simulations, FoundationRollouts(rollout, rng), solve=False,
                       random_state=rng)
    seat = Seat(cz, cz.deal(seed))
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bot.step(state)
        state.apply_action(action)
        for card_id in seat.play(core.table(cz).move(action)):
            state.apply_action(state.reveal_action(card_id))
        assert state.view == seat.view  # the searcher's position is the player's view
    return "mcts", seed, int(seat.state.status == WON), seat.state.moves


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="klondike_draw3", help="bundled game or file")
    p.add_argument("--games", type=int, default=10, help="deals, seeds 1..N (default 10)")
    p.add_argument("--planners", default="usual,expectimax", help="cardz planners beside MCTS")
    p.add_argument("--simulations", type=int, default=100, help="MCTS simulations per move")
    p.add_argument("--rollout", type=int, default=10, help="moves per MCTS rollout")
    p.add_argument("--max-moves", type=int, default=300, help="move cap per game")
    p.add_argument("--json", metavar="OUT", help="also write the summary as JSON to OUT")
    args = p.parse_args(argv)
    rows = []
    seeds = range(1, args.games + 1)
    players = [n for n in args.planners.split(",") if n] + ["mcts"]
    for seed in seeds:
        for name in players:
            # CPU seconds of this process, not wall time: the figures hold on a shared machine
            cpu = time.process_time()
            if name == "mcts":
                row = play_mcts(args.game, seed, args.max_moves, args.simulations, args.rollout)
            else:
                row = play_one(str(_file(args.game)), name, seed, args.max_moves, {})
            rows.append(row[:4] + (time.process_time() - cpu,))
            print(f"  seed {seed:3} {name:11} {'won' if row[2] else 'not won'}, {row[3]} moves, "
                  f"{rows[-1][4]:.2f} s", flush=True)
    summary = []
    for name in players:
        mine = [r for r in rows if r[0] == name]
        wins = sum(r[2] for r in mine)
        lo, hi = wilson_interval(wins, len(mine)) or (0.0, 0.0)
        line = {"player": name, "games": len(mine), "wins": wins, "low": lo, "high": hi,
                "moves": sum(r[3] for r in mine) / len(mine),
                "seconds_per_game": sum(r[4] for r in mine) / len(mine)}
        summary.append(line)
        print(f"{name:11} {wins:4}/{len(mine)} won  [{100 * lo:5.1f}%, {100 * hi:5.1f}%]  "
              f"{line['moves']:6.1f} moves  {line['seconds_per_game']:7.2f} s/game", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"game": args.game, "deals": args.games,
                                               "max_moves": args.max_moves,
                                               "simulations": args.simulations,
                                               "rollout": args.rollout, "players": summary},
                                              indent=2))
    return 0


def _file(name: str) -> Path:
    """The file of a bundled game's name, or the path given (``bench_planners`` reads files)."""
    found = [r.path for r in bundled() if r.path.stem == name]
    return found[0] if found else Path(name)


if __name__ == "__main__":
    sys.exit(main())
