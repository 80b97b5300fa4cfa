//! Public inputs of the mdoc circuits, computed from the request alone.
//!
//! A relying party recomputes these to verify a proof, so this module depends
//! on nothing that parses an mdoc (only SHA-256 and byte arithmetic). The
//! prover (`longfellow-mdoc-witness`) uses the same functions, so both sides
//! encode a request identically by construction.

use sha2::{Digest, Sha256};

/// One disclosed attribute as the relying party requests it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestedAttribute {
    /// Namespace, e.g. `org.iso.18013.5.1` (at most 64 bytes).
    pub namespace: String,
    /// elementIdentifier (at most 32 bytes).
    pub id: String,
    /// The expected elementValue, CBOR-encoded (at most 64 bytes).
    pub value_cbor: Vec<u8>,
}

/// Why a request cannot be encoded as public inputs.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PublicInputError {
    #[error("expected {expected} attributes, got {got}")]
    AttributeCount { expected: usize, got: usize },
    #[error("attribute `{0}`: namespace, identifier or value exceeds 64/32/64 bytes")]
    AttributeTooLarge(String),
    #[error("attribute `{0}`: encoded identifier and value exceed the 96 bytes of a version 5/6 circuit")]
    AttributeTooLongForV6(String),
    #[error("attribute `{0}`: identifiers of 24 bytes or more cannot be proven with a version 7 circuit (its length check assumes a one-byte CBOR text header)")]
    IdentifierTooLongForV7(String),
    #[error("all attributes must share one namespace")]
    MixedNamespaces,
}

/// Longest elementIdentifier a version 7 circuit can prove.
///
/// The v7 hash circuit compares the item's identifier key–value length with
/// the public byte `19 + len(id)`, which counts a one-byte CBOR text header.
/// From 24 bytes on the header takes two bytes, so the witness and the public
/// input disagree and the proof would fail deep inside the prover (Google's
/// provers do exactly that). Refusing up front gives the caller the reason.
pub const MAX_V7_ID_BYTES: usize = 23;

/// Limits shared with the reference implementation.
pub const MAX_NAMESPACE_BYTES: usize = 64;
pub const MAX_ID_BYTES: usize = 32;
pub const MAX_VALUE_BYTES: usize = 64;

/// Checks sizes and the single-namespace rule of the reference provers.
pub fn validate_attributes(
    attributes: &[RequestedAttribute],
    expected: usize,
) -> Result<(), PublicInputError> {
    if attributes.len() != expected {
        return Err(PublicInputError::AttributeCount {
            expected,
            got: attributes.len(),
        });
    }
    for a in attributes {
        if a.namespace.len() > MAX_NAMESPACE_BYTES
            || a.id.len() > MAX_ID_BYTES
            || a.value_cbor.len() > MAX_VALUE_BYTES
        {
            return Err(PublicInputError::AttributeTooLarge(a.id.clone()));
        }
    }
    if attributes
        .windows(2)
        .any(|w| w[0].namespace != w[1].namespace)
    {
        return Err(PublicInputError::MixedNamespaces);
    }
    Ok(())
}

/// The fixed COSE Sig_structure prefix `["Signature1", h'A10126', h''` that
/// both signatures are over (array head, context string, ES256-only
/// protected header, empty external AAD).
pub const SIG_STRUCTURE_PREFIX: [u8; 17] = [
    0x84, 0x6a, b'S', b'i', b'g', b'n', b'a', b't', b'u', b'r', b'e', b'1', 0x43, 0xa1, 0x01, 0x26,
    0x40,
];

/// Writes a CBOR head (RFC 8949 §3) in its shortest form, up to the 8-byte
/// argument, so every `usize` length is encoded exactly.
fn push_head(out: &mut Vec<u8>, major: u8, len: usize) {
    let m = major << 5;
    let len = len as u64;
    if len < 24 {
        out.push(m | len as u8);
    } else if len < 0x100 {
        out.extend_from_slice(&[m | 24, len as u8]);
    } else if len < 0x1_0000 {
        out.push(m | 25);
        out.extend_from_slice(&(len as u16).to_be_bytes());
    } else if len < 0x1_0000_0000 {
        out.push(m | 26);
        out.extend_from_slice(&(len as u32).to_be_bytes());
    } else {
        out.push(m | 27);
        out.extend_from_slice(&len.to_be_bytes());
    }
}

fn push_text(out: &mut Vec<u8>, s: &[u8]) {
    push_head(out, 3, s.len());
    out.extend_from_slice(s);
}

