//! Which component holds a given byte offset, found by walking the bytes in
//! wire order with nothing but the geometry and the length prefixes.
//!
//! This is the fallback when a proof does not parse as a whole, and the way
//! to name a component when only one side parses: fixed-size sections are
//! placed by the geometry, the run-length and digest-count prefixes are read
//! from the bytes themselves. Where a prefix is missing or out of range the
//! rest of the section is reported as one unparsed [`Component::Section`].

use super::component::Component;
use super::shape::ZkShape;

/// Outcome of a walk that stopped early: the component holding the target
/// (or an unparsed section), and the part it belongs to.
pub(crate) type Hit = (Option<&'static str>, Component, bool);

/// Walks byte spans until the target offset falls into one.
pub(crate) struct Locator<'a> {
    bytes: &'a [u8],
    pos: usize,
    target: usize,
    part: Option<&'static str>,
}

const COLUMNS_AND_OPENING: &str = "Ligero opened columns and Merkle opening";
const MERKLE_OPENING: &str = "Merkle opening";

impl<'a> Locator<'a> {
    pub(crate) fn new(bytes: &'a [u8], target: usize) -> Self {
        Self {
            bytes,
            pos: 0,
            target,
            part: None,
        }
    }

    pub(crate) fn set_part(&mut self, part: Option<&'static str>) {
        self.part = part;
    }

    /// Skips `len` bytes named `c`, or stops if the target is inside them.
    fn span(&mut self, len: usize, c: impl FnOnce() -> Component) -> Result<(), Hit> {
        if self.target < self.pos.saturating_add(len) {
            return Err((self.part, c(), true));
        }
        self.pos += len;
        Ok(())
    }

    /// `count` equal-sized items; computes the index directly.
    fn items(
        &mut self,
        count: usize,
        size: usize,
        c: impl FnOnce(usize) -> Component,
    ) -> Result<(), Hit> {
        let len = count.saturating_mul(size);
        if self.target < self.pos.saturating_add(len) {
            let i = (self.target - self.pos) / size.max(1);
            return Err((self.part, c(i), true));
        }
        self.pos += len;
        Ok(())
    }

    /// The rest cannot be split: name the section.
    fn unparsed(&self, section: &'static str) -> Hit {
        (self.part, Component::Section(section), false)
    }

    fn u32_here(&self) -> Option<usize> {
        let b = self.bytes.get(self.pos..self.pos.checked_add(4)?)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }

    /// Reached the end of everything without hitting the target.
    pub(crate) fn trailing(&self) -> Hit {
        (None, Component::Trailing, true)
    }

    pub(crate) fn macs(&mut self, count: usize) -> Result<(), Hit> {
        self.items(count, 16, Component::Mac)
    }

    pub(crate) fn root(&mut self) -> Result<(), Hit> {
        self.span(32, || Component::Root)
    }

    pub(crate) fn sumcheck(&mut self, shape: &ZkShape) -> Result<(), Hit> {
        const ORDER: [(usize, u8); 4] = [(0, 0), (1, 0), (0, 2), (1, 2)];
        let e = shape.elt_bytes;
        for (layer, &logw) in shape.layer_logw.iter().enumerate() {
            // Skip whole layers quickly.
            let layer_len = (4 * logw + 2) * e;
            if self.target >= self.pos.saturating_add(layer_len) {
                self.pos += layer_len;
                continue;
            }
            for round in 0..logw {
                for (hand, point) in ORDER {
                    self.span(e, || Component::SumcheckPoly {
                        layer,
                        round,
                        hand,
                        point,
                    })?;
                }
            }
            for hand in 0..2 {
                self.span(e, || Component::SumcheckClaim { layer, hand })?;
            }
        }
        Ok(())
    }

    pub(crate) fn ligero(&mut self, shape: &ZkShape) -> Result<(), Hit> {
        let p = &shape.ligero;
        let e = shape.elt_bytes;
        self.items(p.block, e, Component::YLdt)?;
        self.items(p.dblock, e, Component::YDot)?;
        self.items(p.r, e, Component::YQuad0)?;
        self.items(p.dblock - p.block, e, Component::YQuad2)?;
        self.items(p.nreq, 32, Component::Nonce)?;
        self.columns(shape)?;
        let Some(count) = self.u32_here() else {
            return Err(self.unparsed(MERKLE_OPENING));
        };
        self.span(4, || Component::DigestCount)?;
        if count > self.bytes.len().saturating_sub(self.pos) / 32 {
            return Err(self.unparsed(MERKLE_OPENING));
        }
        self.items(count, 32, Component::Digest)
    }

    fn columns(&mut self, shape: &ZkShape) -> Result<(), Hit> {
        let nreq = shape.ligero.nreq.max(1);
        let total = shape.ligero.nrow * shape.ligero.nreq;
        let mut done = 0;
        let mut run_index = 0;
        let mut subfield = false;
        while done < total {
            let Some(run) = self.u32_here() else {
                return Err(self.unparsed(COLUMNS_AND_OPENING));
            };
            self.span(4, || Component::RunLength(run_index))?;
            let size = if subfield {
                shape.subfield_bytes
            } else {
                shape.elt_bytes
            };
            if run > total - done || run.saturating_mul(size) > self.bytes.len() - self.pos {
                return Err(self.unparsed(COLUMNS_AND_OPENING));
            }
            let first = done;
            self.items(run, size, |i| Component::Column {
                row: (first + i) / nreq,
                col: (first + i) % nreq,
            })?;
            done += run;
            run_index += 1;
            subfield = !subfield;
        }
        Ok(())
    }

    pub(crate) fn zk(&mut self, shape: &ZkShape) -> Result<(), Hit> {
        self.root()?;
        self.sumcheck(shape)?;
        self.ligero(shape)
    }
}
