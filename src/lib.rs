//! The native engine of cardz (`cardz_core._native`): the compiled game executed in Rust.
//! `engine` holds the rules and knows nothing of Python; `python` (the `python` feature, which
//! the extension build turns on) is the boundary, where no panic gets through.

pub mod engine;

#[cfg(feature = "python")]
mod python;
