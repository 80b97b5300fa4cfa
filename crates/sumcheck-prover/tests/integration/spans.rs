//! The term passes split across threads (circuits from files decode in
//! spans) report the same first failure as the single-threaded pass.
#![allow(clippy::unwrap_used)]

use longfellow_circuit::load_pair;
use longfellow_field::{Field, Gf2_128};
use longfellow_random::{random_element, MdocLcg};
use longfellow_sumcheck::{LayeredCircuit, SimpleCircuit, SimpleLayer, SumcheckError, Term};
use longfellow_sumcheck_prover::evaluate_streaming;

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

#[test]
fn random_inputs_fail_the_same_assertion_on_any_thread_count() {
    longfellow_testvectors::require!();
    let hash = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";
    let bytes = longfellow_testvectors::read(&format!("google/mdoc/circuits/{hash}.lfa2"));
    let pair = load_pair(&bytes).unwrap();
    let c = &pair.hash;
    // Spans exist for the big layers (the binding pass splits by them;
    // evaluation splits by output wires, checked on the failing layer below).
    let spans = c.layer_term_spans(c.num_layers() - 2, 3).unwrap();
    assert!(spans.len() > 1);

    let mut rng = MdocLcg::new(7);
    let mut inputs: Vec<Gf2_128> = (0..c.num_inputs())
        .map(|_| random_element(&mut rng))
        .collect();
    inputs[0] = Gf2_128::ONE;
    let serial = in_pool(1, || evaluate_streaming(c, &inputs).map(|e| e.outputs));
    let Err(err) = serial else {
        panic!("random inputs satisfy the hash circuit")
    };
    assert!(
        matches!(err, SumcheckError::AssertionFailed { .. }),
        "{err:?}"
    );
    for threads in [2, 3, 5] {
        let split = in_pool(threads, || {
            evaluate_streaming(c, &inputs).map(|e| e.outputs)
        });
        assert_eq!(split, Err(err.clone()), "{threads} threads");
    }
}

/// A one-layer circuit large enough to be split, all inputs one, with
/// `bad` (position, term) replacing terms of a satisfiable layer.
fn split_layer(bad: &[(usize, Term<Gf2_128>)]) -> SimpleCircuit<Gf2_128> {
    let (nv, nw) = (1u32 << 16, 1u32 << 10);
    let mut terms: Vec<Term<Gf2_128>> = (0..1u32 << 17)
        .map(|i| Term {
            g: i % nv,
            h0: i % nw,
            h1: (i / nw) % nw,
            k: Gf2_128::ONE,
        })
        .collect();
    for &(at, t) in bad {
        terms[at] = t;
    }
    one_layer(nv, nw, 10, terms)
}

/// A circuit of one layer with these terms.
fn one_layer(nv: u32, nw: u32, logw: usize, terms: Vec<Term<Gf2_128>>) -> SimpleCircuit<Gf2_128> {
    SimpleCircuit {
        id: [0; 32],
        num_outputs: nv as usize,
        num_inputs: nw as usize,
        num_public_inputs: 1,
        subfield_boundary: 0,
        layers: vec![SimpleLayer {
            logw,
            nw: nw as usize,
            terms,
        }],
    }
}

fn assertion(g: u32) -> Term<Gf2_128> {
    Term {
        g,
        h0: 1,
        h1: 2,
        k: Gf2_128::ZERO,
    }
}

