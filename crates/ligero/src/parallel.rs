//! The hot loops (row encoding, leaf hashing, re-encoding for the opening)
//! run on rayon when the `parallel` feature is on. Each item is computed
//! independently and written to its own slot, so the result is identical to
//! the serial path.

#[cfg(feature = "prover")]
use longfellow_reed_solomon::RsEncoder;

/// Extends every `n`-element row of `rows` in place, row `i` with
/// `encoder_of(i)`.
#[cfg(feature = "prover")]
pub(crate) fn extend_rows<'e, F, E>(
    rows: &mut [F],
    n: usize,
    encoder_of: impl Fn(usize) -> &'e E + Sync,
) where
    F: Send,
    E: RsEncoder<F> + Sync + 'e,
{
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        rows.par_chunks_mut(n)
            .enumerate()
            .for_each(|(i, row)| encoder_of(i).extend(row));
    }
    #[cfg(not(feature = "parallel"))]
    for (i, row) in rows.chunks_mut(n).enumerate() {
        encoder_of(i).extend(row);
    }
}

/// `(0..count).map(f).collect()`, in parallel when enabled.
pub(crate) fn map_indices<T, G>(count: usize, f: G) -> Vec<T>
where
    T: Send,
    G: Fn(usize) -> T + Sync + Send,
{
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        (0..count).into_par_iter().map(f).collect()
    }
    #[cfg(not(feature = "parallel"))]
    (0..count).map(f).collect()
}

/// How many threads [`map_indices`] can spread work over.
#[cfg(feature = "prover")]
pub(crate) fn task_count() -> usize {
    #[cfg(feature = "parallel")]
    {
        rayon::current_num_threads()
    }
    #[cfg(not(feature = "parallel"))]
    1
}
