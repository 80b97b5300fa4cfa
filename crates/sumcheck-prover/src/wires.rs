//! Wire values kept between a layer's evaluation and its sumcheck.
//!
//! The prover evaluates the whole circuit before proving the first layer,
//! so every layer's wires wait in memory; at full width that is ≈ 55 MB for
//! the mdoc hash circuit, and its largest layers are still waiting when the
//! biggest bound form is built. Those layers take very few distinct values
//! (mostly 0 and 1, plus a few hundred or thousand others: SHA-256 runs on
//! bits), so a layer is stored as one- or two-byte indices into a table of
//! its distinct values whenever that is much smaller. Reading a wire is one
//! table lookup, which the first sumcheck round does directly (see
//! [`WireRead`]); later rounds work on bound values, which are dense.

use std::borrow::Cow;

use longfellow_field::Field;

use longfellow_par as par;

use crate::dense::bind_wires_into;
use crate::rounds::RoundStrategy;

/// Largest table a two-byte index can address.
const MAX_TABLE: usize = 1 << 16;

/// The prover's storage thresholds. The defaults are what proofs use;
/// tests lower them so that small circuits take every path.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Layers shorter than this stay dense: too small to matter.
    pub min_coded_len: usize,
    /// A layer is table-coded only if it has at most `len / table_divisor`
    /// distinct values (a table entry costs as much as eight two-byte
    /// indices, so the default gives up once the table would eat most of
    /// the saving).
    pub table_divisor: usize,
    /// Per-wire buffers of at least this many bytes are avoided: sumcheck
    /// half-rounds whose contraction buffer would be this big read the
    /// bound form directly instead, and layers whose output-wire weights
    /// would be this big keep them factored.
    pub direct_min_bytes: usize,
    /// How each layer's round polynomials are computed (see
    /// [`crate::rounds`]); proofs are the same under every strategy.
    pub strategy: RoundStrategy,
}

impl Default for Tuning {
    fn default() -> Self {
        Self {
            min_coded_len: 1 << 14,
            table_divisor: 8,
            direct_min_bytes: 2 << 20,
            strategy: RoundStrategy::Auto,
        }
    }
}

impl Tuning {
    /// Every layer coded whenever a table can hold it and every round read
    /// from the form: for tests.
    pub fn eager() -> Self {
        Self {
            min_coded_len: 1,
            table_divisor: 1,
            direct_min_bytes: 0,
            strategy: RoundStrategy::Auto,
        }
    }
}

/// A layer's distinct values and each wire's position among them.
pub(crate) struct Coding<F> {
    table: Vec<F>,
    index: Vec<u16>,
}

/// One layer's wires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireArray<F> {
    /// Every value stored.
    Dense(Vec<F>),
    /// `table[index[i]]`, at most 256 distinct values.
    Byte { table: Vec<F>, index: Vec<u8> },
    /// `table[index[i]]`, at most 65 536 distinct values.
    Short { table: Vec<F>, index: Vec<u16> },
}

impl<F: Field> WireArray<F> {
    /// Stores `values` as compactly as the default [`Tuning`] allows.
    #[cfg_attr(not(feature = "reference"), allow(dead_code))]
    pub fn compress(values: Vec<F>) -> Self {
        Self::compress_tuned(values, &Tuning::default())
    }

    /// Stores `values` table-coded if `tuning` allows, else dense.
    pub fn compress_tuned(values: Vec<F>, tuning: &Tuning) -> Self {
        let index = Self::index_buffer(values.len(), tuning);
        let coding = Self::coding_of(&values, tuning, index);
        Self::with_coding(values, coding)
    }

    /// An empty index buffer for [`Self::coding_of`] on `n` values, sized
    /// for them when they may be coded. Allocating it on the thread that
    /// keeps the result (rather than on a helper thread) keeps glibc from
    /// parking the freed buffer in a second arena.
    pub(crate) fn index_buffer(n: usize, tuning: &Tuning) -> Vec<u16> {
        if Self::may_code(n, tuning) {
            Vec::with_capacity(n)
        } else {
            Vec::new()
        }
    }

    /// Whether `n` values are long enough for `tuning` to try coding them.
    fn may_code(n: usize, tuning: &Tuning) -> bool {
        n != 0 && n >= tuning.min_coded_len
    }

