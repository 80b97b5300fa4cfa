//! The padded sumcheck prover.

use std::borrow::Cow;

use longfellow_field::Field;
use longfellow_transcript::Transcript;

use longfellow_par as par;
use longfellow_sumcheck::{
    begin_circuit, check_shape, log2_ceil, Lagrange, LayerProof, LayeredCircuit, Pad, RoundPoly,
    SumcheckError, SumcheckProof, Term,
};

use crate::eq_weights::EqWeights;
use crate::quad::HQuad;
use crate::rounds::LayerRounds;
use crate::stream_bind::{bind_g_streaming, parallel_min_terms};
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

/// What the prover hands on besides the proof.
#[derive(Clone, Debug)]
pub struct ProverOutput<F> {
    /// The padded proof.
    pub proof: SumcheckProof<F>,
    /// Per layer, the fully bound quadratic form; lets the prover's own
    /// constraint generation skip recomputing it from the terms.
    pub bound_quads: Vec<F>,
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

/// [`evaluate_streaming`] with explicit storage thresholds (for tests).
#[doc(hidden)]
pub fn evaluate_streaming_tuned<F: Field, C: LayeredCircuit<F>>(
    circuit: &C,
    inputs: Vec<F>,
    tuning: &Tuning,
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
        // The layer's inputs wait, stored compactly, until its sumcheck;
        // their coding (a read-only pass) runs beside the evaluation.
        // Both results are allocated here, on the thread that keeps them.
        let mut out = vec![F::ZERO; circuit.layer_nv(l)];
        let index = WireArray::<F>::index_buffer(current.len(), tuning);
        let input = &current;
        let (evaluated, coding) = par::join(
            || evaluate_layer(circuit, l, input, &mut out),
            || WireArray::coding_of(input, tuning, index),
        );
        evaluated?;
        wires[l] = WireArray::with_coding(core::mem::replace(&mut current, out), coding);
    }
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
        .map(|(i, slice)| Part::new(i * width, (i + 1) * width >= nv, nv, slice))
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
}

