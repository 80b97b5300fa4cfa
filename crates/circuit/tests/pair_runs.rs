//! `Layer::num_pair_runs` (counted from the segment dictionary) against a
//! plain count over the expanded terms, on Google's v7 circuits.

use longfellow_circuit::{load_pair, Circuit, CircuitPair, Layer, Term};
use longfellow_field::Field;
use longfellow_testvectors::read;

/// Google's v7 circuit pair for one attribute (`.lfa2` name).
const V7_ONE_ATTRIBUTE: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";

/// The stored v7 circuit pair whose `.lfa2` file is named `hash`.
fn v7_pair(hash: &str) -> CircuitPair {
    load_pair(&read(&format!("google/mdoc/circuits/{hash}.lfa2"))).expect("loads")
}

fn runs_by_terms<F: Field>(c: &Circuit<F>) -> Vec<usize> {
    c.layers()
        .iter()
        .map(|layer| {
            let mut last: Option<(u32, u32)> = None;
            let mut n = 0;
            layer.for_each_term(|t: Term<F>| {
                if last != Some((t.h0, t.h1)) {
                    n += 1;
                    last = Some((t.h0, t.h1));
                }
            });
            n
        })
        .collect()
}

fn runs_by_dictionary<F: Field>(c: &Circuit<F>) -> Vec<usize> {
    c.layers().iter().map(|l| l.num_pair_runs()).collect()
}

#[test]
fn pair_runs_match_the_terms_of_the_v7_circuits() {
    longfellow_testvectors::require!();
    for hash in [
        V7_ONE_ATTRIBUTE,
        "5aebdaaafe17296a3ef3ca6c80c6e7505e09291897c39700410a365fb278e460",
    ] {
        let pair = v7_pair(hash);
        let (sig, hashc) = (
            runs_by_dictionary(&pair.sig),
            runs_by_dictionary(&pair.hash),
        );
        assert_eq!(sig, runs_by_terms(&pair.sig), "{hash} signature circuit");
        assert_eq!(hashc, runs_by_terms(&pair.hash), "{hash} hash circuit");
        // Runs are far fewer than terms in the big hash layers.
        let terms: usize = pair.hash.layers().iter().map(|l| l.num_terms()).sum();
        assert!(hashc.iter().sum::<usize>() < terms);
    }
}

/// Spans decoded one by one give back the layer's terms in order, each
/// span's `pair_before` is its predecessor's last pair, and the runs they
/// open add up to the layer's.
#[test]
fn spans_reassemble_every_layer() {
    longfellow_testvectors::require!();
    let pair = v7_pair(V7_ONE_ATTRIBUTE);
    check_spans(&pair.hash);
    check_spans(&pair.sig);
}

/// Calls `check(l, layer, terms)` for every layer of `c`, with its terms
/// from the per-term decoder, which the block and span decoders must match.
fn each_layer<F: Field>(c: &Circuit<F>, mut check: impl FnMut(usize, &Layer<F>, &[Term<F>])) {
    for (l, layer) in c.layers().iter().enumerate() {
        let mut all = Vec::new();
        layer.for_each_term(|t: Term<F>| all.push(t));
        check(l, layer, &all);
    }
}

fn check_spans<F: Field>(c: &Circuit<F>) {
    each_layer(c, |l, layer, all| {
        for parts in [1, 2, 3, 8] {
            let spans = layer.term_spans(parts);
            assert!(!spans.is_empty() && spans.len() <= parts, "layer {l}");
            assert!(spans[0].is_first());
            let mut joined: Vec<Term<F>> = Vec::new();
            let mut runs = 0;
            for span in &spans {
                let before = joined.last().map(|t| [t.h0, t.h1]);
                assert_eq!(span.pair_before(), before, "layer {l}, {parts} parts");
                let start = joined.len();
                layer.for_each_term_in(span, 100, |b: &[Term<F>]| joined.extend_from_slice(b));
                assert_eq!(joined.len() - start, span.num_terms());
                runs += span.runs_opened();
            }
            assert!(joined == all, "layer {l}, {parts} parts");
            assert_eq!(runs, layer.num_pair_runs());
        }
    });
}

/// A layer handed over in blocks gives back its terms in order, every
/// block full but possibly the last, none empty — for block sizes that
/// cut inside segments, a block of one and a block larger than the layer.
#[test]
fn blocks_reassemble_every_layer() {
    longfellow_testvectors::require!();
    let pair = v7_pair(V7_ONE_ATTRIBUTE);
    check_blocks(&pair.hash);
    check_blocks(&pair.sig);
}

fn check_blocks<F: Field>(c: &Circuit<F>) {
    each_layer(c, |l, layer, all| {
        for block in [1, 7, 256, all.len() + 1] {
            let mut joined: Vec<Term<F>> = Vec::new();
            let mut sizes = Vec::new();
            layer.for_each_term_block(block, |b: &[Term<F>]| {
                sizes.push(b.len());
                joined.extend_from_slice(b);
            });
            assert!(joined == all, "layer {l}, blocks of {block}");
            let full = block.min(all.len().max(1));
            if let Some((last, rest)) = sizes.split_last() {
                assert!(
                    rest.iter().all(|&n| n == full),
                    "layer {l}, blocks of {block}"
                );
                assert!((1..=full).contains(last), "layer {l}, blocks of {block}");
            }
        }
    });
}
