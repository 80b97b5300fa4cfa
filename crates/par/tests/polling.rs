//! `with_workers_polling`: loops inside it give the plain results; it
//! nests, and it works from inside a pool, outside any pool and on one
//! thread. (That the workers start and stop polling is in
//! `polling_count.rs`, a binary of its own: it reads a process-wide count.)
#![cfg(feature = "parallel")]

use longfellow_field::{Field, Gf2_128};
use longfellow_par as par;

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
}

fn sum_of_squares(n: usize) -> u64 {
    par::map_indices(n, |i| (i as u64) * (i as u64))
        .iter()
        .sum()
}

#[test]
fn loops_inside_give_the_plain_results_in_and_outside_a_pool() {
    let n = 100_000;
    let expected: u64 = (0..n as u64).map(|i| i * i).sum();
    for threads in [1, 2, 3] {
        let got = pool(threads).install(|| par::with_workers_polling(|| sum_of_squares(n)));
        assert_eq!(got, expected, "{threads} threads");
    }
    // From a thread outside any pool (the global pool's callers).
    assert_eq!(par::with_workers_polling(|| sum_of_squares(n)), expected);
}

#[test]
fn nested_calls_and_joins_finish() {
    let got = pool(2).install(|| {
        par::with_workers_polling(|| {
            let (a, b) = par::join(
                || par::with_workers_polling(|| sum_of_squares(5000)),
                || sum_of_squares(7000),
            );
            let many: Vec<u64> = par::map_indices(64, |i| {
                par::join(|| i as u64, || par::with_workers_polling(|| 1u64)).0
            });
            a + b + many.iter().sum::<u64>()
        })
    });
    let plain = (0..5000u64).map(|i| i * i).sum::<u64>()
        + (0..7000u64).map(|i| i * i).sum::<u64>()
        + (0..64u64).sum::<u64>();
    assert_eq!(got, plain);
}

#[test]
fn field_sums_are_the_serial_ones_while_polling() {
    let n = 50_000;
    let x = |i: usize| Gf2_128::from_u64(i as u64 * 0x9e37_79b9 + 1);
    let serial = (0..n).fold((Gf2_128::ZERO, Gf2_128::ZERO), |(a, b), i| {
        (a + x(i), b + x(i) * x(i))
    });
    let got = pool(2).install(|| {
        par::with_workers_polling(|| {
            par::sum_pairs(n, par::split_len::<Gf2_128>(), |r| {
                r.fold((Gf2_128::ZERO, Gf2_128::ZERO), |(a, b), i| {
                    (a + x(i), b + x(i) * x(i))
                })
            })
        })
    });
    assert_eq!(got, serial);
}
