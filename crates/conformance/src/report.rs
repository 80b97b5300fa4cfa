//! Check results and the two ways of printing them.

use std::fmt;
use std::io::Write;

use crate::registry::Family;

/// Verdict of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The check ran and agreed with the reference.
    Pass,
    /// The check ran and disagreed, or crashed.
    Fail,
    /// The check could not run (missing data or component), with a reason.
    Skip,
}

impl Status {
    /// Lower-case name, as printed and as in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pass => "pass",
            Self::Fail => "fail",
            Self::Skip => "skip",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finished check.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckResult {
    /// Family the check belongs to.
    pub family: Family,
    /// Name within the family (usually the vector file).
    pub name: String,
    /// Verdict.
    pub status: Status,
    /// Why (what matched, what diverged first, why skipped).
    pub reason: String,
    /// Wall-clock time.
    pub seconds: f64,
}

impl CheckResult {
    /// The JSON object for this check: family, name, status, reason, seconds.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "family": self.family.as_str(),
            "name": self.name,
            "status": self.status.as_str(),
            "reason": self.reason,
            "seconds": (self.seconds * 1000.0).round() / 1000.0,
        })
    }
}

/// Counts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Checks that passed.
    pub passed: usize,
    /// Checks that failed.
    pub failed: usize,
    /// Checks that were skipped.
    pub skipped: usize,
}

impl Summary {
    /// Counts one result.
    pub fn add(&mut self, status: Status) {
        match status {
            Status::Pass => self.passed += 1,
            Status::Fail => self.failed += 1,
            Status::Skip => self.skipped += 1,
        }
    }

    /// `N passed, M failed, K skipped`.
    pub fn line(&self) -> String {
        format!(
            "{} passed, {} failed, {} skipped",
            self.passed, self.failed, self.skipped
        )
    }

    /// True when nothing failed (the CLI exits 0 exactly then).
    pub fn ok(&self) -> bool {
        self.failed == 0
    }

    /// True when no check passed or failed: everything was skipped (no
    /// vectors where they were looked for) or filtered away. That must not
    /// look like success.
    pub fn ran_nothing(&self) -> bool {
        self.passed == 0 && self.failed == 0
    }

    /// Process exit status: 0 when something ran and nothing failed, else 1.
    pub fn exit_code(&self) -> u8 {
        u8::from(!self.ok() || self.ran_nothing())
    }
}

/// Receives results as they are produced, then the summary.
pub trait Reporter {
    /// A check is about to run (for progress output; default: nothing).
    fn starting(&mut self, _family: Family, _name: &str) {}
    /// A check finished.
    fn result(&mut self, result: &CheckResult);
    /// All checks finished.
    fn finish(&mut self, summary: &Summary);
}

/// Human-readable lines: `PASS family name (1.23 s): reason`, ending with
/// the summary line. Write errors (a closed pipe) are ignored: the exit
/// status still reports the outcome.
#[derive(Debug)]
pub struct TextReporter<W: Write> {
    out: W,
}

impl<W: Write> TextReporter<W> {
    /// Prints to `out`.
    pub fn new(out: W) -> Self {
        Self { out }
    }

    /// The writer back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> Reporter for TextReporter<W> {
    fn result(&mut self, r: &CheckResult) {
        let tag = match r.status {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::Skip => "SKIP",
        };
        let _ = writeln!(
            self.out,
            "{tag} {} {} ({:.2} s): {}",
            r.family,
            r.name,
            r.seconds,
            r.reason.replace('\n', " ")
        );
        let _ = self.out.flush();
    }

    fn finish(&mut self, summary: &Summary) {
        let _ = writeln!(self.out, "{}", summary.line());
        let _ = self.out.flush();
    }
}

/// One JSON object per line per check (`family`, `name`, `status`,
/// `reason`, `seconds`). The summary line goes to a second writer (the CLI
/// passes stderr) so that stdout stays pure JSON Lines.
#[derive(Debug)]
pub struct JsonReporter<W: Write, S: Write> {
    out: W,
    summary: S,
}

impl<W: Write, S: Write> JsonReporter<W, S> {
    /// Objects to `out`, the summary line to `summary`.
    pub fn new(out: W, summary: S) -> Self {
        Self { out, summary }
    }

    /// The writers back.
    pub fn into_inner(self) -> (W, S) {
        (self.out, self.summary)
    }
}

impl<W: Write, S: Write> Reporter for JsonReporter<W, S> {
    fn result(&mut self, r: &CheckResult) {
        let _ = writeln!(self.out, "{}", r.to_json());
        let _ = self.out.flush();
    }

    fn finish(&mut self, summary: &Summary) {
        let _ = writeln!(self.summary, "{}", summary.line());
        let _ = self.summary.flush();
    }
}

/// Collects results in memory (tests, embedding).
#[derive(Debug, Default)]
pub struct CollectReporter {
    /// Every result, in order.
    pub results: Vec<CheckResult>,
    /// The summary, once finished.
    pub summary: Option<Summary>,
}

impl Reporter for CollectReporter {
    fn result(&mut self, r: &CheckResult) {
        self.results.push(r.clone());
    }
    fn finish(&mut self, summary: &Summary) {
        self.summary = Some(*summary);
    }
}