/// Contributions waiting to be scaled by their constants in one slice
/// product (the field's vector kernel) and added to their output wires.
struct Pending<F> {
    slot: [u32; PENDING],
    prod: [F; PENDING],
    k: [F; PENDING],
    n: usize,
}

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
    fn new(start: usize, last: bool, nv: usize, out: &'a mut [F]) -> Self {
        Self {
            start,
            last,
            nv,
            out,
            pending: Pending::new(),
        }
    }

    fn whole(out: &'a mut [F]) -> Self {
        let nv = out.len();
        Self::new(0, true, nv, out)
    }

    /// Queues `k·prod` for output slot `slot` (already checked in range).
    #[inline(always)]
    fn add_later(&mut self, slot: usize, k: F, prod: F) {
        let p = &mut self.pending;
        p.slot[p.n] = slot as u32;
        p.k[p.n] = k;
        p.prod[p.n] = prod;
        p.n += 1;
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
    let mut part = Part::whole(out);
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
                let prod = a * b;
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

/// Runs the padded sumcheck on `eval` (whose outputs must all be zero),
/// continuing `transcript` after the statement. Each layer's output
/// variables are bound straight from `circuit`'s terms when its turn comes
/// (see [`crate::stream_bind`]): nothing is prepared or sorted per proof,
/// and each layer's wires are freed once its sumcheck is done.
pub fn prove_streaming<F: Field, C: LayeredCircuit<F> + ?Sized>(
    circuit: &C,
    eval: Evaluation<F>,
    pad: &Pad<F>,
    transcript: &mut Transcript,
) -> Result<ProverOutput<F>, SumcheckError> {
    prove_streaming_tuned(circuit, eval, pad, transcript, &Tuning::default())
}

/// [`prove_streaming`] with explicit thresholds (for tests).
#[doc(hidden)]
pub fn prove_streaming_tuned<F: Field, C: LayeredCircuit<F> + ?Sized>(
    circuit: &C,
    eval: Evaluation<F>,
    pad: &Pad<F>,
    transcript: &mut Transcript,
    tuning: &Tuning,
) -> Result<ProverOutput<F>, SumcheckError> {
    check_shape(circuit)?;
    prove_layers(
        circuit,
        |l, weights, beta, quad| bind_g_streaming(circuit, l, weights, beta, quad),
        EvalSource::Owned(eval),
        pad,
        transcript,
        tuning,
    )
}

/// The padded sumcheck: the protocol loop. Per layer it draws `α, β`, has
/// `bind_g(l, eqg, beta, quad)` fill `quad` with layer `l`'s form bound at
/// the output point (called for layers 0, 1, …), then per round and hand
/// asks [`LayerRounds`] (the strategy seam, see [`crate::rounds`]) for the
/// round polynomial, subtracts the pad, writes it and binds the challenge.
pub(crate) fn prove_layers<F: Field, C: LayeredCircuit<F> + ?Sized>(
    shape: &C,
    mut bind_g: impl FnMut(usize, &EqWeights<F>, F, &mut HQuad<F>) -> Result<(), SumcheckError>,
    mut eval: EvalSource<'_, F>,
    pad: &Pad<F>,
    transcript: &mut Transcript,
    tuning: &Tuning,
) -> Result<ProverOutput<F>, SumcheckError> {
    let nl = shape.num_layers();
    let ev = eval.get();
    if ev.wires.len() != nl
        || ev
            .wires
            .iter()
            .enumerate()
            .any(|(l, w)| w.len() != shape.layer_nw(l))
    {
        return Err(SumcheckError::Count {
            what: "evaluated layers",
            expected: nl,
            found: ev.wires.len(),
        });
    }
    if !pad.0.matches(shape) {
        return Err(SumcheckError::PadShape);
    }
    if let Some(index) = ev.outputs.iter().position(|v| !bool::from(v.is_zero())) {
        return Err(SumcheckError::NonZeroOutput { index });
    }

    let lag = Lagrange::<F>::new();
    let logv = log2_ceil(shape.num_outputs());
    let g = begin_circuit::<F>(transcript, logv);
    let mut bindings = [g.clone(), g];
    let mut claims = [F::ZERO; 2];
    let mut layer = LayerRounds::new(tuning.strategy, tuning);
    let mut layers = Vec::with_capacity(nl);
    let mut bound_quads = Vec::with_capacity(nl);

    for l in 0..nl {
        let logw = shape.layer_logw(l);
        let alpha: F = transcript.challenge_element();
        let beta: F = transcript.challenge_element();
        // The output-wire weights are needed only to bind `g`; freeing them
        // before the rounds keeps them out of the peak.
        let weights = EqWeights::new(
            &bindings[0],
            &bindings[1],
            alpha,
            shape.layer_nv(l),
            tuning.direct_min_bytes,
        );
        bind_g(l, &weights, beta, &mut layer.quad)?;
        drop(weights);
        let mut claim = claims[0] + alpha * claims[1];
        let lpad = &pad.0.layers[l];

        layer.begin(logw, eval.take_wires(l));
        let mut new_bindings = [Vec::with_capacity(logw), Vec::with_capacity(logw)];
        let mut rounds = Vec::with_capacity(logw);
        for round in 0..logw {
            let mut polys = [RoundPoly::default(); 2];
            for hand in 0..2 {
                let (a0, a2) = layer.coefficients(l, round, hand)?;
                let [p0, p1, p2] = lag.round_values(a0, a2, claim);
                let padded = RoundPoly { p0, p2 }.sub(&lpad.rounds[round][hand]);
                transcript.write_element(&padded.p0);
                transcript.write_element(&padded.p2);
                let r: F = transcript.challenge_element();
                claim = lag.eval(p0, p1, p2, r);
                polys[hand] = padded;
                new_bindings[hand].push(r);
                layer.bind(round, hand, r);
            }
            rounds.push(polys);
        }

        let (q, c0, c1) = layer.finish(l)?;
        if claim != q * c0 * c1 {
            return Err(SumcheckError::Inconsistent { layer: l });
        }
        let padded = [c0 - lpad.claims[0], c1 - lpad.claims[1]];
        transcript.write_elements(&padded);
        layers.push(LayerProof {
            rounds,
            claims: padded,
        });
        bound_quads.push(q);
        claims = [c0, c1];
        bindings = new_bindings;
        layer.release();
    }
    Ok(ProverOutput {
        proof: SumcheckProof { layers },
        bound_quads,
    })
}

/// The evaluation a proof runs on: borrowed (kept intact) or owned (each
/// layer's wires freed once that layer is proven).
pub(crate) enum EvalSource<'e, F> {
    #[cfg_attr(not(feature = "reference"), allow(dead_code))]
    Borrowed(&'e Evaluation<F>),
    Owned(Evaluation<F>),
}

impl<F: Field> EvalSource<'_, F> {
    fn get(&self) -> &Evaluation<F> {
        match self {
            Self::Borrowed(e) => e,
            Self::Owned(e) => e,
        }
    }

    fn take_wires(&mut self, layer: usize) -> WireArray<F> {
        match self {
            Self::Borrowed(e) => e.wires[layer].clone(),
            Self::Owned(e) => core::mem::replace(&mut e.wires[layer], WireArray::Dense(Vec::new())),
        }
    }
}

/// Layer `l`'s quadratic form bound at the output point, as a proof binds
/// it: weights `eq(g0, ·) + alpha·eq(g1, ·)` on the output wires, `beta`
/// on assertion terms. For the strategy tests, which run one layer's
/// rounds on it ([`crate::layer_round_values`]).
#[doc(hidden)]
pub fn bound_layer_form<F: Field, C: LayeredCircuit<F> + ?Sized>(
    circuit: &C,
    layer: usize,
    g0: &[F],
    g1: &[F],
    alpha: F,
    beta: F,
    tuning: &Tuning,
) -> Result<HQuad<F>, SumcheckError> {
    check_shape(circuit)?;
    let weights = EqWeights::new(
        g0,
        g1,
        alpha,
        circuit.layer_nv(layer),
        tuning.direct_min_bytes,
    );
    let mut quad = HQuad::new();
    bind_g_streaming(circuit, layer, &weights, beta, &mut quad)?;
    Ok(quad)
}
