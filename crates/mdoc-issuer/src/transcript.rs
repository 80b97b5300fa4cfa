//! A SessionTranscript for tests and demos.
//!
//! The device signs the SessionTranscript, so a proof is bound to one
//! presentation session; the mdoc circuits only need its exact bytes, which a
//! caller may also supply from a real protocol run.

use minicbor::Encoder;
use sha2::{Digest, Sha256};

use crate::error::IssuerError;

/// `[null, null, ["OpenID4VPDCAPIHandover", SHA-256([origin, nonce, null])]]`:
/// the shape of an OpenID4VP Digital Credentials API presentation without an
/// encryption key (no device engagement, no reader key). The hash input is
/// the CBOR array of the web origin, the verifier's nonce and `null` for the
/// absent JWK thumbprint.
pub fn dc_api_session_transcript(origin: &str, nonce: &str) -> Result<Vec<u8>, IssuerError> {
    let mut info = Encoder::new(Vec::new());
    info.array(3)?.str(origin)?.str(nonce)?.null()?;
    let handover_hash: [u8; 32] = Sha256::digest(info.into_writer()).into();

    let mut e = Encoder::new(Vec::new());
    e.array(3)?
        .null()?
        .null()?
        .array(2)?
        .str("OpenID4VPDCAPIHandover")?
        .bytes(&handover_hash)?;
    Ok(e.into_writer())
}
