//! The Klondike model's search (docs/solver.md, "Klondike-shaped games"), natively: columns that
//! build by a fixed relation and turn their top card up, foundations that each take one chain of
//! cards in order and give nothing back, and a stock dealt `draw` cards at a time to a waste and
//! turned over without limit. `cardz_core/solver/klondike.py` checks a rule set for that shape,
//! reads the relations from the game's own accept rules and turns the won steps into engine moves.
//!
//! A position is fixed-size (no allocation to copy it). The stock and waste are one sequence, the
//! talon: the waste bottom first, then the stock in the order it deals, and the waste's size. A
//! child that plays a talon card stands for the taps that bring it to the waste's top and the
//! play, so the positions between taps are never stored. Columns are interchangeable, so the key
//! sums a hash of each. A card goes home without branching once every card that could lie on it
//! in a column is home. The search is one depth-first pass over every position reachable, so
//! when it ends without a win the deal is lost.

use std::time::{Duration, Instant};

use crate::solver::clock;
use crate::solver::search::{Answer, Stop};
use met::{Kept, Met};

mod met;
pub mod sampled;
mod trap;

/// The most cards the model holds: a card set is one 64-bit mask.
pub const MAX_CARDS: usize = 64;
/// The most columns a position may have.
pub const MAX_COLUMNS: usize = 10;
/// The most cards a column may ever hold (its face-down cards and the longest run on them).
pub const COLUMN_CAP: usize = 32;
/// The most foundation chains (suits).
pub const MAX_SUITS: usize = 8;
/// How often the clock is read: before every this many positions recorded.
const CLOCK_EVERY: u64 = 256;

/// Why the model cannot take a game or a position.
#[derive(Debug, PartialEq, Eq)]
pub struct Unfit(pub String);

fn unfit<T>(why: impl Into<String>) -> Result<T, Unfit> {
    Err(Unfit(why.into()))
}

/// What the rules say of the cards, once per game. `suit[c]` is the foundation chain card `c`
/// belongs to and `rank[c]` its place in it (1 first); `on[b]` the cards a column lets lie on `b`,
/// `empty` those an empty column takes; `draw` the cards a tap deals.
#[derive(Clone)]
pub struct Rules {
    suit: Vec<u8>,
    rank: Vec<u8>,
    on: Vec<u64>,
    empty: u64,
    /// the cards of `c`'s chain and place (`c` among them), and those of the place after it
    peers: Vec<u64>,
    after: Vec<u64>,
    /// the cards `c` may lie on in a column, and the cards before `c` in its chain (`trap`)
    bases: Vec<u64>,
    /// the cards that `c` going home may let go home without branching (`home_then_settles`)
    stirs: Vec<u64>,
    lower: Vec<u64>,
    /// the longest run a column can build
    run_max: usize,
    draw: usize,
    /// a talon card goes to a column only when a card from a column can follow it there (one
    /// card a tap: `used_from_columns`)
    lazy_stock: bool,
    /// the same game at one card a tap, searched beside this one when it deals more (`search`)
    one_a_tap: Option<Box<Rules>>,
    zobrist: Zobrist,
}

impl Rules {
    pub fn new(suit: Vec<u8>, rank: Vec<u8>, on: Vec<u64>, empty: u64, draw: usize) -> Result<Rules, Unfit> {
        let n = suit.len();
        if n == 0 || n > MAX_CARDS || rank.len() != n || on.len() != n {
            return unfit(format!("the model holds 1 to {MAX_CARDS} cards, with a suit, rank and run row each"));
        }
        let outside = if n == MAX_CARDS { 0 } else { !0u64 << n };
        if on.iter().chain([&empty]).any(|m| m & outside != 0) {
            return unfit("a run row names a card out of range");
        }
        if suit.iter().any(|&s| usize::from(s) >= MAX_SUITS) || rank.contains(&0) || draw == 0 {
            return unfit(format!("suits are 0 to {}, ranks from 1, and a tap deals at least one card", MAX_SUITS - 1));
        }
        let run_max = longest_run(&on).ok_or_else(|| Unfit("a column could build round in a circle".into()))?;
        let cards = |c: usize, up: u8| (0..n).filter(|&x| suit[x] == suit[c] && rank[x] == rank[c].wrapping_add(up)).fold(0, |m, x| m | 1 << x);
        let (peers, after): (Vec<u64>, Vec<u64>) = (0..n).map(|c| (cards(c, 0), cards(c, 1))).unzip();
        let bases: Vec<u64> = (0..n).map(|c| (0..n).filter(|&b| on[b] & 1 << c != 0).fold(0, |m, b| m | 1 << b)).collect();
        let lower = (0..n).map(|c| (0..n).filter(|&x| suit[x] == suit[c] && rank[x] < rank[c]).fold(0, |m, x| m | 1 << x)).collect();
        let stirs = stirs(&after, &bases);
        let rules = Rules { suit, rank, on, empty, peers, after, bases, stirs, lower, run_max, draw: 1, lazy_stock: true, one_a_tap: None, zobrist: Zobrist::new() };
        Ok(match draw {
            1 => rules,
            _ => Rules { draw, lazy_stock: false, one_a_tap: Some(Box::new(rules.clone())), ..rules },
        })
    }

    fn n(&self) -> usize {
        self.suit.len()
    }

    /// Every card of the game, as a set.
    fn all(&self) -> u64 {
        u64::MAX.checked_shr((MAX_CARDS - self.n()) as u32).unwrap_or(0)
    }
}

/// For each card `c`, the cards that `goes_home_now` may call ready once `c` has gone home when
/// it did not before: the card after `c`, a card `c` may lie on (`bases`), and a card on which
/// may lie the card after `c` or a card `c` may lie on. Nothing else `c` going home changes.
fn stirs(after: &[u64], bases: &[u64]) -> Vec<u64> {
    let union = |m: u64| bits(m).fold(0, |u, x| u | bases[x]);
    (0..after.len()).map(|c| after[c] | bases[c] | union(bases[c]) | union(after[c])).collect()
}

/// The cards of a set, lowest first.
fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            x
        })
    })
}

/// The number of cards in the longest chain of `on`, None when it has a circle.
fn longest_run(on: &[u64]) -> Option<usize> {
    // 0 unknown, 1 on the path, 2 + length once known
    fn visit(c: usize, on: &[u64], memo: &mut [usize]) -> Option<usize> {
        match memo[c] {
            1 => return None,
            0 => {}
            known => return Some(known - 2),
        }
        memo[c] = 1;
        let mut best = 0;
        for x in bits(on[c]) {
            best = best.max(visit(x, on, memo)?);
        }
        memo[c] = best + 3;
        Some(best + 1)
    }
    let mut memo = vec![0; on.len()];
    (0..on.len()).try_fold(0, |m, c| Some(m.max(visit(c, on, &mut memo)?)))
}

/// Random words for the key: one per (place in a column, card), face-down count, card in the
/// talon and waste size, each 128 bits as two halves.
#[derive(Clone)]
struct Zobrist {
    column: Vec<[u64; 2]>,
    down: Vec<[u64; 2]>,
    talon: Vec<[u64; 2]>,
    waste: Vec<[u64; 2]>,
}

impl Zobrist {
    fn new() -> Zobrist {
        let mut seed = 0x6b6c_6f6e_6469_6b65u64; // fixed: keys are the same on every run
        let mut words = |n: usize| -> Vec<[u64; 2]> { (0..n).map(|_| [splitmix(&mut seed), splitmix(&mut seed)]).collect() };
        Zobrist {
            column: words(COLUMN_CAP * MAX_CARDS),
            down: words(COLUMN_CAP + 1),
            talon: words(MAX_CARDS),
            waste: words(MAX_CARDS + 1),
        }
    }
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    mix(*state)
}

fn xor(a: [u64; 2], b: [u64; 2]) -> [u64; 2] {
    [a[0] ^ b[0], a[1] ^ b[1]]
}

