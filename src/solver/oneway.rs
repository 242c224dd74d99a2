//! The one-way games' search (docs/solver.md, "One-way games"), natively: the model of pile
//! heights, stock height and the foundation's top class, searched depth first with restarts that
//! keep the positions proved lost. It follows `cardz_core/solver/oneway.py::search_oneway` step
//! for step (the same children in the same order, the same budgets), so both give the same
//! answer, positions and line; the Python side builds the model and turns the line into moves.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::time::{Duration, Instant};

use crate::solver::clock;
use crate::solver::search::{Answer, Stop};

/// What the rules say of a game's cards, once per game: `top_class[c]`, the card that stands for
/// `c` as the foundation's top (cards that take the same cards onto them are one), and
/// `takes[below][above]`, whether the foundation takes `above` on `below`.
pub struct Rules {
    pub top_class: Vec<u16>,
    pub takes: Vec<Vec<bool>>,
}

/// One deal of the model: the loose piles' cards (bottom first), the stock's (its next card
/// last), which loose piles must be empty to win, whether a depot that must be empty never can
/// be (`stuck`), whether the stock must be empty, and the class of the foundation's top.
pub struct Deal {
    pub piles: Vec<Vec<u16>>,
    pub stock: Vec<u16>,
    pub must: Vec<usize>,
    pub stuck: bool,
    pub stock_must: bool,
    pub top: u16,
}

/// How the tries go: the first try's positions, the growth from one try to the next, the
/// sibling orders they cycle through (weights of the pile's height and of the moves open
/// after the move), and the tie-breaks of every try after the first (one number per pile).
pub struct Tries {
    pub first: u64,
    pub growth: f64,
    pub orders: Vec<(i64, i64)>,
    pub ties: Vec<Vec<f64>>,
}

/// The answer: the steps of a won line (a loose pile's number, or -1 for a tap), the positions
/// expanded over all tries (the start counts one), and what stopped an unknown answer.
pub struct Found {
    pub answer: Answer,
    pub steps: Vec<i32>,
    pub states: u64,
    pub stopped_by: Option<Stop>,
}

/// Why a deal cannot be searched here.
#[derive(Debug, PartialEq, Eq)]
pub enum Unsearchable {
    /// The model's positions do not fit `CODE_BITS`: the caller searches it in Python.
    TooBig,
    /// A try after the first has no tie-breaks of the piles' number (the caller's mistake).
    Ties,
}

/// Positions are packed into 128 bits (each height in its own bit field, then the stock's
/// height and the top class); a bigger model is left to the Python search.
const CODE_BITS: u32 = 128;

/// How often the clock is read: before every this many positions expanded (reading it costs
/// about a twentieth of a position).
const CLOCK_EVERY: u64 = 16;

/// Codes are packed bits already: a table needs only their halves mixed.
#[derive(Default)]
struct CodeHash(u64);

