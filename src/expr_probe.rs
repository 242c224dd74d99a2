//! `ExprProbe`: one game's expressions run natively on positions handed over from Python,
//! for the differential tests that compare each with the Python engine's closure
//! (tests/test_native_expr.py) and for the expression benchmark.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyOverflowError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString, PyTuple};

use crate::engine::State;
use crate::expr::{Exprs, Scope, Val};

/// An evaluation as `eval_many` takes it: (id, card, top, pile, depot, source).
type Case = (usize, Option<i32>, Option<i32>, Vec<i32>, i32, i32);

/// A position as `cardz_core/native.py`'s `_as_tuple` gives it.
type StateIn = (Vec<Vec<i32>>, Vec<i32>, Vec<i64>, Vec<i32>, (i64, i64, i64, i64, i32, bool, bool, i32, u64));

fn state(s: StateIn) -> State {
    let (piles, came_from, recycles, declared,
         (redeals, moves, undos, recycles_total, seed_rank, rules_off, auto_moved, status, rng)) = s;
    State { piles, came_from, recycles, redeals, moves, undos, recycles_total, seed_rank, declared,
            rules_off, auto_moved, status, rng }
}

fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f))
        .unwrap_or_else(|_| Err(PyRuntimeError::new_err("the native expression interpreter failed")))
}

fn to_py<'py>(py: Python<'py>, v: &Val) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Val::Null => py.None().into_bound(py),
        Val::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Val::Int(i) => i.into_pyobject(py)?.into_any(),
        Val::Text(s) => PyString::new(py, s).into_any(),
        Val::List(items) => PyTuple::new(py, items.iter().copied())?.into_any(),
    })
}

#[pyclass(module = "cardz_core._native")]
pub struct ExprProbe {
    exprs: Exprs,
}

#[pymethods]
impl ExprProbe {
    /// The expression tables (`cardz_core.native_expr.expr_plan(game)`) as JSON text.
    #[new]
    fn new(plan: &str) -> PyResult<ExprProbe> {
        guarded(|| {
            let plan: serde_json::Value = serde_json::from_str(plan)
                .map_err(|e| PyValueError::new_err(format!("the expression plan is not JSON: {e}")))?;
            let exprs = Exprs::from_json(&plan).map_err(|why| PyValueError::new_err(why.0))?;
            Ok(ExprProbe { exprs })
        })
    }

    /// Load a compiled `ExprRef` (its JSON text); ValueError saying why it can't run natively.
    fn add(&mut self, expr_ref: &str) -> PyResult<usize> {
        guarded(|| {
            let v: serde_json::Value = serde_json::from_str(expr_ref)
                .map_err(|e| PyValueError::new_err(format!("the expression is not JSON: {e}")))?;
            self.exprs.add(&v).map_err(|why| PyValueError::new_err(why.0))
        })
    }

    /// Expression `id` on the position with these bindings, read the three ways the engine
    /// reads one: (its value as the Python closure's: None, bool, int, str or tuple; as a
    /// condition; as a number). Each is a pair (True, result), or (False, (message, pointer))
    /// for a number past the limit, as the Python engine's CardzError.
    #[allow(clippy::too_many_arguments)]
    fn eval<'py>(&self, py: Python<'py>, id: usize, state_in: StateIn, card: Option<i32>, top: Option<i32>,
                 pile: Vec<i32>, depot: i32, source: i32) -> PyResult<Bound<'py, PyTuple>> {
        guarded(|| {
            let s = state(state_in);
            let scope = Scope { card, top, pile: &pile, depot, source };
            let e = &self.exprs;
            let out = [
                e.value(id, &s, &scope).map(|v| to_py(py, &v)),
                e.test(id, &s, &scope).map(|b| Ok(PyBool::new(py, b).to_owned().into_any())),
                e.number(id, &s, &scope).map(|n| Ok(n.into_pyobject(py)?.into_any())),
            ];
            let pairs = out.into_iter().map(|r| match r {
                Ok(v) => (true, v?).into_pyobject(py),
                Err(err) => (false, (err.message, err.ptr)).into_pyobject(py),
            }).collect::<PyResult<Vec<_>>>()?;
            PyTuple::new(py, pairs)
        })
    }

    /// Evaluate every case (expression id and bindings) on one position, `rounds` times over,
    /// inside Rust (for the benchmark: nothing crosses the boundary per evaluation); gives how
    /// many evaluations came out true.
    fn eval_many(&self, state_in: StateIn, cases: Vec<Case>, rounds: u64) -> PyResult<u64> {
        guarded(|| {
            let s = state(state_in);
            let mut hits = 0;
            for _ in 0..rounds {
                for (id, card, top, pile, depot, source) in &cases {
                    let scope = Scope { card: *card, top: *top, pile, depot: *depot, source: *source };
                    match self.exprs.test(*id, &s, &scope) {
                        Ok(b) => hits += u64::from(b),
                        Err(e) => return Err(PyOverflowError::new_err((e.message, e.ptr))),
                    }
                }
            }
            Ok(hits)
        })
    }
}
