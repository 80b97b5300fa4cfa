//! Stand-alone driver with the CLI's options, for use before the `longfellow`
//! binary wires the library in:
//!
//! ```text
//! cargo run --release -p longfellow-conformance --example conformance -- \
//!     [--vectors DIR] [--json] [--peer-prover CMD] [--peer-verifier CMD] \
//!     [--seed N] [--timeout SECS] [--family NAME]... [--filter TEXT] \
//!     [--verify-only | --no-backend]
//! ```

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use longfellow_conformance::{run_to_stdout, Family, LinkedVerifier, Options};

fn usage(msg: &str) -> ExitCode {
    eprintln!("conformance: {msg}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut opts = Options::default();
    let mut json = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--json" => json = true,
            "--verify-only" => opts.backend = Some(Arc::new(LinkedVerifier::new())),
            "--no-backend" => opts.backend = None,
            _ => {}
        }
        if ["--json", "--verify-only", "--no-backend"].contains(&a.as_str()) {
            continue;
        }
        let Some(v) = args.next() else {
            return usage(&format!("{a} needs a value"));
        };
        match a.as_str() {
            "--vectors" => opts.vectors = v.into(),
            "--peer-prover" => opts.peer_prover = Some(v),
            "--peer-verifier" => opts.peer_verifier = Some(v),
            "--seed" => match v.parse() {
                Ok(s) => opts.seed = Some(s),
                Err(_) => return usage("--seed takes an integer"),
            },
            "--timeout" => match v.parse() {
                Ok(s) => opts.timeout = Duration::from_secs(s),
                Err(_) => return usage("--timeout takes seconds"),
            },
            "--family" => match Family::parse(&v) {
                Some(f) => opts.families.push(f),
                None => return usage(&format!("unknown family {v}")),
            },
            "--filter" => opts.filter = Some(v),
            _ => return usage(&format!("unknown option {a}")),
        }
    }
    ExitCode::from(run_to_stdout(&opts, json).exit_code())
}
