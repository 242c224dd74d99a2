//! The native step primitives: what the steps of redeals, triggers and actions do to the board,
//! run on a `Work` exactly as the Python executors (`plugins/cardz_vocabulary/step_impl.py`)
//! run on theirs. A step is loaded by the primitive its kind names (`StepKind.native`, copied
//! into the compiled step as `native`); the primitive reads the step's resolved arguments by
//! its own argument names (docs/plugins.md, "Native step primitives"). Nothing here knows a
//! step kind's name.

use serde_json::Value;

use super::{absent, flag, opt_int, Card, Game, Pile, SplitMix, Unsupported, Work};
use crate::expr::{ExprError, ExprId, Exprs, Scope};

/// A one-depot argument: a depot index (-1 none), or an expression read when the step runs.
#[derive(Debug)]
pub(super) enum DepotArg {
    Fixed(i32),
    Expr(ExprId),
}

/// A list-of-depots argument.
#[derive(Debug)]
pub(super) enum DepotsArg {
    Fixed(Vec<usize>),
    Expr(ExprId),
}

/// A number argument (`count`).
#[derive(Debug)]
pub(super) enum NumberArg {
    Fixed(i64),
    Expr(ExprId),
}

/// What a step does, by primitive.
#[derive(Debug)]
pub(super) enum Op {
    /// `deal`: `down` face-down then `up` face-up cards per target off `from`'s top, target by
    /// target or (`round_robin`) in passes of one card per target; `when` filters the targets.
    Deal { to: DepotsArg, from: DepotArg, down: u64, up: u64, round_robin: bool, when: Option<ExprId> },
    /// `move_top`: the top `count` cards together onto `to` (beneath with `under`).
    MoveTop { from: DepotArg, to: DepotArg, count: NumberArg, under: bool },
    /// `turn_top_up`: the top card face-up.
    TurnTopUp { depot: DepotArg },
    /// `place_from_stock`: the first `wanted` card from the stock's top, face-up onto `to`.
    PlaceFromStock { to: DepotArg, stock: usize, wanted: Vec<bool> },
    /// `turn_over_onto`: each `from` pile (filtered by `when`) turned over onto `to`.
    TurnOverOnto { from: DepotsArg, to: DepotArg, when: Option<ExprId> },
    /// `shuffle_pile`: the pile shuffled with the game's generator.
    ShufflePile { depot: DepotArg },
    /// `close_gaps`: the group's piles slid down to its lowest copies, the empty ones then
    /// filled face-up from `from`'s top.
    CloseGaps { group: Vec<usize>, from: Option<DepotArg> },
    /// a step kind with no primitive, run by its Python executor (this call-back of the host)
    Host(usize),
}

/// One compiled step: what it does and the depot its expressions bind `depot` to (its trigger's
/// or action's depot, -1 none).
#[derive(Debug)]
pub(super) struct Step {
    pub(super) op: Op,
    me: i32,
}

/// A depot index in range, for the tables the loader reads.
fn index(v: &Value, n: usize, what: &str) -> Result<usize, Unsupported> {
    v.as_u64()
        .map(|d| d as usize)
        .filter(|&d| d < n)
        .ok_or_else(|| Unsupported(format!("{what} is not a depot index in range")))
}

fn is_expr(v: &Value) -> bool {
    v.get("$").and_then(Value::as_str) == Some("ExprRef")
}

/// Loading one compiled step: the game's depot count and stock, its card identities, its
/// expressions.
pub(super) struct StepLoader<'a> {
    pub(super) n: usize,
    pub(super) first_stock: i64,
    pub(super) ident: &'a [Card],
    pub(super) exprs: &'a mut Exprs,
}

