//! Entry points: single circuits in any form, and signature/hash pairs.

use std::io::Read;

use longfellow_field::{Field, Fp128, Fp256, Gf2_128};
use sha2::{Digest, Sha256};

use crate::catalog::{self, CatalogEntry, CatalogFile};
use crate::circuit::Circuit;
use crate::error::{hex, CircuitError};
use crate::id::zkspec_hash;
use crate::input::Input;
use crate::lfa2::{read_lfa2, Lfa2Meta};
use crate::lfc1::read_lfc1;
use crate::lfc2::{read_lfc2, LFC2_MAGIC};
use crate::limits::MAX_UNPACKED;
use crate::zstd::{decode_stream, is_zstd};

/// Runs `body` over an in-memory slice and rejects unread trailing bytes.
fn with_slice<T>(
    bytes: &[u8],
    what: &'static str,
    body: impl FnOnce(&mut Input<'_>) -> Result<T, CircuitError>,
) -> Result<T, CircuitError> {
    let mut src = bytes;
    let reader: &mut dyn Read = &mut src;
    let mut inp = Input::new(reader, u64::MAX);
    let value = body(&mut inp)?;
    let extra = inp.drain()?;
    if extra > 0 {
        return Err(CircuitError::TrailingBytes { what, count: extra });
    }
    Ok(value)
}

/// Decodes one raw (uncompressed) LFC1 circuit and checks its ID.
pub fn decode_lfc1<F: Field>(bytes: &[u8]) -> Result<Circuit<F>, CircuitError> {
    with_slice(bytes, "LFC1 circuit", |inp| read_lfc1(inp, true))
}

/// Decodes one raw (uncompressed) LFC2 circuit and checks its ID.
pub fn decode_lfc2<F: Field>(bytes: &[u8]) -> Result<Circuit<F>, CircuitError> {
    with_slice(bytes, "LFC2 circuit", |inp| read_lfc2(inp, true))
}

fn read_any_circuit<F: Field>(inp: &mut Input<'_>) -> Result<Circuit<F>, CircuitError> {
    let head = inp.peek(4)?;
    if head.starts_with(&LFC2_MAGIC) {
        read_lfc2(inp, true)
    } else if head.first() == Some(&crate::lfc1::LFC1_VERSION) {
        read_lfc1(inp, true)
    } else {
        Err(CircuitError::BadMagic {
            first: head.to_vec(),
        })
    }
}

/// Loads one circuit from LFC1 or LFC2, raw or in a zstd frame (decoded as
/// a stream, at most [`MAX_UNPACKED`] bytes), and checks its ID.
pub fn load_circuit<F: Field>(bytes: &[u8]) -> Result<Circuit<F>, CircuitError> {
    if is_zstd(bytes) {
        Ok(decode_stream(bytes, MAX_UNPACKED, None, read_any_circuit)?.0)
    } else {
        with_slice(bytes, "circuit", read_any_circuit)
    }
}

/// How a pair was stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairFormat {
    /// Signature LFC1 followed by hash LFC1 (Google's extensionless files
    /// and `.lfa1` archives, both zstd-compressed).
    Lfc1Pair,
    /// An LFA2 archive holding two LFC2 circuits.
    Lfa2,
}

impl PairFormat {
    /// Short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Lfc1Pair => "lfc1-pair",
            Self::Lfa2 => "lfa2",
        }
    }
}

/// Where a pair came from and how it was checked.
#[derive(Clone, Debug)]
pub struct PairSource {
    /// Container format.
    pub format: PairFormat,
    /// Whether it was zstd-compressed.
    pub compressed: bool,
    /// Size of the (unpacked) container in bytes.
    pub unpacked_size: u64,
    /// SHA-256 of the file as given.
    pub file_sha256: [u8; 32],
    /// The catalog record of this exact file, if it is one.
    pub catalog_file: Option<&'static CatalogFile>,
    /// Whether the circuit IDs were recomputed from the circuits (false when
    /// the file's SHA-256 was found in the catalog).
    pub ids_recomputed: bool,
    /// LFA2 header metadata.
    pub lfa2: Option<Lfa2Meta>,
}

