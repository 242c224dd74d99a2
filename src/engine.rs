//! The rules of a compiled game, executed natively: legal moves, apply (card moves, draws and
//! recycles, landings, automatic flips, the `Staged` limit) and status. The Python engine
//! (`cardz_core/engine/`) is the reference; every function here follows the one it names.
//! Nothing here knows a vocabulary word: only the compiled tables and the plan's facts.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::Value;

use crate::expr::{ExprError, ExprId, Exprs, Known, Scope};
use settle::{Rules, Tap};

mod checked;
mod deal;
mod reorder;
mod settle;
mod steps;
mod view;

pub use view::{Caps, Chance, Counts, Cut, Deck, Listing, Outcome, Pick, Played, Pools, Ratio, ViewError};

pub const PLAYING: i32 = 0;
pub const WON: i32 = 1;
pub const LOST: i32 = 2;

/// A card code: `card id << 1 | face`, face 1 up; a view's unknown card is negative (`view.rs`).
pub type Code = i32;
pub type Pile = Vec<Code>;

/// A move as the Python engine's `Move`: (src, index, dst, declare); a tap has index -1, dst -1.
pub type Move = (i32, i32, i32, i32);

/// A printed identity: rank 1..13 (0 a joker), suit 0..3 (-1 a joker).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Card {
    pub rank: i32,
    pub suit: i32,
}

impl Card {
    fn joker(self) -> bool {
        self.rank == 0
    }
}

const SUIT_RED: [bool; 4] = [false, true, true, false]; // Clubs, Diamonds, Hearts, Spades

#[derive(Clone, Copy, Debug, PartialEq)]
enum Dir {
    Up,
    Down,
    Either,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum SuitRule {
    Any,
    Same,
    AlternateColor,
    SameColor,
}

/// `cardz_core.engine.relations.relation`: how a card relates to the one beneath it.
#[derive(Clone, Debug)]
struct Relation {
    build: Option<(Dir, i32, bool)>, // direction, step, wrap
    suit: SuitRule,
    follow: bool,
}

impl Relation {
    /// None when it reads nothing about the cards (then everything fits, jokers too).
    fn new(build: Option<(Dir, i32, bool)>, suit: SuitRule, follow: bool) -> Option<Relation> {
        if build.is_none() && suit == SuitRule::Any && !follow {
            return None;
        }
        Some(Relation { build, suit, follow })
    }

    fn fits(&self, below: Card, card: Card) -> bool {
        if below.joker() || card.joker() {
            return false;
        }
        if self.follow && below.rank != card.rank && below.suit != card.suit {
            return false;
        }
        if let Some((dir, step, wrap)) = self.build {
            let (b, r) = (below.rank, card.rank);
            let up = if wrap { r == (b - 1 + step).rem_euclid(13) + 1 } else { r == b + step };
            let down = if wrap { r == (b - 1 - step).rem_euclid(13) + 1 } else { r == b - step };
            let ok = match dir {
                Dir::Up => up,
                Dir::Down => down,
                Dir::Either => up || down,
            };
            if !ok {
                return false;
            }
        }
        let (b, s) = (below.suit as usize, card.suit as usize);
        match self.suit {
            SuitRule::Any => true,
            SuitRule::Same => b == s,
            SuitRule::AlternateColor => SUIT_RED[b] != SUIT_RED[s],
            SuitRule::SameColor => SUIT_RED[b] == SUIT_RED[s],
        }
    }
}

/// What may follow on a pile (`accept.py`'s `Below`): the empty depot (where the seed
/// decides), a printed card, a face-down card, anything, a called suit, or a transparent wild
/// read as any of a set of the 52 standard identities (bit `suit * 13 + rank - 1`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Below {
    Bare,
    Card(Card),
    Down,
    Free,
    Suit(i32),
    Set(u64),
}

/// `accept.py`'s `IDENTITIES`: the 52 standard cards, suit by suit, as a transparent wild
/// stands for them.
fn identity(bit: u32) -> Card {
    Card { rank: (bit % 13) as i32 + 1, suit: (bit / 13) as i32 }
}

/// What a wild card declares once it lies (`wildDeclares`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Declares {
    Nothing,
    Free,
    Suit,
    Transparent,
}

/// One depot's `acceptRule` (`cardz_core.engine.accept.Accept`).
#[derive(Debug)]
struct Accept {
    none: bool,
    empty_only: bool,
    single: bool,
    min_count: usize,
    from: Option<Vec<usize>>,
    seed: Option<i32>,
    seed_none: bool,
    seed_from_deal: bool,
    rank_is: Option<i32>,
    rel: Option<Relation>,
    wild_rank: Option<i32>,
    wild_joker: bool,
    declares: Declares, // Nothing when there is no wild card
    allow_down: bool,
    when: Option<ExprId>,
    // the hot-path tables (`Accept.on_top`, `on_down`): by card id, whether a face-up card
    // may lie on a face-up top card (`[top * n_cards + card]`) or on a face-down one; a
    // `dynamic` top (a wild whose meaning depends on the board) is judged in full instead
    on_top: Vec<bool>,
    on_down: Vec<bool>,
    dynamic: Vec<bool>,
    // the same tables inverted, for the move listing: the card ids each top card (each
    // `wanted[wanted_at[top]..wanted_at[top + 1]]`), a face-down top and the empty pile (seed
    // rank 0) take
    wanted: Vec<u32>,
    wanted_at: Vec<usize>,
    down_wanted: Vec<u32>,
    empty_wanted: Vec<u32>,
}

impl Accept {
    fn wild(&self, card: Card) -> bool {
        (self.wild_joker && card.joker()) || self.wild_rank == Some(card.rank)
    }

    fn rank_ok(&self, card: Card) -> bool {
        self.rank_is.is_none_or(|r| card.rank == r)
    }

    fn printed(&self, below: Card, card: Card) -> bool {
        self.rank_ok(card) && self.rel.as_ref().is_none_or(|r| r.fits(below, card))
    }

    fn seed_ok(&self, card: Card, seed_rank: i32) -> bool {
        if self.seed_none {
            return false;
        }
        if self.seed_from_deal {
            if seed_rank == 0 || card.rank != seed_rank {
                return false;
            }
        } else if self.seed.is_some_and(|s| card.rank != s) {
            return false;
        }
        self.wild(card) || self.rank_ok(card)
    }

    fn fits(&self, below: Below, card: Card, seed_rank: i32) -> bool {
        match below {
            Below::Bare => self.seed_ok(card, seed_rank),
            _ if self.wild(card) => true,
            Below::Card(b) => self.printed(b, card),
            Below::Free => self.rank_ok(card),
            Below::Down => self.rel.is_none() && self.rank_ok(card),
            Below::Suit(s) => self.rank_ok(card) && !card.joker() && card.suit == s,
            Below::Set(set) => (0..52).any(|bit| set >> bit & 1 == 1 && self.printed(identity(bit), card)),
        }
    }

    /// `Accept.fits_down`: a face-down card lies here only with `allowFaceDown` (the
    /// reference), and not on an empty depot that `seedNone` or a missing dealt seed closes.
    fn fits_down(&self, below: Below, seed_rank: i32) -> bool {
        if !self.allow_down {
            return false;
        }
        below != Below::Bare || !(self.seed_none || (self.seed_from_deal && seed_rank == 0))
    }

    /// What follows once the face-up `card` lies on `below`; `declare` the suit it calls (-1 none).
    fn after(&self, below: Below, card: Card, declare: i32, seed_rank: i32) -> Below {
        if self.declares == Declares::Nothing || !self.wild(card) {
            return Below::Card(card);
        }
        match self.declares {
            Declares::Free => Below::Free,
            Declares::Suit if declare >= 0 => Below::Suit(declare),
            Declares::Transparent => {
                Below::Set((0..52).filter(|&bit| self.fits(below, identity(bit), seed_rank)).fold(0, |m, bit| m | 1 << bit))
            }
            _ => Below::Card(card),
        }
    }

    /// Whether `card` is a wild whose meaning depends on the board (`Accept.dynamic`).
    fn is_dynamic(&self, card: Card) -> bool {
        matches!(self.declares, Declares::Suit | Declares::Transparent) && self.wild(card)
    }

    /// The tables alone judge every card of a group (`Accept.fast`).
    fn fast(&self) -> bool {
        self.when.is_none() && !matches!(self.declares, Declares::Suit | Declares::Transparent)
    }

    /// A single face-up card is decided by the tables alone (`Accept.simple`).
    fn simple(&self) -> bool {
        self.when.is_none() && self.min_count <= 1
    }

    fn fill_tables(&mut self, ident: &[Card]) {
        self.dynamic = ident.iter().map(|&c| self.is_dynamic(c)).collect();
        self.on_top = ident
            .iter()
            .flat_map(|&top| ident.iter().map(move |&card| (top, card)))
            .map(|(top, card)| !self.is_dynamic(top) && self.fits(self.after(Below::Bare, top, -1, 0), card, 0))
            .collect();
        self.on_down = ident.iter().map(|&card| self.fits(Below::Down, card, 0)).collect();
        self.empty_wanted = ident.iter().enumerate().filter(|(_, &c)| self.seed_ok(c, 0)).map(|(i, _)| i as u32).collect();
        self.invert(ident.len());
    }

    /// `wanted` and `down_wanted`: `on_top` and `on_down` inverted, for the move listing.
    fn invert(&mut self, n: usize) {
        let ids = |row: &[bool]| (0..row.len() as u32).filter(|&c| row[c as usize]).collect::<Vec<u32>>();
        self.wanted.clear();
        self.wanted_at = vec![0];
        for top in 0..n {
            let row = ids(&self.on_top[top * n..(top + 1) * n]);
            self.wanted.extend(row);
            self.wanted_at.push(self.wanted.len());
        }
        self.down_wanted = ids(&self.on_down);
    }

    /// `on_top` and `empty_wanted` without the face-up cards that the `when` of depot `d`
    /// refuses for every board, on a top card (`card.rank == top.rank`, `card.value +
    /// top.value == 13`) or on the empty pile (a gap at a row's start takes only a Two): only
    /// real candidates are listed for the full test.
    fn prune_by_when(&mut self, d: usize, exprs: &Exprs, n: usize) {
        let Some(decider) = self.when.and_then(|id| exprs.decider(id, Known { source: false, cards: true })) else {
            return;
        };
        self.empty_wanted.retain(|&card| {
            let scope = Scope { card: Some((card as Code) << 1 | 1), top: None, depot: d as i32, ..Scope::default() };
            decider.decide(&scope) != Some(false)
        });
        let mut pruned = false;
        for top in 0..n {
            for card in 0..n {
                let at = top * n + card;
                let (top_code, card_code) = ((top as Code) << 1 | 1, (card as Code) << 1 | 1);
                let scope = Scope { card: Some(card_code), top: Some(top_code), depot: d as i32, ..Scope::default() };
                if self.on_top[at] && decider.decide(&scope) == Some(false) {
                    self.on_top[at] = false;
                    pruned = true;
                }
            }
        }
        if pruned {
            self.invert(n);
        }
    }

    fn takes_from(&self, src: usize) -> bool {
        self.from.as_ref().is_none_or(|f| f.contains(&src))
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Gate {
    Any,
    FaceUp,
    TopOnly,
    Locked,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Unit {
    Cards, // no unit: the picked card and all above, each judged by the target
    Single,
    Any,
    Run,
    Pile,
}

/// One depot's `ejectRule` and `uncoveredBy` (`cardz_core.engine.eject.Eject`).
#[derive(Debug)]
struct Eject {
    gate: Gate,
    unit: Unit,
    covered_by: Vec<usize>,
    cover_any: bool,
    run: Option<Relation>,
    loose: bool, // a looseOrder fan: its cards may be moved along it (`reorder.rs`)
}

impl Eject {
    fn vouched(&self) -> bool {
        self.unit != Unit::Cards
    }

    fn covered(&self, piles: &[Pile]) -> bool {
        if self.covered_by.is_empty() {
            return false;
        }
        if self.cover_any {
            self.covered_by.iter().all(|&c| !piles[c].is_empty())
        } else {
            self.covered_by.iter().any(|&c| !piles[c].is_empty())
        }
    }

    fn run_start(&self, pile: &[Code], ident: &[Card]) -> usize {
        let mut i = pile.len() - 1;
        while i > 0 {
            let (below, above) = (pile[i - 1], pile[i]);
            let fits = below & 1 == 1
                && above & 1 == 1
                && self.run.as_ref().is_none_or(|r| r.fits(ident[(below >> 1) as usize], ident[(above >> 1) as usize]));
            if !fits {
                break;
            }
            i -= 1;
        }
        i
    }

    /// `Eject.picks` without a list: (the lowest position, face-up cards only, the first
    /// allowed position only); None when nothing may be picked up.
    fn pick_span(&self, piles: &[Pile], pile: &[Code], ident: &[Card]) -> Option<(usize, bool, bool)> {
        let n = pile.len();
        if n == 0 || self.gate == Gate::Locked || self.covered(piles) {
            return None;
        }
        let mut low = if self.gate == Gate::TopOnly { n - 1 } else { 0 };
        if self.unit == Unit::Run {
            low = low.max(self.run_start(pile, ident));
        }
        Some((low, self.gate == Gate::FaceUp, self.unit == Unit::Pile))
    }

    /// Whether the group picked at a position is the card there and all above it (`group`).
    fn takes_tail(&self) -> bool {
        !matches!(self.unit, Unit::Single | Unit::Pile)
    }

    /// The group that leaves when the card at `index` is picked, bottom first.
    fn group<'a>(&self, pile: &'a [Code], index: usize) -> &'a [Code] {
        match self.unit {
            Unit::Single => std::slice::from_ref(&pile[index]),
            Unit::Pile => pile,
            _ => &pile[index..],
        }
    }

    /// Move the group picked at `index` from `pile` into `hand` (bottom first), in place.
    fn take(&self, pile: &mut Pile, index: usize, hand: &mut Pile) {
        match self.unit {
            Unit::Single => hand.push(pile.remove(index)),
            Unit::Pile => hand.append(pile),
            _ => hand.extend(pile.drain(index..)),
        }
    }
}

#[derive(Debug)]
struct Draw {
    to: usize,
    count: i64,
    recycle: bool,
    max_recycles: Option<i64>,
    when: Option<ExprId>,
}

/// A position as the native engine plays it: every field of the Python engine's `State`
/// (`cardz_core/engine/state.py`) but a view's `pools` and the printing-only `cards`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct State {
    pub piles: Vec<Pile>,
    pub came_from: Vec<i32>,
    pub recycles: Vec<i64>, // empty: none used yet (as the Python engine keeps it)
    pub redeals: i64,
    pub moves: i64,
    pub undos: i64,
    pub recycles_total: i64,
    pub seed_rank: i32,
    pub declared: Vec<i32>,
    pub rules_off: bool,
    pub auto_moved: bool,
    pub status: i32,
    pub rng: u64,
}

