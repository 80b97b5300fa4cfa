//! Test support: random circuits and helpers for the JSON vectors.
#![allow(dead_code, clippy::unwrap_used)]

use longfellow_field::Field;

pub mod random_circuit;

pub fn elt<F: Field>(hex_str: &str) -> F {
    F::from_bytes(&hex::decode(hex_str).unwrap()).expect("canonical")
}
