//! Sumcheck of one large layer (plus a small output layer), on 1 and 2
//! threads.
#![allow(clippy::unwrap_used, missing_docs)]

#[path = "../tests/integration/common/random_circuit.rs"]
mod random_circuit;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_random::MdocLcg;
use longfellow_sumcheck::{write_statement, LayeredCircuit};
use longfellow_sumcheck_prover::reference::Prover;
use longfellow_sumcheck_prover::sample_pad;
use longfellow_transcript::Transcript;

fn bench_field<F: Field>(c: &mut Criterion, name: &str) {
    // Layer 1: 2^16 outputs, 2^17 inputs, ~4 terms per output.
    let (circuit, inputs) = random_circuit::random_circuit::<F>(1, 2, &[1 << 16, 1 << 17], 4, 16);
    let prover = Prover::new(&circuit).unwrap();
    let eval = prover.evaluate(&inputs).unwrap();
    let pad = sample_pad(&circuit, &mut MdocLcg::new(2));
    let mut group = c.benchmark_group(format!("sumcheck_prove_{name}"));
    group.sample_size(10);
    for threads in [1usize, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_with_input(BenchmarkId::new("threads", threads), &threads, |b, _| {
            b.iter(|| {
                pool.install(|| {
                    let mut t = Transcript::new(b"bench");
                    write_statement(&mut t, &circuit, &inputs[..circuit.num_public_inputs()]);
                    prover.prove(&eval, &pad, &mut t).unwrap()
                })
            })
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_field::<Gf2_128>(c, "gf2_128");
    bench_field::<Fp256>(c, "fp256");
}

criterion_group!(sumcheck, benches);
criterion_main!(sumcheck);
