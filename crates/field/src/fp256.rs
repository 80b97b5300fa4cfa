//! The P-256 base field, used by the signature circuit.

use crate::arch::{P256Asm, P256Ifma};
use crate::limbs::{adc, double_mod, mac, select_n, sub_n};
use crate::prime::prime_field;

prime_field!(
    /// An element of GF(p) for the P-256 base prime
    /// p = 2^256 − 2^224 + 2^192 + 2^96 − 1 (circuit field ID 1).
    Fp256,
    limbs = 4,
    modulus = P,
    field_id = 1,
    square = Self::mont_square,
    add = Self::add_limbs,
    sub = Self::sub_limbs,
    neg = Self::neg_limbs
);

/// 2^320 mod p: the Montgomery residue of 2^64, which turns S·2⁻³²⁰ into
/// S·2⁻²⁵⁶ in one Montgomery product.
const TWO_POW_320: [u64; 4] = {
    let mut x = [1u64, 0, 0, 0];
    let mut i = 0;
    while i < 320 {
        x = double_mod(&x, &P);
        i += 1;
    }
    x
};

const P: [u64; 4] = [
    0xffff_ffff_ffff_ffff,
    0x0000_0000_ffff_ffff,
    0x0000_0000_0000_0000,
    0xffff_ffff_0000_0001,
];

impl Fp256 {
    /// `self^(p−2)` (the inverse; zero maps to zero) by a fixed addition
    /// chain: 255 squarings and 12 multiplications, independent of the value.
    ///
    /// p − 2 = ffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff
    /// fffffffd (hex, by 32-bit words). With xₖ = self^(2^k − 1), each step
    /// `r ← r^(2^n)·xₖ` appends n bits to the exponent, ending in k ones.
    fn fermat_inverse(&self) -> Self {
        let x1 = *self;
        let x2 = x1.square_times(1) * x1;
        let x3 = x2.square_times(1) * x1;
        let x6 = x3.square_times(3) * x3;
        let x12 = x6.square_times(6) * x6;
        let x15 = x12.square_times(3) * x3;
        let x30 = x15.square_times(15) * x15;
        let x32 = x30.square_times(2) * x2;
        // ffffffff | 00000001 | 00000000×3 ffffffff | ffffffff | fffffffd
        let r = x32;
        let r = r.square_times(32) * x1;
        let r = r.square_times(128) * x32;
        let r = r.square_times(32) * x32;
        let r = r.square_times(30) * x30;
        r.square_times(2) * x1
    }

    /// `Σ a_i·b_i` with one reduction: the 512-bit limb products of the
    /// Montgomery residues are summed exactly in a 576-bit accumulator
    /// (any count below 2^64 terms fits), then reduced once. Constant time
    /// in the values.
    ///
    /// With residues ã = aR, b̃ = bR the wanted residue is S·R⁻¹ for
    /// S = Σ ã·b̃. Five Montgomery steps (m = t₀, as −p⁻¹ ≡ 1) give
    /// S·2⁻³²⁰ < 2^256 + p; two conditional subtractions make it < p, and
    /// one product with 2^320 mod p in Montgomery form restores S·2⁻²⁵⁶.
    ///
    /// With AVX-512 IFMA allowed, whole blocks of eight are summed by the
    /// eight-lane kernel first; its total `V` is congruent to the sum of
    /// their Montgomery products `Σ ã·b̃·2⁻²⁵⁶`, so it enters the
    /// accumulator as `V·2^256`, which the one reduction maps to the same
    /// residue as the products it stands for.
    fn dot_impl(a: &[Self], b: &[Self]) -> Self {
        match P256Asm::detect() {
            Some(asm) => {
                let (high, done) = P256Ifma::detect().map_or(([0; 5], 0), |k| k.dot(a, b));
                Self::dot_with(&a[done..], &b[done..], high, |x, y| asm.wide_mul(x, y))
            }
            None => Self::dot_with(a, b, [0; 5], Self::wide_mul),
        }
    }

    /// `y_i ← y_i + u·x_i`. With the assembly the kernel choice is read
    /// once per slice and the operands are read in place: through the
    /// per-element operators each product re-read the choice twice and
    /// copied both operands to the stack for the assembly's pointers
    /// (the signature circuit's bindings run this loop).
    ///
    /// With AVX-512 IFMA allowed, whole blocks of eight go through the
    /// eight-lane kernel first (about 0.4 of the MULX loop's time per
    /// element on Zen 5) and the scalar loop does the rest.
    fn axpy_impl(y: &mut [Self], u: Self, x: &[Self]) {
        match P256Asm::detect() {
            Some(asm) => {
                let done = P256Ifma::detect().map_or(0, |k| k.axpy(y, &u, x));
                for (a, b) in y[done..].iter_mut().zip(&x[done..]) {
                    let p = asm.mont_mul(&u.0, &b.0);
                    a.0 = asm.add(&a.0, &p);
                }
            }
            None => crate::traits::ops_loops::axpy(y, u, x),
        }
    }

