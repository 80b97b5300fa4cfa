//! The Fiat–Shamir transcript of Longfellow.
//!
//! Prover messages are absorbed into a running SHA-256 as tagged records;
//! challenges are read from an AES-256 counter-mode stream keyed by the hash of
//! everything absorbed so far. Byte-exact agreement with the reference is the
//! whole point of this crate: the record framing, the element encodings, the
//! stream restart on every write and the rejection rules for elements and
//! integers all change the challenges, and so the proof bytes.
//!
//! Framing of one record:
//!
//! | message          | bytes absorbed                               |
//! |------------------|----------------------------------------------|
//! | byte string      | `00 ‖ u64le(len) ‖ data`                     |
//! | one element      | `01 ‖ encoding`                              |
//! | element array    | `02 ‖ u64le(count) ‖ encodings` (`01` legacy) |
//!
//! The challenge stream after a write is block `i = 0, 1, …` of
//! AES-256(key = SHA-256 snapshot, 16-byte little-endian `i`).
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

mod prf;
mod transcript;

pub use transcript::{ArrayTag, Transcript};