/// Set column `i`'s share of the key from its words.
fn set_raw(b: &mut Board, i: usize, raw: [u64; 2]) {
    b.col_raw[i] = raw;
    b.col_key[i] = mixed(raw);
}

/// A column's share of the key, mixed from its words (the second half with another seed).
fn mixed(h: [u64; 2]) -> [u64; 2] {
    [mix(h[0]), mix(h[1] ^ 0x5bd1_e995)]
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A position: each column's cards (bottom first) and how many of them are face down, the
/// talon and the waste's size, and the cards home (as a set, and the next of each chain).
#[derive(Clone)]
struct Board {
    cols: [[u8; COLUMN_CAP]; MAX_COLUMNS],
    len: [u8; MAX_COLUMNS],
    down: [u8; MAX_COLUMNS],
    n_cols: u8,
    talon: [u8; MAX_CARDS],
    talon_len: u8,
    waste: u8,
    home_set: u64,
    next_home: u64,
    out: u8,
    /// each column's face-up cards, as a set
    up: [u64; MAX_COLUMNS],
    /// each column's share of the key, and the talon's (kept as the board changes)
    col_key: [[u64; 2]; MAX_COLUMNS],
    talon_key: [u64; 2],
    /// each column's share before mixing, which a move changes word by word
    col_raw: [[u64; 2]; MAX_COLUMNS],
}

/// Where a step puts its cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum To {
    Home,
    Column(u8),
}

/// A step of the model: the cards of a column from `at` up, or the talon's card at `at` (after
/// the taps that bring it to the waste's top), to a foundation or a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Column { from: u8, at: u8, to: To },
    Talon { at: u8, to: To },
}

impl Step {
    /// The column the step puts its cards on, if any.
    fn to_column(self) -> Option<usize> {
        match self {
            Step::Column { to: To::Column(t), .. } | Step::Talon { to: To::Column(t), .. } => Some(usize::from(t)),
            _ => None,
        }
    }
}

/// A deal or a later position of the model: the columns (face-down count, cards bottom first),
/// the talon and the waste's size, and the cards home in each chain.
pub struct Position {
    pub columns: Vec<(usize, Vec<u8>)>,
    pub talon: Vec<u8>,
    pub waste: usize,
    pub home: Vec<u8>,
}

/// The answer: a won line's steps, the positions recorded (the start counts one), and what
/// stopped an unknown answer.
pub struct Found {
    pub answer: Answer,
    pub steps: Vec<Step>,
    pub states: u64,
    pub stopped_by: Option<Stop>,
}

/// No order: a face-down card turns up as dealt (`Rules::apply`).
pub const IN_PLACE: &[u8] = &[];

/// The next card of `order` to turn up on `b`, whose face-down cards are the last of `order`.
fn next_in(b: &Board, order: &[u8]) -> u8 {
    let down: usize = b.down[..usize::from(b.n_cols)].iter().map(|&d| usize::from(d)).sum();
    order[order.len() - down]
}

/// A position's mark in `Met` once proved lost (orders stay far below it).
const LOST: u32 = u32::MAX;
const _: () = assert!(LOST != met::FREE);

impl Rules {
    fn board(&self, p: &Position) -> Result<Board, Unfit> {
        let n = self.n();
        if p.columns.len() > MAX_COLUMNS || p.talon.len() > MAX_CARDS || p.waste > p.talon.len() {
            return unfit(format!("at most {MAX_COLUMNS} columns, and a waste within the talon"));
        }
        if p.home.len() > MAX_SUITS {
            return unfit("more chains home than the model holds");
        }
        let mut b = Board {
            cols: [[0; COLUMN_CAP]; MAX_COLUMNS],
            len: [0; MAX_COLUMNS],
            down: [0; MAX_COLUMNS],
            n_cols: p.columns.len() as u8,
            talon: [0; MAX_CARDS],
            talon_len: p.talon.len() as u8,
            waste: p.waste as u8,
            home_set: 0,
            next_home: 0,
            out: 0,
            up: [0; MAX_COLUMNS],
            col_key: [[0; 2]; MAX_COLUMNS],
            talon_key: [0; 2],
            col_raw: [[0; 2]; MAX_COLUMNS],
        };
        let mut met = 0u64;
        let mut meet = |c: u8| -> Result<(), Unfit> {
            if usize::from(c) >= n || met & 1 << c != 0 {
                return unfit(format!("card {c} is out of range or met twice"));
            }
            met |= 1 << c;
            Ok(())
        };
        for (i, (down, cards)) in p.columns.iter().enumerate() {
            if *down > cards.len() || (*down == cards.len() && *down > 0) || down + self.run_max > COLUMN_CAP {
                return unfit(format!("column {i} has its top face down, or could outgrow {COLUMN_CAP} cards"));
            }
            for (j, &c) in cards.iter().enumerate() {
                meet(c)?;
                if j > *down && self.on[usize::from(cards[j - 1])] & 1 << c == 0 {
                    return unfit(format!("column {i}'s face-up cards are not a run"));
                }
                b.cols[i][j] = c;
            }
            b.len[i] = cards.len() as u8;
            b.down[i] = *down as u8;
            b.up[i] = cards[*down..].iter().fold(0, |m, &c| m | 1 << c);
        }
        for (j, &c) in p.talon.iter().enumerate() {
            meet(c)?;
            b.talon[j] = c;
        }
        let mut home = [0u8; MAX_SUITS];
        home[..p.home.len()].copy_from_slice(&p.home);
        for c in 0..n {
            let h = home[usize::from(self.suit[c])];
            if self.rank[c] <= h {
                meet(c as u8)?;
                b.home_set |= 1 << c;
            } else if usize::from(self.rank[c]) == usize::from(h) + 1 {
                b.next_home |= 1 << c;
            }
        }
        if met.count_ones() as usize != n {
            return unfit("some cards are neither in the columns, the talon nor home");
        }
        b.out = (n - b.home_set.count_ones() as usize) as u8;
        for i in 0..p.columns.len() {
            self.set_column_key(&mut b, i);
        }
        b.talon_key = self.talon_key(&b);
        Ok(b)
    }

    /// Column `i`'s share of the key: its cards by place and its face-down count, and that
    /// mixed, so that the shares can be summed whatever the columns' order.
    fn set_column_key(&self, b: &mut Board, i: usize) {
        let z = &self.zobrist;
        let mut h = z.down[usize::from(b.down[i])];
        for (j, &c) in b.cols[i][..usize::from(b.len[i])].iter().enumerate() {
            h = xor(h, z.column[j * MAX_CARDS + usize::from(c)]);
        }
        set_raw(b, i, h);
    }

    /// The waste's size as the key sees it. Taps are free and the stock turns over without
    /// limit, so the sizes taps lead round to from an empty waste (every multiple of `draw`, and
    /// the whole talon) reach one another and the same talon places: one class, keyed as 0.
    /// Any other size is reached from its class only by playing a card, and keyed as itself.
    #[inline(always)]
    fn waste_class(&self, w: usize, tl: usize) -> usize {
        if w.is_multiple_of(self.draw) || w == tl {
            0
        } else {
            w
        }
    }

    fn talon_key(&self, b: &Board) -> [u64; 2] {
        let z = &self.zobrist;
        let mut t = z.waste[self.waste_class(usize::from(b.waste), usize::from(b.talon_len))];
        // the talon's cards as a set: cards only ever leave it, so within a search its order is
        // the first talon's order and the set tells which cards lie where
        for &c in &b.talon[..usize::from(b.talon_len)] {
            t = xor(t, z.talon[usize::from(c)]);
        }
        t
    }

    fn key(&self, b: &Board) -> u128 {
        let mut sum = b.talon_key;
        for k in &b.col_key[..usize::from(b.n_cols)] {
            sum = [sum[0].wrapping_add(k[0]), sum[1].wrapping_add(k[1])];
        }
        u128::from(sum[0]) | u128::from(sum[1]) << 64
    }

