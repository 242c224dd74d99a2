//! The Python boundary: `Engine(plan_json)` with `legal_moves`, `apply` and `playouts` on
//! positions given as plain tuples (`cardz_core/native.py` turns them into `State`s). Every
//! call runs under `catch_unwind`: a panic becomes a `RuntimeError`, never a crash. A position
//! with unknown cards (a view's) raises `LookupError`, one that does not fit the game `ValueError`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyLookupError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::engine::{BadState, Game, Move, ScoreError, SplitMix, State};
use crate::expr::ExprError;

// a rule expression's refusal while playing: args (message, JSON pointer), raised again by
// `cardz_core/native.py` as the Python engine's CardzError
create_exception!(_native, ExprFailure, PyException);

fn expr_failure(e: ExprError) -> PyErr {
    ExprFailure::new_err((e.message, e.ptr))
}

/// A position as Python hands it over: (piles, came_from, recycles, declared, (redeals, moves,
/// undos, recycles_total, seed_rank, rules_off, auto_moved, status, rng)).
type StateIn = (Vec<Vec<i32>>, Vec<i32>, Vec<i64>, Vec<i32>, (i64, i64, i64, i64, i32, bool, bool, i32, u64));

fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".into());
        Err(PyRuntimeError::new_err(format!("the native engine failed: {what}")))
    })
}

#[pyclass(frozen, module = "cardz_core._native")]
struct Engine {
    game: Game,
}

impl Engine {
    fn state(&self, s: StateIn) -> PyResult<State> {
        let (piles, came_from, recycles, declared,
             (redeals, moves, undos, recycles_total, seed_rank, rules_off, auto_moved, status, rng)) = s;
        let state = State { piles, came_from, recycles, redeals, moves, undos, recycles_total, seed_rank,
                            declared, rules_off, auto_moved, status, rng };
        self.game.check_state(&state).map_err(|bad| match bad {
            BadState::Unknown => PyLookupError::new_err("a position with unknown cards (a view)"),
            BadState::Shape(why) => PyValueError::new_err(why),
        })?;
        Ok(state)
    }
}

fn tuple_of<'py, T: IntoPyObject<'py> + Copy>(py: Python<'py>, items: &[T]) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, items.iter().copied())
}

#[pymethods]
impl Engine {
    /// Load a game: `{"compiled": CompiledGame.to_json(), "plan": ...}` as JSON text. A game
    /// the engine can't play raises ValueError saying why.
    #[new]
    fn new(plan: &str) -> PyResult<Engine> {
        guarded(|| {
            Game::from_json(plan)
                .map(|game| Engine { game })
                .map_err(|why| PyValueError::new_err(why.0))
        })
    }

    /// The legal moves as (src, index, dst, declare) tuples, in the Python engine's order.
    fn legal_moves(&self, state: StateIn) -> PyResult<Vec<Move>> {
        guarded(|| self.game.legal_moves(&self.state(state)?).map_err(expr_failure))
    }

    /// The position after `mv` as (piles, came_from, declared, recycles, recycles_total,
    /// status, its legal moves, redeals, rng), or None when `mv` is not legal. `checked`: the
    /// caller knows it is legal. The listing comes along so that a step crosses the boundary once.
    fn apply<'py>(&self, py: Python<'py>, state: StateIn, mv: Move, checked: bool)
                  -> PyResult<Option<Bound<'py, PyTuple>>> {
        guarded(|| {
            let s = self.state(state)?;
            let out = if checked { Some(self.game.apply_legal(&s, mv)) } else { self.game.apply(&s, mv).transpose() };
            let out = out.transpose().map_err(expr_failure)?;
            let Some(out) = out else { return Ok(None) };
            let piles: Vec<Bound<'py, PyTuple>> =
                out.piles.iter().map(|p| tuple_of(py, p)).collect::<PyResult<_>>()?;
            let fields = (
                PyTuple::new(py, piles)?,
                tuple_of(py, &out.came_from)?,
                tuple_of(py, &out.declared)?,
                tuple_of(py, &out.recycles)?,
                out.recycles_total,
                out.status,
                self.game.legal_moves(&out).map_err(expr_failure)?,
                out.redeals,
                out.rng,
            );
            Ok(Some(fields.into_pyobject(py)?))
        })
    }

    /// Random playouts of dealt positions, inside Rust with the engine's own seeded generator
    /// (one stream for the batch, game by game): per game (moves made, status).
    fn playouts(&self, py: Python<'_>, states: Vec<StateIn>, seed: u64, max_moves: u64)
                -> PyResult<Vec<(u64, i32)>> {
        guarded(|| {
            let states = states.into_iter().map(|s| self.state(s)).collect::<PyResult<Vec<_>>>()?;
            let game = &self.game;
            py.detach(|| {
                let mut rng = SplitMix(seed);
                states.iter().map(|s| game.playout(s, &mut rng, max_moves)).collect::<Result<Vec<_>, _>>()
            })
            .map_err(expr_failure)
        })
    }

    /// The `scoring.value` on this board, None without `scoring`; LookupError when the score
    /// is not computed natively (the Python engine computes it).
    fn score_value(&self, state: StateIn) -> PyResult<Option<i64>> {
        guarded(|| match self.game.score_value(&self.state(state)?) {
            Ok(v) => Ok(v),
            Err(ScoreError::NotNative(why)) => Err(PyLookupError::new_err(why)),
            Err(ScoreError::Expr(e)) => Err(expr_failure(e)),
        })
    }

    /// How many depots the game has.
    #[getter]
    fn n_depots(&self) -> usize {
        self.game.n_depots()
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<crate::expr_probe::ExprProbe>()?;
    m.add("ExprFailure", m.py().get_type::<ExprFailure>())?;
    m.add_class::<Engine>()
}