    /// The table coding of `values` that `tuning` allows (`None`: keep them
    /// dense), its index written into `index` (from
    /// [`Self::index_buffer`]). Only reads `values`, so it can run beside
    /// other readers.
    pub(crate) fn coding_of(values: &[F], tuning: &Tuning, index: Vec<u16>) -> Option<Coding<F>> {
        let n = values.len();
        if !Self::may_code(n, tuning) {
            return None;
        }
        // Zero and one always have table entries.
        let limit = (n / tuning.table_divisor.max(1) + 2).min(MAX_TABLE);
        Dictionary::build(values, limit, index).map(|(table, index)| Coding { table, index })
    }

    /// `values` stored as `coding` (from [`Self::coding_of`] on the same
    /// values) says; the dense values are dropped once coded.
    pub(crate) fn with_coding(values: Vec<F>, coding: Option<Coding<F>>) -> Self {
        match coding {
            None => Self::Dense(values),
            Some(Coding { table, index }) if table.len() <= 256 => Self::Byte {
                table,
                // Every index is below 256 here.
                index: index.into_iter().map(|i| i as u8).collect(),
            },
            Some(Coding { table, index }) => Self::Short { table, index },
        }
    }

    /// Bytes the stored values and codes hold (their lengths; what
    /// freeing the array at least gives back).
    pub(crate) fn heap_bytes(&self) -> usize {
        match self {
            Self::Dense(v) => v.len() * size_of::<F>(),
            Self::Byte { table, index } => table.len() * size_of::<F>() + index.len(),
            Self::Short { table, index } => table.len() * size_of::<F>() + 2 * index.len(),
        }
    }

    /// Number of wires.
    pub fn len(&self) -> usize {
        match self {
            Self::Dense(v) => v.len(),
            Self::Byte { index, .. } => index.len(),
            Self::Short { index, .. } => index.len(),
        }
    }

    /// Whether there are no wires.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Wire `i`.
    pub fn at(&self, i: usize) -> F {
        match self {
            Self::Dense(v) => v[i],
            Self::Byte { table, index } => table[index[i] as usize],
            Self::Short { table, index } => table[index[i] as usize],
        }
    }

    /// All wires, dense (borrowed when already dense).
    pub fn to_dense(&self) -> Cow<'_, [F]> {
        match self {
            Self::Dense(v) => Cow::Borrowed(v),
            Self::Byte { table, index } => {
                Cow::Owned(index.iter().map(|&i| table[i as usize]).collect())
            }
            Self::Short { table, index } => {
                Cow::Owned(index.iter().map(|&i| table[i as usize]).collect())
            }
        }
    }

    /// All wires as an owned dense vector (no copy when already dense).
    pub fn into_dense(self) -> Vec<F> {
        match self {
            Self::Dense(v) => v,
            other => other.to_dense().into_owned(),
        }
    }

    /// The wires with their lowest variable bound to `r` (see
    /// [`crate::bind_into`]). A coded array stays coded when its bound
    /// pairs take few distinct values: each distinct pair of table entries
    /// is bound once. Otherwise the result is dense.
    pub fn bound(&self, r: F, tuning: &Tuning) -> Self {
        self.bound_recording(r, tuning).0
    }

    /// [`Self::bound`], and for a coded array how its pairs were numbered
    /// (see [`Pairing`]).
    pub(crate) fn bound_recording(&self, r: F, tuning: &Tuning) -> (Self, Option<Pairing>) {
        let mut out = Vec::new();
        let (table_len, coded) = match self {
            Self::Dense(_) => {
                self.bind_dense_into(r, &mut out);
                return (Self::Dense(out), None);
            }
            Self::Byte { table, index } => (table.len(), bind_coded(table, index, r, tuning)),
            Self::Short { table, index } => (table.len(), bind_coded(table, index, r, tuning)),
        };
        let (len, t) = (self.len(), table_len);
        match coded {
            Some((bound, pairs)) => {
                let pairs = Some(pairs);
                (bound, Some(Pairing { len, t, pairs }))
            }
            None => {
                self.bind_dense_into(r, &mut out);
                let pairs = None;
                (Self::Dense(out), Some(Pairing { len, t, pairs }))
            }
        }
    }

    /// The bound values, dense, into `out`.
    fn bind_dense_into(&self, r: F, out: &mut Vec<F>) {
        match self {
            Self::Dense(v) => bind_wires_into(v.as_slice(), r, out),
            Self::Byte { table, index } => bind_wires_into(&Coded::new(table, index), r, out),
            Self::Short { table, index } => bind_wires_into(&Coded::new(table, index), r, out),
        }
    }

    /// `self` bound to `r`, reusing `pairing` from binding an array with
    /// the same index, whose result was `like` (see [`Pairing`]). `None`
    /// when the shapes do not fit that (the caller then binds afresh).
    pub(crate) fn bound_reusing(&self, r: F, pairing: &Pairing, like: &Self) -> Option<Self> {
        let (table, len) = match self {
            Self::Dense(_) => return None,
            Self::Byte { table, index } => (table.as_slice(), index.len()),
            Self::Short { table, index } => (table.as_slice(), index.len()),
        };
        if len != pairing.len || table.len() != pairing.t || like.len() != len.div_ceil(2) {
            return None;
        }
        let Some(pairs) = &pairing.pairs else {
            let mut out = Vec::new();
            self.bind_dense_into(r, &mut out);
            return Some(Self::Dense(out));
        };
        let values = || -> Vec<F> {
            pairs
                .iter()
                .map(|&[a, b]| bind_pair(table, a as usize, b as usize, r))
                .collect()
        };
        match like {
            Self::Byte { table: lt, index } if lt.len() == pairs.len() => Some(Self::Byte {
                table: values(),
                index: index.clone(),
            }),
            Self::Short { table: lt, index } if lt.len() == pairs.len() => Some(Self::Short {
                table: values(),
                index: index.clone(),
            }),
            _ => None,
        }
    }
}

