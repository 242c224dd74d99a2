//! A program's JSON form (`Program.to_json()`, docs/expressions.md "Programs") parsed once
//! into a `Node` tree: operations, bindings, counters and primitives as enum variants, constants
//! as values, so evaluating never compares a string.

use serde_json::Value;

use super::tables::Tables;
use super::MAX_EXPR_INT;

/// A constant of a program.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Const {
    Null,
    Bool(bool),
    Int(i64),
    Text(String),
    List(Vec<i32>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Binding {
    Card,
    Top,
    Pile,
    Depot,
    Source,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Counter {
    Moves,
    Undos,
    RecyclesTotal,
    Redeals,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Prop {
    FaceUp,
    Rank,
    Suit,
    Colour,
    Value,
    Joker,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Arith {
    Add,
    Sub,
    Mul,
    Rem,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// How a comparison treats its sides (`cmp` node): `Plain` nothing missing, `Maybe` a missing
/// side is false (`!=` true), `Card` the same face-up card, `Depot` the same depot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum How {
    Plain,
    Maybe,
    Card,
    Depot,
}

/// The native primitives (docs/expressions.md "Native primitives"): what a function overload
/// means, whatever the function is called.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Prim {
    CountCards,
    CountEach,
    AllEach,
    AnyEach,
    MinTwo,
    MinEach,
    MaxTwo,
    MaxEach,
    NoCards,
    NoCard,
    SumValues,
    SumEach,
    CardValue,
    TopCard,
    BottomCard,
    RunBase,
    CardsAbove,
    FaceUpCards,
    FaceDownCards,
    DepotNamed,
    FirstCard,
    FirstDepot,
    CopyIndex,
    NeighbourCopy,
    GridAdjacent,
    CoveredBy,
    CameFrom,
}

/// A primitive's arguments: how many, and whether the second is worked out per item.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Params {
    One,
    Two,
    ItemsEach,
}

impl Prim {
    /// The primitive a plan names (`Signature.native`).
    pub fn named(name: &str) -> Option<Prim> {
        use Prim::*;
        Some(match name {
            "count_cards" => CountCards,
            "count_each" => CountEach,
            "all_each" => AllEach,
            "any_each" => AnyEach,
            "min_two" => MinTwo,
            "min_each" => MinEach,
            "max_two" => MaxTwo,
            "max_each" => MaxEach,
            "no_cards" => NoCards,
            "no_card" => NoCard,
            "sum_values" => SumValues,
            "sum_each" => SumEach,
            "card_value" => CardValue,
            "top_card" => TopCard,
            "bottom_card" => BottomCard,
            "run_base" => RunBase,
            "cards_above" => CardsAbove,
            "face_up_cards" => FaceUpCards,
            "face_down_cards" => FaceDownCards,
            "depot_named" => DepotNamed,
            "first_card" => FirstCard,
            "first_depot" => FirstDepot,
            "copy_index" => CopyIndex,
            "neighbour_copy" => NeighbourCopy,
            "grid_adjacent" => GridAdjacent,
            "covered_by" => CoveredBy,
            "came_from" => CameFrom,
            _ => return None,
        })
    }

    fn params(self) -> Params {
        use Prim::*;
        match self {
            CountEach | AllEach | AnyEach | MinEach | MaxEach | SumEach | FirstCard | FirstDepot => Params::ItemsEach,
            MinTwo | MaxTwo | CardsAbove | NeighbourCopy | GridAdjacent => Params::Two,
            _ => Params::One,
        }
    }
}

/// What `Node::Pile` reads of one depot's cards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum PileRead {
    Top,
    Bottom,
    Empty,
    Count,
}

/// A program node (docs/expressions.md, the table of nodes).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Node {
    Const(Const),
    Bind(Binding),
    Counter(Counter),
    Var(usize),
    /// the cards on a depot known when the game loads
    CardsAt(usize),
    Cards(Box<Node>),
    CardsOf(Box<Node>),
    Depots(Box<Node>),
    Zero(Box<Node>),
    Prop(Prop, Box<Node>),
    Not(Box<Node>),
    Neg(Box<Node>),
    Arith(Box<[Arith]>, Box<[Node]>),
    Cmp(Cmp, How, Box<Node>, Box<Node>),
    And(Box<[Node]>),
    Or(Box<[Node]>),
    Let(usize, Box<Node>, Box<Node>),
    Call(Prim, Box<[Node]>),
    /// a function overload with no primitive, called back in Python
    Host(Box<HostCall>),
    /// only as a primitive's per-item argument: the item goes in the slot, then the body runs
    Each(usize, Box<Node>),
    /// `top`, `bottom`, `empty` or `count` of one depot's cards (the depot node), read off the
    /// pile: the commonest calls of all
    Pile(PileRead, Box<Node>),
    /// the same of the `pile` binding
    BoundPile(PileRead),
    /// a per-item primitive's call over a constant list, with the items its body may change
    /// the result on kept per outer value (`loops.rs`); the arguments are the call's
    Sieved(Prim, Box<Sieve>, Box<[Node]>),
    /// `any(i in items, i == x)` with `x` worked out once, when there are items (`loops.rs`):
    /// the items, then `x`
    In(How, Box<Node>, Box<Node>),
}