impl StepLoader<'_> {
    fn depot(&mut self, args: &Value, name: &str, ptr: &str) -> Result<DepotArg, Unsupported> {
        match args.get(name) {
            Some(v) if is_expr(v) => Ok(DepotArg::Expr(self.exprs.add(v)?)),
            Some(v) if !v.is_null() => Ok(DepotArg::Fixed(index(v, self.n, &format!("{ptr}'s '{name}'"))? as i32)),
            _ => Err(Unsupported(format!("the step at {ptr} has no '{name}'"))),
        }
    }

    fn depots(&mut self, args: &Value, name: &str, ptr: &str) -> Result<DepotsArg, Unsupported> {
        match args.get(name) {
            Some(v) if is_expr(v) => Ok(DepotsArg::Expr(self.exprs.add(v)?)),
            Some(Value::Array(a)) => Ok(DepotsArg::Fixed(
                a.iter().map(|d| index(d, self.n, &format!("{ptr}'s '{name}'"))).collect::<Result<_, _>>()?,
            )),
            Some(Value::Null) | None => Ok(DepotsArg::Fixed(Vec::new())),
            Some(_) => Err(Unsupported(format!("the step at {ptr} has a '{name}' that is not a list of depots"))),
        }
    }

    fn when(&mut self, args: &Value) -> Result<Option<ExprId>, Unsupported> {
        match args.get("when") {
            Some(v) if is_expr(v) => Ok(Some(self.exprs.add(v)?)),
            _ => Ok(None),
        }
    }

    /// A count of cards: an int field (the step's own numbers, bounded by the cards dealt).
    fn cards(&self, args: &Value, name: &str, default: u64, ptr: &str) -> Result<u64, Unsupported> {
        match args.get(name) {
            None | Some(Value::Null) => Ok(default),
            Some(v) => v.as_u64().ok_or_else(|| Unsupported(format!("the step at {ptr} has a '{name}' out of range"))),
        }
    }

    /// The step of a compiled `StepData` (its JSON form), by the primitive its kind names.
    pub(super) fn step(&mut self, v: &Value) -> Result<Step, Unsupported> {
        let ptr = v.get("ptr").and_then(Value::as_str).unwrap_or("");
        let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
        let args = v.get("args").unwrap_or(&Value::Null);
        let me = opt_int(v, "self_depot").unwrap_or(-1);
        if me < -1 || me >= self.n as i64 {
            return Err(Unsupported(format!("the step at {ptr} belongs to no depot of the game")));
        }
        let op = match v.get("native").and_then(Value::as_str) {
            Some("deal") => Op::Deal {
                to: self.depots(args, "to", ptr)?,
                from: self.depot(args, "from", ptr)?,
                down: self.cards(args, "faceDown", 0, ptr)?,
                up: self.cards(args, "faceUp", 1, ptr)?,
                round_robin: flag(args, "roundRobin"),
                when: self.when(args)?,
            },
            Some("move_top") => Op::MoveTop {
                from: self.depot(args, "from", ptr)?,
                to: self.depot(args, "to", ptr)?,
                count: match args.get("count") {
                    Some(c) if is_expr(c) => NumberArg::Expr(self.exprs.add(c)?),
                    Some(c) if !c.is_null() => NumberArg::Fixed(c.as_i64().ok_or_else(|| {
                        Unsupported(format!("the step at {ptr} has a 'count' out of range"))
                    })?),
                    _ => NumberArg::Fixed(0), // as the Python executor reads an omitted count
                },
                under: flag(args, "under"),
            },
            Some("turn_top_up") => Op::TurnTopUp { depot: self.depot(args, "depot", ptr)? },
            Some("place_from_stock") => {
                let stock = usize::try_from(self.first_stock)
                    .ok()
                    .filter(|&s| s < self.n)
                    .ok_or_else(|| Unsupported(format!("the step at {ptr} takes from the stock, and there is none")))?;
                let joker = flag(args, "joker");
                let (rank, suit) = (opt_int(args, "rank"), opt_int(args, "suit"));
                let wanted = self
                    .ident
                    .iter()
                    .map(|c| if joker { c.joker() } else { Some(c.rank as i64) == rank && Some(c.suit as i64) == suit })
                    .collect();
                Op::PlaceFromStock { to: self.depot(args, "to", ptr)?, stock, wanted }
            }
            Some("turn_over_onto") => Op::TurnOverOnto {
                from: self.depots(args, "from", ptr)?,
                to: self.depot(args, "to", ptr)?,
                when: self.when(args)?,
            },
            Some("shuffle_pile") => Op::ShufflePile { depot: self.depot(args, "depot", ptr)? },
            Some("close_gaps") => Op::CloseGaps {
                group: match self.depots(args, "group", ptr)? {
                    DepotsArg::Fixed(g) => g,
                    DepotsArg::Expr(_) => {
                        return Err(Unsupported(format!("the step at {ptr} has a 'group' that is an expression")))
                    }
                },
                from: if absent(args, "from") { None } else { Some(self.depot(args, "from", ptr)?) },
            },
            Some("callback") => Op::Host(v.get("callback").and_then(Value::as_u64).ok_or_else(|| {
                Unsupported(format!("the step at {ptr} is called back with no call-back number"))
            })? as usize),
            Some(other) => return Err(Unsupported(format!("the {kind} step at {ptr} names a native primitive {other:?} this engine does not have"))),
            None => return Err(Unsupported(format!("the {kind} step at {ptr} has no native primitive"))),
        };
        Ok(Step { op, me: me as i32 })
    }

    /// Every step of a list of compiled steps.
    pub(super) fn steps(&mut self, v: Option<&Value>) -> Result<Vec<Step>, Unsupported> {
        match v {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(a)) => a.iter().map(|s| self.step(s)).collect(),
            Some(_) => Err(Unsupported("a list of steps that is not a list".into())),
        }
    }
}

