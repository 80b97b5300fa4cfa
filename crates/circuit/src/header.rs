//! Validation shared by the LFC1 and LFC2 decoders.

use longfellow_field::Field;

use crate::circuit::Dims;
use crate::error::CircuitError;
use crate::limits::{MAX_CONSTANTS, MAX_LAYERS, MAX_LOGW, MAX_WIRES};

/// Header values as read, before validation.
pub(crate) struct RawHeader {
    pub(crate) field_id: u64,
    pub(crate) nv: u64,
    pub(crate) nc: u64,
    pub(crate) npub: u64,
    pub(crate) subfield_boundary: u64,
    pub(crate) ninputs: u64,
    pub(crate) nl: u64,
    pub(crate) nconst: u64,
}

fn at_most(what: &'static str, value: u64, limit: u64) -> Result<(), CircuitError> {
    if value > limit {
        return Err(CircuitError::TooLarge { what, value, limit });
    }
    Ok(())
}

fn invalid(what: &'static str, value: u64, why: &'static str) -> CircuitError {
    CircuitError::Invalid { what, value, why }
}

impl RawHeader {
    /// Reads the eight header fields in their wire order (field ID, nv, nc,
    /// npub, subfield boundary, ninputs, nl, nconst) — the same order in
    /// LFC1 (3-byte integers) and LFC2 (ULEB128), so each decoder passes
    /// only its integer reader — and validates them.
    pub(crate) fn read_validated<F: Field>(
        mut next: impl FnMut() -> Result<u64, CircuitError>,
    ) -> Result<Dims, CircuitError> {
        Self {
            field_id: next()?,
            nv: next()?,
            nc: next()?,
            npub: next()?,
            subfield_boundary: next()?,
            ninputs: next()?,
            nl: next()?,
            nconst: next()?,
        }
        .validate::<F>()
    }

    /// Checks the header against the field `F` and the limits.
    pub(crate) fn validate<F: Field>(&self) -> Result<Dims, CircuitError> {
        if self.field_id != u64::from(F::FIELD_ID) {
            return Err(CircuitError::FieldMismatch {
                expected: F::FIELD_ID,
                found: self.field_id,
            });
        }
        if self.nc != 1 {
            return Err(invalid("copy count", self.nc, "must be 1"));
        }
        if self.nv == 0 {
            return Err(invalid("output count", 0, "must be at least 1"));
        }
        at_most("output count", self.nv, MAX_WIRES)?;
        at_most("input count", self.ninputs, MAX_WIRES)?;
        if self.ninputs == 0 {
            return Err(invalid("input count", 0, "must be at least 1"));
        }
        if self.npub > self.ninputs {
            return Err(invalid(
                "public input count",
                self.npub,
                "exceeds the input count",
            ));
        }
        if self.subfield_boundary > self.ninputs {
            return Err(invalid(
                "subfield boundary",
                self.subfield_boundary,
                "exceeds the input count",
            ));
        }
        if self.nl == 0 {
            return Err(invalid("layer count", 0, "must be at least 1"));
        }
        at_most("layer count", self.nl, MAX_LAYERS)?;
        at_most("constant count", self.nconst, MAX_CONSTANTS)?;
        // All values are now below 2^22, so the casts are lossless.
        Ok(Dims {
            nv: self.nv as usize,
            npub: self.npub as usize,
            subfield_boundary: self.subfield_boundary as usize,
            ninputs: self.ninputs as usize,
            nl: self.nl as usize,
            nconst: self.nconst as usize,
        })
    }
}

/// Checks a layer's `logw` and `nw`; `is_last` layers must read exactly the
/// circuit inputs.
pub(crate) fn validate_layer_dims(
    logw: u64,
    nw: u64,
    is_last: bool,
    dims: &Dims,
) -> Result<(u32, usize), CircuitError> {
    at_most("layer logw", logw, MAX_LOGW)?;
    at_most("layer input count", nw, MAX_WIRES)?;
    if nw == 0 {
        return Err(invalid("layer input count", 0, "must be at least 1"));
    }
    if nw > 1u64 << logw {
        return Err(invalid("layer input count", nw, "exceeds 2^logw"));
    }
    if is_last && nw != dims.ninputs as u64 {
        return Err(invalid(
            "last layer input count",
            nw,
            "differs from the circuit input count",
        ));
    }
    Ok((logw as u32, nw as usize))
}

/// Decodes `nconst` constants of `F::BYTES` each, rejecting non-canonical ones.
pub(crate) fn read_constants<F: Field>(
    inp: &mut crate::input::Input<'_>,
    nconst: usize,
) -> Result<Vec<F>, CircuitError> {
    // Grow with the data actually present, not the declared count.
    let mut out = Vec::with_capacity(nconst.min(1 << 12));
    let mut buf = vec![0u8; F::BYTES];
    for index in 0..nconst {
        inp.fill(&mut buf, "constant")?;
        let v = F::from_bytes(&buf).ok_or(CircuitError::NonCanonicalElement { index })?;
        out.push(v);
    }
    Ok(out)
}

/// Running check of one layer's absolute wire indices.
pub(crate) struct WireCheck {
    pub(crate) layer: usize,
    pub(crate) max_g: u32,
    pub(crate) nw: u32,
    pub(crate) term: u64,
    pub(crate) g: u32,
    pub(crate) h0: u32,
    pub(crate) h1: u32,
}

impl WireCheck {
    pub(crate) fn new(layer: usize, max_g: usize, nw: usize) -> Self {
        // Both are at most MAX_WIRES < 2^32.
        Self {
            layer,
            max_g: max_g as u32,
            nw: nw as u32,
            term: 0,
            g: 0,
            h0: 0,
            h1: 0,
        }
    }

    /// Applies a delta and checks the resulting absolute indices.
    #[inline]
    pub(crate) fn step(&mut self, dg: u32, dh0: u32, dh1: u32) -> Result<(), CircuitError> {
        self.g = self.g.wrapping_add(dg);
        self.h0 = self.h0.wrapping_add(dh0);
        self.h1 = self.h1.wrapping_add(dh1);
        if self.g >= self.max_g || self.h0 >= self.nw || self.h1 >= self.nw {
            return Err(self.error());
        }
        self.term += 1;
        Ok(())
    }

    #[cold]
    fn error(&self) -> CircuitError {
        let (wire, index, bound) = if self.g >= self.max_g {
            ("g", self.g, self.max_g)
        } else if self.h0 >= self.nw {
            ("h0", self.h0, self.nw)
        } else {
            ("h1", self.h1, self.nw)
        };
        CircuitError::WireOutOfRange {
            layer: self.layer,
            term: self.term,
            wire,
            index: u64::from(index),
            bound: u64::from(bound),
        }
    }
}
