//! The verifier's side of Longfellow's padded sumcheck over layered
//! quadratic circuits.
//!
//! A prover (`longfellow-sumcheck-prover`) evaluates a circuit and runs the
//! sumcheck layer by layer, subtracting a committed one-time [`Pad`] from
//! every message it writes to the Fiat–Shamir transcript, so the transcript
//! reveals nothing. The verifier cannot check such a transcript directly;
//! instead [`constraints`] replays it and emits the linear constraints (and
//! [`quadratic_constraints`]) that the committed witness (private inputs
//! followed by the pad) must satisfy, which Ligero then proves.
//!
//! This crate holds what both sides agree on: the circuit view
//! ([`LayeredCircuit`]), the proof encoding ([`SumcheckProof::write`]), the
//! statement and transcript order, the pad's place in the witness, the
//! round polynomials' Lagrange basis, and the constraint replay. It draws
//! no randomness and depends on no prover crate.
//!
//! Everything is byte-compatible with Google's longfellow-zk: transcript
//! order, proof encoding, witness layout and constraint order.
#![forbid(unsafe_code)]

mod circuit;
mod constraints;
mod eq;
mod eq_split;
mod error;
mod pad;
mod poly;
mod proof;
mod shape;
mod statement;

pub use circuit::{LayeredCircuit, SimpleCircuit, SimpleLayer, Term, TermSpan, TERM_BLOCK};
pub use constraints::{constraints, constraints_with_bound_quads};
pub use eq::{eq2_table, eq_table, log2_ceil};
pub use eq_split::SplitEq2;
pub use error::SumcheckError;
pub use longfellow_constraints::{Constraints, LinearTerm, QuadraticConstraint};
pub use pad::{committed_witness, layer_pad_len, pad_len, quadratic_constraints, witness_len, Pad};
pub use poly::{Lagrange, RoundPoly};
pub use proof::{LayerProof, SumcheckProof};
pub use shape::{check_shape, MAX_LOGW};
pub use statement::{begin_circuit, write_statement, BINDING_CAPACITY};
