//! `longfellow circuits list | fetch | verify`: the local circuit store.
//!
//! Google publishes the circuit files in its repository; `fetch` downloads
//! them, refusing any file whose SHA-256 the compiled-in catalog does not
//! list *before* writing it, into the directory every other command
//! searches (see [`longfellow_circuit_store::search_dirs`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use longfellow_circuit::catalog::{self, FileForm};
use longfellow_circuit_store::{
    base_url, fetch_file, file_name, find_circuit, parse_form, search_dirs, select, store_dir,
    verify_dir, Fetched,
};

use super::CliError;

/// Circuit store commands.
#[derive(Debug, Subcommand)]
pub enum CircuitsCommand {
    /// List the catalogued circuits and where each is found locally.
    List {
        /// Look only in DIR (default: $LONGFELLOW_CIRCUITS, then the cache dir).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Download Google's published circuit files, each checked against the
    /// compiled-in catalog before it is written (default: version 7, 1 attribute).
    Fetch(FetchArgs),
    /// Check every file in DIR against the catalog (exit 1 if any is refused).
    Verify {
        /// The directory.
        dir: PathBuf,
    },
}

/// Options of `longfellow circuits fetch`.
#[derive(Debug, Args)]
pub struct FetchArgs {
    /// ZkSpec version (with --attributes).
    #[arg(long, requires = "attributes", conflicts_with = "all")]
    version: Option<u32>,
    /// Number of attributes (with --version).
    #[arg(long, requires = "version", conflicts_with = "all")]
    attributes: Option<u32>,
    /// Every circuit with published files.
    #[arg(long)]
    all: bool,
    /// File form: lfa2 (smallest to unpack), lfc1 (Google's `<hash>` file), lfa1.
    #[arg(long, default_value = "lfa2", value_parser = ["lfa2", "lfc1", "lfa1"])]
    form: String,
    /// Where to download from: `<URL>/<file name>` (default
    /// $LONGFELLOW_CIRCUITS_URL, else Google's repository).
    #[arg(long)]
    base_url: Option<String>,
    /// Where to keep them (default $LONGFELLOW_CIRCUITS, else the user cache dir).
    #[arg(long)]
    dir: Option<PathBuf>,
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Runs a circuits command: exit 0, 1 when `verify` refused a file, 2 on
/// any other failure.
pub fn run(cmd: CircuitsCommand) -> ExitCode {
    let result = match cmd {
        CircuitsCommand::List { dir } => list(dir.as_deref()).map(|()| ExitCode::SUCCESS),
        CircuitsCommand::Fetch(args) => fetch(&args).map(|_| ExitCode::SUCCESS),
        CircuitsCommand::Verify { dir } => verify(&dir),
    };
    result.unwrap_or_else(|e| {
        eprintln!("longfellow circuits: {}", e.0.replace('\n', " "));
        ExitCode::from(2)
    })
}

fn list(dir: Option<&Path>) -> Result<(), CliError> {
    let search = search_dirs(dir);
    for w in &search.warnings {
        eprintln!("longfellow circuits: warning: {w}");
    }
    println!(
        "searched: {}",
        search
            .dirs
            .iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    for e in catalog::entries() {
        let hash = hex(&e.zkspec_hash);
        let sizes: Vec<String> = e
            .files
            .iter()
            .map(|f| format!("{} {} B", f.form.name(), f.size))
            .collect();
        let local = match find_circuit(&search.dirs, &hash) {
            Some(p) => p.display().to_string(),
            None if e.files.is_empty() => "no published files".into(),
            None => "not fetched".into(),
        };
        println!(
            "v{} {} attribute(s)  {hash}  [{}]  {local}",
            e.version,
            e.attributes,
            sizes.join(", ")
        );
    }
    Ok(())
}

/// Fetches the selected files; returns their paths.
pub(crate) fn fetch(args: &FetchArgs) -> Result<Vec<PathBuf>, CliError> {
    let form =
        parse_form(&args.form).ok_or_else(|| CliError(format!("unknown form {}", args.form)))?;
    let which = match (args.all, args.version, args.attributes) {
        (true, _, _) => None,
        (false, Some(v), Some(n)) => Some((v, n)),
        _ => Some((7, 1)),
    };
    fetch_into(which, form, args.base_url.as_deref(), args.dir.as_deref())
}

/// Fetches the files of `form` for `which` (None: all) into the store.
pub(crate) fn fetch_into(
    which: Option<(u32, u32)>,
    form: FileForm,
    base: Option<&str>,
    dir: Option<&Path>,
) -> Result<Vec<PathBuf>, CliError> {
    let dir = store_dir(dir)?;
    let base = base_url(base, form);
    let mut paths = Vec::new();
    for (entry, file) in select(which, form)? {
        let what = format!(
            "{} (v{}, {} attribute(s), {} B)",
            file_name(entry, file),
            entry.version,
            entry.attributes,
            file.size
        );
        match fetch_file(entry, file, &base, &dir)? {
            Fetched::Written(p) => {
                println!("fetched {what} from {base} -> {}", p.display());
                paths.push(p);
            }
            Fetched::AlreadyPresent(p) => {
                println!("present {what} at {}", p.display());
                paths.push(p);
            }
        }
    }
    Ok(paths)
}

fn verify(dir: &Path) -> Result<ExitCode, CliError> {
    let results = verify_dir(dir)?;
    if results.is_empty() {
        return Err(CliError(format!("{}: no files to verify", dir.display())));
    }
    let mut refused = 0usize;
    for (name, r) in &results {
        match r {
            Ok(v) => println!(
                "ok       {name}  v{} {} attribute(s) {}",
                v.entry.version,
                v.entry.attributes,
                v.file.form.name()
            ),
            Err(e) => {
                refused += 1;
                println!("REFUSED  {e}");
            }
        }
    }
    println!("{} verified, {refused} refused", results.len() - refused);
    Ok(if refused == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
