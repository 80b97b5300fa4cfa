//! Every integration test of `longfellow-ligero-prover` in one binary: each file
//! used to be its own binary, which re-instantiated the crate's generic
//! prover (about 10–30 s of an optimised build each).

mod common;
mod google_vector;
mod isrg_one_circuit;
mod roundtrip;
mod spec_proofs;
mod tamper;
