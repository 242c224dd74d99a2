//! A game seen as a search problem (`cardz_core/solver/problem.py::GameProblem`): a
//! position's children with safe moves, tap runs and lazy stock, and the priority that orders
//! siblings. The engine's own `legal_moves` and `apply_legal` make every move.

use std::collections::HashMap;

use crate::engine::{Code, Game, Move, Scratch, SourcesFrom, SplitMix, State};
use crate::expr::ExprError;
use crate::solver::key::{same_cards, Keyer};
use crate::solver::plan::{Plan, Weights};

/// Buffers kept for reuse past this many are dropped (a search's path holds far fewer).
const POOL_LIMIT: usize = 4096;

impl State {
    /// `self`, a board made from `other` by a move, made equal to `other` again: the piles
    /// `same` (`Keyer::diff`) says the move changed, with their origins and called suits (the
    /// engine changes those of the depots it marks touched alone), and every small field.
    fn restore(&mut self, other: &State, same: &[bool]) {
        // the engine fills a position's empty origins and calls: then they are copied whole
        let whole = self.came_from.len() != other.came_from.len() || self.declared.len() != other.declared.len();
        for (d, _) in same.iter().enumerate().filter(|(_, &kept)| !kept) {
            self.piles[d].clone_from(&other.piles[d]);
            if !whole {
                (self.came_from[d], self.declared[d]) = (other.came_from[d], other.declared[d]);
            }
        }
        if whole {
            self.came_from.clone_from(&other.came_from);
            self.declared.clone_from(&other.declared);
        }
        self.recycles.clone_from(&other.recycles);
        self.copy_counters(other);
    }

    fn copy_counters(&mut self, other: &State) {
        (self.redeals, self.moves, self.undos, self.recycles_total) =
            (other.redeals, other.moves, other.undos, other.recycles_total);
        (self.seed_rank, self.rules_off, self.auto_moved, self.status, self.rng) =
            (other.seed_rank, other.rules_off, other.auto_moved, other.status, other.rng);
    }
}

/// The stock configurations a tap run met: the stock's pile and its target's (their cards one
/// after the other in `cards`) and the stock's recycles when the key keeps them, compared
/// whole (a configuration met again ends the run).
#[derive(Default)]
struct Configs {
    met: Vec<(usize, usize, i64)>,
    cards: Vec<Code>,
}

impl Configs {
    fn clear(&mut self) {
        self.met.clear();
        self.cards.clear();
    }

    /// `stock`, `waste` and `recycles` met: whether they were met before.
    fn meet(&mut self, stock: &[Code], waste: &[Code], recycles: i64) -> bool {
        let head = (stock.len(), waste.len(), recycles);
        let mut at = 0;
        let mut before = false;
        for &(a, b, r) in &self.met {
            let cards = &self.cards[at..at + a + b];
            if (a, b, r) == head && cards[..a] == *stock && cards[a..] == *waste {
                before = true;
                break;
            }
            at += a + b;
        }
        self.met.push(head);
        self.cards.extend_from_slice(stock);
        self.cards.extend_from_slice(waste);
        before
    }
}

/// A board a child is made on other than the position expanded's own, with its `same` against
/// that position (by depot, whether it holds that position's pile, or with more depots marked
/// changed): a child's is this with the depots its move touched marked changed.
type Base<'b> = Option<(&'b State, &'b [bool])>;

