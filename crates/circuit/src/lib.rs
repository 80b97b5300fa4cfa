//! Longfellow circuits: decoding, identification and the catalog.
//!
//! One in-memory representation ([`Circuit`]) serves prover and verifier.
//! It is filled from any of Google's file forms:
//!
//! | form | what | entry point |
//! |---|---|---|
//! | LFC1 | one circuit, 3-byte fields, one record per term | [`decode_lfc1`], [`load_circuit`] |
//! | LFC2 | one circuit, ULEB128, delta table + segments + tokens | [`decode_lfc2`], [`load_circuit`] |
//! | `<hash>` / `.lfa1` | zstd frame of a sig LFC1 followed by a hash LFC1 | [`load_pair`] |
//! | `.lfa2` | (zstd) LFA2 archive of two LFC2 circuits | [`load_pair`] |
//!
//! zstd frames are decoded by the pure-Rust `ruzstd` as a stream: an LFC1
//! pair (up to 115 MB unpacked) is parsed as it is decompressed and never
//! held whole. Layers are stored in LFC2's compact form (see
//! [`Layer::expand_terms`]).
//!
//! # Untrusted input
//! Every decoder returns a [`CircuitError`] for any malformed input and
//! never panics. Every count is bounded by [`limits`] before it affects an
//! allocation; wire indices, constant and table indices are range-checked;
//! constants must be canonical; nothing may follow a complete structure.
//! zstd frames must declare a window of at most 16 MiB; unknown files may
//! unpack to at most [`limits::MAX_UNPACKED`] (128 MiB), catalogued files to
//! exactly their recorded size.
//!
//! # Identification
//! The circuit ID ([`Circuit::compute_id`]) is the C++ `circuit_id`; the
//! ZkSpec circuit hash of a pair is SHA-256(sig ID ‖ hash ID)
//! ([`zkspec_hash`]). [`catalog`] lists Google's published files by SHA-256
//! so that loading one of them skips recomputing its IDs.
#![forbid(unsafe_code)]

mod assemble;
mod budget;
pub mod catalog;
mod catalog_data;
mod circuit;
mod compact;
mod error;
mod header;
mod id;
mod input;
mod lfa2;
mod lfc1;
mod lfc2;
pub mod limits;
mod load;
mod reach;
mod span;
mod term_blocks;
mod zstd;

pub use catalog::{CatalogEntry, CatalogFile, FileForm};
pub use circuit::{Blocks, Circuit, Layer, Term};
pub use error::CircuitError;
pub use id::zkspec_hash;
pub use lfa2::Lfa2Meta;
pub use load::{
    decode_lfc1, decode_lfc2, load_any, load_any_with, load_circuit, load_pair, load_pair_with,
    AnyCircuit, CircuitPair, LoadOptions, PairFormat, PairSource,
};
pub use longfellow_field::Field;
pub use span::TermSpan;
