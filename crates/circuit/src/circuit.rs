//! The in-memory circuit shared by prover and verifier.
//!
//! A layer is kept in the compact form LFC2 uses on disk: a table of
//! distinct term deltas, a table of segments (runs of delta indices) and a
//! token list naming the segments in order. Terms are only materialised when
//! a layer is used ([`Layer::expand_terms`]), one layer at a time, so the
//! v7 one-attribute pair (8.2 M terms, ~390 MB as expanded `Fp256` terms)
//! sits in a few megabytes.

use std::fmt;
use std::sync::Arc;

use crate::term_blocks::Cursor;
use longfellow_field::Field;

/// One quadratic term of a layer: `V[g] += k · Vin[h0] · Vin[h1]`, where `V`
/// is the layer's output vector and `Vin` its input vector. `k == 0` marks
/// an assertion that `Vin[h0] · Vin[h1] = 0` (sumcheck replaces the zero
/// with a random β).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Term<F> {
    /// Output wire.
    pub g: u32,
    /// Left input wire.
    pub h0: u32,
    /// Right input wire.
    pub h1: u32,
    /// Coefficient.
    pub k: F,
}

/// Difference between consecutive terms of a layer (wrapping in u32) and
/// the index of the term's constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Delta {
    pub(crate) g: u32,
    pub(crate) h0: u32,
    pub(crate) h1: u32,
    pub(crate) k: u32,
}

impl Delta {
    /// The term this delta leads to from the previous term's `(g, h0,
    /// h1)`, with its constant from `constants`: every decoder of a
    /// layer's terms steps through here, so they cannot disagree. The
    /// state goes in and out by value, so that a decoder inlined into its
    /// consumer keeps it in registers.
    #[inline(always)]
    pub(crate) fn apply<F: Copy>(&self, [g, h0, h1]: [u32; 3], constants: &[F]) -> Term<F> {
        Term {
            g: g.wrapping_add(self.g),
            h0: h0.wrapping_add(self.h0),
            h1: h1.wrapping_add(self.h1),
            k: constants[self.k as usize],
        }
    }
}

/// The compact term storage of a layer (all indices validated on decode).
#[derive(Clone, Debug, Default)]
pub(crate) struct Compact {
    pub(crate) deltas: Box<[Delta]>,
    /// `seg_starts[s]..seg_starts[s + 1]` is segment `s` in `seg_items`.
    pub(crate) seg_starts: Box<[u32]>,
    pub(crate) seg_items: Box<[u32]>,
    pub(crate) tokens: Box<[u32]>,
}

impl Compact {
    fn heap_bytes(&self) -> usize {
        self.deltas.len() * core::mem::size_of::<Delta>()
            + 4 * (self.seg_starts.len() + self.seg_items.len() + self.tokens.len())
    }

    /// Calls `f` with the first term's delta, if there is one.
    pub(crate) fn for_each_delta_until_first(&self, mut f: impl FnMut(&Delta)) {
        for &tok in self.tokens.iter() {
            let s = tok as usize;
            let (a, b) = (self.seg_starts[s] as usize, self.seg_starts[s + 1] as usize);
            if let Some(&d) = self.seg_items[a..b].first() {
                f(&self.deltas[d as usize]);
                return;
            }
        }
    }

    /// Calls `f` with every term's delta in order.
    #[inline]
    pub(crate) fn for_each_delta(&self, mut f: impl FnMut(&Delta)) {
        for &tok in &self.tokens {
            let s = tok as usize;
            let (a, b) = (self.seg_starts[s] as usize, self.seg_starts[s + 1] as usize);
            for &d in &self.seg_items[a..b] {
                f(&self.deltas[d as usize]);
            }
        }
    }
}

/// One layer of a circuit.
///
/// Layers are numbered from the output: layer `j` computes its output vector
/// `V_j` (`nw` of layer `j − 1`, or the circuit's `nv` outputs for `j = 0`)
/// from its input vector `V_{j+1}`, which has [`Layer::nw`] wires; the last
/// layer's input vector is the circuit's input vector.
#[derive(Clone)]
pub struct Layer<F> {
    logw: u32,
    nw: usize,
    nterms: usize,
    compact: Compact,
    constants: Arc<[F]>,
    /// Per-segment sums for splitting the terms, computed on first use.
    segment_sums: std::sync::OnceLock<Box<[crate::span::SegmentSums]>>,
}

impl<F> fmt::Debug for Layer<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Layer")
            .field("logw", &self.logw)
            .field("nw", &self.nw)
            .field("nterms", &self.nterms)
            .field("deltas", &self.compact.deltas.len())
            .field("segments", &self.compact.seg_starts.len().saturating_sub(1))
            .field("tokens", &self.compact.tokens.len())
            .finish()
    }
}

impl<F: Field> Layer<F> {
    pub(crate) fn new(
        logw: u32,
        nw: usize,
        nterms: usize,
        compact: Compact,
        constants: Arc<[F]>,
    ) -> Self {
        Self {
            logw,
            nw,
            nterms,
            compact,
            constants,
            segment_sums: std::sync::OnceLock::new(),
        }
    }

