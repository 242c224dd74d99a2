//! Rule expressions, run natively from their compiled form (`cardz_core/expr/program.py`,
//! docs/expressions.md "Programs"). The rest of the engine sees only this interface: a game's
//! `Exprs` holds every program it loaded (`add`, at load time, from a compiled `ExprRef`), and
//! runs one by its `ExprId` on a position with the bindings of its context (`Scope`).
//!
//! A program is parsed once into a tree of `Node`s (`parse`): bindings, counters and function
//! calls resolved to enum variants, constants pre-parsed, so nothing is looked up by name while
//! it runs. `eval` walks the tree exactly as the Python engine's closures
//! (`cardz_core/expr/closure.py`) compute, missing values and the number limit included.
//! Functions run through the native primitive each overload names (`Signature.native`); a
//! call of an overload that names none is refused at `add`, so the game stays on the Python
//! engine, saying why, unless the plan lists a Python call-back for it (`callbacks`): then
//! the call is made through the game's `Host`, correct and slower.

mod arith;
mod eval;
mod fold;
mod host;
mod loops;
mod parse;
mod reads;
mod tables;

use std::sync::Arc;

use serde_json::Value;

use crate::engine::{Code, State, Unsupported};

pub use eval::{Seq, Val};
pub use fold::{Decider, Known};
pub use reads::Footprint;
use eval::{Cx, Fault};
use parse::Node;
use tables::Tables;

/// A loaded program: its index in its game's `Exprs`.
pub type ExprId = usize;

/// `MAX_EXPR_INT` (`cardz_core/limits.py`): no number an expression computes is past it either way.
pub const MAX_EXPR_INT: i64 = (1 << 53) - 1;

/// The bindings of an expression's context (`cardz_core.expr.env.Env`): `card` and `top` card
/// codes or None, `pile` the cards in question, `depot` and `source` depot indices or -1.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scope<'a> {
    pub card: Option<Code>,
    pub top: Option<Code>,
    pub pile: &'a [Code],
    pub depot: i32,
    pub source: i32,
}

/// An expression's refusal at run time, as the Python engine's `CardzError`: the same message
/// and the expression's JSON pointer in the game file. `no_depot`: the refusal is of a depot
/// name no depot has (a call-back's text), which the Python engine's `depot` raises as its
/// `FunctionError`, naming no pointer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExprError {
    pub message: String,
    pub ptr: String,
    pub no_depot: Option<String>,
}

