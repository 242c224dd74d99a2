//! The rules of a compiled game, executed natively: legal moves, apply (card moves, draws and
//! recycles, landings, automatic flips, the `Staged` limit) and status. The Python engine
//! (`cardz_core/engine/`) is the reference; every function here follows the one it names.
//! Nothing here knows a vocabulary word: only the compiled tables and the plan's facts.

use serde_json::Value;

use crate::expr::{ExprError, Exprs};
use settle::{Rules, Tap};

mod settle;
mod steps;

pub const PLAYING: i32 = 0;
pub const WON: i32 = 1;
pub const LOST: i32 = 2;

/// A card code: `card id << 1 | face`, face 1 up. Views' unknown cards (negative) are not played.
pub type Code = i32;
pub type Pile = Vec<Code>;

/// A move as the Python engine's `Move`: (src, index, dst, declare); a tap has index -1, dst -1.
pub type Move = (i32, i32, i32, i32);

/// A printed identity: rank 1..13 (0 a joker), suit 0..3 (-1 a joker).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Card {
    pub rank: i32,
    pub suit: i32,
}

impl Card {
    fn joker(self) -> bool {
        self.rank == 0
    }
}

const SUIT_RED: [bool; 4] = [false, true, true, false]; // Clubs, Diamonds, Hearts, Spades

#[derive(Clone, Copy, Debug, PartialEq)]
enum Dir {
    Up,
    Down,
    Either,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum SuitRule {
    Any,
    Same,
    AlternateColor,
    SameColor,
}

/// `cardz_core.engine.relations.relation`: how a card relates to the one beneath it.
#[derive(Clone, Debug)]
struct Relation {
    build: Option<(Dir, i32, bool)>, // direction, step, wrap
    suit: SuitRule,
    follow: bool,
}

impl Relation {
    /// None when it reads nothing about the cards (then everything fits, jokers too).
    fn new(build: Option<(Dir, i32, bool)>, suit: SuitRule, follow: bool) -> Option<Relation> {
        if build.is_none() && suit == SuitRule::Any && !follow {
            return None;
        }
        Some(Relation { build, suit, follow })
    }

    fn fits(&self, below: Card, card: Card) -> bool {
        if below.joker() || card.joker() {
            return false;
        }
        if self.follow && below.rank != card.rank && below.suit != card.suit {
            return false;
        }
        if let Some((dir, step, wrap)) = self.build {
            let (b, r) = (below.rank, card.rank);
            let up = if wrap { r == (b - 1 + step).rem_euclid(13) + 1 } else { r == b + step };
            let down = if wrap { r == (b - 1 - step).rem_euclid(13) + 1 } else { r == b - step };
            let ok = match dir {
                Dir::Up => up,
                Dir::Down => down,
                Dir::Either => up || down,
            };
            if !ok {
                return false;
            }
        }
        let (b, s) = (below.suit as usize, card.suit as usize);
        match self.suit {
            SuitRule::Any => true,
            SuitRule::Same => b == s,
            SuitRule::AlternateColor => SUIT_RED[b] != SUIT_RED[s],
            SuitRule::SameColor => SUIT_RED[b] == SUIT_RED[s],
        }
    }
}

/// What may follow on a pile (`accept.py`'s `Below`): the called-suit and transparent-wild
/// forms are refused at load.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Below {
    Bare,
    Card(Card),
    Down,
    Free,
}

/// One depot's `acceptRule` (`cardz_core.engine.accept.Accept`).
#[derive(Debug)]
struct Accept {
    none: bool,
    empty_only: bool,
    single: bool,
    min_count: usize,
    from: Option<Vec<usize>>,
    seed: Option<i32>,
    seed_none: bool,
    seed_from_deal: bool,
    rank_is: Option<i32>,
    rel: Option<Relation>,
    wild_rank: Option<i32>,
    wild_joker: bool,
    declares_free: bool,
    allow_down: bool,
    // the hot-path tables (`Accept.on_top`, `on_down`): by card id, whether a face-up card
    // may lie on a face-up top card (`[top * n_cards + card]`) or on a face-down one
    on_top: Vec<bool>,
    on_down: Vec<bool>,
}

impl Accept {
    fn wild(&self, card: Card) -> bool {
        (self.wild_joker && card.joker()) || self.wild_rank == Some(card.rank)
    }

    fn rank_ok(&self, card: Card) -> bool {
        self.rank_is.is_none_or(|r| card.rank == r)
    }

    fn seed_ok(&self, card: Card, seed_rank: i32) -> bool {
        if self.seed_none {
            return false;
        }
        if self.seed_from_deal {
            if seed_rank == 0 || card.rank != seed_rank {
                return false;
            }
        } else if self.seed.is_some_and(|s| card.rank != s) {
            return false;
        }
        self.wild(card) || self.rank_ok(card)
    }

    fn fits(&self, below: Below, card: Card, seed_rank: i32) -> bool {
        match below {
            Below::Bare => self.seed_ok(card, seed_rank),
            _ if self.wild(card) => true,
            Below::Card(b) => self.rank_ok(card) && self.rel.as_ref().is_none_or(|r| r.fits(b, card)),
            Below::Free => self.rank_ok(card),
            Below::Down => self.rel.is_none() && self.rank_ok(card),
        }
    }

