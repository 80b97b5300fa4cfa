//! Proof bytes must not depend on the number of threads: Google's stored v7
//! one-attribute proof is reproduced inside 1-, 2- and 3-thread rayon
//! pools (the parallel paths of sumcheck, Ligero and Merkle all run in the
//! larger ones; three threads split the term passes unevenly).

// The reference inputs are shared with longfellow-mdoc's tests.
#[path = "../../mdoc/tests/common/mod.rs"]
mod common;

use longfellow_mdoc_prover::Prover;
use longfellow_random::MdocLcg;

fn prove_in_pool(threads: usize) -> Vec<u8> {
    let (_, n, hash) = common::PROOFS[0];
    let pair = common::load(hash);
    let (request, mdoc) = common::request(n);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    pool.install(|| {
        let prover = Prover::new(&pair).expect("prover");
        prover
            .prove(&request, &mdoc, &mut MdocLcg::new(42))
            .expect("prove")
    })
}

#[test]
fn same_bytes_on_any_thread_count() {
    longfellow_testvectors::require!();
    let expected = common::stored_proof(common::PROOFS[0].2);
    for threads in [1, 2, 3] {
        let proof = prove_in_pool(threads);
        assert_eq!(proof.len(), expected.len(), "{threads} thread(s): length");
        if let Some(at) = proof.iter().zip(&expected).position(|(a, b)| a != b) {
            panic!("{threads} thread(s): first differing byte at {at}");
        }
    }
}
