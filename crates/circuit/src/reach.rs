//! Checking a layer's wire indices a token at a time.
//!
//! Every term's absolute `(g, h0, h1)` must lie below the layer's bounds.
//! Walking the terms checks them one by one: for the mdoc hash circuit
//! that is 7.8 M terms and 44 % of the time to load its `.lfa2`. But a
//! layer is a few thousand distinct segments repeated by tens of thousands
//! of tokens (the largest hash layer: 1,746 segments, 112 K tokens, 3.6 M
//! terms), so each segment's *reach* — the lowest and highest index its
//! terms visit relative to where it starts, and where it ends — is
//! computed once, and the token walk checks a whole segment with six
//! comparisons. Any failure is reported by the term walk itself, so the
//! error (layer, term number, wire) is the same either way.
//!
//! Why signed arithmetic gives the same verdict as the file's wrapping
//! `u32` deltas: every bound is at most [`MAX_WIRES`] `< 2^31`. While
//! every index so far is valid, a step from a valid `p` by a delta read as
//! an `i32` lands on `p + d ∈ (−2^31, 2^32)`; that is in `[0, bound)`
//! exactly when the wrapping sum is (a negative sum wraps to at least
//! `2^31`, past every bound), and then both agree. So the signed walk and
//! the wrapping walk accept the same layers, and agree on every index of
//! an accepted one.

use crate::circuit::{Compact, Delta};
use crate::error::CircuitError;
use crate::header::WireCheck;
use crate::limits::MAX_WIRES;

/// Segments above this count are checked term by term: the summaries take
/// 40 bytes a segment, and the layers that benefit have a few thousand.
const MAX_SUMMARISED_SEGMENTS: usize = 1 << 16;

/// A segment's reach: per coordinate `(g, h0, h1)`, the least and greatest
/// offset from the segment's starting index over its terms, and the offset
/// of its last term, each clamped to `±MAX_WIRES`. Clamping keeps the
/// verdict: from a valid start `0 ≤ p < bound ≤ MAX_WIRES`, an offset at or
/// beyond either clamp leaves `[0, bound)` before or after clamping alike.
/// `broken` marks a segment naming a delta that does not exist (the decoder
/// never builds one).
#[derive(Clone, Copy)]
struct Reach {
    low: [i32; 3],
    high: [i32; 3],
    end: [i32; 3],
    broken: bool,
}

impl Reach {
    fn of(items: &[u32], deltas: &[Delta]) -> Self {
        let limit = MAX_WIRES as i64;
        let mut at = [0i64; 3];
        let mut low = [i64::MAX; 3];
        let mut high = [i64::MIN; 3];
        let mut broken = false;
        // At most 2^24 items of at most 2^31 each: no `i64` overflow.
        for &i in items {
            let Some(d) = deltas.get(i as usize) else {
                broken = true;
                break;
            };
            for (c, step) in [d.g, d.h0, d.h1].into_iter().enumerate() {
                // The delta's bits read as two's complement (see the module
                // documentation).
                at[c] += i64::from(step as i32);
                low[c] = low[c].min(at[c]);
                high[c] = high[c].max(at[c]);
            }
        }
        // (An empty segment, which the decoder refuses, visits nothing: its
        // clamped `low > high` passes every start and its end is zero.)
        let narrow = |v: [i64; 3]| v.map(|x| x.clamp(-limit, limit) as i32);
        Self {
            low: narrow(low),
            high: narrow(high),
            end: narrow(at),
            broken,
        }
    }
}

/// Checks every term of `compact` against `check`'s bounds; on a bad index
/// returns the error the term-by-term [`WireCheck`] gives.
pub(crate) fn check_layer(compact: &Compact, mut check: WireCheck) -> Result<(), CircuitError> {
    let segments = compact.seg_starts.len().saturating_sub(1);
    if segments > MAX_SUMMARISED_SEGMENTS || !by_segments(compact, &check) {
        let mut result = Ok(());
        compact.for_each_delta(|d| {
            if result.is_ok() {
                result = check.step(d.g, d.h0, d.h1);
            }
        });
        return result;
    }
    Ok(())
}

