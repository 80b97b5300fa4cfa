//! A stable-toolchain stand-in for libFuzzer, so the smoke run works on a
//! machine without nightly or a C++ compiler: the same target function, fed
//! the corpus and then random mutations of it (bit flips, byte writes,
//! truncations, duplications, splices, interesting integers) for a fixed
//! time. No coverage feedback — it is a smoke test, not a search.
//!
//! Arguments (a subset of libFuzzer's spelling, so `.ci/fuzz.sh` passes the
//! same ones): `CORPUS_DIR… -max_total_time=S -max_len=N -timeout=S
//! -seed=N`. A panic or an input slower than `-timeout` writes the input to
//! `artifacts/<target>/` and exits 1.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// xorshift64*: enough randomness for mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const INTERESTING: [u64; 10] = [
    0,
    1,
    0x7f,
    0x80,
    0xff,
    0xffff,
    0xff_ffff,
    1 << 24,
    0xffff_ffff,
    u64::MAX,
];

fn mutate(rng: &mut Rng, input: &mut Vec<u8>, other: &[u8], max_len: usize) {
    for _ in 0..1 + rng.below(4) {
        let len = input.len();
        match rng.below(7) {
            0 if len > 0 => {
                let i = rng.below(len);
                input[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                input[i] = rng.next() as u8;
            }
            2 if len > 0 => input.truncate(rng.below(len)),
            3 if len > 0 => {
                let (a, n) = (rng.below(len), 1 + rng.below(64));
                let chunk: Vec<u8> = input[a..(a + n).min(len)].to_vec();
                let at = rng.below(len + 1);
                input.splice(at..at, chunk);
            }
            4 if !other.is_empty() => {
                let a = rng.below(other.len());
                let n = 1 + rng.below(256);
                let at = rng.below(len + 1);
                input.splice(at..at, other[a..(a + n).min(other.len())].iter().copied());
            }
            5 => {
                let v = INTERESTING[rng.below(INTERESTING.len())].to_le_bytes();
                let n = [1, 2, 3, 4, 8][rng.below(5)];
                let at = rng.below(len + 1);
                let end = (at + n).min(len);
                input.splice(at..end, v[..n].iter().copied());
            }
            _ => {
                let at = rng.below(len + 1);
                input.insert(at, rng.next() as u8);
            }
        }
    }
    input.truncate(max_len);
}

fn arg<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    args.iter()
        .find_map(|a| a.strip_prefix(name)?.strip_prefix('=')?.parse().ok())
        .unwrap_or(default)
}

fn save(target: &str, input: &[u8], why: &str) -> ! {
    let dir = PathBuf::from("artifacts").join(target);
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("crash-{:016x}", fnv(input)));
    let _ = std::fs::write(&path, input);
    eprintln!("== {target}: {why}; input saved to {}", path.display());
    std::process::exit(1);
}

fn fnv(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf2_9ce4_8422_2325, |h, &x| {
        (h ^ u64::from(x)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Runs `target` over the corpus directories in the arguments and then
/// over mutations until the time is up; prints the execution count.
pub fn main(target: &str, run: fn(&[u8])) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let total = Duration::from_secs(arg(&args, "-max_total_time", 10));
    let max_len: usize = arg(&args, "-max_len", 65536);
    let timeout = Duration::from_secs(arg(&args, "-timeout", 20));
    let mut rng = Rng(arg(&args, "-seed", 0x9e37_79b9_7f4a_7c15u64) | 1);
    let mut corpus: Vec<Vec<u8>> = Vec::new();
    for dir in args.iter().filter(|a| !a.starts_with('-')) {
        if let Ok(entries) = std::fs::read_dir(dir) {
            let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
            paths.sort();
            for p in paths {
                if let Ok(mut b) = std::fs::read(&p) {
                    b.truncate(max_len);
                    corpus.push(b);
                }
            }
        }
    }
    if corpus.is_empty() {
        corpus.push(Vec::new());
    }
    // Panics are reported by us, with the input; keep the message.
    let start = Instant::now();
    let mut execs = 0u64;
    let one = |input: &[u8]| {
        let t = Instant::now();
        if catch_unwind(AssertUnwindSafe(|| run(input))).is_err() {
            save(target, input, "panic");
        }
        if t.elapsed() > timeout {
            save(target, input, "timeout");
        }
    };
    for input in &corpus {
        one(input);
        execs += 1;
    }
    while start.elapsed() < total {
        let a = rng.below(corpus.len());
        let b = rng.below(corpus.len());
        let mut input = corpus[a].clone();
        mutate(&mut rng, &mut input, &corpus[b], max_len);
        one(&input);
        execs += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "== {target}: stable harness, {execs} executions in {secs:.0} s ({:.0}/s), {} seeds, no crash",
        execs as f64 / secs.max(1e-9),
        corpus.len()
    );
}
