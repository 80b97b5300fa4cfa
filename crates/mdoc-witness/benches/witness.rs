//! Cost of parsing a DeviceResponse and of building both circuits' inputs
//! (dominated by the two ECDSA ladders and ~50 SHA-256 block witnesses).

use criterion::{criterion_group, criterion_main, Criterion};
use longfellow_mdoc_witness::{
    build_witnesses, ecdsa, parse_device_response, MacInputs, MdocRequest, RequestedAttribute,
    ZkSpecInfo,
};

fn reference_case() -> (Vec<u8>, MdocRequest) {
    let case =
        longfellow_testvectors::google::mdoc_case(longfellow_testvectors::google::REFERENCE_CASE);
    let mdoc = case.mdoc;
    let parsed = parse_device_response(&mdoc).expect("parse");
    let attributes = parsed
        .items
        .iter()
        .take(4)
        .map(|i| RequestedAttribute {
            namespace: i.namespace.clone(),
            id: i.element_identifier.clone(),
            value_cbor: i.element_value.clone(),
        })
        .collect();
    let request = MdocRequest {
        issuer_pk: (case.pkx, case.pky),
        transcript: case.transcript,
        now: case.now.as_bytes().try_into().expect("now"),
        doc_type: case.doc_type,
        attributes,
    };
    (mdoc, request)
}

/// A signature that the circuit can prove (r is R's x-coordinate itself):
/// fixed key, message hashes tried in order until one works.
fn ecdsa_case() -> (p256::AffinePoint, [u8; 32], [u8; 64]) {
    use p256::ecdsa::signature::hazmat::PrehashSigner;
    let key = p256::ecdsa::SigningKey::from_slice(&[7u8; 32]).expect("key");
    let pk = *key.verifying_key().as_affine();
    (0u8..=255)
        .find_map(|k| {
            let e = [k; 32];
            let sig: p256::ecdsa::Signature = key.sign_prehash(&e).ok()?;
            let sig: [u8; 64] = sig.to_bytes().into();
            ecdsa::witness(&pk, &e, &sig, "bench").ok()?;
            Some((pk, e, sig))
        })
        .expect("a provable signature")
}

fn bench(c: &mut Criterion) {
    let (pk, e, sig) = ecdsa_case();
    c.bench_function("ecdsa::witness", |b| {
        b.iter(|| ecdsa::witness(&pk, &e, &sig, "bench").expect("witness"))
    });
    let (mdoc, request) = reference_case();
    let keys = MacInputs {
        prover_keys: [[1, 2], [3, 4], [5, 6]],
        verifier_key: 7,
    };
    c.bench_function("parse_device_response", |b| {
        b.iter(|| parse_device_response(&mdoc).expect("parse"))
    });
    let spec = ZkSpecInfo {
        version: 7,
        num_attributes: 4,
    };
    c.bench_function("build_witnesses v7/4", |b| {
        b.iter(|| build_witnesses(&spec, &request, &mdoc, &keys).expect("witness"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
