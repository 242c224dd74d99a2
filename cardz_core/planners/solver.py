"""The perfect-information solver: is this position winnable when every card is known?

It reads the true deal, so it is no fair planner; it measures how winnable a design is, and
answers for sampled deals in the hidden-card planners. ``solve`` returns ``won`` with a winning
line, ``lost`` only when every reachable position has been searched, or ``unknown`` when a budget
ran out. How the search prunes, and why each pruning keeps the answer exact: docs/solver.md.
"""

from __future__ import annotations

import itertools
import json
import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Iterator

from cardz_core.engine.moves import Move
from cardz_core.engine.state import WON
from cardz_core.limits import SOLVE_DEFAULT_SECONDS, SOLVE_DEFAULT_STATES, SOLVE_MAX_STATES
from cardz_core.native import NativeEngineGame, _as_tuple, extension
from cardz_core.problems import CardzError, is_whole
from cardz_core.solver.analysis import Analysis, analysis_of
from cardz_core.solver.beam import Beam, search_beam
from cardz_core.solver.native_plan import solver_plan
from cardz_core.solver.klondike import NOTE as KLONDIKE_NOTE
from cardz_core.solver.klondike import KlondikeShape, search_klondike
from cardz_core.solver.oneway import OneWay, search_oneway
from cardz_core.solver.problem import FACE_DOWN_ORDERINGS, ORDERINGS, GameProblem, Weights
from cardz_core.solver.search import RESULT_UNKNOWN, RESULT_WON, search

PROBE_SHARE = 20  # each short try gets this fraction of the budgets
PROBE_MIN_STATES = 500  # budgets too small for short tries go whole to the first order
NATIVE_NOTE = "searched natively (src/solver.rs)"
PYTHON_NOTE = "searched in Python (cardz_core/solver/search.py)"
BEAM_NOTE = "won by the beam try (cardz_core/solver/beam.py)"


@dataclass
class SolveResult:
    result: str  # won | lost | unknown
    line: list[Any] = field(default_factory=list)  # engine Moves from the start position
    states: int = 0  # positions recorded (distinct up to symmetry)
    seconds: float = 0.0
    stopped_by: str | None = None  # "states" or "seconds" when unknown
    notes: list[str] = field(default_factory=list)  # which prunings were on, and why not


def check_budget(max_states: int, timeout: float) -> None:
    if not is_whole(max_states, 1, SOLVE_MAX_STATES):
        raise CardzError(f"the solver's state budget is 1 to {SOLVE_MAX_STATES}, not {max_states}")
    if not timeout > 0:
        raise CardzError(f"the solver's time budget is more than 0 seconds, not {timeout}")


