"""benchmarks/bench_planners.py: the games a paired run plays are the ones named, or it stops."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_planners import playable_games  # noqa: E402


def test_named_games_come_in_the_order_named() -> None:
    files = playable_games(["canfield", "bakers_game"])
    assert [Path(f).stem for f in files] == ["canfield", "bakers_game"]


def test_a_misspelt_game_stops_the_run_with_a_suggestion() -> None:
    with pytest.raises(SystemExit, match=r"no bundled game 'vegas_klondike' \(did you mean "
                                         r"klondike_vegas\?\)"):
        playable_games(["canfield", "vegas_klondike"])


def test_a_game_no_planner_may_play_is_refused_by_name() -> None:
    # Under Twenty-One is written with expressions and does not say planners may play it
    with pytest.raises(SystemExit, match="planners may not play 'under_twenty_one'"):
        playable_games(["canfield", "under_twenty_one"])
