//! A test PKI: an IACA root, document signer (DS) certificates it issues,
//! and a VICAL listing IACA roots, signed by a VICAL signer.
//!
//! Real mdocs carry a DS certificate issued by their issuing authority's
//! IACA root; relying parties trust the root (from a PEM bundle or a VICAL)
//! and check the chain. These certificates have that shape (ISO 18013-5
//! Annex B: the root with basicConstraints cA and keyCertSign, the DS with
//! digitalSignature and the mdoc DS extended key usage), with chosen names,
//! keys and validity periods, so tests can make every kind of bad chain.

use minicbor::Encoder;
use rand_core::CryptoRngCore;

use crate::cert::{extension, name, oid, seq, tag, time, tlv, unsigned_integer};
use crate::date::Tdate;
use crate::error::IssuerError;
use crate::keys::IssuerKey;

/// basicConstraints (2.5.29.19).
const BASIC_CONSTRAINTS: &[u8] = &[0x55, 0x1d, 0x13];

/// What one certificate says about its subject.
#[derive(Clone, Debug)]
pub struct CertificateProfile {
    /// Subject common name (the subject is `C=UT, CN=<this>`).
    pub common_name: String,
    /// notBefore.
    pub not_before: Tdate,
    /// notAfter.
    pub not_after: Tdate,
}

fn serial(rng: &mut impl CryptoRngCore) -> Vec<u8> {
    let mut serial = [0u8; 16];
    rng.fill_bytes(&mut serial);
    serial[0] = (serial[0] & 0x3f) | 0x40;
    unsigned_integer(&serial)
}

fn spki(key: &IssuerKey) -> Vec<u8> {
    let (x, y) = key.public_xy();
    let mut point = vec![0x00, 0x04];
    point.extend_from_slice(&x);
    point.extend_from_slice(&y);
    seq(&[
        seq(&[tlv(tag::OID, oid::EC_PUBLIC_KEY), tlv(tag::OID, oid::P256)]),
        tlv(tag::BIT_STRING, &point),
    ])
}

/// Signs `tbs` with `signer` (ecdsa-with-SHA256) into a Certificate.
fn sign_certificate(tbs: Vec<u8>, signer: &IssuerKey) -> Vec<u8> {
    let algorithm = seq(&[tlv(tag::OID, oid::ECDSA_SHA256)]);
    let signature = signer.sign(&tbs);
    let value = seq(&[
        unsigned_integer(&signature[..32]),
        unsigned_integer(&signature[32..]),
    ]);
    let mut bits = vec![0x00];
    bits.extend_from_slice(&value);
    seq(&[tbs, algorithm, tlv(tag::BIT_STRING, &bits)])
}

fn tbs(
    subject_key: &IssuerKey,
    subject: &CertificateProfile,
    issuer_cn: &str,
    extensions: Vec<Vec<u8>>,
    rng: &mut impl CryptoRngCore,
) -> Vec<u8> {
    seq(&[
        tlv(tag::CONTEXT_0, &unsigned_integer(&[2])),
        serial(rng),
        seq(&[tlv(tag::OID, oid::ECDSA_SHA256)]),
        name(issuer_cn),
        seq(&[time(&subject.not_before), time(&subject.not_after)]),
        name(&subject.common_name),
        spki(subject_key),
        tlv(tag::CONTEXT_3, &seq(&extensions)),
    ])
}

/// A self-signed IACA root: basicConstraints cA (critical), keyUsage
/// keyCertSign and cRLSign (critical).
pub fn iaca_root(
    key: &IssuerKey,
    profile: &CertificateProfile,
    rng: &mut impl CryptoRngCore,
) -> Vec<u8> {
    let basic = extension(
        BASIC_CONSTRAINTS,
        seq(&[tlv(tag::BOOLEAN, &[0xff]), unsigned_integer(&[0])]),
    );
    // keyCertSign (bit 5) and cRLSign (bit 6): 0b0000_0110, 1 unused bit.
    let usage = extension(oid::KEY_USAGE, tlv(tag::BIT_STRING, &[0x01, 0x06]));
    let tbs = tbs(key, profile, &profile.common_name, vec![basic, usage], rng);
    sign_certificate(tbs, key)
}

/// A DS certificate for `ds_key`, issued by the root `issuer_cn` whose key
/// is `issuer_key`: keyUsage digitalSignature and the mdoc DS extended key
/// usage (both critical).
pub fn document_signer(
    ds_key: &IssuerKey,
    profile: &CertificateProfile,
    issuer_key: &IssuerKey,
    issuer_cn: &str,
    rng: &mut impl CryptoRngCore,
) -> Vec<u8> {
    let usage = extension(oid::KEY_USAGE, tlv(tag::BIT_STRING, &[0x07, 0x80]));
    let eku = extension(oid::EXT_KEY_USAGE, seq(&[tlv(tag::OID, oid::MDL_DS)]));
    let tbs = tbs(ds_key, profile, issuer_cn, vec![usage, eku], rng);
    sign_certificate(tbs, issuer_key)
}

/// A VICAL (ISO 18013-5 Annex C) listing `certificates`, as an untagged
/// COSE_Sign1 signed (ES256) by `signer_key` with `signer_der` in x5chain.
pub fn vical(
    signer_key: &IssuerKey,
    signer_der: &[u8],
    provider: &str,
    date: &Tdate,
    certificates: &[Vec<u8>],
) -> Result<Vec<u8>, IssuerError> {
    let mut payload = Vec::new();
    {
        let mut e = Encoder::new(&mut payload);
        e.map(4)?
            .str("version")?
            .str("1.0")?
            .str("vicalProvider")?
            .str(provider)?
            .str("date")?
            .tag(minicbor::data::Tag::new(0))?
            .str(&date.to_string())?
            .str("certificateInfos")?
            .array(certificates.len() as u64)?;
        for c in certificates {
            e.map(2)?
                .str("certificate")?
                .bytes(c)?
                .str("docType")?
                .array(1)?
                .str(crate::builder::MDL_DOC_TYPE)?;
        }
    }
    let signature = signer_key.sign(&crate::cose::sig_structure(&payload)?);
    let mut out = Vec::new();
    crate::cose::write_sign1(
        &mut Encoder::new(&mut out),
        Some(signer_der),
        Some(&payload),
        &signature,
    )?;
    Ok(out)
}
