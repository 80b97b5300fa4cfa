//! ECDSA P-256 verification witness for the signature circuit.
//!
//! The circuit checks s·R = e·G + r·Q as "e·G + r·Q + (−s)·R = O" with one
//! shared double-and-add ladder over the bits of (e, r, −s): each step adds one
//! of eight precomputed sums of G, Q, R. The prover supplies R's y-coordinate,
//! a few inverses proving values nonzero, the four non-trivial table sums
//! (affine), and the ladder's intermediate points in projective coordinates
//! exactly as the complete Renes–Costello–Batina formulas produce them.
//!
//! The bits of e, r and −s are exactly what the proof hides (they identify
//! the credential and would link presentations), so the ladder runs in
//! constant time: every step reads all eight table entries and keeps one with
//! a masked select, the point formulas are straight-line field arithmetic, and
//! the only branches left test whether the signature is provable at all.

use p256::elliptic_curve::ops::Reduce;
use p256::elliptic_curve::point::AffineCoordinates;
use p256::elliptic_curve::sec1::{FromEncodedPoint, ToEncodedPoint};
use p256::elliptic_curve::Group;
use subtle::{ConditionallySelectable, ConstantTimeEq, ConstantTimeLess};

use p256::{AffinePoint, EncodedPoint, FieldBytes, FieldElement, ProjectivePoint, Scalar, U256};

use crate::error::MdocError;

/// Field elements per signature verification in the circuit's input order.
pub const ECDSA_WITNESS_LEN: usize = 5 + 8 + 256 + 255 * 3;

/// The curve coefficient b of P-256 (protocol constant).
const B_HEX: &str = "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b";

type Pt = (FieldElement, FieldElement, FieldElement);

/// Field element from 32 big-endian bytes, reduced mod p (2^256 < 2p, so one
/// subtraction suffices). Constant-time: the input is often secret (the
/// credential hash, the device key).
pub fn fe_reduce(be: &[u8; 32]) -> FieldElement {
    let n = U256::from_be_slice(be);
    let p = U256::from_be_hex("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff");
    let reduced = U256::conditional_select(&n.wrapping_sub(&p), &n, n.ct_lt(&p));
    // `reduced < p` here, so the conversion always succeeds.
    Option::from(FieldElement::from_uint(reduced)).unwrap_or(FieldElement::ZERO)
}

/// 32-byte little-endian encoding, the circuits' wire format for Fp256.
pub fn fe_le(x: &FieldElement) -> [u8; 32] {
    let mut out: [u8; 32] = x.to_bytes().into();
    out.reverse();
    out
}

/// The field element 2·v − (n − 1): the bit plucker's encoding of a chunk
/// value v out of n.
pub fn pluck_point(v: u64, n: u64) -> FieldElement {
    FieldElement::from_u64(2 * v) - FieldElement::from_u64(n - 1)
}

fn curve_b() -> FieldElement {
    fe_reduce(&hex32(B_HEX))
}

fn hex32(h: &str) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (o, pair) in out.iter_mut().zip(h.as_bytes().chunks_exact(2)) {
        let digit = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
        *o = digit(pair[0]) << 4 | digit(pair[1]);
    }
    out
}

/// Complete projective addition for a = −3 curves written with general a
/// (Renes–Costello–Batina 2015, Algorithm 1); the exact representatives it
/// produces are part of the witness format.
fn add(p1: &Pt, p2: &Pt, a: FieldElement, b3: FieldElement) -> Pt {
    let (x1, y1, z1) = *p1;
    let (x2, y2, z2) = *p2;
    let t0 = x1 * x2;
    let t1 = y1 * y2;
    let t2 = z1 * z2;
    let t3 = (x1 + y1) * (x2 + y2) - (t0 + t1);
    let t4 = (x1 + z1) * (x2 + z2) - (t0 + t2);
    let t5 = (y1 + z1) * (y2 + z2) - (t1 + t2);
    let z3 = b3 * t2 + a * t4;
    let x3 = t1 - z3;
    let z3 = t1 + z3;
    let y3 = x3 * z3;
    let t1 = t0 + t0 + t0;
    let t2 = a * t2;
    let t4 = b3 * t4;
    let t1 = t1 + t2;
    let t2 = a * (t0 - t2);
    let t4 = t4 + t2;
    let y3 = y3 + t1 * t4;
    let x3 = t3 * x3 - t5 * t4;
    let z3 = t5 * z3 + t3 * t1;
    (x3, y3, z3)
}

