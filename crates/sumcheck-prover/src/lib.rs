//! The prover of Longfellow's padded sumcheck.
//!
//! [`evaluate_streaming`] computes every wire of a circuit from its inputs
//! and [`prove_streaming`] runs the sumcheck layer by layer, subtracting a
//! one-time pad ([`sample_pad`]) from every message it writes to the
//! transcript. Everything the verifier also knows (proof format, pad
//! layout, statement, constraint replay) comes from `longfellow-sumcheck`,
//! which this crate depends on and which never depends on it.
//!
//! With the default `parallel` feature the inner loops run on rayon
//! (through `longfellow-par`); the output is identical to the serial build
//! because field arithmetic is exact.
//!
//! The `reference` feature adds [`reference`], the prepared prover that
//! tests and conformance checks compare the streaming prover against.
#![forbid(unsafe_code)]

mod dense;
mod eq_weights;
mod evaluate;
mod group_sums;
mod linear;
mod pad;
mod prover;
mod quad;
#[cfg(feature = "reference")]
pub mod reference;
mod rounds;
mod step;
mod stream_bind;
mod wires;

pub use dense::{bind_in_place, bind_into, round_coefficients};
#[doc(hidden)]
pub use evaluate::evaluate_streaming_tuned;
pub use evaluate::{
    evaluate_streaming, evaluate_streaming_observed, evaluate_streaming_owned, Evaluation,
};
pub use longfellow_par::Scatter;
pub use pad::sample_pad;
#[doc(hidden)]
pub use prover::{bound_layer_form, prove_streaming_tuned};
pub use prover::{prove_streaming, prove_streaming_observed, ProverOutput};
pub use quad::HQuad;
#[doc(hidden)]
pub use rounds::{layer_round_values, RoundStrategy};
pub use step::LayerStep;
pub use wires::Tuning;
