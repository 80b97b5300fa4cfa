//! The sampling rules against independent formulations: a byte-counting
//! source checks how much each draw consumes, and the Fisher–Yates choice is
//! compared with the textbook O(n) shuffle.

use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_random::{
    choose, fill_elements, random_element, random_nat, random_subfield_element, try_choose,
    CounterRng, MdocLcg, RngCore,
};
use proptest::prelude::*;

/// Replays a fixed byte script and records the size of every request.
struct Script {
    bytes: Vec<u8>,
    pos: usize,
    requests: Vec<usize>,
}

impl Script {
    fn new(bytes: Vec<u8>) -> Self {
        Self {
            bytes,
            pos: 0,
            requests: Vec::new(),
        }
    }
}

impl RngCore for Script {
    fn next_u32(&mut self) -> u32 {
        unimplemented!("sampling must go through fill_bytes")
    }
    fn next_u64(&mut self) -> u64 {
        unimplemented!("sampling must go through fill_bytes")
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.requests.push(dest.len());
        dest.copy_from_slice(&self.bytes[self.pos..self.pos + dest.len()]);
        self.pos += dest.len();
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

#[test]
fn p256_rejects_non_canonical_attempts() {
    // Attempt 1: all ones (≥ p, rejected); attempt 2: p itself (rejected);
    // attempt 3: p − 1 (accepted).
    let p_le: [u8; 32] = {
        let mut be = [0u8; 32];
        be[..4].copy_from_slice(&[0xff; 4]);
        be[4..8].copy_from_slice(&[0, 0, 0, 1]);
        be[20..].copy_from_slice(&[0xff; 12]);
        be.reverse();
        be
    };
    let mut p_minus_1 = p_le;
    p_minus_1[0] -= 1;
    let mut script = [vec![0xff; 32], p_le.to_vec(), p_minus_1.to_vec()].concat();
    script.extend_from_slice(&[9; 8]);
    let mut rng = Script::new(script);
    let e: Fp256 = random_element(&mut rng);
    assert_eq!(rng.requests, [32, 32, 32]);
    assert_eq!(e, -Fp256::ONE);
}

#[test]
fn gf2_128_draws_take_16_and_2_bytes() {
    let mut rng = Script::new((0u8..64).collect());
    let e: Gf2_128 = random_element(&mut rng);
    let s: Gf2_128 = random_subfield_element(&mut rng);
    assert_eq!(rng.requests, [16, 2]);
    assert_eq!(e.to_repr().as_ref(), &(0u8..16).collect::<Vec<_>>()[..]);
    // Subfield coordinates 16, 17 little-endian = j = 0x1110 → inj(j).
    assert_eq!(s, Gf2_128::from_index(0x1110));
    assert!(s.is_in_subfield());
}

#[test]
fn fill_elements_draws_in_order() {
    let mut a = [Fp256::ZERO; 5];
    fill_elements(&mut MdocLcg::new(7), &mut a);
    let mut rng = MdocLcg::new(7);
    for (i, x) in a.iter().enumerate() {
        assert_eq!(*x, random_element::<Fp256, _>(&mut rng), "element {i}");
    }
}

#[test]
fn nat_reads_byte_length_of_n() {
    // n = 256 needs two bytes and keeps 9 bits: 0x01ff → rejected (511),
    // then 0x00ff → 255.
    let mut rng = Script::new(vec![0xff, 0x01, 0xff, 0x00]);
    assert_eq!(random_nat(&mut rng, 256), 255);
    assert_eq!(rng.requests, [2, 2]);
    // n = 1 reads one byte and keeps one bit, so odd bytes are rejected.
    let mut rng = Script::new(vec![0xab, 0xaa]);
    assert_eq!(random_nat(&mut rng, 1), 0);
    assert_eq!(rng.requests, [1, 1]);
    // n = 2^63 + 1 reads eight bytes.
    let mut rng = Script::new(vec![5, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(random_nat(&mut rng, (1 << 63) + 1), 5);
}

/// The textbook shuffle over an explicit array, with the same draws.
fn naive_choose(rng: &mut dyn RngCore, n: usize, k: usize) -> Vec<usize> {
    let mut a: Vec<usize> = (0..n).collect();
    let mut out = Vec::new();
    for i in 0..k {
        let j = i + random_nat(rng, (n - i) as u64) as usize;
        a.swap(i, j);
        out.push(a[i]);
    }
    out
}

#[test]
fn choose_refuses_more_than_n() {
    assert_eq!(try_choose(&mut CounterRng::new(0), 3, 4), None);
    assert_eq!(try_choose(&mut CounterRng::new(0), 0, 0), Some(vec![]));
}

proptest! {
    #[test]
    fn choose_matches_textbook_shuffle(seed in any::<u64>(), n in 1usize..2000, kf in 0.0f64..=1.0) {
        let k = ((n as f64) * kf) as usize;
        let got = choose(&mut MdocLcg::new(seed), n, k);
        let want = naive_choose(&mut MdocLcg::new(seed), n, k);
        prop_assert_eq!(&got, &want);
        let mut sorted = got.clone();
        sorted.sort_unstable();
        sorted.dedup();
        prop_assert_eq!(sorted.len(), k);
        prop_assert!(got.iter().all(|&x| x < n));
    }

    #[test]
    fn nat_is_below_n(seed in any::<u64>(), n in 1u64..u64::MAX) {
        let mut rng = MdocLcg::new(seed);
        for _ in 0..8 {
            prop_assert!(random_nat(&mut rng, n) < n);
        }
    }
}
