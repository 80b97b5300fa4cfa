//! VICAL (ISO 18013-5 Annex C): a signed list of IACA certificates, as
//! AAMVA publishes it. Unlike Google's service, which takes every
//! certificate-looking byte string out of the file, the list is used only
//! after its COSE_Sign1 signature verifies under a configured VICAL signer.

use minicbor::data::Type;
use minicbor::{Decoder, Encoder};

use crate::certificate::ParsedCertificate;
use crate::error::TrustError;
use crate::signature::DigestAlg;
use crate::store::build_path;

/// Largest VICAL accepted.
pub const MAX_VICAL_BYTES: usize = 16 << 20;
/// Most certificate entries accepted.
pub const MAX_VICAL_ENTRIES: usize = 10_000;

/// COSE header labels and algorithms (RFC 9052/9053/9360).
const LABEL_ALG: i64 = 1;
const LABEL_X5CHAIN: i64 = 33;
const ES256: i64 = -7;
const ES384: i64 = -35;
const ES512: i64 = -36;
const TAG_COSE_SIGN1: u64 = 18;

/// One IACA certificate listed by a VICAL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VicalEntry {
    /// DER certificate.
    pub certificate: Vec<u8>,
    /// The docTypes it may issue (empty when not stated).
    pub doc_types: Vec<String>,
}

/// A VICAL whose signature has been verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vical {
    /// `vicalProvider`.
    pub provider: String,
    /// `date`, as sent.
    pub date: Option<String>,
    /// `vicalIssueID`.
    pub issue_id: Option<u64>,
    /// `nextUpdate`, as sent.
    pub next_update: Option<String>,
    /// The certificates.
    pub entries: Vec<VicalEntry>,
    /// Subject of the certificate whose key signed the VICAL.
    pub signer: String,
}

fn bad(m: impl std::fmt::Display) -> TrustError {
    TrustError::MalformedVical(m.to_string())
}

fn sig_err(m: impl std::fmt::Display) -> TrustError {
    TrustError::VicalSignature(m.to_string())
}

/// Parsed COSE_Sign1 pieces.
struct Sign1<'b> {
    protected: &'b [u8],
    payload: &'b [u8],
    signature: &'b [u8],
    alg: i64,
    x5chain: Vec<&'b [u8]>,
}

fn header_int(d: &mut Decoder<'_>) -> Result<Option<i64>, TrustError> {
    match d.datatype().map_err(bad)? {
        Type::U8
        | Type::U16
        | Type::U32
        | Type::U64
        | Type::I8
        | Type::I16
        | Type::I32
        | Type::I64 => Ok(Some(d.i64().map_err(bad)?)),
        _ => {
            d.skip().map_err(bad)?;
            Ok(None)
        }
    }
}

/// Reads a COSE header map; returns alg and x5chain when present.
fn header_map<'b>(
    d: &mut Decoder<'b>,
    alg: &mut Option<i64>,
    x5chain: &mut Vec<&'b [u8]>,
) -> Result<(), TrustError> {
    let n = d
        .map()
        .map_err(bad)?
        .ok_or_else(|| bad("indefinite header map"))?;
    if n > 64 {
        return Err(bad("header map too large"));
    }
    for _ in 0..n {
        let label = header_int(d)?;
        match label {
            Some(LABEL_ALG) => *alg = header_int(d)?,
            Some(LABEL_X5CHAIN) => match d.datatype().map_err(bad)? {
                Type::Bytes => x5chain.push(d.bytes().map_err(bad)?),
                Type::Array => {
                    let m = d.array().map_err(bad)?.unwrap_or(0);
                    if m > 16 {
                        return Err(bad("x5chain too long"));
                    }
                    for _ in 0..m {
                        x5chain.push(d.bytes().map_err(bad)?);
                    }
                }
                _ => return Err(bad("x5chain is neither bstr nor array")),
            },
            _ => d.skip().map_err(bad)?,
        }
    }
    Ok(())
}

