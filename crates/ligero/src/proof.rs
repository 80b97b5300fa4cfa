//! The Ligero proof and its wire encoding (the part of a Longfellow proof
//! after the sumcheck transcript; the commitment root is not included).
//!
//! Layout: `y_ldt[block] ‖ y_dot[dblock] ‖ y_quad_0[r] ‖ y_quad_2[dblock −
//! block]` in full-field encoding; `nreq` 32-byte nonces in challenge order;
//! the opened columns row-major (`nrow` rows of `nreq` values) as alternating
//! runs `u32le length ‖ elements`, starting with a full-field run, each run
//! at most 2^25 long, subfield runs in the compact subfield encoding; then
//! `u32le count ‖ count` Merkle digests.

use crate::error::LigeroError;
use crate::params::LigeroParams;
use longfellow_field::Field;

/// Longest run of opened values the encoder emits; longer stretches of one
/// kind continue after an empty run of the other kind.
pub const MAX_RUN: usize = 1 << 25;

/// A Ligero proof for a given [`LigeroParams`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LigeroProof<F> {
    /// Low-degree response, `block` values.
    pub y_ldt: Vec<F>,
    /// Linear response, `dblock` values.
    pub y_dot: Vec<F>,
    /// Quadratic response positions `0..r`.
    pub y_quad_0: Vec<F>,
    /// Quadratic response positions `block..dblock`; positions `r..block`
    /// are zero and not sent.
    pub y_quad_2: Vec<F>,
    /// Leaf nonces of the opened columns, in challenge order.
    pub nonces: Vec<[u8; 32]>,
    /// Opened values, row-major: `columns[row · nreq + j]` is row `row` of
    /// the `j`-th opened column.
    pub columns: Vec<F>,
    /// Batch Merkle opening of the opened leaves.
    pub merkle_path: Vec<[u8; 32]>,
}

impl<F: Field> LigeroProof<F> {
    /// Opened value of row `row` in the `j`-th opened column.
    pub fn column_value(&self, nreq: usize, row: usize, j: usize) -> Option<&F> {
        self.columns.get(row.checked_mul(nreq)?.checked_add(j)?)
    }

    /// Checks every vector length against `params`.
    pub fn check_shape(&self, params: &LigeroParams) -> Result<(), LigeroError> {
        let ok = self.y_ldt.len() == params.block
            && self.y_dot.len() == params.dblock
            && self.y_quad_0.len() == params.r
            && self.y_quad_2.len() == params.dblock - params.block
            && self.nonces.len() == params.nreq
            && self.columns.len() == params.nrow * params.nreq
            && self.merkle_path.len() <= params.nreq * params.merkle_pathlen;
        if ok {
            Ok(())
        } else {
            Err(LigeroError::Malformed {
                what: "proof vectors do not match the parameters",
            })
        }
    }

    /// Appends the wire encoding (byte-identical to the reference writer).
    pub fn write(&self, out: &mut Vec<u8>) {
        for e in self
            .y_ldt
            .iter()
            .chain(&self.y_dot)
            .chain(&self.y_quad_0)
            .chain(&self.y_quad_2)
        {
            out.extend_from_slice(e.to_repr().as_ref());
        }
        for n in &self.nonces {
            out.extend_from_slice(n);
        }
        let mut sub_buf = vec![0u8; F::SUBFIELD_BYTES];
        let mut at = 0;
        let mut subfield_run = false;
        while at < self.columns.len() {
            let run = self.columns[at..]
                .iter()
                .take(MAX_RUN)
                .take_while(|e| e.is_in_subfield() == subfield_run)
                .count();
            push_u32(out, run);
            for e in &self.columns[at..at + run] {
                if subfield_run {
                    e.write_subfield_bytes(&mut sub_buf);
                    out.extend_from_slice(&sub_buf);
                } else {
                    out.extend_from_slice(e.to_repr().as_ref());
                }
            }
            at += run;
            subfield_run = !subfield_run;
        }
        push_u32(out, self.merkle_path.len());
        for d in &self.merkle_path {
            out.extend_from_slice(d);
        }
    }

    /// The wire encoding as a new vector.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }

