//! A test issuer: synthetic ISO 18013-5 mdocs for tests, fuzz seeds and
//! demos, signed with throwaway P-256 keys.
//!
//! Real credentials come with fixed keys, dates and attributes; this crate
//! makes credentials with chosen ones (a validity period around a chosen
//! `now`, a chosen SessionTranscript, chosen attribute values) whose bytes
//! follow what deployed wallets produce and Google's version 6 and 7 mdoc
//! circuits accept. Nothing here is for production issuance: the issuer
//! certificate is self-signed, and keys are whatever the caller's RNG yields.
//!
//! ```
//! use longfellow_mdoc_issuer::{dc_api_session_transcript, DeviceKey, IssuerKey, MdocBuilder, Tdate};
//! use rand_core::SeedableRng;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
//! let issuer = IssuerKey::random(&mut rng);
//! let device = DeviceKey::random(&mut rng);
//! let now = Tdate::parse("2026-01-15T09:00:00Z")?;
//! let day = std::time::Duration::from_secs(86_400);
//! let transcript = dc_api_session_transcript("https://verifier.example", "nonce-1")?;
//! let mdoc = MdocBuilder::age_verification()
//!     .valid_around(now, day, 365 * day)?
//!     .build(&issuer, &device, &transcript, &mut rng)?;
//! let request_json = mdoc.request(now, &["age_over_18"])?.to_json()?;
//! # assert!(request_json.contains("\"value_cbor_hex\": \"f5\""));
//! # Ok(()) }
//! ```
#![forbid(unsafe_code)]

pub mod builder;
pub mod cert;
pub mod cose;
pub mod date;
pub mod error;
pub mod issued;
pub mod keys;
pub mod pki;
pub mod transcript;
pub mod value;

pub use builder::{DigestIds, IssuerCertificate, ItemField, MdocBuilder, DEFAULT_ITEM_ORDER};
pub use date::Tdate;
pub use error::IssuerError;
pub use issued::{Attribute, IssuedMdoc, ProofRequest, RequestAttribute};
pub use keys::{DeviceKey, IssuerKey};
pub use transcript::dc_api_session_transcript;
