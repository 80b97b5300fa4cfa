//! Tableau geometry derived from the five numbers a proof is configured with.

use crate::error::LigeroError;
use longfellow_field::Field;

/// Largest dimension accepted anywhere (2^28), as in the reference: every
/// size must also be allocatable on a 32-bit machine, so a 64-bit build
/// refuses what a 32-bit build would.
pub const MAX_SIZE: usize = 1 << 28;

/// Row index of the low-degree-test blinding row.
pub const ILDT: usize = 0;
/// Row index of the dot-product blinding row.
pub const IDOT: usize = 1;
/// Row index of the quadratic-test blinding row.
pub const IQUAD: usize = 2;
/// Index of the first witness row.
pub const IW: usize = 3;

/// Ligero parameters and the tableau layout they imply.
///
/// A row holds `block_enc` evaluations of a polynomial at the points
/// `F::from_index(0..block_enc)`. Its first `block` entries are the message
/// (`r` blinding randoms followed by `w` witnesses); the polynomial has
/// degree below `block`, so the `dblock = 2·block − 1` prefix also determines
/// products of two rows. Only the `leaves = block_enc − dblock` trailing
/// columns are committed and may be opened, so the opened values never
/// reveal a witness position.
///
/// Rows: three blinding rows ([`ILDT`], [`IDOT`], [`IQUAD`]), `nwrow` witness
/// rows from [`IW`], then `nqt` triples of quadratic rows laid out as all x
/// rows, all y rows, all z rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LigeroParams {
    /// Number of committed witnesses.
    pub nw: usize,
    /// Number of quadratic constraints.
    pub nq: usize,
    /// Inverse rate of the code.
    pub rateinv: usize,
    /// Number of opened columns (also the number of blinding randoms `r`).
    pub nreq: usize,
    /// Row length after encoding.
    pub block_enc: usize,
    /// Message length of a row, `(block_enc + 1) / (2 + rateinv)`.
    pub block: usize,
    /// `2·block − 1`.
    pub dblock: usize,
    /// Blinding randoms per witness row (= `nreq`).
    pub r: usize,
    /// Witnesses per row, `block − r`.
    pub w: usize,
    /// Number of witness rows, `⌈nw / w⌉`.
    pub nwrow: usize,
    /// Number of quadratic row triples, `⌈nq / w⌉`.
    pub nqt: usize,
    /// Witness plus quadratic rows, `nwrow + 3·nqt`.
    pub nwqrow: usize,
    /// All rows, `3 + nwqrow`.
    pub nrow: usize,
    /// Committed columns (Merkle leaves), `block_enc − dblock`.
    pub leaves: usize,
    /// Height bound of a Merkle path over `leaves` leaves, as the reference
    /// computes it; bounds the digest count of an opening.
    pub merkle_pathlen: usize,
}

impl LigeroParams {
    /// Derives the layout, rejecting every combination the reference rejects
    /// (plus `leaves < nreq`, which the reference only detects when choosing
    /// columns).
    pub fn new(
        nw: usize,
        nq: usize,
        rateinv: usize,
        nreq: usize,
        block_enc: usize,
    ) -> Result<Self, LigeroError> {
        let bad = |why| Err(LigeroError::InvalidParams(why));
        if block_enc > MAX_SIZE || rateinv > MAX_SIZE || nw > MAX_SIZE || nq > MAX_SIZE {
            return bad("a dimension exceeds 2^28");
        }
        if block_enc + 1 < 2 + rateinv {
            return bad("block_enc too small for rateinv");
        }
        let block = (block_enc + 1) / (2 + rateinv);
        if nreq == 0 {
            return bad("nreq must be at least 1");
        }
        let r = nreq;
        if block < r {
            return bad("block smaller than nreq");
        }
        let w = block - r;
        if w < r {
            return bad("fewer witnesses than blinding randoms per row");
        }
        let dblock = 2 * block - 1;
        if block_enc < dblock || block_enc <= block {
            return bad("block_enc smaller than 2·block − 1");
        }
        let leaves = block_enc - dblock;
        if leaves < nreq {
            return bad("fewer committed columns than opened columns");
        }
        let nwrow = nw.div_ceil(w);
        let nqt = nq.div_ceil(w);
        let nwqrow = nwrow + 3 * nqt;
        let nrow = nwqrow + IW;
        if nrow >= MAX_SIZE / block_enc {
            return bad("tableau larger than 2^28 elements");
        }
        Ok(Self {
            nw,
            nq,
            rateinv,
            nreq,
            block_enc,
            block,
            dblock,
            r,
            w,
            nwrow,
            nqt,
            nwqrow,
            nrow,
            leaves,
            merkle_pathlen: merkle_pathlen(leaves),
        })
    }

    /// Index of the first quadratic row (x rows of every triple).
    pub fn iq(&self) -> usize {
        IW + self.nwrow
    }

    /// Checks the field-dependent limit: evaluation points are
    /// `from_index(j)` for `j < block_enc`, which must be distinct; for
    /// GF(2^128) they are subfield elements, so `block_enc < 2^16`.
    pub fn check_field<F: Field>(&self) -> Result<(), LigeroError> {
        let bits = 8 * F::SUBFIELD_BYTES;
        if bits <= 28 && self.block_enc >= (1usize << bits) {
            return Err(LigeroError::InvalidParams(
                "block_enc does not fit the evaluation-point subfield",
            ));
        }
        Ok(())
    }
}

/// The reference's path-length estimate: one more than the bit length of
/// `2n − 1`.
fn merkle_pathlen(n: usize) -> usize {
    let mut len = 1;
    let mut pos = (2 * n).saturating_sub(1);
    while pos > 1 {
        len += 1;
        pos >>= 1;
    }
    len
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn google_vector_geometry() {
        // ligero_test_vector.bin: nw 1000, nq 50, rateinv 4, nreq 36, block_enc 4096.
        let p = LigeroParams::new(1000, 50, 4, 36, 4096).unwrap();
        assert_eq!(p.block, 4097 / 6);
        assert_eq!(p.dblock, 2 * p.block - 1);
        assert_eq!(p.w, p.block - 36);
        assert_eq!(p.nwrow, 1000usize.div_ceil(p.w));
        assert_eq!(p.nqt, 1);
        assert_eq!(p.nrow, 3 + p.nwrow + 3);
        assert_eq!(p.leaves, 4096 - p.dblock);
    }

    #[test]
    fn mdoc_v7_geometry_matches_map() {
        // Map §3: v7 1-attribute signature circuit: block 455, 3187 leaves, nrow 19
        // (nw 3986 = (3739 − 900) inputs + pad, 21 layers).
        let p = LigeroParams::new(3986, 21, 7, 132, 4096).unwrap();
        assert_eq!(p.block, 455);
        assert_eq!(p.leaves, 3187);
        assert_eq!(p.nrow, 19);
    }

    #[test]
    fn rejects_bad_shapes() {
        assert!(LigeroParams::new(10, 1, 4, 100, 256).is_err()); // block < nreq
        assert!(LigeroParams::new(10, 1, 300, 1, 256).is_err()); // block_enc too small
        assert!(LigeroParams::new(10, 1, 4, 1, MAX_SIZE + 1).is_err());
        assert!(LigeroParams::new(MAX_SIZE, 1, 4, 1, 4096).is_err()); // tableau too big
    }

    #[test]
    fn pathlen_matches_reference_formula() {
        assert_eq!(merkle_pathlen(1), 1);
        assert_eq!(merkle_pathlen(2), 2);
        assert_eq!(merkle_pathlen(4), 3);
        assert_eq!(merkle_pathlen(5), 4);
    }
}
