"""The summary's arithmetic on small known sets: Wilson intervals, McNemar, the tally."""

from __future__ import annotations

import math

import pytest

from cardz_core.sim.stats import mcnemar_p, median, wilson_interval
from cardz_core.sim.summary import Tally


@pytest.mark.parametrize("won,n,low,high", [
    # by hand: z = 1.96, centre = (p + z²/2n) / (1 + z²/n),
    #          half = z / (1 + z²/n) * sqrt(p(1-p)/n + z²/4n²)
    (8, 10, 0.4902, 0.9433),  # centre 0.7167, half 0.2266
    (5, 10, 0.2366, 0.7634),  # centre 0.5, half 0.2634
    (0, 10, 0.0, 0.2775),     # centre 0.1388, half 0.1388
    (1, 1, 0.2065, 1.0),
    (50, 100, 0.4038, 0.5962),
])
def test_wilson_interval_matches_hand_computed_values(won, n, low, high):
    lo, hi = wilson_interval(won, n)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


def test_wilson_interval_of_nothing_is_none():
    assert wilson_interval(0, 0) is None


def test_mcnemar():
    # exact: 2 * (C(12,0) + C(12,1) + C(12,2)) / 2^12 = 2 * 79 / 4096
    assert mcnemar_p(10, 2) == pytest.approx(2 * 79 / 4096)
    assert mcnemar_p(2, 10) == mcnemar_p(10, 2)
    assert mcnemar_p(3, 3) == 1.0
    assert mcnemar_p(0, 0) is None
    # past the exact range: chi-square with continuity correction, (|b - c| - 1)² / (b + c)
    assert mcnemar_p(1050, 1000) == pytest.approx(math.erfc(math.sqrt(49 ** 2 / 2050 / 2)))


def test_median():
    assert median([3, 1, 2]) == 2 and median([4, 1, 3, 2]) == 2.5 and median([]) is None


def _row(deal, planner, result, moves, score=None, never_moved=(), never_foundation=(), left=()):
    return {"deal": deal, "seed": deal, "planner": planner, "result": result, "moves": moves,
            "score": score, "seconds": 0.5, "never_moved": list(never_moved),
            "never_foundation": list(never_foundation), "left": list(left)}


def test_tally_on_a_known_set():
    rows = [
        _row(0, "a", "won", 10, 52), _row(0, "b", "won", 20, 52),
        _row(1, "a", "won", 30, 52, never_moved=[1]), _row(1, "b", "lost", 5, 3, [1], [0, 1], [1]),
        _row(2, "a", "lost", 40, 7, [0, 1], [0, 1], [0, 1]),
        _row(2, "b", "unfinished", 100, 9, [], [1]),
        _row(3, "a", "won", 20, 52),  # b did not play deal 3 (an interrupted run)
    ]
    tally = Tally(("a", "b"), 4, ["AS", "2S"])
    for row in reversed(rows):
        tally.add(row)
    s = tally.summary(game="g", seed=1)
    assert (s["game"], s["seed"], s["deals_done"], s["complete"]) == ("g", 1, 3, False)
    a, b = s["planners"]["a"], s["planners"]["b"]
    assert (a["games"], a["won"], a["lost"], a["unfinished"]) == (4, 3, 1, 0)
    assert a["win_rate"] == 0.75
    assert a["win_interval"] == pytest.approx(list(wilson_interval(3, 4)))
    assert a["moves"] == {"mean": 25.0, "median": 25.0, "max": 40}
    assert a["score"] == {"games": 4, "mean": 40.75, "median": 52.0, "min": 7, "max": 52}
    assert a["seconds"] == {"mean": 0.5, "total": 2.0}
    assert (b["games"], b["won"], b["lost"], b["unfinished"]) == (3, 1, 1, 1)
    assert b["moves"] == {"mean": 125 / 3, "median": 20.0, "max": 100}
    pair = s["paired"][0]
    assert {k: pair[k] for k in ("a", "b", "deals", "both", "a_only", "b_only", "neither")} == {
        "a": "a", "b": "b", "deals": 3, "both": 1, "a_only": 1, "b_only": 0, "neither": 1}
    assert pair["p_value"] == 1.0 and "could be chance" in pair["note"]
    ace, two = s["cards"]
    assert ace["card"] == "AS" and two["id"] == 1
    assert ace["never_moved"] == {"a": 0.25, "b": 0.0}
    assert two["never_moved"] == {"a": 0.5, "b": round(1 / 3, 4)}
    assert two["never_foundation"] == {"a": 0.25, "b": round(2 / 3, 4)}
    assert two["left"] == {"a": 1.0, "b": 1.0}  # over lost games only
    assert ace["left"] == {"a": 1.0, "b": 0.0}


def test_tally_without_foundations_or_games():
    tally = Tally(("a",), 2, ["AS"], has_foundations=False)
    s = tally.summary()
    p = s["planners"]["a"]
    assert p["win_rate"] is None and p["win_interval"] is None and p["score"] is None
    assert s["cards"][0]["never_foundation"] == {"a": None}
    assert s["cards"][0]["left"] == {"a": None}
    assert s["paired"] == []
