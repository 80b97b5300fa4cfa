//! LFA2 archives: a header with metadata and entry descriptors, then the
//! entries' LFC2 payloads back to back.
//!
//! Layout: `"LFA2"`, version byte 1, ULEB128 circuit version, 32-byte
//! combined ID (SHA-256 of the entry IDs in order), four ULEB128-length
//! UTF-8 strings (created at, author, tool, description), ULEB128 entry
//! count, per entry a name string, its circuit ID and its ULEB128 payload
//! length; then the payloads.

use longfellow_field::{Fp256, Gf2_128};
use sha2::{Digest, Sha256};

use crate::circuit::Circuit;
use crate::error::{hex, CircuitError};
use crate::input::Input;
use crate::lfc2::read_lfc2;
use crate::limits::{MAX_LFA2_ENTRIES, MAX_LFA2_STRING, MAX_UNPACKED};

/// LFA2 header metadata.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lfa2Meta {
    /// Circuit version number recorded by the archive's producer.
    pub circuit_version: u32,
    /// Creation timestamp string.
    pub created_at: String,
    /// Author.
    pub author: String,
    /// Generating tool.
    pub tool: String,
    /// Free-text description.
    pub description: String,
    /// Combined ID stored in the header (checked).
    pub combined_id: [u8; 32],
}

fn string(inp: &mut Input<'_>, what: &'static str) -> Result<String, CircuitError> {
    let len = inp.uleb(10, what)?;
    if len > MAX_LFA2_STRING {
        return Err(CircuitError::TooLarge {
            what,
            value: len,
            limit: MAX_LFA2_STRING,
        });
    }
    let mut buf = vec![0u8; len as usize];
    inp.fill(&mut buf, what)?;
    String::from_utf8(buf).map_err(|_| CircuitError::NotUtf8 { what })
}

struct Entry {
    name: String,
    id: [u8; 32],
    len: u64,
}

/// Reads an LFA2 archive holding exactly a `sig` (P-256) and a `hash`
/// (GF(2^128)) circuit.
pub(crate) fn read_lfa2(
    inp: &mut Input<'_>,
    verify_id: bool,
) -> Result<(Circuit<Fp256>, Circuit<Gf2_128>, Lfa2Meta), CircuitError> {
    let magic = inp.array::<4>("LFA2 magic")?;
    if &magic != b"LFA2" {
        return Err(CircuitError::BadMagic {
            first: magic.to_vec(),
        });
    }
    let version = inp.u8("LFA2 version")?;
    if version != 1 {
        return Err(CircuitError::UnsupportedVersion {
            what: "LFA2",
            version: u64::from(version),
        });
    }
    let cv = inp.uleb(10, "LFA2 circuit version")?;
    let circuit_version = u32::try_from(cv).map_err(|_| CircuitError::TooLarge {
        what: "LFA2 circuit version",
        value: cv,
        limit: u64::from(u32::MAX),
    })?;
    let combined_id = inp.array::<32>("LFA2 combined ID")?;
    let created_at = string(inp, "LFA2 created_at")?;
    let author = string(inp, "LFA2 author")?;
    let tool = string(inp, "LFA2 tool")?;
    let description = string(inp, "LFA2 description")?;
    let n = inp.uleb(10, "LFA2 entry count")?;
    if n > MAX_LFA2_ENTRIES {
        return Err(CircuitError::TooLarge {
            what: "LFA2 entry count",
            value: n,
            limit: MAX_LFA2_ENTRIES,
        });
    }
    let mut entries = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let name = string(inp, "LFA2 entry name")?;
        let id = inp.array::<32>("LFA2 entry ID")?;
        let len = inp.uleb(10, "LFA2 payload length")?;
        if len > MAX_UNPACKED {
            return Err(CircuitError::TooLarge {
                what: "LFA2 payload length",
                value: len,
                limit: MAX_UNPACKED,
            });
        }
        entries.push(Entry { name, id, len });
    }
    let count = |name: &str| entries.iter().filter(|e| e.name == name).count();
    if entries.len() != 2 || count("sig") != 1 || count("hash") != 1 {
        return Err(CircuitError::BadEntries(
            "a circuit pair needs exactly one `sig` and one `hash` entry",
        ));
    }

    let mut combined = Sha256::new();
    let (mut sig, mut hash) = (None, None);
    for e in &entries {
        combined.update(e.id);
        let start = inp.offset();
        let stored = if e.name == "sig" {
            let c = read_lfc2::<Fp256>(inp, verify_id)?;
            let id = *c.id();
            sig = Some(c);
            id
        } else {
            let c = read_lfc2::<Gf2_128>(inp, verify_id)?;
            let id = *c.id();
            hash = Some(c);
            id
        };
        let used = inp.offset() - start;
        if used != e.len {
            return Err(CircuitError::Invalid {
                what: "LFA2 payload length",
                value: e.len,
                why: "differs from the length of the LFC2 circuit it holds",
            });
        }
        if stored != e.id {
            return Err(CircuitError::IdMismatch {
                stored: hex(&e.id),
                computed: hex(&stored),
            });
        }
    }
    let computed: [u8; 32] = combined.finalize().into();
    if computed != combined_id {
        return Err(CircuitError::IdMismatch {
            stored: hex(&combined_id),
            computed: hex(&computed),
        });
    }
    match (sig, hash) {
        (Some(sig), Some(hash)) => Ok((
            sig,
            hash,
            Lfa2Meta {
                circuit_version,
                created_at,
                author,
                tool,
                description,
                combined_id,
            },
        )),
        _ => Err(CircuitError::BadEntries("missing `sig` or `hash` entry")),
    }
}
