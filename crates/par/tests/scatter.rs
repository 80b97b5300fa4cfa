//! `Scatter` zeroes its output whatever it held, on any pool and whether
//! or not the work is split: `run` and `compact_and_scatter` must equal
//! the plain serial scatter-add for outputs that start out dirty.

use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_par::{self as par, Scatter};

fn value<F: Field>(i: usize) -> F {
    F::from_u64((i as u64).wrapping_mul(0x9e37_79b9) ^ 0x55)
}

fn check<F: Field>(threads: usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    let n = 5 * par::split_len::<F>() + 3;
    let len = 97;
    let items: Vec<F> = (0..n).map(value).collect();
    let slot = |i: usize| (i * 31 + 7) % len;
    let mut expected = vec![F::ZERO; len];
    for (i, &x) in items.iter().enumerate() {
        expected[slot(i)] += x;
    }
    let mut scatter = Scatter::new();
    for round in 0..3 {
        let mut out: Vec<F> = (0..len).map(|i| value(i + 1000 * round + 1)).collect();
        pool.install(|| {
            scatter.run(n, 4 * n, &mut out, |range, acc| {
                for i in range {
                    acc[slot(i)] += items[i];
                }
            })
        });
        assert_eq!(out, expected, "run, threads {threads} round {round}");
    }
    // Keep every entry (the compaction is the identity) so that the sum is
    // the same scatter-add; three cuts split the work in two.
    let mut keys: Vec<usize> = (0..n).collect();
    let mut vals = items.clone();
    let mut out: Vec<F> = (0..len).map(|i| value(i + 7)).collect();
    let cuts = [0, n / 3, n];
    let kept = pool.install(|| {
        scatter.compact_and_scatter(&mut keys, &mut vals, &cuts, &mut out, |k, v, acc| {
            for (&i, &x) in k.iter().zip(v.iter()) {
                acc[slot(i)] += x;
            }
            k.len()
        })
    });
    assert_eq!(kept, n);
    assert_eq!(out, expected, "compact_and_scatter, threads {threads}");
}

#[test]
fn scatter_output_starts_from_zero_on_any_pool() {
    for threads in [1, 2, 3] {
        check::<Gf2_128>(threads);
        check::<Fp256>(threads);
    }
}