/// Random access to wire values, dense or table-coded; lets the first
/// sumcheck round read a stored layer without expanding it.
pub trait WireRead<F>: Sync {
    /// Number of wires.
    fn len(&self) -> usize;
    /// Wire `i`.
    fn at(&self, i: usize) -> F;
    /// Whether there are no wires.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The distinct values of a table-coded array (`None`: dense). Sums
    /// over many wires can then apply each value once per table entry.
    #[inline(always)]
    fn table(&self) -> Option<&[F]> {
        None
    }
    /// Wire `i`'s position in [`Self::table`]; only meaningful when there
    /// is a table.
    #[inline(always)]
    fn code(&self, i: usize) -> usize {
        let _ = i;
        0
    }
}

impl<F: Field> WireRead<F> for [F] {
    #[inline(always)]
    fn len(&self) -> usize {
        <[F]>::len(self)
    }
    #[inline(always)]
    fn at(&self, i: usize) -> F {
        self[i]
    }
}

/// A table-coded layer seen through its index type.
#[derive(Clone, Copy, Debug)]
pub struct Coded<'a, F, I> {
    table: &'a [F],
    index: &'a [I],
}

impl<F: Field, I: Copy + Into<usize> + Sync> WireRead<F> for Coded<'_, F, I> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.index.len()
    }
    #[inline(always)]
    fn at(&self, i: usize) -> F {
        self.table[self.index[i].into()]
    }
    #[inline(always)]
    fn table(&self) -> Option<&[F]> {
        Some(self.table)
    }
    #[inline(always)]
    fn code(&self, i: usize) -> usize {
        self.index[i].into()
    }
}

/// Calls `$body` with `$v` bound to a [`WireRead`] view of the
/// [`WireArray`] `$arr`, monomorphised per storage kind so the hot loops
/// see a concrete type.
macro_rules! with_wires {
    ($arr:expr, |$v:ident| $body:expr) => {
        match $arr {
            $crate::wires::WireArray::Dense(d) => {
                let $v: &[_] = d.as_slice();
                $body
            }
            $crate::wires::WireArray::Byte { table, index } => {
                let $v = &$crate::wires::Coded::new(table, index);
                $body
            }
            $crate::wires::WireArray::Short { table, index } => {
                let $v = &$crate::wires::Coded::new(table, index);
                $body
            }
        }
    };
}
pub(crate) use with_wires;

impl<'a, F, I> Coded<'a, F, I> {
    /// A view of `table[index[i]]`.
    pub(crate) fn new(table: &'a [F], index: &'a [I]) -> Self {
        Self { table, index }
    }
}

