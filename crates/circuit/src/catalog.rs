//! The catalog of known circuit files, compiled into the crate.
//!
//! Identifying a circuit from scratch means hashing every term (8.2 M for the
//! v7 one-attribute pair). A wallet that ships Google's files does not need
//! to do that at start-up: `longfellow circuit catalog DIR` identifies every
//! file once at development time and refuses any file whose contents
//! disagree with the hash in its name; what it finds is recorded in
//! `circuits/manifest.json`, from which [`render`] writes `catalog_data.rs`
//! (a test keeps the two in step). At run time a file
//! whose SHA-256 is listed is trusted to hold the listed circuits: its stored
//! IDs are checked against the ZkSpec hash but not recomputed, and it must
//! unpack to exactly the recorded size. Unknown files are fully identified
//! and capped at [`crate::limits::MAX_UNPACKED`] unpacked bytes.

use std::fmt::Write as _;
use std::path::Path;

use crate::error::hex;
use crate::load::{load_pair_with, LoadOptions, PairFormat};

/// How a catalogued file stores its pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileForm {
    /// Google's extensionless `<hash>` file: zstd frame (with content size)
    /// of the two LFC1 circuits.
    Pair,
    /// `<hash>.lfa1`: the same LFC1 pair in a zstd frame without a content size.
    Lfa1,
    /// `<hash>.lfa2`: zstd-compressed LFA2 archive of two LFC2 circuits.
    Lfa2,
}

impl FileForm {
    /// File name suffix of this form (after the hash).
    pub fn suffix(self) -> &'static str {
        match self {
            Self::Pair => "",
            Self::Lfa1 => ".lfa1",
            Self::Lfa2 => ".lfa2",
        }
    }

    /// Short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Pair => "pair",
            Self::Lfa1 => "lfa1",
            Self::Lfa2 => "lfa2",
        }
    }
}

/// One known file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatalogFile {
    /// Its form.
    pub form: FileForm,
    /// SHA-256 of the file's bytes.
    pub sha256: [u8; 32],
    /// File size in bytes.
    pub size: u64,
    /// Exact size of its unpacked contents.
    pub unpacked_size: u64,
}

/// One known ZkSpec circuit pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatalogEntry {
    /// ZkSpec version.
    pub version: u32,
    /// Number of attributes the circuit discloses.
    pub attributes: u32,
    /// ZkSpec circuit hash: SHA-256(sig ID ‖ hash ID).
    pub zkspec_hash: [u8; 32],
    /// Known files holding it (empty for specs without published files).
    pub files: &'static [CatalogFile],
}

/// A ZkSpec of Google's `longfellow-libzk-v1` system: version, attribute
/// count and circuit hash (protocol constants from the ZkSpec table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZkSpecId {
    /// ZkSpec version.
    pub version: u32,
    /// Number of attributes.
    pub attributes: u32,
    /// Hex of the circuit hash.
    pub hash_hex: &'static str,
}

/// Every ZkSpec circuit hash Google's C++ table lists.
pub const ZKSPECS: &[ZkSpecId] = &[
    ZkSpecId {
        version: 7,
        attributes: 1,
        hash_hex: "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121",
    },
    ZkSpecId {
        version: 7,
        attributes: 2,
        hash_hex: "6a5810683e62b6d7766ebd0d7ca72518a2b8325418142adcadb10d51dbbcd5ad",
    },
    ZkSpecId {
        version: 7,
        attributes: 3,
        hash_hex: "8ee4849ae1293ae6fe5f9082ce3e5e15c4f198f2998c682fa1b727237d6d252f",
    },
    ZkSpecId {
        version: 7,
        attributes: 4,
        hash_hex: "5aebdaaafe17296a3ef3ca6c80c6e7505e09291897c39700410a365fb278e460",
    },
    ZkSpecId {
        version: 6,
        attributes: 1,
        hash_hex: "137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6",
    },
    ZkSpecId {
        version: 6,
        attributes: 2,
        hash_hex: "b4bb6f01b7043f4f51d8302a30b36e3d4d2d0efc3c24557ab9212ad524a9764e",
    },
    ZkSpecId {
        version: 6,
        attributes: 3,
        hash_hex: "b2211223b954b34a1081e3fbf71b8ea2de28efc888b4be510f532d6ba76c2010",
    },
    ZkSpecId {
        version: 6,
        attributes: 4,
        hash_hex: "c70b5f44a1365c53847eb8948ad5b4fdc224251a2bc02d958c84c862823c49d6",
    },
    ZkSpecId {
        version: 5,
        attributes: 1,
        hash_hex: "f88a39e561ec0be02bb3dfe38fb609ad154e98decbbe632887d850fc612fea6f",
    },
    ZkSpecId {
        version: 5,
        attributes: 2,
        hash_hex: "f51b7248b364462854d306326abded169854697d752d3bb6d9a9446ff7605ddb",
    },
    ZkSpecId {
        version: 5,
        attributes: 3,
        hash_hex: "c27195e03e22c9ab4efe9e1dabd2c33aa8b2429cc4e86410c6f12542d3c5e0a1",
    },
    ZkSpecId {
        version: 5,
        attributes: 4,
        hash_hex: "fa5fadfb2a916d3b71144e9b412eff78f71fd6a6d4607eac10de66b195868b7a",
    },
];