/// What a sieve's item lists are kept by: nothing (one list), the `depot` binding, or a slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Key {
    None,
    Depot,
    Slot(usize),
}

/// A loop's items left per outer value: `lists[0]` for `Key::None`, else `lists[v + 1]` for
/// the value `v` in -1..n_depots (any other value runs over every item).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Sieve {
    pub key: Key,
    pub lists: Vec<Vec<i32>>,
}

/// A call of a function overload with no primitive, called back in Python: its call-back's
/// index, its arguments (a per-item one an `Each` node) and its program's pointer, where an
/// error of a per-item argument is raised.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct HostCall {
    pub index: usize,
    pub args: Box<[Node]>,
    pub ptr: Box<str>,
}

type Parsed<T> = Result<T, String>;

/// The root node and slot count of a program's JSON form.
pub(super) fn program(json: Option<&Value>, t: &Tables, ptr: &str) -> Parsed<(Node, usize)> {
    let json = json.ok_or("it has no program")?;
    if json.get("format").and_then(Value::as_i64) != Some(1) {
        return Err("its program is not of format 1".into());
    }
    let slots = json.get("slots").and_then(Value::as_u64).ok_or("its program has no slot count")?;
    let slots = usize::try_from(slots).map_err(|_| "its program has too many slots")?;
    let root = json.get("root").ok_or("its program has no root")?;
    let node = Parser { t, slots, ptr }.node(root)?;
    Ok((node, slots))
}

struct Parser<'t> {
    t: &'t Tables,
    slots: usize,
    ptr: &'t str,
}

fn text(v: Option<&Value>) -> Parsed<&str> {
    v.and_then(Value::as_str).ok_or_else(|| "a node lacks a name".to_string())
}

