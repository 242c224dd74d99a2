//! The transposition key: a 128-bit hash of the canonical key `Analysis.key` builds (the piles
//! with the ring of stock configurations at its start, identical cards as one, sinks as size
//! and top, interchangeable depots' piles sorted, and the counters the key keeps). Why a hash
//! of 128 bits is enough, and what rests on it: docs/solver.md, "The native search".

use crate::engine::{Code, State};
use crate::solver::plan::KeyPlan;

/// A position's key: 128 bits as two words (8-byte aligned, so a table entry stays small).
pub type Key = [u64; 2];

const LANE_A: u64 = 0x9e37_79b9_7f4a_7c15;
const LANE_B: u64 = 0xc2b2_ae3d_27d4_eb4f;
const MIX_A: u64 = 0xa076_1d64_78bd_642f;
const MIX_B: u64 = 0xe703_7ed1_a0b4_28db;

/// The product of `x` and `k` folded to 64 bits: every input bit reaches every output bit.
#[inline]
fn fold(x: u64, k: u64) -> u64 {
    let p = u128::from(x) * u128::from(k);
    (p as u64) ^ ((p >> 64) as u64)
}

/// MurmurHash3's finaliser: the last avalanche of a lane.
#[inline]
fn fmix(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// Two independent 64-bit lanes over a stream of words.
#[derive(Clone, Copy)]
pub struct Hasher {
    a: u64,
    b: u64,
    words: u64,
}

impl Hasher {
    pub fn new() -> Hasher {
        Hasher::salted(0)
    }

    /// A hasher of its own for each `salt`: its lanes start elsewhere.
    fn salted(salt: u64) -> Hasher {
        Hasher { a: LANE_A ^ salt.wrapping_mul(MIX_A), b: LANE_B ^ salt.wrapping_mul(MIX_B), words: 0 }
    }

    #[inline]
    pub fn word(&mut self, w: u64) {
        self.a = fold(self.a ^ w, MIX_A);
        self.b = fold(self.b ^ w.rotate_left(32), MIX_B);
        self.words += 1;
    }

    pub fn finish(self) -> Key {
        [fmix(self.a ^ self.words), fmix(self.b.wrapping_add(self.words))]
    }
}

impl Default for Hasher {
    fn default() -> Hasher {
        Hasher::new()
    }
}

/// Card codes four to a word (a code is below 2^16: the engine's decks are far smaller).
fn feed_cards(h: &mut Hasher, cards: impl Iterator<Item = Code>) {
    let (mut w, mut n) = (0u64, 0);
    for c in cards {
        w = w << 16 | u64::from(c as u16);
        n += 1;
        if n == 4 {
            h.word(w);
            (w, n) = (0, 0);
        }
    }
    if n > 0 {
        h.word(w);
    }
}

/// The key's reader: the plan's part and scratch space reused from key to key. A child's key
/// is read beside its parent's (`parent`, then `child`): a depot whose pile and called suit the
/// move left as they were keeps the parent's hash of it, so only the piles a move touched are
/// hashed again, and the sum of the piles' hashes is the parent's with theirs swapped.
pub struct Keyer<'p> {
    plan: &'p KeyPlan,
    ring: Vec<Code>,
    /// each depot's salt plus one: its own for a single, its class's for a class's depot, 0
    /// for a depot the key leaves out
    salt: Vec<u64>,
    /// the piles' hashes of the position `parent` read
    base: Hashes,
}

/// A position's piles' hashes, by depot, and their sum: kept beside it on the search's path, so
/// that a child entered there is read from them (`Keyer::parent_near`).
#[derive(Clone, Default)]
pub struct Hashes {
    piles: Vec<Key>,
    sum: Key,
}

/// Piles longer than this are compared by `memcmp` past their tops: a call to it costs more
/// than comparing a few cards in a loop, less than a stock's two dozen.
const LOOP_CARDS: usize = 8;

