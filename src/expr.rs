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
//! engine, saying why.

mod arith;
mod eval;
mod parse;
mod tables;

use serde_json::Value;

use crate::engine::{Code, State, Unsupported};

pub use eval::{Seq, Val};
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
/// and the expression's JSON pointer in the game file.
#[derive(Clone, Debug, PartialEq)]
pub struct ExprError {
    pub message: String,
    pub ptr: String,
}

/// One loaded program.
#[derive(Debug)]
struct Program {
    root: Node,
    slots: usize,
    ptr: String,
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

    /// Load one compiled `ExprRef` (its JSON form in `CompiledGame.to_json()`).
    pub fn add(&mut self, expr_ref: &Value) -> Result<ExprId, Unsupported> {
        let ptr = expr_ref.get("ptr").and_then(Value::as_str).unwrap_or("").to_string();
        let Some(tables) = &self.tables else {
            return Err(Unsupported(format!(
                "the expression at {ptr} can't run natively: the plan has no expression tables")));
        };
        let program = expr_ref.get("program").and_then(|p| p.get("program"));
        let (root, slots) = parse::program(program, tables).map_err(|why| {
            Unsupported(format!("the expression at {ptr} can't run natively: {why}"))
        })?;
        self.programs.push(Program { root, slots, ptr });
        Ok(self.programs.len() - 1)
    }

    /// The program's value, as the Python engine's closure gives it (`Val::List` for a tuple).
    pub fn value<'a>(&'a self, id: ExprId, s: &'a State, scope: &Scope<'a>) -> Result<Val<'a>, ExprError> {
        let (Some(t), Some(p)) = (&self.tables, self.programs.get(id)) else {
            return Err(self.never(id));
        };
        let mut stack: [Val<'a>; STACK_SLOTS] = Default::default();
        let mut heap: Vec<Val<'a>>;
        let vars: &mut [Val<'a>] = if p.slots <= STACK_SLOTS {
            &mut stack[..p.slots]
        } else {
            heap = vec![Val::Null; p.slots];
            &mut heap
        };
        let mut cx = Cx { t, s, scope: *scope, vars };
        eval::eval(&p.root, &mut cx).map_err(|fault| ExprError { message: fault.message(), ptr: p.ptr.clone() })
    }

    /// The program's value read as a condition (Python's `bool(value)`).
    pub fn test(&self, id: ExprId, s: &State, scope: &Scope) -> Result<bool, ExprError> {
        Ok(self.value(id, s, scope)?.truthy())
    }

    /// The program's value as a number (a `number` kind, or `count`/`numexpr` fields): missing
    /// counts as 0, as the Python engine's `int(value or 0)`.
    pub fn number(&self, id: ExprId, s: &State, scope: &Scope) -> Result<i64, ExprError> {
        Ok(self.value(id, s, scope)?.int().unwrap_or(0))
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
        ExprError { message: format!("no expression {id} was loaded"), ptr: String::new() }
    }
}

impl Fault {
    /// The Python engine's message for the same refusal.
    fn message(self) -> String {
        match self {
            Fault::Past => format!("this expression works out to a number past {MAX_EXPR_INT} either way, \
                                    the most an expression may compute"),
            Fault::NoDepot(name) => format!("no depot is named '{name}'"),
        }
    }
}
