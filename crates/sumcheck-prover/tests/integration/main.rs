//! Every integration test of `longfellow-sumcheck-prover` in one binary: each file
//! used to be its own binary, which re-instantiated the crate's generic
//! prover (about 10–30 s of an optimised build each).

mod algebra;
mod bind_vectors;
mod common;
mod isrg_one_circuit;
mod observed_steps;
mod random_circuits;
mod spans;
mod strategies;