    /// `x_i ← x_i·y_i`, the kernel choice read once per slice and whole
    /// blocks through IFMA as in [`Self::axpy_impl`].
    fn mul_assign_slice_impl(x: &mut [Self], y: &[Self]) {
        match P256Asm::detect() {
            Some(asm) => {
                let done = P256Ifma::detect().map_or(0, |k| k.mul_assign_slice(x, y));
                for (a, b) in x[done..].iter_mut().zip(&y[done..]) {
                    a.0 = asm.mont_mul(&a.0, &b.0);
                }
            }
            None => crate::traits::ops_loops::mul_assign_slice(x, y),
        }
    }

    /// `out_i ← a·x_i + b·y_i`, the kernel choice read once per slice as
    /// in [`Self::axpy_impl`] (the signature circuit's two-point eq table
    /// rows, in the prover and the verifier). Two reductions per element
    /// in the scalar loop, as the operators make (the assembly reduces
    /// only a single product); one in the IFMA blocks, which sum both
    /// products unreduced.
    fn lincomb2_impl(out: &mut [Self], a: Self, x: &[Self], b: Self, y: &[Self]) {
        match P256Asm::detect() {
            Some(asm) => {
                let done = P256Ifma::detect().map_or(0, |k| k.lincomb2(out, &a, x, &b, y));
                let rest = out[done..].iter_mut().zip(&x[done..]).zip(&y[done..]);
                for ((o, p), q) in rest {
                    let (ap, bq) = (asm.mont_mul(&a.0, &p.0), asm.mont_mul(&b.0, &q.0));
                    o.0 = asm.add(&ap, &bq);
                }
            }
            None => crate::traits::ops_loops::lincomb2(out, a, x, b, y),
        }
    }

    /// Products in `F[i]/(i² + 1)` (the P-256 Reed–Solomon FFT's
    /// twiddle products): whole blocks of four through the IFMA kernel
    /// when it is allowed, the rest three base products each.
    fn mul_assign_gaussian_slice_impl(x: &mut [[Self; 2]], y: &[[Self; 2]]) {
        let done = P256Ifma::detect().map_or(0, |k| k.mul_assign_gaussian_slice(x, y));
        crate::traits::ops_loops::mul_assign_gaussian_slice(&mut x[done..], &y[done..]);
    }

    /// Whether the Gaussian products run the IFMA kernel.
    fn gaussian_slice_is_kernel_impl() -> bool {
        P256Ifma::detect().is_some()
    }

    /// [`Field::dot`] without the assembly. Exposed so tests and benchmarks
    /// can compare it against the dispatched path.
    #[doc(hidden)]
    pub fn dot_portable(a: &[Self], b: &[Self]) -> Self {
        Self::dot_with(a, b, [0; 5], Self::wide_mul)
    }

    /// Product computed by the portable Rust code, never the assembly.
    /// Exposed so tests and benchmarks can compare it against `*`.
    #[doc(hidden)]
    pub fn mul_portable(self, rhs: Self) -> Self {
        Self(Self::mont_mul_portable(&self.0, &rhs.0))
    }

    /// Product computed by the generic N-limb CIOS Montgomery code shared
    /// with the other prime fields: the reference for tests and benchmarks.
    #[doc(hidden)]
    pub fn mul_generic(self, rhs: Self) -> Self {
        Self(Self::MODULUS.mul(&self.0, &rhs.0))
    }

    /// The Montgomery residue's limbs, for the IFMA kernels' tests.
    #[cfg(all(test, target_arch = "x86_64"))]
    pub(crate) fn residue(self) -> [u64; 4] {
        self.0
    }

    /// Whether products run the x86_64 BMI2/ADX assembly on this CPU.
    #[doc(hidden)]
    pub fn uses_asm_mul() -> bool {
        P256Asm::detect().is_some()
    }

    /// The body of [`Self::dot_impl`], with the 512-bit product supplied.
    #[inline(always)]
    fn dot_with(
        a: &[Self],
        b: &[Self],
        high: [u64; 5],
        wide_mul: impl Fn(&[u64; 4], &[u64; 4]) -> [u64; 8],
    ) -> Self {
        // `high·2^256` to start from. The kernel's total over n elements
        // is below n·2^258 and each product here below 2^512, so the sum
        // stays below 2^576 for any slice that fits in memory.
        let mut acc = [0, 0, 0, 0, high[0], high[1], high[2], high[3], high[4]];
        for (x, y) in a.iter().zip(b) {
            let w = wide_mul(&x.0, &y.0);
            let mut carry = 0;
            for (s, &wi) in acc.iter_mut().zip(&w) {
                let (v, c) = adc(*s, wi, carry);
                *s = v;
                carry = c;
            }
            acc[8] = acc[8].wrapping_add(carry);
        }
        // (S + M·p)/2^320, one 64-bit word of M at a time; acc[9] is the
        // carry out of the top.
        let mut t = [0u64; 10];
        t[..9].copy_from_slice(&acc);
        for i in 0..5 {
            let m = t[i];
            let mut carry = 0;
            for (j, &pj) in P.iter().enumerate() {
                let (v, c) = mac(t[i + j], m, pj, carry);
                t[i + j] = v;
                carry = c;
            }
            for limb in t[i + 4..].iter_mut() {
                let (v, c) = adc(*limb, carry, 0);
                *limb = v;
                carry = c;
            }
        }
        let mut v = [t[5], t[6], t[7], t[8]];
        let mut top = t[9];
        for _ in 0..2 {
            let (diff, borrow) = sub_n(&v, &P);
            // Subtract when (top, v) ≥ p: top set, or no borrow.
            let take = ((top | (borrow ^ 1)) & 1).wrapping_neg();
            v = select_n(&v, &diff, take);
            top &= !take & 1;
        }
        Self(Self::mont_mul(&v, &TWO_POW_320))
    }

