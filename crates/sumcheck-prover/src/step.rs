//! What the prover is doing on which layer, for callers that time it.

/// A step of the evaluation or of the sumcheck, reported as it begins (see
/// [`crate::evaluate_streaming_observed`] and
/// [`crate::prove_streaming_observed`]). A step lasts until the next one
/// begins; [`LayerStep::Evaluated`] ends the evaluation's last.
///
/// The reports carry no time: the library reads no clock (it builds for
/// targets without one), the caller does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LayerStep {
    /// Computing layer `l`'s outputs from its inputs, and coding those
    /// inputs for storage. Layers run from the inputs (the last) to 0.
    Evaluate(usize),
    /// Every layer is evaluated.
    Evaluated,
    /// Binding layer `l`'s output wires at the sumcheck's point: building
    /// the layer's quadratic form over its input pairs.
    BindOutputs(usize),
    /// Layer `l`'s sumcheck rounds over that form.
    Rounds(usize),
}
