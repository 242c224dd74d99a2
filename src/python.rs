//! The Python boundary (`cardz_core._native`): `Engine(plan_json, move_type)` plays one game
//! on `Position`s, positions kept in Rust behind a handle; `cardz_core/native.py` wraps them
//! in `State`s that read their fields from the handle only when asked.
//!
//! Views (`State`s with `pools`) are read from their fields at each call, and what is made of
//! them is handed back as fields for `native.py` to make `View`s of: listing and playing moves
//! on a view, the view of a position, and a move's chance outcomes (`engine/view.rs`).
//!
//! Every call runs under `catch_unwind`: a panic becomes a `cardz_core.problems.CardzError`,
//! never a crash, as does a position that does not fit the game. A view passed where a true
//! position is wanted, or anything the native engine leaves to the Python engine, raises
//! `LookupError`: the caller plays it in Python instead.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::{self, ThreadId};

use pyo3::exceptions::{PyLookupError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::intern;
use pyo3::types::{PyList, PyString, PyTuple, PyType};
use pyo3::ffi;

use crate::engine::{BadState, Caps, Unsupported, Counts, Deck, Game, Move, Pick, Played, Pools, Ratio, ScoreError, SplitMix, State,
                    ViewError};
use crate::expr::{Arg, ExprError, Host as CallBacks, Items, Seq, Stepped, Val};

/// A position as Python hands it over: (piles, came_from, recycles, declared, (redeals, moves,
/// undos, recycles_total, seed_rank, rules_off, auto_moved, status, rng)).
pub(crate) type StateIn = (Vec<Vec<i32>>, Vec<i32>, Vec<i64>, Vec<i32>, (i64, i64, i64, i64, i32, bool, bool, i32, u64));

/// The distinct moves an engine keeps as Python objects, each built once and handed out again
/// by every listing; past it, moves are built afresh (correct, slower). A game's distinct moves
/// are far fewer: depots squared times pile lengths.
const MOVE_CACHE_LIMIT: usize = 1 << 16;

static CARDZ_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
// the next `Engine::id`
static NEXT_ENGINE: AtomicU64 = AtomicU64::new(1);

/// `CardzError(message, path)`, the error the Python engine raises.
fn cardz_error(message: String, ptr: String) -> PyErr {
    Python::attach(|py| match CARDZ_ERROR.import(py, "cardz_core.problems", "CardzError") {
        Ok(cls) => match cls.call1((message, ptr)) {
            Ok(err) => PyErr::from_value(err),
            Err(e) => e,
        },
        Err(e) => e,
    })
}

/// An expression's refusal reaches Python as the Python engine's: the same message and pointer;
/// a Python call-back's error as it was raised.
impl From<ExprError> for PyErr {
    fn from(e: ExprError) -> PyErr {
        if e.message == CALLBACK_FAILED {
            if let Some(err) = RAISED.with(|r| r.borrow_mut().take()) {
                return err;
            }
        }
        if let Some(name) = e.no_depot {
            return no_depot(&name);
        }
        cardz_error(e.message, e.ptr)
    }
}

static FUNCTION_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `FunctionError(f"no depot is named {name!r}")`, as the Python engine's `depot` raises it.
fn no_depot(name: &str) -> PyErr {
    Python::attach(|py| {
        let made = FUNCTION_ERROR.import(py, "cardz_core.signature", "FunctionError").and_then(|cls| {
            let message = format!("no depot is named {}", PyString::new(py, name).repr()?);
            cls.call1((message,))
        });
        match made {
            Ok(err) => PyErr::from_value(err),
            Err(e) => e,
        }
    })
}

/// The message of an `ExprError` whose cause is the Python error a call-back raised (`RAISED`).
const CALLBACK_FAILED: &str = "a Python call-back raised an error";

thread_local! {
    /// The error the last failing call-back raised on this thread, raised again for it.
    static RAISED: RefCell<Option<PyErr>> = const { RefCell::new(None) };
}

/// A game's Python call-backs (`native.py`'s `CallBacks`): `call(index, state, args)` and
/// `step(index, state, me)`, the position handed over as a lazy `NativeState`.
struct PyCallBacks {
    call: Py<PyAny>,
    state_type: Py<PyType>,
    statuses: [Py<PyAny>; 3],
    cards: Py<PyAny>,
}

impl CallBacks for PyCallBacks {
    fn call(&self, index: usize, s: &State, args: &[Arg<'_>], items: &mut dyn Items) -> Result<Val<'static>, String> {
        self.back(|py| {
            let live = Live::new(items);
            let args = args.iter().map(|a| match a {
                Arg::Val(v) => value_to_py(py, v),
                Arg::Each(k) => Ok(Bound::new(py, PerItem { k: *k, live: live.cell.clone(), thread: thread::current().id() })?
                    .into_any()),
            }).collect::<PyResult<Vec<_>>>()?;
            let out = self.call.call_method1(py, intern!(py, "call"), (index, self.state(py, s)?, PyTuple::new(py, args)?))?;
            value_of_py(out.bind(py))
        })
    }

    fn step(&self, index: usize, s: &State, me: i32) -> Result<Stepped, String> {
        self.back(|py| {
            let out = self.call.call_method1(py, intern!(py, "step"), (index, self.state(py, s)?, me))?;
            let (fields, left, flips): (StateIn, Vec<usize>, u32) = out.extract(py)?;
            if left.iter().any(|&d| d >= s.piles.len()) || fields.0.len() != s.piles.len() {
                return Err(cardz_error("a Python step left a depot the game does not have".into(), String::new()));
            }
            Ok(Stepped { state: Engine::unpack(fields), left, flips })
        })
    }
}

impl PyCallBacks {
    fn state<'py>(&self, py: Python<'py>, s: &State) -> PyResult<Bound<'py, PyAny>> {
        new_state(py, &self.state_type, &self.statuses, &self.cards, Position::new(s.clone()))
    }

    /// `f` run holding the GIL; its error kept (`RAISED`) to be raised again as it was.
    fn back<T>(&self, f: impl FnOnce(Python<'_>) -> PyResult<T>) -> Result<T, String> {
        Python::attach(|py| {
            f(py).map_err(|e| {
                RAISED.with(|r| *r.borrow_mut() = Some(e));
                CALLBACK_FAILED.to_string()
            })
        })
    }
}

/// The per-item arguments of a call-back call while it runs, lifetime erased: what `Live`
/// shares with the call's `PerItem`s.
struct ItemsPtr(*mut (dyn Items + 'static));

// SAFETY: a `PerItem` runs it only on the thread that made it (checked), while the call runs
unsafe impl Send for ItemsPtr {}

/// The `Items` of one call-back call, reachable by its `PerItem`s only until the call returns:
/// dropping it (on every way out of the call) empties the cell they share.
struct Live {
    cell: Arc<Mutex<Option<ItemsPtr>>>,
}

impl Live {
    fn new(items: &mut dyn Items) -> Live {
        let ptr: *mut (dyn Items + '_) = items;
        // SAFETY: only the lifetime is erased; `Drop` takes the pointer away before `items`'s
        // borrow ends, and `PerItem::__call__` reads it only while it is there
        let ptr: *mut (dyn Items + 'static) = unsafe { std::mem::transmute(ptr) };
        Live { cell: Arc::new(Mutex::new(Some(ItemsPtr(ptr)))) }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        // no `PerItem` holds the lock now: they run on this thread, and the call has returned
        *self.cell.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    }
}

/// A per-item argument handed to a Python implementation (the Python engine's `f(item)`):
/// `f(item)` works the argument out natively for `item`. Valid only while the call it was
/// made for runs, on that thread, and not from within itself.
#[pyclass(frozen, module = "cardz_core._native")]
struct PerItem {
    k: usize,
    live: Arc<Mutex<Option<ItemsPtr>>>,
    thread: ThreadId,
}

#[pymethods]
impl PerItem {
    fn __call__<'py>(&self, item: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = item.py();
        let refused = |why: &str| cardz_error(format!("a per-item argument {why}"), String::new());
        if thread::current().id() != self.thread {
            return Err(refused("is called from another thread"));
        }
        let item = value_of_py(item)?;
        let mut held = self.live.try_lock().map_err(|_| refused("is called while it runs"))?;
        let Some(ItemsPtr(ptr)) = held.as_mut() else {
            return Err(refused("is called after the call it was made for"));
        };
        // SAFETY: the cell holds the pointer only while the call that made it runs (`Live`),
        // and the lock keeps this the only use of it
        let items = unsafe { &mut **ptr };
        guarded(|| match items.item(self.k, item) {
            Ok(v) => value_to_py(py, &v),
            Err(e) => Err(e.into()),
        })
    }
}

/// A new `state_type` (NativeState) holding `pos`: `_pos`, `status` and `cards` set, the rest
/// read from the handle when asked.
fn new_state<'py>(py: Python<'py>, state_type: &Py<PyType>, statuses: &[Py<PyAny>; 3], cards: &Py<PyAny>,
                  pos: Position) -> PyResult<Bound<'py, PyAny>> {
    let status = usize::try_from(pos.state.status).ok().and_then(|i| statuses.get(i))
        .ok_or_else(|| cardz_error(format!("no status {}", pos.state.status), String::new()))?
        .bind(py).clone();
    let handle = Bound::new(py, pos)?.into_any();
    // SAFETY: `state_type` is a subclass of State (checked in `Engine::new`), whose instances
    // the generic allocator makes as `object.__new__` does; a new reference or NULL
    let obj = unsafe {
        let tp = state_type.as_ptr().cast::<ffi::PyTypeObject>();
        Bound::from_owned_ptr_or_err(py, ffi::PyType_GenericAlloc(tp, 0))?
    };
    set_slot(&obj, intern!(py, "_pos"), &handle)?;
    set_slot(&obj, intern!(py, "status"), &status)?;
    set_slot(&obj, intern!(py, "cards"), cards.bind(py))?;
    Ok(obj)
}

/// An expression value as the Python engine's closures hold it: None, a bool, an int, a text or
/// a tuple of ints.
fn value_to_py<'py>(py: Python<'py>, v: &Val<'_>) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Val::Null => py.None().into_bound(py),
        Val::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Val::Int(i) => i.into_pyobject(py)?.into_any(),
        Val::Text(t) => PyString::new(py, t).into_any(),
        Val::List(items) => PyTuple::new(py, items.iter().copied())?.into_any(),
    })
}

