//! Circuit IDs (the C++ `circuit_id`).
//!
//! The ID is SHA-256 over a field descriptor, the circuit dimensions and
//! every term with absolute wire indices and its constant's field encoding,
//! each number as a little-endian u64. It is independent of the file
//! format, so LFC1 and LFC2 encodings of a circuit share it.

use longfellow_field::{Field, FieldKind};
use sha2::{Digest, Sha256};

use crate::circuit::Circuit;

/// `⌈log2 n⌉` (0 for n ≤ 1), as the C++ `lg`.
pub(crate) fn ceil_log2(n: u64) -> u64 {
    if n <= 1 {
        0
    } else {
        u64::from(64 - (n - 1).leading_zeros())
    }
}

/// Buffers small writes so SHA-256 sees large blocks.
struct Batch {
    sha: Sha256,
    buf: Vec<u8>,
}

impl Batch {
    const CAP: usize = 1 << 14;

    fn new() -> Self {
        Self {
            sha: Sha256::new(),
            buf: Vec::with_capacity(Self::CAP + 128),
        }
    }

    #[inline]
    fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    #[inline]
    fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
        if self.buf.len() >= Self::CAP {
            self.sha.update(&self.buf);
            self.buf.clear();
        }
    }

    fn finish(mut self) -> [u8; 32] {
        self.sha.update(&self.buf);
        self.sha.finalize().into()
    }
}

/// Computes the circuit ID of `c`.
pub(crate) fn circuit_id<F: Field>(c: &Circuit<F>) -> [u8; 32] {
    let mut h = Batch::new();
    match F::KIND {
        FieldKind::Binary => {
            h.u64(2);
            h.u64(u64::from(F::BITS));
        }
        FieldKind::Prime => {
            h.u64(1);
            h.bytes((-F::ONE).to_repr().as_ref());
        }
    }
    let nv = c.num_outputs() as u64;
    for v in [
        nv,
        ceil_log2(nv),
        1, // copies
        0, // log2(copies)
        c.layers().len() as u64,
        c.num_inputs() as u64,
        c.num_public_inputs() as u64,
        c.subfield_boundary() as u64,
    ] {
        h.u64(v);
    }

    let encoded: Vec<F::Repr> = c.constants().iter().map(Field::to_repr).collect();
    for layer in c.layers() {
        h.u64(layer.nw() as u64);
        h.u64(u64::from(layer.logw()));
        h.u64(layer.num_terms() as u64);
        let (mut g, mut h0, mut h1) = (0u32, 0u32, 0u32);
        layer.compact().for_each_delta(|d| {
            g = g.wrapping_add(d.g);
            h0 = h0.wrapping_add(d.h0);
            h1 = h1.wrapping_add(d.h1);
            let mut rec = [0u8; 24];
            rec[..8].copy_from_slice(&u64::from(g).to_le_bytes());
            rec[8..16].copy_from_slice(&u64::from(h0).to_le_bytes());
            rec[16..].copy_from_slice(&u64::from(h1).to_le_bytes());
            h.bytes(&rec);
            h.bytes(encoded[d.k as usize].as_ref());
        });
    }
    h.finish()
}

/// The ZkSpec circuit hash of a signature/hash circuit pair:
/// SHA-256(signature circuit ID ‖ hash circuit ID).
pub fn zkspec_hash(sig_id: &[u8; 32], hash_id: &[u8; 32]) -> [u8; 32] {
    let mut sha = Sha256::new();
    sha.update(sig_id);
    sha.update(hash_id);
    sha.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::ceil_log2;

    #[test]
    fn ceil_log2_matches_definition() {
        for n in 1u64..5000 {
            let mut k = 0;
            while (1u64 << k) < n {
                k += 1;
            }
            assert_eq!(ceil_log2(n), k, "n = {n}");
        }
    }
}
