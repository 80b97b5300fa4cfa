//! Binding a layer's output variables straight from the circuit's terms.
//!
//! Circuit files store each layer's terms already grouped by hand pair and
//! in the Morton order the rounds bind (the reference prover relies on it
//! too), so one pass over the terms, summing neighbours with the same pair,
//! yields the bound form `Q[h0, h1]` ready for the rounds: no per-proof
//! sort and no prepared copy of the layer. A layer stored in any other
//! order is still accepted; its entries are sorted and merged afterwards.

use longfellow_field::Field;

use crate::eq_weights::{EqLookup, EqWeights};
use crate::quad::{morton, morton_less, HQuad};
use longfellow_par as par;
use longfellow_sumcheck::{LayeredCircuit, SumcheckError, Term, TermSpan};

/// Fewest terms for which a layer's term pass is split across threads:
/// 64 K for GF(2^128), an eighth of that for wider fields, whose terms
/// cost several products of several times a carry-less one each (the
/// signature circuit's middle layers hold 8 K to 60 K terms).
pub(crate) fn parallel_min_terms<F>() -> usize {
    if size_of::<F>() > 16 {
        1 << 13
    } else {
        1 << 16
    }
}

/// The spans to run a layer's term pass on, when several threads are
/// available, the layer is large enough and the circuit can be split.
pub(crate) fn parallel_spans<F: Field, C: LayeredCircuit<F> + ?Sized>(
    circuit: &C,
    layer: usize,
) -> Option<Vec<TermSpan>> {
    let threads = par::threads();
    if threads < 2 || circuit.layer_num_terms(layer) < parallel_min_terms::<F>() {
        return None;
    }
    circuit
        .layer_term_spans(layer, threads)
        .filter(|spans| spans.len() > 1)
}

/// Fills `quad` with `Σ_g (k = 0 ? β : k)·eqg[g]` per hand pair of layer
/// `layer`, entries in Morton order of the pair, checking every index
/// against the layer's sizes (`eqg` has one entry per output wire).
pub(crate) fn bind_g_streaming<F: Field, C: LayeredCircuit<F> + ?Sized>(
    circuit: &C,
    layer: usize,
    weights: &EqWeights<F>,
    beta: F,
    quad: &mut HQuad<F>,
) -> Result<(), SumcheckError> {
    match weights {
        EqWeights::Dense(eqg) => bind_g_with(circuit, layer, eqg.as_slice(), beta, quad),
        EqWeights::Split(split) => bind_g_with(circuit, layer, split, beta, quad),
    }
}

fn bind_g_with<F: Field, C: LayeredCircuit<F> + ?Sized, E: EqLookup<F> + ?Sized>(
    circuit: &C,
    layer: usize,
    eqg: &E,
    beta: F,
    quad: &mut HQuad<F>,
) -> Result<(), SumcheckError> {
    let ctx = Ctx {
        layer,
        nw: circuit.layer_nw(layer),
        eqg,
        beta,
    };
    let spans = parallel_spans(circuit, layer);
    let sorted = match spans {
        Some(spans) => bind_spans(circuit, &ctx, &spans, quad)?,
        None => {
            let runs = circuit.layer_num_pair_runs(layer);
            quad.h.clear();
            quad.v.clear();
            quad.h.resize(runs, [0; 2]);
            quad.v.resize(runs, F::ZERO);
            let mut fill = Fill::new(&ctx, None, &mut quad.h, &mut quad.v);
            circuit.for_each_term_block(layer, &mut |block| fill.block(block));
            let out = fill.finish()?;
            if out.carry.is_some() {
                return Err(ctx.bad("terms", 0, 0));
            }
            out.sorted
        }
    };
    if !sorted {
        sort_and_merge(quad);
    }
    Ok(())
}

/// Each span fills its own slice of the entries (its size is known from the
/// runs it opens); a span whose first terms continue the previous span's
/// last run hands their sum back as a carry, added in afterwards.
fn bind_spans<F: Field, C: LayeredCircuit<F> + ?Sized, E: EqLookup<F> + ?Sized>(
    circuit: &C,
    ctx: &Ctx<'_, F, E>,
    spans: &[TermSpan],
    quad: &mut HQuad<F>,
) -> Result<bool, SumcheckError> {
    let total: usize = spans.iter().map(TermSpan::runs_opened).sum();
    par::refill(&mut quad.h, total, [0; 2]);
    par::refill(&mut quad.v, total, F::ZERO);
    let mut pieces = Vec::with_capacity(spans.len());
    let (mut rest_h, mut rest_v) = (&mut quad.h[..], &mut quad.v[..]);
    for span in spans {
        let n = span.runs_opened();
        let (h, rh) = core::mem::take(&mut rest_h).split_at_mut(n);
        let (v, rv) = core::mem::take(&mut rest_v).split_at_mut(n);
        pieces.push((span, h, v));
        (rest_h, rest_v) = (rh, rv);
    }
    let run = |(span, h, v): (&TermSpan, &mut [[u32; 2]], &mut [F])| {
        let mut fill = Fill::new(ctx, span.pair_before(), h, v);
        circuit.for_each_term_block_in(ctx.layer, span, &mut |block| fill.block(block));
        fill.finish()
    };
    let outs: Vec<Result<SpanOut<F>, SumcheckError>> = par::map_vec(pieces, run);
    let mut sorted = true;
    let mut end = 0usize;
    for (span, out) in spans.iter().zip(outs) {
        let out = out?;
        if let Some(carry) = out.carry {
            let last = end.checked_sub(1).ok_or(ctx.bad("terms", 0, 0))?;
            quad.v[last] += carry;
        }
        sorted &= out.sorted;
        end += span.runs_opened();
    }
    Ok(sorted)
}

