//! Random satisfiable layered circuits for property tests and benches.

use longfellow_field::Field;
use longfellow_random::{random_element, MdocLcg, RngCore};
use longfellow_sumcheck::{log2_ceil, SimpleCircuit, SimpleLayer, Term};

/// A random circuit whose outputs are all zero on the returned inputs.
///
/// Hidden layers are random; layer 0 computes `k·a·b + (−k)·b·a` per output
/// (zero, but with non-trivial hand pairs), and the input layer carries
/// assertion terms on a zero input. `widths[j]` is the number of input wires
/// of layer `j` (the last one is the number of circuit inputs).
pub fn random_circuit<F: Field>(
    seed: u64,
    nv: usize,
    widths: &[usize],
    terms_per_wire: usize,
    npub: usize,
) -> (SimpleCircuit<F>, Vec<F>) {
    let mut rng = MdocLcg::new(seed);
    let nl = widths.len();
    let ninputs = widths[nl - 1];
    let mut layers = Vec::with_capacity(nl);
    let below = |n: usize, rng: &mut MdocLcg| (rng.next_u64() % n as u64) as u32;
    for (j, &nw) in widths.iter().enumerate() {
        let nout = if j == 0 { nv } else { widths[j - 1] };
        let mut terms = Vec::new();
        if j == 0 {
            for g in 0..nout as u32 {
                let (a, b) = (below(nw, &mut rng), below(nw, &mut rng));
                let k: F = random_element(&mut rng);
                terms.push(Term { g, h0: a, h1: b, k });
                terms.push(Term {
                    g,
                    h0: b,
                    h1: a,
                    k: -k,
                });
            }
        } else {
            for _ in 0..terms_per_wire * nout {
                let g = below(nout, &mut rng);
                let (h0, h1) = (below(nw, &mut rng), below(nw, &mut rng));
                let k: F = random_element(&mut rng);
                terms.push(Term { g, h0, h1, k });
            }
            // Every output wire gets at least one term.
            for g in 0..nout as u32 {
                let k: F = random_element(&mut rng);
                terms.push(Term {
                    g,
                    h0: below(nw, &mut rng),
                    h1: 0,
                    k,
                });
            }
        }
        if j == nl - 1 && ninputs > 1 {
            // Input 1 is zero: assertions on it hold.
            for _ in 0..3 {
                let g = below(nout, &mut rng);
                terms.push(Term {
                    g,
                    h0: 1,
                    h1: below(nw, &mut rng),
                    k: F::ZERO,
                });
            }
        }
        terms.sort_by_key(|t| (t.g, t.h0, t.h1));
        layers.push(SimpleLayer {
            logw: log2_ceil(nw).max(1),
            nw,
            terms,
        });
    }
    let mut inputs: Vec<F> = (0..ninputs).map(|_| random_element(&mut rng)).collect();
    inputs[0] = F::ONE;
    if ninputs > 1 {
        inputs[1] = F::ZERO;
    }
    let mut id = [0u8; 32];
    rng.fill_bytes(&mut id);
    let circuit = SimpleCircuit {
        id,
        num_outputs: nv,
        num_inputs: ninputs,
        num_public_inputs: npub.min(ninputs),
        subfield_boundary: ninputs,
        layers,
    };
    (circuit, inputs)
}
