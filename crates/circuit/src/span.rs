//! Splitting a layer's terms into spans that decode independently.
//!
//! Terms are stored as deltas from their predecessor, so decoding from the
//! middle needs the running `(g, h0, h1)` there. Per segment of the
//! dictionary the delta sums are computed once, after which walking the
//! token list gives the state at any token boundary without touching the
//! terms: a layer of millions of terms splits in a pass over its tokens.

use longfellow_field::Field;

use crate::circuit::{Compact, Layer, Term};

/// A run of consecutive tokens of one layer, with the state needed to
/// decode it on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TermSpan {
    tokens: (usize, usize),
    /// `(g, h0, h1)` of the term before the span (zero at the start).
    before: [u32; 3],
    terms: usize,
    runs: usize,
}

impl TermSpan {
    /// Number of terms in the span.
    pub fn num_terms(&self) -> usize {
        self.terms
    }

    /// Whether the span starts at the layer's first term.
    pub fn is_first(&self) -> bool {
        self.tokens.0 == 0
    }

    /// The hand pair `(h0, h1)` of the term just before the span, `None`
    /// for the first span: a term of the span opens a new run of equal
    /// pairs exactly when its pair differs from its predecessor's.
    pub fn pair_before(&self) -> Option<[u32; 2]> {
        (!self.is_first()).then_some([self.before[1], self.before[2]])
    }

    /// Number of terms in the span whose hand pair differs from their
    /// predecessor's (the first term of the layer always counts).
    pub fn runs_opened(&self) -> usize {
        self.runs
    }
}

/// Per segment: term count, wrapping delta sums and run openings. 20
/// bytes a segment (counts fit `u32`: segment offsets are `u32`), kept
/// per layer for the circuit's lifetime.
#[derive(Clone, Debug)]
pub(crate) struct SegmentSums {
    len: u32,
    sum: [u32; 3],
    opens: u32,
}

pub(crate) fn segment_sums(c: &Compact) -> Box<[SegmentSums]> {
    c.seg_starts
        .windows(2)
        .map(|w| {
            let items = &c.seg_items[w[0] as usize..w[1] as usize];
            let mut sum = [0u32; 3];
            let mut opens = 0u32;
            for &d in items {
                let d = &c.deltas[d as usize];
                sum[0] = sum[0].wrapping_add(d.g);
                sum[1] = sum[1].wrapping_add(d.h0);
                sum[2] = sum[2].wrapping_add(d.h1);
                opens += u32::from(d.h0 != 0 || d.h1 != 0);
            }
            SegmentSums {
                len: (w[1] - w[0]),
                sum,
                opens,
            }
        })
        .collect()
}

impl<F: Field> Layer<F> {
    /// Splits the terms into at most `parts` spans of about equal size, cut
    /// at token boundaries, covering the layer in order.
    pub fn term_spans(&self, parts: usize) -> Vec<TermSpan> {
        let c = self.compact();
        let sums = self.segment_sums();
        let target = self.num_terms().div_ceil(parts.max(1)).max(1);
        let mut spans = Vec::with_capacity(parts.max(1));
        let mut state = [0u32; 3];
        let mut open = TermSpan {
            tokens: (0, 0),
            before: state,
            terms: 0,
            runs: 0,
        };
        for (i, &tok) in c.tokens.iter().enumerate() {
            let s = &sums[tok as usize];
            // Cut only in front of a segment with terms, so that no span
            // is empty and there are at most `parts` of them.
            if open.terms >= target && s.len > 0 {
                open.tokens.1 = i;
                spans.push(open);
                open = TermSpan {
                    tokens: (i, i),
                    before: state,
                    terms: 0,
                    runs: 0,
                };
            }
            open.terms += s.len as usize;
            open.runs += s.opens as usize;
            for (x, d) in state.iter_mut().zip(s.sum) {
                *x = x.wrapping_add(d);
            }
        }
        open.tokens.1 = c.tokens.len();
        spans.push(open);
        // The layer's first term opens a run even when its deltas are zero.
        let mut zero_start = false;
        c.for_each_delta_until_first(|d| zero_start = d.h0 == 0 && d.h1 == 0);
        if let Some(first) = spans.first_mut() {
            first.runs += usize::from(zero_start);
        }
        spans
    }

    /// Calls `f` with the terms of `span` (from [`Self::term_spans`] of this
    /// layer) in order, `block` at a time.
    pub fn for_each_term_in(&self, span: &TermSpan, block: usize, f: impl FnMut(&[Term<F>])) {
        let tokens = self
            .compact()
            .tokens
            .get(span.tokens.0..span.tokens.1)
            .unwrap_or(&[]);
        crate::term_blocks::decode_blocks(
            self.compact(),
            self.term_constants(),
            tokens,
            span.before,
            block,
            span.terms,
            f,
        );
    }
}
