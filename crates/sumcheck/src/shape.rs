//! Circuit shape checks shared by the prover and the verifier's constraint
//! generation (kept apart from the prover so a verifier-only build has them).

use longfellow_field::Field;

use crate::circuit::LayeredCircuit;
use crate::eq::log2_ceil;
use crate::error::SumcheckError;

/// Largest supported `logw`: wire indices are `u32`.
pub const MAX_LOGW: usize = 32;

/// 2^logw, or `usize::MAX` where it does not fit (32-bit targets, logw = 32).
fn pow2_saturating(logw: usize) -> usize {
    u32::try_from(logw)
        .ok()
        .and_then(|s| 1usize.checked_shl(s))
        .unwrap_or(usize::MAX)
}

/// Checks the sizes the protocol relies on (term indices are checked when
/// a layer is evaluated or prepared).
pub fn check_shape<F: Field, C: LayeredCircuit<F> + ?Sized>(
    circuit: &C,
) -> Result<(), SumcheckError> {
    let nl = circuit.num_layers();
    let bad = |layer, what, value: usize, bound: usize| SumcheckError::BadCircuit {
        layer,
        what,
        value: value as u64,
        bound: bound as u64,
    };
    if nl == 0 {
        return Err(bad(0, "number of layers", 0, 1));
    }
    if circuit.num_outputs() == 0 || log2_ceil(circuit.num_outputs()) > MAX_LOGW {
        return Err(bad(
            0,
            "outputs",
            circuit.num_outputs(),
            pow2_saturating(MAX_LOGW),
        ));
    }
    if circuit.layer_nw(nl - 1) != circuit.num_inputs() {
        return Err(bad(
            nl - 1,
            "nw (must equal inputs)",
            circuit.layer_nw(nl - 1),
            circuit.num_inputs(),
        ));
    }
    if circuit.num_public_inputs() > circuit.num_inputs() {
        return Err(bad(
            nl - 1,
            "public inputs",
            circuit.num_public_inputs(),
            circuit.num_inputs(),
        ));
    }
    for l in 0..nl {
        let logw = circuit.layer_logw(l);
        let nw = circuit.layer_nw(l);
        if logw > MAX_LOGW {
            return Err(bad(l, "logw", logw, MAX_LOGW));
        }
        if nw == 0 || nw > pow2_saturating(logw) {
            return Err(bad(l, "nw", nw, pow2_saturating(logw)));
        }
    }
    Ok(())
}
