//! Which kernels run: the `LONGFELLOW_FIELD_KERNELS` switch (or the
//! `force-soft` feature), intersected with what the CPU has, resolved once
//! per process and cached.
//!
//! The switch exists so that one machine can measure and test the paths
//! other CPU classes take (no AVX-512, only PCLMULQDQ, no carry-less
//! multiply at all). Every path computes the same field elements, so proofs
//! are byte-identical whichever is selected; only the speed differs.
#![forbid(unsafe_code)]

use core::fmt;

/// The environment variable read (once) to restrict the kernels.
pub const KERNELS_ENV: &str = "LONGFELLOW_FIELD_KERNELS";

/// A GF(2^128) multiplication kernel, by the width of its carry-less
/// multiply. Ordered from slowest to widest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Gf2Kernel {
    /// Integer multiplications on masked operands (constant time, no
    /// special instructions).
    Portable,
    /// One 64×64 carry-less product per instruction: x86_64 PCLMULQDQ or
    /// aarch64 PMULL.
    Clmul128,
    /// Two per instruction: x86_64 VPCLMULQDQ on 256-bit AVX2 registers.
    Clmul256,
    /// Four per instruction: x86_64 VPCLMULQDQ on 512-bit AVX-512 registers.
    Clmul512,
}

impl Gf2Kernel {
    /// Every kernel, slowest first (tests run each one that is available).
    pub const ALL: [Self; 4] = [
        Self::Portable,
        Self::Clmul128,
        Self::Clmul256,
        Self::Clmul512,
    ];

    /// Whether this CPU (and build) can run the kernel.
    pub fn is_available(self) -> bool {
        detect::gf2(self)
    }

    /// A short name (`portable`, `clmul128`, …).
    pub fn name(self) -> &'static str {
        match self {
            Self::Portable => "portable",
            Self::Clmul128 => "clmul128",
            Self::Clmul256 => "clmul256",
            Self::Clmul512 => "clmul512",
        }
    }

    fn instructions(self) -> &'static str {
        match self {
            Self::Portable => "integer multiply, no carry-less instruction",
            Self::Clmul128 if cfg!(target_arch = "aarch64") => "PMULL",
            Self::Clmul128 => "PCLMULQDQ",
            Self::Clmul256 => "VPCLMULQDQ on AVX2 registers",
            Self::Clmul512 => "VPCLMULQDQ on AVX-512 registers",
        }
    }
}

impl fmt::Display for Gf2Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name(), self.instructions())
    }
}

/// The P-256 base-field kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum P256Kernel {
    /// The Montgomery product on `u128` limb products (64×64 → 128: MUL
    /// with UMULH on aarch64, MUL on x86_64) and generic additions.
    Portable,
    /// Portable product, additions in x86_64 carry-chain assembly
    /// (baseline instructions; for x86_64 CPUs without BMI2/ADX).
    CarryAsm,
    /// Product and square in x86_64 MULX/ADCX/ADOX assembly, additions in
    /// carry-chain assembly.
    MulxAdx,
    /// [`Self::MulxAdx`], and the slice products (`mul_assign_slice`,
    /// `axpy`, `lincomb2`, `dot`, `mul_assign_gaussian_slice`) eight lanes
    /// at a time in radix 2^52 on AVX-512 IFMA (a 512-bit path: off under
    /// `no512`).
    MulxAdxIfma,
}

impl P256Kernel {
    /// A short name (`portable`, `carry-asm`, `mulx-adx`, `mulx-adx+ifma52`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Portable => "portable",
            Self::CarryAsm => "carry-asm",
            Self::MulxAdx => "mulx-adx",
            Self::MulxAdxIfma => "mulx-adx+ifma52",
        }
    }
}

impl fmt::Display for P256Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the switch asked for: a ceiling, never a promise (a CPU without
/// the instructions gets the best path below it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelRequest {
    /// The best the CPU has (`auto`, or the variable unset).
    Auto,
    /// No 512-bit paths (`no512`, or `256`).
    No512,
    /// At most the 128-bit carry-less multiply (`128`).
    Only128,
    /// Portable code only, no assembly or intrinsics at all (`soft`).
    Soft,
}