/// What the search does with each child as it is made: `visit(ranker, line, child, same)`,
/// `line` the moves that reach it (one, or a run of taps and a move, or a take and the moves
/// onto the card taken), `same` as `Keyer::diff` gives it against the position expanded.
/// It copies what it keeps of the line, or stops the listing with an error.
pub trait Visit<E>: FnMut(&mut Ranker<'_>, &[Move], &State, &[bool]) -> Result<(), E> {}

impl<E, F: FnMut(&mut Ranker<'_>, &[Move], &State, &[bool]) -> Result<(), E>> Visit<E> for F {}

/// The sibling order (`GameProblem.priority`), apart from the listing so that the search
/// ranks a child while the problem lends it. Its counts are sums over piles: a child's are
/// its parent's with the piles its move changed counted again (`Ranker::parent`).
pub struct Ranker<'a> {
    plan: &'a Plan,
    w: Weights,
    noise: Option<SplitMix>,
    /// how many times each depot is among the priority's `others`
    others: Vec<usize>,
    /// the cards whose depth counts in the position expanded: those the foundations take next,
    /// and the seed cards while a foundation is empty; a child's, when a foundation changed
    wanted: Wanted,
    kid_wanted: Wanted,
    seeds: Vec<usize>,
    /// the position expanded's counts, by depot, and their sums; its cards home and empty
    /// depots (a greedy try compares a child's with them)
    parts: Vec<Parts>,
    total: Parts,
    home: f32,
    empty: f32,
}

/// The cards whose depth counts, as a list and as a mask by card.
#[derive(Default)]
struct Wanted {
    cards: Vec<usize>,
    mask: Vec<bool>,
}

impl Wanted {
    /// The cards of `s`: those the foundations take next, and `seeds` while one is empty.
    fn fill(&mut self, plan: &Plan, seeds: &[usize], s: &State) {
        if self.mask.len() != plan.cards {
            self.mask = vec![false; plan.cards];
        }
        self.cards.iter().for_each(|&c| self.mask[c] = false);
        self.cards.clear();
        let mut empties = false;
        for (d, nexts) in &plan.priority.steps {
            match s.piles[*d].last() {
                Some(&top) if nexts[(top >> 1) as usize] >= 0 => self.cards.push(nexts[(top >> 1) as usize] as usize),
                Some(_) => {}
                None => empties = true,
            }
        }
        if empties {
            self.cards.extend_from_slice(seeds);
        }
        self.cards.iter().for_each(|&c| self.mask[c] = true);
    }

    /// How many cards of `pile` lie on top of the wanted ones.
    fn depth(&self, pile: &[i32]) -> usize {
        let top = pile.len();
        pile.iter().enumerate().filter(|(_, &c)| self.mask[(c >> 1) as usize]).map(|(pos, _)| top - 1 - pos).sum()
    }
}

/// A pile's share of the priority's counts.
#[derive(Clone, Copy, Default, Debug, PartialEq)]
struct Parts {
    down: Count,
    disorder: Count,
    depth: Count,
    balance: Count,
    stuck: Count,
}

/// A count of the priority: a pile's are far below 2^32 (a few hundred cards at most), and a
/// frame keeps one `Parts` a depot, so they are half the size of a `usize`.
type Count = u32;

/// A position's counts, pile by pile (`Problem::save_counts`), kept by the search with the
/// position's frame.
#[derive(Default)]
pub struct Counts(Vec<Parts>);

impl Parts {
    fn add(self, o: Parts) -> Parts {
        Parts { down: self.down + o.down, disorder: self.disorder + o.disorder, depth: self.depth + o.depth,
                balance: self.balance + o.balance, stuck: self.stuck + o.stuck }
    }

    fn sub(self, o: Parts) -> Parts {
        Parts { down: self.down - o.down, disorder: self.disorder - o.disorder, depth: self.depth - o.depth,
                balance: self.balance - o.balance, stuck: self.stuck - o.stuck }
    }
}

/// How many cards of `pile` lie on a face-up card with (below, card) in the relation `bits` of
/// `n` cards (when `inside`) or not in it.
fn pairs(pile: &[i32], bits: &[u64], n: usize, inside: bool) -> usize {
    pile.windows(2)
        .filter(|pair| {
            let at = (pair[0] >> 1) as usize * n + (pair[1] >> 1) as usize;
            pair[0] & 1 == 1 && (bits[at / 64] >> (at % 64) & 1 == 1) == inside
        })
        .count()
}

fn is_tap(m: &Move, k: usize) -> bool {
    m.0 == k as i32 && m.1 == -1
}

/// Whether the child `line` makes (`state`, `same` against the position expanded) is searched:
/// always, but in a greedy try only when the line plays the stock or its target or the child
/// makes progress (`GameProblem.progress`).
fn passes(ranker: &mut Ranker<'_>, plan: &Plan, line: &[Move], state: &State, same: &[bool]) -> bool {
    if !ranker.w.greedy {
        return true;
    }
    let stock = |d: i32| plan.tap.is_some_and(|(k, w)| d == k as i32 || d == w as i32);
    line.iter().any(|m| m.1 == -1 || stock(m.0) || stock(m.2)) || ranker.progress(state, same)
}

pub struct Problem<'a> {
    game: &'a Game,
    plan: &'a Plan,
    ranker: Ranker<'a>,
    lazy: bool,
    /// lazy stock, per position `successors` was asked for: the cards on the ring, the cards
    /// free to move elsewhere, and whether a line of takes could go on from a stock card
    ring_cards: Vec<bool>,
    free: Vec<bool>,
    chains: HashMap<(usize, usize), bool>,
    in_home: Vec<bool>,
    /// the board each move of the position expanded is made on, given back after each child
    /// (`State::restore`): a child costs the piles its move changed, not a copy of the board
    kid: State,
    /// which piles a child kept of the position expanded (`Keyer::diff`)
    same: Vec<bool>,
    /// the stock configurations a tap run met, kept for their allocations
    configs: Configs,
    /// `same` masks of the boards a tap run or a take is made on (`Base`), kept for their
    /// allocations
    masks: Vec<Vec<bool>>,
    /// the stock and its target, which a tap run lists moves from (empty without a tap)
    tap_sources: SourcesFrom,
    /// each depot's symmetry class (`KeyPlan::classes`), when its empty piles are told apart
    /// by nothing the key keeps (no `came_from`); and the moves of an expansion to an empty
    /// depot of a class met so far, as (source, position, call, class)
    class_of: Vec<Option<usize>>,
    to_empty: Vec<(i32, i32, i32, usize)>,
    /// the board of the frame the search left last, with the depots whose piles it holds of
    /// its parent (`keep_near`)
    near: Option<State>,
    near_same: Vec<bool>,
    /// positions, lines and move listings done with, kept for their allocations
    states: Vec<State>,
    lines: Vec<Vec<Move>>,
    listings: Vec<Vec<Move>>,
    scratch: Scratch,
}

/// A problem's reusable buffers, handed from try to try.
#[derive(Default)]
pub struct Buffers {
    states: Vec<State>,
    lines: Vec<Vec<Move>>,
    listings: Vec<Vec<Move>>,
}

