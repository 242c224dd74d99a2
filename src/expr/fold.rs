//! What a condition gives before the board is known. With some bindings known (`depot` and
//! `source`, or `depot`, `card` and `top`) and the game's tables, a condition may already be
//! decided whatever the piles hold: `index(source) == index(depot) + 1` for a source and a
//! target, `card.rank == top.rank` for two cards. The engine asks at load, and never tries a
//! move that the accept rule's `when` refuses for every board.
//!
//! A subtree is *fixed* when it reads nothing but known bindings, constants and the depot
//! tables: its value is worked out by `eval` itself on an empty position, so it means exactly
//! what it means while playing. `&&`, `||` and `!` over fixed and unfixed parts are decided as
//! the evaluator runs them, left to right; an unfixed operand that could fail (a number past
//! the limit, a depot name no depot has) before the deciding one leaves the whole undecided,
//! so no error the evaluator would raise is skipped.

use super::eval::{eval, truth, Cx, Val};
use super::parse::{Binding, Const, Node, Prim};
use super::tables::Tables;
use super::Scope;
use crate::engine::State;

/// The bindings known when deciding: `depot` always; `source`; `card` and `top`.
#[derive(Clone, Copy, Debug)]
pub struct Known {
    pub source: bool,
    pub cards: bool,
}

/// What `fixed` may read: the bindings known and the slots whose values are given (a loop's
/// item and the outer value its sieve is kept by, `loops.rs`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Reads {
    pub depot: bool,
    pub source: bool,
    pub cards: bool,
    pub slots: [Option<usize>; 2],
}

impl From<Known> for Reads {
    fn from(k: Known) -> Reads {
        Reads { depot: true, source: k.source, cards: k.cards, slots: [None, None] }
    }
}

/// A condition's decision, worked out once per program and asked for many bindings.
#[derive(Debug)]
pub struct Decider<'a> {
    part: Part<'a>,
    t: &'a Tables,
}

