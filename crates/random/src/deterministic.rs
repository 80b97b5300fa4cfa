//! Deterministic byte generators that reproduce the published vectors.
//!
//! **Tests and conformance only.** None of these is cryptographic: their whole
//! output follows from a 64-bit seed (or from nothing at all), so a proof made
//! with them reveals its witness. None implements [`rand_core::CryptoRng`]
//! unless the `test-vectors` feature is on, which exists so that tests and
//! conformance runs can hand them to provers (which require `CryptoRngCore`).

use rand_core::{impls, Error, RngCore};

/// Multiplier shared by both linear congruential generators (Knuth's MMIX).
const LCG_MUL: u64 = 6_364_136_223_846_793_005;

/// Implements the `RngCore` methods that derive from `fill_bytes`.
macro_rules! byte_stream_rng {
    ($ty:ty) => {
        /// Insecure: see the module docs. Only with `test-vectors`.
        #[cfg(feature = "test-vectors")]
        impl rand_core::CryptoRng for $ty {}

        impl RngCore for $ty {
            fn next_u32(&mut self) -> u32 {
                impls::next_u32_via_fill(self)
            }
            fn next_u64(&mut self) -> u64 {
                impls::next_u64_via_fill(self)
            }
            fn fill_bytes(&mut self, dest: &mut [u8]) {
                for b in dest {
                    *b = self.next_byte();
                }
            }
            fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Error> {
                self.fill_bytes(dest);
                Ok(())
            }
        }
    };
}

/// The generator behind Google's mdoc artifacts (`DeterministicRng` in their
/// Rust runtime; seed 42 for every proof in `google/mdoc/proofs`).
///
/// Per byte: the state advances `s ← s·6364136223846793005 + 1` (wrapping) and
/// the byte is the top 8 bits of the *new* state. It is a plain byte stream:
/// how requests are split does not change the output.
#[derive(Clone, Debug)]
pub struct MdocLcg {
    state: u64,
}

impl MdocLcg {
    /// Starts from `seed` (the first byte comes from the state after one step).
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    fn next_byte(&mut self) -> u8 {
        self.state = self.state.wrapping_mul(LCG_MUL).wrapping_add(1);
        (self.state >> 56) as u8
    }
}
byte_stream_rng!(MdocLcg);

/// The generator of the specification's reference code (`docs/specs/rust`
/// test data; seeds 12345 and 123456789).
///
/// Per byte: `s ← s·6364136223846793005 + 1442695040888963407` (wrapping),
/// then the byte is bits 32..40 of the new state. A plain byte stream.
#[derive(Clone, Debug)]
pub struct SpecLcg {
    state: u64,
}

impl SpecLcg {
    /// Starts from `seed` (the first byte comes from the state after one step).
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    fn next_byte(&mut self) -> u8 {
        self.state = self
            .state
            .wrapping_mul(LCG_MUL)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.state >> 32) as u8
    }
}
byte_stream_rng!(SpecLcg);

/// Emits `start, start+1, start+2, …` (mod 256), one value per byte: the
/// generator of Google's Merkle commitment vector (`commitment_test_vector.bin`,
/// start 42). A plain byte stream.
#[derive(Clone, Debug)]
pub struct CounterRng {
    next: u8,
}

impl CounterRng {
    /// The first byte emitted is `start`.
    pub fn new(start: u8) -> Self {
        Self { next: start }
    }

    fn next_byte(&mut self) -> u8 {
        let b = self.next;
        self.next = self.next.wrapping_add(1);
        b
    }
}
byte_stream_rng!(CounterRng);

/// Answers every request with `first, 0, 0, …`: the mock engine of Google's C++
/// RFC example (`TestRandomEngine`, first byte 2), which ISRG's `one-circuit`
/// vectors were made with. Every field element it draws is `2` (or the
/// element encoded by `02 00 …`), every Merkle nonce is `02 00 … 00`.
///
/// Unlike the other generators the output depends on how requests are split:
/// each `fill_bytes` call starts afresh. The sampling functions of this crate
/// make exactly one call per attempt, as the reference does.
#[derive(Clone, Debug)]
pub struct ConstantDrawRng {
    first: u8,
}

impl ConstantDrawRng {
    /// A generator whose every request reads `first, 0, 0, …`.
    pub fn new(first: u8) -> Self {
        Self { first }
    }

    /// The configuration of ISRG's one-circuit vectors (`first = 2`).
    pub fn isrg() -> Self {
        Self::new(2)
    }
}

impl RngCore for ConstantDrawRng {
    fn next_u32(&mut self) -> u32 {
        u32::from(self.first)
    }
    fn next_u64(&mut self) -> u64 {
        u64::from(self.first)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        dest.fill(0);
        if let Some(b) = dest.first_mut() {
            *b = self.first;
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}
