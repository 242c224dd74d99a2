//! `Game::from_json` on any bytes: a plan document is refused with `Unsupported` or loaded, never a
//! panic. A loaded game then plays a few moves from a board of every card on the first depot, face
//! down, and from the same cards face up: `check_state` refuses a board the game can't play, and
//! every move `legal_moves` lists applies.
#![no_main]

use _native::engine::{Game, State};
use libfuzzer_sys::fuzz_target;

const MOVES: usize = 8; // moves played from each board (enough to reach taps and flips)

fn play(game: &Game, mut s: State) {
    if game.check_state(&s).is_err() {
        return;
    }
    for _ in 0..MOVES {
        // an expression's own error (a step budget, a bound passed) is a refusal, not a panic
        let Ok(moves) = game.legal_moves(&s) else { return };
        let Some(&m) = moves.first() else { return };
        match game.apply(&s, m) {
            Ok(Some(next)) => s = next,
            Ok(None) => panic!("a listed move does not apply: {m:?}"),
            Err(_) => return,
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(game) = Game::from_json(&text) else { return };
    let n = game.n_depots();
    // the game's cards, as the document lists them (the engine keeps its count to itself)
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    let count = doc["compiled"]["card_rank"].as_array().map_or(0, |a| a.len()).min(1 << 16);
    let cards = (0..count as i32).map(|c| c << 1);
    for up in [0, 1] {
        let mut piles = vec![Vec::new(); n];
        if n > 0 {
            piles[0] = cards.clone().map(|c| c | up).collect();
        }
        play(&game, State { piles, ..State::default() });
    }
});
