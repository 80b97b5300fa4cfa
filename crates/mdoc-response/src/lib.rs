//! The ISO/IEC 18013-5 (second edition) ZK DeviceResponse: what a wallet
//! sends a relying party instead of a plain DeviceResponse when it proves
//! attributes with Longfellow.
//!
//! ```text
//! ZkDeviceResponse = { "version": "1.0", "status": 0, "zkDocuments": [ ZkDocument ] }
//! ZkDocument       = { "proof": bstr, "documentData": #6.24(bstr .cbor ZkDocumentData) }
//! ZkDocumentData   = { "docType": tstr, "timestamp": #6.0(tdate),
//!                      "msoX5chain": bstr / [+ bstr], "zkSystemId": tstr,
//!                      "issuerSigned": { ns => [+ { "elementIdentifier", "elementValue" }] },
//!                      ? "deviceSigned": { ns => [...] } }
//! ```
//!
//! Both directions live here so that the wallet ([`encode`]) and the relying
//! party ([`decode`]) cannot drift apart; the crate depends on the verifier
//! side only (no prover code). Decoding is strict about structure and types,
//! checks every length against [`Limits`] before it copies anything, keeps
//! each `elementValue` as its exact CBOR bytes (never truncated, never
//! re-encoded) and reports a typed [`DecodeError`].
//!
//! `zkSystemId` comes in two forms ([`ZkSystemId`]): the bare circuit hash
//! (Google Wallet) and the spec id
//! `longfellow-libzk-v1_<version>_<nattr>_<block_enc_hash>_<block_enc_sig>_<hash>`
//! (Multipaz, EUDI libraries).
#![forbid(unsafe_code)]

mod decode;
mod encode;
mod error;
mod limits;
mod model;
mod system_id;

pub use decode::{decode, decode_document_data, decode_with};
pub use encode::{encode, encode_document_data};
pub use error::{DecodeError, EncodeError};
pub use limits::Limits;
pub use model::{
    Element, Namespace, Timestamp, X5Chain, ZkDeviceResponse, ZkDocument, ZkDocumentData,
};
pub use system_id::{SystemIdError, ZkSystemId};