/// SHA-256 of the Sig_structure over DeviceAuthenticationBytes
/// (`["DeviceAuthentication", SessionTranscript, docType, DeviceNameSpacesBytes]`
/// with empty device namespaces), as the device key signs it. Big-endian, the
/// ECDSA message hash of the device signature.
pub fn device_authentication_hash(session_transcript: &[u8], doc_type: &str) -> [u8; 32] {
    let mut da = Vec::with_capacity(session_transcript.len() + doc_type.len() + 32);
    push_head(&mut da, 4, 4);
    push_text(&mut da, b"DeviceAuthentication");
    da.extend_from_slice(session_transcript);
    push_text(&mut da, doc_type.as_bytes());
    // DeviceNameSpacesBytes: tag 24 over the encoding of an empty map.
    da.extend_from_slice(&[0xd8, 0x18, 0x41, 0xa0]);

    let mut tagged = vec![0xd8, 0x18];
    push_head(&mut tagged, 2, da.len());
    tagged.extend_from_slice(&da);

    let mut sig_structure = SIG_STRUCTURE_PREFIX.to_vec();
    push_head(&mut sig_structure, 2, tagged.len());
    sig_structure.extend_from_slice(&tagged);
    Sha256::digest(&sig_structure).into()
}

/// The P-256 base-field modulus, big-endian.
const P256_P: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
];

/// A 256-bit big-endian integer as a little-endian Fp256 wire value,
/// reduced mod p (one subtraction suffices below 2^256).
pub fn fp256_le_from_be(be: &[u8; 32]) -> [u8; 32] {
    let mut v = *be;
    if v >= P256_P {
        let mut borrow = 0i16;
        for i in (0..32).rev() {
            let d = i16::from(v[i]) - i16::from(P256_P[i]) - borrow;
            borrow = i16::from(d < 0);
            v[i] = (d + 256 * borrow) as u8;
        }
    }
    v.reverse();
    v
}

fn fp_small(n: u8) -> [u8; 32] {
    let mut out = [0u8; 32];
    out[0] = n;
    out
}

/// Public inputs of the signature circuit (Fp256, 32-byte little-endian each):
/// 1, issuer key x and y, the device-authentication hash, the six MAC tags and
/// then a_v, each as 128 bits (bit j = coefficient of x^j).
pub fn sig_public_inputs(
    issuer_pk: (&[u8; 32], &[u8; 32]),
    device_auth_hash: &[u8; 32],
    macs: &[u128; 6],
    verifier_key: u128,
) -> Vec<[u8; 32]> {
    let mut out = Vec::with_capacity(crate::spec::SIG_PUBLIC_LEN);
    out.push(fp_small(1));
    out.push(fp256_le_from_be(issuer_pk.0));
    out.push(fp256_le_from_be(issuer_pk.1));
    out.push(fp256_le_from_be(device_auth_hash));
    for v in macs.iter().chain(std::iter::once(&verifier_key)) {
        out.extend((0..128).map(|j| fp_small((v >> j & 1) as u8)));
    }
    out
}

fn push_byte_bits(out: &mut Vec<u128>, bytes: &[u8]) {
    for b in bytes {
        out.extend((0..8).map(|j| u128::from(b >> j & 1)));
    }
}

fn push_bits(out: &mut Vec<u128>, v: usize, n: usize) {
    out.extend((0..n).map(|j| (v >> j & 1) as u128));
}

fn push_padded(out: &mut Vec<u128>, bytes: &[u8], len: usize) {
    push_byte_bits(out, bytes);
    out.extend(std::iter::repeat_n(
        0u128,
        8 * len.saturating_sub(bytes.len()),
    ));
}

