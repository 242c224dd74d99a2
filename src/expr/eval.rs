//! Evaluating a program's tree on a position, as `cardz_core/expr/closure.py` does. Values are
//! those of the Python engine: a card is its code or missing, a depot its index (-1 none), a
//! rank, suit or colour a number or missing, a list of cards or depots a `Seq` that borrows the
//! pile (or the constant) it comes from wherever it can.

use std::borrow::Cow;
use std::ops::Deref;

use super::arith::{floor_rem64, Chain};
use super::parse::{Arith, Binding, Cmp, Const, Counter, How, Node, PileRead, Prim, Prop};
use super::tables::Tables;
use super::{Scope, MAX_EXPR_INT};
use crate::engine::State;

/// A list of cards (codes) or depots (indices).
#[derive(Clone, Debug)]
pub enum Seq<'a> {
    Slice(&'a [i32]),
    One(i32),
    Owned(Vec<i32>),
}

impl Deref for Seq<'_> {
    type Target = [i32];

    fn deref(&self) -> &[i32] {
        match self {
            Seq::Slice(s) => s,
            Seq::One(x) => std::slice::from_ref(x),
            Seq::Owned(v) => v,
        }
    }
}

impl<'a> Seq<'a> {
    /// The items from `at` on, borrowed where the list is.
    fn tail(self, at: usize) -> Seq<'a> {
        match self {
            Seq::Slice(s) => Seq::Slice(&s[at..]),
            Seq::One(x) => if at == 0 { Seq::One(x) } else { Seq::Slice(&[]) },
            Seq::Owned(mut v) => {
                v.drain(..at);
                Seq::Owned(v)
            }
        }
    }
}

/// A run-time value, as the Python engine's closures give it: `Null` is None (no card, a
/// missing rank, suit, colour or number), a card or a depot is an `Int`.
#[derive(Clone, Debug, Default)]
pub enum Val<'a> {
    #[default]
    Null,
    Bool(bool),
    Int(i64),
    /// a name, the program's own or a call-back's
    Text(Cow<'a, str>),
    List(Seq<'a>),
}

impl Val<'_> {
    /// Python's `bool(value)`.
    pub fn truthy(&self) -> bool {
        match self {
            Val::Null => false,
            Val::Bool(b) => *b,
            Val::Int(i) => *i != 0,
            Val::Text(s) => !s.is_empty(),
            Val::List(s) => !s.is_empty(),
        }
    }

    /// The value as a whole number (a condition as 0 or 1, as Python's `int`), None when it is
    /// missing or no number.
    pub fn int(&self) -> Option<i64> {
        match self {
            Val::Int(i) => Some(*i),
            Val::Bool(b) => Some(i64::from(*b)),
            _ => None,
        }
    }
}

/// Why an evaluation stopped (`Exprs` adds the expression's pointer).
#[derive(Debug, PartialEq)]
pub(super) enum Fault {
    /// a number past `MAX_EXPR_INT` either way
    Past,
    /// `depot("…")` of a name no depot has (the Python implementation's `FunctionError`)
    NoDepot(String),
    /// a Python call-back failed, saying this
    Host(String),
}

type R<T> = Result<T, Fault>;

/// The position, the context's bindings and the program's slots, for one evaluation.
pub(super) struct Cx<'a, 'v> {
    pub t: &'a Tables,
    pub s: &'a State,
    pub scope: Scope<'a>,
    pub vars: &'v mut [Val<'a>],
}

impl<'a> Cx<'a, '_> {
    fn pile(&self, d: i64) -> &'a [i32] {
        let s: &'a State = self.s;
        if d < 0 { &[] } else { s.piles.get(d as usize).map_or(&[], Vec::as_slice) }
    }
}

fn code(c: Option<i32>) -> Val<'static> {
    c.map_or(Val::Null, |c| Val::Int(i64::from(c)))
}

fn int_or_null(v: Option<i64>) -> Val<'static> {
    v.map_or(Val::Null, Val::Int)
}

