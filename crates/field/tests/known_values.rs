//! Known-answer tests. Expected values were computed independently with
//! Python's arbitrary-precision integers (`pow(a, -1, p)`, schoolbook
//! carry-less multiplication with bitwise reduction), not by this crate.
#![allow(clippy::unwrap_used)]

use longfellow_field::{Field, FieldKind, Fp128, Fp256, Gf2_128};

/// Parses a big-endian hex integer into a little-endian byte vector of `len` bytes.
fn le_bytes(hex: &str, len: usize) -> Vec<u8> {
    let hex = hex.trim_start_matches("0x");
    let padded = format!("{:0>width$}", hex, width = 2 * len);
    let mut out: Vec<u8> = (0..len)
        .map(|i| u8::from_str_radix(&padded[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    out.reverse();
    out
}

fn fp256(hex: &str) -> Fp256 {
    Fp256::from_bytes(&le_bytes(hex, 32)).unwrap()
}

fn fp128(hex: &str) -> Fp128 {
    Fp128::from_bytes(&le_bytes(hex, 16)).unwrap()
}

fn gf(hex: &str) -> Gf2_128 {
    Gf2_128::from_u128(u128::from_str_radix(hex.trim_start_matches("0x"), 16).unwrap())
}

const P256: &str = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";
const P256_MINUS_1: &str = "ffffffff00000001000000000000000000000000fffffffffffffffffffffffe";
const P128: &str = "fffff000000000000000000000000001";
const P128_MINUS_1: &str = "fffff000000000000000000000000000";

#[test]
fn fp256_constants() {
    assert_eq!(Fp256::FIELD_ID, 1);
    assert_eq!(Fp256::KIND, FieldKind::Prime);
    assert_eq!(Fp256::BITS, 256);
    assert_eq!(Fp256::BYTES, 32);
    assert_eq!(Fp256::SUBFIELD_BYTES, 32);
    assert_eq!(Fp256::SAMPLE_BYTES, 32);
    assert_eq!(Fp256::SUBFIELD_SAMPLE_BYTES, 32);
}

#[test]
fn fp256_minus_one_encoding_and_square() {
    let m1 = -Fp256::ONE;
    assert_eq!(m1.to_repr().to_vec(), le_bytes(P256_MINUS_1, 32));
    assert_eq!(m1 * m1, Fp256::ONE);
    assert_eq!(fp256(P256_MINUS_1), m1);
    assert_eq!(m1 + Fp256::ONE, Fp256::ZERO);
    assert_eq!(-Fp256::ZERO, Fp256::ZERO);
}

#[test]
fn fp256_rejects_non_canonical() {
    assert!(Fp256::from_bytes(&le_bytes(P256, 32)).is_none());
    assert!(Fp256::from_bytes(&[0xff; 32]).is_none());
    assert!(Fp256::from_uniform_bytes(&le_bytes(P256, 32)).is_none());
    assert!(Fp256::from_uniform_bytes(&[0xff; 32]).is_none());
    assert_eq!(
        Fp256::from_uniform_bytes(&le_bytes(P256_MINUS_1, 32)),
        Some(-Fp256::ONE)
    );
    assert!(Fp256::from_bytes(&[0; 31]).is_none());
}

#[test]
fn fp256_known_products_and_inverses() {
    let a = fp256("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296");
    let b = fp256("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5");
    assert_eq!(
        a * b,
        fp256("823cd15f6dd3c71933565064513a6b2bd183e554c6a08622f713ebbbface98be")
    );
    assert_eq!(
        a.invert().unwrap(),
        fp256("e060cbb088706d5d24936933b69b16ab707d656273744b65664c49e577f35238")
    );
    assert_eq!(
        b.invert().unwrap(),
        fp256("fa27a3da2c00618a828f8cd65c1a919effc67bf68b4dbb05bbdaa775c45d4034")
    );
    // 1/2 = (p + 1)/2 = 2^255 − 2^223 + 2^191 + 2^95.
    assert_eq!(
        Fp256::from_u64(2).invert().unwrap(),
        fp256("7fffffff80000000800000000000000000000000800000000000000000000000")
    );
    assert!(bool::from(Fp256::ZERO.invert().is_none()));
}

#[test]
fn fp256_small_integers() {
    assert_eq!(Fp256::from_u64(0), Fp256::ZERO);
    assert_eq!(Fp256::from_u64(1), Fp256::ONE);
    assert_eq!(Fp256::from_index(5), Fp256::from_u64(5));
    assert_eq!(
        Fp256::from_u64(u64::MAX).to_repr().to_vec(),
        le_bytes("ffffffffffffffff", 32)
    );
    assert_eq!(
        Fp256::from_u64(3) * Fp256::from_u64(7) - Fp256::from_u64(1),
        Fp256::from_u64(20)
    );
}

#[test]
fn fp256_subfield_is_whole_field() {
    let a = fp256("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296");
    assert!(a.is_in_subfield());
    let mut buf = [0u8; 32];
    assert!(a.write_subfield_bytes(&mut buf));
    assert_eq!(buf, a.to_repr());
    assert_eq!(Fp256::from_subfield_bytes(&buf), Some(a));
    assert_eq!(Fp256::from_uniform_subfield_bytes(&buf), Some(a));
}

#[test]
fn fp128_known_values() {
    assert_eq!(Fp128::FIELD_ID, 6);
    assert_eq!(Fp128::BITS, 128);
    assert_eq!(Fp128::BYTES, 16);
    assert_eq!(Fp128::SAMPLE_BYTES, 16);
    let m1 = -Fp128::ONE;
    assert_eq!(m1.to_repr().to_vec(), le_bytes(P128_MINUS_1, 16));
    assert_eq!(m1 * m1, Fp128::ONE);
    assert!(Fp128::from_bytes(&le_bytes(P128, 16)).is_none());
    assert!(Fp128::from_uniform_bytes(&[0xff; 16]).is_none());
    let c = fp128("0123456789abcdeffedcba9876543210");
    let d = fp128("deadbeefcafebabe0011223344556677");
    assert_eq!(c * d, fp128("56415b3894791e1e7e4fe49e4aeb236b"));
    assert_eq!(
        c.invert().unwrap(),
        fp128("993676442a4bd6c67e6cd042889d6b17")
    );
}

#[test]
fn gf2_128_constants() {
    assert_eq!(Gf2_128::FIELD_ID, 4);
    assert_eq!(Gf2_128::KIND, FieldKind::Binary);
    assert_eq!(Gf2_128::BITS, 128);
    assert_eq!(Gf2_128::BYTES, 16);
    assert_eq!(Gf2_128::SUBFIELD_BYTES, 2);
    assert_eq!(Gf2_128::SAMPLE_BYTES, 16);
    assert_eq!(Gf2_128::SUBFIELD_SAMPLE_BYTES, 2);
}

#[test]
fn gf2_128_known_products() {
    let x = gf("0123456789abcdeffedcba9876543210");
    let y = gf("deadbeefcafebabe0011223344556677");
    let xy = gf("fa990997bd53944d1a1576f80d93b1dd");
    assert_eq!(x * y, xy);
    assert_eq!(x.mul_portable(y), xy);
    assert_eq!(x.invert().unwrap(), gf("ac20a8a9f088c918e7a4a93e6b40984a"));
    // x⁻¹ = x^127 + x^6 + x + 1 since x·(x^127 + x^6 + x + 1) = x^128 + x^7 + x^2 + x.
    assert_eq!(
        gf("2").invert().unwrap(),
        gf("80000000000000000000000000000043")
    );
    assert!(bool::from(Gf2_128::ZERO.invert().is_none()));
    assert_eq!(x + x, Gf2_128::ZERO);
    assert_eq!(-x, x);
}

#[test]
fn gf2_128_encoding_is_le_coefficients() {
    let e = Gf2_128::from_u128(0x0102);
    let mut expected = [0u8; 16];
    expected[0] = 0x02;
    expected[1] = 0x01;
    assert_eq!(e.to_repr(), expected);
    assert_eq!(
        Gf2_128::from_bytes(&[0xff; 16]),
        Some(Gf2_128::from_u128(u128::MAX))
    );
    assert_eq!(
        Gf2_128::from_uniform_bytes(&[0xff; 16]),
        Some(Gf2_128::from_u128(u128::MAX))
    );
}

#[test]
fn gf2_128_small_integers() {
    assert_eq!(Gf2_128::from_u64(0), Gf2_128::ZERO);
    assert_eq!(Gf2_128::from_u64(1), Gf2_128::ONE);
    assert_eq!(Gf2_128::from_u64(2), Gf2_128::ZERO);
    assert_eq!(Gf2_128::from_u64(7), Gf2_128::ONE);
}

#[test]
fn gf2_128_subfield_generator() {
    let g = Gf2_128::subfield_generator();
    assert_eq!(g.to_u128(), 0x5c5971877501d4b8f1871e01b64fda4c);
    // g generates the multiplicative group of GF(2^16): order exactly 2^16 − 1.
    let pow = |mut a: Gf2_128, mut e: u64| {
        let mut r = Gf2_128::ONE;
        while e > 0 {
            if e & 1 == 1 {
                r *= a;
            }
            a *= a;
            e >>= 1;
        }
        r
    };
    assert_eq!(pow(g, 65535), Gf2_128::ONE);
    for d in [3u64, 5, 17, 257] {
        assert_ne!(pow(g, 65535 / d), Gf2_128::ONE);
    }
    let basis = Gf2_128::subfield_basis();
    assert_eq!(basis[0], Gf2_128::ONE);
    for i in 1..16 {
        assert_eq!(basis[i], basis[i - 1] * g);
    }
}

#[test]
fn gf2_128_injection() {
    let g = Gf2_128::subfield_generator();
    assert_eq!(Gf2_128::from_index(0), Gf2_128::ZERO);
    assert_eq!(Gf2_128::from_index(1), Gf2_128::ONE);
    assert_eq!(Gf2_128::from_index(2), g);
    assert_eq!(Gf2_128::from_index(3), g + Gf2_128::ONE);
    assert_eq!(Gf2_128::from_index(4), g * g);
    assert_eq!(Gf2_128::from_subfield_bytes(&[0x02, 0x00]), Some(g));
    assert_eq!(
        Gf2_128::from_uniform_subfield_bytes(&[0x00, 0x01]),
        Some(Gf2_128::subfield_basis()[8])
    );
    assert_eq!(Gf2_128::from_subfield_bytes(&[0x02]), None);
}

#[test]
fn gf2_128_subfield_roundtrip_all() {
    let mut buf = [0u8; 2];
    for j in 0u64..65536 {
        let e = Gf2_128::from_index(j);
        assert!(e.is_in_subfield());
        assert!(e.write_subfield_bytes(&mut buf));
        assert_eq!(u16::from_le_bytes(buf) as u64, j);
        assert_eq!(Gf2_128::from_subfield_bytes(&buf), Some(e));
        // Subfield membership is closed under the field's own e ↦ e^(2^16).
        let mut f = e;
        for _ in 0..16 {
            f *= f;
        }
        assert_eq!(f, e);
    }
}

#[test]
fn gf2_128_outside_subfield() {
    let x = gf("2");
    assert!(!x.is_in_subfield());
    let mut buf = [0u8; 2];
    assert!(!x.write_subfield_bytes(&mut buf));
    assert!(bool::from(x.to_subfield_coordinates().is_none()));
    // A subfield element plus a non-member is not a member.
    assert!(!(Gf2_128::subfield_generator() + x).is_in_subfield());
}
