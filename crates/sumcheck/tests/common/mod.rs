//! Test support: a minimal LFC1 reader (the ISRG vectors are LFC1 +
//! zstd) and helpers for the JSON vectors.
#![allow(dead_code, clippy::unwrap_used)]

use std::io::Read;

use longfellow_field::Field;
use longfellow_sumcheck::{SimpleCircuit, SimpleLayer, Term};

pub mod random_circuit;

pub fn unzstd(bytes: &[u8]) -> Vec<u8> {
    let mut dec = ruzstd::decoding::StreamingDecoder::new(bytes).expect("zstd frame");
    let mut out = Vec::new();
    dec.read_to_end(&mut out).expect("zstd body");
    out
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, n: usize) -> &[u8] {
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        a
    }
    fn num(&mut self) -> u64 {
        let b = self.take(3);
        u64::from(b[0]) | (u64::from(b[1]) << 8) | (u64::from(b[2]) << 16)
    }
    fn index(&mut self, prev: u64) -> u64 {
        let d = self.num();
        if d & 1 == 1 {
            prev - (d >> 1)
        } else {
            prev + (d >> 1)
        }
    }
}

/// Decodes an (uncompressed) LFC1 circuit.
pub fn decode_lfc1<F: Field>(bytes: &[u8]) -> SimpleCircuit<F> {
    let mut r = Reader(bytes);
    assert_eq!(r.take(1), [1]);
    let fid = r.num();
    assert_eq!(fid, u64::from(F::FIELD_ID));
    let nv = r.num() as usize;
    let nc = r.num();
    assert_eq!(nc, 1);
    let npub = r.num() as usize;
    let sfb = r.num() as usize;
    let ninputs = r.num() as usize;
    let nl = r.num() as usize;
    let nconst = r.num() as usize;
    let consts: Vec<F> = (0..nconst)
        .map(|_| F::from_bytes(r.take(F::BYTES)).expect("canonical constant"))
        .collect();
    let mut layers = Vec::new();
    for _ in 0..nl {
        let logw = r.num() as usize;
        let nw = r.num() as usize;
        let nq = r.num() as usize;
        let (mut g, mut h0, mut h1) = (0u64, 0u64, 0u64);
        let mut terms = Vec::with_capacity(nq);
        for _ in 0..nq {
            g = r.index(g);
            h0 = r.index(h0);
            h1 = r.index(h1);
            let k = consts[r.num() as usize];
            terms.push(Term {
                g: g as u32,
                h0: h0 as u32,
                h1: h1 as u32,
                k,
            });
        }
        layers.push(SimpleLayer { logw, nw, terms });
    }
    let id: [u8; 32] = r.take(32).try_into().unwrap();
    assert!(r.0.is_empty(), "trailing bytes");
    SimpleCircuit {
        id,
        num_outputs: nv,
        num_inputs: ninputs,
        num_public_inputs: npub,
        subfield_boundary: sfb,
        layers,
    }
}

pub fn elt<F: Field>(hex_str: &str) -> F {
    F::from_bytes(&hex::decode(hex_str).unwrap()).expect("canonical")
}
