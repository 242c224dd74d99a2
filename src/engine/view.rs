//! Views and chance, natively (`cardz_core/view.py`, `plugins/cardz_deck/counts.py`): the
//! player's view of a true position, moves played on views, and the outcomes of a move that
//! turns up unknown cards, drawn by the counts deck model, exactly as the Python engine lists
//! them: the same order, probabilities as exact fractions, the same limit, coverage and work
//! budget.
//!
//! A view's unknown card (a negative code) is turned up by the move's `Chance`, kept on the
//! `Work`. A `Chance` draws from its counts per pool and printed card (a face): the face a
//! prescription gives, or one a sampling callback picks. Past its prescription (the Python
//! engine's `_More`), or once its callback failed, it notes that and hands out a stand-in card
//! so that the move can run on; what the move does after that point is thrown away, its errors
//! too, as the Python engine's move stops there. A `Work` without a `Chance` does the same
//! with its `unknown` flag (the Python engine's trial runs and `refuse_reveal`).

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::sync::Arc;

use serde_json::Value;

use super::{indices, Code, ExprError, Game, Move, State, Unsupported, Work};

/// `cards.UNKNOWN_BASE`: the code of a face-down unknown card of pool 0; pool `p` is 2p less.
const UNKNOWN_BASE: Code = -2;

fn unknown_code(pool: usize) -> Code {
    UNKNOWN_BASE - 2 * pool as Code
}

fn unknown_pool(c: Code) -> usize {
    ((UNKNOWN_BASE - c) / 2) as usize
}

/// What views need of a game's cards (`view.DeckInfo`): each card id's printed card (its face),
/// each face's card ids in id order, and the pool each card counts in when dealt.
#[derive(Debug, Default)]
pub struct Deck {
    face_of: Vec<usize>,
    ids_of_face: Vec<Vec<u32>>,
    multi: bool,
    origin: Vec<usize>,
    n_pools: usize,
}

impl Deck {
    /// The plan's `deck` part (`cardz_core/native.py`).
    pub fn from_json(v: &Value, n_cards: usize) -> Result<Deck, Unsupported> {
        let face_of = indices(v, "face_of")?;
        let origin = indices(v, "origin")?;
        let n_faces = face_of.iter().map(|&f| f + 1).max().unwrap_or(0);
        let mut ids_of_face = vec![Vec::new(); n_faces];
        for (id, &f) in face_of.iter().enumerate() {
            ids_of_face[f].push(id as u32);
        }
        if face_of.len() != n_cards || origin.len() != n_cards || ids_of_face.iter().any(Vec::is_empty) {
            return Err(Unsupported("a deck table that does not fit the game's cards".into()));
        }
        Ok(Deck { multi: ids_of_face.iter().any(|ids| ids.len() > 1), face_of, ids_of_face, origin,
                  n_pools: v.get("n_pools").and_then(Value::as_u64).unwrap_or(1) as usize })
    }

    pub fn n_cards(&self) -> usize {
        self.face_of.len()
    }

    /// `pool_counts`: unseen counts per pool and face from a view's pools (a bit per card id).
    pub fn counts(&self, pools: &[Vec<u8>]) -> Counts {
        pools.iter().map(|pool| {
            let mut row = vec![0; self.ids_of_face.len()];
            for (id, &bit) in pool.iter().enumerate() {
                if bit != 0 {
                    if let Some(&f) = self.face_of.get(id) {
                        row[f] += 1;
                    }
                }
            }
            row
        }).collect()
    }