/// The signature circuit (over the P-256 base field) and hash circuit (over
/// GF(2^128)) of an mdoc ZkSpec.
#[derive(Debug)]
pub struct CircuitPair {
    /// Signature circuit.
    pub sig: Circuit<Fp256>,
    /// Hash circuit.
    pub hash: Circuit<Gf2_128>,
    /// SHA-256(sig ID ‖ hash ID): the ZkSpec circuit hash.
    pub zkspec_hash: [u8; 32],
    /// The catalog entry for this ZkSpec hash, if known.
    pub catalog: Option<&'static CatalogEntry>,
    /// Container and verification details.
    pub source: PairSource,
}

/// Options of [`load_pair_with`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    /// Recognise files by their SHA-256 in the catalog and skip recomputing
    /// their circuit IDs (default). When false every ID is recomputed.
    pub use_catalog: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self { use_catalog: true }
    }
}

/// Loads a circuit pair (extensionless LFC1 pair, `.lfa1`, `.lfa2`; zstd or
/// raw; sniffed by magic) using the catalog.
pub fn load_pair(bytes: &[u8]) -> Result<CircuitPair, CircuitError> {
    load_pair_with(bytes, LoadOptions::default())
}

type PairBody = (
    Circuit<Fp256>,
    Circuit<Gf2_128>,
    PairFormat,
    Option<Lfa2Meta>,
);

fn read_pair_body(inp: &mut Input<'_>, verify: bool) -> Result<PairBody, CircuitError> {
    let head = inp.peek(4)?;
    if head.starts_with(b"LFA2") {
        let (sig, hash, meta) = read_lfa2(inp, verify)?;
        Ok((sig, hash, PairFormat::Lfa2, Some(meta)))
    } else if head.first() == Some(&crate::lfc1::LFC1_VERSION) {
        let sig = read_lfc1::<Fp256>(inp, verify)?;
        let hash = read_lfc1::<Gf2_128>(inp, verify)?;
        Ok((sig, hash, PairFormat::Lfc1Pair, None))
    } else if head.starts_with(&LFC2_MAGIC) {
        Err(CircuitError::SingleCircuit { format: "LFC2" })
    } else {
        Err(CircuitError::BadMagic {
            first: head.to_vec(),
        })
    }
}

/// Loads a circuit pair; see [`LoadOptions`].
///
/// A file whose SHA-256 is in the catalog must unpack to exactly the
/// recorded size (checked against the zstd header before decoding) and
/// its stored IDs must give the catalogued ZkSpec hash; its IDs are not
/// recomputed. Any other file is fully identified: both circuit IDs are
/// recomputed and compared with the stored ones, and its unpacked size is
/// capped at [`MAX_UNPACKED`].
pub fn load_pair_with(bytes: &[u8], opts: LoadOptions) -> Result<CircuitPair, CircuitError> {
    let file_sha256: [u8; 32] = Sha256::digest(bytes).into();
    let hit = if opts.use_catalog {
        catalog::find_file(&file_sha256)
    } else {
        None
    };
    let verify = hit.is_none();
    let exact = hit.map(|(_, f)| f.unpacked_size);
    let compressed = is_zstd(bytes);
    let ((sig, hash, format, lfa2), unpacked_size) = if compressed {
        decode_stream(bytes, MAX_UNPACKED, exact, |inp| {
            read_pair_body(inp, verify)
        })?
    } else {
        if let Some(expected) = exact {
            if bytes.len() as u64 != expected {
                return Err(CircuitError::UnpackedSizeMismatch {
                    expected,
                    found: bytes.len() as u64,
                });
            }
        }
        let body = with_slice(bytes, "circuit pair", |inp| read_pair_body(inp, verify))?;
        (body, bytes.len() as u64)
    };
    finish_pair(
        sig,
        hash,
        hit,
        PairSource {
            format,
            compressed,
            unpacked_size,
            file_sha256,
            catalog_file: hit.map(|(_, f)| f),
            ids_recomputed: verify,
            lfa2,
        },
    )
}

fn finish_pair(
    sig: Circuit<Fp256>,
    hash: Circuit<Gf2_128>,
    hit: Option<(&'static CatalogEntry, &'static CatalogFile)>,
    source: PairSource,
) -> Result<CircuitPair, CircuitError> {
    let zkspec = zkspec_hash(sig.id(), hash.id());
    let catalog = match hit {
        Some((entry, _)) => {
            if entry.zkspec_hash != zkspec {
                return Err(CircuitError::IdMismatch {
                    stored: hex(&entry.zkspec_hash),
                    computed: hex(&zkspec),
                });
            }
            Some(entry)
        }
        None => catalog::find_spec(&zkspec),
    };
    Ok(CircuitPair {
        sig,
        hash,
        zkspec_hash: zkspec,
        catalog,
        source,
    })
}