/// Binds a table-coded array pair by pair: pair `(a, b)` of table
/// positions (`b` = table length for a missing partner) is numbered in
/// first-seen order ([`number_pairs`]) and each distinct pair is bound
/// once, so the products are one per distinct pair. `None` when the bound
/// values would need too big a table.
fn bind_coded<F: Field, I: Copy + Into<usize> + Sync>(
    table: &[F],
    index: &[I],
    r: F,
    tuning: &Tuning,
) -> Option<(WireArray<F>, Vec<[u32; 2]>)> {
    let n = index.len().div_ceil(2);
    let limit = (n / tuning.table_divisor.max(1) + 2).min(MAX_TABLE);
    let (pairs, bound_index) = number_pairs(table.len(), index, limit)?;
    let bound_table: Vec<F> = pairs
        .iter()
        .map(|&[a, b]| bind_pair(table, a as usize, b as usize, r))
        .collect();
    let bound = if bound_table.len() <= 256 {
        WireArray::Byte {
            table: bound_table,
            index: bound_index.into_iter().map(|i| i as u8).collect(),
        }
    } else {
        WireArray::Short {
            table: bound_table,
            index: bound_index,
        }
    };
    Some((bound, pairs))
}

/// Pairs below which [`number_pairs`] stays on one thread.
const SPLIT_PAIRS: usize = 1 << 15;

/// The distinct pairs of `index`'s neighbours in first-seen order, and
/// each pair's position among them; `None` once there are more than
/// `limit`. `t` is the table length (a missing partner is `t`).
///
/// On two threads the halves are numbered separately and the second
/// half's pairs renumbered after the first half's: the pairs it saw first
/// that the first half did not see follow in its own first-seen order, so
/// the result is the one-thread numbering. (One hash look-up per pair on
/// one thread was 6 % of what the main thread ran while the helper idled
/// in a two-thread proof.)
fn number_pairs<I: Copy + Into<usize> + Sync>(
    t: usize,
    index: &[I],
    limit: usize,
) -> Option<(Vec<[u32; 2]>, Vec<u16>)> {
    let n = index.len().div_ceil(2);
    let mut out = vec![0u16; n];
    if par::threads() < 2 || n < SPLIT_PAIRS {
        let mut run = Numbering::new(t, limit);
        run.run(t, index, limit, &mut out, Growth::Allowed)?;
        return Some((run.pairs, out));
    }
    let mid = n / 2;
    let (out_lo, out_hi) = out.split_at_mut(mid);
    let (index_lo, index_hi) = index.split_at(2 * mid);
    // Nothing the helper thread allocates: both halves' buffers come from
    // this thread, and the second half stops where it would grow one, to
    // be finished here. Memory allocated on the helper stays in its malloc
    // arena once freed: a 2 MB buffer there raised the four-attribute
    // proof's peak by up to 1.7 MB in a third of the runs.
    let (mut lo, mut hi) = (Numbering::new(t, limit), Numbering::new(t, limit));
    let (lo_done, hi_done) = par::join(
        || lo.run(t, index_lo, limit, out_lo, Growth::Allowed),
        || hi.run(t, index_hi, limit, out_hi, Growth::Refused),
    );
    let (_, hi_done) = (lo_done?, hi_done?);
    if hi_done < out_hi.len() {
        let rest = index_hi.get(2 * hi_done..).unwrap_or(&[]);
        hi.run(t, rest, limit, &mut out_hi[hi_done..], Growth::Allowed)?;
    }
    let Numbering { slots, mut pairs } = lo;
    let mut renumber = Vec::with_capacity(hi.pairs.len());
    for &[a, b] in &hi.pairs {
        let pos = match slots.find(a as usize, b as usize) {
            Ok(pos) => pos,
            Err(_) => {
                if pairs.len() == limit {
                    return None;
                }
                pairs.push([a, b]);
                pairs.len() - 1
            }
        };
        renumber.push(pos as u16);
    }
    par::for_each_chunk_mut(out_hi, par::MIN_CHUNK, |_, chunk| {
        for p in chunk {
            *p = renumber[*p as usize];
        }
    });
    Some((pairs, out))
}

/// The pairs seen so far, by position, and where to find each.
struct Numbering {
    slots: PairSlots,
    pairs: Vec<[u32; 2]>,
}

impl Numbering {
    /// Empty, with room for as many pairs as the slots hold before they
    /// grow, within `limit` and what hashed slots start with: direct slots
    /// hold up to 2^18 codes, far more pairs than a binding sees, and a
    /// run that needs more grows (or, on the helper, stops).
    fn new(t: usize, limit: usize) -> Self {
        let slots = PairSlots::new(t);
        let room = match &slots {
            PairSlots::Direct(s, _) => s.len(),
            PairSlots::Hashed(s) => s.len() / 2,
        };
        Self {
            slots,
            pairs: Vec::with_capacity(room.min(limit).min(MAX_FIRST_PAIR_SLOTS / 2)),
        }
    }

