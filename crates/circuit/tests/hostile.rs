//! Hostile input: every decoder must fail with a typed error, never panic,
//! and never accept a modified file as a different circuit.

use longfellow_circuit::{
    decode_lfc1, decode_lfc2, load_any, load_circuit, load_pair, load_pair_with, CircuitError,
    LoadOptions,
};
use longfellow_field::{Fp128, Fp256, Gf2_128};
use longfellow_testvectors::read;
use proptest::prelude::*;
use sha2::{Digest, Sha256};

const V7_1: &str =
    "google/mdoc/circuits/8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";
const V6_1: &str =
    "google/mdoc/circuits/137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6";
const MAC: &str =
    "isrg/one-circuit/longfellow-mac-circuit-66aeaf09a9cc98e36873e868307ac07279d5f7e0-1.circuit.zst";

/// A small independent LFC1/LFC2 writer and circuit-ID implementation
/// (written from the format description, not from the decoder).
mod enc {
    use super::*;

    pub struct Layer {
        pub logw: u32,
        pub nw: u32,
        /// Absolute (g, h0, h1, constant index).
        pub terms: Vec<(u32, u32, u32, u32)>,
    }

    pub struct Circuit {
        pub nv: u32,
        pub npub: u32,
        pub sfb: u32,
        pub ninputs: u32,
        /// 16-byte GF(2^128) constants.
        pub consts: Vec<[u8; 16]>,
        pub layers: Vec<Layer>,
    }

    fn put_u64(h: &mut Sha256, v: u64) {
        h.update(v.to_le_bytes());
    }

    /// The C++ circuit_id for a GF(2^128) circuit.
    pub fn id(c: &Circuit) -> [u8; 32] {
        let mut h = Sha256::new();
        put_u64(&mut h, 2);
        put_u64(&mut h, 128);
        let logv = (0..64)
            .find(|k| (1u64 << k) >= u64::from(c.nv))
            .unwrap_or(0);
        for v in [
            u64::from(c.nv),
            logv,
            1,
            0,
            c.layers.len() as u64,
            u64::from(c.ninputs),
            u64::from(c.npub),
            u64::from(c.sfb),
        ] {
            put_u64(&mut h, v);
        }
        for l in &c.layers {
            put_u64(&mut h, u64::from(l.nw));
            put_u64(&mut h, u64::from(l.logw));
            put_u64(&mut h, l.terms.len() as u64);
            for &(g, h0, h1, k) in &l.terms {
                put_u64(&mut h, u64::from(g));
                put_u64(&mut h, u64::from(h0));
                put_u64(&mut h, u64::from(h1));
                h.update(c.consts[k as usize]);
            }
        }
        h.finalize().into()
    }

    fn u24(out: &mut Vec<u8>, v: u32) {
        out.extend_from_slice(&v.to_le_bytes()[..3]);
    }

    fn signed(prev: u32, cur: u32) -> u32 {
        if cur >= prev {
            (cur - prev) * 2
        } else {
            (prev - cur) * 2 + 1
        }
    }

    pub fn lfc1(c: &Circuit) -> Vec<u8> {
        let mut o = vec![1u8];
        for v in [4, c.nv, 1, c.npub, c.sfb, c.ninputs, c.layers.len() as u32] {
            u24(&mut o, v);
        }
        u24(&mut o, c.consts.len() as u32);
        for k in &c.consts {
            o.extend_from_slice(k);
        }
        for l in &c.layers {
            u24(&mut o, l.logw);
            u24(&mut o, l.nw);
            u24(&mut o, l.terms.len() as u32);
            let mut prev = (0, 0, 0);
            for &(g, h0, h1, k) in &l.terms {
                u24(&mut o, signed(prev.0, g));
                u24(&mut o, signed(prev.1, h0));
                u24(&mut o, signed(prev.2, h1));
                u24(&mut o, k);
                prev = (g, h0, h1);
            }
        }
        o.extend_from_slice(&id(c));
        o
    }

