//! Randomness for the Longfellow prover.
//!
//! Byte-exact reproduction of reference proofs depends on *how* random bytes
//! are consumed, not only on the generator: a field element is drawn by
//! repeated attempts of exactly [`Field::SAMPLE_BYTES`] bytes each, one
//! `fill_bytes` call per attempt. That rule lives in `longfellow-sample`
//! (re-exported here), which the Fiat–Shamir transcript also uses over its
//! own byte stream; this crate adds the generators.
//!
//! The [`deterministic`] generators reproduce the seeds the published vectors
//! were made with. They are **not cryptographic** and are meant for tests and
//! conformance runs only; a production prover uses `OsRng` (feature
//! `os-rng`) or another [`CryptoRng`].
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

#[cfg(feature = "os-rng")]
mod choice;
pub mod deterministic;

pub use deterministic::{ConstantDrawRng, CounterRng, MdocLcg, SpecLcg};
pub use longfellow_sample::{
    choose, fill_elements, fill_subfield_elements, random_element, random_nat,
    random_subfield_element, try_choose, MAX_SAMPLE_BYTES,
};

pub use longfellow_field::Field;
pub use rand_core::{CryptoRng, RngCore};

#[cfg(feature = "os-rng")]
pub use choice::SeededOrOs;
/// The operating system's generator, for production provers.
#[cfg(feature = "os-rng")]
pub use rand_core::OsRng;
