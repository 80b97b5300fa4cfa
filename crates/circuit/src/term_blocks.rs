//! Decoding a layer's terms a block at a time, in a loop of its own.
//!
//! The block consumers (the prover's `g` binding above all) are large
//! functions. Inlined into them, the per-term decoder's running indices
//! were spilled to the stack and reloaded on every term, a store-to-load
//! round trip on the loop's critical path. Here the decoder fills a whole
//! block in a function that is never inlined, so its state stays in
//! registers, and the consumer runs once per block.

use crate::circuit::{Compact, Term};

/// Where decoding stands in a run of tokens: the next token, the rest of
/// the current segment (`pos..end` in the segment items) and the running
/// `(g, h0, h1)`.
struct Cursor {
    token: usize,
    pos: usize,
    end: usize,
    at: [u32; 3],
}

/// Calls `f` with the terms of `tokens` (a run of a layer's token list,
/// decoded from the running state `before`), `block` at a time: every
/// block full but possibly the last, and none empty. `expected`
/// (the number of terms to come) caps the buffer, so a short run does not
/// allocate a whole block.
pub(crate) fn decode_blocks<F: Copy + Default>(
    compact: &Compact,
    constants: &[F],
    tokens: &[u32],
    before: [u32; 3],
    block: usize,
    expected: usize,
    mut f: impl FnMut(&[Term<F>]),
) {
    let mut buf = vec![Term::default(); block.max(1).min(expected.max(1))];
    let mut cursor = Cursor {
        token: 0,
        pos: 0,
        end: 0,
        at: before,
    };
    loop {
        let n = fill(compact, constants, tokens, &mut cursor, &mut buf);
        if let Some(terms) = buf.get(..n).filter(|t| !t.is_empty()) {
            f(terms);
        }
        if n < buf.len() {
            return;
        }
    }
}

/// Decodes terms into `out` from `cursor` on, until `out` is full or the
/// tokens end; returns how many were written.
#[inline(never)]
fn fill<F: Copy>(
    compact: &Compact,
    constants: &[F],
    tokens: &[u32],
    cursor: &mut Cursor,
    out: &mut [Term<F>],
) -> usize {
    let Cursor {
        mut token,
        mut pos,
        mut end,
        mut at,
    } = *cursor;
    let mut n = 0;
    while n < out.len() {
        if pos >= end {
            let Some(&t) = tokens.get(token) else { break };
            token += 1;
            let s = t as usize;
            (pos, end) = (
                compact.seg_starts[s] as usize,
                compact.seg_starts[s + 1] as usize,
            );
            continue;
        }
        let take = (end - pos).min(out.len() - n);
        let items = &compact.seg_items[pos..pos + take];
        for (slot, &d) in out[n..n + take].iter_mut().zip(items) {
            let t = compact.deltas[d as usize].apply(at, constants);
            at = [t.g, t.h0, t.h1];
            *slot = t;
        }
        n += take;
        pos += take;
    }
    *cursor = Cursor {
        token,
        pos,
        end,
        at,
    };
    n
}
