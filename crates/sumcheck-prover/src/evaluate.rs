//! Evaluating a circuit: every wire value, layer by layer from the inputs,
//! streaming each layer's terms from the compact circuit.

use std::borrow::Cow;

use longfellow_field::Field;

use longfellow_par as par;
use longfellow_sumcheck::{check_shape, LayeredCircuit, SumcheckError, Term};

use crate::step::LayerStep;
use crate::stream_bind::parallel_min_terms;
use crate::wires::{Tuning, WireArray};

/// All wire values of one circuit evaluation, each layer stored as
/// compactly as its values allow (see [`WireArray`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation<F> {
    /// `wires[l]` = the input array of layer `l` (`wires[nl−1]` = the
    /// circuit inputs).
    pub(crate) wires: Vec<WireArray<F>>,
    /// Outputs of layer 0.
    pub outputs: Vec<F>,
}

impl<F: Field> Evaluation<F> {
    /// Number of layers.
    pub fn num_layers(&self) -> usize {
        self.wires.len()
    }

    /// The input wires of layer `layer`, dense.
    pub fn wires(&self, layer: usize) -> Option<Cow<'_, [F]>> {
        self.wires.get(layer).map(WireArray::to_dense)
    }

    /// The circuit inputs.
    pub fn inputs(&self) -> Cow<'_, [F]> {
        self.wires
            .last()
            .map(WireArray::to_dense)
            .unwrap_or(Cow::Borrowed(&[]))
    }
}

/// Computes every wire value of `circuit` from `inputs`, streaming each
/// layer's terms from the circuit (nothing prepared, nothing expanded).
pub fn evaluate_streaming<F: Field, C: LayeredCircuit<F>>(
    circuit: &C,
    inputs: &[F],
) -> Result<Evaluation<F>, SumcheckError> {
    evaluate_streaming_owned(circuit, inputs.to_vec())
}

/// [`evaluate_streaming`] taking the inputs by value: they become the
/// stored input layer instead of being copied.
pub fn evaluate_streaming_owned<F: Field, C: LayeredCircuit<F>>(
    circuit: &C,
    inputs: Vec<F>,
) -> Result<Evaluation<F>, SumcheckError> {
    evaluate_streaming_tuned(circuit, inputs, &Tuning::default())
}

/// [`evaluate_streaming_owned`], calling `on_step` as each layer's
/// evaluation begins and once when all are done, so that a caller can time
/// the layers; the values are the same.
pub fn evaluate_streaming_observed<F: Field, C: LayeredCircuit<F>>(
    circuit: &C,
    inputs: Vec<F>,
    on_step: &mut (dyn FnMut(LayerStep) + Send),
) -> Result<Evaluation<F>, SumcheckError> {
    evaluate_with(circuit, inputs, &Tuning::default(), on_step)
}

/// [`evaluate_streaming`] with explicit storage thresholds (for tests).
#[doc(hidden)]
pub fn evaluate_streaming_tuned<F: Field, C: LayeredCircuit<F>>(
    circuit: &C,
    inputs: Vec<F>,
    tuning: &Tuning,
) -> Result<Evaluation<F>, SumcheckError> {
    evaluate_with(circuit, inputs, tuning, &mut |_| {})
}

fn evaluate_with<F: Field, C: LayeredCircuit<F>>(
    circuit: &C,
    inputs: Vec<F>,
    tuning: &Tuning,
    on_step: &mut (dyn FnMut(LayerStep) + Send),
) -> Result<Evaluation<F>, SumcheckError> {
    check_shape(circuit)?;
    if inputs.len() != circuit.num_inputs() {
        return Err(SumcheckError::Count {
            what: "inputs",
            expected: circuit.num_inputs(),
            found: inputs.len(),
        });
    }
    let nl = circuit.num_layers();
    let mut wires: Vec<WireArray<F>> = vec![WireArray::Dense(Vec::new()); nl];
    let mut current = inputs;
    for l in (0..nl).rev() {
        on_step(LayerStep::Evaluate(l));
        // The layer's inputs wait, stored compactly, until its sumcheck;
        // their coding (a read-only pass) runs beside the evaluation.
        // Both results are allocated here, on the thread that keeps them,
        // and the coding is the join's first closure, which runs on this
        // thread too: its table and hash slots, run on the worker, came
        // from the worker's malloc arena, and in about half of the
        // four-attribute two-thread runs the peak was then about 1.3 MiB
        // higher (medians of eight alternated runs: 64,878 → 64,092 KiB).
        let mut out = par::filled(circuit.layer_nv(l), F::ZERO);
        let index = WireArray::<F>::index_buffer(current.len(), tuning);
        let input = &current;
        let (coding, evaluated) = par::join(
            || WireArray::coding_of(input, tuning, index),
            || evaluate_layer(circuit, l, input, &mut out),
        );
        evaluated?;
        wires[l] = WireArray::with_coding(core::mem::replace(&mut current, out), coding);
    }
    on_step(LayerStep::Evaluated);
    Ok(Evaluation {
        wires,
        outputs: current,
    })
}

