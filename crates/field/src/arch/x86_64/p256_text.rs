//! Assembly text for the P-256 kernels, shared by the product, the square
//! and the bare 512-bit product. Register operands: `{a}` and `{b}` point
//! at the inputs' limbs, `w0`…`w7` hold the 512-bit product, `t` and `h`
//! take each MULX's low and high word; rdx is MULX's implicit multiplier.

/// One row `w[i..=i+4] += a·rdx` for i ≥ 1: the low words of the four
/// products ride the OF chain (ADOX), the high words the CF chain
/// (ADCX). `$top` (w[i+4]) starts at zero, which also clears both flags;
/// the last OF carry enters it through `t` zeroed by MOV (which keeps
/// the flags). Neither chain carries out of w[i+4]: the partial product
/// fits.
macro_rules! row {
    ($w0:literal, $w1:literal, $w2:literal, $w3:literal, $top:literal) => {
        concat!(
            "xor {",
            $top,
            ":e}, {",
            $top,
            ":e}\n",
            "mulx {h}, {t}, [{a}]\n",
            "adox {",
            $w0,
            "}, {t}\n",
            "adcx {",
            $w1,
            "}, {h}\n",
            "mulx {h}, {t}, [{a} + 8]\n",
            "adox {",
            $w1,
            "}, {t}\n",
            "adcx {",
            $w2,
            "}, {h}\n",
            "mulx {h}, {t}, [{a} + 16]\n",
            "adox {",
            $w2,
            "}, {t}\n",
            "adcx {",
            $w3,
            "}, {h}\n",
            "mulx {h}, {t}, [{a} + 24]\n",
            "adox {",
            $w3,
            "}, {t}\n",
            "adcx {",
            $top,
            "}, {h}\n",
            "mov {t:e}, 0\n",
            "adox {",
            $top,
            "}, {t}\n",
        )
    };
}

/// `w0…w7 = a·b`, row by row (b's limbs in rdx).
macro_rules! product {
    () => {
        concat!(
            "mov rdx, [{b}]\n",
            "mulx {w1}, {w0}, [{a}]\n",
            "mulx {w2}, {t}, [{a} + 8]\n",
            "add {w1}, {t}\n",
            "mulx {w3}, {t}, [{a} + 16]\n",
            "adc {w2}, {t}\n",
            "mulx {w4}, {t}, [{a} + 24]\n",
            "adc {w3}, {t}\n",
            "adc {w4}, 0\n",
            "mov rdx, [{b} + 8]\n",
            $crate::arch::x86_64::p256_text::row!("w1", "w2", "w3", "w4", "w5"),
            "mov rdx, [{b} + 16]\n",
            $crate::arch::x86_64::p256_text::row!("w2", "w3", "w4", "w5", "w6"),
            "mov rdx, [{b} + 24]\n",
            $crate::arch::x86_64::p256_text::row!("w3", "w4", "w5", "w6", "w7"),
        )
    };
}

/// `w0…w7 = a²`: the six cross products once, then doubled on the CF
/// chain while the four squares go in on the OF chain.
macro_rules! square {
    () => {
        concat!(
            // a0·(a1, a2, a3) into w1..w4.
            "mov rdx, [{a}]\n",
            "mulx {w2}, {w1}, [{a} + 8]\n",
            "mulx {w3}, {t}, [{a} + 16]\n",
            "add {w2}, {t}\n",
            "mulx {w4}, {t}, [{a} + 24]\n",
            "adc {w3}, {t}\n",
            "adc {w4}, 0\n",
            // a1·(a2, a3) into w3..w5; w7 = 0 serves as the zero.
            "mov rdx, [{a} + 8]\n",
            "xor {w7:e}, {w7:e}\n",
            "mulx {h}, {t}, [{a} + 16]\n",
            "adox {w3}, {t}\n",
            "adcx {w4}, {h}\n",
            "mulx {w5}, {t}, [{a} + 24]\n",
            "adox {w4}, {t}\n",
            "adcx {w5}, {w7}\n",
            "adox {w5}, {w7}\n",
            // a2·a3 into w5..w6.
            "mov rdx, [{a} + 16]\n",
            "mulx {w6}, {t}, [{a} + 24]\n",
            "add {w5}, {t}\n",
            "adc {w6}, 0\n",
            // 2·cross (CF) + squares (OF).
            "mov rdx, [{a}]\n",
            "xor {t:e}, {t:e}\n",
            "mulx {h}, {w0}, rdx\n",
            "adcx {w1}, {w1}\n",
            "adox {w1}, {h}\n",
            "mov rdx, [{a} + 8]\n",
            "mulx {h}, {t}, rdx\n",
            "adcx {w2}, {w2}\n",
            "adox {w2}, {t}\n",
            "adcx {w3}, {w3}\n",
            "adox {w3}, {h}\n",
            "mov rdx, [{a} + 16]\n",
            "mulx {h}, {t}, rdx\n",
            "adcx {w4}, {w4}\n",
            "adox {w4}, {t}\n",
            "adcx {w5}, {w5}\n",
            "adox {w5}, {h}\n",
            "mov rdx, [{a} + 24]\n",
            "mulx {h}, {t}, rdx\n",
            "adcx {w6}, {w6}\n",
            "adox {w6}, {t}\n",
            "adcx {w7}, {w7}\n",
            "adox {w7}, {h}\n",
        )
    };
}