/// The compiled-in catalog.
pub fn entries() -> &'static [CatalogEntry] {
    crate::catalog_data::ENTRIES
}

/// The entry for a ZkSpec circuit hash.
pub fn find_spec(zkspec_hash: &[u8; 32]) -> Option<&'static CatalogEntry> {
    entries().iter().find(|e| &e.zkspec_hash == zkspec_hash)
}

/// The entry and file record for a file's SHA-256.
pub fn find_file(sha256: &[u8; 32]) -> Option<(&'static CatalogEntry, &'static CatalogFile)> {
    entries()
        .iter()
        .find_map(|e| e.files.iter().find(|f| &f.sha256 == sha256).map(|f| (e, f)))
}

/// Why catalog generation refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CatalogGenError {
    /// Reading the directory or a file failed.
    #[error("{path}: {message}")]
    Io {
        /// The path.
        path: String,
        /// The I/O error.
        message: String,
    },
    /// A file is not a valid circuit pair.
    #[error("{path}: {source}")]
    Circuit {
        /// The path.
        path: String,
        /// Why it was rejected.
        source: crate::CircuitError,
    },
    /// A file's contents disagree with its name or form.
    #[error("{path}: {message}")]
    Mismatch {
        /// The path.
        path: String,
        /// What disagrees.
        message: String,
    },
}

/// One circuit pair as `circuits/manifest.json` records it: the input of
/// [`render`], which writes `catalog_data.rs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestEntry {
    /// ZkSpec version.
    pub version: u32,
    /// Number of attributes.
    pub attributes: u32,
    /// ZkSpec circuit hash.
    pub zkspec_hash: [u8; 32],
    /// (form, SHA-256, size, unpacked size) of each published file.
    pub files: Vec<(FileForm, [u8; 32], u64, u64)>,
}

struct Found {
    spec: ZkSpecId,
    files: Vec<(FileForm, [u8; 32], u64, u64)>,
}

fn form_of(name: &str) -> Option<(&str, FileForm)> {
    if let Some(stem) = name.strip_suffix(".lfa1") {
        Some((stem, FileForm::Lfa1))
    } else if let Some(stem) = name.strip_suffix(".lfa2") {
        Some((stem, FileForm::Lfa2))
    } else if name.len() == 64 && name.bytes().all(|b| b.is_ascii_hexdigit()) {
        Some((name, FileForm::Pair))
    } else {
        None
    }
}