/// The value of `n` as a number (a card code, a depot index, a condition as 0 or 1), None
/// when missing. Numbers and conditions are worked out here and in `truth` without a `Val`.
pub(super) fn num<'a>(n: &'a Node, cx: &mut Cx<'a, '_>) -> R<Option<i64>> {
    Ok(match n {
        Node::Const(Const::Int(i)) => Some(*i),
        Node::Bind(Binding::Card) => cx.scope.card.map(i64::from),
        Node::Bind(Binding::Top) => cx.scope.top.map(i64::from),
        Node::Bind(Binding::Depot) => Some(i64::from(cx.scope.depot)),
        Node::Bind(Binding::Source) => Some(i64::from(cx.scope.source)),
        Node::Var(slot) => cx.vars[*slot].int(),
        Node::Prop(p @ (Prop::Rank | Prop::Suit | Prop::Colour | Prop::Value), c) => {
            let face = num(c, cx)?.and_then(|c| cx.t.face(c));
            match p {
                Prop::Rank => face.and_then(|f| f.rank),
                Prop::Suit => face.and_then(|f| f.suit),
                Prop::Colour => face.and_then(|f| f.colour),
                _ => Some(face.map_or(0, |f| f.value)),
            }
        }
        Node::Zero(x) => Some(num(x, cx)?.unwrap_or(0)),
        Node::Neg(x) => match num(x, cx)? {
            None => None,
            Some(v) => Some(v.checked_neg().ok_or(Fault::Past)?),
        },
        Node::Arith(ops, xs) => arith(ops, xs, cx)?,
        Node::Pile(read, d) => {
            let d = num(d, cx)?.unwrap_or(-1);
            read_pile(*read, cx.pile(d))
        }
        Node::BoundPile(read) => read_pile(*read, cx.scope.pile),
        Node::Call(Prim::CopyIndex, args) => Some(depot(num(&args[0], cx)?, cx.t).map_or(0, |d| cx.t.copy_index[d])),
        Node::Cmp(..) | Node::And(_) | Node::Or(_) | Node::Not(_) | Node::Prop(Prop::FaceUp | Prop::Joker, _) => {
            Some(i64::from(truth(n, cx)?))
        }
        _ => node(n, cx)?.int(),
    })
}

/// The value of `n` as a condition (Python's `bool(value)`).
pub(super) fn truth<'a>(n: &'a Node, cx: &mut Cx<'a, '_>) -> R<bool> {
    Ok(match n {
        Node::Cmp(op, how, a, b) => {
            let (a, b) = (num(a, cx)?, num(b, cx)?);
            compare(*op, *how, a, b)
        }
        Node::And(xs) => logic(xs, false, cx)?,
        Node::Or(xs) => logic(xs, true, cx)?,
        Node::Not(x) => !truth(x, cx)?,
        Node::Prop(Prop::FaceUp, c) => num(c, cx)?.is_some_and(|c| c & 1 == 1),
        Node::Prop(Prop::Joker, c) => num(c, cx)?.and_then(|c| cx.t.face(c)).is_some_and(|f| f.joker),
        Node::Pile(PileRead::Empty, d) => {
            let d = num(d, cx)?.unwrap_or(-1);
            cx.pile(d).is_empty()
        }
        Node::BoundPile(PileRead::Empty) => cx.scope.pile.is_empty(),
        Node::Const(Const::Bool(b)) => *b,
        _ => eval(n, cx)?.truthy(),
    })
}

/// A list argument: cards or depots (a non-list reads as no items).
fn seq<'a>(n: &'a Node, cx: &mut Cx<'a, '_>) -> R<Seq<'a>> {
    Ok(match eval(n, cx)? {
        Val::List(s) => s,
        _ => Seq::Slice(&[]),
    })
}

/// The value of `n`: the leaves here, inlined into their parents, the rest in `node`.
#[inline(always)]
pub(super) fn eval<'a>(n: &'a Node, cx: &mut Cx<'a, '_>) -> R<Val<'a>> {
    match n {
        Node::Const(Const::Int(i)) => Ok(Val::Int(*i)),
        Node::Bind(Binding::Card) => Ok(code(cx.scope.card)),
        Node::Bind(Binding::Top) => Ok(code(cx.scope.top)),
        Node::Var(slot) => Ok(cx.vars[*slot].clone()),
        Node::CardsAt(d) => Ok(Val::List(Seq::Slice(cx.pile(*d as i64)))),
        _ => node(n, cx),
    }
}

