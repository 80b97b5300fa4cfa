//! The one rule that turns uniform bytes into field elements and small
//! integers, shared by the Fiat–Shamir transcript's challenges and the
//! prover's randomness.
//!
//! Byte-exact reproduction of reference proofs depends on *how* bytes are
//! consumed, not only on their source: an element is drawn by repeated
//! attempts of exactly [`Field::SAMPLE_BYTES`] bytes each, one `fill_bytes`
//! call per attempt. Keeping the rule here (and not in the prover's
//! `longfellow-random`) lets the verifier's transcript use it without
//! linking any prover randomness.
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use longfellow_field::Field;
use rand_core::RngCore;

/// Largest [`Field::SAMPLE_BYTES`] (and subfield variant) supported by the
/// sampling functions; every Longfellow field needs at most 32.
pub const MAX_SAMPLE_BYTES: usize = 64;

/// Draws a uniform field element by rejection sampling.
///
/// Each attempt requests exactly [`Field::SAMPLE_BYTES`] bytes with a single
/// `fill_bytes` call, as the reference prover does; generators whose output
/// depends on the call pattern (such as `longfellow_random::ConstantDrawRng`) rely on
/// that.
pub fn random_element<F: Field, R: RngCore + ?Sized>(rng: &mut R) -> F {
    const { assert!(F::SAMPLE_BYTES <= MAX_SAMPLE_BYTES) };
    let mut buf = [0u8; MAX_SAMPLE_BYTES];
    let bytes = &mut buf[..F::SAMPLE_BYTES];
    loop {
        rng.fill_bytes(bytes);
        if let Some(e) = F::from_uniform_bytes(bytes) {
            return e;
        }
    }
}

/// Draws a uniform element of the subfield (GF(2^16) inside GF(2^128); the
/// whole field for prime fields), one [`Field::SUBFIELD_SAMPLE_BYTES`] request
/// per attempt.
pub fn random_subfield_element<F: Field, R: RngCore + ?Sized>(rng: &mut R) -> F {
    const { assert!(F::SUBFIELD_SAMPLE_BYTES <= MAX_SAMPLE_BYTES) };
    let mut buf = [0u8; MAX_SAMPLE_BYTES];
    let bytes = &mut buf[..F::SUBFIELD_SAMPLE_BYTES];
    loop {
        rng.fill_bytes(bytes);
        if let Some(e) = F::from_uniform_subfield_bytes(bytes) {
            return e;
        }
    }
}

/// Fills `out` with field elements drawn in index order.
pub fn fill_elements<F: Field, R: RngCore + ?Sized>(rng: &mut R, out: &mut [F]) {
    for e in out {
        *e = random_element(rng);
    }
}

/// Fills `out` with subfield elements drawn in index order.
pub fn fill_subfield_elements<F: Field, R: RngCore + ?Sized>(rng: &mut R, out: &mut [F]) {
    for e in out {
        *e = random_subfield_element(rng);
    }
}

/// Number of bytes needed to write `n` in little-endian (0 for 0).
fn byte_len(n: u64) -> usize {
    (64 - n.leading_zeros() as usize).div_ceil(8)
}

/// Draws a uniform integer in `[0, n)`.
///
/// Each attempt reads as many bytes as `n` occupies, little-endian, keeps the
/// bits below `n`'s bit length and rejects values ≥ `n`. Note that a power of
/// two `n = 2^k` keeps `k+1` bits and so rejects half the attempts: that is the
/// reference's rule and changes the byte stream, so it is kept.
///
/// # Panics
/// If `n == 0` (there is nothing to draw); callers pass protocol parameters
/// that are already validated.
pub fn random_nat<R: RngCore + ?Sized>(rng: &mut R, n: u64) -> u64 {
    assert!(n > 0, "random_nat: empty range");
    let len = byte_len(n);
    let mask = u64::MAX >> n.leading_zeros();
    let mut buf = [0u8; 8];
    loop {
        rng.fill_bytes(&mut buf[..len]);
        let r = u64::from_le_bytes(buf) & mask;
        if r < n {
            return r;
        }
    }
}

/// Chooses `k` distinct indices in `[0, n)` (see [`choose`]); `None` if
/// `k > n`.
pub fn try_choose<R: RngCore + ?Sized>(rng: &mut R, n: usize, k: usize) -> Option<Vec<usize>> {
    if k > n {
        return None;
    }
    // A partial Fisher–Yates shuffle of the identity permutation 0..n. Only
    // swapped positions are stored, so memory is O(k) whatever `n` is.
    let mut moved: BTreeMap<usize, usize> = BTreeMap::new();
    let mut out = Vec::with_capacity(k);
    for i in 0..k {
        // `n - i` ≥ 1 and fits in u64; the draw is < n - i, so `j` < n.
        let offset = random_nat(rng, (n - i) as u64) as usize;
        let j = i + offset;
        let at_i = moved.get(&i).copied().unwrap_or(i);
        let at_j = moved.get(&j).copied().unwrap_or(j);
        moved.insert(j, at_i);
        moved.remove(&i);
        out.push(at_j);
    }
    Some(out)
}

/// Chooses `k` distinct indices in `[0, n)`: a partial Fisher–Yates shuffle
/// where step `i` swaps position `i` with `i + random_nat(n - i)` and outputs
/// the new value at `i`, exactly the reference's draw order.
///
/// # Panics
/// If `k > n`. Use [`try_choose`] when the parameters are not already
/// validated.
pub fn choose<R: RngCore + ?Sized>(rng: &mut R, n: usize, k: usize) -> Vec<usize> {
    match try_choose(rng, n, k) {
        Some(v) => v,
        None => panic!("choose: cannot pick {k} distinct values below {n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_lengths_and_masks() {
        assert_eq!(byte_len(1), 1);
        assert_eq!(byte_len(255), 1);
        assert_eq!(byte_len(256), 2);
        assert_eq!(byte_len(u64::MAX), 8);
    }
}