/// A call-back's result (or an item handed to a per-item argument) as an expression value.
fn value_of_py(v: &Bound<'_, PyAny>) -> PyResult<Val<'static>> {
    if v.is_none() {
        return Ok(Val::Null);
    }
    if let Ok(b) = v.cast::<pyo3::types::PyBool>() {
        return Ok(Val::Bool(b.is_true()));
    }
    if let Ok(i) = v.extract::<i64>() {
        return Ok(Val::Int(i));
    }
    if let Ok(t) = v.cast::<PyString>() {
        return Ok(Val::Text(Cow::Owned(t.to_str()?.to_owned())));
    }
    Ok(Val::List(Seq::Owned(v.extract::<Vec<i32>>()?)))
}

pub(crate) fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".into());
        Err(cardz_error(format!("the native engine failed: {what}"), String::new()))
    })
}

/// A 64-bit key of a position: equal positions, equal keys (stable within one build of the
/// extension, not across Rust versions). `counters`: `moves` and `undos` count too, as in
/// `State.key()`; without them, positions reached by different paths meet.
fn key64(s: &State, counters: bool) -> u64 {
    let mut h = DefaultHasher::new();
    s.piles.hash(&mut h);
    s.came_from.hash(&mut h);
    s.recycles.hash(&mut h);
    s.redeals.hash(&mut h);
    if counters {
        s.moves.hash(&mut h);
        s.undos.hash(&mut h);
    }
    s.recycles_total.hash(&mut h);
    s.seed_rank.hash(&mut h);
    s.declared.hash(&mut h);
    s.rules_off.hash(&mut h);
    s.auto_moved.hash(&mut h);
    s.status.hash(&mut h);
    s.rng.hash(&mut h);
    h.finish()
}