#[inline(never)]
fn node<'a>(n: &'a Node, cx: &mut Cx<'a, '_>) -> R<Val<'a>> {
    Ok(match n {
        Node::Const(c) => match c {
            Const::Null => Val::Null,
            Const::Bool(b) => Val::Bool(*b),
            Const::Int(i) => Val::Int(*i),
            Const::Text(s) => Val::Text(Cow::Borrowed(s)),
            Const::List(v) => Val::List(Seq::Slice(v)),
        },
        Node::Bind(b) => match b {
            Binding::Card => code(cx.scope.card),
            Binding::Top => code(cx.scope.top),
            Binding::Pile => Val::List(Seq::Slice(cx.scope.pile)),
            Binding::Depot => Val::Int(i64::from(cx.scope.depot)),
            Binding::Source => Val::Int(i64::from(cx.scope.source)),
        },
        Node::Counter(c) => Val::Int(match c {
            Counter::Moves => cx.s.moves,
            Counter::Undos => cx.s.undos,
            Counter::RecyclesTotal => cx.s.recycles_total,
            Counter::Redeals => cx.s.redeals,
        }),
        Node::Var(slot) => cx.vars[*slot].clone(),
        Node::CardsAt(d) => Val::List(Seq::Slice(cx.pile(*d as i64))),
        Node::Cards(d) => {
            let d = num(d, cx)?.unwrap_or(-1);
            Val::List(Seq::Slice(cx.pile(d)))
        }
        Node::CardsOf(ds) => Val::List(cards_of(&seq(ds, cx)?, cx)),
        Node::Depots(d) => match num(d, cx)? {
            Some(d) if d >= 0 => Val::List(Seq::One(d as i32)),
            _ => Val::List(Seq::Slice(&[])),
        },
        Node::Zero(x) => match eval(x, cx)? {
            Val::Null => Val::Int(0),
            v => v,
        },
        Node::Cmp(..) | Node::And(_) | Node::Or(_) | Node::Not(_) | Node::Prop(Prop::FaceUp | Prop::Joker, _)
        | Node::Pile(PileRead::Empty, _) | Node::BoundPile(PileRead::Empty) => Val::Bool(truth(n, cx)?),
        Node::Prop(..) | Node::Neg(_) | Node::Arith(..) | Node::Pile(..) | Node::BoundPile(_) => int_or_null(num(n, cx)?),
        Node::Let(slot, v, body) => {
            cx.vars[*slot] = eval(v, cx)?;
            eval(body, cx)?
        }
        Node::Call(p, args) => call(*p, args, cx)?,
        Node::Host(h) => super::host::call(h, cx)?,
        // the parser puts these only where a primitive runs them per item
        Node::Each(_, body) => eval(body, cx)?,
        Node::Sieved(p, sieve, args) => match sieve.items(cx) {
            Some(items) => each_over(*p, items, &args[1], cx)?,
            None => call_each(*p, args, cx)?,
        },
        Node::In(how, items, x) => {
            let items = seq(items, cx)?;
            let found = !items.is_empty() && {
                let x = num(x, cx)?;
                items.iter().any(|&i| compare(Cmp::Eq, *how, Some(i64::from(i)), x))
            };
            Val::Bool(found)
        }
    })
}

/// A top or bottom card (its code), a count; `Empty` as 0 or 1.
fn read_pile(read: PileRead, pile: &[i32]) -> Option<i64> {
    match read {
        PileRead::Top => pile.last().map(|&c| i64::from(c)),
        PileRead::Bottom => pile.first().map(|&c| i64::from(c)),
        PileRead::Count => Some(pile.len() as i64),
        PileRead::Empty => Some(i64::from(pile.is_empty())),
    }
}

/// The cards on each depot of `ds`, depot after depot (one depot's borrowed).
fn cards_of<'a>(ds: &[i32], cx: &Cx<'a, '_>) -> Seq<'a> {
    match ds {
        [] => Seq::Slice(&[]),
        [d] => Seq::Slice(cx.pile(i64::from(*d))),
        _ => Seq::Owned(ds.iter().flat_map(|&d| cx.pile(i64::from(d)).iter().copied()).collect()),
    }
}

