//! What follows a move until the board settles, and the taps that run steps: the cascade
//! (`Play._settle`, `Play._auto_move` in `cardz_core/engine/play.py`) and the tap plans of
//! redeals and actions with their trials (`Taps._tap_plan`, `cardz_core/engine/taps.py`).

use std::cell::RefCell;

use serde_json::Value;

use super::steps::{Step, StepLoader};
use super::{field, judged, opt_int, Card, Code, Cond, Game, Gate, Pile, Scratch, State, Unsupported, Work};
use crate::expr::{ExprError, ExprId, Exprs, Scope};

/// What tapping a depot does now (`cardz_core.engine.taps`' plans).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tap {
    Draw,
    Recycle,
    Redeal,
    Action(usize),
}

/// A trigger: on its depot, when `when` holds after a move, its steps run.
#[derive(Debug)]
struct Trigger {
    depot: usize,
    when: ExprId,
    steps: Vec<Step>,
    // the depots whose piles and `cameFrom` its `when` reads, when that is all it reads of
    // the position (its footprint); None: judged every time
    reads: Option<Vec<usize>>,
}

/// An action of a depot: tapped while `when` holds (None: always), its steps run.
#[derive(Debug)]
struct Action {
    when: Option<ExprId>,
    steps: Vec<Step>,
}

/// The game's automatic moves, triggers, actions and redeal, and the cascade limit.
#[derive(Debug, Default)]
pub(super) struct Rules {
    auto_send: Vec<(usize, Vec<usize>)>,
    auto_refill: Vec<(usize, Vec<usize>)>,
    triggers: Vec<Trigger>,
    actions: Vec<Vec<Action>>,
    // the depots with actions, which `acting` plans (most games have none)
    with_actions: Vec<usize>,
    redeal: Vec<Step>,
    // the deal steps, None when one has no native primitive (the Python engine deals)
    pub(super) deal: Option<Vec<Step>>,
    max_redeals: Option<i64>,
    redeal_when: Option<Cond>,
    // from the plan: the stocks a redeal is tapped from, and those it gathers into
    redeal_stocks: Vec<bool>,
    redeal_gathers: Vec<bool>,
    max_cascade: u64,
    settles: bool,
}

fn in_range(v: &Value, n: usize, what: &str) -> Result<usize, Unsupported> {
    v.as_u64()
        .map(|d| d as usize)
        .filter(|&d| d < n)
        .ok_or_else(|| Unsupported(format!("{what} is not a depot index in range")))
}

/// Per depot, null or a list of depots (`auto_send`, `auto_refill`): the depots that have one.
fn per_depot_lists(c: &Value, name: &str, n: usize) -> Result<Vec<(usize, Vec<usize>)>, Unsupported> {
    let all = field(c, name)?.as_array().ok_or_else(|| Unsupported(format!("'{name}' is not a list")))?;
    if all.len() != n {
        return Err(Unsupported(format!("'{name}' is not one per depot")));
    }
    let mut out = Vec::new();
    for (d, v) in all.iter().enumerate() {
        match v {
            Value::Null => {}
            Value::Array(a) => out.push((d, a.iter().map(|x| in_range(x, n, name)).collect::<Result<_, _>>()?)),
            _ => return Err(Unsupported(format!("'{name}' holds a non-list"))),
        }
    }
    Ok(out)
}

/// The plan's set of depots `name` as one flag per depot.
fn depot_set(plan: &Value, name: &str, n: usize) -> Result<Vec<bool>, Unsupported> {
    let mut out = vec![false; n];
    if let Some(list) = plan.get(name).and_then(Value::as_array) {
        for d in list {
            out[in_range(d, n, name)?] = true;
        }
    }
    Ok(out)
}