/// One Montgomery step on the low half with m = `$m` (−p⁻¹ ≡ 1 mod
/// 2^64): adding m·p zeroes `$m`'s limb, and the rest of m·p is
/// m·2^96 (`m << 32` and `m >> 32` into the next two limbs) plus
/// m·p₃·2^192. The window `$x1 $x2 $x3` absorbs it; hi(m·p₃) plus the
/// carry becomes the new top limb `$hi` (it cannot overflow), `$lo` is
/// scratch. p₃ is in `{a}`, `{b}` is scratch.
macro_rules! redc_step {
    ($m:literal, $x1:literal, $x2:literal, $x3:literal, $hi:literal, $lo:literal) => {
        concat!(
            "mov rdx, {",
            $m,
            "}\n",
            "mulx {",
            $hi,
            "}, {",
            $lo,
            "}, {a}\n",
            "mov {b}, rdx\n",
            "shl {b}, 32\n",
            "shr rdx, 32\n",
            "add {",
            $x1,
            "}, {b}\n",
            "adc {",
            $x2,
            "}, rdx\n",
            "adc {",
            $x3,
            "}, {",
            $lo,
            "}\n",
            "adc {",
            $hi,
            "}, 0\n",
        )
    };
}

/// Montgomery reduction of `w0…w7` to `(h, t, w0, w1)`, fully reduced.
/// Four steps turn the low half L into (L + M·p)/2^256 ≤ p; the high
/// half H < p (as a·b < p²) is added, and one conditional subtraction
/// (CMOV on the borrow) brings the sum, below 2p, under p. Overwrites
/// `{a}` and `{b}`.
macro_rules! reduce {
    () => {
        concat!(
            "mov {a}, 0xffffffff00000001\n",
            $crate::arch::x86_64::p256_text::redc_step!("w0", "w1", "w2", "w3", "h", "t"),
            $crate::arch::x86_64::p256_text::redc_step!("w1", "w2", "w3", "h", "t", "w0"),
            $crate::arch::x86_64::p256_text::redc_step!("w2", "w3", "h", "t", "w0", "w1"),
            $crate::arch::x86_64::p256_text::redc_step!("w3", "h", "t", "w0", "w1", "w2"),
            // (w2: carry, h, t, w0, w1) = reduced low half + H.
            "xor {w2:e}, {w2:e}\n",
            "add {h}, {w4}\n",
            "adc {t}, {w5}\n",
            "adc {w0}, {w6}\n",
            "adc {w1}, {w7}\n",
            "adc {w2}, 0\n",
            // Minus p = (2^64 − 1, 2^32 − 1, 0, p₃); keep the sum on borrow.
            "mov {w4}, {h}\n",
            "mov {w5}, {t}\n",
            "mov {w6}, {w0}\n",
            "mov {w7}, {w1}\n",
            "mov {b:e}, 0xffffffff\n",
            "sub {w4}, -1\n",
            "sbb {w5}, {b}\n",
            "sbb {w6}, 0\n",
            "sbb {w7}, {a}\n",
            "sbb {w2}, 0\n",
            "cmovnc {h}, {w4}\n",
            "cmovnc {t}, {w5}\n",
            "cmovnc {w0}, {w6}\n",
            "cmovnc {w1}, {w7}\n",
        )
    };
}

pub(crate) use {product, redc_step, reduce, row, square};
