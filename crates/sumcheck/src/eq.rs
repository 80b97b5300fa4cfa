//! Tables of the multilinear equality polynomial.
//!
//! `eq(G, i) = Π_l (bit_l(i) ? G[l] : 1 − G[l])`: bit `l` of the index pairs
//! with coordinate `G[l]`, so binding the lowest index bit first (as every
//! sumcheck round here does) consumes `G[0]` first.

use longfellow_field::Field;

use crate::eq_split::SplitEq2;

/// Fills `out` with `eq(point, i)` for `0 ≤ i < n` (`n ≤ 2^point.len()`).
///
/// Built coarse-to-fine: after processing coordinate `l`, entry `j` holds the
/// product over the coordinates `≥ l` of index `j·2^l`'s bits, and only the
/// prefix that can still reach an index below `n` is kept.
pub fn eq_table<F: Field>(point: &[F], n: usize, out: &mut Vec<F>) {
    out.clear();
    if n == 0 {
        return;
    }
    out.resize(n, F::ZERO);
    out[0] = F::ONE;
    let mut len = 1usize;
    for l in (0..point.len()).rev() {
        // Entries needed at this level: ceil(n / 2^l).
        let need = ((n - 1) >> l) + 1;
        let q = point[l];
        // Descending so that out[i] is read before out[2i], out[2i+1] overwrite it.
        for i in (0..len).rev() {
            let v = out[i];
            let hi = v * q;
            if 2 * i + 1 < need {
                out[2 * i + 1] = hi;
            }
            out[2 * i] = v - hi;
        }
        len = need;
    }
}

/// Fills `out` with `eq(g0, i) + alpha·eq(g1, i)` for `0 ≤ i < n`: the
/// random combination of the two claims carried into a layer. Both points
/// have the same length, with `n ≤ 2^len`.
///
/// `eq` factors over the index bits, so the four half-length tables of
/// [`SplitEq2`] (about `√n` entries each) give every entry with two
/// products. No second full-size table is built.
pub fn eq2_table<F: Field>(g0: &[F], g1: &[F], alpha: F, n: usize, out: &mut Vec<F>) {
    out.clear();
    if n == 0 {
        return;
    }
    let split = SplitEq2::new(g0, g1, alpha, n);
    let ([lo0, lo1], [hi0, hi1]) = (&split.lo, &split.hi);
    let nlo = lo0.len();
    out.reserve_exact(n);
    longfellow_par::refill(out, n, F::ZERO);
    // Rows of `nlo` entries share their high factors; a chunk of whole rows
    // per task. A row is one `lincomb2` (both factors fixed along it): the
    // field's slice kernel, one reduction per entry instead of two.
    let rows_per_chunk = (ROWS_CHUNK_ENTRIES / nlo).max(1);
    longfellow_par::for_each_chunk_mut(out, rows_per_chunk * nlo, |start, chunk| {
        let first_row = start / nlo;
        for (row, (&a, &b)) in chunk
            .chunks_mut(nlo)
            .zip(hi0[first_row..].iter().zip(&hi1[first_row..]))
        {
            F::lincomb2(row, a, lo0, b, lo1);
        }
    });
}

/// Entries per parallel task of [`eq2_table`].
const ROWS_CHUNK_ENTRIES: usize = 1 << 14;

/// Number of bits needed to index `n` entries: the least `k` with `2^k ≥ n`.
pub fn log2_ceil(n: usize) -> usize {
    if n <= 1 {
        0
    } else {
        (usize::BITS - (n - 1).leading_zeros()) as usize
    }
}
