//! Builds the compact layer form from a stream of term deltas (LFC1).
//!
//! LFC1 stores every term explicitly (12 bytes each; 8.2 M terms in the v7
//! one-attribute pair). Circuits are highly repetitive, so we deduplicate
//! the deltas into a table, cut the resulting index sequence into
//! content-defined chunks (a cut follows a pair of indices whose hash has
//! its top bits clear, so a pattern repeated at any alignment is cut at the
//! same places), and store each distinct chunk once as a segment.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::circuit::{Compact, Delta};
use crate::error::CircuitError;
use crate::limits::MAX_TABLE;

/// Multiply–rotate hasher for small fixed-size keys (not DoS resistant;
/// adversarial collisions only slow decoding, bounded by the size caps).
#[derive(Default, Clone, Copy)]
pub(crate) struct FastHasher(u64);

const K: u64 = 0x9e37_79b9_7f4a_7c15;

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(K);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

type FastMap<Key, V> = HashMap<Key, V, BuildHasherDefault<FastHasher>>;

/// Chunks are never shorter than this (except a layer's last chunk) ...
const MIN_CHUNK: usize = 4;
/// ... nor longer than this.
const MAX_CHUNK: usize = 64;

/// Entries of the direct-mapped cache in front of the delta map.
const CACHE_BITS: u32 = 12;

/// A cache slot no real delta matches (constant indices are < 2^20).
const EMPTY: (Delta, u32) = (
    Delta {
        g: 0,
        h0: 0,
        h1: 0,
        k: u32::MAX,
    },
    0,
);

/// Accumulates one layer's deltas.
pub(crate) struct Compactor {
    /// Most lookups hit this small direct-mapped cache (a layer has few
    /// distinct deltas), sparing the hash map.
    cache: Box<[(Delta, u32)]>,
    delta_index: FastMap<Delta, u32>,
    deltas: Vec<Delta>,
    /// Chunk fingerprint → segment; on a fingerprint collision the new
    /// chunk simply becomes its own segment.
    seg_index: FastMap<u64, u32>,
    seg_starts: Vec<u32>,
    seg_items: Vec<u32>,
    tokens: Vec<u32>,
    chunk: Vec<u32>,
    fingerprint: u64,
    prev: u32,
}

impl Compactor {
    pub(crate) fn new() -> Self {
        Self {
            cache: vec![EMPTY; 1 << CACHE_BITS].into_boxed_slice(),
            delta_index: FastMap::default(),
            deltas: Vec::new(),
            seg_index: FastMap::default(),
            seg_starts: vec![0],
            seg_items: Vec::new(),
            tokens: Vec::new(),
            chunk: Vec::with_capacity(MAX_CHUNK),
            fingerprint: 0,
            prev: u32::MAX,
        }
    }

    /// Appends the next term's delta.
    #[inline]
    pub(crate) fn push(&mut self, d: Delta) -> Result<(), CircuitError> {
        let slot = ((u64::from(d.g) | (u64::from(d.h0) << 32)).wrapping_mul(K)
            ^ (u64::from(d.h1) | (u64::from(d.k) << 32)).wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
            >> (64 - CACHE_BITS);
        let slot = slot as usize;
        let idx = match self.cache.get(slot) {
            Some(&(cd, ci)) if cd == d => ci,
            _ => self.lookup(d, slot)?,
        };
        self.chunk.push(idx);
        self.fingerprint = (self.fingerprint.rotate_left(5) ^ u64::from(idx)).wrapping_mul(K);
        let pair = ((u64::from(self.prev) << 32) | u64::from(idx)).wrapping_mul(K);
        self.prev = idx;
        if (self.chunk.len() >= MIN_CHUNK && pair >> 60 == 0) || self.chunk.len() == MAX_CHUNK {
            self.cut()?;
        }
        Ok(())
    }

    #[cold]
    fn lookup(&mut self, d: Delta, slot: usize) -> Result<u32, CircuitError> {
        let idx = match self.delta_index.get(&d) {
            Some(&i) => i,
            None => {
                let i = self.deltas.len() as u32;
                if u64::from(i) >= MAX_TABLE {
                    return Err(CircuitError::TooLarge {
                        what: "distinct term deltas in a layer",
                        value: u64::from(i) + 1,
                        limit: MAX_TABLE,
                    });
                }
                self.deltas.push(d);
                self.delta_index.insert(d, i);
                i
            }
        };
        if let Some(c) = self.cache.get_mut(slot) {
            *c = (d, idx);
        }
        Ok(idx)
    }

    fn cut(&mut self) -> Result<(), CircuitError> {
        if self.chunk.is_empty() {
            return Ok(());
        }
        let fp = self.fingerprint ^ (self.chunk.len() as u64);
        let existing = self.seg_index.get(&fp).copied().filter(|&s| {
            let (a, b) = (
                self.seg_starts[s as usize] as usize,
                self.seg_starts[s as usize + 1] as usize,
            );
            self.seg_items[a..b] == self.chunk[..]
        });
        let seg = match existing {
            Some(s) => s,
            None => {
                let s = (self.seg_starts.len() - 1) as u32;
                if (self.seg_items.len() + self.chunk.len()) as u64 > MAX_TABLE {
                    return Err(CircuitError::TooLarge {
                        what: "segment entries in a layer",
                        value: (self.seg_items.len() + self.chunk.len()) as u64,
                        limit: MAX_TABLE,
                    });
                }
                self.seg_items.extend_from_slice(&self.chunk);
                self.seg_starts.push(self.seg_items.len() as u32);
                self.seg_index.entry(fp).or_insert(s);
                s
            }
        };
        self.tokens.push(seg);
        self.chunk.clear();
        self.fingerprint = 0;
        Ok(())
    }

    /// Finishes the layer.
    pub(crate) fn finish(mut self) -> Result<Compact, CircuitError> {
        self.cut()?;
        Ok(Compact {
            deltas: self.deltas.into_boxed_slice(),
            seg_starts: self.seg_starts.into_boxed_slice(),
            seg_items: self.seg_items.into_boxed_slice(),
            tokens: self.tokens.into_boxed_slice(),
        })
    }
}
