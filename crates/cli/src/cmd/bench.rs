//! `longfellow bench`: times loading, proving (split into witness, commit,
//! sumcheck and Ligero, the last two also per circuit) and verifying one
//! mdoc statement over several runs, and reports min / median / p95 per
//! phase, the proof size and the peak memory. `--only load|prove|verify`
//! does one role once and prints `key=value` tokens for external drivers
//! (the baseline harness' format).
//!
//! Proving draws from the seed-42 generator of the reference proofs, so
//! every run proves the same bytes; the timing does not depend on it.

mod clock;
mod inputs;
mod layers;
mod plot;
mod report;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use longfellow_circuit::{load_pair, CircuitPair};
use longfellow_mdoc::{Verifier, ZkSpec};
use longfellow_mdoc_prover::{Phase, Prover};
use longfellow_random::MdocLcg;

use self::clock::{minor_faults, peak_rss_kib, Stamp};
use self::inputs::Inputs;
use self::layers::{LayerClock, LayerTimes};
use self::report::{phase, phase_summary, Run, PHASES};
use super::demo::{circuit_dirs, find_circuit};
use super::CliError;

/// Options of `longfellow bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Circuit file (`<hash>`, `.lfa1` or `.lfa2`); default the version-7
    /// one-attribute circuits, found as `longfellow demo` finds them.
    #[arg(long)]
    circuit: Option<PathBuf>,
    /// Prove a case of a cases.json-shaped file, disclosing its first n
    /// own attributes.
    #[arg(long, value_name = "FILE#NAME", conflicts_with_all = ["request", "reference"])]
    case: Option<String>,
    /// Request JSON (docs/cli-contract.md); with --mdoc.
    #[arg(long, requires = "mdoc", conflicts_with = "reference")]
    request: Option<PathBuf>,
    /// DeviceResponse CBOR; with --request.
    #[arg(long, requires = "request")]
    mdoc: Option<PathBuf>,
    /// Google's reference-proof inputs (cases.json and proofs/ beside the
    /// circuit directory): checks the proof against the stored one and
    /// verifies the stored proof.
    #[arg(long)]
    reference: bool,
    /// Timed runs.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Untimed runs first.
    #[arg(long, default_value_t = 1)]
    warmup: u32,
    /// Run inside a rayon pool of this many threads.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// Write every run's phases as CSV.
    #[arg(long, value_name = "PATH")]
    csv: Option<PathBuf>,
    /// Write the summary as JSON.
    #[arg(long, value_name = "PATH")]
    json: Option<PathBuf>,
    /// Draw the phase medians as a PNG bar chart.
    #[arg(long, value_name = "PATH.png")]
    plot: Option<PathBuf>,
    /// Do one role once and print key=value tokens.
    #[arg(long, value_enum)]
    only: Option<Only>,
    /// With --only verify: the proof to verify (default: the stored
    /// reference proof with --reference, else a fresh untimed proof).
    #[arg(long, value_name = "FILE")]
    proof: Option<PathBuf>,
    /// Also time each layer's evaluation, output binding and rounds, per
    /// circuit (wall medians, printed after the phases).
    #[arg(long, conflicts_with = "only")]
    layers: bool,
}

/// A role of `--only`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Only {
    Load,
    Prove,
    Verify,
}

fn err(what: impl std::fmt::Display) -> CliError {
    CliError(what.to_string())
}

/// The circuit file: `--circuit`, else the v7 one-attribute pair.
fn circuit_path(arg: Option<PathBuf>) -> Result<PathBuf, CliError> {
    if let Some(p) = arg {
        return Ok(p);
    }
    let spec = ZkSpec::for_version(7, 1).ok_or_else(|| err("no v7 ZkSpec"))?;
    let hash = spec.circuit_hash_hex();
    find_circuit(&circuit_dirs(None), &hash).ok_or_else(|| {
        err(format!(
            "circuit {hash} not found; pass --circuit FILE or set LONGFELLOW_CIRCUITS"
        ))
    })
}

fn load(path: &Path) -> Result<CircuitPair, CliError> {
    let bytes =
        super::limited::read_limited(path, super::limited::MAX_CIRCUIT_FILE, "circuit file")
            .map_err(CliError)?;
    load_pair(&bytes).map_err(|e| err(format!("{}: {e}", path.display())))
}

