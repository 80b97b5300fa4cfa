//! The padded sumcheck prover.

use longfellow_field::Field;
use longfellow_par as par;
use longfellow_transcript::Transcript;

use longfellow_sumcheck::{
    begin_circuit, check_shape, log2_ceil, Lagrange, LayerProof, LayeredCircuit, Pad, RoundPoly,
    SumcheckError, SumcheckProof,
};

use crate::eq_weights::{form_bytes, small_table, EqWeights, FreedRoom};
use crate::evaluate::Evaluation;
use crate::quad::HQuad;
use crate::rounds::LayerRounds;
use crate::step::LayerStep;
use crate::stream_bind::bind_g_streaming;
use crate::wires::{Tuning, WireArray};

/// What the prover hands on besides the proof.
#[derive(Clone, Debug)]
pub struct ProverOutput<F> {
    /// The padded proof.
    pub proof: SumcheckProof<F>,
    /// Per layer, the fully bound quadratic form; lets the prover's own
    /// constraint generation skip recomputing it from the terms.
    pub bound_quads: Vec<F>,
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

/// [`prove_streaming`], calling `on_step` as each layer's output binding
/// and rounds begin, so that a caller can time the layers; the proof is
/// the same.
pub fn prove_streaming_observed<F: Field, C: LayeredCircuit<F> + ?Sized>(
    circuit: &C,
    eval: Evaluation<F>,
    pad: &Pad<F>,
    transcript: &mut Transcript,
    on_step: &mut (dyn FnMut(LayerStep) + Send),
) -> Result<ProverOutput<F>, SumcheckError> {
    prove_streaming_with(circuit, eval, pad, transcript, &Tuning::default(), on_step)
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
    prove_streaming_with(circuit, eval, pad, transcript, tuning, &mut |_| {})
}

fn prove_streaming_with<F: Field, C: LayeredCircuit<F> + ?Sized>(
    circuit: &C,
    eval: Evaluation<F>,
    pad: &Pad<F>,
    transcript: &mut Transcript,
    tuning: &Tuning,
    on_step: &mut (dyn FnMut(LayerStep) + Send),
) -> Result<ProverOutput<F>, SumcheckError> {
    check_shape(circuit)?;
    prove_layers(
        circuit,
        |l, weights, beta, quad| bind_g_streaming(circuit, l, weights, beta, quad),
        EvalSource::Owned(eval),
        pad,
        transcript,
        tuning,
        on_step,
    )
}

/// The padded sumcheck: the protocol loop. Per layer it draws `α, β`, has
/// `bind_g(l, eqg, beta, quad)` fill `quad` with layer `l`'s form bound at
/// the output point (called for layers 0, 1, …), then per round and hand
/// asks [`LayerRounds`] (the strategy seam, see [`crate::rounds`]) for the
/// round polynomial, subtracts the pad, writes it and binds the challenge.
/// `on_step` hears where each layer's binding and rounds begin.
pub(crate) fn prove_layers<F: Field, C: LayeredCircuit<F> + ?Sized>(
    shape: &C,
    mut bind_g: impl FnMut(usize, &EqWeights<F>, F, &mut HQuad<F>) -> Result<(), SumcheckError>,
    mut eval: EvalSource<'_, F>,
    pad: &Pad<F>,
    transcript: &mut Transcript,
    tuning: &Tuning,
    on_step: &mut (dyn FnMut(LayerStep) + Send),
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
    let mut freed = FreedRoom::new();

    for l in 0..nl {
        on_step(LayerStep::BindOutputs(l));
        let logw = shape.layer_logw(l);
        let alpha: F = transcript.challenge_element();
        let beta: F = transcript.challenge_element();
        // The output-wire weights are needed only to bind `g`; freeing them
        // before the rounds keeps them out of the peak.
        let (nv, form) = (
            shape.layer_nv(l),
            form_bytes::<F>(shape.layer_num_pair_runs(l)),
        );
        let (storage, table) =
            freed.table_storage(nv, shape.layer_num_terms(l), form, tuning.direct_min_bytes);
        // A spare vector the weights do not take holds the layer's linear
        // part (see `LinearPart::extract`), and so does one they took, once
        // `g` is bound. On one thread only: on two (Zen 3, v7 circuits)
        // the part's serial passes held the other thread up (two-thread
        // proofs 1.01× as long), and run beside the form's pass they gave
        // 1.00–1.02× with the four-attribute peak at 64.9 MiB.
        let (storage, mut spare) = if table {
            (storage, Vec::new())
        } else {
            (Vec::new(), storage)
        };
        let weights = EqWeights::new_in(storage, &bindings[0], &bindings[1], alpha, nv, table);
        bind_g(l, &weights, beta, &mut layer.quad)?;
        if let EqWeights::Dense(table) = weights {
            spare = table;
        }
        if par::threads() > 1 {
            spare = Vec::new();
        }
        let mut claim = claims[0] + alpha * claims[1];
        let lpad = &pad.0.layers[l];

        on_step(LayerStep::Rounds(l));
        let (wires, wire_bytes) = eval.take_wires(l);
        layer.begin(logw, wires, spare);
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
        let (values, buffers) = layer.release();
        freed.layer_done(values, form, buffers, wire_bytes);
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

    /// Layer `layer`'s wires, and the bytes that handing them over frees
    /// (none for a borrowed evaluation, which keeps its copy).
    fn take_wires(&mut self, layer: usize) -> (WireArray<F>, usize) {
        match self {
            Self::Borrowed(e) => (e.wires[layer].clone(), 0),
            Self::Owned(e) => {
                let w = core::mem::replace(&mut e.wires[layer], WireArray::Dense(Vec::new()));
                let bytes = w.heap_bytes();
                (w, bytes)
            }
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
    // As a proof's first layer: no earlier layer has freed a spare.
    let nv = circuit.layer_nv(layer);
    let table = small_table::<F>(nv, tuning.direct_min_bytes);
    let weights = EqWeights::new(g0, g1, alpha, nv, table);
    let mut quad = HQuad::new();
    bind_g_streaming(circuit, layer, &weights, beta, &mut quad)?;
    Ok(quad)
}
