//! `longfellow conformance`: every check over a vectors directory, with
//! pass / fail / skip per check and `N passed, M failed, K skipped` last.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use longfellow_conformance::{run_to_stdout, Family, LinkedVerifier, Options};

/// Arguments of `longfellow conformance`.
#[derive(Debug, Args)]
pub struct ConformanceArgs {
    /// Directory laid out like `../shared/vectors` (missing parts are
    /// skipped); default `$LONGFELLOW_VECTORS`, else `../shared/vectors`
    /// beside the current directory, else beside the workspace this binary
    /// was built in (as `demo` looks for circuits).
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

/// The vectors directory: `--vectors`, else `$LONGFELLOW_VECTORS`, else the
/// first of `../shared/vectors` beside the current directory and beside the
/// build's workspace that exists (the former when neither does, so the
/// message names it).
fn vectors_dir(arg: Option<PathBuf>) -> PathBuf {
    if let Some(dir) = arg {
        return dir;
    }
    if let Some(dir) = std::env::var_os("LONGFELLOW_VECTORS").filter(|d| !d.is_empty()) {
        return dir.into();
    }
    let here = PathBuf::from(longfellow_conformance::DEFAULT_VECTORS);
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors");
    [here.clone(), built]
        .into_iter()
        .find(|d| d.is_dir())
        .unwrap_or(here)
}

/// Runs the checks; exit 0 only when some ran and none failed, 1 when one
/// failed or none ran, 2 on bad usage.
pub fn run(args: ConformanceArgs) -> ExitCode {
    let mut opts = Options::new(vectors_dir(args.vectors));
    if args.seed.is_some() && args.peer_prover.is_none() {
        eprintln!("longfellow conformance: warning: --seed only affects a --peer-prover's case sweep; ignored");
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
    let summary = run_to_stdout(&opts, args.json);
    if summary.ran_nothing() {
        let filter = opts
            .filter
            .as_ref()
            .map(|f| format!(" and --filter `{f}`"))
            .unwrap_or_default();
        eprintln!(
            "longfellow conformance: no check ran with the vectors at {}{filter}: pass --vectors DIR \
             or set LONGFELLOW_VECTORS (README.md, \"Reference vectors\")",
            opts.vectors.display()
        );
    }
    ExitCode::from(summary.exit_code())
}