impl KernelRequest {
    /// Parses a value of [`KERNELS_ENV`] (case-insensitive, surrounding
    /// blanks ignored).
    pub fn parse(value: &str) -> Option<Self> {
        let v = value.trim();
        let is = |s: &str| v.eq_ignore_ascii_case(s);
        if v.is_empty() || is("auto") {
            Some(Self::Auto)
        } else if is("no512") || is("256") {
            Some(Self::No512)
        } else if is("128") {
            Some(Self::Only128)
        } else if is("soft") || is("portable") {
            Some(Self::Soft)
        } else {
            None
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::No512 => "no512",
            Self::Only128 => "128",
            Self::Soft => "soft",
        }
    }

    fn gf2_ceiling(self) -> Gf2Kernel {
        match self {
            Self::Auto => Gf2Kernel::Clmul512,
            Self::No512 => Gf2Kernel::Clmul256,
            Self::Only128 => Gf2Kernel::Clmul128,
            Self::Soft => Gf2Kernel::Portable,
        }
    }
}

/// Where the request came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RequestSource {
    /// Nothing asked: [`KernelRequest::Auto`].
    Default,
    /// [`KERNELS_ENV`] held a recognised value.
    Env,
    /// [`KERNELS_ENV`] held a value that is not one of `auto`, `no512`,
    /// `256`, `128`, `soft`: ignored, [`KernelRequest::Auto`] used.
    EnvUnrecognised,
    /// The crate was built with the `force-soft` feature (the variable is
    /// not read).
    Feature,
}

/// The kernels this process runs, as [`kernels`] reports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct KernelInfo {
    /// GF(2^128) products, dot products, axpy and butterflies.
    pub gf2_128: Gf2Kernel,
    /// Whether the 128-bit carry-less kernel multiplies by Karatsuba
    /// where both operands of a product change (`mul_assign`): three
    /// multiplies and two shuffles instead of four multiplies. Chosen by
    /// the CPU's vendor on x86_64 (AMD and Hygon: yes); the PMULL kernels
    /// always do; false with any other kernel (the wider x86 kernels keep
    /// forms of their own).
    pub gf2_karatsuba_both: bool,
    /// P-256 base-field products and additions.
    pub p256: P256Kernel,
    /// The ceiling that was asked for.
    pub request: KernelRequest,
    /// Where that came from.
    pub source: RequestSource,
}

impl fmt::Display for KernelInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GF(2^128) {}", self.gf2_128)?;
        if self.gf2_128 == Gf2Kernel::Clmul128 && self.gf2_karatsuba_both {
            f.write_str(", Karatsuba where both operands change")?;
        }
        write!(f, ", P-256 {}; ", self.p256)?;
        match self.source {
            RequestSource::Default => write!(f, "{KERNELS_ENV} unset (auto)"),
            RequestSource::Env => write!(f, "{KERNELS_ENV}={}", self.request.name()),
            RequestSource::EnvUnrecognised => write!(
                f,
                "{KERNELS_ENV} not one of auto|no512|256|128|soft, ignored (auto)"
            ),
            RequestSource::Feature => f.write_str("built with feature force-soft"),
        }
    }
}

/// The kernels selected for this process (resolved on first use and then
/// fixed; later changes to the environment variable have no effect).
pub fn kernels() -> KernelInfo {
    cache::info()
}

/// The best available kernels under `request`.
fn resolve(request: KernelRequest, source: RequestSource) -> KernelInfo {
    let ceiling = request.gf2_ceiling();
    let gf2_128 = Gf2Kernel::ALL
        .into_iter()
        .rev()
        .find(|&k| k <= ceiling && k.is_available())
        .unwrap_or(Gf2Kernel::Portable);
    let p256 = match request {
        KernelRequest::Soft => P256Kernel::Portable,
        KernelRequest::Auto => detect::p256(true),
        KernelRequest::No512 | KernelRequest::Only128 => detect::p256(false),
    };
    let gf2_karatsuba_both = gf2_128 == Gf2Kernel::Clmul128 && detect::karatsuba_both();
    KernelInfo {
        gf2_128,
        gf2_karatsuba_both,
        p256,
        request,
        source,
    }
}

