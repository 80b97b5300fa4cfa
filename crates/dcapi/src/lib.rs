//! A presentation session over the W3C Digital Credentials API, for mdoc
//! ZK proofs: what a relying party sends to `navigator.credentials.get()`
//! and what it gets back.
//!
//! - [`DeviceRequest`]: the ISO 18013-5 DeviceRequest naming the requested
//!   attributes and, in `requestInfo.zkRequest`, the ZK systems
//!   ([`ZkSystemSpec`]) the relying party accepts.
//! - [`EncryptionInfo`]: `["dcapi", {"nonce", "recipientPublicKey"}]`, the
//!   relying party's ephemeral HPKE P-256 key (ISO/IEC TS 18013-7 Annex C).
//! - [`EncryptedResponse`]: `["dcapi", {"enc", "cipherText"}]`, the wallet's
//!   answer, HPKE-sealed ([`seal`]) to that key and opened with a
//!   [`RecipientKey`], which is consumed (and its secret wiped) by the one
//!   [`RecipientKey::open`] it allows.
//! - [`Handover`]: the SessionTranscript `[null, null, handover]` of the two
//!   handovers seen in the wild: Annex C `dcapi` and OpenID4VP's
//!   `OpenID4VPDCAPIHandover`.
//! - [`jwe`]: the JWE (`ECDH-ES`, P-256, `A128GCM`/`A256GCM`) of an
//!   encrypted OpenID4VP response (`dc_api.jwt`), opened with a
//!   [`JweRecipientKey`] that, like [`RecipientKey`], serves one decryption;
//!   and the RFC 7638 thumbprint the handover binds.
//!
//! Both the relying party and the wallet use this crate; it links no prover
//! code. Decoding is strict and bounded: counts and lengths are checked
//! before anything is copied.
#![forbid(unsafe_code)]

mod cbor;
mod device_request;
mod encryption;
mod error;
pub mod jwe;
mod transcript;

pub use device_request::{DeviceRequest, RequestedElement, ZkSystemSpec};
pub use encryption::{seal, EncryptedResponse, EncryptionInfo, RecipientKey};
pub use error::DcApiError;
pub use jwe::{
    encrypt as jwe_encrypt, jwk_thumbprint, ContentEncryption, EncryptParams, JweError,
    JwePublicKey, JweRecipientKey, ALG_ECDH_ES,
};
pub use transcript::{Handover, DCAPI_HANDOVER, OPENID4VP_DCAPI_HANDOVER};

/// The W3C Digital Credentials API protocol identifier of ISO/IEC TS
/// 18013-7 Annex C.
pub const PROTOCOL_ORG_ISO_MDOC: &str = "org-iso-mdoc";
/// The protocol identifier of an unsigned OpenID4VP 1.0 request over the
/// Digital Credentials API.
pub const PROTOCOL_OPENID4VP_UNSIGNED: &str = "openid4vp-v1-unsigned";
/// The OpenID4VP `response_mode` of an encrypted response over the Digital
/// Credentials API (a JWE, OpenID4VP 1.0 §8.3).
pub const RESPONSE_MODE_DC_API_JWT: &str = "dc_api.jwt";
/// The OpenID4VP `response_mode` of an unencrypted response over the
/// Digital Credentials API.
pub const RESPONSE_MODE_DC_API: &str = "dc_api";