/// What binding one layer needs besides its terms.
struct Ctx<'a, F, E: ?Sized> {
    layer: usize,
    nw: usize,
    eqg: &'a E,
    beta: F,
}

impl<F, E: ?Sized> Ctx<'_, F, E> {
    fn bad(&self, what: &'static str, value: u32, bound: usize) -> SumcheckError {
        SumcheckError::BadCircuit {
            layer: self.layer,
            what,
            value: value.into(),
            bound: bound as u64,
        }
    }
}

/// Result of filling one span.
struct SpanOut<F> {
    /// Sum of the leading terms that continue the run before the span.
    carry: Option<F>,
    /// Whether the span's pairs (and the pair before it) rise strictly.
    sorted: bool,
}

/// Writes one span's runs into its slice of the entries.
struct Fill<'a, 'c, F, E: ?Sized> {
    ctx: &'c Ctx<'c, F, E>,
    prev: Option<[u32; 2]>,
    h: &'a mut [[u32; 2]],
    v: &'a mut [F],
    n: usize,
    carry: Option<F>,
    sorted: bool,
    err: Option<SumcheckError>,
    /// The current block's output-wire weights.
    weights: Vec<F>,
    /// The current block's factors `k = 0 ? β : k`.
    factors: Vec<F>,
}

impl<'a, 'c, F: Field, E: EqLookup<F> + ?Sized> Fill<'a, 'c, F, E> {
    fn new(
        ctx: &'c Ctx<'c, F, E>,
        prev: Option<[u32; 2]>,
        h: &'a mut [[u32; 2]],
        v: &'a mut [F],
    ) -> Self {
        Self {
            ctx,
            prev,
            h,
            v,
            n: 0,
            carry: None,
            sorted: true,
            err: None,
            weights: Vec::new(),
            factors: Vec::new(),
        }
    }

    fn block(&mut self, block: &[Term<F>]) {
        if self.err.is_some() {
            return;
        }
        let (nw, nv) = (self.ctx.nw, self.ctx.eqg.len());
        self.weights.resize(block.len(), F::ZERO);
        if let Err(g) = self.ctx.eqg.weights_of(block, &mut self.weights) {
            self.err = Some(self.ctx.bad("g", g, nv));
            return;
        }
        // Constants are public: branching on them (with plain comparisons)
        // is fine. The factors are applied as one slice product (the
        // field's vector kernel) unless every constant of the block is one.
        // Written in place, not pushed: a push per term stored the vector's
        // length back through `self` every time.
        self.factors.resize(block.len(), F::ZERO);
        let (beta, mut all_one) = (self.ctx.beta, true);
        for (f, t) in self.factors.iter_mut().zip(block) {
            let k = if t.k == F::ZERO { beta } else { t.k };
            all_one &= k == F::ONE;
            *f = k;
        }
        if !all_one {
            F::mul_assign_slice(&mut self.weights, &self.factors);
        }
        // The run state lives in locals for the block: through `self`, each
        // term stored it back to memory.
        let (mut n, mut prev, mut sorted) = (self.n, self.prev, self.sorted);
        let (h, v, carry) = (&mut *self.h, &mut *self.v, &mut self.carry);
        let mut failure = None;
        for (t, &c) in block.iter().zip(&self.weights) {
            if t.h0 as usize >= nw {
                failure = Some(self.ctx.bad("h0", t.h0, nw));
                break;
            }
            if t.h1 as usize >= nw {
                failure = Some(self.ctx.bad("h1", t.h1, nw));
                break;
            }
            let pair = [t.h0, t.h1];
            if prev == Some(pair) {
                // The span's first run may continue the previous span's
                // last one (`n == 0`): its sum goes to `carry`.
                match n.checked_sub(1) {
                    None => *carry.get_or_insert(F::ZERO) += c,
                    Some(last) => match v.get_mut(last) {
                        Some(sum) => *sum += c,
                        None => {
                            failure = Some(self.ctx.bad("terms", 0, 0));
                            break;
                        }
                    },
                }
                continue;
            }
            let (Some(hn), Some(vn)) = (h.get_mut(n), v.get_mut(n)) else {
                failure = Some(self.ctx.bad("terms", 0, 0));
                break;
            };
            if let Some(a) = prev {
                sorted &= morton_less(a, pair);
            }
            (*hn, *vn) = (pair, c);
            n += 1;
            prev = Some(pair);
        }
        (self.n, self.prev, self.sorted) = (n, prev, sorted);
        self.err = failure;
    }

    fn finish(self) -> Result<SpanOut<F>, SumcheckError> {
        if let Some(e) = self.err {
            return Err(e);
        }
        // Only a circuit whose terms differ from its run counts.
        if self.n != self.h.len() {
            return Err(self.ctx.bad("terms", self.n as u32, self.h.len()));
        }
        Ok(SpanOut {
            carry: self.carry,
            sorted: self.sorted,
        })
    }
}

/// Puts the entries in Morton order of their pairs, summing equal pairs.
fn sort_and_merge<F: Field>(quad: &mut HQuad<F>) {
    let mut entries: Vec<(u64, [u32; 2], F)> = quad
        .h
        .iter()
        .zip(quad.v.iter())
        .map(|(&h, &v)| (morton(h[0], h[1]), h, v))
        .collect();
    entries.sort_unstable_by_key(|e| e.0);
    quad.h.clear();
    quad.v.clear();
    for (_, h, v) in entries {
        match (quad.h.last(), quad.v.last_mut()) {
            (Some(&last), Some(acc)) if last == h => *acc += v,
            _ => {
                quad.h.push(h);
                quad.v.push(v);
            }
        }
    }
}