/// The public input bits of one attribute.
///
/// Version 7: CBOR text of the identifier padded to 32 bytes, the value's
/// CBOR padded to 64, then two 8-bit lengths the circuit compares against the
/// item's `elementIdentifier` and `elementValue` key–value pairs (computed as
/// the reference does: 19 + identifier length, value length + 13).
/// Versions 5/6: `text(id) ‖ text("elementValue") ‖ value` padded to 96 bytes,
/// then its length in 8 bits.
fn push_attribute(
    out: &mut Vec<u128>,
    a: &RequestedAttribute,
    v7: bool,
) -> Result<(), PublicInputError> {
    let mut id = Vec::with_capacity(a.id.len() + 2);
    push_text(&mut id, a.id.as_bytes());
    if v7 {
        if id.len() > 32 {
            return Err(PublicInputError::AttributeTooLarge(a.id.clone()));
        }
        if a.id.len() > MAX_V7_ID_BYTES {
            return Err(PublicInputError::IdentifierTooLongForV7(a.id.clone()));
        }
        push_padded(out, &id, 32);
        push_padded(out, &a.value_cbor, 64);
        push_bits(out, 1 + 17 + 1 + a.id.len(), 8);
        push_bits(out, a.value_cbor.len() + 12 + 1, 8);
    } else {
        let mut s = id;
        push_text(&mut s, b"elementValue");
        s.extend_from_slice(&a.value_cbor);
        if s.len() > 96 {
            return Err(PublicInputError::AttributeTooLongForV6(a.id.clone()));
        }
        push_padded(out, &s, 96);
        push_bits(out, s.len(), 8);
    }
    Ok(())
}

/// Public inputs of the hash circuit (GF(2^128) values as `u128`): 1, the
/// attributes, `now` as 160 bits, the six MAC tags, a_v.
pub fn hash_public_inputs(
    spec: &crate::spec::ZkSpecInfo,
    attributes: &[RequestedAttribute],
    now: &[u8; 20],
    macs: &[u128; 6],
    verifier_key: u128,
) -> Result<Vec<u128>, PublicInputError> {
    validate_attributes(attributes, spec.num_attributes)?;
    let mut out = Vec::with_capacity(spec.hash_public_len());
    out.push(1);
    for a in attributes {
        push_attribute(&mut out, a, spec.is_v7())?;
    }
    push_byte_bits(&mut out, now);
    out.extend_from_slice(macs);
    out.push(verifier_key);
    Ok(out)
}