fn inputs(args: &BenchArgs, path: &Path, spec: &ZkSpec) -> Result<Inputs, CliError> {
    let n = spec.info.num_attributes;
    match (&args.case, &args.request, &args.mdoc) {
        (Some(c), _, _) => inputs::case(c, n),
        (None, Some(r), Some(m)) => inputs::files(r, m),
        _ if args.reference => inputs::reference(path, &spec.circuit_hash_hex(), n),
        _ => inputs::synthetic(n),
    }
}

fn spec_of(pair: &CircuitPair) -> Result<ZkSpec, CliError> {
    Ok(*Verifier::new(pair).map_err(err)?.spec())
}

/// Proves once with the phase callback, adding each phase's time to `run`.
/// The prover runs sumcheck then Ligero for the hash circuit, then for the
/// signature circuit, so the first of each phase is the hash circuit's and
/// the second the signature circuit's; their times also go to the
/// `sumcheck.hash` … `ligero.sig` rows.
///
/// With `layers`, the layer steps inside the sumchecks are timed there too
/// (they do not end a phase).
fn timed_prove(
    prover: &Prover,
    inputs: &Inputs,
    run: &mut Run,
    mut layers: Option<&mut LayerClock>,
) -> Result<Vec<u8>, CliError> {
    let start = Stamp::now();
    let mut stamp = start;
    let mut current = (phase("witness"), None);
    let mut sumchecks = 0;
    let proof = prover
        .prove_observed(
            &inputs.request,
            &inputs.mdoc,
            &mut MdocLcg::new(42),
            &mut |p| {
                if let Some(clock) = layers.as_deref_mut() {
                    clock.on(p);
                }
                if matches!(p, Phase::Layer { .. }) {
                    return;
                }
                let (span, now) = stamp.lap();
                charge(run, current, span);
                stamp = now;
                if p == Phase::Sumcheck {
                    sumchecks += 1;
                }
                let circuit = if sumchecks <= 1 { "hash" } else { "sig" };
                current = match p {
                    Phase::Witness => (phase("witness"), None),
                    Phase::Commit => (phase("commit"), None),
                    Phase::Sumcheck => (
                        phase("sumcheck"),
                        Some(phase(&format!("sumcheck.{circuit}"))),
                    ),
                    _ => (phase("ligero"), Some(phase(&format!("ligero.{circuit}")))),
                };
            },
        )
        .map_err(err)?;
    charge(run, current, stamp.lap().0);
    run[phase("prove")] = start.lap().0;
    Ok(proof)
}

/// Adds `span` to a phase's row and, if it has one, its circuit's row.
fn charge(run: &mut Run, (total, part): (usize, Option<usize>), span: clock::Span) {
    run[total] += span;
    if let Some(part) = part {
        run[part] += span;
    }
}

/// One full run: load, setup, prove, verify. Returns the proof.
fn one_run(
    path: &Path,
    inputs: &Inputs,
    run: &mut Run,
    layers: Option<&mut LayerClock>,
) -> Result<Vec<u8>, CliError> {
    let t = Stamp::now();
    let pair = load(path)?;
    let (span, t) = t.lap();
    run[phase("load")] = span;
    let prover = Prover::new(&pair).map_err(err)?;
    let verifier = Verifier::new(&pair).map_err(err)?;
    run[phase("setup")] = t.lap().0;
    let proof = timed_prove(&prover, inputs, run, layers)?;
    let t = Stamp::now();
    verifier.verify(&inputs.request, &proof).map_err(err)?;
    run[phase("verify")] = t.lap().0;
    Ok(proof)
}

fn check_reference(inputs: &Inputs, proof: &[u8]) -> Option<bool> {
    inputs.expected_proof.as_deref().map(|e| e == proof)
}

