//! Runs `N` dependent GF(2^128) products on one path, for instruction
//! counting under `valgrind --tool=callgrind` (counts, unlike wall time, do
//! not depend on the machine's load). Compare a run with `N` against one
//! with 0 to get the cost per product:
//!
//! ```text
//! cargo build --release -p longfellow-field --example gf2_mul_count
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/gf2_mul_count comb32 100000
//! ```
//!
//! Paths: `portable` (what this target selects), `comb64`, `comb32`,
//! `textbook`, `selected` (the process's kernel).

use longfellow_field::Gf2_128;
use std::hint::black_box;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(n)) = (args.get(1), args.get(2).and_then(|n| n.parse::<u64>().ok()))
    else {
        eprintln!("usage: gf2_mul_count portable|comb64|comb32|textbook|selected N");
        return ExitCode::FAILURE;
    };
    let mul: fn(Gf2_128, Gf2_128) -> Gf2_128 = match path.as_str() {
        "portable" => |a, b| a.mul_portable(b),
        "comb64" => |a, b| a.mul_comb64(b),
        "comb32" => |a, b| a.mul_comb32(b),
        "textbook" => |a, b| a.mul_textbook(b),
        "selected" => |a, b| a * b,
        _ => {
            eprintln!("unknown path {path}");
            return ExitCode::FAILURE;
        }
    };
    let mut acc = Gf2_128::from_u128(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210);
    let b = black_box(Gf2_128::from_u128(
        0x8000_0000_0000_0000_0000_0000_0000_0087 ^ 0x5555,
    ));
    for _ in 0..n {
        acc = black_box(mul(acc, b));
    }
    println!("{:032x}", acc.to_u128());
    ExitCode::SUCCESS
}