impl State {
    /// `*self = s.clone()`, in this position's own buffers.
    pub(crate) fn refill_from(&mut self, s: &State) {
        let State { piles, came_from, recycles, redeals, moves, undos, recycles_total, seed_rank, declared,
                    rules_off, auto_moved, status, rng } = s;
        self.piles.clone_from(piles);
        self.came_from.clone_from(came_from);
        self.recycles.clone_from(recycles);
        self.declared.clone_from(declared);
        (self.redeals, self.moves, self.undos, self.recycles_total) = (*redeals, *moves, *undos, *recycles_total);
        (self.seed_rank, self.rules_off, self.auto_moved, self.status, self.rng) =
            (*seed_rank, *rules_off, *auto_moved, *status, *rng);
    }
}

/// The buffers a board being changed needs besides its position, kept from move to move by a
/// caller that makes many (`Game::apply_in_place`).
#[derive(Default)]
pub struct Scratch {
    left: Vec<bool>,
    hand: Pile,
    touched: u64,
}

impl Scratch {
    fn keep(&mut self, w: Work<'_>) {
        (self.left, self.hand, self.touched) = (w.left, w.hand, w.touched);
    }

    /// Whether the last move made with these buffers (`Game::apply_in_place`) may have changed
    /// depot `d`'s pile or called suit: a depot it did not touch holds what it held before.
    pub(crate) fn touched(&self, d: usize) -> bool {
        self.touched >> d.min(63) & 1 == 1
    }
}

/// The board being changed (`cardz_core.engine.work.Work`), in place: `apply` works on a
/// copy of the position, a playout on its own position move after move, a search on the
/// boards it keeps (`Game::apply_in_place`): the position is lent, never moved.
struct Work<'s> {
    s: &'s mut State,
    left: Vec<bool>,
    flips: u32,
    hand: Pile, // the cards in flight, kept for its capacity
    chance: Option<Box<Chance>>, // what turns up a view's unknown cards (`view.rs`)
    unknown: Option<usize>,      // the pool of the first unknown card met with no chance
    // `clock` counts the changes to the piles and `came_from`s (`mark`); per depot, the
    // `clock` of the last change to its pile or `came_from` (empty until a
    // trigger's `when` is first kept, `settle.rs`), and per trigger the `clock` at which its
    // `when` last gave false (0: not kept): a trigger whose piles have not changed since
    // gives false again
    stamps: Vec<u64>,
    clock: u64,
    unheld: Vec<u64>,
    touched: u64, // bit d: depot d's pile or called suit may have changed (bit 63: any from 63 up)
}

impl<'s> Work<'s> {
    fn on(s: &'s mut State) -> Work<'s> {
        Work::reusing(s, &mut Scratch::default())
    }

    /// `on` with the scratch's buffers (handed back by `Scratch::keep`).
    fn reusing(s: &'s mut State, scratch: &mut Scratch) -> Work<'s> {
        let n = s.piles.len();
        if s.came_from.is_empty() {
            s.came_from = vec![-1; n];
        }
        if s.declared.is_empty() {
            s.declared = vec![-1; n];
        }
        let mut left = std::mem::take(&mut scratch.left);
        left.clear();
        left.resize(n, false);
        Work { s, left, flips: 0, hand: std::mem::take(&mut scratch.hand), chance: None, unknown: None,
               stamps: Vec::new(), clock: 0, unheld: Vec::new(), touched: 0 }
    }

    /// Depot `d`'s pile or `came_from` changes (every change to either comes through here):
    /// stamped for the triggers kept, noted as touched for the solver.
    fn mark(&mut self, d: usize) {
        self.clock += 1;
        if let Some(stamp) = self.stamps.get_mut(d) {
            *stamp = self.clock;
        }
        self.touch(d);
    }

    fn up(&mut self, c: Code) -> Code {
        if c & 1 == 0 {
            self.flips += 1;
        }
        if c < 0 {
            return self.reveal(c);
        }
        c | 1
    }

    /// `set_pile`'s bookkeeping after depot `d`'s pile changed in place from `old_len` cards
    /// with `old_top` on top: a shorter pile lost cards, a changed top forgets its called suit.
    fn changed(&mut self, d: usize, old_len: usize, old_top: Option<Code>) {
        self.mark(d);
        let pile = &self.s.piles[d];
        if pile.len() < old_len {
            self.left[d] = true;
        }
        if pile.is_empty() || old_len == 0 || pile.last().copied() != old_top {
            self.s.declared[d] = -1;
            if pile.is_empty() {
                self.s.came_from[d] = -1;
            }
        }
    }

    /// Depot `d`'s pile or called suit is being changed (`Scratch::touched`).
    fn touch(&mut self, d: usize) {
        self.touched |= 1 << d.min(63);
    }

    fn take_top(&mut self, d: usize) -> Option<Code> {
        let pile = &mut self.s.piles[d];
        let (len, top) = (pile.len(), pile.last().copied());
        let card = pile.pop()?;
        self.changed(d, len, top);
        self.s.came_from[d] = -1;
        Some(card)
    }

    fn put(&mut self, d: usize, cards: &[Code], src: i32, under: bool) {
        if cards.is_empty() {
            return;
        }
        let pile = &mut self.s.piles[d];
        let (len, top) = (pile.len(), pile.last().copied());
        if under {
            pile.splice(0..0, cards.iter().copied());
            self.changed(d, len, top);
            if len == 0 {
                self.s.came_from[d] = src;
            }
        } else {
            pile.extend_from_slice(cards);
            self.changed(d, len, top);
            self.s.came_from[d] = src;
        }
    }

    /// `count` times `take_top` of `src` and `put` of the card, turned up, on top of `to`
    /// (another depot), in one pass (`hand` a buffer): the same board, called suits and
    /// origins, each changed pile marked once (stamps are compared, never counted).
    fn draw(&mut self, src: usize, to: usize, count: usize, hand: &mut Pile) {
        let pile = &mut self.s.piles[src];
        let len = pile.len();
        let n = count.min(len);
        if n == 0 {
            return;
        }
        // a take forgets the stock's called suit when it changes the top or empties the pile
        let src_top_moved = n == len || pile[len - n - 1..].windows(2).any(|p| p[0] != p[1]);
        hand.clear();
        hand.extend(pile.drain(len - n..).rev());
        self.mark(src);
        self.left[src] = true;
        self.s.came_from[src] = -1;
        if src_top_moved {
            self.s.declared[src] = -1;
        }
        hand.iter_mut().for_each(|c| *c = self.up(*c));
        let target = &mut self.s.piles[to];
        let old_top = target.last().copied();
        target.extend_from_slice(hand);
        // a put forgets the target's called suit when it changes the top (or the pile was empty)
        if old_top != Some(hand[0]) || hand.windows(2).any(|p| p[0] != p[1]) {
            self.s.declared[to] = -1;
        }
        self.mark(to);
        self.s.came_from[to] = src as i32;
    }

    fn flip_top(&mut self, d: usize) {
        let Some(&top) = self.s.piles[d].last() else { return };
        if top & 1 == 0 {
            let up = self.up(top);
            let len = self.s.piles[d].len();
            *self.s.piles[d].last_mut().expect("a top card") = up;
            self.changed(d, len, Some(top));
        }
    }
}

/// Why a position can't be played here: unknown cards (a view's), or not one of this game.
#[derive(Debug, PartialEq)]
pub enum BadState {
    Unknown,
    Shape(String),
}

/// Why a compiled game can't be played natively.
#[derive(Debug, PartialEq)]
pub struct Unsupported(pub String);

fn unsupported<T>(what: impl Into<String>) -> Result<T, Unsupported> {
    Err(Unsupported(what.into()))
}

/// Accept tables larger than this are tested per pick rather than inverted (`_BROAD`).
const BROAD: usize = 12;

/// The move listing's working tables (`MoveGen._wanted`): per card id, a bit per drop target
/// (by its place in `drop_targets`) that takes the card now, `words` words per card; the
/// targets judged per pick instead (`broad`). What a target takes depends on its top card
/// alone (`key`: its code, -1 empty), so only the targets whose top changed since the last
/// listing are looked at again. Kept per thread, for the game that listed last (`game`).
#[derive(Default)]
struct Wanted {
    game: u64,
    want: Vec<u64>,
    broad: Vec<u64>,
    keys: Vec<i64>,
    whens: Whens,
}

/// The listing's accept `when` results kept from one listing to the next, per target whose
/// `when` has a footprint (`Game::when_reads`): the piles it reads as they were (`piles`, each
/// pile's length then its cards) and per bound card code (and source, when the `when` reads
/// it) what the `when` gave there, `TAKEN` or not, under the target's generation (`gens`). A
/// target's results are dropped, its generation moved on, as soon as one of its piles
/// differs: the piles, the card and the source decide what a `when` with a footprint gives
/// (the bound group is never in one).
#[derive(Default)]
struct Whens {
    piles: Vec<Vec<Code>>,
    results: Vec<Vec<u16>>, // generation << 1 | taken; generation 0: nothing kept
    gens: Vec<u16>,
    codes: usize, // card codes per source in `results`
}

const TAKEN: u16 = 1;
/// Past this generation a target's results are cleared and its generations start again.
const LAST_GEN: u16 = u16::MAX >> 1;

impl Whens {
    /// The `when` `id` of target `d` on `s` in `scope`, from the results kept when it has them.
    fn test(&mut self, exprs: &Exprs, id: ExprId, s: &State, scope: &Scope, d: usize) -> Result<bool, ExprError> {
        let (codes, gen) = (self.codes, self.gens.get(d).copied().unwrap_or(0));
        let kept = self.results.get_mut(d).zip(scope.card).and_then(|(r, c)| {
            let c = usize::try_from(c).ok().filter(|&c| c < codes)?;
            // a `when` that does not read the source keeps one row, for every source
            let src = if r.len() > codes { usize::try_from(scope.source).ok()? } else { 0 };
            r.get_mut(src * codes + c)
        });
        let Some(kept) = kept else { return exprs.test(id, s, scope) };
        if *kept >> 1 != gen {
            *kept = gen << 1 | u16::from(exprs.test(id, s, scope)?);
        }
        Ok(*kept & TAKEN != 0)
    }
}

/// Some depots of a game (`Game::sources_from`): themselves, and those of them that are
/// sources of card moves, in the listing's order.
pub(crate) struct SourcesFrom {
    from: Vec<usize>,
    sources: Vec<usize>,
}

/// A key no pile has: the target not filled in yet.
const UNSEEN: i64 = i64::MIN;

/// What a target takes with a given top card: listed cards, cards judged per pick, nothing.
enum Takes<'a> {
    Cards(&'a [u32]),
    Broad,
    Nothing,
}

/// The empty cells and empty tableau piles of a position (`Game::room`).
#[derive(Clone, Copy)]
struct Room {
    cells: usize,
    cols: usize,
}

/// A staged move's largest group with `cells` empty cells and `cols` empty tableau piles:
/// (cells + 1) doubled for each such pile.
fn staged_cap(cells: usize, cols: usize) -> usize {
    1usize.checked_shl(cols as u32).map_or(usize::MAX, |p| p.saturating_mul(1 + cells))
}

/// Each loaded game's `Game::id`, so that a scratch is never read for another game.
static GAMES_LOADED: AtomicU64 = AtomicU64::new(1);

thread_local! {
    static WANTED: RefCell<Wanted> = RefCell::new(Wanted::default());
}

/// One compiled game with its plan, ready to play.
#[derive(Debug)]
pub struct Game {
    id: u64,
    n: usize,
    ident: Vec<Card>,
    accepts: Vec<Accept>,
    ejects: Vec<Eject>,
    draws: Vec<Option<Draw>>,
    land_face: Vec<i64>,
    land_under: Vec<bool>,
    any_land_under: bool,
    auto_flip_top: Vec<bool>,
    // from the plan: the Python engine's own index tables, so both list in the same order
    sources: Vec<usize>,
    drop_targets: Vec<usize>,
    down_targets: Vec<usize>,
    tappable: Vec<usize>,
    flip_uncovered: Vec<usize>,
    cells: Vec<usize>,
    tableaus: Vec<usize>,
    reorders: Vec<usize>, // the loose fans whose reorders are listed (`reorder.rs`)
    staged: bool,
    win: Option<Cond>,
    loss: Option<Cond>,
    score: Scoring,
    // what settles a move and the taps that run steps (`settle.rs`)
    rules: Rules,
    exprs: Exprs,
    // the pack groups the deal shuffles (`deal.rs`), None when the Python engine deals
    pack_groups: Option<Vec<(usize, Vec<Code>)>>,
    // per source, a bit per drop target (as `Wanted`'s words) it may drop on at all: not
    // itself, allowed by `accept_from`, and not refused for every board by the accept `when`
    open_from: Vec<u64>,
    // per depot, the piles its accept `when` reads (its own first, for the bound top card)
    // and whether it reads the source, when that is all it reads besides the bound card
    // (`Whens`); None: judged every time
    when_reads: Vec<Option<(Vec<usize>, bool)>>,
    // the depots whose `when_reads` is known (most games have none)
    with_reads: Vec<usize>,
    // per depot, how many times it is among the cells and the tableaus (`limit_in`)
    room_of: Vec<(usize, usize)>,
    // the drop targets (as `Wanted`'s words) that may take more than one card, and whether no
    // drop target has an accept `when` (so that judging a group never fails)
    multi: Vec<u64>,
    whenless: bool,
    // `loss_by_listing`, decided once: it is asked at every move a search makes
    by_listing: bool,
}

/// A win, loss or redeal condition as the native primitive its kind names
/// (`ConditionKind.native`, docs/plugins.md), with that kind's exact meaning.
#[derive(Debug, PartialEq)]
pub enum Cond {
    /// every one of these depots is empty (the kind's `empties`)
    Empty(Vec<usize>),
    /// every one of these depots holds a card (its pattern's depots)
    NonEmpty(Vec<usize>),
    /// every card on the table lies face up
    AllFaceUp,
    AllOf(Vec<Cond>),
    AnyOf(Vec<Cond>),
    /// its `when` expression, in an environment without bindings
    Expr(ExprId),
    /// no move counts (`noLegalMoves`)
    Stalemate,
}

/// The game's `scoring.value`, when it has one: run here, or (an expression this engine
/// does not run) left to the Python engine, saying why.
#[derive(Debug, PartialEq)]
enum Scoring {
    None,
    Native(ExprId),
    Elsewhere(String),
}

/// Why the native engine can't give a game's score: the Python engine computes it.
#[derive(Debug, PartialEq)]
pub enum ScoreError {
    NotNative(String),
    Expr(ExprError),
}

fn field<'a>(v: &'a Value, name: &str) -> Result<&'a Value, Unsupported> {
    v.get(name).ok_or_else(|| Unsupported(format!("the compiled game has no '{name}'")))
}

