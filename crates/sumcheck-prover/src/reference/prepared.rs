//! A layer prepared once for many proofs: its terms grouped by distinct
//! hand pair in Morton order, with interned coefficients.

use longfellow_field::Field;
use longfellow_par as par;
use longfellow_sumcheck::{SumcheckError, Term, MAX_LOGW};

use crate::quad::{morton, HQuad};

/// A layer prepared for proving: terms grouped by distinct hand pair.
///
/// Depends only on the circuit, so a prover proving the same circuit many
/// times prepares it once.
#[derive(Clone, Debug)]
pub struct PreparedLayer<F> {
    nv: usize,
    /// Distinct `(h0, h1)` pairs in Morton order.
    hands: Vec<[u32; 2]>,
    /// Terms of pair `j` are `g[offsets[j]..offsets[j+1]]`, same for `k`.
    offsets: Vec<u32>,
    g: Vec<u32>,
    /// Per term, index into `consts`.
    k: Vec<u32>,
    /// The layer's distinct coefficients.
    consts: Vec<F>,
    /// Per constant, how it multiplies (one, assertion, general).
    kinds: Vec<ConstKind>,
}

/// How a coefficient acts, decided once per distinct constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ConstKind {
    One,
    Assert,
    General,
}

/// Interns coefficients: circuits use few distinct constants, so a term
/// stores a 4-byte index instead of a field element.
struct ConstTable<F> {
    values: Vec<F>,
    index: WordMap,
    last: Option<(F, u32)>,
}

impl<F: Field> ConstTable<F> {
    fn new() -> Self {
        Self {
            values: Vec::new(),
            index: WordMap::default(),
            last: None,
        }
    }

    fn intern(&mut self, k: F) -> u32 {
        if let Some((v, i)) = self.last {
            if v == k {
                return i;
            }
        }
        let repr = k.to_repr();
        let i = match self.index.get(repr.as_ref()) {
            Some(&i) => i,
            None => {
                let i = self.values.len() as u32;
                self.values.push(k);
                self.index.insert(repr.as_ref().to_vec(), i);
                i
            }
        };
        self.last = Some((k, i));
        i
    }
}

impl<F: Field> PreparedLayer<F> {
    /// Groups `terms` (reordered in place) by hand pair in Morton order after
    /// checking every
    /// index against the layer's sizes.
    pub fn new(
        layer: usize,
        logw: usize,
        nw: usize,
        nv: usize,
        terms: &mut [Term<F>],
    ) -> Result<Self, SumcheckError> {
        let bad = |what, value: u64, bound: u64| SumcheckError::BadCircuit {
            layer,
            what,
            value,
            bound,
        };
        if logw > MAX_LOGW {
            return Err(bad("logw", logw as u64, MAX_LOGW as u64));
        }
        if terms.len() > u32::MAX as usize {
            return Err(bad("terms", terms.len() as u64, u32::MAX.into()));
        }
        if nw == 0 || nw > (1usize << logw) {
            return Err(bad("nw", nw as u64, 1u64 << logw));
        }
        for t in terms.iter() {
            if t.g as usize >= nv {
                return Err(bad("g", t.g.into(), nv as u64));
            }
            if t.h0 as usize >= nw {
                return Err(bad("h0", t.h0.into(), nw as u64));
            }
            if t.h1 as usize >= nw {
                return Err(bad("h1", t.h1.into(), nw as u64));
            }
        }
        sort_terms(terms);
        let mut table = ConstTable::new();
        let mut hands = Vec::new();
        let mut offsets = Vec::new();
        let mut g = Vec::with_capacity(terms.len());
        let mut k = Vec::with_capacity(terms.len());
        for t in terms.iter() {
            let h = [t.h0, t.h1];
            if hands.last() != Some(&h) {
                hands.push(h);
                offsets.push(g.len() as u32);
            }
            g.push(t.g);
            k.push(table.intern(t.k));
        }
        offsets.push(g.len() as u32);
        let consts = table.values;
        let kinds = const_kinds(&consts);
        Ok(Self {
            nv,
            hands,
            offsets,
            g,
            k,
            consts,
            kinds,
        })
    }