    fn fits_down(&self, below: Below, seed_rank: i32) -> bool {
        if below == Below::Bare {
            if self.seed_none || (self.seed_from_deal && seed_rank == 0) {
                return false;
            }
            return self.allow_down
                || (self.seed.is_none() && !self.seed_from_deal && self.rank_is.is_none());
        }
        if self.allow_down {
            return true;
        }
        self.rank_is.is_none() && (self.rel.is_none() || below == Below::Free)
    }

    fn after(&self, card: Card) -> Below {
        if self.declares_free && self.wild(card) {
            Below::Free
        } else {
            Below::Card(card)
        }
    }

    /// The `min_count <= 1` and no-`when` case of `Accept.simple`.
    fn simple(&self) -> bool {
        self.min_count <= 1
    }

    fn fill_tables(&mut self, ident: &[Card]) {
        self.on_top = ident
            .iter()
            .flat_map(|&top| ident.iter().map(move |&card| (top, card)))
            .map(|(top, card)| self.fits(self.after(top), card, 0))
            .collect();
        self.on_down = ident.iter().map(|&card| self.fits(Below::Down, card, 0)).collect();
    }

    fn takes_from(&self, src: usize) -> bool {
        self.from.as_ref().is_none_or(|f| f.contains(&src))
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Gate {
    Any,
    FaceUp,
    TopOnly,
    Locked,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Unit {
    Cards, // no unit: the picked card and all above, each judged by the target
    Single,
    Any,
    Run,
    Pile,
}

/// One depot's `ejectRule` and `uncoveredBy` (`cardz_core.engine.eject.Eject`).
#[derive(Debug)]
struct Eject {
    gate: Gate,
    unit: Unit,
    covered_by: Vec<usize>,
    cover_any: bool,
    run: Option<Relation>,
}

impl Eject {
    fn vouched(&self) -> bool {
        self.unit != Unit::Cards
    }

    fn covered(&self, piles: &[Pile]) -> bool {
        if self.covered_by.is_empty() {
            return false;
        }
        if self.cover_any {
            self.covered_by.iter().all(|&c| !piles[c].is_empty())
        } else {
            self.covered_by.iter().any(|&c| !piles[c].is_empty())
        }
    }

    fn run_start(&self, pile: &[Code], ident: &[Card]) -> usize {
        let mut i = pile.len() - 1;
        while i > 0 {
            let (below, above) = (pile[i - 1], pile[i]);
            let fits = below & 1 == 1
                && above & 1 == 1
                && self.run.as_ref().is_none_or(|r| r.fits(ident[(below >> 1) as usize], ident[(above >> 1) as usize]));
            if !fits {
                break;
            }
            i -= 1;
        }
        i
    }

    fn picks(&self, piles: &[Pile], pile: &[Code], ident: &[Card]) -> Vec<usize> {
        let n = pile.len();
        if n == 0 || self.gate == Gate::Locked || self.covered(piles) {
            return Vec::new();
        }
        let mut out: Vec<usize> = match self.gate {
            Gate::TopOnly => vec![n - 1],
            Gate::FaceUp => (0..n).filter(|&i| pile[i] & 1 == 1).collect(),
            _ => (0..n).collect(),
        };
        if self.unit == Unit::Run && !out.is_empty() {
            let low = self.run_start(pile, ident);
            out.retain(|&i| i >= low);
        }
        if self.unit == Unit::Pile {
            out.truncate(1);
        }
        out
    }

    /// The group that leaves when the card at `index` is picked, bottom first.
    fn group<'a>(&self, pile: &'a [Code], index: usize) -> &'a [Code] {
        match self.unit {
            Unit::Single => std::slice::from_ref(&pile[index]),
            Unit::Pile => pile,
            _ => &pile[index..],
        }
    }

    /// (the group that leaves, bottom first; what stays).
    fn split(&self, pile: &[Code], index: usize) -> (Pile, Pile) {
        match self.unit {
            Unit::Single => {
                let mut rest = pile.to_vec();
                let card = rest.remove(index);
                (vec![card], rest)
            }
            Unit::Pile => (pile.to_vec(), Vec::new()),
            _ => (pile[index..].to_vec(), pile[..index].to_vec()),
        }
    }
}

#[derive(Debug)]
struct Draw {
    to: usize,
    count: i64,
    recycle: bool,
    max_recycles: Option<i64>,
}

/// A position as the native engine plays it: every field of the Python engine's `State`
/// (`cardz_core/engine/state.py`) but a view's `pools` and the printing-only `cards`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct State {
    pub piles: Vec<Pile>,
    pub came_from: Vec<i32>,
    pub recycles: Vec<i64>, // empty: none used yet (as the Python engine keeps it)
    pub redeals: i64,
    pub moves: i64,
    pub undos: i64,
    pub recycles_total: i64,
    pub seed_rank: i32,
    pub declared: Vec<i32>,
    pub rules_off: bool,
    pub auto_moved: bool,
    pub status: i32,
    pub rng: u64,
}

/// The board being changed (`cardz_core.engine.work.Work`).
struct Work {
    s: State,
    left: Vec<bool>,
    flips: u32,
}

impl Work {
    fn new(state: &State) -> Work {
        let n = state.piles.len();
        let mut s = state.clone();
        if s.came_from.is_empty() {
            s.came_from = vec![-1; n];
        }
        if s.declared.is_empty() {
            s.declared = vec![-1; n];
        }
        Work { s, left: vec![false; n], flips: 0 }
    }

