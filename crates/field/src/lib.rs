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
//! slices of them use 512-bit (AVX-512) or 256-bit (AVX2) VPCLMULQDQ where
//! detected. On x86_64, P-256 products and squares use MULX/ADCX/ADOX
//! assembly when BMI2 and ADX are detected (else the portable Montgomery
//! product on `u128` limb products, also what aarch64 runs), and its
//! additions use baseline carry-chain assembly.
//!
//! Which kernels run is decided once per process ([`kernels`] reports it):
//! the best the CPU has, under a ceiling set by the environment variable
//! `LONGFELLOW_FIELD_KERNELS` (`auto`, `no512`/`256`, `128` or `soft`), or
//! portable code throughout with the `force-soft` feature. Every path
//! computes the same elements, so proofs are byte-identical on all of them.
//!
//! The only `unsafe` code is in the private `arch` module, and every fast
//! path is tested against its portable twin.
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(unsafe_code)]

extern crate alloc;

mod arch;
mod fp128;
mod fp256;
mod gf2_128;
pub mod held;
mod limbs;
mod ops;
mod prime;
mod traits;

pub use arch::select::{
    kernels, Gf2Kernel, KernelInfo, KernelRequest, P256Kernel, RequestSource, KERNELS_ENV,
};
pub use fp128::Fp128;
pub use fp256::Fp256;
pub use gf2_128::{Gf2Wide, Gf2_128};
pub use subtle;
pub use traits::{batch_invert, mix64, mix64_once, Butterfly, Field, FieldKind};