    pub fn uleb(out: &mut Vec<u8>, mut v: u32) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                out.push(b);
                return;
            }
            out.push(b | 0x80);
        }
    }

    fn zz(prev: u32, cur: u32) -> u32 {
        let d = cur.wrapping_sub(prev) as i32;
        ((d << 1) ^ (d >> 31)) as u32
    }

    /// LFC2 with every term its own delta, one segment per term and tokens
    /// in order (valid, if not compact).
    pub fn lfc2(c: &Circuit) -> Vec<u8> {
        lfc2_with_empty_segments(c, 0)
    }

    /// [`lfc2`] with `empty` zero-length segments appended to each layer's
    /// segment table (no token names them).
    pub fn lfc2_with_empty_segments(c: &Circuit, empty: u32) -> Vec<u8> {
        let mut o = b"LFC2".to_vec();
        for v in [4, c.nv, 1, c.npub, c.sfb, c.ninputs, c.layers.len() as u32] {
            uleb(&mut o, v);
        }
        uleb(&mut o, c.consts.len() as u32);
        for k in &c.consts {
            o.extend_from_slice(k);
        }
        for l in &c.layers {
            uleb(&mut o, l.logw);
            uleb(&mut o, l.nw);
            let n = l.terms.len() as u32;
            uleb(&mut o, n);
            let mut prev = (0, 0, 0);
            for &(g, h0, h1, k) in &l.terms {
                uleb(&mut o, zz(prev.0, g));
                uleb(&mut o, zz(prev.1, h0));
                uleb(&mut o, zz(prev.2, h1));
                uleb(&mut o, k);
                prev = (g, h0, h1);
            }
            uleb(&mut o, n + empty);
            for i in 0..n {
                uleb(&mut o, 1);
                uleb(&mut o, i);
            }
            for _ in 0..empty {
                uleb(&mut o, 0);
            }
            uleb(&mut o, n);
            for i in 0..n {
                uleb(&mut o, i);
            }
        }
        o.extend_from_slice(&id(c));
        o
    }

    /// A small valid two-layer circuit.
    pub fn sample() -> Circuit {
        let mut one = [0u8; 16];
        one[0] = 1;
        Circuit {
            nv: 2,
            npub: 2,
            sfb: 3,
            ninputs: 4,
            consts: vec![[0u8; 16], one],
            layers: vec![
                Layer {
                    logw: 2,
                    nw: 3,
                    terms: vec![(0, 1, 2, 1), (1, 0, 0, 0), (1, 2, 2, 1)],
                },
                Layer {
                    logw: 2,
                    nw: 4,
                    terms: vec![(0, 1, 1, 1), (1, 2, 3, 1), (2, 0, 3, 0)],
                },
            ],
        }
    }
}

fn expect_err<T: std::fmt::Debug>(r: Result<T, CircuitError>) -> CircuitError {
    match r {
        Ok(v) => panic!("accepted hostile input: {v:?}"),
        Err(e) => e,
    }
}

#[test]
fn sample_circuit_round_trips_through_both_formats() {
    let c = enc::sample();
    for bytes in [enc::lfc1(&c), enc::lfc2(&c)] {
        let d = load_circuit::<Gf2_128>(&bytes).expect("valid sample");
        assert_eq!(d.id(), &enc::id(&c));
        for (dl, cl) in d.layers().iter().zip(&c.layers) {
            let got: Vec<_> = dl.terms().map(|t| (t.g, t.h0, t.h1)).collect();
            let want: Vec<_> = cl.terms.iter().map(|t| (t.0, t.1, t.2)).collect();
            assert_eq!(got, want);
        }
    }
}

