//! Data-parallel helpers with a serial twin: the only place in the
//! workspace that names rayon (the CLI's thread-pool option aside).
//!
//! With the default `parallel` feature the loops run on rayon's current
//! pool; without it every helper is the plain serial loop. Work is cut into
//! fixed-size chunks (`MIN_CHUNK` items, independent of the thread count)
//! or written item by item to its own slot. Field arithmetic is exact, so
//! combining partial results in any order yields the same bytes as the
//! serial loop; the fixed chunking additionally keeps the combination order
//! itself reproducible.
//!
//! Shared by the verifier (Ligero's column checks) and the prover
//! (sumcheck, Ligero's tableau, Merkle hashing); it holds no protocol code.
#![forbid(unsafe_code)]

use core::ops::Range;

use longfellow_field::Field;

/// Items per chunk below which splitting is not worth a task.
pub const MIN_CHUNK: usize = 1 << 12;

/// Calls `f(start, chunk)` for consecutive chunks of `data`.
pub fn for_each_chunk_mut<T: Send, G>(data: &mut [T], chunk: usize, f: G)
where
    G: Fn(usize, &mut [T]) + Sync + Send,
{
    #[cfg(feature = "parallel")]
    {
        if data.len() > chunk {
            use rayon::prelude::*;
            data.par_chunks_mut(chunk)
                .enumerate()
                .for_each(|(c, part)| f(c * chunk, part));
            return;
        }
    }
    let _ = chunk;
    f(0, data);
}

/// Calls `f(i, row, state)` for each consecutive `n`-item row `i` of
/// `rows`, the rows cut into one contiguous run per element of `states`,
/// each run a task of its own that uses only its own state.
///
/// For loops whose tasks need working memory: the caller allocates the
/// states (one per thread, [`threads`]), on its own thread. A buffer that a
/// helper thread allocates and frees stays in that thread's malloc arena,
/// which raised the two-thread prover's peak.
///
/// # Panics
///
/// If `states` is empty while there are rows, or `n` is 0.
pub fn for_each_row_mut_with<T: Send, S: Send, G>(rows: &mut [T], n: usize, states: &mut [S], f: G)
where
    G: Fn(usize, &mut [T], &mut S) + Sync + Send,
{
    assert!(n > 0, "rows of no items");
    let total = rows.len().div_ceil(n);
    if total == 0 {
        return;
    }
    assert!(!states.is_empty(), "rows but no state to run them with");
    let per = total.div_ceil(states.len());
    let run = |k: usize, part: &mut [T], state: &mut S| {
        for (j, row) in part.chunks_mut(n).enumerate() {
            f(k * per + j, row, state);
        }
    };
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        rows.par_chunks_mut(per * n)
            .zip(states.par_iter_mut())
            .enumerate()
            .for_each(|(k, (part, state))| run(k, part, state));
    }
    #[cfg(not(feature = "parallel"))]
    for (k, (part, state)) in rows.chunks_mut(per * n).zip(states.iter_mut()).enumerate() {
        run(k, part, state);
    }
}

/// Sets `slots[k] = f(k)` for every slot, tasks taking at least `min_len`
/// slots each.
pub fn fill_indexed<T: Send, G>(slots: &mut [T], min_len: usize, f: G)
where
    G: Fn(usize) -> T + Sync + Send,
{
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        slots
            .par_iter_mut()
            .enumerate()
            .with_min_len(min_len.max(1))
            .for_each(|(k, slot)| *slot = f(k));
    }
    #[cfg(not(feature = "parallel"))]
    {
        let _ = min_len;
        for (k, slot) in slots.iter_mut().enumerate() {
            *slot = f(k);
        }
    }
}

/// Bytes below which [`refill`] writes on the calling thread alone.
pub const FILL_SPLIT_BYTES: usize = 1 << 18;

/// `v.clear(); v.resize(n, value)`, with the writes shared among the pool's
/// threads once they reach [`FILL_SPLIT_BYTES`].
///
/// Why: the prover's large buffers (the Ligero tableau, a layer's bound
/// form, its evaluated wires) are set to a placeholder before a parallel
/// pass overwrites them. On a fresh allocation that first write is also
/// the first touch of every page, so the kernel's page faults and page
/// clearing happen inside it: measured on two threads, the worker sat
/// idle for a fifth of its waiting time while the main thread ran such
/// `memset`s and their faults. Shared, both cores take their part.
pub fn refill<T: Clone + Send + Sync>(v: &mut Vec<T>, n: usize, value: T) {
    v.clear();
    #[cfg(feature = "parallel")]
    {
        let bytes = n.saturating_mul(core::mem::size_of::<T>());
        if threads() > 1 && bytes >= FILL_SPLIT_BYTES {
            use rayon::prelude::*;
            let per_task = (FILL_SPLIT_BYTES / 4 / core::mem::size_of::<T>().max(1)).max(1);
            v.par_extend(rayon::iter::repeat_n(value, n).with_min_len(per_task));
            return;
        }
    }
    v.resize(n, value);
}

