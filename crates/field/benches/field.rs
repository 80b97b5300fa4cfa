//! Multiplication and inversion throughput for the protocol fields.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use longfellow_field::{Field, Fp256, Gf2_128};

fn fp256_sample(seed: u8) -> Fp256 {
    let mut bytes = [seed; 32];
    bytes[31] = 0x7f;
    Fp256::from_uniform_bytes(&bytes).unwrap_or(Fp256::ONE)
}

fn bench_fp256(c: &mut Criterion) {
    let (a, b) = (fp256_sample(0x5a), fp256_sample(0xc3));
    c.bench_function("fp256/mul", |bench| {
        bench.iter(|| black_box(a) * black_box(b))
    });
    c.bench_function("fp256/add", |bench| {
        bench.iter(|| black_box(a) + black_box(b))
    });
    c.bench_function("fp256/invert", |bench| bench.iter(|| black_box(a).invert()));
}

fn bench_gf2_128(c: &mut Criterion) {
    let a = Gf2_128::from_u128(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210);
    let b = Gf2_128::from_u128(0xdead_beef_cafe_babe_0011_2233_4455_6677);
    let name = if Gf2_128::uses_hardware_mul() {
        "gf2_128/mul_clmul"
    } else {
        "gf2_128/mul_dispatch_portable"
    };
    c.bench_function(name, |bench| bench.iter(|| black_box(a) * black_box(b)));
    c.bench_function("gf2_128/mul_portable", |bench| {
        bench.iter(|| black_box(a).mul_portable(black_box(b)))
    });
    c.bench_function("gf2_128/invert", |bench| {
        bench.iter(|| black_box(a).invert())
    });
}

criterion_group!(benches, bench_fp256, bench_gf2_128);
criterion_main!(benches);