impl<'a> Problem<'a> {
    /// `streamline`: lazy stock where it is not exact (a try that can only answer won);
    /// `noise`: when not 0, the seed of a random amount below the plan's noise added to every
    /// priority.
    pub fn new(game: &'a Game, plan: &'a Plan, w: Weights, streamline: bool, noise: u64, buffers: Buffers) -> Problem<'a> {
        Problem {
            game,
            plan,
            ranker: Ranker::new(plan, w, noise),
            lazy: plan.lazy || (streamline && plan.streamline),
            ring_cards: vec![false; plan.cards],
            free: vec![false; plan.cards],
            chains: HashMap::new(),
            in_home: vec![false; plan.cards],
            kid: State::default(),
            same: Vec::new(),
            configs: Configs::default(),
            masks: Vec::new(),
            tap_sources: game.sources_from(&plan.tap.map_or(Vec::new(), |(k, w)| vec![k, w])),
            class_of: Self::classes(plan),
            to_empty: Vec::new(),
            near: None,
            near_same: Vec::new(),
            states: buffers.states,
            lines: buffers.lines,
            listings: buffers.listings,
            scratch: Scratch::default(),
        }
    }

    fn classes(plan: &Plan) -> Vec<Option<usize>> {
        let mut class_of = vec![None; plan.depots];
        if !plan.key.came_from {
            for (c, class) in plan.key.classes.iter().enumerate() {
                class.iter().for_each(|&d| class_of[d] = Some(c));
            }
        }
        class_of
    }

    /// Whether `m` moves to an empty depot of a class what a move listed before moved to
    /// another (empty, so with no call) of the same class. Depots of a class are
    /// interchangeable: the second position is the first with two piles swapped, one key, met
    /// already, so the search would pass it over (docs/solver.md, "The native search").
    fn repeats(&mut self, s: &State, m: Move) -> bool {
        let (src, index, dst, call) = m;
        if dst < 0 || index < 0 || dst == src {
            return false;
        }
        let d = dst as usize;
        let Some(class) = self.class_of[d] else { return false };
        if !s.piles[d].is_empty() || s.declared.get(d).is_some_and(|&c| c != -1) {
            return false;
        }
        let seen = (src, index, call, class);
        if self.to_empty.contains(&seen) {
            return true;
        }
        self.to_empty.push(seen);
        false
    }

    /// The counts of the position last expanded, into `out` (`successors`' `near`).
    pub fn save_counts(&self, out: &mut Counts) {
        out.0.clone_from(&self.ranker.parts);
    }

    /// The buffers, for the next try.
    pub fn buffers(mut self) -> Buffers {
        self.states.extend(self.near.take());
        Buffers { states: self.states, lines: self.lines, listings: self.listings }
    }

    /// The position after the legal move `m` of `s`, in a reused buffer.
    fn make(&mut self, s: &State, m: Move) -> Result<State, ExprError> {
        let mut out = self.states.pop().unwrap_or_default();
        out.refill_from(s);
        // a loss by "no legal move" is met as a position without children (lost all the same)
        self.game.apply_in_place(&mut out, m, &mut self.scratch, true)?;
        Ok(out)
    }

    /// A line of `prefix` and then `m`, in a reused buffer.
    fn line(&mut self, prefix: &[Move], m: Move) -> Vec<Move> {
        let mut line = self.lines.pop().unwrap_or_default();
        line.clear();
        line.extend_from_slice(prefix);
        line.push(m);
        line
    }

    /// The legal moves of `s`, in a reused buffer.
    fn listing(&mut self, s: &State) -> Result<Vec<Move>, ExprError> {
        let mut moves = self.listings.pop().unwrap_or_default();
        moves.clear();
        self.game.list_moves(s, &mut moves)?;
        Ok(moves)
    }

    /// A position done with: its buffers are reused for the next ones.
    pub fn recycle_state(&mut self, state: State) {
        if self.states.len() < POOL_LIMIT {
            self.states.push(state);
        }
    }

    /// A buffer of moves from the pool (not cleared).
    pub fn spare_line(&mut self) -> Vec<Move> {
        self.lines.pop().unwrap_or_default()
    }

    /// A line done with, kept as `recycle_state` keeps a position.
    pub fn recycle_line(&mut self, line: Vec<Move>) {
        if self.lines.len() < POOL_LIMIT {
            self.lines.push(line);
        }
    }

    /// The board of a child of the last frame, done with (`remake` made it), `same` as
    /// `remake` gave it: the next child of that frame is made on it, once it is given back
    /// the piles its line changed (`State::restore`), rather than on a copy of the whole
    /// position. The board kept before goes back to the pool.
    pub fn keep_near(&mut self, board: State, same: &[bool]) {
        if let Some(old) = self.near.replace(board) {
            self.recycle_state(old);
        }
        self.near_same.clear();
        self.near_same.extend_from_slice(same);
    }

    /// The position `line` leads to from `s`, remade as `successors` made it: the search keeps
    /// a child's line and key but not the position, and makes it again only if it goes there.
    /// Into `same`, by depot, whether no move of the line touched it (it holds `s`'s pile).
    /// `s` is the last frame's position, whose board `keep_near` may hold.
    pub fn remake(&mut self, s: &State, line: &[Move], same: &mut Vec<bool>) -> Result<State, ExprError> {
        let (&first, rest) = line.split_first().expect("a child's line has a move");
        same.clear();
        same.resize(s.piles.len(), true);
        let mut out = match self.near.take() {
            Some(mut board) => {
                board.restore(s, &self.near_same);
                debug_assert!(board == *s, "a board given back is not the frame's position");
                board
            }
            None => {
                let mut out = self.states.pop().unwrap_or_default();
                out.refill_from(s);
                out
            }
        };
        // a loss by "no legal move" is met as a position without children (lost all the same)
        self.game.apply_in_place(&mut out, first, &mut self.scratch, true)?;
        self.untouched(same);
        for &m in rest {
            self.game.apply_in_place(&mut out, m, &mut self.scratch, true)?;
            self.untouched(same);
        }
        Ok(out)
    }

    /// `same` without the depots the last move touched.
    fn untouched(&self, same: &mut [bool]) {
        same.iter_mut().enumerate().for_each(|(d, kept)| *kept &= !self.scratch.touched(d));
    }

    /// The children of `s` (not over), each handed to `visit` as it is made, in the Python
    /// search's order. `near`: the counts of the position `s` was made from (`save_counts`)
    /// and, by depot, whether `s` holds its pile (`remake`'s `same`), so that only the other
    /// piles are counted again.
    pub fn successors<E: From<ExprError>>(&mut self, s: &State, near: Option<(&Counts, &[bool])>,
                                          visit: &mut impl Visit<E>) -> Result<(), E> {
        let moves = self.listing(s)?;
        self.kid.refill_from(s);
        match near {
            Some((counts, same)) => self.ranker.parent_near(&counts.0, s, same),
            None => self.ranker.parent(s),
        }
        let listed = self.children(s, &moves, visit);
        self.listings.push(moves);
        listed
    }

    fn children<E: From<ExprError>>(&mut self, s: &State, moves: &[Move], visit: &mut impl Visit<E>) -> Result<(), E> {
        if self.blocked(s) {
            return Ok(()); // no card of the blocked pair will ever go home
        }
        if let Some(m) = self.safe_move(s, moves) {
            let line = self.line(&[], m);
            return self.child(visit, line, s, None, m);
        }
        // a greedy try plays a card home at once, whatever else it could do
        if let Some(m) = self.greedy_home(moves).filter(|_| self.ranker.w.greedy) {
            let line = self.line(&[], m);
            return self.child(visit, line, s, None, m);
        }
        let tap = self.plan.tap;
        if self.lazy {
            if let Some((k, w)) = tap {
                self.ring_cards.fill(false);
                self.free.fill(false);
                self.chains.clear();
                for c in s.piles[k].iter().chain(&s.piles[w]) {
                    self.ring_cards[(c >> 1) as usize] = true;
                }
                for (i, p) in s.piles.iter().enumerate() {
                    if !self.plan.in_win[i] && i != k && i != w {
                        p.iter().filter(|&&c| c & 1 == 1).for_each(|&c| self.free[(c >> 1) as usize] = true);
                    }
                }
            }
        }
        self.to_empty.clear();
        for &m in moves {
            if tap.is_some_and(|(k, _)| is_tap(&m, k)) || self.repeats(s, m) {
                continue;
            }
            let line = self.line(&[], m);
            self.child(visit, line, s, None, m)?;
        }
        if tap.is_some() {
            let mut all = self.mask();
            all.resize(s.piles.len(), true);
            let ran = self.tap_runs(visit, s, (s, &all), moves, None, &[]);
            self.masks.push(all);
            ran?;
        }
        Ok(())
    }

    /// The child on `self.kid` (made from `top`, the position expanded) handed to `visit`;
    /// then `self.kid` is `top` again.
    fn visit_kid<E>(&mut self, visit: &mut impl Visit<E>, line: Vec<Move>, top: &State) -> Result<(), E> {
        // the engine says which depots the move touched: the others are `top`'s, unread
        self.same.clear();
        self.same.extend((0..top.piles.len()).map(|d| !self.scratch.touched(d)));
        debug_assert!({
            let mut full = Vec::new();
            Keyer::diff(top, &self.kid, &mut full);
            full.iter().zip(&self.same).all(|(&f, &s)| f || !s)
        }, "a depot the engine did not report touched changed");
        let kept = passes(&mut self.ranker, self.plan, &line, &self.kid, &self.same);
        let done = if kept { visit(&mut self.ranker, &line, &self.kid, &self.same) } else { Ok(()) };
        self.kid.restore(top, &self.same);
        debug_assert!(self.kid == *top, "a board given back is not its parent");
        self.recycle_line(line);
        done
    }

    /// An empty mask from the pool.
    fn mask(&mut self) -> Vec<bool> {
        let mut mask = self.masks.pop().unwrap_or_default();
        mask.clear();
        mask
    }

    /// Into `out`, `base`'s `same` without the depots the last move touched.
    fn same_after(&self, base: &[bool], out: &mut Vec<bool>) {
        out.clear();
        out.extend(base.iter().enumerate().map(|(d, &kept)| kept && !self.scratch.touched(d)));
    }

    /// The child `state` (made from a board other than `top` whose `same` is `base`, by the
    /// last move made) handed to `visit`.
    fn visit_made<E>(&mut self, visit: &mut impl Visit<E>, line: Vec<Move>, top: &State, state: State, base: &[bool])
                     -> Result<(), E> {
        let mut same = std::mem::take(&mut self.same);
        self.same_after(base, &mut same);
        self.same = same;
        debug_assert!({
            let mut full = Vec::new();
            Keyer::diff(top, &state, &mut full);
            full.iter().zip(&self.same).all(|(&f, &s)| f || !s)
        }, "a depot marked kept changed");
        let kept = passes(&mut self.ranker, self.plan, &line, &state, &self.same);
        let done = if kept { visit(&mut self.ranker, &line, &state, &self.same) } else { Ok(()) };
        self.recycle_state(state);
        self.recycle_line(line);
        done
    }

    /// A greedy try's move home: the first listed move from outside the win depots into one.
    fn greedy_home(&self, moves: &[Move]) -> Option<Move> {
        let win = &self.plan.in_win;
        moves.iter().copied().find(|m| m.2 >= 0 && win[m.2 as usize] && !win[m.0 as usize])
    }

    /// `SafeMoves.find`: a move to a foundation that needs no branching, or None.
    /// Whether a card that can go only home lies, in a depot it leaves only from the top, on a
    /// card its foundation takes first (`SafeMoves.blocked`).
    fn blocked(&self, s: &State) -> bool {
        let Some(safe) = self.plan.safe.as_ref() else { return false };
        safe.blocked.iter().any(|&i| {
            let pile = &s.piles[i];
            (1..pile.len()).any(|j| {
                let first = &safe.under[(pile[j] >> 1) as usize];
                !first.is_empty() && pile[..j].iter().any(|&x| first.contains(&((x >> 1) as usize)))
            })
        })
    }

    fn safe_move(&mut self, s: &State, moves: &[Move]) -> Option<Move> {
        let safe = self.plan.safe.as_ref()?;
        let mut home_known = false;
        for &m in moves {
            let (src, index, dst, declare) = m;
            if dst < 0 || !safe.in_win[dst as usize] || !safe.source[src as usize] || declare != -1 {
                continue;
            }
            let pile = &s.piles[src as usize];
            let Some(&top) = pile.last() else { continue };
            if index as usize != pile.len() - 1 || top & 1 == 0 || (safe.pile_unit[src as usize] && pile.len() != 1) {
                continue;
            }
            if !home_known {
                self.in_home.fill(false);
                for &i in &safe.win {
                    s.piles[i].iter().for_each(|&c| self.in_home[(c >> 1) as usize] = true);
                }
                home_known = true;
            }
            if !safe.needs[(top >> 1) as usize].iter().all(|&x| self.in_home[x]) {
                continue;
            }
            if s.piles[dst as usize].is_empty() {
                let Some(seeds) = &safe.seeds else { continue };
                let empty = safe.win.iter().filter(|&&i| s.piles[i].is_empty()).count();
                let waiting = seeds.iter().filter(|&&c| !self.in_home[c]).count();
                if empty < waiting {
                    continue;
                }
            }
            return Some(m);
        }
        None
    }

    /// The child `m` makes of `base` (`top`, the position expanded, when None; `line` ending
    /// in `m`), or, for a stock card taken off the ring to a depot outside the foundations
    /// (lazy stock), the children of the moves onto it that may follow.
    fn child<E: From<ExprError>>(&mut self, visit: &mut impl Visit<E>, line: Vec<Move>, top: &State,
                                 base: Base<'_>, m: Move) -> Result<(), E> {
        let taken = self.lazy && m.2 >= 0 && self.plan.tap.is_some_and(|(_, w)| m.0 == w as i32)
            && !self.plan.in_win[m.2 as usize];
        if !taken {
            return match base {
                None => {
                    // a loss by "no legal move" is met as a position without children
                    self.game.apply_in_place(&mut self.kid, m, &mut self.scratch, true)?;
                    self.visit_kid(visit, line, top)
                }
                Some((b, b_same)) => {
                    let state = self.make(b, m)?;
                    self.visit_made(visit, line, top, state, b_same)
                }
            };
        }
        let from = base.map_or(top, |(b, _)| b);
        let card = from.piles[m.0 as usize].last().map_or(0, |&c| (c >> 1) as usize);
        if self.may_follow(card, m.2 as usize, false) {
            let next = self.make(from, m)?;
            let mut next_same = self.mask();
            match base {
                Some((_, b_same)) => self.same_after(b_same, &mut next_same),
                None => next_same.extend((0..top.piles.len()).map(|d| !self.scratch.touched(d))),
            }
            let followed = self.followed(visit, &line, top, (&next, &next_same), m.2 as usize);
            self.masks.push(next_same);
            self.states.push(next);
            followed?;
        }
        self.lines.push(line);
        Ok(())
    }

    /// `line` took a stock card to `d`, reaching `s`: each move next onto that card, a card
    /// from elsewhere ending the line and another stock card continuing it.
    fn followed<E: From<ExprError>>(&mut self, visit: &mut impl Visit<E>, line: &[Move], top: &State,
                                    s: (&State, &[bool]), d: usize) -> Result<(), E> {
        let moves = self.listing(s.0)?;
        let followed = self.follow(visit, line, top, s, d, &moves);
        self.listings.push(moves);
        followed
    }

    fn follow<E: From<ExprError>>(&mut self, visit: &mut impl Visit<E>, line: &[Move], top: &State,
                                  s: (&State, &[bool]), d: usize, moves: &[Move]) -> Result<(), E> {
        for &m in moves {
            if m.2 == d as i32 && m.1 != -1 {
                let more = self.line(line, m);
                self.child(visit, more, top, Some(s), m)?;
            }
        }
        let card = s.0.piles[d].last().map_or(0, |&c| (c >> 1) as usize);
        if self.may_follow(card, d, true) {
            self.tap_runs(visit, top, s, moves, Some(d), line)?;
        }
        Ok(())
    }

    /// Whether a line of lazy-stock moves could go on from `card`, just taken to `d`: a card
    /// from outside the ring placed on it, or (only this, if `ring_only`) a stock card that
    /// could itself be followed so (`GameProblem._may_follow`).
    fn may_follow(&mut self, card: usize, d: usize, ring_only: bool) -> bool {
        let plan = self.plan;
        let Some(t) = plan.priority.relation[d] else { return true };
        for &a in &plan.priority.onto[t][card] {
            if !ring_only && self.free[a] {
                return true;
            }
            if self.ring_cards[a] {
                let known = match self.chains.get(&(d, a)) {
                    Some(&known) => known,
                    None => {
                        self.chains.insert((d, a), true); // while asked (builds loop): maybe
                        let known = self.may_follow(a, d, false);
                        self.chains.insert((d, a), known);
                        known
                    }
                };
                if known {
                    return true;
                }
            }
        }
        false
    }

    /// The stock configuration of `s` (`Configs::meet`) met by a tap run: whether it was met
    /// before.
    fn config(&self, seen: &mut Configs, s: &State, k: usize, w: usize) -> bool {
        let recycles = if self.plan.key.recycles { s.recycles.get(k).copied().unwrap_or(0) } else { 0 };
        seen.meet(&s.piles[k], &s.piles[w], recycles)
    }

    /// Each move from the stock or its target after one or more taps, with those taps and
    /// `prefix` before them (only the moves onto `onto` when given): `GameProblem._tap_runs`
    /// over `tap_run`. A tap that changes another pile (automatic moves pending after the deal)
    /// ends the run, and the position it leads to is kept as an ordinary child.
    /// `top` is the position expanded, `s` the board the run starts from with its `same`
    /// against `top`. The taps are made in place on one board; a tap that changes another pile
    /// ends the run, so until then those piles are `s`'s.
    fn tap_runs<E: From<ExprError>>(&mut self, visit: &mut impl Visit<E>, top: &State, (s, s_same): (&State, &[bool]),
                                    moves: &[Move], onto: Option<usize>, prefix: &[Move]) -> Result<(), E> {
        let Some((k, w)) = self.plan.tap else { return Ok(()) };
        if !moves.iter().any(|m| is_tap(m, k)) {
            return Ok(());
        }
        let tap: Move = (k as i32, -1, -1, -1);
        let mut seen = std::mem::take(&mut self.configs);
        seen.clear();
        self.config(&mut seen, s, k, w);
        let mut taps = self.lines.pop().unwrap_or_default();
        taps.clear();
        taps.extend_from_slice(prefix);
        // from the position expanded, the taps are made on its own board (`self.kid`), given
        // back after the run the piles the taps changed, rather than on a copy of the position
        let on_kid = std::ptr::eq(s, top);
        let mut here = if on_kid { std::mem::take(&mut self.kid) } else { self.states.pop().unwrap_or_default() };
        if !on_kid {
            here.refill_from(s);
        }
        let mut run_same = self.mask();
        run_same.extend_from_slice(s_same);
        let ran = self.run_taps(visit, top, s, (&mut here, &mut run_same), &mut taps, &mut seen, onto, (k, w, tap));
        self.configs = seen;
        let failed = ran.is_err();
        let done = match ran {
            Ok(true) if onto.is_none() => {
                let last = if on_kid {
                    let mut last = self.states.pop().unwrap_or_default();
                    last.refill_from(&here);
                    last
                } else {
                    std::mem::take(&mut here)
                };
                self.visit_made(visit, taps, top, last, &run_same)
            }
            Ok(_) => {
                self.recycle_line(taps);
                Ok(())
            }
            Err(e) => Err(e),
        };
        if on_kid {
            if failed {
                here.refill_from(top); // a move cut short: what it touched is not known
            } else {
                here.restore(top, &run_same);
            }
            debug_assert!(here == *top, "a board given back is not its position");
            self.kid = here;
        } else if !here.piles.is_empty() {
            self.recycle_state(here);
        }
        self.masks.push(run_same);
        done
    }

    /// The taps of `tap_runs` on `here` (whose `same` against `top` is `here_same`, kept so
    /// tap after tap), and the children after each; whether the run ended on a tap that
    /// changed another pile (then `here` is the position it led to, a child when no `onto`).
    #[allow(clippy::too_many_arguments)]
    fn run_taps<E: From<ExprError>>(&mut self, visit: &mut impl Visit<E>, top: &State, s: &State,
                                    (here, here_same): (&mut State, &mut Vec<bool>), taps: &mut Vec<Move>,
                                    seen: &mut Configs, onto: Option<usize>, (k, w, tap): (usize, usize, Move))
                                    -> Result<bool, E> {
        loop {
            self.game.apply_in_place(here, tap, &mut self.scratch, true)?;
            self.untouched(here_same);
            taps.push(tap);
            let repeated = self.config(seen, here, k, w);
            // the earlier taps left the other piles as `s` has them: only one this tap touched
            // may differ
            let scratch = &self.scratch;
            if self.plan.untapped.iter().any(|&i| scratch.touched(i) && !same_cards(&here.piles[i], &s.piles[i])) {
                return Ok(true);
            }
            if repeated {
                break;
            }
            let mut after = self.listings.pop().unwrap_or_default();
            after.clear();
            self.game.list_moves_from(here, &self.tap_sources, &mut after)?;
            let mut played = false;
            for &m in &after {
                if m.1 != -1 && onto.is_none_or(|d| m.2 == d as i32) {
                    let line = self.line(taps, m);
                    self.child(visit, line, top, Some((here, here_same)), m)?;
                    played = true;
                }
            }
            let tappable = after.iter().any(|m| is_tap(m, k));
            self.listings.push(after);
            // a greedy try taps past no card it could play
            if !tappable || (played && self.ranker.w.greedy) {
                break;
            }
        }
        Ok(false)
    }
}