/// The request before any CPU detection, from the variable.
#[cfg(all(feature = "std", not(feature = "force-soft")))]
fn request_from_env() -> (KernelRequest, RequestSource) {
    match std::env::var(KERNELS_ENV) {
        Err(std::env::VarError::NotPresent) => (KernelRequest::Auto, RequestSource::Default),
        Ok(v) => match KernelRequest::parse(&v) {
            Some(r) => (r, RequestSource::Env),
            None => (KernelRequest::Auto, RequestSource::EnvUnrecognised),
        },
        Err(std::env::VarError::NotUnicode(_)) => {
            (KernelRequest::Auto, RequestSource::EnvUnrecognised)
        }
    }
}

// The hot paths ask for the selection once per product or slice, so it is
// packed in one byte read with one relaxed load: bit 7 marks it resolved,
// bits 0–1 hold the GF(2^128) kernel, bits 2–3 the P-256 kernel, bit 4
// the 128-bit kernel's product form.

const RESOLVED: u8 = 0x80;
const KARATSUBA_BOTH: u8 = 0x10;

const fn encode(i: &KernelInfo) -> u8 {
    let form = if i.gf2_karatsuba_both {
        KARATSUBA_BOTH
    } else {
        0
    };
    RESOLVED | i.gf2_128 as u8 | (i.p256 as u8) << 2 | form
}

const fn gf2_of(bits: u8) -> Gf2Kernel {
    match bits & 3 {
        0 => Gf2Kernel::Portable,
        1 => Gf2Kernel::Clmul128,
        2 => Gf2Kernel::Clmul256,
        _ => Gf2Kernel::Clmul512,
    }
}

// Only x86_64 has P-256 kernels to dispatch to.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const fn p256_of(bits: u8) -> P256Kernel {
    match (bits >> 2) & 3 {
        0 => P256Kernel::Portable,
        1 => P256Kernel::CarryAsm,
        2 => P256Kernel::MulxAdx,
        _ => P256Kernel::MulxAdxIfma,
    }
}

/// The selected GF(2^128) kernel (always one [`Gf2Kernel::is_available`]
/// accepts).
#[inline(always)]
pub(crate) fn gf2() -> Gf2Kernel {
    gf2_of(cache::bits())
}

/// Whether the 128-bit carry-less `mul_assign` takes Karatsuba's form
/// ([`KernelInfo::gf2_karatsuba_both`]).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
pub(crate) fn gf2_karatsuba_both() -> bool {
    cache::bits() & KARATSUBA_BOTH != 0
}

/// The selected P-256 kernel (its instructions are present).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
pub(crate) fn p256() -> P256Kernel {
    p256_of(cache::bits())
}

#[cfg(all(feature = "std", not(feature = "force-soft")))]
mod cache {
    use super::{encode, request_from_env, resolve, KernelInfo, RESOLVED};
    use core::sync::atomic::{AtomicU8, Ordering};
    use std::sync::OnceLock;

    static INFO: OnceLock<KernelInfo> = OnceLock::new();
    static BITS: AtomicU8 = AtomicU8::new(0);

    pub(super) fn info() -> KernelInfo {
        *INFO.get_or_init(|| {
            let (request, source) = request_from_env();
            resolve(request, source)
        })
    }

    #[inline(always)]
    pub(super) fn bits() -> u8 {
        let b = BITS.load(Ordering::Relaxed);
        if b & RESOLVED != 0 {
            b
        } else {
            first_use()
        }
    }

    #[cold]
    #[inline(never)]
    fn first_use() -> u8 {
        let b = encode(&info());
        BITS.store(b, Ordering::Relaxed);
        b
    }
}

/// `force-soft`: everything portable, known at compile time, so the
/// instruction-set paths are dead code.
#[cfg(feature = "force-soft")]
mod cache {
    use super::{encode, resolve, Gf2Kernel, KernelInfo, KernelRequest, P256Kernel, RequestSource};

    pub(super) fn info() -> KernelInfo {
        // Portable throughout, as `bits` says.
        resolve(KernelRequest::Soft, RequestSource::Feature)
    }

    #[inline(always)]
    pub(super) const fn bits() -> u8 {
        encode(&KernelInfo {
            gf2_128: Gf2Kernel::Portable,
            gf2_karatsuba_both: false,
            p256: P256Kernel::Portable,
            request: KernelRequest::Soft,
            source: RequestSource::Feature,
        })
    }
}

