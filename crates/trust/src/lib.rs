//! Issuer trust for mdoc verification: which issuer key a proof is checked
//! against, and why that key is trusted.
//!
//! A ZK DeviceResponse names its issuer only through `msoX5chain`: the
//! document signer (DS) certificate, then any intermediates. The circuit
//! proves that the MSO was signed by *some* key; this crate decides whether
//! that key belongs to an issuer the relying party accepts:
//!
//! - the DS certificate must hold an ECDSA P-256 key (the only curve the
//!   circuits verify), be within its validity period, allow
//!   digitalSignature and, when it states extended key usages, name the
//!   mdoc document-signer purpose (ISO 18013-5 Annex B);
//! - it must chain, through the intermediates given, to a trust anchor: an
//!   IACA root from a PEM bundle ([`TrustStore::add_pem_bundle`]) or from a
//!   VICAL ([`TrustStore::add_vical`]), whose own COSE_Sign1 signature is
//!   verified against configured VICAL signers first;
//! - every certificate on the path must be valid at the verification time,
//!   CA certificates must be CAs allowed to sign certificates, and no
//!   certificate may carry a critical extension this crate does not check.
//!
//! The result ([`TrustedIssuer`]) carries the DS key's coordinates, so the
//! proof check never takes an issuer key from the caller.
#![forbid(unsafe_code)]

mod certificate;
mod error;
mod pem;
mod signature;
mod store;
mod vical;

pub use certificate::{split_der_certificates, ParsedCertificate};
pub use error::TrustError;
pub use pem::pem_certificates;
pub use store::{AnchorSource, TrustStore, TrustedIssuer};
pub use vical::{Vical, VicalEntry};

/// id-mdl-kp-mdlDS, the mdoc document signer key purpose (1.0.18013.5.1.2).
pub const MDL_DS_EKU: &str = "1.0.18013.5.1.2";