    /// The key of the child `s` makes of `b` (whose key is `key`), worked out from the words the
    /// move changes without making the child; None when the child would send a card home without
    /// branching (then more may follow, and only making it tells which). `b` is settled, as every
    /// position the search keeps is: no column top could go home without branching.
    fn child_key(&self, b: &Board, key: u128, s: Step, order: &[u8]) -> Option<u128> {
        let mut sum = [key as u64, (key >> 64) as u64];
        let mut swap = |old: [u64; 2], new: [u64; 2]| {
            sum = [sum[0].wrapping_sub(old[0]).wrapping_add(new[0]), sum[1].wrapping_sub(old[1]).wrapping_add(new[1])];
        };
        // the pile the cards leave changes as `apply` changes it, whatever they go to; a card
        // the move leaves ready to go home without branching gives no key
        match s {
            Step::Column { from, at, to } => {
                let (i, at) = (usize::from(from), usize::from(at));
                let under = if at > 0 { self.under(b, i, at, order) } else { 0 };
                match to {
                    To::Home => {
                        if self.home_then_settles(b, b.cols[i][at], Some((i, (at > 0).then_some(under)))) {
                            return None;
                        }
                    }
                    To::Column(t) => {
                        if at > 0 && self.goes_home_now(b, under) {
                            return None;
                        }
                        let t = usize::from(t);
                        swap(b.col_key[t], mixed(self.raw_with(b, t, &b.cols[i][at..usize::from(b.len[i])])));
                    }
                }
                swap(b.col_key[i], mixed(self.raw_without(b, i, at, under)));
            }
            Step::Talon { at, to } => {
                let (at, c) = (usize::from(at), b.talon[usize::from(at)]);
                match to {
                    To::Home => {
                        if self.home_then_settles(b, c, None) {
                            return None;
                        }
                    }
                    To::Column(t) => {
                        if self.goes_home_now(b, c) {
                            return None;
                        }
                        let t = usize::from(t);
                        swap(b.col_key[t], mixed(self.raw_with(b, t, &[c])));
                    }
                }
                swap(b.talon_key, self.talon_without(b, at));
            }
        }
        Some(u128::from(sum[0]) | u128::from(sum[1]) << 64)
    }

    /// Column `i`'s share before mixing once its cards from `at` up leave it, the card under
    /// them turning up as `under` (`Rules::under`) when they lay on its face-down cards.
    #[inline(always)]
    fn raw_without(&self, b: &Board, i: usize, at: usize, under: u8) -> [u64; 2] {
        let z = &self.zobrist;
        let (l, d) = (usize::from(b.len[i]), usize::from(b.down[i]));
        let mut raw = b.cols[i][at..l].iter().enumerate().fold(b.col_raw[i], |raw, (k, &c)| xor(raw, z.column[(at + k) * MAX_CARDS + usize::from(c)]));
        if at > 0 && d == at {
            // the card may turn up as another (`order`); when it does not its words cancel
            let place = (at - 1) * MAX_CARDS;
            let card = xor(z.column[place + usize::from(b.cols[i][at - 1])], z.column[place + usize::from(under)]);
            raw = xor(raw, xor(card, xor(z.down[d], z.down[d - 1])));
        }
        raw
    }

    /// Column `t`'s share before mixing once `cards` are put on it.
    #[inline(always)]
    fn raw_with(&self, b: &Board, t: usize, cards: &[u8]) -> [u64; 2] {
        let (z, tl) = (&self.zobrist, usize::from(b.len[t]));
        cards.iter().enumerate().fold(b.col_raw[t], |raw, (k, &c)| xor(raw, z.column[(tl + k) * MAX_CARDS + usize::from(c)]))
    }

    /// The talon's share once its card at `at` is played: the card leaves the set and the
    /// waste ends below it.
    #[inline(always)]
    fn talon_without(&self, b: &Board, at: usize) -> [u64; 2] {
        let z = &self.zobrist;
        let tl = usize::from(b.talon_len);
        let (old, new) = (self.waste_class(usize::from(b.waste), tl), self.waste_class(at, tl - 1));
        xor(b.talon_key, xor(xor(z.waste[old], z.waste[new]), z.talon[usize::from(b.talon[at])]))
    }

    /// The card under column `i`'s place `at` once that is uncovered: the one there, or when it
    /// is face down and the face-down cards turn up in `order`, the next in it.
    #[inline(always)]
    fn under(&self, b: &Board, i: usize, at: usize, order: &[u8]) -> u8 {
        if !order.is_empty() && at == usize::from(b.down[i]) {
            next_in(b, order)
        } else {
            b.cols[i][at - 1]
        }
    }

    fn goes_home(&self, b: &Board, c: u8) -> bool {
        b.next_home & 1 << c != 0
    }

    /// Whether `c` goes home without branching (`settle`): it may, and each card still out that
    /// could lie on it may go home too and has no card still out that could lie on it in turn. A
    /// winning line that would put such a card on `c` may send it home instead, as nothing is
    /// ever put on it (docs/solver.md, section 8).
    fn goes_home_now(&self, b: &Board, c: u8) -> bool {
        self.goes_home_now_with(b.next_home, b.home_set, c)
    }

    /// `goes_home_now` with the cards that go home next and the cards home given as masks.
    #[inline(always)]
    fn goes_home_now_with(&self, next_home: u64, home_set: u64, c: u8) -> bool {
        if next_home & 1 << c == 0 {
            return false;
        }
        let mut out = self.on[usize::from(c)] & !home_set;
        while out != 0 {
            let x = out.trailing_zeros() as usize;
            out &= out - 1;
            if next_home & 1 << x == 0 || self.on[x] & !home_set != 0 {
                return false;
            }
        }
        true
    }

    /// Whether `settle` sends another card home once `c` has gone home from the settled `b`:
    /// a column's top (for the column `c` leaves, `from` with its new top, none when it empties)
    /// or, at one card a tap, a talon card, that goes home without branching then.
    fn home_then_settles(&self, b: &Board, c: u8, from: Option<(usize, Option<u8>)>) -> bool {
        let (next_home, home_set) = self.home_after(b, c);
        let now = |t: u8| self.goes_home_now_with(next_home, home_set, t);
        if from.is_some_and(|(_, top)| top.is_some_and(now)) {
            return true;
        }
        // `b` is settled: any other card that goes home now is one `c` going home stirred,
        // which is rarely any
        let (nc, tl) = (usize::from(b.n_cols), usize::from(b.talon_len));
        bits(next_home & self.stirs[usize::from(c)]).any(|t| {
            let t = t as u8;
            let top = |j: usize| from.is_none_or(|(i, _)| i != j) && b.len[j] > 0 && b.cols[j][usize::from(b.len[j]) - 1] == t;
            now(t) && ((0..nc).any(top) || self.draw == 1 && b.talon[..tl].contains(&t))
        })
    }

    /// The cards that go home next and the cards home once `c` has gone home from `b`.
    #[inline(always)]
    fn home_after(&self, b: &Board, c: u8) -> (u64, u64) {
        (b.next_home & !self.peers[usize::from(c)] | self.after[usize::from(c)], b.home_set | 1 << c)
    }

    fn send_home(&self, b: &mut Board, c: u8) {
        (b.next_home, b.home_set) = self.home_after(b, c);
        b.out -= 1;
    }