/// Adds layer `l`'s outputs, from its inputs `input`, into `out` (zeros,
/// one per output wire).
///
/// With several threads a large layer is split by its *outputs*: each
/// part decodes every term but adds only those whose output wire lies in
/// its own slice of `out`. Splitting the terms instead would need a private
/// accumulator as large as the outputs per extra thread (14 MB for the
/// largest hash layer, at the two-thread prover's memory peak) and a pass
/// to sum them; decoding is under a fifth of a large layer's evaluation
/// (the products and the scattered additions are the rest), so repeating
/// it per part costs less than that pass.
fn evaluate_layer<F: Field, C: LayeredCircuit<F>>(
    circuit: &C,
    l: usize,
    input: &[F],
    out: &mut [F],
) -> Result<(), SumcheckError> {
    let nv = out.len();
    let parts = par::threads();
    // (A layer without outputs has no part to report its bad indices.)
    if parts < 2 || nv < parts || circuit.layer_num_terms(l) < parallel_min_terms::<F>() {
        return evaluate_whole(circuit, l, input, out);
    }
    let width = nv.div_ceil(parts).max(1);
    let pieces: Vec<Part<'_, F>> = out
        .chunks_mut(width)
        .enumerate()
        .map(|(i, slice)| Part::new(i * width, (i + 1) * width >= nv, nv, slice, input))
        .collect();
    let failures = par::map_vec(pieces, |part| first_failure(circuit, l, input, part));
    // Every term belongs to exactly one part, so the earliest failure
    // over all parts is the one the single pass reports.
    match failures.into_iter().flatten().min_by_key(|(at, _)| *at) {
        Some((_, e)) => Err(e),
        None => Ok(()),
    }
}

/// One part of a layer's outputs: `out` holds output wires
/// `start..start + out.len()` of `nv`; the last part also owns every
/// out-of-range output index (to report it).
struct Part<'a, F> {
    start: usize,
    last: bool,
    nv: usize,
    out: &'a mut [F],
    pending: Pending<F>,
    /// Whether input wire 0 holds one. Longfellow circuits keep the
    /// constant one there and write each linear term as a product with it
    /// (in the v7 hash circuit 42 % of the distinct pairs), so such a
    /// pair's product is its other wire: no multiplication. In these
    /// circuits wire 0 is that public constant, so the branch depends on
    /// the circuit alone; in a circuit whose wire 0 is a private value,
    /// timing could tell whether that value is one (one bit per layer,
    /// the kind of leak `docs/SECURITY.md` lists for the wire coding).
    one_first: bool,
}

/// Contributions waiting to be scaled by their constants in one slice
/// product (the field's vector kernel) and added to their output wires.
struct Pending<F> {
    slot: [u32; PENDING],
    prod: [F; PENDING],
    k: [F; PENDING],
    n: usize,
}

/// A power of two (the queue's index is masked with `PENDING − 1`).
const PENDING: usize = 64;

impl<F: Field> Pending<F> {
    fn new() -> Self {
        Self {
            slot: [0; PENDING],
            prod: [F::ZERO; PENDING],
            k: [F::ZERO; PENDING],
            n: 0,
        }
    }
}

impl<'a, F: Field> Part<'a, F> {
    fn new(start: usize, last: bool, nv: usize, out: &'a mut [F], input: &[F]) -> Self {
        Self {
            start,
            last,
            nv,
            out,
            pending: Pending::new(),
            one_first: input.first() == Some(&F::ONE),
        }
    }

    fn whole(out: &'a mut [F], input: &[F]) -> Self {
        let nv = out.len();
        Self::new(0, true, nv, out, input)
    }

    /// Queues `k·prod` for output slot `slot` (already checked in range).
    #[inline(always)]
    fn add_later(&mut self, slot: usize, k: F, prod: F) {
        let p = &mut self.pending;
        // `n < PENDING` always (a full queue is flushed at once); the mask
        // tells the compiler so, which leaves no range checks to take.
        let i = p.n & (PENDING - 1);
        p.slot[i] = slot as u32;
        p.k[i] = k;
        p.prod[i] = prod;
        p.n = i + 1;
        if p.n == PENDING {
            self.flush();
        }
    }