impl Hasher for CodeHash {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u128(&mut self, x: u128) {
        let folded = (x as u64) ^ ((x >> 64) as u64).rotate_left(29);
        self.0 = (folded ^ (folded >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Every position met: the try that expanded it (numbered from 1), or `LOST` once proved lost.
/// One table for both, so a child costs one look-up and a try's end rewrites marks in place.
type Marks = HashMap<u128, u32, BuildHasherDefault<CodeHash>>;

const LOST: u32 = 0;

/// Whether a child is to be skipped in try `now`: seen by it, or proved lost.
fn skip(marks: &Marks, code: u128, now: u32) -> bool {
    marks.get(&code).is_some_and(|&m| m == LOST || m == now)
}

/// A child waiting on its parent's frame: its rank (larger first), step, code and top class.
#[derive(Clone, Copy)]
struct Child {
    rank: f64,
    step: i32,
    code: u128,
    top: u16,
}

/// A position on the current path: its code, the foundation's top class, the step that led to
/// it, whether its children were made, and where they start in the shared pool.
struct Frame {
    code: u128,
    top: u16,
    step: i32,
    expanded: bool,
    from: usize,
}

/// Bits needed to hold `x`.
fn bits(x: usize) -> u32 {
    usize::BITS - x.leading_zeros()
}

struct Model<'a> {
    rules: &'a Rules,
    deal: &'a Deal,
    width: u32,
    stock_shift: u32,
    top_shift: u32,
}

impl Model<'_> {
    fn code(&self, h: &[usize], s: usize, top: u16) -> u128 {
        let mut c = 0u128;
        for (j, &x) in h.iter().enumerate() {
            c |= (x as u128) << (self.width * j as u32);
        }
        c | (s as u128) << self.stock_shift | u128::from(top) << self.top_shift
    }

    fn won(&self, h: &[usize], s: usize) -> bool {
        !(self.deal.stuck || self.deal.stock_must && s > 0) && self.deal.must.iter().all(|&j| h[j] == 0)
    }

    /// Whether the position `h`, `s` with pile `j` just emptied is won.
    fn won_without(&self, h: &[usize], s: usize, j: usize) -> bool {
        !(self.deal.stuck || self.deal.stock_must && s > 0) && self.deal.must.iter().all(|&k| k == j || h[k] == 0)
    }

    fn takes(&self, below: u16, above: Option<u16>) -> bool {
        above.is_some_and(|a| self.rules.takes[usize::from(below)][usize::from(a)])
    }
}

/// Search `deal` for a win within `max_states` positions (at least 1) and `timeout`.
pub fn search(rules: &Rules, deal: &Deal, tries: &Tries, max_states: u64, timeout: Duration) -> Result<Found, Unsearchable> {
    let start = Instant::now();
    let n = deal.piles.len();
    let width = bits(deal.piles.iter().map(Vec::len).max().unwrap_or(0).max(1));
    let stock_shift = width * n as u32;
    let top_shift = stock_shift + bits(deal.stock.len());
    if top_shift + bits(rules.top_class.len()) > CODE_BITS {
        return Err(Unsearchable::TooBig);
    }
    let m = Model { rules, deal, width, stock_shift, top_shift };
    let heights: Vec<usize> = deal.piles.iter().map(Vec::len).collect();
    let mut h = heights.clone();
    let mut s = deal.stock.len();
    let root = m.code(&h, s, deal.top);
    let mut spent = 1u64;
    let found = |answer, steps, spent, stopped_by| Ok(Found { answer, steps, states: spent, stopped_by });
    if m.won(&h, s) {
        return found(Answer::Won, vec![], spent, None);
    }
    let first_tie: Vec<f64> = (0..n).map(|j| j as f64 / n as f64).collect();
    let mut marks = Marks::default();
    let mut tops = vec![None; n];
    let mut budget = tries.first;
    let mut tried = 0u32;
    loop {
        let (w_height, w_open) = tries.orders[tried as usize % tries.orders.len()];
        let tie = match tried {
            0 => &first_tie,
            _ => tries.ties.get(tried as usize - 1).filter(|t| t.len() == n).ok_or(Unsearchable::Ties)?,
        };
        tried += 1;
        let order = Order { w_height, w_open, tie, now: tried };
        let cap = spent + budget.min(max_states - spent);
        marks.insert(root, tried);
        let mut frames = vec![Frame { code: root, top: deal.top, step: -1, expanded: false, from: 0 }];
        let mut pool: Vec<Child> = Vec::new();
        let mut stopped = None;
        while let Some(at) = frames.len().checked_sub(1) {
            if !frames[at].expanded {
                frames[at].expanded = true;
                frames[at].from = pool.len();
                let here = Here { h: &h, s, code: frames[at].code, top: frames[at].top };
                if let Some(last) = expand(&m, &here, &order, &marks, &mut tops, &mut pool) {
                    let mut steps: Vec<i32> = frames[1..].iter().map(|f| f.step).collect();
                    steps.push(last);
                    return found(Answer::Won, steps, spent, None);
                }
            }
            let from = frames[at].from;
            // a child may have been reached another way since its parent was expanded
            while pool.len() > from && pool.last().is_some_and(|c| skip(&marks, c.code, tried)) {
                pool.pop();
            }
            if pool.len() == from {
                match frames[at].step {
                    -1 => s += 1,
                    j => h[j as usize] += 1,
                }
                frames.pop();
                continue;
            }
            if spent >= cap {
                stopped = Some(Stop::States);
                break;
            }
            if spent.is_multiple_of(CLOCK_EVERY) && clock::past(start + timeout) {
                stopped = Some(Stop::Seconds);
                break;
            }
            let child = pool.pop().expect("a child is left");
            match child.step {
                -1 => s -= 1,
                j => h[j as usize] -= 1,
            }
            marks.insert(child.code, tried);
            spent += 1;
            frames.push(Frame { code: child.code, top: child.top, step: child.step, expanded: false, from: 0 });
        }
        let Some(stop) = stopped else {
            return found(Answer::Lost, vec![], spent, None);
        };
        // Every expanded position off the current path was searched to the end: lost. The
        // path's positions keep this try's mark, which the next try does not read as seen.
        let path: HashSet<u128, BuildHasherDefault<CodeHash>> = frames.iter().map(|f| f.code).collect();
        for (code, mark) in marks.iter_mut() {
            if *mark == tried && !path.contains(code) {
                *mark = LOST;
            }
        }
        if stop == Stop::Seconds || spent >= max_states {
            return found(Answer::Unknown, vec![], spent, Some(stop));
        }
        budget = (budget + 1).max((budget as f64 * tries.growth) as u64);
        // back to the start for the next try
        h.clone_from(&heights);
        s = deal.stock.len();
    }
}

/// A try's sibling order: the weights, the tie-breaks, and the try's number (its marks).
struct Order<'a> {
    w_height: i64,
    w_open: i64,
    tie: &'a [f64],
    now: u32,
}

/// The position being expanded: heights, stock height, code and top class.
struct Here<'a> {
    h: &'a [usize],
    s: usize,
    code: u128,
    top: u16,
}