    /// Play `s` on `b`; a face-down card it uncovers turns up as dealt, or as the next in
    /// `order` when that is not empty (`sampled::in_order`).
    fn apply(&self, b: &mut Board, s: Step, order: &[u8]) {
        match s {
            Step::Column { from, at, to } => {
                let (i, at) = (usize::from(from), usize::from(at));
                let l = usize::from(b.len[i]);
                let under = if at > 0 { self.under(b, i, at, order) } else { 0 };
                let from_raw = self.raw_without(b, i, at, under);
                match to {
                    To::Home => {
                        let c = b.cols[i][at];
                        b.up[i] &= !(1 << c);
                        self.send_home(b, c);
                    }
                    To::Column(t) => {
                        let t = usize::from(t);
                        let to_raw = self.raw_with(b, t, &b.cols[i][at..l]);
                        let tl = usize::from(b.len[t]);
                        let moved = l - at;
                        let group = b.cols[i];
                        b.cols[t][tl..tl + moved].copy_from_slice(&group[at..l]);
                        b.len[t] = (tl + moved) as u8;
                        let cards = group[at..l].iter().fold(0u64, |m, &c| m | 1 << c);
                        b.up[i] &= !cards;
                        b.up[t] |= cards;
                        set_raw(b, t, to_raw);
                    }
                }
                b.len[i] = at as u8;
                if at > 0 && b.down[i] as usize == at {
                    b.cols[i][at - 1] = under; // as dealt, or the next in `order`
                    b.down[i] -= 1; // the new top turns up
                    b.up[i] |= 1 << under;
                }
                set_raw(b, i, from_raw);
            }
            Step::Talon { at, to } => {
                let at = usize::from(at);
                let c = b.talon[at];
                match to {
                    To::Home => self.send_home(b, c),
                    To::Column(t) => {
                        let t = usize::from(t);
                        let to_raw = self.raw_with(b, t, &[c]);
                        b.cols[t][usize::from(b.len[t])] = c;
                        b.len[t] += 1;
                        b.up[t] |= 1 << c;
                        set_raw(b, t, to_raw);
                    }
                }
                b.talon_key = self.talon_without(b, at);
                let tl = usize::from(b.talon_len);
                b.talon.copy_within(at + 1..tl, at);
                b.talon_len -= 1;
                b.waste = at as u8;
            }
        }
    }

    /// Send home every column top that may go without branching, until none may; each is a step.
    /// At one card a tap, talon cards too: taps reach every talon card whatever has left it.
    fn settle(&self, b: &mut Board, steps: &mut Vec<Step>, order: &[u8]) {
        'again: loop {
            for i in 0..usize::from(b.n_cols) {
                // a column's top is face up: no face-up card that goes home, no top that does
                if b.up[i] & b.next_home == 0 {
                    continue;
                }
                let l = usize::from(b.len[i]);
                let c = b.cols[i][l - 1];
                if self.goes_home_now(b, c) {
                    let s = Step::Column { from: i as u8, at: (l - 1) as u8, to: To::Home };
                    self.apply(b, s, order);
                    steps.push(s);
                    continue 'again;
                }
            }
            if self.draw == 1 {
                let talon = &b.talon[..usize::from(b.talon_len)];
                if let Some(at) = talon.iter().position(|&c| self.goes_home_now(b, c)) {
                    let s = Step::Talon { at: at as u8, to: To::Home };
                    self.apply(b, s, order);
                    steps.push(s);
                    continue 'again;
                }
            }
            return;
        }
    }

    /// The talon places whose card taps can bring to the waste's top, fewest taps first: the
    /// waste's top itself, then each tap's, turning the waste over when the stock is out.
    fn reachable(&self, b: &Board, out: &mut Vec<u8>) {
        let (tl, k, w) = (usize::from(b.talon_len), self.draw, usize::from(b.waste));
        if tl == 0 {
            return;
        }
        // a waste of `p` cards shows place `p - 1`; taps add `k` up to the talon's end
        let mut p = w;
        loop {
            if p > 0 {
                out.push((p - 1) as u8);
            }
            if p == tl {
                break;
            }
            p = (p + k).min(tl);
        }
        // turned over, the waste grows by `k` from none until it meets a size it had: `w`
        // when `k` divides it, else the talon's end
        let end = if w % k == 0 { w } else { tl };
        for p in (k..end).step_by(k) {
            out.push((p - 1) as u8);
        }
    }

    /// Whether a face-up card of `up` (the columns but the one `c` would go to) could lie on
    /// `c`, directly or through a chain of cards of `talon`. At one card a tap a talon card put
    /// on a column helps only once a card from a column lies on it; until then the talon keeps
    /// it as well, so it is played to a column only when that can follow (*lazy stock*,
    /// docs/solver.md section 8).
    fn used_from_columns(&self, c: u8, talon: u64, up: u64) -> bool {
        let (mut seen, mut front) = (1u64 << c, 1u64 << c);
        while front != 0 {
            let mut next = 0u64;
            let mut rest = front;
            while rest != 0 {
                next |= self.on[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
            if next & up != 0 {
                return true;
            }
            front = next & talon & !seen;
            seen |= front;
        }
        false
    }

    /// The children of `b`, each with its rank (higher is searched first).
    fn children(&self, b: &Board, out: &mut Vec<(i32, Step)>, places: &mut Vec<u8>, noise: u64) {
        let nc = usize::from(b.n_cols);
        // the columns each card may go to, and the cards some column would take (most cards
        // are in none, and are passed over at once); empty columns are interchangeable, so
        // only the first is a target
        let mut targets = [0u16; MAX_CARDS];
        let mut wanted = 0u64;
        let mut empty_seen = false;
        for t in 0..nc {
            let l = usize::from(b.len[t]);
            let takes = match l {
                0 if empty_seen => 0,
                0 => {
                    empty_seen = true;
                    self.empty
                }
                _ => self.on[usize::from(b.cols[t][l - 1])],
            };
            wanted |= takes;
            let mut rest = takes;
            while rest != 0 {
                targets[rest.trailing_zeros() as usize] |= 1 << t;
                rest &= rest - 1;
            }
        }
        places.clear();
        self.reachable(b, places);
        let lazy = self.lazy_stock;
        let (talon, up) = if lazy {
            let talon = b.talon[..usize::from(b.talon_len)].iter().fold(0u64, |m, &c| m | 1 << c);
            (talon, b.up[..nc].iter().fold(0u64, |m, &u| m | u))
        } else {
            (0, 0)
        };
        for (taps, &at) in places.iter().enumerate() {
            let c = b.talon[usize::from(at)];
            let later = -(taps as i32);
            if self.goes_home(b, c) {
                out.push((900 + later, Step::Talon { at, to: To::Home }));
            }
            if wanted & 1 << c == 0 {
                continue;
            }
            let mut to = targets[usize::from(c)];
            while to != 0 {
                let t = to.trailing_zeros() as usize;
                to &= to - 1;
                if lazy && !self.used_from_columns(c, talon, up & !b.up[t]) {
                    continue;
                }
                out.push((600 + later, Step::Talon { at, to: To::Column(t as u8) }));
            }
        }
        // the cards that could be played next: the talon's reachable ones and every face-up one
        let mut ready = places.iter().fold(0u64, |m, &at| m | 1 << b.talon[usize::from(at)]);
        for i in 0..nc {
            debug_assert_eq!(b.up[i], b.cols[i][usize::from(b.down[i])..usize::from(b.len[i])].iter().fold(0, |m, &c| m | 1u64 << c));
            ready |= b.up[i];
        }
        for i in 0..nc {
            // only a face-up card goes home or moves, and only one some column would take: most
            // columns have none (an empty one has no card face up)
            let up = b.up[i];
            if up & (wanted | b.next_home) == 0 {
                continue;
            }
            let (l, d) = (usize::from(b.len[i]), usize::from(b.down[i]));
            if self.goes_home(b, b.cols[i][l - 1]) {
                let rank = if l - 1 == d && d > 0 { 1000 + d as i32 } else { 950 };
                out.push((rank, Step::Column { from: i as u8, at: (l - 1) as u8, to: To::Home }));
            }
            let mut movable = up & wanted;
            let mut run = 0u64; // the cards from `at` up
            for at in (d..l).rev() {
                if movable == 0 {
                    break;
                }
                let c = b.cols[i][at];
                run |= 1 << c;
                if movable & 1 << c == 0 {
                    continue;
                }
                movable &= !(1 << c);
                let reveals = at == d && d > 0;
                // A move that turns no card up is made only when what it uncovers can be used at
                // once: the card under the run goes home or takes a card ready to play, or the
                // emptied column takes one (docs/solver.md: any later use can be made then).
                let frees_home = at > d && self.goes_home(b, b.cols[i][at - 1]);
                let uses = ready & !run;
                let rank = if reveals {
                    800 + d as i32
                } else if frees_home {
                    700
                } else if at == 0 && self.empty & uses != 0 {
                    300
                } else if at > 0 && self.on[usize::from(b.cols[i][at - 1])] & uses != 0 {
                    100
                } else {
                    continue;
                };
                let mut to = targets[usize::from(c)] & !(1 << i);
                while to != 0 {
                    let t = to.trailing_zeros() as usize;
                    to &= to - 1;
                    // a whole column into an empty one would be the same position
                    if !(at == 0 && b.len[t] == 0) {
                        out.push((rank, Step::Column { from: i as u8, at: at as u8, to: To::Column(t as u8) }));
                    }
                }
            }
        }
        if noise != 0 {
            // a later try's order: each child's rank moved by up to NOISE, from the position's key
            for (j, (rank, _)) in out.iter_mut().enumerate() {
                *rank += (mix(noise.wrapping_add(j as u64)) % NOISE) as i32;
            }
        }
        out.sort_by_key(|&(rank, _)| std::cmp::Reverse(rank)); // stable: ties keep their order
    }
}

/// The first try's positions. A try that proves less than half of its positions lost hands the
/// next twice its budget (as the general search's tries do).
const FIRST_TRY: u64 = 20_000;
/// How many times the positions of the search at more than one card a tap its twin at one a tap
/// may record before the search's next try (`search`).
const TWIN_SHARE: u64 = 3;
/// The most a later try's sibling order is shaken: four times the ranks' whole spread, so a
/// later try keeps little of the first try's order, whose long subtrees it is there to leave
/// (docs/solver.md, "Later tries shaken past the order").
const NOISE: u64 = 4096;

/// An expanded position on the path: its board and key, its children (best first) with, once the
/// table is large, their keys worked out from its own (`Rules::child_key`; 0 where it gives none;
/// otherwise each is worked out as the search reaches the child) and the next to try,
/// the steps from its parent (the child's own, then those played without branching), and
/// Tarjan's order and lowest order reached. Frames stay allocated between positions and tries:
/// a child is made in the frame above its parent's, so that its board is copied once.
struct Frame {
    board: Board,
    key: u128,
    children: Vec<(i32, Step)>,
    keys: Vec<u128>,
    next: usize,
    steps: Vec<Step>,
    order: u32,
    low: u32,
}

impl Frame {
    fn new(board: &Board) -> Frame {
        Frame { board: board.clone(), key: 0, children: Vec::new(), keys: Vec::new(), next: 0, steps: Vec::new(), order: 0, low: 0 }
    }
}

/// How a try ended: won (the steps), every position reachable lost, or out of budget.
enum Ended {
    Won(Vec<Step>),
    Lost,
    Out(Stop),
}

/// One try's tables and counts, and the positions proved lost, which every try shares.
struct Tries<'r> {
    rules: &'r Rules,
    /// every position met: `LOST` when proved lost, else its order in this try, its component
    /// still open (one table, so that a child costs one look-up)
    met: Met,
    /// the positions of open components, in order, and how many positions are proved lost
    open_keys: Vec<Kept>,
    lost: u64,
    /// the path's frames, the deepest ever reached included (only the first `depth` of a try are
    /// on the path)
    frames: Vec<Frame>,
    places: Vec<u8>,
    /// positions recorded over all tries (the start counts one)
    states: u64,
    start: Instant,
    timeout: Duration,
}

