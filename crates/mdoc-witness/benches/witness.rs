//! Cost of parsing a DeviceResponse and of building both circuits' inputs
//! (dominated by the two ECDSA ladders and ~50 SHA-256 block witnesses).

use criterion::{criterion_group, criterion_main, Criterion};
use longfellow_mdoc_witness::{
    build_witnesses, ecdsa, parse_device_response, MacInputs, MdocRequest, RequestedAttribute,
    ZkSpecInfo,
};

fn reference_case() -> (Vec<u8>, MdocRequest) {
    let json: serde_json::Value = serde_json::from_str(&longfellow_testvectors::read_to_string(
        "google/mdoc/cases.json",
    ))
    .expect("cases.json");
    let case = json
        .as_array()
        .expect("array")
        .iter()
        .find(|c| c["name"] == "birthdate_1971_09_01-mdoc[3].json")
        .expect("case");
    let s = |k: &str| case[k].as_str().expect(k);
    let coord =
        |k: &str| longfellow_mdoc_witness::public::parse_coordinate(s(k)).expect("coordinate");
    let mdoc = hex::decode(s("mdoc_hex")).expect("hex");
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
        issuer_pk: (coord("pkx"), coord("pky")),
        transcript: hex::decode(s("transcript_hex")).expect("hex"),
        now: s("now").as_bytes().try_into().expect("now"),
        doc_type: s("doc_type").into(),
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