    /// `view.view`: the view of the true piles, the face-down cards in `unknown` (per card id;
    /// None: every face-down card) counted in their pool (`labels`, per card id; None: the pool
    /// each was dealt in).
    pub fn view(&self, piles: &[Vec<Code>], unknown: Option<&[bool]>, labels: Option<&[usize]>)
                -> Result<(Vec<Vec<Code>>, Pools), String> {
        let labels = labels.unwrap_or(&self.origin);
        let n_pools = self.n_pools.max(labels.iter().map(|&p| p + 1).max().unwrap_or(1));
        let mut counts = vec![vec![0; self.ids_of_face.len()]; n_pools];
        let mut out = Vec::with_capacity(piles.len());
        for pile in piles {
            let mut row = Vec::with_capacity(pile.len());
            for &c in pile {
                if c < 0 {
                    return Err("this board is already a view: it holds unknown cards (~?)".into());
                }
                let id = (c >> 1) as usize;
                if c & 1 == 1 || unknown.is_some_and(|u| !u.get(id).copied().unwrap_or(false)) {
                    row.push(c);
                } else {
                    let (Some(&p), Some(&f)) = (labels.get(id), self.face_of.get(id)) else {
                        return Err(format!("no card {id} in this game"));
                    };
                    counts[p][f] += 1;
                    row.push(unknown_code(p));
                }
            }
            out.push(row);
        }
        self.assemble(out, &counts)
    }

    /// `view._assemble`: canonical piles (copies of a printed card numbered in board order,
    /// then the unseen ones pool by pool) and the pools the counts hold.
    pub fn assemble(&self, mut piles: Vec<Vec<Code>>, counts: &Counts) -> Result<(Vec<Vec<Code>>, Pools), String> {
        let mut next = vec![0usize; self.ids_of_face.len()];
        let too_many = || "more copies of a card than the game has".to_string();
        if self.multi {
            for c in piles.iter_mut().flatten().filter(|c| **c >= 0) {
                let f = *self.face_of.get((*c >> 1) as usize).ok_or_else(too_many)?;
                let id = *self.ids_of_face[f].get(next[f]).ok_or_else(too_many)?;
                *c = (id as Code) << 1 | (*c & 1);
                next[f] += 1;
            }
        }
        let pools = counts.iter().map(|row| {
            let mut pool = vec![0u8; self.n_cards()];
            for (f, &n) in row.iter().enumerate() {
                for &id in self.ids_of_face[f].iter().skip(next[f]).take(n as usize) {
                    pool[id as usize] = 1;
                }
                if self.multi {
                    next[f] += n as usize;
                }
            }
            pool
        }).collect();
        Ok((piles, pools))
    }

    /// `view.forget`: the known face-down `cards` of a shuffled pile become unknown, in the pool
    /// of the pile's other unknown cards (the lowest), or else the lowest empty pool.
    fn forget(&self, counts: &mut Counts, cards: &mut [Code]) {
        if !cards.iter().any(|&c| c >= 0 && c & 1 == 0) {
            return;
        }
        let target = match cards.iter().filter(|&&c| c < 0).map(|&c| unknown_pool(c)).min() {
            Some(p) => p,
            None => (0..).find(|&p| counts.get(p).is_none_or(|row| row.iter().all(|&n| n == 0))).unwrap_or(0),
        };
        while counts.len() <= target {
            counts.push(vec![0; self.ids_of_face.len()]);
        }
        for c in cards.iter_mut().filter(|c| **c >= 0 && **c & 1 == 0) {
            counts[target][self.face_of[(*c >> 1) as usize]] += 1;
            *c = unknown_code(target);
        }
    }
}

/// Unseen counts per pool and face.
pub type Counts = Vec<Vec<u32>>;
/// A view's pools: per pool, a bit per card id.
pub type Pools = Vec<Vec<u8>>;

/// Picks a face from a pool's total of unseen cards: a number below the total (the Python
/// engine's `rng.randrange(total)`), or None when it failed (its caller keeps why).
pub type Pick = Box<dyn FnMut(u64) -> Option<u64>>;

enum Draw {
    Prescribed(Vec<usize>),
    Sampled(Pick),
}