impl Parser<'_> {
    fn node(&self, v: &Value) -> Parsed<Node> {
        let items = v.as_array().ok_or("a node is not a list")?;
        let op = text(items.first())?;
        let arg = |i: usize| items.get(i).ok_or_else(|| format!("a {op} node is too short"));
        let sub = |i: usize| -> Parsed<Box<Node>> { Ok(Box::new(self.node(arg(i)?)?)) };
        Ok(match op {
            "const" => Node::Const(constant(arg(1)?)?),
            "bind" => Node::Bind(match text(items.get(1))? {
                "card" => Binding::Card,
                "top" => Binding::Top,
                "pile" => Binding::Pile,
                "depot" => Binding::Depot,
                "source" => Binding::Source,
                other => return Err(format!("it reads the binding {other}")),
            }),
            "counter" => Node::Counter(match text(items.get(1))? {
                "moves" => Counter::Moves,
                "undos" => Counter::Undos,
                "recycles_total" => Counter::RecyclesTotal,
                "redeals" => Counter::Redeals,
                other => return Err(format!("it reads the counter {other}")),
            }),
            "var" => Node::Var(self.slot(arg(1)?)?),
            "cards" => match self.node(arg(1)?)? {
                Node::Const(Const::Int(d)) if d < 0 => Node::Const(Const::List(Vec::new())),
                Node::Const(Const::Int(d)) if (d as u64) < self.t.n_depots() as u64 => Node::CardsAt(d as usize),
                Node::Const(_) => return Err("it reads the cards of no depot of the game".into()),
                d => Node::Cards(Box::new(d)),
            },
            "cardsOf" => Node::CardsOf(sub(1)?),
            "depots" => Node::Depots(sub(1)?),
            "zero" => Node::Zero(sub(1)?),
            "prop" => Node::Prop(match text(items.get(1))? {
                "faceUp" => Prop::FaceUp,
                "rank" => Prop::Rank,
                "suit" => Prop::Suit,
                "colour" => Prop::Colour,
                "value" => Prop::Value,
                "joker" => Prop::Joker,
                other => return Err(format!("it reads the card property {other}")),
            }, sub(2)?),
            "not" => Node::Not(sub(1)?),
            "neg" => Node::Neg(sub(1)?),
            "arith" => {
                let ops = arg(1)?.as_array().ok_or("an arith node has no operators")?.iter()
                    .map(|o| match o.as_str() {
                        Some("+") => Ok(Arith::Add),
                        Some("-") => Ok(Arith::Sub),
                        Some("*") => Ok(Arith::Mul),
                        Some("%") => Ok(Arith::Rem),
                        _ => Err(format!("it uses the operator {o}")),
                    }).collect::<Parsed<Box<[Arith]>>>()?;
                let xs = self.nodes(arg(2)?)?;
                if xs.len() != ops.len() + 1 {
                    return Err("an arith node's operators do not fit its operands".into());
                }
                Node::Arith(ops, xs)
            }
            "cmp" => {
                let cmp = match text(items.get(1))? {
                    "==" => Cmp::Eq,
                    "!=" => Cmp::Ne,
                    "<" => Cmp::Lt,
                    "<=" => Cmp::Le,
                    ">" => Cmp::Gt,
                    ">=" => Cmp::Ge,
                    other => return Err(format!("it compares with {other}")),
                };
                let how = match text(items.get(2))? {
                    "plain" => How::Plain,
                    "maybe" => How::Maybe,
                    "card" => How::Card,
                    "depot" => How::Depot,
                    other => return Err(format!("it compares {other} values")),
                };
                Node::Cmp(cmp, how, sub(3)?, sub(4)?)
            }
            "and" => Node::And(self.nodes(arg(1)?)?),
            "or" => Node::Or(self.nodes(arg(1)?)?),
            "let" => Node::Let(self.slot(arg(1)?)?, sub(2)?, sub(3)?),
            "call" => self.call(text(items.get(1))?, arg(2)?, arg(3)?)?,
            "each" => return Err("an each node stands outside a call".into()),
            other => return Err(format!("it has the unknown operation {other}")),
        })
    }

    fn nodes(&self, v: &Value) -> Parsed<Box<[Node]>> {
        let items = v.as_array().ok_or("a list of nodes is not a list")?;
        if items.is_empty() {
            return Err("a node has no operands".into());
        }
        items.iter().map(|n| self.node(n)).collect()
    }

    fn slot(&self, v: &Value) -> Parsed<usize> {
        match v.as_u64() {
            Some(s) if (s as u128) < self.slots as u128 => Ok(s as usize),
            _ => Err("it uses a slot past its slot count".into()),
        }
    }

    fn call(&self, name: &str, overload: &Value, args: &Value) -> Parsed<Node> {
        let overloads = self.t.functions.get(name)
            .ok_or_else(|| format!("it calls the function {name}, which the plan does not list"))?;
        let index = overload.as_u64().and_then(|i| usize::try_from(i).ok());
        let prim = index.and_then(|i| overloads.get(i))
            .ok_or_else(|| format!("it calls an overload of {name} the plan does not list"))?
            .as_ref();
        let args = args.as_array().ok_or("a call's arguments are not a list")?;
        let prim = match prim {
            Ok(prim) => prim,
            Err(why) => {
                let back = self.t.callbacks.get(name).and_then(|ids| ids.get(index?).copied().flatten());
                let Some(back) = back else { return Err(format!("it calls {name}, whose overload {overload} {why}")) };
                let args = args.iter().map(|a| match each_node(a) {
                    Some(n) => self.each(n),
                    None => self.node(a),
                }).collect::<Parsed<_>>()?;
                return Ok(Node::Host(Box::new(HostCall { index: back, args, ptr: self.ptr.into() })));
            }
        };
        let mut out = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let each = each_node(a);
            let per_item = prim.params() == Params::ItemsEach && i == 1;
            if each.is_some() != per_item {
                return Err(format!("its call of {name} does not fit the native primitive {prim:?}"));
            }
            out.push(match each {
                Some(n) => self.each(n)?,
                None => self.node(a)?,
            });
        }
        let want = match prim.params() {
            Params::One => 1,
            Params::Two | Params::ItemsEach => 2,
        };
        if out.len() != want {
            return Err(format!("its call of {name} does not fit the native primitive {prim:?}"));
        }
        let read = match prim {
            Prim::TopCard => PileRead::Top,
            Prim::BottomCard => PileRead::Bottom,
            Prim::NoCards => PileRead::Empty,
            Prim::CountCards => PileRead::Count,
            _ => return Ok(Node::Call(*prim, out.into_boxed_slice())),
        };
        Ok(match out.pop() {
            Some(Node::CardsAt(d)) => Node::Pile(read, Box::new(Node::Const(Const::Int(d as i64)))),
            Some(Node::Cards(d)) => Node::Pile(read, d),
            Some(Node::Bind(Binding::Pile)) => Node::BoundPile(read),
            Some(other) => Node::Call(*prim, Box::new([other])),
            None => unreachable!("a one-argument call has its argument"),
        })
    }
}

