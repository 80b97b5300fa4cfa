//! `refill` leaves exactly `n` copies of the value, whatever the vector
//! held before and whether the writes were split across threads (sizes on
//! both sides of the split threshold, one to three threads).

use longfellow_par as par;

fn check(threads: usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    let big = par::FILL_SPLIT_BYTES / 8 * 3 + 5;
    let mut v: Vec<u64> = (0..1000).collect();
    for n in [0, 1, 7, big, 10, big * 2 + 1, 0, big] {
        let value = n as u64 ^ 0xa5a5;
        pool.install(|| par::refill(&mut v, n, value));
        assert_eq!(v.len(), n, "threads {threads}");
        assert!(v.iter().all(|&x| x == value), "threads {threads} n {n}");
        let w = pool.install(|| par::filled(n, [value, 3]));
        assert_eq!(w.len(), n);
        assert!(w.iter().all(|&x| x == [value, 3]));
    }
}

#[test]
fn refill_writes_n_copies_on_any_pool() {
    for threads in [1, 2, 3] {
        check(threads);
    }
}
