//! `for_each_row_mut_with` visits every row once with its own index, a
//! partial last row included, and hands each run of rows one state: the
//! states together see every row, and each sees one contiguous run.

use longfellow_par as par;

fn check(threads: usize, rows: usize, n: usize, states: usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    let len = rows * n - usize::from(rows > 0 && n > 1);
    let mut data = vec![0usize; len];
    let mut seen: Vec<Vec<usize>> = vec![Vec::new(); states];
    pool.install(|| {
        par::for_each_row_mut_with(&mut data, n, &mut seen, |i, row, mine| {
            for x in row.iter_mut() {
                *x += i + 1;
            }
            mine.push(i);
        })
    });
    for (k, x) in data.iter().enumerate() {
        assert_eq!(
            *x,
            k / n + 1,
            "item {k}: threads {threads} rows {rows} n {n}"
        );
    }
    let mut all: Vec<usize> = seen.iter().flatten().copied().collect();
    for run in &seen {
        assert!(
            run.windows(2).all(|w| w[1] == w[0] + 1),
            "one contiguous run per state"
        );
    }
    all.sort_unstable();
    assert_eq!(all, (0..rows).collect::<Vec<_>>(), "every row once");
}

#[test]
fn every_row_once_with_one_state_per_run() {
    for threads in [1, 2, 3] {
        for (rows, n, states) in [
            (0, 4, 2),
            (1, 4, 2),
            (7, 3, 2),
            (8, 5, 3),
            (5, 1, 8),
            (64, 16, 2),
        ] {
            check(threads, rows, n, states);
        }
    }
}

#[test]
#[should_panic(expected = "no state")]
fn rows_without_states_are_refused() {
    let mut data = [0u8; 4];
    par::for_each_row_mut_with(&mut data, 2, &mut [] as &mut [()], |_, _, _| {});
}
