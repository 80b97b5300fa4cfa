//! `longfellow demo`: the whole flow on one machine. A synthetic issuer
//! signs an EU age-verification credential, the wallet proves
//! `age_over_18 = true` with the version-7 one-attribute circuits, the
//! relying party verifies; prints the costs of each step.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::Args;
use longfellow_circuit::{load_pair, FileForm};
use longfellow_mdoc::{Verifier, ZkSpec};
use longfellow_mdoc_issuer::{dc_api_session_transcript, DeviceKey, IssuerKey, MdocBuilder, Tdate};
use longfellow_mdoc_prover::Prover;
use longfellow_random::OsRng;

use super::mdoc::parse_request;

/// Options of `longfellow demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Directory holding Google's circuit files (`<hash>`, `.lfa1`,
    /// `.lfa2`); default `$LONGFELLOW_CIRCUITS`, else the user cache dir
    /// that `longfellow circuits fetch` fills, else the shared vectors
    /// beside the workspace, else `./circuits`.
    #[arg(long)]
    circuits: Option<PathBuf>,
    /// If the circuit is not found, download it (`longfellow circuits
    /// fetch`, checked against the catalog) into --circuits DIR or the store.
    #[arg(long)]
    fetch: bool,
    /// With --fetch: where to download from (default
    /// $LONGFELLOW_CIRCUITS_URL, else Google's repository).
    #[arg(long, requires = "fetch")]
    base_url: Option<String>,
}

/// Candidate directories, most specific first, after printing a warning
/// for each setting that was ignored: the store's search order, then the
/// developer fallbacks (the shared vectors beside the workspace this binary
/// was built in or beside the current directory, and `./circuits`).
pub(crate) fn circuit_dirs(arg: Option<PathBuf>) -> Vec<PathBuf> {
    let search = longfellow_circuit_store::search_dirs(arg.as_deref());
    for w in &search.warnings {
        eprintln!("longfellow: warning: {w}");
    }
    let mut dirs = search.dirs;
    if arg.is_none() {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        for base in [workspace.as_path(), Path::new(".")] {
            dirs.push(base.join("../shared/vectors/google/mdoc/circuits"));
        }
        dirs.push(PathBuf::from("circuits"));
    }
    dirs
}

pub(crate) use longfellow_circuit_store::find_circuit;

/// Whether stdin and stderr are a terminal a person could answer on.
fn interactive() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

/// The v7 one-attribute circuit: found, or fetched (with --fetch, or when a
/// person at the terminal says yes), or an error saying how to get it.
fn locate_or_fetch(args: &DemoArgs, hash: &str) -> Result<PathBuf, (u8, String)> {
    let dirs = circuit_dirs(args.circuits.clone());
    if let Some(p) = find_circuit(&dirs, hash) {
        return Ok(p);
    }
    let looked: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    let missing = format!("circuit {hash} not found in {}", looked.join(", "));
    let store = longfellow_circuit_store::store_dir(args.circuits.as_deref())
        .map_err(|e| (2, format!("{missing}; {e}")))?;
    let mut fetch = args.fetch;
    if !fetch && interactive() {
        eprint!(
            "{missing}.\nDownload it from Google's repository (checked against the built-in \
             catalog) into {}? [y/N] ",
            store.display()
        );
        let mut answer = String::new();
        let _ = std::io::stdin().read_line(&mut answer);
        fetch = matches!(answer.trim(), "y" | "Y" | "yes");
    }
    if !fetch {
        return Err((
            2,
            format!(
                "{missing}; run `longfellow circuits fetch` (or `longfellow demo --fetch`) to \
                 download it into {}, or pass --circuits DIR",
                store.display()
            ),
        ));
    }
    let paths = super::circuits::fetch_into(
        Some((7, 1)),
        FileForm::Lfa2,
        args.base_url.as_deref(),
        Some(&store),
    )
    .map_err(|e| (2, e.0))?;
    paths
        .into_iter()
        .next()
        .ok_or_else(|| (2, format!("{missing}; nothing fetched")))
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
    let path = locate_or_fetch(&args, &hash)?;

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