/// Without `std` there is neither an environment nor run-time detection:
/// the kernels are those the build's target features allow.
#[cfg(all(not(feature = "std"), not(feature = "force-soft")))]
mod cache {
    use super::{encode, resolve, KernelInfo, KernelRequest, RequestSource};

    pub(super) fn info() -> KernelInfo {
        resolve(KernelRequest::Auto, RequestSource::Default)
    }

    #[inline(always)]
    pub(super) fn bits() -> u8 {
        encode(&info())
    }
}

/// What the CPU has. With `std`, run-time detection (the standard library
/// caches it); without, the build's target features.
mod detect {
    use super::{Gf2Kernel, P256Kernel};

    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    pub(super) fn gf2(k: Gf2Kernel) -> bool {
        use std::arch::is_x86_feature_detected as has;
        let clmul = has!("pclmulqdq") && has!("sse2");
        match k {
            Gf2Kernel::Portable => true,
            Gf2Kernel::Clmul128 => clmul,
            Gf2Kernel::Clmul256 => clmul && has!("avx2") && has!("vpclmulqdq"),
            Gf2Kernel::Clmul512 => clmul && has!("avx512f") && has!("vpclmulqdq"),
        }
    }

    #[cfg(all(feature = "std", target_arch = "aarch64"))]
    pub(super) fn gf2(k: Gf2Kernel) -> bool {
        use std::arch::is_aarch64_feature_detected as has;
        match k {
            Gf2Kernel::Portable => true,
            Gf2Kernel::Clmul128 => has!("neon") && has!("pmull"),
            Gf2Kernel::Clmul256 | Gf2Kernel::Clmul512 => false,
        }
    }

    #[cfg(not(all(feature = "std", any(target_arch = "x86_64", target_arch = "aarch64"))))]
    pub(super) fn gf2(k: Gf2Kernel) -> bool {
        let x86 = cfg!(all(
            target_arch = "x86_64",
            target_feature = "pclmulqdq",
            target_feature = "sse2"
        ));
        let arm = cfg!(all(
            target_arch = "aarch64",
            target_feature = "neon",
            target_feature = "aes"
        ));
        match k {
            Gf2Kernel::Portable => true,
            Gf2Kernel::Clmul128 => x86 || arm,
            Gf2Kernel::Clmul256 => {
                x86 && cfg!(all(target_feature = "avx2", target_feature = "vpclmulqdq"))
            }
            Gf2Kernel::Clmul512 => {
                x86 && cfg!(all(
                    target_feature = "avx512f",
                    target_feature = "vpclmulqdq"
                ))
            }
        }
    }

    /// Whether products whose operands both change should take
    /// Karatsuba's form (a multiply traded for two shuffles) in the 128-bit
    /// carry-less kernel: on AMD and Hygon (Zen) cores, yes. On Zen 5 the
    /// carry-less multiplier is the scarce unit and shuffles run on other
    /// pipes (`mul_assign461` 1.268 → 1.100 µs, the 128-bit path's
    /// one-thread v7/1 proof 0.97×; the AMD cores that take this path by
    /// default, Zen 1 and 2 without VPCLMULQDQ, were not measured). On
    /// Intel cores before Ice Lake, the others that take it by default,
    /// multiplies and shuffles share port 5, where the second shuffle is
    /// one micro-op more per product than the schoolbook form, so every
    /// other vendor keeps that. The PMULL kernels are Karatsuba throughout.
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    pub(super) fn karatsuba_both() -> bool {
        let r = core::arch::x86_64::__cpuid(0);
        let mut vendor = [0u8; 12];
        vendor[..4].copy_from_slice(&r.ebx.to_le_bytes());
        vendor[4..8].copy_from_slice(&r.edx.to_le_bytes());
        vendor[8..].copy_from_slice(&r.ecx.to_le_bytes());
        &vendor == b"AuthenticAMD" || &vendor == b"HygonGenuine"
    }

    /// Without `std` nothing is detected at run time (schoolbook), and
    /// aarch64's PMULL kernels are Karatsuba whatever this says.
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    pub(super) fn karatsuba_both() -> bool {
        cfg!(target_arch = "aarch64")
    }