/// `--only ROLE`: one fresh load, then the role; key=value tokens.
fn only(args: &BenchArgs, role: Only, path: &Path) -> Result<(), CliError> {
    let t = Stamp::now();
    let pair = load(path)?;
    let l = t.lap().0;
    println!(
        "load_ms={:.3} load_cpu_ms={:.3} threads={}",
        l.wall_ms,
        l.cpu_ms,
        rayon::current_num_threads()
    );
    if role == Only::Load {
        return print_rss();
    }
    let spec = spec_of(&pair)?;
    let inputs = inputs(args, path, &spec)?;
    match role {
        Only::Prove => {
            let faults = minor_faults();
            let t = Stamp::now();
            let prover = Prover::new(&pair).map_err(err)?;
            let proof = prover
                .prove(&inputs.request, &inputs.mdoc, &mut MdocLcg::new(42))
                .map_err(err)?;
            let p = t.lap().0;
            println!(
                "prove_ms={:.3} prove_cpu_ms={:.3} proof_bytes={}",
                p.wall_ms,
                p.cpu_ms,
                proof.len()
            );
            print_faults("prove", faults);
            if let Some(m) = check_reference(&inputs, &proof) {
                println!("reference_match={}", if m { "yes" } else { "NO" });
            }
        }
        _ => {
            let proof = match (&args.proof, &inputs.expected_proof) {
                (Some(p), _) => {
                    super::limited::read_limited(p, super::limited::MAX_PROOF_FILE, "proof")
                        .map_err(CliError)?
                }
                (None, Some(stored)) => stored.clone(),
                (None, None) => Prover::new(&pair)
                    .and_then(|p| p.prove(&inputs.request, &inputs.mdoc, &mut MdocLcg::new(42)))
                    .map_err(err)?,
            };
            let faults = minor_faults();
            let t = Stamp::now();
            let ok = Verifier::new(&pair)
                .map_err(err)?
                .verify(&inputs.request, &proof);
            let v = t.lap().0;
            println!(
                "verify_ms={:.3} verify_cpu_ms={:.3} verify_ok={}",
                v.wall_ms,
                v.cpu_ms,
                ok.is_ok()
            );
            print_faults("verify", faults);
            ok.map_err(err)?;
        }
    }
    print_rss()
}

/// The minor page faults since `before`, as `ROLE_faults=N`.
fn print_faults(role: &str, before: Option<u64>) {
    if let (Some(a), Some(b)) = (before, minor_faults()) {
        println!("{role}_faults={}", b.saturating_sub(a));
    }
}

fn print_rss() -> Result<(), CliError> {
    if let Some(kib) = peak_rss_kib() {
        println!("peak_rss_kib={kib}");
    }
    Ok(())
}

/// The circuit file as the runs read it: its canonical path (no `..`, no
/// symlinks), so a report names one file however it was given.
fn canonical(path: &Path) -> Result<PathBuf, CliError> {
    std::fs::canonicalize(path).map_err(|e| err(format!("{}: {e}", path.display())))
}

