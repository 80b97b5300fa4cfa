//! Google's `mdoc_zk.h` C ABI over the pure-Rust Longfellow prover and
//! verifier, so wallets and relying parties that call Google's library (or
//! Multipaz's `zkp`) link this one unchanged.
//!
//! - [`abi`]: the structs and error enums, laid out as the header declares.
//! - [`specs`]: the exported `kZkSpecs` table and its lookups.
//! - `ffi`: the entry points (`run_mdoc_prover`, `run_mdoc_verifier`,
//!   `circuit_id`, `find_zk_spec`, `generate_circuit`, Multipaz's extras and
//!   `longfellow_last_error`).
//! - [`run`]: what the entry points do, on checked Rust values.
//! - [`error`]: typed failures, their ABI codes, the per-thread message.
//!
//! The header is `include/longfellow/mdoc_zk.h`; `tests/header.rs` checks
//! it against these declarations. Feature `multipaz` switches
//! `run_mdoc_prover` to Multipaz's signature (docType before the spec).
//!
//! Differences from Google's library, all within the same ABI: over-long
//! attribute fields are refused instead of truncated; `circuit_id` accepts
//! a null spec; a spec and a circuit for different ZkSpecs are refused;
//! every failure's full message is available per thread; panics never
//! cross the boundary; randomness is the operating system's.

pub mod abi;
pub mod error;
mod ffi;
pub mod run;
pub mod specs;

pub use ffi::*;
