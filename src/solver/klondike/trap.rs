//! Positions lost because some cards can never leave their places (docs/solver.md, section 8,
//! "Trapped cards").
//!
//! A set of *stuck* cards, each lying on another card in a column, such that none can move
//! before another of them has: each has a lower card of its chain under one of them (in its
//! own column or another), so it cannot go home first; and no card that could head a move of
//! it to another column (a face-up card at or under it, or the card itself once turned up if
//! it is face down) has anywhere to go. A card has nowhere to go when an empty column takes no
//! such card and every card it may lie on is home (foundations give nothing back), under it in
//! its column, or under a stuck card. Until the first of them moves, every card under a stuck
//! card stays covered, so the first could not move: none ever does, the cards under them never
//! go home, and the position is lost. The greatest such set is found by starting from every
//! card that lies on another and dropping those with a way out until none has one.

use super::{Board, Rules, MAX_COLUMNS};

impl Rules {
    /// Whether `child`, made from the untrapped `parent` by a step to column `to` (if any) and
    /// the cards sent home after it, is lost by a trapped card. A set of stuck cards of the
    /// child that was not one of the parent must hold a card the step put on `to`, or have lost
    /// a way out to a card sent home: taking cards off a column's top or turning one up leaves
    /// every card there the ways out it had. So the full check runs only when a column card
    /// that lay on a card sent home, or a card put on `to` with every face-up card under it,
    /// has nowhere to go but onto a covered card (one under another in a column) or home.
    pub(super) fn newly_trapped(&self, parent: &Board, child: &Board, to: Option<usize>) -> bool {
        let sent = child.home_set & !parent.home_set;
        if sent == 0 && to.is_none() {
            return false;
        }
        let nc = usize::from(child.n_cols);
        let talon = child.talon[..usize::from(child.talon_len)].iter().fold(0u64, |m, &c| m | 1 << c);
        let tops = (0..nc).filter(|&i| child.len[i] > 0).fold(0u64, |m, i| m | 1 << child.cols[i][usize::from(child.len[i]) - 1]);
        let covered = self.all() & !(child.home_set | talon | tops);
        let closed = covered | child.home_set;
        let shut = |c: usize| self.empty & 1 << c == 0 && self.bases[c] & !closed == 0;
        let mut rest = sent;
        while rest != 0 {
            let mut bereft = self.on[rest.trailing_zeros() as usize] & !(child.home_set | talon);
            rest &= rest - 1;
            while bereft != 0 {
                let c = bereft.trailing_zeros() as usize;
                bereft &= bereft - 1;
                if shut(c) {
                    return self.trapped(child);
                }
            }
        }
        let Some(t) = to else { return false };
        let (from, l, d) = (usize::from(parent.len[t]), usize::from(child.len[t]), usize::from(child.down[t]));
        for (q, &c) in child.cols[t][..l].iter().enumerate().skip(d) {
            let c = usize::from(c);
            if !shut(c) {
                return false;
            }
            if q >= from.max(1) && self.lower[c] & covered != 0 {
                return self.trapped(child);
            }
        }
        false
    }

