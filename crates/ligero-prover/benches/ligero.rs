//! Commit, prove and verify for Google's Ligero vector parameters
//! (GF(2^128), nw 1000, nq 50, nreq 36, rateinv 4, block_enc 4096) and for
//! the two mdoc v7 one-attribute circuits' shapes (map §3).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_ligero::{verify, LigeroParams, LinearTerm, QuadraticConstraint};
use longfellow_ligero_prover::LigeroProver;
use longfellow_random::{random_element, SpecLcg};
use longfellow_reed_solomon::RsField;
use longfellow_transcript::Transcript;

struct Statement<F> {
    params: LigeroParams,
    witness: Vec<F>,
    quad: Vec<QuadraticConstraint>,
    linear: Vec<LinearTerm<F>>,
    b: Vec<F>,
}

fn statement<F: Field>(
    nw: usize,
    nq: usize,
    nl: usize,
    rateinv: usize,
    nreq: usize,
    block_enc: usize,
) -> Statement<F> {
    let params = match LigeroParams::new(nw, nq, rateinv, nreq, block_enc) {
        Ok(p) => p,
        Err(e) => panic!("bench parameters rejected: {e}"),
    };
    let mut rng = SpecLcg::new(1);
    let mut witness: Vec<F> = (0..nw).map(|_| random_element(&mut rng)).collect();
    let quad: Vec<_> = (0..nq)
        .map(|i| QuadraticConstraint {
            x: 3 * i,
            y: 3 * i + 1,
            z: 3 * i + 2,
        })
        .collect();
    for q in &quad {
        witness[q.z] = witness[q.x] * witness[q.y];
    }
    let mut linear = Vec::new();
    let mut b = vec![F::ZERO; nl];
    for (w, &value) in witness.iter().enumerate() {
        let k: F = random_element(&mut rng);
        linear.push(LinearTerm { c: w % nl, w, k });
        b[w % nl] += k * value;
    }
    Statement {
        params,
        witness,
        quad,
        linear,
        b,
    }
}

fn bench_shape<F: RsField>(c: &mut Criterion, name: &str, s: &Statement<F>)
where
    F::Encoder: Sync,
{
    let prove = || {
        let mut rng = SpecLcg::new(100);
        let (prover, com) = LigeroProver::commit(&s.params, &s.witness, 0, &s.quad, &mut rng)
            .unwrap_or_else(|e| panic!("commit: {e}"));
        let mut ts = Transcript::new(b"bench");
        com.absorb(&mut ts);
        let proof = prover
            .prove(&mut ts, &s.linear, &s.b, &s.quad)
            .unwrap_or_else(|e| panic!("prove: {e}"));
        (com, proof)
    };
    c.bench_function(&format!("{name}/commit+prove"), |bch| bch.iter(prove));
    let (com, proof) = prove();
    c.bench_function(&format!("{name}/verify"), |bch| {
        bch.iter_batched(
            || {
                let mut ts = Transcript::new(b"bench");
                com.absorb(&mut ts);
                ts
            },
            |mut ts| {
                verify(&s.params, &com, &proof, &mut ts, &s.linear, &s.b, &s.quad)
                    .unwrap_or_else(|e| panic!("verify: {e}"))
            },
            BatchSize::SmallInput,
        )
    });
}

fn benches(c: &mut Criterion) {
    bench_shape(
        c,
        "vector-gf2_128",
        &statement::<Gf2_128>(1000, 50, 15, 4, 36, 4096),
    );
    bench_shape(
        c,
        "mdoc-v7-hash-gf2_128",
        &statement::<Gf2_128>(85_349, 17, 18, 7, 132, 4151),
    );
    bench_shape(
        c,
        "mdoc-v7-sig-fp256",
        &statement::<Fp256>(3986, 21, 22, 7, 132, 4096),
    );
}

criterion_group! {
    name = ligero;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(ligero);