/// How a move on a view turned out when it did not run to its end.
#[derive(Clone, Debug, PartialEq)]
pub enum Cut {
    /// it wanted one more card than prescribed, from this pool
    More(usize),
    /// a draw failed: the Python engine's `CardzError` message, or "" when the pick itself
    /// failed (its caller knows why)
    Failed(String),
}

/// The chance of one move played on a view (`view.Reveal`): the counts it draws from, the faces
/// turned up so far, and where it stopped.
pub struct Chance {
    deck: Arc<Deck>,
    counts: Counts,
    draw: Draw,
    faces: Vec<usize>,
    probability: f64,
    cut: Option<Cut>,
}

impl Chance {
    fn new(deck: &Arc<Deck>, counts: Counts, draw: Draw) -> Chance {
        Chance { deck: deck.clone(), counts, draw, faces: Vec::new(), probability: 1.0, cut: None }
    }

    /// The card id turned up from `pool`: drawn, or a stand-in once the move is cut.
    fn reveal(&mut self, pool: usize) -> u32 {
        if self.cut.is_none() {
            match self.draw_face(pool) {
                Ok(f) => {
                    self.counts[pool][f] -= 1;
                    self.faces.push(f);
                    return self.deck.ids_of_face[f][0];
                }
                Err(cut) => self.cut = Some(cut),
            }
        }
        // any card the pool still holds keeps the rest of the (discarded) run well formed
        let row = self.counts.get(pool).map_or(&[][..], Vec::as_slice);
        row.iter().position(|&n| n > 0).map_or(0, |f| self.deck.ids_of_face[f][0])
    }

    fn draw_face(&mut self, pool: usize) -> Result<usize, Cut> {
        let row = self.counts.get(pool).map_or(&[][..], Vec::as_slice);
        let f = match &mut self.draw {
            Draw::Prescribed(seq) => *seq.get(self.faces.len()).ok_or(Cut::More(pool))?,
            Draw::Sampled(pick) => {
                let total: u32 = row.iter().sum();
                if total == 0 {
                    return Err(Cut::Failed("an unknown card's pool holds no unseen card".into()));
                }
                let mut r = pick(u64::from(total)).ok_or(Cut::Failed(String::new()))?;
                let mut f = 0;
                while f < row.len() && r >= u64::from(row[f]) {
                    r -= u64::from(row[f]);
                    f += 1;
                }
                if f < row.len() {
                    self.probability *= f64::from(row[f]) / f64::from(total);
                }
                f
            }
        };
        if row.get(f).is_none_or(|&n| n == 0) {
            return Err(Cut::Failed(format!("the card chosen is not among the unseen cards of pool {pool}")));
        }
        Ok(f)
    }

    pub(super) fn forget(&mut self, cards: &mut [Code]) {
        let deck = self.deck.clone();
        deck.forget(&mut self.counts, cards);
    }

    /// The card ids turned up, in order (each face's first id, as the Python engine reports).
    fn revealed(&self) -> Vec<u32> {
        self.faces.iter().map(|&f| self.deck.ids_of_face[f][0]).collect()
    }
}

impl Work<'_> {
    /// The face-up code of the unknown card `c`, drawn by the move's chance.
    pub(super) fn reveal(&mut self, c: Code) -> Code {
        let pool = unknown_pool(c);
        let id = match self.chance.as_mut() {
            Some(chance) => chance.reveal(pool),
            None => {
                self.unknown.get_or_insert(pool);
                0
            }
        };
        (id as Code) << 1 | 1
    }
}

/// What a move on a view gave: its end, or why it stopped.
pub enum Played {
    /// the view after the move (not made canonical), and what turned up
    Done(State, Option<Box<Chance>>),
    /// the move wants an unknown card of this pool turned up and was given no chance to draw it
    Unknown(usize),
    /// the chance stopped it
    Cut(Cut, Box<Chance>),
}

/// An outcome: its probability (an exact fraction), the card ids turned up, the view after it.
pub struct Outcome {
    pub probability: Ratio,
    pub revealed: Vec<u32>,
    pub view: State,
    pub pools: Pools,
}