/// The children of the position `here` neither seen in this try nor proved lost, best last, onto
/// `pool`; or the step of a child that wins, at once. `tops` is room for the piles' top cards.
fn expand(m: &Model<'_>, here: &Here<'_>, order: &Order<'_>, marks: &Marks, tops: &mut [Option<u16>],
          pool: &mut Vec<Child>) -> Option<i32> {
    let piles = &m.deal.piles;
    let (h, s) = (here.h, here.s);
    for (k, top) in tops.iter_mut().enumerate() {
        *top = h[k].checked_sub(1).map(|i| piles[k][i]);
    }
    // the code without its top class: a child's is this, one card fewer, with its own class
    let bare = here.code & !(u128::MAX << m.top_shift);
    let from = pool.len();
    for j in 0..piles.len() {
        let Some(c) = tops[j] else { continue };
        if !m.takes(here.top, Some(c)) {
            continue;
        }
        let cls = m.rules.top_class[usize::from(c)];
        let code = (bare - (1u128 << (m.width * j as u32))) | u128::from(cls) << m.top_shift;
        if skip(marks, code, order.now) {
            continue;
        }
        let below = (h[j] - 1).checked_sub(1).map(|i| piles[j][i]);
        if below.is_none() && m.won_without(h, s, j) {
            return Some(j as i32);
        }
        let opened = (0..piles.len()).filter(|&k| m.takes(c, if k == j { below } else { tops[k] })).count() as i64;
        let rank = (order.w_height * h[j] as i64 + order.w_open * opened) as f64 + order.tie[j];
        pool.push(Child { rank, step: j as i32, code, top: cls });
    }
    if s > 0 {
        let cls = m.rules.top_class[usize::from(m.deal.stock[s - 1])];
        let code = (bare - (1u128 << m.stock_shift)) | u128::from(cls) << m.top_shift;
        if !skip(marks, code, order.now) {
            if m.won(h, s - 1) {
                return Some(-1);
            }
            pool.push(Child { rank: -1.0, step: -1, code, top: cls });
        }
    }
    pool[from..].sort_by(|a, b| a.rank.partial_cmp(&b.rank).unwrap_or(Ordering::Equal).then(a.step.cmp(&b.step)));
    None
}