/// `xs[0] ops[0] xs[1] …`: missing when an operand is (every operand is still worked out, as
/// in Python), refused past `MAX_EXPR_INT`.
fn arith<'a>(ops: &[Arith], xs: &'a [Node], cx: &mut Cx<'a, '_>) -> R<Option<i64>> {
    if let ([op], [a, b]) = (ops, xs) {
        // one operator, in i64: a result that leaves i64 is past the limit anyway (and i128
        // division is a library call, the dearest step of a `%`-heavy loop)
        let (a, b) = (num(a, cx)?, num(b, cx)?);
        let (Some(x), Some(y)) = (a, b) else { return Ok(None) };
        let v = match op {
            Arith::Add => x.checked_add(y),
            Arith::Sub => x.checked_sub(y),
            Arith::Mul => x.checked_mul(y),
            Arith::Rem => Some(floor_rem64(x, y)),
        };
        return v.filter(|v| v.unsigned_abs() <= MAX_EXPR_INT as u64).map(Some).ok_or(Fault::Past);
    }
    chain(ops, xs, cx)
}

/// A longer chain, kept out of `num` so that its frame stays small.
#[inline(never)]
fn chain<'a>(ops: &[Arith], xs: &'a [Node], cx: &mut Cx<'a, '_>) -> R<Option<i64>> {
    let mut chain: Option<Chain> = None;
    let mut missing = false;
    for (i, x) in xs.iter().enumerate() {
        match num(x, cx)? {
            None => missing = true,
            Some(_) if missing => {}
            Some(v) => match &mut chain {
                None => chain = Some(Chain::new(v)),
                Some(c) => c.apply(ops[i - 1], v),
            },
        }
    }
    if missing {
        return Ok(None);
    }
    chain.unwrap_or_default().result(MAX_EXPR_INT).map(Some).ok_or(Fault::Past)
}

/// A comparison of two values as numbers (`how`: see `How`); a plain `==` holds between two
/// missing values, as Python's `None == None`.
fn compare(op: Cmp, how: How, a: Option<i64>, b: Option<i64>) -> bool {
    let order = |f: fn(i64, i64) -> bool| match (a, b) {
        (Some(x), Some(y)) => f(x, y),
        _ => false,
    };
    let eq = || match (how, a, b) {
        (How::Plain, None, None) => true,
        (How::Card, Some(x), Some(y)) => x == y && x & 1 == 1,
        (How::Depot, Some(x), Some(y)) => x == y && x >= 0,
        (_, Some(x), Some(y)) => x == y,
        _ => false,
    };
    match op {
        Cmp::Eq => eq(),
        Cmp::Ne => !eq(),
        Cmp::Lt => order(|x, y| x < y),
        Cmp::Le => order(|x, y| x <= y),
        Cmp::Gt => order(|x, y| x > y),
        Cmp::Ge => order(|x, y| x >= y),
    }
}

/// `&&` stops at the first false operand, `||` (`stop` true) at the first true.
fn logic<'a>(xs: &'a [Node], stop: bool, cx: &mut Cx<'a, '_>) -> R<bool> {
    for x in xs {
        if truth(x, cx)? == stop {
            return Ok(stop);
        }
    }
    Ok(!stop)
}

/// Runs the per-item argument `each` of a primitive on every item, worked out by `get`
/// (`truth` or `num`), until `f`, given the item and its result, says stop.
fn per_item<'a, T>(items: &[i32], each: &'a Node, cx: &mut Cx<'a, '_>,
                   get: fn(&'a Node, &mut Cx<'a, '_>) -> R<T>, mut f: impl FnMut(i32, T) -> R<bool>) -> R<()> {
    let (slot, body) = match each {
        Node::Each(slot, body) => (*slot, &**body),
        other => (usize::MAX, other), // not reached: the parser puts an each node there
    };
    for &item in items {
        if slot != usize::MAX {
            cx.vars[slot] = Val::Int(i64::from(item));
        }
        if !f(item, get(body, cx)?)? {
            break;
        }
    }
    Ok(())
}

