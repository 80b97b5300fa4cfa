//! A self-signed X.509 certificate for the issuer key, for issuerAuth's
//! x5chain header.
//!
//! Every real credential in the test vectors carries its document signer
//! certificate there, and verifier code that is not the circuit (the
//! reference verifier service, wallets' own checks) expects one. This is the
//! smallest certificate of that role: self-signed (no IACA root), subject
//! `C=UT, CN=…`, key usage digitalSignature and the mdoc document-signer
//! extended key usage (ISO 18013-5 Annex B), ECDSA with SHA-256.

use rand_core::CryptoRngCore;

use crate::date::Tdate;
use crate::keys::IssuerKey;

/// DER tags used here.
pub(crate) mod tag {
    pub const BOOLEAN: u8 = 0x01;
    pub const INTEGER: u8 = 0x02;
    pub const BIT_STRING: u8 = 0x03;
    pub const OCTET_STRING: u8 = 0x04;
    pub const OID: u8 = 0x06;
    pub const UTF8_STRING: u8 = 0x0c;
    pub const PRINTABLE_STRING: u8 = 0x13;
    pub const UTC_TIME: u8 = 0x17;
    pub const GENERALIZED_TIME: u8 = 0x18;
    pub const SEQUENCE: u8 = 0x30;
    pub const SET: u8 = 0x31;
    /// `[0] EXPLICIT` (version) and `[3] EXPLICIT` (extensions).
    pub const CONTEXT_0: u8 = 0xa0;
    pub const CONTEXT_3: u8 = 0xa3;
}

/// Object identifiers, DER content bytes.
pub(crate) mod oid {
    /// ecdsa-with-SHA256 (1.2.840.10045.4.3.2).
    pub const ECDSA_SHA256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02];
    /// id-ecPublicKey (1.2.840.10045.2.1).
    pub const EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
    /// prime256v1 (1.2.840.10045.3.1.7).
    pub const P256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
    /// countryName (2.5.4.6) and commonName (2.5.4.3).
    pub const COUNTRY: &[u8] = &[0x55, 0x04, 0x06];
    pub const COMMON_NAME: &[u8] = &[0x55, 0x04, 0x03];
    /// keyUsage (2.5.29.15) and extKeyUsage (2.5.29.37).
    pub const KEY_USAGE: &[u8] = &[0x55, 0x1d, 0x0f];
    pub const EXT_KEY_USAGE: &[u8] = &[0x55, 0x1d, 0x25];
    /// id-mdl-kp-mdlDS, the mdoc document signer key purpose (1.0.18013.5.1.2).
    pub const MDL_DS: &[u8] = &[0x28, 0x81, 0x8c, 0x5d, 0x05, 0x01, 0x02];
}

/// One DER TLV.
pub(crate) fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let len = content.len();
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes = len.to_be_bytes();
        let skip = bytes.iter().take_while(|b| **b == 0).count();
        out.push(0x80 | (bytes.len() - skip) as u8);
        out.extend_from_slice(&bytes[skip..]);
    }
    out.extend_from_slice(content);
    out
}

pub(crate) fn seq(parts: &[Vec<u8>]) -> Vec<u8> {
    tlv(tag::SEQUENCE, &parts.concat())
}

/// A non-negative INTEGER from big-endian magnitude bytes, minimally encoded.
pub(crate) fn unsigned_integer(be: &[u8]) -> Vec<u8> {
    let skip = be.iter().take_while(|b| **b == 0).count();
    let mut content = Vec::with_capacity(be.len() + 1);
    match be.get(skip) {
        None => content.push(0),
        Some(b) => {
            if b & 0x80 != 0 {
                content.push(0);
            }
            content.extend_from_slice(&be[skip..]);
        }
    }
    tlv(tag::INTEGER, &content)
}

/// RFC 5280 §4.1.2.5: UTCTime for 1950–2049, GeneralizedTime otherwise.
pub(crate) fn time(t: &Tdate) -> Vec<u8> {
    let digits: Vec<u8> = t
        .to_string()
        .bytes()
        .filter(|c| c.is_ascii_digit())
        .chain([b'Z'])
        .collect();
    let year = t.to_string().get(..4).and_then(|y| y.parse::<u32>().ok());
    match year {
        Some(1950..=2049) => tlv(tag::UTC_TIME, &digits[2..]),
        _ => tlv(tag::GENERALIZED_TIME, &digits),
    }
}