    /// Number of sumcheck rounds per hand for this layer: the input wire
    /// indices `h0`, `h1` are `logw`-bit numbers, so `nw ≤ 2^logw` (the file
    /// value, which may exceed ⌈log2 nw⌉).
    pub fn logw(&self) -> u32 {
        self.logw
    }

    /// Number of input wires of this layer (the C++ `Layer::nw`): the size of
    /// `V_{j+1}`; every `h0`, `h1` is below it. For the last layer it is the
    /// number of circuit inputs the layer reads.
    pub fn nw(&self) -> usize {
        self.nw
    }

    /// Number of terms.
    pub fn num_terms(&self) -> usize {
        self.nterms
    }

    /// Distinct deltas, segments and tokens of the compact form.
    pub fn compact_sizes(&self) -> (usize, usize, usize) {
        (
            self.compact.deltas.len(),
            self.compact.seg_starts.len().saturating_sub(1),
            self.compact.tokens.len(),
        )
    }

    /// Number of runs of consecutive terms with the same hand pair
    /// `(h0, h1)`: the size of the layer's quadratic form once its output
    /// variables are bound, when (as in circuit files) terms sharing a pair
    /// are stored together. Counted from the segment dictionary: a term
    /// opens a run exactly when its hand deltas are not both zero (or it is
    /// the first term), so this costs one pass over the segments and one
    /// over the tokens, not one per term.
    pub fn num_pair_runs(&self) -> usize {
        self.term_spans(1).iter().map(|s| s.runs_opened()).sum()
    }

    pub(crate) fn segment_sums(&self) -> &[crate::span::SegmentSums] {
        self.segment_sums
            .get_or_init(|| crate::span::segment_sums(&self.compact))
    }

    /// Bytes of heap this layer's compact form occupies (with the segment
    /// sums once a prover has asked for them).
    pub fn heap_bytes(&self) -> usize {
        self.compact.heap_bytes()
            + self
                .segment_sums
                .get()
                .map_or(0, |s| core::mem::size_of_val(&**s))
    }

    pub(crate) fn compact(&self) -> &Compact {
        &self.compact
    }

    /// The constant table the terms' deltas index.
    pub(crate) fn term_constants(&self) -> &[F] {
        &self.constants
    }

    /// Expands the terms into `out` (cleared first), reusing its allocation —
    /// the prover calls this once per layer.
    ///
    /// Memory: `num_terms() · size_of::<Term<F>>()` — 32 bytes per term for
    /// GF(2^128), 48 for P-256. The largest v7 hash-circuit layer has 3.58 M
    /// terms (~114 MB expanded); a prover held to a small peak should stream
    /// with [`Layer::for_each_term`] or [`Layer::terms`] instead.
    pub fn expand_terms(&self, out: &mut Vec<Term<F>>) {
        out.clear();
        out.reserve(self.nterms);
        self.for_each_term(|t| out.push(t));
    }

    /// Calls `f` with every term in file order, without allocating.
    #[inline]
    pub fn for_each_term(&self, mut f: impl FnMut(Term<F>)) {
        let mut at = [0u32; 3];
        let constants = &*self.constants;
        self.compact.for_each_delta(|d| {
            let t = d.apply(at, constants);
            at = [t.g, t.h0, t.h1];
            f(t);
        });
    }

    /// Calls `f` with the terms in file order, `block` at a time (the last
    /// block may be shorter). A consumer behind a trait object pays one
    /// indirect call per block instead of one per term, and its loop over
    /// the block is compiled for its own body.
    pub fn for_each_term_block(&self, block: usize, f: impl FnMut(&[Term<F>])) {
        crate::term_blocks::decode_blocks(
            &self.compact,
            &self.constants,
            &self.compact.tokens,
            [0; 3],
            block,
            self.nterms,
            f,
        );
    }

    /// The terms in file order.
    pub fn terms(&self) -> impl Iterator<Item = Term<F>> + '_ {
        TermIter {
            layer: self,
            cursor: Cursor::new([0; 3]),
        }
    }
}

struct TermIter<'a, F> {
    layer: &'a Layer<F>,
    cursor: Cursor,
}

impl<F: Field> Iterator for TermIter<'_, F> {
    type Item = Term<F>;

    fn next(&mut self) -> Option<Term<F>> {
        let (c, cur) = (&self.layer.compact, &mut self.cursor);
        while cur.pos >= cur.end {
            if !cur.next_segment(c, &c.tokens) {
                return None;
            }
        }
        let d = c.deltas[c.seg_items[cur.pos] as usize];
        cur.pos += 1;
        let t = d.apply(cur.at, &self.layer.constants);
        cur.at = [t.g, t.h0, t.h1];
        Some(t)
    }
}

/// The dimensions of a circuit, as stored in its header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dims {
    pub(crate) nv: usize,
    pub(crate) npub: usize,
    pub(crate) subfield_boundary: usize,
    pub(crate) ninputs: usize,
    pub(crate) nl: usize,
    pub(crate) nconst: usize,
}

