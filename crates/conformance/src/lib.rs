//! `longfellow conformance`: runs every check it finds under a directory
//! laid out like `../shared/vectors`, and reports pass / fail / skip per
//! check with a reason.
//!
//! ```text
//! let opts = Options::new("../shared/vectors");
//! let mut out = TextReporter::new(std::io::stdout());
//! let summary = run(&opts, &mut out);      // last line: N passed, M failed, K skipped
//! std::process::exit(summary.exit_code().into());
//! ```
//!
//! Families ([`Family`]): component vectors (transcript, Merkle tree and
//! commitment, Ligero), the specification's one-circuit proofs, ISRG's
//! one-circuit and bind vectors, the mdoc circuit files (decode, IDs, ZkSpec
//! hash against the file name), the witness files of the stored mdoc
//! proofs, the stored mdoc proofs themselves (byte-exact reproduction with
//! seed 42, verification), the `cases.json` sweep, and a peer
//! implementation's prover and verifier driven through the command-line
//! contract (`docs/cli-contract.md`). A missing folder or file turns into a
//! skipped check that says what is missing.
//!
//! A failed byte comparison names the first diverging component (see
//! [`diff`]), e.g. `hash circuit: sumcheck layer 3, round 5, hand 1 (p0)`.
//!
//! The two-circuit mdoc prover lives in another crate; it is plugged in
//! through [`MdocBackend`] ([`Options::backend`]). By default [`Linked`]
//! (longfellow-mdoc-prover and longfellow-mdoc's verifier, in process) is
//! used; with the verify-only [`LinkedVerifier`] byte-exact reproduction and
//! the case sweep are skipped with the reason "mdoc prover not linked", and
//! with `None` everything that needs a backend is.
//!
//! # Wiring into `longfellow conformance`
//!
//! ```text
//! longfellow conformance [--vectors DIR] [--json] [--peer-prover CMD]
//!                        [--peer-verifier CMD] [--seed N] [--timeout SECS]
//!                        [--family NAME]... [--filter TEXT]
//! ```
//!
//! Build [`Options`] (`vectors` defaults to [`DEFAULT_VECTORS`]; family
//! names are [`Family::parse`]; the default backend is already the
//! in-process [`Linked`]), call [`run_to_stdout`] and exit with
//! [`Summary::exit_code`]. `examples/conformance.rs` is exactly that.
//!
//! Output: text mode prints `PASS|FAIL|SKIP family name (t s): reason` per
//! check and the summary line last; `--json` prints one object per check
//! (`family`, `name`, `status`, `reason`, `seconds`) per line on stdout and
//! the summary line on stderr.
#![forbid(unsafe_code)]

pub mod backend;
mod bytes;
mod checks;
pub mod diff;
mod error;
pub mod linked;
pub mod peer;
mod registry;
mod report;
pub mod zkspec;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use backend::{Attribute, BackendError, MdocBackend, MdocRequest};
pub use error::CheckError;
pub use linked::{Linked, LinkedVerifier};
pub use peer::PeerCli;
pub use registry::{discover, run, run_check, Check, Family, Outcome};
pub use report::{
    CheckResult, CollectReporter, JsonReporter, Reporter, Status, Summary, TextReporter,
};

/// What to run and against what.
#[derive(Clone)]
pub struct Options {
    /// Directory laid out like `../shared/vectors`.
    pub vectors: PathBuf,
    /// Shell command of a peer implementation to test as a prover.
    pub peer_prover: Option<String>,
    /// Shell command of a peer implementation to test as a verifier.
    pub peer_verifier: Option<String>,
    /// Seed for the peer prover in the case sweep (stored proofs always use
    /// 42, the seed they were made with).
    pub seed: Option<u64>,
    /// Limit for one peer command.
    pub timeout: Duration,
    /// Families to run; empty means all.
    pub families: Vec<Family>,
    /// Run only checks whose name contains this.
    pub filter: Option<String>,
    /// Our own two-circuit mdoc prover/verifier: [`Linked`] by default;
    /// [`LinkedVerifier`] to verify only; `None` to skip what needs it.
    pub backend: Option<Arc<dyn MdocBackend>>,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("vectors", &self.vectors)
            .field("peer_prover", &self.peer_prover)
            .field("peer_verifier", &self.peer_verifier)
            .field("seed", &self.seed)
            .field("timeout", &self.timeout)
            .field("families", &self.families)
            .field("filter", &self.filter)
            .field("backend", &self.backend.as_ref().map(|b| b.name()))
            .finish()
    }
}

/// Default vectors directory, relative to the working directory.
pub const DEFAULT_VECTORS: &str = "../shared/vectors";

/// Default limit for one peer command (a full mdoc proof takes seconds).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

impl Options {
    /// Everything on, no peers, our prover and verifier linked.
    pub fn new(vectors: impl Into<PathBuf>) -> Self {
        Self {
            vectors: vectors.into(),
            peer_prover: None,
            peer_verifier: None,
            seed: None,
            timeout: DEFAULT_TIMEOUT,
            families: Vec::new(),
            filter: None,
            backend: Some(Arc::new(Linked::new())),
        }
    }

    /// Whether `family` is selected.
    pub fn wants_family(&self, family: Family) -> bool {
        self.families.is_empty() || self.families.contains(&family)
    }

    /// Whether a check named `name` is selected.
    pub fn wants_name(&self, name: &str) -> bool {
        match &self.filter {
            Some(f) => name.contains(f.as_str()),
            None => true,
        }
    }

    /// A path under the vectors directory.
    pub fn path(&self, relative: &str) -> PathBuf {
        self.vectors.join(relative)
    }
}

/// Runs with the CLI's reporters: text lines on stdout, or (`json`) one
/// JSON object per check on stdout and the summary line on stderr. The
/// caller exits with [`Summary::exit_code`].
pub fn run_to_stdout(opts: &Options, json: bool) -> Summary {
    if json {
        run(
            opts,
            &mut JsonReporter::new(std::io::stdout().lock(), std::io::stderr()),
        )
    } else {
        run(opts, &mut TextReporter::new(std::io::stdout().lock()))
    }
}

impl Default for Options {
    fn default() -> Self {
        Self::new(DEFAULT_VECTORS)
    }
}
