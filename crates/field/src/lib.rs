//! Field arithmetic for Longfellow.
//!
//! See [`Field`] for the interface the protocol layers use. Concrete fields:
//! [`Fp256`] (P-256 base field), [`Gf2_128`] (with its GF(2^16) subfield) and
//! [`Fp128`] (test vectors only).
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(unsafe_code)]

extern crate alloc;

mod arch;
mod fp128;
mod fp256;
mod gf2_128;
mod limbs;
mod ops;
mod prime;
mod traits;

pub use fp128::Fp128;
pub use fp256::Fp256;
pub use gf2_128::Gf2_128;
pub use subtle;
pub use traits::{batch_invert, Field, FieldKind};
