//! The opening deal, natively (`Play.deal` in `cardz_core/engine/play.py`): each pack group
//! shuffled into its depot with the game's splitmix64 generator, then the deal steps run on a
//! `Work` by the same step primitives as redeals and triggers, then the judgement. A game
//! whose deal steps do not all name a native primitive is dealt by the Python engine.

use serde_json::Value;

use super::{Code, Game, SplitMix, State, Work, PLAYING};
use crate::expr::ExprError;

/// The pack groups of `card_home` (each card's home depot) in the order the Python engine
/// shuffles them, the first card of each group first: (depot, the face-down codes in card
/// order). None when a card has no home (the Python engine refuses that deal).
pub(super) fn pack_groups(c: &Value) -> Option<Vec<(usize, Vec<Code>)>> {
    let homes = c.get("card_home")?.as_array()?;
    let mut groups: Vec<(usize, Vec<Code>)> = Vec::new();
    for (id, home) in homes.iter().enumerate() {
        let d = usize::try_from(home.as_i64()?).ok()?;
        let code = Code::try_from(id).ok()? << 1;
        match groups.iter_mut().find(|(g, _)| *g == d) {
            Some((_, cards)) => cards.push(code),
            None => groups.push((d, vec![code])),
        }
    }
    Some(groups)
}

/// `rng.shuffle`: Fisher-Yates from the last position down, each swap drawn by `below`.
pub(super) fn shuffle(items: &mut [Code], rng: &mut SplitMix) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

impl Game {
    /// The opening deal for `seed` (the generator's state, the seed modulo 2**64), as the
    /// Python engine's `deal` makes it; None when this game is dealt by the Python engine.
    pub fn deal(&self, seed: u64) -> Result<Option<State>, ExprError> {
        let (Some(groups), Some(steps)) = (&self.pack_groups, &self.rules.deal) else { return Ok(None) };
        let n = self.n;
        let mut rng = SplitMix(seed);
        let mut piles = vec![Vec::new(); n];
        for (d, cards) in groups {
            let mut cards = cards.clone();
            shuffle(&mut cards, &mut rng);
            piles[*d] = cards;
        }
        let mut s = State { piles, came_from: vec![-1; n], recycles: vec![0; n], declared: vec![-1; n], rng: rng.0,
                            ..State::default() };
        self.run_steps(&mut Work::on(&mut s), steps)?;
        s.seed_rank = self.dealt_seed(&s);
        s.came_from = vec![-1; n];
        s.status = PLAYING;
        s.status = self.judge(&s)?;
        Ok(Some(s))
    }

    /// `Play._deal_seed`: the rank of the first face-up card on the depots that take their
    /// seed from the deal, in depot order; 0 none.
    fn dealt_seed(&self, s: &State) -> i32 {
        self.accepts
            .iter()
            .zip(&s.piles)
            .filter(|(acc, _)| acc.seed_from_deal)
            .flat_map(|(_, pile)| pile.iter())
            .find(|&&c| c & 1 == 1)
            .map_or(0, |&c| self.card(c).rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten Spades, Ace to Ten, all at home in depot 0; depot 1 takes its seed from the deal;
    /// `deal` the compiled deal steps.
    fn game(deal: &str) -> Game {
        let doc = format!(r#"{{"compiled": {{"format": "cardz-compiled/1", "first_stock": 0, "triggers": [],
            "redeal": [], "deal": {deal}, "actions": [[], []], "auto_send": [null, null], "auto_refill": [null, null],
            "card_rank": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "card_suit": [3, 3, 3, 3, 3, 3, 3, 3, 3, 3],
            "card_home": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            "accepts": [{{"build": null}}, {{"build": null, "seed_from_deal": true}}],
            "ejects": [{{"gate": "Any", "covered_by": []}}, {{"gate": "Any", "covered_by": []}}],
            "draws": [null, null], "land_face": [-1, -1], "land_under": [false, false],
            "auto_flip_top": [false, false], "staged": false, "win": null, "loss": null, "redeal_when": null}},
            "plan": {{"sources": [], "drop_targets": [], "down_targets": [], "tappable": [],
            "flip_uncovered": [], "cells": [], "tableaus": [], "max_cascade": 10000}}}}"#);
        Game::from_json(&doc).unwrap()
    }

    const ONE_UP: &str = r#"[{"kind": "dealGroup", "native": "deal", "ptr": "/dealRules/0",
        "args": {"to": [1], "from": 0, "faceDown": 0, "faceUp": 1}}]"#;

    #[test]
    fn the_deal_shuffles_as_the_python_engine_then_runs_its_steps() {
        let g = game(ONE_UP);
        let s = g.deal(42).unwrap().unwrap();
        // cardz_core.engine.rng.shuffle(seed_state(42), list(range(10))) is
        // [0, 9, 5, 8, 6, 4, 7, 2, 1, 3]: the last (id 3, the Four) is dealt face up
        assert_eq!(s.piles, vec![vec![0, 18, 10, 16, 12, 8, 14, 4, 2], vec![7]]);
        assert_eq!((s.came_from.clone(), s.recycles.clone(), s.declared.clone()), (vec![-1, -1], vec![0, 0], vec![-1, -1]));
        assert_eq!((s.seed_rank, s.moves, s.status), (4, 0, PLAYING));
        let mut rng = SplitMix(42);
        shuffle(&mut [0; 10], &mut rng);
        assert_eq!(s.rng, rng.0); // the generator goes on from the shuffle
    }

    #[test]
    fn a_deal_step_without_a_native_primitive_leaves_the_deal_to_python() {
        let g = game(r#"[{"kind": "fancy", "native": null, "ptr": "/dealRules/0", "args": {}}]"#);
        assert_eq!(g.deal(1), Ok(None));
    }
}
