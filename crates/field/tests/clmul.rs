//! The hardware carry-less multiply (when this CPU has one) must agree with
//! the portable constant-time code on every input.

use longfellow_field::{Gf2Kernel, Gf2_128};

use longfellow_test_rng::XorShift64;

fn next_elt(rng: &mut XorShift64) -> Gf2_128 {
    Gf2_128::from_u128(rng.next_u128())
}

#[test]
fn hardware_and_portable_products_agree() {
    let hardware = [
        Gf2Kernel::Clmul128,
        Gf2Kernel::Clmul256,
        Gf2Kernel::Clmul512,
    ];
    if !hardware.iter().any(|k| k.is_available()) {
        eprintln!("no carry-less multiply instruction on this CPU; comparison skipped");
        return;
    }
    let mut rng = XorShift64(0x2545_f491_4f6c_dd1d);
    for _ in 0..1_000_000 {
        let (a, b) = (next_elt(&mut rng), next_elt(&mut rng));
        let want = a.mul_portable(b);
        assert_eq!(a * b, want, "{a:?} * {b:?}");
        assert_eq!(Gf2_128::mul_on(Gf2Kernel::Clmul128, a, b), Some(want));
    }
    for (a, b) in [(u128::MAX, u128::MAX), (1 << 127, 1 << 127), (u128::MAX, 1)] {
        let (a, b) = (Gf2_128::from_u128(a), Gf2_128::from_u128(b));
        assert_eq!(a * b, a.mul_portable(b));
        assert_eq!(
            Gf2_128::mul_on(Gf2Kernel::Clmul128, a, b),
            Some(a.mul_portable(b))
        );
    }
}

/// The selection follows the CPU and the switch: PCLMULQDQ is used on
/// x86_64 exactly when the CPU has it and the switch is not `soft`.
#[cfg(target_arch = "x86_64")]
#[test]
fn x86_64_with_pclmulqdq_uses_it() {
    let soft = longfellow_field::kernels().request == longfellow_field::KernelRequest::Soft;
    assert_eq!(
        Gf2_128::uses_hardware_mul(),
        !soft && std::arch::is_x86_feature_detected!("pclmulqdq")
    );
}

/// What the process selected, for the test log.
#[test]
fn report_the_selected_kernels() {
    let info = longfellow_field::kernels();
    eprintln!("{info}");
    assert!(info.gf2_128.is_available());
    assert!(info.to_string().contains(info.gf2_128.name()));
}