/// The expression bindings of a step's context: `depot` and nothing else.
fn scope(depot: i32) -> Scope<'static> {
    Scope { card: None, top: None, pile: &[], depot, source: -1 }
}

impl Work<'_> {
    /// `Work.set_pile`: replace depot `d`'s pile.
    pub(super) fn set_pile(&mut self, d: usize, pile: Pile) {
        let old = std::mem::replace(&mut self.s.piles[d], pile);
        self.changed(d, old.len(), old.last().copied());
    }

    /// `Work.take_top`: up to `n` top cards of `d` off its pile, bottom first.
    pub(super) fn take(&mut self, d: usize, n: usize) -> Pile {
        let pile = &mut self.s.piles[d];
        if n == 0 || pile.is_empty() {
            return Vec::new();
        }
        let cards = pile.split_off(pile.len() - n.min(pile.len()));
        self.mark(d);
        // in place, with what `set_pile` notes of a pile that lost its top (no card is on a
        // board twice, so the top changed): it lost cards, its called suit and its origin go
        self.left[d] = true;
        self.s.declared[d] = -1;
        self.s.came_from[d] = -1;
        cards
    }

    /// `Work.shuffle`: Fisher-Yates with the game's own generator, from the last position down
    /// (`cardz_core.engine.rng.shuffle`), the generator's state kept in the position.
    pub(super) fn shuffle(&mut self, d: usize) {
        let mut cards = self.s.piles[d].clone();
        let mut rng = SplitMix(self.s.rng);
        super::deal::shuffle(&mut cards, &mut rng);
        self.s.rng = rng.0;
        if let Some(chance) = self.chance.as_mut() {
            chance.forget(&mut cards); // a view: the player loses track of the shuffled cards
        }
        self.set_pile(d, cards);
    }
}

impl Game {
    fn depot_of(&self, arg: &DepotArg, w: &Work, me: i32) -> Result<Option<usize>, ExprError> {
        let d = match *arg {
            DepotArg::Fixed(d) => d,
            DepotArg::Expr(id) => self.exprs.depot(id, w.s, &scope(me))?,
        };
        // an expression that gives no depot makes the step do nothing
        Ok(usize::try_from(d).ok().filter(|&d| d < self.n))
    }

    fn depots_of(&self, arg: &DepotsArg, w: &Work, me: i32) -> Result<Vec<usize>, ExprError> {
        Ok(match arg {
            DepotsArg::Fixed(ds) => ds.clone(),
            DepotsArg::Expr(id) => {
                let mut ds = self.exprs.depots(*id, w.s, &scope(me))?;
                ds.retain(|&d| d < self.n);
                ds
            }
        })
    }

    fn when_holds(&self, when: Option<ExprId>, w: &Work, d: usize) -> Result<bool, ExprError> {
        when.map_or(Ok(true), |id| self.exprs.test(id, w.s, &scope(d as i32)))
    }

