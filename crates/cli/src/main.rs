//! `longfellow`: the command-line tool of longfellow-rs.
//!
//! Each command group lives in its own file under `cmd/`; this file only
//! parses the command line and maps failures to exit code 2 with a
//! one-line message on stderr.
#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;

#[derive(Debug, Parser)]
#[command(name = "longfellow", version, about = "Longfellow ZK tools")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Inspect and catalog circuit files.
    #[command(subcommand)]
    Circuit(cmd::circuit::CircuitCommand),
    /// The local circuit store: list, fetch Google's files (SHA-256-pinned), verify.
    #[command(subcommand)]
    Circuits(cmd::circuits::CircuitsCommand),
    /// Prove and verify mdoc age proofs (docs/cli-contract.md).
    #[command(subcommand)]
    Mdoc(cmd::mdoc::MdocCommand),
    /// Issue a synthetic credential, prove age_over_18, verify, and time it.
    Demo(cmd::demo::DemoArgs),
    /// Time load, prove (by phase) and verify over several runs.
    Bench(cmd::bench::BenchArgs),
    /// Check this implementation (or a peer's) against the reference vectors.
    Conformance(cmd::conformance::ConformanceArgs),
    /// Run the relying party's verifier service (Google's /zkverify API).
    Serve(cmd::serve::ServeArgs),
}

/// How std's `print!`/`println!` panic when standard output is closed or
/// full (`longfellow demo | head -1`, `… > /dev/full`). The panic would end
/// the process with exit status 101 and a backtrace hint; instead the
/// command stops with one line on stderr and exit status 2.
const STDOUT_FAILURE: &str = "failed printing to stdout";

fn stdout_failure(payload: &(dyn std::any::Any + Send)) -> Option<&str> {
    let text = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())?;
    text.strip_prefix(STDOUT_FAILURE)
        .map(|rest| rest.trim_start_matches(':').trim())
}

fn main() -> ExitCode {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if stdout_failure(info.payload()).is_none() {
            default_hook(info);
        }
    }));
    match std::panic::catch_unwind(run) {
        Ok(code) => code,
        Err(payload) => match stdout_failure(&*payload) {
            Some(why) => {
                eprintln!("longfellow: cannot write to standard output: {why}");
                ExitCode::from(2)
            }
            None => std::panic::resume_unwind(payload),
        },
    }
}

fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Circuit(c) => cmd::circuit::run(c),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        // Exit codes 0/1/2 per docs/cli-contract.md.
        Command::Mdoc(c) => return cmd::mdoc::run(c),
        Command::Demo(a) => return cmd::demo::run(a),
        Command::Circuits(c) => return cmd::circuits::run(c),
        Command::Conformance(a) => return cmd::conformance::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("longfellow: {}", e.0.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}
