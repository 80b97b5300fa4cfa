//! `longfellow mdoc prove|verify`: the interop contract of
//! `docs/cli-contract.md`. Exit 0 on success, 1 when the prover refuses or
//! the proof is rejected, 2 for bad usage or unreadable input; one line on
//! stderr for every failure.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use longfellow_circuit::{load_pair, CircuitPair};
use longfellow_mdoc::{MdocRequest, Verifier};
use longfellow_mdoc_prover::Prover;
use longfellow_random::SeededOrOs;

use super::limited::{MAX_CIRCUIT_FILE, MAX_PROOF_FILE, MAX_SMALL_FILE};

/// mdoc proof commands.
#[derive(Debug, Subcommand)]
pub enum MdocCommand {
    /// Prove a request from a DeviceResponse; writes the proof to --out.
    Prove {
        /// Circuit pair: `<hash>`, `<hash>.lfa1` or `<hash>.lfa2`.
        #[arg(long)]
        circuit: PathBuf,
        /// Request JSON (issuer key, transcript, now, docType, attributes).
        #[arg(long)]
        request: PathBuf,
        /// Raw ISO 18013-5 DeviceResponse (CBOR).
        #[arg(long)]
        mdoc: PathBuf,
        /// INSECURE: use the reference's deterministic generator with this
        /// seed instead of OS randomness, to reproduce published proofs
        /// byte for byte. Anyone who knows N can recover the witness from
        /// the proof, so it is for tests and conformance only; a warning is
        /// printed. `--seed N` is accepted as an alias for the conformance
        /// contract (docs/cli-contract.md).
        #[arg(long = "insecure-seed", alias = "seed", value_name = "N")]
        seed: Option<u64>,
        /// Where to write the proof (only on success).
        #[arg(long)]
        out: PathBuf,
    },
    /// Verify a proof for a request; prints `valid` when accepted.
    Verify {
        /// Circuit pair: `<hash>`, `<hash>.lfa1` or `<hash>.lfa2`.
        #[arg(long)]
        circuit: PathBuf,
        /// Request JSON.
        #[arg(long)]
        request: PathBuf,
        /// The proof.
        #[arg(long)]
        proof: PathBuf,
    },
    /// Prove attributes of an mdoc and write the ISO 18013-5 ZK
    /// DeviceResponse a relying party receives.
    Present(super::present::PresentArgs),
}

/// A failure and its exit code.
#[derive(Debug)]
pub struct Failure {
    code: u8,
    message: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

fn usage(message: impl std::fmt::Display) -> Failure {
    Failure {
        code: 2,
        message: message.to_string(),
    }
}

fn refused(message: impl std::fmt::Display) -> Failure {
    Failure {
        code: 1,
        message: message.to_string(),
    }
}

fn read_limited(path: &Path, max: u64, what: &str) -> Result<Vec<u8>, Failure> {
    super::limited::read_limited(path, max, what).map_err(usage)
}

fn load_circuit(path: &Path) -> Result<CircuitPair, Failure> {
    let bytes = read_limited(path, MAX_CIRCUIT_FILE, "circuit file")?;
    load_pair(&bytes).map_err(|e| usage(format!("circuit file {}: {e}", path.display())))
}

/// Parses the request JSON of the contract (strict: see
/// [`MdocRequest::from_json`]).
pub fn parse_request(json: &[u8]) -> Result<MdocRequest, Failure> {
    MdocRequest::from_json(json).map_err(usage)
}

fn prove(
    circuit: &Path,
    request: &Path,
    mdoc: &Path,
    seed: Option<u64>,
    out: &Path,
) -> Result<(), Failure> {
    let request = parse_request(&read_limited(request, MAX_SMALL_FILE, "request")?)?;
    let mdoc = read_limited(mdoc, MAX_SMALL_FILE, "mdoc")?;
    if let Some(n) = seed {
        eprintln!(
            "longfellow mdoc prove: warning: --insecure-seed {n}: this proof reveals the \
             credential's hidden contents to anyone who knows the seed; use it only to \
             reproduce test vectors"
        );
    }
    let pair = load_circuit(circuit)?;
    let prover = Prover::new(&pair).map_err(usage)?;
    let proof = prover
        .prove(&request, &mdoc, &mut SeededOrOs::new(seed))
        .map_err(|e| refused(format!("prover refused: {e}")))?;
    std::fs::write(out, proof).map_err(|e| usage(format!("cannot write {}: {e}", out.display())))
}

fn verify(circuit: &Path, request: &Path, proof: &Path) -> Result<(), Failure> {
    let request = parse_request(&read_limited(request, MAX_SMALL_FILE, "request")?)?;
    let proof = read_limited(proof, MAX_PROOF_FILE, "proof")?;
    let pair = load_circuit(circuit)?;
    let verifier = Verifier::new(&pair).map_err(usage)?;
    verifier
        .verify(&request, &proof)
        .map_err(|e| refused(format!("proof rejected: {e}")))?;
    // The verdict is the output: if it cannot be written (closed pipe,
    // full disk), say so and do not exit 0.
    let mut out = std::io::stdout().lock();
    writeln!(out, "valid")
        .and_then(|()| out.flush())
        .map_err(|e| usage(format!("cannot write the verdict to standard output: {e}")))
}

/// Runs an mdoc command and returns the process exit code.
pub fn run(cmd: MdocCommand) -> ExitCode {
    let result = match cmd {
        MdocCommand::Prove {
            circuit,
            request,
            mdoc,
            seed,
            out,
        } => prove(&circuit, &request, &mdoc, seed, &out),
        MdocCommand::Verify {
            circuit,
            request,
            proof,
        } => verify(&circuit, &request, &proof),
        MdocCommand::Present(a) => super::present::run(a).map_err(|e| Failure {
            code: e.code,
            message: e.message,
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("longfellow: {}", f.message.replace('\n', " "));
            ExitCode::from(f.code)
        }
    }
}