impl Rules {
    /// Load the compiled game's tables (and the plan's redeal stocks and cascade limit); every
    /// expression goes into `exprs`, every depot index is checked.
    pub(super) fn from_json(c: &Value, plan: &Value, n: usize, ident: &[Card], exprs: &mut Exprs)
                            -> Result<Rules, Unsupported> {
        let max_cascade = plan
            .get("max_cascade")
            .and_then(Value::as_u64)
            .ok_or_else(|| Unsupported("the plan has no 'max_cascade'".into()))?;
        let mut load = StepLoader { n, first_stock: opt_int(c, "first_stock").unwrap_or(-1), ident, exprs };
        let mut triggers = Vec::new();
        for t in field(c, "triggers")?.as_array().into_iter().flatten() {
            let depot = in_range(field(t, "depot")?, n, "a trigger's depot")?;
            let when = load.exprs.add_for(field(t, "when")?, depot)?;
            // its scope binds no card, group nor source: the piles it reads decide it
            let reads = load.exprs.footprint(when).map(|f| {
                f.depots.iter().chain(&f.came_from).copied().filter(|&d| d < n).collect()
            });
            triggers.push(Trigger { depot, when, steps: load.steps(t.get("do"))?, reads });
        }
        let acts = field(c, "actions")?.as_array().ok_or_else(|| Unsupported("'actions' is not a list".into()))?;
        if acts.len() != n {
            return Err(Unsupported("'actions' is not one per depot".into()));
        }
        let mut actions = Vec::new();
        for (d, list) in acts.iter().enumerate() {
            let mut mine = Vec::new();
            for a in list.as_array().into_iter().flatten() {
                let when = match a.get("when") {
                    Some(w) if !w.is_null() => Some(load.exprs.add_for(w, d)?),
                    _ => None,
                };
                mine.push(Action { when, steps: load.steps(a.get("do"))? });
            }
            actions.push(mine);
        }
        let redeal = load.steps(c.get("redeal"))?;
        let deal = load.steps(c.get("deal")).ok();
        let auto_send = per_depot_lists(c, "auto_send", n)?;
        let auto_refill = per_depot_lists(c, "auto_refill", n)?;
        let flip_uncovered = plan.get("flip_uncovered").and_then(Value::as_array).is_some_and(|a| !a.is_empty());
        Ok(Rules {
            settles: !auto_send.is_empty() || !auto_refill.is_empty() || !triggers.is_empty() || flip_uncovered,
            auto_send,
            auto_refill,
            triggers,
            with_actions: (0..n).filter(|&d| !actions[d].is_empty()).collect(),
            actions,
            redeal,
            deal,
            max_redeals: opt_int(c, "max_redeals"),
            redeal_when: judged(c, "redeal_when", load.exprs)?,
            redeal_stocks: depot_set(plan, "redeal_stocks", n)?,
            redeal_gathers: depot_set(plan, "redeal_gathers", n)?,
            max_cascade,
        })
    }
}

#[cfg(test)]
thread_local! {
    /// How many times `trigger_holds` answered from a kept result on this thread, so that a
    /// test can show that its board took that path.
    pub(super) static KEPT_ANSWERS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

impl Rules {
    /// The depots whose piles trigger `k`'s `when` reads, when its footprint names them.
    #[cfg(test)]
    pub(super) fn trigger_reads(&self, k: usize) -> Option<&[usize]> {
        self.triggers[k].reads.as_deref()
    }

    /// Whether depot `d` has actions (so `acting` plans its tap).
    pub(super) fn has_actions(&self, d: usize) -> bool {
        !self.actions[d].is_empty()
    }
}

thread_local! {
    /// A trial's board and buffers, kept from one trial to the next.
    static TRIALS: RefCell<(State, Scratch)> = RefCell::new(Default::default());
}

/// The bindings of a trigger's or action's `when`: its depot.
fn scope(depot: usize) -> Scope<'static> {
    Scope { card: None, top: None, pile: &[], depot: depot as i32, source: -1 }
}

impl Game {
    /// `Taps._tap_plan` past the draw: a redeal from this stock, then the first action whose
    /// `when` holds (if that one would change nothing, the tap does nothing). `listed`: the
    /// tap is known to do something, so a trial is needed only to choose between a redeal and
    /// the depot's actions.
    pub(super) fn tap_steps(&self, s: &State, d: usize, listed: bool) -> Result<Option<Tap>, ExprError> {
        let r = &self.rules;
        let acts = &r.actions[d];
        if r.redeal_stocks[d]
            && self.redeal_ready(s, d)?
            && ((listed && acts.is_empty()) || self.trial(s, &r.redeal)?)
        {
            return Ok(Some(Tap::Redeal));
        }
        for (k, a) in acts.iter().enumerate() {
            let holds = match a.when {
                None => true,
                Some(id) => self.exprs.test(id, s, &scope(d))?,
            };
            if holds {
                return Ok((listed || self.trial(s, &a.steps)?).then_some(Tap::Action(k)));
            }
        }
        Ok(None)
    }

