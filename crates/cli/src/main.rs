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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Circuit(c) => cmd::circuit::run(c),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        // Exit codes 0/1/2 per docs/cli-contract.md.
        Command::Mdoc(c) => return cmd::mdoc::run(c),
        Command::Demo(a) => return cmd::demo::run(a),
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