fn parse_sign1(bytes: &[u8]) -> Result<Sign1<'_>, TrustError> {
    if bytes.len() > MAX_VICAL_BYTES {
        return Err(bad(format!(
            "{} bytes, more than {MAX_VICAL_BYTES}",
            bytes.len()
        )));
    }
    let mut d = Decoder::new(bytes);
    if d.datatype().map_err(bad)? == Type::Tag {
        let tag = d.tag().map_err(bad)?.as_u64();
        if tag != TAG_COSE_SIGN1 {
            return Err(bad(format!("tag {tag}, expected 18 (COSE_Sign1)")));
        }
    }
    if d.array().map_err(bad)? != Some(4) {
        return Err(bad("not a four-element COSE_Sign1 array"));
    }
    let protected = d.bytes().map_err(bad)?;
    let mut alg = None;
    let mut x5chain = Vec::new();
    if !protected.is_empty() {
        let mut p = Decoder::new(protected);
        header_map(&mut p, &mut alg, &mut x5chain)?;
    }
    let protected_alg = alg;
    header_map(&mut d, &mut alg, &mut x5chain)?;
    if d.datatype().map_err(bad)? != Type::Bytes {
        return Err(bad("detached or non-bstr payload"));
    }
    let payload = d.bytes().map_err(bad)?;
    let signature = d.bytes().map_err(bad)?;
    if d.position() != bytes.len() {
        return Err(bad("bytes after the COSE_Sign1"));
    }
    // The algorithm must be integrity-protected.
    let alg = protected_alg.ok_or_else(|| sig_err("no algorithm in the protected header"))?;
    Ok(Sign1 {
        protected,
        payload,
        signature,
        alg,
        x5chain,
    })
}

fn sig_structure(protected: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut e = Encoder::new(Vec::new());
    // Writing into a Vec cannot fail.
    let _ = e
        .array(4)
        .and_then(|e| e.str("Signature1"))
        .and_then(|e| e.bytes(protected))
        .and_then(|e| e.bytes(&[]))
        .and_then(|e| e.bytes(payload));
    e.into_writer()
}

impl Vical {
    /// Verifies a VICAL's COSE_Sign1 at time `at` (Unix seconds) and
    /// returns its content. The signing certificate (x5chain[0]) must be a
    /// configured signer, or chain to one through the rest of x5chain;
    /// without x5chain a configured signer's key must verify directly.
    pub fn verify(bytes: &[u8], signers_der: &[Vec<u8>], at: i64) -> Result<Self, TrustError> {
        if signers_der.is_empty() {
            return Err(sig_err("no VICAL signer configured"));
        }
        let signers = signers_der
            .iter()
            .enumerate()
            .map(|(i, d)| ParsedCertificate::parse(d, &format!("VICAL signer {}", i + 1)))
            .collect::<Result<Vec<_>, _>>()?;
        let cose = parse_sign1(bytes)?;
        let digest = match cose.alg {
            ES256 => DigestAlg::Sha256,
            ES384 => DigestAlg::Sha384,
            ES512 => DigestAlg::Sha512,
            other => {
                return Err(TrustError::UnsupportedAlgorithm(format!(
                    "COSE alg {other}"
                )))
            }
        };
        let tbs = sig_structure(cose.protected, cose.payload);
        let signer = if let Some((leaf_der, rest)) = cose.x5chain.split_first() {
            let leaf = ParsedCertificate::parse(leaf_der, "VICAL signing certificate")?;
            let intermediates = rest
                .iter()
                .map(|d| ParsedCertificate::parse(d, "VICAL x5chain certificate"))
                .collect::<Result<Vec<_>, _>>()?;
            let anchors: Vec<&ParsedCertificate> = signers.iter().collect();
            leaf.check_time(at)?;
            build_path(&leaf, &intermediates, &anchors, at).map_err(|e| {
                sig_err(format!(
                    "signing certificate `{}` is not from a configured VICAL signer: {e}",
                    leaf.subject
                ))
            })?;
            if !leaf.public_key()?.verify_raw(digest, &tbs, cose.signature) {
                return Err(sig_err(format!(
                    "signature by `{}` does not verify",
                    leaf.subject
                )));
            }
            leaf.subject
        } else {
            let mut found = None;
            for s in &signers {
                if s.public_key()?.verify_raw(digest, &tbs, cose.signature) {
                    s.check_time(at)?;
                    found = Some(s.subject.clone());
                    break;
                }
            }
            found.ok_or_else(|| sig_err("no configured VICAL signer's key verifies it"))?
        };
        let mut vical = parse_payload(cose.payload)?;
        vical.signer = signer;
        Ok(vical)
    }
}