    /// `MoveGen.acting`: the depots with actions that a press acts on now; none of their cards
    /// may be picked up, by hand or by an automatic move (the reference).
    pub(super) fn acting(&self, s: &State) -> Result<Vec<usize>, ExprError> {
        let mut out = Vec::new();
        for &d in &self.rules.with_actions {
            if self.tap_plan(s, d)?.is_some() {
                out.push(d);
            }
        }
        Ok(out)
    }

    /// `Taps._redeal_ready`: redeals left, and a stock it gathers into empty.
    fn redeal_ready(&self, s: &State, d: usize) -> Result<bool, ExprError> {
        let r = &self.rules;
        if r.max_redeals.is_some_and(|m| s.redeals >= m) || (r.redeal_gathers[d] && !s.piles[d].is_empty()) {
            return Ok(false);
        }
        r.redeal_when.as_ref().map_or(Ok(true), |c| self.holds(c, s))
    }

    /// `Taps._trial`: whether running `steps` on `s` would change the piles.
    /// The board is a copy of `s` into the thread's kept buffers, so that a trial (made at
    /// every listing of a game with a redeal or an action) allocates nothing once warm.
    fn trial(&self, s: &State, steps: &[Step]) -> Result<bool, ExprError> {
        TRIALS.with(|cell| match cell.try_borrow_mut() {
            Ok(mut kept) => {
                let (board, scratch) = &mut *kept;
                board.refill_from(s);
                let mut w = Work::reusing(board, scratch);
                let changed = self.tried(&mut w, s, steps);
                scratch.keep(w);
                changed
            }
            Err(_) => self.tried(&mut Work::on(&mut s.clone()), s, steps), // not reached: a step makes no trial
        })
    }

    /// `trial` on the board `w`, a copy of `s`.
    fn tried(&self, w: &mut Work, s: &State, steps: &[Step]) -> Result<bool, ExprError> {
        let ran = self.run_steps(w, steps);
        if w.unknown.is_some() {
            return Ok(true); // turning up a view's unknown card is a change (`trial_reveal`)
        }
        ran?;
        Ok(w.clock != 0 && w.s.piles != s.piles) // no pile was touched: none changed
    }

    /// The steps of the tap planned as `tap` on depot `d` (a redeal counts once).
    pub(super) fn run_tap_steps(&self, w: &mut Work, tap: Tap, d: usize) -> Result<(), ExprError> {
        match tap {
            Tap::Redeal => {
                self.run_steps(w, &self.rules.redeal)?;
                w.s.redeals += 1;
            }
            Tap::Action(k) => self.run_steps(w, &self.rules.actions[d][k].steps)?,
            Tap::Draw | Tap::Recycle => {}
        }
        Ok(())
    }

    /// `Play._settle`, or the flips alone in a game with nothing that settles: flips, then one
    /// automatic move, or else one pass of the triggers, repeated until nothing changes; at
    /// the cascade limit (`limits.MAX_CASCADE`) of automatic moves and trigger runs that
    /// changed the board, the cascade ends there, after the flips.
    pub(super) fn settle(&self, w: &mut Work) -> Result<(), ExprError> {
        let r = &self.rules;
        if !r.settles {
            self.flip_tops(w);
            return Ok(());
        }
        let mut budget = r.max_cascade;
        loop {
            self.flip_tops(w);
            if budget == 0 {
                return Ok(());
            }
            if self.auto_move(w)? {
                budget -= 1;
                continue;
            }
            if r.triggers.is_empty() {
                return Ok(());
            }
            // the piles as the pass began: those the first trigger that holds runs on (testing
            // a `when` changes nothing), so a pass in which none holds copies no pile
            let mut before: Option<Vec<Pile>> = None;
            for (k, t) in r.triggers.iter().enumerate() {
                if self.trigger_holds(w, k, t)? {
                    let ran = w.s.piles.clone();
                    self.run_steps(w, &t.steps)?;
                    let changed = w.s.piles != ran;
                    before.get_or_insert(ran);
                    if changed {
                        budget -= 1;
                        self.flip_tops(w);
                        if budget == 0 {
                            return Ok(());
                        }
                    }
                }
            }
            if before.is_none_or(|b| w.s.piles == b) {
                return Ok(());
            }
        }
    }