    /// [`number_pairs`] on one run of pairs, written into `out` (one entry
    /// per pair), continuing this numbering. Returns how many pairs it
    /// numbered: all of them, or with [`Growth::Refused`] those before the
    /// first that would have grown a buffer.
    fn run<I: Copy + Into<usize>>(
        &mut self,
        t: usize,
        index: &[I],
        limit: usize,
        out: &mut [u16],
        growth: Growth,
    ) -> Option<usize> {
        let Self { slots, pairs } = self;
        for (i, (pair, o)) in index.chunks(2).zip(out.iter_mut()).enumerate() {
            let a: usize = pair[0].into();
            let b = pair.get(1).map_or(t, |&b| b.into());
            *o = match slots.find(a, b) {
                Ok(pos) => pos as u16,
                Err(slot) => {
                    if pairs.len() == limit {
                        return None;
                    }
                    let full = pairs.len() == pairs.capacity() || slots.full_at(pairs.len());
                    if growth == Growth::Refused && full {
                        return Some(i);
                    }
                    let pos = pairs.len();
                    pairs.push([a as u32, b as u32]);
                    slots.insert(slot, a, b, pos);
                    pos as u16
                }
            };
        }
        Some(out.len().min(index.len().div_ceil(2)))
    }
}

/// Whether [`Numbering::run`] may grow its buffers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Growth {
    Allowed,
    Refused,
}

/// `table[a]` and `table[b]` bound to `r` (`b` past the table: a missing
/// partner, zero).
#[inline]
fn bind_pair<F: Field>(table: &[F], a: usize, b: usize, r: F) -> F {
    let lo = table[a];
    match table.get(b) {
        Some(&hi) => lo + r * (hi - lo),
        None => lo - r * lo,
    }
}

/// How binding a table-coded array numbered its bound pairs, kept so that
/// an array with the *same index* can be bound without numbering them
/// again. Sumcheck binds both hands' wires bit by bit, and both start from
/// the same stored layer, so at every round the two hands' coded arrays
/// share their index and differ only in their tables: the positions are
/// first-seen order of the index's pairs, whatever the challenge. Numbering
/// is most of a coded binding's cost (one hash look-up per pair); the
/// second hand then only binds the distinct pairs and copies the index.
#[derive(Debug)]
pub(crate) struct Pairing {
    /// Length and table length of the array that was bound.
    len: usize,
    t: usize,
    /// The distinct pairs `(a, b)` of table positions, by bound position
    /// (`b = t` for a missing partner); `None` when there were too many
    /// and the binding went dense.
    pairs: Option<Vec<[u32; 2]>>,
}

/// Pair code `a·(t+1) + b` → position of the bound value.
enum PairSlots {
    /// One slot per possible code (`u32::MAX` = not seen): small tables.
    Direct(Vec<u32>, usize),
    /// Open addressing over `(code, position)`, at most half full: tables
    /// whose square would be too big to map directly. Sized from the table
    /// length and doubled as pairs arrive, not sized for the limit: a
    /// layer of the mdoc hash circuit sees 2–12 K distinct pairs where the
    /// limit allows up to 56 K, and the 2 MB of slots that limit asked for
    /// were allocated and filled on every such binding.
    Hashed(Vec<(u64, u32)>),
}

/// Fewest slots a hashed [`PairSlots`] starts with (64 KiB).
const FIRST_PAIR_SLOTS: usize = 1 << 12;

/// Most slots a hashed [`PairSlots`] starts with (512 KiB).
const MAX_FIRST_PAIR_SLOTS: usize = 1 << 15;

impl PairSlots {
    /// Slots for pairs of positions below `t`.
    fn new(t: usize) -> Self {
        let width = t + 1;
        if width * width <= 1 << 18 {
            Self::Direct(vec![u32::MAX; width * width], width)
        } else {
            // The mdoc hash circuit's hashed layers see two to six
            // distinct pairs per table entry over the whole array (fewer
            // per half): room for four per entry seldom grows.
            let n = (8 * t).next_power_of_two();
            Self::Hashed(vec![
                (u64::MAX, 0);
                n.clamp(FIRST_PAIR_SLOTS, MAX_FIRST_PAIR_SLOTS)
            ])
        }
    }