impl<'a> Ranker<'a> {
    fn new(plan: &'a Plan, w: Weights, noise: u64) -> Ranker<'a> {
        let mut others = vec![0; plan.depots];
        plan.priority.others.iter().for_each(|&d| others[d] += 1);
        let seeds = (0..plan.cards).filter(|&c| plan.priority.seed_cards[c]).collect();
        Ranker { plan, w, noise: (noise != 0).then_some(SplitMix(noise)), others, wanted: Wanted::default(),
                 kid_wanted: Wanted::default(), seeds, parts: Vec::new(), total: Parts::default(), home: 0.0,
                 empty: 0.0 }
    }

    /// `s` is the position whose children are ranked next: its counts, pile by pile.
    fn parent(&mut self, s: &State) {
        self.wanted.fill(self.plan, &self.seeds, s);
        let mut parts = std::mem::take(&mut self.parts);
        parts.clear();
        parts.extend(s.piles.iter().enumerate().map(|(d, pile)| self.pile_parts(d, pile, &self.wanted)));
        self.total = parts.iter().fold(Parts::default(), |t, &x| t.add(x));
        self.parts = parts;
        (self.home, self.empty) = self.home_and_empty(s);
    }

    /// Cards home (less those still in the depots the win empties) and empty depots of `s`.
    fn home_and_empty(&self, s: &State) -> (f32, f32) {
        let p = &self.plan.priority;
        let piles = &s.piles;
        let home = self.plan.win.iter().map(|&i| piles[i].len()).sum::<usize>() as f32
            - p.to_empty.iter().map(|&i| piles[i].len()).sum::<usize>() as f32;
        (home, p.open.iter().filter(|&&i| piles[i].is_empty()).count() as f32)
    }

    /// `parent` of `s`, made from a position whose counts are `near`, `same` as `Keyer::diff`
    /// gives it (or with more depots marked changed): the piles it keeps are counted as they
    /// were, unless a foundation changed, which changes the cards wanted and so every depth.
    fn parent_near(&mut self, near: &[Parts], s: &State, same: &[bool]) {
        if near.len() != s.piles.len() || !self.plan.priority.steps.iter().all(|&(d, _)| same[d]) {
            return self.parent(s);
        }
        self.wanted.fill(self.plan, &self.seeds, s);
        let mut parts = std::mem::take(&mut self.parts);
        parts.clear();
        parts.extend(s.piles.iter().enumerate().map(|(d, pile)| {
            if same[d] { near[d] } else { self.pile_parts(d, pile, &self.wanted) }
        }));
        debug_assert!(
            parts.iter().enumerate().all(|(d, &x)| x == self.pile_parts(d, &s.piles[d], &self.wanted)),
            "a pile marked kept counts otherwise"
        );
        self.total = parts.iter().fold(Parts::default(), |t, &x| t.add(x));
        self.parts = parts;
        (self.home, self.empty) = self.home_and_empty(s);
    }

    /// Depot `d`'s share of the counts, holding `pile`, with `wanted` the cards whose depth counts.
    fn pile_parts(&self, d: usize, pile: &[i32], wanted: &Wanted) -> Parts {
        let p = &self.plan.priority;
        let mut x = Parts::default();
        let times = self.others[d];
        if times > 0 {
            x.down = (times * pile.iter().filter(|&&c| c & 1 == 0).count()) as Count;
            if p.steps.is_empty() {
                x.balance = (times * pile.len() * pile.len()) as Count;
            } else {
                x.depth = (times * wanted.depth(pile)) as Count;
            }
        }
        if let Some(t) = p.relation[d] {
            x.disorder = pairs(pile, &p.tables[t], self.plan.cards, false) as Count;
        }
        // counted only when the order weighs it or its try is greedy: the others pay nothing
        if let Some(t) = p.stuck[d].filter(|_| self.w.stuck != 0.0 || self.w.greedy) {
            x.stuck = pairs(pile, &p.stuck_tables[t], self.plan.cards, true) as Count;
        }
        x
    }

    /// `GameProblem.priority` of `s`, a child of the position last given to `parent` (`same`
    /// as `Keyer::diff` gives it): cards home, how deep the next cards for home lie, face-down
    /// cards, room and order; noise on top when the try has some.
    pub fn priority(&mut self, s: &State, same: &[bool]) -> f32 {
        let (home, empty, c) = self.counts(s, same);
        let w = &self.w;
        let value = w.home * home - w.face_down * c.down as f32 + w.empty * empty - w.depth * c.depth as f32
            - w.disorder * c.disorder as f32 - w.balance * c.balance as f32 - w.stuck * c.stuck as f32;
        match &mut self.noise {
            Some(rng) => value + self.plan.tries.noise * ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32),
            None => value,
        }
    }

