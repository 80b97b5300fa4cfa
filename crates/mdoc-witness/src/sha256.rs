//! SHA-256 with the intermediate values the circuits take as witnesses.
//!
//! The circuits check a SHA-256 computation block by block; instead of
//! recomputing the message schedule and the round states in-circuit (deep),
//! they receive them as inputs and check each step locally.

/// Round constants of FIPS 180-4 (protocol constants).
const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// Initial hash value H(0) of FIPS 180-4.
const H0: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// What one compression leaves behind for the circuit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockWitness {
    /// Message schedule words W[16..64] (W[0..16] are the block itself).
    pub schedule: [u32; 48],
    /// The new `e` of every round.
    pub e: [u32; 64],
    /// The new `a` of every round.
    pub a: [u32; 64],
    /// Chaining value after this block.
    pub h: [u32; 8],
}

impl BlockWitness {
    /// The words in the order the version 5–7 circuits read them: schedule,
    /// then (e, a) per round, then the chaining value.
    pub fn circuit_words(&self) -> impl Iterator<Item = u32> + '_ {
        self.schedule
            .iter()
            .copied()
            .chain(self.e.iter().zip(&self.a).flat_map(|(&e, &a)| [e, a]))
            .chain(self.h.iter().copied())
    }
}

fn compress(h: &[u32; 8], block: &[u8; 64]) -> BlockWitness {
    let mut w = [0u32; 64];
    for (word, chunk) in w.iter_mut().zip(block.chunks_exact(4)) {
        *word = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
    }
    for t in 16..64 {
        let s0 = w[t - 15].rotate_right(7) ^ w[t - 15].rotate_right(18) ^ (w[t - 15] >> 3);
        let s1 = w[t - 2].rotate_right(17) ^ w[t - 2].rotate_right(19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16]
            .wrapping_add(s0)
            .wrapping_add(w[t - 7])
            .wrapping_add(s1);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = *h;
    let mut out_e = [0u32; 64];
    let mut out_a = [0u32; 64];
    for t in 0..64 {
        let big_s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let ch = (e & f) ^ (!e & g);
        let t1 = hh
            .wrapping_add(big_s1)
            .wrapping_add(ch)
            .wrapping_add(K[t])
            .wrapping_add(w[t]);
        let big_s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let maj = (a & b) ^ (a & c) ^ (b & c);
        let t2 = big_s0.wrapping_add(maj);
        hh = g;
        g = f;
        f = e;
        e = d.wrapping_add(t1);
        d = c;
        c = b;
        b = a;
        a = t1.wrapping_add(t2);
        out_e[t] = e;
        out_a[t] = a;
    }
    let mut schedule = [0u32; 48];
    schedule.copy_from_slice(&w[16..]);
    let state = [a, b, c, d, e, f, g, hh];
    let mut next = [0u32; 8];
    for i in 0..8 {
        next[i] = h[i].wrapping_add(state[i]);
    }
    BlockWitness {
        schedule,
        e: out_e,
        a: out_a,
        h: next,
    }
}

/// A message padded into a fixed number of blocks, with every block's witness.
#[derive(Clone, Debug)]
pub struct PaddedHash {
    /// `max_blocks·64` bytes: message, SHA-256 padding, then zero blocks.
    pub padded: Vec<u8>,
    /// Blocks actually used by the message and its padding.
    pub nblocks: usize,
    /// One witness per block, `max_blocks` of them. Blocks past `nblocks`
    /// compress zero blocks, continuing the chain; the circuit ignores them
    /// but still expects consistent values.
    pub blocks: Vec<BlockWitness>,
}

impl PaddedHash {
    /// The SHA-256 digest of the message (the chaining value after block
    /// `nblocks`).
    pub fn digest(&self) -> [u8; 32] {
        let mut out = [0u8; 32];
        if let Some(last) = self.nblocks.checked_sub(1).and_then(|i| self.blocks.get(i)) {
            for (o, word) in out.chunks_exact_mut(4).zip(last.h) {
                o.copy_from_slice(&word.to_be_bytes());
            }
        }
        out
    }
}

/// Blocks needed for `len` message bytes (one 0x80 byte and the 8-byte length).
pub fn blocks_needed(len: usize) -> usize {
    (len + 9).div_ceil(64)
}

/// Pads `message` into `max_blocks` blocks and records the witnesses, or
/// `None` if it does not fit.
pub fn hash_padded(message: &[u8], max_blocks: usize) -> Option<PaddedHash> {
    let nblocks = blocks_needed(message.len());
    if nblocks > max_blocks {
        return None;
    }
    let mut padded = vec![0u8; max_blocks * 64];
    padded[..message.len()].copy_from_slice(message);
    padded[message.len()] = 0x80;
    let bit_len = (message.len() as u64).wrapping_mul(8);
    padded[nblocks * 64 - 8..nblocks * 64].copy_from_slice(&bit_len.to_be_bytes());

    let mut h = H0;
    let mut blocks = Vec::with_capacity(max_blocks);
    for chunk in padded.chunks_exact(64) {
        let mut block = [0u8; 64];
        block.copy_from_slice(chunk);
        let bw = compress(&h, &block);
        h = bw.h;
        blocks.push(bw);
    }
    Some(PaddedHash {
        padded,
        nblocks,
        blocks,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use sha2::{Digest, Sha256};

    proptest! {
        #[test]
        fn digest_matches_sha2(msg in proptest::collection::vec(any::<u8>(), 0..300)) {
            let ph = hash_padded(&msg, 6).expect("fits");
            let expected: [u8; 32] = Sha256::digest(&msg).into();
            prop_assert_eq!(ph.digest(), expected);
            prop_assert_eq!(ph.blocks.len(), 6);
            prop_assert_eq!(ph.padded.len(), 6 * 64);
        }
    }

    #[test]
    fn refuses_messages_that_need_more_blocks() {
        assert!(hash_padded(&[0u8; 55], 1).is_some());
        assert!(hash_padded(&[0u8; 56], 1).is_none());
        assert!(hash_padded(&[0u8; 119], 2).is_some());
        assert!(hash_padded(&[0u8; 120], 2).is_none());
    }
}
