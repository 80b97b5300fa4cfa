//! What the sumcheck needs to know about a layered circuit.
//!
//! Layer `j` (0 = output layer) computes `V_j[g] = Σ k·V_{j+1}[h0]·V_{j+1}[h1]`
//! over its terms; the last layer reads the circuit inputs, and a term with
//! `k = 0` asserts that its product is zero instead of contributing. The
//! trait keeps this crate independent of how circuits are stored or decoded.

use longfellow_field::Field;

use longfellow_circuit::Blocks;
pub use longfellow_circuit::{Term, TermSpan};

/// Terms per block of [`LayeredCircuit::for_each_term_block`]: large enough
/// to amortise the indirect call, small enough to stay in L1.
pub const TERM_BLOCK: usize = 256;

/// A layered quadratic circuit, as the sumcheck prover and verifier see it.
pub trait LayeredCircuit<F: Field>: Sync {
    /// The 32-byte circuit ID bound into the transcript.
    fn id(&self) -> [u8; 32];
    /// Number of outputs of layer 0.
    fn num_outputs(&self) -> usize;
    /// Number of circuit inputs, including the constant-one input 0.
    fn num_inputs(&self) -> usize;
    /// Number of public inputs (a prefix of the inputs).
    fn num_public_inputs(&self) -> usize;
    /// Least input index not known to lie in the subfield.
    fn subfield_boundary(&self) -> usize;
    /// Number of layers.
    fn num_layers(&self) -> usize;
    /// Binding rounds per hand of layer `layer` (`2^logw ≥ nw`).
    fn layer_logw(&self, layer: usize) -> usize;
    /// Number of input wires of layer `layer`.
    fn layer_nw(&self, layer: usize) -> usize;
    /// Total number of terms over all layers.
    fn num_terms(&self) -> usize;
    /// Replaces the contents of `out` with the terms of layer `layer`.
    fn layer_terms(&self, layer: usize, out: &mut Vec<Term<F>>);

    /// Number of terms of layer `layer` (lets a streaming consumer size
    /// its buffers exactly). The default streams the layer once to count.
    fn layer_num_terms(&self, layer: usize) -> usize {
        let mut n = 0usize;
        self.for_each_term(layer, &mut |_| n += 1);
        n
    }

    /// Calls `f` on each term of layer `layer`. The default expands into a
    /// vector; implementations that can stream should, since the verifier
    /// visits every term once and needs no copy.
    fn for_each_term(&self, layer: usize, f: &mut dyn FnMut(Term<F>)) {
        let mut terms = Vec::new();
        self.layer_terms(layer, &mut terms);
        terms.into_iter().for_each(f);
    }

    /// [`Self::for_each_term`] with the visitor known at compile time, so
    /// a decoder can inline it into its own loop: no indirect call per
    /// term. The verifier's term pass uses this.
    fn visit_terms<V: FnMut(Term<F>)>(&self, layer: usize, mut f: V)
    where
        Self: Sized,
    {
        self.for_each_term(layer, &mut f);
    }

    /// Calls `f` with layer `layer`'s terms in order, [`TERM_BLOCK`] at a
    /// time (the last block may be shorter). The hot per-term loops use
    /// this: one indirect call per block instead of one per term.
    fn for_each_term_block(&self, layer: usize, f: &mut dyn FnMut(&[Term<F>])) {
        let mut blocks = Blocks::new(TERM_BLOCK, self.layer_num_terms(layer), f);
        self.for_each_term(layer, &mut |t| blocks.push(t));
        blocks.finish();
    }

    /// Number of runs of consecutive terms of layer `layer` sharing a hand
    /// pair: the exact size of the prover's bound form for a layer stored
    /// in binding order, so its buffers are sized once. The default streams
    /// the layer to count.
    fn layer_num_pair_runs(&self, layer: usize) -> usize {
        let mut n = 0usize;
        let mut last = None;
        self.for_each_term_block(layer, &mut |block: &[Term<F>]| {
            for t in block {
                if last != Some((t.h0, t.h1)) {
                    n += 1;
                    last = Some((t.h0, t.h1));
                }
            }
        });
        n
    }

    /// Splits layer `layer`'s terms into at most `parts` consecutive spans
    /// that [`Self::for_each_term_block_in`] decodes independently, so the
    /// prover's term passes can run on several threads; `None` (the
    /// default) when the storage cannot be split.
    fn layer_term_spans(&self, layer: usize, parts: usize) -> Option<Vec<TermSpan>> {
        let _ = (layer, parts);
        None
    }

    /// Calls `f` with the terms of `span`, one of the spans
    /// [`Self::layer_term_spans`] returned for `layer`, [`TERM_BLOCK`] at a
    /// time. The default (for circuits that never return spans) does
    /// nothing.
    fn for_each_term_block_in(&self, layer: usize, span: &TermSpan, f: &mut dyn FnMut(&[Term<F>])) {
        let _ = (layer, span, f);
    }

