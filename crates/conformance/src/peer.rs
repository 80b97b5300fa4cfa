//! Another implementation's command line as an [`MdocBackend`]
//! (contract: `docs/cli-contract.md`).
//!
//! Each call writes its inputs to a fresh temporary directory, runs
//! `sh -c 'CMD mdoc prove …'` in its own process group with stdout and
//! stderr sent to files (so a chatty child cannot block on a full pipe),
//! polls until it exits or the time limit passes (then the whole group is
//! killed), and maps the exit status: 0 success, 1 refused / rejected, 2 bad
//! usage, anything else (or a signal) a crash.

use std::fs::{self, File};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::backend::{BackendError, MdocBackend, MdocRequest};

/// A peer implementation invoked through its shell command.
#[derive(Clone, Debug)]
pub struct PeerCli {
    /// The command prefix, e.g. `/usr/local/bin/other-longfellow`.
    pub command: String,
    /// Limit per invocation.
    pub timeout: Duration,
}

/// What one invocation produced.
#[derive(Debug)]
pub struct RunOutput {
    /// Exit status, `None` if it was killed for running too long.
    pub status: Option<ExitStatus>,
    /// Captured stdout (lossy UTF-8).
    pub stdout: String,
    /// Captured stderr (lossy UTF-8).
    pub stderr: String,
    /// Wall-clock time.
    pub seconds: f64,
}

/// Quotes `s` for `sh` (single quotes, embedded ones closed and escaped).
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// A fresh private directory under the system temp dir, removed on drop.
#[derive(Debug)]
pub struct TempDir(PathBuf);

impl TempDir {
    /// Creates `longfellow-conformance-<pid>-<n>`.
    pub fn new() -> std::io::Result<Self> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("longfellow-conformance-{}-{n}", std::process::id()));
        fs::create_dir_all(&dir)?;
        Ok(Self(dir))
    }

    /// A path inside.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn io_err(what: &str, e: std::io::Error) -> BackendError {
    BackendError::Crashed(format!("{what}: {e}"))
}

/// The first non-empty line of `s`, for one-line reasons.
fn first_line(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("(no message)")
        .to_string()
}

/// Runs `sh -c script` with a time limit; the child gets its own process
/// group so that everything it started can be killed together.
pub fn run_shell(
    script: &str,
    dir: &TempDir,
    timeout: Duration,
) -> Result<RunOutput, BackendError> {
    let out_path = dir.join("stdout");
    let err_path = dir.join("stderr");
    let stdout = File::create(&out_path).map_err(|e| io_err("stdout file", e))?;
    let stderr = File::create(&err_path).map_err(|e| io_err("stderr file", e))?;
    let start = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .process_group(0)
        .spawn()
        .map_err(|e| io_err("cannot start sh", e))?;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() >= timeout => {
                // Kill the whole group we created (its id is the child's id).
                let _ = Command::new("kill")
                    .arg("-KILL")
                    .arg("--")
                    .arg(format!("-{}", child.id()))
                    .stderr(Stdio::null())
                    .status();
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(io_err("waiting for the peer", e)),
        }
    };
    let read = |p: &Path| String::from_utf8_lossy(&fs::read(p).unwrap_or_default()).into_owned();
    Ok(RunOutput {
        status,
        stdout: read(&out_path),
        stderr: read(&err_path),
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Maps a non-zero or abnormal status to the contract's meaning.
fn failure(out: &RunOutput, on_one: fn(String) -> BackendError) -> BackendError {
    match out.status {
        None => BackendError::TimedOut(out.seconds),
        Some(s) => match s.code() {
            Some(1) => on_one(first_line(&out.stderr)),
            Some(2) => BackendError::Usage(first_line(&out.stderr)),
            // `sh` reports a child killed by signal N as 128 + N.
            Some(c) if c > 128 => BackendError::Crashed(format!(
                "killed by signal {} (exit status {c}): {}",
                c - 128,
                first_line(&out.stderr)
            )),
            Some(c) => {
                BackendError::Crashed(format!("exit status {c}: {}", first_line(&out.stderr)))
            }
            None => BackendError::Crashed(format!(
                "killed by signal {}: {}",
                s.signal().unwrap_or(0),
                first_line(&out.stderr)
            )),
        },
    }
}

impl PeerCli {
    /// A peer run as `sh -c 'COMMAND mdoc …'`.
    pub fn new(command: impl Into<String>, timeout: Duration) -> Self {
        Self {
            command: command.into(),
            timeout,
        }
    }

    fn write_request(dir: &TempDir, request: &MdocRequest) -> Result<PathBuf, BackendError> {
        let path = dir.join("request.json");
        fs::write(&path, request.to_json().to_string()).map_err(|e| io_err("request file", e))?;
        Ok(path)
    }
}

impl MdocBackend for PeerCli {
    fn name(&self) -> String {
        format!("peer `{}`", self.command)
    }

    fn prove(
        &self,
        circuit: &Path,
        request: &MdocRequest,
        mdoc: &[u8],
        seed: Option<u64>,
    ) -> Result<Vec<u8>, BackendError> {
        let dir = TempDir::new().map_err(|e| io_err("temp dir", e))?;
        let req = Self::write_request(&dir, request)?;
        let mdoc_path = dir.join("mdoc.cbor");
        fs::write(&mdoc_path, mdoc).map_err(|e| io_err("mdoc file", e))?;
        let proof_path = dir.join("proof.bin");
        let mut script = format!(
            "{} mdoc prove --circuit {} --request {} --mdoc {}",
            self.command,
            shell_quote(&circuit.to_string_lossy()),
            shell_quote(&req.to_string_lossy()),
            shell_quote(&mdoc_path.to_string_lossy()),
        );
        if let Some(s) = seed {
            script.push_str(&format!(" --seed {s}"));
        }
        script.push_str(&format!(
            " --out {}",
            shell_quote(&proof_path.to_string_lossy())
        ));
        let out = run_shell(&script, &dir, self.timeout)?;
        if out.status.is_some_and(|s| s.success()) {
            fs::read(&proof_path).map_err(|e| {
                BackendError::Crashed(format!("exit status 0 but no proof written: {e}"))
            })
        } else {
            Err(failure(&out, BackendError::Refused))
        }
    }

    fn verify(
        &self,
        circuit: &Path,
        request: &MdocRequest,
        proof: &[u8],
    ) -> Result<(), BackendError> {
        let dir = TempDir::new().map_err(|e| io_err("temp dir", e))?;
        let req = Self::write_request(&dir, request)?;
        let proof_path = dir.join("proof.bin");
        fs::write(&proof_path, proof).map_err(|e| io_err("proof file", e))?;
        let script = format!(
            "{} mdoc verify --circuit {} --request {} --proof {}",
            self.command,
            shell_quote(&circuit.to_string_lossy()),
            shell_quote(&req.to_string_lossy()),
            shell_quote(&proof_path.to_string_lossy()),
        );
        let out = run_shell(&script, &dir, self.timeout)?;
        if out.status.is_some_and(|s| s.success()) {
            if out.stdout.trim() == "valid" {
                Ok(())
            } else {
                Err(BackendError::Crashed(format!(
                    "exit status 0 but stdout is {:?}, not \"valid\"",
                    first_line(&out.stdout)
                )))
            }
        } else {
            Err(failure(&out, BackendError::Rejected))
        }
    }
}