/// `CountsDeck.outcomes`' answer: the outcomes, most likely first; the probability they hold
/// (None: all of it); and whether the work budget stopped the listing.
pub struct Listing {
    pub outcomes: Vec<Outcome>,
    pub kept: Option<Ratio>,
    pub stopped: bool,
}

/// The bounds of an outcome listing: `limit` outcomes at most (None: all, refused past
/// `max_outcomes`, `MAX_OUTCOMES`), within the work budget `max_work` (`MAX_OUTCOME_WORK`).
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    pub limit: Option<usize>,
    pub max_outcomes: usize,
    pub max_work: usize,
}

/// Why outcomes could not be listed here.
#[derive(Debug)]
pub enum ViewError {
    /// an expression's error, as the Python engine raises it
    Expr(ExprError),
    /// the Python engine's `CardzError` with this message (no pointer)
    Refused(String),
    /// the sampling callback failed (its caller keeps why)
    Pick,
    /// an exact probability past 128 bits, or a move to play in Python (an illegal move, an
    /// unknown card with no chance): the Python engine lists these
    Elsewhere,
}

impl From<ExprError> for ViewError {
    fn from(e: ExprError) -> ViewError {
        ViewError::Expr(e)
    }
}

/// A probability as an exact fraction in lowest terms; None past 128 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratio {
    pub num: u128,
    pub den: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `a * b` as (high, low) 128-bit halves.
fn wide(a: u128, b: u128) -> (u128, u128) {
    let (a1, a0, b1, b0) = (a >> 64, a & u64::MAX as u128, b >> 64, b & u64::MAX as u128);
    let (lo, mid1, mid2, hi) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    let (mid, carry) = mid1.overflowing_add(mid2);
    let (low, c2) = lo.overflowing_add(mid << 64);
    (hi + (mid >> 64) + (u128::from(carry) << 64) + u128::from(c2), low)
}

impl Ratio {
    const ONE: Ratio = Ratio { num: 1, den: 1 };
    const ZERO: Ratio = Ratio { num: 0, den: 1 };

    fn new(num: u128, den: u128) -> Ratio {
        let g = gcd(num, den).max(1);
        Ratio { num: num / g, den: den / g }
    }

    /// `self * n / total`.
    fn times(self, n: u32, total: u32) -> Option<Ratio> {
        let (g1, g2) = (gcd(self.num, u128::from(total)), gcd(u128::from(n), self.den));
        let num = (self.num / g1).checked_mul(u128::from(n) / g2)?;
        let den = (self.den / g2).checked_mul(u128::from(total) / g1)?;
        Some(Ratio::new(num, den))
    }

    fn plus(self, o: Ratio) -> Option<Ratio> {
        let g = gcd(self.den, o.den);
        let den = (self.den / g).checked_mul(o.den)?;
        let num = self.num.checked_mul(o.den / g)?.checked_add(o.num.checked_mul(self.den / g)?)?;
        Some(Ratio::new(num, den))
    }
}

