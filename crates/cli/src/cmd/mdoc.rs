//! `longfellow mdoc prove|verify`: the interop contract of
//! `docs/cli-contract.md`. Exit 0 on success, 1 when the prover refuses or
//! the proof is rejected, 2 for bad usage or unreadable input; one line on
//! stderr for every failure.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use longfellow_circuit::{load_pair, CircuitPair};
use longfellow_mdoc::public::parse_coordinate;
use longfellow_mdoc::{MdocRequest, RequestedAttribute, Verifier};
use longfellow_mdoc_prover::Prover;
use longfellow_random::SeededOrOs;
use serde_json::Value;

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
        /// Use the reference's deterministic generator with this seed
        /// instead of OS randomness (tests and conformance only).
        #[arg(long)]
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

/// Largest inputs read: circuit files (the largest published one is
/// 0.5 MB compressed; an uncompressed LFC1 pair is at most ~130 MB), a
/// proof (~0.4 MB) and a request or credential.
const MAX_CIRCUIT_FILE: u64 = 256 << 20;
const MAX_PROOF_FILE: u64 = 16 << 20;
const MAX_SMALL_FILE: u64 = 4 << 20;

fn read_limited(path: &Path, max: u64, what: &str) -> Result<Vec<u8>, Failure> {
    let file = std::fs::File::open(path)
        .map_err(|e| usage(format!("cannot read {what} {}: {e}", path.display())))?;
    let mut out = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut out)
        .map_err(|e| usage(format!("cannot read {what} {}: {e}", path.display())))?;
    if out.len() as u64 > max {
        return Err(usage(format!(
            "{what} {} is larger than {max} bytes",
            path.display()
        )));
    }
    Ok(out)
}

fn load_circuit(path: &Path) -> Result<CircuitPair, Failure> {
    let bytes = read_limited(path, MAX_CIRCUIT_FILE, "circuit file")?;
    load_pair(&bytes).map_err(|e| usage(format!("circuit file {}: {e}", path.display())))
}

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a str, Failure> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| usage(format!("request: missing string field `{key}`")))
}

fn hex_field(v: &Value, key: &str) -> Result<Vec<u8>, Failure> {
    hex::decode(field(v, key)?).map_err(|e| usage(format!("request: `{key}` is not hex: {e}")))
}

/// Whether `s` has the shape `YYYY-MM-DDTHH:MM:SSZ` (the circuits compare
/// these bytes with the MSO's validity dates).
fn is_timestamp(s: &[u8; 20]) -> bool {
    const SHAPE: &[u8; 20] = b"dddd-dd-ddTdd:dd:ddZ";
    s.iter().zip(SHAPE).all(|(c, want)| {
        if *want == b'd' {
            c.is_ascii_digit()
        } else {
            c == want
        }
    })
}

/// Parses the request JSON of the contract.
pub fn parse_request(json: &[u8]) -> Result<MdocRequest, Failure> {
    let v: Value =
        serde_json::from_slice(json).map_err(|e| usage(format!("request is not JSON: {e}")))?;
    let coordinate = |key: &str| {
        parse_coordinate(field(&v, key)?).ok_or_else(|| {
            usage(format!(
                "request: `{key}` is not a 256-bit 0x-hex or decimal integer"
            ))
        })
    };
    let issuer_pk = (coordinate("pkx")?, coordinate("pky")?);
    let now: [u8; 20] = field(&v, "now")?
        .as_bytes()
        .try_into()
        .ok()
        .filter(is_timestamp)
        .ok_or_else(|| usage("request: `now` must be YYYY-MM-DDTHH:MM:SSZ"))?;
    let attributes = v
        .get("attributes")
        .and_then(Value::as_array)
        .ok_or_else(|| usage("request: missing array `attributes`"))?
        .iter()
        .map(|a| {
            Ok(RequestedAttribute {
                namespace: field(a, "namespace")?.into(),
                id: field(a, "id")?.into(),
                value_cbor: hex_field(a, "value_cbor_hex")?,
            })
        })
        .collect::<Result<Vec<_>, Failure>>()?;
    Ok(MdocRequest {
        issuer_pk,
        transcript: hex_field(&v, "transcript_hex")?,
        now,
        doc_type: field(&v, "doc_type")?.into(),
        attributes,
    })
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
    println!("valid");
    Ok(())
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
