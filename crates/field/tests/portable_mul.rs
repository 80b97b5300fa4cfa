//! The portable GF(2^128) product, in both integer-multiply variants, must
//! equal the textbook shift-and-add product and every carry-less multiply
//! kernel this CPU has, on random and on edge-case operands.

use longfellow_field::{Gf2Kernel, Gf2_128};
use proptest::prelude::*;

/// Operands that stress the carry bounds: dense words (the most ones per
/// column), one bit class only, single top or bottom bits, each half alone.
fn edge_values() -> Vec<u128> {
    let class4 = 0x1111_1111_1111_1111_1111_1111_1111_1111u128;
    let mut class5 = 0u128;
    for i in (0..128).step_by(5) {
        class5 |= 1 << i;
    }
    let mut v = vec![0, 1, 2, 0x87, u128::MAX, 1 << 127, 1 << 64, 1 << 63];
    v.extend((0..4).map(|k| class4 << k));
    v.extend((0..5).map(|k| class5 << k));
    v.extend([u64::MAX as u128, (u64::MAX as u128) << 64]);
    v.extend([u32::MAX as u128, 0xffff_ffff_0000_0000_ffff_ffff_0000_0000]);
    v
}

/// Every way this host computes `a·b`, which must all agree.
fn check(a: u128, b: u128) -> Result<(), TestCaseError> {
    let (x, y) = (Gf2_128::from_u128(a), Gf2_128::from_u128(b));
    let want = x.mul_textbook(y);
    prop_assert_eq!(x.mul_portable(y), want, "{:?} * {:?}", x, y);
    prop_assert_eq!(x.mul_comb64(y), want, "comb64 {:?} * {:?}", x, y);
    prop_assert_eq!(x.mul_comb32(y), want, "comb32 {:?} * {:?}", x, y);
    prop_assert_eq!(x * y, want);
    for kernel in Gf2Kernel::ALL {
        if let Some(got) = Gf2_128::mul_on(kernel, x, y) {
            prop_assert_eq!(got, want, "{} on {:?} * {:?}", kernel, x, y);
        }
    }
    Ok(())
}

#[test]
fn edge_values_agree_everywhere() {
    let edges = edge_values();
    for &a in &edges {
        for &b in &edges {
            check(a, b).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn random_products_agree_everywhere(a in any::<u128>(), b in any::<u128>()) {
        check(a, b)?;
    }

    /// Sparse operands (few bits, random positions) reach columns the
    /// random dense ones rarely isolate.
    #[test]
    fn sparse_products_agree_everywhere(
        a in prop::collection::vec(0u32..128, 0..6),
        b in prop::collection::vec(0u32..128, 0..6),
    ) {
        let bits = |v: &[u32]| v.iter().fold(0u128, |acc, &i| acc | 1 << i);
        check(bits(&a), bits(&b))?;
    }

    /// The batched operations on the portable path equal the element-wise
    /// textbook products.
    #[test]
    fn portable_batches_match_textbook(
        pairs in prop::collection::vec((any::<u128>(), any::<u128>()), 0..24),
        u in any::<u128>(),
    ) {
        let a: Vec<Gf2_128> = pairs.iter().map(|p| Gf2_128::from_u128(p.0)).collect();
        let b: Vec<Gf2_128> = pairs.iter().map(|p| Gf2_128::from_u128(p.1)).collect();
        let u = Gf2_128::from_u128(u);
        let dot = a.iter().zip(&b).fold(Gf2_128::from_u128(0), |s, (x, y)| s + x.mul_textbook(*y));
        prop_assert_eq!(Gf2_128::dot_on(Gf2Kernel::Portable, &a, &b), Some(dot));
        let mut y = a.clone();
        prop_assert!(Gf2_128::axpy_on(Gf2Kernel::Portable, &mut y, u, &b));
        let want: Vec<Gf2_128> = a.iter().zip(&b).map(|(x, z)| *x + u.mul_textbook(*z)).collect();
        prop_assert_eq!(&y, &want);
        let mut m = a.clone();
        prop_assert!(Gf2_128::mul_assign_slice_on(Gf2Kernel::Portable, &mut m, &b));
        let want: Vec<Gf2_128> = a.iter().zip(&b).map(|(x, z)| x.mul_textbook(*z)).collect();
        prop_assert_eq!(&m, &want);
    }
}
