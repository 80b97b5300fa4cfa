//! The term passes split across threads (circuits from files decode in
//! spans) report the same first failure as the single-threaded pass.
#![allow(clippy::unwrap_used)]

use longfellow_circuit::load_pair;
use longfellow_field::{Field, Gf2_128};
use longfellow_random::{random_element, MdocLcg};
use longfellow_sumcheck::{LayeredCircuit, SumcheckError};
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
    // Spans exist for the big layers (the parallel path is taken).
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
