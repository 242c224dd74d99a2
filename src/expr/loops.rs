//! Loops made cheaper once, when a program loads: the per-item primitives (`any`, `all`,
//! `count`, `first`) over a constant list of depots run after every move in triggers, redeal
//! steps and conditions, so their cost is most of an expression-heavy game's.
//!
//! - **Membership.** `any(d in G, d == x)` (and `all(d in G, d != x)`) with an `x` that does
//!   not read the item is `x` worked out once and looked for among the items (`Node::In`).
//! - **Sieves.** Where the body's fixed part (`fold.rs`: what it reads of the item, one outer
//!   value and the depot tables) already decides it for some items, those items cannot change
//!   the result and are left out: `all` drops the items decided true, the others those decided
//!   false. The lists are kept per value of the outer value the body reads (the `depot`
//!   binding, or an enclosing loop's item), for every value from -1 to the last depot.
//!
//! Both give what the loop gives, errors included: `x` fails where the first item's body would
//! have, and a decided item is one whose body gives its value without a fault
//! (`fold::Part::decide`).

use super::eval::{Cx, Val};
use super::fold::{kids, kids_mut, part, Reads};
use super::parse::{Cmp, Const, Key, Node, Prim, Sieve};
use super::tables::Tables;
use super::Scope;
use crate::engine::State;

/// At most this many decisions (items times outer values) are worked out for one loop's
/// sieve, so that a game with hundreds of depots compiles quickly.
const SIEVE_DECISIONS: usize = 20_000;

/// `n` and everything beneath it rewritten, innermost loops first; `slots` is the program's.
pub(super) fn rewrite(n: &mut Node, t: &Tables, slots: usize) {
    for k in kids_mut(n) {
        rewrite(k, t, slots);
    }
    if let Some(m) = membership(n) {
        *n = m;
    } else if let Some(sieved) = sieve(n, t, slots) {
        *n = sieved;
    }
}

/// Whether `n` names the slot (reads, binds or loops on it) or calls Python back.
fn touches(n: &Node, slot: usize) -> bool {
    let own = match n {
        Node::Var(s) | Node::Let(s, ..) | Node::Each(s, _) => *s == slot,
        Node::Host(..) => true,
        _ => false,
    };
    own || kids(n).into_iter().any(|k| touches(k, slot))
}

/// `any(i in items, i == x)` as `Node::In`, `all(i in items, i != x)` as its negation.
fn membership(n: &Node) -> Option<Node> {
    let Node::Call(p @ (Prim::AnyEach | Prim::AllEach), args) = n else { return None };
    let [items, Node::Each(slot, body)] = &**args else { return None };
    let Node::Cmp(op, how, a, b) = &**body else { return None };
    let want = if *p == Prim::AnyEach { Cmp::Eq } else { Cmp::Ne };
    let x = match (&**a, &**b) {
        (Node::Var(s), x) | (x, Node::Var(s)) if s == slot => x,
        _ => return None,
    };
    if *op != want || touches(x, *slot) {
        return None;
    }
    let found = Node::In(*how, Box::new(items.clone()), Box::new(x.clone()));
    Some(if *p == Prim::AnyEach { found } else { Node::Not(Box::new(found)) })
}

/// The slots `n` reads that it does not bind itself, added to `out`.
fn outer_slots(n: &Node, bound: &mut Vec<usize>, out: &mut Vec<usize>) {
    match n {
        Node::Var(s) if !bound.contains(s) && !out.contains(s) => out.push(*s),
        Node::Let(s, v, body) => {
            outer_slots(v, bound, out);
            bound.push(*s);
            outer_slots(body, bound, out);
        }
        Node::Each(s, body) => {
            bound.push(*s);
            outer_slots(body, bound, out);
        }
        _ => kids(n).into_iter().for_each(|k| outer_slots(k, bound, out)),
    }
}

fn reads_depot(n: &Node) -> bool {
    matches!(n, Node::Bind(super::parse::Binding::Depot)) || kids(n).into_iter().any(reads_depot)
}

/// A per-item call over a constant list as `Node::Sieved`, when its body's fixed part decides
/// it for some item and some outer value.
fn sieve(n: &mut Node, t: &Tables, slots: usize) -> Option<Node> {
    let Node::Call(p @ (Prim::AllEach | Prim::AnyEach | Prim::CountEach | Prim::FirstCard | Prim::FirstDepot), args) = n
    else {
        return None;
    };
    let [Node::Const(Const::List(items)), Node::Each(slot, body)] = &**args else { return None };
    let (p, slot) = (*p, *slot);
    let mut outer = Vec::new();
    outer_slots(body, &mut vec![slot], &mut outer);
    let key = if reads_depot(body) {
        Key::Depot
    } else {
        outer.first().map_or(Key::None, |&k| Key::Slot(k))
    };
    let key_slot = match key {
        Key::Slot(k) => Some(k),
        _ => None,
    };
    let decided = part(body, Reads { depot: key == Key::Depot, source: false, cards: false, slots: [Some(slot), key_slot] });
    let values: Vec<i64> = if key == Key::None { vec![-1] } else { (-1..t.n_depots() as i64).collect() };
    if !decided.can_decide() || items.len() * values.len() > SIEVE_DECISIONS {
        return None;
    }
    let drop = p == Prim::AllEach; // `all` goes on past a true item, the others past a false one
    let empty = State::default();
    let mut vars = vec![Val::Null; slots];
    let mut lists = Vec::with_capacity(values.len());
    for &v in &values {
        if let Some(k) = key_slot {
            vars[k] = Val::Int(v);
        }
        let scope = Scope { depot: if key == Key::Depot { v as i32 } else { -1 }, source: -1, ..Scope::default() };
        let mut kept = Vec::new();
        for &item in items {
            vars[slot] = Val::Int(i64::from(item));
            let mut cx = Cx { t, s: &empty, scope, vars: &mut vars };
            if decided.decide(&mut cx) != Some(drop) {
                kept.push(item);
            }
        }
        lists.push(kept);
    }
    if lists.iter().all(|l| l.len() == items.len()) {
        return None;
    }
    Some(Node::Sieved(p, Box::new(Sieve { key, lists }), std::mem::take(args)))
}

impl Sieve {
    /// The items to run over for the outer value in `cx`; None: every item.
    pub(super) fn items<'a>(&'a self, cx: &Cx<'_, '_>) -> Option<&'a [i32]> {
        let v = match self.key {
            Key::None => -1,
            Key::Depot => i64::from(cx.scope.depot),
            Key::Slot(k) => match cx.vars[k] {
                Val::Int(v) => v,
                _ => return None,
            },
        };
        usize::try_from(v + 1).ok().and_then(|i| self.lists.get(i)).map(Vec::as_slice)
    }
}
