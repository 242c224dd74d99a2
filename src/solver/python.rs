//! The search's Python boundary: `Solver(engine, solver_plan)` holds one game's native engine
//! and its solver plan; `solve(position, max_states, timeout)` runs the tries with the GIL released.
//! `cardz_core/planners/solver.py` calls it for games on the native engine.

use std::sync::Mutex;
use std::time::Duration;

use pyo3::exceptions::{PyAssertionError, PyLookupError, PyValueError};
use pyo3::prelude::*;

use crate::engine::Move;
use crate::python::{guarded, state_of, Engine, StateIn};
use crate::solver::clock;
use crate::solver::klondike::{self, sampled, Position, Step, To};
use crate::solver::oneway::{self, Deal, Rules, Tries, Unsearchable};
use crate::solver::plan::Plan;
use crate::solver::problem::Buffers;
use crate::solver::search::{replays_to_win, solve, Answer, Stop};

/// What `solve` answers: (result, line, positions recorded, stopped by, the tables' peak bytes).
type Answered = (&'static str, Vec<Move>, u64, Option<&'static str>, usize);

/// Longer than any search runs (about 136 years), and still a deadline the clock can hold.
const FOREVER: Duration = Duration::from_secs(u32::MAX as u64);

/// A search's time budget in seconds as a duration: one already spent (a caller's remaining
/// time, which goes below zero once it is used up; NaN too) is none at all, and one past any
/// run (an infinite one included) a deadline that never comes.
fn time_budget(seconds: f64) -> Duration {
    if seconds.is_nan() || seconds <= 0.0 {
        return Duration::ZERO;
    }
    Duration::try_from_secs_f64(seconds).unwrap_or(FOREVER).min(FOREVER)
}

thread_local! {
    /// The error a signal's Python handler raised while this thread searched (KeyboardInterrupt).
    static SIGNALLED: std::cell::RefCell<Option<PyErr>> = const { std::cell::RefCell::new(None) };
}

/// Whether a signal (Ctrl-C, SIGTERM, SIGHUP) asked this thread to stop: Python's handlers are
/// run now, and what one raised is kept for `searched` to raise when the search returns. Only
/// the main thread sees signals; elsewhere this is always false.
fn signal_came() -> bool {
    Python::attach(|py| match py.check_signals() {
        Ok(()) => false,
        Err(err) => {
            SIGNALLED.with(|s| *s.borrow_mut() = Some(err));
            true
        }
    })
}

/// Searches stop when a signal comes (`clock`); called once, as the module is made.
pub(crate) fn stop_on_signals() {
    clock::poll_with(signal_came);
}

/// `search` run with Python's lock released; when a signal stopped it, what the signal's
/// handler raised (KeyboardInterrupt), as if Python had been running all along.
fn searched<T: Send>(py: Python<'_>, search: impl FnOnce() -> T + Send) -> PyResult<T> {
    clock::start();
    let got = py.detach(search);
    match SIGNALLED.with(|s| s.borrow_mut().take()) {
        Some(err) => Err(err),
        None => Ok(got),
    }
}

#[pyclass(frozen, module = "cardz_core._native")]
pub struct Solver {
    engine: Py<Engine>,
    plan: Plan,
    /// the boards and lines of the last search, for the next (a call made while another runs
    /// starts with none)
    spare: Mutex<Buffers>,
}

#[pymethods]
impl Solver {
    /// `engine`: the game's native `Engine`, whose game the search plays; `solver_plan`:
    /// `cardz_core.solver.native_plan.solver_plan`, as JSON. ValueError when it can't be read.
    #[new]
    fn new(engine: Py<Engine>, solver_plan: &str) -> PyResult<Solver> {
        guarded(|| {
            let plan = Plan::from_json(solver_plan).map_err(|why| PyValueError::new_err(why.0))?;
            if plan.depots != engine.get().game.n_depots() {
                return Err(PyValueError::new_err("the solver plan is for another game"));
            }
            Ok(Solver { engine, plan, spare: Mutex::new(Buffers::default()) })
        })
    }

    /// Search `position` (as `cardz_core/native.py::_as_tuple` gives it) for a win: the tries of `planners/solver.py::solve`, within
    /// `max_states` positions and `timeout` seconds. LookupError for a view's position; a won
    /// line is replayed on the engine first (`replays_to_win`), AssertionError if it does not win.
    fn solve(&self, py: Python<'_>, position: StateIn, max_states: u64, timeout: f64) -> PyResult<Answered> {
        guarded(|| {
            let game = &self.engine.get().game;
            let state = state_of(game, position)?;
            if state.rules_off {
                return Err(PyLookupError::new_err("the native search plays positions with the rules on"));
            }
            let timeout = time_budget(timeout);
            let found = searched(py, || {
                let mut buffers = self.spare.try_lock().map(|mut b| std::mem::take(&mut *b)).unwrap_or_default();
                let found = solve(game, &self.plan, &state, max_states, timeout, &mut buffers);
                if let Ok(mut spare) = self.spare.try_lock() {
                    *spare = buffers;
                }
                let found = found?;
                let checked = found.answer != Answer::Won || replays_to_win(game, &state, &found.line)?;
                Ok::<_, crate::expr::ExprError>((found, checked))
            })?;
            let (found, checked) = found?;
            if !checked {
                return Err(PyAssertionError::new_err("the native search's line does not win in the engine"));
            }
            Ok((answer_name(found.answer), found.line, found.states, found.stopped_by.map(stop_name), found.table_bytes))
        })
    }
}

