//! Wall and process CPU clocks, and the process's peak resident memory,
//! read from `/proc` (no libc).

use std::time::Instant;

/// Process CPU time (user + system, all threads) in nanoseconds.
///
/// Prefers the per-thread `schedstat` run times (nanosecond resolution);
/// falls back to `utime + stime` of `/proc/self/stat`, which has only the
/// clock-tick resolution (10 ms at the usual 100 Hz). `None` off Linux.
pub fn cpu_ns() -> Option<u64> {
    schedstat_ns().or_else(stat_ns)
}

fn schedstat_ns() -> Option<u64> {
    let mut total = 0u64;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let path = task.ok()?.path().join("schedstat");
        // A thread may have exited since the listing: skip it.
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        total += text.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(total)
}

/// Numeric fields `wanted` (1-based, as `man 5 proc` counts them, each
/// `≥ 3`) of one read of `/proc/self/stat`. The fields are taken after the
/// last `)`, which closes the command name (a name may itself hold spaces
/// or `)`); the state, field 3, is the first after it.
fn self_stat_fields<const K: usize>(wanted: [usize; K]) -> Option<[u64; K]> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let mut out = [0; K];
    for (value, n) in out.iter_mut().zip(wanted) {
        *value = fields.get(n.checked_sub(3)?)?.parse().ok()?;
    }
    Some(out)
}

fn stat_ns() -> Option<u64> {
    let [utime, stime] = self_stat_fields([14, 15])?;
    // USER_HZ is 100 on every Linux ABI Rust targets.
    Some((utime + stime) * 10_000_000)
}

/// Minor page faults of the whole process so far (`minflt` of
/// `/proc/self/stat`). A fresh process pays one for every page it touches
/// first, which is part of what separates a fresh proof's time from a
/// repeated one's; `None` off Linux.
pub fn minor_faults() -> Option<u64> {
    let [minflt] = self_stat_fields([10])?;
    Some(minflt)
}

/// Peak resident memory (VmHWM) of the whole process in KiB.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A point in time on both clocks.
#[derive(Clone, Copy, Debug)]
pub struct Stamp {
    wall: Instant,
    cpu: Option<u64>,
}

/// Wall and CPU milliseconds between two stamps.
#[derive(Clone, Copy, Debug, Default)]
pub struct Span {
    pub wall_ms: f64,
    pub cpu_ms: f64,
}

impl Stamp {
    pub fn now() -> Self {
        Self {
            wall: Instant::now(),
            cpu: cpu_ns(),
        }
    }

    /// The time from `self` to now, and the new stamp.
    pub fn lap(&self) -> (Span, Stamp) {
        let now = Stamp::now();
        let cpu_ms = match (self.cpu, now.cpu) {
            (Some(a), Some(b)) => b.saturating_sub(a) as f64 / 1e6,
            _ => f64::NAN,
        };
        let span = Span {
            wall_ms: now.wall.duration_since(self.wall).as_secs_f64() * 1e3,
            cpu_ms,
        };
        (span, now)
    }
}

impl std::ops::AddAssign for Span {
    fn add_assign(&mut self, other: Self) {
        self.wall_ms += other.wall_ms;
        self.cpu_ms += other.cpu_ms;
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::{minor_faults, stat_ns};

    /// The `/proc/self/stat` fallback clock must follow CPU time: fields
    /// that are not `utime`/`stime` would not grow by the time spent.
    #[test]
    fn stat_clock_counts_cpu_time() {
        let before = stat_ns().expect("stat readable on Linux");
        let start = std::time::Instant::now();
        let mut x = 1u64;
        while start.elapsed() < std::time::Duration::from_millis(200) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let spent = stat_ns()
            .expect("stat readable on Linux")
            .saturating_sub(before);
        // 200 ms of wall spinning is at least 100 ms of CPU unless the host
        // took the core away for half of it; ticks are 10 ms.
        assert!(
            spent >= 100_000_000,
            "{spent} ns of CPU in 200 ms of spinning"
        );
    }

    /// Touching fresh pages must show up as faults: a wrong field of
    /// `/proc/self/stat` (a time, a count that never moves) would not.
    #[test]
    fn touching_fresh_memory_counts_faults() {
        let before = minor_faults().expect("minflt readable on Linux");
        // 64 MiB: above the largest block glibc's malloc would take from
        // memory it already holds (its dynamic mmap threshold stops at 32
        // MiB), so these pages are fresh even after other tests freed some.
        let pages = 16384;
        let mut buf = vec![0u8; pages * 4096];
        for i in (0..buf.len()).step_by(4096) {
            buf[i] = 1;
        }
        let touched = std::hint::black_box(&buf)
            .iter()
            .filter(|&&b| b == 1)
            .count();
        let after = minor_faults().expect("minflt readable on Linux");
        assert_eq!(touched, pages);
        // 4 KiB pages take a fault each; transparent huge pages at least
        // one per 2 MiB.
        let at_least = (pages / 512) as u64;
        assert!(
            after.saturating_sub(before) >= at_least,
            "{before} -> {after}, fewer than {at_least} faults"
        );
    }
}
