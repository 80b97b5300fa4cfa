//! Structure-aware circuit inputs: the fuzzer's bytes choose a circuit's
//! shape — valid magic and header, layer dimensions that pass their checks
//! — and hostile table sizes and contents (counts near every cap, millions
//! of one-entry or unused segments, many distinct deltas, deltas chosen to
//! collide in an unkeyed hash). Byte-level mutation of a real file almost
//! never gets past the header checks to these tables; this does on every
//! input.
//!
//! The generated file is at most [`MAX_OUTPUT`] bytes: a declared count
//! larger than what is written tests that decoders never allocate by the
//! declared count.

/// Upper bound on a generated file (decoding a file this big takes well
/// under the fuzzer's timeout).
pub const MAX_OUTPUT: usize = 4 << 20;

/// Reads choices from the fuzzer's bytes (zeros once they run out).
pub struct Choices<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Choices<'a> {
    /// Choices drawn from `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, at: 0 }
    }

    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    /// A count: small, or near one of the decoders' caps.
    fn count(&mut self) -> u64 {
        const CAPS: [u64; 8] = [
            1 << 12,
            (1 << 18) - 1,
            1 << 18,
            (1 << 18) + 1,
            1 << 20,
            (1 << 22) + 1,
            1 << 24,
            (1 << 24) + 1,
        ];
        match self.byte() {
            b @ 0..=199 => u64::from(b % 32),
            b @ 200..=247 => CAPS[usize::from(b - 200) % CAPS.len()],
            _ => u64::from(self.u32() & 0x0fff_ffff),
        }
    }
}

/// How table entries are filled.
#[derive(Clone, Copy)]
enum Fill {
    /// Entry i is i (distinct deltas, every segment used once).
    Sequential,
    /// All entries 0 (one delta; segments all alike; unused segments).
    Zero,
    /// From the fuzzer's bytes.
    Bytes,
}

fn uleb(o: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            o.push(b);
            return;
        }
        o.push(b | 0x80);
    }
}

fn u24(o: &mut Vec<u8>, v: u64) {
    o.extend_from_slice(&(v as u32).to_le_bytes()[..3]);
}

/// A circuit file shaped by `c`: LFC2 (`lfc1 = false`) or LFC1, over the
/// field with ID `field_id` whose elements are `elem` bytes (zero
/// constants are canonical in every field).
pub fn circuit(c: &mut Choices<'_>, field_id: u32, elem: usize, lfc1: bool) -> Vec<u8> {
    let mut o = Vec::new();
    let n = |o: &mut Vec<u8>, v: u64| if lfc1 { u24(o, v) } else { uleb(o, v) };
    if lfc1 {
        o.push(1);
    } else {
        o.extend_from_slice(b"LFC2");
    }
    let nv = 1 + u64::from(c.byte() % 4);
    // Wide layers let a layer hold millions of distinct deltas.
    let wide = |c: &mut Choices<'_>| match c.byte() {
        0..=223 => 1 + u64::from(c.byte() % 8),
        _ => 1 << 20,
    };
    let ninputs = wide(c);
    let nl = 1 + u64::from(c.byte() % 3);
    let nconst = match c.byte() % 4 {
        0 => 1,
        1 => 2,
        2 => 1 << 10,
        _ => 1 << (12 + c.byte() % 9), // up to 2^20, the cap
    };
    for v in [
        u64::from(field_id),
        nv,
        1,
        ninputs / 2,
        ninputs / 2,
        ninputs,
        nl,
        nconst,
    ] {
        n(&mut o, v);
    }
    // Declared constants beyond MAX_OUTPUT are left out (the decoder's
    // table budget must refuse before reading them).
    o.resize(o.len() + (elem * nconst as usize).min(MAX_OUTPUT), 0);
    for layer in 0..nl {
        let nw = if layer + 1 == nl { ninputs } else { wide(c) };
        n(&mut o, 22); // logw: 2^22 ≥ nw
        n(&mut o, nw);
        let fill = match c.byte() % 3 {
            0 => Fill::Sequential,
            1 => Fill::Zero,
            _ => Fill::Bytes,
        };
        if lfc1 {
            // Terms: (Δg, Δh0, Δh1, k) with the h0 walk 0, 1, 0, 2, … (all
            // deltas distinct) and k cancelling a multiply–rotate hash's
            // low bits, or deltas from the bytes.
            let terms = c.count();
            n(&mut o, terms);
            for t in 0..terms {
                if o.len() >= MAX_OUTPUT {
                    break;
                }
                let (h0, k) = match fill {
                    Fill::Sequential => {
                        let step = t / 2 + 1;
                        let mag = step.min(nw - 1);
                        (mag * 2 + (t % 2), (t * 0x9e37_79b9) % nconst)
                    }
                    Fill::Zero => (0, 0),
                    Fill::Bytes => (u64::from(c.byte() % 16), u64::from(c.byte()) % nconst),
                };
                for v in [0, h0, 0, k] {
                    u24(&mut o, v);
                }
            }
        } else {
            let ndeltas = c.count();
            uleb(&mut o, ndeltas);
            for i in 0..ndeltas {
                if o.len() >= MAX_OUTPUT {
                    break;
                }
                let (h0, k) = match fill {
                    Fill::Sequential => (i % 2, i % nconst),
                    Fill::Zero => (0, 0),
                    Fill::Bytes => (u64::from(c.byte() % 4), u64::from(c.byte()) % nconst),
                };
                o.extend_from_slice(&[0, h0 as u8, 0]);
                uleb(&mut o, k);
            }
            let nseg = c.count();
            uleb(&mut o, nseg);
            for s in 0..nseg {
                if o.len() >= MAX_OUTPUT {
                    break;
                }
                let len = match fill {
                    Fill::Bytes => u64::from(c.byte() % 5),
                    _ => 1,
                };
                uleb(&mut o, len);
                for _ in 0..len {
                    let d = match fill {
                        Fill::Sequential => s % ndeltas.max(1),
                        Fill::Zero => 0,
                        Fill::Bytes => u64::from(c.byte()) % ndeltas.max(1),
                    };
                    uleb(&mut o, d);
                }
            }
            let ntok = c.count();
            uleb(&mut o, ntok);
            for t in 0..ntok {
                if o.len() >= MAX_OUTPUT {
                    break;
                }
                let s = match fill {
                    Fill::Sequential => t % nseg.max(1),
                    Fill::Zero => 0,
                    Fill::Bytes => u64::from(c.byte()) % nseg.max(1),
                };
                uleb(&mut o, s);
            }
        }
    }
    o.extend_from_slice(&[0u8; 32]);
    o
}