/// Any circuit file, as found by [`load_any`].
#[derive(Debug)]
pub enum AnyCircuit {
    /// A signature/hash pair.
    Pair(Box<CircuitPair>),
    /// A single circuit over the P-256 base field.
    P256(Circuit<Fp256>),
    /// A single circuit over GF(2^128).
    Gf2_128(Circuit<Gf2_128>),
    /// A single circuit over Fp128 (test circuits).
    Fp128(Circuit<Fp128>),
}

enum Body {
    Pair(Box<PairBody>),
    P256(Circuit<Fp256>),
    Gf2_128(Circuit<Gf2_128>),
    Fp128(Circuit<Fp128>),
}

fn read_any_body(inp: &mut Input<'_>) -> Result<Body, CircuitError> {
    let head = inp.peek(5)?.to_vec();
    if head.starts_with(b"LFA2") {
        return Ok(Body::Pair(Box::new(read_pair_body(inp, true)?)));
    }
    let field_id = if head.starts_with(&LFC2_MAGIC) {
        head.get(4).copied().map(u32::from)
    } else if head.first() == Some(&crate::lfc1::LFC1_VERSION) && head.len() >= 4 {
        Some(u32::from(head[1]) | (u32::from(head[2]) << 8) | (u32::from(head[3]) << 16))
    } else {
        return Err(CircuitError::BadMagic { first: head });
    };
    match field_id {
        Some(id) if id == Fp256::FIELD_ID => {
            let sig = read_any_circuit::<Fp256>(inp)?;
            if inp.peek(1)?.is_empty() {
                Ok(Body::P256(sig))
            } else if head.starts_with(&LFC2_MAGIC) {
                Err(CircuitError::TrailingBytes {
                    what: "LFC2 circuit",
                    count: inp.drain()?,
                })
            } else {
                let hash = read_lfc1::<Gf2_128>(inp, true)?;
                Ok(Body::Pair(Box::new((
                    sig,
                    hash,
                    PairFormat::Lfc1Pair,
                    None,
                ))))
            }
        }
        Some(id) if id == Gf2_128::FIELD_ID => Ok(Body::Gf2_128(read_any_circuit(inp)?)),
        Some(id) if id == Fp128::FIELD_ID => Ok(Body::Fp128(read_any_circuit(inp)?)),
        other => Err(CircuitError::Invalid {
            what: "field ID",
            value: u64::from(other.unwrap_or(0)),
            why: "not a supported field",
        }),
    }
}

/// Loads any circuit file: a pair in any form (through [`load_pair`] when the
/// file is catalogued) or a single LFC1/LFC2 circuit over any supported
/// field, raw or zstd-compressed. IDs of uncatalogued files are recomputed.
pub fn load_any(bytes: &[u8]) -> Result<AnyCircuit, CircuitError> {
    load_any_with(bytes, LoadOptions::default())
}

/// [`load_any`] with options (`use_catalog: false` recomputes every ID).
pub fn load_any_with(bytes: &[u8], opts: LoadOptions) -> Result<AnyCircuit, CircuitError> {
    let file_sha256: [u8; 32] = Sha256::digest(bytes).into();
    if opts.use_catalog && catalog::find_file(&file_sha256).is_some() {
        return Ok(AnyCircuit::Pair(Box::new(load_pair(bytes)?)));
    }
    let compressed = is_zstd(bytes);
    let (body, unpacked_size) = if compressed {
        decode_stream(bytes, MAX_UNPACKED, None, read_any_body)?
    } else {
        (
            with_slice(bytes, "circuit", read_any_body)?,
            bytes.len() as u64,
        )
    };
    Ok(match body {
        Body::Pair(parts) => {
            let (sig, hash, format, lfa2) = *parts;
            AnyCircuit::Pair(Box::new(finish_pair(
                sig,
                hash,
                None,
                PairSource {
                    format,
                    compressed,
                    unpacked_size,
                    file_sha256,
                    catalog_file: None,
                    ids_recomputed: true,
                    lfa2,
                },
            )?))
        }
        Body::P256(c) => AnyCircuit::P256(c),
        Body::Gf2_128(c) => AnyCircuit::Gf2_128(c),
        Body::Fp128(c) => AnyCircuit::Fp128(c),
    })
}
