//! Prove and verify the version-7 one-attribute mdoc statement of Google's
//! reference proof (`cargo bench -p longfellow-mdoc-prover`).

use criterion::{criterion_group, criterion_main, Criterion};
use longfellow_circuit::load_pair;
use longfellow_mdoc::{MdocRequest, RequestedAttribute, Verifier};
use longfellow_mdoc_prover::Prover;
use longfellow_random::MdocLcg;

const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";

fn hex32(s: &str) -> [u8; 32] {
    let v = hex::decode(s.trim_start_matches("0x")).expect("hex");
    let mut out = [0u8; 32];
    out[32 - v.len()..].copy_from_slice(&v);
    out
}

fn inputs() -> (MdocRequest, Vec<u8>) {
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
    let request = MdocRequest {
        issuer_pk: (hex32(s("pkx")), hex32(s("pky"))),
        transcript: hex::decode(s("transcript_hex")).expect("transcript"),
        now: *b"2024-10-01T09:00:00Z",
        doc_type: "org.iso.18013.5.1.mDL".into(),
        attributes: vec![RequestedAttribute {
            namespace: "org.iso.18013.5.1".into(),
            id: "family_name".into(),
            value_cbor: b"\x6aMustermann".to_vec(),
        }],
    };
    (request, hex::decode(s("mdoc_hex")).expect("mdoc"))
}

fn bench(c: &mut Criterion) {
    let file = longfellow_testvectors::read(&format!("google/mdoc/circuits/{V7_1}.lfa2"));
    let mut g = c.benchmark_group("mdoc_v7_1");
    g.sample_size(10);
    g.bench_function("load_lfa2", |b| b.iter(|| load_pair(&file).expect("pair")));
    let pair = load_pair(&file).expect("pair");
    let (request, mdoc) = inputs();
    let prover = Prover::new(&pair).expect("prover");
    let verifier = Verifier::new(&pair).expect("verifier");
    let proof = prover
        .prove(&request, &mdoc, &mut MdocLcg::new(42))
        .expect("prove");
    g.bench_function("prove", |b| {
        b.iter(|| prover.prove(&request, &mdoc, &mut MdocLcg::new(42)))
    });
    g.bench_function("verify", |b| b.iter(|| verifier.verify(&request, &proof)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
