"""The summary's arithmetic on small known sets: Wilson intervals, McNemar, the tally."""

from __future__ import annotations

import math

import pytest

from cardz_core.sim.seeds import deal_seed
from cardz_core.sim.stats import (mcnemar_p, mean_interval, median, quartiles, two_proportion_p,
                                  wilson_interval)
from cardz_core.sim.summary import Deck, Tally


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


def test_quartiles_and_mean_interval():
    assert quartiles([1, 2, 3, 4]) == (1.5, 3.5)
    assert quartiles([1, 2, 3, 4, 5]) == (1.5, 4.5)
    assert quartiles([7]) == (7.0, 7.0)
    # mean 3, sample sd sqrt(2.5): 3 ± 1.96 * 1.5811 / sqrt(5) = 3 ± 1.3859
    low, high = mean_interval([1, 2, 3, 4, 5])
    assert (low, high) == (pytest.approx(1.6141, abs=1e-4), pytest.approx(4.3859, abs=1e-4))
    assert mean_interval([4]) is None


def test_two_proportion_p():
    # 30/100 against 50/100: pooled 0.4, se sqrt(0.4 * 0.6 * 0.02) = 0.069282, z = 2.8868
    assert two_proportion_p(30, 100, 50, 100) == pytest.approx(0.003892, abs=1e-5)
    assert two_proportion_p(5, 10, 5, 10) == 1.0
    assert two_proportion_p(0, 10, 0, 20) is None and two_proportion_p(1, 0, 1, 2) is None


def _row(deal, planner, end, moves, score=None, never_moved=(), never_foundation=(), left=None,
         variant="g", home=0, opening="ab"):
    result = {"stuck": "lost", "resigned": "lost"}.get(end, end)
    return {"deal": deal, "seed": deal_seed(1, deal), "variant": variant, "planner": planner,
            "result": result, "end": end, "moves": moves, "home": home, "score": score,
            "seconds": 0.5, "opening": opening, "never_moved": list(never_moved),
            "never_foundation": list(never_foundation), "left": left or {}}


DECK = Deck("g", ("AS", "2S"), ("stock", "home"))


def test_tally_on_a_known_set():
    rows = [
        _row(0, "a", "won", 10, 52, home=2), _row(0, "b", "won", 20, 52, home=2),
        _row(1, "a", "won", 30, 52, never_moved=["2S"], home=2),
        _row(1, "b", "stuck", 5, 3, ["2S"], ["AS", "2S"], {"stock": ["2S"], "waste": ["AS"]}),
        _row(2, "a", "resigned", 40, 7, ["AS", "2S"], ["AS", "2S"], {"stock": ["AS", "2S"]}),
        _row(2, "b", "unfinished", 100, 9, [], ["2S"], home=1),
        _row(3, "a", "won", 20, 52, home=2),  # b did not play deal 3 (an interrupted run)
    ]
    tally = Tally(("a", "b"), 4, [DECK], seed=1)
    for row in reversed(rows):
        tally.add(row)
    s = tally.summary(game="g", seed=1)
    assert (s["game"], s["seed"], s["deals_done"], s["complete"]) == ("g", 1, 3, False)
    a, b = s["planners"]["a"], s["planners"]["b"]
    assert (a["variant"], a["planner"]) == ("g", "a")
    assert (a["games"], a["won"], a["lost"], a["unfinished"]) == (4, 3, 1, 0)
    assert a["ends"] == {"won": 3, "lost": 0, "stuck": 0, "resigned": 1, "unfinished": 0}
    assert a["win_rate"] == 0.75
    assert a["win_interval"] == pytest.approx(list(wilson_interval(3, 4)))
    assert a["moves"] == {"mean": 25.0, "median": 25.0, "max": 40}
    won = a["moves_by_end"]["won"]
    assert (won["games"], won["mean"], won["median"], won["quartiles"]) == (3, 20.0, 20.0,
                                                                           [10.0, 30.0])
    assert won["mean_interval"] == pytest.approx(list(mean_interval([10, 30, 20])))
    assert a["moves_by_end"]["resigned"]["mean_interval"] is None
    assert a["score"] == {"games": 4, "mean": 40.75, "median": 52.0, "min": 7, "max": 52}
    assert a["seconds"] == {"mean": 0.5, "total": 2.0}
    assert a["shortest_win"] == {"moves": 10, "deal": 0, "seed": deal_seed(1, 0)}
    assert a["longest_loss"] == {"moves": 40, "deal": 2, "seed": deal_seed(1, 2)}
    assert a["home_when_lost"] == [{"cards": 0, "games": 1}]
    assert a["left_in"] == [{"depot": "stock", "cards": 2.0, "games": 1.0}]
    assert (b["games"], b["won"], b["lost"], b["unfinished"]) == (3, 1, 1, 1)
    assert b["ends"]["stuck"] == 1 and b["longest_loss"]["deal"] == 1
    assert b["left_in"] == [{"depot": "stock", "cards": 1.0, "games": 1.0},
                            {"depot": "waste", "cards": 1.0, "games": 1.0}]
    assert b["moves"] == {"mean": 125 / 3, "median": 20.0, "max": 100}
    pair = s["paired"][0]
    assert {k: pair[k] for k in ("a", "b", "by", "deals", "both", "a_only", "b_only",
                                 "neither")} == {
        "a": "a", "b": "b", "by": "planner", "deals": 3, "both": 1, "a_only": 1, "b_only": 0,
        "neither": 1}
    assert pair["a_only_deals"] == [{"deal": 1, "seed": deal_seed(1, 1)}]
    assert pair["b_only_deals"] == [] and s["unpaired"] == []
    assert pair["p_value"] == 1.0 and "could be chance" in pair["note"]
    assert pair["note"].startswith("1 deal won by a only, 0 by b only; McNemar p = 1")
    ace, two = s["cards"]["g"]
    assert ace["card"] == "AS" and two["card"] == "2S"
    assert ace["never_moved"] == {"a": 0.25, "b": 0.0}
    assert two["never_moved"] == {"a": 0.5, "b": round(1 / 3, 4)}
    assert two["never_foundation"] == {"a": 0.25, "b": round(2 / 3, 4)}
    assert two["left"] == {"a": 1.0, "b": 1.0}  # over lost games only
    assert ace["left"] == {"a": 1.0, "b": 1.0}


