//! One role per process, for peak-RSS and CPU measurements with
//! `/usr/bin/time -v`: `rss prove [HASH]` loads the pair (.lfa2) and
//! reproduces the stored seed-42 proof; `rss verify [HASH]` loads the pair
//! and verifies the stored proof. Default HASH: v7, one attribute.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../mdoc/tests/common/mod.rs"]
mod common;

use longfellow_mdoc::Verifier;
use longfellow_mdoc_prover::Prover;
use longfellow_random::MdocLcg;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let role = args.get(1).map(String::as_str).unwrap_or("prove");
    let hash = args
        .get(2)
        .map(String::as_str)
        .unwrap_or(common::PROOFS[0].2);
    let (_, n, _) = common::PROOFS
        .iter()
        .find(|p| p.2 == hash)
        .copied()
        .expect("a stored proof's hash");
    let pair = common::load(hash);
    let (request, mdoc) = common::request(n);
    let expected = common::stored_proof(hash);
    match role {
        "prove" => {
            let prover = Prover::new(&pair).expect("prover");
            let proof = prover
                .prove(&request, &mdoc, &mut MdocLcg::new(42))
                .expect("prove");
            println!(
                "reference_match={}",
                if proof == expected { "yes" } else { "NO" }
            );
        }
        "verify" => {
            let ok = Verifier::new(&pair)
                .expect("verifier")
                .verify(&request, &expected)
                .is_ok();
            println!("verify_ok={ok}");
        }
        _ => panic!("role: prove | verify"),
    }
}
