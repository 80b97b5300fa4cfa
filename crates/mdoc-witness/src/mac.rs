//! The information-theoretic MAC that ties the two circuits' shared values.
//!
//! Three 256-bit values appear in both circuits: the issuer-signature hash e
//! and the device key (x, y). Each is split into two GF(2^128) halves m (its
//! 32-byte little-endian encoding, 16 bytes each) and authenticated as
//! tag = (a_v + a_p)·m, with a fresh prover key a_p per half and one verifier
//! key a_v drawn from the transcript after both circuits are committed.

use longfellow_field::Gf2_128;

/// The MAC keys: six prover shares (drawn before committing) and the
/// verifier share (drawn from the transcript after committing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MacInputs {
    /// a_p for (e, device x, device y), low half then high half.
    pub prover_keys: [[u128; 2]; 3],
    /// a_v.
    pub verifier_key: u128,
}

/// Bytes of prover randomness the six keys a_p take, drawn before anything
/// else in a proof.
pub const PROVER_KEY_BYTES: usize = 96;

/// The six prover keys from the first [`PROVER_KEY_BYTES`] random bytes:
/// consecutive 16-byte little-endian values, in the order a_p\[0\]\[0\],
/// a_p\[0\]\[1\], a_p\[1\]\[0\], … (as the reference provers draw them).
pub fn prover_keys_from_bytes(bytes: &[u8; PROVER_KEY_BYTES]) -> [[u128; 2]; 3] {
    let key = |k: usize| {
        let mut b = [0u8; 16];
        b.copy_from_slice(&bytes[16 * k..16 * k + 16]);
        u128::from_le_bytes(b)
    };
    [[key(0), key(1)], [key(2), key(3)], [key(4), key(5)]]
}

/// The two 128-bit halves of a big-endian 256-bit value's little-endian
/// encoding: (bits 0..128, bits 128..256).
pub fn halves(be: &[u8; 32]) -> [u128; 2] {
    let mut le = *be;
    le.reverse();
    let mut lo = [0u8; 16];
    let mut hi = [0u8; 16];
    lo.copy_from_slice(&le[..16]);
    hi.copy_from_slice(&le[16..]);
    [u128::from_le_bytes(lo), u128::from_le_bytes(hi)]
}

/// The six tags for messages (e, device x, device y), each big-endian.
pub fn tags(messages: [&[u8; 32]; 3], keys: &MacInputs) -> [u128; 6] {
    let mut out = [0u128; 6];
    for (i, m) in messages.iter().enumerate() {
        for (j, half) in halves(m).into_iter().enumerate() {
            // Constant-time product: the keys and the credential hash are secret.
            let key = Gf2_128::from_u128(keys.verifier_key ^ keys.prover_keys[i][j]);
            out[2 * i + j] = (key * Gf2_128::from_u128(half)).to_u128();
        }
    }
    out
}