#[test]
fn split_evaluation_reports_the_earliest_failure_of_any_part() {
    let inputs = vec![Gf2_128::ONE; 1 << 10];
    let last_output = (1 << 16) - 1;
    // Each part fails, the part of the high outputs first in term order;
    // then bad indices, owned by the first part (a wire) and the last
    // (an output past the end).
    let cases: [&[(usize, Term<Gf2_128>)]; 3] = [
        &[(10, assertion(last_output)), (20, assertion(0))],
        &[(30, assertion(last_output)), (20, assertion(0))],
        &[
            (
                40,
                Term {
                    g: 1 << 16,
                    h0: 0,
                    h1: 0,
                    k: Gf2_128::ONE,
                },
            ),
            (
                50,
                Term {
                    g: 3,
                    h0: 1 << 10,
                    h1: 0,
                    k: Gf2_128::ONE,
                },
            ),
            (60, assertion(0)),
        ],
    ];
    for bad in cases {
        let c = split_layer(bad);
        let serial = in_pool(1, || evaluate_streaming(&c, &inputs).map(|e| e.outputs));
        let Err(err) = serial else {
            panic!("the layer's bad terms were accepted")
        };
        for threads in [2, 3] {
            let split = in_pool(threads, || {
                evaluate_streaming(&c, &inputs).map(|e| e.outputs)
            });
            assert_eq!(split, Err(err.clone()), "{threads} threads, {bad:?}");
        }
    }
    // And the satisfiable layer evaluates the same on any thread count.
    let c = split_layer(&[]);
    let serial = in_pool(1, || evaluate_streaming(&c, &inputs).map(|e| e.outputs));
    assert!(serial.is_ok());
    for threads in [2, 3] {
        let split = in_pool(threads, || {
            evaluate_streaming(&c, &inputs).map(|e| e.outputs)
        });
        assert_eq!(split, serial, "{threads} threads");
    }
}

#[test]
fn the_earliest_failure_wins_among_nearby_terms() {
    let inputs = vec![Gf2_128::ONE; 1 << 10];
    let wire_past_end = |g| Term {
        g,
        h0: 1 << 10,
        h1: 0,
        k: Gf2_128::ONE,
    };
    // An assertion two terms before a bad index is reported, not the
    // index; and the other way round.
    let assertion_first = split_layer(&[(10, assertion(5)), (12, wire_past_end(6))]);
    let index_first = split_layer(&[(10, wire_past_end(6)), (12, assertion(5))]);
    for threads in [1, 2] {
        let err = in_pool(threads, || evaluate_streaming(&assertion_first, &inputs)).unwrap_err();
        assert!(
            matches!(err, SumcheckError::AssertionFailed { h0: 1, h1: 2, .. }),
            "{threads} threads: {err:?}"
        );
        let err = in_pool(threads, || evaluate_streaming(&index_first, &inputs)).unwrap_err();
        assert!(
            matches!(err, SumcheckError::BadCircuit { value: 1024, .. }),
            "{threads} threads: {err:?}"
        );
    }
}

#[test]
fn long_runs_of_one_pair_evaluate_as_the_sum_of_their_terms() {
    // Pairs repeated 1 to 300 times (past the 64-product queue of
    // constants), constants one, zero (on a zero product) and others,
    // against the definition.
    let nw = 64u32;
    let nv = 97u32;
    let mut rng = MdocLcg::new(11);
    let mut inputs: Vec<Gf2_128> = (0..nw).map(|_| random_element(&mut rng)).collect();
    inputs[0] = Gf2_128::ZERO;
    let mut terms = Vec::new();
    let mut i = 0u32;
    for pair in 0..200u32 {
        let (h0, h1) = ((pair * 7) % nw, (pair * 13 + 1) % nw);
        let repeat = 1 + (pair * 37) % 300;
        for _ in 0..repeat {
            let k = match i % 3 {
                0 => Gf2_128::ONE,
                1 if h0 == 0 => Gf2_128::ZERO,
                _ => Gf2_128::from_u128(u128::from(i) * 0x9e37_79b9 + 3),
            };
            terms.push(Term {
                g: (i * 31) % nv,
                h0,
                h1,
                k,
            });
            i += 1;
        }
    }
    let mut expected = vec![Gf2_128::ZERO; nv as usize];
    for t in &terms {
        expected[t.g as usize] += t.k * inputs[t.h0 as usize] * inputs[t.h1 as usize];
    }
    let c = one_layer(nv, nw, 6, terms);
    for threads in [1, 2, 3] {
        let out = in_pool(threads, || {
            evaluate_streaming(&c, &inputs).map(|e| e.outputs)
        });
        assert_eq!(out.as_deref(), Ok(expected.as_slice()), "{threads} threads");
    }
}