/// Every card of the list `n`, in order, to `f` (which may stop it with a fault); the cards of several depots (`cardsOf`) read
/// off their piles without being gathered first.
fn for_cards<'a>(n: &'a Node, cx: &mut Cx<'a, '_>, mut f: impl FnMut(i32) -> R<()>) -> R<()> {
    if let Node::CardsOf(ds) = n {
        for &d in seq(ds, cx)?.iter() {
            cx.pile(i64::from(d)).iter().try_for_each(|&c| f(c))?;
        }
        return Ok(());
    }
    seq(n, cx)?.iter().try_for_each(|&c| f(c))
}

/// A sum of item numbers, refused when it leaves 64 bits (Python's would not stop, but no rule
/// of a bundled game comes near).
fn add(acc: i64, v: i64) -> R<i64> {
    acc.checked_add(v).ok_or(Fault::Past)
}

fn call<'a>(p: Prim, args: &'a [Node], cx: &mut Cx<'a, '_>) -> R<Val<'a>> {
    let t = cx.t;
    Ok(match p {
        Prim::CountEach | Prim::AllEach | Prim::AnyEach | Prim::MinEach | Prim::MaxEach | Prim::SumEach
        | Prim::FirstCard | Prim::FirstDepot => call_each(p, args, cx)?,
        Prim::CountCards => Val::Int(match &args[0] {
            // count(Foundation): the piles' sizes, without gathering their cards
            Node::CardsOf(ds) => seq(ds, cx)?.iter().map(|&d| cx.pile(i64::from(d)).len() as i64).sum(),
            // count(faceDown(…)): counted, not gathered
            Node::Call(f @ (Prim::FaceUpCards | Prim::FaceDownCards), xs) => {
                let up = *f == Prim::FaceUpCards;
                let mut n = 0;
                for_cards(&xs[0], cx, |c| {
                    n += i64::from((c & 1 == 1) == up);
                    Ok(())
                })?;
                n
            }
            a => seq(a, cx)?.len() as i64,
        }),
        Prim::MinTwo | Prim::MaxTwo => {
            let a = num(&args[0], cx)?.unwrap_or(0);
            let b = num(&args[1], cx)?.unwrap_or(0);
            Val::Int(if p == Prim::MinTwo { a.min(b) } else { a.max(b) })
        }
        Prim::NoCards => Val::Bool(seq(&args[0], cx)?.is_empty()),
        Prim::NoCard => Val::Bool(matches!(eval(&args[0], cx)?, Val::Null)),
        Prim::SumValues => {
            let value = |c: &i32| t.face(i64::from(*c)).map_or(0, |f| f.value);
            let mut sum = 0;
            for_cards(&args[0], cx, |c| {
                sum = add(sum, value(&c))?;
                Ok(())
            })?;
            Val::Int(sum)
        }
        Prim::CardValue => Val::Int(num(&args[0], cx)?.and_then(|c| t.face(c)).map_or(0, |f| f.value)),
        Prim::TopCard => code(seq(&args[0], cx)?.last().copied()),
        Prim::BottomCard => code(seq(&args[0], cx)?.first().copied()),
        Prim::RunBase => {
            let cards = seq(&args[0], cx)?;
            code(cards.iter().rev().take_while(|&&c| c & 1 == 1).last().copied())
        }
        Prim::CardsAbove => {
            let cards = seq(&args[0], cx)?;
            let at = num(&args[1], cx)?.and_then(|card| cards.iter().position(|&c| i64::from(c) == card));
            Val::List(match at {
                Some(i) => cards.tail(i + 1),
                None => Seq::Slice(&[]),
            })
        }
        Prim::FaceUpCards | Prim::FaceDownCards => {
            let up = p == Prim::FaceUpCards;
            let mut out = Vec::new();
            for_cards(&args[0], cx, |c| {
                if (c & 1 == 1) == up {
                    out.push(c);
                }
                Ok(())
            })?;
            Val::List(Seq::Owned(out))
        }
        Prim::DepotNamed => match eval(&args[0], cx)? {
            Val::Text(name) => Val::Int(*t.depot_index.get(&*name).ok_or_else(|| Fault::NoDepot(name.into()))?),
            _ => Val::Int(-1),
        },
        Prim::CopyIndex => Val::Int(depot(num(&args[0], cx)?, t).map_or(0, |d| t.copy_index[d])),
        Prim::NeighbourCopy => {
            let d = depot(num(&args[0], cx)?, t);
            let k = num(&args[1], cx)?.unwrap_or(0);
            Val::Int(d.and_then(|d| {
                let copies = &t.copies[d];
                let at = (t.copy_index[d] - 1).checked_add(k)?;
                copies.get(usize::try_from(at).ok()?).map(|&c| i64::from(c))
            }).unwrap_or(-1))
        }
        Prim::GridAdjacent => {
            let a = num(&args[0], cx)?.unwrap_or(-1);
            let b = num(&args[1], cx)?.unwrap_or(-1);
            let near = match (depot(Some(a), t), depot(Some(b), t)) {
                (Some(x), Some(y)) if x != y => match (t.grid[x], t.grid[y]) {
                    (Some(p), Some(q)) => (p.0 - q.0).abs() <= 1.0 && (p.1 - q.1).abs() <= 1.0,
                    _ => false,
                },
                _ => false,
            };
            Val::Bool(near)
        }
        Prim::CoveredBy => Val::List(match depot(num(&args[0], cx)?, t) {
            Some(d) => Seq::Slice(&t.covered_by[d]),
            None => Seq::Slice(&[]),
        }),
        Prim::CameFrom => Val::Int(match num(&args[0], cx)? {
            Some(d) if d >= 0 => cx.s.came_from.get(d as usize).map_or(-1, |&f| i64::from(f)),
            _ => -1,
        }),
    })
}