impl Tries<'_> {
    /// Enter the position in `f` (its board and steps set): recorded and its children listed.
    /// Once the table is large they are keyed at once and their slots asked for (`Met::warm`),
    /// so that their look-ups, as the search reaches each, find them in the cache rather than
    /// wait on memory one after another; on a small table that would cost more than it saves.
    fn enter(&mut self, f: &mut Frame, key: u128, noise: u64, deal: &[u8]) {
        let order = self.open_keys.len() as u32;
        let kept = Kept::of(key);
        self.met.insert(kept, order);
        self.open_keys.push(kept);
        let shaken = if noise == 0 { 0 } else { noise ^ key as u64 };
        f.children.clear();
        self.rules.children(&f.board, &mut f.children, &mut self.places, shaken);
        f.keys.clear();
        if self.met.large() {
            for &(_, step) in &f.children {
                let k = self.rules.child_key(&f.board, key, step, deal).unwrap_or(0);
                if k != 0 {
                    self.met.warm(&Kept::of(k));
                }
                f.keys.push(k);
            }
        }
        (f.key, f.next, f.order, f.low) = (key, 0, order, order);
    }

    /// A depth-first search with Tarjan's components from `root` within `budget` more
    /// positions: a component finished without a win is lost, and is marked `LOST` in `met`.
    /// Face-down cards turn up as `Rules::apply` says with `order`.
    fn run(&mut self, root: &Board, root_steps: &[Step], budget: u64, noise: u64, order: &[u8]) -> Ended {
        let mut frames = std::mem::take(&mut self.frames);
        let ended = self.walk(&mut frames, root, root_steps, budget, noise, order);
        self.frames = frames;
        ended
    }

    /// `run` on the frames `path` (kept by the caller between tries).
    fn walk(&mut self, path: &mut Vec<Frame>, root: &Board, root_steps: &[Step], budget: u64, noise: u64,
            order: &[u8]) -> Ended {
        let rules = self.rules;
        let until = self.states + budget;
        for k in self.open_keys.drain(..) {
            self.met.remove(&k); // open when the last try stopped: not proved anything
        }
        if path.is_empty() {
            path.push(Frame::new(root));
        }
        let first = &mut path[0];
        first.board.clone_from(root);
        first.steps.clear();
        first.steps.extend_from_slice(root_steps);
        self.enter(first, rules.key(root), noise, order);
        let mut depth = 1;
        while depth > 0 {
            if path.len() == depth {
                path.push(Frame::new(root));
            }
            let (below, above) = path.split_at_mut(depth);
            let (top, child) = (&mut below[depth - 1], &mut above[0]);
            let Some(&(_, step)) = top.children.get(top.next) else {
                depth -= 1;
                if top.low == top.order {
                    while let Some(k) = self.open_keys.pop() {
                        self.met.insert(k, LOST);
                        self.lost += 1;
                        if k == Kept::of(top.key) {
                            break;
                        }
                    }
                } else if depth > 0 {
                    let low = top.low;
                    below[depth - 1].low = below[depth - 1].low.min(low);
                }
                continue;
            };
            let known = match top.keys.get(top.next) {
                Some(&k) => Some(k).filter(|&k| k != 0),
                None => rules.child_key(&top.board, top.key, step, order),
            };
            top.next += 1;
            if let Some(order) = known.and_then(|k| self.met.get(&Kept::of(k))) {
                top.low = top.low.min(order); // met before: the child is not made at all
                continue;
            }
            child.board.clone_from(&top.board);
            child.steps.clear();
            rules.apply(&mut child.board, step, order);
            child.steps.push(step);
            rules.settle(&mut child.board, &mut child.steps, order);
            debug_assert!(known.is_none_or(|k| k == rules.key(&child.board)), "a child's key worked out wrong");
            if child.board.out == 0 {
                return Ended::Won(path[..=depth].iter().flat_map(|f| f.steps.iter().copied()).collect());
            }
            // a key worked out ahead was looked up above; one only the child tells is looked up now
            let key = match known {
                Some(k) => k,
                None => {
                    let k = rules.key(&child.board);
                    if let Some(order) = self.met.get(&Kept::of(k)) {
                        top.low = top.low.min(order);
                        continue;
                    }
                    k
                }
            };
            // a trapped child is lost, as one met lost is (the face-down cards must be known:
            // not with an `order`, in which they turn up)
            if order.is_empty() && rules.newly_trapped(&top.board, &child.board, step.to_column()) {
                continue;
            }
            self.states += 1;
            if self.states >= until {
                return Ended::Out(Stop::States);
            }
            if self.states.is_multiple_of(CLOCK_EVERY) && clock::past(self.start + self.timeout) {
                return Ended::Out(Stop::Seconds);
            }
            self.enter(child, key, noise, order);
            depth += 1;
        }
        Ended::Lost
    }
}

