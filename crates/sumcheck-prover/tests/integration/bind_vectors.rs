//! ISRG's bind vectors: dense 1-D binding (wire arrays) and sparse 2-D
//! binding of the hand variables (the quadratic form after `g` is bound).
#![allow(clippy::unwrap_used)]

use crate::common;

use longfellow_field::{Field, Fp128, Fp256, Gf2_128};
use longfellow_sumcheck::Term;
use longfellow_sumcheck_prover::reference::PreparedLayer;
use longfellow_sumcheck_prover::{bind_into, HQuad};
use serde_json::Value;

fn load(name: &str) -> Value {
    serde_json::from_slice(&longfellow_testvectors::read(&format!(
        "isrg/bind/{name}.json"
    )))
    .unwrap()
}

fn elts<F: Field>(v: &Value) -> Vec<F> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| common::elt(s.as_str().unwrap()))
        .collect()
}

fn dense<F: Field>(name: &str) {
    let v = load(name);
    let cases = v["test_cases"].as_array().unwrap();
    assert!(!cases.is_empty());
    for case in cases {
        let input: Vec<F> = elts(&case["input"]);
        let r: F = common::elt(case["binding"].as_str().unwrap());
        let want: Vec<F> = elts(&case["output"]);
        let mut got = Vec::new();
        bind_into(&input, r, &mut got);
        assert_eq!(got, want, "{}", case["description"]);
    }
}

fn sparse_entries<F: Field>(v: &Value) -> Vec<([u32; 2], F)> {
    let mut out: Vec<([u32; 2], F)> = v["contents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let w = |k: &str| c[k].as_u64().unwrap() as u32;
            assert_eq!(w("gate_index"), 0);
            (
                [w("left_wire_index"), w("right_wire_index")],
                common::elt(c["coefficient"].as_str().unwrap()),
            )
        })
        .collect();
    out.sort_by_key(|(h, _)| *h);
    out
}

fn sparse_2d<F: Field>(name: &str) {
    let v = load(name);
    for case in v["test_cases"].as_array().unwrap() {
        let input = sparse_entries::<F>(&case["input"]);
        let bindings: Vec<F> = elts(&case["bindings"]);
        let outputs = case["outputs"].as_array().unwrap();
        assert_eq!(bindings.len(), outputs.len());
        let logw = bindings.len().div_ceil(2);
        let mut terms: Vec<Term<F>> = input
            .iter()
            .map(|&([h0, h1], k)| Term { g: 0, h0, h1, k })
            .collect();
        assert!(terms.iter().all(|t| !bool::from(t.k.is_zero())));
        let layer = PreparedLayer::new(0, logw, 1 << logw, 1, &mut terms).unwrap();
        let mut quad = HQuad::new();
        layer.bind_g(&[F::ONE], F::ZERO, &mut quad);
        for (i, (r, want)) in bindings.iter().zip(outputs).enumerate() {
            quad.bind_h(i % 2, *r);
            let mut got: Vec<_> = quad.entries().collect();
            got.sort_by_key(|(h, _)| *h);
            assert_eq!(
                got,
                sparse_entries::<F>(want),
                "{} step {i}",
                case["description"]
            );
        }
    }
}

#[test]
fn dense_1d_fp256() {
    longfellow_testvectors::require!();
    dense::<Fp256>("dense_1d_array_bind_FieldP256");
}

#[test]
fn dense_1d_fp128() {
    longfellow_testvectors::require!();
    dense::<Fp128>("dense_1d_array_bind_FieldP128");
}

#[test]
fn dense_1d_gf2_128() {
    longfellow_testvectors::require!();
    dense::<Gf2_128>("dense_1d_array_bind_Field2_128");
}

#[test]
fn sparse_2d_fp256() {
    longfellow_testvectors::require!();
    sparse_2d::<Fp256>("sparse_2d_array_bind_FieldP256");
}

#[test]
fn sparse_2d_fp128() {
    longfellow_testvectors::require!();
    sparse_2d::<Fp128>("sparse_2d_array_bind_FieldP128");
}

#[test]
fn sparse_2d_gf2_128() {
    longfellow_testvectors::require!();
    sparse_2d::<Gf2_128>("sparse_2d_array_bind_Field2_128");
}