/// The primitives whose second argument is worked out per item of the first.
#[inline(never)]
fn call_each<'a>(p: Prim, args: &'a [Node], cx: &mut Cx<'a, '_>) -> R<Val<'a>> {
    each_over(p, &seq(&args[0], cx)?, &args[1], cx)
}

/// `call_each` over the items `items`.
fn each_over<'a>(p: Prim, items: &[i32], each: &'a Node, cx: &mut Cx<'a, '_>) -> R<Val<'a>> {
    Ok(match p {
        Prim::CountEach => {
            let mut n = 0;
            per_item(items, each, cx, truth, |_, v| {
                n += i64::from(v);
                Ok(true)
            })?;
            Val::Int(n)
        }
        Prim::AllEach | Prim::AnyEach => {
            let want = p == Prim::AnyEach;
            let mut found = false;
            per_item(items, each, cx, truth, |_, v| {
                found = v == want;
                Ok(!found)
            })?;
            Val::Bool(found == want)
        }
        Prim::MinEach | Prim::MaxEach | Prim::SumEach => {
            let mut acc: Option<i64> = None;
            let mut fault = None;
            per_item(items, each, cx, num, |_, v| {
                let v = v.unwrap_or(0);
                acc = Some(match (acc, p) {
                    (None, _) => v,
                    (Some(a), Prim::MinEach) => a.min(v),
                    (Some(a), Prim::MaxEach) => a.max(v),
                    (Some(a), _) => match add(a, v) {
                        Ok(s) => s,
                        Err(f) => {
                            fault = Some(f);
                            return Ok(false);
                        }
                    },
                });
                Ok(true)
            })?;
            if let Some(f) = fault {
                return Err(f);
            }
            Val::Int(acc.unwrap_or(0))
        }
        Prim::FirstCard | Prim::FirstDepot => {
            let mut found = None;
            per_item(items, each, cx, truth, |item, v| {
                if v {
                    found = Some(item);
                }
                Ok(found.is_none())
            })?;
            match (found, p) {
                (Some(x), _) => Val::Int(i64::from(x)),
                (None, Prim::FirstCard) => Val::Null,
                (None, _) => Val::Int(-1),
            }
        }
        _ => unreachable!("{p:?} goes through no list"),
    })
}

/// A depot value as an index into the tables, None for no depot (or one past them).
fn depot(d: Option<i64>, t: &Tables) -> Option<usize> {
    d.and_then(|d| usize::try_from(d).ok()).filter(|&d| d < t.n_depots())
}
