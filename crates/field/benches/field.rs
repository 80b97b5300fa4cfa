//! Multiplication and inversion throughput for the protocol fields.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use longfellow_field::{Butterfly, Field, Fp256, Gf2_128};

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
    // The dispatched product above against the portable code it replaces
    // on CPUs with BMI2/ADX, and the generic CIOS product of other fields.
    c.bench_function("fp256/mul_portable", |bench| {
        bench.iter(|| black_box(a).mul_portable(black_box(b)))
    });
    c.bench_function("fp256/mul_generic", |bench| {
        bench.iter(|| black_box(a).mul_generic(black_box(b)))
    });
    c.bench_function("fp256/square", |bench| bench.iter(|| black_box(a).square()));
    // Dependent chains: each product waits for the previous one (latency),
    // as in exponentiation and the addition-chain inverse.
    c.bench_function("fp256/mul_chain64", |bench| {
        bench.iter(|| {
            let mut x = black_box(a);
            for _ in 0..64 {
                x *= b;
            }
            x
        })
    });
    c.bench_function("fp256/square_chain64", |bench| {
        bench.iter(|| {
            let mut x = black_box(a);
            for _ in 0..64 {
                x = x.square();
            }
            x
        })
    });
    // Independent products over a slice (throughput), as in sumcheck
    // tables and the Reed–Solomon FFT.
    let xs: Vec<Fp256> = (0..461u32).map(|i| fp256_sample((i * 37) as u8)).collect();
    let mut ys = xs.clone();
    c.bench_function("fp256/mul_assign_slice461", |bench| {
        bench.iter(|| Fp256::mul_assign_slice(black_box(&mut ys), black_box(&xs)))
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

/// Slice kernels against the element-by-element loops they replace, at the
/// hash circuit's Ligero row width (461) and one FFT level of 4096.
fn bench_kernels<F: Field>(c: &mut Criterion, name: &str, sample: impl Fn(u64) -> F) {
    let n = 461;
    let a: Vec<F> = (0..n).map(|i| sample(2 * i + 1)).collect();
    let b: Vec<F> = (0..n).map(|i| sample(2 * i + 2)).collect();
    c.bench_function(&format!("{name}/dot461_loop"), |bench| {
        bench.iter(|| {
            black_box(&a)
                .iter()
                .zip(black_box(&b))
                .fold(F::ZERO, |acc, (&x, &y)| acc + x * y)
        })
    });
    c.bench_function(&format!("{name}/dot461_kernel"), |bench| {
        bench.iter(|| F::dot(black_box(&a), black_box(&b)))
    });
    let u = sample(99);
    let mut y = b.clone();
    c.bench_function(&format!("{name}/axpy461_loop"), |bench| {
        bench.iter(|| {
            for (acc, &x) in y.iter_mut().zip(black_box(&a)) {
                *acc += u * x;
            }
        })
    });
    c.bench_function(&format!("{name}/axpy461_kernel"), |bench| {
        bench.iter(|| F::axpy(black_box(&mut y), u, black_box(&a)))
    });
    let mut x = a.clone();
    c.bench_function(&format!("{name}/mul_assign461_kernel"), |bench| {
        bench.iter(|| F::mul_assign_slice(black_box(&mut x), black_box(&b)))
    });
    let mut out = vec![F::ZERO; n as usize];
    let v = sample(98);
    c.bench_function(&format!("{name}/lincomb2_461_kernel"), |bench| {
        bench.iter(|| F::lincomb2(black_box(&mut out), u, black_box(&a), v, black_box(&b)))
    });
    let mut data: Vec<F> = (0..4096).map(|i| sample(i + 7)).collect();
    let tw: Vec<F> = (0..2048).map(|i| sample(i + 5000)).collect();
    for half in [1usize, 64] {
        c.bench_function(&format!("{name}/level4096_h{half}_loop"), |bench| {
            bench.iter(|| {
                for (chunk, &t) in data.chunks_exact_mut(2 * half).zip(&tw) {
                    let (lo, hi) = chunk.split_at_mut(half);
                    for (x, z) in lo.iter_mut().zip(hi.iter_mut()) {
                        Butterfly::Forward.apply(x, z, t);
                    }
                }
            })
        });
        c.bench_function(&format!("{name}/level4096_h{half}_kernel"), |bench| {
            bench.iter(|| F::butterfly_level(black_box(&mut data), half, &tw, Butterfly::Forward))
        });
    }
}

fn bench_all_kernels(c: &mut Criterion) {
    bench_kernels(c, "gf2_128", |i| {
        Gf2_128::from_u128((i as u128).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835))
    });
    c.bench_function("gf2_128/dot461_portable", |bench| {
        let a: Vec<Gf2_128> = (0..461u128)
            .map(|i| Gf2_128::from_u128(i * 0x1234_5678_9abc_def1))
            .collect();
        bench.iter(|| Gf2_128::dot_portable(black_box(&a), black_box(&a)))
    });
    c.bench_function("fp256/dot461_portable", |bench| {
        let a: Vec<Fp256> = (0..461u64).map(Fp256::from_u64).collect();
        bench.iter(|| Fp256::dot_portable(black_box(&a), black_box(&a)))
    });
    bench_kernels(c, "fp256", |i| {
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&i.wrapping_mul(0x9e37_79b9_7f4a_7c15).to_le_bytes());
        bytes[20] = i as u8;
        Fp256::from_uniform_bytes(&bytes).unwrap_or(Fp256::ONE)
    });
}

criterion_group!(benches, bench_fp256, bench_gf2_128, bench_all_kernels);
criterion_main!(benches);
