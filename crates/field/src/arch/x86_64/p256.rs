//! The P-256 base field in x86_64 assembly: the Montgomery product and
//! square with BMI2 MULX and the two ADX carry chains (ADCX on CF, ADOX on
//! OF), and the modular addition and subtraction in baseline instructions.
//!
//! LLVM compiles the portable u128 limb code with `mul` (fixed rax/rdx)
//! and materialises every carry with setb/movzx. MULX leaves the flags
//! alone and ADCX/ADOX carry through CF and OF separately, so a row of the
//! schoolbook product runs two independent carry chains: about 1.5 times
//! fewer cycles.

use core::arch::asm;

/// # Safety
/// The CPU must support BMI2 and ADX.
#[inline(always)]
pub(crate) unsafe fn wide_mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 8] {
    let (w0, w1, w2, w3, w4, w5, w6, w7): (u64, u64, u64, u64, u64, u64, u64, u64);
    // SAFETY: reads 32 bytes through each of two valid references and
    // writes only the declared registers; the caller guarantees the
    // instructions exist.
    unsafe {
        asm!(
            crate::arch::x86_64::p256_text::product!(),
            a = in(reg) a.as_ptr(),
            b = in(reg) b.as_ptr(),
            w0 = out(reg) w0,
            w1 = out(reg) w1,
            w2 = out(reg) w2,
            w3 = out(reg) w3,
            w4 = out(reg) w4,
            w5 = out(reg) w5,
            w6 = out(reg) w6,
            w7 = out(reg) w7,
            t = out(reg) _,
            h = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [w0, w1, w2, w3, w4, w5, w6, w7]
}

/// The Montgomery kernels: `$text` leaves a 512-bit value in
/// `w0`…`w7` (reading through `{a}`, and through `{b}` if the text uses
/// it, whose operand is `$b`), then `reduce!` brings it to the four
/// result limbs `(h, t, w0, w1)`, overwriting `{a}` and `{b}`.
macro_rules! mont_asm {
    ($text:expr, $a:expr, b = $($b:tt)+) => {{
        let (r0, r1, r2, r3): (u64, u64, u64, u64);
        asm!(
            $text,
            crate::arch::x86_64::p256_text::reduce!(),
            a = inout(reg) $a => _,
            b = $($b)+,
            w0 = out(reg) r2,
            w1 = out(reg) r3,
            w2 = out(reg) _,
            w3 = out(reg) _,
            w4 = out(reg) _,
            w5 = out(reg) _,
            w6 = out(reg) _,
            w7 = out(reg) _,
            t = out(reg) r1,
            h = out(reg) r0,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
        [r0, r1, r2, r3]
    }};
}

/// # Safety
/// The CPU must support BMI2 and ADX.
#[inline(always)]
pub(crate) unsafe fn mont_mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    // SAFETY: as in `wide_mul`.
    unsafe {
        mont_asm!(
            crate::arch::x86_64::p256_text::product!(),
            a.as_ptr(),
            b = inout(reg) b.as_ptr() => _
        )
    }
}

/// # Safety
/// The CPU must support BMI2 and ADX.
#[inline(always)]
pub(crate) unsafe fn mont_square(a: &[u64; 4]) -> [u64; 4] {
    // SAFETY: reads 32 bytes through a valid reference and writes only
    // the declared registers; the caller guarantees the instructions
    // exist.
    unsafe { mont_asm!(crate::arch::x86_64::p256_text::square!(), a.as_ptr(), b = out(reg) _) }
}

/// `(a + b) mod p` for reduced P-256 inputs, in baseline x86_64
/// instructions (no detection needed): the sum with its carry, a copy minus
/// p, and CMOV of the copy unless the subtraction borrowed.
#[inline(always)]
pub(crate) fn add(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let [mut r0, mut r1, mut r2, mut r3] = *a;
    let [s0, s1, s2, s3] = *b;
    // SAFETY: register-only arithmetic on the declared operands, using
    // instructions every x86_64 CPU has.
    unsafe {
        core::arch::asm!(
            "xor {c:e}, {c:e}",
            "add {r0}, {s0}",
            "adc {r1}, {s1}",
            "adc {r2}, {s2}",
            "adc {r3}, {s3}",
            "adc {c}, 0",
            "mov {s0}, {r0}",
            "mov {s1}, {r1}",
            "mov {s2}, {r2}",
            "mov {s3}, {r3}",
            "sub {s0}, -1",
            "sbb {s1}, {p1}",
            "sbb {s2}, 0",
            "sbb {s3}, {p3}",
            "sbb {c}, 0",
            "cmovnc {r0}, {s0}",
            "cmovnc {r1}, {s1}",
            "cmovnc {r2}, {s2}",
            "cmovnc {r3}, {s3}",
            r0 = inout(reg) r0,
            r1 = inout(reg) r1,
            r2 = inout(reg) r2,
            r3 = inout(reg) r3,
            s0 = inout(reg) s0 => _,
            s1 = inout(reg) s1 => _,
            s2 = inout(reg) s2 => _,
            s3 = inout(reg) s3 => _,
            c = out(reg) _,
            p1 = in(reg) 0xffff_ffffu64,
            p3 = in(reg) 0xffff_ffff_0000_0001u64,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `(a − b) mod p` for reduced P-256 inputs, in baseline x86_64
/// instructions: the difference, then p masked by the borrow added back.
#[inline(always)]
pub(crate) fn sub(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let [mut r0, mut r1, mut r2, mut r3] = *a;
    let [s0, s1, s2, s3] = *b;
    // SAFETY: register-only arithmetic on the declared operands, using
    // instructions every x86_64 CPU has.
    unsafe {
        core::arch::asm!(
            "sub {r0}, {s0}",
            "sbb {r1}, {s1}",
            "sbb {r2}, {s2}",
            "sbb {r3}, {s3}",
            // m = all ones on borrow. p & m = (m, m mod 2^32, 0, p3 & m),
            // and p3 = −(2^32 − 1) mod 2^64, so p3 & m = −(m mod 2^32).
            "sbb {m}, {m}",
            "mov {s1:e}, {m:e}",
            "mov {s3}, {s1}",
            "neg {s3}",
            "add {r0}, {m}",
            "adc {r1}, {s1}",
            "adc {r2}, 0",
            "adc {r3}, {s3}",
            r0 = inout(reg) r0,
            r1 = inout(reg) r1,
            r2 = inout(reg) r2,
            r3 = inout(reg) r3,
            s0 = in(reg) s0,
            s1 = inout(reg) s1 => _,
            s2 = in(reg) s2,
            s3 = inout(reg) s3 => _,
            m = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}
