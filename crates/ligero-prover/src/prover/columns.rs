//! What the prover keeps of its tableau after committing, and how it gets
//! the opened columns back.
//!
//! The encoded tableau (`nrow × block_enc`) is only needed whole while the
//! Merkle leaves are hashed. Afterwards the responses read each row's first
//! `dblock` entries, and the opening reads `nreq` committed columns. Keeping
//! only the prefixes (a third of the tableau or less) and re-encoding the
//! rows once at the end lowers the memory the prover holds through the
//! outer protocol (the sumcheck), which is when the process peaks.

use std::borrow::Cow;

use longfellow_field::Field;
use longfellow_ligero::{LigeroError, LigeroParams, IDOT, IQUAD};
use longfellow_par::{map_indices, threads as task_count};
use longfellow_reed_solomon::{RsEncoder, RsField};

/// Smallest extension worth dropping. Re-encoding costs about what the
/// commit's encoding did; for a small tableau that buys little memory (mdoc
/// v7 signature circuit, P-256: 19 rows, 1.9 MB of extension for 25 ms of
/// re-encoding), for a large one much (hash circuit, GF(2^128): 266 rows,
/// 13.7 MB for 16 ms).
const MIN_DROPPED_BYTES: usize = 4 << 20;

/// Re-encoded rows per task, relative to the thread count: a few tasks per
/// thread keep the threads busy when rows take unequal time or a core is
/// shared; each task allocates one scratch row.
const TASKS_PER_THREAD: usize = 4;

/// A committed tableau as the prover holds it until the opening: whole
/// rows, or each row's first `dblock` entries.
///
/// Kept prefixes whose entries all lie in the field's subfield are stored
/// packed, [`Field::SUBFIELD_BYTES`] per entry. For the hash circuit that is
/// nearly every row: its witness is bits, its witness rows draw subfield
/// blinding, and the Reed–Solomon evaluation points lie in GF(2^16), so the
/// encoded prefix stays in the subfield (the blinding rows are full-field
/// and stay whole). Packed, a row takes 2 bytes per entry instead of 16;
/// the prefixes are held through the whole sumcheck, where the prover
/// peaks (v7, four attributes: peak RSS 64.7 → 61.2 MiB, for about 1.5 %
/// more prove time, packing and decoding).
pub(crate) struct KeptRows<F> {
    /// Entries kept per unpacked row: `block_enc` or `dblock`.
    stride: usize,
    /// The unpacked rows, `stride` entries each, in row order.
    full: Vec<F>,
    /// The packed rows' `dblock` prefixes, subfield-encoded, in row order.
    packed: Vec<u8>,
    /// Where each row is kept.
    place: Vec<Place>,
}

/// Where one row of [`KeptRows`] is kept: its position among the unpacked
/// or among the packed rows.
#[derive(Clone, Copy, Debug)]
enum Place {
    Full(usize),
    Packed(usize),
}

