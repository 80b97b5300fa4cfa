//! LFC2: the compact format of Google's Rust toolchain.
//!
//! Layout: `"LFC2"`; the LFC1 header fields as ULEB128 numbers of at most
//! four bytes (28-bit payload); the constants; per layer logw, nw, a table
//! of distinct deltas (zigzag Δg, Δh0, Δh1, constant index), a table of
//! segments (length, then delta indices) and a list of tokens (segment
//! indices) whose concatenated segments are the layer's terms; the 32-byte
//! circuit ID.

use longfellow_field::Field;

use crate::assemble::Assembly;
use crate::circuit::{Circuit, Compact, Delta};
use crate::error::CircuitError;
use crate::header::RawHeader;
use crate::input::Input;
use crate::limits::{MAX_DISTINCT_DELTAS, MAX_TABLE, MAX_TERMS_PER_LAYER, MAX_TOTAL_TERMS};
use crate::reach::check_layer;

/// LFC2's magic.
pub(crate) const LFC2_MAGIC: [u8; 4] = *b"LFC2";

#[inline]
fn zigzag(v: u32) -> u32 {
    (v >> 1) ^ (v & 1).wrapping_neg()
}

fn count(inp: &mut Input<'_>, what: &'static str) -> Result<u32, CircuitError> {
    let n = inp.uleb28(what)?;
    if u64::from(n) > MAX_TABLE {
        return Err(CircuitError::TooLarge {
            what,
            value: u64::from(n),
            limit: MAX_TABLE,
        });
    }
    Ok(n)
}

fn index(
    inp: &mut Input<'_>,
    layer: usize,
    what: &'static str,
    len: usize,
) -> Result<u32, CircuitError> {
    let i = inp.uleb28(what)?;
    if i as usize >= len {
        return Err(CircuitError::IndexOutOfRange {
            layer,
            what,
            index: u64::from(i),
            len: len as u64,
        });
    }
    Ok(i)
}

/// Reads one LFC2 circuit (starting at the magic) from `inp`.
pub(crate) fn read_lfc2<F: Field>(
    inp: &mut Input<'_>,
    verify_id: bool,
) -> Result<Circuit<F>, CircuitError> {
    let magic = inp.array::<4>("LFC2 magic")?;
    if magic != LFC2_MAGIC {
        return Err(CircuitError::BadMagic {
            first: magic.to_vec(),
        });
    }
    let dims = RawHeader::read_validated::<F>(|| Ok(u64::from(inp.uleb28("LFC2 header")?)))?;
    let nconst = dims.nconst;
    let mut asm = Assembly::<F>::start(inp, dims)?;
    for j in 0..asm.dims().nl {
        let logw = u64::from(inp.uleb28("LFC2 layer header")?);
        let nw = u64::from(inp.uleb28("LFC2 layer header")?);
        let (logw, nw) = asm.layer_dims(logw, nw)?;

        let ndeltas = count(inp, "delta table size")? as usize;
        if ndeltas as u64 > MAX_DISTINCT_DELTAS {
            return Err(CircuitError::TooLarge {
                what: "distinct term deltas in a layer",
                value: ndeltas as u64,
                limit: MAX_DISTINCT_DELTAS,
            });
        }
        asm.budget
            .charge(ndeltas as u64, core::mem::size_of::<Delta>())?;
        let mut deltas = Vec::with_capacity(ndeltas.min(1 << 12));
        for _ in 0..ndeltas {
            let g = zigzag(inp.uleb28("delta")?);
            let h0 = zigzag(inp.uleb28("delta")?);
            let h1 = zigzag(inp.uleb28("delta")?);
            let k = index(inp, j, "constant", nconst)?;
            deltas.push(Delta { g, h0, h1, k });
        }

        let nseg = count(inp, "segment count")? as usize;
        asm.budget.charge(nseg as u64 + 1, 4)?;
        let mut seg_starts = Vec::with_capacity((nseg + 1).min(1 << 12));
        seg_starts.push(0u32);
        let mut seg_items = Vec::new();
        for _ in 0..nseg {
            let len = count(inp, "segment length")? as usize;
            // An empty segment adds no term but costs per-segment memory
            // downstream (offsets, span sums); bounding segments by the
            // delta entries they hold keeps that memory proportional to the
            // terms. Encoders (ours and Google's) never write one.
            if len == 0 {
                return Err(CircuitError::Invalid {
                    what: "segment length",
                    value: 0,
                    why: "segments must hold at least one term",
                });
            }
            // Every segment must be used (checked after the tokens), so a
            // layer's segment entries are at most its terms: count them
            // against the term caps before storing them.
            let entries = (seg_items.len() + len) as u64;
            let limit = MAX_TABLE
                .min(MAX_TERMS_PER_LAYER)
                .min(MAX_TOTAL_TERMS - asm.total_terms());
            if entries > limit {
                return Err(CircuitError::TooLarge {
                    what: "segment entries in a layer",
                    value: entries,
                    limit,
                });
            }
            asm.budget.charge(len as u64, 4)?;
            for _ in 0..len {
                seg_items.push(index(inp, j, "delta", deltas.len())?);
            }
            seg_starts.push(seg_items.len() as u32);
        }

        let ntok = count(inp, "token count")? as usize;
        asm.budget.charge(ntok as u64, 4)?;
        let mut tokens = Vec::with_capacity(ntok.min(1 << 12));
        let mut nterms = 0u64;
        // One bit per segment (at most 2 MiB for 2^24 segments, which the
        // budget has already paid for 16 times over).
        let mut used = vec![0u64; nseg.div_ceil(64)];
        for _ in 0..ntok {
            let t = index(inp, j, "segment", nseg)?;
            let s = t as usize;
            used[s / 64] |= 1 << (s % 64);
            nterms += u64::from(seg_starts[s + 1] - seg_starts[s]);
            if nterms > MAX_TERMS_PER_LAYER {
                return Err(CircuitError::TooLarge {
                    what: "terms in a layer",
                    value: nterms,
                    limit: MAX_TERMS_PER_LAYER,
                });
            }
            tokens.push(t);
        }
        // An unused segment costs memory and adds nothing; encoders
        // (ours and Google's) never write one.
        if let Some(s) = (0..nseg).find(|&s| used[s / 64] & (1 << (s % 64)) == 0) {
            return Err(CircuitError::Invalid {
                what: "segment",
                value: s as u64,
                why: "no token uses it",
            });
        }
        asm.count_terms(nterms)?;

        let compact = Compact {
            deltas: deltas.into_boxed_slice(),
            seg_starts: seg_starts.into_boxed_slice(),
            seg_items: seg_items.into_boxed_slice(),
            tokens: tokens.into_boxed_slice(),
        };
        check_layer(&compact, asm.wire_check(nw))?;
        asm.push_layer(logw, nw, nterms, compact);
    }
    asm.finish(inp, verify_id)
}