/// Complete projective doubling, general a (RCB 2015, Algorithm 3).
fn double(p: &Pt, a: FieldElement, b3: FieldElement) -> Pt {
    let (x, y, z) = *p;
    let t0 = x * x;
    let t1 = y * y;
    let t2 = z * z;
    let t3 = x * y;
    let t3 = t3 + t3;
    let z3 = x * z;
    let z3 = z3 + z3;
    let y3 = a * z3 + b3 * t2;
    let x3 = t1 - y3;
    let y3 = x3 * (t1 + y3);
    let x3 = t3 * x3;
    let z3 = b3 * z3;
    let t2 = a * t2;
    let t3 = a * (t0 - t2) + z3;
    let t0 = t0 + t0 + t0 + t2;
    let y3 = y3 + t0 * t3;
    let t2 = y * z;
    let t2 = t2 + t2;
    let x3 = x3 - t2 * t3;
    let z3 = t2 * t1;
    let z3 = z3 + z3;
    let z3 = z3 + z3;
    (x3, y3, z3)
}

fn affine_xy(p: &ProjectivePoint) -> Option<(FieldElement, FieldElement)> {
    if bool::from(p.is_identity()) {
        return None;
    }
    let enc = p.to_affine().to_encoded_point(false);
    let x = FieldElement::from_bytes(enc.x()?);
    let y = FieldElement::from_bytes(enc.y()?);
    Option::from(x).zip(Option::from(y))
}

/// A P-256 public key from big-endian affine coordinates.
pub fn public_key(x: &[u8; 32], y: &[u8; 32], who: &'static str) -> Result<AffinePoint, MdocError> {
    let enc =
        EncodedPoint::from_affine_coordinates(&FieldBytes::from(*x), &FieldBytes::from(*y), false);
    Option::from(AffinePoint::from_encoded_point(&enc)).ok_or(MdocError::InvalidPublicKey(who))
}

/// Bit `i` (0 = least significant) of a big-endian value; the position is
/// public, the bit is not, and it is only ever used arithmetically.
fn bit(be: &[u8; 32], i: usize) -> u8 {
    be[31 - i / 8] >> (i % 8) & 1
}

/// `table[index]` without a secret-dependent memory access: all entries are
/// read and the wanted one kept by a masked select.
fn select(table: &[Pt; 8], index: u8) -> Pt {
    let mut out = table[0];
    for (k, entry) in (0u8..).zip(table) {
        let hit = k.ct_eq(&index);
        out.0.conditional_assign(&entry.0, hit);
        out.1.conditional_assign(&entry.1, hit);
        out.2.conditional_assign(&entry.2, hit);
    }
    out
}

