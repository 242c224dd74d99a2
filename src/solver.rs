//! The perfect-information solver's search, natively (docs/solver.md, "The native search"):
//! the depth-first search with the lost set shared across tries, over the native engine's own
//! moves, with the prunings the Python analysis decided and handed over as a plan. Nothing
//! here decides a pruning or knows a vocabulary word.

pub mod clock;
pub mod key;
pub mod klondike;
pub mod oneway;
pub mod plan;
pub mod problem;
pub mod search;

#[cfg(feature = "python")]
pub(crate) mod python;