/// A layered arithmetic circuit over `F`, decoded and validated (cloning
/// shares the constant table).
#[derive(Clone)]
pub struct Circuit<F> {
    id: [u8; 32],
    dims: Dims,
    constants: Arc<[F]>,
    layers: Vec<Layer<F>>,
    total_terms: usize,
}

impl<F> fmt::Debug for Circuit<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Circuit")
            .field("id", &crate::error::hex(&self.id))
            .field("nv", &self.dims.nv)
            .field("ninputs", &self.dims.ninputs)
            .field("npub", &self.dims.npub)
            .field("subfield_boundary", &self.dims.subfield_boundary)
            .field("layers", &self.layers.len())
            .field("total_terms", &self.total_terms)
            .finish()
    }
}

impl<F: Field> Circuit<F> {
    pub(crate) fn new(
        id: [u8; 32],
        dims: Dims,
        constants: Arc<[F]>,
        layers: Vec<Layer<F>>,
    ) -> Self {
        let total_terms = layers.iter().map(|l| l.nterms).sum();
        Self {
            id,
            dims,
            constants,
            layers,
            total_terms,
        }
    }

    /// The circuit ID stored with the circuit (checked against the
    /// recomputed ID unless the file was recognised by the catalog).
    pub fn id(&self) -> &[u8; 32] {
        &self.id
    }

    /// Number of outputs (`nv`); all must be zero for a satisfied circuit.
    pub fn num_outputs(&self) -> usize {
        self.dims.nv
    }

    /// Number of inputs (`ninputs`); input wire 0 is the constant 1.
    pub fn num_inputs(&self) -> usize {
        self.dims.ninputs
    }

    /// Number of public inputs (`npub`, counting wire 0); inputs
    /// `npub..ninputs` are the private witness.
    pub fn num_public_inputs(&self) -> usize {
        self.dims.npub
    }

    /// The least input wire not known to be in the subfield: private inputs
    /// below it may be committed with the compact subfield encoding.
    pub fn subfield_boundary(&self) -> usize {
        self.dims.subfield_boundary
    }

    /// Layers; index 0 is the output layer, the last one reads the circuit
    /// inputs (file order).
    pub fn layers(&self) -> &[Layer<F>] {
        &self.layers
    }

    /// Total terms over all layers.
    pub fn total_terms(&self) -> usize {
        self.total_terms
    }

    /// The table of distinct constants terms refer to.
    pub fn constants(&self) -> &[F] {
        &self.constants
    }

    /// Heap bytes used by the compact form (excluding the `Circuit` struct).
    pub fn heap_bytes(&self) -> usize {
        self.constants.len() * core::mem::size_of::<F>()
            + self.layers.iter().map(Layer::heap_bytes).sum::<usize>()
    }

    /// Recomputes the circuit ID from the circuit's contents (the stored
    /// [`Circuit::id`] is not consulted).
    pub fn compute_id(&self) -> [u8; 32] {
        crate::id::circuit_id(self)
    }
}

/// The buffer length for blocks of `block` items when `expected` are to
/// come: at least one, never more than `expected` (a short input does not
/// allocate a whole block).
pub(crate) fn block_len(block: usize, expected: usize) -> usize {
    block.max(1).min(expected.max(1))
}

/// Gathers items into blocks of a fixed size for a block visitor: the
/// visitor runs once per full block and once for the remainder.
///
/// The buffer is filled once with defaults and then written by index, so a
/// pushed item costs a store and a count, not a vector push (whose capacity
/// check and stored length were about a fifth of a decoded term).
pub struct Blocks<T, G: FnMut(&[T])> {
    buf: Vec<T>,
    n: usize,
    f: G,
}

impl<T, G: FnMut(&[T])> fmt::Debug for Blocks<T, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Blocks")
            .field("block", &self.buf.len())
            .field("buffered", &self.n)
            .finish()
    }
}

impl<T: Copy + Default, G: FnMut(&[T])> Blocks<T, G> {
    /// Blocks of `block.min(expected)` items (at least one) for `f`, where
    /// `expected` is the number of items to come: a short input gets a
    /// buffer no larger than itself. The buffer's length is the block size,
    /// so a low `expected` means smaller blocks, never lost items; every
    /// caller in the workspace passes the exact count.
    pub fn new(block: usize, expected: usize, f: G) -> Self {
        Self {
            buf: vec![T::default(); block_len(block, expected)],
            n: 0,
            f,
        }
    }

    /// Adds one item, handing the block over when it is full.
    #[inline]
    pub fn push(&mut self, item: T) {
        // `n < buf.len()` always: a full buffer is handed over at once.
        if let Some(slot) = self.buf.get_mut(self.n) {
            *slot = item;
        }
        self.n += 1;
        if self.n >= self.buf.len() {
            (self.f)(&self.buf);
            self.n = 0;
        }
    }

    /// Hands over the remainder, if any.
    pub fn finish(mut self) {
        if let Some(rest) = self.buf.get(..self.n).filter(|r| !r.is_empty()) {
            (self.f)(rest);
        }
    }
}
