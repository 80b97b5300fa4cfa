//! Field arithmetic for Longfellow.
//!
//! See [`Field`] for the interface the protocol layers use.
#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

mod traits;

pub use traits::{batch_invert, Field, FieldKind};
pub use subtle;