    /// Whether `b` is lost by a trapped card (the module's comment says when).
    pub(super) fn trapped(&self, b: &Board) -> bool {
        let nc = usize::from(b.n_cols);
        // Each column's stuck cards, by place (a bit per place): at first every card over
        // another, then those with a way out dropped until none is left with one.
        let mut stuck = [0u32; MAX_COLUMNS];
        for (i, stuck) in stuck.iter_mut().enumerate().take(nc) {
            *stuck = ((1u64 << b.len[i]) - 1) as u32 & !1;
        }
        loop {
            // the cards under a stuck card: none is a column's top before a stuck card moves
            let covered = (0..nc).filter(|&i| stuck[i] != 0).fold(0, |m, i| m | under(b, i, highest(stuck[i])));
            let closed = covered | b.home_set;
            // whether card `w`, with the cards `beneath` under it in its column, has somewhere to go
            let heads = |w: u8, beneath: u64| {
                let w = usize::from(w);
                self.empty & 1 << w != 0 || self.bases[w] & !(closed | beneath) != 0
            };
            let (mut changed, mut any) = (false, false);
            for (i, stuck) in stuck.iter_mut().enumerate().take(nc) {
                let col = &b.cols[i];
                // a card with no lower card of its chain covered may go home
                let mut left = *stuck;
                let mut rest = left;
                while rest != 0 {
                    let q = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    if self.lower[usize::from(col[q])] & covered == 0 {
                        left &= !(1 << q);
                    }
                }
                if left != 0 {
                    // the face-up cards head from the lowest up: the cards at or over the first
                    // that can go somewhere may move
                    let d = usize::from(b.down[i]);
                    let mut beneath = under(b, i, d);
                    for (q, &w) in col.iter().enumerate().take(highest(left) + 1).skip(d) {
                        if heads(w, beneath) {
                            left &= (1u32 << q) - 1;
                            break;
                        }
                        beneath |= 1 << w;
                    }
                    // a face-down card heads only itself, once turned up
                    let mut down = left & ((1u32 << d) - 1);
                    while down != 0 {
                        let q = down.trailing_zeros() as usize;
                        down &= down - 1;
                        if heads(col[q], under(b, i, q)) {
                            left &= !(1 << q);
                        }
                    }
                }
                changed |= left != *stuck;
                any |= left != 0;
                *stuck = left;
            }
            if !changed || !any {
                return any;
            }
        }
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
    use super::super::tests::{random_walks, rules, won_exhaustively};
    use super::super::{Position, IN_PLACE};
    use super::*;

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
    fn two_cards_each_waiting_on_the_other_to_move_are_trapped() {
        // each case: two columns trapped only as a set, and the same with one card dealt
        // elsewhere, which frees them
        let cases = [
            // the two of suit 0 (card 1) lies on its ace (0); it may lie on the threes of suits
            // 1 and 3 (6 and 14): 14 is under it, 6 under the two of suit 1 (5), which lies on
            // its ace (4) and may lie on the threes of suits 0 and 2 (2, 10), each under one of
            // them. With the three of suit 1 elsewhere, card 1 has a way out to look for.
            ([2, 14, 0, 1], [10, 6, 4, 5], [10, 8, 4, 5]),
            // no card lies over a lower card of its own suit: card 1 waits on its ace (0), under
            // card 5, which waits on its ace (4), under card 1; each may lie only on cards under
            // one of the two. With an ace in card 5's place, nothing keeps card 0 covered.
            ([2, 6, 4, 1], [10, 14, 0, 5], [10, 14, 0, 8]),
        ];
        for (a, b, freed) in cases {
            let (r, board) = two_columns(a.to_vec(), b.to_vec());
            assert!(r.trapped(&board), "{a:?} {b:?}");
            assert_eq!(won_exhaustively(&r, &board, true, 100_000), Some(false));
            let (r, board) = two_columns(a.to_vec(), freed.to_vec());
            assert!(!r.trapped(&board), "{a:?} {freed:?}");
        }
    }

    #[test]
    fn a_trapped_position_is_lost_on_every_line() {
        let mut trapped = 0;
        random_walks(11, 3000, 40, |r, b, _| {
            let stop = r.trapped(b);
            if stop {
                trapped += 1;
                assert_eq!(won_exhaustively(r, b, true, 2_000_000), Some(false), "a trapped position is won");
            }
            stop
        });
        assert!(trapped >= 100, "only {trapped} trapped positions met");
    }

    #[test]
    fn the_check_on_a_child_finds_every_trapped_child_of_an_untrapped_position() {
        let mut found = 0;
        random_walks(12, 1000, 60, |r, b, kids| {
            if r.trapped(b) {
                return true;
            }
            for &(_, s) in kids {
                let mut child = b.clone();
                r.apply(&mut child, s, IN_PLACE);
                r.settle(&mut child, &mut Vec::new(), IN_PLACE);
                let trapped = r.trapped(&child);
                assert_eq!(r.newly_trapped(b, &child, s.to_column()), trapped, "{s:?}");
                found += usize::from(trapped);
            }
            false
        });
        assert!(found >= 100, "only {found} trapped children met");
    }
}
