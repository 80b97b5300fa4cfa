//! `longfellow circuit …`: inspect circuit files and generate the catalog.

use std::path::PathBuf;

use clap::Subcommand;
use longfellow_circuit::{
    catalog, load_any_with, AnyCircuit, Circuit, CircuitPair, Field, LoadOptions,
};
use serde_json::{json, Value};

use super::CliError;

/// Circuit commands.
#[derive(Debug, Subcommand)]
pub enum CircuitCommand {
    /// Decode a circuit file (pair, .lfa1, .lfa2, LFC1, LFC2, raw or zstd),
    /// check its IDs and print what it holds.
    Inspect {
        /// The file.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Ignore the catalog: recompute every circuit ID.
        #[arg(long)]
        no_catalog: bool,
    },
    /// Print `catalog_data.rs` from the manifest (`--manifest
    /// circuits/manifest.json`), or from DIR by fully identifying every
    /// `<hash>`, `<hash>.lfa1`, `<hash>.lfa2` in it (refuses if any file
    /// disagrees with its name).
    Catalog {
        /// Directory of circuit files.
        #[arg(required_unless_present = "manifest")]
        dir: Option<PathBuf>,
        /// The manifest to render instead.
        #[arg(long, conflicts_with = "dir")]
        manifest: Option<PathBuf>,
    },
}

/// Runs a circuit command.
pub fn run(cmd: CircuitCommand) -> Result<(), CliError> {
    match cmd {
        CircuitCommand::Inspect {
            file,
            json,
            no_catalog,
        } => inspect(&file, json, !no_catalog),
        CircuitCommand::Catalog { dir, manifest } => {
            let source = match (manifest, dir) {
                (Some(m), _) => catalog::render(&read_manifest(&m)?),
                (None, Some(d)) => catalog::generate(&d)?,
                (None, None) => return Err(CliError("give DIR or --manifest FILE".into())),
            };
            print!("{source}");
            Ok(())
        }
    }
}

fn hash32(what: &str, s: &str) -> Result<[u8; 32], CliError> {
    let v = hex::decode(s).map_err(|e| CliError(format!("{what}: `{s}` is not hex: {e}")))?;
    v.try_into()
        .map_err(|_| CliError(format!("{what}: `{s}` is not 32 bytes")))
}

/// Reads `circuits/manifest.json` into catalog entries, checking every
/// field the catalog needs and that each file's name is its hash and form.
pub(crate) fn read_manifest(
    path: &std::path::Path,
) -> Result<Vec<catalog::ManifestEntry>, CliError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| CliError(format!("{}: {e}", path.display())))?;
    let json: Value =
        serde_json::from_str(&text).map_err(|e| CliError(format!("{}: {e}", path.display())))?;
    let bad = |what: String| CliError(format!("{}: {what}", path.display()));
    let circuits = json["circuits"]
        .as_array()
        .ok_or_else(|| bad("`circuits` is not an array".into()))?;
    let mut out = Vec::new();
    for (i, c) in circuits.iter().enumerate() {
        let num = |k: &str| {
            c[k].as_u64()
                .ok_or_else(|| bad(format!("circuits[{i}].{k} is not a number")))
        };
        let text = |v: &Value, k: &str| {
            v[k].as_str()
                .map(str::to_string)
                .ok_or_else(|| bad(format!("circuits[{i}].{k} is not a string")))
        };
        let hash_hex = text(c, "zkspec_hash")?;
        let zkspec_hash = hash32(&format!("circuits[{i}].zkspec_hash"), &hash_hex)?;
        let mut files = Vec::new();
        for f in c["files"].as_array().map(Vec::as_slice).unwrap_or_default() {
            let form = match text(f, "form")?.as_str() {
                "lfc1" => catalog::FileForm::Pair,
                "lfa1" => catalog::FileForm::Lfa1,
                "lfa2" => catalog::FileForm::Lfa2,
                other => return Err(bad(format!("circuits[{i}]: unknown form `{other}`"))),
            };
            let name = text(f, "name")?;
            if name != format!("{hash_hex}{}", form.suffix()) {
                return Err(bad(format!(
                    "circuits[{i}]: file `{name}` is not named for its hash and form"
                )));
            }
            let n = |k: &str| {
                f[k].as_u64()
                    .ok_or_else(|| bad(format!("{name}: `{k}` is not a number")))
            };
            files.push((
                form,
                hash32(&name, &text(f, "sha256")?)?,
                n("size")?,
                n("unpacked_size")?,
            ));
        }
        out.push(catalog::ManifestEntry {
            version: u32::try_from(num("version")?).map_err(|e| bad(e.to_string()))?,
            attributes: u32::try_from(num("attributes")?).map_err(|e| bad(e.to_string()))?,
            zkspec_hash,
            files,
        });
    }
    Ok(out)
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn field_name<F: Field>() -> &'static str {
    match F::FIELD_ID {
        1 => "p256",
        4 => "gf2_128",
        6 => "fp128",
        _ => "unknown",
    }
}