fn text(d: &mut Decoder<'_>) -> Result<String, TrustError> {
    match d.datatype().map_err(bad)? {
        Type::Tag => {
            d.tag().map_err(bad)?;
            text(d)
        }
        Type::String => Ok(d.str().map_err(bad)?.to_owned()),
        t => Err(bad(format!("expected text, found {t}"))),
    }
}

fn parse_payload(payload: &[u8]) -> Result<Vical, TrustError> {
    let mut d = Decoder::new(payload);
    let n = d
        .map()
        .map_err(bad)?
        .ok_or_else(|| bad("indefinite VICAL map"))?;
    if n > 64 {
        return Err(bad("VICAL map too large"));
    }
    let mut vical = Vical {
        provider: String::new(),
        date: None,
        issue_id: None,
        next_update: None,
        entries: Vec::new(),
        signer: String::new(),
    };
    let mut saw_infos = false;
    for _ in 0..n {
        let key = d.str().map_err(bad)?;
        match key {
            "vicalProvider" => vical.provider = text(&mut d)?,
            "date" => vical.date = Some(text(&mut d)?),
            "nextUpdate" => vical.next_update = Some(text(&mut d)?),
            "vicalIssueID" => vical.issue_id = Some(d.u64().map_err(bad)?),
            "certificateInfos" => {
                saw_infos = true;
                let m = d
                    .array()
                    .map_err(bad)?
                    .ok_or_else(|| bad("indefinite certificateInfos"))?;
                if m > MAX_VICAL_ENTRIES as u64 {
                    return Err(bad(format!("{m} entries, more than {MAX_VICAL_ENTRIES}")));
                }
                for _ in 0..m {
                    vical.entries.push(parse_entry(&mut d)?);
                }
            }
            _ => d.skip().map_err(bad)?,
        }
    }
    if !saw_infos {
        return Err(bad("no certificateInfos"));
    }
    if d.position() != payload.len() {
        return Err(bad("bytes after the VICAL map"));
    }
    Ok(vical)
}

fn parse_entry(d: &mut Decoder<'_>) -> Result<VicalEntry, TrustError> {
    let n = d
        .map()
        .map_err(bad)?
        .ok_or_else(|| bad("indefinite CertificateInfo"))?;
    if n > 64 {
        return Err(bad("CertificateInfo too large"));
    }
    let mut certificate = None;
    let mut doc_types = Vec::new();
    for _ in 0..n {
        let key = d.str().map_err(bad)?;
        match key {
            "certificate" => certificate = Some(d.bytes().map_err(bad)?.to_vec()),
            "docType" => {
                let m = d.array().map_err(bad)?.unwrap_or(0);
                if m > 64 {
                    return Err(bad("too many docTypes"));
                }
                for _ in 0..m {
                    doc_types.push(text(d)?);
                }
            }
            _ => d.skip().map_err(bad)?,
        }
    }
    Ok(VicalEntry {
        certificate: certificate.ok_or_else(|| bad("CertificateInfo without certificate"))?,
        doc_types,
    })
}