/// What runs a game's Python call-backs (`python.rs`): `call`, the function call-back `index`
/// on the position `s` with the call's arguments (a per-item argument worked out through
/// `items`): its result (owning what it holds); `step`, the step call-back `index` on the board
/// `s` for the depot `me`: the board after it; either way the message of why not.
pub trait Host: Send + Sync {
    fn call(&self, index: usize, s: &State, args: &[Arg<'_>], items: &mut dyn Items) -> Result<Val<'static>, String>;
    fn step(&self, index: usize, s: &State, me: i32) -> Result<Stepped, String>;
}

/// One argument of a call-back: a value, or the call's `k`-th per-item argument (an `Each`
/// parameter), which the Python implementation calls per item.
#[derive(Debug)]
pub enum Arg<'a> {
    Val(Val<'a>),
    Each(usize),
}

/// The per-item arguments of one call-back call, valid while the call runs: `item(k, item)`
/// works out the `k`-th for `item` as the Python engine's closure `f(item)` does (the item in
/// its slot, the rest of the call's bindings as they were), giving its value or the error the
/// expression raised at its pointer.
pub trait Items {
    fn item(&mut self, k: usize, item: Val<'static>) -> Result<Val<'static>, ExprError>;
}

/// A step run in Python: the board after it, the depots that lost cards, the cards it turned up.
pub struct Stepped {
    pub state: State,
    pub left: Vec<usize>,
    pub flips: u32,
}

/// One loaded program.
#[derive(Debug)]
struct Program {
    root: Node,
    slots: usize,
    ptr: String,
    footprint: Option<Footprint>, // what it reads of the position (`reads.rs`)
}

/// Every program of one game, and what they read of it.
#[derive(Debug, Default)]
pub struct Exprs {
    tables: Option<Tables>,
    programs: Vec<Program>,
}

/// How many `let` and item slots a program keeps on the stack; more take a heap vector.
const STACK_SLOTS: usize = 8;

impl Exprs {
    /// The expression tables of a game (`plan["expr"]`, written by `cardz_core/native_expr.py`).
    /// A plan without them (null) loads, but then refuses every program at `add`.
    pub fn from_json(plan: &Value) -> Result<Exprs, Unsupported> {
        let tables = if plan.is_null() { None } else { Some(Tables::from_json(plan)?) };
        Ok(Exprs { tables, programs: Vec::new() })
    }

    /// What runs the plan's call-backs from now on.
    pub fn set_host(&mut self, host: Arc<dyn Host>) {
        if let Some(t) = self.tables.as_mut() {
            t.host = Some(host);
        }
    }

    /// The step call-back `index` run on `s` (a step of depot `me`), with the error it raised
    /// as an `ExprError` (the step's pointer is the Python error's own).
    pub fn run_step(&self, index: usize, s: &State, me: i32) -> Result<Stepped, ExprError> {
        let host = self.tables.as_ref().and_then(|t| t.host.as_ref())
            .ok_or_else(|| ExprError { message: "no Python call-back is attached".into(), ..ExprError::default() })?;
        host.step(index, s, me).map_err(|message| ExprError { message, ..ExprError::default() })
    }

    /// The Python call-backs the loaded programs call, each once, in order.
    pub fn calls_back(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.programs.iter().for_each(|p| p.root.calls_back(&mut out));
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Load one compiled `ExprRef` (its JSON form in `CompiledGame.to_json()`).
    pub fn add(&mut self, expr_ref: &Value) -> Result<ExprId, Unsupported> {
        self.add_at(expr_ref, None)
    }

    /// `add` of a program that runs only with `depot` bound to this depot (an accept rule's
    /// `when`, a trigger's, an action's): what it reads of the depot alone is worked out now.
    pub fn add_for(&mut self, expr_ref: &Value, depot: usize) -> Result<ExprId, Unsupported> {
        self.add_at(expr_ref, Some(depot as i32))
    }

    fn add_at(&mut self, expr_ref: &Value, depot: Option<i32>) -> Result<ExprId, Unsupported> {
        let ptr = expr_ref.get("ptr").and_then(Value::as_str).unwrap_or("").to_string();
        let Some(tables) = &self.tables else {
            return Err(Unsupported(format!(
                "the expression at {ptr} can't run natively: the plan has no expression tables")));
        };
        let program = expr_ref.get("program").and_then(|p| p.get("program"));
        let (mut root, slots) = parse::program(program, tables, &ptr).map_err(|why| {
            Unsupported(format!("the expression at {ptr} can't run natively: {why}"))
        })?;
        if let Some(d) = depot {
            fold::specialise(&mut root, tables, d);
        }
        let footprint = reads::footprint(&root, depot, slots);
        loops::rewrite(&mut root, tables, slots);
        self.programs.push(Program { root, slots, ptr, footprint });
        Ok(self.programs.len() - 1)
    }

    /// The program's value, as the Python engine's closure gives it (`Val::List` for a tuple).
    pub fn value<'a>(&'a self, id: ExprId, s: &'a State, scope: &Scope<'a>) -> Result<Val<'a>, ExprError> {
        self.run(id, s, scope, eval::eval)
    }

    /// The program's value read as a condition (Python's `bool(value)`).
    pub fn test(&self, id: ExprId, s: &State, scope: &Scope) -> Result<bool, ExprError> {
        self.run(id, s, scope, eval::truth)
    }

    /// The program's value as a number (a `number` kind, or `count`/`numexpr` fields): missing
    /// counts as 0, as the Python engine's `int(value or 0)`.
    pub fn number(&self, id: ExprId, s: &State, scope: &Scope) -> Result<i64, ExprError> {
        Ok(self.run(id, s, scope, eval::num)?.unwrap_or(0))
    }

    /// Program `id` worked out by `get` (`eval`, `truth` or `num`), its slots on the stack
    /// when they are few.
    fn run<'a, T>(&'a self, id: ExprId, s: &'a State, scope: &Scope<'a>,
                  get: for<'v> fn(&'a Node, &mut Cx<'a, 'v>) -> Result<T, Fault>) -> Result<T, ExprError> {
        let (Some(t), Some(p)) = (&self.tables, self.programs.get(id)) else {
            return Err(self.never(id));
        };
        let fail = |fault: Fault| fault.at(&p.ptr);
        if p.slots == 0 {
            return get(&p.root, &mut Cx { t, s, scope: *scope, vars: &mut [] }).map_err(fail);
        }
        let mut stack: [Val<'a>; STACK_SLOTS] = Default::default();
        let mut heap: Vec<Val<'a>>;
        let vars: &mut [Val<'a>] = if p.slots <= STACK_SLOTS {
            &mut stack[..p.slots]
        } else {
            heap = vec![Val::Null; p.slots];
            &mut heap
        };
        get(&p.root, &mut Cx { t, s, scope: *scope, vars }).map_err(fail)
    }

    /// What program `id` reads of the position, when its tree names it (`reads.rs`).
    pub fn footprint(&self, id: ExprId) -> Option<&Footprint> {
        self.programs.get(id)?.footprint.as_ref()
    }

    /// Program `id` read as a condition before the board is known, with the `known` bindings
    /// (`fold.rs`); None when no such binding can decide it.
    pub fn decider(&self, id: ExprId, known: Known) -> Option<Decider<'_>> {
        Decider::new(&self.programs.get(id)?.root, self.tables.as_ref()?, known)
    }