/// A vector of `n` copies of `value`, written as [`refill`] writes.
pub fn filled<T: Clone + Send + Sync>(n: usize, value: T) -> Vec<T> {
    let mut v = Vec::new();
    refill(&mut v, n, value);
    v
}

/// `(0..count).map(f).collect()`, each index on any thread.
pub fn map_indices<T, G>(count: usize, f: G) -> Vec<T>
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

/// `items.into_iter().map(f).collect()`, each item on any thread; the
/// results keep the items' order.
pub fn map_vec<T, R, G>(items: Vec<T>, f: G) -> Vec<R>
where
    T: Send,
    R: Send,
    G: Fn(T) -> R + Sync + Send,
{
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        items.into_par_iter().map(f).collect()
    }
    #[cfg(not(feature = "parallel"))]
    items.into_iter().map(f).collect()
}

/// Sorts `items` by `key` (unstable: equal keys in any order, so only for
/// keys that identify an item, or where their order does not matter).
pub fn sort_unstable_by_key<T: Send, K: Ord, G>(items: &mut [T], key: G)
where
    G: Fn(&T) -> K + Sync + Send,
{
    #[cfg(feature = "parallel")]
    {
        use rayon::slice::ParallelSliceMut;
        items.par_sort_unstable_by_key(key);
    }
    #[cfg(not(feature = "parallel"))]
    items.sort_unstable_by_key(key);
}

/// Sums `(x, y)` pairs computed by `f` over chunks of `0..n`.
pub fn sum_pairs<F: Field, G>(n: usize, chunk: usize, f: G) -> (F, F)
where
    G: Fn(Range<usize>) -> (F, F) + Sync + Send,
{
    #[cfg(feature = "parallel")]
    {
        if n > chunk {
            use rayon::prelude::*;
            let nchunks = n.div_ceil(chunk);
            let parts: Vec<(F, F)> = (0..nchunks)
                .into_par_iter()
                .map(|c| f(c * chunk..n.min((c + 1) * chunk)))
                .collect();
            return parts
                .into_iter()
                .fold((F::ZERO, F::ZERO), |(a, b), (x, y)| (a + x, b + y));
        }
    }
    let _ = chunk;
    f(0..n)
}

/// Runs `a` and `b`, on two threads when the pool has them.
pub fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    #[cfg(feature = "parallel")]
    {
        if threads() > 1 {
            return rayon::join(a, b);
        }
    }
    (a(), b())
}

/// Runs `f` while the pool's other workers poll for work instead of
/// going to sleep between parallel loops.
///
/// A proof runs thousands of parallel loops of well under a millisecond
/// each, separated by short serial stretches (transcript, small rounds).
/// Rayon puts an idle worker to sleep after a few dozen yields, and waking
/// it again costs a futex wake-up and, under a hypervisor, an
/// inter-processor interrupt: measured on a 2-vCPU KVM guest, a worker
/// idle for 200 µs took so long to wake that a `join` of two 500 µs
/// halves ran in 1060 µs, i.e. serially. Polling keeps the second core
/// busy (and its CPU time counted) for the duration of `f` only.
///
/// Each polling worker executes whatever it finds (`rayon::yield_now`)
/// and gives up after [`POLL_IDLE_LIMIT`] without finding any, so a
/// worker that picked the poll job up while itself waiting inside a
/// nested loop holds that loop up for at most that long. The thread
/// running `f` never polls. Results do not depend on which thread runs
/// what, so the bytes are those of the plain loops.
pub fn with_workers_polling<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(feature = "parallel")]
    {
        if threads() > 1 {
            use core::sync::atomic::{AtomicBool, Ordering};
            use std::sync::Arc;
            struct Stop(Arc<AtomicBool>);
            impl Drop for Stop {
                fn drop(&mut self) {
                    self.0.store(true, Ordering::Relaxed);
                }
            }
            let stop = Stop(Arc::new(AtomicBool::new(false)));
            let flag = Arc::clone(&stop.0);
            let owner = rayon::current_thread_index();
            rayon::spawn_broadcast(move |ctx| {
                if Some(ctx.index()) != owner {
                    poll_until(&flag);
                }
            });
            return f();
        }
    }
    f()
}

