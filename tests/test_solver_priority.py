"""The sibling order's ``stuck`` term (``Weights.stuck``): cards in sequence on a depot whose
eject rule would not lift them with the card below (docs/solver.md, "Sibling order")."""

from __future__ import annotations

from types import SimpleNamespace

from cardz_core.rulesets import open_game
from cardz_core.solver.analysis import analysis_of
from cardz_core.solver.problem import ORDERINGS, GameProblem, Weights

ONLY_STUCK = Weights(0, 0, 0, 0, 0, 0, 1)
ONLY_DISORDER = Weights(0, 0, 0, 0, 1, 0)


def problem(name: str, weights: Weights) -> GameProblem:
    game = open_game(name)
    return GameProblem(game, analysis_of(game), weights)


def test_stuck_counts_mixed_suit_builds_that_a_run_in_one_suit_leaves_behind():
    p = problem("spider_two_suits", ONLY_STUCK)
    cards = p.an.cards
    spades, hearts = sorted({c.suit for c in cards})

    def up(rank: int, suit: int) -> int:
        return next(i for i, c in enumerate(cards) if (c.rank, c.suit) == (rank, suit)) << 1 | 1

    columns = [i for i, name in enumerate(p.an.compiled.depot_names) if name.startswith("column")]
    piles = [()] * p.an.n
    # K spades, Q hearts, J hearts, 10 spades, 3 hearts: K-Q and J-10 build down but change
    # suit (stuck), Q-J is a run in one suit, 10-3 does not build at all (disorder)
    piles[columns[0]] = (up(13, spades), up(12, hearts), up(11, hearts), up(10, spades),
                         up(3, hearts))
    # below a face-down card nothing counts: 5 hearts face down, 4 spades face up
    piles[columns[1]] = (up(5, hearts) & ~1, up(4, spades))
    board = SimpleNamespace(piles=tuple(piles))
    assert p.priority(board) == -2
    assert problem("spider_two_suits", ONLY_DISORDER).priority(board) == -1
    # the same board weighed without stuck (six numbers) does not read it
    assert problem("spider_two_suits", Weights(0, 0, 0, 0, 0, 0)).priority(board) == 0


def test_stuck_pairs_come_from_the_eject_rule_of_each_building_depot():
    spider = problem("spider", ONLY_STUCK)
    assert spider.stuck and set(spider.stuck) == set(spider.fits)
    assert all(spider.stuck[d] < spider.fits[d] for d in spider.stuck)  # runs in one suit move
    # FreeCell's columns lift any sequence their rule builds: nothing is stuck
    assert problem("freecell", ONLY_STUCK).stuck == {}
    # Forty Thieves' columns give up only their top card: every built pair stays behind
    thieves = problem("forty_thieves", ONLY_STUCK)
    assert thieves.stuck == thieves.fits and thieves.fits


def test_an_order_of_six_numbers_weighs_stuck_zero_and_is_written_as_six():
    six = Weights(100, 20, 30, 0, 20, 0)
    assert six.stuck == 0 and six.numbers() == [100, 20, 30, 0, 20, 0]
    assert Weights(100, 20, 30, 0, 20, 0, 15).numbers() == [100, 20, 30, 0, 20, 0, 15]
    assert all(w.stuck == 0 for w in ORDERINGS)
