//! Padded sumcheck for Longfellow's layered quadratic circuits.
//!
//! The prover ([`Prover`]) evaluates a circuit and runs the sumcheck layer
//! by layer, subtracting a committed one-time [`Pad`] from every message it
//! writes to the Fiat–Shamir transcript, so the transcript reveals nothing.
//! The verifier cannot check such a transcript directly; instead
//! [`constraints`] replays it and emits the linear constraints (and
//! [`quadratic_constraints`]) that the committed witness (private inputs
//! followed by the pad) must satisfy, which Ligero then proves.
//!
//! Everything is byte-compatible with Google's longfellow-zk: transcript
//! order, proof encoding ([`SumcheckProof::write`]), witness layout and
//! constraint order.
//!
//! With the default `parallel` feature the inner loops run on rayon; the
//! output is identical to the serial build because field arithmetic is
//! exact.
#![forbid(unsafe_code)]

mod circuit;
mod constraints;
#[cfg(feature = "prover")]
mod dense;
mod eq;
mod eq_split;
#[cfg(feature = "prover")]
mod eq_weights;
mod error;
mod ligero_types;
mod pad;
#[cfg(feature = "prover")]
mod par;
mod poly;
mod proof;
#[cfg(feature = "prover")]
mod prover;
#[cfg(feature = "prover")]
mod quad;
mod shape;
mod statement;
#[cfg(feature = "prover")]
mod stream_bind;
#[cfg(feature = "prover")]
mod wires;

pub use circuit::{LayeredCircuit, SimpleCircuit, SimpleLayer, Term};
pub use constraints::{constraints, Constraints};
#[cfg(feature = "prover")]
pub use dense::{bind_in_place, bind_into, round_coefficients};
pub use eq::{eq2_table, eq_table, log2_ceil};
pub use error::SumcheckError;
pub use ligero_types::{LinearTerm, QuadraticConstraint};
pub use pad::{committed_witness, layer_pad_len, pad_len, quadratic_constraints, witness_len, Pad};
#[cfg(feature = "prover")]
pub use par::Scatter;
pub use poly::{Lagrange, RoundPoly};
pub use proof::{LayerProof, SumcheckProof};
#[cfg(feature = "prover")]
pub use prover::{
    evaluate_streaming, evaluate_streaming_owned, prove_streaming, Evaluation, Prover, ProverOutput,
};
#[cfg(feature = "prover")]
#[doc(hidden)]
pub use prover::{evaluate_streaming_tuned, prove_streaming_tuned};
#[cfg(feature = "prover")]
pub use quad::{HQuad, PreparedLayer};
pub use shape::{check_shape, MAX_LOGW};
pub use statement::{write_statement, BINDING_CAPACITY};
#[cfg(feature = "prover")]
pub use wires::Tuning;