    /// The pair's position, or the slot to insert it at.
    #[inline]
    fn find(&self, a: usize, b: usize) -> Result<usize, usize> {
        match self {
            Self::Direct(slots, width) => {
                let code = a * width + b;
                match slots[code] {
                    u32::MAX => Err(code),
                    p => Ok(p as usize),
                }
            }
            Self::Hashed(slots) => {
                let code = ((a as u64) << 32) | b as u64;
                let s = Self::probe(slots, code);
                match slots[s] {
                    (c, p) if c == code => Ok(p as usize),
                    _ => Err(s),
                }
            }
        }
    }

    /// The slot holding `code`, or the empty slot where it would go.
    #[inline]
    fn probe(slots: &[(u64, u32)], code: u64) -> usize {
        let mask = slots.len() - 1;
        let mut s = (longfellow_field::mix64_once(code) as usize) & mask;
        loop {
            match slots[s].0 {
                c if c == u64::MAX || c == code => return s,
                _ => s = (s + 1) & mask,
            }
        }
    }

    /// Whether recording pair number `pos` (counting from 0) would grow
    /// the slots. The one growth rule: [`Numbering::run`] refuses by it on
    /// the helper thread, and [`Self::insert`] grows by it.
    fn full_at(&self, pos: usize) -> bool {
        match self {
            Self::Direct(..) => false,
            Self::Hashed(slots) => Self::hashed_full_at(slots, pos),
        }
    }

    /// [`Self::full_at`] for hashed slots: at most half full.
    fn hashed_full_at(slots: &[(u64, u32)], pos: usize) -> bool {
        2 * (pos + 1) > slots.len()
    }

    /// Records the pair at the slot [`Self::find`] returned; `pos` is the
    /// number of pairs recorded before it.
    fn insert(&mut self, slot: usize, a: usize, b: usize, pos: usize) {
        match self {
            Self::Direct(slots, _) => slots[slot] = pos as u32,
            Self::Hashed(slots) => {
                slots[slot] = (((a as u64) << 32) | b as u64, pos as u32);
                if Self::hashed_full_at(slots, pos) {
                    let mut grown = vec![(u64::MAX, 0); 2 * slots.len()];
                    for &(code, p) in slots.iter().filter(|e| e.0 != u64::MAX) {
                        let s = Self::probe(&grown, code);
                        grown[s] = (code, p);
                    }
                    *slots = grown;
                }
            }
        }
    }
}

/// Wires coded between two checks of the table's size limit.
const CODING_CHUNK: usize = 4096;

/// Open-addressing table from values to their first-seen position.
struct Dictionary<F> {
    table: Vec<F>,
    /// `slot → table position + 1`; 0 marks an empty slot.
    slots: Vec<u32>,
}

impl<F: Field> Dictionary<F> {
    /// The distinct values of `values` in first-seen order (0 and 1 first)
    /// and each value's position among them; `None` once more than `limit`
    /// distinct values appear.
    fn build(values: &[F], limit: usize, mut index: Vec<u16>) -> Option<(Vec<F>, Vec<u16>)> {
        let mut d = Self {
            table: Vec::new(),
            slots: vec![0; 1024],
        };
        d.insert(F::ZERO);
        d.insert(F::ONE);
        index.clear();
        index.reserve(values.len());
        // A chunk at a time, the limit checked after each: `extend` over a
        // mapped slice writes the codes without storing the vector's
        // length per wire. A chunk whose table passed the limit (and
        // whose codes may have wrapped) is discarded with everything else.
        for chunk in values.chunks(CODING_CHUNK) {
            index.extend(chunk.iter().map(|&v| d.insert(v) as u16));
            if d.table.len() > limit {
                return None;
            }
        }
        Some((d.table, index))
    }

    /// Position of `v`, adding it if new. Inlined into the coding loop,
    /// with the rare addition out of line: as a call per wire it cost
    /// a third more (18.6 against 14.1 ms over a v7/1 proof's layers).
    #[inline]
    fn insert(&mut self, v: F) -> usize {
        let mask = self.slots.len() - 1;
        let mut s = (v.hash_word() as usize) & mask;
        loop {
            match self.slots[s] {
                0 => break,
                p if self.table[p as usize - 1] == v => return p as usize - 1,
                _ => s = (s + 1) & mask,
            }
        }
        self.add(s, v)
    }