    /// Run one step on `w`, as its Python executor does.
    pub(super) fn run_step(&self, w: &mut Work, step: &Step) -> Result<(), ExprError> {
        let me = step.me;
        match &step.op {
            Op::Deal { to, from, down, up, round_robin, when } => {
                let mut targets = Vec::new();
                for d in self.depots_of(to, w, me)? {
                    if self.when_holds(*when, w, d)? {
                        targets.push(d); // all judged before a card moves
                    }
                }
                let Some(s) = self.depot_of(from, w, me)? else { return Ok(()) };
                if targets.is_empty() {
                    return Ok(());
                }
                // card by card, stopping when the source runs out: a huge count deals no more
                // than the source holds
                let mut deal = |d: usize, face_up: bool| -> bool {
                    let Some(c) = w.take_top(s) else { return false };
                    let c = if face_up { w.up(c) } else { c & !1 };
                    w.put(d, &[c], s as i32, false);
                    true
                };
                if *round_robin {
                    for (passes, face_up) in [(*down, false), (*up, true)] {
                        for _ in 0..passes {
                            for &d in &targets {
                                if !deal(d, face_up) {
                                    return Ok(());
                                }
                            }
                        }
                    }
                } else {
                    for &d in &targets {
                        for (count, face_up) in [(*down, false), (*up, true)] {
                            for _ in 0..count {
                                if !deal(d, face_up) {
                                    return Ok(());
                                }
                            }
                        }
                    }
                }
            }
            Op::MoveTop { from, to, count, under } => {
                let s = self.depot_of(from, w, me)?;
                let d = self.depot_of(to, w, me)?;
                let n = match *count {
                    NumberArg::Fixed(n) => n,
                    NumberArg::Expr(id) => self.exprs.number(id, w.s, &scope(me))?,
                };
                let (Some(s), Some(d)) = (s, d) else { return Ok(()) };
                let len = w.s.piles[s].len();
                if n <= 0 || len == 0 {
                    return Ok(());
                }
                let n = (n as u64).min(len as u64) as usize;
                if s == d {
                    if *under && n < len {
                        // cycling: the top n go beneath, in their order
                        let pile = &w.s.piles[s];
                        let cycled: Pile = pile[len - n..].iter().chain(&pile[..len - n]).copied().collect();
                        w.set_pile(s, cycled);
                    }
                    return Ok(());
                }
                let cards = w.take(s, n);
                w.put(d, &cards, s as i32, *under);
            }
            Op::TurnTopUp { depot } => {
                if let Some(d) = self.depot_of(depot, w, me)? {
                    w.flip_top(d);
                }
            }
            Op::PlaceFromStock { to, stock, wanted } => {
                let Some(d) = self.depot_of(to, w, me)? else { return Ok(()) };
                let pile = &w.s.piles[*stock];
                // the first match from the top
                if let Some(k) = pile.iter().rposition(|&c| c >= 0 && wanted[(c >> 1) as usize]) {
                    let mut rest = pile.clone();
                    let c = rest.remove(k);
                    w.set_pile(*stock, rest);
                    let up = w.up(c);
                    w.put(d, &[up], *stock as i32, false);
                }
            }
            Op::TurnOverOnto { from, to, when } => {
                let Some(d) = self.depot_of(to, w, me)? else { return Ok(()) };
                let mut taken = Vec::new();
                for s in self.depots_of(from, w, me)? {
                    if s != d && self.when_holds(*when, w, s)? {
                        taken.push(s); // all judged before a card moves
                    }
                }
                for s in taken {
                    if !w.s.piles[s].is_empty() {
                        let turned: Pile = w.s.piles[s].iter().rev().map(|&c| c & !1).collect();
                        w.set_pile(s, Vec::new());
                        w.put(d, &turned, s as i32, false);
                    }
                }
            }
            Op::Host(index) => {
                let done = self.exprs.run_step(*index, w.s, me)?;
                *w.s = done.state;
                (0..w.s.piles.len()).for_each(|d| w.mark(d)); // a Python step may change any pile
                for d in done.left {
                    w.left[d] = true;
                }
                w.flips += done.flips;
            }
            Op::ShufflePile { depot } => {
                if let Some(d) = self.depot_of(depot, w, me)? {
                    if w.s.piles[d].len() > 1 {
                        w.shuffle(d);
                    }
                }
            }
            Op::CloseGaps { group, from } => {
                // the piles before the first gap stay where they are: only those after it slide
                let first_gap = group.iter().position(|&d| w.s.piles[d].is_empty()).unwrap_or(group.len());
                let group = &group[first_gap..];
                let filled: Vec<(Pile, i32)> = group
                    .iter()
                    .filter(|&&d| !w.s.piles[d].is_empty())
                    .map(|&d| (w.s.piles[d].clone(), w.s.came_from[d]))
                    .collect();
                let n_filled = filled.len();
                let mut slid = filled.into_iter();
                for &d in group {
                    let (pile, origin) = slid.next().unwrap_or((Vec::new(), -1));
                    if w.s.piles[d] != pile {
                        w.set_pile(d, pile);
                        w.s.came_from[d] = origin;
                    }
                }
                let Some(from) = from else { return Ok(()) };
                let Some(s) = self.depot_of(from, w, me)? else { return Ok(()) };
                for &d in &group[n_filled..] {
                    if d == s {
                        continue;
                    }
                    let Some(c) = w.take_top(s) else { return Ok(()) };
                    let up = w.up(c);
                    w.put(d, &[up], s as i32, false);
                }
            }
        }
        Ok(())
    }

