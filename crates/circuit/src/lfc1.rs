//! LFC1: Google's original circuit format (C++ `CircuitReader`).
//!
//! Layout: version byte 1; eight 3-byte little-endian numbers (field ID,
//! nv, nc, npub, subfield_boundary, ninputs, nl, nconst); nconst constants
//! in the field's canonical encoding; per layer logw, nw, nterms and nterms
//! records of four 3-byte numbers (Δg, Δh0, Δh1 as magnitude·2 + sign,
//! constant index); the 32-byte circuit ID.

use longfellow_field::Field;

use crate::assemble::Assembly;
use crate::circuit::{Circuit, Delta};
use crate::compact::Compactor;
use crate::error::{hex, CircuitError};
use crate::header::RawHeader;
use crate::input::Input;
use crate::limits::MAX_TERMS_PER_LAYER;

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
    let nconst = dims.nconst;
    let mut asm = Assembly::<F>::start(inp, dims)?;
    for j in 0..asm.dims().nl {
        let logw = u64::from(inp.u24("LFC1 layer header")?);
        let nw = u64::from(inp.u24("LFC1 layer header")?);
        let (logw, nw) = asm.layer_dims(logw, nw)?;
        let nterms = u64::from(inp.u24("LFC1 layer header")?);
        if nterms > MAX_TERMS_PER_LAYER {
            return Err(CircuitError::TooLarge {
                what: "terms in a layer",
                value: nterms,
                limit: MAX_TERMS_PER_LAYER,
            });
        }
        asm.count_terms(nterms)?;
        let mut check = asm.wire_check(nw);
        let mut compactor = Compactor::new(core::mem::take(&mut asm.budget));
        let mut left = nterms as usize;
        while left > 0 {
            let records = inp.records::<12>(left, "LFC1 term")?;
            left -= records.len();
            for r in records {
                let num = |i: usize| {
                    u32::from(r[i]) | (u32::from(r[i + 1]) << 8) | (u32::from(r[i + 2]) << 16)
                };
                let d = Delta {
                    g: signed_delta(num(0)),
                    h0: signed_delta(num(3)),
                    h1: signed_delta(num(6)),
                    k: num(9),
                };
                if d.k as usize >= nconst {
                    return Err(CircuitError::IndexOutOfRange {
                        layer: j,
                        what: "constant",
                        index: u64::from(d.k),
                        len: nconst as u64,
                    });
                }
                check.step(d.g, d.h0, d.h1)?;
                compactor.push(d)?;
            }
        }
        let (compact, rest) = compactor.finish()?;
        asm.budget = rest;
        asm.push_layer(logw, nw, nterms, compact);
    }
    asm.finish(inp, verify_id)
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
