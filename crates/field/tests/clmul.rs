//! The hardware carry-less multiply (when this CPU has one) must agree with
//! the portable constant-time code on every input.

use longfellow_field::Gf2_128;

struct XorShift(u64);

impl XorShift {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn next_elt(&mut self) -> Gf2_128 {
        Gf2_128::from_u128(((self.next_u64() as u128) << 64) | self.next_u64() as u128)
    }
}

#[test]
fn hardware_and_portable_products_agree() {
    if !Gf2_128::uses_hardware_mul() {
        eprintln!("no carry-less multiply instruction on this CPU; comparison skipped");
        return;
    }
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    for _ in 0..1_000_000 {
        let (a, b) = (rng.next_elt(), rng.next_elt());
        assert_eq!(a * b, a.mul_portable(b), "{a:?} * {b:?}");
    }
    for (a, b) in [(u128::MAX, u128::MAX), (1 << 127, 1 << 127), (u128::MAX, 1)] {
        let (a, b) = (Gf2_128::from_u128(a), Gf2_128::from_u128(b));
        assert_eq!(a * b, a.mul_portable(b));
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn x86_64_with_pclmulqdq_uses_it() {
    assert_eq!(
        Gf2_128::uses_hardware_mul(),
        std::arch::is_x86_feature_detected!("pclmulqdq")
    );
}
