//! Checks of the statement (see `longfellow-constraints`) against the
//! Ligero parameters, and the combined linear functional both sides derive
//! from it.

use crate::error::LigeroError;
use crate::params::LigeroParams;
use longfellow_constraints::{LinearTerm, QuadraticConstraint};
use longfellow_field::Field;

/// Rejects a linear term whose witness index is `≥ nw` or whose
/// constraint index is `≥ nl`.
pub fn check_linear<F>(
    params: &LigeroParams,
    linear: &[LinearTerm<F>],
    nl: usize,
) -> Result<(), LigeroError> {
    for (index, t) in linear.iter().enumerate() {
        if t.w >= params.nw || t.c >= nl {
            return Err(LigeroError::LinearOutOfRange {
                index,
                c: t.c,
                w: t.w,
            });
        }
    }
    Ok(())
}

/// Rejects a quadratic-constraint list of the wrong length or with an index
/// `≥ nw`.
pub fn check_quadratic(
    params: &LigeroParams,
    quad: &[QuadraticConstraint],
) -> Result<(), LigeroError> {
    if quad.len() != params.nq {
        return Err(LigeroError::QuadraticCount {
            expected: params.nq,
            found: quad.len(),
        });
    }
    for (index, q) in quad.iter().enumerate() {
        if q.x >= params.nw || q.y >= params.nw || q.z >= params.nw {
            return Err(LigeroError::QuadraticOutOfRange { index });
        }
    }
    Ok(())
}

/// The combined linear functional over all witness and quadratic rows
/// (`nwqrow × w` entries, row-major).
///
/// Each linear constraint `c` is weighted by `alpha_l[c]`. Each quadratic
/// constraint `i` also adds three copy constraints tying the quadratic-row
/// slots to the witnesses they duplicate: `+α` on the slot and `−α` on the
/// witness, with the three weights `alpha_q[3i..3i+3]`. Indices must have
/// been validated.
pub fn inner_product_vector<F: Field>(
    params: &LigeroParams,
    linear: &[LinearTerm<F>],
    alpha_l: &[F],
    quad: &[QuadraticConstraint],
    alpha_q: &[F],
) -> Vec<F> {
    let w = params.w;
    let mut a = vec![F::ZERO; params.nwqrow * w];
    for t in linear {
        a[t.w] += t.k * alpha_l[t.c];
    }
    let slots = params.nqt * w;
    let x_base = params.nwrow * w;
    for (i, q) in quad.iter().enumerate() {
        let alpha = &alpha_q[3 * i..3 * i + 3];
        for (part, (&witness, &weight)) in [q.x, q.y, q.z].iter().zip(alpha).enumerate() {
            a[x_base + part * slots + i] += weight;
            a[witness] -= weight;
        }
    }
    a
}