/// Fully identifies every `<hash>`, `<hash>.lfa1` and `<hash>.lfa2` file in
/// `dir` (recomputing both circuit IDs, ignoring the current catalog) and
/// renders `catalog_data.rs`. Refuses if any file's pair hashes to something
/// other than its name, is not a known ZkSpec, or has an unexpected form.
/// ZkSpecs without files are listed with no files.
pub fn generate(dir: &Path) -> Result<String, CatalogGenError> {
    let io = |path: &Path, e: std::io::Error| CatalogGenError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| io(dir, e))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut found: Vec<Found> = ZKSPECS
        .iter()
        .map(|&spec| Found {
            spec,
            files: Vec::new(),
        })
        .collect();
    for name in names {
        let path = dir.join(&name);
        let Some((stem, form)) = form_of(&name) else {
            return Err(CatalogGenError::Mismatch {
                path: path.display().to_string(),
                message: "not a `<hash>`, `<hash>.lfa1` or `<hash>.lfa2` file".into(),
            });
        };
        let bytes = std::fs::read(&path).map_err(|e| io(&path, e))?;
        let pair =
            load_pair_with(&bytes, LoadOptions { use_catalog: false }).map_err(|source| {
                CatalogGenError::Circuit {
                    path: path.display().to_string(),
                    source,
                }
            })?;
        let mismatch = |message: String| CatalogGenError::Mismatch {
            path: path.display().to_string(),
            message,
        };
        let got = hex(&pair.zkspec_hash);
        if !stem.eq_ignore_ascii_case(&got) {
            return Err(mismatch(format!("holds circuit pair {got}, not {stem}")));
        }
        let want = if form == FileForm::Lfa2 {
            PairFormat::Lfa2
        } else {
            PairFormat::Lfc1Pair
        };
        if pair.source.format != want || !pair.source.compressed {
            return Err(mismatch(format!(
                "contents are {} (compressed: {}), expected zstd {}",
                pair.source.format.name(),
                pair.source.compressed,
                want.name()
            )));
        }
        let Some(slot) = found.iter_mut().find(|f| f.spec.hash_hex == got) else {
            return Err(mismatch(format!(
                "{got} is not a known ZkSpec circuit hash"
            )));
        };
        slot.files.push((
            form,
            pair.source.file_sha256,
            bytes.len() as u64,
            pair.source.unpacked_size,
        ));
    }
    let entries: Vec<ManifestEntry> = found
        .iter()
        .map(|f| {
            let mut hash = [0u8; 32];
            for (i, chunk) in f.spec.hash_hex.as_bytes().chunks(2).enumerate() {
                let digit = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
                hash[i] = digit(chunk[0]) * 16 + digit(chunk[1]);
            }
            ManifestEntry {
                version: f.spec.version,
                attributes: f.spec.attributes,
                zkspec_hash: hash,
                files: f.files.clone(),
            }
        })
        .collect();
    Ok(render(&entries))
}

fn bytes_literal(b: &[u8; 32]) -> String {
    let parts: Vec<String> = b.iter().map(|x| format!("0x{x:02x}")).collect();
    format!("[{}]", parts.join(", "))
}

/// Renders `catalog_data.rs` (before `rustfmt`) from manifest entries.
pub fn render(entries: &[ManifestEntry]) -> String {
    let mut s = String::new();
    s.push_str(
        "// @generated from circuits/manifest.json by\n\
         // `longfellow circuit catalog --manifest circuits/manifest.json > crates/circuit/src/catalog_data.rs`\n\
         // (then `cargo fmt`). Do not edit: change the manifest and regenerate.\n\n\
         use crate::catalog::{CatalogEntry, CatalogFile, FileForm};\n\n\
         pub(crate) static ENTRIES: &[CatalogEntry] = &[\n",
    );
    for f in entries {
        let _ = writeln!(
            s,
            "    // ZkSpec v{} / {} attribute(s): {}",
            f.version,
            f.attributes,
            hex(&f.zkspec_hash)
        );
        let _ = writeln!(s, "    CatalogEntry {{");
        let _ = writeln!(s, "        version: {},", f.version);
        let _ = writeln!(s, "        attributes: {},", f.attributes);
        let _ = writeln!(s, "        zkspec_hash: {},", bytes_literal(&f.zkspec_hash));
        if f.files.is_empty() {
            let _ = writeln!(s, "        files: &[],");
        } else {
            let _ = writeln!(s, "        files: &[");
            for (form, sha, size, unpacked) in &f.files {
                let _ = writeln!(s, "            CatalogFile {{");
                let _ = writeln!(s, "                form: FileForm::{form:?},");
                let _ = writeln!(s, "                sha256: {},", bytes_literal(sha));
                let _ = writeln!(s, "                size: {size},");
                let _ = writeln!(s, "                unpacked_size: {unpacked},");
                let _ = writeln!(s, "            }},");
            }
            let _ = writeln!(s, "        ],");
        }
        let _ = writeln!(s, "    }},");
    }
    s.push_str("];\n");
    s
}
