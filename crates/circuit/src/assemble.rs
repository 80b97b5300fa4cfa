//! What the LFC1 and LFC2 decoders share around their term encodings.
//!
//! The two formats differ only in how a layer's terms are written (LFC1:
//! one fixed-width record per term; LFC2: tables of distinct deltas,
//! segments and tokens). Everything else — constants charged to the
//! budget, terms counted against the circuit-wide cap, each layer's wires
//! checked against the layer above, the trailing circuit ID read and
//! checked — is done once, here, so a fix to one format cannot miss the
//! other.

use std::sync::Arc;

use longfellow_field::Field;

use crate::budget::Budget;
use crate::circuit::{Circuit, Compact, Dims, Layer};
use crate::error::CircuitError;
use crate::header::{read_constants, validate_layer_dims, WireCheck};
use crate::input::Input;
use crate::lfc1::check_id;
use crate::limits::MAX_TOTAL_TERMS;

/// A circuit being decoded, layer by layer, after its header.
pub(crate) struct Assembly<F> {
    dims: Dims,
    constants: Arc<[F]>,
    layers: Vec<Layer<F>>,
    total_terms: u64,
    /// Wires of the layer above (the outputs for the first layer): the
    /// bound of the next layer's output indices.
    max_g: usize,
    /// Table bytes charged so far; the decoders charge their own tables.
    pub(crate) budget: Budget,
}

impl<F: Field> Assembly<F> {
    /// Charges and reads the constants that follow a validated header.
    pub(crate) fn start(inp: &mut Input<'_>, dims: Dims) -> Result<Self, CircuitError> {
        let mut budget = Budget::default();
        budget.charge(dims.nconst as u64, core::mem::size_of::<F>())?;
        let constants: Arc<[F]> = read_constants::<F>(inp, dims.nconst)?.into();
        Ok(Self {
            layers: Vec::with_capacity(dims.nl),
            max_g: dims.nv,
            dims,
            constants,
            total_terms: 0,
            budget,
        })
    }

    /// The validated header.
    pub(crate) fn dims(&self) -> &Dims {
        &self.dims
    }

    /// Terms of the layers already added.
    pub(crate) fn total_terms(&self) -> u64 {
        self.total_terms
    }

    /// Validates the next layer's `logw` and `nw` as read.
    pub(crate) fn layer_dims(&self, logw: u64, nw: u64) -> Result<(u32, usize), CircuitError> {
        let last = self.layers.len() + 1 == self.dims.nl;
        validate_layer_dims(logw, nw, last, &self.dims)
    }

    /// Counts a layer's terms against the circuit-wide cap.
    pub(crate) fn count_terms(&mut self, nterms: u64) -> Result<(), CircuitError> {
        self.total_terms += nterms;
        if self.total_terms > MAX_TOTAL_TERMS {
            return Err(CircuitError::TooLarge {
                what: "terms in the circuit",
                value: self.total_terms,
                limit: MAX_TOTAL_TERMS,
            });
        }
        Ok(())
    }

    /// The wire check for the next layer, whose inputs number `nw`.
    pub(crate) fn wire_check(&self, nw: usize) -> WireCheck {
        WireCheck::new(self.layers.len(), self.max_g, nw)
    }

    /// Adds the next layer; the one after it reads its `nw` wires.
    pub(crate) fn push_layer(&mut self, logw: u32, nw: usize, nterms: u64, compact: Compact) {
        self.layers.push(Layer::new(
            logw,
            nw,
            nterms as usize,
            compact,
            self.constants.clone(),
        ));
        self.max_g = nw;
    }

    /// Reads the trailing 32-byte circuit ID and builds the circuit,
    /// checking the ID against the recomputed one when asked.
    pub(crate) fn finish(
        self,
        inp: &mut Input<'_>,
        verify_id: bool,
    ) -> Result<Circuit<F>, CircuitError> {
        let id = inp.array::<32>("circuit ID")?;
        let circuit = Circuit::new(id, self.dims, self.constants, self.layers);
        if verify_id {
            check_id(&circuit)?;
        }
        Ok(circuit)
    }
}
