//! Builds the compact layer form from a stream of term deltas (LFC1).
//!
//! LFC1 stores every term explicitly (12 bytes each; 8.2 M terms in the v7
//! one-attribute pair). Circuits are highly repetitive, so we deduplicate
//! the deltas into a table, cut the resulting index sequence into
//! content-defined chunks (a cut follows a pair of indices whose hash has
//! its top bits clear, so a pattern repeated at any alignment is cut at the
//! same places), and store each distinct chunk once as a segment.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;

use crate::budget::Budget;
use crate::circuit::{Compact, Delta};
use crate::error::CircuitError;
use crate::limits::{MAX_DISTINCT_DELTAS, MAX_TABLE};

/// Keys are hashed with the standard library's per-process keyed SipHash:
/// with an unkeyed hasher a file whose deltas (or chunk fingerprints) share
/// a bucket makes every insertion probe past all earlier ones, and decoding
/// quadratic (35 s of CPU for a crafted 1.5 MB file). Only cache misses and
/// chunk cuts reach the maps, so the slower hash costs little.
type KeyedMap<Key, V> = HashMap<Key, V, RandomState>;

/// Multiplier of the cache slot and chunk fingerprints (their collisions
/// cost a cache miss or a separate segment, never a probe chain).
const K: u64 = 0x9e37_79b9_7f4a_7c15;

/// Bytes charged per entry of the two indices while a layer is compacted:
/// key, value and control byte, doubled for the maps' spare capacity.
const DELTA_INDEX_ENTRY: usize = 2 * (core::mem::size_of::<(Delta, u32)>() + 1);
/// Bytes charged per distinct delta for its successor slot (freed with the
/// indices when the layer is finished).
const SUCCESSOR_ENTRY: usize = core::mem::size_of::<u32>();
const SEG_INDEX_ENTRY: usize = 2 * (core::mem::size_of::<(u64, u32)>() + 1);

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
    delta_index: KeyedMap<Delta, u32>,
    deltas: Vec<Delta>,
    /// Per delta index, the index that followed it last (`u32::MAX`: none).
    successor: Vec<u32>,
    /// Chunk fingerprint → segment; on a fingerprint collision the new
    /// chunk simply becomes its own segment.
    seg_index: KeyedMap<u64, u32>,
    seg_starts: Vec<u32>,
    seg_items: Vec<u32>,
    tokens: Vec<u32>,
    chunk: Vec<u32>,
    fingerprint: u64,
    prev: u32,
    /// The circuit's table budget; the indices' estimate is refunded when
    /// the layer is finished.
    budget: Budget,
    index_bytes: u64,
}

impl Compactor {
    pub(crate) fn new(budget: Budget) -> Self {
        Self {
            cache: vec![EMPTY; 1 << CACHE_BITS].into_boxed_slice(),
            delta_index: KeyedMap::default(),
            deltas: Vec::new(),
            successor: Vec::new(),
            seg_index: KeyedMap::default(),
            seg_starts: vec![0],
            seg_items: Vec::new(),
            tokens: Vec::new(),
            chunk: Vec::with_capacity(MAX_CHUNK),
            fingerprint: 0,
            prev: u32::MAX,
            budget,
            index_bytes: 0,
        }
    }

    /// Appends the next term's delta. Always inlined: called out of line,
    /// the delta went through the stack as four 32-bit stores read back as
    /// two 64-bit loads, which stalled on store forwarding on every term.
    #[inline(always)]
    pub(crate) fn push(&mut self, d: Delta) -> Result<(), CircuitError> {
        let slot = ((u64::from(d.g) | (u64::from(d.h0) << 32)).wrapping_mul(K)
            ^ (u64::from(d.h1) | (u64::from(d.k) << 32)).wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
            >> (64 - CACHE_BITS);
        let slot = slot as usize;
        // Layers repeat short patterns, so the delta that followed the
        // previous one last time is usually the next one again: one load
        // from the (small, hot) successor and delta tables, before the
        // cache, whose 80 KB miss L1 on random slots.
        let guess = self.successor.get(self.prev as usize).copied();
        let idx = match guess {
            Some(g) if self.deltas.get(g as usize) == Some(&d) => g,
            _ => {
                let idx = match self.cache.get(slot) {
                    Some(&(cd, ci)) if cd == d => ci,
                    _ => self.lookup(d, slot)?,
                };
                if let Some(s) = self.successor.get_mut(self.prev as usize) {
                    *s = idx;
                }
                idx
            }
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
                if u64::from(i) >= MAX_DISTINCT_DELTAS {
                    return Err(CircuitError::TooLarge {
                        what: "distinct term deltas in a layer",
                        value: u64::from(i) + 1,
                        limit: MAX_DISTINCT_DELTAS,
                    });
                }
                self.budget.charge(
                    1,
                    core::mem::size_of::<Delta>() + DELTA_INDEX_ENTRY + SUCCESSOR_ENTRY,
                )?;
                self.index_bytes += (DELTA_INDEX_ENTRY + SUCCESSOR_ENTRY) as u64;
                self.deltas.push(d);
                self.successor.push(u32::MAX);
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
                self.budget.charge(self.chunk.len() as u64 + 1, 4)?;
                self.budget.charge(1, SEG_INDEX_ENTRY)?;
                self.index_bytes += SEG_INDEX_ENTRY as u64;
                self.seg_items.extend_from_slice(&self.chunk);
                self.seg_starts.push(self.seg_items.len() as u32);
                self.seg_index.entry(fp).or_insert(s);
                s
            }
        };
        self.budget.charge(1, 4)?;
        self.tokens.push(seg);
        self.chunk.clear();
        self.fingerprint = 0;
        Ok(())
    }

    /// Finishes the layer; returns it and the budget, the indices' share
    /// refunded.
    pub(crate) fn finish(mut self) -> Result<(Compact, Budget), CircuitError> {
        self.cut()?;
        let mut budget = self.budget;
        budget.refund(self.index_bytes);
        Ok((
            Compact {
                deltas: self.deltas.into_boxed_slice(),
                seg_starts: self.seg_starts.into_boxed_slice(),
                seg_items: self.seg_items.into_boxed_slice(),
                tokens: self.tokens.into_boxed_slice(),
            },
            budget,
        ))
    }
}