pub(crate) fn name(common_name: &str) -> Vec<u8> {
    let rdn = |oid_bytes: &[u8], string_tag: u8, value: &str| {
        tlv(
            tag::SET,
            &seq(&[tlv(tag::OID, oid_bytes), tlv(string_tag, value.as_bytes())]),
        )
    };
    seq(&[
        rdn(oid::COUNTRY, tag::PRINTABLE_STRING, "UT"),
        rdn(oid::COMMON_NAME, tag::UTF8_STRING, common_name),
    ])
}

pub(crate) fn extension(oid_bytes: &[u8], value: Vec<u8>) -> Vec<u8> {
    seq(&[
        tlv(tag::OID, oid_bytes),
        tlv(tag::BOOLEAN, &[0xff]), // critical
        tlv(tag::OCTET_STRING, &value),
    ])
}

/// A DER certificate for `issuer`'s key, self-signed, valid from
/// `not_before` to `not_after`, with a random 16-byte serial number.
pub fn self_signed(
    issuer: &IssuerKey,
    common_name: &str,
    not_before: &Tdate,
    not_after: &Tdate,
    rng: &mut impl CryptoRngCore,
) -> Vec<u8> {
    let mut serial = [0u8; 16];
    rng.fill_bytes(&mut serial);
    // Positive and without a leading zero octet: 0x40..=0x7f.
    serial[0] = (serial[0] & 0x3f) | 0x40;

    let algorithm = seq(&[tlv(tag::OID, oid::ECDSA_SHA256)]);
    let (x, y) = issuer.public_xy();
    let mut point = vec![0x00, 0x04]; // no unused bits; uncompressed point
    point.extend_from_slice(&x);
    point.extend_from_slice(&y);
    let spki = seq(&[
        seq(&[tlv(tag::OID, oid::EC_PUBLIC_KEY), tlv(tag::OID, oid::P256)]),
        tlv(tag::BIT_STRING, &point),
    ]);
    // keyUsage: BIT STRING with bit 0 (digitalSignature) set, 7 unused bits.
    let key_usage = extension(oid::KEY_USAGE, tlv(tag::BIT_STRING, &[0x07, 0x80]));
    let ext_key_usage = extension(oid::EXT_KEY_USAGE, seq(&[tlv(tag::OID, oid::MDL_DS)]));

    let tbs = seq(&[
        tlv(tag::CONTEXT_0, &unsigned_integer(&[2])), // v3
        unsigned_integer(&serial),
        algorithm.clone(),
        name(common_name),
        seq(&[time(not_before), time(not_after)]),
        name(common_name),
        spki,
        tlv(tag::CONTEXT_3, &seq(&[key_usage, ext_key_usage])),
    ]);
    let signature = issuer.sign(&tbs);
    let ecdsa_sig_value = seq(&[
        unsigned_integer(&signature[..32]),
        unsigned_integer(&signature[32..]),
    ]);
    let mut bits = vec![0x00];
    bits.extend_from_slice(&ecdsa_sig_value);
    seq(&[tbs, algorithm, tlv(tag::BIT_STRING, &bits)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn der_primitives() {
        // X.690 examples: lengths, minimal integers.
        assert_eq!(tlv(0x04, &[0; 3]), [0x04, 0x03, 0, 0, 0]);
        assert_eq!(tlv(0x04, &[0; 0x80])[..3], [0x04, 0x81, 0x80]);
        assert_eq!(tlv(0x04, &[0; 0x1234])[..4], [0x04, 0x82, 0x12, 0x34]);
        assert_eq!(unsigned_integer(&[0, 0, 0x7f]), [0x02, 0x01, 0x7f]);
        assert_eq!(unsigned_integer(&[0x80]), [0x02, 0x02, 0x00, 0x80]);
        assert_eq!(unsigned_integer(&[0, 0]), [0x02, 0x01, 0x00]);
        let t = Tdate::parse("2026-01-15T09:00:00Z").expect("date");
        assert_eq!(time(&t), tlv(0x17, b"260115090000Z"));
        let t = Tdate::parse("2050-01-01T00:00:00Z").expect("date");
        assert_eq!(time(&t), tlv(0x18, b"20500101000000Z"));
    }
}
