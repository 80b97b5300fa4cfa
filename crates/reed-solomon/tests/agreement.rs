//! The fast encoders against two independent references: direct evaluation
//! of a random polynomial (Horner, monomial basis) and the barycentric
//! [`LagrangeEncoder`].

use longfellow_field::{Field, Fp128, Fp256, Gf2_128};
use longfellow_reed_solomon::{LagrangeEncoder, RsEncoder, RsField};
use rand::{rngs::StdRng, RngCore, SeedableRng};

fn random_elt<F: Field>(rng: &mut StdRng) -> F {
    let mut buf = vec![0u8; F::SAMPLE_BYTES];
    loop {
        rng.fill_bytes(&mut buf);
        if let Some(x) = F::from_uniform_bytes(&buf) {
            return x;
        }
    }
}

/// Values at `X_0..X_{n−1}` of a random polynomial of degree `< k`.
fn random_codeword<F: Field>(k: usize, n: usize, seed: u64) -> Vec<F> {
    let mut rng = StdRng::seed_from_u64(seed);
    let coeffs: Vec<F> = (0..k).map(|_| random_elt(&mut rng)).collect();
    (0..n as u64)
        .map(|j| {
            let x = F::from_index(j);
            coeffs.iter().rev().fold(F::ZERO, |acc, c| acc * x + *c)
        })
        .collect()
}

/// Extends the first `k` values of a codeword with `enc` and compares.
fn check_encoder<F: Field, E: RsEncoder<F>>(enc: &E, seed: u64, what: &str) {
    let (k, n) = (enc.k(), enc.n());
    let expect = random_codeword::<F>(k, n, seed);
    let mut row = expect.clone();
    // Garbage in the output area must be overwritten.
    for x in &mut row[k..] {
        *x = F::from_u64(0xdead);
    }
    enc.extend(&mut row);
    assert!(row == expect, "{what}: k = {k}, n = {n}");
}

/// [`check_encoder`] through `extend_with` in the caller's `scratch`.
fn check_encoder_with<F: Field, E: RsEncoder<F>>(
    enc: &E,
    scratch: &mut E::Scratch,
    seed: u64,
    what: &str,
) {
    let (k, n) = (enc.k(), enc.n());
    let expect = random_codeword::<F>(k, n, seed);
    let mut row = expect.clone();
    for x in &mut row[k..] {
        *x = F::from_u64(0xbeef);
    }
    enc.extend_with(&mut row, scratch);
    assert!(row == expect, "{what}: k = {k}, n = {n}");
}

fn check_sizes<F: RsField>(sizes: &[(usize, usize)], lagrange_too: bool) {
    // Working memory carried over from the previous (other-sized) encoder:
    // what it holds, and its size, must not matter.
    let mut carried: Option<<F::Encoder as RsEncoder<F>>::Scratch> = None;
    for (i, &(k, n)) in sizes.iter().enumerate() {
        let fast = F::rs_encoder(k, n).expect("valid sizes");
        check_encoder(&fast, i as u64, "fast");
        // Reuse: a second row through the same encoder.
        check_encoder(&fast, 1000 + i as u64, "fast (reused)");
        // Two rows in one scratch: the second starts from the first's data.
        let mut scratch = fast.scratch();
        check_encoder_with(&fast, &mut scratch, 3000 + i as u64, "fast, own scratch");
        check_encoder_with(&fast, &mut scratch, 4000 + i as u64, "fast, scratch reused");
        if let Some(mut other) = carried.take() {
            check_encoder_with(&fast, &mut other, 5000 + i as u64, "fast, other's scratch");
        }
        carried = Some(scratch);
        if lagrange_too {
            let slow = LagrangeEncoder::<F>::new(k, n).expect("valid sizes");
            check_encoder(&slow, 2000 + i as u64, "lagrange");
        }
    }
}

