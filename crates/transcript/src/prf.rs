//! The challenge stream: AES-256 in counter mode with a little-endian
//! 128-bit block counter starting at 0.

use aes::cipher::{generic_array::GenericArray, BlockEncrypt, KeyInit};
use aes::Aes256;
use rand_core::{impls, Error, RngCore};

/// Blocks encrypted per refill; several at once let AES-NI pipeline.
const BATCH: usize = 8;
const BLOCK: usize = 16;

/// Keyed AES stream with a buffer of encrypted counter blocks.
#[derive(Clone)]
pub(crate) struct Prf {
    cipher: Aes256,
    /// Index of the next block to encrypt.
    next_block: u128,
    buf: [u8; BATCH * BLOCK],
    /// Read position in `buf`; `buf.len()` when empty.
    pos: usize,
}

impl core::fmt::Debug for Prf {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Never print the key schedule or buffered challenge bytes.
        f.debug_struct("Prf")
            .field("next_block", &self.next_block)
            .field("pos", &self.pos)
            .finish_non_exhaustive()
    }
}

impl Prf {
    pub(crate) fn new(key: &[u8; 32]) -> Self {
        Self {
            cipher: Aes256::new(GenericArray::from_slice(key)),
            next_block: 0,
            buf: [0u8; BATCH * BLOCK],
            pos: BATCH * BLOCK,
        }
    }

    fn refill(&mut self) {
        let mut blocks = [GenericArray::<u8, aes::cipher::consts::U16>::default(); BATCH];
        for block in &mut blocks {
            block.copy_from_slice(&self.next_block.to_le_bytes());
            self.next_block = self.next_block.wrapping_add(1);
        }
        self.cipher.encrypt_blocks(&mut blocks);
        for (chunk, block) in self.buf.chunks_exact_mut(BLOCK).zip(&blocks) {
            chunk.copy_from_slice(block);
        }
        self.pos = 0;
    }
}

impl RngCore for Prf {
    fn next_u32(&mut self) -> u32 {
        impls::next_u32_via_fill(self)
    }

    fn next_u64(&mut self) -> u64 {
        impls::next_u64_via_fill(self)
    }

    fn fill_bytes(&mut self, mut dest: &mut [u8]) {
        while !dest.is_empty() {
            if self.pos == self.buf.len() {
                self.refill();
            }
            let take = dest.len().min(self.buf.len() - self.pos);
            let (now, rest) = dest.split_at_mut(take);
            now.copy_from_slice(&self.buf[self.pos..self.pos + take]);
            self.pos += take;
            dest = rest;
        }
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}
