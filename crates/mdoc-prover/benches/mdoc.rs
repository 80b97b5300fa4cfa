//! Prove and verify the version-7 one-attribute mdoc statement of Google's
//! reference proof (`cargo bench -p longfellow-mdoc-prover`).

use criterion::{criterion_group, criterion_main, Criterion};
use longfellow_circuit::load_pair;
use longfellow_mdoc::{MdocRequest, RequestedAttribute, Verifier};
use longfellow_mdoc_prover::Prover;
use longfellow_random::MdocLcg;

use longfellow_testvectors::google::{
    mdoc_case, REFERENCE_CASE, REFERENCE_DOC_TYPE, REFERENCE_NAMESPACE, REFERENCE_NOW, V7_1,
};

/// The stored v7 one-attribute proof's statement: family_name of the
/// reference case at the reference time.
fn inputs() -> (MdocRequest, Vec<u8>) {
    let case = mdoc_case(REFERENCE_CASE);
    let request = MdocRequest {
        issuer_pk: (case.pkx, case.pky),
        transcript: case.transcript,
        now: *REFERENCE_NOW,
        doc_type: REFERENCE_DOC_TYPE.into(),
        attributes: vec![RequestedAttribute {
            namespace: REFERENCE_NAMESPACE.into(),
            id: "family_name".into(),
            value_cbor: b"\x6aMustermann".to_vec(),
        }],
    };
    (request, case.mdoc)
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
