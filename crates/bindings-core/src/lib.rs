//! The common layer under the idiomatic bindings (`longfellow-wasm`,
//! `longfellow-uniffi`).
//!
//! Foreign callers hand over strings and byte arrays; this crate checks them
//! once, in one place, so every binding refuses the same inputs with the same
//! [`BindingError`] code:
//!
//! - [`Circuit::load`] reads a circuit pair in any published form and finds
//!   its ZkSpec;
//! - [`Statement`] is what prover and verifier agree on (issuer key as `0x`
//!   hex, SessionTranscript, disclosed attributes, time, docType);
//! - [`Circuit::prove`] / [`Circuit::verify`] run the mdoc prover and
//!   verifier;
//! - [`zk_specs`] and [`match_spec`] list the ZkSpec table and pick the spec
//!   for a request's attribute count.
//!
//! The randomness source is the caller's: bindings pass the operating
//! system's generator, tests may pass a deterministic one.
#![forbid(unsafe_code)]

mod circuit;
mod error;
mod parse;
mod spec;

pub use circuit::{Attribute, Circuit, Statement};
pub use error::{BindingError, ErrorCode};
pub use parse::{parse_coordinate, parse_now, MAX_TRANSCRIPT_BYTES};
pub use spec::{match_spec, zk_specs, SpecInfo};
