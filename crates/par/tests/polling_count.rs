//! `with_workers_polling` starts the other workers polling and stops them
//! when the closure returns. Alone in its test binary: it reads the
//! process-wide count of polling workers, which other tests would raise.
#![cfg(feature = "parallel")]

use std::time::{Duration, Instant};

use longfellow_par as par;

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
}

/// Waits up to `limit` for `cond`.
fn eventually(limit: Duration, cond: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    cond()
}

#[test]
fn the_other_workers_poll_while_the_closure_runs_and_stop_after() {
    let three = pool(3);
    let started = three.install(|| {
        par::with_workers_polling(|| {
            // Two of the three threads poll; the one running this never does.
            eventually(Duration::from_secs(5), || par::polling_workers() == 2)
        })
    });
    assert!(started, "the two other workers never started polling");
    assert!(
        eventually(Duration::from_secs(5), || par::polling_workers() == 0),
        "{} workers still poll after the closure returned",
        par::polling_workers()
    );
    // One thread: nobody to keep awake.
    let alone = pool(1).install(|| par::with_workers_polling(par::polling_workers));
    assert_eq!(alone, 0);
}