    /// Whether trigger `k`'s `when` holds on `w`: false without judging it when it gave
    /// false on this board before and none of the piles it reads has changed since.
    fn trigger_holds(&self, w: &mut Work, k: usize, t: &Trigger) -> Result<bool, ExprError> {
        let Some(reads) = &t.reads else { return self.exprs.test(t.when, w.s, &scope(t.depot)) };
        if w.stamps.is_empty() {
            w.stamps = vec![0; w.s.piles.len()];
            w.unheld = vec![0; self.rules.triggers.len()];
        }
        let kept = w.unheld[k];
        if kept != 0 && reads.iter().all(|&d| w.stamps[d] < kept) {
            #[cfg(test)]
            KEPT_ANSWERS.with(|n| n.set(n.get() + 1));
            return Ok(false);
        }
        let holds = self.exprs.test(t.when, w.s, &scope(t.depot))?;
        w.unheld[k] = if holds { 0 } else { w.clock + 1 };
        Ok(holds)
    }

    /// `Play._auto_move`: make the first automatic move available (autoSend, then autoRefill);
    /// whether there was one.
    fn auto_move(&self, w: &mut Work) -> Result<bool, ExprError> {
        if self.rules.auto_send.is_empty() && self.rules.auto_refill.is_empty() {
            return Ok(false); // nor are the actions' plans asked for (the reference)
        }
        let acting = self.acting(w.s)?; // as a player's hand can't, no automatic move takes from them
        let found = match self.auto_send_move(w.s, &acting)? {
            Some(m) => Some(m),
            None => self.auto_refill_move(w.s, &acting)?,
        };
        Ok(match found {
            Some((src, rest, d, mut group)) => {
                w.set_pile(src, rest);
                w.s.came_from[src] = -1;
                self.land(w, d, &mut group, src);
                true
            }
            None => false,
        })
    }

    /// The first autoSend depot that can send: its largest legal group (the lowest position its
    /// gate and unit allow) to the first depot of its pattern that accepts it, as (source,
    /// what stays, target, the group).
    fn auto_send_move(&self, s: &State, acting: &[usize]) -> Result<Option<(usize, Pile, usize, Pile)>, ExprError> {
        for (src, targets) in &self.rules.auto_send {
            let src = *src;
            if acting.contains(&src) {
                continue;
            }
            let pile = &s.piles[src];
            let ej = &self.ejects[src];
            let Some((low, face_up_only, one)) = ej.pick_span(&s.piles, pile, &self.ident) else { continue };
            for i in low..pile.len() {
                if face_up_only && pile[i] & 1 == 0 {
                    continue;
                }
                let group = ej.group(pile, i);
                for &d in targets {
                    if self.drop_ok(s, src, group, d, ej.vouched(), None)? {
                        let (mut rest, mut group) = (pile.clone(), Vec::new());
                        ej.take(&mut rest, i, &mut group);
                        return Ok(Some((src, rest, d, group)));
                    }
                }
                if one {
                    break;
                }
            }
        }
        Ok(None)
    }

    /// The first empty autoRefill depot that takes the top card of the first depot in its
    /// pattern whose gate releases it.
    fn auto_refill_move(&self, s: &State, acting: &[usize]) -> Result<Option<(usize, Pile, usize, Pile)>, ExprError> {
        for (d, sources) in &self.rules.auto_refill {
            let d = *d;
            if !s.piles[d].is_empty() {
                continue;
            }
            for &src in sources {
                let pile = &s.piles[src];
                let Some(&top) = pile.last() else { continue };
                if acting.contains(&src) || !self.releases_top(s, src, top) {
                    continue;
                }
                if self.drop_ok(s, src, &[top], d, true, None)? {
                    return Ok(Some((src, pile[..pile.len() - 1].to_vec(), d, vec![top])));
                }
            }
        }
        Ok(None)
    }

    /// `Eject.why` of a non-empty pile's top card is None: not locked, not covered, and face-up
    /// where only face-up cards may be picked (a top card always starts its own run).
    fn releases_top(&self, s: &State, src: usize, top: Code) -> bool {
        let ej = &self.ejects[src];
        ej.gate != Gate::Locked && !ej.covered(&s.piles) && (ej.gate != Gate::FaceUp || top & 1 == 1)
    }
}