impl<F: RsField> KeptRows<F>
where
    F::Encoder: Sync,
{
    /// Keeps only the prefixes when that frees at least
    /// [`MIN_DROPPED_BYTES`], else the whole rows.
    pub(crate) fn after_commit(p: &LigeroParams, tableau: Vec<F>) -> Self {
        let dropped = p.nrow * (p.block_enc - p.dblock) * core::mem::size_of::<F>();
        if dropped >= MIN_DROPPED_BYTES {
            Self::prefixes(p, tableau)
        } else {
            Self::whole(p, tableau)
        }
    }

    /// Keeps the whole encoded rows (`nrow × block_enc`).
    pub(crate) fn whole(p: &LigeroParams, tableau: Vec<F>) -> Self {
        Self {
            stride: p.block_enc,
            full: tableau,
            packed: Vec::new(),
            place: (0..p.nrow).map(Place::Full).collect(),
        }
    }

    /// Keeps each row's first `dblock` entries: packed when they all lie in
    /// the subfield, else moved to the front of the tableau, whose rest is
    /// then given back to the allocator (the full tableau is not held
    /// alongside its prefixes even for a moment).
    pub(crate) fn prefixes(p: &LigeroParams, mut tableau: Vec<F>) -> Self {
        let width = F::SUBFIELD_BYTES;
        let packs = width < F::BYTES;
        // Room for every row packed (an eighth of the prefixes for
        // GF(2^128)), so packing never regrows and copies the buffer.
        let mut packed = Vec::with_capacity(if packs { p.nrow * p.dblock * width } else { 0 });
        let mut place = Vec::with_capacity(p.nrow);
        let (mut unpacked, mut npacked) = (0, 0);
        for row in 0..p.nrow {
            let start = row * p.block_enc;
            let prefix = &tableau[start..start + p.dblock];
            if packs && pack_into(prefix, width, &mut packed) {
                place.push(Place::Packed(npacked));
                npacked += 1;
                continue;
            }
            tableau.copy_within(start..start + p.dblock, unpacked * p.dblock);
            place.push(Place::Full(unpacked));
            unpacked += 1;
        }
        tableau.truncate(unpacked * p.dblock);
        tableau.shrink_to_fit();
        packed.shrink_to_fit();
        Self {
            stride: p.dblock,
            full: tableau,
            packed,
            place,
        }
    }

    /// Row `i`'s first `len` (at most `dblock`) encoded entries, decoded
    /// when packed: callers ask for no more than they read, since decoding
    /// is most of what a packed row costs.
    pub(crate) fn row(&self, p: &LigeroParams, i: usize, len: usize) -> Cow<'_, [F]> {
        let len = len.min(p.dblock);
        match self.place[i] {
            Place::Full(k) => Cow::Borrowed(&self.full[k * self.stride..k * self.stride + len]),
            Place::Packed(k) => {
                let width = F::SUBFIELD_BYTES;
                let first = k * p.dblock * width;
                let bytes = &self.packed[first..first + len * width];
                // Every chunk was written by `write_subfield_bytes`, so
                // decoding cannot fail; zero only keeps the length.
                Cow::Owned(
                    bytes
                        .chunks_exact(width)
                        .map(|b| F::from_subfield_bytes(b).unwrap_or(F::ZERO))
                        .collect(),
                )
            }
        }
    }

    /// Number of rows kept packed.
    #[cfg(test)]
    pub(crate) fn packed_rows(&self) -> usize {
        self.place
            .iter()
            .filter(|r| matches!(r, Place::Packed(_)))
            .count()
    }

    /// The committed columns `idx` of every row (row-major, then in `idx`
    /// order), read from whole rows or re-encoded from the prefixes.
    pub(crate) fn opened_columns(
        &self,
        p: &LigeroParams,
        idx: &[usize],
    ) -> Result<Vec<F>, LigeroError> {
        if self.stride == p.block_enc {
            return Ok(self
                .full
                .chunks_exact(p.block_enc)
                .flat_map(|row| idx.iter().map(move |&j| row[p.dblock + j]))
                .collect());
        }
        let encoders = Encoders::<F>::new(p)?;
        let rows_per_task = p.nrow.div_ceil(TASKS_PER_THREAD * task_count()).max(1);
        let groups = map_indices(p.nrow.div_ceil(rows_per_task), |g| {
            let first = g * rows_per_task;
            let rows = first..(first + rows_per_task).min(p.nrow);
            let mut scratch = vec![F::ZERO; p.block_enc];
            let mut working = encoders.scratch();
            let mut picked = Vec::with_capacity(rows.len() * idx.len());
            for row in rows {
                let message = encoders.for_row(p, row).1;
                let prefix = self.row(p, row, message);
                encoders.encode(p, row, &prefix, &mut scratch, &mut working);
                picked.extend(idx.iter().map(|&j| scratch[p.dblock + j]));
            }
            picked
        });
        Ok(groups.concat())
    }

    /// The whole encoded tableau, re-encoded from the prefixes if needed.
    #[cfg(test)]
    pub(crate) fn into_tableau(self, p: &LigeroParams) -> Result<Vec<F>, LigeroError> {
        if self.stride == p.block_enc {
            return Ok(self.full);
        }
        let encoders = Encoders::<F>::new(p)?;
        let mut tableau = vec![F::ZERO; p.nrow * p.block_enc];
        let mut working = encoders.scratch();
        for (i, row) in tableau.chunks_exact_mut(p.block_enc).enumerate() {
            encoders.encode(p, i, &self.row(p, i, p.dblock), row, &mut working);
        }
        Ok(tableau)
    }
}

/// The two row encoders of the tableau, and which row uses which: the one
/// place that rule lives, for the commitment and for re-encoding.
pub(crate) struct Encoders<F: RsField> {
    block: F::Encoder,
    dblock: F::Encoder,
}

impl<F: RsField> Encoders<F> {
    pub(crate) fn new(p: &LigeroParams) -> Result<Self, LigeroError> {
        Ok(Self {
            block: F::rs_encoder(p.block, p.block_enc)?,
            dblock: F::rs_encoder(p.dblock, p.block_enc)?,
        })
    }

    /// Row `i`'s encoder and message length: the dot and quadratic blinding
    /// rows extend a whole double block, every other row one block.
    pub(crate) fn for_row(&self, p: &LigeroParams, i: usize) -> (&F::Encoder, usize) {
        if i == IDOT || i == IQUAD {
            (&self.dblock, p.dblock)
        } else {
            (&self.block, p.block)
        }
    }

    /// Working memory for either encoder: the double-block encoder's, which
    /// is the larger (the additive FFT works in blocks of `k` rounded up to
    /// a power of two, so `dblock` rows need twice what `block` rows do; the
    /// prime FFT's size follows `n`, the same for both). The block encoder's
    /// would grow on the first `dblock` row, on whichever thread ran it.
    pub(crate) fn scratch(&self) -> <F::Encoder as RsEncoder<F>>::Scratch {
        self.dblock.scratch()
    }

    /// Writes row `i`'s encoding into `out` (`block_enc` entries) from its
    /// prefix (at least the row's message length), as `commit` encoded it.
    fn encode(
        &self,
        p: &LigeroParams,
        i: usize,
        prefix: &[F],
        out: &mut [F],
        scratch: &mut <F::Encoder as RsEncoder<F>>::Scratch,
    ) {
        let (encoder, message) = self.for_row(p, i);
        out[..message].copy_from_slice(&prefix[..message]);
        encoder.extend_with(out, scratch);
    }
}

/// Appends the subfield encoding of every entry of `prefix` (`width` bytes
/// each) to `out` and returns true, or leaves `out` as it was and returns
/// false if some entry lies outside the subfield. Every entry is encoded
/// either way, so the time does not depend on which one is outside.
fn pack_into<F: Field>(prefix: &[F], width: usize, out: &mut Vec<u8>) -> bool {
    let before = out.len();
    out.resize(before + prefix.len() * width, 0);
    let mut inside = true;
    for (e, chunk) in prefix.iter().zip(out[before..].chunks_exact_mut(width)) {
        inside &= e.write_subfield_bytes(chunk);
    }
    if !inside {
        out.truncate(before);
    }
    inside
}