#[test]
fn targeted_malformations_give_the_right_errors() {
    let c = enc::sample();
    let good = enc::lfc1(&c);

    assert!(matches!(
        expect_err(decode_lfc1::<Gf2_128>(&[])),
        CircuitError::Truncated { .. }
    ));
    assert!(matches!(
        expect_err(decode_lfc1::<Gf2_128>(&[2, 0, 0])),
        CircuitError::UnsupportedVersion { .. }
    ));
    assert!(matches!(
        expect_err(load_circuit::<Gf2_128>(b"XYZW1234")),
        CircuitError::BadMagic { .. }
    ));
    assert!(matches!(
        expect_err(decode_lfc1::<Fp256>(&good)),
        CircuitError::FieldMismatch {
            expected: 1,
            found: 4
        }
    ));

    // Header counts beyond the caps.
    let mut b = good.clone();
    b[19..22].copy_from_slice(&[0xff, 0xff, 0xff]); // nl
    assert!(matches!(
        expect_err(decode_lfc1::<Gf2_128>(&b)),
        CircuitError::TooLarge { .. }
    ));
    let mut b = good.clone();
    b[22..25].copy_from_slice(&[0xff, 0xff, 0xff]); // nconst
    assert!(matches!(
        expect_err(decode_lfc1::<Gf2_128>(&b)),
        CircuitError::TooLarge { .. }
    ));

    // A layer claiming 2^24 − 1 terms with none present fails fast.
    let layer0 = 25 + 2 * 16;
    let mut b = good[..layer0 + 6].to_vec();
    b.extend_from_slice(&[0xff, 0xff, 0xff]);
    assert!(matches!(
        expect_err(decode_lfc1::<Gf2_128>(&b)),
        CircuitError::Truncated { .. }
    ));

    // Wire out of range: first term's g := nv.
    let mut b = good.clone();
    b[layer0 + 9..layer0 + 12].copy_from_slice(&[4, 0, 0]);
    assert!(matches!(
        expect_err(decode_lfc1::<Gf2_128>(&b)),
        CircuitError::WireOutOfRange { wire: "g", .. }
    ));
    // h0 ≥ nw.
    let mut b = good.clone();
    b[layer0 + 12..layer0 + 15].copy_from_slice(&[6, 0, 0]);
    assert!(matches!(
        expect_err(decode_lfc1::<Gf2_128>(&b)),
        CircuitError::WireOutOfRange { wire: "h0", .. }
    ));
    // Negative index (wraps) is out of range too.
    let mut b = good.clone();
    b[layer0 + 9..layer0 + 12].copy_from_slice(&[3, 0, 0]);
    assert!(matches!(
        expect_err(decode_lfc1::<Gf2_128>(&b)),
        CircuitError::WireOutOfRange { .. }
    ));
    // Constant index out of range.
    let mut b = good.clone();
    b[layer0 + 18..layer0 + 21].copy_from_slice(&[2, 0, 0]);
    assert!(matches!(
        expect_err(decode_lfc1::<Gf2_128>(&b)),
        CircuitError::IndexOutOfRange { .. }
    ));

    // Trailing bytes and a wrong ID.
    let mut b = good.clone();
    b.push(0);
    assert!(matches!(
        expect_err(decode_lfc1::<Gf2_128>(&b)),
        CircuitError::TrailingBytes { .. }
    ));
    let mut b = good.clone();
    let last = b.len() - 1;
    b[last] ^= 1;
    assert!(matches!(
        expect_err(decode_lfc1::<Gf2_128>(&b)),
        CircuitError::IdMismatch { .. }
    ));

    // Non-canonical P-256 constant (p itself).
    let mut b = vec![1u8];
    for v in [1u32, 1, 1, 1, 0, 1, 1, 1] {
        b.extend_from_slice(&v.to_le_bytes()[..3]);
    }
    let mut p = [0xffu8; 32];
    p[12..24].fill(0);
    p[24..28].copy_from_slice(&[1, 0, 0, 0]);
    b.extend_from_slice(&p);
    assert!(matches!(
        expect_err(decode_lfc1::<Fp256>(&b)),
        CircuitError::NonCanonicalElement { index: 0 }
    ));
}