/// The one-way model's search (`src/solver/oneway.rs`) for one game: `cardz_core/solver/oneway.py`
/// builds it from the game's rules and hands it each deal's model.
#[pyclass(frozen, module = "cardz_core._native")]
pub struct OneWaySearch {
    rules: Rules,
}

/// What `OneWaySearch.search` answers: (result, steps, positions, stopped by).
type Stepped = (&'static str, Vec<i32>, u64, Option<&'static str>);

fn bad(what: &str) -> PyErr {
    PyValueError::new_err(format!("one-way model: {what}"))
}

#[pymethods]
impl OneWaySearch {
    /// `top_class[c]`: the card standing for card `c` as the foundation's top; `takes[c]`: the
    /// cards the foundation takes on card `c`. ValueError when a card number is out of range.
    #[new]
    fn new(top_class: Vec<u16>, takes: Vec<Vec<u16>>) -> PyResult<OneWaySearch> {
        let n = top_class.len();
        if takes.len() != n || top_class.iter().chain(takes.iter().flatten()).any(|&c| usize::from(c) >= n) {
            return Err(bad("a card number is out of range"));
        }
        let takes = takes
            .iter()
            .map(|row| {
                let mut fits = vec![false; n];
                row.iter().for_each(|&c| fits[usize::from(c)] = true);
                fits
            })
            .collect();
        Ok(OneWaySearch { rules: Rules { top_class, takes } })
    }

    /// Search one deal (`oneway.py::search_oneway` says what each argument is); None when its
    /// positions are too big for the native model.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (piles, stock, must, stuck, stock_must, top, first, growth, orders, ties, max_states, timeout))]
    fn search(&self, py: Python<'_>, piles: Vec<Vec<u16>>, stock: Vec<u16>, must: Vec<usize>, stuck: bool,
              stock_must: bool, top: u16, first: u64, growth: f64, orders: Vec<(i64, i64)>, ties: Vec<Vec<f64>>,
              max_states: u64, timeout: f64) -> PyResult<Option<Stepped>> {
        guarded(|| {
            let n = self.rules.top_class.len();
            if piles.iter().flatten().chain(&stock).chain([&top]).any(|&c| usize::from(c) >= n) {
                return Err(bad("a card number is out of range"));
            }
            if must.iter().any(|&j| j >= piles.len()) {
                return Err(bad("a pile that must be empty is out of range"));
            }
            if orders.is_empty() || first == 0 || max_states == 0 || !(growth.is_finite() && growth > 0.0) {
                return Err(bad("no orders, or a budget below one position"));
            }
            let deal = Deal { piles, stock, must, stuck, stock_must, top };
            let tries = Tries { first, growth, orders, ties };
            let timeout = time_budget(timeout);
            match searched(py, || oneway::search(&self.rules, &deal, &tries, max_states, timeout))? {
                Err(Unsearchable::TooBig) => Ok(None),
                Err(Unsearchable::Ties) => Err(bad("a try has no tie-breaks for every pile")),
                Ok(found) => Ok(Some((answer_name(found.answer), found.steps, found.states, found.stopped_by.map(stop_name)))),
            }
        })
    }
}

/// The Klondike model's search (`src/solver/klondike.rs`) for one game:
/// `cardz_core/solver/klondike.py` reads its tables from the game's rules and hands it each
/// position.
#[pyclass(frozen, module = "cardz_core._native")]
pub struct KlondikeSearch {
    rules: klondike::Rules,
}

/// What `KlondikeSearch.search` answers: (result, steps as (from, at, to), positions, stopped by).
type Played = (&'static str, Vec<(i32, i32, i32)>, u64, Option<&'static str>);

fn mask(cards: &[u8]) -> PyResult<u64> {
    cards.iter().try_fold(0u64, |m, &c| match 1u64.checked_shl(u32::from(c)) {
        Some(bit) => Ok(m | bit),
        None => Err(PyValueError::new_err(format!("Klondike model: card {c} is out of range"))),
    })
}