impl Ord for Ratio {
    fn cmp(&self, o: &Ratio) -> Ordering {
        wide(self.num, o.den).cmp(&wide(o.num, self.den))
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, o: &Ratio) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// A prefix of faces to try: the likeliest first, ties by the smaller sequence (the Python
/// engine's heap of `(-probability, faces)`).
#[derive(PartialEq, Eq)]
struct Prefix(Ratio, Vec<usize>);

impl Ord for Prefix {
    fn cmp(&self, o: &Prefix) -> Ordering {
        self.0.cmp(&o.0).then_with(|| o.1.cmp(&self.1))
    }
}

impl PartialOrd for Prefix {
    fn partial_cmp(&self, o: &Prefix) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Game {
    /// `Play.apply` on a view: the legal move `m` with what follows, its unknown cards turned up
    /// by `chance` (None: a move that meets one is `Unknown`). The caller has checked `m` legal.
    pub fn play_view(&self, v: &State, m: Move, chance: Option<Box<Chance>>) -> Result<Played, ExprError> {
        let mut board = v.clone();
        let mut w = Work::on(&mut board);
        w.chance = chance;
        let ran = self.step(&mut w, m);
        if let Some(pool) = w.unknown {
            return Ok(Played::Unknown(pool));
        }
        if let Some(cut) = w.chance.as_ref().and_then(|c| c.cut.clone()) {
            return Ok(Played::Cut(cut, w.chance.take().expect("a chance")));
        }
        ran?;
        let chance = w.chance.take();
        Ok(Played::Done(board, chance))
    }

    /// The view after a move, made canonical with the counts its chance left (`canonical`).
    fn settled(&self, deck: &Deck, mut after: State, counts: &Counts) -> Result<(State, Pools), ViewError> {
        let (piles, pools) = deck.assemble(std::mem::take(&mut after.piles), counts).map_err(ViewError::Refused)?;
        after.piles = piles;
        after.rng = 0;
        Ok((after, pools))
    }

    /// `CountsDeck.sample`: one outcome of the legal move `m` on the view `v` (its unseen
    /// `counts`), each card drawn with `pick`; with its probability as the Python engine's float.
    pub fn sample(&self, deck: &Arc<Deck>, v: &State, counts: Counts, m: Move, pick: Pick)
                  -> Result<(f64, Vec<u32>, State, Pools), ViewError> {
        let chance = Box::new(Chance::new(deck, counts, Draw::Sampled(pick)));
        match self.play_view(v, m, Some(chance))? {
            Played::Done(after, Some(ch)) => {
                let (view, pools) = self.settled(deck, after, &ch.counts)?;
                Ok((ch.probability, ch.revealed(), view, pools))
            }
            Played::Cut(Cut::Failed(why), _) if !why.is_empty() => Err(ViewError::Refused(why)),
            Played::Cut(..) => Err(ViewError::Pick),
            Played::Done(_, None) | Played::Unknown(_) => Err(ViewError::Elsewhere),
        }
    }

    /// `CountsDeck.outcomes` of the legal move `m` on the view `v` (its unseen `counts`): a
    /// best-first search over the faces the move turns up, within `caps`; `price` gives the
    /// cards one sampled play turns up (the Python engine's draw with `random.Random(0)`).
    pub fn outcomes(&self, deck: &Arc<Deck>, v: &State, counts: &Counts, m: Move, caps: Caps,
                    price: &mut dyn FnMut() -> Result<usize, ViewError>) -> Result<Listing, ViewError> {
        let Caps { limit, max_outcomes, max_work } = caps;
        let mut heap = BinaryHeap::from([Prefix(Ratio::ONE, Vec::new())]);
        let mut found: Vec<Outcome> = Vec::new();
        let mut kept = Ratio::ZERO;
        let cap = limit.map_or(max_outcomes, |l| l.min(max_outcomes));
        // each play is priced as the Python engine prices it (see counts.py)
        let free = max_work / (1 + deck.n_cards());
        let (mut cost, mut plays) = (0, 0);
        while found.len() < cap {
            let Some(Prefix(p, seq)) = heap.pop() else { break };
            plays += 1;
            if plays > free {
                if cost == 0 {
                    cost = 1 + price()?;
                }
                if plays * cost > max_work {
                    return Ok(Listing { outcomes: found, kept: Some(kept), stopped: true });
                }
            }
            let chance = Box::new(Chance::new(deck, counts.clone(), Draw::Prescribed(seq.clone())));
            match self.play_view(v, m, Some(chance))? {
                Played::Cut(Cut::More(pool), ch) => {
                    let row = ch.counts.get(pool).map_or(&[][..], Vec::as_slice);
                    let total: u32 = row.iter().sum();
                    if total == 0 {
                        return Err(ViewError::Refused("an unknown card's pool holds no unseen card".into()));
                    }
                    for (f, &n) in row.iter().enumerate().filter(|(_, &n)| n > 0) {
                        let mut next = seq.clone();
                        next.push(f);
                        heap.push(Prefix(p.times(n, total).ok_or(ViewError::Elsewhere)?, next));
                    }
                }
                Played::Cut(Cut::Failed(why), _) => return Err(ViewError::Refused(why)),
                Played::Done(after, Some(ch)) => {
                    let (view, pools) = self.settled(deck, after, &ch.counts)?;
                    found.push(Outcome { probability: p, revealed: ch.revealed(), view, pools });
                    kept = kept.plus(p).ok_or(ViewError::Elsewhere)?;
                }
                Played::Done(_, None) | Played::Unknown(_) => return Err(ViewError::Elsewhere),
            }
        }
        if !heap.is_empty() && limit.is_none() {
            return Err(ViewError::Refused(format!("the move has more than {} outcomes: give a limit",
                                                  max_outcomes)));
        }
        Ok(Listing { outcomes: found, kept: (!heap.is_empty()).then_some(kept), stopped: false })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_compare_and_add_exactly() {
        let third = Ratio::ONE.times(1, 3).unwrap();
        let two_sixths = Ratio::ONE.times(2, 6).unwrap();
        assert_eq!(third, two_sixths);
        assert_eq!(third.plus(third).unwrap(), Ratio { num: 2, den: 3 });
        assert!(third < Ratio { num: 1, den: 2 });
        let big = Ratio { num: u128::MAX - 1, den: u128::MAX };
        assert!(big < Ratio::ONE && Ratio { num: 1, den: u128::MAX } < big);
        assert_eq!(Ratio { num: u128::MAX, den: 1 }.times(3, 1), None);
    }

    #[test]
    fn prefixes_pop_likeliest_first_then_by_sequence() {
        let half = Ratio { num: 1, den: 2 };
        let mut heap = BinaryHeap::from([Prefix(half, vec![3]), Prefix(half, vec![1]),
                                         Prefix(Ratio { num: 1, den: 4 }, vec![0])]);
        let order: Vec<Vec<usize>> = std::iter::from_fn(|| heap.pop().map(|p| p.1)).collect();
        assert_eq!(order, [vec![1], vec![3], vec![0]]);
    }

    fn deck() -> Deck {
        // cards 0 and 1 are copies of one printed card, card 2 another
        let v = serde_json::json!({"face_of": [0, 0, 1], "origin": [0, 0, 0], "n_pools": 1});
        Deck::from_json(&v, 3).unwrap()
    }

    #[test]
    fn a_view_counts_face_down_cards_and_numbers_copies_in_board_order() {
        let d = deck();
        // card 1 face up in the first pile, cards 0 and 2 face down
        let (piles, pools) = d.view(&[vec![3], vec![0, 4]], Some(&[true, false, true]), None).unwrap();
        assert_eq!(piles, [vec![1], vec![unknown_code(0), unknown_code(0)]]);
        assert_eq!(pools, [vec![0, 1, 1]]);
        assert_eq!(d.counts(&pools), [vec![1, 1]]);
    }

    #[test]
    fn a_shuffle_forgets_known_face_down_cards_into_the_piles_pool() {
        let d = deck();
        let mut counts = vec![vec![0, 0], vec![1, 0]];
        let mut cards = vec![4, unknown_code(1), 1];
        d.forget(&mut counts, &mut cards);
        assert_eq!(cards, [unknown_code(1), unknown_code(1), 1]);
        assert_eq!(counts, [vec![0, 0], vec![1, 1]]);
        let mut alone = vec![0];
        d.forget(&mut counts, &mut alone);
        assert_eq!((alone, counts), (vec![unknown_code(0)], vec![vec![1, 0], vec![1, 1]]));
    }
}