#[test]
fn lfc2_malformations_give_the_right_errors() {
    // Over-long and non-minimal ULEB128 numbers.
    let mut b = b"LFC2".to_vec();
    b.extend_from_slice(&[0x84, 0x80, 0x80, 0x80, 0x00]);
    assert!(matches!(
        expect_err(decode_lfc2::<Gf2_128>(&b)),
        CircuitError::BadVarint { .. }
    ));
    let mut b = b"LFC2".to_vec();
    b.extend_from_slice(&[0x84, 0x00]);
    assert!(matches!(
        expect_err(decode_lfc2::<Gf2_128>(&b)),
        CircuitError::BadVarint { .. }
    ));

    // A token pointing past the segment table.
    let c = enc::sample();
    let good = enc::lfc2(&c);
    assert!(decode_lfc2::<Gf2_128>(&good).is_ok());
    // Last layer's last token is the byte before the 32-byte ID.
    let mut b = good.clone();
    let tok = b.len() - 33;
    b[tok] = 9;
    assert!(matches!(
        expect_err(decode_lfc2::<Gf2_128>(&b)),
        CircuitError::IndexOutOfRange {
            what: "segment",
            ..
        }
    ));
}

#[test]
fn lfc2_empty_segments_are_rejected() {
    // Each would cost one input byte but per-segment memory in the prover.
    let c = enc::sample();
    let b = enc::lfc2_with_empty_segments(&c, 1);
    assert!(matches!(
        expect_err(decode_lfc2::<Gf2_128>(&b)),
        CircuitError::Invalid {
            what: "segment length",
            value: 0,
            ..
        }
    ));
}

#[test]
fn zstd_headers_are_checked_before_decoding() {
    longfellow_testvectors::require!();
    // Declares 2^40 unpacked bytes.
    let mut b = vec![0x28, 0xb5, 0x2f, 0xfd, 0xc0, 0x60];
    b.extend_from_slice(&(1u64 << 40).to_le_bytes());
    b.extend_from_slice(&[0; 8]);
    assert!(matches!(
        expect_err(load_pair(&b)),
        CircuitError::TooLarge { .. }
    ));
    // Window of 2^41 bytes.
    let b = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xf8, 0, 0, 0];
    assert!(matches!(
        expect_err(load_pair(&b)),
        CircuitError::TooLarge { .. }
    ));
    // A valid frame followed by garbage.
    let mut b = read(MAC);
    b.push(0);
    expect_err(load_circuit::<Gf2_128>(&b));
}

/// Every proper prefix at `cuts` fails; every single-bit change at `flips`
/// fails or decodes to the very same circuit.
fn sweep<T>(
    original: &[u8],
    cuts: impl Iterator<Item = usize>,
    flips: impl Iterator<Item = usize>,
    load: impl Fn(&[u8]) -> Result<T, CircuitError>,
    same: impl Fn(&T) -> bool,
) {
    for cut in cuts.filter(|&o| o < original.len()) {
        if load(&original[..cut]).is_ok() {
            panic!("prefix of {cut} bytes accepted");
        }
    }
    let mut buf = original.to_vec();
    for (i, at) in flips.filter(|&o| o < original.len()).enumerate() {
        let mask = 1u8 << (i % 8);
        buf[at] ^= mask;
        if let Ok(v) = load(&buf) {
            assert!(same(&v), "flip at {at} accepted as a different circuit");
        }
        buf[at] ^= mask;
    }
}

fn spread(len: usize, n: usize) -> impl Iterator<Item = usize> + Clone {
    (0..64.min(len)).chain((0..n).map(move |i| i * len / n))
}

#[test]
fn truncated_and_flipped_lfa2_fails_cleanly() {
    longfellow_testvectors::require!();
    let bytes = read(&format!("{V7_1}.lfa2"));
    let want = load_pair(&bytes).expect("original").zkspec_hash;
    // A flip usually decodes fully and fails the ID check (~0.2 s CPU), so
    // flips are fewer than cuts.
    let n = bytes.len();
    sweep(
        &bytes,
        spread(n, 60),
        (0..16).chain((1..12).map(|i| i * n / 12)),
        load_pair,
        |p| p.zkspec_hash == want,
    );
}

#[test]
fn truncated_and_flipped_lfc1_pair_fails_cleanly() {
    longfellow_testvectors::require!();
    // Each try may unpack most of ~90 MB, so only a few offsets.
    let bytes = read(V6_1);
    let want = load_pair(&bytes).expect("original").zkspec_hash;
    let offsets = [
        0usize,
        3,
        5,
        9,
        17,
        40,
        1000,
        bytes.len() / 2,
        bytes.len() - 5,
    ];
    sweep(
        &bytes,
        offsets.into_iter(),
        offsets.into_iter(),
        load_pair,
        |p| p.zkspec_hash == want,
    );
}

