"""The beam try (``cardz_core.solver.beam``, docs/solver.md, "A beam try"): a search by stock
layers that keeps only the best positions of each, so it counts only a win; a ``lost`` still
comes from the exact tries alone, and a ``won`` is a line of the game on both engines."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cardz_core.engine import WON, compile
from cardz_core.planners.solver import BEAM_NOTE, replay, solve
from cardz_core.problems import CardzError
from cardz_core.ratings import TABLE_SUFFIX, table_text
from cardz_core.rulesets import open_game
from cardz_core.solver.analysis import analysis_of
from cardz_core.solver.beam import (BEAM_MAX_BURIED, BEAM_MAX_SPREAD, BEAM_MAX_WIDTH, Beam,
                                    beam_of, buried_count, home_plan, needs_plan, search_beam,
                                    starved)
from cardz_core.solver.problem import ORDERINGS, GameProblem

ROOT = Path(__file__).resolve().parent.parent
# Sir Tommy deal 13: this beam wins it within 20,494 positions, where the plain tries do not
# win it within 100,000 (docs/solver.md, "A beam try")
TOMMY_BEAM = Beam(50, 20, 50)
TOMMY_DEAL, TOMMY_STATES = 13, 20_494


def tommy(engine: str) -> object:
    return compile(open_game("sir_tommy").spec, engine=engine)


def test_a_beams_limits_are_checked_at_and_past_them():
    assert Beam(BEAM_MAX_WIDTH, BEAM_MAX_SPREAD, BEAM_MAX_BURIED).numbers() == \
        [BEAM_MAX_WIDTH, BEAM_MAX_SPREAD, BEAM_MAX_BURIED]
    assert Beam(1, 1, 0).numbers() == [1, 1, 0]
    for bad in ((BEAM_MAX_WIDTH + 1, 1), (1, BEAM_MAX_SPREAD + 1), (1, 1, BEAM_MAX_BURIED + 1),
                (0, 1), (1, 0), (1, 1, -1), (True, 1), (1.5, 1)):
        with pytest.raises(CardzError, match="a beam's"):
            Beam(*bad)  # type: ignore[arg-type]
    assert beam_of(None) is None and beam_of([3, 4]) == Beam(3, 4, 0)
    for bad_list in ([1], [1, 2, 3, 4], "1,2", {"width": 1}):
        with pytest.raises(CardzError, match="a beam is a list"):
            beam_of(bad_list)


def test_buried_counts_cards_on_a_card_home_needs_first():
    game = tommy("native")
    problem = GameProblem(game, analysis_of(game))
    plan = home_plan(problem)
    assert plan is not None
    order, depots = plan
    assert len(depots) == 4  # the four waste piles, which give cards only to the foundations
    ace, five, king = (min(c for c in range(52) if order[c] == r) for r in (0, 4, 12))
    piles = [()] * len(game.deal(0).piles)
    piles[depots[0]] = (king << 1 | 1, five << 1 | 1, ace << 1 | 1)  # kept descending: none
    piles[depots[1]] = (ace << 1 | 1, king << 1 | 1, five << 1 | 1)  # both lie on the Ace
    assert buried_count(plan, piles) == 2
    # a game whose foundations build both ways has no one order: the count does not apply
    quilt = open_game("crazy_quilt")
    assert home_plan(GameProblem(quilt, analysis_of(quilt))) is None


@pytest.mark.engines_chosen
def test_a_beam_wins_a_deal_the_plain_tries_do_not_and_its_line_replays_on_both_engines():
    native, python = tommy("native"), tommy("python")
    start = native.deal(TOMMY_DEAL)
    assert solve(native, start, max_states=5 * TOMMY_STATES, timeout=600).result == "unknown"
    got = solve(native, start, max_states=TOMMY_STATES, timeout=600, beam=TOMMY_BEAM)
    assert (got.result, got.states, BEAM_NOTE in got.notes) == ("won", TOMMY_STATES, True)
    assert python.status(replay(python, python.deal(TOMMY_DEAL), got.line)) == WON
    # one position fewer: the beam stops short, and the tries after it get nothing
    short = solve(native, start, max_states=TOMMY_STATES - 1, timeout=600, beam=TOMMY_BEAM)
    assert (short.result, short.states, short.stopped_by) == ("unknown", TOMMY_STATES - 1,
                                                              "states")
    # the same driver on the Python engine walks the same positions to the same line
    found = search_beam(GameProblem(python, analysis_of(python), ORDERINGS[0]),
                        python.deal(TOMMY_DEAL), TOMMY_BEAM, max_states=TOMMY_STATES,
                        timeout=600)
    assert (found.result, found.states, found.line) == ("won", TOMMY_STATES, got.line)


@pytest.mark.engines_chosen
def test_a_beam_never_answers_lost_and_leaves_the_rest_to_the_exact_tries():
    # on the native engine whatever the run's default: the beam is one Python driver over
    # either engine (the test above walks both), and this one takes the Python engine 30 s
    game = tommy("native")
    problem = GameProblem(game, analysis_of(game), ORDERINGS[0])
    # a narrow beam on a deal it cannot win ends without a win: unknown, never lost
    found = search_beam(problem, game.deal(0), Beam(2, 2), max_states=100_000, timeout=600)
    assert (found.result, found.stopped_by) == ("unknown", None)
    assert found.states < 100_000
    # a deal the exact tries prove lost is still proved lost with the beam in front
    mini = ROOT / "tests" / "data" / "games" / "mini_simon.cardz"
    simon = compile(open_game(str(mini)).spec, engine="native")
    plain = solve(simon, simon.deal(0), max_states=100_000, timeout=60)
    beamed = solve(simon, simon.deal(0), max_states=100_000, timeout=60, beam=Beam(2, 2))
    assert plain.result == beamed.result == "lost"
    assert beamed.states > plain.states  # the beam's positions count in the budget


def test_the_builder_keeps_a_games_beam_and_refuses_a_bad_one(tmp_path: Path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import build_ratings

    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"games": {"sir_tommy": {
        "seeds": [TOMMY_DEAL], "max_states": TOMMY_STATES, "playouts": 0,
        "beam": TOMMY_BEAM.numbers()}}}), encoding="utf-8")
    assert build_ratings.main(["sir_tommy", "--settings", str(settings),
                               "--out-dir", str(tmp_path)]) == 0
    doc = json.loads(table_text(tmp_path / ("sir_tommy" + TABLE_SUFFIX)))
    assert doc["made"]["beam"] == TOMMY_BEAM.numbers()
    (row,) = doc["deals"]
    assert (row["result"], row["states"]) == ("won", TOMMY_STATES)
    settings.write_text(json.dumps({"games": {"sir_tommy": {"beam": [0, 1]}}}), encoding="utf-8")
    with pytest.raises(SystemExit):
        build_ratings.main(["sir_tommy", "--settings", str(settings), "--out-dir", str(tmp_path)])


def test_foundations_that_need_more_cards_than_are_left_are_starved():
    quilt = open_game("crazy_quilt")
    problem = GameProblem(quilt, analysis_of(quilt))
    needs = needs_plan(problem)
    assert needs is not None and len(needs) == 8
    an = problem.an
    start = quilt.deal(0)
    assert not starved(problem, needs, start.piles)

    def copies(rank: int, suit: int) -> list[int]:
        return [c for c in range(len(an.cards)) if (an.ranks[c], an.suits[c]) == (rank, suit)]

    (ace1, ace2), (king, _) = copies(1, 0), copies(13, 0)
    up = [i for i, sign, _ in needs if sign > 0]
    down = [i for i, sign, _ in needs if sign < 0]
    # the Aces and Kings the deal starts the foundations with go back to the stock, so that
    # only the foundations each case starts are started
    stock = quilt.depot_names.index("stock")
    base = [() if i in up + down else p for i, p in enumerate(start.piles)]
    base[stock] = start.piles[stock] + tuple(c for i in up + down for c in start.piles[i])

    def moved(cards: tuple[int, ...]) -> list[tuple[int, ...]]:
        return [tuple(c for c in p if c >> 1 not in cards) for p in base]

    piles = moved((ace1, ace2))
    piles[up[0]], piles[up[1]] = (ace1 << 1 | 1,), (ace2 << 1 | 1,)
    # both Aces of one suit started two foundations up: they take that suit's 26 cards
    assert not starved(problem, needs, piles)
    piles = moved((ace1, ace2, king))
    piles[up[0]], piles[up[1]] = (ace1 << 1 | 1,), (ace2 << 1 | 1,)
    piles[down[0]] = (king << 1 | 1,)  # a third foundation of the suit: 13 cards too few
    assert starved(problem, needs, piles)
    # Sir Tommy's foundations take any suit: never starved
    tommy_game = open_game("sir_tommy")
    tommy_problem = GameProblem(tommy_game, analysis_of(tommy_game))
    assert needs_plan(tommy_problem) is not None
