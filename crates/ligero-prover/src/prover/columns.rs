//! What the prover keeps of its tableau after committing, and how it gets
//! the opened columns back.
//!
//! The encoded tableau (`nrow × block_enc`) is only needed whole while the
//! Merkle leaves are hashed. Afterwards the responses read each row's first
//! `dblock` entries, and the opening reads `nreq` committed columns. Keeping
//! only the prefixes (a third of the tableau or less) and re-encoding the
//! rows once at the end lowers the memory the prover holds through the
//! outer protocol (the sumcheck), which is when the process peaks.

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
pub(crate) struct KeptRows<F> {
    /// Entries kept per row: `block_enc` or `dblock`.
    stride: usize,
    /// `nrow × stride`, row-major.
    entries: Vec<F>,
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
            entries: tableau,
        }
    }

    /// Moves each row's first `dblock` entries to the front and gives the
    /// rest of the buffer back to the allocator, so the full tableau is not
    /// held alongside its prefixes even for a moment.
    pub(crate) fn prefixes(p: &LigeroParams, mut tableau: Vec<F>) -> Self {
        for row in 1..p.nrow {
            let start = row * p.block_enc;
            tableau.copy_within(start..start + p.dblock, row * p.dblock);
        }
        tableau.truncate(p.nrow * p.dblock);
        tableau.shrink_to_fit();
        Self {
            stride: p.dblock,
            entries: tableau,
        }
    }

    /// Row `i`'s first `dblock` encoded entries.
    pub(crate) fn row(&self, p: &LigeroParams, i: usize) -> &[F] {
        &self.entries[i * self.stride..i * self.stride + p.dblock]
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
                .entries
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
            let mut picked = Vec::with_capacity(rows.len() * idx.len());
            for row in rows {
                encoders.encode(p, row, self.row(p, row), &mut scratch);
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
            return Ok(self.entries);
        }
        let encoders = Encoders::<F>::new(p)?;
        let mut tableau = vec![F::ZERO; p.nrow * p.block_enc];
        for (i, row) in tableau.chunks_exact_mut(p.block_enc).enumerate() {
            encoders.encode(p, i, self.row(p, i), row);
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

    /// Writes row `i`'s encoding into `out` (`block_enc` entries) from its
    /// prefix, as `commit` encoded it.
    fn encode(&self, p: &LigeroParams, i: usize, prefix: &[F], out: &mut [F]) {
        let (encoder, message) = self.for_row(p, i);
        out[..message].copy_from_slice(&prefix[..message]);
        encoder.extend(out);
    }
}
