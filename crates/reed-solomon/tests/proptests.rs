//! Randomised agreement with the Lagrange reference on small sizes, plus
//! structural laws (inputs untouched, linearity).

use longfellow_field::{Field, Fp128, Fp256, Gf2_128};
use longfellow_reed_solomon::{LagrangeEncoder, RsEncoder, RsField};
use proptest::prelude::*;

/// Elements from arbitrary bytes; rejected samples map to a small integer
/// so every byte string gives some element.
fn elements<F: Field>(bytes: &[u8], count: usize) -> Vec<F> {
    (0..count)
        .map(|i| {
            let mut buf = vec![0u8; F::SAMPLE_BYTES];
            for (j, b) in buf.iter_mut().enumerate() {
                *b = bytes[(i * F::SAMPLE_BYTES + j) % bytes.len()] ^ (i as u8);
            }
            F::from_uniform_bytes(&buf).unwrap_or(F::from_u64(i as u64))
        })
        .collect()
}

fn agree<F: RsField>(k: usize, extra: usize, bytes: &[u8]) -> Result<(), TestCaseError> {
    let n = k + extra;
    let inputs = elements::<F>(bytes, k);
    let mut fast = vec![F::ZERO; n];
    fast[..k].copy_from_slice(&inputs);
    let mut slow = fast.clone();
    F::rs_encoder(k, n).expect("test setup").extend(&mut fast);
    LagrangeEncoder::<F>::new(k, n)
        .expect("test setup")
        .extend(&mut slow);
    prop_assert_eq!(&fast[..k], &inputs[..]);
    prop_assert!(fast == slow);
    Ok(())
}

fn linear<F: RsField>(k: usize, extra: usize, bytes: &[u8]) -> Result<(), TestCaseError> {
    let n = k + extra;
    let enc = F::rs_encoder(k, n).expect("test setup");
    let all = elements::<F>(bytes, 2 * k + 1);
    let (a, b, c) = (&all[..k], &all[k..2 * k], all[2 * k]);
    let run = |x: Vec<F>| {
        let mut row = x;
        row.resize(n, F::ZERO);
        enc.extend(&mut row);
        row
    };
    let ra = run(a.to_vec());
    let rb = run(b.to_vec());
    let rab = run(a.iter().zip(b).map(|(x, y)| c * *x + *y).collect());
    let combo: Vec<F> = ra.iter().zip(&rb).map(|(x, y)| c * *x + *y).collect();
    prop_assert!(rab == combo);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn gf2_128_agrees(k in 1usize..40, extra in 0usize..90, bytes in prop::collection::vec(any::<u8>(), 1..64)) {
        agree::<Gf2_128>(k, extra, &bytes)?;
    }

    #[test]
    fn p256_agrees(k in 1usize..40, extra in 0usize..90, bytes in prop::collection::vec(any::<u8>(), 1..64)) {
        agree::<Fp256>(k, extra, &bytes)?;
    }

    #[test]
    fn fp128_agrees(k in 1usize..40, extra in 0usize..90, bytes in prop::collection::vec(any::<u8>(), 1..64)) {
        agree::<Fp128>(k, extra, &bytes)?;
    }

    #[test]
    fn gf2_128_linear(k in 1usize..30, extra in 0usize..60, bytes in prop::collection::vec(any::<u8>(), 1..64)) {
        linear::<Gf2_128>(k, extra, &bytes)?;
    }

    #[test]
    fn p256_linear(k in 1usize..30, extra in 0usize..60, bytes in prop::collection::vec(any::<u8>(), 1..64)) {
        linear::<Fp256>(k, extra, &bytes)?;
    }
}