/// Verifies `signature` (r ‖ s, big-endian) on the 256-bit message hash
/// `e` (big-endian, not reduced) under `pk`, and returns the
/// [`ECDSA_WITNESS_LEN`] field elements of the circuit's witness.
pub fn witness(
    pk: &AffinePoint,
    e: &[u8; 32],
    signature: &[u8; 64],
    who: &'static str,
) -> Result<Vec<FieldElement>, MdocError> {
    let sig = p256::ecdsa::Signature::from_slice(signature)
        .map_err(|_| MdocError::InvalidSignature(who))?;
    let r: Scalar = *sig.r();
    let s: Scalar = *sig.s();
    let e_n = <Scalar as Reduce<U256>>::reduce_bytes(&FieldBytes::from(*e));
    let s_inv: Scalar = Option::from(s.invert()).ok_or(MdocError::InvalidSignature(who))?;

    let g = ProjectivePoint::GENERATOR;
    let q = ProjectivePoint::from(*pk);
    let r_point = g * (e_n * s_inv) + q * (r * s_inv);
    if bool::from(r_point.is_identity()) {
        return Err(MdocError::SignatureFailure(who));
    }
    let r_affine = r_point.to_affine();
    let rx_bytes: [u8; 32] = r_affine.x().into();
    let r_bytes: [u8; 32] = r.to_bytes().into();
    // Branches on validity only: a prover with a bad signature stops anyway.
    if !bool::from(<Scalar as Reduce<U256>>::reduce_bytes(&r_affine.x()).ct_eq(&r)) {
        return Err(MdocError::SignatureFailure(who));
    }
    // The circuit takes R = (r, ry) as a curve point, so r must be R's
    // x-coordinate itself, not merely congruent to it mod n.
    if !bool::from(rx_bytes.ct_eq(&r_bytes)) {
        return Err(MdocError::SignatureNotProvable(who));
    }
    let not_provable = MdocError::SignatureNotProvable(who);
    let (rx, ry) = affine_xy(&r_point).ok_or(not_provable.clone())?;
    let (qx, qy) = affine_xy(&q).ok_or(MdocError::InvalidPublicKey(who))?;
    let (gx, gy) = affine_xy(&g).ok_or(not_provable.clone())?;

    let neg_s = -s;
    let neg_s_bytes: [u8; 32] = neg_s.to_bytes().into();
    let inv = |x: FieldElement| -> Result<FieldElement, MdocError> {
        Option::from(x.invert()).ok_or(not_provable.clone())
    };

    let gq = affine_xy(&(g + q)).ok_or(not_provable.clone())?;
    let gr = affine_xy(&(g + r_point)).ok_or(not_provable.clone())?;
    let qr = affine_xy(&(q + r_point)).ok_or(not_provable.clone())?;
    let gqr = affine_xy(&(g + q + r_point)).ok_or(not_provable.clone())?;

    let mut out = Vec::with_capacity(ECDSA_WITNESS_LEN);
    out.extend([rx, ry, inv(rx)?, inv(fe_reduce(&neg_s_bytes))?, inv(qx)?]);
    for (x, y) in [gq, gr, qr, gqr] {
        out.extend([x, y]);
    }

    // Ladder table indexed by 4·e_bit + 2·r_bit + (−s)_bit.
    let one = FieldElement::ONE;
    let table: [Pt; 8] = [
        (FieldElement::ZERO, one, FieldElement::ZERO),
        (rx, ry, one),
        (qx, qy, one),
        (qr.0, qr.1, one),
        (gx, gy, one),
        (gr.0, gr.1, one),
        (gq.0, gq.1, one),
        (gqr.0, gqr.1, one),
    ];
    let a = -FieldElement::from_u64(3);
    let b3 = curve_b() * FieldElement::from_u64(3);
    let mut acc: Pt = table[0];
    for i in (0..256).rev() {
        let (eb, rb, sb) = (bit(e, i), bit(&r_bytes, i), bit(&neg_s_bytes, i));
        // Table index as the circuit numbers it: e + 2r + 4(−s), sent as 2k − 7.
        out.push(pluck_point(u64::from(eb + 2 * rb + 4 * sb), 8));
        acc = add(
            &double(&acc, a, b3),
            &select(&table, 4 * eb + 2 * rb + sb),
            a,
            b3,
        );
        if i > 0 {
            out.extend([acc.0, acc.1, acc.2]);
        }
    }
    if !bool::from(acc.2.is_zero()) {
        return Err(not_provable);
    }
    Ok(out)
}

#[cfg(test)]
mod reduction_tests {
    use proptest::prelude::*;

    proptest! {
        /// The verifier-side reduction of 256-bit values (in
        /// `longfellow-mdoc`) agrees with p256's.
        #[test]
        fn public_reduction_agrees_with_p256(be: [u8; 32]) {
            let ours = crate::public::fp256_le_from_be(&be);
            let theirs = super::fe_le(&super::fe_reduce(&be));
            prop_assert_eq!(ours, theirs);
        }
    }
}

#[cfg(test)]
mod constant_time_tests {
    use super::*;
    use p256::elliptic_curve::bigint::Encoding;
    use proptest::prelude::*;

    fn distinct_table() -> [Pt; 8] {
        let f = |k: u64| FieldElement::from_u64(k);
        core::array::from_fn(|k| {
            let k = k as u64;
            (f(3 * k + 1), f(3 * k + 2), f(3 * k + 3))
        })
    }

    #[test]
    fn masked_select_returns_the_indexed_entry() {
        let table = distinct_table();
        for (k, entry) in (0u8..).zip(&table) {
            assert_eq!(select(&table, k), *entry, "index {k}");
        }
    }

    proptest! {
        /// The branch-free reduction agrees with the obvious one, including
        /// the 2^32-wide band of inputs at or above p.
        #[test]
        fn constant_time_reduction_matches_branching_one(
            be: [u8; 32],
            near_p in 0u64..(1 << 33),
        ) {
            let p = U256::from_be_hex(
                "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
            );
            let near: [u8; 32] = p.wrapping_add(&U256::from_u64(near_p))
                .wrapping_sub(&U256::from_u64(1 << 32))
                .to_be_bytes();
            for input in [be, near] {
                let n = U256::from_be_slice(&input);
                let expected = if n >= p { n.wrapping_sub(&p) } else { n };
                let got = U256::from_be_slice(&fe_reduce(&input).to_bytes());
                prop_assert_eq!(got, expected);
            }
        }
    }
}
