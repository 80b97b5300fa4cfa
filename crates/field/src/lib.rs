//! Field arithmetic for Longfellow.
//!
//! See [`Field`] for the interface the protocol layers use. Concrete fields:
//! [`Fp256`] (P-256 base field), [`Gf2_128`] (with its GF(2^16) subfield) and
//! [`Fp128`] (test vectors only).
//!
//! All arithmetic on elements is constant time. GF(2^128) products use the
//! CPU's carry-less multiply (x86_64 PCLMULQDQ, aarch64 PMULL) when run-time
//! detection finds it (with `std`; without `std` only if the build enables
//! the target feature), else a constant-time integer-multiply fallback;
//! slices of them use 512-bit VPCLMULQDQ where detected. On x86_64, P-256
//! products and squares use MULX/ADCX/ADOX assembly when BMI2 and ADX are
//! detected (else the portable Montgomery product), and its additions use
//! baseline carry-chain assembly. The only `unsafe` code is in the private
//! `arch` module, and every fast path is tested against the portable code.
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
pub use traits::{batch_invert, mix64, Butterfly, Field, FieldKind};