    /// The full 512-bit product of two 256-bit integers.
    #[inline(always)]
    fn wide_mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 8] {
        let mut w = [0u64; 8];
        for (i, &ai) in a.iter().enumerate() {
            let mut carry = 0;
            for (j, &bj) in b.iter().enumerate() {
                let (lo, hi) = mac(w[i + j], ai, bj, carry);
                w[i + j] = lo;
                carry = hi;
            }
            w[i + 4] = carry;
        }
        w
    }

    /// Montgomery product `a·b·2⁻²⁵⁶ mod p` of reduced inputs, fully
    /// reduced: the x86_64 assembly when the CPU has BMI2 and ADX, else the
    /// portable code. Both return the same limbs (tested against each other
    /// and against the generic CIOS product).
    #[inline(always)]
    fn mont_mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        match P256Asm::detect() {
            Some(asm) => asm.mont_mul(a, b),
            None => Self::mont_mul_portable(a, b),
        }
    }

    /// Montgomery square `a²·2⁻²⁵⁶ mod p` (equal to `mont_mul(a, a)`): ten
    /// word products instead of sixteen in the assembly.
    #[inline(always)]
    fn mont_square(a: &[u64; 4]) -> [u64; 4] {
        match P256Asm::detect() {
            Some(asm) => asm.mont_square(a),
            None => Self::mont_mul_portable(a, a),
        }
    }

    /// `(a + b) mod p` for reduced inputs: x86_64 assembly (baseline
    /// instructions; off only when the switch asks for portable code), else
    /// the generic code. LLVM turns
    /// the generic carry and mask code into setb/sar chains (and, in some
    /// contexts, a branch on the comparison); the assembly is a plain
    /// ADD/ADC, SUB/SBB and CMOV sequence, about 2.5 times faster.
    #[inline(always)]
    fn add_limbs(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        crate::arch::p256_add(a, b).unwrap_or_else(|| Self::MODULUS.add(a, b))
    }

    /// `(a − b) mod p` for reduced inputs; see [`Self::add_limbs`].
    #[inline(always)]
    fn sub_limbs(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        crate::arch::p256_sub(a, b).unwrap_or_else(|| Self::MODULUS.sub(a, b))
    }

    /// `−a mod p` (zero stays zero), as 0 − a.
    #[inline(always)]
    fn neg_limbs(a: &[u64; 4]) -> [u64; 4] {
        Self::sub_limbs(&[0; 4], a)
    }

    /// Montgomery product specialised to the shape of p (constant time).
    ///
    /// The 16 word products are independent (good for the pipeline); then
    /// REDC runs on the low half only, and the high half (< p, as a·b < p²)
    /// is added with one modular addition: (lo + M·p)/2^256 ≤ p.
    ///
    /// Because p ≡ −1 mod 2^64, the Montgomery factor −p⁻¹ mod 2^64 is 1 and
    /// each reduction step uses m = t₀ directly. The low two limbs of p form
    /// 2^96 − 1, so adding m·p cancels t₀ and adds m·2^96, i.e. `m << 32`
    /// into limb 1 and `m >> 32` into limb 2; limb 2 of p is zero; only
    /// m·p₃ needs a real multiplication: 16 + 4 multiplications in all
    /// instead of 32.
    ///
    /// On x86_64 this is the fallback for CPUs without BMI2/ADX, kept out
    /// of line so that every product site inlines only the assembly.
    #[cfg_attr(target_arch = "x86_64", inline(never), cold)]
    #[cfg_attr(not(target_arch = "x86_64"), inline(always))]
    fn mont_mul_portable(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        let w = Self::wide_mul(a, b);
        // (low + M·p)/2^256 ≤ p, one word of M at a time with m = t₀.
        let mut t = [w[0], w[1], w[2], w[3]];
        for _ in 0..4 {
            let m = t[0];
            let (r0, c) = adc(t[1], m << 32, 0);
            let (r1, c) = adc(t[2], m >> 32, c);
            let mp3 = crate::limbs::mul_wide(m, P[3]);
            let (r2, c) = adc(t[3], mp3 as u64, c);
            let r3 = ((mp3 >> 64) as u64) + c;
            t = [r0, r1, r2, r3];
        }
        Self::MODULUS.add(&t, &[w[4], w[5], w[6], w[7]])
    }
}

#[cfg(test)]
#[path = "fp256_tests.rs"]
mod tests;