    /// Decodes a proof from the front of `bytes`, advancing it past the
    /// proof. Untrusted input: every count is bounded by `params` and by the
    /// bytes actually present before anything is allocated, elements must be
    /// canonical, and the run encoding must be the one the writer produces
    /// (no empty run except the first or after a maximal run; no subfield
    /// value inside a full-field run).
    pub fn read(params: &LigeroParams, bytes: &mut &[u8]) -> Result<Self, LigeroError> {
        params.check_field::<F>()?;
        let mut r = Reader { rest: bytes };
        let y_ldt = r.elements(params.block, "y_ldt")?;
        let y_dot = r.elements(params.dblock, "y_dot")?;
        let y_quad_0 = r.elements(params.r, "y_quad_0")?;
        let y_quad_2 = r.elements(params.dblock - params.block, "y_quad_2")?;
        let nonces = r.digests(params.nreq, "nonces")?;
        let columns = r.columns(params.nrow * params.nreq)?;
        let count = r.u32("Merkle digest count")?;
        // The reference reader's range, nreq ≤ count ≤ nreq·pathlen.
        longfellow_merkle::check_digest_count(params.leaves, params.nreq, count)?;
        let merkle_path = r.digests(count, "Merkle digests")?;
        *bytes = r.rest;
        Ok(Self {
            y_ldt,
            y_dot,
            y_quad_0,
            y_quad_2,
            nonces,
            columns,
            merkle_path,
        })
    }

    /// Decodes a proof that must span all of `bytes`.
    pub fn from_bytes(params: &LigeroParams, mut bytes: &[u8]) -> Result<Self, LigeroError> {
        let proof = Self::read(params, &mut bytes)?;
        if bytes.is_empty() {
            Ok(proof)
        } else {
            Err(LigeroError::TrailingBytes(bytes.len()))
        }
    }
}

fn push_u32(out: &mut Vec<u8>, n: usize) {
    // Runs are capped at 2^25 and digest counts at nreq·pathlen < 2^32.
    out.extend_from_slice(&(n as u32).to_le_bytes());
}

struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], LigeroError> {
        if self.rest.len() < n {
            return Err(LigeroError::Truncated { what });
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Ok(head)
    }

    fn u32(&mut self, what: &'static str) -> Result<usize, LigeroError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }

    fn need(&self, count: usize, size: usize, what: &'static str) -> Result<(), LigeroError> {
        match count.checked_mul(size) {
            Some(n) if n <= self.rest.len() => Ok(()),
            _ => Err(LigeroError::Truncated { what }),
        }
    }

    fn elements<F: Field>(&mut self, n: usize, what: &'static str) -> Result<Vec<F>, LigeroError> {
        self.need(n, F::BYTES, what)?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(full_element(self.take(F::BYTES, what)?)?);
        }
        Ok(out)
    }

    fn digests(&mut self, n: usize, what: &'static str) -> Result<Vec<[u8; 32]>, LigeroError> {
        self.need(n, 32, what)?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let mut d = [0u8; 32];
            d.copy_from_slice(self.take(32, what)?);
            out.push(d);
        }
        Ok(out)
    }

    fn columns<F: Field>(&mut self, total: usize) -> Result<Vec<F>, LigeroError> {
        const WHAT: &str = "opened columns";
        // Every value takes at least its subfield encoding.
        self.need(total, F::SUBFIELD_BYTES.min(F::BYTES), WHAT)?;
        let mut out = Vec::with_capacity(total);
        let mut subfield_run = false;
        let mut previous_run = None;
        while out.len() < total {
            let run = self.u32("run length")?;
            let empty_ok = matches!(previous_run, None | Some(MAX_RUN));
            if run > MAX_RUN || (run == 0 && !empty_ok) || run > total - out.len() {
                return Err(LigeroError::Malformed {
                    what: "invalid run length in opened columns",
                });
            }
            if subfield_run {
                self.need(run, F::SUBFIELD_BYTES, WHAT)?;
                for _ in 0..run {
                    let e = F::from_subfield_bytes(self.take(F::SUBFIELD_BYTES, WHAT)?).ok_or(
                        LigeroError::Malformed {
                            what: "invalid subfield element",
                        },
                    )?;
                    out.push(e);
                }
            } else {
                self.need(run, F::BYTES, WHAT)?;
                for _ in 0..run {
                    let e: F = full_element(self.take(F::BYTES, WHAT)?)?;
                    if e.is_in_subfield() {
                        return Err(LigeroError::Malformed {
                            what: "subfield value in a full-field run",
                        });
                    }
                    out.push(e);
                }
            }
            previous_run = Some(run);
            subfield_run = !subfield_run;
        }
        Ok(out)
    }
}

fn full_element<F: Field>(bytes: &[u8]) -> Result<F, LigeroError> {
    F::from_bytes(bytes).ok_or(LigeroError::Malformed {
        what: "non-canonical field element",
    })
}