/// How long a polling worker keeps looking for work that does not come
/// (see [`with_workers_polling`]).
pub const POLL_IDLE_LIMIT: core::time::Duration = core::time::Duration::from_millis(50);

/// Workers polling right now (for tests: that polling starts and stops).
#[cfg(feature = "parallel")]
static POLLING: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(0);

/// How many workers are polling for [`with_workers_polling`] right now.
pub fn polling_workers() -> usize {
    #[cfg(feature = "parallel")]
    {
        POLLING.load(core::sync::atomic::Ordering::Relaxed)
    }
    #[cfg(not(feature = "parallel"))]
    {
        0
    }
}

#[cfg(feature = "parallel")]
fn poll_until(stop: &core::sync::atomic::AtomicBool) {
    use core::sync::atomic::Ordering;
    use std::time::Instant;
    POLLING.fetch_add(1, Ordering::Relaxed);
    struct Done;
    impl Drop for Done {
        fn drop(&mut self) {
            POLLING.fetch_sub(1, Ordering::Relaxed);
        }
    }
    let _done = Done;
    let mut idle_since = Instant::now();
    while !stop.load(Ordering::Relaxed) {
        match rayon::yield_now() {
            Some(rayon::Yield::Executed) => idle_since = Instant::now(),
            _ => {
                if idle_since.elapsed() >= POLL_IDLE_LIMIT {
                    return;
                }
                for _ in 0..32 {
                    core::hint::spin_loop();
                }
            }
        }
    }
}

/// Number of worker threads the parallel paths may use.
pub fn threads() -> usize {
    #[cfg(feature = "parallel")]
    {
        rayon::current_num_threads().max(1)
    }
    #[cfg(not(feature = "parallel"))]
    {
        1
    }
}

/// The split size for loops doing a few products of `F` per item:
/// [`MIN_CHUNK`] items, a quarter of that for fields wider than 128 bits.
/// A P-256 (Montgomery, four-limb) product costs several times a
/// GF(2^128) carry-less one, so the signature circuit's rounds, whose
/// forms mostly hold 1 K to 8 K entries, are worth splitting well below
/// the binary field's threshold.
pub fn split_len<F>() -> usize {
    if core::mem::size_of::<F>() > 16 {
        MIN_CHUNK / 4
    } else {
        MIN_CHUNK
    }
}

/// How many parts to split `n` items of `F` work into: one per thread, but
/// none smaller than [`split_len`]`::<F>()`.
pub fn parts_of<F>(n: usize) -> usize {
    threads().min(n / split_len::<F>()).max(1)
}

fn split_ranges(n: usize, parts: usize) -> Vec<Range<usize>> {
    (0..parts)
        .map(|c| (c * n / parts)..((c + 1) * n / parts))
        .collect()
}

/// Whether `work` products of `F` pay for splitting a scatter-add into
/// `len` output slots: each extra part costs about two additions per slot
/// (zeroing its accumulator, adding it in). A GF(2^128) carry-less product
/// costs a few additions, a P-256 (four-limb Montgomery) one some twenty,
/// so the wider field splits at a quarter of the narrower one's work.
/// The one rule for [`Scatter::run`] and the callers that cut their own
/// ranges for [`Scatter::compact_and_scatter`].
pub fn scatter_pays<F>(work: usize, len: usize) -> bool {
    let weight = if core::mem::size_of::<F>() > 16 { 4 } else { 1 };
    work.saturating_mul(weight) >= len.saturating_mul(2)
}

/// Scatter-add with private accumulators: each part of the item range adds
/// into its own zeroed buffer of the output's length, then the buffers are
/// summed into the output. The buffers are kept between calls.
#[derive(Debug, Default)]
pub struct Scatter<F> {
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    extra: Vec<Vec<F>>,
}

impl<F: Field> Scatter<F> {
    /// No buffers yet; they grow on first use.
    pub fn new() -> Self {
        Self { extra: Vec::new() }
    }