    /// Whether `s`, a child of the position last given to `parent`, makes progress as a greedy
    /// try asks (`GameProblem.progress`): a card more home, a card turned up, a depot emptied,
    /// a card fewer out of sequence or stuck. (A line that plays the stock is asked before.)
    fn progress(&mut self, s: &State, same: &[bool]) -> bool {
        let (home, empty, c) = self.counts(s, same);
        let t = self.total;
        home > self.home || c.down < t.down || empty > self.empty || c.disorder < t.disorder || c.stuck < t.stuck
    }

    /// The counts of `s`, a child of the position last given to `parent` (`same` as
    /// `Keyer::diff` gives it): cards home, empty depots, and the sums over piles.
    fn counts(&mut self, s: &State, same: &[bool]) -> (f32, f32, Parts) {
        let p = &self.plan.priority;
        let piles = &s.piles;
        let (home, empty) = self.home_and_empty(s);
        // a changed foundation changes which cards are wanted, and so every pile's depth
        let steps_same = p.steps.iter().all(|&(d, _)| same[d]);
        let mut kid_wanted = std::mem::take(&mut self.kid_wanted);
        let wanted = if steps_same {
            &self.wanted
        } else {
            kid_wanted.fill(self.plan, &self.seeds, s);
            &kid_wanted
        };
        let mut c = if steps_same { self.total } else { Parts { depth: 0, ..self.total } };
        for (d, pile) in piles.iter().enumerate() {
            if !same[d] {
                let old = Parts { depth: if steps_same { self.parts[d].depth } else { 0 }, ..self.parts[d] };
                c = c.sub(old).add(self.pile_parts(d, pile, wanted));
            } else if !steps_same {
                c.depth += (self.others[d] * wanted.depth(pile)) as Count;
            }
        }
        self.kid_wanted = kid_wanted;
        (home, empty, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan of four cards and two building depots, both with the relation that puts card 1 or
    /// 2 on card 0 and card 0 on card 3; of those pairs, 0 then 2 and 3 then 0 would not move
    /// together (depot 0 only: depot 1's rule lifts every sequence). `orders` its weight sets.
    fn four_cards(orders: &str) -> Result<Plan, crate::solver::plan::BadPlan> {
        let relation = r#"[[1, 2], [], [], [0]]"#;
        Plan::from_json(&format!(
            r#"{{"depots": 2, "cards": 4, "stocks": [], "tap": null, "untapped": [0, 1], "safe": null,
                "lazy": false, "streamline": false, "win": [],
                "key": {{"singles": [0, 1], "classes": [], "sinks": [], "code_map": null, "cycle": null,
                         "recycles": false, "redeals": false, "moves": false, "came_from": false}},
                "priority": {{"to_empty": [], "others": [], "open": [0, 1], "tables": [{relation}],
                              "fits": [[0, 0], [1, 0]], "stuck_tables": [[[2], [], [], [0]]],
                              "stuck": [[0, 0]], "steps": [], "seed_cards": []}},
                "tries": {{"orderings": {orders}, "face_down": [], "noise": 0, "share": 20,
                           "min_states": 500}}}}"#
        ))
    }