    fn up(&mut self, c: Code) -> Code {
        if c & 1 == 0 {
            self.flips += 1;
        }
        c | 1
    }

    fn set_pile(&mut self, d: usize, pile: Pile) {
        let old = &self.s.piles[d];
        if pile.len() < old.len() {
            self.left[d] = true;
        }
        if pile.is_empty() || old.is_empty() || pile.last() != old.last() {
            self.s.declared[d] = -1;
            if pile.is_empty() {
                self.s.came_from[d] = -1;
            }
        }
        self.s.piles[d] = pile;
    }

    fn take_top(&mut self, d: usize) -> Option<Code> {
        let mut pile = self.s.piles[d].clone();
        let top = pile.pop()?;
        self.set_pile(d, pile);
        self.s.came_from[d] = -1;
        Some(top)
    }

    fn put(&mut self, d: usize, cards: Pile, src: i32, under: bool) {
        if cards.is_empty() {
            return;
        }
        let pile = &self.s.piles[d];
        if under {
            let was_empty = pile.is_empty();
            let mut new = cards;
            new.extend_from_slice(pile);
            self.set_pile(d, new);
            if was_empty {
                self.s.came_from[d] = src;
            }
        } else {
            let mut new = pile.clone();
            new.extend(cards);
            self.set_pile(d, new);
            self.s.came_from[d] = src;
        }
    }

    fn flip_top(&mut self, d: usize) {
        let mut pile = self.s.piles[d].clone();
        if let Some(&top) = pile.last() {
            if top & 1 == 0 {
                let up = self.up(top);
                *pile.last_mut().expect("a top card") = up;
                self.set_pile(d, pile);
            }
        }
    }
}

/// Why a position can't be played here: unknown cards (a view's), or not one of this game.
#[derive(Debug, PartialEq)]
pub enum BadState {
    Unknown,
    Shape(String),
}

/// Why a compiled game can't be played natively.
#[derive(Debug, PartialEq)]
pub struct Unsupported(pub String);

fn unsupported<T>(what: impl Into<String>) -> Result<T, Unsupported> {
    Err(Unsupported(what.into()))
}

/// One compiled game with its plan, ready to play.
#[derive(Debug)]
pub struct Game {
    n: usize,
    ident: Vec<Card>,
    accepts: Vec<Accept>,
    ejects: Vec<Eject>,
    draws: Vec<Option<Draw>>,
    land_face: Vec<i64>,
    land_under: Vec<bool>,
    any_land_under: bool,
    auto_flip_top: Vec<bool>,
    // from the plan: the Python engine's own index tables, so both list in the same order
    sources: Vec<usize>,
    drop_targets: Vec<usize>,
    down_targets: Vec<usize>,
    tappable: Vec<usize>,
    flip_uncovered: Vec<usize>,
    cells: Vec<usize>,
    tableaus: Vec<usize>,
    staged: bool,
    win_empties: Option<Vec<usize>>,
    loss_stalemate: bool,
    // what settles a move and the taps that run steps (`settle.rs`), with its expressions
    rules: Rules,
    exprs: Exprs,
}

fn field<'a>(v: &'a Value, name: &str) -> Result<&'a Value, Unsupported> {
    v.get(name).ok_or_else(|| Unsupported(format!("the compiled game has no '{name}'")))
}

fn ints(v: &Value, name: &str) -> Result<Vec<i64>, Unsupported> {
    let arr = field(v, name)?.as_array().ok_or_else(|| Unsupported(format!("'{name}' is not a list")))?;
    arr.iter()
        .map(|x| x.as_i64().ok_or_else(|| Unsupported(format!("'{name}' holds a non-integer"))))
        .collect()
}

fn indices(v: &Value, name: &str) -> Result<Vec<usize>, Unsupported> {
    ints(v, name)?
        .into_iter()
        .map(|x| usize::try_from(x).map_err(|_| Unsupported(format!("'{name}' holds a negative index"))))
        .collect()
}

fn bools(v: &Value, name: &str) -> Result<Vec<bool>, Unsupported> {
    let arr = field(v, name)?.as_array().ok_or_else(|| Unsupported(format!("'{name}' is not a list")))?;
    arr.iter()
        .map(|x| x.as_bool().ok_or_else(|| Unsupported(format!("'{name}' holds a non-bool"))))
        .collect()
}

fn flag(v: &Value, name: &str) -> bool {
    v.get(name).and_then(Value::as_bool).unwrap_or(false)
}

fn opt_int(v: &Value, name: &str) -> Option<i64> {
    v.get(name).and_then(Value::as_i64)
}

fn text<'a>(v: &'a Value, name: &str) -> &'a str {
    v.get(name).and_then(Value::as_str).unwrap_or("")
}

fn absent(v: &Value, name: &str) -> bool {
    v.get(name).is_none_or(Value::is_null)
}

fn build_rule(v: &Value) -> Result<Option<(Dir, i32, bool)>, Unsupported> {
    if v.is_null() {
        return Ok(None);
    }
    let dir = match text(v, "direction") {
        "Up" => Dir::Up,
        "Down" => Dir::Down,
        "Either" => Dir::Either,
        other => return unsupported(format!("build direction {other:?}")),
    };
    Ok(Some((dir, opt_int(v, "step").unwrap_or(1) as i32, flag(v, "wrap"))))
}

