//! Prover-side mdoc handling for Longfellow's mdoc circuits (ZkSpec versions
//! 5–7): parsing an untrusted DeviceResponse and building the complete input
//! vectors of the signature circuit (P-256 base field) and the hash circuit
//! (GF(2^128)), byte-for-byte as Google's provers do.
//!
//! A relying party never links this crate: the public inputs it must
//! recompute live in [`public`], which depends on no mdoc parsing.
#![forbid(unsafe_code)]

mod cbor;
pub mod ecdsa;
pub mod error;
pub mod gf2;
pub mod mac;
pub mod parse;
pub mod public;
pub mod sha256;
pub mod spec;
pub mod witness;

pub use error::MdocError;
pub use mac::MacInputs;
pub use parse::{parse_device_response, DeviceResponse, IssuerSignedItem, Mso};
pub use public::RequestedAttribute;
pub use spec::ZkSpecInfo;
pub use witness::{build_witnesses, MdocRequest, PrivateWitness, Witnesses};
