"""``usual``: Cardz's usual choices, a short-sighted heuristic for any game written in fixed fields.

A move the solver's analysis proves safe (a card no other pile could use, onto its foundation) is
played at once. Otherwise each legal move is tried once on the view (an unknown card it turns up is
drawn by the counts) and scored by what it did, by the measures every game has: cards sent to a
foundation-role depot, face-down cards of the play area turned up, tableau piles and cells emptied
(filling one costs as much), a card from the stock, waste or a reserve brought into the tableau, and
where a tableau's cards move together only as a run (Spider's runs in one suit), the cards the move
adds to such runs. To that is added half the best such score of a move the new position allows (a
look one move further, read off the piles): filling an empty column is worth it when it frees a card
to go home. Taps come last: a tap scores just above a move that only shuffles cards between piles,
and gets no credit for what the cards it brings may allow, since they are a guess, and no debit for
the empty piles the rules fill with them (otherwise, in Fortune's Favor, it would move cards between
columns rather than let the waste refill an empty one, until it gave up). A tap that deals onto
occupied tableau piles (Spider, Scorpion, Easthaven) buries their cards for good, so it comes after
a shuffle to a board not seen before too; but in a game of runs, where such shuffles never run out,
once ``DEAL_WAIT`` moves went by without progress the deal is due: it goes before them, and filling
an empty pile counts for, emptying one against (Spider deals only onto piles that all hold cards).
A tap that turns the stock's card onto a foundation (Golf, TriPeaks) is not credited with that
card, so a column's card goes first.

The planner never plays the move that takes the board straight back to where it was before its
last move while another move is left, and never moves a whole pile to an empty interchangeable
depot (the same board, relabelled). It remembers the boards it has been on in this game: a move
back to one costs more each time and is not made at all past ``MAX_VISITS`` visits. Passing
through an unchanged stock again is allowed a few times, since in a draw-3 game a later pass can
group the cards differently once the tableau has changed; endless shuttles end. When every move
is excluded it gives up (None), and the game is counted ``resigned``.

Before the scores, it looks ahead with the solver (``solved``): where the view knows every card
in play, for a sure win it plays to the end; elsewhere, on a deal drawn from the view, for a
win it follows up to the first card that turns up (a guess; in a one-way game such as Golf, and
in a game of runs such as Spider once few cards are unseen, the win of the first move that wins
the most of several drawn deals). A single deal's guess stops before a deal that buries the
tableau's cards: the drawn deal's line deals whenever that pays, knowing the cards it brings. A
card laid on a pile that takes any card (Calculation's waste piles) goes where it blocks least
(``cardz_core.planners.need``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardz_core.engine.moves import IllegalMove, Move
from cardz_core.engine.state import PLAYING, WON, State
from cardz_core.limits import PLANNER_MAX_NODES, USUAL_SOLVE_STATES
from cardz_core.planners.base import (NO_TIME_LIMIT, Piles, Unknown, ballot, faces, follow,
                                      goes_on)
from cardz_core.planners.solver import SolveResult, one_way, solve
from cardz_core.planners.measures import (Roles, empty_spaces, hidden_cards, home_cards, roles,
                                          terminal_value)
from cardz_core.planners.need import need_order
from cardz_core.problems import CardzError, is_whole
from cardz_core.solver.analysis import analysis_of
from cardz_core.solver.problem import ORDERINGS
from cardz_core.view import View, deck_info, holds_unknown, sample_deal

if TYPE_CHECKING:
    from cardz_core.engine.game import Game

HOME_WEIGHT = 100.0
REVEAL_WEIGHT = 60.0
EMPTY_WEIGHT = 12.0  # per tableau pile or cell emptied; filling one costs as much
FEED_SCORE = 5.0  # a card from the stock, waste or a reserve played into the tableau
TAP_SCORE = 1.0
RUN_WEIGHT = 3.0  # per card a move adds to the runs that move as one (Spider: build in suit)
SHUFFLE_SCORE = -1.0  # a move that changes nothing the measures see
COVER_SCORE = -2.0  # a tap that deals onto occupied tableau piles: it buries their cards for good
DEAL_WAIT = 40  # in a game of runs, moves without progress after which the stock's deal is due
DUE_DEAL_SCORE = 5.0  # a due deal: above a shuffle or a run built, below a card home or turned up
LOOK_AHEAD = 0.5  # the share of the best next move's score a move is credited with
ORDER_WEIGHT = 0.01  # per face-down card under the picked card: work on the deepest pile first
REVISIT_COST = 3.0  # per earlier visit of the board a move leads to
MAX_VISITS = 3  # a board visited this often is not gone back to
STALL_MOVES = 200  # moves without a card more home or turned up, after which it gives up
GREEDY = ORDERINGS[0]._replace(greedy=1)  # the look's first try: only moves that gain
SOLVE_EVERY = 25  # moves from the first look ahead that found neither a win nor a loss to the next
GUESS_SHARE = 4  # a guess's share of the look's positions: guesses come every few moves
GUESS_WAIT = 5  # moves from the first guess that found no win to the next
GUESS_VOTES = 8  # deals a vote solves (a guess in Golf), the first move that wins most is played
VOTE_UNSEEN = 16  # in a game of runs (Spider), a guess with no more cards unseen is a vote too


class Visited:
    """Boards (piles only) a planner has been on during one game, how often, and the board it
    was on before the last move (the one an undo would go back to)."""

    def __init__(self, r: Roles) -> None:
        self.roles = r
        self.boards: dict[Piles, int] = {}
        self.last_moves = -1
        self.here: Piles | None = None
        self.before: Piles | None = None
        # the most progress seen (cards home less face-down cards of the play area), and when
        self.best = float("-inf")
        self.best_at = 0

    def note(self, view: View) -> None:
        """Count the board of ``view``; noting the same view twice counts it once."""
        if view.moves == self.last_moves and view.piles == self.here:
            return
        if view.moves < self.last_moves:  # an undo or a new game: start again
            self.boards.clear()
            self.here = None
            self.best = float("-inf")
        self.before = self.here if view.moves == self.last_moves + 1 else None
        self.last_moves = view.moves
        self.here = view.piles
        self.boards[view.piles] = self.boards.get(view.piles, 0) + 1
        progress = home_cards(self.roles, view) - hidden_cards(self.roles, view)
        if progress > self.best:
            self.best, self.best_at = progress, view.moves

    def stalled(self, view: View) -> bool:
        """Whether ``STALL_MOVES`` moves went by without a card more home or turned up than
        ever before in this game (as noted, by whichever planner plays): play that long without
        progress is going round in circles."""
        self.note(view)
        return view.moves - self.best_at >= STALL_MOVES

    def visits(self, view: State) -> int:
        return self.boards.get(view.piles, 0)

    def undoes(self, after: State) -> bool:
        """Whether reaching ``after`` takes the board back to where it was before the last
        move."""
        return self.before is not None and after.piles == self.before


class Runs:
    """The tableau depots whose cards move together only as a run (Spider's one-suit runs)."""

    def __init__(self, game: Game) -> None:
        r = roles(game)
        self.ejects = tuple((d, e) for d, e in enumerate(game.ejects)
                            if r.tableau[d] and e.run_next is not None)

    def added(self, before: State, after: State) -> int:
        """Cards lying in a run on the card below them in ``after`` less in ``before``, over
        those depots; only the piles that differ are counted (a move changes one or two)."""
        n = 0
        for d, e in self.ejects:
            b, a = before.piles[d], after.piles[d]
            if b != a:
                n += (len(a) - 1 - e.run_start(a) if a else 0) - \
                    (len(b) - 1 - e.run_start(b) if b else 0)
        return n


def buries(r: Roles, before: State, after: State) -> bool:
    """Whether a move (a tap) laid cards on tableau piles that held cards, which stay under
    them for good (Spider's deal)."""
    return any(r.tableau[d] and b and len(a) > len(b)
               for d, (b, a) in enumerate(zip(before.piles, after.piles)))


def move_score(game: Game, before: State, after: State, move: Move) -> float:
    """How much one move did, by the measures any game has (no look further)."""
    end = terminal_value(after.status)
    if end is not None:
        return end
    r = roles(game)
    home = home_cards(r, after) - home_cards(r, before)
    revealed = hidden_cards(r, before) - hidden_cards(r, after)
    emptied = empty_spaces(r, after) - empty_spaces(r, before)
    score = HOME_WEIGHT * home + REVEAL_WEIGHT * revealed + EMPTY_WEIGHT * emptied
    runs = game.derive(Runs)
    if runs.ejects:
        score += RUN_WEIGHT * runs.added(before, after)
    if move.index < 0:  # a tap
        # never below a move that changes nothing: a tap whose cards the rules put on empty
        # piles (a refill from the waste, a deal to every column) still brings cards into play,
        # where shuffling cards about while it waits only runs the game into STALL_MOVES; and
        # no credit for the stock's card it turns onto a foundation (Golf): played before a
        # column's card it would cover the rank that card needed
        if buries(r, before, after):
            return COVER_SCORE
        return max(score - HOME_WEIGHT * home, 0.0) + TAP_SCORE
    if home == 0 and revealed == 0 and emptied <= 0:
        if r.feeds[move.src] and r.tableau[move.dst]:
            score += FEED_SCORE  # a card out of the stock's way into play
        elif emptied == 0:
            score += SHUFFLE_SCORE
    src = before.piles[move.src]
    return score + ORDER_WEIGHT * sum(1 for c in src[:move.index] if not c & 1)


def _next_score(game: Game, r: Roles, view: State, move: Move) -> float:
    """What ``move`` would score from ``view``, read off the piles without playing it (so a
    look one move further costs one list of legal moves): the cards it sends home, the
    face-down card it uncovers, the pile it empties or fills, a card fed into the tableau.
    Taps and moves out of a foundation count nothing."""
    if move.index < 0 or r.home[move.src]:
        return 0.0
    # what leaves and what stays: a reserve that gives any one card (Stonewall) keeps the rest
    group, rest = game.ejects[move.src].split(view.piles[move.src], move.index)
    score = 0.0
    if r.home[move.dst]:
        score += HOME_WEIGHT * len(group)
    if rest and r.hidden[move.src] and not rest[-1] & 1:
        score += REVEAL_WEIGHT  # a face-down card (known or not: both codes are even) comes up
    if not rest and (r.tableau[move.src] or r.cells[move.src]):
        score += EMPTY_WEIGHT
    if not view.piles[move.dst] and (r.tableau[move.dst] or r.cells[move.dst]):
        score -= EMPTY_WEIGHT
    if score == 0 and r.feeds[move.src] and r.tableau[move.dst]:
        score = FEED_SCORE
    return score


def _look(game: Game, state: State, budget: int) -> SolveResult:
    """The solver on ``state`` in ``budget`` positions, the same on both engines: a greedy try
    (only moves that gain) with half of them, which wins Spider-like games where the full
    search is lost in its breadth, then one try of the first order with the rest. A one-way
    game's model takes no orders: it gets them all at once."""
    whole = one_way(game, state)
    share = budget if whole or budget < 2 else budget // 2
    found = solve(game, state, max_states=share, timeout=NO_TIME_LIMIT, klondike_model=False,
                  one_try=True, orders=None if whole else (GREEDY,))
    if found.result != "unknown" or share == budget:
        return found
    return solve(game, state, max_states=budget - share, timeout=NO_TIME_LIMIT,
                 klondike_model=False, one_try=True)


class _RefuseChance:
    """A ``reveal`` callback that refuses every chance event: a card turned up that the view
    does not know, and a shuffle (which a view plays with a generator of its own, not the
    game's)."""

    def __call__(self, pool: int) -> int:
        raise Unknown

    def forget(self, cards: Any) -> Any:
        raise Unknown


def _sure_win(game: Game, view: View, line: list[Move]) -> list[tuple[Piles, Move]]:
    """``line`` as a plan ((the piles a move is played from, as ``faces``, move) pairs) when it
    wins from ``view`` whatever its unknown cards are: every move plays on the view with no
    chance event, and the last wins. Else empty."""
    plan: list[tuple[Piles, Move]] = []
    v: State = view
    refuse = _RefuseChance()
    for move in line:
        try:
            after = game.apply(v, move, reveal=refuse)
        except (Unknown, IllegalMove):
            return []
        plan.append((faces(game, v.piles), move))
        v = after
    return plan if v.status == WON else []


def _unburied(game: Game, view: View, plan: list[tuple[Piles, Move]]
              ) -> list[tuple[Piles, Move]]:
    """``plan`` up to its first tap that deals onto occupied tableau piles. A line found on
    one drawn deal deals as soon as that pays on the deal, knowing the cards it brings; a player
    who does not know them buries the tableau's cards for good (Spider)."""
    if all(move.index >= 0 for _, move in plan):
        return plan
    r = roles(game)
    draws = random.Random(0)  # which cards a tap turns up does not change where they go
    v = view
    for n, (_piles, move) in enumerate(plan):
        after = game.sample_outcome(v, move, draws).view
        if move.index < 0 and buries(r, v, after):
            return plan[:n]
        v = after
    return plan


def _best_next(game: Game, r: Roles, view: State) -> float:
    """The best ``_next_score`` of a legal move from ``view``; 0 when none gains anything."""
    return max((_next_score(game, r, view, m) for m in game.legal_moves(view)), default=0.0)


class UsualPlanner:
    name = "usual"

    def __init__(self, game: Game, solve: int = USUAL_SOLVE_STATES, **_options: Any) -> None:
        if not is_whole(solve, 0, PLANNER_MAX_NODES):
            raise CardzError(f"the solver's look ahead (option solve) records 0 to "
                             f"{PLANNER_MAX_NODES} positions (0: none), not {solve!r}")
        self.visited = Visited(roles(game))
        self.safe = analysis_of(game).safe
        self.solve_states = solve
        self.plan: list[tuple[Piles, Move]] = []  # (piles the move is played from, move)
        self.solve_at = 0  # the move count from which the next look ahead may be made
        self.wait = SOLVE_EVERY  # moves from a look that found nothing to the next
        self.proved_lost = False
        self.guess_at = 0  # the move count from which the next guess may be made
        self.guess_wait = GUESS_WAIT  # moves from a guess that found no win to the next

    def settings(self) -> dict[str, Any]:
        """The options this planner plays with (a run's record of them)."""
        return {"solve": self.solve_states}

    def solved(self, game: Game, view: View, rng: random.Random) -> Move | None:
        """The first move of a line the solver found (``choose`` plays the rest), or None: play
        by the scores. Where the view knows every card in play, a sure win (``_sure`` below);
        elsewhere a guess (``_guess``). Face-down cards on foundations (Gaps' Aces) are out of
        play."""
        self.plan = []
        if not self.solve_states or self.proved_lost or view.status != PLAYING:
            return None
        sampled = holds_unknown(view)
        r = self.visited.roles
        if sampled and any(c < 0 for d, pile in enumerate(view.piles) if not r.home[d]
                           for c in pile):
            if view.moves >= self.guess_at:
                self._guess(game, view, rng)
        elif view.moves >= self.solve_at:
            self._sure(game, view, rng, sampled)
        return self.plan.pop(0)[1] if self.plan else None

    def _sure(self, game: Game, view: View, rng: random.Random, sampled: bool) -> None:
        """A look (``_look``, the same on both engines) on the view's one true position, made
        again ``SOLVE_EVERY`` moves later while it finds neither a win nor a loss, then after
        twice as many moves each time. Cards face down on foundations are filled in by the
        counts, and a win counted only if it plays out on the view without turning one up, so it
        wins whatever they are."""
        # with nothing unknown, sample_deal draws from the generator only the order of the
        # shuffles to come (La Belle Lucie's redeals), so a loss is proved only without them
        found = _look(game, sample_deal(game, view, rng), self.solve_states)
        self.solve_at = view.moves + self.wait
        self.wait *= 2
        self.proved_lost = found.result == "lost" and not sampled and not deck_info(game).shuffles
        if found.result == "won":
            self.plan = _sure_win(game, view, found.line)

    def _guess(self, game: Game, view: View, rng: random.Random) -> None:
        """A look with a ``GUESS_SHARE`` of the positions on one deal drawn from the view, whose
        win is played up to the first card it turns up (the view then knows that card, and the
        next guess is made on it). A guess that finds no win waits ``GUESS_WAIT`` moves for the
        next, then twice as long each time, so a game where guesses rarely win (the Spiders)
        spends little on them. In a one-way game, where a look is cheap, the guess is a vote
        (``_vote``); so it is in a game whose tableau cards move as runs (Spider) once at most
        ``VOTE_UNSEEN`` cards are unseen, where one deal's line, mostly a guess until then, could
        now be a sound one (docs/planners.md: Will o' the Wisp, Whitehead)."""
        if one_way(game, view) or (game.derive(Runs).ejects and sum(
                1 for pile in view.piles for c in pile if c < 0) <= VOTE_UNSEEN):
            line = self._vote(game, view, rng)
            self.plan = follow(game, view, line, True) if line else []
        else:
            found = _look(game, sample_deal(game, view, rng),
                          max(1, self.solve_states // GUESS_SHARE))
            if found.result == "won":
                self.plan = _unburied(game, view, follow(game, view, found.line, True))
        if self.plan:
            self.guess_wait = GUESS_WAIT
        else:
            self.guess_at = view.moves + self.guess_wait
            self.guess_wait *= 2

    def _vote(self, game: Game, view: View, rng: random.Random) -> list[Move]:
        """``GUESS_VOTES`` deals drawn from the view, each given a whole look, and the line of
        the first move that wins the most of them (``sampling``'s ballot). One deal's win in
        Golf turns on the order of a stock no one has seen, so a line that wins one such order
        is a poor guess; the move that wins the most orders is a good one. A one-way look runs
        at millions of positions a second, so the votes cost little; elsewhere they cost eight
        whole looks, which is why a game of runs votes only late."""
        n = GUESS_VOTES
        results = (_look(game, sample_deal(game, view, rng), self.solve_states) for _ in range(n))
        return ballot(game.legal_moves(view), results, n)

    def ranked(self, game: Game, view: View, rng: random.Random
               ) -> list[tuple[float, int, Move]]:
        """(score, order, move) for every legal move that does not lead back, best first; a
        move that undoes the last one only when no other move is left."""
        self.visited.note(view)
        r = roles(game)
        order = need_order(game)
        needs = order.needs(view) if order.dumps else {}
        out: list[tuple[float, int, Move]] = []
        undo: list[tuple[float, int, Move]] = []
        due = self.deal_due(game, view)
        empty = empty_spaces(r, view) if due else 0
        for i, move in enumerate(game.legal_moves(view)):
            if r.pointless(view, move):
                continue
            after = game.sample_outcome(view, move, rng).view
            seen = self.visited.visits(after)
            if seen >= MAX_VISITS:
                continue
            score = move_score(game, view, after, move) + order.cost(view, move, needs)
            if due:  # the deal first, and the piles it may need filled (Spider) kept filled
                if move.index < 0 and buries(r, view, after):
                    score = DUE_DEAL_SCORE
                score -= 2 * EMPTY_WEIGHT * (empty_spaces(r, after) - empty)
            if move.index >= 0 and terminal_value(after.status) is None:
                score += LOOK_AHEAD * max(0.0, _best_next(game, r, after))
            entry = (score - REVISIT_COST * seen, i, move)
            (undo if self.visited.undoes(after) else out).append(entry)
        out = out or undo
        out.sort(key=lambda t: (-t[0], t[1]))
        return out

    def deal_due(self, game: Game, view: View) -> bool:
        """Whether, in a game of runs, ``DEAL_WAIT`` moves went by without a card more home or
        turned up while the stock still holds cards: the shuffles have done what they can, and
        Spider's rules deal only onto piles that all hold cards, which the scores would empty."""
        r = self.visited.roles
        return bool(game.derive(Runs).ejects) and \
            view.moves - self.visited.best_at >= DEAL_WAIT and \
            any(pile for d, pile in enumerate(view.piles) if r.role[d] == "stock")

    def planned(self, game: Game, view: View) -> Move | None:
        """The next move of the line a look or a guess found, while play follows it."""
        if goes_on(game, self.plan, view):
            self.visited.note(view)
            return self.plan.pop(0)[1]
        return None

    def choose(self, game: Game, view: View, rng: random.Random) -> Move | None:
        # a found line is played to its end, however long it goes without a card home
        move = self.planned(game, view)
        if move is not None:
            return move
        if self.visited.stalled(view):
            return None
        move = self.solved(game, view, rng)
        if move is not None:
            return move
        if self.safe is not None:
            moves = game.legal_moves(view)
            safe = self.safe.find(view, moves)
            if safe is not None:
                self.visited.note(view)
                return safe
        ranked = self.ranked(game, view, rng)
        return ranked[0][2] if ranked else None