    #[test]
    fn stuck_counts_cards_in_sequence_that_would_not_move_with_the_card_below() {
        let plan = four_cards("[[0, 0, 0, 0, 1, 0, 1]]").unwrap();
        let w = plan.tries.orderings[0];
        assert_eq!((w.disorder, w.stuck), (1.0, 1.0));
        let mut ranker = Ranker::new(&plan, w, 0);
        let wanted = Wanted::default();
        let up = |c: i32| c << 1 | 1;
        // 3, 0, 2 face up: both pairs fit the building rule, neither moves together
        let both = ranker.pile_parts(0, &[up(3), up(0), up(2)], &wanted);
        assert_eq!((both.stuck, both.disorder), (2, 0));
        // 3, 0, 1: 0 then 1 moves together; 1 then 3 does not fit at all (disorder, not stuck)
        let one = ranker.pile_parts(0, &[up(3), up(0), up(1), up(3)], &wanted);
        assert_eq!((one.stuck, one.disorder), (1, 1));
        // a face-down card below counts nothing; depot 1 lifts every sequence
        assert_eq!(ranker.pile_parts(0, &[0, up(2)], &wanted).stuck, 0);
        assert_eq!(ranker.pile_parts(1, &[up(3), up(0), up(2)], &wanted).stuck, 0);
        let s = State { piles: vec![vec![up(3), up(0), up(2)], vec![up(1), up(3)]], ..State::default() };
        ranker.parent(&s);
        // weights 1 and 1: two stuck cards on depot 0, one out of sequence on depot 1
        assert_eq!(ranker.priority(&s, &[true, true]), -3.0);
    }