fn ints(v: &Value, name: &str) -> Result<Vec<i64>, Unsupported> {
    let arr = field(v, name)?.as_array().ok_or_else(|| Unsupported(format!("'{name}' is not a list")))?;
    arr.iter()
        .map(|x| x.as_i64().ok_or_else(|| Unsupported(format!("'{name}' holds a non-integer"))))
        .collect()
}

fn indices(v: &Value, name: &str) -> Result<Vec<usize>, Unsupported> {
    ints(v, name)?
        .into_iter()
        .map(|x| usize::try_from(x).map_err(|_| Unsupported(format!("'{name}' holds a negative index"))))
        .collect()
}

fn bools(v: &Value, name: &str) -> Result<Vec<bool>, Unsupported> {
    let arr = field(v, name)?.as_array().ok_or_else(|| Unsupported(format!("'{name}' is not a list")))?;
    arr.iter()
        .map(|x| x.as_bool().ok_or_else(|| Unsupported(format!("'{name}' holds a non-bool"))))
        .collect()
}

fn flag(v: &Value, name: &str) -> bool {
    v.get(name).and_then(Value::as_bool).unwrap_or(false)
}

fn opt_int(v: &Value, name: &str) -> Option<i64> {
    v.get(name).and_then(Value::as_i64)
}

fn text<'a>(v: &'a Value, name: &str) -> &'a str {
    v.get(name).and_then(Value::as_str).unwrap_or("")
}

fn absent(v: &Value, name: &str) -> bool {
    v.get(name).is_none_or(Value::is_null)
}

fn build_rule(v: &Value) -> Result<Option<(Dir, i32, bool)>, Unsupported> {
    if v.is_null() {
        return Ok(None);
    }
    let dir = match text(v, "direction") {
        "Up" => Dir::Up,
        "Down" => Dir::Down,
        "Either" => Dir::Either,
        other => return unsupported(format!("build direction {other:?}")),
    };
    Ok(Some((dir, opt_int(v, "step").unwrap_or(1) as i32, flag(v, "wrap"))))
}

fn suit_rule(s: &str) -> Result<SuitRule, Unsupported> {
    Ok(match s {
        "Any" | "" => SuitRule::Any,
        "Same" => SuitRule::Same,
        "AlternateColor" => SuitRule::AlternateColor,
        "SameColor" => SuitRule::SameColor,
        other => return unsupported(format!("suit rule {other:?}")),
    })
}

fn accept(v: &Value, depot: usize, exprs: &mut Exprs) -> Result<Accept, Unsupported> {
    let has_wild = !absent(v, "wild_rank") || flag(v, "wild_joker");
    let declares = match text(v, "wild_declares") {
        _ if !has_wild => Declares::Nothing,
        "none" => Declares::Nothing,
        "free" => Declares::Free,
        "suit" => Declares::Suit,
        "transparent" => Declares::Transparent,
        other => return unsupported(format!("depot {depot}'s wild cards declare {other:?}")),
    };
    let from = match v.get("accept_from") {
        Some(Value::Array(a)) => Some(a.iter().filter_map(Value::as_u64).map(|x| x as usize).collect()),
        _ => None,
    };
    let when = if absent(v, "when") { None } else { Some(exprs.add_for(field(v, "when")?, depot)?) };
    Ok(Accept {
        none: flag(v, "rejects_all"),
        empty_only: flag(v, "empty_only"),
        single: flag(v, "single"),
        min_count: opt_int(v, "min_count").unwrap_or(0).max(0) as usize,
        from,
        seed: opt_int(v, "seed").map(|x| x as i32),
        seed_none: flag(v, "seed_none"),
        seed_from_deal: flag(v, "seed_from_deal"),
        rank_is: opt_int(v, "rank_is").map(|x| x as i32),
        rel: Relation::new(build_rule(field(v, "build")?)?, suit_rule(text(v, "suit"))?, flag(v, "follow")),
        wild_rank: opt_int(v, "wild_rank").map(|x| x as i32),
        wild_joker: flag(v, "wild_joker"),
        declares,
        allow_down: flag(v, "allow_face_down"),
        when,
        on_top: Vec::new(),
        on_down: Vec::new(),
        dynamic: Vec::new(),
        wanted: Vec::new(),
        wanted_at: Vec::new(),
        down_wanted: Vec::new(),
        empty_wanted: Vec::new(),
    })
}

fn eject(v: &Value) -> Result<Eject, Unsupported> {
    let gate = match text(v, "gate") {
        "Any" => Gate::Any,
        "FaceUp" => Gate::FaceUp,
        "TopOnly" => Gate::TopOnly,
        "Locked" => Gate::Locked,
        other => return unsupported(format!("eject gate {other:?}")),
    };
    let mut unit = match v.get("unit").and_then(Value::as_str) {
        None => Unit::Cards,
        Some("Single") => Unit::Single,
        Some("Any") => Unit::Any,
        Some("Run") => Unit::Run,
        Some("Pile") => Unit::Pile,
        Some(other) => return unsupported(format!("eject unit {other:?}")),
    };
    if unit == Unit::Cards && flag(v, "loose_order") {
        unit = Unit::Single; // a loose fan's pickup takes only the selected card
    }
    let run = if unit == Unit::Run {
        Relation::new(build_rule(field(v, "unit_build")?)?, suit_rule(text(v, "unit_suit"))?, false)
    } else {
        None
    };
    Ok(Eject { gate, unit, covered_by: indices(v, "covered_by")?, cover_any: flag(v, "cover_any"), run,
               loose: flag(v, "loose_order") })
}

fn draw(v: &Value, exprs: &mut Exprs) -> Result<Option<Draw>, Unsupported> {
    if v.is_null() {
        return Ok(None);
    }
    let to = opt_int(v, "to").ok_or_else(|| Unsupported("a draw without 'to'".into()))? as usize;
    let when = if absent(v, "when") { None } else { Some(exprs.add(field(v, "when")?)?) };
    Ok(Some(Draw {
        to,
        count: opt_int(v, "count").unwrap_or(0),
        recycle: flag(v, "recycle"),
        max_recycles: opt_int(v, "max_recycles"),
        when,
    }))
}

/// A compiled condition (`ConditionData` as `to_json` writes it) as its native primitive;
/// None for a JSON null.
pub fn condition(v: &Value, exprs: &mut Exprs) -> Result<Option<Cond>, Unsupported> {
    if v.is_null() {
        return Ok(None);
    }
    let kind = text(v, "kind");
    let args = field(v, "args")?;
    let nested = |exprs: &mut Exprs| -> Result<Vec<Cond>, Unsupported> {
        let of = field(args, "of")?.as_array().ok_or_else(|| Unsupported(format!("{kind}'s 'of' is not a list")))?;
        of.iter().map(|c| condition(c, exprs)?.ok_or_else(|| Unsupported(format!("{kind} holds a null")))).collect()
    };
    Ok(Some(match v.get("native").and_then(Value::as_str) {
        Some("empty") => match v.get("empties") {
            Some(Value::Array(_)) => Cond::Empty(indices(v, "empties")?),
            _ => return unsupported(format!("the condition {kind:?} says 'empty' but has no empties")),
        },
        Some("non_empty") => {
            let patterns = field(v, "pattern_fields")?.as_array().map_or(&[][..], Vec::as_slice);
            let [Value::String(name)] = patterns else {
                return unsupported(format!("the condition {kind:?} says 'non_empty' but has not one pattern"));
            };
            Cond::NonEmpty(indices(args, name)?)
        }
        Some("all_face_up") => Cond::AllFaceUp,
        Some("all_of") => Cond::AllOf(nested(exprs)?),
        Some("any_of") => Cond::AnyOf(nested(exprs)?),
        Some("expr") => Cond::Expr(exprs.add(field(args, "when")?)?),
        Some("stalemate") => Cond::Stalemate,
        Some(other) => return unsupported(format!("the condition {kind:?} names no native primitive {other:?}")),
        None => return unsupported(format!("the condition {kind:?} is not judged natively")),
    }))
}

/// The game's `scoring`: its `value` expression, or why it is not run here.
fn scoring(v: Option<&Value>, exprs: &mut Exprs) -> Result<Scoring, Unsupported> {
    let Some(v) = v.filter(|v| !v.is_null()) else { return Ok(Scoring::None) };
    Ok(match exprs.add(field(v, "value")?) {
        Ok(id) => Scoring::Native(id),
        Err(Unsupported(why)) => Scoring::Elsewhere(why),
    })
}

/// Every accept table filled in, for the game's cards (checked first, so that the tables index).
fn game_tables(accepts: &mut [Accept], ident: &[Card], exprs: &Exprs) -> Result<(), Unsupported> {
    if ident.iter().any(|c| c.rank < 0 || c.rank > 13 || c.suit < -1 || c.suit > 3) {
        return unsupported("a card of no known rank or suit");
    }
    for (d, a) in accepts.iter_mut().enumerate() {
        a.fill_tables(ident);
        a.prune_by_when(d, exprs, ident.len());
    }
    Ok(())
}

fn list<'a>(v: &'a Value, name: &str) -> Result<&'a Vec<Value>, Unsupported> {
    field(v, name)?.as_array().ok_or_else(|| Unsupported(format!("'{name}' is not a list")))
}

/// `Ends._judge` of a condition: ("win", the win condition) for the refusal's wording.
fn judged(c: &Value, name: &str, exprs: &mut Exprs) -> Result<Option<Cond>, Unsupported> {
    condition(field(c, name)?, exprs).map_err(|Unsupported(why)| Unsupported(format!("its {name} condition: {why}")))
}