/// Sizes around powers of two plus k = 1 and k = n.
const EDGE_SIZES: &[(usize, usize)] = &[
    (1, 1),
    (1, 2),
    (1, 9),
    (2, 2),
    (2, 3),
    (3, 4),
    (4, 4),
    (4, 5),
    (5, 6),
    (7, 9),
    (8, 9),
    (8, 16),
    (9, 17),
    (16, 17),
    (17, 33),
    (31, 100),
    (32, 65),
    (100, 128),
    (100, 129),
    (128, 257),
];

#[test]
fn gf2_128_edge_sizes() {
    check_sizes::<Gf2_128>(EDGE_SIZES, true);
}

#[test]
fn p256_edge_sizes() {
    check_sizes::<Fp256>(EDGE_SIZES, true);
}

#[test]
fn fp128_edge_sizes() {
    check_sizes::<Fp128>(EDGE_SIZES, true);
}

/// Ligero extends `block → block_enc`, `dblock → block_enc` and
/// `block → dblock` (dblock = 2·block − 1). v7 hash circuit: block 461,
/// block_enc 4151; v7 signature circuit: block 455, block_enc 4096; v6
/// signature: block_enc 2945 with rateinv 4 → block 491; Ref testdata:
/// block_enc 256 with rateinv 3/4 → block 51/43.
#[test]
fn gf2_128_ligero_sizes() {
    check_sizes::<Gf2_128>(
        &[
            (461, 4151),
            (921, 4151),
            (461, 921),
            (51, 256),
            (101, 256),
            (51, 101),
            // v7 hash circuits with 2..4 attributes.
            (474, 4265),
            (479, 4307),
            (491, 4415),
        ],
        false,
    );
}

#[test]
fn p256_ligero_sizes() {
    check_sizes::<Fp256>(
        &[
            (455, 4096),
            (909, 4096),
            (455, 909),
            (491, 2945),
            (981, 2945),
            (43, 256),
            (85, 256),
        ],
        false,
    );
}

#[test]
fn fp128_larger_sizes() {
    check_sizes::<Fp128>(&[(455, 4096), (909, 4096), (461, 4151)], false);
}

/// Lagrange at the real sizes too (about a second in the test profile).
#[test]
fn lagrange_agrees_at_real_sizes() {
    let check = |k, n| {
        let fast = Gf2_128::rs_encoder(k, n).expect("test setup");
        let slow = LagrangeEncoder::<Gf2_128>::new(k, n).expect("test setup");
        let mut a = random_codeword::<Gf2_128>(k, n, 77);
        let mut rng = StdRng::seed_from_u64(78);
        // Arbitrary inputs, not just a codeword: the same values must come out.
        for x in &mut a[..k] {
            *x = random_elt(&mut rng);
        }
        let mut b = a.clone();
        fast.extend(&mut a);
        slow.extend(&mut b);
        assert!(a == b, "GF(2^128) k = {k}, n = {n}");
    };
    check(461, 4151);
    let fast = Fp256::rs_encoder(455, 4096).expect("test setup");
    let slow = LagrangeEncoder::<Fp256>::new(455, 4096).expect("test setup");
    let mut rng = StdRng::seed_from_u64(79);
    let mut a: Vec<Fp256> = (0..4096).map(|_| random_elt(&mut rng)).collect();
    let mut b = a.clone();
    fast.extend(&mut a);
    slow.extend(&mut b);
    assert!(a == b, "P-256 k = 455, n = 4096");
}

#[test]
fn largest_binary_codeword() {
    // n = 2^16 − 1 touches the top subfield basis element β_15.
    check_sizes::<Gf2_128>(&[(3, 65535), (200, 65535)], false);
    // Large k without an O(k·n) reference: a codeword of degree < 200 is
    // also one of degree < k for every larger k.
    let expect = random_codeword::<Gf2_128>(200, 65535, 5);
    for k in [32_768, 32_769, 40_000] {
        let mut row = expect.clone();
        row[k..].fill(Gf2_128::ZERO);
        Gf2_128::rs_encoder(k, 65535)
            .expect("test setup")
            .extend(&mut row);
        assert!(row == expect, "k = {k}");
    }
}
