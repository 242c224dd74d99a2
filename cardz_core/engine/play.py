"""Apply and cascade: the deal, a move and everything that follows from it (flips, automatic
moves, triggers until the board settles), on a ``Work``, or without one for the plain cases."""

from __future__ import annotations

from typing import TypeVar

from cardz_core.engine import rng as _rng
from cardz_core.engine.ends import Ends
from cardz_core.engine.moves import IllegalMove, Move, as_move
from cardz_core.engine.state import PLAYING, State
from cardz_core.engine.taps import TAP_DRAW, TAP_RECYCLE, TAP_REDEAL, Revealed, trial_reveal
from cardz_core.engine.work import Reveal, Work
from cardz_core.limits import MAX_CASCADE
from cardz_core.problems import CardzError

S = TypeVar("S", bound=State)  # a true state or a view: ``apply`` gives back the same kind


class Play(Ends):
    """Dealing and applying moves."""

    def deal(self, seed: int) -> State:
        """The opening deal for ``seed``: each pack group shuffled into its depot, then the
        deal steps; no automatic moves or triggers follow it."""
        return self._opening(seed)

    def deal_changes(self, seed: int) -> list[set[int]]:
        """For each step of the opening deal of ``seed``, the depots whose cards it changed:
        ``check --play`` names a step that changes nothing, or that deals nothing to some of
        its depots (the deck ran out before them)."""
        changes: list[set[int]] = []
        self._opening(seed, changes)
        return changes

    def _opening(self, seed: int, changes: list[set[int]] | None = None) -> State:
        n = self.n_depots
        groups: dict[int, list[int]] = {}
        for cid, d in enumerate(self.compiled.card_home):
            if d < 0:
                raise CardzError("the game has no Stock for packs without 'to'")
            groups.setdefault(d, []).append(cid)
        r = _rng.seed_state(seed)
        piles: list[tuple[int, ...]] = [()] * n
        for d, ids in groups.items():
            r = _rng.shuffle(r, ids)
            piles[d] = tuple(cid << 1 for cid in ids)
        state = State(tuple(piles), (-1,) * n, (0,) * n, declared=(-1,) * n, rng=r,
                      cards=self.identity)
        w = Work(state)
        for step in self.deal_steps:
            if changes is None:
                step(w)
                continue
            before = list(w.piles)
            step(w)
            changes.append({d for d, pile in enumerate(w.piles) if pile != before[d]})
        out = self._freeze(w, state)
        out.seed_rank = self._deal_seed(out.piles)
        out.came_from = (-1,) * n
        out.status = self._judge(out)
        return out

    def _counted_apply(self, view: S, move: Move, reveal: Reveal) -> S:
        """``apply`` on a view with a caller's ``reveal(pool) -> card id`` (one that keeps no
        counts of its own, as ``view.Reveal`` does): made by the ``Game`` facade, which reads
        the view's counts (``cardz_core.view`` imports this module)."""
        raise NotImplementedError

    def _deal_seed(self, piles: tuple) -> int:
        for d in self.seed_depots:
            for c in piles[d]:
                if c & 1:
                    return self.identity[c >> 1].rank
        return 0

    def apply(self, state: S, move: Move, reveal: Reveal | None = None) -> S:
        """The position after ``move`` and everything that follows from it: the move, flips,
        automatic moves and triggers until the board settles, then the win/loss check.
        Raises ``IllegalMove`` saying why when the move is not legal."""
        if type(move) is not Move:
            move = as_move(move)
        if reveal is not None and state.pools is not None and not hasattr(reveal, "forget"):
            return self._counted_apply(state, move, reveal)
        if state.status != PLAYING or not (state is self._memo_state and move in self._memo_moves):
            why = self.illegal_reason(state, move)
            if why is not None:
                raise IllegalMove(why)
        out = None
        if state.rules_off:
            pass
        elif move.index >= 0:
            if move.dst != move.src and self.plain_drop[move.dst]:
                out = self._plain_move(state, move)
        elif self.plain_draw[move.src]:
            s = move.src
            plan = self._memo_plans.get(s) if state is self._memo_state else \
                self._tap_plan(state, s)
            if plan is not None and plan[0] == TAP_DRAW:
                out = self._plain_draw(state, s)
        if out is None:
            out = self._freeze(self._play(state, move, reveal), state)
        out.moves = state.moves + 1
        if not out.rules_off:
            out.status = self._judge(out)
        return out  # type: ignore[return-value]  # copies keep their class: a view's are views

    def _plain_draw(self, state: State, d: int) -> State | None:
        """The draw of ``_tap`` (cards one at a time from the stock's top onto ``to``, each
        turned up) without a ``Work``, for a stock that doesn't flip its own top, onto a
        target without ``landUnder``, in a game with nothing that
        settles. None (use ``_play``) when a drawn card is an unknown card to reveal."""
        dr = self.draws[d]
        assert dr is not None  # plain_draw holds only for a depot that draws
        to = dr.to
        piles = list(state.piles)
        n = self.n_depots
        came = list(state.came_from) if state.came_from else [-1] * n
        decl = list(state.declared) if state.declared else [-1] * n
        pile, dest = piles[d], piles[to]
        for _ in range(dr.count):
            if not pile:
                break
            c = pile[-1]
            if not c & 1:
                if c < 0:
                    return None
                c |= 1
            rest = pile[:-1]
            if not rest or rest[-1] != pile[-1]:
                decl[d] = -1
            pile = rest
            new = dest + (c,)
            if not dest or c != dest[-1]:
                decl[to] = -1
            dest = new
            came[to] = d
        came[d] = -1
        piles[d], piles[to] = pile, dest
        return self._plain_state(state, piles, came, decl)

    def _plain_move(self, state: State, move: Move) -> State | None:
        """``_play`` and ``_freeze`` of a card move in a game with nothing that settles, onto
        a target without ``landFace`` or ``landUnder``: the same pile, ``came_from`` and
        ``declared`` updates as ``Work.set_pile``, ``take`` and ``put`` make, without a
        ``Work``. None (use ``_play``) when the source's new top is an unknown card to reveal."""
        s, i, d, declare = move
        piles = list(state.piles)
        n = self.n_depots
        came = list(state.came_from) if state.came_from else [-1] * n
        decl = list(state.declared) if state.declared else [-1] * n
        old = piles[s]
        group, rest = self.ejects[s].split(old, i)
        if not rest or not old or rest[-1] != old[-1]:
            decl[s] = -1
        came[s] = -1
        if self.auto_flip_top[s] and rest and not rest[-1] & 1:
            top = rest[-1]
            if top < 0:
                return None
            rest = rest[:-1] + (top | 1,)
            decl[s] = -1
        piles[s] = rest
        old = piles[d]
        new = old + group
        if not old or new[-1] != old[-1]:
            decl[d] = -1
        piles[d] = new
        came[d] = s
        if declare >= 0:
            decl[d] = declare
        return self._plain_state(state, piles, came, decl)

    @staticmethod
    def _plain_state(state: State, piles: list, came: list, decl: list) -> State:
        out = state.copy()
        out.piles = tuple(piles)
        out.came_from = tuple(came)
        out.declared = tuple(decl)
        return out

    def _play(self, state: State, move: Move, reveal: Reveal | None) -> Work:
        w = Work(state, reveal)
        s = move.src
        if move.index < 0:
            self._tap(w, state, s)
        elif move.dst == s:
            self._reorder(w, s, move.index, move.declare)
        else:
            pile = w.piles[s]
            if state.rules_off:
                group, rest = pile[move.index:], pile[:move.index]
            else:
                group, rest = self.ejects[s].split(pile, move.index)
            w.set_pile(s, rest)
            w.came_from[s] = -1
            self._land(w, move.dst, group, s, move.declare)
        if self.settles and not state.rules_off:
            self._settle(w)
        elif w.left:
            self._flip_tops(w)
        return w

    @staticmethod
    def _reorder(w: Work, d: int, i: int, at: int) -> None:
        """The card at position ``i`` of loose fan ``d`` moved to position ``at``, face kept. It
        was picked up from the fan, so ``d`` counts as a depot that lost a card for the flips;
        ``came_from[d]`` is ``d`` when the card lands on top, none when the top card moved down."""
        pile = w.piles[d]
        rest = pile[:i] + pile[i + 1:]
        w.set_pile(d, rest[:at] + (pile[i],) + rest[at:])
        w.left.add(d)
        top = len(pile) - 1
        if at == top:
            w.came_from[d] = d
        elif i == top:
            w.came_from[d] = -1

    def _tap(self, w: Work, state: State, d: int) -> None:
        if state is self._memo_state:
            plan = self._memo_plans.get(d)
        else:
            plan = self._tap_plan(state, d)
        if plan is None:
            raise IllegalMove(f"tapping {self.depot_names[d]} does nothing now")
        kind, k = plan
        if kind == TAP_DRAW:
            dr = self.draws[d]
            assert dr is not None
            for _ in range(dr.count):
                cards = w.take_top(d, 1)
                if not cards:
                    break
                # drawn cards land face up, whatever the target's landFace (the reference)
                w.put(dr.to, (w.up(cards[0]),), d, self.land_under[dr.to])
        elif kind == TAP_RECYCLE:
            dr = self.draws[d]
            assert dr is not None
            pile = w.piles[dr.to]
            w.set_pile(dr.to, ())
            w.put(d, tuple(w.down(c) for c in reversed(pile)), dr.to)
            rec = list(w.recycles) if w.recycles else [0] * self.n_depots
            rec[d] += 1
            w.recycles = tuple(rec)
            w.recycles_total += 1
        elif kind == TAP_REDEAL:
            w.self_depot = d
            for step in self.redeal_steps:
                step(w)
            w.redeals += 1
        else:
            w.self_depot = d
            for step in self.actions[d][k][1]:
                step(w)

    def _land(self, w: Work, d: int, group: tuple[int, ...], src: int, declare: int = -1) -> None:
        """Cards arriving on ``d`` by a player's move, a draw or an automatic move:
        ``landFace`` turns them, ``landUnder`` puts them beneath."""
        face = self.land_face[d]
        if face == 1:
            group = tuple(w.up(c) for c in group)
        elif face == 0:
            group = tuple(w.down(c) for c in group)
        w.put(d, group, src, self.land_under[d])
        if declare >= 0:
            w.declared[d] = declare

    def _flip_tops(self, w: Work) -> None:
        """``autoFlipTop`` for the depots that lost cards; ``autoFlipUncovered`` for all."""
        if w.left:
            left = w.left
            w.left = set()
            for d in sorted(left):
                if self.auto_flip_top[d]:
                    w.flip_top(d)
        for d in self.flip_uncovered:
            pile = w.piles[d]
            if pile and not pile[-1] & 1 and not self.ejects[d].covered(w.piles):
                w.flip_top(d)

    def _settle(self, w: Work) -> None:
        """Flips, then one automatic move (autoSend, then autoRefill), or else one pass of the
        triggers, repeated until nothing changes. At ``MAX_CASCADE`` automatic moves and
        trigger runs that changed the board the cascade ends where it is (after the flips), as
        the reference says: the move stays legal and the board is a position like any other."""
        budget = MAX_CASCADE
        while True:
            self._flip_tops(w)
            if budget <= 0:
                return
            if self._auto_move(w):
                budget -= 1
                continue
            before = tuple(w.piles)
            for d, when, steps, _ptr in self.triggers:
                if when(w.env(depot=d)):
                    ran = tuple(w.piles)
                    w.self_depot = d
                    for step in steps:
                        step(w)
                    if tuple(w.piles) != ran:
                        budget -= 1
                        self._flip_tops(w)
                        if budget <= 0:
                            return
            if tuple(w.piles) == before:
                return

    def _auto_move(self, w: Work) -> bool:
        """Make the first automatic move available; whether there was one."""
        if not (self.auto_send or self.auto_refill):
            return False
        state = w.state()
        piles = state.piles
        acting = self.acting(state) if self.action_depots else ()  # as a player's hand can't
        for s, targets in self.auto_send:
            pile = piles[s]
            if not pile or s in acting:
                continue
            ej = self.ejects[s]
            for i in ej.picks(piles, pile):
                group, rest = ej.split(pile, i)
                for d in targets:
                    if self._drop_reason(state, piles, s, group, d, ej.vouched, None) is None:
                        w.set_pile(s, rest)
                        w.came_from[s] = -1
                        self._land(w, d, group, s)
                        return True
        for d, sources in self.auto_refill:
            if piles[d]:
                continue
            for s in sources:
                pile = piles[s]
                if not pile or s in acting or self.ejects[s].why(self, piles, len(pile) - 1):
                    continue
                group = (pile[-1],)
                if self._drop_reason(state, piles, s, group, d, True, None) is None:
                    w.set_pile(s, pile[:-1])
                    w.came_from[s] = -1
                    self._land(w, d, group, s)
                    return True
        return False

    def _freeze(self, w: Work, state: State) -> State:
        """The new position: ``state`` with the work's piles and memory."""
        s = state.copy()
        s.piles = tuple(w.piles)
        s.came_from = tuple(w.came_from)
        s.recycles = w.recycles
        s.redeals = w.redeals
        s.recycles_total = w.recycles_total
        s.declared = tuple(w.declared)
        s.rng = w.rng
        return s

    def turns_card_up(self, state: State, move: Move) -> bool:
        """Whether playing the legal ``move`` turns a card face-up, its cascade included (on a
        view, also when it would reveal an unknown card). A trial: nothing is kept."""
        try:
            w = self._play(state, move, trial_reveal)
        except Revealed:
            return True
        return w.flips > 0
