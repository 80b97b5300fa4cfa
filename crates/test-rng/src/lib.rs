//! Deterministic generators for tests and benches.
//!
//! Tests compare two computations on many inputs (a fast kernel against its
//! definition, a decoder against a hostile byte) and need inputs that are
//! the same on every run and every machine, without pulling a random-number
//! crate into the bottom of the crate graph. These are the textbook
//! generators the tests used to each write privately; the sequences are
//! exactly the ones those copies produced, so tests whose expected values
//! were recorded from them (the Reed–Solomon digests, Google's MAC keys)
//! keep passing unchanged.
//!
//! None of them is cryptographic; never use them outside tests.
#![no_std]
#![forbid(unsafe_code)]

/// Marsaglia's xorshift64 (shifts 13, 7, 17). Each call returns the new
/// state. The seed must not be zero (zero is a fixed point).
#[derive(Clone, Debug)]
pub struct XorShift64(pub u64);

impl XorShift64 {
    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Two outputs as one 128-bit value, the first in the high half.
    pub fn next_u128(&mut self) -> u128 {
        let high = self.next_u64();
        let low = self.next_u64();
        (u128::from(high) << 64) | u128::from(low)
    }
}

/// Vigna's xorshift64* (shifts 12, 25, 27, then a multiply): the state
/// moves as in xorshift, the output is the state times
/// `0x2545F4914F6CDD1D`, whose high bits are the good ones.
#[derive(Clone, Debug)]
pub struct XorShift64Star(pub u64);

impl XorShift64Star {
    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// SplitMix64: a Weyl sequence through a 64-bit finaliser. Any seed works,
/// zero included, so no test depends on a seed's luck.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// A 64-bit linear congruential generator with Knuth's MMIX multiplier,
/// `s ← s·6364136223846793005 + c`, read one byte at a time from the top
/// of the state (`s >> 56`).
#[derive(Clone, Debug)]
pub struct Lcg64 {
    state: u64,
    increment: u64,
}

impl Lcg64 {
    /// MMIX multiplier.
    pub const MULTIPLIER: u64 = 6_364_136_223_846_793_005;

    /// The generator of Google's C++ tests (increment 1): with seed 42 its
    /// bytes are the MAC keys and nonces of the stored mdoc proofs.
    pub fn reference(seed: u64) -> Self {
        Lcg64 {
            state: seed,
            increment: 1,
        }
    }

    /// Knuth's MMIX constants (increment 1442695040888963407).
    pub fn mmix(seed: u64) -> Self {
        Lcg64 {
            state: seed,
            increment: 1_442_695_040_888_963_407,
        }
    }

    /// Steps the state and returns it whole.
    pub fn next_state(&mut self) -> u64 {
        self.state = self
            .state
            .wrapping_mul(Self::MULTIPLIER)
            .wrapping_add(self.increment);
        self.state
    }

    /// Steps the state and returns its top byte.
    pub fn byte(&mut self) -> u8 {
        (self.next_state() >> 56) as u8
    }

    /// Fills `out` with successive [`Self::byte`]s.
    pub fn fill(&mut self, out: &mut [u8]) {
        for b in out {
            *b = self.byte();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Published first outputs (Marsaglia 2003, seed 1; Vigna's reference
    /// SplitMix64, seed 0), so a slip in the shared copy cannot hide.
    #[test]
    fn known_first_outputs() {
        let mut x = XorShift64(1);
        assert_eq!(x.next_u64(), 1_082_269_761);
        let mut s = SplitMix64(0);
        assert_eq!(s.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(s.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        // Seed 1: 1 ^ 1<<25 = 0x200_0001, and the >>12, >>27 steps add nothing.
        let mut star = XorShift64Star(1);
        assert_eq!(
            star.next_u64(),
            0x200_0001u64.wrapping_mul(0x2545_f491_4f6c_dd1d)
        );
        assert_eq!(star.0, 0x200_0001);
    }

    #[test]
    fn lcg_steps_by_the_formula() {
        let mut r = Lcg64::reference(42);
        let want = 42u64.wrapping_mul(Lcg64::MULTIPLIER).wrapping_add(1);
        assert_eq!(r.next_state(), want);
        let mut m = Lcg64::mmix(0);
        assert_eq!(m.byte(), (1_442_695_040_888_963_407u64 >> 56) as u8);
    }
}