def test_variants_that_open_alike_are_paired_and_others_not():
    decks = [Deck("v1", ("AS", "2S")), Deck("v2", ("AS", "2S")), Deck("v3", ("AS", "2S"))]
    tally = Tally(("p",), 4, decks)
    for deal, (w1, w2, w3) in enumerate([("won", "won", "won"), ("won", "stuck", "stuck"),
                                         ("stuck", "won", "won"), ("won", "stuck", "won")]):
        tally.add(_row(deal, "p", w1, 10, variant="v1", opening=f"{deal + 1:x}"))
        tally.add(_row(deal, "p", w2, 10, variant="v2", opening=f"{deal + 1:x}"))
        tally.add(_row(deal, "p", w3, 10, variant="v3", opening="f0" + str(deal)))
    seen = []

    def explain(a, b, deal):
        seen.append((a, b, deal))
        return "column-1 differs"

    s = tally.summary(explain)
    assert set(s["planners"]) == {"v1/p", "v2/p", "v3/p"}
    (pair,) = s["paired"]
    assert (pair["a"], pair["b"], pair["by"], pair["deals"]) == ("v1/p", "v2/p", "variant", 4)
    assert (pair["a_only"], pair["b_only"], pair["unlike_openings"]) == (2, 1, 0)
    assert [d["deal"] for d in pair["a_only_deals"]] == [1, 3]
    first, second = s["unpaired"]
    assert (first["a"], first["b"], second["a"], second["b"]) == ("v1/p", "v3/p", "v2/p", "v3/p")
    assert "4 of 4 deals open differently (deal 0: column-1 differs)" == first["reason"]
    assert seen == [("v1", "v3", 0), ("v2", "v3", 0)]
    assert (first["a_won"], first["b_won"], first["difference"]) == (3, 3, 0.0)
    low, high = first["difference_interval"]
    assert low < 0 < high and first["p_value"] == 1.0
    assert "not the same deals" in first["note"] and "could be chance" in first["note"]


def test_variants_alike_on_some_deals_are_paired_on_those():
    tally = Tally(("p",), 4, [Deck("v1", ("AS",)), Deck("v2", ("AS",))])
    for deal in range(4):
        tally.add(_row(deal, "p", "won", 10, variant="v1", opening="a"))
        tally.add(_row(deal, "p", "stuck", 10, variant="v2", opening="a" if deal < 2 else "b"))
    s = tally.summary(lambda a, b, deal: None)
    (pair,) = s["paired"]
    assert (pair["deals"], pair["a_only"], pair["unlike_openings"]) == (2, 2, 2)
    assert pair["reason"] == "2 of 4 deals open differently (deal 2)"
    assert s["unpaired"] == []


def test_tally_without_foundations_or_games():
    tally = Tally(("a",), 2, [Deck("g", ("AS",), has_foundations=False)])
    s = tally.summary()
    p = s["planners"]["a"]
    assert p["win_rate"] is None and p["win_interval"] is None and p["score"] is None
    assert p["shortest_win"] is None and p["moves_by_end"] == {} and p["left_in"] == []
    assert s["cards"]["g"][0]["never_foundation"] == {"a": None}
    assert s["cards"]["g"][0]["left"] == {"a": None}
    assert s["paired"] == [] and s["unpaired"] == []
