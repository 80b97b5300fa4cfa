//! Check families, discovery and the run loop.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use crate::checks;
use crate::error::CheckError;
use crate::report::{CheckResult, Reporter, Status, Summary};
use crate::Options;

/// A group of related checks; also the `family` field of the JSON output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Fiat–Shamir transcript vector.
    Transcript,
    /// Merkle tree vector.
    Merkle,
    /// Merkle commitment (with nonces) vector.
    Commitment,
    /// Google's Ligero vector.
    Ligero,
    /// The specification's one-circuit proofs.
    Spec,
    /// ISRG's one-circuit vectors.
    IsrgOneCircuit,
    /// ISRG's bind vectors.
    IsrgBind,
    /// mdoc circuit files: decoding, IDs, ZkSpec hash.
    Circuits,
    /// Witness files of the stored mdoc proofs.
    Witnesses,
    /// Stored mdoc proofs: byte-exact reproduction and verification.
    MdocProofs,
    /// Every case of `cases.json` against every circuit.
    Cases,
    /// A peer's prover, checked with our verifier and the stored proofs.
    PeerProver,
    /// A peer's verifier, on valid and mutated proofs.
    PeerVerifier,
}

impl Family {
    /// Every family, in run order.
    pub const ALL: [Family; 13] = [
        Self::Transcript,
        Self::Merkle,
        Self::Commitment,
        Self::Ligero,
        Self::Spec,
        Self::IsrgOneCircuit,
        Self::IsrgBind,
        Self::Circuits,
        Self::Witnesses,
        Self::MdocProofs,
        Self::Cases,
        Self::PeerProver,
        Self::PeerVerifier,
    ];

    /// Kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Transcript => "transcript",
            Self::Merkle => "merkle",
            Self::Commitment => "commitment",
            Self::Ligero => "ligero",
            Self::Spec => "spec",
            Self::IsrgOneCircuit => "isrg-one-circuit",
            Self::IsrgBind => "isrg-bind",
            Self::Circuits => "circuits",
            Self::Witnesses => "witnesses",
            Self::MdocProofs => "mdoc-proofs",
            Self::Cases => "cases",
            Self::PeerProver => "peer-prover",
            Self::PeerVerifier => "peer-verifier",
        }
    }

    /// The family with this name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.as_str() == name)
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a check concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Agreed, with a short note of what was compared.
    Pass(String),
    /// Disagreed: the first diverging component or the error.
    Fail(String),
    /// Could not run, and why.
    Skip(String),
}

impl From<CheckError> for Outcome {
    fn from(e: CheckError) -> Self {
        Self::Fail(e.to_string())
    }
}

type Body<'a> = Box<dyn FnOnce(&Options) -> Result<Outcome, CheckError> + 'a>;

/// A check waiting to run.
pub struct Check<'a> {
    /// Family.
    pub family: Family,
    /// Name within the family.
    pub name: String,
    body: Body<'a>,
}

impl fmt::Debug for Check<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Check({} {})", self.family, self.name)
    }
}

impl<'a> Check<'a> {
    /// A check running `body`.
    pub fn new(
        family: Family,
        name: impl Into<String>,
        body: impl FnOnce(&Options) -> Result<Outcome, CheckError> + 'a,
    ) -> Self {
        Self {
            family,
            name: name.into(),
            body: Box::new(body),
        }
    }

    /// A check that is skipped at once with `reason`.
    pub fn skip(family: Family, name: impl Into<String>, reason: impl Into<String>) -> Self {
        let reason = reason.into();
        Self::new(family, name, move |_| Ok(Outcome::Skip(reason)))
    }
}

/// Every check for `opts` in run order (nothing runs yet). Families whose
/// data is missing contribute one skipped check naming what is missing.
pub fn discover(opts: &Options) -> Vec<Check<'static>> {
    let mut all = Vec::new();
    for family in Family::ALL {
        if !opts.wants_family(family) {
            continue;
        }
        let found = checks::discover(family, opts);
        all.extend(found.into_iter().filter(|c| opts.wants_name(&c.name)));
    }
    all
}

/// Runs one check, timing it and turning a panic into a failure.
pub fn run_check(check: Check<'_>, opts: &Options) -> CheckResult {
    let start = Instant::now();
    let family = check.family;
    let name = check.name;
    let body = check.body;
    let outcome = match catch_unwind(AssertUnwindSafe(|| body(opts))) {
        Ok(Ok(o)) => o,
        Ok(Err(e)) => e.into(),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            Outcome::Fail(format!("panicked: {msg}"))
        }
    };
    let (status, reason) = match outcome {
        Outcome::Pass(r) => (Status::Pass, r),
        Outcome::Fail(r) => (Status::Fail, r),
        Outcome::Skip(r) => (Status::Skip, r),
    };
    CheckResult {
        family,
        name,
        status,
        reason,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Discovers and runs every selected check, reporting as it goes.
pub fn run(opts: &Options, out: &mut dyn Reporter) -> Summary {
    let mut summary = Summary::default();
    for check in discover(opts) {
        out.starting(check.family, &check.name);
        let r = run_check(check, opts);
        summary.add(r.status);
        out.result(&r);
    }
    out.finish(&summary);
    summary
}