/// One position of one game, immutable; its legal moves are listed once, on first need (or
/// the expression error listing them met, raised again at every ask).
#[pyclass(frozen, module = "cardz_core._native")]
struct Position {
    state: State,
    listing: OnceLock<Result<Vec<Move>, ExprError>>,
    // the `Engine::id` of the engine that handed it out (0: none): another game's position is
    // read from its fields and checked, never taken as this game's (its cards index past ours)
    owner: u64,
}

impl Position {
    fn new(state: State) -> Position {
        Position { state, listing: OnceLock::new(), owner: 0 }
    }

    fn listing(&self, game: &Game) -> Result<&[Move], ExprError> {
        match self.listing.get_or_init(|| game.legal_moves(&self.state)) {
            Ok(moves) => Ok(moves),
            Err(e) => Err(e.clone()),
        }
    }
}

fn tuple_of<'py, T: IntoPyObject<'py> + Copy>(py: Python<'py>, items: &[T]) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, items.iter().copied())
}

#[pymethods]
impl Position {
    /// PLAYING (0), WON (1) or LOST (2).
    #[getter]
    fn status(&self) -> i32 {
        self.state.status
    }

    /// Every field of `State` but `pools` and `cards`, in `State.key()`'s order: (piles,
    /// came_from, recycles, redeals, moves, undos, recycles_total, seed_rank, declared,
    /// rules_off, auto_moved, status, rng).
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        state_fields(py, &self.state)
    }

    /// The 64-bit key (`counters=False`: without `moves` and `undos`).
    #[pyo3(signature = (counters = true))]
    fn key64(&self, counters: bool) -> u64 {
        key64(&self.state, counters)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Position>().is_ok_and(|o| o.get().state == self.state)
    }

    fn __hash__(&self) -> u64 {
        key64(&self.state, true)
    }
}

/// `Position.fields()` of any state.
fn state_fields<'py>(py: Python<'py>, s: &State) -> PyResult<Bound<'py, PyTuple>> {
    let piles: Vec<Bound<'py, PyTuple>> = s.piles.iter().map(|p| tuple_of(py, p)).collect::<PyResult<_>>()?;
    let items: [Bound<'py, PyAny>; 13] = [
        PyTuple::new(py, piles)?.into_any(), tuple_of(py, &s.came_from)?.into_any(),
        tuple_of(py, &s.recycles)?.into_any(), s.redeals.into_pyobject(py)?.into_any(),
        s.moves.into_pyobject(py)?.into_any(), s.undos.into_pyobject(py)?.into_any(),
        s.recycles_total.into_pyobject(py)?.into_any(), s.seed_rank.into_pyobject(py)?.into_any(),
        tuple_of(py, &s.declared)?.into_any(), s.rules_off.into_pyobject(py)?.to_owned().into_any(),
        s.auto_moved.into_pyobject(py)?.to_owned().into_any(), s.status.into_pyobject(py)?.into_any(),
        s.rng.into_pyobject(py)?.into_any(),
    ];
    PyTuple::new(py, items)
}