impl Game {
    /// Load `{"compiled": CompiledGame.to_json(), "plan": {...}}` (see `cardz_core/native.py`).
    pub fn from_json(source: &str) -> Result<Game, Unsupported> {
        let doc: Value = serde_json::from_str(source).map_err(|e| Unsupported(format!("bad JSON: {e}")))?;
        let c = field(&doc, "compiled")?;
        let plan = field(&doc, "plan")?;
        if text(c, "format") != "cardz-compiled/1" {
            return unsupported("not a cardz-compiled/1 game");
        }
        let mut exprs = Exprs::from_json(doc.get("expr").unwrap_or(&Value::Null))?;
        let rank = ints(c, "card_rank")?;
        let suit = ints(c, "card_suit")?;
        let ident: Vec<Card> =
            rank.iter().zip(&suit).map(|(&r, &s)| Card { rank: r as i32, suit: s as i32 }).collect();
        let mut accepts = list(c, "accepts")?
            .iter()
            .enumerate()
            .map(|(i, a)| accept(a, i, &mut exprs))
            .collect::<Result<Vec<_>, _>>()?;
        let ejects = list(c, "ejects")?.iter().map(eject).collect::<Result<Vec<_>, _>>()?;
        let draws = list(c, "draws")?.iter().map(|d| draw(d, &mut exprs)).collect::<Result<Vec<_>, _>>()?;
        let n = accepts.len();
        let land_under = bools(c, "land_under")?;
        let win = judged(c, "win", &mut exprs)?;
        let loss = judged(c, "loss", &mut exprs)?;
        let score = scoring(c.get("scoring"), &mut exprs)?;
        game_tables(&mut accepts, &ident, &exprs)?;
        let rules = Rules::from_json(c, plan, n, &ident, &mut exprs)?;
        let mut game = Game {
            id: GAMES_LOADED.fetch_add(1, Ordering::Relaxed),
            n,
            ident,
            accepts,
            ejects,
            draws,
            land_face: ints(c, "land_face")?,
            any_land_under: land_under.iter().any(|&x| x),
            land_under,
            auto_flip_top: bools(c, "auto_flip_top")?,
            sources: indices(plan, "sources")?,
            drop_targets: indices(plan, "drop_targets")?,
            down_targets: indices(plan, "down_targets")?,
            tappable: indices(plan, "tappable")?,
            flip_uncovered: indices(plan, "flip_uncovered")?,
            cells: indices(plan, "cells")?,
            tableaus: indices(plan, "tableaus")?,
            // optional: a plan written before reorders lists none
            reorders: if plan.get("reorders").is_some() { indices(plan, "reorders")? } else { Vec::new() },
            staged: flag(c, "staged"),
            win,
            loss,
            score,
            rules,
            exprs,
            pack_groups: deal::pack_groups(c).filter(|groups| groups.iter().all(|&(d, _)| d < n)),
            open_from: Vec::new(),
            when_reads: Vec::new(),
            with_reads: Vec::new(),
            room_of: Vec::new(),
            multi: Vec::new(),
            whenless: false,
            by_listing: false,
        };
        game.check_shape()?;
        game.open_from = game.open_masks();
        game.room_of = (0..n).map(|d| (game.cells.iter().filter(|&&c| c == d).count(),
                                       game.tableaus.iter().filter(|&&t| t == d).count())).collect();
        game.multi = vec![0; game.words()];
        for (k, &d) in game.drop_targets.iter().enumerate() {
            if !game.accepts[d].single {
                game.multi[k / 64] |= 1 << (k % 64);
            }
        }
        game.by_listing = game.loss == Some(Cond::Stalemate) && !game.any_land_under
            && game.draws.iter().flatten().all(|d| d.when.is_none());
        game.whenless = game.drop_targets.iter().chain(&game.down_targets).all(|&d| game.accepts[d].when.is_none());
        game.when_reads = game.accepts.iter().enumerate().map(|(d, a)| game.when_footprint(d, a)).collect();
        game.with_reads = (0..game.n).filter(|&d| game.when_reads[d].is_some()).collect();
        Ok(game)
    }

    /// Every index in range, every table one per depot: no lookup can fail while playing.
    fn check_shape(&self) -> Result<(), Unsupported> {
        let n = self.n;
        let per_depot = [self.ejects.len(), self.draws.len(), self.land_face.len(), self.land_under.len(),
                         self.auto_flip_top.len()];
        if per_depot.iter().any(|&k| k != n) {
            return unsupported("per-depot tables of different lengths");
        }
        let mut all: Vec<usize> = Vec::new();
        for list in [&self.sources, &self.drop_targets, &self.down_targets, &self.tappable,
                     &self.flip_uncovered, &self.cells, &self.tableaus, &self.reorders] {
            all.extend(list.iter());
        }
        fn depots_of(c: &Cond, all: &mut Vec<usize>) {
            match c {
                Cond::Empty(ds) | Cond::NonEmpty(ds) => all.extend(ds),
                Cond::AllOf(cs) | Cond::AnyOf(cs) => cs.iter().for_each(|c| depots_of(c, all)),
                Cond::AllFaceUp | Cond::Expr(_) | Cond::Stalemate => {}
            }
        }
        self.win.iter().chain(&self.loss).for_each(|c| depots_of(c, &mut all));
        for e in &self.ejects {
            all.extend(e.covered_by.iter());
        }
        for a in &self.accepts {
            all.extend(a.from.iter().flatten());
        }
        all.extend(self.draws.iter().flatten().map(|d| d.to));
        if all.iter().any(|&d| d >= n) {
            return unsupported("a depot index out of range");
        }
        Ok(())
    }

    /// `open_from`: per source, the drop targets a move from it may reach on some board.
    fn open_masks(&self) -> Vec<u64> {
        let words = self.words();
        let mut masks = vec![0; self.n * words];
        for (k, &d) in self.drop_targets.iter().enumerate() {
            let acc = &self.accepts[d];
            let decider = acc.when.and_then(|id| self.exprs.decider(id, Known { source: true, cards: false }));
            for src in 0..self.n {
                let scope = Scope { depot: d as i32, source: src as i32, ..Scope::default() };
                let refused = decider.as_ref().is_some_and(|dc| dc.decide(&scope) == Some(false));
                if d != src && acc.takes_from(src) && !refused {
                    masks[src * words + k / 64] |= 1 << (k % 64);
                }
            }
        }
        masks
    }

    /// `when_reads` of depot `d`: the piles its accept `when` reads and whether it reads the
    /// source, when it reads nothing else of the position, nor the bound group.
    fn when_footprint(&self, d: usize, acc: &Accept) -> Option<(Vec<usize>, bool)> {
        let f = self.exprs.footprint(acc.when?)?;
        if f.pile || !f.came_from.is_empty() {
            return None; // `Whens` compares the piles alone
        }
        let mut piles = vec![d];
        piles.extend(f.depots.iter().filter(|&&p| p != d && p < self.n));
        Some((piles, f.source))
    }

    /// `wt.whens` up to date for `s`: the results of a target whose read piles changed dropped.
    fn fill_whens(&self, s: &State, whens: &mut Whens) {
        if whens.results.len() != self.n {
            whens.piles = vec![Vec::new(); self.n];
            whens.results = vec![Vec::new(); self.n];
            whens.gens = vec![0; self.n];
            whens.codes = 2 * self.ident.len();
        }
        for &d in &self.with_reads {
            let Some((reads, by_source)) = &self.when_reads[d] else { continue };
            let was = &whens.piles[d];
            let (mut at, mut same) = (0, true);
            for &p in reads {
                let pile = &s.piles[p];
                let end = at + 1 + pile.len();
                same = same && was.len() >= end && was[at] as usize == pile.len() && was[at + 1..end] == pile[..];
                at = end;
            }
            if same && at == was.len() && whens.gens[d] != 0 {
                continue;
            }
            let now = &mut whens.piles[d];
            now.clear();
            for &p in reads {
                now.push(s.piles[p].len() as Code);
                now.extend_from_slice(&s.piles[p]);
            }
            let gen = &mut whens.gens[d];
            if *gen == 0 || *gen == LAST_GEN {
                whens.results[d].clear();
                whens.results[d].resize(if *by_source { self.n } else { 1 } * whens.codes, 0);
                *gen = 0;
            }
            *gen += 1;
        }
    }

    /// The words of a drop-target bit set (`Wanted`, `open_from`).
    fn words(&self) -> usize {
        self.drop_targets.len().div_ceil(64).max(1)
    }

    pub fn n_depots(&self) -> usize {
        self.n
    }

    pub fn n_cards(&self) -> usize {
        self.ident.len()
    }

    /// What runs the game's Python call-backs (`crate::expr::Host`).
    pub fn set_host(&mut self, host: std::sync::Arc<dyn crate::expr::Host>) {
        self.exprs.set_host(host);
    }

    /// The Python call-backs the game's rules call.
    pub fn calls_back(&self) -> Vec<usize> {
        self.exprs.calls_back()
    }

    /// Whether a position can be played here: true cards of this game, one pile per depot.
    pub fn check_state(&self, s: &State) -> Result<(), BadState> {
        if s.piles.iter().flatten().any(|&c| c < 0) {
            return Err(BadState::Unknown);
        }
        self.check_view(s)
    }

    /// Whether a view (or a position) can be played here: `check_state` but for unknown cards.
    pub fn check_view(&self, s: &State) -> Result<(), BadState> {
        let n = self.n;
        if s.piles.len() != n {
            return Err(BadState::Shape(format!("a position of {} depots for a game of {n}", s.piles.len())));
        }
        let cards = self.ident.len() as i32;
        if s.piles.iter().flatten().any(|&c| (c >> 1) >= cards) {
            return Err(BadState::Shape("a position with a card this game does not have".into()));
        }
        for (name, len) in [("came_from", s.came_from.len()), ("declared", s.declared.len()),
                            ("recycles", s.recycles.len())] {
            if len != 0 && len != n {
                return Err(BadState::Shape(format!("a position whose {name} is not one per depot")));
            }
        }
        Ok(())
    }

    fn card(&self, c: Code) -> Card {
        self.ident[(c >> 1) as usize]
    }

    /// `Accept.pile_below`: what may follow on `pile` as it lies (`declared` its called suit).
    fn pile_below(&self, acc: &Accept, pile: &[Code], declared: i32, seed_rank: i32) -> Below {
        let Some(&top) = pile.last() else { return Below::Bare };
        if top & 1 == 0 {
            return Below::Down;
        }
        let card = self.card(top);
        match acc.declares {
            _ if !acc.wild(card) => Below::Card(card),
            Declares::Nothing => Below::Card(card),
            Declares::Free => Below::Free,
            Declares::Suit => if declared >= 0 { Below::Suit(declared) } else { Below::Card(card) },
            Declares::Transparent => {
                // a run of face-up transparent wilds reads through to what lies beneath them
                let mut k = pile.len() - 1;
                while k > 0 && pile[k - 1] & 1 == 1 && acc.wild(self.card(pile[k - 1])) {
                    k -= 1;
                }
                let mut below = match k.checked_sub(1).map(|j| pile[j]) {
                    None => Below::Bare,
                    Some(c) if c & 1 == 0 => Below::Down,
                    Some(c) => Below::Card(self.card(c)),
                };
                for &c in &pile[k..] {
                    below = acc.after(below, self.card(c), -1, seed_rank);
                }
                below
            }
        }
    }

    /// `MoveGen.staged_limit`.
    fn staged_limit(&self, piles: &[Pile], dst: usize) -> usize {
        self.limit_in(self.room(piles), piles, dst)
    }

    /// The empty cells and tableau piles of `piles`, counted once for a listing.
    fn room(&self, piles: &[Pile]) -> Room {
        Room { cells: self.cells.iter().filter(|&&c| piles[c].is_empty()).count(),
               cols: self.tableaus.iter().filter(|&&t| piles[t].is_empty()).count() }
    }

    /// `staged_limit` from the `room` of `piles`: the target itself does not count as room.
    fn limit_in(&self, room: Room, piles: &[Pile], dst: usize) -> usize {
        let (cells, cols) = if piles[dst].is_empty() { self.room_of[dst] } else { (0, 0) };
        staged_cap(room.cells - cells, room.cols - cols)
    }

    /// `Accept.reason` with `_drop_reason`'s `Staged` limit: may `group` from `src` land on
    /// `d`? `declare`: the called suit, None to skip that check (as the move listing does).
    fn drop_ok(&self, s: &State, src: usize, group: &[Code], d: usize, vouched: bool, declare: Option<i32>)
               -> Result<bool, ExprError> {
        self.drop_judged(s, src, group, d, vouched, declare, None)
    }

    /// `drop_ok`, the accept `when` judged through the listing's kept results when given.
    #[allow(clippy::too_many_arguments)] // `drop_ok`'s own, and the listing's results
    fn drop_judged(&self, s: &State, src: usize, group: &[Code], d: usize, vouched: bool, declare: Option<i32>,
                   whens: Option<&mut Whens>) -> Result<bool, ExprError> {
        let acc = &self.accepts[d];
        if acc.none || !acc.takes_from(src) {
            return Ok(false);
        }
        let pile = &s.piles[d];
        if !pile.is_empty() && acc.empty_only {
            return Ok(false);
        }
        let n = group.len();
        if (acc.single && n > 1) || n < acc.min_count {
            return Ok(false);
        }
        let seed_rank = s.seed_rank;
        let mut below = self.pile_below(acc, pile, s.declared.get(d).copied().unwrap_or(-1), seed_rank);
        for (k, &c) in group.iter().enumerate() {
            if c & 1 == 0 {
                // a face-down card anywhere in the group needs allowFaceDown
                if !acc.allow_down || (k == 0 && !acc.fits_down(below, seed_rank)) {
                    return Ok(false);
                }
                below = Below::Free;
                continue;
            }
            let card = self.card(c);
            if vouched && k > 0 {
                if !(acc.wild(card) || acc.rank_ok(card)) {
                    return Ok(false);
                }
                continue;
            }
            if !acc.fits(below, card, seed_rank) {
                return Ok(false);
            }
            let call = if k == n - 1 { declare.unwrap_or(-1) } else { -1 };
            below = acc.after(below, card, call, seed_rank);
        }
        if let Some(call) = declare {
            let top = group[n - 1];
            let calls = acc.declares == Declares::Suit && top & 1 == 1 && acc.wild(self.card(top));
            if calls != (call >= 0) {
                return Ok(false);
            }
        }
        if let Some(when) = acc.when {
            let scope = accept_scope(s, src, group, d);
            let holds = match whens {
                Some(whens) => whens.test(&self.exprs, when, s, &scope, d)?,
                None => self.exprs.test(when, s, &scope)?,
            };
            if !holds {
                return Ok(false);
            }
        }
        Ok(!(self.staged && n > 1 && n > self.staged_limit(&s.piles, d)))
    }