    /// Zeroes `out`, then runs `f(range, acc)` over parts of `0..n_items`,
    /// where `acc` starts zeroed and is finally added into `out`.
    ///
    /// `work` estimates the multiplications `f` does in total; it is
    /// split only when [`scatter_pays`] says so.
    pub fn run<G>(&mut self, n_items: usize, work: usize, out: &mut [F], f: G)
    where
        G: Fn(Range<usize>, &mut [F]) + Sync + Send,
    {
        let parts = if scatter_pays::<F>(work, out.len()) {
            parts_of::<F>(n_items)
        } else {
            1
        };
        if parts <= 1 {
            out.fill(F::ZERO);
            f(0..n_items, out);
            return;
        }
        #[cfg(feature = "parallel")]
        {
            let ranges = split_ranges(n_items, parts);
            let len = out.len();
            self.reserve_extras(parts - 1, len);
            let extra = &mut self.extra[..parts - 1];
            let f = &f;
            rayon::scope(|s| {
                for (buf, range) in extra.iter_mut().zip(ranges[1..].iter().cloned()) {
                    s.spawn(move |_| {
                        buf.clear();
                        buf.resize(len, F::ZERO);
                        f(range, buf);
                    });
                }
                out.fill(F::ZERO);
                f(ranges[0].clone(), out);
            });
            self.add_extras(parts - 1, out);
        }
        #[cfg(not(feature = "parallel"))]
        {
            let _ = split_ranges;
            out.fill(F::ZERO);
            f(0..n_items, out);
        }
    }

    /// Empties the first `n` private buffers and gives each room for `len`
    /// values, allocating here, on the calling thread: a buffer grown
    /// inside a parallel task would come from (and, once freed, stay in)
    /// the worker thread's malloc arena, raising the peak RSS. The tasks
    /// then only zero-fill within the capacity.
    fn reserve_extras(&mut self, n: usize, len: usize) {
        if self.extra.len() < n {
            self.extra.resize_with(n, Vec::new);
        }
        for buf in &mut self.extra[..n] {
            buf.clear();
            if buf.capacity() < len {
                // Free the small buffer before taking the large one, so
                // the two never coexist.
                *buf = Vec::new();
                *buf = Vec::with_capacity(len);
            }
        }
    }

    /// Adds the first `n` private buffers into `out`.
    fn add_extras(&self, n: usize, out: &mut [F]) {
        let extra = &self.extra[..n];
        for_each_chunk_mut(out, MIN_CHUNK, |start, chunk| {
            for buf in extra {
                for (o, x) in chunk.iter_mut().zip(&buf[start..]) {
                    *o += *x;
                }
            }
        });
    }

    /// Frees the private buffers.
    pub fn release(&mut self) {
        self.extra = Vec::new();
    }

    /// [`compact_ranges`] where each range also scatter-adds into its own
    /// zeroed accumulator of `out`'s length; the accumulators are summed
    /// into `out` (which is zeroed first). Returns the total kept.
    pub fn compact_and_scatter<A, B, G>(
        &mut self,
        a: &mut [A],
        b: &mut [B],
        cuts: &[usize],
        out: &mut [F],
        f: G,
    ) -> usize
    where
        A: Copy + Send + Sync,
        B: Copy + Send + Sync,
        G: Fn(&mut [A], &mut [B], &mut [F]) -> usize + Sync + Send,
    {
        let nparts = cuts.len().saturating_sub(1);
        if nparts <= 1 {
            out.fill(F::ZERO);
            return f(a, b, out);
        }
        let mut kept = vec![0usize; nparts];
        let len = out.len();
        self.reserve_extras(nparts - 1, len);
        {
            let mut pieces = Vec::with_capacity(nparts);
            let mut rest_a: &mut [A] = &mut *a;
            let mut rest_b: &mut [B] = &mut *b;
            for i in 0..nparts {
                let n = cuts[i + 1] - cuts[i];
                let (pa, ra) = core::mem::take(&mut rest_a).split_at_mut(n);
                let (pb, rb) = core::mem::take(&mut rest_b).split_at_mut(n);
                pieces.push((pa, pb));
                rest_a = ra;
                rest_b = rb;
            }
            #[cfg(feature = "parallel")]
            {
                use rayon::prelude::*;
                let (first, others) = pieces.split_at_mut(1);
                let (k0, kothers) = kept.split_at_mut(1);
                let extra = &mut self.extra[..nparts - 1];
                let f = &f;
                // `out` is zeroed inside the first task, beside the
                // others' zeroing of their buffers, not before both start.
                rayon::join(
                    || {
                        let (pa, pb) = &mut first[0];
                        out.fill(F::ZERO);
                        k0[0] = f(pa, pb, out);
                    },
                    || {
                        others
                            .par_iter_mut()
                            .zip(extra.par_iter_mut())
                            .zip(kothers.par_iter_mut())
                            .for_each(|(((pa, pb), buf), k)| {
                                buf.clear();
                                buf.resize(len, F::ZERO);
                                *k = f(pa, pb, buf);
                            });
                    },
                );
            }
            #[cfg(not(feature = "parallel"))]
            for (((pa, pb), k), i) in pieces.into_iter().zip(kept.iter_mut()).zip(0..) {
                if i == 0 {
                    out.fill(F::ZERO);
                    *k = f(pa, pb, out);
                } else {
                    let buf = &mut self.extra[i - 1];
                    buf.clear();
                    buf.resize(len, F::ZERO);
                    *k = f(pa, pb, buf);
                }
            }
        }
        self.add_extras(nparts - 1, out);
        close_gaps(a, b, cuts, &kept)
    }
}