/// The items of an `each` node (a per-item argument), None for any other node.
fn each_node(v: &Value) -> Option<&[Value]> {
    let items = v.as_array()?;
    (items.first().and_then(Value::as_str) == Some("each")).then_some(items.as_slice())
}

impl Parser<'_> {
    /// A per-item argument: its slot and body.
    fn each(&self, n: &[Value]) -> Parsed<Node> {
        let slot = self.slot(n.get(1).ok_or("an each node is too short")?)?;
        Ok(Node::Each(slot, Box::new(self.node(n.get(2).ok_or("an each node is too short")?)?)))
    }
}

impl Node {
    /// The Python call-backs the tree calls, added to `out`.
    pub(super) fn calls_back(&self, out: &mut Vec<usize>) {
        if let Node::Host(h) = self {
            out.push(h.index);
        }
        super::fold::kids(self).into_iter().for_each(|x| x.calls_back(out));
    }
}

fn constant(v: &Value) -> Parsed<Const> {
    let past = || format!("it holds a constant past {MAX_EXPR_INT} either way");
    Ok(match v {
        Value::Null => Const::Null,
        Value::Bool(b) => Const::Bool(*b),
        Value::Number(n) => {
            let n = n.as_i64().ok_or_else(past)?;
            if n.abs() > MAX_EXPR_INT {
                return Err(past());
            }
            Const::Int(n)
        }
        Value::String(s) => Const::Text(s.clone()),
        Value::Array(items) => Const::List(items.iter().map(|i| match i.as_i64() {
            Some(i) if i32::try_from(i).is_ok() => Ok(i as i32),
            _ => Err("it holds a list constant of other than cards or depots".to_string()),
        }).collect::<Parsed<_>>()?),
        Value::Object(_) => return Err("it holds an object constant".into()),
    })
}
