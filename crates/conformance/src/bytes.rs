//! A bounds-checked little-endian reader for the vector files' own layouts.

use crate::error::CheckError;

/// Cursor over a vector file; every read is checked.
#[derive(Debug)]
pub struct Cursor<'a> {
    what: &'a str,
    data: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// Reads `data`, naming it `what` in errors.
    pub fn new(what: &'a str, data: &'a [u8]) -> Self {
        Self { what, data, pos: 0 }
    }

    fn err(&self, why: String) -> CheckError {
        CheckError::malformed(self.what, why)
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], CheckError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.data.len())
            .ok_or_else(|| self.err(format!("truncated at byte {} (need {n})", self.pos)))?;
        let s = &self.data[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    /// A u64 little-endian count, bounded by `max`.
    pub fn count(&mut self, max: usize) -> Result<usize, CheckError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        let v = u64::from_le_bytes(a);
        usize::try_from(v)
            .ok()
            .filter(|&v| v <= max)
            .ok_or_else(|| self.err(format!("count {v} exceeds {max}")))
    }

    /// A 32-byte array.
    pub fn array32(&mut self) -> Result<[u8; 32], CheckError> {
        let mut a = [0u8; 32];
        a.copy_from_slice(self.take(32)?);
        Ok(a)
    }

    /// `n` 32-byte arrays, `n` checked against the bytes left first.
    pub fn arrays32(&mut self, n: usize) -> Result<Vec<[u8; 32]>, CheckError> {
        if n > self.remaining() / 32 {
            return Err(self.err(format!("{n} digests do not fit")));
        }
        (0..n).map(|_| self.array32()).collect()
    }

    /// A field element in its canonical encoding.
    pub fn element<F: longfellow_field::Field>(&mut self) -> Result<F, CheckError> {
        let at = self.pos;
        F::from_bytes(self.take(F::BYTES)?)
            .ok_or_else(|| self.err(format!("non-canonical element at byte {at}")))
    }

    /// Bytes left.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Fails unless everything was read.
    pub fn finish(&self) -> Result<(), CheckError> {
        if self.remaining() == 0 {
            Ok(())
        } else {
            Err(self.err(format!("{} trailing bytes", self.remaining())))
        }
    }
}