/// Whether two piles hold the same cards, tops compared first (where a move changes a pile).
#[inline]
pub(crate) fn same_cards(a: &[Code], b: &[Code]) -> bool {
    if a.len() != b.len() || a.last() != b.last() {
        return false;
    }
    if a.len() > LOOP_CARDS {
        return a == b;
    }
    a.iter().rev().zip(b.iter().rev()).all(|(x, y)| x == y)
}

/// `sum` plus `add` minus `sub`, lane by lane, wrapping: the piles' hashes are summed, so the
/// sum is the same for every order of a class's piles (the multiset of piles `Analysis.key`
/// sorts), with no sort, and a child's sum is its parent's with the changed piles' swapped.
#[inline]
fn swap(sum: Key, sub: Key, add: Key) -> Key {
    [sum[0].wrapping_sub(sub[0]).wrapping_add(add[0]), sum[1].wrapping_sub(sub[1]).wrapping_add(add[1])]
}

impl<'p> Keyer<'p> {
    pub fn new(plan: &'p KeyPlan) -> Keyer<'p> {
        let mut salt = vec![0; plan.sink.len()];
        let groups = plan.singles.iter().map(std::slice::from_ref).chain(plan.classes.iter().map(Vec::as_slice));
        for (g, group) in groups.enumerate() {
            group.iter().for_each(|&d| salt[d] = g as u64 + 1);
        }
        Keyer { plan, ring: Vec::new(), salt, base: Hashes::default() }
    }

    /// Whether the stock and its target are on their ring (`Analysis._ring_start`): the target
    /// holds whole draws (or the stock is empty), stock cards face-down, target cards face-up.
    /// Then `self.ring` holds the stock as it is at the ring's start.
    fn on_ring(&mut self, s: &State) -> bool {
        if s.rules_off {
            return false;
        }
        let Some((k, w, count)) = self.plan.cycle else { return false };
        let (stock, waste) = (&s.piles[k], &s.piles[w]);
        if waste.is_empty() || (!stock.is_empty() && waste.len() % count != 0) {
            return false;
        }
        if stock.iter().any(|c| c & 1 == 1) || waste.iter().any(|c| c & 1 == 0) {
            return false;
        }
        self.ring.clear();
        self.ring.extend_from_slice(stock);
        self.ring.extend(waste.iter().rev().map(|c| c ^ 1));
        true
    }

    /// One depot's part of the key: its pile as the key keeps it, with its called suit, hashed
    /// with its single's or class's salt (nothing for a depot the key leaves out).
    fn pile(&self, s: &State, d: usize, ring: bool) -> Key {
        if self.salt[d] == 0 {
            return [0, 0];
        }
        let mut h = Hasher::salted(self.salt[d]);
        let declared = s.declared.get(d).copied().unwrap_or(-1);
        let pile: &[Code] = match self.plan.cycle {
            Some((k, _, _)) if ring && d == k => &self.ring,
            Some((_, w, _)) if ring && d == w => &[],
            _ => &s.piles[d],
        };
        let map = |c: Code| match &self.plan.code_map {
            Some(m) => m[c as usize],
            None => c,
        };
        let head = (pile.len() as u64) << 32 | u64::from((declared + 1) as u32);
        if self.plan.sink[d] {
            // size and top card only: no rule reads below the top of a sink
            h.word(head | 1 << 63);
            h.word(pile.last().map_or(u64::MAX, |&c| map(c) as u64));
        } else {
            h.word(head);
            feed_cards(&mut h, pile.iter().map(|&c| map(c)));
        }
        h.finish()
    }

    /// Whether depot `d` holds the same pile and called suit in `a` and `b`.
    fn same_pile(a: &State, b: &State, d: usize) -> bool {
        same_cards(&a.piles[d], &b.piles[d])
            && a.declared.get(d).copied().unwrap_or(-1) == b.declared.get(d).copied().unwrap_or(-1)
    }

    /// Into `same`, by depot, whether `s` holds the same pile and called suit as `parent`:
    /// what `child` reads, and the piles a board made from `parent` must be given back.
    pub fn diff(parent: &State, s: &State, same: &mut Vec<bool>) {
        same.clear();
        same.extend((0..s.piles.len()).map(|d| Self::same_pile(parent, s, d)));
    }

    /// The key of `s`, every pile hashed.
    pub fn key(&mut self, s: &State) -> Key {
        let ring = self.on_ring(s);
        let sum = (0..s.piles.len()).fold([0, 0], |sum, d| swap(sum, [0, 0], self.pile(s, d, ring)));
        self.combine(s, sum)
    }

    /// `s` is the position whose children are keyed next (`child`).
    pub fn parent(&mut self, s: &State) {
        let ring = self.on_ring(s);
        let mut base = std::mem::take(&mut self.base);
        base.piles.clear();
        base.piles.extend((0..s.piles.len()).map(|d| self.pile(s, d, ring)));
        base.sum = base.piles.iter().fold([0, 0], |sum, &h| swap(sum, [0, 0], h));
        self.base = base;
    }

    /// `parent` of `s`, a position made from `up` whose hashes are `near`, `same` as `diff`
    /// gives it (or with more depots marked changed): only the piles it marks are hashed.
    pub fn parent_near(&mut self, near: &Hashes, up: &State, s: &State, same: &[bool]) {
        debug_assert!({
            let mut full = Vec::new();
            Self::diff(up, s, &mut full);
            full.iter().zip(same).all(|(&f, &s)| f || !s)
        }, "a depot marked kept changed");
        let mut base = std::mem::take(&mut self.base);
        base.piles.clone_from(&near.piles);
        base.sum = self.swap_changed(near, up, s, same, Some(&mut base.piles));
        self.base = base;
    }

    /// The hashes `parent` read last, into `out`.
    pub fn save(&self, out: &mut Hashes) {
        out.clone_from(&self.base);
    }

    /// The key of `s`, a position made from `parent` (the position last given to `parent`),
    /// with `same` as `diff` gives it.
    pub fn child(&mut self, parent: &State, s: &State, same: &[bool]) -> Key {
        let base = std::mem::take(&mut self.base);
        let sum = self.swap_changed(&base, parent, s, same, None);
        self.base = base;
        self.combine(s, sum)
    }

    /// The sum of the piles' hashes of `s`, made from `up` (whose hashes are `old`), `same` as
    /// `diff` gives it: `old`'s with the changed piles' swapped; their new hashes into `new`.
    fn swap_changed(&mut self, old: &Hashes, up: &State, s: &State, same: &[bool], mut new: Option<&mut Vec<Key>>) -> Key {
        let mut sum = old.sum;
        let mut put = |sum: Key, d: usize, h: Key| {
            if let Some(new) = new.as_mut() {
                new[d] = h;
            }
            swap(sum, old.piles[d], h)
        };
        let cycle = self.plan.cycle.map(|(k, w, _)| (k, w));
        // the stock's and its target's hashes read both piles (at the ring's start): kept only
        // when both are as they were, and then so is whether they are on the ring
        let mut ring = false;
        if let Some((k, w)) = cycle {
            if !(same[k] && same[w] && up.rules_off == s.rules_off) {
                ring = self.on_ring(s);
                sum = put(sum, k, self.pile(s, k, ring));
                sum = put(sum, w, self.pile(s, w, ring));
            }
        }
        for (d, _) in same.iter().enumerate().filter(|&(_, &kept)| !kept) {
            if cycle.is_none_or(|(k, w)| d != k && d != w) {
                sum = put(sum, d, self.pile(s, d, ring));
            }
        }
        sum
    }

    /// The key from the sum of the piles' hashes and the counters the key keeps.
    fn combine(&self, s: &State, sum: Key) -> Key {
        let mut h = Hasher::new();
        h.word(sum[0]);
        h.word(sum[1]);
        let n = self.plan.singles.len() + self.plan.classes.iter().map(Vec::len).sum::<usize>();
        if self.plan.recycles {
            (0..n).for_each(|d| h.word(s.recycles.get(d).copied().unwrap_or(0) as u64));
        }
        if self.plan.redeals {
            h.word(s.redeals as u64);
        }
        if self.plan.moves {
            [s.moves, s.undos, s.recycles_total].into_iter().for_each(|x| h.word(x as u64));
        }
        if self.plan.came_from {
            (0..n).for_each(|d| h.word(s.came_from.get(d).copied().unwrap_or(-1) as u64));
        }
        h.word(s.seed_rank as u64);
        h.word(u64::from(s.rules_off) << 32 | s.status as u32 as u64);
        h.word(s.rng);
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(classes: Vec<Vec<usize>>, singles: Vec<usize>) -> KeyPlan {
        KeyPlan { singles, classes, sink: vec![false; 3], code_map: None, cycle: None, recycles: false,
                  redeals: false, moves: false, came_from: false }
    }

    fn state(piles: Vec<Vec<Code>>) -> State {
        State { piles, ..State::default() }
    }

    #[test]
    fn interchangeable_piles_meet_and_others_do_not() {
        let p = plan(vec![vec![1, 2]], vec![0]);
        let mut k = Keyer::new(&p);
        let a = k.key(&state(vec![vec![3], vec![5, 7], vec![9]]));
        let b = k.key(&state(vec![vec![3], vec![9], vec![5, 7]]));
        let c = k.key(&state(vec![vec![9], vec![5, 7], vec![3]]));
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn where_a_card_lies_counts() {
        let p = plan(vec![], vec![0, 1, 2]);
        let mut k = Keyer::new(&p);
        let a = k.key(&state(vec![vec![3, 5], vec![], vec![]]));
        let b = k.key(&state(vec![vec![3], vec![5], vec![]]));
        let c = k.key(&state(vec![vec![5, 3], vec![], vec![]]));
        assert!(a != b && a != c && b != c);
    }

    #[test]
    fn a_child_keyed_beside_its_parent_has_its_own_full_key() {
        let mut p = plan(vec![vec![1, 2]], vec![0, 3]);
        p.sink = vec![false; 4];
        p.cycle = Some((0, 3, 1));
        let mut k = Keyer::new(&p);
        let parent = state(vec![vec![2, 4], vec![5, 7], vec![9], vec![]]);
        let children = [
            state(vec![vec![2], vec![5, 7], vec![9], vec![5]]),     // a draw: onto the ring
            state(vec![vec![2, 4], vec![5], vec![9, 7], vec![]]),   // a move within the class
            state(vec![vec![2, 4], vec![9], vec![5, 7], vec![]]),   // the class's piles swapped
        ];
        let mut same = Vec::new();
        let mut near = |k: &mut Keyer, parent: &State, c: &State| {
            Keyer::diff(parent, c, &mut same);
            k.child(parent, c, &same)
        };
        k.parent(&parent);
        for c in &children {
            let got = near(&mut k, &parent, c);
            assert_eq!(got, k.key(c));
        }
        assert_eq!(near(&mut k, &parent, &children[2]), k.key(&parent));
        // on the ring, a move that leaves the stock and its target alone
        let (on, moved) = (&children[0], state(vec![vec![2], vec![5], vec![9, 7], vec![5]]));
        k.parent(on);
        assert_eq!(near(&mut k, on, &moved), k.key(&moved));
    }

    #[test]
    fn the_ring_is_keyed_at_its_start() {
        let mut p = plan(vec![], vec![0, 1, 2]);
        p.cycle = Some((0, 1, 1));
        let mut k = Keyer::new(&p);
        // stock face-down 2 4, target face-up 7 9 (9 on top): at the start the stock is 2 4 8 6
        let on = k.key(&state(vec![vec![2, 4], vec![7, 9], vec![]]));
        let start = k.key(&state(vec![vec![2, 4, 8, 6], vec![], vec![]]));
        assert_eq!(on, start);
    }
}
