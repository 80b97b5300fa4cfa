//! Every round strategy (`RoundStrategy::ALL`, under the default and the
//! eager storage tuning) against the textbook prover, at 1, 2 and 3
//! threads: on every layer of random small circuits, and on the largest
//! layer of each real mdoc circuit (skipped, with one printed line, when
//! the vectors are absent). A mismatch names the strategy, the tuning, the
//! thread count, the layer, the round and the hand.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::random_circuit::random_circuit;
use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_random::{random_element, MdocLcg};
use longfellow_sumcheck::{log2_ceil, LayeredCircuit};
use longfellow_sumcheck_prover::reference::textbook;
use longfellow_sumcheck_prover::{bound_layer_form, layer_round_values, RoundStrategy, Tuning};
use proptest::prelude::*;

/// Checks every strategy on layer `l` of `circuit` with random wires,
/// output point and challenges drawn from `seed`. With a `palette` the
/// wires take only that many distinct values, as the hash circuit's do, so
/// that the prover stores them table-coded and takes the paths that read
/// codes (the code-bucketed round sums).
fn check_layer<F: Field, C: LayeredCircuit<F>>(
    circuit: &C,
    l: usize,
    seed: u64,
    palette: Option<usize>,
    what: &str,
) {
    let mut rng = MdocLcg::new(seed);
    let nw = circuit.layer_nw(l);
    let logw = circuit.layer_logw(l);
    let logv = log2_ceil(circuit.layer_nv(l));
    let draw =
        |n: usize, rng: &mut MdocLcg| (0..n).map(|_| random_element(rng)).collect::<Vec<F>>();
    let wires = match palette {
        None => draw(nw, &mut rng),
        Some(k) => {
            let values = draw(k, &mut rng);
            // Each wire picks its value by a multiplicative hash of its
            // index: fixed, and spread over the whole palette.
            (0..nw)
                .map(|i| values[(i.wrapping_mul(2_654_435_761) >> 7) % k])
                .collect()
        }
    };
    let (g0, g1) = (draw(logv, &mut rng), draw(logv, &mut rng));
    let (alpha, beta): (F, F) = (random_element(&mut rng), random_element(&mut rng));
    let challenges = draw(2 * logw, &mut rng);

    let quad = bound_layer_form(circuit, l, &g0, &g1, alpha, beta, &Tuning::default()).unwrap();
    let entries: Vec<([u32; 2], F)> = quad.entries().collect();
    let claim = textbook::claim(&entries, &wires, &wires);
    let want = textbook::layer_round_values(&entries, &wires, logw, &challenges);

    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for (tuning_name, base) in [("default", Tuning::default()), ("eager", Tuning::eager())] {
            for strategy in RoundStrategy::ALL {
                let tuning = Tuning { strategy, ..base };
                let got = pool
                    .install(|| {
                        layer_round_values(
                            strategy,
                            &tuning,
                            quad.clone(),
                            wires.clone(),
                            logw,
                            &challenges,
                            claim,
                        )
                    })
                    .unwrap_or_else(|e| {
                        panic!("{what}: strategy {strategy:?} ({tuning_name} tuning), {threads} thread(s), layer {l}: {e}")
                    });
                assert_eq!(got.len(), want.len());
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    if g != w {
                        let at = if i == 2 * logw {
                            "final (Q, c0, c1)".to_string()
                        } else {
                            format!("round {} hand {}", i / 2, i % 2)
                        };
                        panic!(
                            "{what}: strategy {strategy:?} ({tuning_name} tuning), {threads} thread(s), layer {l}, {at}: got {g:?}, textbook {w:?}"
                        );
                    }
                }
            }
        }
    }
}

fn check_circuit<F: Field>(
    seed: u64,
    nv: usize,
    widths: &[usize],
    terms: usize,
    palette: Option<usize>,
) {
    let (circuit, _) = random_circuit::<F>(seed, nv, widths, terms, 1);
    for l in 0..circuit.num_layers() {
        check_layer(&circuit, l, seed ^ l as u64, palette, "random circuit");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn strategies_match_textbook_on_random_circuits(
        seed in any::<u64>(),
        nv in 1usize..40,
        widths in proptest::collection::vec(2usize..70, 1..4),
        terms in 1usize..4,
        palette in proptest::option::of(1usize..6),
    ) {
        check_circuit::<Gf2_128>(seed, nv, &widths, terms, palette);
        check_circuit::<Fp256>(seed, nv, &widths, terms, palette);
    }
}

/// The v7 one-attribute circuit pair.
const PAIR: &str =
    "google/mdoc/circuits/8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";

fn largest_layer<F: Field, C: LayeredCircuit<F>>(c: &C) -> usize {
    (0..c.num_layers())
        .max_by_key(|&l| c.layer_num_terms(l))
        .unwrap()
}

#[test]
fn strategies_match_textbook_on_mdoc_largest_layers() {
    longfellow_testvectors::require!();
    let path = longfellow_testvectors::path(PAIR);
    if !path.exists() {
        println!(
            "skipped: {} not found (set LONGFELLOW_VECTORS)",
            path.display()
        );
        return;
    }
    let pair = longfellow_circuit::load_pair(&longfellow_testvectors::read(PAIR)).unwrap();
    let l = largest_layer(&pair.hash);
    check_layer(&pair.hash, l, 1, None, "mdoc hash circuit");
    check_layer(&pair.hash, l, 3, Some(40), "mdoc hash circuit, coded wires");
    let l = largest_layer(&pair.sig);
    check_layer(&pair.sig, l, 2, None, "mdoc signature circuit");
}