    /// Term indices of distinct pair `j`.
    fn term_range(&self, j: usize) -> core::ops::Range<usize> {
        self.offsets[j] as usize..self.offsets[j + 1] as usize
    }

    /// Replaces `out` with the layer's terms (in prepared order).
    pub fn terms(&self, out: &mut Vec<Term<F>>) {
        out.clear();
        for (j, &[h0, h1]) in self.hands.iter().enumerate() {
            for t in self.term_range(j) {
                out.push(Term {
                    g: self.g[t],
                    h0,
                    h1,
                    k: self.consts[self.k[t] as usize],
                });
            }
        }
    }

    /// Number of terms.
    pub fn num_terms(&self) -> usize {
        self.g.len()
    }

    /// Number of distinct hand pairs.
    pub fn num_pairs(&self) -> usize {
        self.hands.len()
    }

    /// Evaluates the layer on its input wires `w`, writing `nv` outputs.
    /// Fails on the first violated assertion term.
    pub fn evaluate(
        &self,
        layer: usize,
        w: &[F],
        out: &mut Vec<F>,
        scatter: &mut par::Scatter<F>,
    ) -> Result<(), SumcheckError> {
        out.clear();
        out.resize(self.nv, F::ZERO);
        let failed = core::sync::atomic::AtomicUsize::new(usize::MAX);
        scatter.run(self.hands.len(), self.g.len(), out, |range, acc| {
            for j in range {
                let [h0, h1] = self.hands[j];
                let prod = w[h0 as usize] * w[h1 as usize];
                for t in self.term_range(j) {
                    // Constants are public: branching on them is fine, and
                    // most are one.
                    let ki = self.k[t] as usize;
                    match self.kinds[ki] {
                        ConstKind::One => acc[self.g[t] as usize] += prod,
                        ConstKind::Assert => {
                            if !bool::from(prod.is_zero()) {
                                failed.fetch_min(j, core::sync::atomic::Ordering::Relaxed);
                            }
                        }
                        ConstKind::General => acc[self.g[t] as usize] += self.consts[ki] * prod,
                    }
                }
            }
        });
        let j = failed.into_inner();
        if let Some(&[h0, h1]) = self.hands.get(j) {
            return Err(SumcheckError::AssertionFailed { layer, h0, h1 });
        }
        Ok(())
    }

    /// Binds the output variables: fills `quad` with
    /// `Σ_g (k = 0 ? β : k)·eqg[g]` per hand pair, where `eqg[g] =
    /// eq(G0, g) + α·eq(G1, g)`.
    pub fn bind_g(&self, eqg: &[F], beta: F, quad: &mut HQuad<F>) {
        quad.h.clear();
        quad.h.extend_from_slice(&self.hands);
        quad.v.clear();
        quad.v.resize(self.hands.len(), F::ZERO);
        par::for_each_chunk_mut(&mut quad.v, par::MIN_CHUNK, |start, vals| {
            for (i, v) in vals.iter_mut().enumerate() {
                let j = start + i;
                let mut acc = F::ZERO;
                for t in self.term_range(j) {
                    let ki = self.k[t] as usize;
                    let e = eqg[self.g[t] as usize];
                    acc += match self.kinds[ki] {
                        ConstKind::One => e,
                        ConstKind::Assert => beta * e,
                        ConstKind::General => self.consts[ki] * e,
                    };
                }
                *v = acc;
            }
        });
    }
}

fn const_kinds<F: Field>(consts: &[F]) -> Vec<ConstKind> {
    consts
        .iter()
        .map(|c| {
            if *c == F::ONE {
                ConstKind::One
            } else if bool::from(c.is_zero()) {
                ConstKind::Assert
            } else {
                ConstKind::General
            }
        })
        .collect()
}

fn sort_terms<F: Field>(terms: &mut [Term<F>]) {
    par::sort_unstable_by_key(terms, |t| morton(t.h0, t.h1));
}

/// A fast non-cryptographic hasher for constant encodings (public data).
#[derive(Default)]
struct WordHasher(u64);

impl core::hash::Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.0 =
                (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
}

type WordMap = std::collections::HashMap<Vec<u8>, u32, core::hash::BuildHasherDefault<WordHasher>>;
