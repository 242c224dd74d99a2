//! Reorders: a card moved along its own depot's `looseOrder` fan, `Move(d, i, d, at)` with the
//! new position in the fourth field (`MoveGen._reorder_moves`, `_reorder_reason` and
//! `Play._reorder` in `cardz_core/engine/`). Legal on every loose fan for a card its eject rule
//! lets go; listed only on the fans the plan names (`reorders`: those whose order can change
//! what the rules allow).

use super::{Game, Move, State, Work};
use crate::expr::ExprError;

impl Game {
    /// Whether the card at `index` of depot `d` may be picked up now (gate, cover, run),
    /// `acting` aside: `legal`'s test of a pickup.
    fn pickable(&self, s: &State, d: usize, index: usize) -> bool {
        let pile = &s.piles[d];
        match self.ejects[d].pick_span(&s.piles, pile, &self.ident) {
            Some((low, face_up_only, _)) => index >= low && !(face_up_only && pile[index] & 1 == 0),
            None => false,
        }
    }

    /// The listed reorders of `s` into `out`: by depot, picked position, new position.
    pub(super) fn reorder_moves(&self, s: &State, out: &mut Vec<Move>, skip: impl Fn(usize) -> bool) {
        for &d in &self.reorders {
            if skip(d) {
                continue;
            }
            let n = s.piles[d].len();
            for i in (0..n).filter(|&i| self.pickable(s, d, i)) {
                out.extend((0..n).filter(|&at| at != i).map(|at| (d as i32, i as i32, d as i32, at as i32)));
            }
        }
    }

    /// Whether the reorder `m` (its source and target the same depot) is legal in `s`.
    pub(super) fn reorder_legal(&self, s: &State, m: Move) -> Result<bool, ExprError> {
        let (d, index, at) = (m.0 as usize, m.1 as usize, m.3);
        let n = s.piles[d].len();
        if !self.ejects[d].loose || index >= n || at < 0 || at as usize >= n || at as usize == index {
            return Ok(false);
        }
        Ok(self.pickable(s, d, index) && !self.acting(s)?.contains(&d))
    }

    /// `Play._reorder`: the card at `m.1` of depot `m.0` moved to position `m.3`, face kept;
    /// the depot counts as one that lost a card for the flips, and `came_from` is the depot
    /// itself when the card lands on top, none when the top card moved down.
    pub(super) fn reorder(&self, w: &mut Work, m: Move) {
        let (d, index, at) = (m.0 as usize, m.1 as usize, m.3 as usize);
        let pile = &mut w.s.piles[d];
        let (len, top) = (pile.len(), pile.last().copied());
        let card = pile.remove(index);
        pile.insert(at, card);
        w.changed(d, len, top);
        w.left[d] = true;
        if at == len - 1 {
            w.s.came_from[d] = d as i32;
        } else if index == len - 1 {
            w.s.came_from[d] = -1;
        }
    }
}
