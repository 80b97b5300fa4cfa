//! Decoding a layer's terms a block at a time, in a loop of its own.
//!
//! The block consumers (the prover's `g` binding above all) are large
//! functions. Inlined into them, the per-term decoder's running indices
//! were spilled to the stack and reloaded on every term, a store-to-load
//! round trip on the loop's critical path. Here the decoder fills a whole
//! block in a function that is never inlined, so its state stays in
//! registers, and the consumer runs once per block.

use crate::circuit::{block_len, Compact, Term};

/// Where decoding stands in a run of tokens: the next token, the rest of
/// the current segment (`pos..end` in the segment items) and the running
/// `(g, h0, h1)`. The term iterator and the block decoder both walk the
/// segments through it.
#[derive(Clone, Copy)]
pub(crate) struct Cursor {
    token: usize,
    pub(crate) pos: usize,
    pub(crate) end: usize,
    pub(crate) at: [u32; 3],
}

impl Cursor {
    /// Before the first token, with the running state `at`.
    pub(crate) fn new(at: [u32; 3]) -> Self {
        Self {
            token: 0,
            pos: 0,
            end: 0,
            at,
        }
    }

    /// Moves to the segment of the next token of `tokens`; false when
    /// they are used up.
    #[inline(always)]
    pub(crate) fn next_segment(&mut self, compact: &Compact, tokens: &[u32]) -> bool {
        let Some(&t) = tokens.get(self.token) else {
            return false;
        };
        self.token += 1;
        let s = t as usize;
        (self.pos, self.end) = (
            compact.seg_starts[s] as usize,
            compact.seg_starts[s + 1] as usize,
        );
        true
    }
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
    let mut buf = vec![Term::default(); block_len(block, expected)];
    let mut cursor = Cursor::new(before);
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
    // A local copy, so that the state stays in registers.
    let mut cur = *cursor;
    let mut n = 0;
    while n < out.len() {
        if cur.pos >= cur.end {
            if !cur.next_segment(compact, tokens) {
                break;
            }
            continue;
        }
        let take = (cur.end - cur.pos).min(out.len() - n);
        let items = &compact.seg_items[cur.pos..cur.pos + take];
        let mut at = cur.at;
        for (slot, &d) in out[n..n + take].iter_mut().zip(items) {
            let t = compact.deltas[d as usize].apply(at, constants);
            at = [t.g, t.h0, t.h1];
            *slot = t;
        }
        cur.at = at;
        n += take;
        cur.pos += take;
    }
    *cursor = cur;
    n
}