    #[test]
    fn six_weights_are_an_order_without_stuck_and_the_term_is_then_not_counted() {
        let plan = four_cards("[[0, 0, 0, 0, 1, 0]]").unwrap();
        let w = plan.tries.orderings[0];
        assert_eq!(w.stuck, 0.0);
        let ranker = Ranker::new(&plan, w, 0);
        assert_eq!(ranker.pile_parts(0, &[7, 1, 5], &Wanted::default()).stuck, 0);
        let why = four_cards("[[0, 0, 0, 0, 1]]").unwrap_err();
        assert_eq!(why.0, "'orderings' holds a weight set not of six to eight");
        assert!(four_cards("[[0, 0, 0, 0, 1, 0, 0, 0, 0]]").is_err());
    }

    #[test]
    fn a_greedy_try_counts_stuck_cards_and_keeps_only_children_that_make_progress() {
        let plan = four_cards("[[0, 0, 0, 0, 1, 0, 0, 1]]").unwrap();
        let w = plan.tries.orderings[0];
        assert!(w.greedy && w.stuck == 0.0);
        let mut ranker = Ranker::new(&plan, w, 0);
        let up = |c: i32| c << 1 | 1;
        let board = |a: Vec<i32>, b: Vec<i32>| State { piles: vec![a, b], ..State::default() };
        // 3 then 0 is stuck on depot 0 (counted although the order does not weigh it); 2 lies
        // face down on depot 1, so nothing lies on a face-up card there
        let parent = board(vec![up(3), up(0)], vec![2]);
        ranker.parent(&parent);
        assert_eq!(ranker.total.stuck, 1);
        let changed = [false, false];
        // the same counts: no progress, so the child is not searched
        assert!(!ranker.progress(&board(vec![up(3), up(0)], vec![2]), &changed));
        assert!(!passes(&mut ranker, &plan, &[(0, 1, 1, -1)], &board(vec![up(3), up(0)], vec![2]), &changed));
        // a card fewer stuck, a depot emptied: progress (this plan counts no face-down card)
        assert!(ranker.progress(&board(vec![up(3)], vec![2, up(0)]), &changed));
        assert!(ranker.progress(&board(vec![], vec![2, up(3), up(0)]), &changed));
        // a tap is always searched
        assert!(passes(&mut ranker, &plan, &[(0, -1, -1, -1)], &board(vec![up(3), up(0)], vec![2]), &changed));
        // and outside a greedy try every child is
        let exact = four_cards("[[0, 0, 0, 0, 1, 0, 0, 0]]").unwrap();
        let mut plain = Ranker::new(&exact, exact.tries.orderings[0], 0);
        plain.parent(&parent);
        assert!(passes(&mut plain, &exact, &[(0, 1, 1, -1)], &board(vec![up(3), up(0)], vec![2]), &changed));
    }

    #[test]
    fn a_board_given_back_is_its_parent_again() {
        let parent = State { piles: vec![vec![2, 5], vec![7], vec![], vec![9, 11]], declared: vec![-1, 2, -1, -1],
                             came_from: vec![-1; 4], ..State::default() };
        let mut kid = parent.clone();
        // a card from depot 0 to depot 2, depot 1's call forgotten, counters moved on
        kid.piles[0].pop();
        kid.piles[2].push(5);
        kid.declared[1] = -1;
        kid.came_from[2] = 0;
        (kid.moves, kid.status, kid.rng) = (1, 1, 7);
        let mut same = Vec::new();
        Keyer::diff(&parent, &kid, &mut same);
        assert_eq!(same, vec![false, false, false, true]);
        kid.restore(&parent, &same);
        assert_eq!(kid, parent);
    }
}