def solve(game: Any, state: Any, *, max_states: int = SOLVE_DEFAULT_STATES,
          timeout: float = SOLVE_DEFAULT_SECONDS, analysis: Analysis | None = None,
          orders: tuple[Weights, ...] | None = None, beam: Beam | None = None,
          klondike_model: bool = True, one_try: bool = False) -> SolveResult:
    """Search ``state`` of ``game`` (a compiled ``Game``) for a win. The per-game tables are
    the game's (``analysis_of``) unless ``analysis`` is given.

    A depth-first search's time has a long tail that depends on the order it tries moves, so the
    search is a series of short tries (1/PROBE_SHARE of each budget), each with another sibling
    order: those of ``ORDERINGS`` (and ``FACE_DOWN_ORDERINGS`` when cards lie face-down outside
    the stocks), then the same again with random noise, until a try answers or the budgets are
    spent. The tries share the positions proved lost, so the series is one search cut into
    pieces, and a series that runs out of positions proves ``lost``. Where a try's work does not
    carry over (less than half its positions proved lost), the next try gets twice its budget.
    After the first round comes a streamlined try (lazy stock where it is not exact:
    ``Analysis.lazy_streamline``), which only uses the positions proved lost and counts only if
    it wins. ``states`` counts the positions of all tries together, and never exceeds
    ``max_states``.

    On a game the native engine plays (``NativeEngineGame``) whose rules the analysis
    understands, the same tries run in Rust (``_solve_native``); the notes say which search
    ran.

    ``orders`` replaces the sibling orders of the tries (``ORDERINGS`` and
    ``FACE_DOWN_ORDERINGS``): speed only, never the answer (the tables of rated deals give
    some games orders of their own). A greedy order's try (``Weights.greedy``) searches only
    moves that make progress, so like the streamlined try it reads the positions proved lost,
    adds none, and counts only if it wins; once one has searched its whole graph without a win,
    the greedy orders' later tries search exactly (their weights without ``greedy``).

    On the native engine, a position of a Klondike-shaped game goes to the Klondike model
    (``cardz_core.solver.klondike``) unless ``klondike_model`` is False, which keeps it to the
    general search the model is checked against; ``orders`` and ``beam`` do not apply to it.
    The planners, the rated and winnable deals and ``check --play`` pass False: the general
    search plays the same on both engines, so their games and deals do, and the planners were
    tuned over it (on the model ``sampling`` won 77 of draw 1's seeds 1-200 against 101:
    docs/planners.md, "On the Klondike model").

    ``beam`` puts a beam try (``cardz_core.solver.beam``) before the tries, ranked by the first
    order: it counts only if it wins; when it ends without a win, the tries go on with the
    budgets it left, and ``states`` counts its positions too.

    ``one_try`` gives the first try every budget, as a budget under ``PROBE_MIN_STATES`` does
    (``usual``'s look ahead); a greedy order's try that ends before its budget is still followed
    by tries with noise. Either way both engines search alike: the same answer and line."""
    check_budget(max_states, timeout)
    an = analysis if analysis is not None else analysis_of(game)
    native = prepare(game, an, orders, one_try)
    assert an.oneway is not None
    if an.oneway.reason is None and an.oneway.fits(state) is None:
        return _solve_oneway(an, game, state, max_states, timeout)
    if (klondike_model and native is not None and an.klondike.reason is None
            and an.klondike.fits(state) is None):
        modelled = _solve_klondike(an, game, state, max_states, timeout)
        if modelled is not None:
            return modelled
    start = time.perf_counter()
    spent = 0
    if beam is not None:
        first = orders[0] if orders else ORDERINGS[0]
        tried = search_beam(GameProblem(game, an, first), state, beam, max_states=max_states,
                            timeout=timeout)
        if tried.result == RESULT_WON:
            if game.status(replay(game, state, tried.line)) != WON:
                raise AssertionError("the beam try's line does not win in the engine")
            return SolveResult(RESULT_WON, tried.line, tried.states, tried.seconds, None,
                               [*an.notes, BEAM_NOTE])
        spent = tried.states
        if spent >= max_states or time.perf_counter() - start >= timeout:
            return SolveResult(RESULT_UNKNOWN, [], spent, tried.seconds, tried.stopped_by,
                               [*an.notes, BEAM_NOTE])
    if native is not None and not state.rules_off and state.pools is None:
        try:
            done = _solve_native(native, an, state, max_states - spent,
                                 timeout - (time.perf_counter() - start))
        except LookupError:  # unknown cards: the Python search plays them
            pass
        else:
            done.states += spent
            done.seconds = time.perf_counter() - start
            return done
    hidden = any(not c & 1 for i, p in enumerate(state.piles) if game.draws[i] is None for c in p)
    if orders is None:
        orders = ORDERINGS + FACE_DOWN_ORDERINGS if hidden else ORDERINGS
    size_states, size_seconds = max_states // PROBE_SHARE, timeout / PROBE_SHARE
    if one_try or size_states < PROBE_MIN_STATES:  # too small to cut: one try with everything
        size_states, size_seconds = max_states, timeout
    found = None
    lost: set = set()  # positions proved lost by the tries so far (docs/solver.md, section 7)
    greedy_spent = False  # a greedy try searched its whole graph: the others search it again
    for weights, streamline, noise in _tries(orders, an.lazy_streamline):
        states = min(size_states, max_states - spent)
        seconds = min(size_seconds, timeout - (time.perf_counter() - start))
        if states < 1 or seconds <= 0:
            break
        if greedy_spent and weights.greedy:
            weights = weights._replace(greedy=0)
        before = len(lost)
        exact = not streamline and not weights.greedy  # else a try that counts only if it wins
        found = search(GameProblem(game, an, weights, streamline, noise), state,
                       max_states=states, timeout=seconds, lost=lost, record=exact)
        spent += found.states
        if found.result == RESULT_WON or (found.result != RESULT_UNKNOWN and exact):
            break
        greedy_spent = greedy_spent or (bool(weights.greedy) and not streamline
                                        and found.result != RESULT_UNKNOWN)
        if not exact:
            found = None
        elif 2 * (len(lost) - before) < found.states:
            size_states, size_seconds = 2 * size_states, 2 * size_seconds
    result = found.result if found is not None else RESULT_UNKNOWN
    stopped = None if result != RESULT_UNKNOWN else \
        ("states" if spent >= max_states else "seconds")
    return SolveResult(result, found.line if found is not None else [], spent,
                       time.perf_counter() - start, stopped, [*an.notes, PYTHON_NOTE])


def prepare(game: Any, an: Analysis, orders: tuple[Weights, ...] | None = None,
            one_try: bool = False) -> Any | None:
    """Build on ``an`` the per-game tables ``solve`` reads (the one-way model, the native
    search with its plan), once: a caller that solves many deals of one game in fresh processes
    builds them before it forks, so that no deal pays for them. The native search whose tries
    take ``orders`` (``solve``'s; None: the default orders) and, with ``one_try``, make one try
    with every budget, or None."""
    if an.oneway is None:
        an.oneway = OneWay(an)
    if an.klondike is None:
        an.klondike = KlondikeShape(an)
    return _native_solver(game, an, orders, one_try)


