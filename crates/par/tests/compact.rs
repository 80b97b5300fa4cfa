//! `compact_ranges` closes the gaps between the ranges' kept entries the
//! same way whether the move is split across threads (source and target
//! disjoint), split in stages of its distance (overlapping, the distance
//! at least two chunks) or left to one `copy_within`, for any cut points.
#![cfg(feature = "parallel")]

use longfellow_par as par;

/// Keeps every entry of a range whose value is not divisible by `m`, at
/// the range's front, in order.
fn keep_not_divisible(m: u64) -> impl Fn(&mut [u64], &mut [u32]) -> usize + Sync + Send {
    move |a, b| {
        let mut w = 0;
        for i in 0..a.len() {
            if a[i] % m != 0 {
                a[w] = a[i];
                b[w] = b[i];
                w += 1;
            }
        }
        w
    }
}

fn check(n: usize, cuts: &[usize], m: u64, threads: usize) {
    let a0: Vec<u64> = (0..n as u64).collect();
    let b0: Vec<u32> = (0..n as u32).map(|x| x ^ 0x5555).collect();
    let expected: Vec<(u64, u32)> = a0
        .iter()
        .zip(&b0)
        .filter(|(x, _)| *x % m != 0)
        .map(|(x, y)| (*x, *y))
        .collect();
    let (mut a, mut b) = (a0.clone(), b0.clone());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    let kept = pool.install(|| par::compact_ranges(&mut a, &mut b, cuts, keep_not_divisible(m)));
    assert_eq!(kept, expected.len(), "n {n} cuts {cuts:?} m {m}");
    let got: Vec<(u64, u32)> = a[..kept]
        .iter()
        .copied()
        .zip(b[..kept].iter().copied())
        .collect();
    assert_eq!(got, expected, "n {n} cuts {cuts:?} m {m} threads {threads}");
}

#[test]
fn gaps_close_alike_for_disjoint_and_overlapping_moves() {
    let n = 200_000;
    for threads in [1, 2, 3] {
        // m = 2 halves each range: the later ranges move by at least their
        // kept length (disjoint, split). m = 7 and 11 keep 6/7 and 10/11:
        // overlapping moves by more than two chunks (staged, the last stage
        // shorter); m = 40 overlaps by less (one copy).
        for m in [2, 3, 7, 11, 40, 1_000_000] {
            check(n, &[0, n / 2, n], m, threads);
            check(n, &[0, n / 3, 2 * n / 3, n], m, threads);
            check(n, &[0, 1000, 150_000, n], m, threads);
            check(n, &[0, n], m, threads);
        }
    }
}
