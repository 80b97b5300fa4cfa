//! aarch64 kernels: GF(2^128) on PMULL (64×64 carry-less products on NEON
//! registers). The P-256 base field needs no special code here: the
//! portable Montgomery product is written on `u128` limb products, which
//! compile to MUL and UMULH pairs.

pub(crate) mod pmull;
