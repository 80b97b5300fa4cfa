//! The SessionTranscript of a Digital Credentials API presentation.
//!
//! Over the DC API there is no device engagement and no reader key, so the
//! transcript is `[null, null, Handover]`; the handover binds the
//! presentation to the web origin the browser saw and to the relying
//! party's session data. Sources followed:
//!
//! - ISO/IEC TS 18013-7 (2025) Annex C: `Handover = ["dcapi",
//!   SHA-256(CBOR dcapiInfo)]`, `dcapiInfo = [Base64EncryptionInfo,
//!   SerializedOrigin]`, where `Base64EncryptionInfo` is the unpadded
//!   base64url text of the CBOR EncryptionInfo exactly as sent to the
//!   wallet (the relying party keeps that text and never re-encodes it).
//! - OpenID4VP 1.0, Appendix B.2.6.2: `Handover = ["OpenID4VPDCAPIHandover",
//!   SHA-256(CBOR OpenID4VPDCAPIHandoverInfo)]`, `HandoverInfo = [origin,
//!   nonce, jwk_thumbprint]`, the thumbprint (RFC 7638, SHA-256) of the key
//!   the response is encrypted to as a bstr, or `null` when the response is
//!   not encrypted.

use minicbor::Encoder;
use sha2::{Digest, Sha256};

use crate::cbor::ok;

/// The handover identifier of ISO/IEC TS 18013-7 Annex C.
pub const DCAPI_HANDOVER: &str = "dcapi";
/// The handover identifier of OpenID4VP over the DC API.
pub const OPENID4VP_DCAPI_HANDOVER: &str = "OpenID4VPDCAPIHandover";

/// What the SessionTranscript of one DC API presentation is built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Handover {
    /// ISO/IEC TS 18013-7 Annex C (`org-iso-mdoc`).
    DcApi {
        /// The EncryptionInfo as sent: unpadded base64url of its CBOR.
        encryption_info_b64: String,
        /// The ASCII serialization of the caller's web origin.
        origin: String,
    },
    /// OpenID4VP 1.0 over the DC API.
    OpenId4Vp {
        /// The ASCII serialization of the caller's web origin.
        origin: String,
        /// The request's `nonce`.
        nonce: String,
        /// JWK SHA-256 thumbprint of the response encryption key, when the
        /// response is encrypted.
        jwk_thumbprint: Option<[u8; 32]>,
    },
}

impl Handover {
    /// The CBOR handover-info array whose SHA-256 the handover carries.
    pub fn info_cbor(&self) -> Vec<u8> {
        let mut e = Encoder::new(Vec::new());
        match self {
            Self::DcApi {
                encryption_info_b64,
                origin,
            } => {
                ok(e.array(2));
                ok(e.str(encryption_info_b64));
                ok(e.str(origin));
            }
            Self::OpenId4Vp {
                origin,
                nonce,
                jwk_thumbprint,
            } => {
                ok(e.array(3));
                ok(e.str(origin));
                ok(e.str(nonce));
                match jwk_thumbprint {
                    Some(t) => ok(e.bytes(t)),
                    None => ok(e.null()),
                }
            }
        }
        e.into_writer()
    }

    /// The handover identifier.
    pub fn name(&self) -> &'static str {
        match self {
            Self::DcApi { .. } => DCAPI_HANDOVER,
            Self::OpenId4Vp { .. } => OPENID4VP_DCAPI_HANDOVER,
        }
    }

    /// The origin the transcript binds.
    pub fn origin(&self) -> &str {
        match self {
            Self::DcApi { origin, .. } | Self::OpenId4Vp { origin, .. } => origin,
        }
    }

    /// The SessionTranscript: `[null, null, [name, SHA-256(info)]]`, the
    /// bytes the device signs and HPKE takes as `info`.
    pub fn session_transcript(&self) -> Vec<u8> {
        let hash: [u8; 32] = Sha256::digest(self.info_cbor()).into();
        let mut e = Encoder::new(Vec::new());
        ok(e.array(3));
        ok(e.null());
        ok(e.null());
        ok(e.array(2));
        ok(e.str(self.name()));
        ok(e.bytes(&hash));
        e.into_writer()
    }
}