    /// Adds `v` (not present) at empty slot `s`; returns its position.
    #[cold]
    fn add(&mut self, s: usize, v: F) -> usize {
        let p = self.table.len();
        self.table.push(v);
        self.slots[s] = (p + 1) as u32;
        if 2 * self.table.len() > self.slots.len() {
            self.grow();
        }
        p
    }

    /// Doubles the slots and re-inserts every value.
    fn grow(&mut self) {
        let n = 2 * self.slots.len();
        self.slots = vec![0; n];
        let mask = n - 1;
        for (p, v) in self.table.iter().enumerate() {
            let mut s = (v.hash_word() as usize) & mask;
            while self.slots[s] != 0 {
                s = (s + 1) & mask;
            }
            self.slots[s] = (p + 1) as u32;
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use longfellow_field::{Fp256, Gf2_128};
    use proptest::prelude::*;

    fn gf(x: u128) -> Gf2_128 {
        Gf2_128::from_u128(x)
    }

    fn check_round_trip<F: Field>(values: Vec<F>, min_len: usize) -> WireArray<F> {
        let tuning = Tuning {
            min_coded_len: min_len,
            ..Tuning::default()
        };
        let w = WireArray::compress_tuned(values.clone(), &tuning);
        assert_eq!(w.len(), values.len());
        for (i, v) in values.iter().enumerate() {
            assert_eq!(w.at(i), *v);
        }
        assert_eq!(w.to_dense().as_ref(), values.as_slice());
        with_wires!(&w, |view| {
            for (i, v) in values.iter().enumerate() {
                assert_eq!(view.at(i), *v);
            }
            assert_eq!(view.len(), values.len());
        });
        assert_eq!(w.clone().into_dense(), values);
        w
    }

    #[test]
    fn few_values_take_one_byte() {
        let values: Vec<_> = (0..5000u128).map(|i| gf((i * i) % 7)).collect();
        let w = check_round_trip(values, 16);
        assert!(matches!(w, WireArray::Byte { .. }));
        assert!(w.heap_bytes() < 5000 + 16 * 8);
    }

    #[test]
    fn hundreds_of_values_take_two_bytes() {
        let values: Vec<_> = (0..20_000u128).map(|i| gf(i % 1000)).collect();
        let w = check_round_trip(values, 16);
        assert!(matches!(w, WireArray::Short { .. }));
    }

    #[test]
    fn many_values_stay_dense() {
        let values: Vec<_> = (0..20_000u128).map(|i| gf(i * 0x9e37_79b9)).collect();
        let w = check_round_trip(values, 16);
        assert!(matches!(w, WireArray::Dense(_)));
    }

    #[test]
    fn eager_tuning_codes_all_distinct_values() {
        let values: Vec<_> = (1..300u128).map(|i| gf(i * 0x9e37_79b9)).collect();
        let w = WireArray::compress_tuned(values.clone(), &Tuning::eager());
        assert!(matches!(w, WireArray::Short { .. }));
        assert_eq!(w.into_dense(), values);
    }

    fn check_bound<F: Field>(values: &[F], r: F, tuning: &Tuning) -> WireArray<F> {
        let w = WireArray::compress_tuned(values.to_vec(), tuning);
        let mut expected = Vec::new();
        crate::dense::bind_into(values, r, &mut expected);
        let b = w.bound(r, tuning);
        assert_eq!(b.to_dense().as_ref(), expected.as_slice());
        b
    }

    #[test]
    fn binding_keeps_few_values_coded() {
        let r = gf(0x1234_5678_9abc_def0_1122_3344_5566_7788);
        let tuning = Tuning {
            min_coded_len: 16,
            ..Tuning::default()
        };
        // Even and odd lengths (the last wire of an odd array has no partner).
        for n in [4000, 4001] {
            let values: Vec<_> = (0..n as u128).map(|i| gf((i * 7 + i / 3) % 5)).collect();
            let b = check_bound(&values, r, &tuning);
            assert!(matches!(b, WireArray::Byte { .. }), "n = {n}");
        }
    }

    #[test]
    fn binding_many_pairs_goes_dense_or_short() {
        let r = Fp256::from_u64(987_654_321);
        let values: Vec<_> = (0..5000u64).map(|i| Fp256::from_u64(i % 200)).collect();
        let b = check_bound(&values, r, &Tuning::eager());
        assert!(matches!(
            b,
            WireArray::Short { .. } | WireArray::Byte { .. }
        ));
        let b = check_bound(
            &values,
            r,
            &Tuning {
                min_coded_len: 16,
                table_divisor: 64,
                ..Tuning::default()
            },
        );
        assert!(matches!(b, WireArray::Dense(_)));
        // Short and dense arrays bind too.
        let wide: Vec<_> = (0..3000u64).map(|i| Fp256::from_u64(i % 1000)).collect();
        check_bound(&wide, r, &Tuning::eager());
        check_bound(&wide, r, &Tuning::default());
    }

    #[test]
    fn short_layers_stay_dense() {
        let w = check_round_trip(vec![Gf2_128::ONE; 100], Tuning::default().min_coded_len);
        assert!(matches!(w, WireArray::Dense(_)));
        check_round_trip(Vec::<Gf2_128>::new(), 0);
    }

    #[test]
    fn prime_field_values_round_trip() {
        let values: Vec<_> = (0..4000u64).map(|i| Fp256::from_u64(i % 300)).collect();
        let w = check_round_trip(values, 16);
        assert!(matches!(w, WireArray::Short { .. }));
    }

    /// The two-thread numbering of [`number_pairs`] gives the one-thread
    /// bytes, and refuses exactly when the whole array has more distinct
    /// pairs than the limit (even when neither half alone does); with a
    /// small table (direct slots) and a large one (hashed slots that grow
    /// twice, so the second half stops where it would grow them and is
    /// finished on the calling thread).
    #[cfg(feature = "parallel")]
    #[test]
    fn split_numbering_is_the_serial_one() {
        // Odd length: the last pair has no partner. The pairs drift along
        // the array, so the second half first sees pairs in another order
        // and sees some the first half never does.
        let n = 6 * SPLIT_PAIRS + 1;
        let small = |i: usize| (i * i / 7 + i / 5000) % 40;
        check_split_numbering(40, (0..n).map(small).collect(), 2);
        // 600 table entries start with 8 K hashed slots, which pairs of up
        // to 600 · 20 values outgrow twice.
        let large = |i: usize| match (i / 2, i % 2) {
            (k, 0) => (k * k / 7 + k / 2500) % 600,
            (k, _) => (k / 7) % 20,
        };
        check_split_numbering(600, (0..n).map(large).collect(), 8 << 10);
    }

    #[cfg(feature = "parallel")]
    fn check_split_numbering(t: usize, index: Vec<usize>, min_distinct: usize) {
        let index: Vec<u16> = index.into_iter().map(|x| x as u16).collect();
        let run = |threads: usize, limit: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| number_pairs(t, &index, limit))
        };
        let (pairs, out) = run(1, MAX_TABLE).unwrap();
        assert!(pairs.len() > min_distinct, "t {t}: {} pairs", pairs.len());
        let mid = index.len().div_ceil(2) / 2;
        let distinct = |range: core::ops::Range<usize>| {
            let set: std::collections::HashSet<_> = out[range].iter().collect();
            set.len()
        };
        let (lo, hi) = (distinct(0..mid), distinct(mid..out.len()));
        assert!(
            lo < pairs.len() && hi < pairs.len(),
            "{lo} {hi} {}",
            pairs.len()
        );
        for threads in [2, 3] {
            assert_eq!(run(threads, MAX_TABLE), Some((pairs.clone(), out.clone())));
            assert_eq!(
                run(threads, pairs.len()),
                Some((pairs.clone(), out.clone()))
            );
            assert_eq!(run(threads, pairs.len() - 1), None);
            assert_eq!(run(threads, lo.max(hi)), None);
        }
        // Positions are first-seen order.
        let mut seen = 0;
        for (i, &p) in out.iter().enumerate() {
            assert!((p as usize) <= seen, "pair {i}");
            seen = seen.max(p as usize + 1);
            let a = index[2 * i] as u32;
            let b = index.get(2 * i + 1).map_or(t as u32, |&b| b as u32);
            assert_eq!(pairs[p as usize], [a, b]);
        }
    }

    proptest! {
        #[test]
        fn any_values_round_trip(
            raw in proptest::collection::vec(0u8..40, 0..3000),
            wide in any::<u128>(),
        ) {
            let values: Vec<_> = raw
                .iter()
                .map(|&b| gf(u128::from(b).wrapping_mul(wide)))
                .collect();
            let w = check_round_trip(values.clone(), 8);
            let mut expected = Vec::new();
            crate::dense::bind_into(&values, gf(wide), &mut expected);
            prop_assert_eq!(w.bound(gf(wide), &Tuning::eager()).into_dense(), expected);
        }
    }
}
