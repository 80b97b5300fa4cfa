//! x86_64 kernels: GF(2^128) on PCLMULQDQ and on 256- and 512-bit
//! VPCLMULQDQ, and the P-256 base field in MULX/ADX assembly.

pub(crate) mod clmul128;
pub(crate) mod clmul256;
pub(crate) mod clmul512;
pub(crate) mod p256;
pub(crate) mod p256_ifma;
pub(crate) mod p256_text;