fn circuit_json<F: Field>(role: Option<&str>, c: &Circuit<F>) -> Value {
    let mut v = json!({
        "field": field_name::<F>(),
        "id": hex(c.id()),
        "layers": c.layers().len(),
        "inputs": c.num_inputs(),
        "public_inputs": c.num_public_inputs(),
        "subfield_boundary": c.subfield_boundary(),
        "outputs": c.num_outputs(),
        "terms": c.total_terms(),
        "constants": c.constants().len(),
        "memory_bytes": c.heap_bytes(),
    });
    if let (Some(role), Some(obj)) = (role, v.as_object_mut()) {
        obj.insert("role".into(), json!(role));
    }
    v
}

fn pair_json(p: &CircuitPair) -> Value {
    let s = &p.source;
    let mut v = json!({
        "kind": "pair",
        "format": s.format.name(),
        "compressed": s.compressed,
        "unpacked_size": s.unpacked_size,
        "file_sha256": hex(&s.file_sha256),
        "zkspec_hash": hex(&p.zkspec_hash),
        "catalogued_file": s.catalog_file.map(|f| f.form.name()),
        "ids_recomputed": s.ids_recomputed,
        "circuits": [circuit_json(Some("sig"), &p.sig), circuit_json(Some("hash"), &p.hash)],
    });
    if let Some(obj) = v.as_object_mut() {
        if let Some(e) = p.catalog {
            obj.insert("version".into(), json!(e.version));
            obj.insert("attributes".into(), json!(e.attributes));
        }
        if let Some(m) = &s.lfa2 {
            obj.insert(
                "lfa2".into(),
                json!({
                    "circuit_version": m.circuit_version,
                    "created_at": m.created_at,
                    "author": m.author,
                    "tool": m.tool,
                    "description": m.description,
                }),
            );
        }
    }
    v
}

fn circuit_text<F: Field>(title: &str, c: &Circuit<F>) -> String {
    format!(
        "{title}: field {}\n  id: {}\n  layers: {}  inputs: {}  public inputs: {}  subfield boundary: {}  outputs: {}\n  terms: {}  constants: {}  in memory: {} KiB\n",
        field_name::<F>(),
        hex(c.id()),
        c.layers().len(),
        c.num_inputs(),
        c.num_public_inputs(),
        c.subfield_boundary(),
        c.num_outputs(),
        c.total_terms(),
        c.constants().len(),
        c.heap_bytes() / 1024,
    )
}

fn pair_text(p: &CircuitPair) -> String {
    let s = &p.source;
    let mut out = format!(
        "format: {}{} ({} bytes unpacked)\nzkspec_hash: {}\n",
        s.format.name(),
        if s.compressed { " (zstd)" } else { "" },
        s.unpacked_size,
        hex(&p.zkspec_hash),
    );
    match p.catalog {
        Some(e) => out.push_str(&format!(
            "catalog: ZkSpec v{}, {} attribute(s){}\n",
            e.version,
            e.attributes,
            match s.catalog_file {
                Some(f) => format!("; known {} file, IDs not recomputed", f.form.name()),
                None => "; IDs recomputed".into(),
            }
        )),
        None => out.push_str("catalog: not catalogued; IDs recomputed\n"),
    }
    out.push_str(&circuit_text("signature circuit", &p.sig));
    out.push_str(&circuit_text("hash circuit", &p.hash));
    out
}

fn single<F: Field>(format: &str, c: &Circuit<F>, json: bool) -> String {
    if json {
        let mut v = circuit_json(None, c);
        if let Some(obj) = v.as_object_mut() {
            obj.insert("kind".into(), json!("circuit"));
            obj.insert("format".into(), json!(format));
        }
        v.to_string()
    } else {
        circuit_text(&format!("circuit ({format})"), c)
    }
}

fn inspect(file: &std::path::Path, json: bool, use_catalog: bool) -> Result<(), CliError> {
    let bytes =
        super::limited::read_limited(file, super::limited::MAX_CIRCUIT_FILE, "circuit file")
            .map_err(CliError)?;
    let loaded = load_any_with(&bytes, LoadOptions { use_catalog })
        .map_err(|e| CliError(format!("{}: {e}", file.display())))?;
    let lfc = if bytes.starts_with(b"LFC2") {
        "lfc2"
    } else {
        "lfc1"
    };
    let format = if bytes.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        "zstd"
    } else {
        lfc
    };
    let text = match &loaded {
        AnyCircuit::Pair(p) if json => pair_json(p).to_string(),
        AnyCircuit::Pair(p) => pair_text(p),
        AnyCircuit::P256(c) => single(format, c, json),
        AnyCircuit::Gf2_128(c) => single(format, c, json),
        AnyCircuit::Fp128(c) => single(format, c, json),
    };
    println!("{}", text.trim_end());
    Ok(())
}
