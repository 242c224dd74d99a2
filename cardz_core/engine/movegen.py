"""Move generation: the legal moves of a position, and why a move is not legal.

Card moves are found from the targets' side: each drop target's accept tables say which
face-up bottom cards it takes now (``_wanted``), so a pick costs a dict lookup; only groups
the tables can't judge alone go to the full judgement (``Accept.reason``)."""

from __future__ import annotations

from bisect import insort
from typing import Any, Sequence

from cardz_core.compiled.game import CompiledGame
from cardz_core.engine.accept import Accept
from cardz_core.engine.eject import ANY
from cardz_core.engine.moves import Move, as_move
from cardz_core.engine.state import PLAYING, State
from cardz_core.engine.taps import TapPlan, Taps
from cardz_core.problems import CardzError
from cardz_core.registry import Registry
from cardz_core.spec.model import GameSpec

_BROAD = 12  # accept tables larger than this are tested per pick rather than inverted
_PICK_CACHE = 50_000  # piles remembered per depot with what may be picked from them

new_move = tuple.__new__  # Move(s, i, d) without the NamedTuple's Python-level __new__


class MoveGen(Taps):
    """The move generator. It remembers the last move list it produced (so that ``apply`` of a
    listed move need not judge it again) and the target tables of the last board it listed
    moves for."""

    def __init__(self, compiled: CompiledGame, registry: Registry, spec: GameSpec) -> None:
        super().__init__(compiled, registry, spec)
        self._memo_state: State | None = None
        self._memo_moves: list[Move] = []
        self._memo_plans: dict[int, TapPlan] = {}
        self._want_piles: tuple[tuple[int, ...], ...] | None = None  # what ``_wanted`` last saw
        self._want_seed = 0
        self._want: dict[int, list[int]] = {}
        self._want_tabs: list[frozenset[int] | None] = []
        self._want_broad_of: dict[int, frozenset[int] | None] = {}
        self._want_broad: list[tuple[int, frozenset[int] | None]] = []
        # depots with actions: while pressing one acts, its cards are not picked up
        self.action_depots = tuple(d for d in range(self.n_depots) if self.actions[d])
        # loose fans: a card may be moved along them (a reorder); listed where the order can
        # change what the rules allow (``order_free``)
        self.loose = frozenset(d for d in range(self.n_depots) if compiled.ejects[d].loose_order)
        self.reorders = tuple(sorted(d for d in self.loose if not self.order_free(d)))

    def order_free(self, d: int) -> bool:
        """Whether the order of loose fan ``d`` changes nothing the engine judges: any of its
        cards may be picked alone (gate ``Any``, unit ``Single``), nothing lands on it (so its
        top is never compared), it sends nothing automatically (which takes the top), and no
        recycle turns it back into a stock (whose order is then the draw order). Reorders of
        such a fan are legal but not listed: they would only multiply every search's moves."""
        ej = self.ejects[d]
        return (ej.gate == ANY and ej.unit == "Single" and d not in self.drop_targets
                and all(src != d for src, _ in self.auto_send)
                and not any(dr is not None and dr.recycle and dr.to == d for dr in self.draws))

    def legal_moves(self, state: State) -> list[Move]:
        """Every legal move: card moves by source, position, target (each in index order), then
        reorders by depot, position, new position, then taps in depot order. Empty once the
        game is over. Works on views."""
        if state.status != PLAYING:
            return []
        if len(state.piles) != self.n_depots:
            raise self.foreign(state)
        return list(self._moves(state))

    def foreign(self, state: State) -> CardzError:
        """The error for a position of another game (the native engine says the same)."""
        return CardzError(f"a position of {len(state.piles)} depots for a game of {self.n_depots}")

    def _moves(self, state: State) -> list[Move]:
        """The moves of ``state``, remembered for the last state asked about (the win/loss
        check of ``apply`` and the player's next ``legal_moves`` ask about the same one)."""
        if state is self._memo_state:
            return self._memo_moves
        plans = {}
        for d in self.tappable:
            plan = self._tap_plan(state, d)
            if plan is not None:
                plans[d] = plan
        acting = [d for d in self.action_depots if d in plans]
        if state.rules_off:
            moves = self._free_moves(state)
        else:
            moves = self._card_moves(state, acting=acting)
        if self.reorders:
            moves.extend(self._reorder_moves(state, self.reorders, acting))
        moves.extend(self.tap_moves[d] for d in plans)
        self._memo_plans = plans
        self._memo_state, self._memo_moves = state, moves
        return moves

    def acting(self, state: State) -> list[int]:
        """The depots with actions that a press acts on now (the reference: while an action is
        available the depot works like a stock, and pressing its cards acts instead of picking
        them up), so none of their cards may be picked up."""
        if state is self._memo_state:
            return [d for d in self.action_depots if d in self._memo_plans]
        return [d for d in self.action_depots if self._tap_plan(state, d) is not None]

    def moves_from(self, state: State, depots: tuple[int, ...]) -> list[Move]:
        """The legal moves whose source is one of ``depots``, in ``legal_moves`` order (card
        moves, reorders, then taps): what a search needs when only those piles changed. Not
        remembered."""
        if state.status != PLAYING:
            return []
        loose = [d for d in self.reorders if d in depots]
        if state.rules_off:
            return [m for m in self._free_moves(state) if m.src in depots] + \
                self._reorder_moves(state, loose, ())
        acting = self.acting(state)
        moves = self._card_moves(state, depots, acting=acting)
        moves.extend(self._reorder_moves(state, loose, acting))
        for d in self.tappable:
            if d in depots and self._tap_plan(state, d) is not None:
                moves.append(self.tap_moves[d])
        return moves

    def _card_moves(self, state: State, only: tuple[int, ...] | None = None,
                    first: bool = False, acting: Sequence[int] = ()) -> list[Move]:
        """The card moves of ``state`` (from the ``only`` depots if given; just the first one
        found if ``first``), none from the ``acting`` depots."""
        piles = state.piles
        accepts = self.accepts
        want, broad = self._wanted(state)
        moves: list[Move] = []
        add = moves.append
        identity = self.identity
        wget = want.get
        made, n, stride = self.made_moves, self.n_depots, self.n_cards + 1
        for s, ej, cache in self.source_info:
            pile = piles[s]
            if not pile or only is not None and s not in only or acting and s in acting:
                continue
            picked = cache.get(pile) if cache is not None else None
            if picked is None:
                picked = ej.picked(piles, pile)
                if cache is not None:
                    if len(cache) > _PICK_CACHE:
                        cache.clear()
                    cache[pile] = picked
            for i, c in picked:
                if c & 1:
                    found: Sequence[int] | None = wget(c)
                    if broad:
                        found = sorted(set(found or ()).union(
                            d for d, tab in broad if tab is None or c in tab))
                else:  # a face-down bottom card: judged in full where it could land
                    found = self.down_targets
                if not found:
                    continue
                group = ej.split(pile, i)[0]
                for d in found:
                    if d == s:
                        continue
                    acc = accepts[d]
                    if acc.from_set is not None and s not in acc.from_set:
                        continue
                    if not self._group_ok(state, piles, s, group, d, acc, ej.vouched):
                        continue
                    top = group[-1]
                    if first:
                        return [Move(s, i, d, -1)]
                    if acc.declares_suit and top & 1 and acc.wild(identity[top >> 1]):
                        moves.extend(Move(s, i, d, suit) for suit in range(4))
                    else:
                        key = (s * n + d) * stride + i
                        m = made.get(key) if i < stride else None
                        if m is None:
                            m = new_move(Move, (s, i, d, -1))
                            if i < stride:
                                made[key] = m
                        add(m)
        return moves

    def _reorder_moves(self, state: State, depots: Sequence[int],
                       acting: Sequence[int]) -> list[Move]:
        """The reorders of ``depots``: each card that may be picked up (any card while the rules
        are off) to every other position of its fan, in position order."""
        moves: list[Move] = []
        piles = state.piles
        for d in depots:
            pile = piles[d]
            if d in acting and not state.rules_off:
                continue
            n = len(pile)
            for i in range(n):
                if state.rules_off or self.ejects[d].why(self, piles, i) is None:
                    moves.extend(Move(d, i, d, j) for j in range(n) if j != i)
        return moves

    def _wanted(self, state: State) -> tuple[dict[int, list[int]], list]:
        """Per target, the face-up bottom codes it takes now. Small tables are inverted into
        ``want`` (code -> targets in index order) so that a pick costs one dict lookup; large
        tables and tops whose meaning depends on the board (None) go to ``broad``
        ((target, table or None), in index order) and are judged per pick, as are face-down
        drops. A target's table depends on its pile (and the seed rank) alone, so ``want`` and
        ``broad`` are kept from the last call and only the targets whose pile is not the same
        object any more are looked at again (piles are shared tuples)."""
        piles = state.piles
        prev = self._want_piles
        self._want_piles = None  # until ``want`` is consistent again
        if prev is None or self._want_seed != state.seed_rank:
            want: dict[int, list[int]] = {}
            tabs: list = [None] * self.n_depots
            broad_of: dict[int, frozenset[int] | None] = {}
            changed: Sequence[int] = self.drop_targets
            broad_changed = True
        else:
            want, tabs, broad_of = self._want, self._want_tabs, self._want_broad_of
            broad_changed = False
            if piles is prev:
                return want, self._want_broad
            changed = [d for d in self.drop_targets if piles[d] is not prev[d]]
        rows = self.target_row_of
        for d in changed:
            old = tabs[d]
            if old is not None:
                for c in old:
                    got = want[c]
                    got.remove(d)
                    if not got:
                        del want[c]
                tabs[d] = None
            if d in broad_of:
                del broad_of[d]
                broad_changed = True
            _d, on_top, on_down, empty_tab, empty_only, acc = rows[d]
            pile = piles[d]
            if pile:
                if empty_only:
                    continue
                t = pile[-1]
                tab = on_top.get(t) if t & 1 else on_down
                if tab is None:
                    broad_of[d] = None
                    broad_changed = True
                    continue
            else:
                tab = empty_tab if empty_tab is not None else acc.on_empty(state.seed_rank)
            if len(tab) > _BROAD:
                broad_of[d] = tab
                broad_changed = True
            else:
                tabs[d] = tab
                for c in tab:
                    have = want.get(c)
                    if have is None:
                        want[c] = [d]
                    else:
                        insort(have, d)
        if broad_changed:
            self._want_broad = [(d, broad_of[d]) for d in sorted(broad_of)]
        self._want, self._want_tabs, self._want_broad_of = want, tabs, broad_of
        self._want_piles, self._want_seed = piles, state.seed_rank
        return want, self._want_broad

    def _group_ok(self, state: State, piles: Any, s: int, group: tuple[int, ...], d: int,
                  acc: Accept, vouched: bool) -> bool:
        """Whether ``group``, whose bottom card the target's table already took, lands on ``d``
        (the short path of ``Accept.reason`` for rules whose tables judge every card, the
        rule's ``when`` tested last as there; anything unusual goes to the full judgement)."""
        n = len(group)
        if not acc.tabled or not group[0] & 1:
            return self._drop_reason(state, piles, s, group, d, vouched, None) is None
        if n > 1 or acc.min_count > 1:  # a single card the tables took needs no more
            if n < acc.min_count or (n > 1 and acc.single):
                return False
            if vouched:
                if not acc.allow_down and not all(c & 1 for c in group):
                    return False  # face-down cards need allowFaceDown, wherever in the group
                if acc.rank_is is not None:
                    return self._drop_reason(state, piles, s, group, d, vouched, None) is None
            else:
                on_top = acc.on_top
                prev = group[0]
                for k in range(1, n):
                    cur = group[k]
                    if not cur & 1:
                        return self._drop_reason(state, piles, s, group, d, vouched,
                                                 None) is None
                    tab = on_top.get(prev)
                    if tab is None or cur not in tab:
                        return False
                    prev = cur
            if self.staged and n > 1 and n > self.staged_limit(piles, d):
                return False
        return acc.when is None or acc.holds(self, state, piles, s, group)

    def _free_moves(self, state: State) -> list[Move]:
        """Rules off: any card with everything above it, to any other depot; taps as usual."""
        return [Move(s, i, d) for s, pile in enumerate(state.piles) for i in range(len(pile))
                for d in range(self.n_depots) if d != s]

    def _drop_reason(self, state: Any, piles: Any, src: int, group: tuple[int, ...], dst: int,
                     vouched: bool, declare: int | None) -> str | None:
        why = self.accepts[dst].reason(self, state, piles, src, group, vouched, declare)
        if why is None and self.staged and len(group) > 1:
            limit = self.staged_limit(piles, dst)
            if len(group) > limit:
                return f"only {limit} cards can move at once now"
        return why

    def staged_limit(self, piles: Any, dst: int) -> int:
        """``compoundMoves: Staged``: (1 + empty cells) * 2^(empty tableau piles), the target
        not counted. A staged move stands for single-card moves through the empty depots, so
        only those that take any card when empty count: in Seahaven Towers an empty column
        that takes only a King cannot hold the middle of a run."""
        cells = sum(1 for c in self.cells if not piles[c] and c != dst)
        cols = sum(1 for t in self.tableaus if not piles[t] and t != dst)
        return (1 + cells) << cols

    def illegal_reason(self, state: State, move: Move) -> str | None:
        """Why ``move`` is not legal in ``state``, or None when it is. A move that is not a
        ``Move`` (nor a tuple of its fields) or a position of another game is a CardzError."""
        move = as_move(move)
        n = self.n_depots
        if len(state.piles) != n:
            raise self.foreign(state)
        if state.status != PLAYING:
            return "the game is over"
        s, i, d = move.src, move.index, move.dst
        if not 0 <= s < n:
            return f"there is no depot {s}"
        if i < 0:
            if i != -1 or d != -1 or move.declare != -1:
                return "a tap has index -1, no target and no suit"
            plan = self._memo_plans.get(s) if state is self._memo_state else \
                self._tap_plan(state, s)
            if plan is None:
                return f"tapping {self.depot_names[s]} does nothing now"
            return None
        if not 0 <= d < n:
            return f"there is no depot {d}"
        if d == s:
            return self._reorder_reason(state, move)
        piles = state.piles
        if not 0 <= i < len(piles[s]):
            return f"{self.depot_names[s]} has no card at position {i}"
        if state.rules_off:
            return None if move.declare == -1 else "no suit is called while the rules are off"
        ej = self.ejects[s]
        why = ej.why(self, piles, i)
        if why is not None:
            return why
        if s in self.acting(state):
            return f"pressing {self.depot_names[s]} acts: its cards can't be picked up now"
        if self.draws[d] is not None:
            return f"{self.depot_names[d]} takes no drops: it is tapped"
        if not 0 <= move.declare < 4 and move.declare != -1:
            return f"{move.declare} is not a suit"
        group = ej.split(piles[s], i)[0]
        return self._drop_reason(state, piles, s, group, d, ej.vouched, move.declare)

    def _reorder_reason(self, state: State, move: Move) -> str | None:
        """Why moving a card along its own depot's fan (``Move(d, i, d, at)``) is not legal."""
        s, i, at = move.src, move.index, move.declare
        name = self.depot_names[s]
        if s not in self.loose:
            return "a card can't move onto its own depot"
        piles = state.piles
        n = len(piles[s])
        if not 0 <= i < n:
            return f"{name} has no card at position {i}"
        if not 0 <= at < n:
            return f"a card moves along {name} to a position from 0 to {n - 1}, not {at}"
        if at == i:
            return f"the card is at position {i} of {name} already"
        if state.rules_off:
            return None
        why = self.ejects[s].why(self, piles, i)
        if why is not None:
            return why
        if s in self.acting(state):
            return f"pressing {name} acts: its cards can't be picked up now"
        return None

    def tap_available(self, state: State) -> bool:
        """Whether tapping some depot does something now (a draw, recycle, redeal or action)."""
        for d in self.tappable:  # a loop: this runs after every move of a noLegalMoves game
            if self._tap_plan(state, d) is not None:
                return True
        return False

    def move_available(self, state: State) -> bool:
        """Whether some move is legal now (``noLegalMoves`` asks after every move): the draws
        first, then the card moves, and only then the taps that need a trial run (a redeal's
        trial runs the whole redeal)."""
        return any(self._draw_plan(state, d) is not None for d in self.tappable) or \
            self.card_move_available(state) or self.tap_available(state)

    def card_move_available(self, state: State) -> bool:
        """Whether some card move is legal now; stops at the first one found."""
        if state.rules_off:
            return bool(self._free_moves(state) or self._reorder_moves(state, self.reorders, ()))
        acting = self.acting(state)
        return bool(self._card_moves(state, first=True, acting=acting)
                    or self.reorders and self._reorder_moves(state, self.reorders, acting))
