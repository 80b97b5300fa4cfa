//! LFC1: Google's original circuit format (C++ `CircuitReader`).
//!
//! Layout: version byte 1; eight 3-byte little-endian numbers (field ID,
//! nv, nc, npub, subfield_boundary, ninputs, nl, nconst); nconst constants
//! in the field's canonical encoding; per layer logw, nw, nterms and nterms
//! records of four 3-byte numbers (Δg, Δh0, Δh1 as magnitude·2 + sign,
//! constant index); the 32-byte circuit ID.

use std::sync::Arc;

use longfellow_field::Field;

use crate::budget::Budget;
use crate::circuit::{Circuit, Delta, Layer};
use crate::compact::Compactor;
use crate::error::{hex, CircuitError};
use crate::header::{read_constants, validate_layer_dims, RawHeader, WireCheck};
use crate::input::Input;
use crate::limits::{MAX_TERMS_PER_LAYER, MAX_TOTAL_TERMS};

/// LFC1's version byte.
pub(crate) const LFC1_VERSION: u8 = 1;

#[inline]
fn signed_delta(v: u32) -> u32 {
    if v & 1 == 1 {
        (v >> 1).wrapping_neg()
    } else {
        v >> 1
    }
}

/// Reads one LFC1 circuit (starting at the version byte) from `inp`.
pub(crate) fn read_lfc1<F: Field>(
    inp: &mut Input<'_>,
    verify_id: bool,
) -> Result<Circuit<F>, CircuitError> {
    let version = inp.u8("LFC1 version")?;
    if version != LFC1_VERSION {
        return Err(CircuitError::UnsupportedVersion {
            what: "LFC1",
            version: u64::from(version),
        });
    }
    let dims = RawHeader::read_validated::<F>(|| Ok(u64::from(inp.u24("LFC1 header")?)))?;
    let mut budget = Budget::default();
    budget.charge(dims.nconst as u64, core::mem::size_of::<F>())?;
    let constants: Arc<[F]> = read_constants::<F>(inp, dims.nconst)?.into();

    let mut layers = Vec::with_capacity(dims.nl);
    let mut total = 0u64;
    let mut max_g = dims.nv;
    for j in 0..dims.nl {
        let logw = u64::from(inp.u24("LFC1 layer header")?);
        let nw = u64::from(inp.u24("LFC1 layer header")?);
        let (logw, nw) = validate_layer_dims(logw, nw, j + 1 == dims.nl, &dims)?;
        let nterms = u64::from(inp.u24("LFC1 layer header")?);
        if nterms > MAX_TERMS_PER_LAYER {
            return Err(CircuitError::TooLarge {
                what: "terms in a layer",
                value: nterms,
                limit: MAX_TERMS_PER_LAYER,
            });
        }
        total += nterms;
        if total > MAX_TOTAL_TERMS {
            return Err(CircuitError::TooLarge {
                what: "terms in the circuit",
                value: total,
                limit: MAX_TOTAL_TERMS,
            });
        }
        let mut check = WireCheck::new(j, max_g, nw);
        let mut compactor = Compactor::new(budget);
        for _ in 0..nterms {
            let r = inp.array::<12>("LFC1 term")?;
            let num = |i: usize| {
                u32::from(r[i]) | (u32::from(r[i + 1]) << 8) | (u32::from(r[i + 2]) << 16)
            };
            let d = Delta {
                g: signed_delta(num(0)),
                h0: signed_delta(num(3)),
                h1: signed_delta(num(6)),
                k: num(9),
            };
            if d.k as usize >= dims.nconst {
                return Err(CircuitError::IndexOutOfRange {
                    layer: j,
                    what: "constant",
                    index: u64::from(d.k),
                    len: dims.nconst as u64,
                });
            }
            check.step(d.g, d.h0, d.h1)?;
            compactor.push(d)?;
        }
        let (compact, rest) = compactor.finish()?;
        budget = rest;
        layers.push(Layer::new(
            logw,
            nw,
            nterms as usize,
            compact,
            constants.clone(),
        ));
        max_g = nw;
    }
    let id = inp.array::<32>("circuit ID")?;
    let circuit = Circuit::new(id, dims, constants, layers);
    if verify_id {
        check_id(&circuit)?;
    }
    Ok(circuit)
}

/// Fails unless the stored ID equals the recomputed one.
pub(crate) fn check_id<F: Field>(c: &Circuit<F>) -> Result<(), CircuitError> {
    let computed = c.compute_id();
    if &computed != c.id() {
        return Err(CircuitError::IdMismatch {
            stored: hex(c.id()),
            computed: hex(&computed),
        });
    }
    Ok(())
}