fn suit_rule(s: &str) -> Result<SuitRule, Unsupported> {
    Ok(match s {
        "Any" | "" => SuitRule::Any,
        "Same" => SuitRule::Same,
        "AlternateColor" => SuitRule::AlternateColor,
        "SameColor" => SuitRule::SameColor,
        other => return unsupported(format!("suit rule {other:?}")),
    })
}

fn accept(v: &Value, depot: usize) -> Result<Accept, Unsupported> {
    if !absent(v, "when") {
        return unsupported(format!("depot {depot}'s acceptRule has a 'when' expression"));
    }
    let declares = text(v, "wild_declares");
    let has_wild = !absent(v, "wild_rank") || flag(v, "wild_joker");
    if has_wild && !(declares == "none" || declares == "free") {
        return unsupported(format!("depot {depot}'s wild cards declare {declares:?}"));
    }
    let from = match v.get("accept_from") {
        Some(Value::Array(a)) => Some(a.iter().filter_map(Value::as_u64).map(|x| x as usize).collect()),
        _ => None,
    };
    Ok(Accept {
        none: flag(v, "rejects_all"),
        empty_only: flag(v, "empty_only"),
        single: flag(v, "single"),
        min_count: opt_int(v, "min_count").unwrap_or(0).max(0) as usize,
        from,
        seed: opt_int(v, "seed").map(|x| x as i32),
        seed_none: flag(v, "seed_none"),
        seed_from_deal: flag(v, "seed_from_deal"),
        rank_is: opt_int(v, "rank_is").map(|x| x as i32),
        rel: Relation::new(build_rule(field(v, "build")?)?, suit_rule(text(v, "suit"))?, flag(v, "follow")),
        wild_rank: opt_int(v, "wild_rank").map(|x| x as i32),
        wild_joker: flag(v, "wild_joker"),
        declares_free: has_wild && declares == "free",
        allow_down: flag(v, "allow_face_down"),
        on_top: Vec::new(),
        on_down: Vec::new(),
    })
}

fn eject(v: &Value) -> Result<Eject, Unsupported> {
    let gate = match text(v, "gate") {
        "Any" => Gate::Any,
        "FaceUp" => Gate::FaceUp,
        "TopOnly" => Gate::TopOnly,
        "Locked" => Gate::Locked,
        other => return unsupported(format!("eject gate {other:?}")),
    };
    let mut unit = match v.get("unit").and_then(Value::as_str) {
        None => Unit::Cards,
        Some("Single") => Unit::Single,
        Some("Any") => Unit::Any,
        Some("Run") => Unit::Run,
        Some("Pile") => Unit::Pile,
        Some(other) => return unsupported(format!("eject unit {other:?}")),
    };
    if unit == Unit::Cards && flag(v, "loose_order") {
        unit = Unit::Single; // a loose fan's pickup takes only the selected card
    }
    let run = if unit == Unit::Run {
        Relation::new(build_rule(field(v, "unit_build")?)?, suit_rule(text(v, "unit_suit"))?, false)
    } else {
        None
    };
    Ok(Eject { gate, unit, covered_by: indices(v, "covered_by")?, cover_any: flag(v, "cover_any"), run })
}

fn draw(v: &Value, depot: usize) -> Result<Option<Draw>, Unsupported> {
    if v.is_null() {
        return Ok(None);
    }
    if !absent(v, "when") {
        return unsupported(format!("depot {depot}'s draw has a 'when' expression"));
    }
    let to = opt_int(v, "to").ok_or_else(|| Unsupported("a draw without 'to'".into()))? as usize;
    Ok(Some(Draw {
        to,
        count: opt_int(v, "count").unwrap_or(0),
        recycle: flag(v, "recycle"),
        max_recycles: opt_int(v, "max_recycles"),
    }))
}

/// Every accept table filled in, for the game's cards (checked first, so that the tables index).
fn game_tables(accepts: &mut [Accept], ident: &[Card]) -> Result<(), Unsupported> {
    if ident.iter().any(|c| c.rank < 0 || c.rank > 13 || c.suit < -1 || c.suit > 3) {
        return unsupported("a card of no known rank or suit");
    }
    for a in accepts {
        a.fill_tables(ident);
    }
    Ok(())
}

