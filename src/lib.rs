//! The native engine of cardz (`cardz_core._native`): the compiled game executed in Rust.
//! `engine` holds the rules and knows nothing of Python, `expr` runs rule expressions; `python` (the `python` feature, which
//! the extension build turns on) is the boundary, where no panic gets through.

pub mod engine;
pub mod expr;
pub mod solver;

#[cfg(feature = "python")]
mod expr_probe;
#[cfg(feature = "python")]
mod python;