#[derive(Debug)]
pub(super) enum Part<'a> {
    /// worked out by the evaluator
    Fixed(&'a Node),
    /// `&&` (false) or `||` (true) stopped by an operand of that value: the operands, each
    /// with whether it may fail
    Junction(bool, Vec<(Part<'a>, bool)>),
    Not(Box<Part<'a>>),
    /// the board decides
    Board,
}

/// The nodes directly beneath `n`.
pub(super) fn kids(n: &Node) -> Vec<&Node> {
    match n {
        Node::Const(_) | Node::Bind(_) | Node::Counter(_) | Node::Var(_) | Node::CardsAt(_) | Node::BoundPile(_) => {
            Vec::new()
        }
        Node::Cards(x) | Node::CardsOf(x) | Node::Depots(x) | Node::Zero(x) | Node::Prop(_, x) | Node::Not(x)
        | Node::Neg(x) | Node::Each(_, x) | Node::Pile(_, x) => vec![&**x],
        Node::Arith(_, xs) | Node::And(xs) | Node::Or(xs) | Node::Call(_, xs)
        | Node::Sieved(_, _, xs) => xs.iter().collect(),
        Node::Host(h) => h.args.iter().collect(),
        Node::Cmp(_, _, a, b) | Node::Let(_, a, b) | Node::In(_, a, b) => vec![&**a, &**b],
    }
}

/// `kids`, to change them.
pub(super) fn kids_mut(n: &mut Node) -> Vec<&mut Node> {
    match n {
        Node::Const(_) | Node::Bind(_) | Node::Counter(_) | Node::Var(_) | Node::CardsAt(_) | Node::BoundPile(_) => {
            Vec::new()
        }
        Node::Cards(x) | Node::CardsOf(x) | Node::Depots(x) | Node::Zero(x) | Node::Prop(_, x) | Node::Not(x)
        | Node::Neg(x) | Node::Each(_, x) | Node::Pile(_, x) => vec![&mut **x],
        Node::Arith(_, xs) | Node::And(xs) | Node::Or(xs) | Node::Call(_, xs)
        | Node::Sieved(_, _, xs) => xs.iter_mut().collect(),
        Node::Host(h) => h.args.iter_mut().collect(),
        Node::Cmp(_, _, a, b) | Node::Let(_, a, b) | Node::In(_, a, b) => vec![&mut **a, &mut **b],
    }
}

/// Whether `n` reads nothing but the known bindings and slots, constants and the depot tables.
fn fixed(n: &Node, known: Reads) -> bool {
    let own = match n {
        Node::Bind(b) => match b {
            Binding::Depot => known.depot,
            Binding::Source => known.source,
            Binding::Card | Binding::Top => known.cards,
            Binding::Pile => false,
        },
        Node::Var(slot) => known.slots.contains(&Some(*slot)),
        Node::Counter(_) | Node::CardsAt(_) | Node::Cards(_) | Node::CardsOf(_) | Node::Let(..)
        | Node::Each(..) | Node::Pile(..) | Node::BoundPile(_) | Node::Sieved(..) | Node::In(..) => false,
        // a Python call-back may read anything of the position, and fail
        Node::Host(..) => false,
        // the per-item primitives run a body on slots; `cameFrom` reads the position
        Node::Call(p, _) => !matches!(p, Prim::CountEach | Prim::AllEach | Prim::AnyEach | Prim::MinEach
            | Prim::MaxEach | Prim::SumEach | Prim::FirstCard | Prim::FirstDepot | Prim::CameFrom),
        _ => true,
    };
    own && kids(n).into_iter().all(|k| fixed(k, known))
}

/// Whether working `n` out may stop with a fault (`eval::Fault`): arithmetic, sums, names.
fn fallible(n: &Node) -> bool {
    matches!(n, Node::Arith(..) | Node::Neg(_) | Node::Host(..) | Node::Call(Prim::SumValues | Prim::SumEach | Prim::DepotNamed, _))
        || kids(n).into_iter().any(fallible)
}

pub(super) fn part(n: &Node, known: Reads) -> Part<'_> {
    if fixed(n, known) {
        return Part::Fixed(n);
    }
    match n {
        Node::And(xs) | Node::Or(xs) => {
            Part::Junction(matches!(n, Node::Or(_)), xs.iter().map(|x| (part(x, known), fallible(x))).collect())
        }
        Node::Not(x) => match part(x, known) {
            Part::Board => Part::Board,
            p => Part::Not(Box::new(p)),
        },
        _ => Part::Board,
    }
}

impl<'a> Part<'a> {
    pub(super) fn decide<'c>(&self, cx: &mut Cx<'c, '_>) -> Option<bool>
    where
        'a: 'c,
    {
        match self {
            Part::Fixed(n) => truth(n, cx).ok(), // a fault is left to the board, where it is raised
            Part::Not(p) => p.decide(cx).map(|b| !b),
            Part::Board => None,
            Part::Junction(stop, xs) => {
                let mut all_decided = true;
                for (x, may_fail) in xs {
                    match x.decide(cx) {
                        Some(b) if b == *stop => return Some(*stop),
                        Some(_) => {}
                        None if *may_fail => return None,
                        None => all_decided = false,
                    }
                }
                all_decided.then_some(!*stop)
            }
        }
    }

    /// Whether some binding may decide it.
    pub(super) fn can_decide(&self) -> bool {
        match self {
            Part::Fixed(_) => true,
            Part::Not(p) => p.can_decide(),
            Part::Board => false,
            Part::Junction(_, xs) => xs.iter().any(|(x, _)| x.can_decide()),
        }
    }
}

impl<'a> Decider<'a> {
    /// The decider of a program's root; None when no binding of `known` can decide it.
    pub(super) fn new(root: &'a Node, t: &'a Tables, known: Known) -> Option<Decider<'a>> {
        let part = part(root, known.into());
        part.can_decide().then_some(Decider { part, t })
    }

    /// The condition's truth with these bindings (the unknown ones left at their defaults)
    /// when they decide it, None when the board does.
    pub fn decide(&self, scope: &Scope) -> Option<bool> {
        let empty = State::default();
        self.part.decide(&mut Cx { t: self.t, s: &empty, scope: *scope, vars: &mut [] })
    }
}

/// `n` for one depot: every part that reads nothing but the `depot` binding (as `depot`),
/// constants and the depot tables, and cannot fail, worked out once into a constant, and the
/// `&&` and `||` operands that are constants and cannot stop them dropped. A program made so
/// is run only with that `depot` binding (an accept rule's `when` on its own depot, a
/// trigger's or an action's on theirs).
pub(super) fn specialise(n: &mut Node, t: &Tables, depot: i32) {
    if matches!(n, Node::Const(_)) {
        return;
    }
    let reads = Reads { depot: true, source: false, cards: false, slots: [None, None] };
    if fixed(n, reads) && !fallible(n) {
        let empty = State::default();
        let scope = Scope { depot, source: -1, ..Scope::default() };
        if let Ok(v) = eval(n, &mut Cx { t, s: &empty, scope, vars: &mut [] }) {
            *n = Node::Const(match v {
                Val::Null => Const::Null,
                Val::Bool(b) => Const::Bool(b),
                Val::Int(i) => Const::Int(i),
                Val::Text(s) => Const::Text(s.to_string()),
                Val::List(items) => Const::List(items.to_vec()),
            });
            return;
        }
    }
    for k in kids_mut(n) {
        specialise(k, t, depot);
    }
    let folded = match n {
        Node::Not(x) => const_truth(x, t).map(|b| Const::Bool(!b)),
        Node::And(xs) => junction(xs, false, t),
        Node::Or(xs) => junction(xs, true, t),
        _ => None,
    };
    if let Some(c) = folded {
        *n = Node::Const(c);
    }
}

/// Python's `bool` of `n` when it is a constant.
fn const_truth(n: &Node, t: &Tables) -> Option<bool> {
    let empty = State::default();
    let mut cx = Cx { t, s: &empty, scope: Scope::default(), vars: &mut [] };
    matches!(n, Node::Const(_)).then(|| truth(n, &mut cx).unwrap_or(false)) // a constant never fails
}

/// The operands of an `&&` (`stop` false) or `||` (`stop` true) without the constants that
/// cannot stop it, cut after the first that does (what comes before it still runs, and may
/// fail or stop first); the junction's value when that leaves no question.
fn junction(xs: &mut Box<[Node]>, stop: bool, t: &Tables) -> Option<Const> {
    let mut kept = Vec::with_capacity(xs.len());
    let mut stopped = false;
    for x in std::mem::take(xs).into_vec() {
        match const_truth(&x, t) {
            Some(b) if b == stop => {
                kept.push(x);
                stopped = true;
                break;
            }
            Some(_) => {}
            None => kept.push(x),
        }
    }
    if kept.is_empty() || (stopped && kept.len() == 1) {
        return Some(Const::Bool(if kept.is_empty() { !stop } else { stop }));
    }
    *xs = kept.into_boxed_slice();
    None
}