impl Game {
    /// Load `{"compiled": CompiledGame.to_json(), "plan": {...}}` (see `cardz_core/native.py`).
    pub fn from_json(source: &str) -> Result<Game, Unsupported> {
        let doc: Value = serde_json::from_str(source).map_err(|e| Unsupported(format!("bad JSON: {e}")))?;
        let c = field(&doc, "compiled")?;
        let plan = field(&doc, "plan")?;
        if text(c, "format") != "cardz-compiled/1" {
            return unsupported("not a cardz-compiled/1 game");
        }
        let rank = ints(c, "card_rank")?;
        let suit = ints(c, "card_suit")?;
        let ident: Vec<Card> =
            rank.iter().zip(&suit).map(|(&r, &s)| Card { rank: r as i32, suit: s as i32 }).collect();
        let acc = field(c, "accepts")?.as_array().ok_or_else(|| Unsupported("'accepts' is not a list".into()))?;
        let mut accepts = acc.iter().enumerate().map(|(i, a)| accept(a, i)).collect::<Result<Vec<_>, _>>()?;
        let ej = field(c, "ejects")?.as_array().ok_or_else(|| Unsupported("'ejects' is not a list".into()))?;
        let ejects = ej.iter().map(eject).collect::<Result<Vec<_>, _>>()?;
        let dr = field(c, "draws")?.as_array().ok_or_else(|| Unsupported("'draws' is not a list".into()))?;
        let draws = dr.iter().enumerate().map(|(i, d)| draw(d, i)).collect::<Result<Vec<_>, _>>()?;
        let n = accepts.len();
        let land_under = bools(c, "land_under")?;
        let win_empties = match plan.get("win_empties") {
            Some(Value::Array(_)) => Some(indices(plan, "win_empties")?),
            _ => None,
        };
        game_tables(&mut accepts, &ident)?;
        let mut exprs = Exprs::from_json(doc.get("expr").unwrap_or(&Value::Null))?;
        let rules = Rules::from_json(c, plan, n, &ident, &mut exprs)?;
        let game = Game {
            n,
            ident,
            accepts,
            ejects,
            draws,
            land_face: ints(c, "land_face")?,
            any_land_under: land_under.iter().any(|&x| x),
            land_under,
            auto_flip_top: bools(c, "auto_flip_top")?,
            sources: indices(plan, "sources")?,
            drop_targets: indices(plan, "drop_targets")?,
            down_targets: indices(plan, "down_targets")?,
            tappable: indices(plan, "tappable")?,
            flip_uncovered: indices(plan, "flip_uncovered")?,
            cells: indices(plan, "cells")?,
            tableaus: indices(plan, "tableaus")?,
            staged: flag(c, "staged"),
            win_empties,
            loss_stalemate: flag(plan, "loss_stalemate"),
            rules,
            exprs,
        };
        game.check_shape()?;
        Ok(game)
    }

    /// Every index in range, every table one per depot: no lookup can fail while playing.
    fn check_shape(&self) -> Result<(), Unsupported> {
        let n = self.n;
        let per_depot = [self.ejects.len(), self.draws.len(), self.land_face.len(), self.land_under.len(),
                         self.auto_flip_top.len()];
        if per_depot.iter().any(|&k| k != n) {
            return unsupported("per-depot tables of different lengths");
        }
        let mut all: Vec<usize> = Vec::new();
        for list in [&self.sources, &self.drop_targets, &self.down_targets, &self.tappable,
                     &self.flip_uncovered, &self.cells, &self.tableaus] {
            all.extend(list.iter());
        }
        all.extend(self.win_empties.iter().flatten());
        for e in &self.ejects {
            all.extend(e.covered_by.iter());
        }
        for a in &self.accepts {
            all.extend(a.from.iter().flatten());
        }
        all.extend(self.draws.iter().flatten().map(|d| d.to));
        if all.iter().any(|&d| d >= n) {
            return unsupported("a depot index out of range");
        }
        Ok(())
    }

    pub fn n_depots(&self) -> usize {
        self.n
    }

    /// Whether a position can be played here: true cards of this game, one pile per depot.
    pub fn check_state(&self, s: &State) -> Result<(), BadState> {
        let n = self.n;
        if s.piles.len() != n {
            return Err(BadState::Shape(format!("a position of {} depots for a game of {n}", s.piles.len())));
        }
        if s.piles.iter().flatten().any(|&c| c < 0) {
            return Err(BadState::Unknown);
        }
        let cards = self.ident.len() as i32;
        if s.piles.iter().flatten().any(|&c| (c >> 1) >= cards) {
            return Err(BadState::Shape("a position with a card this game does not have".into()));
        }
        for (name, len) in [("came_from", s.came_from.len()), ("declared", s.declared.len()),
                            ("recycles", s.recycles.len())] {
            if len != 0 && len != n {
                return Err(BadState::Shape(format!("a position whose {name} is not one per depot")));
            }
        }
        Ok(())
    }

    fn card(&self, c: Code) -> Card {
        self.ident[(c >> 1) as usize]
    }

    fn pile_below(&self, acc: &Accept, pile: &[Code]) -> Below {
        match pile.last() {
            None => Below::Bare,
            Some(&top) if top & 1 == 0 => Below::Down,
            Some(&top) => acc.after(self.card(top)),
        }
    }

    /// `MoveGen.staged_limit`.
    fn staged_limit(&self, piles: &[Pile], dst: usize) -> usize {
        let cells = self.cells.iter().filter(|&&c| piles[c].is_empty() && c != dst).count();
        let cols = self.tableaus.iter().filter(|&&t| piles[t].is_empty() && t != dst).count();
        (1 + cells) << cols
    }

    /// `Accept.reason` (no `when`, no called suit) with `_drop_reason`'s `Staged` limit: may
    /// `group` from `src` land on `d`?
    fn drop_ok(&self, s: &State, src: usize, group: &[Code], d: usize, vouched: bool) -> bool {
        let acc = &self.accepts[d];
        if acc.none || !acc.takes_from(src) {
            return false;
        }
        let pile = &s.piles[d];
        if !pile.is_empty() && acc.empty_only {
            return false;
        }
        let n = group.len();
        if (acc.single && n > 1) || n < acc.min_count {
            return false;
        }
        let mut below = self.pile_below(acc, pile);
        for (k, &c) in group.iter().enumerate() {
            if c & 1 == 0 {
                if vouched && k > 0 {
                    if acc.rank_is.is_some() && !acc.allow_down {
                        return false;
                    }
                    continue;
                }
                if !acc.fits_down(below, s.seed_rank) {
                    return false;
                }
                below = if acc.allow_down { Below::Free } else { Below::Down };
                continue;
            }
            let card = self.card(c);
            if vouched && k > 0 {
                if !(acc.wild(card) || acc.rank_ok(card)) {
                    return false;
                }
                continue;
            }
            if !acc.fits(below, card, s.seed_rank) {
                return false;
            }
            below = acc.after(card);
        }
        !(self.staged && n > 1 && n > self.staged_limit(&s.piles, d))
    }

