//! What a program gives before the board is known: with `depot` and `source` bound and the
//! game's tables, a condition may already be decided (`index(source) == index(depot) + 1`,
//! `adjacent(depot, source)`), whatever the piles hold. The engine asks once per source and
//! target at load, and never lists a move its accept rule's `when` refuses for every board.
//!
//! A subtree is *fixed* when it reads nothing of the board (no pile, card, counter or slot):
//! its value is worked out by `eval` itself on an empty position, so it means exactly what it
//! means while playing. `&&`, `||` and `!` over fixed and unfixed parts are decided as the
//! evaluator would run them, left to right; an unfixed operand that could fail (a number past
//! the limit, a depot name no depot has) before the deciding one leaves the whole undecided,
//! so no error the evaluator would raise is skipped.

use super::eval::{truth, Cx};
use super::parse::{Binding, Node, Prim};
use super::tables::Tables;
use super::Scope;
use crate::engine::State;

/// The nodes directly beneath `n`.
fn kids(n: &Node) -> Vec<&Node> {
    match n {
        Node::Const(_) | Node::Bind(_) | Node::Counter(_) | Node::Var(_) | Node::CardsAt(_) | Node::BoundPile(_) => {
            Vec::new()
        }
        Node::Cards(x) | Node::CardsOf(x) | Node::Depots(x) | Node::Zero(x) | Node::Prop(_, x) | Node::Not(x)
        | Node::Neg(x) | Node::Each(_, x) | Node::Pile(_, x) => vec![&**x],
        Node::Arith(_, xs) | Node::And(xs) | Node::Or(xs) | Node::Call(_, xs) => xs.iter().collect(),
        Node::Cmp(_, _, a, b) | Node::Let(_, a, b) => vec![&**a, &**b],
    }
}

/// Whether `n` reads nothing of the board: constants, `depot`, `source`, the depot tables.
fn fixed(n: &Node) -> bool {
    let own = match n {
        Node::Bind(b) => matches!(b, Binding::Depot | Binding::Source),
        Node::Counter(_) | Node::Var(_) | Node::CardsAt(_) | Node::Cards(_) | Node::CardsOf(_) | Node::Let(..)
        | Node::Each(..) | Node::Pile(..) | Node::BoundPile(_) => false,
        // the per-item primitives run a body on slots; `cameFrom` reads the position
        Node::Call(p, _) => !matches!(p, Prim::CountEach | Prim::AllEach | Prim::AnyEach | Prim::MinEach
            | Prim::MaxEach | Prim::SumEach | Prim::FirstCard | Prim::FirstDepot | Prim::CameFrom),
        _ => true,
    };
    own && kids(n).into_iter().all(fixed)
}

/// Whether working `n` out may stop with a fault (`eval::Fault`): arithmetic, sums, names.
fn fallible(n: &Node) -> bool {
    matches!(n, Node::Arith(..) | Node::Neg(_) | Node::Call(Prim::SumValues | Prim::SumEach | Prim::DepotNamed, _))
        || kids(n).into_iter().any(fallible)
}

/// The truth of `n` when the bindings and tables decide it, None when the board does.
fn decided<'a>(n: &'a Node, cx: &mut Cx<'a, '_>) -> Option<bool> {
    if fixed(n) {
        return truth(n, cx).ok(); // a fault is left to the board, where it is raised
    }
    match n {
        Node::And(xs) => junction(xs, false, cx),
        Node::Or(xs) => junction(xs, true, cx),
        Node::Not(x) => decided(x, cx).map(|b| !b),
        _ => None,
    }
}

/// `&&` (`stop` false) or `||` (`stop` true) as `eval::logic` runs it: stopped by the first
/// operand decided `stop`, reached only past operands that cannot fail.
fn junction<'a>(xs: &'a [Node], stop: bool, cx: &mut Cx<'a, '_>) -> Option<bool> {
    let mut all_decided = true;
    for x in xs {
        match decided(x, cx) {
            Some(b) if b == stop => return Some(stop),
            Some(_) => {}
            None if fallible(x) => return None,
            None => all_decided = false,
        }
    }
    all_decided.then_some(!stop)
}

/// `decided` of a program's root with `depot` and `source` bound, on no board.
pub(super) fn decide(root: &Node, t: &Tables, depot: i32, source: i32) -> Option<bool> {
    let empty = State::default();
    let scope = Scope { depot, source, ..Scope::default() };
    decided(root, &mut Cx { t, s: &empty, scope, vars: &mut [] })
}