impl<'r> Tries<'r> {
    fn new(rules: &'r Rules, timeout: Duration) -> Tries<'r> {
        Tries {
            rules,
            met: Met::default(),
            open_keys: Vec::new(),
            lost: 0,
            frames: Vec::new(),
            places: Vec::new(),
            states: 1,
            start: Instant::now(),
            timeout,
        }
    }

    /// Search the settled `root` (reached by `steps`) for a win within `max_states` positions:
    /// tries with growing budgets and shaken sibling orders, which share the positions proved
    /// lost, so that a search cut off in a long subtree goes on elsewhere; a try that runs out of
    /// positions proves `lost`. An earlier call's positions are forgotten unless `keep_lost`,
    /// which keeps those it proved lost: a caller searching positions of one deal in turn has
    /// them proved already (a deal's lost position is lost whatever leads to it, and with the
    /// same `order`, in which its face-down cards turn up: `Rules::apply`).
    fn solve(&mut self, root: &Board, steps: Vec<Step>, max_states: u64, keep_lost: bool, order: &[u8]) -> Found {
        if let Some(found) = self.begin(root, &steps, keep_lost, order) {
            return found;
        }
        let mut budget = FIRST_TRY;
        for noise in 0u64.. {
            if let Some(found) = self.next_try(root, &steps, &mut budget, noise, max_states.saturating_sub(self.states), order) {
                return found;
            }
        }
        unreachable!("the tries end by answer or budget")
    }

    /// Ready the tables for a search of `root`, or its answer when it needs none.
    fn begin(&mut self, root: &Board, steps: &[Step], keep_lost: bool, order: &[u8]) -> Option<Found> {
        if root.out == 0 {
            return Some(Found { answer: Answer::Won, steps: steps.to_vec(), states: 1, stopped_by: None });
        }
        if order.is_empty() && self.rules.trapped(root) {
            return Some(lost(1));
        }
        if !keep_lost {
            self.met.clear();
        }
        self.lost = 0;
        self.states = 1;
        None
    }

    /// One try of `budget` positions, at most `left`, in the order `noise` shakes; its answer,
    /// or None when the next try should follow (with twice the budget where this one proved
    /// less than half of its positions lost).
    fn next_try(&mut self, root: &Board, steps: &[Step], budget: &mut u64, noise: u64, left: u64, order: &[u8]) -> Option<Found> {
        let found = |answer, steps, states, stopped_by| Some(Found { answer, steps, states, stopped_by });
        let before = (self.lost, self.states);
        match self.run(root, steps, (*budget).min(left), noise.wrapping_mul(0x9e37_79b9_7f4a_7c15), order) {
            Ended::Won(line) => found(Answer::Won, line, self.states, None),
            Ended::Lost => Some(lost(self.states)),
            Ended::Out(stop) if stop == Stop::Seconds || *budget >= left => found(Answer::Unknown, vec![], self.states, Some(stop)),
            Ended::Out(_) => {
                if 2 * (self.lost - before.0) < self.states - before.1 {
                    *budget = budget.saturating_mul(2);
                }
                None
            }
        }
    }
}

/// Search `p` for a win within `max_states` positions and `timeout` (`Tries::solve`). At more
/// than one card a tap the same position at one card a tap is searched beside it, try for try,
/// until that is won: there taps reach every talon card at any time, so every line here is a
/// line there, and a position lost there is lost here (docs/solver.md, section 8).
pub fn search(rules: &Rules, p: &Position, max_states: u64, timeout: Duration) -> Result<Found, Unfit> {
    let settled = |rules: &Rules| -> Result<(Board, Vec<Step>), Unfit> {
        let (mut root, mut steps) = (rules.board(p)?, Vec::new());
        rules.settle(&mut root, &mut steps, IN_PLACE);
        Ok((root, steps))
    };
    let (root, steps) = settled(rules)?;
    let mut here = Tries::new(rules, timeout);
    let Some(relaxed) = rules.one_a_tap.as_deref() else {
        return Ok(here.solve(&root, steps, max_states, false, IN_PLACE));
    };
    if let Some(found) = here.begin(&root, &steps, false, IN_PLACE) {
        return Ok(found);
    }
    let (root_1, steps_1) = settled(relaxed)?;
    let mut there = Tries::new(relaxed, timeout);
    let mut open = match there.begin(&root_1, &steps_1, false, IN_PLACE) {
        Some(Found { answer: Answer::Lost, states, .. }) => return Ok(lost(here.states + states)),
        found => found.is_none(),
    };
    // the twin's positions, counted once it has recorded any
    let mut twin = 0;
    let (mut budget, mut budget_1) = (FIRST_TRY, FIRST_TRY);
    let mut noise_1 = 0u64..;
    for noise in 0u64.. {
        let left = max_states.saturating_sub(here.states + twin);
        if let Some(found) = here.next_try(&root, &steps, &mut budget, noise, left, IN_PLACE) {
            return Ok(Found { states: here.states + twin, ..found });
        }
        while open && twin <= TWIN_SHARE * here.states {
            let left = max_states.saturating_sub(here.states + there.states);
            let noise = noise_1.next().expect("endless");
            let found = there.next_try(&root_1, &steps_1, &mut budget_1, noise, left, IN_PLACE);
            twin = there.states;
            match found {
                None => {}
                Some(Found { answer: Answer::Won, .. }) => open = false,
                Some(Found { answer: Answer::Lost, .. }) => return Ok(lost(here.states + twin)),
                Some(found) => return Ok(Found { states: here.states + twin, ..found }),
            }
        }
    }
    unreachable!("the tries end by answer or budget")
}

/// A proof of loss after `states` positions.
fn lost(states: u64) -> Found {
    Found { answer: Answer::Lost, steps: vec![], states, stopped_by: None }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// A small Klondike: `suits` suits of `ranks` cards (card `s * ranks + r - 1`), alternate
    /// colours by suit parity, Kings (the top rank) on empty columns.
    pub(super) fn rules(suits: usize, ranks: usize, draw: usize) -> Rules {
        let n = suits * ranks;
        let (suit, rank): (Vec<u8>, Vec<u8>) = (0..n).map(|c| ((c / ranks) as u8, (c % ranks + 1) as u8)).unzip();
        let on = (0..n)
            .map(|b| {
                (0..n)
                    .filter(|&x| suit[x] % 2 != suit[b] % 2 && rank[x] + 1 == rank[b])
                    .fold(0u64, |m, x| m | 1 << x)
            })
            .collect();
        let empty = (0..n).filter(|&x| usize::from(rank[x]) == ranks).fold(0u64, |m, x| m | 1 << x);
        Rules::new(suit, rank, on, empty, draw).expect("rules")
    }

    /// A shuffled deal of cards 0 to `n - 1`: a column of each of the `sizes`, its top card face
    /// up, and the rest the talon.
    pub(super) fn shuffled_deal(seed: &mut u64, n: u8, sizes: std::ops::RangeInclusive<usize>) -> (Vec<(usize, Vec<u8>)>, Vec<u8>) {
        let mut cards: Vec<u8> = (0..n).collect();
        for j in (1..cards.len()).rev() {
            cards.swap(j, (splitmix(seed) % (j as u64 + 1)) as usize);
        }
        let mut rest = cards.as_slice();
        let columns = sizes
            .map(|k| {
                let (col, after) = rest.split_at(k);
                rest = after;
                (k - 1, col.to_vec())
            })
            .collect();
        (columns, rest.to_vec())
    }

    /// Whether `b` is won, by every child the model lists (nothing trapped pruned), each with
    /// the cards that go home without branching sent there when `settle`; None past `cap`
    /// positions.
    pub(super) fn won_exhaustively(r: &Rules, b: &Board, settle: bool, cap: usize) -> Option<bool> {
        let (mut seen, mut stack) = (HashSet::new(), vec![b.clone()]);
        let (mut kids, mut places) = (Vec::new(), Vec::new());
        while let Some(b) = stack.pop() {
            if b.out == 0 {
                return Some(true);
            }
            if !seen.insert(r.key(&b)) {
                continue;
            }
            if seen.len() > cap {
                return None;
            }
            kids.clear();
            r.children(&b, &mut kids, &mut places, 0);
            for &(_, s) in &kids {
                let mut child = b.clone();
                r.apply(&mut child, s, IN_PLACE);
                if settle {
                    r.settle(&mut child, &mut Vec::new(), IN_PLACE);
                }
                stack.push(child);
            }
        }
        Some(false)
    }

    /// Random walks of a small Klondike (four suits of five cards, one at a time): `walks`
    /// deals, each played by random children for at most `steps` moves, or until `stop`, shown
    /// each board with its children, says so.
    pub(super) fn random_walks(mut seed: u64, walks: usize, steps: usize,
                               mut stop: impl FnMut(&Rules, &Board, &[(i32, Step)]) -> bool) {
        let r = rules(4, 5, 1);
        let (mut kids, mut places) = (Vec::new(), Vec::new());
        for _ in 0..walks {
            let (columns, talon) = shuffled_deal(&mut seed, 20, 2..=5);
            let mut b = r.board(&Position { columns, talon, waste: 0, home: vec![0; 4] }).expect("a deal");
            r.settle(&mut b, &mut Vec::new(), IN_PLACE);
            for _ in 0..steps {
                kids.clear();
                r.children(&b, &mut kids, &mut places, 0);
                if stop(&r, &b, &kids) || kids.is_empty() {
                    break;
                }
                let (_, s) = kids[(splitmix(&mut seed) % kids.len() as u64) as usize];
                r.apply(&mut b, s, IN_PLACE);
                r.settle(&mut b, &mut Vec::new(), IN_PLACE);
            }
        }
    }

    #[test]
    fn a_card_sent_home_while_a_card_that_could_lie_on_it_is_out_keeps_the_answer() {
        // Children whose settling sends home a card some card still out could lie on (the
        // second clause of `goes_home_now`), or a talon card (one a tap): the answer with cards
        // sent home without branching is the answer of a search that never sends one without
        // branching.
        let (mut compared, mut from_talon) = (0, 0);
        random_walks(13, 400, 40, |r, b, kids| {
            for &(_, s) in kids {
                let mut child = b.clone();
                r.apply(&mut child, s, IN_PLACE);
                let mut steps = Vec::new();
                let mut settled = child.clone();
                r.settle(&mut settled, &mut steps, IN_PLACE);
                let mut before = child.clone();
                let (mut second_clause, mut talon) = (false, false);
                for step in steps {
                    let c = match step {
                        Step::Column { from, at, .. } => before.cols[usize::from(from)][usize::from(at)],
                        Step::Talon { at, .. } => {
                            talon = true;
                            before.talon[usize::from(at)]
                        }
                    };
                    second_clause |= r.on[usize::from(c)] & !before.home_set != 0;
                    r.apply(&mut before, step, IN_PLACE);
                }
                if second_clause || talon {
                    let plain = won_exhaustively(r, &child, false, 3_000_000).expect("a small game");
                    assert_eq!(won_exhaustively(r, &settled, true, 3_000_000), Some(plain), "{s:?}");
                    (compared, from_talon) = (compared + 1, from_talon + usize::from(talon));
                }
            }
            false
        });
        assert!(compared >= 100 && from_talon >= 200, "only {compared} children compared, {from_talon} from the talon");
    }

    #[test]
    fn a_talon_card_kept_from_a_column_no_column_card_can_follow_it_to_keeps_the_answer() {
        // Positions where the lazy stock leaves out a talon card's move to a column: the answer
        // of the search that leaves such moves out everywhere is that of one that never does.
        let plain = Rules { lazy_stock: false, ..rules(4, 5, 1) };
        let (mut kids, mut places) = (Vec::new(), Vec::new());
        let (mut compared, mut won) = (0, 0);
        random_walks(29, 300, 40, |r, b, lazy_kids| {
            kids.clear();
            plain.children(b, &mut kids, &mut places, 0);
            if kids.len() > lazy_kids.len() {
                let want = won_exhaustively(&plain, b, true, 3_000_000).expect("a small game");
                assert_eq!(won_exhaustively(r, b, true, 3_000_000), Some(want));
                (compared, won) = (compared + 1, won + usize::from(want));
            }
            false
        });
        assert!(compared >= 1000 && won >= 200 && compared - won >= 200, "{compared} compared, {won} won");
    }

    #[test]
    fn three_a_tap_searched_beside_one_a_tap_keeps_the_answer() {
        // Small deals at three a tap: the search with its twin at one a tap answers as an
        // exhaustive search at three a tap does, and every deal the twin alone proves lost is
        // lost at three a tap.
        let paired = rules(4, 7, 3);
        let twin = paired.one_a_tap.as_deref().expect("a twin at one a tap");
        let mut seed = 41;
        let (mut won, mut lost, mut twin_lost) = (0, 0, 0);
        for _ in 0..1000 {
            let (columns, talon) = shuffled_deal(&mut seed, 28, 1..=5);
            let p = Position { columns, talon, waste: 0, home: vec![0; 4] };
            let mut b = paired.board(&p).expect("a deal");
            paired.settle(&mut b, &mut Vec::new(), IN_PLACE);
            let want = if won_exhaustively(&paired, &b, true, 3_000_000).expect("a small game") { Answer::Won } else { Answer::Lost };
            let found = search(&paired, &p, 1_000_000, Duration::from_secs(60)).expect("fits");
            assert_eq!(found.answer, want);
            if search(twin, &p, 1_000_000, Duration::from_secs(60)).expect("fits").answer == Answer::Lost {
                assert_eq!(want, Answer::Lost);
                twin_lost += 1;
            }
            (won, lost) = if want == Answer::Won { (won + 1, lost) } else { (won, lost + 1) };
        }
        assert!(won >= 500 && lost >= 50 && twin_lost >= 20, "{won} won, {lost} lost, {twin_lost} lost at one a tap");
    }

    #[test]
    fn a_talon_alone_is_won_when_taps_reach_each_card_in_turn() {
        let talon = |order: &[u8]| Position { columns: vec![], talon: order.to_vec(), waste: 0, home: vec![0, 0] };
        let answer = |draw, order: &[u8]| search(&rules(2, 3, draw), &talon(order), 1000, Duration::from_secs(10)).expect("fits");
        let won = answer(3, &[2, 1, 0, 5, 4, 3]);
        assert_eq!((won.answer, won.steps.len()), (Answer::Won, 6));
        // three at a time the second card is never on top once the ace has gone: only one at
        // a time reaches it
        assert_eq!(answer(3, &[1, 2, 0, 4, 5, 3]).answer, Answer::Lost);
        assert_eq!(answer(1, &[1, 2, 0, 4, 5, 3]).answer, Answer::Won);
    }

    #[test]
    fn the_talons_reach_is_every_waste_size_taps_lead_to_in_turn() {
        for draw in 1..=4 {
            for tl in 1..=30usize {
                let r = rules(1, tl, draw); // every card in the talon
                for w in 0..=tl {
                    // tap by tap: the waste grows by `draw` up to the talon's end, then is
                    // turned over, until a size comes round again
                    let (mut want, mut met, mut p) = (Vec::new(), vec![false; tl + 1], w);
                    while !met[p] {
                        met[p] = true;
                        if p > 0 {
                            want.push((p - 1) as u8);
                        }
                        p = if p == tl { 0 } else { (p + draw).min(tl) };
                    }
                    let talon: Vec<u8> = (0..tl as u8).collect();
                    let b = r.board(&Position { columns: vec![], talon, waste: w, home: vec![0] }).expect("a talon");
                    let mut got = Vec::new();
                    r.reachable(&b, &mut got);
                    assert_eq!(got, want, "draw {draw}, talon {tl}, waste {w}");
                }
            }
        }
    }

    #[test]
    fn a_card_under_its_own_lower_card_with_no_column_to_move_to_is_lost() {
        let r = rules(2, 2, 1);
        // one column: ace of suit 0 buried under the two of suit 0, face down; nothing else
        let p = Position { columns: vec![(1, vec![0, 1])], talon: vec![2, 3], waste: 0, home: vec![0, 0] };
        let f = search(&r, &p, 1000, Duration::from_secs(10)).expect("fits");
        assert_eq!(f.answer, Answer::Lost);
    }

    #[test]
    fn a_budget_of_one_position_stops_on_positions() {
        let r = rules(2, 3, 3);
        let p = Position { columns: vec![(0, vec![2]), (0, vec![5])], talon: vec![1, 4, 0, 3], waste: 0, home: vec![0, 0] };
        let f = search(&r, &p, 1, Duration::from_secs(10)).expect("fits");
        assert_eq!((f.answer, f.stopped_by), (Answer::Unknown, Some(Stop::States)));
    }

    #[test]
    fn positions_that_break_the_model_are_refused() {
        let r = rules(2, 3, 1);
        let twice = Position { columns: vec![(0, vec![2])], talon: vec![2, 0, 1, 3, 4, 5], waste: 0, home: vec![0, 0] };
        assert!(search(&r, &twice, 10, Duration::from_secs(1)).is_err());
        let missing = Position { columns: vec![], talon: vec![0, 1], waste: 0, home: vec![0, 0] };
        assert!(search(&r, &missing, 10, Duration::from_secs(1)).is_err());
        let not_a_run = Position { columns: vec![(0, vec![2, 0])], talon: vec![1, 3, 4, 5], waste: 0, home: vec![0, 0] };
        assert!(search(&r, &not_a_run, 10, Duration::from_secs(1)).is_err());
        let circle = Rules::new(vec![0, 1], vec![1, 1], vec![0b10, 0b01], 0, 1);
        assert!(circle.is_err());
    }

    #[test]
    fn a_childs_key_worked_out_from_its_parent_is_the_key_of_the_child_made() {
        // three a tap, and one a tap, where settling sends talon cards home too
        for draw in [3, 1] {
            childs_key_worked_out_is_the_key_of_the_child_made(draw);
        }
    }

    fn childs_key_worked_out_is_the_key_of_the_child_made(draw: usize) {
        let r = rules(4, 13, draw);
        // the key of `b`'s cards worked out afresh, not kept up move by move
        let afresh = |b: &Board| {
            let mut b = b.clone();
            (0..usize::from(b.n_cols)).for_each(|i| r.set_column_key(&mut b, i));
            b.talon_key = r.talon_key(&b);
            r.key(&b)
        };
        let mut seed = 7u64;
        let (mut checked, mut home_checked, mut followed) = (0, 0, 0);
        for deal in 0..40 {
            let (columns, talon) = shuffled_deal(&mut seed, 52, 1..=7);
            // every other deal turns its face-down cards up in an order of their own
            let mut order: Vec<u8> = columns.iter().flat_map(|(down, col)| col[..*down].to_vec()).collect();
            order.reverse();
            let order = if deal % 2 == 0 { IN_PLACE } else { order.as_slice() };
            let mut b = r.board(&Position { columns, talon, waste: 0, home: vec![0; 4] }).expect("a deal");
            r.settle(&mut b, &mut Vec::new(), order); // as the search's positions are
            let (mut kids, mut places) = (Vec::new(), Vec::new());
            for _ in 0..200 {
                kids.clear();
                r.children(&b, &mut kids, &mut places, 0);
                if kids.is_empty() || b.out == 0 {
                    break;
                }
                let key = r.key(&b);
                assert_eq!(key, afresh(&b));
                for &(_, s) in &kids {
                    let mut child = b.clone();
                    r.apply(&mut child, s, order);
                    let mut settled = Vec::new();
                    r.settle(&mut child, &mut settled, order);
                    assert_eq!(r.key(&child), afresh(&child));
                    let worked_out = r.child_key(&b, key, s, order);
                    if let Some(k) = worked_out {
                        assert_eq!(k, r.key(&child));
                        checked += 1;
                    }
                    // a card sent home gives no key exactly when more cards follow it home
                    if matches!(s, Step::Column { to: To::Home, .. } | Step::Talon { to: To::Home, .. }) {
                        assert_eq!(worked_out.is_none(), !settled.is_empty(), "{s:?}");
                        home_checked += usize::from(worked_out.is_some());
                        followed += usize::from(worked_out.is_none());
                    }
                }
                let (_, s) = kids[(splitmix(&mut seed) % kids.len() as u64) as usize];
                r.apply(&mut b, s, order);
                r.settle(&mut b, &mut Vec::new(), order);
            }
        }
        assert!(checked > 2000, "only {checked} children checked");
        assert!(home_checked > 300, "only {home_checked} children that send a card home checked");
        assert!(followed > 25, "only {followed} children that send cards home after the first");
    }

    #[test]
    fn the_key_does_not_see_the_columns_order() {
        let r = rules(2, 3, 1);
        let a = r.board(&Position { columns: vec![(0, vec![2]), (0, vec![5])], talon: vec![1, 4, 0, 3], waste: 1, home: vec![0, 0] });
        let b = r.board(&Position { columns: vec![(0, vec![5]), (0, vec![2])], talon: vec![1, 4, 0, 3], waste: 1, home: vec![0, 0] });
        // a card of the talon swapped with a column's: the talon holds other cards
        let c = r.board(&Position { columns: vec![(0, vec![5]), (0, vec![3])], talon: vec![1, 4, 0, 2], waste: 1, home: vec![0, 0] });
        // the talon's cards in another order: one search never meets both (cards only leave
        // the talon), and the key reads the talon as a set
        let d = r.board(&Position { columns: vec![(0, vec![5]), (0, vec![2])], talon: vec![4, 1, 0, 3], waste: 1, home: vec![0, 0] });
        let (a, b, c, d) = (a.expect("a"), b.expect("b"), c.expect("c"), d.expect("d"));
        assert_eq!(r.key(&a), r.key(&b));
        assert_ne!(r.key(&a), r.key(&c));
        assert_eq!(r.key(&a), r.key(&d));
    }

    #[test]
    fn waste_sizes_that_taps_lead_round_to_share_a_key() {
        // a talon of seven, three a tap: sizes 0, 3, 6 and 7 follow one another round and reach
        // the same places; 1, 2, 4 and 5 lead into them and are not reached back
        let r = rules(2, 7, 3);
        let board = |w: usize| {
            let talon = vec![0, 1, 2, 3, 4, 5, 6];
            r.board(&Position { columns: vec![(6, (7..14).collect())], talon, waste: w, home: vec![0, 0] }).expect("a board")
        };
        let reach = |w: usize| {
            let mut places = Vec::new();
            r.reachable(&board(w), &mut places);
            places.sort_unstable();
            places
        };
        for w in [3, 6, 7] {
            assert_eq!(r.key(&board(w)), r.key(&board(0)), "waste {w}");
            assert_eq!(reach(w), reach(0), "waste {w}");
        }
        let apart: Vec<u128> = [0, 1, 2, 4, 5].iter().map(|&w| r.key(&board(w))).collect();
        assert!(apart.iter().enumerate().all(|(i, k)| !apart[i + 1..].contains(k)), "{apart:?}");
        // one at a tap, every size reaches every other
        let r = rules(2, 7, 1);
        let key = |w: usize| {
            let p = Position { columns: vec![(6, (7..14).collect())], talon: (0..7).collect(), waste: w, home: vec![0, 0] };
            r.key(&r.board(&p).expect("a board"))
        };
        assert!((1..=7).all(|w| key(w) == key(0)));
    }
}