/// Runs an in-place compaction `f` on each range `cuts[i]..cuts[i+1]` of the
/// paired arrays (in parallel), then closes the gaps. `f` returns how many
/// entries it kept at the front of its range. Returns the total kept.
pub fn compact_ranges<A, B, G>(a: &mut [A], b: &mut [B], cuts: &[usize], f: G) -> usize
where
    A: Copy + Send + Sync,
    B: Copy + Send + Sync,
    G: Fn(&mut [A], &mut [B]) -> usize + Sync + Send,
{
    let nparts = cuts.len().saturating_sub(1);
    let mut kept = vec![0usize; nparts];
    {
        let mut pieces = Vec::with_capacity(nparts);
        let mut rest_a: &mut [A] = &mut *a;
        let mut rest_b: &mut [B] = &mut *b;
        for i in 0..nparts {
            let len = cuts[i + 1] - cuts[i];
            let (pa, ra) = core::mem::take(&mut rest_a).split_at_mut(len);
            let (pb, rb) = core::mem::take(&mut rest_b).split_at_mut(len);
            pieces.push((pa, pb));
            rest_a = ra;
            rest_b = rb;
        }
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            pieces
                .into_par_iter()
                .zip(kept.par_iter_mut())
                .for_each(|((pa, pb), k)| *k = f(pa, pb));
        }
        #[cfg(not(feature = "parallel"))]
        for ((pa, pb), k) in pieces.into_iter().zip(kept.iter_mut()) {
            *k = f(pa, pb);
        }
    }
    close_gaps(a, b, cuts, &kept)
}

/// Moves the `kept[i]` entries at the front of each range `cuts[i]..` of
/// both arrays down to follow the previous ranges' kept entries. Returns
/// the total kept.
fn close_gaps<A: Copy + Send + Sync, B: Copy + Send + Sync>(
    a: &mut [A],
    b: &mut [B],
    cuts: &[usize],
    kept: &[usize],
) -> usize {
    let mut wr = 0;
    for (i, &k) in kept.iter().enumerate() {
        let start = cuts[i];
        if wr != start {
            move_down(a, start, k, wr);
            move_down(b, start, k, wr);
        }
        wr += k;
    }
    wr
}

/// `data.copy_within(from..from + k, to)` for `to < from`, split across
/// threads once it is long enough. Binding halves a range, so the kept
/// entries usually move by at least their own number and source and
/// target are disjoint. When a range merged few entries they overlap; the
/// copy then runs in stages of the move's distance, each of which reads
/// only entries no earlier stage wrote and writes only entries already
/// read (a serial overlapping `memmove` was ≈ 6 ms of a two-thread proof
/// with the other thread idle).
fn move_down<T: Copy + Send + Sync>(data: &mut [T], from: usize, k: usize, to: usize) {
    #[cfg(feature = "parallel")]
    {
        let distance = from - to;
        if distance >= 2 * MIN_CHUNK && k >= 2 * MIN_CHUNK && threads() > 1 {
            use rayon::prelude::*;
            let mut done = 0;
            while done < k {
                let n = distance.min(k - done);
                // Target `to + done ..` ends at or before `from + done`,
                // where this stage's source starts.
                let (low, high) = data.split_at_mut(from + done);
                let dst = &mut low[to + done..to + done + n];
                let src = &high[..n];
                if n >= 2 * MIN_CHUNK {
                    dst.par_chunks_mut(MIN_CHUNK)
                        .zip(src.par_chunks(MIN_CHUNK))
                        .for_each(|(d, s)| d.copy_from_slice(s));
                } else {
                    dst.copy_from_slice(src);
                }
                done += n;
            }
            return;
        }
    }
    data.copy_within(from..from + k, to);
}