/// The Python classes an engine hands positions and moves out as, from `cardz_core/native.py`.
struct Host {
    move_type: Py<PyAny>,
    state_type: Py<PyType>,
    statuses: [Py<PyAny>; 3],
    cards: Py<PyAny>,
}

#[pyclass(frozen, module = "cardz_core._native")]
pub(crate) struct Engine {
    pub(crate) game: Game,
    id: u64, // unique in the process: which positions are this engine's own (`Position::owner`)
    host: Host,
    moves: Mutex<HashMap<Move, Py<PyAny>>>,
    deck: Option<Arc<Deck>>, // what views need (None: views are played in Python)
}

/// `obj.name = value` past the class's own `__setattr__` (NativeState's guards against
/// callers, not against its maker): the slot's descriptor sets it.
fn set_slot(obj: &Bound<'_, PyAny>, name: &Bound<'_, PyString>, value: &Bound<'_, PyAny>) -> PyResult<()> {
    // SAFETY: three live objects; the generic setter takes its own reference to `value`
    if unsafe { ffi::PyObject_GenericSetAttr(obj.as_ptr(), name.as_ptr(), value.as_ptr()) } < 0 {
        return Err(PyErr::fetch(obj.py()));
    }
    Ok(())
}

/// A view as `native.py` hands it over: its fields as a `StateIn`, and its `pools`.
type ViewIn = (StateIn, Pools);

/// A view made here, for `native.py` to make a `View` of: `Position.fields()` and the pools.
type ViewOut<'py> = (Bound<'py, PyTuple>, Pools);

/// A view's outcome for `native.py`: its probability (numerator, denominator), the card ids
/// turned up and the view after it.
type OutcomeOut<'py> = (u128, u128, Vec<u32>, ViewOut<'py>);

/// `Engine.outcomes`' answer: the outcomes, the coverage as a fraction (None: all), stopped.
type ListingOut<'py> = (Vec<OutcomeOut<'py>>, Option<(u128, u128)>, bool);

/// The error a pick from Python's generator raised, kept for the caller to raise.
type Failed = Rc<RefCell<Option<PyErr>>>;

/// A `Pick` drawing with a Python `random.Random`: `rng.randrange(total)`, as the counts
/// deck model draws.
fn picker(rng: Py<PyAny>, failed: &Failed) -> Pick {
    let failed = failed.clone();
    Box::new(move |total| {
        Python::attach(|py| rng.call_method1(py, intern!(py, "randrange"), (total,))?.extract::<u64>(py))
            .map_err(|e| *failed.borrow_mut() = Some(e))
            .ok()
    })
}

/// A `ViewError` as Python sees it; `failed` holds the error of a pick.
fn view_error(e: ViewError, failed: &Failed) -> PyErr {
    match e {
        ViewError::Expr(e) => e.into(),
        ViewError::Refused(why) => cardz_error(why, String::new()),
        ViewError::Pick => failed.borrow_mut().take()
            .unwrap_or_else(|| cardz_error("drawing a card failed".into(), String::new())),
        ViewError::Elsewhere => PyLookupError::new_err("the Python engine plays this on the view"),
    }
}

fn not_native() -> PyErr {
    PyLookupError::new_err("the native engine plays true positions with the rules on, not views \
                            or positions with the rules off")
}

/// The position `s` of `game`, checked: LookupError for unknown cards, CardzError for one
/// that does not fit the game.
pub(crate) fn state_of(game: &Game, s: StateIn) -> PyResult<State> {
    let state = Engine::unpack(s);
    game.check_state(&state).map_err(|bad| match bad {
        BadState::Unknown => PyLookupError::new_err("a position with unknown cards (a view)"),
        BadState::Shape(why) => cardz_error(why, String::new()),
    })?;
    Ok(state)
}

impl Engine {
    fn state(&self, s: StateIn) -> PyResult<State> {
        state_of(&self.game, s)
    }

    fn unpack(s: StateIn) -> State {
        let (piles, came_from, recycles, declared,
             (redeals, moves, undos, recycles_total, seed_rank, rules_off, auto_moved, status, rng)) = s;
        State { piles, came_from, recycles, redeals, moves, undos, recycles_total, seed_rank, declared, rules_off,
                auto_moved, status, rng }
    }