    /// The program's value as a depot index (-1 none), for a step's `depot` field.
    pub fn depot(&self, id: ExprId, s: &State, scope: &Scope) -> Result<i32, ExprError> {
        Ok(self.value(id, s, scope)?.int().map_or(-1, |d| d as i32))
    }

    /// The program's value as depot indices, for a step's `depots` field (no depot left out).
    pub fn depots(&self, id: ExprId, s: &State, scope: &Scope) -> Result<Vec<usize>, ExprError> {
        Ok(match self.value(id, s, scope)? {
            Val::List(ds) => ds.iter().filter(|&&d| d >= 0).map(|&d| d as usize).collect(),
            Val::Int(d) if d >= 0 => vec![d as usize],
            _ => Vec::new(),
        })
    }

    fn never(&self, id: ExprId) -> ExprError {
        ExprError { message: format!("no expression {id} was loaded"), ..ExprError::default() }
    }
}

impl Fault {
    /// The Python engine's refusal, of the expression at `ptr`.
    fn at(self, ptr: &str) -> ExprError {
        let (message, no_depot) = match self {
            Fault::Past => (format!("this expression works out to a number past {MAX_EXPR_INT} either way, \
                                     the most an expression may compute"), None),
            Fault::NoDepot(name) => (format!("no depot is named '{name}'"), Some(name)),
            Fault::Host(why) => (why, None),
        };
        ExprError { message, ptr: ptr.to_string(), no_depot }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;

    /// Two cards (Ace of Clubs, a joker valued 50), three depots: `row-1`, `row-2` (copies on
    /// the grid, `row-2` uncovered by `row-1`) and `pile`.
    fn exprs() -> Exprs {
        Exprs::from_json(&json!({
            "cards": [[1, 0, 0, 1, false], [null, null, null, 50, true]],
            "depot_index": {"row-1": 0, "row-2": 1, "pile": 2},
            "groups": {"row": [0, 1]}, "types": {},
            "group_of": ["row", "row", null], "copy_index": [1, 2, 0],
            "covered_by": [[], [0], []], "grid": [[0.0, 0.0], [1.0, 1.0], null],
            "functions": {"f": ["count_cards", "count_each", null], "g": ["top_card"],
                          "h": ["neighbour_copy"], "k": ["grid_adjacent"], "m": ["sum_values"],
                          "n": ["cards_above"], "p": ["run_base"], "q": ["first_depot"],
                          "a": ["any_each", "all_each"], "i": ["copy_index"], "c": ["came_from"]}
        })).expect("tables")
    }

    fn load(e: &mut Exprs, root: Value, slots: usize) -> Result<ExprId, Unsupported> {
        e.add(&json!({"$": "ExprRef", "text": "", "context": "eval", "self_depot": -1, "ptr": "/x",
                      "program": {"$": "Program", "program": {"format": 1, "kind": "number",
                                                              "slots": slots, "reads": [], "root": root}}}))
    }

    fn state(piles: &[&[Code]]) -> State {
        State { piles: piles.iter().map(|p| p.to_vec()).collect(), came_from: vec![-1, 2, -1], moves: 7,
                ..State::default() }
    }

    fn run(root: Value, s: &State, scope: &Scope) -> Result<String, ExprError> {
        let mut e = exprs();
        let id = load(&mut e, root, 2).expect("loads");
        e.value(id, s, scope).map(|v| format!("{v:?}"))
    }

    #[test]
    fn face_down_and_missing_cards_read_as_missing() {
        let s = state(&[&[], &[], &[]]);
        for (card, rank, value, joker) in [(Some(1), "Int(1)", "Int(1)", "Bool(false)"),
                                           (Some(0), "Null", "Int(0)", "Bool(false)"),
                                           (None, "Null", "Int(0)", "Bool(false)"),
                                           (Some(3), "Null", "Int(50)", "Bool(true)")] {
            let scope = Scope { card, ..Scope::default() };
            assert_eq!(run(json!(["prop", "rank", ["bind", "card"]]), &s, &scope).unwrap(), rank);
            assert_eq!(run(json!(["prop", "value", ["bind", "card"]]), &s, &scope).unwrap(), value);
            assert_eq!(run(json!(["prop", "joker", ["bind", "card"]]), &s, &scope).unwrap(), joker);
        }
    }

    #[test]
    fn missing_values_compare_false_but_unequal_and_absorb_arithmetic() {
        let s = state(&[&[], &[], &[]]);
        let scope = Scope::default(); // no card: a missing rank
        let rank = json!(["prop", "rank", ["bind", "card"]]);
        let cmp = |op: &str| run(json!(["cmp", op, "maybe", rank, ["const", 1]]), &s, &scope).unwrap();
        assert_eq!([cmp("=="), cmp("!="), cmp("<"), cmp(">=")],
                   ["Bool(false)", "Bool(true)", "Bool(false)", "Bool(false)"]);
        assert_eq!(run(json!(["arith", ["+"], [rank, ["const", 1]], true]), &s, &scope).unwrap(), "Null");
        assert_eq!(run(json!(["zero", ["neg", rank, true]]), &s, &scope).unwrap(), "Int(0)");
    }

    #[test]
    fn cards_equal_only_face_up_and_depots_only_real_ones() {
        let s = state(&[&[], &[], &[]]);
        let eq = |how: &str, a: i64, b: i64| {
            run(json!(["cmp", "==", how, ["const", a], ["const", b]]), &s, &Scope::default()).unwrap()
        };
        assert_eq!(eq("card", 1, 1), "Bool(true)");
        assert_eq!(eq("card", 0, 0), "Bool(false)");
        assert_eq!(eq("depot", -1, -1), "Bool(false)");
        assert_eq!(eq("depot", 2, 2), "Bool(true)");
    }

    #[test]
    fn primitives_read_the_piles_and_the_depot_tables() {
        let s = state(&[&[0, 1], &[2, 1, 3], &[]]);
        let scope = Scope { depot: 1, ..Scope::default() };
        let d = json!(["bind", "depot"]);
        let cards = json!(["cards", d]);
        let call = |f: &str, i: usize, args: Value| run(json!(["call", f, i, args]), &s, &scope).unwrap();
        assert_eq!(call("f", 0, json!([["cardsOf", ["const", [0, 1, 2]]]])), "Int(5)");
        assert_eq!(call("f", 1, json!([cards, ["each", 0, ["prop", "faceUp", ["var", 0]]]])), "Int(2)");
        assert_eq!(call("g", 0, json!([cards])), "Int(3)");
        assert_eq!(call("g", 0, json!([["cards", ["const", 2]]])), "Null");
        assert_eq!(call("m", 0, json!([["cardsOf", ["const", [0, 1]]]])), "Int(52)"); // face-down cards add 0
        assert_eq!(call("n", 0, json!([cards, ["const", 2]])), "List(Slice([1, 3]))");
        assert_eq!(call("p", 0, json!([cards])), "Int(1)");
        assert_eq!(call("p", 0, json!([["cards", ["const", 0]]])), "Int(1)");
        assert_eq!(call("h", 0, json!([d, ["const", -1]])), "Int(0)");
        assert_eq!(call("h", 0, json!([d, ["const", 1]])), "Int(-1)");
        assert_eq!(call("h", 0, json!([["const", 2], ["const", 1]])), "Int(-1)");
        assert_eq!(call("k", 0, json!([["const", 0], d])), "Bool(true)");
        assert_eq!(call("k", 0, json!([["const", 2], d])), "Bool(false)");
        assert_eq!(call("q", 0, json!([["const", [0, 1, 2]],
                                       ["each", 1, ["call", "f", 0, [["cards", ["var", 1]]]]]])), "Int(0)");
    }

    #[test]
    fn a_number_past_the_limit_is_refused_at_the_pointer() {
        let s = state(&[&[], &[], &[]]);
        let big = json!(["const", MAX_EXPR_INT]);
        let moves = json!(["counter", "moves"]);
        // only the result is held to the limit: big * 7 % big is 0
        assert_eq!(run(json!(["arith", ["*", "%"], [big, moves, big], false]), &s, &Scope::default()).unwrap(),
                   "Int(0)");
        let err = run(json!(["arith", ["*"], [big, moves], false]), &s, &Scope::default()).unwrap_err();
        assert_eq!(err.ptr, "/x");
        assert!(err.message.starts_with("this expression works out to a number past 9007199254740991"));
    }

    #[test]
    fn let_stores_a_value_for_the_body() {
        let s = state(&[&[], &[], &[]]);
        let root = json!(["let", 0, ["counter", "moves"], ["arith", ["*", "%"], [["var", 0], ["var", 0], ["const", -5]], false]]);
        assert_eq!(run(root, &s, &Scope::default()).unwrap(), "Int(-1)"); // 49 % -5 in Python
    }

    #[test]
    fn a_condition_of_the_depot_and_source_alone_is_decided_before_the_board() {
        let mut e = exprs();
        let near = json!(["call", "k", 0, [["bind", "depot"], ["bind", "source"]]]); // row-1, row-2 on the grid
        let ace = json!(["cmp", "==", "maybe", ["prop", "rank", ["bind", "card"]], ["const", 1]]);
        let past = json!(["cmp", "==", "plain", ["arith", ["+"], [["counter", "moves"], ["const", 1]], false], ["const", 3]]);
        let mut decided = |root: Value, depot: i32, source: i32| {
            let id = load(&mut e, root, 0).expect("loads");
            let known = Known { source: true, cards: false };
            e.decider(id, known).and_then(|d| d.decide(&Scope { depot, source, ..Scope::default() }))
        };
        assert_eq!(decided(json!(["and", [near, ace]]), 0, 2), Some(false)); // pile is on no grid
        assert_eq!(decided(json!(["and", [near, ace]]), 0, 1), None); // the card decides
        assert_eq!(decided(json!(["or", [ace, near]]), 1, 0), Some(true));
        assert_eq!(decided(json!(["not", near]), 1, 0), Some(false));
        // an operand that may fail before the deciding one is left to the board, which raises
        assert_eq!(decided(json!(["and", [past, near]]), 0, 2), None);
        assert_eq!(decided(json!(["and", [near, past]]), 0, 2), Some(false));
        assert_eq!(decided(json!(["and", [ace, near]]), 0, 2), Some(false));
    }

    #[test]
    fn a_loop_looking_for_one_value_looks_it_up_once() {
        let s = state(&[&[], &[], &[]]); // came_from: [-1, 2, -1]
        let came = json!(["call", "c", 0, [["bind", "depot"]]]);
        let mut e = exprs();
        let any = load(&mut e, json!(["call", "a", 0, [["const", [0, 1, 2]], ["each", 0, ["cmp", "==", "depot", ["var", 0], came]]]]), 1);
        let all = load(&mut e, json!(["call", "a", 1, [["const", [0, 1]], ["each", 0, ["cmp", "!=", "depot", came, ["var", 0]]]]]), 1);
        let (any, all) = (any.expect("loads"), all.expect("loads"));
        assert!(matches!(e.programs[any].root, Node::In(..)) && matches!(e.programs[all].root, Node::Not(_)));
        let at = |id, depot| format!("{:?}", e.value(id, &s, &Scope { depot, ..Scope::default() }).unwrap());
        assert_eq!([at(any, 1), at(any, 0), at(all, 1), at(all, 0)], ["Bool(true)", "Bool(false)", "Bool(true)", "Bool(true)"]);
        // the value is worked out only when there are items, and fails where the loop would
        let big = json!(["arith", ["*"], [["const", MAX_EXPR_INT], ["counter", "moves"]], false]);
        let over = |items: Value| json!(["call", "a", 0, [["const", items], ["each", 0, ["cmp", "==", "depot", ["var", 0], big]]]]);
        assert_eq!(run(over(json!([])), &s, &Scope::default()).unwrap(), "Bool(false)");
        assert!(run(over(json!([0])), &s, &Scope::default()).is_err());
    }

    #[test]
    fn a_loop_leaves_out_the_items_its_fixed_part_decides() {
        // row-1 and row-2 are copies 1 and 2: `count(d in all, index(d) > index(depot) && top(d))`
        let s = state(&[&[1], &[3], &[5]]);
        let later = json!(["cmp", ">", "plain", ["call", "i", 0, [["var", 0]]], ["call", "i", 0, [["bind", "depot"]]]]);
        let body = json!(["and", [later, ["call", "g", 0, [["cards", ["var", 0]]]]]]);
        let mut e = exprs();
        let count = load(&mut e, json!(["call", "f", 1, [["const", [0, 1, 2]], ["each", 0, body]]]), 1).expect("loads");
        let Node::Sieved(_, sieve, _) = &e.programs[count].root else { panic!("not sieved") };
        assert_eq!(sieve.lists, [vec![0, 1], vec![1], vec![], vec![0, 1]]); // depot -1, row-1, row-2, pile
        let at = |depot| format!("{:?}", e.value(count, &s, &Scope { depot, ..Scope::default() }).unwrap());
        assert_eq!([at(-1), at(0), at(1), at(2), at(7)], ["Int(2)", "Int(1)", "Int(0)", "Int(2)", "Int(2)"]);
        // `any` over an enclosing loop's item: the inner items kept per outer item
        let inner = json!(["call", "a", 0, [["const", [0, 1]], ["each", 1, ["and", [
            ["cmp", "<", "plain", ["call", "i", 0, [["var", 0]]], ["call", "i", 0, [["var", 1]]]],
            ["call", "g", 0, [["cards", ["var", 1]]]]]]]]]);
        let outer = load(&mut e, json!(["call", "f", 1, [["const", [0, 1, 2]], ["each", 0, inner]]]), 2).expect("loads");
        assert_eq!(format!("{:?}", e.value(outer, &s, &Scope::default()).unwrap()), "Int(2)"); // row-1 and pile
    }

    #[test]
    fn a_program_for_one_depot_works_out_what_it_reads_of_the_depot_once() {
        // `index(depot) == 1 && moves == 7 || index(depot) == 2 && top(neighbour(depot, -1))`
        let index_is = |k: i64| json!(["cmp", "==", "plain", ["call", "i", 0, [["bind", "depot"]]], ["const", k]]);
        let root = json!(["or", [["and", [index_is(1), ["cmp", "==", "plain", ["counter", "moves"], ["const", 7]]]],
                                 ["and", [index_is(2), ["call", "g", 0, [["cards", ["call", "h", 0, [["bind", "depot"], ["const", -1]]]]]]]]]]);
        let program = |root: &Value| json!({"$": "ExprRef", "text": "", "context": "eval", "self_depot": -1, "ptr": "/x",
            "program": {"$": "Program", "program": {"format": 1, "kind": "bool", "slots": 0, "reads": [], "root": root}}});
        let mut e = exprs();
        let general = e.add(&program(&root)).expect("loads");
        for (s, depot) in [(state(&[&[1], &[], &[]]), 0), (state(&[&[1], &[], &[]]), 1), (state(&[&[], &[], &[]]), 1),
                           (state(&[&[1], &[3], &[]]), 2)] {
            let id = e.add_for(&program(&root), depot as usize).expect("loads");
            let scope = Scope { depot, ..Scope::default() };
            assert_eq!(e.test(id, &s, &scope), e.test(general, &s, &scope), "depot {depot}");
            let mut reads = String::new();
            fn walk(n: &Node, out: &mut String) {
                if matches!(n, Node::Bind(_) | Node::Call(parse::Prim::CopyIndex | parse::Prim::NeighbourCopy, _)) {
                    out.push('!');
                }
                fold::kids(n).into_iter().for_each(|k| walk(k, out));
            }
            walk(&e.programs[id].root, &mut reads);
            assert!(reads.is_empty(), "depot {depot}: {:?}", e.programs[id].root);
        }
        // pile (copy 0) is decided false before the board
        let pile = e.add_for(&program(&root), 2).expect("loads");
        assert!(matches!(&e.programs[pile].root, Node::Const(parse::Const::Bool(false))));
    }

    #[test]
    fn a_footprint_names_every_pile_a_program_may_read_or_there_is_none() {
        let mut e = exprs();
        let mut footprint = |root: Value| {
            let id = load(&mut e, root, 2).expect("loads");
            e.footprint(id).cloned()
        };
        let top_of = |d: Value| json!(["call", "g", 0, [["cards", d]]]);
        let rank_is = |x: Value| json!(["cmp", "==", "maybe", ["prop", "rank", ["bind", "card"]], ["prop", "rank", x]]);
        let piles = |depots: Vec<usize>, source: bool| Some(Footprint { depots, pile: false, source, came_from: Vec::new() });
        // a constant depot, the bound card and top card (the caller's own): that pile alone
        assert_eq!(footprint(json!(["and", [rank_is(top_of(json!(["const", 2]))), rank_is(json!(["bind", "top"]))]])),
                   piles(vec![2], false));
        // a loop over constant depots reads each item's pile; the source is named
        let each_empty = json!(["call", "a", 0, [["const", [1, 0, 1]], ["each", 0, ["call", "f", 0, [["cards", ["var", 0]]]]]]]);
        assert_eq!(footprint(each_empty), piles(vec![1, 0], false));
        let near = json!(["call", "k", 0, [["bind", "depot"], ["bind", "source"]]]);
        assert_eq!(footprint(json!(["and", [near, rank_is(top_of(json!(["const", 0])))]])), piles(vec![0], true));
        // `first(...)` is one of its items: the pile of whichever it finds
        let found = json!(["call", "q", 0, [["const", [0, 2]], ["each", 1, ["call", "f", 0, [["cards", ["var", 1]]]]]]]);
        assert_eq!(footprint(top_of(found)), piles(vec![0, 2], false));
        // the bound group is a read of its own
        assert_eq!(footprint(json!(["call", "f", 0, [["bind", "pile"]]])).map(|f| f.pile), Some(true));
        // `cameFrom` of a depot the tree names is read as such
        let came = |d: Value| json!(["call", "c", 0, [d]]);
        let each_came = json!(["call", "a", 0, [["const", [2, 1]], ["each", 1, ["cmp", "==", "depot", came(json!(["var", 1])), ["const", 0]]]]]);
        assert_eq!(footprint(each_came).map(|f| (f.depots, f.came_from)), Some((vec![], vec![2, 1])));
        // a pile at a depot the board gives, a loop over cards, a counter, `cameFrom` of a
        // depot the board gives: none
        let each_card = json!(["call", "a", 0, [["cards", ["const", 0]], ["each", 0, ["call", "f", 0, [["cards", ["var", 0]]]]]]]);
        assert_eq!(footprint(each_card), None);
        assert_eq!(footprint(top_of(came(json!(["const", 1])))), None);
        assert_eq!(footprint(came(came(json!(["const", 1])))), None);
        assert_eq!(footprint(json!(["counter", "moves"])), None);
        // a program for one depot reads its own pile through `depot`
        let own = e.add_for(&json!({"$": "ExprRef", "text": "", "context": "eval", "self_depot": -1, "ptr": "/x",
            "program": {"$": "Program", "program": {"format": 1, "kind": "bool", "slots": 0, "reads": [],
                                                     "root": top_of(json!(["bind", "depot"]))}}}), 1).expect("loads");
        assert_eq!(e.footprint(own).cloned(), piles(vec![1], false));
    }

    #[test]
    fn add_refuses_what_it_cannot_run_saying_why() {
        let mut e = exprs();
        let why = |e: &mut Exprs, root: Value| load(e, root, 1).unwrap_err().0;
        assert_eq!(why(&mut e, json!(["call", "f", 2, [["bind", "pile"]]])),
                   "the expression at /x can't run natively: it calls f, whose overload 2 has no native primitive");
        assert!(why(&mut e, json!(["call", "nope", 0, []])).contains("it calls the function nope"));
        assert!(why(&mut e, json!(["var", 3])).contains("slot"));
        assert!(why(&mut e, json!(["const", MAX_EXPR_INT + 1])).contains("constant past"));
        assert!(why(&mut e, json!(["call", "f", 0, [["each", 0, ["const", true]]]])).contains("does not fit"));
        let mut none = Exprs::from_json(&Value::Null).expect("loads");
        assert!(why(&mut none, json!(["const", 1])).contains("no expression tables"));
    }
}