def _one_way_model(game: Any) -> OneWay:
    """``game``'s one-way model (Golf: docs/solver.md), built once on its analysis."""
    an = analysis_of(game)
    prepare(game, an)
    assert an.oneway is not None
    return an.oneway


def one_way_game(game: Any) -> bool:
    """Whether the solver's one-way model holds for ``game``'s rules."""
    return _one_way_model(game).reason is None


def one_way(game: Any, state: Any) -> bool:
    """Whether the solver searches ``state`` on the one-way model."""
    model = _one_way_model(game)
    return model.reason is None and model.fits(state) is None


# the native searches with orders of their own or one try, per analysis (``solve``'s ``orders``
# and ``one_try``); the one with the default orders and tries is kept on the analysis
# (``Analysis.native``)
_ORDERED: weakref.WeakKeyDictionary[Analysis, dict[tuple[tuple[Weights, ...] | None, bool], Any]] \
    = weakref.WeakKeyDictionary()


def _native_solver(game: Any, an: Analysis, orders: tuple[Weights, ...] | None = None,
                   one_try: bool = False) -> Any | None:
    """The native search of ``game`` whose tries take ``orders`` (None: the default orders)
    and, with ``one_try``, make one try with every budget, built once, or None when the game is
    not on the native engine or its rules hold a kind the analysis does not know. Only the
    search asked for is built."""
    if not isinstance(game, NativeEngineGame) or not an.known:
        return None
    if orders is None and not one_try:
        if an.native is None:
            an.native = _build_native(game, an, None, False)
        return an.native
    built = _ORDERED.setdefault(an, {})
    if (orders, one_try) not in built:
        built[orders, one_try] = _build_native(game, an, orders, one_try)
    return built[orders, one_try]


def _build_native(game: Any, an: Analysis, orders: tuple[Weights, ...] | None,
                  one_try: bool) -> Any:
    ext = extension()
    assert ext is not None  # a NativeEngineGame exists only with the extension built
    # one try: no budget is ever too large to be cut, since none reaches SOLVE_MAX_STATES
    least = SOLVE_MAX_STATES + 1 if one_try else PROBE_MIN_STATES
    plan = solver_plan(game, an, share=PROBE_SHARE, min_states=least)
    if orders is not None:
        plan["tries"]["orderings"] = [w.numbers() for w in orders]
        plan["tries"]["face_down"] = []
    return ext.Solver(game.native.engine, json.dumps(plan))


def _solve_native(native: Any, an: Analysis, state: Any, max_states: int,
                  timeout: float) -> SolveResult:
    """``solve``'s tries in Rust. A won line has been replayed on the game's native engine
    before it comes back (``src/solver/search.rs::replays_to_win``, AssertionError if it did
    not win), move by move judged legal afresh, as ``replay`` here would judge it."""
    start = time.perf_counter()
    result, moves, states, stopped, _ = native.solve(_as_tuple(state), max_states, timeout)
    line = [Move(*m) for m in moves]
    return SolveResult(result, line, states, time.perf_counter() - start, stopped,
                       [*an.notes, NATIVE_NOTE])


def _tries(orders: tuple[Any, ...], streamlined: bool) -> Iterator[tuple[Any, bool, int]]:
    """(weights, streamlined, noise seed) for each try in turn: the orders without noise, the
    streamlined try (with the first order, as in ``src/solver/search.rs``) if there is one,
    then the orders again and again with new noise."""
    for i in itertools.count():
        if i == len(orders) and streamlined:
            yield orders[0], True, 0
        yield orders[i % len(orders)], False, i // len(orders)


def _solve_oneway(an: Analysis, game: Any, state: Any, max_states: int, timeout: float) -> SolveResult:
    found = search_oneway(an.oneway, state, max_states=max_states, timeout=timeout,
                          native=isinstance(game, NativeEngineGame))
    if found.result == RESULT_WON and game.status(replay(game, state, found.line)) != WON:
        raise AssertionError("the one-way search's line does not win in the engine")
    # the general search's reductions are not used here: only the model's note applies
    return SolveResult(found.result, found.line, found.states, found.seconds, found.stopped_by,
                       [an.oneway.note])


def _solve_klondike(an: Analysis, game: Any, state: Any, max_states: int,
                    timeout: float) -> SolveResult | None:
    found = search_klondike(an.klondike, game, state, max_states=max_states, timeout=timeout)
    if found is None:
        return None
    if found.result == RESULT_WON and game.status(replay(game, state, found.line)) != WON:
        raise AssertionError("the Klondike model's line does not win in the engine")
    return SolveResult(found.result, found.line, found.states, found.seconds, found.stopped_by,
                       [KLONDIKE_NOTE])


def replay(game: Any, state: Any, line: list[Any]) -> Any:
    """The position after playing ``line`` from ``state`` (raises IllegalMove if one is not legal)."""
    for move in line:
        state = game.apply(state, move)
    return state