    /// Every step in order.
    pub(super) fn run_steps(&self, w: &mut Work, steps: &[Step]) -> Result<(), ExprError> {
        steps.iter().try_for_each(|step| self.run_step(w, step))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Scratch, State};

    /// A game of four depots (depot 0 its stock) and the Ace to Four of Spades, for the steps.
    fn game() -> Game {
        let doc = r#"{"compiled": {"format": "cardz-compiled/1", "first_stock": 0, "triggers": [],
            "redeal": [], "actions": [[], [], [], []], "auto_send": [null, null, null, null],
            "auto_refill": [null, null, null, null], "card_rank": [1, 2, 3, 4], "card_suit": [3, 3, 3, 3],
            "accepts": [{"build": null}, {"build": null}, {"build": null}, {"build": null}],
            "ejects": [{"gate": "Any", "covered_by": []}, {"gate": "Any", "covered_by": []},
                       {"gate": "Any", "covered_by": []}, {"gate": "Any", "covered_by": []}],
            "draws": [null, null, null, null], "land_face": [-1, -1, -1, -1],
            "land_under": [false, false, false, false], "auto_flip_top": [false, false, false, false],
            "staged": false, "win": null, "loss": null, "redeal_when": null},
            "plan": {"sources": [], "drop_targets": [], "down_targets": [], "tappable": [],
            "flip_uncovered": [], "cells": [], "tableaus": [], "max_cascade": 10000}}"#;
        Game::from_json(doc).unwrap()
    }

    fn board(piles: Vec<Pile>) -> State {
        State { piles, ..State::default() }
    }

    fn run(g: &Game, w: &mut Work, op: Op) {
        g.run_step(w, &Step { op, me: -1 }).unwrap();
    }

    #[test]
    fn shuffle_is_the_python_engines_fisher_yates() {
        // cardz_core.engine.rng.shuffle(seed_state(42), list(range(10))), as tests pin it
        let mut s = board(vec![(0..10).collect(), vec![], vec![], vec![]]);
        let mut w = Work::on(&mut s);
        w.s.rng = 42;
        w.shuffle(0);
        assert_eq!(w.s.piles[0], vec![0, 9, 5, 8, 6, 4, 7, 2, 1, 3]);
        assert_ne!(w.s.rng, 42);
    }

    #[test]
    fn deal_stops_when_the_source_runs_out() {
        let g = game();
        let mut s = board(vec![vec![0, 2, 4, 6], vec![], vec![], vec![]]);
        let mut w = Work::on(&mut s);
        let op = Op::Deal { to: DepotsArg::Fixed(vec![1, 2]), from: DepotArg::Fixed(0), down: 1,
                            up: u64::MAX, round_robin: true, when: None };
        run(&g, &mut w, op);
        // a pass face-down, then face-up passes until the stock is empty
        assert_eq!(w.s.piles, vec![vec![], vec![6, 3], vec![4, 1], vec![]]);
        assert_eq!((w.flips, w.s.came_from.clone()), (2, vec![-1, 0, 0, -1]));
    }

    #[test]
    fn move_top_cycles_a_depot_onto_itself_only_beneath() {
        let g = game();
        let mut s = board(vec![vec![0, 2, 4, 6], vec![], vec![], vec![]]);
        let mut w = Work::on(&mut s);
        let cycle = |under| Op::MoveTop { from: DepotArg::Fixed(0), to: DepotArg::Fixed(0),
                                          count: NumberArg::Fixed(3), under };
        run(&g, &mut w, cycle(false));
        assert_eq!(w.s.piles[0], vec![0, 2, 4, 6]);
        run(&g, &mut w, cycle(true));
        assert_eq!(w.s.piles[0], vec![2, 4, 6, 0]);
        let onto = Op::MoveTop { from: DepotArg::Fixed(0), to: DepotArg::Fixed(1), count: NumberArg::Fixed(9),
                                 under: false };
        run(&g, &mut w, onto);
        assert_eq!((w.s.piles[0].len(), w.s.piles[1].clone()), (0, vec![2, 4, 6, 0]));
    }

    #[test]
    fn the_depots_a_step_changes_are_reported_touched_and_no_others() {
        let g = game();
        fn reported(w: Work<'_>) -> Vec<bool> {
            let mut scratch = Scratch::default();
            scratch.keep(w);
            (0..4).map(|d| scratch.touched(d)).collect()
        }
        let mut s = board(vec![vec![0, 2, 4, 6], vec![], vec![], vec![]]);
        let mut w = Work::on(&mut s);
        let op = Op::Deal { to: DepotsArg::Fixed(vec![1, 2]), from: DepotArg::Fixed(0), down: 1,
                            up: u64::MAX, round_robin: true, when: None };
        run(&g, &mut w, op);
        assert_eq!(reported(w), vec![true, true, true, false]);
        let mut s = board(vec![vec![0, 2, 4, 6], vec![], vec![], vec![]]);
        let mut w = Work::on(&mut s);
        let onto = Op::MoveTop { from: DepotArg::Fixed(0), to: DepotArg::Fixed(3), count: NumberArg::Fixed(2),
                                 under: false };
        run(&g, &mut w, onto);
        assert_eq!(reported(w), vec![true, false, false, true]);
    }

    #[test]
    fn close_gaps_slides_piles_down_and_fills_from_the_source() {
        let g = game();
        let mut s = board(vec![vec![0, 2], vec![], vec![5], vec![]]);
        let mut w = Work::on(&mut s);
        w.s.came_from = vec![-1, -1, 0, -1];
        let op = Op::CloseGaps { group: vec![1, 2, 3], from: Some(DepotArg::Fixed(0)) };
        run(&g, &mut w, op);
        // depot 2's pile slides to 1 with where its top came from; 2 and 3 get the stock's
        // top cards face-up
        assert_eq!(w.s.piles, vec![vec![], vec![5], vec![3], vec![1]]);
        assert_eq!(w.s.came_from, vec![-1, 0, 0, 0]);
    }

    #[test]
    fn place_takes_the_first_match_from_the_top_and_turn_over_reverses() {
        let g = game();
        let mut s = board(vec![vec![2, 0, 4], vec![], vec![], vec![]]);
        let mut w = Work::on(&mut s);
        let wanted = vec![false, true, false, false]; // the Two
        run(&g, &mut w, Op::PlaceFromStock { to: DepotArg::Fixed(3), stock: 0, wanted });
        assert_eq!(w.s.piles, vec![vec![0, 4], vec![], vec![], vec![3]]);
        let op = Op::TurnOverOnto { from: DepotsArg::Fixed(vec![3, 0, 1]), to: DepotArg::Fixed(1), when: None };
        run(&g, &mut w, op);
        // each pile turned over (reversed, face-down) in the order given; the target skipped
        assert_eq!(w.s.piles, vec![vec![], vec![2, 4, 0], vec![], vec![]]);
    }
}