/// Parses a public-key coordinate written as `0x`-prefixed hex or as a
/// decimal integer (the reference tools accept both) into 32 big-endian
/// bytes; `None` if malformed or 2^256 or more. Leading zeros are allowed
/// in both forms (some tools print 65 hex digits). Whether the value is a
/// canonical coordinate of a curve point is
/// [`crate::check_issuer_key`]'s question.
pub fn parse_coordinate(s: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        if hex.is_empty() {
            return None;
        }
        let hex = hex.trim_start_matches('0');
        if hex.len() > 64 {
            return None;
        }
        for (i, c) in hex.bytes().rev().enumerate() {
            let d = (c as char).to_digit(16)? as u8;
            out[31 - i / 2] |= d << (4 * (i % 2));
        }
        return Some(out);
    }
    if s.is_empty() {
        return None;
    }
    let s = s.trim_start_matches('0');
    if s.len() > 78 {
        return None;
    }
    for c in s.bytes() {
        let mut carry = u16::from((c as char).to_digit(10)? as u8);
        for byte in out.iter_mut().rev() {
            let v = u16::from(*byte) * 10 + carry;
            *byte = v as u8;
            carry = v >> 8;
        }
        if carry != 0 {
            return None;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduces_values_at_or_above_p() {
        assert_eq!(fp256_le_from_be(&P256_P), [0u8; 32]);
        // 2^256 - 1 - p = 2^224 - 2^192 - 2^96.
        let mut expected = [0u8; 32];
        expected[4..8].copy_from_slice(&[0xff, 0xff, 0xff, 0xfe]);
        expected[8..20].copy_from_slice(&[0xff; 12]);
        expected.reverse();
        assert_eq!(fp256_le_from_be(&[0xff; 32]), expected);
    }

    #[test]
    fn coordinates_parse_as_hex_or_decimal() {
        let hex = "0xdc1c1f55cff4cd5c76cf4169278f7217667f86ee81d8669b63f2e19bc12a0c9f";
        // The same integer in decimal (computed independently).
        let dec = "99558514673764967574735007274897104033125819925977418599195137956401696607391";
        let h = parse_coordinate(hex).expect("hex");
        assert_eq!(h[0], 0xdc);
        assert_eq!(h[31], 0x9f);
        assert_eq!(parse_coordinate(dec), Some(h));
        assert_eq!(
            parse_coordinate("0x1"),
            Some(fp_small(1)).map(|mut v| {
                v.reverse();
                v
            })
        );
        assert_eq!(parse_coordinate("0x"), None);
        assert_eq!(parse_coordinate("12a"), None);
        // 2^256 does not fit.
        let two_256 =
            "115792089237316195423570985008687907853269984665640564039457584007913129639936";
        assert_eq!(parse_coordinate(two_256), None);
    }

    #[test]
    fn coordinates_may_have_leading_zeros() {
        let x = "dc1c1f55cff4cd5c76cf4169278f7217667f86ee81d8669b63f2e19bc12a0c9f";
        let want = parse_coordinate(&format!("0x{x}"));
        assert!(want.is_some());
        assert_eq!(parse_coordinate(&format!("0x0{x}")), want);
        assert_eq!(parse_coordinate(&format!("0x000{x}")), want);
        assert_eq!(parse_coordinate("0x0000"), Some([0; 32]));
        assert_eq!(parse_coordinate(&format!("0x1{x}")), None);
        let dec = "99558514673764967574735007274897104033125819925977418599195137956401696607391";
        assert_eq!(parse_coordinate(&format!("00{dec}")), want);
        assert_eq!(parse_coordinate("0"), Some([0; 32]));
        assert_eq!(parse_coordinate("0x"), None);
        assert_eq!(parse_coordinate("0x0g"), None);
    }

    #[test]
    fn heads_encode_every_length() {
        let head = |len: usize| {
            let mut v = Vec::new();
            push_head(&mut v, 2, len);
            v
        };
        assert_eq!(head(23), [0x57]);
        assert_eq!(head(24), [0x58, 24]);
        assert_eq!(head(0xffff), [0x59, 0xff, 0xff]);
        assert_eq!(head(0x1_0000), [0x5a, 0, 1, 0, 0]);
        assert_eq!(head(0xffff_ffff), [0x5a, 0xff, 0xff, 0xff, 0xff]);
        // 2^32 used to come out as the 4-byte head of 0.
        #[cfg(target_pointer_width = "64")]
        {
            assert_eq!(head(1 << 32), [0x5b, 0, 0, 0, 1, 0, 0, 0, 0]);
            assert_eq!(head((1 << 40) + 5), [0x5b, 0, 0, 1, 0, 0, 0, 0, 5]);
        }
    }

    fn attr(namespace: &str, id: &str, value_len: usize) -> RequestedAttribute {
        RequestedAttribute {
            namespace: namespace.into(),
            id: id.into(),
            value_cbor: vec![0; value_len],
        }
    }

    #[test]
    fn request_limits_are_enforced() {
        let ns = "org.iso.18013.5.1";
        let v6 = crate::spec::ZkSpecInfo {
            version: 6,
            num_attributes: 1,
        };
        let v7 = crate::spec::ZkSpecInfo {
            version: 7,
            num_attributes: 1,
        };
        let (now, macs) = ([b'0'; 20], [0u128; 6]);
        // v6 packs text(id) ‖ text("elementValue") ‖ value into 96 bytes:
        // 1 + 10 + 13 + 72 = 96 fits only if the value is at most 64 anyway,
        // so use a 32-byte id: 2 + 32 + 13 + 50 = 97.
        let long_id = "a".repeat(32);
        let too_long = [attr(ns, &long_id, 50)];
        assert_eq!(
            hash_public_inputs(&v6, &too_long, &now, &macs, 0),
            Err(PublicInputError::AttributeTooLongForV6(long_id.clone()))
        );
        let fits = [attr(ns, &long_id, 49)];
        assert_eq!(
            hash_public_inputs(&v6, &fits, &now, &macs, 0).map(|v| v.len()),
            Ok(v6.hash_public_len())
        );
        // v7 has separate slots: 32 bytes for the encoded identifier and 64
        // for the value; the slot would hold 30 characters, but the circuit's
        // length check only works for one-byte text headers (≤ 23).
        let id23 = "c".repeat(23);
        assert_eq!(
            hash_public_inputs(&v7, &[attr(ns, &id23, 64)], &now, &macs, 0).map(|v| v.len()),
            Ok(v7.hash_public_len())
        );
        let id30 = "c".repeat(30);
        assert_eq!(
            hash_public_inputs(&v7, &[attr(ns, &id30, 64)], &now, &macs, 0),
            Err(PublicInputError::IdentifierTooLongForV7(id30.clone()))
        );
        assert_eq!(
            hash_public_inputs(&v7, &too_long, &now, &macs, 0),
            Err(PublicInputError::AttributeTooLarge(long_id.clone()))
        );
        assert!(matches!(
            hash_public_inputs(&v7, &[attr(ns, "x", 65)], &now, &macs, 0),
            Err(PublicInputError::AttributeTooLarge(_))
        ));
        assert!(matches!(
            hash_public_inputs(&v7, &[attr(ns, &"b".repeat(33), 1)], &now, &macs, 0),
            Err(PublicInputError::AttributeTooLarge(_))
        ));
        assert_eq!(
            validate_attributes(&[attr(ns, "a", 1), attr("other", "b", 1)], 2),
            Err(PublicInputError::MixedNamespaces)
        );
        assert_eq!(
            validate_attributes(&[attr(ns, "a", 1)], 2),
            Err(PublicInputError::AttributeCount {
                expected: 2,
                got: 1
            })
        );
    }

    #[test]
    fn v7_attribute_layout() {
        let v7 = crate::spec::ZkSpecInfo {
            version: 7,
            num_attributes: 1,
        };
        let a = RequestedAttribute {
            namespace: "ns".into(),
            id: "height".into(),
            value_cbor: vec![0x18, 0xaf],
        };
        let v = hash_public_inputs(&v7, &[a], &[0; 20], &[0; 6], 9).expect("fits");
        let byte = |k: usize| (0..8).fold(0u8, |acc, j| acc | (v[1 + 8 * k + j] as u8) << j);
        assert_eq!(byte(0), 0x66); // text head, length 6
        assert_eq!(byte(1), b'h');
        assert_eq!(byte(31), 0);
        assert_eq!(byte(32), 0x18);
        assert_eq!(byte(33), 0xaf);
        assert_eq!(byte(96), 19 + 6); // elementIdentifier pair length
        assert_eq!(byte(97), 2 + 13); // elementValue pair length
        assert_eq!(v.last(), Some(&9));
    }
}

#[cfg(test)]
mod reduction_tests {
    use super::fp256_le_from_be;
    use longfellow_field::{Field, Fp256};
    use proptest::prelude::*;

    /// hi·2^128 + lo computed with field arithmetic (both halves are below
    /// p, so they decode directly).
    fn reduce_with_field(be: &[u8; 32]) -> [u8; 32] {
        let half = |bytes: &[u8]| {
            let mut le = [0u8; 32];
            for (o, b) in le.iter_mut().zip(bytes.iter().rev()) {
                *o = *b;
            }
            Fp256::from_bytes(&le).expect("below p")
        };
        let mut two_128 = [0u8; 32];
        two_128[16] = 1;
        let two_128 = Fp256::from_bytes(&two_128).expect("below p");
        let v = half(&be[..16]) * two_128 + half(&be[16..]);
        let mut out = [0u8; 32];
        v.write_bytes(&mut out);
        out
    }

    proptest! {
        #[test]
        fn reduction_agrees_with_field_arithmetic(be: [u8; 32]) {
            prop_assert_eq!(fp256_le_from_be(&be), reduce_with_field(&be));
        }
    }

    #[test]
    fn reduction_at_the_edges() {
        for be in [[0u8; 32], [0xff; 32], super::P256_P] {
            assert_eq!(fp256_le_from_be(&be), reduce_with_field(&be));
        }
    }

    #[test]
    fn version_7_refuses_identifiers_with_two_byte_headers() {
        let ns = "org.iso.18013.5.1";
        let v6 = crate::spec::ZkSpecInfo {
            version: 6,
            num_attributes: 1,
        };
        let v7 = crate::spec::ZkSpecInfo {
            version: 7,
            num_attributes: 1,
        };
        let (now, macs) = ([b'0'; 20], [0u128; 6]);
        let attr = |namespace: &str, id: &str, value_len: usize| super::RequestedAttribute {
            namespace: namespace.to_string(),
            id: id.to_string(),
            value_cbor: vec![0xf5; value_len],
        };
        let fits = [attr(ns, &"x".repeat(23), 1)];
        assert_eq!(
            super::hash_public_inputs(&v7, &fits, &now, &macs, 0).map(|v| v.len()),
            Ok(v7.hash_public_len())
        );
        let long = "x".repeat(24);
        assert_eq!(
            super::hash_public_inputs(&v7, &[attr(ns, &long, 1)], &now, &macs, 0),
            Err(super::PublicInputError::IdentifierTooLongForV7(
                long.clone()
            ))
        );
        // Version 6 encodes the identifier inside its 96-byte string instead.
        assert!(super::hash_public_inputs(&v6, &[attr(ns, &long, 1)], &now, &macs, 0).is_ok());
    }
}
