//! Load, prove and verify for every published circuit found locally (v6 and
//! v7, 1 to 4 attributes): `cargo bench -p longfellow-benches`, or one
//! circuit with a filter, e.g. `cargo bench -p longfellow-benches -- v7/1`.

use criterion::{criterion_group, criterion_main, Criterion};
use longfellow_circuit::load_pair;
use longfellow_mdoc::Verifier;
use longfellow_mdoc_prover::Prover;
use longfellow_random::OsRng;

fn end_to_end(c: &mut Criterion) {
    for (spec, path) in longfellow_benches::circuits() {
        let name = format!("v{}/{}", spec.info.version, spec.info.num_attributes);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("skipped: {name}: {}: {e}", path.display());
                continue;
            }
        };
        let mut group = c.benchmark_group(&name);
        group.sample_size(10);
        group.bench_function("load", |b| {
            b.iter(|| load_pair(&bytes).map(|p| p.zkspec_hash))
        });
        let Ok(pair) = load_pair(&bytes) else {
            eprintln!("skipped: {name}: {} does not load", path.display());
            continue;
        };
        let (request, mdoc) = match longfellow_benches::synthetic_request(spec.info.num_attributes)
        {
            Ok(x) => x,
            Err(e) => {
                eprintln!("skipped: {name}: {e}");
                continue;
            }
        };
        let (Ok(prover), Ok(verifier)) = (Prover::new(&pair), Verifier::new(&pair)) else {
            eprintln!("skipped: {name}: prover or verifier set-up failed");
            continue;
        };
        let Ok(proof) = prover.prove(&request, &mdoc, &mut OsRng) else {
            eprintln!("skipped: {name}: the synthetic credential does not prove");
            continue;
        };
        group.bench_function("prove", |b| {
            b.iter(|| prover.prove(&request, &mdoc, &mut OsRng))
        });
        group.bench_function("verify", |b| b.iter(|| verifier.verify(&request, &proof)));
        group.finish();
    }
}

criterion_group!(benches, end_to_end);
criterion_main!(benches);