/// Whether every index of the layer is within its bounds, walking the
/// tokens with each segment's [`Reach`].
fn by_segments(compact: &Compact, check: &WireCheck) -> bool {
    let reach: Vec<Reach> = compact
        .seg_starts
        .windows(2)
        .map(|w| {
            let items = compact
                .seg_items
                .get(w[0] as usize..w[1] as usize)
                .unwrap_or(&[]);
            Reach::of(items, &compact.deltas)
        })
        .collect();
    let bound = [check.max_g, check.nw, check.nw].map(i64::from);
    let mut at = [0i64; 3];
    for &tok in compact.tokens.iter() {
        let Some(r) = reach.get(tok as usize) else {
            return false;
        };
        if r.broken {
            return false;
        }
        for c in 0..3 {
            if at[c] + i64::from(r.low[c]) < 0 || at[c] + i64::from(r.high[c]) >= bound[c] {
                return false;
            }
            at[c] += i64::from(r.end[c]);
        }
    }
    true
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The term-by-term check, for comparison.
    fn walk(compact: &Compact, mut check: WireCheck) -> Result<(), CircuitError> {
        let mut result = Ok(());
        compact.for_each_delta(|d| {
            if result.is_ok() {
                result = check.step(d.g, d.h0, d.h1);
            }
        });
        result
    }

    fn compact(deltas: Vec<[i32; 3]>, segments: Vec<Vec<u32>>, tokens: Vec<u32>) -> Compact {
        let mut seg_starts = vec![0u32];
        let mut seg_items = Vec::new();
        for s in segments {
            seg_items.extend(s);
            seg_starts.push(seg_items.len() as u32);
        }
        Compact {
            deltas: deltas
                .into_iter()
                .map(|[g, h0, h1]| Delta {
                    g: g as u32,
                    h0: h0 as u32,
                    h1: h1 as u32,
                    k: 0,
                })
                .collect(),
            seg_starts: seg_starts.into(),
            seg_items: seg_items.into(),
            tokens: tokens.into(),
        }
    }

    /// Small deltas, including negative ones, a few huge ones that wrap,
    /// segments over them and tokens over the segments.
    fn layers() -> impl Strategy<Value = (Compact, u32, u32)> {
        let delta = prop_oneof![
            8 => -6i32..7,
            1 => Just(i32::MIN),
            1 => Just(i32::MAX),
            1 => Just(-(MAX_WIRES as i32)),
            1 => Just(MAX_WIRES as i32 + 1),
        ];
        (
            prop::collection::vec([delta.clone(), delta.clone(), delta], 1..8),
            1u32..24,
            1u32..24,
        )
            .prop_flat_map(|(deltas, max_g, nw)| {
                let n = deltas.len() as u32;
                let segment = prop::collection::vec(0..n, 1..5);
                (
                    Just(deltas),
                    prop::collection::vec(segment, 1..5),
                    Just(max_g),
                    Just(nw),
                )
            })
            .prop_flat_map(|(deltas, segments, max_g, nw)| {
                let s = segments.len() as u32;
                (
                    Just(deltas),
                    Just(segments),
                    prop::collection::vec(0..s, 0..12),
                    Just(max_g),
                    Just(nw),
                )
            })
            .prop_map(|(deltas, segments, tokens, max_g, nw)| {
                (compact(deltas, segments, tokens), max_g, nw)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn agrees_with_the_term_walk((layer, max_g, nw) in layers()) {
            let check = || WireCheck::new(3, max_g as usize, nw as usize);
            let fast = check_layer(&layer, check());
            let slow = walk(&layer, check());
            prop_assert_eq!(format!("{fast:?}"), format!("{slow:?}"));
        }
    }

    #[test]
    fn a_layer_that_stays_inside_passes_and_one_that_leaves_fails_at_its_term() {
        // Segment 0 climbs g by 1, segment 1 steps h0 up then down.
        let layer = compact(
            vec![[1, 0, 0], [0, 2, 0], [0, -1, 0]],
            vec![vec![0], vec![1, 2]],
            vec![0, 1, 0, 1, 1],
        );
        // Indices visited: g 1,1,1,2,2,2,2,2; h0 0,2,1,1,3,2,4,3.
        assert!(check_layer(&layer, WireCheck::new(0, 3, 5)).is_ok());
        let err = check_layer(&layer, WireCheck::new(0, 3, 4)).unwrap_err();
        assert!(
            matches!(
                err,
                CircuitError::WireOutOfRange {
                    term: 6,
                    wire: "h0",
                    index: 4,
                    bound: 4,
                    ..
                }
            ),
            "{err:?}"
        );
    }
}