    /// The deck of a game whose views are played here; LookupError for one whose aren't.
    fn deck(&self) -> PyResult<&Arc<Deck>> {
        self.deck.as_ref().ok_or_else(|| PyLookupError::new_err("the Python engine plays this game's views"))
    }

    /// A view handed over (`native.py`'s `_view_in`) as a state with its unseen counts;
    /// LookupError for the rules off, played in Python.
    fn view(&self, v: ViewIn) -> PyResult<(State, Counts)> {
        let deck = self.deck()?;
        let (fields, pools) = v;
        let state = Self::unpack(fields);
        if state.rules_off {
            return Err(not_native());
        }
        self.game.check_view(&state).map_err(|bad| match bad {
            BadState::Unknown => not_native(),
            BadState::Shape(why) => cardz_error(why, String::new()),
        })?;
        Ok((state, deck.counts(&pools)))
    }

    /// Whether `m` is legal on the view `v` (what the Python engine refuses, it refuses itself,
    /// with its reason).
    fn legal_on_view(&self, v: &State, m: Move) -> PyResult<()> {
        if self.game.legal(v, m)? { Ok(()) } else { Err(view_error(ViewError::Elsewhere, &Failed::default())) }
    }

    /// The handle a live `NativeState` holds, or None for any other `State` (its handle
    /// dropped, or not a NativeState).
    fn handle<'py>(&self, obj: &Bound<'py, PyAny>) -> Option<Bound<'py, Position>> {
        if !obj.get_type().is(&self.host.state_type) {
            return None;
        }
        let name = intern!(obj.py(), "_pos");
        // SAFETY: two live objects; the generic getter returns a new reference or NULL (unset)
        let got = unsafe { Bound::from_owned_ptr_or_err(obj.py(), ffi::PyObject_GenericGetAttr(obj.as_ptr(), name.as_ptr())) };
        got.ok()?.cast_into::<Position>().ok().filter(|pos| pos.get().owner == self.id)
    }

    /// The position of any `State`: its handle, or one made from its fields. LookupError for
    /// a view, unknown cards or the rules off, which the Python engine plays.
    fn position<'py>(&self, obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Position>> {
        if let Some(pos) = self.handle(obj) {
            return Ok(pos);
        }
        let py = obj.py();
        if obj.getattr(intern!(py, "rules_off"))?.is_truthy()? || !obj.getattr(intern!(py, "pools"))?.is_none() {
            return Err(not_native());
        }
        let get = |name: &str| obj.getattr(name);
        let read = || -> PyResult<StateIn> {
            Ok((get("piles")?.extract()?, get("came_from")?.extract()?, get("recycles")?.extract()?,
                get("declared")?.extract()?,
                (get("redeals")?.extract()?, get("moves")?.extract()?, get("undos")?.extract()?,
                 get("recycles_total")?.extract()?, get("seed_rank")?.extract()?, false,
                 get("auto_moved")?.is_truthy()?, get("status")?.extract()?, get("rng")?.extract()?)))
        };
        // a field of the wrong type, or a number past the engine's integer range
        let state = read().map_err(|e| cardz_error(format!("a position the native engine can't hold: {e}"),
                                                   String::new()))?;
        Bound::new(py, Position::new(self.state(state)?))
    }

    /// A new `NativeState` holding `pos`: `_pos`, `status` and `cards` set, the rest read from
    /// the handle when asked.
    fn hand_out<'py>(&self, py: Python<'py>, pos: Position) -> PyResult<Bound<'py, PyAny>> {
        let h = &self.host;
        new_state(py, &h.state_type, &h.statuses, &h.cards, Position { owner: self.id, ..pos })
    }

    /// The Python `Move` of `m`: the kept one, or built (and kept while under the limit).
    fn move_object(&self, py: Python<'_>, cache: &mut HashMap<Move, Py<PyAny>>, m: Move) -> PyResult<Py<PyAny>> {
        if let Some(obj) = cache.get(&m) {
            return Ok(obj.clone_ref(py));
        }
        let obj = self.host.move_type.call1(py, m)?;
        if cache.len() < MOVE_CACHE_LIMIT {
            cache.insert(m, obj.clone_ref(py));
        }
        Ok(obj)
    }

    fn move_cache(&self) -> std::sync::MutexGuard<'_, HashMap<Move, Py<PyAny>>> {
        // a panic while the lock was held left the cache whole: every entry is a finished Move
        self.moves.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The position after the legal move `m` of `s`, with `moves` counted (`Play.apply`).
    fn after(&self, s: &State, m: Move) -> PyResult<Position> {
        let mut out = self.game.apply_legal(s, m)?;
        out.moves = s.moves + 1;
        Ok(Position::new(out))
    }

    /// `play` from each of `states` in turn, outside the GIL, with one generator seeded by
    /// `seed` for the batch, game by game (the playouts').
    fn batch<T: Send>(&self, py: Python<'_>, states: &[Bound<'_, PyAny>], seed: u64,
                      play: impl Fn(&Game, &State, &mut SplitMix) -> Result<T, ExprError> + Sync)
                      -> PyResult<Vec<T>> {
        let positions = states.iter().map(|s| self.position(s)).collect::<PyResult<Vec<_>>>()?;
        let states: Vec<&State> = positions.iter().map(|p| &p.get().state).collect();
        let game = &self.game;
        let got: Result<Vec<T>, ExprError> = py.detach(|| {
            let mut rng = SplitMix(seed);
            states.iter().map(|s| play(game, s, &mut rng)).collect()
        });
        Ok(got?)
    }
}