#[test]
fn truncated_and_flipped_spec_lfc2_fails_cleanly() {
    longfellow_testvectors::require!();
    let bytes = read("google/spec/sha256_circuit.lfc2");
    let want = *decode_lfc2::<Gf2_128>(&bytes).expect("original").id();
    let n = bytes.len();
    sweep(
        &bytes,
        spread(n, 1500),
        spread(n, 1500),
        decode_lfc2::<Gf2_128>,
        |c| *c.id() == want,
    );
}

fn unzstd(bytes: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut src = bytes;
    let mut d = ruzstd::decoding::StreamingDecoder::new(&mut src).expect("frame");
    let mut out = Vec::new();
    d.read_to_end(&mut out).expect("decode");
    out
}

#[test]
fn truncated_and_flipped_isrg_lfc1_fails_cleanly() {
    longfellow_testvectors::require!();
    let packed = read(MAC);
    let raw = unzstd(&packed);
    let want = *decode_lfc1::<Gf2_128>(&raw).expect("original").id();
    let n = raw.len();
    sweep(
        &raw,
        spread(n, 1500),
        spread(n, 1500),
        decode_lfc1::<Gf2_128>,
        |c| *c.id() == want,
    );
    let n = packed.len();
    sweep(&packed, 0..n, 0..n, load_circuit::<Gf2_128>, |c| {
        *c.id() == want
    });
}

fn all_decoders(bytes: &[u8]) {
    let _ = decode_lfc1::<Fp256>(bytes);
    let _ = decode_lfc1::<Gf2_128>(bytes);
    let _ = decode_lfc2::<Fp256>(bytes);
    let _ = decode_lfc2::<Gf2_128>(bytes);
    let _ = load_circuit::<Fp128>(bytes);
    let _ = load_pair(bytes);
    let _ = load_pair_with(bytes, LoadOptions { use_catalog: false });
    let _ = load_any(bytes);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        all_decoders(&bytes);
    }

    #[test]
    fn arbitrary_bodies_behind_valid_magic_never_panic(
        prefix in prop_oneof![
            Just(vec![1u8, 4, 0, 0]),
            Just(vec![1u8, 1, 0, 0]),
            Just(b"LFC2\x04".to_vec()),
            Just(b"LFC2\x01".to_vec()),
            Just(b"LFA2\x01".to_vec()),
            Just(vec![0x28, 0xb5, 0x2f, 0xfd]),
        ],
        body in proptest::collection::vec(any::<u8>(), 0..600),
    ) {
        let mut bytes = prefix;
        bytes.extend_from_slice(&body);
        all_decoders(&bytes);
    }

    #[test]
    fn random_valid_circuits_round_trip(
        seed in proptest::collection::vec((0u32..64, 0u32..64, 0u32..64, 0u32..3), 1..40),
        nv in 1u32..8,
        nw in 1u32..9,
    ) {
        let mut consts = vec![[0u8; 16]; 3];
        consts[1][0] = 1;
        consts[2][5] = 7;
        let terms: Vec<_> = seed.iter().map(|&(g, a, b, k)| (g % nv, a % nw, b % nw, k)).collect();
        let logw = (0..8).find(|k| (1u32 << k) >= nw).unwrap_or(3);
        let c = enc::Circuit {
            nv, npub: 1, sfb: 1, ninputs: nw, consts,
            layers: vec![enc::Layer { logw, nw, terms: terms.clone() }],
        };
        for bytes in [enc::lfc1(&c), enc::lfc2(&c)] {
            let d = load_circuit::<Gf2_128>(&bytes).expect("valid");
            let got: Vec<_> = d.layers()[0].terms().map(|t| (t.g, t.h0, t.h1)).collect();
            let want: Vec<_> = terms.iter().map(|t| (t.0, t.1, t.2)).collect();
            prop_assert_eq!(got, want);
        }
    }
}
