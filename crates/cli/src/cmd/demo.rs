//! `longfellow demo`: the whole flow on one machine. A synthetic issuer
//! signs an EU age-verification credential, the wallet proves
//! `age_over_18 = true` with the version-7 one-attribute circuits, the
//! relying party verifies; prints the costs of each step.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::Args;
use longfellow_circuit::load_pair;
use longfellow_mdoc::{Verifier, ZkSpec};
use longfellow_mdoc_issuer::{dc_api_session_transcript, DeviceKey, IssuerKey, MdocBuilder, Tdate};
use longfellow_mdoc_prover::Prover;
use longfellow_random::OsRng;

use super::mdoc::parse_request;

/// Options of `longfellow demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Directory holding Google's circuit files (`<hash>`, `.lfa1`,
    /// `.lfa2`); default `$LONGFELLOW_CIRCUITS`, else the shared vectors
    /// beside the workspace, else `./circuits`.
    #[arg(long)]
    circuits: Option<PathBuf>,
}

const CIRCUITS_ENV: &str = "LONGFELLOW_CIRCUITS";
const WHERE_TO_GET: &str = "get them from google/longfellow-zk lib/circuits/mdoc/circuits \
     and pass --circuits DIR or set LONGFELLOW_CIRCUITS";

/// Candidate directories, most specific first.
pub(crate) fn circuit_dirs(arg: Option<PathBuf>) -> Vec<PathBuf> {
    if let Some(dir) = arg {
        return vec![dir];
    }
    let mut dirs = Vec::new();
    if let Some(dir) = std::env::var_os(CIRCUITS_ENV).filter(|d| !d.is_empty()) {
        dirs.push(PathBuf::from(dir));
    }
    // The workspace this binary was built in, then the current directory.
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for base in [workspace.as_path(), Path::new(".")] {
        dirs.push(base.join("../shared/vectors/google/mdoc/circuits"));
    }
    dirs.push(PathBuf::from("circuits"));
    dirs
}

/// The first existing file for `hash`, preferring the small `.lfa2` form.
pub(crate) fn find_circuit(dirs: &[PathBuf], hash: &str) -> Option<PathBuf> {
    dirs.iter().find_map(|d| {
        [".lfa2", "", ".lfa1"]
            .iter()
            .map(|suffix| d.join(format!("{hash}{suffix}")))
            .find(|p| p.is_file())
    })
}

/// Peak resident memory (VmHWM) in KiB, where the OS reports it.
fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1e3)
}

fn demo(args: DemoArgs) -> Result<(), (u8, String)> {
    let fail = |e: &dyn std::fmt::Display| (1u8, e.to_string());
    let spec = ZkSpec::for_version(7, 1).ok_or((1, "no v7 ZkSpec".to_string()))?;
    let hash = spec.circuit_hash_hex();
    let dirs = circuit_dirs(args.circuits);
    let path = find_circuit(&dirs, &hash).ok_or_else(|| {
        let looked: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        (
            2,
            format!(
                "circuit {hash} not found in {}; {WHERE_TO_GET}",
                looked.join(", ")
            ),
        )
    })?;

    // Issuer and wallet.
    let unix = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_err(|e| fail(&e))?
        .as_secs();
    let now = Tdate::from_unix(i64::try_from(unix).map_err(|e| fail(&e))?).map_err(|e| fail(&e))?;
    let day = Duration::from_secs(86_400);
    let transcript = dc_api_session_transcript("https://verifier.example", "demo-nonce")
        .map_err(|e| fail(&e))?;
    let issuer = IssuerKey::random(&mut OsRng);
    let device = DeviceKey::random(&mut OsRng);
    let mdoc = MdocBuilder::age_verification()
        .valid_around(now, day, 365 * day)
        .and_then(|b| b.build(&issuer, &device, &transcript, &mut OsRng))
        .map_err(|e| fail(&e))?;
    let request_json = mdoc
        .request(now, &["age_over_18"])
        .and_then(|r| r.to_json())
        .map_err(|e| fail(&e))?;
    let request = parse_request(request_json.as_bytes()).map_err(|f| (1, f.to_string()))?;
    println!(
        "issued a synthetic {} credential ({} bytes); request: age_over_18 = true at {now}",
        mdoc.doc_type,
        mdoc.device_response.len()
    );

    let t = Instant::now();
    let bytes =
        super::limited::read_limited(&path, super::limited::MAX_CIRCUIT_FILE, "circuit file")
            .map_err(|e| (2, e))?;
    let pair = load_pair(&bytes).map_err(|e| (2, format!("{}: {e}", path.display())))?;
    let prover = Prover::new(&pair).map_err(|e| fail(&e))?;
    let verifier = Verifier::new(&pair).map_err(|e| fail(&e))?;
    let load = t.elapsed();
    let shown = std::fs::canonicalize(&path).unwrap_or(path);
    println!("circuits  ZkSpec v7, 1 attribute, {}", shown.display());
    println!("load      {}", ms(load));

    let t = Instant::now();
    let proof = prover
        .prove(&request, &mdoc.device_response, &mut OsRng)
        .map_err(|e| fail(&e))?;
    println!("prove     {}", ms(t.elapsed()));

    let t = Instant::now();
    verifier.verify(&request, &proof).map_err(|e| fail(&e))?;
    println!("verify    {}", ms(t.elapsed()));
    println!("proof     {} bytes", proof.len());
    match peak_memory_kib() {
        Some(kib) => println!("peak mem  {:.1} MiB (VmHWM)", kib as f64 / 1024.0),
        None => println!("peak mem  not reported on this OS"),
    }
    println!("valid");
    Ok(())
}

/// Runs the demo; exit 0 on success, 1 if a step fails, 2 if the circuits
/// are missing or unreadable.
pub fn run(args: DemoArgs) -> ExitCode {
    match demo(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err((code, message)) => {
            eprintln!("longfellow demo: {}", message.replace('\n', " "));
            ExitCode::from(code)
        }
    }
}