    /// The target's table test (`_wanted`): does `d` take the face-up bottom card `c` now?
    fn wants(&self, s: &State, d: usize, c: Code) -> bool {
        let acc = &self.accepts[d];
        let pile = &s.piles[d];
        match pile.last() {
            None => acc.seed_ok(self.card(c), if acc.seed_from_deal { s.seed_rank } else { 0 }),
            Some(_) if acc.empty_only => false,
            Some(&top) if top & 1 == 0 => acc.on_down[(c >> 1) as usize],
            Some(&top) => acc.on_top[(top >> 1) as usize * self.ident.len() + (c >> 1) as usize],
        }
    }

    /// `MoveGen._group_ok` for a group whose face-up bottom card the target's table took.
    fn group_ok(&self, s: &State, src: usize, group: &[Code], d: usize, vouched: bool) -> bool {
        let acc = &self.accepts[d];
        let n = group.len();
        if n == 1 && acc.simple() {
            return true;
        }
        if n < acc.min_count || (n > 1 && acc.single) {
            return false;
        }
        if vouched {
            if acc.rank_is.is_some() {
                return self.drop_ok(s, src, group, d, vouched);
            }
        } else {
            for k in 1..n {
                let (prev, cur) = (group[k - 1], group[k]);
                if cur & 1 == 0 {
                    return self.drop_ok(s, src, group, d, vouched);
                }
                if !acc.on_top[(prev >> 1) as usize * self.ident.len() + (cur >> 1) as usize] {
                    return false;
                }
            }
        }
        !(self.staged && n > 1 && n > self.staged_limit(&s.piles, d))
    }