#[pymethods]
impl KlondikeSearch {
    /// `suit[c]`, `rank[c]`: card `c`'s foundation chain and place in it (1 first); `on[b]`: the
    /// cards a column lets lie on card `b`; `empty`: those an empty column takes; `draw`: the
    /// cards a tap deals. ValueError when the model cannot hold them.
    #[new]
    fn new(suit: Vec<u8>, rank: Vec<u8>, on: Vec<Vec<u8>>, empty: Vec<u8>, draw: usize) -> PyResult<KlondikeSearch> {
        let on = on.iter().map(|row| mask(row)).collect::<PyResult<Vec<u64>>>()?;
        klondike::Rules::new(suit, rank, on, mask(&empty)?, draw)
            .map(|rules| KlondikeSearch { rules })
            .map_err(|why| PyValueError::new_err(format!("Klondike model: {}", why.0)))
    }

    /// Search a position: `columns` as (face-down count, cards bottom first), the `talon` (the
    /// waste bottom first, then the stock in the order it deals) with the `waste`'s size, and
    /// the cards home in each chain. A step is (column or -1 for the talon, the card's place
    /// there, column or -1 for home). ValueError when the position does not fit the model.
    #[allow(clippy::too_many_arguments)]
    fn search(&self, py: Python<'_>, columns: Vec<(usize, Vec<u8>)>, talon: Vec<u8>, waste: usize, home: Vec<u8>,
              max_states: u64, timeout: f64) -> PyResult<Played> {
        guarded(|| {
            if max_states == 0 {
                return Err(PyValueError::new_err("Klondike model: a budget below one position"));
            }
            let p = Position { columns, talon, waste, home };
            let timeout = time_budget(timeout);
            let found = searched(py, || klondike::search(&self.rules, &p, max_states, timeout))?
                .map_err(|why| PyValueError::new_err(format!("Klondike model: {}", why.0)))?;
            let steps = found.steps.iter().map(|&s| step_tuple(s)).collect();
            Ok((answer_name(found.answer), steps, found.states, found.stopped_by.map(stop_name)))
        })
    }

    /// Decide a view's position (`src/solver/klondike/sampled.rs`): `columns`, `talon`, `waste`
    /// and `home` as `search` takes them, with `UNSEEN` (255) for a face-down card not seen and
    /// `unseen` the cards those places hold; `samples` child solves of `limit` positions each,
    /// an unknown answer worth `unknown` of a win, deals drawn from `seed`, the children the
    /// commitments when `commit`, the unseen cards dealt in the order they turn up when
    /// `in_order`. Answers ("settle", [([step], 0, 0, 0)], 0) for a card that
    /// goes home without branching, or ("children", [(steps, won, lost, unknown)], positions)
    /// best first, with the positions all the solves recorded. ValueError when the position or
    /// the budget does not fit.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (columns, talon, waste, home, unseen, samples, limit, unknown, seed, timeout, commit=false, in_order=false))]
    fn decide(&self, py: Python<'_>, columns: Vec<(usize, Vec<u8>)>, talon: Vec<u8>, waste: usize, home: Vec<u8>,
              unseen: Vec<u8>, samples: u32, limit: u64, unknown: f64, seed: u64, timeout: f64, commit: bool,
              in_order: bool)
              -> PyResult<(&'static str, Vec<Tallied>, u64)> {
        guarded(|| {
            let p = Position { columns, talon, waste, home };
            let timeout = time_budget(timeout);
            let budget = sampled::Budget { samples, limit, unknown, seed, commit, in_order };
            let decided = searched(py, || sampled::decide(&self.rules, &p, &unseen, &budget, timeout))?
                .map_err(|why| PyValueError::new_err(format!("Klondike model: {}", why.0)))?;
            Ok(match decided {
                sampled::Decided::Settle(s) => ("settle", vec![(vec![step_tuple(s)], 0, 0, 0)], 0),
                sampled::Decided::Children(t) => {
                    let steps = |t: &sampled::Tally| t.steps.iter().map(|&s| step_tuple(s)).collect();
                    let states = t.iter().map(|t| t.states).sum();
                    ("children", t.iter().map(|t| (steps(t), t.won, t.lost, t.unknown)).collect(), states)
                }
            })
        })
    }
}

/// A decision's child as Python sees it: (steps, won, lost, unknown).
type Tallied = (Vec<(i32, i32, i32)>, u32, u32, u32);

/// A step as (column or -1 for the talon, the card's place there, column or -1 for home).
fn step_tuple(s: Step) -> (i32, i32, i32) {
    let place = |to: To| match to {
        To::Home => -1,
        To::Column(t) => i32::from(t),
    };
    match s {
        Step::Column { from, at, to } => (i32::from(from), i32::from(at), place(to)),
        Step::Talon { at, to } => (-1, i32::from(at), place(to)),
    }
}

fn answer_name(a: Answer) -> &'static str {
    match a {
        Answer::Won => "won",
        Answer::Lost => "lost",
        Answer::Unknown => "unknown",
    }
}

fn stop_name(s: Stop) -> &'static str {
    match s {
        Stop::States => "states",
        Stop::Seconds => "seconds",
    }
}
