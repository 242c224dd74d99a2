//! When a search stops for time: its deadline passed, or the user stopped the command (Ctrl-C,
//! SIGTERM, SIGHUP). A search runs with Python's lock released, so Python's own signal handlers
//! cannot run until it returns, which at a command's defaults is a minute later. The Python
//! module says how to ask whether a signal came (`poll_with`); the searches ask through `past`,
//! at most every `POLL_EVERY`, and once asked to stop a thread's searches stay stopped until
//! its next search `start`s.

use std::cell::Cell;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How often a search asks whether it was stopped: soon enough to feel at once, seldom enough
/// to cost nothing measurable.
const POLL_EVERY: Duration = Duration::from_millis(50);

static POLL: OnceLock<fn() -> bool> = OnceLock::new();

thread_local! {
    static STOPPED: Cell<bool> = const { Cell::new(false) };
    static NEXT_POLL: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// How to ask whether a signal asked this thread to stop (set once, by the Python module).
pub fn poll_with(poll: fn() -> bool) {
    let _ = POLL.set(poll);
}

/// A search begins on this thread: not stopped, and the first ask is due at once.
pub fn start() {
    STOPPED.with(|s| s.set(false));
    NEXT_POLL.with(|n| n.set(None));
}

/// Whether a search must stop now: `deadline` passed, or the user stopped the command.
pub fn past(deadline: Instant) -> bool {
    let now = Instant::now();
    now > deadline || stopped_at(now)
}

fn stopped_at(now: Instant) -> bool {
    if STOPPED.with(Cell::get) {
        return true;
    }
    let Some(poll) = POLL.get() else { return false };
    let due = NEXT_POLL.with(|n| match n.get() {
        Some(at) if now < at => false,
        _ => {
            n.set(Some(now + POLL_EVERY));
            true
        }
    });
    if due && poll() {
        STOPPED.with(|s| s.set(true));
        return true;
    }
    false
}