    /// The card moves of `s` in the Python engine's order: by source, position, target.
    /// `first`: stop at the first one found.
    fn card_moves(&self, s: &State, first: bool, out: &mut Vec<Move>) {
        for &src in &self.sources {
            let pile = &s.piles[src];
            if pile.is_empty() {
                continue;
            }
            let ej = &self.ejects[src];
            let vouched = ej.vouched();
            for i in ej.picks(&s.piles, pile, &self.ident) {
                let group = ej.group(pile, i);
                let bottom = group[0];
                let targets = if bottom & 1 == 1 { &self.drop_targets } else { &self.down_targets };
                for &d in targets {
                    if d == src || !self.accepts[d].takes_from(src) {
                        continue;
                    }
                    let ok = if bottom & 1 == 1 {
                        self.wants(s, d, bottom) && self.group_ok(s, src, group, d, vouched)
                    } else {
                        self.drop_ok(s, src, group, d, vouched)
                    };
                    if ok {
                        out.push((src as i32, i as i32, d as i32, -1));
                        if first {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// `Taps._tap_plan`: a draw or recycle, else a redeal or an action (`settle.rs`).
    fn tap_plan(&self, s: &State, d: usize) -> Result<Option<Tap>, ExprError> {
        self.plan_tap(s, d, false)
    }

    /// The tap plan; `listed`: the tap is known to do something (a legal move being played),
    /// so no trial is run to find out.
    fn plan_tap(&self, s: &State, d: usize, listed: bool) -> Result<Option<Tap>, ExprError> {
        if let Some(dr) = self.draws[d].as_ref() {
            if !s.piles[d].is_empty() {
                if dr.count > 0 {
                    return Ok(Some(Tap::Draw));
                }
            } else {
                let used = s.recycles.get(d).copied().unwrap_or(0);
                if dr.recycle && !s.piles[dr.to].is_empty() && d != dr.to && dr.max_recycles.is_none_or(|m| used < m) {
                    return Ok(Some(Tap::Recycle));
                }
            }
        }
        self.tap_steps(s, d, listed)
    }

    /// `MoveGen.legal_moves`: card moves, then taps in depot order; none once over.
    pub fn legal_moves(&self, s: &State) -> Result<Vec<Move>, ExprError> {
        let mut out = Vec::new();
        if s.status != PLAYING {
            return Ok(out);
        }
        self.card_moves(s, false, &mut out);
        for &d in &self.tappable {
            if self.tap_plan(s, d)?.is_some() {
                out.push((d as i32, -1, -1, -1));
            }
        }
        Ok(out)
    }

    /// `Play._land`.
    fn land(&self, w: &mut Work, d: usize, group: Pile, src: usize) {
        let group = match self.land_face[d] {
            1 => group.into_iter().map(|c| w.up(c)).collect(),
            0 => group.into_iter().map(|c| c & !1).collect(),
            _ => group,
        };
        w.put(d, group, src as i32, self.land_under[d]);
    }

    /// `Play._flip_tops`.
    fn flip_tops(&self, w: &mut Work) {
        let left = std::mem::replace(&mut w.left, vec![false; self.n]);
        for (d, &lost) in left.iter().enumerate() {
            if lost && self.auto_flip_top[d] {
                w.flip_top(d);
            }
        }
        for &d in &self.flip_uncovered {
            let pile = &w.s.piles[d];
            if pile.last().is_some_and(|&top| top & 1 == 0) && !self.ejects[d].covered(&w.s.piles) {
                w.flip_top(d);
            }
        }
    }

    /// `Play._play` on a legal move: the move, then what settles (`settle.rs`).
    fn play(&self, s: &State, m: Move) -> Result<Work, ExprError> {
        let mut w = Work::new(s);
        let src = m.0 as usize;
        if m.1 < 0 {
            match (self.plan_tap(s, src, true)?, self.draws[src].as_ref()) {
                (Some(Tap::Draw), Some(dr)) => {
                    for _ in 0..dr.count {
                        let Some(c) = w.take_top(src) else { break };
                        let up = w.up(c);
                        self.land(&mut w, dr.to, vec![up], src);
                    }
                }
                (Some(Tap::Recycle), Some(dr)) => {
                    let pile = w.s.piles[dr.to].clone();
                    w.set_pile(dr.to, Vec::new());
                    w.put(src, pile.iter().rev().map(|&c| c & !1).collect(), dr.to as i32, false);
                    if w.s.recycles.is_empty() {
                        w.s.recycles = vec![0; self.n];
                    }
                    w.s.recycles[src] += 1;
                    w.s.recycles_total += 1;
                }
                (Some(tap), _) => self.run_tap_steps(&mut w, tap, src)?,
                (None, _) => {} // not a legal tap: callers play only listed moves
            }
        } else {
            let dst = m.2 as usize;
            let (group, rest) = self.ejects[src].split(&w.s.piles[src], m.1 as usize);
            w.set_pile(src, rest);
            w.s.came_from[src] = -1;
            self.land(&mut w, dst, group, src);
            if m.3 >= 0 {
                w.s.declared[dst] = m.3;
            }
        }
        self.settle(&mut w)?;
        Ok(w)
    }

    /// `no_legal_moves` of the builtin `stalemate` loss condition.
    fn stalemate(&self, s: &State) -> Result<bool, ExprError> {
        for &d in &self.tappable {
            if self.tap_plan(s, d)?.is_some() {
                return Ok(false);
            }
        }
        let mut moves = Vec::new();
        if !self.any_land_under {
            self.card_moves(s, true, &mut moves);
            return Ok(moves.is_empty());
        }
        self.card_moves(s, false, &mut moves);
        for m in moves {
            if !self.land_under[m.2 as usize] || self.play(s, m)?.flips > 0 {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// `Ends._judge`.
    fn judge(&self, s: &State) -> Result<i32, ExprError> {
        if let Some(empties) = &self.win_empties {
            if empties.iter().all(|&d| s.piles[d].is_empty()) {
                return Ok(WON);
            }
        }
        if self.loss_stalemate && self.stalemate(s)? {
            return Ok(LOST);
        }
        Ok(PLAYING)
    }

    /// The position after the legal move `m`, judged (`moves` is counted by the caller).
    pub fn apply_legal(&self, s: &State, m: Move) -> Result<State, ExprError> {
        let mut out = self.play(s, m)?.s;
        out.status = PLAYING;
        out.status = self.judge(&out)?;
        Ok(out)
    }

    /// `apply`: None when `m` is not a legal move of `s`.
    pub fn apply(&self, s: &State, m: Move) -> Result<Option<State>, ExprError> {
        if !self.legal_moves(s)?.contains(&m) {
            return Ok(None);
        }
        self.apply_legal(s, m).map(Some)
    }

    /// Uniformly random play from `s` until the game ends, no move is left or `max_moves`
    /// moves were made: (moves made, status).
    pub fn playout(&self, s: &State, rng: &mut SplitMix, max_moves: u64) -> Result<(u64, i32), ExprError> {
        let mut s = s.clone();
        let mut made = 0;
        while made < max_moves {
            let moves = self.legal_moves(&s)?;
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            s = self.apply_legal(&s, m)?;
            made += 1;
        }
        Ok((made, s.status))
    }
}

/// splitmix64, the playouts' own generator (the same algorithm as `cardz_core.engine.rng`).
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An unbiased int in [0, n), n > 0: rejection sampling.
    pub fn below(&mut self, n: u64) -> u64 {
        let limit = u64::MAX - (u64::MAX % n + 1) % n; // the last of the largest multiple of n
        loop {
            let r = self.next_u64();
            if r <= limit {
                return r % n;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(rank: i32, suit: i32) -> Card {
        Card { rank, suit }
    }

    #[test]
    fn splitmix_is_the_python_engines_generator() {
        // cardz_core.engine.rng.next_u64 from state 0, twice
        let mut r = SplitMix(0);
        assert_eq!(r.next_u64(), 16294208416658607535);
        assert_eq!(r.next_u64(), 7960286522194355700);
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = SplitMix(7);
        assert!((0..1000).all(|_| r.below(3) < 3));
        assert_eq!(r.below(1), 0);
    }

    #[test]
    fn relations_read_rank_suit_and_wrap() {
        let down_alt = Relation::new(Some((Dir::Down, 1, false)), SuitRule::AlternateColor, false).unwrap();
        assert!(down_alt.fits(card(10, 0), card(9, 1))); // red 9 on black 10
        assert!(!down_alt.fits(card(10, 0), card(9, 3))); // black on black
        assert!(!down_alt.fits(card(1, 0), card(13, 1))); // no wrap
        let wrap = Relation::new(Some((Dir::Up, 1, true)), SuitRule::Any, false).unwrap();
        assert!(wrap.fits(card(13, 0), card(1, 2)));
        assert!(!wrap.fits(card(0, -1), card(1, 2))); // a joker has no rank
        assert!(Relation::new(None, SuitRule::Any, false).is_none());
    }

    fn doc(compiled_extra: &str) -> String {
        doc_tapping(compiled_extra, "")
    }

    fn doc_tapping(compiled_extra: &str, tappable: &str) -> String {
        format!(
            r#"{{"compiled": {{"format": "cardz-compiled/1", "triggers": [], "redeal": [],
            "actions": [[], []], "auto_send": [null, null], "auto_refill": [null, null],
            "card_rank": [1, 2], "card_suit": [0, 0],
            "accepts": [{{"rejects_all": true, "build": null, "suit": "Any"}},
                        {{"seed": 1, "build": {{"direction": "Up", "step": 1, "wrap": false}},
                          "suit": "Same"}}],
            "ejects": [{{"gate": "TopOnly", "covered_by": []}}, {{"gate": "Locked", "covered_by": []}}],
            "land_face": [-1, -1], "land_under": [false, false], "auto_flip_top": [false, false],
            "staged": false {compiled_extra}}},
            "plan": {{"sources": [0], "drop_targets": [1], "down_targets": [], "tappable": [{tappable}],
            "flip_uncovered": [], "cells": [], "tableaus": [], "win_empties": [0],
            "loss_stalemate": true, "max_cascade": 10000}}}}"#
        )
    }

    fn game(extra: &str) -> Result<Game, Unsupported> {
        Game::from_json(&doc(extra))
    }

    fn start(piles: Vec<Pile>) -> State {
        State { piles, ..State::default() }
    }

    #[test]
    fn plays_a_two_card_game_to_the_win() {
        let g = game(r#", "draws": [null, null]"#).unwrap();
        // the Two of Clubs (face up) on top of the Ace: only an Ace may start the foundation
        let s = start(vec![vec![1, 3], vec![]]);
        assert_eq!(g.legal_moves(&s).unwrap(), vec![]);
        let s = start(vec![vec![2, 1], vec![]]);
        assert_eq!(g.legal_moves(&s).unwrap(), vec![(0, 1, 1, -1)]);
        let s = g.apply(&s, (0, 1, 1, -1)).unwrap().unwrap();
        assert_eq!(s.piles, vec![vec![2], vec![1]]);
        assert_eq!(s.came_from, vec![-1, 0]);
        // the Two lies face down: a face-down card is never read, so nothing is left to do
        assert_eq!(s.status, LOST);
        assert_eq!(g.apply(&s, (0, 0, 1, -1)), Ok(None));
        let s = start(vec![vec![3], vec![1]]);
        let s = g.apply(&s, (0, 0, 1, -1)).unwrap().unwrap();
        assert_eq!(s.status, WON);
        assert!(g.legal_moves(&s).unwrap().is_empty());
    }

    #[test]
    fn a_stalemate_loses() {
        let g = game(r#", "draws": [null, null]"#).unwrap();
        let s = start(vec![vec![1, 3], vec![]]); // the Two covers the Ace
        let out = g.apply_legal(&s, (0, 1, 1, -1)).unwrap();
        assert_eq!(out.status, LOST);
    }

    #[test]
    fn refuses_what_it_cannot_play() {
        // a step whose kind names no native primitive keeps the game on the Python engine
        let step = r#""redeal": [{"kind": "reverse", "args": {}, "ptr": "/redealRules/0", "native": null}]"#;
        let why = Game::from_json(&doc(r#", "draws": [null, null]"#).replace(r#""redeal": []"#, step));
        assert_eq!(why.unwrap_err(), Unsupported("the reverse step at /redealRules/0 has no native primitive".into()));
        let why = game(r#", "draws": [{"to": 1, "count": 1, "recycle": false, "when": {}}, null]"#);
        assert_eq!(why.unwrap_err(), Unsupported("depot 0's draw has a 'when' expression".into()));
        assert!(Game::from_json("{").is_err());
        let bad = game(r#", "draws": [{"to": 9, "count": 1, "recycle": false}, null]"#);
        assert_eq!(bad.unwrap_err(), Unsupported("a depot index out of range".into()));
    }

    #[test]
    fn a_draw_turns_cards_up_and_a_recycle_turns_them_back() {
        let extra = r#", "draws": [{"to": 1, "count": 1, "recycle": true, "max_recycles": 1}, null]"#;
        let plan = doc_tapping(extra, "0").replace(r#""win_empties": [0]"#, r#""win_empties": null"#);
        let g = Game::from_json(&plan).unwrap();
        let s = start(vec![vec![0], vec![]]);
        let s = g.apply(&s, (0, -1, -1, -1)).unwrap().unwrap();
        assert_eq!(s.piles, vec![vec![], vec![1]]);
        let s = g.apply(&s, (0, -1, -1, -1)).unwrap().unwrap();
        assert_eq!((s.piles.clone(), s.recycles.clone(), s.recycles_total), (vec![vec![0], vec![]], vec![1, 0], 1));
        // one recycle allowed, and it was used
        let s = g.apply(&s, (0, -1, -1, -1)).unwrap().unwrap();
        assert_eq!(g.legal_moves(&s).unwrap(), vec![]);
    }
}
