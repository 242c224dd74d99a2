//! Positions lost because some card can never part from a face-down card of its own chain
//! under it (docs/solver.md, section 8, "Trapped cards").
//!
//! A face-down card `y` under a card `x` that comes after it in its chain: `x` cannot go home
//! before `y`, and `y` cannot leave its column before `x` parts from it (it is face down, and so
//! is everything under it), so the two part only by a move of a run from some card `w` above
//! `y` up to `x` or beyond onto another column's top. If every card that could head that move
//! (a face-up one, or `x` itself once turned up) has nowhere to go, the position is lost. A card
//! has nowhere to go when an empty column takes no such card and every card it may lie on is
//! home (foundations give nothing back), under it in its column, or under a card of such a pair
//! in another column. That last is read as a set: pairs none of which can part before another
//! of them has (the greatest set that holds, found by dropping pairs with a way out until none
//! has one); the first of them to part would need another to have parted first.

use super::{Board, Rules, MAX_COLUMNS};

impl Rules {
    /// Whether `child`, made from the untrapped `parent` by a step to column `to` (if any) and
    /// the cards sent home after it, is lost by a trapped card. Its pairs can only all be
    /// trapped where the parent's were not if a card sent home was one that a card heading a
    /// pair may lie on, or a card put on `to` made a pair with no way out of its own: otherwise
    /// every pair's way out in the parent is one in the child. A card in the talon or in a
    /// column with no face-down card heads no pair and is never closed to one that does.
    pub(super) fn newly_trapped(&self, parent: &Board, child: &Board, to: Option<usize>) -> bool {
        let mut made = 0u64; // the cards put on `to` that made a pair
        if let Some(t) = to.filter(|&t| child.down[t] > 0) {
            let (from, l, d) = (usize::from(parent.len[t]), usize::from(child.len[t]), usize::from(child.down[t]));
            let later = child.cols[t][..d].iter().fold(0u64, |m, &y| m | self.later[usize::from(y)]);
            made = child.cols[t][from.min(l)..l].iter().fold(0u64, |m, &c| m | 1 << c) & later;
        }
        let sent = child.home_set & !parent.home_set;
        if sent | made == 0 {
            return false;
        }
        let nc = usize::from(child.n_cols);
        let free = (0..nc).filter(|&i| child.down[i] == 0).fold(0, |m, i| m | child.up[i]);
        let mut bereft = 0u64; // the cards that lay on a card sent home
        let mut rest = sent;
        while rest != 0 {
            bereft |= self.on[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        bereft &= !(child.home_set | free);
        if bereft | made == 0 {
            return false;
        }
        let open = child.talon[..usize::from(child.talon_len)].iter().fold(free, |m, &c| m | 1 << c);
        let mut stuck = made & !self.empty;
        let mut rest = stuck;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.bases[c] & open != 0 {
                stuck &= !(1 << c);
            }
        }
        (bereft & !open != 0 || stuck != 0) && self.trapped(child)
    }

    /// Whether `b` is lost by a trapped card (the module's comment says when).
    pub(super) fn trapped(&self, b: &Board) -> bool {
        let nc = usize::from(b.n_cols);
        // Each column's pairs, by their upper card's place (a bit per place). A pair whose upper
        // card is face up parts by a move headed by a face-up card at or under it; one whose
        // upper card is face down, only by that card once turned up. So which face-down card
        // it waits on does not matter.
        let mut pairs = [0u32; MAX_COLUMNS];
        let mut any = false;
        for (i, pairs) in pairs.iter_mut().enumerate().take(nc) {
            let (l, d) = (usize::from(b.len[i]), usize::from(b.down[i]));
            let col = &b.cols[i][..l];
            let mut later = 0u64;
            for (x, &c) in col.iter().enumerate().skip(1) {
                if x <= d {
                    later |= self.later[usize::from(col[x - 1])];
                }
                if later & 1 << c != 0 {
                    *pairs |= 1 << x;
                }
            }
            any |= *pairs != 0;
        }
        while any {
            // the cards no card may lie on before some pair parts: home, or under a pair's
            // upper card (until it parts, nothing under it is a column's top)
            let closed = (0..nc).filter(|&i| pairs[i] != 0).fold(b.home_set, |m, i| m | under(b, i, highest(pairs[i])));
            // whether card `w`, with the cards `beneath` under it in its column, has somewhere to go
            let heads = |w: u8, beneath: u64| {
                let w = usize::from(w);
                self.empty & 1 << w != 0 || self.bases[w] & !(closed | beneath) != 0
            };
            let mut changed = false;
            any = false;
            for (i, pairs) in pairs.iter_mut().enumerate().take(nc) {
                if *pairs == 0 {
                    continue;
                }
                let (d, col) = (usize::from(b.down[i]), &b.cols[i]);
                let mut left = *pairs;
                // the face-up cards head from the lowest up: the pairs at or over the first
                // that can go somewhere may part
                let mut beneath = under(b, i, d);
                for (q, &w) in col.iter().enumerate().take(highest(left) + 1).skip(d) {
                    if heads(w, beneath) {
                        left &= (1u32 << q) - 1;
                        break;
                    }
                    beneath |= 1 << w;
                }
                let mut down = left & ((1u32 << d) - 1);
                while down != 0 {
                    let q = down.trailing_zeros() as usize;
                    down &= down - 1;
                    if heads(col[q], under(b, i, q)) {
                        left &= !(1 << q);
                    }
                }
                changed |= left != *pairs;
                any |= left != 0;
                *pairs = left;
            }
            if !changed {
                return any;
            }
        }
        false
    }
}

/// The cards of column `i` under its place `at`.
fn under(b: &Board, i: usize, at: usize) -> u64 {
    b.cols[i][..at].iter().fold(0, |m, &c| m | 1 << c)
}

/// The highest place of a nonempty set of places.
fn highest(places: u32) -> usize {
    31 - places.leading_zeros() as usize
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::super::tests::{rules, shuffled_deal};
    use super::super::{splitmix, Position, Step, IN_PLACE};
    use super::*;

    /// Whether `b` is won, by every child the model lists (nothing trapped pruned), or None past
    /// `cap` positions.
    fn won_exhaustively(r: &Rules, b: &Board, cap: usize) -> Option<bool> {
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
                r.settle(&mut child, &mut Vec::new(), IN_PLACE);
                stack.push(child);
            }
        }
        Some(false)
    }

    /// Four suits of four cards (card `4 * suit + rank - 1`), one at a time.
    fn two_columns(a: Vec<u8>, b: Vec<u8>) -> (Rules, Board) {
        let r = rules(4, 4, 1);
        let used: Vec<u8> = a.iter().chain(&b).copied().collect();
        let talon = (0..16).filter(|c| !used.contains(c)).collect();
        let columns = vec![(a.len() - 1, a), (b.len() - 1, b)];
        let board = r.board(&Position { columns, talon, waste: 0, home: vec![0; 4] }).expect("a position");
        (r, board)
    }

    #[test]
    fn two_cards_each_waiting_on_a_card_under_the_other_are_trapped() {
        // the two of suit 0 (card 1) lies on its ace (0); it may lie on the threes of suits 1
        // and 3 (6 and 14): 14 is under it, 6 under the two of suit 1 (5), which lies on its
        // ace (4) and may lie on the threes of suits 0 and 2 (2, 10), each under one of them
        let (r, b) = two_columns(vec![2, 14, 0, 1], vec![10, 6, 4, 5]);
        assert!(r.trapped(&b));
        assert_eq!(won_exhaustively(&r, &b, 100_000), Some(false));
        // with the three of suit 1 dealt elsewhere, the first pair has a way out to look for
        let (r, b) = two_columns(vec![2, 14, 0, 1], vec![10, 8, 4, 5]);
        assert!(!r.trapped(&b));
    }

    #[test]
    fn a_trapped_position_is_lost_on_every_line() {
        let r = rules(4, 5, 1);
        let mut seed = 11u64;
        let (mut trapped, mut kids, mut places) = (0, Vec::new(), Vec::new());
        for _ in 0..3000 {
            let (columns, talon) = shuffled_deal(&mut seed, 20, 2..=5);
            let mut b = r.board(&Position { columns, talon, waste: 0, home: vec![0; 4] }).expect("a deal");
            r.settle(&mut b, &mut Vec::new(), IN_PLACE);
            for _ in 0..40 {
                if r.trapped(&b) {
                    trapped += 1;
                    assert_eq!(won_exhaustively(&r, &b, 2_000_000), Some(false), "a trapped position is won");
                    break;
                }
                kids.clear();
                r.children(&b, &mut kids, &mut places, 0);
                if kids.is_empty() {
                    break;
                }
                let (_, s): (i32, Step) = kids[(splitmix(&mut seed) % kids.len() as u64) as usize];
                r.apply(&mut b, s, IN_PLACE);
                r.settle(&mut b, &mut Vec::new(), IN_PLACE);
            }
        }
        assert!(trapped >= 100, "only {trapped} trapped positions met");
    }
}
