//! Rule expressions, run natively from their compiled form (`cardz_core/expr/program.py`,
//! docs/expressions.md "Programs"). The rest of the engine sees only this interface: a game's
//! `Exprs` holds every program it loaded (`add`, at load time, from a compiled `ExprRef`), and
//! runs one by its `ExprId` on a position with the bindings of its context (`Scope`).
//!
//! This first form loads no program: `add` refuses, so a game with expressions stays on the
//! Python engine, saying why.

use serde_json::Value;

use crate::engine::{Code, State, Unsupported};

/// A loaded program: its index in its game's `Exprs`.
pub type ExprId = usize;

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

/// Every program of one game, and what they read of it.
#[derive(Debug, Default)]
pub struct Exprs {}

impl Exprs {
    /// The expression tables of a game (`plan["expr"]`, written by `cardz_core/native.py`).
    pub fn from_json(_plan: &Value) -> Result<Exprs, Unsupported> {
        Ok(Exprs {})
    }

    /// Load one compiled `ExprRef` (its JSON form in `CompiledGame.to_json()`).
    pub fn add(&mut self, expr_ref: &Value) -> Result<ExprId, Unsupported> {
        let ptr = expr_ref.get("ptr").and_then(Value::as_str).unwrap_or("");
        Err(Unsupported(format!("the expression at {ptr} is not run natively yet")))
    }

    /// The program's value read as a condition (Python's `bool(value)`).
    pub fn test(&self, id: ExprId, _s: &State, _scope: &Scope) -> Result<bool, ExprError> {
        Err(self.never(id))
    }

    /// The program's value as a number (a `number` kind, or `count`/`numexpr` fields).
    pub fn number(&self, id: ExprId, _s: &State, _scope: &Scope) -> Result<i64, ExprError> {
        Err(self.never(id))
    }

    /// The program's value as a depot index (-1 none), for a step's `depot` field.
    pub fn depot(&self, id: ExprId, _s: &State, _scope: &Scope) -> Result<i32, ExprError> {
        Err(self.never(id))
    }

    /// The program's value as depot indices, for a step's `depots` field.
    pub fn depots(&self, id: ExprId, _s: &State, _scope: &Scope) -> Result<Vec<usize>, ExprError> {
        Err(self.never(id))
    }

    fn never(&self, id: ExprId) -> ExprError {
        ExprError { message: format!("no expression {id} was loaded"), ptr: String::new() }
    }
}