    /// The best P-256 kernel, the IFMA slices only if `wide` allows
    /// 512-bit paths.
    #[cfg(target_arch = "x86_64")]
    pub(super) fn p256(wide: bool) -> P256Kernel {
        #[cfg(feature = "std")]
        let (adx, ifma) = {
            use std::arch::is_x86_feature_detected as has;
            (
                has!("bmi2") && has!("adx"),
                has!("avx512f") && has!("avx512ifma"),
            )
        };
        #[cfg(not(feature = "std"))]
        let (adx, ifma) = (
            cfg!(all(target_feature = "bmi2", target_feature = "adx")),
            cfg!(all(
                target_feature = "avx512f",
                target_feature = "avx512ifma"
            )),
        );
        match (adx, ifma && wide) {
            (true, true) => P256Kernel::MulxAdxIfma,
            (true, false) => P256Kernel::MulxAdx,
            (false, _) => P256Kernel::CarryAsm,
        }
    }

    #[cfg(not(target_arch = "x86_64"))]
    pub(super) fn p256(_wide: bool) -> P256Kernel {
        P256Kernel::Portable
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_parse() {
        assert_eq!(KernelRequest::parse(""), Some(KernelRequest::Auto));
        assert_eq!(KernelRequest::parse(" AUTO "), Some(KernelRequest::Auto));
        assert_eq!(KernelRequest::parse("no512"), Some(KernelRequest::No512));
        assert_eq!(KernelRequest::parse("256"), Some(KernelRequest::No512));
        assert_eq!(KernelRequest::parse("128"), Some(KernelRequest::Only128));
        assert_eq!(KernelRequest::parse("Soft"), Some(KernelRequest::Soft));
        assert_eq!(KernelRequest::parse("512"), None);
        assert_eq!(KernelRequest::parse("fast"), None);
    }

    #[test]
    fn every_selection_round_trips_through_its_byte() {
        for g in Gf2Kernel::ALL {
            for p in [
                P256Kernel::Portable,
                P256Kernel::CarryAsm,
                P256Kernel::MulxAdx,
                P256Kernel::MulxAdxIfma,
            ] {
                for k in [false, true] {
                    let b = encode(&KernelInfo {
                        gf2_128: g,
                        gf2_karatsuba_both: k,
                        p256: p,
                        request: KernelRequest::Auto,
                        source: RequestSource::Default,
                    });
                    assert_eq!((gf2_of(b), p256_of(b)), (g, p));
                    assert_eq!(b & KARATSUBA_BOTH != 0, k);
                }
            }
        }
    }

    #[test]
    fn ceilings_are_respected_and_soft_is_portable() {
        for (r, ceiling) in [
            (KernelRequest::Auto, Gf2Kernel::Clmul512),
            (KernelRequest::No512, Gf2Kernel::Clmul256),
            (KernelRequest::Only128, Gf2Kernel::Clmul128),
            (KernelRequest::Soft, Gf2Kernel::Portable),
        ] {
            let info = resolve(r, RequestSource::Env);
            assert!(info.gf2_128 <= ceiling, "{r:?}: {info}");
            assert!(info.gf2_128.is_available());
            // The best available one below the ceiling, not a lower one.
            for k in Gf2Kernel::ALL {
                if k <= ceiling && k.is_available() {
                    assert!(info.gf2_128 >= k, "{r:?}: {info}");
                }
            }
        }
        // The IFMA slices are a 512-bit path: only an unrestricted request
        // may select them.
        for r in [KernelRequest::No512, KernelRequest::Only128] {
            assert_ne!(resolve(r, RequestSource::Env).p256, P256Kernel::MulxAdxIfma);
        }
        let soft = resolve(KernelRequest::Soft, RequestSource::Env);
        assert_eq!(soft.p256, P256Kernel::Portable);
        assert!(soft.to_string().contains("portable"));
    }

    #[test]
    fn the_selection_is_available_and_matches_the_report() {
        let info = kernels();
        assert!(info.gf2_128.is_available());
        assert_eq!(gf2(), info.gf2_128);
        assert_eq!(p256(), info.p256);
        assert_eq!(gf2_karatsuba_both(), info.gf2_karatsuba_both);
        // The form is a property of the 128-bit kernel only, and there
        // the CPU's (its vendor on x86_64).
        if info.gf2_128 == Gf2Kernel::Clmul128 {
            assert_eq!(info.gf2_karatsuba_both, detect::karatsuba_both(), "{info}");
        } else {
            assert!(!info.gf2_karatsuba_both, "{info}");
        }
    }
}
