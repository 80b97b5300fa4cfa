//! `longfellow conformance`: every check over a vectors directory, with
//! pass / fail / skip per check and `N passed, M failed, K skipped` last.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use longfellow_conformance::{run_to_stdout, Family, LinkedVerifier, Options};

/// Arguments of `longfellow conformance`.
#[derive(Debug, Args)]
pub struct ConformanceArgs {
    /// Directory laid out like `../shared/vectors` (missing parts are
    /// skipped); default `$LONGFELLOW_VECTORS`, else `../shared/vectors`.
    #[arg(long, value_name = "DIR")]
    vectors: Option<PathBuf>,
    /// One JSON object per check on stdout (summary line on stderr).
    #[arg(long)]
    json: bool,
    /// Another implementation's prover, run with the `mdoc prove` contract
    /// (docs/cli-contract.md); its proofs are checked by our verifier.
    #[arg(long, value_name = "CMD")]
    peer_prover: Option<String>,
    /// Another implementation's verifier, run with the `mdoc verify` contract
    /// on our proofs and on mutated copies.
    #[arg(long, value_name = "CMD")]
    peer_verifier: Option<String>,
    /// Seed for the peer case sweep (proofs are then compared byte for byte).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Per-command timeout for peers, in seconds.
    #[arg(long, value_name = "SECS")]
    timeout: Option<u64>,
    /// Run only these families (repeatable): transcript, merkle, commitment,
    /// ligero, spec, isrg-one-circuit, isrg-bind, circuits, witnesses,
    /// mdoc-proofs, cases, peer-prover, peer-verifier.
    #[arg(long, value_name = "NAME")]
    family: Vec<String>,
    /// Run only checks whose name contains TEXT.
    #[arg(long, value_name = "TEXT")]
    filter: Option<String>,
    /// Verify stored proofs but do not prove (skips reproduction and the sweep).
    #[arg(long)]
    verify_only: bool,
}

/// Runs the checks; exit 0 only when none failed, 2 on bad usage.
pub fn run(args: ConformanceArgs) -> ExitCode {
    let mut opts = Options::default();
    if let Some(dir) = args.vectors {
        opts.vectors = dir;
    } else if let Some(dir) = std::env::var_os("LONGFELLOW_VECTORS").filter(|d| !d.is_empty()) {
        opts.vectors = dir.into();
    }
    opts.peer_prover = args.peer_prover;
    opts.peer_verifier = args.peer_verifier;
    opts.seed = args.seed;
    if let Some(secs) = args.timeout {
        opts.timeout = Duration::from_secs(secs);
    }
    for name in &args.family {
        match Family::parse(name) {
            Some(f) => opts.families.push(f),
            None => {
                eprintln!("longfellow: unknown conformance family `{name}`");
                return ExitCode::from(2);
            }
        }
    }
    opts.filter = args.filter;
    if args.verify_only {
        opts.backend = Some(Arc::new(LinkedVerifier::new()));
    }
    ExitCode::from(run_to_stdout(&opts, args.json).exit_code())
}
