//! One-row extension at the sizes of the v7 mdoc proof: the hash circuit's
//! GF(2^128) rows (block 461 → block_enc 4151) and the signature circuit's
//! P-256 rows (block 455 → block_enc 4096), fast encoder vs Lagrange.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_reed_solomon::{LagrangeEncoder, RsEncoder, RsField};

fn row<F: Field>(k: usize, n: usize) -> Vec<F> {
    let mut row = vec![F::ZERO; n];
    let mut x = F::from_u64(0x1234_5678_9abc_def1);
    for v in &mut row[..k] {
        x = x * x + F::from_u64(7);
        *v = x;
    }
    row
}

fn bench_field<F: RsField>(c: &mut Criterion, name: &str, k: usize, n: usize) {
    let mut group = c.benchmark_group(format!("extend/{name}"));
    group.sample_size(10);
    let fast = F::rs_encoder(k, n).expect("valid sizes");
    let slow = LagrangeEncoder::<F>::new(k, n).expect("valid sizes");
    let mut r = row::<F>(k, n);
    group.bench_function(BenchmarkId::new("fft", format!("{k}->{n}")), |b| {
        b.iter(|| fast.extend(black_box(&mut r)))
    });
    group.bench_function(BenchmarkId::new("lagrange", format!("{k}->{n}")), |b| {
        b.iter(|| slow.extend(black_box(&mut r)))
    });
    group.bench_function(BenchmarkId::new("fft_build", format!("{k}->{n}")), |b| {
        b.iter(|| F::rs_encoder(black_box(k), n).expect("valid sizes"))
    });
    group.finish();
}

/// 1000 dependent multiplications: the unit the FFT costs are counted in.
fn bench_mul<F: Field>(c: &mut Criterion, name: &str) {
    let x = F::from_u64(0x1234_5678_9abc_def1);
    c.bench_function(&format!("mul1000/{name}"), |b| {
        b.iter(|| {
            let mut acc = black_box(x);
            for _ in 0..1000 {
                acc *= x;
            }
            acc
        })
    });
}

fn benches(c: &mut Criterion) {
    bench_mul::<Gf2_128>(c, "gf2_128");
    bench_mul::<Fp256>(c, "p256");
    bench_field::<Gf2_128>(c, "gf2_128", 461, 4151);
    bench_field::<Fp256>(c, "p256", 455, 4096);
}

criterion_group!(extend, benches);
criterion_main!(extend);
