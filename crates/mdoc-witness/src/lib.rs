//! Prover-side mdoc handling for Longfellow's mdoc circuits (ZkSpec versions
//! 5–7): parsing an untrusted DeviceResponse and building the complete input
//! vectors of the signature circuit (P-256 base field) and the hash circuit
//! (GF(2^128)), byte-for-byte as Google's provers do.
//!
//! A relying party never links this crate: the public inputs it must
//! recompute live in `longfellow-mdoc` (re-exported here as [`public`]),
//! which depends on no mdoc parsing; so do the request type and the
//! circuits' input layout ([`ZkSpecInfo`]).
//!
//! # Where the MAC values sit
//!
//! The six MAC tags and the verifier key a_v are public inputs of both
//! circuits; a_v is drawn from the Fiat–Shamir transcript after both circuits
//! are committed, so [`PrivateWitness`] is built first (it needs only the
//! prover keys a_p) and [`PrivateWitness::finish`] adds the public parts.
//!
//! | circuit | indices | content |
//! |---|---|---|
//! | signature | 4 + 128·k + j (k < 6, j < 128) | bit j of MAC tag k |
//! | signature | 772 + j | bit j of a_v |
//! | signature | 2971 + 256·i + {0, 64, 128, 192} … +64 | a_p\[i\]\[0\], a_p\[i\]\[1\], message low and high halves, two bits per wire |
//! | hash | npub − 7 + k | MAC tag k |
//! | hash | npub − 1 | a_v |
//! | hash | last six inputs | a_p\[0\]\[0\], a_p\[0\]\[1\], …, a_p\[2\]\[1\] |
//!
//! with message i = 0, 1, 2 the credential hash e and the device key x and y,
//! and npub = [`ZkSpecInfo::hash_public_len`].
#![forbid(unsafe_code)]

mod cbor;
pub mod ecdsa;
pub mod error;
pub mod layout;
pub mod mac;
pub mod parse;
pub mod sha256;
pub mod spec;
pub mod witness;

pub use error::MdocError;
pub use longfellow_mdoc::public;
pub use mac::MacInputs;
pub use parse::{parse_device_response, DeviceResponse, IssuerSignedItem, Mso};
pub use public::RequestedAttribute;
pub use spec::ZkSpecInfo;
pub use witness::{build_witnesses, MdocRequest, PrivateWitness, Witnesses};