    /// The target's table test (`_wanted`): does `d` take the face-up bottom card `c` now?
    fn wants(&self, s: &State, d: usize, c: Code) -> bool {
        let acc = &self.accepts[d];
        let pile = &s.piles[d];
        match pile.last() {
            None => acc.seed_ok(self.card(c), if acc.seed_from_deal { s.seed_rank } else { 0 }),
            Some(_) if acc.empty_only => false,
            Some(&top) if top & 1 == 0 => acc.on_down[(c >> 1) as usize],
            Some(&top) if acc.dynamic[(top >> 1) as usize] => true, // judged in full
            Some(&top) => acc.on_top[(top >> 1) as usize * self.ident.len() + (c >> 1) as usize],
        }
    }

    /// `MoveGen._group_ok` for a group whose face-up bottom card the target's table took.
    #[allow(clippy::too_many_arguments)] // the listing's own, and its counts of room
    fn group_ok(&self, s: &State, src: usize, group: &[Code], d: usize, vouched: bool, whens: &mut Whens,
                room: Room) -> Result<bool, ExprError> {
        let acc = &self.accepts[d];
        if !acc.fast() {
            return self.drop_judged(s, src, group, d, vouched, None, Some(whens));
        }
        let n = group.len();
        if n == 1 && acc.simple() {
            return Ok(true);
        }
        if n < acc.min_count || (n > 1 && acc.single) {
            return Ok(false);
        }
        if vouched {
            if !acc.allow_down && group.iter().any(|&c| c & 1 == 0) {
                return Ok(false); // face-down cards need allowFaceDown, wherever in the group
            }
            if acc.rank_is.is_some() {
                return self.drop_ok(s, src, group, d, vouched, None);
            }
        } else {
            for k in 1..n {
                let (prev, cur) = (group[k - 1], group[k]);
                if cur & 1 == 0 {
                    return self.drop_ok(s, src, group, d, vouched, None);
                }
                if !acc.on_top[(prev >> 1) as usize * self.ident.len() + (cur >> 1) as usize] {
                    return Ok(false);
                }
            }
        }
        Ok(!(self.staged && n > 1 && n > self.limit_in(room, &s.piles, d)))
    }

    /// The card moves of `s` in the Python engine's order: by source, position, target, a
    /// suit-calling wild once per suit. `first`: stop at the first one found (declaring none).
    /// From the depots of `sources` (`self.sources`, or a `TapSources` list) but the `acting`
    /// ones (`MoveGen.acting`: pressing them acts now).
    fn card_moves(&self, s: &State, first: bool, out: &mut Vec<Move>, sources: &[usize], acting: &[usize])
                  -> Result<(), ExprError> {
        WANTED.with(|cell| match cell.try_borrow_mut() {
            Ok(mut wanted) => self.card_moves_with(s, first, out, &mut wanted, sources, acting),
            Err(_) => self.card_moves_with(s, first, out, &mut Wanted::default(), sources, acting), // never nested now
        })
    }