    /// Number of outputs of layer `layer`: the previous layer's input count,
    /// or the circuit's outputs for layer 0.
    fn layer_nv(&self, layer: usize) -> usize {
        if layer == 0 {
            self.num_outputs()
        } else {
            self.layer_nw(layer - 1)
        }
    }
}

/// A circuit held as plain term lists; convenient for tests, benches and
/// circuits built in code.
#[derive(Clone, Debug)]
pub struct SimpleCircuit<F> {
    /// Circuit ID.
    pub id: [u8; 32],
    /// Outputs of layer 0.
    pub num_outputs: usize,
    /// Inputs including the constant one.
    pub num_inputs: usize,
    /// Public-input prefix length.
    pub num_public_inputs: usize,
    /// Subfield boundary of the inputs.
    pub subfield_boundary: usize,
    /// Per layer (0 = output layer): `(logw, nw, terms)`.
    pub layers: Vec<SimpleLayer<F>>,
}

/// One layer of a [`SimpleCircuit`].
#[derive(Clone, Debug)]
pub struct SimpleLayer<F> {
    /// Binding rounds per hand.
    pub logw: usize,
    /// Input wires.
    pub nw: usize,
    /// Terms.
    pub terms: Vec<Term<F>>,
}

impl<F: Field> LayeredCircuit<F> for SimpleCircuit<F> {
    fn id(&self) -> [u8; 32] {
        self.id
    }
    fn num_outputs(&self) -> usize {
        self.num_outputs
    }
    fn num_inputs(&self) -> usize {
        self.num_inputs
    }
    fn num_public_inputs(&self) -> usize {
        self.num_public_inputs
    }
    fn subfield_boundary(&self) -> usize {
        self.subfield_boundary
    }
    fn num_layers(&self) -> usize {
        self.layers.len()
    }
    fn layer_logw(&self, layer: usize) -> usize {
        self.layers[layer].logw
    }
    fn layer_nw(&self, layer: usize) -> usize {
        self.layers[layer].nw
    }
    fn num_terms(&self) -> usize {
        self.layers.iter().map(|l| l.terms.len()).sum()
    }
    fn layer_terms(&self, layer: usize, out: &mut Vec<Term<F>>) {
        out.clear();
        out.extend_from_slice(&self.layers[layer].terms);
    }
    // Counted and visited in place: the defaults copy the layer first.
    fn layer_num_terms(&self, layer: usize) -> usize {
        self.layers[layer].terms.len()
    }
    fn for_each_term(&self, layer: usize, f: &mut dyn FnMut(Term<F>)) {
        self.layers[layer].terms.iter().copied().for_each(f);
    }
}

/// Decoded circuit files (LFC1/LFC2) plug in directly.
impl<F: Field> LayeredCircuit<F> for longfellow_circuit::Circuit<F> {
    fn id(&self) -> [u8; 32] {
        *longfellow_circuit::Circuit::id(self)
    }
    fn num_outputs(&self) -> usize {
        longfellow_circuit::Circuit::num_outputs(self)
    }
    fn num_inputs(&self) -> usize {
        longfellow_circuit::Circuit::num_inputs(self)
    }
    fn num_public_inputs(&self) -> usize {
        longfellow_circuit::Circuit::num_public_inputs(self)
    }
    fn subfield_boundary(&self) -> usize {
        longfellow_circuit::Circuit::subfield_boundary(self)
    }
    fn num_layers(&self) -> usize {
        self.layers().len()
    }
    fn layer_logw(&self, layer: usize) -> usize {
        self.layers()[layer].logw() as usize
    }
    fn layer_nw(&self, layer: usize) -> usize {
        self.layers()[layer].nw()
    }
    fn num_terms(&self) -> usize {
        self.total_terms()
    }
    fn layer_terms(&self, layer: usize, out: &mut Vec<Term<F>>) {
        self.layers()[layer].expand_terms(out);
    }
    fn for_each_term(&self, layer: usize, f: &mut dyn FnMut(Term<F>)) {
        self.layers()[layer].terms().for_each(f);
    }
    fn visit_terms<V: FnMut(Term<F>)>(&self, layer: usize, f: V)
    where
        Self: Sized,
    {
        self.layers()[layer].for_each_term(f);
    }
    fn layer_num_terms(&self, layer: usize) -> usize {
        self.layers()[layer].num_terms()
    }
    fn for_each_term_block(&self, layer: usize, f: &mut dyn FnMut(&[Term<F>])) {
        self.layers()[layer].for_each_term_block(TERM_BLOCK, f);
    }
    fn layer_num_pair_runs(&self, layer: usize) -> usize {
        self.layers()[layer].num_pair_runs()
    }
    fn layer_term_spans(&self, layer: usize, parts: usize) -> Option<Vec<TermSpan>> {
        Some(self.layers()[layer].term_spans(parts))
    }
    fn for_each_term_block_in(&self, layer: usize, span: &TermSpan, f: &mut dyn FnMut(&[Term<F>])) {
        self.layers()[layer].for_each_term_in(span, TERM_BLOCK, f);
    }
}
