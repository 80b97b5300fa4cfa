//! Every integration test of `longfellow-zk-prover` in one binary: each file
//! used to be its own binary, which re-instantiated the crate's generic
//! prover (about 10–30 s of an optimised build each).

mod isrg_one_circuit;
mod mdoc_pair;
mod spec_proofs;
