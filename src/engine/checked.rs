//! Invariants checked inside the native engine, for the bulk of the long invariant run
//! (tests/test_invariants.py): random play as `playout` plays it, judged after every move.

use super::{Game, Move, SplitMix, State, PLAYING};
use crate::expr::ExprError;

impl Game {
    /// Whether every card of the game lies on the board exactly once (`seen`: scratch space).
    fn all_cards(&self, s: &State, seen: &mut Vec<u32>) -> bool {
        seen.clear();
        seen.resize(self.ident.len(), 0);
        let mut total = 0;
        for &c in s.piles.iter().flatten() {
            let Some(k) = usize::try_from(c >> 1).ok().filter(|&k| k < seen.len()) else { return false };
            seen[k] += 1;
            total += 1;
        }
        total == seen.len() && seen.iter().all(|&k| k == 1)
    }

    /// Uniformly random play from `s` for at most `max_moves` moves, checking after every move
    /// that every card lies on the board exactly once, that the move picked from the listing is
    /// legal when judged alone (`legal`, as `apply` judges a move it did not list), that
    /// applying it twice gives the same position, and that it counts one move. Ok((moves made,
    /// status)), or the first invariant broken, saying at which move.
    pub fn checked_playout(&self, s: &State, rng: &mut SplitMix, max_moves: u64)
                           -> Result<Result<(u64, i32), String>, ExprError> {
        let mut seen = Vec::new();
        if !self.all_cards(s, &mut seen) {
            return Ok(Err("the position played from lost or duplicated a card".into()));
        }
        let mut state = s.clone();
        let mut made = 0;
        while made < max_moves {
            let moves = self.legal_moves(&state)?;
            if state.status != PLAYING || moves.is_empty() {
                break; // `legal_moves` lists nothing once the game is over
            }
            let m: Move = moves[rng.below(moves.len() as u64) as usize];
            made += 1;
            let fail = |what: &str| Ok(Err(format!("move {made} {m:?}: {what}")));
            if !self.legal(&state, m)? {
                return fail("listed, but judged illegal alone");
            }
            let after = self.apply_legal(&state, m)?;
            if self.apply_legal(&state, m)? != after {
                return fail("applied twice, two positions");
            }
            if after.moves != state.moves + 1 {
                return fail("not counted as one move");
            }
            if !self.all_cards(&after, &mut seen) {
                return fail("a card was lost or duplicated");
            }
            state = after;
        }
        Ok(Ok((made, state.status)))
    }
}