    fn flush(&mut self) {
        let p = &mut self.pending;
        let n = p.n;
        F::mul_assign_slice(&mut p.prod[..n], &p.k[..n]);
        for (&slot, &x) in p.slot[..n].iter().zip(&p.prod[..n]) {
            if let Some(o) = self.out.get_mut(slot as usize) {
                *o += x;
            }
        }
        p.n = 0;
    }

    #[inline(always)]
    fn owns(&self, g: u32) -> bool {
        let g = g as usize;
        g >= self.start && (self.last || g - self.start < self.out.len())
    }
}

/// Evaluates all of layer `l`'s terms on this thread (the decoder inlines
/// the per-term step), stopping at the first failure. Not
/// [`first_failure`] over a whole part: its ownership test and position
/// count per term made hash layers 12–16 slower on one thread (minimums
/// of 11 paired runs: 56.9 against 61.2 ms).
fn evaluate_whole<F: Field, C: LayeredCircuit<F>>(
    circuit: &C,
    l: usize,
    input: &[F],
    out: &mut [F],
) -> Result<(), SumcheckError> {
    let mut part = Part::whole(out, input);
    let mut last = None;
    let mut failure = None;
    circuit.visit_terms(l, |t| {
        if failure.is_none() {
            if let Err(e) = evaluate_term(l, &t, input, &mut part, &mut last) {
                failure = Some(e);
            }
        }
    });
    part.flush();
    failure.map_or(Ok(()), Err)
}

/// Evaluates the terms of layer `l` that `part` owns (the decoder inlines
/// the per-term step), stopping at the first failure, which it returns
/// with the term's position in the layer.
fn first_failure<F: Field, C: LayeredCircuit<F>>(
    circuit: &C,
    l: usize,
    input: &[F],
    mut part: Part<'_, F>,
) -> Option<(usize, SumcheckError)> {
    let mut last = None;
    let mut failure = None;
    let mut at = 0usize;
    circuit.visit_terms(l, |t| {
        if failure.is_none() && part.owns(t.g) {
            if let Err(e) = evaluate_term(l, &t, input, &mut part, &mut last) {
                failure = Some((at, e));
            }
        }
        at += 1;
    });
    part.flush();
    failure
}

/// Adds term `t`'s contribution to its output wire in `part`, reading the
/// layer's inputs from `input`; `last` carries the previous pair's product
/// (terms sharing a hand pair are stored next to each other, so the pair's
/// product is computed once per run).
#[inline(always)]
fn evaluate_term<F: Field>(
    layer: usize,
    t: &Term<F>,
    input: &[F],
    part: &mut Part<'_, F>,
    last: &mut Option<([u32; 2], F)>,
) -> Result<(), SumcheckError> {
    let (nv, nw) = (part.nv, input.len());
    let pair = [t.h0, t.h1];
    let prod = match *last {
        Some((p, prod)) if p == pair => prod,
        _ => match (input.get(t.h0 as usize), input.get(t.h1 as usize)) {
            (Some(&a), Some(&b)) => {
                let prod = if t.h0 == 0 && part.one_first {
                    b
                } else {
                    a * b
                };
                *last = Some((pair, prod));
                prod
            }
            _ => return Err(bad_index(layer, t, nv, nw)),
        },
    };
    let slot = t.g as usize - part.start;
    let Some(out) = part.out.get_mut(slot) else {
        return Err(bad_index(layer, t, nv, nw));
    };
    // Constants are public, so plain comparisons (no constant-time
    // `is_zero`, which costs an opaque call per term) pick the case; the
    // wire product is only tested in constant time. Other constants wait
    // for a slice product (for the largest hash layer, 70 % of its terms):
    // 58 → 54 ms over hash layers 12–16 on one thread, against a scalar
    // product per term, and against queuing the ones too (60 ms).
    if t.k == F::ONE {
        *out += prod;
    } else if t.k == F::ZERO {
        if !bool::from(prod.is_zero()) {
            return Err(SumcheckError::AssertionFailed {
                layer,
                h0: t.h0,
                h1: t.h1,
            });
        }
    } else {
        part.add_later(slot, t.k, prod);
    }
    Ok(())
}

fn bad_index<F>(layer: usize, t: &Term<F>, nv: usize, nw: usize) -> SumcheckError {
    SumcheckError::BadCircuit {
        layer,
        what: "term index",
        value: t.g.max(t.h0).max(t.h1).into(),
        bound: nv.min(nw) as u64,
    }
}
