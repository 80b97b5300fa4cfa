//! The statement Ligero proves about the committed witness `W`:
//! linear constraints `A·W = b` and quadratic constraints `W[x]·W[y] = W[z]`.

use crate::error::LigeroError;
use crate::params::LigeroParams;
use longfellow_field::Field;

/// One non-zero entry of the constraint matrix: constraint `c` gets `k·W[w]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinearTerm<F> {
    /// Constraint (row of `A`) index, `< b.len()`.
    pub c: usize,
    /// Witness (column of `A`) index, `< nw`.
    pub w: usize,
    /// Coefficient.
    pub k: F,
}

/// `W[x]·W[y] = W[z]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QuadraticConstraint {
    /// First factor.
    pub x: usize,
    /// Second factor.
    pub y: usize,
    /// Product.
    pub z: usize,
}

pub(crate) fn check_linear<F>(
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

pub(crate) fn check_quadratic(
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
pub(crate) fn inner_product_vector<F: Field>(
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
