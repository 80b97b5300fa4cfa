//! The padded sumcheck prover.

use std::borrow::Cow;

use longfellow_field::Field;
use longfellow_transcript::Transcript;

use longfellow_par::{self as par, Scatter};
use longfellow_sumcheck::{
    begin_circuit, check_shape, log2_ceil, Lagrange, LayerProof, LayeredCircuit, Pad, RoundPoly,
    SumcheckError, SumcheckProof, Term,
};

use crate::dense::{bind_in_place, bind_into, round_coefficients};
use crate::eq_weights::EqWeights;
use crate::quad::HQuad;
use crate::stream_bind::{bind_g_streaming, parallel_spans};
use crate::wires::{with_wires, Tuning, WireArray};

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
    let mut scatter = Scatter::new();
    for l in (0..nl).rev() {
        // The layer's inputs wait, stored compactly, until its sumcheck;
        // their coding (a read-only pass) runs beside the evaluation.
        // Both results are allocated here, on the thread that keeps them.
        let mut out = vec![F::ZERO; circuit.layer_nv(l)];
        let index = WireArray::<F>::index_buffer(current.len(), tuning);
        let input = &current;
        let (evaluated, coding) = par::join(
            || evaluate_layer(circuit, l, input, &mut out, &mut scatter, tuning),
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
/// one per output wire); split across threads unless `out` is too large
/// to repeat per thread (see [`Tuning::split_eval_max_bytes`]).
fn evaluate_layer<F: Field, C: LayeredCircuit<F>>(
    circuit: &C,
    l: usize,
    input: &[F],
    out: &mut [F],
    scatter: &mut Scatter<F>,
    tuning: &Tuning,
) -> Result<(), SumcheckError> {
    let spans = if size_of_val(out) < tuning.split_eval_max_bytes {
        parallel_spans(circuit, l)
    } else {
        None
    };
    match spans {
        // Each span adds into its own accumulator (the scatter targets
        // are arbitrary output wires); the accumulators are summed.
        Some(spans) => {
            let results = scatter.run_parts(spans.len(), out, |i, acc| {
                let mut run = LayerEval::new(l, input);
                circuit.for_each_term_block_in(l, &spans[i], &mut |block| {
                    run.block(block, acc);
                });
                run.err
            });
            if let Some(e) = results.into_iter().flatten().next() {
                return Err(e);
            }
        }
        // One thread: the decoder inlines the per-term step (no blocks of
        // terms written out and read back).
        None => {
            let mut last = None;
            let mut err = None;
            circuit.visit_terms(l, |t| {
                if err.is_none() {
                    if let Err(e) = evaluate_term(l, &t, input, out, &mut last) {
                        err = Some(e);
                    }
                }
            });
            if let Some(e) = err {
                return Err(e);
            }
        }
    }
    Ok(())
}

/// One pass of a layer's evaluation over consecutive blocks of its terms.
struct LayerEval<'a, F> {
    layer: usize,
    input: &'a [F],
    /// Terms sharing a hand pair are stored next to each other, so the
    /// pair's product is computed once per run.
    last: Option<([u32; 2], F)>,
    err: Option<SumcheckError>,
}

impl<'a, F: Field> LayerEval<'a, F> {
    fn new(layer: usize, input: &'a [F]) -> Self {
        Self {
            layer,
            input,
            last: None,
            err: None,
        }
    }

    fn block(&mut self, block: &[Term<F>], out: &mut [F]) {
        if self.err.is_none() {
            if let Err(e) = evaluate_block(self.layer, block, self.input, out, &mut self.last) {
                self.err = Some(e);
            }
        }
    }
}

/// Adds the contributions of `block`'s terms (layer `layer`) to `out`,
/// reading the layer's inputs from `input`; `last` carries the previous
/// pair's product across blocks.
fn evaluate_block<F: Field>(
    layer: usize,
    block: &[Term<F>],
    input: &[F],
    out: &mut [F],
    last: &mut Option<([u32; 2], F)>,
) -> Result<(), SumcheckError> {
    for t in block {
        evaluate_term(layer, t, input, out, last)?;
    }
    Ok(())
}

/// Adds term `t`'s contribution to `out` (see [`evaluate_block`]).
#[inline(always)]
fn evaluate_term<F: Field>(
    layer: usize,
    t: &Term<F>,
    input: &[F],
    out: &mut [F],
    last: &mut Option<([u32; 2], F)>,
) -> Result<(), SumcheckError> {
    let (nv, nw) = (out.len(), input.len());
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
    let Some(slot) = out.get_mut(t.g as usize) else {
        return Err(bad_index(layer, t, nv, nw));
    };
    // Constants are public, so plain comparisons (no constant-time
    // `is_zero`, which costs an opaque call per term) pick the case; the
    // wire product is only tested in constant time.
    if t.k == F::ONE {
        *slot += prod;
    } else if t.k == F::ZERO {
        if !bool::from(prod.is_zero()) {
            return Err(SumcheckError::AssertionFailed {
                layer,
                h0: t.h0,
                h1: t.h1,
            });
        }
    } else {
        *slot += t.k * prod;
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

/// The padded sumcheck; `bind_g(l, eqg, beta, quad)` fills `quad` with
/// layer `l`'s form bound at the output point (called for layers 0, 1, …).
pub(crate) fn prove_layers<F: Field, C: LayeredCircuit<F> + ?Sized>(
    shape: &C,
    mut bind_g: impl FnMut(usize, &EqWeights<F>, F, &mut HQuad<F>) -> Result<(), SumcheckError>,
    mut eval: EvalSource<'_, F>,
    pad: &Pad<F>,
    transcript: &mut Transcript,
    tuning: &Tuning,
) -> Result<ProverOutput<F>, SumcheckError> {
    // A half-round whose hand has `len` wires reads the bound form directly
    // (`HQuad::round_coefficients`) instead of contracting it into a
    // buffer of `len` values: for the largest layers that buffer would be
    // among the biggest allocations at the prover's peak.
    let direct = |len: usize| len * size_of::<F>() >= tuning.direct_min_bytes;
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
    let mut scratch = Scratch::new();
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
        bind_g(l, &weights, beta, &mut scratch.quad)?;
        drop(weights);
        let mut claim = claims[0] + alpha * claims[1];
        let lpad = &pad.0.layers[l];

        // Both hands start from the layer's stored (possibly table-coded)
        // wires: hand 1 owns them and hand 0 reads them until its first
        // binding writes hand 0's own, half-size array.
        scratch.w = [WireArray::Dense(Vec::new()), eval.take_wires(l)];
        if logw == 0 {
            // No round binds either hand: both keep the (single) wire.
            scratch.w[0] = scratch.w[1].clone();
        } else if !direct(scratch.w[1].len()) {
            scratch.make_dense(1);
            if let WireArray::Dense(w) = &scratch.w[1] {
                // Sized exactly (contract zeroes it before adding).
                scratch.qw.reserve_exact(w.len());
                scratch.qw.resize(w.len(), F::ZERO);
                scratch
                    .quad
                    .contract(0, w, &mut scratch.qw, &mut scratch.scatter);
            }
        }
        let mut new_bindings = [Vec::with_capacity(logw), Vec::with_capacity(logw)];
        let mut rounds = Vec::with_capacity(logw);
        // Coefficients of the next half-round, when the binding pass of the
        // previous one already computed them.
        let mut pending: Option<(F, F)> = None;
        for round in 0..logw {
            let mut polys = [RoundPoly::default(); 2];
            for hand in 0..2 {
                let other = 1 - hand;
                // In round 0 hand 0 reads the wires hand 1 holds.
                let shared = round == 0 && hand == 0;
                let (mine, theirs) = if shared { (1, 1) } else { (hand, other) };
                let (a0, a2) = if let Some(c) = pending.take() {
                    c
                } else if direct(scratch.w[mine].len()) {
                    let quad = &scratch.quad;
                    with_wires!(&scratch.w[mine], |wh| {
                        with_wires!(&scratch.w[theirs], |wo| {
                            quad.round_coefficients(hand, wh, wo)
                        })
                    })
                } else {
                    // Invariant: `qw` holds the contraction of the form
                    // against the other hand's wires, for this hand.
                    scratch.make_dense(mine);
                    match &scratch.w[mine] {
                        WireArray::Dense(w) => round_coefficients(&scratch.qw, w),
                        _ => return Err(SumcheckError::Inconsistent { layer: l }),
                    }
                };
                let [p0, p1, p2] = lag.round_values(a0, a2, claim);
                let padded = RoundPoly { p0, p2 }.sub(&lpad.rounds[round][hand]);
                transcript.write_element(&padded.p0);
                transcript.write_element(&padded.p2);
                let r: F = transcript.challenge_element();
                claim = lag.eval(p0, p1, p2, r);
                polys[hand] = padded;
                new_bindings[hand].push(r);

                if shared {
                    scratch.w[0] = scratch.w[1].bound(r, tuning);
                } else {
                    scratch.bind_hand(hand, r, tuning);
                }
                // The next half-round binds the other hand: the length of
                // its wires decides whether it contracts or reads the form.
                let next_len = scratch.w[other].len();
                if round + 1 == logw && hand == 1 {
                    scratch.quad.bind_h(hand, r);
                } else if direct(next_len) {
                    let quad = &mut scratch.quad;
                    let coefficients = with_wires!(&scratch.w[other], |wn| {
                        with_wires!(&scratch.w[hand], |wb| {
                            quad.bind_h_and_coefficients(hand, r, wn, wb)
                        })
                    });
                    pending = Some(coefficients);
                } else {
                    scratch.make_dense(hand);
                    // Only the length matters: the contraction zeroes the
                    // buffer itself.
                    scratch.qw.resize(next_len, F::ZERO);
                    if let WireArray::Dense(w) = &scratch.w[hand] {
                        scratch.quad.bind_h_and_contract(
                            hand,
                            r,
                            w,
                            &mut scratch.qw,
                            &mut scratch.scatter,
                        );
                    }
                }
            }
            rounds.push(polys);
        }

        let q = scratch.quad.scalar();
        let first = |w: &WireArray<F>| (!w.is_empty()).then(|| w.at(0));
        let c = [first(&scratch.w[0]), first(&scratch.w[1])];
        let (q, c0, c1) = match (q, c, scratch.w[0].len(), scratch.w[1].len()) {
            (Some(q), [Some(c0), Some(c1)], 1, 1) => (q, c0, c1),
            _ => return Err(SumcheckError::Inconsistent { layer: l }),
        };
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
        // Every buffer is sized to its layer: freeing them here, rather
        // than keeping the largest layer's capacity, keeps one layer's
        // round buffers from coexisting with the next layer's eq table and
        // bound form.
        scratch.release();
    }
    Ok(ProverOutput {
        proof: SumcheckProof { layers },
        bound_quads,
    })
}

/// The evaluation a proof runs on: borrowed (kept intact) or owned (each
/// layer's wires freed once that layer is proven).
pub(crate) enum EvalSource<'e, F> {
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

/// Per-layer buffers, freed at the end of each layer.
struct Scratch<F> {
    quad: HQuad<F>,
    /// Each hand's current (partially bound) wires.
    w: [WireArray<F>; 2],
    qw: Vec<F>,
    /// Target of the out-of-place binding used when several threads share
    /// it; empty on one thread, where binding in place saves the buffer.
    tmp: Vec<F>,
    scatter: Scatter<F>,
}

impl<F: Field> Scratch<F> {
    fn release(&mut self) {
        *self = Self::new();
    }

    /// Expands hand `hand`'s wires if they are table-coded.
    fn make_dense(&mut self, hand: usize) {
        if !matches!(self.w[hand], WireArray::Dense(_)) {
            let w = core::mem::replace(&mut self.w[hand], WireArray::Dense(Vec::new()));
            self.w[hand] = WireArray::Dense(w.into_dense());
        }
    }

    /// Binds hand `hand`'s wires to `r`. Dense wires are bound in place on
    /// one thread (no second buffer) and split across threads into `tmp`
    /// otherwise; coded wires stay coded when their pairs allow it.
    fn bind_hand(&mut self, hand: usize, r: F, tuning: &Tuning) {
        match &mut self.w[hand] {
            WireArray::Dense(w) => {
                if par::threads() > 1 && w.len() >= 4 * par::MIN_CHUNK {
                    bind_into(w, r, &mut self.tmp);
                    core::mem::swap(w, &mut self.tmp);
                } else {
                    bind_in_place(w, r);
                }
            }
            coded => *coded = coded.bound(r, tuning),
        }
    }

    fn new() -> Self {
        Self {
            quad: HQuad::new(),
            w: [WireArray::Dense(Vec::new()), WireArray::Dense(Vec::new())],
            qw: Vec::new(),
            tmp: Vec::new(),
            scatter: Scatter::new(),
        }
    }
}
