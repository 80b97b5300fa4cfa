//! The COSE_Sign1 pieces both mdoc signatures use (RFC 9052 §4.4).

use minicbor::Encoder;

use crate::error::IssuerError;

/// Serialized protected header `{1: -7}` (alg: ES256). The circuits hard-code
/// these bytes into the Sig_structure they hash, so no other header (not even
/// an equivalent encoding) can be proven.
pub const ES256_PROTECTED: [u8; 3] = [0xa1, 0x01, 0x26];

/// COSE header label of an X.509 certificate chain (RFC 9360).
pub const X5CHAIN: i64 = 33;

/// `Sig_structure = ["Signature1", protected, external_aad = h'', payload]`,
/// the bytes an ES256 COSE_Sign1 signs.
pub fn sig_structure(payload: &[u8]) -> Result<Vec<u8>, IssuerError> {
    let mut e = Encoder::new(Vec::with_capacity(payload.len() + 24));
    e.array(4)?
        .str("Signature1")?
        .bytes(&ES256_PROTECTED)?
        .bytes(&[])?
        .bytes(payload)?;
    Ok(e.into_writer())
}

/// Appends `COSE_Sign1 = [protected, unprotected, payload, signature]`
/// (untagged, as ISO 18013-5 embeds it). `payload = None` writes `null`:
/// a detached payload, as DeviceSignature uses.
pub fn write_sign1(
    e: &mut Encoder<&mut Vec<u8>>,
    x5chain: Option<&[u8]>,
    payload: Option<&[u8]>,
    signature: &[u8; 64],
) -> Result<(), IssuerError> {
    e.array(4)?.bytes(&ES256_PROTECTED)?;
    match x5chain {
        Some(cert) => e.map(1)?.i64(X5CHAIN)?.bytes(cert)?,
        None => e.map(0)?,
    };
    match payload {
        Some(p) => e.bytes(p)?,
        None => e.null()?,
    };
    e.bytes(signature)?;
    Ok(())
}