#[pymethods]
impl Engine {
    /// Load a game: `{"compiled": CompiledGame.to_json(), "plan": ...}` as JSON text; and the
    /// Python side: the `Move` class, the `State` subclass positions are handed out as (its
    /// slot `_pos` holds the handle), the three `Status` members and the game's card table. A
    /// game the engine can't play raises ValueError saying why. `deck`: what views need of the
    /// cards (`native.py`'s `deck_document`) as JSON text, None to leave views to Python.
    /// `callbacks`: `call(index, state, args)`, which runs the plan's Python call-backs.
    #[new]
    #[pyo3(signature = (plan, move_type, state_type, statuses, cards, deck = None, callbacks = None))]
    #[allow(clippy::too_many_arguments)] // the Python side's types, each once
    fn new(py: Python<'_>, plan: &str, move_type: Py<PyAny>, state_type: Bound<'_, PyType>,
           statuses: (Py<PyAny>, Py<PyAny>, Py<PyAny>), cards: Py<PyAny>, deck: Option<&str>,
           callbacks: Option<Py<PyAny>>) -> PyResult<Engine> {
        let base = py.import("cardz_core.engine.state")?.getattr("State")?;
        if !state_type.is_subclass(&base)? || state_type.is(&base) {
            return Err(PyValueError::new_err("positions are handed out as a subclass of State"));
        }
        let host = Host { move_type, state_type: state_type.unbind(), statuses: [statuses.0, statuses.1, statuses.2],
                          cards };
        let backs = callbacks.map(|call| PyCallBacks {
            call, state_type: host.state_type.clone_ref(py), cards: host.cards.clone_ref(py),
            statuses: [0, 1, 2].map(|i| host.statuses[i].clone_ref(py)),
        });
        guarded(|| {
            Game::from_json(plan)
                .and_then(|mut game| {
                    if let Some(backs) = backs {
                        game.set_host(Arc::new(backs));
                    }
                    let deck = match deck {
                        None => None,
                        Some(text) => {
                            let v = serde_json::from_str(text).map_err(|e| Unsupported(format!("bad deck JSON: {e}")))?;
                            Some(Arc::new(Deck::from_json(&v, game.n_cards())?))
                        }
                    };
                    let id = NEXT_ENGINE.fetch_add(1, Ordering::Relaxed);
                    Ok(Engine { game, id, host, moves: Mutex::new(HashMap::new()), deck })
                })
                .map_err(|why| PyValueError::new_err(why.0))
        })
    }