/// "longfellow bench · <circuit file> · N thread(s) · median of R runs".
fn plot_title(circuit: &Path, threads: usize, runs: usize) -> String {
    let name = circuit.file_name().map_or_else(
        || circuit.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let chars: Vec<char> = name.chars().collect();
    let short = if chars.len() > 24 {
        let head: String = chars[..12].iter().collect();
        let tail: String = chars[chars.len() - 11..].iter().collect();
        format!("{head}…{tail}")
    } else {
        name
    };
    format!("longfellow bench · {short} · {threads} thread(s) · median of {runs} run(s)")
}

fn bench(args: &BenchArgs, path: &Path) -> Result<(), CliError> {
    let threads = rayon::current_num_threads();
    let progress = std::io::stderr().is_terminal();
    if progress {
        eprintln!("bench: circuit {}, {threads} thread(s)", path.display());
    }
    let spec = spec_of(&load(path)?)?;
    let inputs = inputs(args, path, &spec)?;
    let total = args.warmup + args.runs;
    let mut runs: Vec<Run> = Vec::new();
    let mut layer_runs: Vec<LayerTimes> = Vec::new();
    let mut proof = Vec::new();
    for i in 0..total {
        if progress {
            let what = if i < args.warmup { "warm-up" } else { "run" };
            eprint!("\r\x1b[Kbench: {what} {}/{total}", i + 1);
        }
        let mut run = Run::default();
        let mut clock = args.layers.then(LayerClock::default);
        proof = one_run(path, &inputs, &mut run, clock.as_mut())?;
        if i >= args.warmup {
            runs.push(run);
            layer_runs.extend(clock.map(LayerClock::finish));
        }
    }
    if progress {
        eprintln!("\r\x1b[Kbench: done");
    }
    let reference = check_reference(&inputs, &proof);
    if reference == Some(false) {
        return Err(err("the proof differs from the stored reference proof"));
    }
    let ctx = report::Context {
        circuit: path.display().to_string(),
        case: inputs.label.clone(),
        threads,
        threads_requested: args.threads.is_some(),
        warmup: args.warmup as usize,
        proof_bytes: proof.len(),
        peak_rss_kib: peak_rss_kib(),
    };
    print_table(&ctx, &runs, reference);
    if args.layers {
        print!("{}", layers::table(&layer_runs));
    }
    if let Some(p) = &args.csv {
        std::fs::write(p, report::csv(&runs)).map_err(|e| err(format!("{}: {e}", p.display())))?;
    }
    if let Some(p) = &args.json {
        let text = serde_json::to_string_pretty(&report::json(&ctx, &runs)).map_err(err)?;
        std::fs::write(p, text + "\n").map_err(|e| err(format!("{}: {e}", p.display())))?;
    }
    if let Some(p) = &args.plot {
        // The per-circuit rows stay in the table, CSV and JSON: as bars
        // beside their totals they crowd the labels.
        let bars: Vec<plot::Bar<'_>> = PHASES
            .iter()
            .enumerate()
            .filter(|(_, name)| !name.contains('.'))
            .map(|(i, name)| {
                let (wall, cpu) = phase_summary(&runs, i);
                plot::Bar {
                    phase: name,
                    wall_ms: wall.map_or(0.0, |s| s.median),
                    cpu_ms: cpu.map_or(f64::NAN, |s| s.median),
                }
            })
            .collect();
        let title = plot_title(path, threads, runs.len());
        plot::bar_chart(p, &title, &bars).map_err(|e| err(format!("{}: {e}", p.display())))?;
    }
    Ok(())
}

fn print_table(ctx: &report::Context, runs: &[Run], reference: Option<bool>) {
    println!("circuit   {}", ctx.circuit);
    println!("case      {}", ctx.case);
    let chosen = if ctx.threads_requested {
        "--threads"
    } else {
        "rayon default"
    };
    println!(
        "runs      {} (+{} warm-up), threads {} ({chosen})",
        runs.len(),
        ctx.warmup,
        ctx.threads
    );
    println!("kernels   {}", longfellow_field::kernels());
    println!(
        "{:<13} {:>10} {:>10} {:>10} {:>10}",
        "phase", "min ms", "median ms", "p95 ms", "cpu med ms"
    );
    for (i, name) in PHASES.iter().enumerate() {
        let (wall, cpu) = phase_summary(runs, i);
        let f = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.1}"));
        println!(
            "{name:<13} {:>10} {:>10} {:>10} {:>10}",
            f(wall.map(|s| s.min)),
            f(wall.map(|s| s.median)),
            f(wall.map(|s| s.p95)),
            f(cpu.map(|s| s.median)),
        );
    }
    println!("proof     {} bytes", ctx.proof_bytes);
    if let Some(m) = reference {
        println!(
            "reference {}",
            if m {
                "matches the stored proof"
            } else {
                "DIFFERS"
            }
        );
    }
    match ctx.peak_rss_kib {
        Some(kib) => println!(
            "peak RSS  {:.1} MiB (VmHWM, whole process)",
            kib as f64 / 1024.0
        ),
        None => println!("peak RSS  not reported on this OS"),
    }
}

/// Runs `longfellow bench`.
/// Refuses an output path that cannot be written, before minutes of runs.
fn check_output(flag: &str, path: &Path) -> Result<(), CliError> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        return Err(err(format!(
            "{flag} {}: directory {} does not exist",
            path.display(),
            parent.display()
        )));
    }
    if path.is_dir() {
        return Err(err(format!("{flag} {}: is a directory", path.display())));
    }
    Ok(())
}

pub fn run(args: BenchArgs) -> Result<(), CliError> {
    for (flag, p) in [
        ("--csv", &args.csv),
        ("--json", &args.json),
        ("--plot", &args.plot),
    ] {
        if let Some(p) = p {
            check_output(flag, p)?;
        }
    }
    if args.proof.is_some() && args.only != Some(Only::Verify) {
        return Err(err("--proof is used only with --only verify"));
    }
    let path = canonical(&circuit_path(args.circuit.clone())?)?;
    let go = || match args.only {
        Some(role) => only(&args, role, &path),
        None => bench(&args, &path),
    };
    match args.threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n as usize)
            .build()
            .map_err(err)?
            .install(go),
        None => go(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plot_title_names_the_circuit_file_and_the_threads() {
        let hash = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";
        let t = plot_title(&Path::new("/c").join(format!("{hash}.lfa2")), 3, 5);
        assert!(t.contains("8d0792117152…182121.lfa2"), "{t}");
        assert!(t.contains("3 thread(s)") && t.contains("5 run(s)"), "{t}");
        let t = plot_title(Path::new("pair.lfa2"), 1, 1);
        assert!(t.contains("pair.lfa2 · 1 thread(s)"), "{t}");
    }
}
