//! Longfellow's mdoc age proof, holder side: proves that a credential
//! (ISO 18013-5 DeviceResponse) signed by the requested issuer discloses the
//! requested attributes, byte-for-byte as Google's prover
//! (`run_mdoc_prover`) does for the same random bytes.
//!
//! ```text
//! let prover = Prover::new(&pair)?;          // once per circuit pair
//! let proof = prover.prove(&request, mdoc, &mut rng)?;
//! ```
//!
//! Random bytes are consumed in the reference order: 96 bytes for the six
//! prover MAC keys a_p; the hash circuit's pad, Ligero tableau and column
//! nonces; then the signature circuit's. Nothing else draws randomness, so
//! the deterministic generator of the published proofs reproduces them.
//!
//! Credentials the circuits cannot prove are refused before any proving
//! work, with the specific [`MdocError`] (see `longfellow-mdoc-witness`).
//!
//! The default test run reproduces two of Google's eight published proofs
//! (v7 and v6, one attribute) and verifies them; the other six are
//! `#[ignore]`d (2–4 s each in the dev profile, ~35 s for all eight):
//! `cargo test -p longfellow-mdoc-prover -- --include-ignored`.
#![forbid(unsafe_code)]

mod prover;

pub use longfellow_mdoc_witness::MdocError;
pub use longfellow_zk_prover::LayerStep;
pub use prover::{Phase, ProveError, Prover};