    /// `state` held by the engine: itself when it is a live NativeState, else a new one.
    /// LookupError for a view, unknown cards or the rules off.
    fn native_state<'py>(&self, state: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| {
            if self.handle(state).is_some() {
                return Ok(state.clone());
            }
            let pos = self.position(state)?;
            self.hand_out(state.py(), Position::new(pos.get().state.clone()))
        })
    }

    /// The handle of `state` (made from its fields unless it is a live NativeState's).
    #[pyo3(name = "position")]
    fn position_py<'py>(&self, state: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Position>> {
        guarded(|| self.position(state))
    }

    /// The legal moves of `state` as `Move`s, in the Python engine's order; a new list each
    /// call, of the same `Move` objects each time.
    fn legal_moves<'py>(&self, state: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        guarded(|| {
            let pos = self.position(state)?;
            let moves = pos.get().listing(&self.game)?;
            let mut cache = self.move_cache();
            let objs = moves.iter().map(|&m| self.move_object(state.py(), &mut cache, m)).collect::<PyResult<Vec<_>>>()?;
            PyList::new(state.py(), objs)
        })
    }

    /// The opening deal for `seed` (the generator's state: the seed modulo 2**64) as a new
    /// NativeState; None when the game's deal steps are not all native (the Python engine deals).
    fn deal<'py>(&self, py: Python<'py>, seed: u64) -> PyResult<Option<Bound<'py, PyAny>>> {
        guarded(|| match self.game.deal(seed)? {
            Some(s) => self.hand_out(py, Position::new(s)).map(Some),
            None => Ok(None),
        })
    }

    /// The position after `mv` with everything that follows, judged, as a new NativeState;
    /// None when `mv` is not legal.
    fn apply<'py>(&self, state: &Bound<'py, PyAny>, mv: Move) -> PyResult<Option<Bound<'py, PyAny>>> {
        guarded(|| {
            let pos = self.position(state)?;
            let p = pos.get();
            // a move not listed may still be legal (a Pile unit picked above its lowest card)
            if !p.listing(&self.game)?.contains(&mv) && !self.game.legal(&p.state, mv)? {
                return Ok(None);
            }
            // the new position comes with its listing when its judgement made one
            let (mut out, listing) = self.game.apply_listing(&p.state, mv)?;
            out.moves = p.state.moves + 1;
            let pos = Position { state: out, listing: listing.map(Ok).map_or_else(OnceLock::new, OnceLock::from), owner: 0 };
            self.hand_out(state.py(), pos).map(Some)
        })
    }

    /// `Game.undo(before, after)`: `before` again, with `moves` and `auto_moved` kept from
    /// `after` and `undos` one more than `after`'s.
    fn undo<'py>(&self, before: &Bound<'py, PyAny>, after: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        guarded(|| {
            let (b, a) = (self.position(before)?, self.position(after)?);
            let (b, a) = (&b.get().state, &a.get().state);
            let mut out = b.clone();
            out.moves = a.moves;
            out.undos = a.undos + 1;
            out.auto_moved = a.auto_moved;
            self.hand_out(before.py(), Position::new(out))
        })
    }

    /// Every legal move with the NativeState it leads to and that position's 64-bit key
    /// (without the counters): one node's expansion for a search, in the listing's order.
    fn expand<'py>(&self, state: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        guarded(|| {
            let py = state.py();
            let pos = self.position(state)?;
            let p = pos.get();
            let mut out = Vec::new();
            for &m in p.listing(&self.game)? {
                let child = self.after(&p.state, m)?;
                let key = key64(&child.state, false);
                let mv = self.move_object(py, &mut self.move_cache(), m)?;
                out.push((mv, self.hand_out(py, child)?, key).into_pyobject(py)?);
            }
            PyList::new(py, out)
        })
    }

    /// The 64-bit key of `state`'s position (`counters=False`: without `moves` and `undos`).
    #[pyo3(signature = (state, counters = true))]
    fn key64(&self, state: &Bound<'_, PyAny>, counters: bool) -> PyResult<u64> {
        guarded(|| Ok(key64(&self.position(state)?.get().state, counters)))
    }

    /// Random playouts from the given states, inside Rust with the engine's own seeded
    /// generator (one stream for the batch, game by game): per game (moves made, status).
    fn playouts(&self, py: Python<'_>, states: Vec<Bound<'_, PyAny>>, seed: u64, max_moves: u64)
                -> PyResult<Vec<(u64, i32)>> {
        guarded(|| self.batch(py, &states, seed, |game, s, rng| game.playout(s, rng, max_moves)))
    }

    /// `playouts` with the invariants of `Game::checked_playout` judged after every move
    /// (tests/test_invariants.py): per game (moves made, status, None or what broke).
    fn checked_playouts(&self, py: Python<'_>, states: Vec<Bound<'_, PyAny>>, seed: u64, max_moves: u64)
                        -> PyResult<Vec<(u64, i32, Option<String>)>> {
        guarded(|| {
            let got = self.batch(py, &states, seed, |game, s, rng| game.checked_playout(s, rng, max_moves))?;
            Ok(got.into_iter().map(|r| match r {
                Ok((moves, status)) => (moves, status, None),
                Err(why) => (0, -1, Some(why)),
            }).collect())
        })
    }

    /// The `scoring.value` on this board, None without `scoring`; LookupError when the score
    /// is not computed natively (the Python engine computes it) or `state` is a view.
    fn score_value(&self, state: &Bound<'_, PyAny>) -> PyResult<Option<i64>> {
        guarded(|| match self.game.score_value(&self.position(state)?.get().state) {
            Ok(v) => Ok(v),
            Err(ScoreError::NotNative(why)) => Err(PyLookupError::new_err(why)),
            Err(ScoreError::Expr(e)) => Err(e.into()),
        })
    }

    /// The view of the true `state`: (piles, pools). `unknown`: the card ids the player does
    /// not know (None: every face-down card); `labels`: the pool each card counts in (None: the
    /// pool it was dealt in).
    #[pyo3(signature = (state, unknown = None, labels = None))]
    fn view_of(&self, state: &Bound<'_, PyAny>, unknown: Option<Vec<usize>>, labels: Option<Vec<usize>>)
               -> PyResult<(Vec<Vec<i32>>, Pools)> {
        guarded(|| {
            let deck = self.deck()?;
            let held;
            let piles: &[Vec<i32>] = match self.handle(state) {
                Some(pos) => {
                    held = pos;
                    &held.get().state.piles
                }
                None => &state.getattr(intern!(state.py(), "piles"))?.extract::<Vec<Vec<i32>>>()?,
            };
            let unknown = unknown.map(|ids| {
                let mut bits = vec![false; deck.n_cards()];
                for id in ids {
                    if let Some(bit) = bits.get_mut(id) {
                        *bit = true;
                    }
                }
                bits
            });
            deck.view(piles, unknown.as_deref(), labels.as_deref()).map_err(|why| cardz_error(why, String::new()))
        })
    }

    /// The legal moves of a view, as `legal_moves` lists them.
    fn view_moves<'py>(&self, py: Python<'py>, view: ViewIn) -> PyResult<Bound<'py, PyList>> {
        guarded(|| {
            let (v, _) = self.view(view)?;
            let moves = self.game.legal_moves(&v)?;
            let mut cache = self.move_cache();
            let objs = moves.into_iter().map(|m| self.move_object(py, &mut cache, m)).collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, objs)
        })
    }

    /// `(fields, None)`: the view after `mv` (its pools unchanged; not made canonical, as
    /// `apply` on a view gives it); `(None, pool)`: the move turns up an unknown card of `pool`,
    /// whose reveal callback the caller runs; LookupError when it is not legal (the Python
    /// engine refuses it with its reason).
    fn view_apply<'py>(&self, py: Python<'py>, view: ViewIn, mv: Move)
                       -> PyResult<(Option<Bound<'py, PyTuple>>, Option<usize>)> {
        guarded(|| {
            let (v, _) = self.view(view)?;
            self.legal_on_view(&v, mv)?;
            match self.game.play_view(&v, mv, None)? {
                Played::Done(after, _) => Ok((Some(state_fields(py, &after)?), None)),
                Played::Unknown(pool) => Ok((None, Some(pool))),
                Played::Cut(..) => Err(view_error(ViewError::Elsewhere, &Failed::default())),
            }
        })
    }

    /// `CountsDeck.outcomes` of `mv` on the view, within `MAX_OUTCOMES` (`max_outcomes`) and
    /// `MAX_OUTCOME_WORK` (`max_work`): ([(numerator, denominator, revealed, (fields, pools))],
    /// coverage as (numerator, denominator) or None for all, stopped).
    fn outcomes<'py>(&self, py: Python<'py>, view: ViewIn, mv: Move, limit: Option<usize>, max_outcomes: usize,
                     max_work: usize)
                     -> PyResult<ListingOut<'py>> {
        guarded(|| {
            let deck = self.deck()?;
            let (v, counts) = self.view(view)?;
            self.legal_on_view(&v, mv)?;
            let failed = Failed::default();
            let mut price = || -> Result<usize, ViewError> {
                let rng = py.import("random").and_then(|r| r.getattr("Random")?.call1((0,)))
                    .map_err(|e| *failed.borrow_mut() = Some(e)).map_err(|()| ViewError::Pick)?;
                let got = self.game.sample(deck, &v, counts.clone(), mv, picker(rng.unbind(), &failed))?;
                Ok(got.1.len())
            };
            let listing = self.game.outcomes(deck, &v, &counts, mv, Caps { limit, max_outcomes, max_work }, &mut price)
                .map_err(|e| view_error(e, &failed))?;
            let outcomes = listing.outcomes.into_iter().map(|o| {
                Ok((o.probability.num, o.probability.den, o.revealed, (state_fields(py, &o.view)?, o.pools)))
            }).collect::<PyResult<Vec<_>>>()?;
            Ok((outcomes, listing.kept.map(|Ratio { num, den }| (num, den)), listing.stopped))
        })
    }

    /// `CountsDeck.sample`: one outcome of `mv` on the view, its cards drawn with the Python
    /// generator `rng`: (probability, revealed, (fields, pools)).
    fn sample<'py>(&self, py: Python<'py>, view: ViewIn, mv: Move, rng: Py<PyAny>)
                   -> PyResult<(f64, Vec<u32>, ViewOut<'py>)> {
        guarded(|| {
            let deck = self.deck()?;
            let (v, counts) = self.view(view)?;
            self.legal_on_view(&v, mv)?;
            let failed = Failed::default();
            let (p, revealed, after, pools) = self.game.sample(deck, &v, counts, mv, picker(rng, &failed))
                .map_err(|e| view_error(e, &failed))?;
            Ok((p, revealed, (state_fields(py, &after)?, pools)))
        })
    }

    /// The Python call-backs the game's rules call (their indices), each once.
    #[getter]
    fn calls_back(&self) -> Vec<usize> {
        self.game.calls_back()
    }

    /// How many depots the game has.
    #[getter]
    fn n_depots(&self) -> usize {
        self.game.n_depots()
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    crate::solver::python::stop_on_signals();
    m.add_class::<Engine>()?;
    m.add_class::<Position>()?;
    m.add_class::<crate::solver::python::Solver>()?;
    m.add_class::<crate::solver::python::OneWaySearch>()?;
    m.add_class::<crate::solver::python::KlondikeSearch>()?;
    m.add_class::<crate::expr_probe::ExprProbe>()
}