    /// What drop target `acc` takes under the top card `key` (-1: empty), from its tables.
    fn takes<'a>(&self, acc: &'a Accept, key: i64) -> Takes<'a> {
        let ids: &[u32] = match key {
            -1 if acc.seed_from_deal => return Takes::Broad, // the deal's seed: judged per pick
            -1 => &acc.empty_wanted,
            _ if acc.empty_only => return Takes::Nothing,
            top if top & 1 == 0 => &acc.down_wanted,
            top if acc.dynamic[(top >> 1) as usize] => return Takes::Broad,
            top => {
                let t = (top >> 1) as usize;
                &acc.wanted[acc.wanted_at[t]..acc.wanted_at[t + 1]]
            }
        };
        if ids.len() > BROAD { Takes::Broad } else { Takes::Cards(ids) }
    }

    /// `_wanted`: bring `wt` up to date for `s`; the words per card.
    fn fill_wanted(&self, s: &State, wt: &mut Wanted) -> usize {
        let words = self.words();
        let size = self.ident.len() * words;
        if wt.game != self.id || wt.want.len() != size || wt.keys.len() != self.drop_targets.len() {
            *wt = Wanted { game: self.id, want: vec![0; size], broad: vec![0; words], whens: Whens::default(),
                           keys: vec![UNSEEN; self.drop_targets.len()] };
        }
        for (k, &d) in self.drop_targets.iter().enumerate() {
            let key = s.piles[d].last().map_or(-1, |&c| i64::from(c));
            let old = wt.keys[k];
            if old == key {
                continue;
            }
            let acc = &self.accepts[d];
            let (word, bit) = (k / 64, 1u64 << (k % 64));
            if old != UNSEEN {
                match self.takes(acc, old) {
                    Takes::Cards(ids) => ids.iter().for_each(|&id| wt.want[id as usize * words + word] &= !bit),
                    Takes::Broad => wt.broad[word] &= !bit,
                    Takes::Nothing => {}
                }
            }
            match self.takes(acc, key) {
                Takes::Cards(ids) => ids.iter().for_each(|&id| wt.want[id as usize * words + word] |= bit),
                Takes::Broad => wt.broad[word] |= bit,
                Takes::Nothing => {}
            }
            wt.keys[k] = key;
        }
        words
    }

    #[allow(clippy::too_many_arguments)] // `card_moves`' own, and the scratch
    fn card_moves_with(&self, s: &State, first: bool, out: &mut Vec<Move>, wt: &mut Wanted, sources: &[usize],
                       acting: &[usize]) -> Result<(), ExprError> {
        let words = self.fill_wanted(s, wt);
        self.fill_whens(s, &mut wt.whens);
        let Wanted { want, broad, whens, .. } = wt;
        let room = self.room(&s.piles);
        // a staged group longer than the largest limit goes to no target, and with no accept
        // `when` finding that out fails nowhere: such picks are not looked at
        let longest = if self.staged && self.whenless { staged_cap(room.cells, room.cols) } else { usize::MAX };
        for &src in sources {
            if acting.contains(&src) {
                continue;
            }
            let pile = &s.piles[src];
            let ej = &self.ejects[src];
            let Some((low, face_up_only, one)) = ej.pick_span(&s.piles, pile, &self.ident) else { continue };
            let vouched = ej.vouched();
            let low = if ej.takes_tail() { low.max(pile.len().saturating_sub(longest)) } else { low };
            for i in low..pile.len() {
                if face_up_only && pile[i] & 1 == 0 {
                    continue;
                }
                let group = ej.group(pile, i);
                let bottom = group[0];
                if bottom & 1 == 1 {
                    let id = (bottom >> 1) as usize;
                    for word in 0..words {
                        let listed = want[id * words + word];
                        // a target that takes single cards only is not asked about more
                        let wide = if group.len() > 1 { self.multi[word] } else { u64::MAX };
                        let mut m = (listed | broad[word]) & self.open_from[src * words + word] & wide;
                        while m != 0 {
                            let b = m.trailing_zeros();
                            m &= m - 1;
                            let d = self.drop_targets[word * 64 + b as usize];
                            if (listed >> b & 1 == 0 && !self.wants(s, d, bottom))
                                || !self.group_ok(s, src, group, d, vouched, whens, room)?
                            {
                                continue;
                            }
                            if self.found(out, src, i, d, group, first) {
                                return Ok(());
                            }
                        }
                    }
                } else {
                    for &d in &self.down_targets {
                        if d == src
                            || !self.accepts[d].takes_from(src)
                            || !self.drop_judged(s, src, group, d, vouched, None, Some(whens))?
                        {
                            continue;
                        }
                        if self.found(out, src, i, d, group, first) {
                            return Ok(());
                        }
                    }
                }
                if one {
                    break;
                }
            }
        }
        Ok(())
    }

    /// A legal card move found: listed (a suit-calling wild once per suit); whether to stop.
    fn found(&self, out: &mut Vec<Move>, src: usize, i: usize, d: usize, group: &[Code], first: bool) -> bool {
        let acc = &self.accepts[d];
        let top = group[group.len() - 1];
        let (src, i, d) = (src as i32, i as i32, d as i32);
        if first {
            out.push((src, i, d, -1));
        } else if acc.declares == Declares::Suit && top & 1 == 1 && acc.wild(self.card(top)) {
            out.extend((0..4).map(|suit| (src, i, d, suit)));
        } else {
            out.push((src, i, d, -1));
        }
        first
    }

    /// `Taps._tap_plan`: a draw or recycle, else a redeal or an action (`settle.rs`).
    fn tap_plan(&self, s: &State, d: usize) -> Result<Option<Tap>, ExprError> {
        self.plan_tap(s, d, false)
    }

    /// The tap plan; `listed`: the tap is known to do something (a legal move being played),
    /// so no trial is run to find out.
    fn plan_tap(&self, s: &State, d: usize, listed: bool) -> Result<Option<Tap>, ExprError> {
        if let Some(dr) = self.draws[d].as_ref() {
            let on = match dr.when {
                None => true,
                Some(when) => self.exprs.test(when, s, &Scope { depot: d as i32, source: -1, ..Scope::default() })?,
            };
            if !on {
            } else if !s.piles[d].is_empty() {
                if dr.count > 0 {
                    return Ok(Some(Tap::Draw));
                }
            } else {
                let used = s.recycles.get(d).copied().unwrap_or(0);
                if dr.recycle && !s.piles[dr.to].is_empty() && d != dr.to && dr.max_recycles.is_none_or(|m| used < m) {
                    return Ok(Some(Tap::Recycle));
                }
            }
        }
        self.tap_steps(s, d, listed)
    }

    /// `MoveGen.legal_moves` into `out`: card moves, then taps in depot order; none once over.
    pub(crate) fn list_moves(&self, s: &State, out: &mut Vec<Move>) -> Result<(), ExprError> {
        if s.status != PLAYING {
            return Ok(());
        }
        let acting = self.acting(s)?;
        self.card_moves(s, false, out, &self.sources, &acting)?;
        self.reorder_moves(s, out, |d| acting.contains(&d));
        self.list_taps(s, &acting, |_| true, out)
    }

    /// The taps of `list_moves` (those `keep` keeps), in depot order; a depot with actions
    /// was planned by `acting` on this same board (acting exactly when its tap does
    /// something), so its plan (a trial, perhaps) is not made again.
    fn list_taps(&self, s: &State, acting: &[usize], keep: impl Fn(usize) -> bool, out: &mut Vec<Move>)
                 -> Result<(), ExprError> {
        for &d in &self.tappable {
            if !keep(d) {
                continue;
            }
            let taps = if self.rules.has_actions(d) { acting.contains(&d) } else { self.tap_plan(s, d)?.is_some() };
            if taps {
                out.push((d as i32, -1, -1, -1));
            }
        }
        Ok(())
    }

    /// The depots `from`, as `list_moves_from` reads them: made once for many listings.
    pub(crate) fn sources_from(&self, from: &[usize]) -> SourcesFrom {
        SourcesFrom { from: from.to_vec(), sources: self.sources.iter().copied().filter(|d| from.contains(d)).collect() }
    }

    /// The moves `list_moves` lists from the depots `from` alone, in its order (a solver's
    /// tap run reads only the stock's and its target's): the other sources are passed over.
    pub(crate) fn list_moves_from(&self, s: &State, from: &SourcesFrom, out: &mut Vec<Move>) -> Result<(), ExprError> {
        if s.status != PLAYING {
            return Ok(());
        }
        let acting = self.acting(s)?;
        self.card_moves(s, false, out, &from.sources, &acting)?;
        let from = &from.from;
        self.reorder_moves(s, out, |d| acting.contains(&d) || !from.contains(&d));
        self.list_taps(s, &acting, |d| from.contains(&d), out)
    }

    /// `MoveGen.legal_moves`.
    pub fn legal_moves(&self, s: &State) -> Result<Vec<Move>, ExprError> {
        let mut out = Vec::new();
        self.list_moves(s, &mut out)?;
        Ok(out)
    }

    /// `Play._land` of the cards in `cards` (turned as `landFace` says, in place).
    fn land(&self, w: &mut Work, d: usize, cards: &mut [Code], src: usize) {
        match self.land_face[d] {
            1 => cards.iter_mut().for_each(|c| *c = w.up(*c)),
            0 => cards.iter_mut().for_each(|c| *c &= !1),
            _ => {}
        }
        w.put(d, cards, src as i32, self.land_under[d]);
    }

    /// `Play._flip_tops`.
    fn flip_tops(&self, w: &mut Work) {
        // a depot that lost cards was marked touched (`Work::changed`): only those are read,
        // in depot order (bit 63 stands for every depot from 63 up)
        let mut bits = w.touched;
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            for d in if b == 63 { 63..self.n } else { b..b + 1 } {
                if w.left[d] {
                    w.left[d] = false;
                    if self.auto_flip_top[d] {
                        w.flip_top(d);
                    }
                }
            }
        }
        for &d in &self.flip_uncovered {
            let pile = &w.s.piles[d];
            if pile.last().is_some_and(|&top| top & 1 == 0) && !self.ejects[d].covered(&w.s.piles) {
                w.flip_top(d);
            }
        }
    }

    /// `Play._play` of the legal move `m` on the board `w`: the move and its flips (nothing
    /// else settles here).
    fn play(&self, w: &mut Work, m: Move) -> Result<(), ExprError> {
        let src = m.0 as usize;
        let mut hand = std::mem::take(&mut w.hand);
        hand.clear();
        if m.1 < 0 {
            let Some(plan) = self.plan_tap(w.s, src, true)? else { return Ok(()) }; // never listed
            match (plan, self.draws[src].as_ref()) {
                (Tap::Draw, Some(dr)) if !self.land_under[dr.to] && dr.to != src => {
                    w.draw(src, dr.to, usize::try_from(dr.count).unwrap_or(0), &mut hand);
                }
                (Tap::Draw, Some(dr)) => {
                    for _ in 0..dr.count {
                        let Some(c) = w.take_top(src) else { break };
                        let card = [w.up(c)];
                        // drawn cards land face up, whatever the target's landFace (the reference)
                        w.put(dr.to, &card, src as i32, self.land_under[dr.to]);
                    }
                }
                (Tap::Recycle, Some(dr)) => {
                    let pile = &mut w.s.piles[dr.to];
                    let (len, top) = (pile.len(), pile.last().copied());
                    hand.extend(pile.drain(..).rev().map(|c| c & !1));
                    w.changed(dr.to, len, top);
                    w.put(src, &hand, dr.to as i32, false);
                    if w.s.recycles.is_empty() {
                        w.s.recycles = vec![0; self.n];
                    }
                    w.s.recycles[src] += 1;
                    w.s.recycles_total += 1;
                }
                (tap, _) => self.run_tap_steps(w, tap, src)?,
            }
        } else if m.2 == m.0 {
            self.reorder(w, m);
        } else {
            let dst = m.2 as usize;
            let pile = &mut w.s.piles[src];
            let (len, top) = (pile.len(), pile.last().copied());
            self.ejects[src].take(pile, m.1 as usize, &mut hand);
            w.changed(src, len, top);
            w.s.came_from[src] = -1;
            self.land(w, dst, &mut hand, src);
            if m.3 >= 0 {
                w.touch(dst);
                w.s.declared[dst] = m.3;
            }
        }
        w.hand = hand;
        self.settle(w)?;
        Ok(())
    }

    /// `no_legal_moves` of the builtin `noLegalMoves` loss condition.
    fn stalemate(&self, s: &State) -> Result<bool, ExprError> {
        for &d in &self.tappable {
            if self.tap_plan(s, d)?.is_some() {
                return Ok(false);
            }
        }
        let mut moves = Vec::new();
        if !self.any_land_under {
            self.card_moves(s, true, &mut moves, &self.sources, &[])?; // a tap was asked first: none acts
            self.reorder_moves(s, &mut moves, |_| false); // a listed reorder counts, as any move does
            return Ok(moves.is_empty());
        }
        self.card_moves(s, false, &mut moves, &self.sources, &[])?;
        self.reorder_moves(s, &mut moves, |_| false);
        for m in moves {
            if !self.land_under[m.2 as usize] {
                return Ok(false);
            }
            let mut board = s.clone();
            let mut w = Work::on(&mut board);
            let played = self.play(&mut w, m);
            if w.unknown.is_some() {
                return Ok(false); // it would turn up a view's unknown card (`turns_card_up`)
            }
            played?;
            if w.flips > 0 {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether the condition holds on `s` (its kind's compiled test).
    pub fn holds(&self, c: &Cond, s: &State) -> Result<bool, ExprError> {
        Ok(match c {
            Cond::Empty(ds) => ds.iter().all(|&d| s.piles[d].is_empty()),
            Cond::NonEmpty(ds) => ds.iter().all(|&d| !s.piles[d].is_empty()),
            Cond::AllFaceUp => s.piles.iter().flatten().all(|&c| c & 1 == 1),
            Cond::AllOf(cs) => {
                for c in cs {
                    if !self.holds(c, s)? {
                        return Ok(false);
                    }
                }
                true
            }
            Cond::AnyOf(cs) => {
                for c in cs {
                    if self.holds(c, s)? {
                        return Ok(true);
                    }
                }
                false
            }
            Cond::Expr(id) => self.exprs.test(*id, s, &Scope { depot: -1, source: -1, ..Scope::default() })?,
            Cond::Stalemate => self.stalemate(s)?,
        })
    }

    /// `Ends._judge`.
    fn judge(&self, s: &State) -> Result<i32, ExprError> {
        if let Some(win) = &self.win {
            if self.holds(win, s)? {
                return Ok(WON);
            }
        }
        if let Some(loss) = &self.loss {
            if self.holds(loss, s)? {
                return Ok(LOST);
            }
        }
        Ok(PLAYING)
    }

    /// The legal move `m` made on the board `w`, counted and judged, as `Play.apply` does.
    fn step(&self, w: &mut Work, m: Move) -> Result<(), ExprError> {
        w.flips = 0;
        self.play(w, m)?;
        w.s.moves += 1;
        w.s.status = PLAYING;
        w.s.status = self.judge(w.s)?;
        Ok(())
    }

    /// The position after the legal move `m`, counted and judged.
    pub fn apply_legal(&self, s: &State, m: Move) -> Result<State, ExprError> {
        let mut board = s.clone();
        self.step(&mut Work::on(&mut board), m)?;
        Ok(board)
    }

    /// `apply_legal` on `s` itself, in place, with `scratch`'s buffers: a search makes its
    /// children on boards it keeps, so that making one allocates nothing and moves no
    /// position. With `by_listing` and a loss that is exactly "no legal move"
    /// (`loss_by_listing`), only the win is judged: the search meets such a loss as a position
    /// without moves. After an error `s` is left part way through the move.
    pub fn apply_in_place(&self, s: &mut State, m: Move, scratch: &mut Scratch, by_listing: bool)
                          -> Result<(), ExprError> {
        let mut w = Work::reusing(s, scratch);
        let played = if by_listing && self.loss_by_listing() { self.play_to_win(&mut w, m).map(|_| ()) } else {
            self.step(&mut w, m)
        };
        scratch.keep(w);
        played
    }

    /// The legal move `m` made on `w` and counted, judged for the win alone: whether it won.
    /// The caller judges a plain `noLegalMoves` loss by the listing it makes next.
    fn play_to_win(&self, w: &mut Work, m: Move) -> Result<bool, ExprError> {
        w.flips = 0;
        self.play(w, m)?;
        w.s.moves += 1;
        w.s.status = PLAYING;
        let won = self.win.as_ref().map_or(Ok(false), |c| self.holds(c, w.s))?;
        if won {
            w.s.status = WON;
        }
        Ok(won)
    }

    /// `apply_legal` with the new position's legal moves when its judgement reads them anyway
    /// (a plain `noLegalMoves` loss, as a playout judges it): one listing serves the judgement
    /// and the next move. A listing that meets an expression's error is dropped and the
    /// position judged as `apply_legal` does, so an error comes where it would have.
    pub fn apply_listing(&self, s: &State, m: Move) -> Result<(State, Option<Vec<Move>>), ExprError> {
        if !self.loss_by_listing() {
            return Ok((self.apply_legal(s, m)?, None));
        }
        let mut board = s.clone();
        if self.play_to_win(&mut Work::on(&mut board), m)? {
            return Ok((board, Some(Vec::new()))); // a finished game lists no move
        }
        let mut moves = Vec::new();
        if self.list_moves(&board, &mut moves).is_err() {
            board.status = self.judge(&board)?;
            return Ok((board, None));
        }
        if moves.is_empty() {
            board.status = LOST;
        }
        Ok((board, Some(moves)))
    }

    /// Whether `m` is legal in `s`, judged alone as `MoveGen.illegal_reason` judges it (a
    /// tap's `declare` is not read; a card move's target judges the group and the call).
    pub fn legal(&self, s: &State, m: Move) -> Result<bool, ExprError> {
        let (src, index, dst, declare) = m;
        if s.status != PLAYING || src < 0 || src as usize >= self.n {
            return Ok(false);
        }
        let src = src as usize;
        if index < 0 {
            return Ok(index == -1 && dst == -1 && self.tap_plan(s, src)?.is_some());
        }
        if dst as usize == src {
            return self.reorder_legal(s, m);
        }
        let (index, n) = (index as usize, self.n as i32);
        let pile = &s.piles[src];
        if !(0..n).contains(&dst) || index >= pile.len() {
            return Ok(false);
        }
        let ej = &self.ejects[src];
        let Some((low, face_up_only, _)) = ej.pick_span(&s.piles, pile, &self.ident) else { return Ok(false) };
        // a Pile unit moves whole from any position its gate allows (listed at the lowest)
        if index < low || (face_up_only && pile[index] & 1 == 0) || self.acting(s)?.contains(&src) {
            return Ok(false);
        }
        let dst = dst as usize;
        if self.draws[dst].is_some() || !(-1..4).contains(&declare) {
            return Ok(false);
        }
        self.drop_ok(s, src, ej.group(pile, index), dst, ej.vouched(), Some(declare))
    }

    /// `apply`: None when `m` is not a legal move of `s`.
    pub fn apply(&self, s: &State, m: Move) -> Result<Option<State>, ExprError> {
        if !self.legal(s, m)? {
            return Ok(None);
        }
        self.apply_legal(s, m).map(Some)
    }

    /// `Ends.score_value`: the `scoring.value` on this board, None without `scoring`.
    pub fn score_value(&self, s: &State) -> Result<Option<i64>, ScoreError> {
        match &self.score {
            Scoring::None => Ok(None),
            Scoring::Elsewhere(why) => Err(ScoreError::NotNative(why.clone())),
            Scoring::Native(id) => self
                .exprs
                .number(*id, s, &Scope { depot: -1, source: -1, ..Scope::default() })
                .map(Some)
                .map_err(ScoreError::Expr),
        }
    }

    /// Whether the loss condition is exactly "no legal move": a plain `noLegalMoves` (no
    /// `landUnder`, no draw with `when`, which it would ask first), so that a playout may
    /// judge it by the listing it makes next rather than by a listing of its own.
    fn loss_by_listing(&self) -> bool {
        self.by_listing
    }

    /// Uniformly random play from `s` until the game ends, no move is left or `max_moves`
    /// moves were made: (moves made, status). One board, changed in place move after move.
    pub fn playout(&self, s: &State, rng: &mut SplitMix, max_moves: u64) -> Result<(u64, i32), ExprError> {
        let mut board = s.clone();
        let mut w = Work::on(&mut board);
        let mut moves = Vec::with_capacity(64);
        let by_listing = self.loss_by_listing();
        let mut made = 0;
        if max_moves > 0 {
            self.list_moves(w.s, &mut moves)?;
        }
        while made < max_moves && !moves.is_empty() {
            let m = moves[rng.below(moves.len() as u64) as usize];
            made += 1;
            moves.clear();
            if by_listing && made < max_moves {
                // `step` with its stalemate judged by the next listing
                if !self.play_to_win(&mut w, m)? {
                    self.list_moves(w.s, &mut moves)?;
                    if moves.is_empty() {
                        w.s.status = LOST;
                    }
                }
            } else {
                self.step(&mut w, m)?;
                if made < max_moves {
                    self.list_moves(w.s, &mut moves)?;
                }
            }
        }
        Ok((made, w.s.status))
    }
}

/// The bindings of an accept rule's `when` (`Accept._why`): the group's bottom card, the
/// target's top card, the group, the target and the source.
fn accept_scope<'a>(s: &State, src: usize, group: &'a [Code], d: usize) -> Scope<'a> {
    Scope { card: group.first().copied(), top: s.piles[d].last().copied(), pile: group, depot: d as i32, source: src as i32 }
}

/// splitmix64, the playouts' own generator (the same algorithm as `cardz_core.engine.rng`).
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An unbiased int in [0, n), n > 0: rejection sampling.
    pub fn below(&mut self, n: u64) -> u64 {
        let limit = u64::MAX - (u64::MAX % n + 1) % n; // the last of the largest multiple of n
        loop {
            let r = self.next_u64();
            if r <= limit {
                return r % n;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(rank: i32, suit: i32) -> Card {
        Card { rank, suit }
    }

    #[test]
    fn splitmix_is_the_python_engines_generator() {
        // cardz_core.engine.rng.next_u64 from state 0, twice
        let mut r = SplitMix(0);
        assert_eq!(r.next_u64(), 16294208416658607535);
        assert_eq!(r.next_u64(), 7960286522194355700);
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = SplitMix(7);
        assert!((0..1000).all(|_| r.below(3) < 3));
        assert_eq!(r.below(1), 0);
    }

    #[test]
    fn relations_read_rank_suit_and_wrap() {
        let down_alt = Relation::new(Some((Dir::Down, 1, false)), SuitRule::AlternateColor, false).unwrap();
        assert!(down_alt.fits(card(10, 0), card(9, 1))); // red 9 on black 10
        assert!(!down_alt.fits(card(10, 0), card(9, 3))); // black on black
        assert!(!down_alt.fits(card(1, 0), card(13, 1))); // no wrap
        let wrap = Relation::new(Some((Dir::Up, 1, true)), SuitRule::Any, false).unwrap();
        assert!(wrap.fits(card(13, 0), card(1, 2)));
        assert!(!wrap.fits(card(0, -1), card(1, 2))); // a joker has no rank
        assert!(Relation::new(None, SuitRule::Any, false).is_none());
    }

    const EMPTIES_0: &str = r#"{"kind": "depotsEmpty", "args": {"depots": [0]}, "ptr": "/win",
                               "empties": [0], "native": "empty"}"#;
    const STALEMATE: &str = r#"{"kind": "noLegalMoves", "args": {}, "ptr": "/loss", "native": "stalemate"}"#;

    /// A two-depot game (a source and a foundation of Clubs from the Ace up) with cards
    /// `ranks` (all Clubs) and what `replace` changes in it.
    fn doc_with(ranks: &str, accept1: &str, win: &str, extra: &str, tappable: &str) -> String {
        let n = ranks.split(',').count();
        let suits = vec!["0"; n].join(", ");
        format!(
            r#"{{"compiled": {{"format": "cardz-compiled/1", "triggers": [], "redeal": [],
            "actions": [[], []], "auto_send": [null, null], "auto_refill": [null, null],
            "card_rank": [{ranks}], "card_suit": [{suits}],
            "accepts": [{{"rejects_all": true, "build": null, "suit": "Any"}}, {accept1}],
            "ejects": [{{"gate": "TopOnly", "covered_by": []}}, {{"gate": "Locked", "covered_by": []}}],
            "land_face": [-1, -1], "land_under": [false, false], "auto_flip_top": [false, false],
            "staged": false, "win": {win}, "loss": {STALEMATE}, "redeal_when": null {extra}}},
            "plan": {{"sources": [0], "drop_targets": [1], "down_targets": [], "tappable": [{tappable}],
            "flip_uncovered": [], "cells": [], "tableaus": [], "max_cascade": 10000}}}}"#
        )
    }

    const CLUBS_UP: &str = r#"{"seed": 1, "build": {"direction": "Up", "step": 1, "wrap": false}, "suit": "Same"}"#;

    fn doc(extra: &str) -> String {
        doc_with("1, 2", CLUBS_UP, EMPTIES_0, extra, "")
    }

    fn game(extra: &str) -> Result<Game, Unsupported> {
        Game::from_json(&doc(extra))
    }

    fn start(piles: Vec<Pile>) -> State {
        State { piles, ..State::default() }
    }

    const NO_DRAWS: &str = r#", "draws": [null, null]"#;

    #[test]
    fn plays_a_two_card_game_to_the_win() {
        let g = game(NO_DRAWS).unwrap();
        // the Two of Clubs (face up) on top of the Ace: only an Ace may start the foundation
        let s = start(vec![vec![1, 3], vec![]]);
        assert_eq!(g.legal_moves(&s), Ok(vec![]));
        let s = start(vec![vec![2, 1], vec![]]);
        assert_eq!(g.legal_moves(&s), Ok(vec![(0, 1, 1, -1)]));
        let s = g.apply(&s, (0, 1, 1, -1)).unwrap().unwrap();
        assert_eq!(s.piles, vec![vec![2], vec![1]]);
        assert_eq!(s.came_from, vec![-1, 0]);
        assert_eq!(s.moves, 1);
        // the Two lies face down: a face-down card is never read, so nothing is left to do
        assert_eq!(s.status, LOST);
        assert_eq!(g.apply(&s, (0, 0, 1, -1)), Ok(None));
        let s = start(vec![vec![3], vec![1]]);
        let s = g.apply(&s, (0, 0, 1, -1)).unwrap().unwrap();
        assert_eq!(s.status, WON);
        assert!(g.legal_moves(&s).unwrap().is_empty());
    }

    #[test]
    fn a_stalemate_loses() {
        let g = game(NO_DRAWS).unwrap();
        let s = start(vec![vec![1, 3], vec![]]); // the Two covers the Ace
        let out = g.apply_legal(&s, (0, 1, 1, -1)).unwrap();
        assert_eq!(out.status, LOST);
    }

    #[test]
    fn refuses_what_it_cannot_play() {
        // a step whose kind names no native primitive keeps the game on the Python engine
        let step = r#""redeal": [{"kind": "reverse", "args": {}, "ptr": "/redealRules/0", "native": null}]"#;
        let why = Game::from_json(&doc(NO_DRAWS).replace(r#""redeal": []"#, step));
        assert_eq!(why.unwrap_err(), Unsupported("the reverse step at /redealRules/0 has no native primitive".into()));
        assert!(Game::from_json("{").is_err());
        let bad = game(r#", "draws": [{"to": 9, "count": 1, "recycle": false}, null]"#);
        assert_eq!(bad.unwrap_err(), Unsupported("a depot index out of range".into()));
        let wild = CLUBS_UP.replace(r#""suit": "Same""#, r#""suit": "Same", "wild_rank": 2, "wild_declares": "rank""#);
        let bad = Game::from_json(&doc_with("1, 2", &wild, EMPTIES_0, NO_DRAWS, ""));
        assert_eq!(bad.unwrap_err(), Unsupported("depot 1's wild cards declare \"rank\"".into()));
    }

    #[test]
    fn conditions_without_a_native_primitive_are_refused() {
        let win = r#"{"kind": "someoneElses", "args": {}, "ptr": "/win", "native": null}"#;
        let why = Game::from_json(&doc_with("1, 2", CLUBS_UP, win, NO_DRAWS, "")).unwrap_err();
        assert_eq!(why, Unsupported("its win condition: the condition \"someoneElses\" is not judged natively".into()));
        let win = r#"{"kind": "odd", "args": {}, "ptr": "/win", "native": "lunar"}"#;
        let why = Game::from_json(&doc_with("1, 2", CLUBS_UP, win, NO_DRAWS, "")).unwrap_err();
        assert_eq!(why, Unsupported("its win condition: the condition \"odd\" names no native primitive \"lunar\"".into()));
    }

    #[test]
    fn nested_conditions_judge_faces_and_piles() {
        // won when every card is face up, or when the foundation holds a card and the
        // source is empty
        let win = format!(
            r#"{{"kind": "anyOf", "ptr": "/win", "native": "any_of", "args": {{"of": [
                {{"kind": "allCardsFaceUp", "args": {{}}, "ptr": "/win/of/0", "native": "all_face_up"}},
                {{"kind": "allOf", "ptr": "/win/of/1", "native": "all_of", "args": {{"of": [
                    {{"kind": "depotsNonEmpty", "args": {{"depots": [1]}}, "ptr": "/win/of/1/of/0",
                      "pattern_fields": ["depots"], "native": "non_empty"}},
                    {EMPTIES_0}]}}}}]}}}}"#
        );
        let g = Game::from_json(&doc_with("1, 2, 3", CLUBS_UP, &win, r#", "draws": [null, null]"#, "")).unwrap();
        let w = g.win.as_ref().unwrap();
        assert!(g.holds(w, &start(vec![vec![1, 3], vec![]])).unwrap()); // all face up
        assert!(!g.holds(w, &start(vec![vec![0, 3], vec![]])).unwrap());
        assert!(g.holds(w, &start(vec![vec![], vec![0]])).unwrap()); // moved out
        assert!(!g.holds(w, &start(vec![vec![2], vec![1]])).unwrap());
        assert_eq!(g.apply_legal(&start(vec![vec![4, 1], vec![]]), (0, 1, 1, -1)).unwrap().status, LOST);
        assert_eq!(g.apply_legal(&start(vec![vec![5, 1], vec![]]), (0, 1, 1, -1)).unwrap().status, WON);
    }

    #[test]
    fn a_draw_turns_cards_up_and_a_recycle_turns_them_back() {
        let extra = r#", "draws": [{"to": 1, "count": 1, "recycle": true, "max_recycles": 1}, null]"#;
        let g = Game::from_json(&doc_with("1, 2", CLUBS_UP, "null", extra, "0")).unwrap();
        let s = start(vec![vec![0], vec![]]);
        let s = g.apply(&s, (0, -1, -1, -1)).unwrap().unwrap();
        assert_eq!(s.piles, vec![vec![], vec![1]]);
        let s = g.apply(&s, (0, -1, -1, -1)).unwrap().unwrap();
        assert_eq!((s.piles.clone(), s.recycles.clone(), s.recycles_total), (vec![vec![0], vec![]], vec![1, 0], 1));
        // one recycle allowed, and it was used
        let s = g.apply(&s, (0, -1, -1, -1)).unwrap().unwrap();
        assert_eq!(g.legal_moves(&s), Ok(vec![]));
    }

    #[test]
    fn a_draw_of_three_is_three_draws_of_one() {
        let draws = |count: i32| format!(r#", "draws": [{{"to": 1, "count": {count}, "recycle": true}}, null]"#);
        let (three, one) = (draws(3), draws(1));
        let g3 = Game::from_json(&doc_with("1, 2, 3, 4", CLUBS_UP, "null", &three, "0")).unwrap();
        let g1 = Game::from_json(&doc_with("1, 2, 3, 4", CLUBS_UP, "null", &one, "0")).unwrap();
        let tap = (0, -1, -1, -1);
        // four cards face down, and one face up already on the target with a called suit; then
        // two left (fewer than three)
        for (stock, waste) in [(vec![0, 2, 4, 6], vec![]), (vec![0, 2, 4, 6], vec![3]), (vec![0, 6], vec![5])] {
            let mut s = start(vec![stock, waste]);
            s.declared = vec![2, 1];
            s.came_from = vec![1, -1];
            let by_three = g3.apply_legal(&s, tap).unwrap();
            let mut by_one = s.clone();
            for _ in 0..3.min(s.piles[0].len()) {
                by_one = g1.apply_legal(&by_one, tap).unwrap();
            }
            (by_one.moves, by_one.status) = (by_three.moves, by_three.status);
            assert_eq!(by_three, by_one);
            let mut scratch = Scratch::default();
            let mut board = s.clone();
            g3.apply_in_place(&mut board, tap, &mut scratch, true).unwrap();
            assert!(scratch.touched(0) && scratch.touched(1));
        }
        let s = g3.apply_legal(&start(vec![vec![0, 2, 4, 6], vec![]]), tap).unwrap();
        assert_eq!((s.piles, s.came_from, s.declared), (vec![vec![0], vec![7, 5, 3]], vec![-1, 0], vec![-1, -1]));
    }

    #[test]
    fn moves_listed_from_some_depots_are_those_the_full_listing_has_from_them() {
        let extra = r#", "draws": [{"to": 1, "count": 1, "recycle": true, "max_recycles": 1}, null]"#;
        let g = Game::from_json(&doc_with("1, 2", CLUBS_UP, "null", extra, "0")).unwrap();
        // the Ace face-up on the stock: it may go home, or the stock be tapped
        let s = start(vec![vec![2, 1], vec![]]);
        let all = g.legal_moves(&s).unwrap();
        assert_eq!(all, vec![(0, 1, 1, -1), (0, -1, -1, -1)]);
        for from in [vec![], vec![0], vec![1], vec![0, 1]] {
            let mut some = Vec::new();
            g.list_moves_from(&s, &g.sources_from(&from), &mut some).unwrap();
            let want: Vec<Move> = all.iter().copied().filter(|m| from.contains(&(m.0 as usize))).collect();
            assert_eq!(some, want);
        }
    }

    /// Clubs only, any rank: 1 Ace, 2 Two, 3 Three, 4 Four; the Two wild.
    fn wild_game(declares: &str) -> Game {
        let rule = format!(r#"{{"build": {{"direction": "Up", "step": 1, "wrap": false}}, "suit": "Any",
                               "wild_rank": 2, "wild_declares": "{declares}"}}"#);
        Game::from_json(&doc_with("1, 2, 3, 4", &rule, EMPTIES_0, NO_DRAWS, "")).unwrap()
    }

    #[test]
    fn a_suit_calling_wild_is_listed_once_per_suit_and_binds_what_follows() {
        let g = wild_game("suit");
        // the wild Two onto the Ace: one move per suit it may call
        let s = start(vec![vec![3], vec![1]]);
        let moves = g.legal_moves(&s).unwrap();
        assert_eq!(moves, (0..4).map(|suit| (0, 0, 1, suit)).collect::<Vec<_>>());
        let after = g.apply(&s, (0, 0, 1, 0)).unwrap().unwrap();
        assert_eq!(after.declared, vec![-1, 0]);
        assert_eq!(g.apply(&s, (0, 0, 1, -1)), Ok(None)); // a call is needed
        // Clubs were called: the Three (a Club) may follow; Hearts called: it may not
        let mut s = start(vec![vec![5], vec![1, 3]]);
        s.declared = vec![-1, 0];
        assert_eq!(g.legal_moves(&s), Ok(vec![(0, 0, 1, -1)]));
        s.declared = vec![-1, 2];
        assert_eq!(g.legal_moves(&s), Ok(vec![]));
        // nothing called (declared -1): the Two is read as printed, the Three follows
        s.declared = vec![-1, -1];
        assert_eq!(g.legal_moves(&s), Ok(vec![(0, 0, 1, -1)]));
    }

    #[test]
    fn a_transparent_wild_reads_through_to_the_card_beneath() {
        let g = wild_game("transparent");
        let acc = &g.accepts[1];
        // on the Ace, the wild Two stands for every card that may follow an Ace: any Two
        let below = g.pile_below(acc, &[1, 3], -1, 0);
        assert_eq!(below, Below::Set((0..4).fold(0, |m, suit| m | 1 << (suit * 13 + 1))));
        // so a Three follows it, a Four does not
        assert!(acc.fits(below, card(3, 0), 0));
        assert!(!acc.fits(below, card(4, 0), 0));
        assert_eq!(g.legal_moves(&start(vec![vec![5], vec![1, 3]])), Ok(vec![(0, 0, 1, -1)]));
        assert_eq!(g.legal_moves(&start(vec![vec![7], vec![1, 3]])), Ok(vec![]));
        // a second wild reads the first as any card it stands for or that may follow it
        // (a wild itself fits anywhere, so every Two): Threes and Fours now follow, Fives not
        let two_wilds = g.pile_below(acc, &[1, 3, 3], -1, 0);
        assert!(acc.fits(two_wilds, card(4, 2), 0) && !acc.fits(two_wilds, card(5, 2), 0));
        // a free wild lets anything follow
        let free = wild_game("free");
        assert_eq!(free.pile_below(&free.accepts[1], &[1, 3], -1, 0), Below::Free);
    }

    #[test]
    fn an_accept_expression_sees_the_group_the_target_and_the_source() {
        let s = start(vec![vec![2, 5, 7], vec![1]]);
        let scope = accept_scope(&s, 0, &s.piles[0][1..], 1);
        assert_eq!((scope.card, scope.top, scope.pile, scope.depot, scope.source), (Some(5), Some(1), &[5, 7][..], 1, 0));
        let empty = start(vec![vec![3], vec![]]);
        assert_eq!(accept_scope(&empty, 0, &empty.piles[0], 1).top, None);
    }

    #[test]
    fn a_score_it_cannot_compute_is_left_to_the_python_engine() {
        let g = game(NO_DRAWS).unwrap();
        assert_eq!(g.score_value(&start(vec![vec![], vec![]])), Ok(None));
        // this build's expression interface loads no program: the score stays in Python
        let scored = game(r#", "draws": [null, null], "scoring": {"value": {"ptr": "/scoring/value"}, "keep": "Always"}"#).unwrap();
        assert!(matches!(scored.score_value(&start(vec![vec![], vec![]])), Err(ScoreError::NotNative(_))));
    }

    #[test]
    fn a_playout_in_place_makes_the_moves_apply_makes() {
        // the foundation of Clubs from the Ace up, the stock drawn onto it one card at a time
        let extra = r#", "draws": [{"to": 1, "count": 1, "recycle": true}, null]"#;
        let plan = doc_with("1, 2, 3, 4", CLUBS_UP, "null", extra, "0");
        let g = Game::from_json(&plan).unwrap();
        let s = start(vec![vec![6, 4, 2, 0], vec![]]);
        let (mut a, mut b) = (SplitMix(3), SplitMix(3));
        let (made, status) = g.playout(&s, &mut a, 50).unwrap();
        let mut t = s.clone();
        let mut count = 0;
        while count < 50 {
            let moves = g.legal_moves(&t).unwrap();
            if moves.is_empty() {
                break;
            }
            t = g.apply_legal(&t, moves[b.below(moves.len() as u64) as usize]).unwrap();
            count += 1;
        }
        assert_eq!((made, status), (count, t.status));
        assert_eq!(t.moves, count as i64);
    }

    #[test]
    fn a_board_keeping_a_triggers_when_stays_the_board_apply_makes() {
        // two triggers. On the foundation (1): once it holds two cards, its top goes back under
        // the stock. On the stock (0): while it holds a face-down card, its top turns up. Each
        // `when` reads its own depot's pile alone (its footprint). When the stock's trigger
        // turns a card up, the pass runs again and the foundation's `when`, false before and
        // its pile unchanged, is answered from the kept result; a board kept from move to move
        // (as a playout's) must stay the board a fresh `apply` of each move makes
        let expr = |root: &str| format!(r#"{{"$": "ExprRef", "ptr": "/t", "program": {{"program": {{"format": 1, "slots": 0, "root": {root}}}}}}}"#);
        let full = expr(r#"["cmp", "==", "plain", ["call", "f", 0, [["cards", ["bind", "depot"]]]], ["const", 2]]"#);
        let hidden = expr(r#"["cmp", ">", "plain",
            ["call", "f", 0, [["call", "down", 0, [["cards", ["bind", "depot"]]]]]], ["const", 0]]"#);
        let back = r#"{"kind": "move", "ptr": "/t/do/0", "native": "move_top",
                       "args": {"from": 1, "to": 0, "count": 1, "under": true}}"#;
        let flip = r#"{"kind": "flip", "ptr": "/u/do/0", "native": "turn_top_up", "args": {"depot": 0}}"#;
        let expr = r#", "expr": {"cards": [[1, 0, 0, 1, false], [2, 0, 0, 2, false], [3, 0, 0, 3, false], [4, 0, 0, 4, false]],
            "depot_index": {}, "groups": {}, "types": {}, "group_of": [null, null], "copy_index": [0, 0],
            "covered_by": [[], []], "grid": [null, null],
            "functions": {"f": ["count_cards"], "down": ["face_down_cards"]}}}"#;
        let extra = r#", "draws": [{"to": 1, "count": 1, "recycle": true}, null]"#;
        let triggers = format!(
            r#""triggers": [{{"depot": 1, "when": {full}, "do": [{back}]}}, {{"depot": 0, "when": {hidden}, "do": [{flip}]}}]"#
        );
        let mut doc = doc_with("1, 2, 3, 4", CLUBS_UP, "null", extra, "0").replace(r#""triggers": []"#, &triggers);
        doc.truncate(doc.len() - 1);
        let g = Game::from_json(&(doc + expr)).unwrap();
        assert_eq!((g.rules.trigger_reads(0), g.rules.trigger_reads(1)), (Some(&[1][..]), Some(&[0][..])));
        let s = start(vec![vec![6, 4, 2, 0], vec![]]);
        let kept_before = settle::KEPT_ANSWERS.with(|n| n.get());
        for seed in 0..20 {
            // one board kept from move to move, as a playout keeps it, beside a fresh one a move
            let (mut rng, mut board, mut t, mut fired) = (SplitMix(seed), s.clone(), s.clone(), false);
            let mut w = Work::on(&mut board);
            for _ in 0..40 {
                let moves = g.legal_moves(&t).unwrap();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                g.step(&mut w, m).unwrap();
                t = g.apply_legal(&t, m).unwrap();
                assert_eq!((&w.s.piles, w.s.status), (&t.piles, t.status), "seed {seed}, after {m:?}");
                assert!(t.piles[1].len() < 2, "seed {seed}: the foundation's trigger did not hold at two cards");
                // the stock's trigger turns only its top up: a face-up card under others came back
                fired |= t.piles[0].len() > 1 && t.piles[0][0] & 1 == 1;
            }
            assert!(fired, "seed {seed}: the foundation's trigger never held");
        }
        assert!(settle::KEPT_ANSWERS.with(|n| n.get()) > kept_before, "no `when` was answered from a kept result");
    }

    #[test]
    fn cards_an_accept_when_refuses_for_every_board_are_never_candidates() {
        // the foundation takes any card whose rank is its top's: the Aces on an Ace, not the Two
        let rank = |b: &str| format!(r#"["prop", "rank", ["bind", "{b}"]]"#);
        let when = format!(r#"{{"$": "ExprRef", "ptr": "/when", "program": {{"program": {{"format": 1, "slots": 0,
            "root": ["cmp", "==", "maybe", {}, {}]}}}}}}"#, rank("card"), rank("top"));
        let accept = format!(r#"{{"build": null, "suit": "Any", "when": {when}}}"#);
        let expr = r#", "expr": {"cards": [[1, 0, 0, 1, false], [1, 0, 0, 1, false], [2, 0, 0, 2, false]],
            "depot_index": {}, "groups": {}, "types": {}, "group_of": [null, null], "copy_index": [0, 0],
            "covered_by": [[], []], "grid": [null, null], "functions": {}}}"#;
        let mut doc = doc_with("1, 1, 2", &accept, "null", NO_DRAWS, "");
        doc.truncate(doc.len() - 1);
        let g = Game::from_json(&(doc + expr)).unwrap();
        let acc = &g.accepts[1];
        assert_eq!(&acc.wanted[acc.wanted_at[0]..acc.wanted_at[1]], &[0, 1]);
        assert_eq!(&acc.wanted[acc.wanted_at[2]..acc.wanted_at[3]], &[2]);
        assert_eq!(g.legal_moves(&start(vec![vec![3], vec![1]])), Ok(vec![(0, 0, 1, -1)]));
        assert_eq!(g.legal_moves(&start(vec![vec![5], vec![1]])), Ok(vec![]));
    }

    #[test]
    fn an_accept_when_kept_between_listings_is_judged_again_once_a_pile_it_reads_changed() {
        // the foundation takes the Two only while the source holds exactly two cards: its
        // `when` reads pile 0, besides the bound card and top card
        let when = r#"{"$": "ExprRef", "ptr": "/when", "program": {"program": {"format": 1, "slots": 0,
            "root": ["cmp", "==", "plain", ["call", "f", 0, [["cards", ["const", 0]]]], ["const", 2]]}}}"#;
        let accept = CLUBS_UP.replace(r#""suit": "Same""#, &format!(r#""suit": "Same", "when": {when}"#));
        let expr = r#", "expr": {"cards": [[1, 0, 0, 1, false], [2, 0, 0, 2, false], [3, 0, 0, 3, false]],
            "depot_index": {}, "groups": {}, "types": {}, "group_of": [null, null], "copy_index": [0, 0],
            "covered_by": [[], []], "grid": [null, null], "functions": {"f": ["count_cards"]}}}"#;
        let mut doc = doc_with("1, 2, 3", &accept, "null", NO_DRAWS, "");
        doc.truncate(doc.len() - 1);
        let g = Game::from_json(&(doc + expr)).unwrap();
        assert_eq!(g.when_reads[1], Some((vec![1, 0], false)));
        // the same card on the same top each time; only the pile under the Two differs
        let two = start(vec![vec![4, 3], vec![1]]);
        let one = start(vec![vec![3], vec![1]]);
        for s in [&two, &one, &one, &two, &two, &one] {
            let want = if s.piles[0].len() == 2 { vec![(0, 1, 1, -1)] } else { vec![] };
            assert_eq!(g.legal_moves(s).unwrap(), want, "{:?}", s.piles);
        }
    }

    /// A staged game: a column (depot 0) whose cards move onto another column (depot 3),
    /// building down in any suit, or one at a time into two cells (1 and 2). Card ids 0 to 4
    /// are ranks 5 to 1.
    fn staged_game() -> Game {
        let down = r#"{"build": {"direction": "Down", "step": 1, "wrap": false}, "suit": "Any"}"#;
        let cell = r#"{"empty_only": true, "single": true, "build": null, "suit": "Any"}"#;
        let doc = format!(
            r#"{{"compiled": {{"format": "cardz-compiled/1", "triggers": [], "redeal": [],
            "actions": [[], [], [], []], "auto_send": [null, null, null, null],
            "auto_refill": [null, null, null, null], "card_rank": [5, 4, 3, 2, 1], "card_suit": [0, 0, 0, 0, 0],
            "accepts": [{down}, {cell}, {cell}, {down}],
            "ejects": [{{"gate": "FaceUp", "covered_by": []}}, {{"gate": "TopOnly", "covered_by": []}},
                       {{"gate": "TopOnly", "covered_by": []}}, {{"gate": "Locked", "covered_by": []}}],
            "land_face": [-1, -1, -1, -1], "land_under": [false, false, false, false],
            "auto_flip_top": [false, false, false, false], "staged": true, "win": null, "loss": {STALEMATE},
            "redeal_when": null, "draws": [null, null, null, null]}},
            "plan": {{"sources": [0], "drop_targets": [1, 2, 3], "down_targets": [], "tappable": [],
            "flip_uncovered": [], "cells": [1, 2], "tableaus": [0, 3], "max_cascade": 10000}}}}"#
        );
        Game::from_json(&doc).unwrap()
    }

    #[test]
    fn a_staged_group_is_listed_up_to_the_room_the_empty_cells_give_and_no_longer() {
        let g = staged_game();
        let up = |id: i32| id << 1 | 1;
        // the 4, 3, 2 in order on the column; the 5 on the other: (2 empty cells + 1) = 3 cards
        let s = start(vec![vec![up(1), up(2), up(3)], vec![], vec![], vec![up(0)]]);
        let whole: Move = (0, 0, 3, -1);
        assert_eq!(g.legal_moves(&s), Ok(vec![whole, (0, 2, 1, -1), (0, 2, 2, -1)]));
        // the Ace in a cell: room for two cards, so the run of three is not listed, nor legal
        let s = start(vec![vec![up(1), up(2), up(3)], vec![up(4)], vec![], vec![up(0)]]);
        assert_eq!(g.legal_moves(&s), Ok(vec![(0, 2, 2, -1)]));
        assert_eq!(g.legal(&s, whole), Ok(false));
        // with the 4 gone, the two cards left fit that room
        let s = start(vec![vec![up(2), up(3)], vec![up(4)], vec![], vec![up(0), up(1)]]);
        assert_eq!(g.legal_moves(&s), Ok(vec![(0, 0, 3, -1), (0, 1, 2, -1)]));
    }

    #[test]
    fn the_listing_scratch_follows_positions_and_games() {
        // two games of the same shape take turns with the thread's scratch, on changing
        // positions: each listing is the one a fresh scratch gives
        let (a, b) = (wild_game("none"), game(NO_DRAWS).unwrap());
        let positions = [vec![vec![5], vec![1, 3]], vec![vec![3], vec![1]], vec![vec![1], vec![]],
                         vec![vec![2, 1], vec![]], vec![vec![7, 5], vec![3]]];
        for piles in positions.iter().chain(positions.iter().rev()) {
            for g in [&a, &b] {
                let s = start(piles.iter().map(|p| p.iter().map(|&c| c % (2 * g.ident.len() as i32)).collect()).collect());
                let mut fresh = Vec::new();
                g.card_moves_with(&s, false, &mut fresh, &mut Wanted::default(), &g.sources, &[]).unwrap();
                assert_eq!(g.legal_moves(&s).unwrap(), fresh, "{:?}", s.piles);
            }
        }
    }
}
